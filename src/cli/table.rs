//! `retrogate table`: a design's truth table, as the solver derives it.

use std::io::Write;

use serde_json::json;

use super::args::{TableArgs, TableFormat, TruthTableArgs};
use super::columns::Table;
use super::design::{jr01, sticks_table_of};
use super::CliError;
use crate::solver::strategy::Jr01Strategy as Jr01Solution;

/// `word`'s low `width` bits, most significant first.
fn bits(word: u32, width: usize) -> Vec<u32> {
    (0..width).rev().map(|i| (word >> i) & 1).collect()
}

pub fn run(args: TableArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match args.design {
        TruthTableArgs::Sticks(a) => {
            let game = a.game()?;
            let t = sticks_table_of(&game)?;
            let rows: Vec<(u64, u32)> = (0..=game.count())
                .filter_map(|n| t.table.row(n as u32).map(|w| (n, w)))
                .collect();
            match args.format {
                TableFormat::Json => {
                    let rows: Vec<_> = rows
                        .iter()
                        .map(|&(n, w)| json!({"sticks": n, "take": w >> 1, "winning": w & 1 == 1}))
                        .collect();
                    let doc = json!({"design": "sticks", "sticks_bits": t.sticks_bits, "take_bits": t.take_bits, "rows": rows});
                    serde_json::to_writer_pretty(&mut *out, &doc).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
                TableFormat::Table => {
                    writeln!(
                        out,
                        "sticks_strategy for {}: sticks ({} bits) -> take ({} bits), winning; codes above {} are don't-cares",
                        crate::cli::report::Report::title(&game),
                        t.sticks_bits,
                        t.take_bits,
                        game.count()
                    )?;
                    let mut tab = Table::new(&["sticks", "take", "winning"]);
                    for (n, w) in rows {
                        tab.push(vec![
                            n.to_string(),
                            (w >> 1).to_string(),
                            (w & 1).to_string(),
                        ]);
                    }
                    out.write_all(tab.render().as_bytes())?;
                }
            }
        }
        TruthTableArgs::Jr01 => {
            let d = jr01()?;
            match args.format {
                TableFormat::Json => {
                    let rows: Vec<_> = d
                        .solution
                        .rows
                        .iter()
                        .map(|r| {
                            json!({
                                "code": r.code,
                                "inputs": bits(r.code, 3),
                                "outputs": bits(r.output, 3),
                                "moves": r.moves.iter().map(|(from, to)| json!({
                                    "phase": from.phase, "before": from.total,
                                    "after_phase": to.phase, "after": to.total,
                                })).collect::<Vec<_>>(),
                            })
                        })
                        .collect();
                    let doc = json!({"design": "jr01", "inputs": Jr01Solution::INPUTS, "outputs": Jr01Solution::OUTPUTS, "rows": rows});
                    serde_json::to_writer_pretty(&mut *out, &doc).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
                TableFormat::Table => {
                    writeln!(out, "J.R. 01 strategy, derived from the seven-matches game (7 matches, 1 or 2 a move)")?;
                    writeln!(out, "A B C: the total after the opponent's move; X Y Z: the total the machine moves to")?;
                    let mut t = Table::new(&["A B C", "|", "X Y Z", "|", "meaning"]);
                    for r in &d.solution.rows {
                        let meaning: Vec<String> = r
                            .moves
                            .iter()
                            .map(|(from, _)| {
                                format!("phase {}: {} -> {}", from.phase, from.total, r.output)
                            })
                            .collect();
                        t.push(vec![
                            crate::play::spaced(r.code),
                            "|".into(),
                            crate::play::spaced(r.output),
                            "|".into(),
                            meaning.join("; "),
                        ]);
                    }
                    out.write_all(t.render().as_bytes())?;
                }
            }
        }
    }
    Ok(())
}
