//! `retrogate emit solver` and `retrogate verify solver`: the on-chip solver `sticks_solver`.

use super::args::SolverDesignArgs;
use super::design::step;
use super::ui::Ui;
use super::CliError;
use crate::bench::solver::{
    run_solver_level, size_case, solver_cases, solver_testbench, solver_vectors, SolverLevel,
    SolverLevelReport, SOLVER_TB_MODULE, SOLVER_VECTORS,
};
use crate::bench::solver_formal::{run_formal_level, FORMAL_MAX_COUNT, FORMAL_MAX_TAKE};
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
            &crate::circuit::top::Design::Solver,
            constraints,
        )?);
    }
    Ok(files)
}

/// Runs every level on the fixed configurations (the size flags are for `emit`; `verify` checks
/// C = 63, K = 4 exhaustively and C = 255, K = 8 on a sample, plus the flags' own size).
pub fn verify(
    a: &SolverDesignArgs,
    work: &Path,
    ui: &Ui,
    out: &mut dyn Write,
    json: Option<&mut dyn Write>,
) -> Result<(), CliError> {
    checked(a)?;
    let work = work.to_path_buf();
    std::fs::create_dir_all(&work).map_err(|source| CliError::Write {
        path: work.clone(),
        source,
    })?;
    let mut cases = solver_cases();
    if !cases
        .iter()
        .any(|c| (c.max_count, c.max_take) == (a.max_count, a.max_take))
    {
        cases.push(size_case(a.max_count, a.max_take));
    }
    let mut tally = super::design::Tally::new(json);
    for case in &cases {
        writeln!(
            out,
            "verify {SOLVER_MODULE} (C = {}, K = {}, {}) against the software solver: {} solves, {} positions",
            case.max_count,
            case.max_take,
            case.name,
            case.requests.len(),
            case.positions()
        )?;
        out.flush()?;
        for level in SolverLevel::ALL {
            let spinner = ui.spinner(&format!("{}: {level}", case.name));
            let report = run_solver_level(level, case, &work).map_err(step)?;
            drop(spinner);
            writeln!(out, "{report}")?;
            out.flush()?;
            tally.record(level_json(&report, &work));
            tally.add(report.passed(), format!("{} {level}", case.name));
        }
    }
    writeln!(
        out,
        "verify {SOLVER_MODULE} (C = {FORMAL_MAX_COUNT}, K = {FORMAL_MAX_TAKE}) against the software solver's tables, formally"
    )?;
    out.flush()?;
    let spinner = ui.spinner("formal");
    let report = run_formal_level(&work, None).map_err(step)?;
    drop(spinner);
    writeln!(out, "{report}")?;
    out.flush()?;
    tally.record(level_json(&report, &work));
    tally.add(report.passed(), "formal".to_owned());
    tally.verdict("solver", &work, out)
}

/// One solver level's result as JSON, with the keys of `verify`'s levels (docs/json.md):
/// `vectors` counts the positions checked, `cycles` the slowest solve.
fn level_json(report: &SolverLevelReport, work: &Path) -> serde_json::Value {
    let number = match report.level {
        SolverLevel::RustHdl => 1,
        SolverLevel::Icarus => 2,
        SolverLevel::Verilator => 3,
        SolverLevel::GateLevel => 4,
        SolverLevel::Formal => 5,
    };
    serde_json::json!({
        "name": report.level.to_string(),
        "level": number,
        "target": format!("{SOLVER_MODULE} ({})", report.case),
        "passed": report.passed(),
        "vectors": report.positions,
        "cycles": report.max_cycles,
        "seconds": report.elapsed.as_secs_f64(),
        "detail": report.failure.clone().unwrap_or_else(|| report.detail.clone()),
        "artifacts": {"dir": work, "vcd": null},
    })
}
