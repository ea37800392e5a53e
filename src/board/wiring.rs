//! What each pin does in each design: the board side of "boards as data".
//!
//! A design asks for controls and displays by role (a button that takes 2
//! sticks, an LED that shows bit 0 of the count, segment C of the tens
//! digit); each board's data lists, in port order, which of its pins
//! provide them. `circuit::top` builds every board top from this list: the
//! top's ports are the pins named here (the PCF names), in this order, with
//! the pins' polarities from [`PinDef`](super::PinDef).
//!
//! Roles use the designs' own numbering: J.R. 01 position bits are A = 2,
//! B = 1, C = 0 (answer X = 2, Y = 1, Z = 0); takes are 1, 2, 3; segments
//! are A = 0 .. G = 6, decimal point 7; digit select 0 is the rightmost
//! digit of a multiplexed display.

use std::fmt;

use serde::Serialize;

/// One top-level port of a design on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wire<I: 'static, O: 'static> {
    /// A one-bit input pin with its role.
    Input(&'static str, I),
    /// A one-bit output pin with its role.
    Output(&'static str, O),
    /// An input bus (e.g. `io_dip`), bit `i` with role `roles[i]`. The port
    /// is `inout`: it is read through iCE40 `SB_IO` pads, which also emulate
    /// pull-downs where the pins need it.
    InputBus(&'static str, &'static [I]),
    /// An output bus (e.g. `io_led`), bit `i` with role `roles[i]`.
    OutputBus(&'static str, &'static [O]),
}

impl<I, O> Wire<I, O> {
    /// The port name (a pin name, or a bus base name).
    pub const fn port(&self) -> &'static str {
        match self {
            Wire::Input(n, _)
            | Wire::Output(n, _)
            | Wire::InputBus(n, _)
            | Wire::OutputBus(n, _) => n,
        }
    }
}

/// A J.R. 01 control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jr01In {
    /// A push button: each press flips position bit `n` (2 = A, 1 = B, 0 = C).
    Toggle(u8),
    /// A switch: its (debounced) level is position bit `n`.
    Switch(u8),
    /// Present on the port but not used.
    Unused,
}

/// A J.R. 01 display element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jr01Out {
    /// Position bit `n` (2 = A, 1 = B, 0 = C).
    Position(u8),
    /// Answer bit `n` (2 = X, 1 = Y, 0 = Z).
    Answer(u8),
    /// Position bit `n` while [`Jr01Out::ShowingPosition`] is lit, answer bit
    /// `n` while it is dark; they alternate every second.
    Alternating(u8),
    /// Lit while the alternating LEDs show the position.
    ShowingPosition,
    /// Segment `n` of a digit showing the position as a number 0-7.
    PositionSegment(u8),
    /// Segment `n` of a digit showing the answer as a number 0-7.
    AnswerSegment(u8),
    /// Segment `n` of the multiplexed display: position in the leftmost
    /// digit, answer in the rightmost.
    DisplaySegment(u8),
    /// Digit select `n` of the multiplexed display.
    DigitSelect(u8),
    /// Always dark.
    Dark,
}

/// A sticks-game control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SticksIn {
    /// Take `k` sticks (1, 2 or 3).
    Take(u8),
    /// Release: new game, you first; held 1 s or more: new game, machine
    /// first. A board without one starts games with all take buttons pressed
    /// together (a chord), with the same meaning.
    Start,
    /// Press: new game (boards with a machine-first switch).
    NewGame,
    /// Switch: on, the machine moves first in the next game.
    MachineFirst,
    /// Reset button: new game.
    Reset,
    /// Present on the port but not used.
    Unused,
}

