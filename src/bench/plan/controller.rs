//! The levels of a stick game: its lookups against the solver's table ([`super::table`]),
//! then its `sticks_game` controller (retrogate's or a user's) co-simulated cycle by cycle on
//! each engine, its netlist proved equal to its RTL, and its properties proved, with cover
//! traces.

use std::path::Path;
use std::time::Instant;

use super::table::{self, Names};
use super::{level_dir, Check, CheckResult, DutFile, Event, Run, Section, SticksDesign, Waveform};
use crate::bench::counterexample::controller_svg;
use crate::bench::dut::verify_controller;
use crate::bench::equivalence::netlist_equivalence;
use crate::bench::level::Level;
use crate::bench::properties::{cover_traces, properties_level, ControllerDut};
use crate::bench::sequential::{verify_sticks, Engine, EngineReport, VerifyOptions};
use crate::bench::CombDesign;
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_strategy::{sticks_strategy_driver, Impl};
use crate::circuit::GAME_MODULE;
use crate::model::Outputs;

/// `verify sticks`: each lookup at its levels, then the controller.
pub fn run_sticks(
    run: &mut Run<'_>,
    sticks: &SticksDesign,
    impls: &[Impl],
    levels: &[Level],
    work: &Path,
) {
    let game = &sticks.game;
    let strategy_levels: Vec<Level> = levels
        .iter()
        .copied()
        .filter(|&l| l != Level::Properties)
        .collect();
    if !strategy_levels.is_empty() {
        for &implementation in impls {
            run.section(Section::Table {
                subject: format!("verify sticks_strategy ({})", implementation.name()),
                against: "the solver",
                cared: None,
                levels: strategy_levels.clone(),
            });
            let dir = work.join(format!("strategy-{}", implementation.name()));
            let design = CombDesign::from_sticks(game, implementation);
            let design = match design {
                Ok(d) => d,
                Err(e) => {
                    run.note(&format!(
                        "sticks_strategy ({}) could not be built: {e}",
                        implementation.name()
                    ));
                    continue;
                }
            };
            let driver = sticks_strategy_driver(game, implementation).ok();
            table::run_levels(
                run,
                &design,
                driver,
                &strategy_levels,
                &dir,
                Names::prefixed(
                    &format!("sticks_strategy ({})", implementation.name()),
                    &format!("strategy {} ", implementation.name()),
                ),
            );
        }
    }
    let controller_impl = impls[impls.len() - 1];
    let engines: Vec<Engine> = levels.iter().filter_map(|l| l.engine()).collect();
    if !engines.is_empty() {
        run.section(Section::Cosim {
            subject: format!("verify {GAME_MODULE}"),
            against: "the reference model",
            think: sticks.think_cycles,
            engines: engines.clone(),
        });
        let mut reference_shown = false;
        for engine in engines {
            run.started(&format!("co-simulation: {engine}"));
            let options = VerifyOptions {
                implementation: controller_impl,
                think_cycles: sticks.think_cycles,
                engines: vec![engine],
                ..VerifyOptions::default()
            };
            let start = Instant::now();
            let result = verify_sticks(game, &options, work, &mut |_| {});
            let report = match result {
                Ok(reports) => {
                    if !reference_shown {
                        if let Some(model) = reports.iter().find(|r| r.engine == Engine::Model) {
                            run.emit(Event::Reference(model));
                            reference_shown = true;
                        }
                    }
                    match reports.into_iter().find(|r| r.engine == engine) {
                        Some(r) => CheckResult::Cosim(r),
                        None => no_verdict(engine, start, "the engine gave no report".into()),
                    }
                }
                Err(e) => no_verdict(engine, start, e.to_string()),
            };
            record_engine(run, engine, GAME_MODULE, GAME_MODULE, report, work);
        }
    }
    if levels.contains(&Level::Equivalence) {
        match sticks_game_verilog(game, controller_impl, sticks.think_cycles) {
            Ok(verilog) => equivalence(run, &verilog, work),
            Err(e) => run.note(&format!("{GAME_MODULE} could not be emitted: {e}")),
        }
    }
    if levels.contains(&Level::Properties) {
        match ControllerDut::emitted(game, controller_impl, sticks.think_cycles) {
            Ok(dut) => properties(run, sticks, &dut, work),
            Err(e) => run.note(&format!("{GAME_MODULE} could not be emitted: {e}")),
        }
    }
}

