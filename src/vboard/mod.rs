//! The virtual board (`retrogate board`): the board top that `retrogate build` synthesises, under
//! Verilator, driven through its pins at the board's own clock, and drawn as the board looks.
//!
//! - [`harness`]: the Verilator model of the top (or, [`build_from_bin`], of the chip a
//!   bitstream configures, read back as `verify --level 8` reads it) with a C++ `main` that
//!   takes pin changes and cycle counts on stdin and writes the output pins when they change,
//!   skipping (exactly) the top's idle cycles between two ticks of its time base;
//! - [`panel`](mod@panel): what to draw and press, from the board data (resources, labels,
//!   polarities, colours) and the design's use of each pin, with a key for each button and
//!   switch;
//! - [`Session`]: a running board: presses held as a finger holds them (past the debouncer),
//!   switches flipped, power cycles, the board's time in clock cycles; multiplexed digits are
//!   latched while their select is active, so every digit shows steadily;
//! - [`script`]: the key file of the scripted mode (`<ms> <key>` lines) and its run, which
//!   renders frames as text at the chosen times or on every change;
//! - [`view`]: the ratatui drawing of the board, the same for the terminal and for the frames.
//!
//! Nothing here prints or touches the terminal: the command line does the terminal I/O.

pub mod harness;
pub mod panel;
pub mod script;
pub mod view;

use std::path::{Path, PathBuf};

pub use harness::Built;
pub use panel::{Control, ControlKind, Panel, Part};
pub use script::{run_script, Action, Frame, Script, Step};

use crate::bench::bitstream::BitstreamError;
use crate::board::BoardId;
use crate::circuit::top::{top_verilog, Design, Timing};
use crate::flow::runner::ToolError;
use harness::Harness;

/// How long a key press holds a button: as a finger does, well past the 16 ms debouncer and
/// well short of the 1 s long press.
pub const PRESS_MS: u64 = 120;

/// How long a long press holds a button (past the 1 s long press).
pub const LONG_PRESS_MS: u64 = 1500;

/// Why the virtual board cannot run.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    /// A tool failed or is missing.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// The design has no top on the board, or the top cannot be driven.
    #[error("{0}")]
    Setup(String),
    /// The harness stopped or wrote something unexpected.
    #[error("the virtual board's simulation: {0}")]
    Harness(String),
    /// The bitstream is not one of this board and design's top (the message says why).
    #[error("{0}")]
    NotForTop(String),
}

impl From<BitstreamError> for BoardError {
    fn from(e: BitstreamError) -> Self {
        match e {
            BitstreamError::Tool(e) => BoardError::Tool(e),
            BitstreamError::NotForTop(what) => BoardError::NotForTop(what),
            e @ (BitstreamError::Build(_) | BitstreamError::Setup(_)) => {
                BoardError::Setup(e.to_string())
            }
        }
    }
}

/// The panel of `design` on `board` (the board data and the top's ports; no tool runs).
pub fn panel(board: BoardId, design: &Design) -> Result<Panel, BoardError> {
    let b = board.board();
    let top = top_verilog(board, design, &Timing::for_design(b, design))
        .map_err(|e| BoardError::Setup(e.to_string()))?;
    Ok(Panel::new(b, design, &top.ports))
}

/// Builds the harness of `design` on `board` in `dir` (an existing folder): the top at the
/// board's real timing, as `retrogate build` synthesises it.
pub fn build(board: BoardId, design: &Design, dir: &Path) -> Result<Built, BoardError> {
    let b = board.board();
    let top = top_verilog(board, design, &Timing::for_design(b, design))
        .map_err(|e| BoardError::Setup(e.to_string()))?;
    harness::build(dir, &top, b.clock.pin)
}

