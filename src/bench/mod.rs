//! The verification bench: every level of `retrogate verify`, and the plan that runs them.
//!
//! - [`plan`]: which levels run for each target (jr01, a stick game, the on-chip solver, a
//!   user's `--dut` file, mutants), the run itself, reported as events, and the JSON document
//!   built from them. The command line only renders those events.
//! - [`level`]: the eight levels, with their numbers, names, work folders and engines.
//! - Combinational designs ([`CombDesign`]: Verilog, ports, the table it must implement), at
//!   [`rust_hdl_level`], [`icarus_level`], [`verilator_level`], [`gate_level`] (the
//!   `synth_ice40` netlist with yosys's cell models), [`formal_level`] (a yosys SAT proof
//!   against a reference built from the table) and [`equivalence`] (the netlist proved equal to
//!   its RTL); each returns a [`LevelReport`]. [`testbench()`], [`vectors()`] and
//!   [`reference()`] are pure functions of the design ([`sim_files`]).
//! - The clocked `sticks_game` controller: [`sequential`] co-simulates it cycle by cycle on
//!   every engine against a reference model; [`properties`] proves its properties; [`dut`]
//!   reads a user's file and checks its port contract.
//! - The on-chip solver: [`solver`] (its levels against the software solver) and
//!   [`solver_formal`] (a k-induction proof of its tables); the on-chip heap solver:
//!   [`heaps_solver`] (its levels against the software solver) and [`heaps_formal`] (a
//!   bounded model check of its tables at T = 7); the heap-game controller:
//!   [`heaps_game_properties`] (its safety properties, proved by ABC pdr).
//! - A board design's bitstream: [`bitstream`] (level 8: the `.bin` read back with icestorm,
//!   simulated through its pins against the RTL top on a person's stimulus, and what the board
//!   shows at its checkpoints decoded against the software solver, every design; icetime's
//!   Fmax beside nextpnr's) and [`bitstream_equiv`] (the read-back chip proved equal to the
//!   RTL top).
//! - [`jr01`]: the J.R. 01 design (the game's strategy, its covers, the circuit) as a
//!   [`CombDesign`].
//! - [`mutants`] (the mutants of the emitted Verilog), [`counterexample`] (failing runs drawn
//!   as waveforms), [`figures`] (cells and timing after place and route), [`sticks`] (the
//!   smaller lookup after synthesis).
//!
//! Every level writes only below the work folder it is given, one subfolder per level; level 8
//! also builds the board design's bitstream into its build folder when it is missing there.

pub mod bitstream;
pub mod bitstream_equiv;
pub mod counterexample;
pub mod design;
pub mod dut;
pub mod equivalence;
pub mod figures;
pub mod formal;
pub mod heaps_formal;
pub mod heaps_game_properties;
pub mod heaps_solver;
pub mod jr01;
pub mod level;
pub mod mutants;
pub mod plan;
pub mod properties;
pub mod reference;
pub mod report;
pub mod rust_hdl;
pub mod sequential;
pub mod simulation;
pub mod solver;
pub mod solver_formal;
pub mod sticks;
pub mod testbench;

use std::path::{Path, PathBuf};

pub use design::{CombDesign, Port};
pub use figures::{hardware_figures, HardwareFigures};
pub use formal::formal_level;
pub use level::Level;
pub use reference::reference;
pub use report::{LevelReport, Mismatch};
pub use rust_hdl::rust_hdl_level;
pub use sequential::{
    verify_sticks, CosimError, CycleMismatch, Engine, EngineReport, Progress, VerifyOptions,
};
pub use simulation::{gate_level, icarus_level, verilator_level};
pub use sticks::{choose_impl, strategy_luts, ImplChoice};
pub use testbench::{testbench, vectors};

use crate::flow::ToolError;
use crate::verilog::VerilogError;

