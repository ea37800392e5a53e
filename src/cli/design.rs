//! `retrogate table | minimize | emit | verify` for the hardware designs.

use super::args::{
    DesignArgs, EmitArgs, ImplArg, MinimizeArgs, ResultFormat, SticksDesignArgs, TableArgs,
    TableFormat, TruthTableArgs, VerifyArgs, EMIT_THINK_CYCLES,
};
use super::files::{absolute, write_all_or_nothing};
use super::table::Table;
use super::ui::Ui;
use super::CliError;
use crate::bench::properties::ControllerDut;
use crate::bench::sequential::{verify_sticks, Engine, Progress as CosimProgress, VerifyOptions};
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
                    &crate::circuit::top::Design::Sticks(game.clone()),
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
                files.extend(board_constraints(&crate::circuit::top::Design::Jr01, dir)?);
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

/// `--think-cycles` of `verify sticks` when not given: short games for the co-simulation.
pub(super) const VERIFY_THINK_CYCLES: u32 = 2;

/// The longest think time `verify sticks` co-simulates (its games grow with it).
pub(super) const VERIFY_MAX_THINK_CYCLES: u32 = 1000;

/// What `verify` has seen so far: every level or engine that ran, and the failed ones; with
/// `--format json`, each one's JSON and where the document goes.
#[derive(Default)]
pub(super) struct Tally<'a> {
    ran: usize,
    failed: Vec<String>,
    json: Option<&'a mut dyn Write>,
    levels: Vec<serde_json::Value>,
    hardware: Option<serde_json::Value>,
    game: Option<serde_json::Value>,
}

impl<'a> Tally<'a> {
    /// A tally printing text (`json` is `None`) or, at the verdict, one JSON document to `json`.
    pub(super) fn new(json: Option<&'a mut dyn Write>) -> Self {
        Tally {
            json,
            ..Tally::default()
        }
    }

    pub(super) fn add(&mut self, passed: bool, name: String) {
        self.ran += 1;
        if !passed {
            self.failed.push(name);
        }
    }

    /// Records one level's or engine's result for the JSON document.
    pub(super) fn record(&mut self, level: serde_json::Value) {
        self.levels.push(level);
    }

    /// Prints the verdict line (or the JSON document) and turns a failure into the error
    /// (exit 1).
    pub(super) fn verdict(
        &mut self,
        what: &str,
        work: &Path,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        writeln!(
            out,
            "verify {what}: {} of {} levels pass",
            self.ran - self.failed.len(),
            self.ran
        )?;
        out.flush()?;
        if let Some(json) = self.json.take() {
            let doc = serde_json::json!({
                "kind": "verify",
                "design": what,
                "game": self.game,
                "work": work,
                "levels": self.levels,
                "hardware": self.hardware,
                "tools": verify_tool_versions(),
                "ran": self.ran,
                "passed": self.ran - self.failed.len(),
                "verdict": if self.failed.is_empty() { "pass" } else { "fail" },
            });
            let text = serde_json::to_string_pretty(&doc).map_err(|e| step(e.to_string()))?;
            writeln!(json, "{text}")?;
            json.flush()?;
        }
        if self.failed.is_empty() {
            Ok(())
        } else {
            Err(CliError::Failed(format!(
                "verification failed at: {} (logs and waveforms in {})",
                self.failed.join(", "),
                work.display()
            )))
        }
    }
}

/// Prints one level's line (and its first mismatch) and flushes, with the spinner hidden.
fn print_level(
    report: &LevelReport,
    spinner: &super::ui::Spinner,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    spinner.suspend(|| {
        print_levels(std::slice::from_ref(report), out)?;
        out.flush().map_err(CliError::from)
    })
}

/// Which levels run, and the name their lines carry in the failure list (`strategy rom `).
pub(super) struct Chosen<'a> {
    pub(super) levels: &'a [Level],
    pub(super) prefix: &'a str,
}

/// The version line of each simulator and prover `verify` runs (or why it is unknown).
fn verify_tool_versions() -> serde_json::Value {
    use crate::flow::runner::{output, Tool};
    let here = Path::new(".");
    let mut tools = serde_json::Map::new();
    for (tool, flag) in [
        (Tool::Iverilog, "-V"),
        (Tool::Verilator, "--version"),
        (Tool::Yosys, "-V"),
    ] {
        let line = match output(tool, here, [flag], None) {
            Ok(o) => format!("{}\n{}", o.stdout, o.stderr)
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
                .to_owned(),
            Err(e) => e.to_string(),
        };
        tools.insert(tool.program().to_owned(), line.into());
    }
    tools.into()
}