/// Builds the harness of the chip that the bitstream `bin` configures, read back
/// ([`crate::bench::bitstream::read_back_chip`], as `verify --level 8` reads it), in `dir` (an
/// existing folder): it runs in place of the top of `design` on `board`, through the same pins.
/// A bitstream whose device or pins are not that top's is [`BoardError::NotForTop`].
pub fn build_from_bin(
    board: BoardId,
    design: &Design,
    bin: &Path,
    dir: &Path,
) -> Result<Built, BoardError> {
    let b = board.board();
    let top = top_verilog(board, design, &Timing::for_design(b, design))
        .map_err(|e| BoardError::Setup(e.to_string()))?;
    let chip = crate::bench::bitstream::read_back_chip(bin, &top, board, design, dir)?;
    harness::build_chip(dir, &top, b.clock.pin, &chip)
}

/// What the board shows: for each output pin whether it is lit, for each multiplexed display the
/// segments latched for each digit, and each switch's position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// Output pin `k` lit (its level against its polarity).
    pub lit: Vec<bool>,
    /// For each multiplexed display in panel order, digit `i` (0 = rightmost): its segments
    /// A .. G and the decimal point as last lit.
    pub latched: Vec<Vec<[bool; 8]>>,
    /// Control `c` is a switch that is on.
    pub on: Vec<bool>,
    /// Control `c` is held down now.
    pub held: Vec<bool>,
}

/// A running virtual board.
pub struct Session {
    /// What it draws and presses.
    pub panel: Panel,
    exe: PathBuf,
    every_cycle: bool,
    harness: Harness,
    /// Cycles run before the last power cycle.
    base: u64,
    /// Of those, the cycles evaluated (not skipped as idle).
    base_evaluated: u64,
    /// The input levels now.
    levels: Vec<bool>,
    /// The output pins' levels now.
    outputs: Vec<bool>,
    /// Releases due: (cycle, control).
    releases: Vec<(u64, usize)>,
    shown: Shown,
    /// The output pins that are a display's segments or selects (not drawn as lit).
    muxed: Vec<bool>,
}

impl Session {
    /// Starts the board `exe` (a harness of [`build`]) at power-on, every control released;
    /// with `every_cycle` its model evaluates every clock cycle (no idle skip: see
    /// [`harness`]).
    pub fn start(panel: Panel, exe: &Path, every_cycle: bool) -> Result<Self, BoardError> {
        let harness = Harness::start(exe, &panel.idle, every_cycle)?;
        let mut muxed = vec![false; panel.outputs.len()];
        let mut latched = Vec::new();
        for part in &panel.parts {
            if let Part::Mux(_, mux) = part {
                for (k, _) in mux.segments.segments.iter().flatten() {
                    muxed[*k] = true;
                }
                for (k, _) in &mux.selects {
                    muxed[*k] = true;
                }
                latched.push(vec![[false; 8]; mux.selects.len()]);
            }
        }
        let shown = Shown {
            lit: vec![false; panel.outputs.len()],
            latched,
            on: vec![false; panel.controls.len()],
            held: vec![false; panel.controls.len()],
        };
        Ok(Session {
            levels: panel.idle.clone(),
            outputs: vec![false; panel.outputs.len()],
            exe: exe.to_path_buf(),
            every_cycle,
            harness,
            base: 0,
            base_evaluated: 0,
            releases: Vec::new(),
            shown,
            muxed,
            panel,
        })
    }

    /// Clock cycles since the session started (power cycles included).
    pub fn cycle(&self) -> u64 {
        self.base + self.harness.cycle
    }

    /// Of [`Session::cycle`], the cycles the model evaluated; the others were skipped as idle,
    /// exactly (see [`harness`]).
    pub fn evaluated(&self) -> u64 {
        self.base_evaluated + self.harness.evaluated
    }

    /// The board's time since the session started, seconds.
    pub fn seconds(&self) -> f64 {
        self.cycle() as f64 / f64::from(self.panel.hz)
    }

    /// Cycles in `ms` milliseconds of board time.
    pub fn cycles_in_ms(&self, ms: u64) -> u64 {
        ms * u64::from(self.panel.hz) / 1000
    }

    /// What the board shows now.
    pub fn shown(&self) -> &Shown {
        &self.shown
    }

