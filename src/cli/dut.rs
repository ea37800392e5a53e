//! `retrogate verify <jr01|sticks> --dut FILE.v [--top NAME]` (a user's Verilog against the
//! solver) and `verify <jr01|sticks> --mutants N [--seed S]` (the bench measured by the
//! mutants of the emitted Verilog it kills), plus the counterexample lines every `verify`
//! prints when a level fails.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::{DesignArgs, SticksDesignArgs, VerifyArgs};
use super::design::{
    chosen_levels, jr01, level_list, output_folder, run_levels, step, sticks_game, sticks_table_of,
    Chosen, Tally, VERIFY_MAX_THINK_CYCLES, VERIFY_THINK_CYCLES,
};
use super::ui::Ui;
use super::CliError;
use crate::bench::counterexample::{comb_counterexample, controller_svg};
use crate::bench::dut::{verify_controller, Contract, Dut, DutError};
use crate::bench::mutants::{mutants, Fate, Mutant, Score};
use crate::bench::sequential::{Engine, EngineReport, Progress, VerifyOptions};
use crate::bench::{self, BenchError, CombDesign, Level, LevelReport, Mismatch};
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_strategy::Impl;
use crate::game::SticksGame;
use crate::output_dir;

/// Writes the counterexample of a failed combinational level and prints its paths and the
/// first differing output.
pub(super) fn print_counterexample(
    design: &CombDesign,
    report: &LevelReport,
    m: &Mismatch,
    work: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let cx = comb_counterexample(design, report.level, m, work).map_err(step)?;
    writeln!(out, "  first difference: {}", cx.first)?;
    writeln!(
        out,
        "  counterexample: {} (waveform {})",
        cx.svg.display(),
        cx.vcd.display()
    )?;
    out.flush()?;
    Ok(())
}

/// Prints one engine's line and, when it failed, the first mismatch, and draws the cycles
/// around it as an SVG next to the engine's VCD.
pub(super) fn print_engine(r: &EngineReport, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "{r}")?;
    if let Some(m) = &r.mismatch {
        writeln!(
            out,
            "  first mismatch at cycle {} ({}): {} expected {}, actual {}",
            m.cycle, m.segment, m.signal, m.expected, m.actual
        )?;
        if let Some(vcd) = &m.vcd {
            let title = format!(
                "sticks_game under {}: {} expected {}, actual {} after cycle {}'s edge",
                r.engine, m.signal, m.expected, m.actual, m.cycle
            );
            let (svg, first) = controller_svg(vcd, m.cycle, &title).map_err(step)?;
            writeln!(
                out,
                "  counterexample: {} (cycles {first} to {}; waveform {})",
                svg.display(),
                m.cycle + 1,
                vcd.display()
            )?;
        }
    }
    out.flush()?;
    Ok(())
}

fn dut_error(e: DutError) -> CliError {
    if e.is_usage() {
        CliError::Usage(e.to_string())
    } else {
        CliError::Step(e.to_string())
    }
}

/// The line for the rust-hdl level, which a user's Verilog does not have.
const RUST_HDL_SKIPPED: &str = "level 1 (rust-hdl simulation): skipped: not rust-hdl";

/// The game, its widths and the think time of `verify sticks` (checked, nothing written).
fn sticks_setup(a: &SticksDesignArgs) -> Result<(SticksGame, usize, usize, u32), CliError> {
    let game = sticks_game(a)?;
    let t = sticks_table_of(&game)?;
    let think_cycles = a.think_cycles.unwrap_or(VERIFY_THINK_CYCLES);
    if think_cycles > VERIFY_MAX_THINK_CYCLES {
        return Err(CliError::Usage(format!(
            "--think-cycles {think_cycles}: verify co-simulates every game cycle by cycle, so it \
             takes at most {VERIFY_MAX_THINK_CYCLES}; give a smaller --think-cycles"
        )));
    }
    Ok((game, t.sticks_bits, t.take_bits, think_cycles))
}

/// The co-simulation engines of the chosen levels (rust-hdl left out).
fn engines_of(levels: &[Level]) -> Vec<Engine> {
    levels
        .iter()
        .filter_map(|l| match l {
            Level::Icarus => Some(Engine::Icarus),
            Level::Verilator => Some(Engine::Verilator),
            Level::GateLevel => Some(Engine::GateLevel),
            _ => None,
        })
        .collect()
}

