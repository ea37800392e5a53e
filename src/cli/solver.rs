//! `retrogate emit solver`: the on-chip solver `sticks_solver`, its testbench and the boards' PCFs.

use super::args::SolverDesignArgs;
use super::design::step;
use super::CliError;
use crate::bench::solver::{
    size_case, solver_testbench, solver_vectors, SOLVER_TB_MODULE, SOLVER_VECTORS,
};
use crate::circuit::sticks_solver::{
    check_solver_size, solver_widths, sticks_solver_verilog, table_storage, SOLVER_MODULE,
};
use std::io::Write;
use std::path::{Path, PathBuf};

pub(super) fn checked(a: &SolverDesignArgs) -> Result<(), CliError> {
    check_solver_size(a.max_count, a.max_take).map_err(|e| CliError::Usage(e.to_string()))
}

/// Writes `DIR/sticks_solver.v` (with `--sim`, a self-checking testbench and its vectors; with
/// `--constraints`, the PCF of every board's `solver` design).
pub fn emit(
    a: &SolverDesignArgs,
    dir: &Path,
    sim: Option<&Path>,
    constraints: Option<&Path>,
    out: &mut dyn Write,
) -> Result<Vec<(PathBuf, String)>, CliError> {
    checked(a)?;
    let (w, m) = solver_widths(a.max_count, a.max_take);
    writeln!(
        out,
        "{SOLVER_MODULE}: counts 0..={}, takes 1..={} (take_set[{}:0], count/query/query_depth[{}:0], query_take[{}:0]), table in {}",
        a.max_count,
        a.max_take,
        a.max_take - 1,
        w - 1,
        m - 1,
        table_storage(a.max_count)
    )?;
    let mut files = vec![(
        dir.join(format!("{SOLVER_MODULE}.v")),
        sticks_solver_verilog(a.max_count, a.max_take).map_err(step)?,
    )];
    if let Some(sim) = sim {
        let case = size_case(a.max_count, a.max_take);
        files.push((
            sim.join(format!("{SOLVER_TB_MODULE}.v")),
            solver_testbench(&case),
        ));
        files.push((sim.join(SOLVER_VECTORS), solver_vectors(&case)));
    }
    if let Some(constraints) = constraints {
        files.extend(super::design::board_constraints(
            &crate::flow::Design::Solver,
            constraints,
        )?);
    }
    Ok(files)
}