    /// Presses control `c`: a button is held `hold_ms` of board time, then released; a switch
    /// flips.
    pub fn press(&mut self, c: usize, hold_ms: u64) -> Result<(), BoardError> {
        let control = self.panel.controls[c].clone();
        match control.kind {
            ControlKind::Switch => {
                self.shown.on[c] = !self.shown.on[c];
                let level = control.idle ^ self.shown.on[c];
                self.set(control.input, level)
            }
            ControlKind::Button | ControlKind::Reset => {
                if self.shown.held[c] {
                    return Ok(());
                }
                self.shown.held[c] = true;
                let at = self.cycle() + self.cycles_in_ms(hold_ms).max(1);
                self.releases.push((at, c));
                self.set(control.input, !control.idle)
            }
        }
    }

    fn set(&mut self, k: usize, level: bool) -> Result<(), BoardError> {
        self.levels[k] = level;
        self.harness.set(k, level)
    }

    /// Power cycle: the model starts again from power-on (the switches stay where they are;
    /// the buttons are released).
    pub fn power_cycle(&mut self) -> Result<(), BoardError> {
        let cycle = self.cycle();
        for (_, c) in std::mem::take(&mut self.releases) {
            self.shown.held[c] = false;
            let control = &self.panel.controls[c];
            self.levels[control.input] = control.idle;
        }
        let evaluated = self.evaluated();
        let harness = Harness::start(&self.exe, &self.levels, self.every_cycle)?;
        self.harness = harness;
        self.base = cycle;
        self.base_evaluated = evaluated;
        for l in self.shown.latched.iter_mut().flatten() {
            *l = [false; 8];
        }
        Ok(())
    }

    /// Runs the board up to `cycle` (since the session started), releasing buttons when due;
    /// `changed` sees the session after each change of what the board shows.
    pub fn advance_to(
        &mut self,
        cycle: u64,
        changed: &mut dyn FnMut(&Session),
    ) -> Result<(), BoardError> {
        while self.cycle() < cycle {
            self.releases.sort_unstable();
            let release = self.releases.first().map(|r| r.0);
            let until = release.map_or(cycle, |r| r.min(cycle)).max(self.cycle());
            let n = until - self.cycle();
            let mut changes: Vec<(u64, Vec<u8>)> = Vec::new();
            if n > 0 {
                self.harness
                    .run(n, &mut |c, bits| changes.push((c, bits.to_vec())))?;
            }
            let end = self.harness.cycle;
            for (c, bits) in changes {
                self.harness.cycle = c;
                if self.observe(&bits) {
                    changed(self);
                }
            }
            self.harness.cycle = end;
            while let Some(&(at, c)) = self.releases.first() {
                if at > self.cycle() {
                    break;
                }
                self.releases.remove(0);
                self.shown.held[c] = false;
                let control = self.panel.controls[c].clone();
                self.set(control.input, control.idle)?;
            }
        }
        Ok(())
    }

    /// Takes the output pins' levels `bits`; whether what the board shows changed.
    fn observe(&mut self, bits: &[u8]) -> bool {
        for (k, b) in bits.iter().enumerate().take(self.outputs.len()) {
            self.outputs[k] = *b == b'1';
        }
        let before = self.shown.clone();
        let lit = |k: usize, low: bool| self.outputs[k] != low;
        for k in 0..self.outputs.len() {
            let low = self
                .panel
                .board
                .pin(&self.panel.outputs[k])
                .is_some_and(|p| p.polarity == crate::board::Polarity::ActiveLow);
            self.shown.lit[k] = !self.muxed[k] && lit(k, low);
        }
        let mut m = 0;
        for part in &self.panel.parts {
            if let Part::Mux(_, mux) = part {
                for (i, &(k, low)) in mux.selects.iter().enumerate() {
                    if lit(k, low) {
                        let mut segments = [false; 8];
                        for (n, pin) in mux.segments.segments.iter().enumerate() {
                            segments[n] = pin.is_some_and(|(s, low)| lit(s, low));
                        }
                        self.shown.latched[m][i] = segments;
                    }
                }
                m += 1;
            }
        }
        self.shown != before
    }
}