/// Errors that stop the bench from reaching a verdict. (A design that fails
/// a check is not an error: it is a [`LevelReport`] with `passed == false`.)
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The [`CombDesign`] description is unusable.
    #[error("design `{module}` cannot be benched: {problem}")]
    InvalidDesign {
        /// The design's module name.
        module: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
    /// Emitting the block's Verilog failed.
    #[error(transparent)]
    Verilog(#[from] VerilogError),
    /// A stick game's circuit could not be built.
    #[error(transparent)]
    Sticks(#[from] crate::circuit::SticksCircuitError),
    /// An external tool failed or is missing.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// Writing a bench file failed.
    #[error("could not write {path}: {source}; check that the work directory is writable")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A tool ran but gave no usable verdict.
    #[error("{level} gave no verdict: {problem}; see {log}")]
    NoVerdict {
        /// The level.
        level: Level,
        /// What was missing or malformed.
        problem: String,
        /// Where the tool's output was saved.
        log: String,
    },
}

/// `dir` as an absolute path (relative to the current directory): the tools run inside their
/// work directories, so every path handed to them must not depend on the current directory.
pub(crate) fn absolute(dir: &Path) -> Result<PathBuf, BenchError> {
    std::path::absolute(dir).map_err(|source| BenchError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// `dir` as an absolute path (see [`absolute`]), created with its parents: a work folder.
pub(crate) fn work_dir(dir: &Path) -> Result<PathBuf, BenchError> {
    let dir = absolute(dir)?;
    std::fs::create_dir_all(&dir).map_err(|source| BenchError::Io {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

/// Write `contents` to `dir/name`.
pub(crate) fn write(dir: &Path, name: &str, contents: &str) -> Result<PathBuf, BenchError> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|source| BenchError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The files a project keeps in its `sim/` folder for `design`, as
/// `(file name, contents)`: the testbench, the vector file and the
/// reference module. Writing them is left to the caller.
pub fn sim_files(design: &CombDesign) -> Result<Vec<(String, String)>, BenchError> {
    Ok(vec![
        (
            testbench::testbench_file(&design.module),
            testbench(design)?,
        ),
        (testbench::vector_file(&design.module), vectors(design)?),
        (
            reference::reference_file(&design.module),
            reference(design)?,
        ),
    ])
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::design::tests::{jr01_design, jr01_rom_design};
    use super::*;
    use crate::circuit::jr01::tests::jr01_table;
    use crate::circuit::{CombBlock, TruthTableRom};
    use crate::flow::testing::work_dir;

    use super::plan::{table, CheckResult, Design, Event, Mode, Plan, Request};

    /// What users run: `verify jr01` through the plan, every level passing on 8 vectors.
    #[test]
    fn jr01_covers_pass_all_levels() {
        let dir = work_dir("bench-jr01");
        let plan = Plan::new(Request {
            design: Design::Jr01,
            mode: Mode::Own,
            levels: Vec::new(),
        })
        .expect("plan");
        let mut checks = Vec::new();
        let verdict = plan.run(dir.path(), &mut |e| {
            if let Event::Finished(c) = e {
                checks.push((*c).clone());
            }
        });
        assert!(verdict.passed(), "{verdict}");
        let levels: Vec<Level> = checks.iter().map(|c| c.level).collect();
        assert_eq!(
            levels,
            [
                Level::RustHdl,
                Level::Icarus,
                Level::Verilator,
                Level::GateLevel,
                Level::Formal,
                Level::Equivalence
            ]
        );
        for c in &checks {
            assert!(c.passed(), "{c}");
            // The netlist proof covers every input sequence, not vectors.
            let vectors = if c.level == Level::Equivalence { 0 } else { 8 };
            assert_eq!(c.vectors(), Some(vectors), "{c}");
        }
    }

    /// The same levels on the J.R. 01 table as a ROM, through the plan's level runner.
    #[test]
    fn jr01_rom_passes_all_levels() {
        let dir = work_dir("bench-rom");
        let rom = TruthTableRom::<3, 3>::new(&jr01_table()).expect("rom");
        let mut driver = Some(rom.into_driver());
        for level in [
            Level::RustHdl,
            Level::Icarus,
            Level::Verilator,
            Level::GateLevel,
            Level::Formal,
        ] {
            match table::run_level(&jr01_rom_design(), &mut driver, level, dir.path()) {
                CheckResult::Table(r) => {
                    assert!(r.passed, "{r}");
                    assert_eq!(r.vectors, 8, "{r}");
                }
                other => panic!("{level}: {other:?}"),
            }
        }
    }

    /// Flip output bit `y` in the emitted Verilog by negating its cover:
    /// every row's y flips, so the first mismatching input is 000
    /// (expected 001, actual 011).
    #[test]
    fn broken_cover_is_caught_at_levels_2_to_5() {
        let mut design = jr01_design();
        let line = design
            .verilog
            .lines()
            .find(|l| l.trim_start().starts_with("y = "))
            .expect("an assignment to y")
            .to_owned();
        let (indent, rhs) = line.split_once("y = ").expect("y = ");
        let broken = format!("{indent}y = ~({});", rhs.trim_end_matches(';'));
        design.verilog = design.verilog.replace(&line, &broken);
        assert_caught(&design, "bench-broken-cover", 0b000, 0b001, "011");
    }

    /// Flip one bit of one ROM row (address 5: 110 -> 111): only that row
    /// differs, so every level must name input 101.
    #[test]
    fn broken_rom_row_is_caught_at_levels_2_to_5() {
        let mut design = jr01_rom_design();
        let good = "3'd5: data = 3'd6;";
        assert!(design.verilog.contains(good), "{}", design.verilog);
        design.verilog = design.verilog.replace(good, "3'd5: data = 3'd7;");
        assert_caught(&design, "bench-broken-rom", 0b101, 0b110, "111");
    }

    fn assert_caught(design: &CombDesign, name: &str, input: u32, expected: u32, actual: &str) {
        let dir = work_dir(name);
        let reports = [
            icarus_level(design, dir.path()).expect("level 2"),
            verilator_level(design, dir.path()).expect("level 3"),
            gate_level(design, dir.path()).expect("level 4"),
            formal_level(design, dir.path()).expect("level 5"),
        ];
        for report in &reports {
            assert!(!report.passed, "{report}");
            let m = report.mismatch.as_ref().expect("a mismatch");
            assert_eq!(
                (m.input, m.expected, m.actual.as_str()),
                (input, expected, actual),
                "{report}"
            );
            assert_eq!(report.vectors as u32, input + 1, "{report}");
        }
        for report in &reports[..3] {
            let vcd = report
                .mismatch
                .as_ref()
                .and_then(|m| m.vcd.clone())
                .expect("a waveform");
            assert!(vcd.is_file(), "{report}");
        }
    }

    /// A table with don't-cares: the design may output anything there, and
    /// the formal reference must not object.
    #[test]
    fn dont_care_rows_are_not_checked() {
        let dir = work_dir("bench-dont-care");
        let mut design = jr01_design();
        // Rows 001 and 110 become don't-care; the J.R. 01 design still meets the rest.
        let mut rows: Vec<Option<u32>> = jr01_table().rows().to_vec();
        rows[1] = None;
        rows[6] = None;
        design.table = crate::logic::TruthTable::new(3, 3, rows).expect("table");
        for report in [
            icarus_level(&design, dir.path()).expect("level 2"),
            formal_level(&design, dir.path()).expect("level 5"),
        ] {
            assert!(report.passed, "{report}");
            assert_eq!(report.vectors, 6);
        }
        // ...but a wrong cared-for row is still caught by the proof.
        let mut rows: Vec<Option<u32>> = jr01_table().rows().to_vec();
        rows[1] = None;
        rows[3] = Some(0b000);
        design.table = crate::logic::TruthTable::new(3, 3, rows).expect("table");
        let report = formal_level(&design, dir.path()).expect("level 5");
        let m = report.mismatch.expect("mismatch");
        assert_eq!((m.input, m.expected, m.actual.as_str()), (3, 0, "100"));
    }

    #[test]
    fn jr01_maps_to_three_luts() {
        let dir = work_dir("figures-jr01");
        let figures = hardware_figures(&jr01_design(), dir.path()).expect("figures");
        assert_eq!(figures.luts, 3, "{figures:?}");
        assert_eq!(figures.cells.dff, 0);
        assert!(
            figures
                .critical_path_ns
                .is_some_and(|ns| ns > 0.0 && ns < 83.3),
            "{figures:?}"
        );
        assert!(figures.bitstream.is_file());
        eprintln!("jr01 figures: {figures:?}");
    }

    #[test]
    fn jr01_passes_verilator_lint() {
        let dir = work_dir("lint-jr01");
        let path = dir.path().join("jr01_strategy.v");
        std::fs::write(&path, &jr01_design().verilog).expect("write");
        crate::flow::verilator::lint(dir.path(), &[path], "jr01_strategy")
            .expect("no lint warnings");
        let path = dir.path().join("jr01_rom.v");
        std::fs::write(&path, &jr01_rom_design().verilog).expect("write");
        crate::flow::verilator::lint(dir.path(), &[path], "jr01_rom").expect("no lint warnings");
    }
}
