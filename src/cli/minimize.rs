//! `retrogate minimize`: a design's outputs as minimal sums of products (and J.R. 01's plug
//! program).

use std::io::Write;

use super::args::{MinimizeArgs, TruthTableArgs};
use super::columns::Table;
use super::design::{jr01, sticks_table_of};
use super::CliError;
use crate::circuit::sticks_strategy::{cover_output_bit, EXACT_PRIME_LIMIT};
use crate::logic::Sop;
use crate::plugboard::plug_program;
use crate::solver::strategy::Jr01Strategy as Jr01Solution;

const INPUTS: [&str; 3] = Jr01Solution::INPUTS;

fn cover_line(name: &str, sop: &Sop, inputs: &[&str]) -> String {
    format!(
        "{name} = {}    ({} products, {} literals)",
        sop.render(inputs),
        sop.products(),
        sop.literals()
    )
}

pub fn run(args: MinimizeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match args.design {
        TruthTableArgs::Sticks(a) => {
            let game = a.game()?;
            let t = sticks_table_of(&game)?;
            let names: Vec<String> = (0..t.sticks_bits).rev().map(|i| format!("n{i}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            writeln!(
                out,
                "sticks_strategy for {} as sums of products over n{}..n0 (as `emit --impl logic` builds it: \
                 an exact minimum cover for a bit with at most {EXACT_PRIME_LIMIT} prime implicants, a greedy cover beyond)",
                crate::cli::report::Report::title(&game),
                t.sticks_bits - 1
            )?;
            for k in (0..t.table.outputs()).rev() {
                let (sop, exact) = cover_output_bit(&t.table, k);
                let name = if k == 0 {
                    "winning".to_string()
                } else {
                    format!("take[{}]", k - 1)
                };
                let kind = if exact {
                    "exact minimum"
                } else {
                    "greedy: irredundant, not proven minimal"
                };
                writeln!(out, "{}  {kind}", cover_line(&name, &sop, &names))?;
            }
        }
        TruthTableArgs::Jr01 => {
            let d = jr01()?;
            writeln!(out, "J.R. 01 strategy as sums of products (Quine-McCluskey prime implicants, exact minimum cover)")?;
            let names = Jr01Solution::OUTPUTS;
            for (name, covers) in names.iter().zip(&d.covers) {
                writeln!(out, "{}", cover_line(name, &covers[0], &INPUTS))?;
                for alt in &covers[1..] {
                    writeln!(out, "  also minimal: {name} = {}", alt.render(&INPUTS))?;
                }
            }
            let chosen = d.chosen();
            let literals: usize = chosen.iter().map(|s| s.literals()).sum();
            let products: usize = chosen.iter().map(|s| s.products()).sum();
            writeln!(out, "total: {products} products, {literals} literals")?;
            writeln!(
                out,
                "each cover is minimal: no sum of products for that output has fewer literals (nor, with as few, fewer products)"
            )?;
            writeln!(out)?;
            let covers: Vec<(&str, &Sop)> = names.iter().copied().zip(chosen).collect();
            let program = plug_program(&covers, &INPUTS);
            writeln!(
                out,
                "J.R. 01 plug program: {} programming columns",
                program.len()
            )?;
            let mut t = Table::new(&["column", "lamp", "bar A", "bar B", "bar C", "product"]);
            for c in &program {
                let mut row = vec![c.number.to_string(), c.lamp.clone()];
                row.extend(c.plugs.iter().map(|p| p.to_string()));
                row.push(c.product.clone());
                t.push(row);
            }
            out.write_all(t.render().as_bytes())?;
            writeln!(
                out,
                "left: plug left of the column (the input); right: plug right of it (the complement); both: plugs on both sides (input neutralised)"
            )?;
        }
    }
    Ok(())
}