pub(super) fn verify(args: VerifyArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    if let DesignArgs::Solver(_) = args.design {
        return Err(CliError::Usage(
            "--dut and --mutants apply to `verify jr01` and `verify sticks`; `verify solver` \
             checks retrogate's own solver circuit: drop them"
                .into(),
        ));
    }
    if args.mutants.is_some() {
        if args.dut.is_some() {
            return Err(CliError::Usage(
                "--mutants mutates retrogate's emitted Verilog; to check your own file give \
                 --dut without --mutants"
                    .into(),
            ));
        }
        return verify_mutants(args, ui, out);
    }
    let path = args.dut.clone().expect("--dut is given");
    if args.levels.contains(&super::args::LevelArg::RustHdl) {
        return Err(CliError::Usage(
            "--level rust-hdl: a --dut file is Verilog, not a rust-hdl block; choose among \
             icarus, verilator, gate-level, formal, properties and equivalence"
                .into(),
        ));
    }
    let all = args.levels.is_empty();
    let levels: Vec<Level> = chosen_levels(&args)
        .into_iter()
        .filter(|&l| l != Level::RustHdl)
        .collect();
    let root = output_folder("--work", Some(&args.work))?.expect("given");
    match &args.design {
        DesignArgs::Jr01 => {
            let d = jr01()?;
            let dut = Dut::read(&path, args.top.as_deref()).map_err(dut_error)?;
            dut.check(Contract::Jr01).map_err(dut_error)?;
            let design = dut.comb_design(Contract::Jr01, d.design.table.clone());
            design
                .validate()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let work = output_dir::claim(&root, "jr01")?;
            writeln!(
                out,
                "verify jr01 --dut {}: module {} against the solver's table ({} cared-for \
                 inputs): {}",
                path.display(),
                dut.top,
                design.cared_count(),
                level_list(&super::design::comb_levels(&levels))
            )?;
            if all {
                writeln!(out, "{RUST_HDL_SKIPPED}")?;
            }
            out.flush()?;
            let mut tally = Tally::default();
            run_levels(
                &design,
                |_| 0,
                &work,
                Chosen {
                    levels: &levels,
                    prefix: "",
                },
                ui,
                out,
                &mut tally,
            )?;
            tally.verdict("jr01", &work, out)
        }
        DesignArgs::Sticks(a) => {
            let (game, w, m, think_cycles) = sticks_setup(a)?;
            if a.implementation.is_some() {
                return Err(CliError::Usage(
                    "--impl picks retrogate's own lookup; with --dut your file is checked as it \
                     is: drop --impl"
                        .into(),
                ));
            }
            let dut = Dut::read(&path, args.top.as_deref()).map_err(dut_error)?;
            let contract = dut.sticks_contract(w, m);
            dut.check(contract).map_err(dut_error)?;
            let mut tally = Tally::default();
            match contract {
                Contract::SticksGame { .. } => {
                    let engines = engines_of(&levels);
                    let proofs = levels
                        .iter()
                        .any(|l| matches!(l, Level::Properties | Level::Equivalence));
                    if engines.is_empty() && !proofs {
                        return Err(CliError::Usage(
                            "a controller is checked by co-simulation and proof: choose --level \
                             icarus, verilator, gate-level, properties or equivalence"
                                .into(),
                        ));
                    }
                    let verilog = dut.controller_verilog(w, m);
                    let work = output_dir::claim(&root, "sticks")?;
                    writeln!(
                        out,
                        "verify sticks --dut {}: controller {} cycle by cycle against the \
                         reference model and the solver (think {think_cycles} cycles): {}",
                        path.display(),
                        dut.top,
                        engines
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )?;
                    if all {
                        writeln!(out, "{RUST_HDL_SKIPPED}")?;
                        writeln!(
                            out,
                            "level 5 (formal equivalence (yosys sat)): skipped: the proof \
                             covers the combinational strategy, not a controller"
                        )?;
                    }
                    out.flush()?;
                    let options = VerifyOptions {
                        think_cycles,
                        engines,
                        ..VerifyOptions::default()
                    };
                    if !options.engines.is_empty() {
                        let spinner = ui.spinner("co-simulation");
                        let mut printed: Result<(), CliError> = Ok(());
                        verify_controller(&game, &options, &verilog, &work, &mut |p| match p {
                            Progress::Starting(e) => spinner.say(&format!("co-simulation: {e}")),
                            Progress::Finished(r) if printed.is_ok() => {
                                printed = spinner.suspend(|| print_engine(r, out));
                                tally.add(r.passed(), format!("{} {}", dut.top, r.engine));
                            }
                            _ => {}
                        })
                        .map_err(step)?;
                        printed?;
                    }
                    // The netlist equivalence runs through the `sticks_game` name
                    // (`controller_verilog` adds a wrapper of that name when the top differs);
                    // the properties wrapper instantiates the user's module by its own name, so
                    // the lines name the module the user wrote.
                    if levels.contains(&Level::Equivalence) {
                        super::proofs::controller_equivalence(
                            &verilog, &work, ui, out, &mut tally,
                        )?;
                    }
                    if levels.contains(&Level::Properties) {
                        let mut controller = crate::bench::properties::ControllerDut::user(
                            dut.verilog.clone(),
                            dut.top.clone(),
                        );
                        controller.allow_bounded = args.allow_bounded;
                        super::proofs::sticks_properties(
                            &game,
                            think_cycles,
                            &controller,
                            &work,
                            ui,
                            out,
                            &mut tally,
                        )?;
                    }
                    tally.verdict("sticks", &work, out)
                }
                _ => {
                    let t = sticks_table_of(&game)?;
                    let design = dut.comb_design(contract, t.table);
                    design
                        .validate()
                        .map_err(|e| CliError::Usage(e.to_string()))?;
                    let work = output_dir::claim(&root, "sticks")?;
                    writeln!(
                        out,
                        "verify sticks --dut {}: strategy lookup {} against the solver ({} \
                         cared-for inputs): {}",
                        path.display(),
                        dut.top,
                        design.cared_count(),
                        level_list(&super::design::comb_levels(&levels))
                    )?;
                    if all {
                        writeln!(out, "{RUST_HDL_SKIPPED}")?;
                    }
                    out.flush()?;
                    run_levels(
                        &design,
                        |_| 0,
                        &work,
                        Chosen {
                            levels: &levels,
                            prefix: "strategy ",
                        },
                        ui,
                        out,
                        &mut tally,
                    )?;
                    tally.verdict("sticks", &work, out)
                }
            }
        }
        DesignArgs::Solver(_) => unreachable!("refused above"),
    }
}

