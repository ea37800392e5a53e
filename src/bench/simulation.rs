//! Levels 2 to 4: the generated testbench under a Verilog simulator.
//!
//! * Level 2 compiles the emitted Verilog and the testbench with
//!   `iverilog -g2012` and runs `vvp`.
//! * Level 3 builds the same two files with `verilator --binary --trace`.
//! * Level 4 synthesises the emitted Verilog with `synth_ice40`, writes the
//!   netlist with `write_verilog -noattr`, and runs it under Icarus together
//!   with yosys's `ice40/cells_sim.v` (`-DNO_ICE40_DEFAULT_ASSIGNMENTS`).
//!
//! Each level works in its own subdirectory of the directory passed in
//! (`icarus/`, `verilator/`, `gate/`) and leaves its sources, logs and the
//! waveform there. The simulators run inside it and get every file there by name, so any
//! folder works (spaces, non-ASCII letters). A testbench run is bounded by its length: a
//! design that never lets it finish (a combinational loop) is stopped after
//! [`SimulationLimit::BASE`] plus [`SimulationLimit::PER_STEP`] a vector, with a message saying
//! so ([`ToolError::SimulationTimedOut`](crate::flow::ToolError::SimulationTimedOut)).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::design::CombDesign;
use super::testbench::{
    parse_verdict, testbench, testbench_file, testbench_module, vcd_file, vector_file, Verdict,
};
use super::{BenchError, Level, LevelReport};
use crate::flow::runner::{SimulationLimit, ToolOutput};
use crate::flow::{iverilog, verilator, yosys};

/// The files a simulation level works from.
pub(crate) struct Prepared {
    /// The level's own directory.
    pub dir: PathBuf,
    /// The design's Verilog, `<module>.v`.
    pub design: PathBuf,
    /// The testbench, `<module>_tb.v`.
    pub testbench: PathBuf,
    /// The vector file, `<module>.vec`.
    pub vectors: PathBuf,
}

impl Prepared {
    /// The plusarg that points the testbench at its vector file, by its name in the level's
    /// folder (the simulators run there): the folder's path, which may hold spaces or
    /// non-ASCII letters, never reaches the testbench's `$fopen`.
    pub fn vectors_plusarg(&self) -> String {
        let name = self.vectors.file_name().map_or_else(
            || self.vectors.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        format!("+vectors={name}")
    }
}

/// The time limit of a testbench run of `design`: its cared-for vectors (see
/// [`SimulationLimit`]).
fn limit(design: &CombDesign) -> SimulationLimit {
    SimulationLimit::vectors(design.cared_count())
}

/// Create `root/sub` and write the design, testbench and vector file in it.
pub(crate) fn prepare(
    design: &CombDesign,
    root: &Path,
    level: Level,
) -> Result<Prepared, BenchError> {
    let sub = level.folder().expect("a simulation level has a folder");
    let dir = super::work_dir(&root.join(sub))?;
    let design_path = super::write(&dir, &format!("{}.v", design.module), &design.verilog)?;
    let tb_path = super::write(&dir, &testbench_file(&design.module), &testbench(design)?)?;
    let vectors = super::write(
        &dir,
        &vector_file(&design.module),
        &super::testbench::vectors(design)?,
    )?;
    Ok(Prepared {
        dir,
        design: design_path,
        testbench: tb_path,
        vectors,
    })
}

/// Turn a testbench run into a report. The testbench exits nonzero exactly when it found a
/// mismatch; any other nonzero exit (or a pass with one) is a tool failure.
fn report(
    design: &CombDesign,
    level: Level,
    dir: &Path,
    out: &ToolOutput,
    start: Instant,
    detail: String,
) -> Result<LevelReport, BenchError> {
    let verdict = match parse_verdict(design, &out.stdout) {
        Ok(v @ Verdict::Mismatch(_)) => v,
        Ok(v @ Verdict::Pass(_)) if out.status.success() => v,
        Ok(Verdict::Pass(_)) => return Err(out.clone().check().unwrap_err().into()),
        Err(problem) => {
            if !out.status.success() {
                return Err(out.clone().check().unwrap_err().into());
            }
            return Err(BenchError::NoVerdict {
                level,
                problem,
                log: out.log_name(),
            });
        }
    };
    let vcd = dir.join(vcd_file(&design.module));
    let (passed, vectors, mismatch) = match verdict {
        Verdict::Pass(n) => (true, n, None),
        Verdict::Mismatch(mut m) => {
            m.vcd = vcd.is_file().then_some(vcd);
            let index = design
                .cared_rows()
                .position(|(code, _)| code == m.input)
                .map_or(0, |i| i + 1);
            (false, index, Some(m))
        }
    };
    Ok(LevelReport {
        level,
        vectors,
        passed,
        elapsed: start.elapsed(),
        detail,
        mismatch,
    })
}

/// Level 2: the emitted Verilog under Icarus (work directory `dir/icarus`).
pub fn icarus_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let files = prepare(design, dir, Level::Icarus)?;
    let tb = testbench_module(&design.module);
    let vvp = iverilog::compile(
        &files.dir,
        &[files.testbench.clone(), files.design.clone()],
        &tb,
        &[],
        &tb,
    )?;
    let out = iverilog::execute_limited(
        &files.dir,
        &vvp,
        &tb,
        &[files.vectors_plusarg()],
        limit(design),
    )?;
    report(
        design,
        Level::Icarus,
        &files.dir,
        &out,
        start,
        format!("iverilog -g2012 + vvp of {} with {tb}", design.module),
    )
}

/// Level 3: the emitted Verilog under Verilator (work directory `dir/verilator`).
pub fn verilator_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let files = prepare(design, dir, Level::Verilator)?;
    let tb = testbench_module(&design.module);
    let model = verilator::build_model(
        &files.dir,
        &[files.testbench.clone(), files.design.clone()],
        &tb,
        &[],
        &tb,
    )?;
    let out = verilator::execute_limited(
        &files.dir,
        &model.exe,
        &tb,
        &[files.vectors_plusarg()],
        limit(design),
    )?;
    report(
        design,
        Level::Verilator,
        &files.dir,
        &out,
        start,
        format!(
            "verilator --binary of {} with {tb}{}",
            design.module,
            if model.reused {
                " (model reused: its inputs are unchanged)"
            } else {
                ""
            }
        ),
    )
}

/// Level 4: the iCE40 netlist under Icarus (work directory `dir/gate`).
pub fn gate_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let files = prepare(design, dir, Level::GateLevel)?;
    let synth = yosys::synth_ice40(
        &files.dir,
        std::slice::from_ref(&files.design),
        &design.module,
    )?;
    let cells = yosys::ice40_cells_sim(&files.dir)?;
    let tb = testbench_module(&design.module);
    let name = format!("{tb}_gate");
    let vvp = iverilog::compile(
        &files.dir,
        &[files.testbench.clone(), synth.netlist_verilog, cells],
        &tb,
        &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
        &name,
    )?;
    let out = iverilog::execute_limited(
        &files.dir,
        &vvp,
        &name,
        &[files.vectors_plusarg()],
        limit(design),
    )?;
    report(
        design,
        Level::GateLevel,
        &files.dir,
        &out,
        start,
        format!(
            "synth_ice40 netlist of {} ({} SB_LUT4) + ice40/cells_sim.v under Icarus",
            design.module, synth.stats.lut4
        ),
    )
}
