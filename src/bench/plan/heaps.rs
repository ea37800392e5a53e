//! The levels of the on-chip heap solver `heaps_solver`: every table entry and every solve's
//! cycle count against the software solver, on a fixed small configuration (T = 15, A = 2,
//! M = 3: every subset of the moves) and on the requested size, at levels 1 to 4 (level 4 on the
//! subset of the solves [`gate_case`] keeps).

use std::path::Path;
use std::time::Instant;

use super::{Check, CheckResult, Run, Section};
use crate::bench::heaps_solver::{gate_case, run_heaps_level, verify_cases};
use crate::bench::level::Level;
use crate::bench::solver::solver_level_name;
use crate::circuit::heaps_solver::HEAPS_SOLVER_MODULE;

/// Runs `levels` on the heap solver's configurations ([`verify_cases`]).
pub fn run(
    run: &mut Run<'_>,
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    levels: &[Level],
    work: &Path,
) {
    for case in verify_cases(max_target, max_add, max_mul) {
        run.section(Section::HeapsCase {
            module: HEAPS_SOLVER_MODULE,
            max_target: case.max_target,
            max_add: case.max_add,
            max_mul: case.max_mul,
            name: case.name,
            solves: case.requests.len(),
            positions: case.positions(),
        });
        for &level in levels {
            let label = format!("{} {}", case.name, solver_level_name(level));
            run.started(&format!("{}: {}", case.name, solver_level_name(level)));
            let start = Instant::now();
            // The netlist runs a subset of the solves (see `gate_case`).
            let gate;
            let solves = if level == Level::GateLevel {
                gate = gate_case(&case);
                &gate
            } else {
                &case
            };
            let result = match run_heaps_level(level, solves, work) {
                Ok(report) => CheckResult::Solver(report),
                Err(e) => CheckResult::NoVerdict {
                    head: format!("{} [{}]", solver_level_name(level), case.name),
                    elapsed: start.elapsed(),
                    reason: e.to_string(),
                },
            };
            run.record(&Check {
                level,
                target: format!("{HEAPS_SOLVER_MODULE} ({})", case.name),
                label,
                prefix: String::new(),
                dir: Some(work.to_path_buf()),
                result,
            });
        }
    }
}
