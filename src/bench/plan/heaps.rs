//! The levels of the on-chip heap solver `heaps_solver`: every table entry and every solve's
//! cycle count against the software solver, on a fixed small configuration (T = 15, A = 2,
//! M = 3: every subset of the moves) and on the requested size, at levels 1 to 4 (level 4 on the
//! subset of the solves [`gate_case`] keeps); level 5, the bounded model check of a small
//! configuration ([`crate::bench::heaps_formal`]: T = 7, every game); level 6, the safety
//! properties of the `heaps_game` controller that plays it, proved against the solver's port
//! contract ([`crate::bench::heaps_game_properties`]); then level 7, its
//! `synth_ice40` netlist at the requested size proved equal to its RTL (the table's block RAM
//! cut out of both sides, see [`crate::flow::equiv::RAM_MODEL`]).

use std::path::Path;

use super::solver::{netlist_level, solver_check, SolverCheck};
use super::{Run, Section};
use crate::bench::heaps_formal::{
    run_heaps_formal_level, FORMAL_MAX_ADD, FORMAL_MAX_MUL, FORMAL_MAX_TARGET, LEVEL_NAME,
};
use crate::bench::heaps_game_properties::{
    run_heaps_game_properties, BOARD_CONTROLLER, GO_BOARD_CONTROLLER, LEVEL_NAME as PROPERTIES_NAME,
};
use crate::bench::heaps_solver::{gate_case, run_heaps_level, verify_cases};
use crate::bench::level::Level;
use crate::circuit::heaps_game::HEAPS_GAME_MODULE;
use crate::circuit::heaps_solver::{heaps_solver_verilog, HEAPS_SOLVER_MODULE};

/// Runs `levels` on the heap solver's configurations ([`verify_cases`]).
pub fn run(
    run: &mut Run<'_>,
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    levels: &[Level],
    work: &Path,
) {
    let simulated: Vec<Level> = levels
        .iter()
        .copied()
        .filter(|&l| !matches!(l, Level::Formal | Level::Properties | Level::Equivalence))
        .collect();
    let cases = if simulated.is_empty() {
        Vec::new()
    } else {
        verify_cases(max_target, max_add, max_mul)
    };
    for case in cases {
        run.section(Section::HeapsCase {
            module: HEAPS_SOLVER_MODULE,
            max_target: case.max_target,
            max_add: case.max_add,
            max_mul: case.max_mul,
            name: case.name,
            solves: case.requests.len(),
            positions: case.positions(),
        });
        for &level in &simulated {
            // The netlist runs a subset of the solves (see `gate_case`).
            let gate;
            let solves = if level == Level::GateLevel {
                gate = gate_case(&case);
                &gate
            } else {
                &case
            };
            solver_check(
                run,
                SolverCheck::simulated(level, HEAPS_SOLVER_MODULE, case.name),
                work,
                || run_heaps_level(level, solves, work),
            );
        }
    }
    if levels.contains(&Level::Formal) {
        run.section(Section::HeapsFormal {
            module: HEAPS_SOLVER_MODULE,
            max_target: FORMAL_MAX_TARGET,
            max_add: FORMAL_MAX_ADD,
            max_mul: FORMAL_MAX_MUL,
        });
        solver_check(
            run,
            SolverCheck {
                level: Level::Formal,
                target: format!("{HEAPS_SOLVER_MODULE} (formal)"),
                label: "formal".to_owned(),
                head: LEVEL_NAME.to_owned(),
            },
            work,
            || run_heaps_formal_level(work, None),
        );
    }
    if levels.contains(&Level::Properties) {
        // The Alchitry Cu's controller, and the Go Board's compact one.
        for (controller, suffix) in [(BOARD_CONTROLLER, ""), (GO_BOARD_CONTROLLER, ", compact")] {
            run.section(Section::HeapsGameProperties {
                module: HEAPS_GAME_MODULE,
                max_target: controller.max_target,
                max_add: controller.max_add,
                max_mul: controller.max_mul,
            });
            solver_check(
                run,
                SolverCheck {
                    level: Level::Properties,
                    target: format!("{HEAPS_GAME_MODULE} (properties{suffix})"),
                    label: format!("{HEAPS_GAME_MODULE} properties{suffix}"),
                    head: PROPERTIES_NAME.to_owned(),
                },
                work,
                || run_heaps_game_properties(work, &controller, None),
            );
        }
    }
    if levels.contains(&Level::Equivalence) {
        run.section(Section::HeapsNetlist {
            module: HEAPS_SOLVER_MODULE,
            max_target,
            max_add,
            max_mul,
        });
        equivalence(run, max_target, max_add, max_mul, work);
    }
}

/// Level 7: the heap solver at the requested size, synthesised and proved equal to its RTL.
fn equivalence(run: &mut Run<'_>, max_target: u64, max_add: u64, max_mul: u64, work: &Path) {
    netlist_level(
        run,
        HEAPS_SOLVER_MODULE,
        heaps_solver_verilog(max_target, max_add, max_mul).map_err(|e| e.to_string()),
        format!("{HEAPS_SOLVER_MODULE} (T = {max_target}, A = {max_add}, M = {max_mul})"),
        work,
    );
}