/// One level's result as JSON (keys in docs/json.md): `dir` is its work folder, if it has one.
fn level_json(report: &LevelReport, target: &str, dir: Option<PathBuf>) -> serde_json::Value {
    serde_json::json!({
        "name": report.level.to_string(),
        "level": report.level.number(),
        "target": target,
        "passed": report.passed,
        "vectors": report.vectors,
        "cycles": null,
        "seconds": report.elapsed.as_secs_f64(),
        "detail": report.detail,
        "artifacts": {
            "dir": dir.filter(|d| d.is_dir()),
            "vcd": report.mismatch.as_ref().and_then(|m| m.vcd.clone()),
        },
    })
}

/// The work subfolder of a level (see `bench`), if it has one.
fn level_dir(level: Level, work: &Path) -> Option<PathBuf> {
    let sub = match level {
        Level::RustHdl => return None,
        Level::Icarus => "icarus",
        Level::Verilator => "verilator",
        Level::GateLevel => "gate",
        Level::Formal => "formal",
        Level::Properties => "properties",
        Level::Equivalence => "equivalence",
    };
    Some(work.join(sub))
}

/// Runs the chosen bench levels in order, printing each as soon as it finishes.
pub(super) fn run_levels(
    design: &bench::CombDesign,
    driver: impl FnMut(u32) -> u32,
    work: &Path,
    chosen: Chosen<'_>,
    ui: &Ui,
    out: &mut dyn Write,
    tally: &mut Tally<'_>,
) -> Result<(), CliError> {
    type LevelFn = fn(&bench::CombDesign, &Path) -> Result<LevelReport, bench::BenchError>;
    let Chosen { levels, prefix } = chosen;
    let mut driver = Some(driver);
    for &level in levels {
        if level == Level::Properties {
            continue; // the controller's level: a combinational design has no properties
        }
        let spinner = ui.spinner(&format!("{prefix}{level}"));
        let report = match level {
            Level::RustHdl => {
                let driver = driver.take().expect("rust-hdl runs once");
                bench::rust_hdl_level(design, driver).map_err(step)?
            }
            _ => {
                let run: LevelFn = match level {
                    Level::Icarus => bench::icarus_level,
                    Level::Verilator => bench::verilator_level,
                    Level::GateLevel => bench::gate_level,
                    Level::Equivalence => bench::equivalence::equivalence_level,
                    _ => bench::formal_level,
                };
                run(design, work).map_err(step)?
            }
        };
        print_level(&report, &spinner, out)?;
        if let Some(m) = report.mismatch.as_ref().filter(|_| level != Level::Formal) {
            super::dut::print_counterexample(design, &report, m, work, out)?;
        }
        tally.record(level_json(
            &report,
            &format!("{}{}", design.module, prefix_target(prefix)),
            level_dir(level, work),
        ));
        tally.add(report.passed, format!("{prefix}{}", report.level));
    }
    Ok(())
}

/// The levels `--level` chose, in order (all when none is given).
pub(super) fn chosen_levels(args: &VerifyArgs) -> Vec<Level> {
    if args.levels.is_empty() {
        return Level::ALL.to_vec();
    }
    let mut levels: Vec<Level> = args.levels.iter().map(|&l| l.into()).collect();
    levels.sort();
    levels.dedup();
    levels
}

/// ` (rom)` for the prefix `strategy rom `, nothing for none.
fn prefix_target(prefix: &str) -> String {
    match prefix.trim().strip_prefix("strategy ") {
        Some(i) => format!(" ({i})"),
        None => String::new(),
    }
}

pub fn verify(args: VerifyArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    if args.dut.is_some() || args.mutants.is_some() {
        if args.format == ResultFormat::Json {
            return Err(CliError::Usage(
                "--format json is for retrogate's own designs: drop it with --dut or --mutants"
                    .into(),
            ));
        }
        return super::dut::verify(args, ui, out);
    }
    match args.format {
        ResultFormat::Text => verify_to(args, ui, out, None),
        ResultFormat::Json => verify_to(args, ui, &mut std::io::sink(), Some(out)),
    }
}