/// `verify sticks --dut C.v` for a controller: co-simulation, netlist equivalence, properties.
pub fn run_dut(
    run: &mut Run<'_>,
    file: &DutFile,
    sticks: &SticksDesign,
    levels: &[Level],
    skipped: &[(Level, String)],
    work: &Path,
) {
    let game = &sticks.game;
    let dut = &file.dut;
    let (w, m) = match file.contract {
        crate::bench::dut::Contract::SticksGame { w, m } => (w, m),
        _ => unreachable!("a controller's contract"),
    };
    let engines: Vec<Engine> = levels.iter().filter_map(|l| l.engine()).collect();
    run.section(Section::Cosim {
        subject: format!(
            "verify sticks --dut {}: controller {}",
            dut.path.display(),
            dut.top
        ),
        against: "the reference model and the solver",
        think: sticks.think_cycles,
        engines: engines.clone(),
    });
    for (level, reason) in skipped {
        run.emit(Event::Skipped {
            level: *level,
            reason,
        });
    }
    let verilog = dut.controller_verilog(w, m);
    for engine in engines {
        run.started(&format!("co-simulation: {engine}"));
        let options = VerifyOptions {
            think_cycles: sticks.think_cycles,
            engines: vec![engine],
            ..VerifyOptions::default()
        };
        let start = Instant::now();
        let report = match verify_controller(game, &options, &verilog, work, &mut |_| {}) {
            Ok(reports) => match reports.into_iter().find(|r| r.engine == engine) {
                Some(r) => CheckResult::Cosim(r),
                None => no_verdict(engine, start, "the engine gave no report".into()),
            },
            Err(e) => no_verdict(engine, start, e.to_string()),
        };
        record_engine(run, engine, &dut.top, &dut.top, report, work);
    }
    // The netlist equivalence runs through the `sticks_game` name (`controller_verilog` adds a
    // wrapper of that name when the top differs); the properties wrapper instantiates the
    // user's module by its own name, so the lines name the module the user wrote.
    if levels.contains(&Level::Equivalence) {
        equivalence(run, &verilog, work);
    }
    if levels.contains(&Level::Properties) {
        let mut controller = ControllerDut::user(dut.verilog.clone(), dut.top.clone());
        controller.allow_bounded = file.allow_bounded;
        properties(run, sticks, &controller, work);
    }
}

fn no_verdict(engine: Engine, start: Instant, reason: String) -> CheckResult {
    CheckResult::NoVerdict {
        head: engine.to_string(),
        elapsed: start.elapsed(),
        reason,
    }
}

/// Records one engine's check on `target`, and draws its counterexample when it failed.
fn record_engine(
    run: &mut Run<'_>,
    engine: Engine,
    target: &str,
    label_target: &str,
    result: CheckResult,
    work: &Path,
) {
    let level = Level::of_engine(engine).expect("an engine of a level");
    let check = Check {
        level,
        target: target.to_owned(),
        label: format!("{label_target} {engine}"),
        prefix: String::new(),
        dir: Some(work.to_path_buf()),
        result,
    };
    run.record(&check);
    if let CheckResult::Cosim(report) = &check.result {
        if let Some(waveform) = controller_waveform(report) {
            run.emit(Event::Counterexample(&waveform));
        }
    }
}

/// The cycles before an engine's first mismatch, drawn from its VCD.
fn controller_waveform(r: &EngineReport) -> Option<Waveform> {
    let m = r.mismatch.as_ref()?;
    let vcd = m.vcd.as_ref()?;
    let title = format!(
        "sticks_game under {}: {} expected {}, actual {} after cycle {}'s edge",
        r.engine, m.signal, m.expected, m.actual, m.cycle
    );
    Some(match controller_svg(vcd, m.cycle, &title) {
        Ok((svg, first)) => Waveform::Controller {
            svg,
            first,
            last: m.cycle + 1,
            vcd: vcd.clone(),
        },
        Err(e) => Waveform::NotDrawn {
            reason: e.to_string(),
        },
    })
}

/// The controller's netlist proved equal to its RTL (level 7), in
/// `work/controller-equivalence`.
fn equivalence(run: &mut Run<'_>, verilog: &str, work: &Path) {
    let level = Level::Equivalence;
    run.started(&format!("{GAME_MODULE}: netlist equivalence"));
    let outputs: Vec<String> = Outputs::NAMES.iter().map(|s| (*s).to_owned()).collect();
    let dir = work.join("controller-equivalence");
    let start = Instant::now();
    let result = match netlist_equivalence(&dir, verilog, GAME_MODULE, &outputs) {
        Ok(report) => CheckResult::Table(report),
        Err(e) => CheckResult::NoVerdict {
            head: level.to_string(),
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    };
    let check = Check {
        level,
        target: GAME_MODULE.to_owned(),
        label: format!("{GAME_MODULE} {level}"),
        prefix: format!("{GAME_MODULE} "),
        dir: Some(dir).filter(|d| d.is_dir()),
        result,
    };
    run.record(&check);
}

/// The controller's properties (level 6), then its cover traces.
fn properties(run: &mut Run<'_>, sticks: &SticksDesign, dut: &ControllerDut, work: &Path) {
    let level = Level::Properties;
    run.section(Section::Proof {
        top: dut.top.clone(),
        think: sticks.think_cycles,
    });
    run.started("properties: yosys-smtbmc with z3, ABC pdr");
    let start = Instant::now();
    let result = match properties_level(&sticks.game, sticks.think_cycles, dut, work) {
        Ok(report) => CheckResult::Table(report),
        Err(e) => CheckResult::NoVerdict {
            head: level.to_string(),
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    };
    let check = Check {
        level,
        target: dut.top.clone(),
        label: format!("{} {level}", dut.top),
        prefix: String::new(),
        dir: level_dir(work, level).filter(|d| d.is_dir()),
        result,
    };
    run.record(&check);
    run.started("cover traces: yosys-smtbmc -c with z3");
    match cover_traces(&sticks.game, sticks.think_cycles, dut, work) {
        Ok(traces) => {
            for trace in &traces {
                run.emit(Event::Cover(trace));
            }
        }
        Err(e) => run.note(&format!("cover traces: not drawn: {e}")),
    }
}
