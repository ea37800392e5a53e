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

/// An on-chip-solver control (design `solver`). The board sets a game
/// (take set, count, rule, who starts), the FPGA solves it, then you play it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolverIn {
    /// Take `k` sticks (a fixed game's take buttons).
    Take(u8),
    /// A key of the configuration pages and of play (Go Board, keys 1-4):
    /// while setting a game, key `k` toggles take `k` (page 1), keys 1/2
    /// step the count down/up (page 2, hold to repeat), keys 1/2 flip the
    /// rule and who starts (page 3), key 4 held 1 s goes to the next page
    /// (from page 3: solve and play); in play key `k` takes `k` (key 4 on
    /// release), key 4 held 1 s returns to the configuration.
    Key(u8),
    /// Release: new game, you first; held 1 s or more: new game, machine
    /// first. A board without one uses all take buttons together (a chord).
    Start,
    /// Press: read the switches, solve that game, start it.
    NewGame,
    /// Press: take the number set on the take switches.
    Move,
    /// Switch: take `k` is allowed (1-8).
    TakeSetSwitch(u8),
    /// Switch: bit `n` of the stick count.
    CountSwitch(u8),
    /// Switch: on, whoever takes the last stick wins; off, loses.
    LastWinsSwitch,
    /// Switch: on, the machine moves first.
    MachineFirstSwitch,
    /// Switch: bit `n` of your take (for [`SolverIn::Move`]).
    TakeSwitch(u8),
    /// Reset button: back to the start (configuration or a new game).
    Reset,
    /// Present on the port but not used.
    Unused,
}

/// An on-chip-solver display element. Every LED role blinks at game over
/// (slowly if you won, fast if the machine won); segments and digit selects
/// do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolverOut {
    /// Bit `n` of the sticks left, in binary.
    Count(u8),
    /// Your turn.
    Turn,
    /// The machine is thinking (or solving).
    Thinking,
    /// While setting a game: take `k` is in the take set (pages 1-2), or
    /// (page 3) LED 1 the rule "last stick wins" and LED 2 "machine first";
    /// in play: the machine took `k`.
    SetOrTake(u8),
    /// Bit `n` of the machine's last take, in binary.
    MachineTake(u8),
    /// Take `k` is in the take set of the game being played.
    GameTake(u8),
    /// The game being played: the last stick wins.
    GameLastWins,
    /// Segment `n` of the left digit: the tens of the sticks left (of the
    /// count while setting a game; `L` on the rule page).
    TensSegment(u8),
    /// Segment `n` of the right digit: the ones of the sticks left (of the
    /// count while setting a game; on the rule page `1` if the last stick
    /// wins, `0` if it loses).
    OnesSegment(u8),
    /// Segment `n` of the 4-digit multiplexed display: the sticks left in
    /// the three left digits, the machine's last take in the rightmost
    /// (blank before its first move).
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
    /// On-chip solver ports after the clock, in port order.
    pub solver: &'static [Wire<SolverIn, SolverOut>],
    /// Solver output pins lit while the start button (or chord, or key 4)
    /// has been held 1 s.
    pub solver_held_lights: &'static [&'static str],
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

impl fmt::Display for SolverIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverIn::Take(k) => write!(f, "take {k}"),
            SolverIn::Key(1) => {
                f.write_str("key 1: toggle take 1 / count down / flip the rule; in play take 1")
            }
            SolverIn::Key(2) => {
                f.write_str("key 2: toggle take 2 / count up / flip who starts; in play take 2")
            }
            SolverIn::Key(4) => f.write_str(
                "key 4: toggle take 4; held 1 s: next page (then solve and play); in play take 4, \
                 held 1 s: back to the set-up",
            ),
            SolverIn::Key(k) => write!(f, "key {k}: toggle take {k}; in play take {k}"),
            SolverIn::Start => f.write_str("start (long press: machine first)"),
            SolverIn::NewGame => f.write_str("new game: solve the switches' game and start"),
            SolverIn::Move => f.write_str("move: take the number on the take switches"),
            SolverIn::TakeSetSwitch(k) => write!(f, "switch: take {k} allowed"),
            SolverIn::CountSwitch(n) => write!(f, "switch: count bit {n}"),
            SolverIn::LastWinsSwitch => f.write_str("switch: last stick wins (off: loses)"),
            SolverIn::MachineFirstSwitch => f.write_str("switch: machine first"),
            SolverIn::TakeSwitch(n) => write!(f, "switch: your take bit {n}"),
            SolverIn::Reset => f.write_str("reset"),
            SolverIn::Unused => f.write_str("unused"),
        }
    }
}

impl fmt::Display for SolverOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverOut::Count(n) => write!(f, "count bit {n}"),
            SolverOut::Turn => f.write_str("your turn"),
            SolverOut::Thinking => f.write_str("machine thinking"),
            SolverOut::SetOrTake(k) => write!(
                f,
                "set-up: take {k} allowed{}; in play: machine took {k}",
                match k {
                    1 => " (rule page: last stick wins)",
                    2 => " (rule page: machine first)",
                    _ => "",
                }
            ),
            SolverOut::MachineTake(n) => write!(f, "machine's take bit {n}"),
            SolverOut::GameTake(k) => write!(f, "take {k} allowed in this game"),
            SolverOut::GameLastWins => f.write_str("this game: last stick wins"),
            SolverOut::TensSegment(n) => write!(f, "tens segment {}", seg(*n)),
            SolverOut::OnesSegment(n) => write!(f, "ones segment {}", seg(*n)),
            SolverOut::DisplaySegment(n) => write!(f, "display segment {}", seg(*n)),
            SolverOut::DigitSelect(n) => write!(f, "digit select {n}"),
            SolverOut::Dark => f.write_str("game-over blink only"),
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
