//! The levels of the on-chip solver `sticks_solver`: every table entry and every solve's cycle
//! count against the software solver, on a fixed exhaustive configuration and a sample (plus
//! the requested size), at levels 1 to 4; then its formal level (a k-induction proof).

use std::path::Path;
use std::time::Instant;

use super::{Check, CheckResult, Run, Section};
use crate::bench::level::Level;
use crate::bench::solver::{run_solver_level, size_case, solver_cases, solver_level_name};
use crate::bench::solver_formal::{run_formal_level, FORMAL_MAX_COUNT, FORMAL_MAX_TAKE};
use crate::circuit::sticks_solver::SOLVER_MODULE;

/// The levels of the solver, in order.
pub const SOLVER_LEVELS: [Level; 5] = crate::bench::solver::SOLVER_LEVELS;

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
        .filter(|&l| l != Level::Formal)
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
                let label = format!("{} {}", case.name, solver_level_name(level));
                run.started(&format!("{}: {}", case.name, solver_level_name(level)));
                let start = Instant::now();
                let result = match run_solver_level(level, case, work) {
                    Ok(report) => CheckResult::Solver(report),
                    Err(e) => CheckResult::NoVerdict {
                        head: format!("{} [{}]", solver_level_name(level), case.name),
                        elapsed: start.elapsed(),
                        reason: e.to_string(),
                    },
                };
                run.record(&Check {
                    level,
                    target: format!("{SOLVER_MODULE} ({})", case.name),
                    label,
                    prefix: String::new(),
                    dir: Some(work.to_path_buf()),
                    result,
                });
            }
        }
    }
    if levels.contains(&Level::Formal) {
        run.section(Section::SolverFormal {
            module: SOLVER_MODULE,
            max_count: FORMAL_MAX_COUNT,
            max_take: FORMAL_MAX_TAKE,
        });
        run.started("formal");
        let start = Instant::now();
        let result = match run_formal_level(work, None) {
            Ok(report) => CheckResult::Solver(report),
            Err(e) => CheckResult::NoVerdict {
                head: solver_level_name(Level::Formal).to_owned(),
                elapsed: start.elapsed(),
                reason: e.to_string(),
            },
        };
        run.record(&Check {
            level: Level::Formal,
            target: format!("{SOLVER_MODULE} (formal)"),
            label: "formal".to_owned(),
            prefix: String::new(),
            dir: Some(work.to_path_buf()),
            result,
        });
    }
}
