//! `retrogate emit`: a design's Verilog (with `--sim`, its testbenches; with `--constraints`,
//! every board's PCF; the heap solver and the heap game have no board design yet), written
//! whole or not at all.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::args::{
    DesignArgs, EmitArgs, HeapsGameDesignArgs, HeapsSolverDesignArgs, SolverDesignArgs,
    EMIT_THINK_CYCLES,
};
use super::design::{board_constraints, jr01, output_folder, step, sticks_game, sticks_table_of};
use super::files::write_all_or_nothing;
use super::CliError;
use crate::bench;
use crate::bench::heaps_solver::{
    heaps_sim_case, heaps_testbench, heaps_vectors, HEAPS_TB_MODULE, HEAPS_VECTORS,
};
use crate::bench::jr01::JR01_MODULE;
use crate::bench::solver::{
    size_case, solver_testbench, solver_vectors, SOLVER_TB_MODULE, SOLVER_VECTORS,
};
use crate::bench::sticks::choose_impl;
use crate::bench::CombDesign;
use crate::circuit::heaps_game::{heaps_game_verilog, HEAPS_GAME_MODULE};
use crate::circuit::heaps_solver::{
    check_heaps_size, heaps_solver_verilog, heaps_widths, HEAPS_SOLVER_MODULE,
};
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_solver::{
    check_solver_size, solver_widths, sticks_solver_verilog, table_storage, SOLVER_MODULE,
};
use crate::circuit::sticks_strategy::{sticks_strategy_verilog, Impl};

pub fn run(args: EmitArgs, out: &mut dyn Write) -> Result<(), CliError> {
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
            emit_solver(&a, &dir, sim.as_deref(), constraints.as_deref(), out)?
        }
        DesignArgs::HeapsSolver(a) => {
            emit_heaps_solver(&a, &dir, sim.as_deref(), constraints.is_some(), out)?
        }
        DesignArgs::HeapsGame(a) => {
            emit_heaps_game(&a, &dir, sim.is_some(), constraints.as_deref(), out)?
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

fn checked(a: &SolverDesignArgs) -> Result<(), CliError> {
    check_solver_size(a.max_count, a.max_take).map_err(|e| CliError::Usage(e.to_string()))
}

/// Writes `DIR/sticks_solver.v` (with `--sim`, a self-checking testbench and its vectors; with
/// `--constraints`, the PCF of every board's `solver` design).
fn emit_solver(
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
        files.extend(board_constraints(
            &crate::circuit::top::Design::Solver,
            constraints,
        )?);
    }
    Ok(files)
}

/// Writes `DIR/heaps_game.v`: the controller with its solver and think timer as submodules
/// (with `--constraints`, the PCF of every board's `heaps` design, on the boards it runs on).
fn emit_heaps_game(
    a: &HeapsGameDesignArgs,
    dir: &Path,
    sim: bool,
    constraints: Option<&Path>,
    out: &mut dyn Write,
) -> Result<Vec<(PathBuf, String)>, CliError> {
    let size = &a.size;
    check_heaps_size(size.max_target, size.max_add, size.max_mul)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if sim {
        return Err(CliError::Usage(
            "--sim: heaps-game has no self-checking testbench to emit yet (its emitted Verilog \
             is checked against rust-hdl by `cargo test --features external-tools --lib \
             heaps_game`); drop --sim"
                .into(),
        ));
    }
    let verilog = heaps_game_verilog(
        size.max_target,
        size.max_add,
        size.max_mul,
        u64::from(a.think_cycles),
    )
    .map_err(step)?;
    writeln!(
        out,
        "{HEAPS_GAME_MODULE}: the heap game against {HEAPS_SOLVER_MODULE} (targets up to {}, moves x+1..x+{} and x*2..x*{}), thinking {} ticks of `tick` before each machine move",
        size.max_target,
        size.max_add,
        size.max_mul + 1,
        a.think_cycles,
    )?;
    let mut files = vec![(dir.join(format!("{HEAPS_GAME_MODULE}.v")), verilog)];
    if let Some(constraints) = constraints {
        files.extend(board_constraints(
            &crate::circuit::top::Design::Heaps,
            constraints,
        )?);
    }
    Ok(files)
}

/// Writes `DIR/heaps_solver.v` (with `--sim`, a self-checking testbench and its vectors).
fn emit_heaps_solver(
    a: &HeapsSolverDesignArgs,
    dir: &Path,
    sim: Option<&Path>,
    constraints: bool,
    out: &mut dyn Write,
) -> Result<Vec<(PathBuf, String)>, CliError> {
    check_heaps_size(a.max_target, a.max_add, a.max_mul)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if constraints {
        return Err(CliError::Usage(
            "--constraints: heaps-solver has no board design yet, so there are no pins to \
             constrain; drop --constraints"
                .into(),
        ));
    }
    let (w, b) = heaps_widths(a.max_target, a.max_add, a.max_mul);
    writeln!(
        out,
        "{HEAPS_SOLVER_MODULE}: targets up to {}, moves x+1..x+{} and x*2..x*{} (adds[{}:0], muls[{}:0], target/query_a/query_b[{}:0], query_depth[{}:0], query_move[{}:0]), table of {} words in block RAM",
        a.max_target,
        a.max_add,
        a.max_mul + 1,
        a.max_add - 1,
        a.max_mul - 1,
        w - 1,
        w,
        b - 1,
        1u64 << (2 * w - 1),
    )?;
    let mut files = vec![(
        dir.join(format!("{HEAPS_SOLVER_MODULE}.v")),
        heaps_solver_verilog(a.max_target, a.max_add, a.max_mul).map_err(step)?,
    )];
    if let Some(sim) = sim {
        let case = heaps_sim_case(a.max_target, a.max_add, a.max_mul);
        files.push((
            sim.join(format!("{HEAPS_TB_MODULE}.v")),
            heaps_testbench(&case),
        ));
        files.push((sim.join(HEAPS_VECTORS), heaps_vectors(&case)));
    }
    Ok(files)
}