/// One design whose mutants are benched.
enum Original {
    /// A combinational strategy, checked against its table.
    Comb(CombDesign),
    /// The controller, co-simulated; equivalence is a k-induction proof against the original.
    Controller {
        game: SticksGame,
        verilog: String,
        think_cycles: u32,
    },
}

/// Longest induction (and base case) of the equivalence proof of a controller mutant.
pub const CONTROLLER_EQUIV_MAX_STEPS: u32 = 40;

fn verify_mutants(args: VerifyArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    let n = args.mutants.expect("--mutants is given");
    if n == 0 {
        return Err(CliError::Usage(
            "--mutants 0: give how many mutants to make, e.g. --mutants 20".into(),
        ));
    }
    if args.levels.contains(&super::args::LevelArg::RustHdl) {
        return Err(CliError::Usage(
            "--level rust-hdl: mutants are Verilog, not rust-hdl blocks; choose among icarus, \
             verilator, gate-level and formal"
                .into(),
        ));
    }
    let seed = args.seed.unwrap_or(1);
    let levels: Vec<Level> = chosen_levels(&args)
        .into_iter()
        .filter(|&l| l != Level::RustHdl)
        .collect();
    let root = output_folder("--work", Some(&args.work))?.expect("given");
    let (what, originals): (&str, Vec<(String, Original)>) = match &args.design {
        DesignArgs::Jr01 => {
            let d = jr01()?;
            (
                "jr01",
                vec![("jr01_strategy".into(), Original::Comb(d.design))],
            )
        }
        DesignArgs::Sticks(a) => {
            let (game, _, _, think_cycles) = sticks_setup(a)?;
            let impls: Vec<Impl> = match a.implementation {
                Some(i) => vec![i.into()],
                None => vec![Impl::Rom, Impl::Logic],
            };
            let mut list = Vec::new();
            for &i in &impls {
                list.push((
                    format!("sticks_strategy ({})", i.name()),
                    Original::Comb(CombDesign::from_sticks(&game, i).map_err(step)?),
                ));
            }
            if !engines_of(&levels).is_empty() {
                let implementation = impls[impls.len() - 1];
                let verilog = sticks_game_verilog(&game, implementation, think_cycles)
                    .map_err(|e| CliError::Usage(e.to_string()))?;
                list.push((
                    format!("sticks_game ({} lookup)", implementation.name()),
                    Original::Controller {
                        game,
                        verilog,
                        think_cycles,
                    },
                ));
            }
            ("sticks", list)
        }
        DesignArgs::Solver(_) => unreachable!("refused by the caller"),
    };
    let work = output_dir::claim(&root, &format!("{what}-mutants"))?;
    writeln!(
        out,
        "verify {what} --mutants {n} --seed {seed}: each mutant of the emitted Verilog through \
         the --dut bench, {}",
        mutant_levels_said(&levels, &originals)
    )?;
    out.flush()?;
    let mut total = Score::default();
    for (k, (name, original)) in originals.iter().enumerate() {
        let text = match original {
            Original::Comb(d) => &d.verilog,
            Original::Controller { verilog, .. } => verilog,
        };
        let chosen = mutants(text, n, seed);
        writeln!(
            out,
            "{name}: {} mutants of {} sites",
            chosen.len(),
            crate::bench::mutants::sites(text).len()
        )?;
        let mut score = Score::default();
        for mutant in &chosen {
            let dir = work.join(format!("{k}-{}", mutant.number));
            std::fs::create_dir_all(&dir).map_err(|source| CliError::Write {
                path: dir.clone(),
                source,
            })?;
            let spinner = ui.spinner(&format!("{name}: mutant {}", mutant.number));
            let fate = match original {
                Original::Comb(d) => comb_fate(d, mutant, &levels, &dir)?,
                Original::Controller {
                    game,
                    verilog,
                    think_cycles,
                } => controller_fate(game, verilog, *think_cycles, mutant, &levels, &dir)?,
            };
            spinner.suspend(|| {
                writeln!(
                    out,
                    "  mutant {} ({}) {}: {}",
                    mutant.number,
                    mutant.site.operator,
                    mutant.description,
                    describe(&fate)
                )
            })?;
            out.flush()?;
            score.add(&fate);
        }
        writeln!(out, "{name}: {score}")?;
        total.killed += score.killed;
        total.survived += score.survived;
        total.equivalent += score.equivalent;
        total.stillborn += score.stillborn;
    }
    writeln!(out, "verify {what} --mutants: {total}")?;
    out.flush()?;
    if total.survived > 0 {
        return Err(CliError::Failed(format!(
            "{} mutants survived the bench (see above; their files are in {})",
            total.survived,
            work.display()
        )));
    }
    Ok(())
}

