//! `retrogate table | minimize | emit` for the hardware designs.

use super::args::{
    DesignArgs, EmitArgs, ImplArg, MinimizeArgs, SticksDesignArgs, TableArgs, TableFormat,
    TruthTableArgs, EMIT_THINK_CYCLES,
};
use super::files::{absolute, write_all_or_nothing};
use super::table::Table;
use super::CliError;
use crate::bench;
use crate::bench::sticks::choose_impl;
use crate::bench::CombDesign;
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_strategy::{
    cover_output_bit, sticks_strategy_verilog, Impl, EXACT_PRIME_LIMIT,
};
use crate::designs::{DesignError, Jr01Design, JR01_MODULE};
use crate::game::SticksGame;
use crate::logic::Sop;
use crate::output_dir;
use crate::plugboard::plug_program;
use crate::solver::strategy::Jr01Strategy as Jr01Solution;
use crate::solver::strategy::{sticks_table, SticksTable};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

const INPUTS: [&str; 3] = Jr01Solution::INPUTS;

pub(super) fn step<E: std::fmt::Display>(e: E) -> CliError {
    CliError::Step(e.to_string())
}

pub(super) fn jr01() -> Result<Jr01Design, CliError> {
    Jr01Design::build().map_err(|e: DesignError| step(e))
}

fn bits(word: u32, width: usize) -> Vec<u32> {
    (0..width).rev().map(|i| (word >> i) & 1).collect()
}

/// The stick game of a design's flags.
pub fn sticks_game(a: &SticksDesignArgs) -> Result<SticksGame, CliError> {
    Ok(a.game.game()?)
}

impl From<ImplArg> for Impl {
    fn from(i: ImplArg) -> Impl {
        match i {
            ImplArg::Rom => Impl::Rom,
            ImplArg::Logic => Impl::Logic,
        }
    }
}

pub(super) fn sticks_table_of(game: &SticksGame) -> Result<SticksTable, CliError> {
    sticks_table(game).map_err(|e| CliError::Usage(e.to_string()))
}

pub fn table(args: TableArgs, out: &mut dyn Write) -> Result<(), CliError> {
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
                    let doc = json!({"design": "jr01", "inputs": INPUTS, "outputs": Jr01Solution::OUTPUTS, "rows": rows});
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

fn cover_line(name: &str, sop: &Sop, inputs: &[&str]) -> String {
    format!(
        "{name} = {}    ({} products, {} literals)",
        sop.render(inputs),
        sop.products(),
        sop.literals()
    )
}

pub fn minimize(args: MinimizeArgs, out: &mut dyn Write) -> Result<(), CliError> {
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

/// Resolves an output folder flag to an absolute path and checks it (new, empty or retrogate's).
pub(super) fn output_folder(flag: &str, dir: Option<&Path>) -> Result<Option<PathBuf>, CliError> {
    match dir {
        None => Ok(None),
        Some(dir) => {
            let dir = absolute(dir)?;
            output_dir::check_folder(flag, &dir)?;
            Ok(Some(dir))
        }
    }
}

pub fn emit(args: EmitArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = args.out.as_deref().ok_or_else(|| {
        CliError::Usage(
            "--out is missing: give the directory for the Verilog, e.g. --out hdl".into(),
        )
    })?;
    // Every folder is checked before anything is written or synthesised.
    let dir = output_folder("--out", Some(dir))?.expect("given");
    let sim = output_folder("--sim", args.sim.as_deref())?;
    let constraints = output_folder("--constraints", args.constraints.as_deref())?;
    let files = match args.design {
        DesignArgs::Sticks(a) => {
            let game = sticks_game(&a)?;
            sticks_table_of(&game)?;
            let think_cycles = a.think_cycles.unwrap_or(EMIT_THINK_CYCLES);
            // The controller's Verilog is pure: build it once to refuse bad flags early.
            sticks_game_verilog(&game, Impl::Logic, think_cycles)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let implementation = match a.implementation {
                Some(i) => {
                    writeln!(out, "lookup: {} (as --impl asks)", Impl::from(i).name())?;
                    i.into()
                }
                None => {
                    let work =
                        std::env::temp_dir().join(format!("retrogate-emit-{}", std::process::id()));
                    let temp = crate::interrupt::temp_folder(&work);
                    let choice = choose_impl(&game, None, &work).map_err(step);
                    let _ = std::fs::remove_dir_all(&work);
                    drop(temp);
                    let choice = choice?;
                    writeln!(
                        out,
                        "lookup: rom {} SB_LUT4, logic {} SB_LUT4 after synth_ice40: {} chosen (ties go to logic)",
                        choice.rom_luts, choice.logic_luts, choice.chosen.name()
                    )?;
                    choice.chosen
                }
            };
            let mut files = vec![
                (
                    dir.join("sticks_strategy.v"),
                    sticks_strategy_verilog(&game, implementation).map_err(step)?,
                ),
                (
                    dir.join("sticks_game.v"),
                    sticks_game_verilog(&game, implementation, think_cycles).map_err(step)?,
                ),
            ];
            if let Some(sim) = &sim {
                let design = CombDesign::from_sticks(&game, implementation).map_err(step)?;
                for (name, text) in bench::sim_files(&design).map_err(step)? {
                    files.push((sim.join(name), text));
                }
                for (name, text) in
                    bench::sequential::sim_files(&game, think_cycles).map_err(step)?
                {
                    files.push((sim.join(name), text));
                }
            }
            if let Some(dir) = &constraints {
                files.extend(board_constraints(
                    &crate::flow::Design::Sticks(game.clone()),
                    dir,
                )?);
            }
            files
        }
        DesignArgs::Solver(a) => {
            super::solver::emit(&a, &dir, sim.as_deref(), constraints.as_deref(), out)?
        }
        DesignArgs::Jr01 => {
            let d = jr01()?;
            let mut files = vec![(
                dir.join(format!("{JR01_MODULE}.v")),
                d.design.verilog.clone(),
            )];
            if let Some(sim) = &sim {
                for (name, text) in bench::sim_files(&d.design).map_err(step)? {
                    files.push((sim.join(name), text));
                }
            }
            if let Some(dir) = &constraints {
                files.extend(board_constraints(&crate::flow::Design::Jr01, dir)?);
            }
            files
        }
    };
    write_all_or_nothing(&files)?;
    for (path, _) in &files {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// Each board's PCF for `design`, as `(dir/<board>-<design>.pcf, text)`.
pub fn board_constraints(
    design: &crate::flow::Design,
    dir: &Path,
) -> Result<Vec<(std::path::PathBuf, String)>, CliError> {
    use crate::board::BoardId;
    use crate::circuit::top::{top_verilog, Timing};
    let mut files = Vec::new();
    for board in BoardId::ALL {
        let top =
            top_verilog(board, design, &Timing::for_design(board.board(), design)).map_err(step)?;
        let pcf = top.pcf().map_err(step)?;
        files.push((dir.join(format!("{board}-{}.pcf", design.name())), pcf));
    }
    Ok(files)
}
