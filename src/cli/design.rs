//! `retrogate table | minimize | emit | verify` for the hardware designs.

use super::args::{
    DesignArgs, EmitArgs, ImplArg, MinimizeArgs, SticksDesignArgs, TableArgs, TableFormat,
    TruthTableArgs, VerifyArgs,
};
use super::files::write_all_or_nothing;
use super::table::Table;
use super::ui::Ui;
use super::CliError;
use crate::bench::sequential::{verify_sticks, Progress as CosimProgress, VerifyOptions};
use crate::bench::sticks::choose_impl;
use crate::bench::CombDesign;
use crate::bench::{self, hardware_figures, Level, LevelReport};
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_strategy::{
    cover_output_bit, sticks_strategy_driver, sticks_strategy_verilog, Impl, EXACT_PRIME_LIMIT,
};
use crate::circuit::CombBlock;
use crate::designs::{DesignError, Jr01Design, JR01_MODULE};
use crate::game::SticksGame;
use crate::logic::Sop;
use crate::plugboard::plug_program;
use crate::solver::strategy::Jr01Strategy as Jr01Solution;
use crate::solver::strategy::{sticks_table, SticksTable};
use serde_json::json;
use std::io::Write;
use std::path::Path;

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

fn sticks_table_of(game: &SticksGame) -> Result<SticksTable, CliError> {
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

pub fn emit(args: EmitArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = args.out.ok_or_else(|| {
        CliError::Usage(
            "--out is missing: give the directory for the Verilog, e.g. --out hdl".into(),
        )
    })?;
    match args.design {
        DesignArgs::Sticks(a) => {
            let game = sticks_game(&a)?;
            sticks_table_of(&game)?;
            let implementation = match a.implementation {
                Some(i) => {
                    writeln!(out, "lookup: {:?} (forced with --impl)", Impl::from(i))?;
                    i.into()
                }
                None => {
                    let work =
                        std::env::temp_dir().join(format!("retrogate-emit-{}", std::process::id()));
                    let choice = choose_impl(&game, None, &work).map_err(step);
                    let _ = std::fs::remove_dir_all(&work);
                    let choice = choice?;
                    writeln!(
                        out,
                        "lookup: ROM {} SB_LUT4, logic {} SB_LUT4 after synth_ice40: {:?} chosen (ties go to the logic)",
                        choice.rom_luts, choice.logic_luts, choice.chosen
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
                    sticks_game_verilog(&game, implementation, a.think_cycles).map_err(step)?,
                ),
            ];
            if let Some(dir) = &args.constraints {
                files.extend(board_constraints(
                    &crate::flow::Design::Sticks(game.clone()),
                    dir,
                )?);
            }
            write_all_or_nothing(&files)?;
            for (path, _) in &files {
                writeln!(out, "wrote {}", path.display())?;
            }
        }
        DesignArgs::Solver(a) => super::solver::emit(
            &a,
            &dir,
            args.sim.as_deref(),
            args.constraints.is_some(),
            out,
        )?,
        DesignArgs::Jr01 => {
            let d = jr01()?;
            let mut files = vec![(
                dir.join(format!("{JR01_MODULE}.v")),
                d.design.verilog.clone(),
            )];
            if let Some(sim) = &args.sim {
                for (name, text) in bench::sim_files(&d.design).map_err(step)? {
                    files.push((sim.join(name), text));
                }
            }
            if let Some(dir) = &args.constraints {
                files.extend(board_constraints(&crate::flow::Design::Jr01, dir)?);
            }
            write_all_or_nothing(&files)?;
            for (path, _) in &files {
                writeln!(out, "wrote {}", path.display())?;
            }
        }
    }
    Ok(())
}

/// The five bench levels, one spinner message each (see [`bench::run_all`]).
fn run_levels(
    design: &bench::CombDesign,
    driver: impl FnMut(u32) -> u32,
    work: &Path,
    ui: &Ui,
) -> Result<Vec<LevelReport>, CliError> {
    let spinner = ui.spinner(&Level::RustHdl.to_string());
    let mut reports = vec![bench::rust_hdl_level(design, driver).map_err(step)?];
    type LevelFn = fn(&bench::CombDesign, &Path) -> Result<LevelReport, bench::BenchError>;
    let levels: [(Level, LevelFn); 4] = [
        (Level::Icarus, bench::icarus_level),
        (Level::Verilator, bench::verilator_level),
        (Level::GateLevel, bench::gate_level),
        (Level::Formal, bench::formal_level),
    ];
    for (level, run) in levels {
        spinner.say(&level.to_string());
        reports.push(run(design, work).map_err(step)?);
    }
    Ok(reports)
}

pub fn verify(args: VerifyArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    match args.design {
        DesignArgs::Solver(a) => super::solver::verify(&a, &args.work, ui, out),
        DesignArgs::Sticks(a) => {
            let game = sticks_game(&a)?;
            sticks_table_of(&game)?;
            let work = args.work.join("sticks");
            std::fs::create_dir_all(&work).map_err(|source| CliError::Write {
                path: work.clone(),
                source,
            })?;
            let mut failed = Vec::new();
            let impls: Vec<Impl> = match a.implementation {
                Some(i) => vec![i.into()],
                None => vec![Impl::Rom, Impl::Logic],
            };
            for &implementation in &impls {
                writeln!(
                    out,
                    "verify sticks_strategy ({implementation:?}) against the solver at every level"
                )?;
                let design = CombDesign::from_sticks(&game, implementation).map_err(step)?;
                let driver = sticks_strategy_driver(&game, implementation).map_err(step)?;
                let dir = work.join(format!("strategy-{implementation:?}").to_lowercase());
                std::fs::create_dir_all(&dir).map_err(|source| CliError::Write {
                    path: dir.clone(),
                    source,
                })?;
                let spinner = ui.spinner("strategy: five levels");
                let reports = bench::run_all(&design, driver, &dir).map_err(step)?;
                drop(spinner);
                print_levels(&reports, out)?;
                failed.extend(
                    reports
                        .iter()
                        .filter(|r| !r.passed)
                        .map(|r| format!("strategy {implementation:?} {}", r.level)),
                );
            }
            let options = VerifyOptions {
                implementation: impls[impls.len() - 1],
                ..VerifyOptions::default()
            };
            writeln!(out, "verify sticks_game cycle by cycle: reference model, rust-hdl, Icarus, Verilator, gate level (think {} cycles)", options.think_cycles)?;
            let spinner = ui.spinner("co-simulation");
            let reports = verify_sticks(&game, &options, &work, &mut |p| {
                if let CosimProgress::Starting(e) = p {
                    spinner.say(&format!("co-simulation: {e}"))
                }
            })
            .map_err(step)?;
            drop(spinner);
            for r in &reports {
                writeln!(out, "{r}")?;
                if let Some(m) = &r.mismatch {
                    writeln!(
                        out,
                        "  first mismatch at cycle {} ({}): {} expected {}, actual {}",
                        m.cycle, m.segment, m.signal, m.expected, m.actual
                    )?;
                }
                if !r.passed() {
                    failed.push(format!("{}", r.engine));
                }
            }
            if !failed.is_empty() {
                return Err(CliError::Failed(format!(
                    "verification failed at: {} (logs and waveforms in {})",
                    failed.join(", "),
                    work.display()
                )));
            }
            Ok(())
        }
        DesignArgs::Jr01 => {
            let d = jr01()?;
            let work = args.work.join("jr01");
            std::fs::create_dir_all(&work).map_err(|source| CliError::Write {
                path: work.clone(),
                source,
            })?;
            let driver = d.block().map_err(step)?.into_driver();
            writeln!(
                out,
                "verify jr01: {} against the solver's table ({} cared-for inputs)",
                JR01_MODULE,
                d.design.cared_count()
            )?;
            out.flush()?;
            let reports = run_levels(&d.design, driver, &work, ui)?;
            print_levels(&reports, out)?;
            out.flush()?;
            let figures = {
                let _spinner = ui.spinner("hardware figures: synth_ice40, nextpnr-ice40, icepack");
                hardware_figures(&d.design, &work).map_err(step)?
            };
            writeln!(
                out,
                "hardware: {} SB_LUT4 after synth_ice40; {} on {}",
                figures.luts,
                figures
                    .critical_path_ns
                    .map_or("no critical path reported".to_string(), |ns| format!(
                        "critical path {ns:.2} ns"
                    )),
                figures.target
            )?;
            fail_on_mismatch(&reports, &work)
        }
    }
}

fn print_levels(reports: &[LevelReport], out: &mut dyn Write) -> Result<(), CliError> {
    for r in reports {
        writeln!(out, "{r}")?;
        if let Some(m) = &r.mismatch {
            writeln!(
                out,
                "  first mismatch: input {:0w$b}: expected {:b}, actual {}{}",
                m.input,
                m.expected,
                m.actual,
                m.vcd
                    .as_ref()
                    .map_or(String::new(), |p| format!("; waveform {}", p.display())),
                w = m.input_width
            )?;
        }
    }
    Ok(())
}

fn fail_on_mismatch(reports: &[LevelReport], work: &Path) -> Result<(), CliError> {
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| !r.passed)
        .map(|r| r.level.to_string())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "verification failed at: {} (logs in {})",
            failed.join(", "),
            work.display()
        )))
    }
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
        let top = top_verilog(board, design, &Timing::for_board(board.board())).map_err(step)?;
        let pcf = top.pcf().map_err(step)?;
        files.push((dir.join(format!("{board}-{}.pcf", design.name())), pcf));
    }
    Ok(files)
}