/// The levels each kind of mutant runs: a strategy's the simulations and the formal proof
/// against the table; a controller's the co-simulations.
fn mutant_levels(levels: &[Level], original: &Original) -> Vec<Level> {
    let runs: &[Level] = match original {
        Original::Comb(_) => &[
            Level::Icarus,
            Level::Verilator,
            Level::GateLevel,
            Level::Formal,
        ],
        Original::Controller { .. } => &[Level::Icarus, Level::Verilator, Level::GateLevel],
    };
    levels
        .iter()
        .copied()
        .filter(|l| runs.contains(l))
        .collect()
}

/// The header's account of the levels: exactly those run on the mutants (per kind when a
/// strategy and a controller differ), and why each other chosen level is not.
fn mutant_levels_said(levels: &[Level], originals: &[(String, Original)]) -> String {
    let comb = originals
        .iter()
        .find(|(_, o)| matches!(o, Original::Comb(_)))
        .map(|(_, o)| mutant_levels(levels, o));
    let controller = originals
        .iter()
        .find(|(_, o)| matches!(o, Original::Controller { .. }))
        .map(|(_, o)| mutant_levels(levels, o));
    let mut said = match (&comb, &controller) {
        (Some(c), Some(g)) if c != g => format!(
            "the strategies at {}, the controller at {} (co-simulation)",
            level_list(c),
            level_list(g)
        ),
        (Some(l), _) | (None, Some(l)) => level_list(l),
        (None, None) => "no levels".to_owned(),
    };
    let mut skipped = Vec::new();
    for &level in levels {
        let why = match level {
            Level::Formal if comb.is_some() => continue,
            Level::Formal => "a proof against the strategy's table, and a controller has none",
            Level::Properties => {
                "the controller's properties are proved on the emitted controller; a mutant \
                 that the co-simulation does not kill is proved equal to the original or not \
                 (sat -tempinduct), which settles it"
            }
            Level::Equivalence => {
                "a mutant's netlist is synthesised from the mutant itself, so it always equals \
                 its own RTL and cannot kill it"
            }
            _ => continue,
        };
        skipped.push(format!("{} ({}: {why})", level.number(), level.name()));
    }
    if !skipped.is_empty() {
        said.push_str(&format!(
            "; not run on mutants: level {}",
            skipped.join("; level ")
        ));
    }
    said
}

