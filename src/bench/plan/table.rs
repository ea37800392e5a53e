//! The levels of a combinational design (J.R. 01, a stick game's lookup, a user's strategy)
//! against its table, each ending in a [`Check`], with the counterexample of a failure drawn;
//! and the hardware figures of a run of every level.

use std::path::Path;
use std::time::Instant;

use super::{level_dir, Check, CheckResult, Event, Run, Waveform};
use crate::bench::counterexample::comb_counterexample;
use crate::bench::level::Level;
use crate::bench::{
    equivalence, formal_level, gate_level, hardware_figures, icarus_level, rust_hdl_level,
    verilator_level, BenchError, CombDesign, LevelReport,
};

/// rust-hdl's simulation of the block, input by input.
pub type Driver = Box<dyn FnMut(u32) -> u32>;

/// How the checks of one design are named.
#[derive(Clone, Debug)]
pub struct Names {
    /// The target in the JSON document: `jr01_strategy`, `sticks_strategy (rom)`.
    pub target: String,
    /// Before the level in the list of failures: `strategy rom `.
    pub label_prefix: String,
}

impl Names {
    /// The module itself, no prefix.
    pub fn plain(module: &str) -> Self {
        Names {
            target: module.to_owned(),
            label_prefix: String::new(),
        }
    }

    /// The module, labelled `prefix level ...` (`strategy `).
    pub fn prefixed(module: &str, prefix: &str) -> Self {
        Names {
            target: module.to_owned(),
            label_prefix: prefix.to_owned(),
        }
    }
}

/// Runs one level of a combinational design, returning its result (a tool failure is a
/// [`CheckResult::NoVerdict`]).
pub fn run_level(
    design: &CombDesign,
    driver: &mut Option<Driver>,
    level: Level,
    work: &Path,
) -> CheckResult {
    let start = Instant::now();
    let result: Result<LevelReport, BenchError> = match level {
        Level::RustHdl => match driver.take() {
            Some(driver) => rust_hdl_level(design, driver),
            None => {
                return CheckResult::NoVerdict {
                    head: level.to_string(),
                    elapsed: start.elapsed(),
                    reason: "the rust-hdl block could not be built".to_owned(),
                }
            }
        },
        Level::Icarus => icarus_level(design, work),
        Level::Verilator => verilator_level(design, work),
        Level::GateLevel => gate_level(design, work),
        Level::Formal => formal_level(design, work),
        Level::Equivalence => equivalence::equivalence_level(design, work),
        Level::Properties | Level::Bitstream => {
            unreachable!("the plan never runs the properties or level 8 on a combinational design")
        }
    };
    match result {
        Ok(report) => CheckResult::Table(report),
        Err(e) => CheckResult::NoVerdict {
            head: level.to_string(),
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    }
}

/// Runs `levels` on `design` in `work`, recording each check and drawing the counterexample
/// of each failed simulation level.
pub fn run_levels(
    run: &mut Run<'_>,
    design: &CombDesign,
    mut driver: Option<Driver>,
    levels: &[Level],
    work: &Path,
    names: Names,
) {
    for &level in levels {
        let label = format!("{}{level}", names.label_prefix);
        run.started(&label);
        let result = run_level(design, &mut driver, level, work);
        let check = Check {
            level,
            target: names.target.clone(),
            label,
            prefix: String::new(),
            dir: level_dir(work, level).filter(|d| d.is_dir()),
            result,
        };
        run.record(&check);
        if let CheckResult::Table(report) = &check.result {
            if let Some(m) = report.mismatch.as_ref().filter(|_| level != Level::Formal) {
                let waveform = match comb_counterexample(design, level, m, work) {
                    Ok(cx) => Waveform::Table(cx),
                    Err(e) => Waveform::NotDrawn {
                        reason: e.to_string(),
                    },
                };
                run.emit(Event::Counterexample(&waveform));
            }
        }
    }
}

/// Synthesises, places and routes `design` for the hardware figures (a failure is a note).
pub fn hardware(run: &mut Run<'_>, design: &CombDesign, work: &Path) {
    run.started("hardware figures: synth_ice40, nextpnr-ice40, icepack");
    match hardware_figures(design, work) {
        Ok(figures) => run.emit(Event::Hardware(&figures)),
        Err(e) => run.note(&format!("hardware: not measured: {e}")),
    }
}
