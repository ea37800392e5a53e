//! The levels of the on-chip solver `sticks_solver`: every table entry and every solve's cycle
//! count against the software solver, on a fixed exhaustive configuration and a sample (plus
//! the requested size), at levels 1 to 4; then its formal level (a k-induction proof); then
//! level 7, its `synth_ice40` netlist at the requested size proved equal to its RTL (the table's
//! block RAM cut out of both sides, see [`crate::flow::equiv::RAM_MODEL`]). Also what the heap
//! solver's plan ([`super::heaps`]) shares with it: `solver_check`, which runs one level whose
//! engine returns a [`SolverLevelReport`], and `netlist_level` for level 7.

use std::path::Path;
use std::time::Instant;

use super::{Check, CheckResult, Run, Section};
use crate::bench::equivalence::netlist_equivalence;
use crate::bench::level::Level;
use crate::bench::solver::{
    run_solver_level, size_case, solver_cases, solver_level_name, SolverLevelReport,
};
use crate::bench::solver_formal::{run_formal_level, FORMAL_MAX_COUNT, FORMAL_MAX_TAKE};
use crate::circuit::sticks_solver::{sticks_solver_verilog, SOLVER_MODULE};
use crate::verilog::{module_ports, PortDir};

/// The levels of the solver, in order: its own ([`crate::bench::solver::SOLVER_LEVELS`]), then
/// the netlist equivalence.
pub const SOLVER_LEVELS: [Level; 6] = [
    Level::RustHdl,
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
    Level::Equivalence,
];

/// Runs `levels` on the solver's configurations (and the size `max_count`, `max_take` when it
/// is not one of them).
pub fn run(run: &mut Run<'_>, max_count: u64, max_take: u64, levels: &[Level], work: &Path) {
    let mut cases = solver_cases();
    if !cases
        .iter()
        .any(|c| (c.max_count, c.max_take) == (max_count, max_take))
    {
        cases.push(size_case(max_count, max_take));
    }
    let simulated: Vec<Level> = levels
        .iter()
        .copied()
        .filter(|&l| l != Level::Formal && l != Level::Equivalence)
        .collect();
    if !simulated.is_empty() {
        for case in &cases {
            run.section(Section::SolverCase {
                module: SOLVER_MODULE,
                max_count: case.max_count,
                max_take: case.max_take,
                name: case.name,
                solves: case.requests.len(),
                positions: case.positions(),
            });
            for &level in &simulated {
                solver_check(
                    run,
                    SolverCheck::simulated(level, SOLVER_MODULE, case.name),
                    work,
                    || run_solver_level(level, case, work),
                );
            }
        }
    }
    if levels.contains(&Level::Formal) {
        run.section(Section::SolverFormal {
            module: SOLVER_MODULE,
            max_count: FORMAL_MAX_COUNT,
            max_take: FORMAL_MAX_TAKE,
        });
        solver_check(
            run,
            SolverCheck {
                level: Level::Formal,
                target: format!("{SOLVER_MODULE} (formal)"),
                label: "formal".to_owned(),
                head: solver_level_name(Level::Formal).to_owned(),
            },
            work,
            || run_formal_level(work, None),
        );
    }
    if levels.contains(&Level::Equivalence) {
        run.section(Section::SolverNetlist {
            module: SOLVER_MODULE,
            max_count,
            max_take,
        });
        equivalence(run, max_count, max_take, work);
    }
}

/// Level 7: the solver at the requested size, synthesised and proved equal to its RTL.
fn equivalence(run: &mut Run<'_>, max_count: u64, max_take: u64, work: &Path) {
    netlist_level(
        run,
        SOLVER_MODULE,
        sticks_solver_verilog(max_count, max_take).map_err(|e| e.to_string()),
        format!("{SOLVER_MODULE} (C = {max_count}, K = {max_take})"),
        work,
    );
}

/// How a check whose engine returns a [`SolverLevelReport`] (a simulated level, a formal
/// check, a properties proof) is announced and recorded.
pub(super) struct SolverCheck {
    /// The level.
    pub(super) level: Level,
    /// What was checked, as the JSON's `target` says it: `heaps_solver (formal)`.
    pub(super) target: String,
    /// Its name in the list of failures, and (announced) in the progress line.
    pub(super) label: String,
    /// The head of its line when the engine gives no verdict.
    pub(super) head: String,
}

impl SolverCheck {
    /// A simulated level (1 to 4) of `module` on the configuration `case`.
    pub(super) fn simulated(level: Level, module: &str, case: &str) -> Self {
        let name = solver_level_name(level);
        SolverCheck {
            level,
            target: format!("{module} ({case})"),
            label: format!("{case} {name}"),
            head: format!("{name} [{case}]"),
        }
    }
}

/// Runs one [`SolverCheck`]: announced, `engine` run, its report recorded (an engine error as
/// no verdict, which fails), with `work` as its folder.
pub(super) fn solver_check<E: std::fmt::Display>(
    run: &mut Run<'_>,
    check: SolverCheck,
    work: &Path,
    engine: impl FnOnce() -> Result<SolverLevelReport, E>,
) {
    run.started(&check.label);
    let start = Instant::now();
    let result = match engine() {
        Ok(report) => CheckResult::Solver(report),
        Err(e) => CheckResult::NoVerdict {
            head: check.head,
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    };
    run.record(&Check {
        level: check.level,
        target: check.target,
        label: check.label,
        prefix: String::new(),
        dir: Some(work.to_path_buf()),
        result,
    });
}

/// Level 7 of an on-chip solver `module` (the stick solver's, the heap solver's): `verilog`
/// (or why it could not be made) synthesised with `synth_ice40` and proved equal to itself
/// ([`netlist_equivalence`]), in `work`'s level-7 folder, recorded as `target`.
pub(super) fn netlist_level(
    run: &mut Run<'_>,
    module: &str,
    verilog: Result<String, String>,
    target: String,
    work: &Path,
) {
    let level = Level::Equivalence;
    run.started(&format!("{module}: netlist equivalence"));
    let dir = work.join(level.folder().expect("a folder"));
    let start = Instant::now();
    let proved = verilog.and_then(|verilog| {
        let outputs: Vec<String> = module_ports(&verilog, module)
            .ok_or_else(|| format!("{module}: no port declarations in its Verilog"))?
            .into_iter()
            .filter(|p| p.dir != PortDir::Input)
            .map(|p| p.name)
            .collect();
        netlist_equivalence(&dir, &verilog, module, &outputs).map_err(|e| e.to_string())
    });
    let result = match proved {
        Ok(report) => CheckResult::Table(report),
        Err(reason) => CheckResult::NoVerdict {
            head: level.to_string(),
            elapsed: start.elapsed(),
            reason,
        },
    };
    run.record(&Check {
        level,
        target,
        label: format!("{module} {level}"),
        prefix: format!("{module} "),
        dir: Some(dir).filter(|d| d.is_dir()),
        result,
    });
}