fn describe(fate: &Fate) -> String {
    match fate {
        Fate::Killed { by, detail } => format!("killed by {by}: {detail}"),
        Fate::Equivalent { proof } => format!("equivalent ({proof})"),
        Fate::Survived { reason } => format!("SURVIVED ({reason})"),
        Fate::Stillborn { error } => format!("did not build ({error})"),
    }
}

/// Runs every chosen level on a mutant of a combinational design.
fn comb_fate(
    original: &CombDesign,
    mutant: &Mutant,
    levels: &[Level],
    dir: &Path,
) -> Result<Fate, CliError> {
    let design = CombDesign {
        module: original.module.clone(),
        inputs: original.inputs.clone(),
        outputs: original.outputs.clone(),
        verilog: mutant.verilog.clone(),
        table: original.table.clone(),
    };
    let mut killed: Option<Fate> = None;
    let mut failing: Vec<String> = Vec::new();
    let mut proven = false;
    for &level in levels {
        let run = match level {
            Level::Icarus => bench::icarus_level(&design, dir),
            Level::Verilator => bench::verilator_level(&design, dir),
            Level::GateLevel => bench::gate_level(&design, dir),
            Level::Formal => bench::formal_level(&design, dir),
            // A mutant's netlist equals its own RTL, and a strategy has no controller properties.
            Level::RustHdl | Level::Equivalence | Level::Properties => continue,
        };
        let report = match run {
            Ok(r) => r,
            Err(BenchError::Tool(e)) => {
                return Ok(Fate::Stillborn {
                    error: first_line(&e.to_string()),
                })
            }
            Err(e) => return Err(step(e)),
        };
        if !report.passed {
            failing.push(level.number().to_string());
        }
        if !report.passed && killed.is_none() {
            killed = Some(Fate::Killed {
                by: level.to_string(),
                detail: report.mismatch.map_or_else(
                    || report.detail.clone(),
                    |m| Mismatch { vcd: None, ..m }.to_string(),
                ),
            });
        }
        proven |= level == Level::Formal && report.passed;
    }
    if let Some(Fate::Killed { detail, .. }) = &mut killed {
        detail.push_str(&format!("; failing levels: {}", failing.join(", ")));
    }
    Ok(killed.unwrap_or(if proven {
        Fate::Equivalent {
            proof: "the formal level proves it equal to the solver's table".into(),
        }
    } else {
        Fate::Survived {
            reason: "every level passed and no formal level ran".into(),
        }
    }))
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

/// Co-simulates a controller mutant; when no engine kills it, tries a k-induction equivalence
/// proof against the original.
fn controller_fate(
    game: &SticksGame,
    original: &str,
    think_cycles: u32,
    mutant: &Mutant,
    levels: &[Level],
    dir: &Path,
) -> Result<Fate, CliError> {
    let options = VerifyOptions {
        think_cycles,
        engines: engines_of(levels),
        ..VerifyOptions::default()
    };
    let reports = match verify_controller(game, &options, &mutant.verilog, dir, &mut |_| {}) {
        Ok(r) => r,
        Err(bench::CosimError::Tool(e)) => {
            return Ok(Fate::Stillborn {
                error: first_line(&e.to_string()),
            })
        }
        Err(e) => return Err(step(e)),
    };
    if let Some(r) = reports.iter().find(|r| !r.passed()) {
        let m = r.mismatch.as_ref().expect("a failed engine has a mismatch");
        return Ok(Fate::Killed {
            by: format!("sticks_game {}", r.engine),
            detail: format!(
                "cycle {} ({}): {} expected {}, actual {}",
                m.cycle, m.segment, m.signal, m.expected, m.actual
            ),
        });
    }
    let equiv_dir = dir.join("equiv");
    std::fs::create_dir_all(&equiv_dir).map_err(|source| CliError::Write {
        path: equiv_dir.clone(),
        source,
    })?;
    Ok(
        match induction_equivalent(original, &mutant.verilog, &equiv_dir)? {
            Induction::Proven(k) => Fate::Equivalent {
                proof: format!(
                "yosys sat -tempinduct proves its outputs equal to the original's for every input \
                 sequence from power-on (k-induction, k = {k})"
            ),
            },
            Induction::Differs => Fate::Survived {
                reason: "the co-simulation passes but yosys sat finds an input sequence where it \
                     differs from the original"
                    .into(),
            },
            Induction::Undecided => Fate::Survived {
                reason: format!(
                    "the co-simulation passes and k-induction up to {CONTROLLER_EQUIV_MAX_STEPS} \
                 neither proves it equal to the original nor finds a difference"
                ),
            },
        },
    )
}

/// What the equivalence proof of two controllers found.
enum Induction {
    /// Equal on every input sequence; the induction length.
    Proven(u32),
    /// A reachable difference.
    Differs,
    /// Neither within the step limit.
    Undecided,
}

/// Proves two `sticks_game` texts equal on every input sequence from their power-on state
/// (the registers' `initial` values): each is flattened into a module of its own (`gold`,
/// `gate`), then `miter -equiv` and `sat -tempinduct -prove-asserts` (k-induction).
fn induction_equivalent(gold: &str, gate: &str, dir: &Path) -> Result<Induction, CliError> {
    let mut flat = Vec::new();
    for (name, text) in [("gold", gold), ("gate", gate)] {
        let source = dir.join(format!("{name}_src.v"));
        std::fs::write(&source, text).map_err(|e| CliError::Write {
            path: source.clone(),
            source: e,
        })?;
        let flat_path = dir.join(format!("{name}.v"));
        let script = format!(
            "read_verilog -sv {src}\nhierarchy -top sticks_game\nproc -norom\nflatten\nopt_clean\n\
             rename sticks_game {name}\nwrite_verilog -noattr {out}\n",
            src = source.display(),
            out = flat_path.display()
        );
        yosys_script(dir, &format!("flatten_{name}"), &script)?;
        flat.push(flat_path);
    }
    let script = format!(
        "read_verilog -sv {} {}\nproc -norom\nmiter -equiv -flatten -make_assert gold gate miter\n\
         hierarchy -top miter\nsat -tempinduct -prove-asserts -maxsteps {CONTROLLER_EQUIV_MAX_STEPS} \
         miter\n",
        flat[0].display(),
        flat[1].display()
    );
    let log = yosys_script(dir, "equiv", &script)?;
    if log.contains("Induction step proven: SUCCESS!") {
        let k = log
            .lines()
            .filter_map(|l| l.strip_prefix("Base case for induction length "))
            .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
            .max()
            .unwrap_or(1);
        return Ok(Induction::Proven(k));
    }
    if log.contains("model found for base case: FAIL!") {
        return Ok(Induction::Differs);
    }
    Ok(Induction::Undecided)
}

/// Runs a yosys script in `dir` and returns its output (a failed run is an error).
fn yosys_script(dir: &Path, step_name: &str, script: &str) -> Result<String, CliError> {
    let name = format!("{step_name}.ys");
    let path: PathBuf = dir.join(&name);
    std::fs::write(&path, script).map_err(|source| CliError::Write {
        path: path.clone(),
        source,
    })?;
    let out = crate::flow::runner::run(
        crate::flow::runner::Tool::Yosys,
        dir,
        ["-s", &name],
        Some(&format!("{step_name}.log")),
    )
    .map_err(step)?;
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mutants_header_lists_exactly_the_levels_run() {
        let game = SticksGame::new(6, &[1, 2, 3], crate::game::Last::Loses).unwrap();
        let originals = vec![
            (
                "sticks_strategy (logic)".to_owned(),
                Original::Comb(CombDesign::from_sticks(&game, Impl::Logic).unwrap()),
            ),
            (
                "sticks_game (logic lookup)".to_owned(),
                Original::Controller {
                    game,
                    verilog: String::new(),
                    think_cycles: 1,
                },
            ),
        ];
        let all: Vec<Level> = Level::ALL[1..].to_vec();
        let said = mutant_levels_said(&all, &originals);
        assert!(
            said.starts_with(
                "the strategies at levels 2, 3, 4, 5, the controller at levels 2, 3, 4 \
                 (co-simulation); not run on mutants: level 6 (controller properties"
            ),
            "{said}"
        );
        assert!(
            said.contains("; level 7 (iCE40 netlist equivalence"),
            "{said}"
        );
        // Only the controller: the formal level is named as not run, with its reason.
        let said = mutant_levels_said(&[Level::Icarus, Level::Formal], &originals[1..]);
        assert_eq!(
            said,
            "level 2; not run on mutants: level 5 (formal equivalence (yosys sat): a proof \
             against the strategy's table, and a controller has none)"
        );
        // A strategy alone at the levels it runs: nothing to explain.
        let said = mutant_levels_said(&[Level::Icarus, Level::Formal], &originals[..1]);
        assert_eq!(said, "levels 2, 5");
    }
}