/// A sticks-game display element. Every LED role blinks at game over
/// (slowly if you won, fast if the machine won); segments and digit selects
/// do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SticksOut {
    /// Bit `n` of the sticks left, in binary.
    Count(u8),
    /// Your turn.
    Turn,
    /// The machine is thinking.
    Thinking,
    /// LED `k` (1-3) of the machine's last take: lit when it took `k`
    /// (games with takes above 3: bit `k - 1` of the take in binary).
    MachineTake(u8),
    /// Echo of the machine-first switch.
    MachineFirst,
    /// Segment `n` of the tens digit of the sticks left (blank below 10).
    TensSegment(u8),
    /// Segment `n` of the ones digit of the sticks left.
    OnesSegment(u8),
    /// Segment `n` of the 4-digit multiplexed display: the count in the two
    /// left digits, `-`, then the machine's last take (blank before its
    /// first move).
    DisplaySegment(u8),
    /// Digit select `n` of the multiplexed display.
    DigitSelect(u8),
    /// An LED with nothing to show but the game-over blink.
    Dark,
}

/// What a board does in each design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Designs {
    /// J.R. 01 ports after the clock, in port order.
    pub jr01: &'static [Wire<Jr01In, Jr01Out>],
    /// Sticks ports after the clock, in port order.
    pub sticks: &'static [Wire<SticksIn, SticksOut>],
    /// Sticks output pins that light while the start button (or chord) has
    /// been held 1 s, telling you to let go for a machine-first game.
    pub sticks_held_lights: &'static [&'static str],
}

impl fmt::Display for Jr01In {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jr01In::Toggle(n) => write!(f, "toggle {}", abc(*n)),
            Jr01In::Switch(n) => write!(f, "switch {}", abc(*n)),
            Jr01In::Unused => f.write_str("unused"),
        }
    }
}

impl fmt::Display for Jr01Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jr01Out::Position(n) => write!(f, "position {}", abc(*n)),
            Jr01Out::Answer(n) => write!(f, "answer {}", xyz(*n)),
            Jr01Out::Alternating(n) => write!(f, "{} or {}", abc(*n), xyz(*n)),
            Jr01Out::ShowingPosition => f.write_str("showing the position"),
            Jr01Out::PositionSegment(n) => write!(f, "position digit segment {}", seg(*n)),
            Jr01Out::AnswerSegment(n) => write!(f, "answer digit segment {}", seg(*n)),
            Jr01Out::DisplaySegment(n) => write!(f, "display segment {}", seg(*n)),
            Jr01Out::DigitSelect(n) => write!(f, "digit select {n}"),
            Jr01Out::Dark => f.write_str("dark"),
        }
    }
}

impl fmt::Display for SticksIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SticksIn::Take(k) => write!(f, "take {k}"),
            SticksIn::Start => f.write_str("start (long press: machine first)"),
            SticksIn::NewGame => f.write_str("new game"),
            SticksIn::MachineFirst => f.write_str("machine-first switch"),
            SticksIn::Reset => f.write_str("reset"),
            SticksIn::Unused => f.write_str("unused"),
        }
    }
}

impl fmt::Display for SticksOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SticksOut::Count(n) => write!(f, "count bit {n}"),
            SticksOut::Turn => f.write_str("your turn"),
            SticksOut::Thinking => f.write_str("machine thinking"),
            SticksOut::MachineTake(k) => write!(f, "machine took {k}"),
            SticksOut::MachineFirst => f.write_str("machine-first switch echo"),
            SticksOut::TensSegment(n) => write!(f, "tens segment {}", seg(*n)),
            SticksOut::OnesSegment(n) => write!(f, "ones segment {}", seg(*n)),
            SticksOut::DisplaySegment(n) => write!(f, "display segment {}", seg(*n)),
            SticksOut::DigitSelect(n) => write!(f, "digit select {n}"),
            SticksOut::Dark => f.write_str("game-over blink only"),
        }
    }
}

fn abc(n: u8) -> char {
    ['C', 'B', 'A'].get(usize::from(n)).copied().unwrap_or('?')
}

fn xyz(n: u8) -> char {
    ['Z', 'Y', 'X'].get(usize::from(n)).copied().unwrap_or('?')
}

fn seg(n: u8) -> char {
    "ABCDEFGP".chars().nth(usize::from(n)).unwrap_or('?')
}