/// `verify`, its text to `out` and, when `json` is given, one JSON document there at the end.
fn verify_to(
    args: VerifyArgs,
    ui: &Ui,
    out: &mut dyn Write,
    json: Option<&mut dyn Write>,
) -> Result<(), CliError> {
    let levels = chosen_levels(&args);
    let root = output_folder("--work", Some(&args.work))?.expect("given");
    match args.design {
        DesignArgs::Solver(a) => {
            super::solver::checked(&a)?;
            if !args.levels.is_empty() {
                return Err(CliError::Usage(
                    "`--level` picks among the levels of jr01 and sticks; `verify solver` runs all \
                     of its levels: drop --level"
                        .into(),
                ));
            }
            let work = output_dir::claim(&root, "solver")?;
            super::solver::verify(&a, &work, ui, out, json)
        }
        DesignArgs::Sticks(a) => {
            let game = sticks_game(&a)?;
            sticks_table_of(&game)?;
            let think_cycles = a.think_cycles.unwrap_or(VERIFY_THINK_CYCLES);
            if think_cycles > VERIFY_MAX_THINK_CYCLES {
                return Err(CliError::Usage(format!(
                    "--think-cycles {think_cycles}: verify co-simulates every game cycle by \
                     cycle, each machine move lasting the think time, so it takes at most \
                     {VERIFY_MAX_THINK_CYCLES}; give a smaller --think-cycles (the emitted \
                     controller's own think time is checked by the testbench of `emit sticks \
                     --sim`)"
                )));
            }
            sticks_game_verilog(&game, Impl::Logic, think_cycles)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let work = output_dir::claim(&root, "sticks")?;
            let mut tally = Tally::new(json);
            tally.game = Some(serde_json::json!({
                "count": game.count(),
                "take": game.take(),
                "last": crate::game::Game::last(&game).to_string(),
            }));
            let impls: Vec<Impl> = match a.implementation {
                Some(i) => vec![i.into()],
                None => vec![Impl::Rom, Impl::Logic],
            };
            let strategy_levels = levels.iter().any(|&l| l != Level::Properties);
            for &implementation in impls.iter().filter(|_| strategy_levels) {
                writeln!(
                    out,
                    "verify sticks_strategy ({}) against the solver: {}",
                    implementation.name(),
                    level_list(&comb_levels(&levels))
                )?;
                out.flush()?;
                let design = CombDesign::from_sticks(&game, implementation).map_err(step)?;
                let driver = sticks_strategy_driver(&game, implementation).map_err(step)?;
                let dir = work.join(format!("strategy-{}", implementation.name()));
                std::fs::create_dir_all(&dir).map_err(|source| CliError::Write {
                    path: dir.clone(),
                    source,
                })?;
                let prefix = format!("strategy {} ", implementation.name());
                run_levels(
                    &design,
                    driver,
                    &dir,
                    Chosen {
                        levels: &levels,
                        prefix: &prefix,
                    },
                    ui,
                    out,
                    &mut tally,
                )?;
            }
            let engines: Vec<Engine> = levels
                .iter()
                .filter_map(|l| match l {
                    Level::RustHdl => Some(Engine::RustHdl),
                    Level::Icarus => Some(Engine::Icarus),
                    Level::Verilator => Some(Engine::Verilator),
                    Level::GateLevel => Some(Engine::GateLevel),
                    Level::Formal | Level::Properties | Level::Equivalence => None,
                })
                .collect();
            if !engines.is_empty() {
                let options = VerifyOptions {
                    implementation: impls[impls.len() - 1],
                    think_cycles,
                    engines,
                    ..VerifyOptions::default()
                };
                writeln!(
                    out,
                    "verify sticks_game cycle by cycle against the reference model (think {} cycles): {}",
                    options.think_cycles,
                    options
                        .engines
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                out.flush()?;
                let spinner = ui.spinner("co-simulation");
                let mut printed: Result<(), CliError> = Ok(());
                verify_sticks(&game, &options, &work, &mut |p| match p {
                    CosimProgress::Starting(e) => spinner.say(&format!("co-simulation: {e}")),
                    CosimProgress::Finished(r) if printed.is_ok() => {
                        printed = spinner.suspend(|| super::dut::print_engine(r, out));
                        if r.engine != Engine::Model {
                            tally.record(serde_json::json!({
                                "name": format!("sticks_game {}", r.engine),
                                "level": null,
                                "target": "sticks_game",
                                "passed": r.passed(),
                                "vectors": null,
                                "cycles": r.cycles,
                                "seconds": (r.setup + r.elapsed).as_secs_f64(),
                                "detail": r.detail,
                                "artifacts": {"dir": work, "vcd": null},
                            }));
                            tally.add(r.passed(), format!("sticks_game {}", r.engine));
                        }
                    }
                    _ => {}
                })
                .map_err(step)?;
                printed?;
            }
            if levels.contains(&Level::Equivalence) {
                let verilog = sticks_game_verilog(&game, impls[impls.len() - 1], think_cycles)
                    .map_err(step)?;
                super::proofs::controller_equivalence(&verilog, &work, ui, out, &mut tally)?;
            }
            if levels.contains(&Level::Properties) {
                let dut = ControllerDut::emitted(&game, impls[impls.len() - 1], think_cycles)
                    .map_err(step)?;
                super::proofs::sticks_properties(
                    &game,
                    think_cycles,
                    &dut,
                    &work,
                    ui,
                    out,
                    &mut tally,
                )?;
            }
            tally.verdict("sticks", &work, out)
        }
        DesignArgs::Jr01 => {
            if comb_levels(&levels).is_empty() {
                return Err(CliError::Usage(
                    "`--level properties` checks the sticks_game controller: run it with `verify \
                     sticks`, or give jr01 another level"
                        .into(),
                ));
            }
            let d = jr01()?;
            let work = output_dir::claim(&root, "jr01")?;
            let driver = d.block().map_err(step)?.into_driver();
            writeln!(
                out,
                "verify jr01: {} against the solver's table ({} cared-for inputs): {}",
                JR01_MODULE,
                d.design.cared_count(),
                level_list(&comb_levels(&levels))
            )?;
            out.flush()?;
            let mut tally = Tally::new(json);
            run_levels(
                &d.design,
                driver,
                &work,
                Chosen {
                    levels: &levels,
                    prefix: "",
                },
                ui,
                out,
                &mut tally,
            )?;
            if levels.len() == Level::ALL.len() {
                let figures = {
                    let _spinner =
                        ui.spinner("hardware figures: synth_ice40, nextpnr-ice40, icepack");
                    hardware_figures(&d.design, &work).map_err(step)?
                };
                tally.hardware = Some(serde_json::json!({
                    "luts": figures.luts,
                    "cells": figures.logic_cells,
                    "critical_path_ns": figures.critical_path_ns,
                    "fmax_mhz": figures.fmax_mhz,
                    "target": figures.target,
                    "bitstream": figures.bitstream,
                }));
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
            }
            tally.verdict("jr01", &work, out)
        }
    }
}

/// The levels that apply to a combinational design (all but the controller's properties).
pub(super) fn comb_levels(levels: &[Level]) -> Vec<Level> {
    levels
        .iter()
        .copied()
        .filter(|&l| l != Level::Properties)
        .collect()
}

/// `levels 1 2 5` for the header line.
pub(super) fn level_list(levels: &[Level]) -> String {
    let numbers: Vec<String> = levels.iter().map(|l| l.number().to_string()).collect();
    format!(
        "level{} {}",
        if levels.len() == 1 { "" } else { "s" },
        numbers.join(", ")
    )
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

/// Each board's PCF for `design`, as `(dir/<board>-<design>.pcf, text)`.
pub fn board_constraints(
    design: &crate::circuit::top::Design,
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

#[cfg(test)]
mod verdict_tests {
    use super::*;

    /// The verdict line counts every level that ran; a failure is exit 1 naming the levels,
    /// after the line.
    #[test]
    fn the_verdict_counts_the_levels_and_fails_on_any_failure() {
        let mut tally = Tally::default();
        for (passed, name) in [(true, "level 1"), (false, "level 2"), (true, "level 3")] {
            tally.add(passed, name.to_owned());
        }
        let mut out = Vec::new();
        let err = tally
            .verdict("jr01", Path::new("/w"), &mut out)
            .unwrap_err();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "verify jr01: 2 of 3 levels pass\n"
        );
        assert_eq!(err.exit_code(), 1);
        assert!(err.to_string().contains("failed at: level 2"), "{err}");
        let mut out = Vec::new();
        let mut all = Tally::default();
        all.add(true, "level 5".to_owned());
        all.verdict("sticks", Path::new("/w"), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "verify sticks: 1 of 1 levels pass\n"
        );
    }

    #[test]
    fn levels_are_run_in_order_once() {
        use super::super::args::LevelArg;
        let args = |levels: Vec<LevelArg>| VerifyArgs {
            work: "w".into(),
            levels,
            dut: None,
            top: None,
            mutants: None,
            allow_bounded: false,
            seed: None,
            format: super::super::args::ResultFormat::Text,
            design: DesignArgs::Jr01,
        };
        assert_eq!(chosen_levels(&args(vec![])), Level::ALL.to_vec());
        assert_eq!(
            chosen_levels(&args(vec![
                LevelArg::Formal,
                LevelArg::Icarus,
                LevelArg::Formal
            ])),
            vec![Level::Icarus, Level::Formal]
        );
    }
}
