//! What each verification level reports.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The five verification levels, from the Rust model down to a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 1: rust-hdl's own simulation of the block (`update()`).
    RustHdl,
    /// 2: the emitted Verilog under Icarus Verilog with the generated testbench.
    Icarus,
    /// 3: the same testbench under Verilator.
    Verilator,
    /// 4: the yosys `synth_ice40` netlist with yosys's iCE40 cell models, under Icarus.
    GateLevel,
    /// 5: a yosys SAT proof that the emitted module equals the table.
    Formal,
    /// 6: the `sticks_game` controller's properties, proved by k-induction (yosys-smtbmc, z3) or
    /// ABC's PDR (a user's controller).
    Properties,
    /// 7: the `synth_ice40` netlist proved equal to its RTL (yosys `equiv_*`).
    Equivalence,
}

impl Level {
    /// All levels in order.
    pub const ALL: [Level; 7] = [
        Level::RustHdl,
        Level::Icarus,
        Level::Verilator,
        Level::GateLevel,
        Level::Formal,
        Level::Properties,
        Level::Equivalence,
    ];

    /// The level's number, 1 to 5.
    pub fn number(self) -> u8 {
        match self {
            Level::RustHdl => 1,
            Level::Icarus => 2,
            Level::Verilator => 3,
            Level::GateLevel => 4,
            Level::Formal => 5,
            Level::Properties => 6,
            Level::Equivalence => 7,
        }
    }

    /// A short description.
    pub fn name(self) -> &'static str {
        match self {
            Level::RustHdl => "rust-hdl simulation",
            Level::Icarus => "Verilog under Icarus",
            Level::Verilator => "Verilog under Verilator",
            Level::GateLevel => "iCE40 gate-level netlist under Icarus",
            Level::Formal => "formal equivalence (yosys sat)",
            Level::Properties => "controller properties (yosys-smtbmc k-induction, ABC pdr)",
            Level::Equivalence => "iCE40 netlist equivalence (yosys equiv_induct)",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} ({})", self.number(), self.name())
    }
}

/// The first input where a design and its table disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Input code (ports concatenated, first port most significant).
    pub input: u32,
    /// Width of the input code in bits (for display).
    pub input_width: usize,
    /// The table's output word.
    pub expected: u32,
    /// What the design produced, in binary MSB first, exactly as the
    /// simulator or prover reported it (so `x` and `z` bits survive).
    pub actual: String,
    /// Waveform of the failing run, when the level writes one.
    pub vcd: Option<PathBuf>,
}

impl Mismatch {
    /// The actual output as a word, or `None` if it has `x`/`z` bits.
    pub fn actual_word(&self) -> Option<u32> {
        u32::from_str_radix(&self.actual, 2).ok()
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.actual.len();
        write!(
            f,
            "input={:0iw$b} expected={:0w$b} actual={}",
            self.input,
            self.expected,
            self.actual,
            iw = self.input_width,
            w = width
        )?;
        if let Some(vcd) = &self.vcd {
            write!(f, " (waveform: {})", vcd.display())?;
        }
        Ok(())
    }
}

/// The result of one verification level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    /// Which level.
    pub level: Level,
    /// How many input vectors were checked (for the proof: how many
    /// cared-for rows it covers).
    pub vectors: usize,
    /// True when every vector matched (or the proof succeeded).
    pub passed: bool,
    /// Wall-clock time the level took, tools included.
    pub elapsed: Duration,
    /// One line saying what was run and found.
    pub detail: String,
    /// The first mismatch, when the level failed.
    pub mismatch: Option<Mismatch>,
}

impl fmt::Display for LevelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vectors = if self.vectors == 0 {
            String::new()
        } else {
            format!("{} vectors, ", self.vectors)
        };
        write!(
            f,
            "{}: {} ({vectors}{:.2}s) {}",
            self.level,
            if self.passed { "PASS" } else { "FAIL" },
            self.elapsed.as_secs_f64(),
            self.detail
        )?;
        if let Some(m) = &self.mismatch {
            write!(f, "; first mismatch {m}")?;
        }
        Ok(())
    }
}
