//! What a level reports on a combinational design (and the proof levels of a controller):
//! [`LevelReport`] with its first [`Mismatch`].

use std::fmt;

pub use super::level::Level;
use std::path::PathBuf;
use std::time::Duration;

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
