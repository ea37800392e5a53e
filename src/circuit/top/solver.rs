//! The `solver` design on a board: set a subtraction game on the board (take set, count, rule,
//! who starts), the on-chip solver computes its table in block RAM, and the controller plays it;
//! boards without the controls play Fort Boyard, solved on the chip at each start.
//!
//! Here is all of it: its roles ([`SolverIn`], [`SolverOut`]), its [`Layout`] on every board
//! ([`layout`]; on the Alchitry Cu it runs at 50 MHz from the PLL), its board-independent core
//! ([`SolverBoardCore`] around [`SticksSolverGame`]) and the top builder ([`solver_top`],
//! [`solver_verilog`]). How a board sets the game ([`SolverSetup`]) follows from the roles its
//! layout gives ([`solver_setup`]).

use std::fmt;

use rust_hdl::prelude::*;

use super::layout::{segment_letter, BoardDesign, Layout, Wire};
use super::pins::{BoardCore, BoardTop, InRole, OutRole, PinPlan};
use super::{Timing, TopError};
use crate::board::BoardId;
use crate::circuit::board_io::{
    Blinker, Buttons, DecimalDigits, MuxDisplay, PowerOnReset, PressTimer, SevenSegment,
    Synchronizer, TimeBase, Widen, BLANK,
};
use crate::circuit::sticks_solver_game::SticksSolverGame;
use crate::game::SticksGame;

/// An on-chip-solver control (design `solver`). The board sets a game
/// (take set, count, rule, who starts), the FPGA solves it, then you play it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
        let seg = |n: &u8| segment_letter(*n);
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
            SolverOut::TensSegment(n) => write!(f, "tens segment {}", seg(n)),
            SolverOut::OnesSegment(n) => write!(f, "ones segment {}", seg(n)),
            SolverOut::DisplaySegment(n) => write!(f, "display segment {}", seg(n)),
            SolverOut::DigitSelect(n) => write!(f, "digit select {n}"),
            SolverOut::Dark => f.write_str("game-over blink only"),
        }
    }
}

impl InRole for SolverIn {
    fn key(self) -> Option<usize> {
        use solver_keys as k;
        let n = |n: u8| usize::from(n);
        match self {
            SolverIn::Take(t) | SolverIn::Key(t) => Some(k::KEY1 + n(t) - 1),
            SolverIn::Start => Some(k::START),
            SolverIn::NewGame => Some(k::NEW_GAME),
            SolverIn::Move => Some(k::MOVE),
            SolverIn::Reset => Some(k::RESET),
            SolverIn::TakeSetSwitch(t) => Some(k::TAKE_SET + n(t) - 1),
            SolverIn::CountSwitch(b) => Some(k::COUNT + n(b)),
            SolverIn::LastWinsSwitch => Some(k::LAST_WINS),
            SolverIn::MachineFirstSwitch => Some(k::MACHINE_FIRST),
            SolverIn::TakeSwitch(b) => Some(k::TAKE + n(b)),
            SolverIn::Unused => None,
        }
    }
}

impl OutRole for SolverOut {
    fn source(self) -> Option<(&'static str, usize)> {
        let n = |n: u8| usize::from(n);
        match self {
            SolverOut::Count(b) => Some(("remaining", n(b))),
            SolverOut::Turn => Some(("turn", 0)),
            SolverOut::Thinking => Some(("thinking", 0)),
            SolverOut::SetOrTake(k) => Some(("lights", n(k) - 1)),
            SolverOut::MachineTake(b) => Some(("machine_take", n(b))),
            SolverOut::GameTake(k) => Some(("game_take_set", n(k) - 1)),
            SolverOut::GameLastWins => Some(("game_last_wins", 0)),
            SolverOut::TensSegment(b) => Some(("tens_segments", n(b))),
            SolverOut::OnesSegment(b) => Some(("ones_segments", n(b))),
            SolverOut::DisplaySegment(b) => Some(("segments", n(b))),
            SolverOut::DigitSelect(b) => Some(("select", n(b))),
            SolverOut::Dark => None,
        }
    }

    fn blinks(self) -> bool {
        !matches!(
            self,
            SolverOut::TensSegment(_)
                | SolverOut::OnesSegment(_)
                | SolverOut::DisplaySegment(_)
                | SolverOut::DigitSelect(_)
        )
    }
}

/// The iCEBreaker: the controls and lights of its `sticks` design, playing the default game
/// (Fort Boyard: 18 sticks, take 1-3, last loses) solved on the chip at each start.
const ICEBREAKER: Layout<SolverIn, SolverOut> = Layout {
    wires: &[
        Wire::Input("BTN_N", SolverIn::Start),
        Wire::Input("BTN1", SolverIn::Take(1)),
        Wire::Input("BTN2", SolverIn::Take(2)),
        Wire::Input("BTN3", SolverIn::Take(3)),
        Wire::Output("LED1", SolverOut::Count(0)),
        Wire::Output("LED2", SolverOut::Count(1)),
        Wire::Output("LED3", SolverOut::Count(2)),
        Wire::Output("LED4", SolverOut::Count(3)),
        Wire::Output("LED5", SolverOut::Count(4)),
        Wire::Output("LEDR_N", SolverOut::Thinking),
        Wire::Output("LEDG_N", SolverOut::Turn),
    ],
    held_lights: &["LEDR_N"],
    pll_hz: None,
};

/// The Go Board: set the game on three pages, then play it (keys 1-4 take 1-4, the digits show
/// the sticks left, LED k the machine's take k); see [`SolverIn::Key`] and docs/boards.md.
const GO_BOARD: Layout<SolverIn, SolverOut> = Layout {
    wires: &[
        Wire::Input("i_Switch_1", SolverIn::Key(1)),
        Wire::Input("i_Switch_2", SolverIn::Key(2)),
        Wire::Input("i_Switch_3", SolverIn::Key(3)),
        Wire::Input("i_Switch_4", SolverIn::Key(4)),
        Wire::Output("o_LED_1", SolverOut::SetOrTake(1)),
        Wire::Output("o_LED_2", SolverOut::SetOrTake(2)),
        Wire::Output("o_LED_3", SolverOut::SetOrTake(3)),
        Wire::Output("o_LED_4", SolverOut::SetOrTake(4)),
        Wire::Digit("Segment1", SolverOut::TensSegment),
        Wire::Digit("Segment2", SolverOut::OnesSegment),
    ],
    held_lights: &["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"],
    pll_hz: None,
};

/// The Alchitry Io (both versions): `io_dip[7:0]` the take set (DIP k-1: take k allowed),
/// `io_dip[15:8]` the count, `[16]` last stick wins, `[17]` machine first, `io_dip[23:20]` your
/// take; up reads the switches, solves and starts a game, centre plays your take; the display shows
/// the sticks left (3 digits) and the machine's last take; `io_led[7:0]` the game's take set,
/// `[15:8]` the sticks left, `[16]` your turn, `[17]` thinking, `[18]` last stick wins.
///
/// It runs at 50 MHz from the Cu's PLL: its block-RAM solver alone reaches 100 to 115 MHz on
/// the HX8K over placer seeds 1 to 8, short of 1.2x the 100 MHz board clock.
const ALCHITRY_IO: Layout<SolverIn, SolverOut> = Layout {
    wires: &[
        Wire::Input("rst_n", SolverIn::Reset),
        Wire::InputBus(
            "io_button",
            &[
                SolverIn::NewGame,
                SolverIn::Move,
                SolverIn::Unused,
                SolverIn::Unused,
                SolverIn::Unused,
            ],
        ),
        Wire::InputBus(
            "io_dip",
            &[
                SolverIn::TakeSetSwitch(1),
                SolverIn::TakeSetSwitch(2),
                SolverIn::TakeSetSwitch(3),
                SolverIn::TakeSetSwitch(4),
                SolverIn::TakeSetSwitch(5),
                SolverIn::TakeSetSwitch(6),
                SolverIn::TakeSetSwitch(7),
                SolverIn::TakeSetSwitch(8),
                SolverIn::CountSwitch(0),
                SolverIn::CountSwitch(1),
                SolverIn::CountSwitch(2),
                SolverIn::CountSwitch(3),
                SolverIn::CountSwitch(4),
                SolverIn::CountSwitch(5),
                SolverIn::CountSwitch(6),
                SolverIn::CountSwitch(7),
                SolverIn::LastWinsSwitch,
                SolverIn::MachineFirstSwitch,
                SolverIn::Unused,
                SolverIn::Unused,
                SolverIn::TakeSwitch(0),
                SolverIn::TakeSwitch(1),
                SolverIn::TakeSwitch(2),
                SolverIn::TakeSwitch(3),
            ],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                SolverOut::GameTake(1),
                SolverOut::GameTake(2),
                SolverOut::GameTake(3),
                SolverOut::GameTake(4),
                SolverOut::GameTake(5),
                SolverOut::GameTake(6),
                SolverOut::GameTake(7),
                SolverOut::GameTake(8),
                SolverOut::Count(0),
                SolverOut::Count(1),
                SolverOut::Count(2),
                SolverOut::Count(3),
                SolverOut::Count(4),
                SolverOut::Count(5),
                SolverOut::Count(6),
                SolverOut::Count(7),
                SolverOut::Turn,
                SolverOut::Thinking,
                SolverOut::GameLastWins,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
            ],
        ),
        Wire::Display(
            "io_display",
            SolverOut::DisplaySegment,
            SolverOut::DigitSelect,
        ),
    ],
    held_lights: &[],
    pll_hz: Some(50_000_000),
};

/// The iCEstick: the controls and lights of its `sticks` design (the three-button chord
/// starts a game), playing Fort Boyard solved on the chip at each start.
const ICESTICK: Layout<SolverIn, SolverOut> = Layout {
    wires: &[
        Wire::Input("BTN1", SolverIn::Take(1)),
        Wire::Input("BTN2", SolverIn::Take(2)),
        Wire::Input("BTN3", SolverIn::Take(3)),
        Wire::Output("D1", SolverOut::Count(0)),
        Wire::Output("D2", SolverOut::Count(1)),
        Wire::Output("D3", SolverOut::Count(2)),
        Wire::Output("D4", SolverOut::Count(3)),
        Wire::Output("D5", SolverOut::Count(4)),
    ],
    held_lights: &["D1", "D2", "D3", "D4", "D5"],
    pll_hz: None,
};

/// The design's layout on `board`.
pub fn layout(board: BoardId) -> &'static Layout<SolverIn, SolverOut> {
    match board {
        BoardId::Icebreaker => &ICEBREAKER,
        BoardId::GoBoard => &GO_BOARD,
        BoardId::AlchitryCu | BoardId::AlchitryCuV2 => &ALCHITRY_IO,
        BoardId::Icestick => &ICESTICK,
    }
}

/// The design in [`super::BOARD_DESIGNS`].
pub const BOARD_DESIGN: BoardDesign = BoardDesign {
    name: "solver",
    pin_uses: |board| Some(layout(board.id).pin_uses(board)),
    pll_hz: |board| layout(board).pll_hz,
    check: |board| layout(board.id).check(board),
    mapping: crate::flow::yosys::Mapping::Abc9,
};

/// How `board` sets the solver's game, and the solver's widths (W, K), from the roles of its
/// layout: keys: set-up pages, counts up to 63, takes up to the number of keys;
/// switches: the take set and count switches' widths; otherwise Fort
/// Boyard (W = 5, K = 3), started with the start button or (none) a chord.
pub fn solver_setup(board: BoardId) -> (SolverSetup, usize, usize) {
    let roles: Vec<SolverIn> = layout(board)
        .wires
        .iter()
        .flat_map(|w| match w {
            Wire::Input(_, r) => vec![*r],
            Wire::InputBus(_, rs) => rs.to_vec(),
            _ => vec![],
        })
        .collect();
    let count = |f: fn(&SolverIn) -> bool| roles.iter().filter(|r| f(r)).count();
    let keys = count(|r| matches!(r, SolverIn::Key(_)));
    if keys > 0 {
        return (SolverSetup::Pages, 6, keys);
    }
    if roles.contains(&SolverIn::NewGame) {
        let k = count(|r| matches!(r, SolverIn::TakeSetSwitch(_)));
        let w = count(|r| matches!(r, SolverIn::CountSwitch(_)));
        return (SolverSetup::Switches, w, k);
    }
    let chord = !roles.contains(&SolverIn::Start);
    (SolverSetup::Fixed { chord }, 5, 3)
}

/// The solver top for `board`, with the widths fixed (they must be those of
/// [`solver_setup`]; `S = 2^M`).
pub fn solver_top<const W: usize, const K: usize, const M: usize, const S: usize>(
    board: BoardId,
    timing: &Timing,
) -> BoardTop<SolverBoardCore<W, K, M, S>> {
    let (setup, w, k) = solver_setup(board);
    assert_eq!((w, k), (W, K), "{board}: solver widths");
    let core = SolverBoardCore::new(setup, &SticksGame::fort_boyard(), timing);
    let plan = PinPlan::new(
        board.board(),
        layout(board),
        solver_keys::WIDTH,
        Some(solver_keys::RESET),
    );
    BoardTop::new(core, plan, timing.pull_down)
}

/// The Verilog of the solver top for `board` (module `module`), at the widths its layout asks
/// for ([`solver_setup`]).
pub fn solver_verilog(board: BoardId, timing: &Timing, module: &str) -> Result<String, TopError> {
    let (_, w, k) = solver_setup(board);
    Ok(match (w, k) {
        (5, 3) => solver_top::<5, 3, 2, 4>(board, timing).verilog(module)?,
        (6, 4) => solver_top::<6, 4, 3, 8>(board, timing).verilog(module)?,
        (8, 8) => solver_top::<8, 8, 4, 16>(board, timing).verilog(module)?,
        (w, k) => {
            return Err(TopError::UnsupportedGame {
                reason: format!(
                    "{board}: no solver top for {w} count bits and takes up to {k} \
                     (add the widths to solver_verilog)"
                ),
            })
        }
    })
}

/// `keys` bits of [`SolverBoardCore`].
pub mod solver_keys {
    /// Take 1-4 (or key 1-4 of the set-up pages): bits 0-3.
    pub const KEY1: usize = 0;
    /// The start button (release: new game; long press: machine first).
    pub const START: usize = 4;
    /// The new-game button (read the switches, solve, start).
    pub const NEW_GAME: usize = 5;
    /// The move button (take the number on the take switches).
    pub const MOVE: usize = 6;
    /// The reset button (synchronised, not debounced).
    pub const RESET: usize = 7;
    /// Switches: take 1-8 allowed, bits 8-15.
    pub const TAKE_SET: usize = 8;
    /// Switches: the count, bits 16-23.
    pub const COUNT: usize = 16;
    /// Switch: the last stick wins.
    pub const LAST_WINS: usize = 24;
    /// Switch: the machine moves first.
    pub const MACHINE_FIRST: usize = 25;
    /// Switches: your take, bits 26-29.
    pub const TAKE: usize = 26;
    /// Width of `keys`.
    pub const WIDTH: usize = 30;
}

/// How a board sets the game the on-chip solver solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverSetup {
    /// A fixed game (the core's defaults), started like the sticks design:
    /// the start button, or (`chord`) all three take buttons together.
    Fixed {
        /// No start button: the three take buttons together start a game.
        chord: bool,
    },
    /// Set-up pages on four keys (the Go Board): takes, count, rule.
    Pages,
    /// Switches: take set, count, rule, machine first and your take; a
    /// new-game and a move button (the Alchitry Io).
    Switches,
}

/// Set-up page of [`SolverBoardCore`] with [`SolverSetup::Pages`].
pub mod solver_pages {
    /// Keys 1-4 toggle takes 1-4.
    pub const TAKES: u64 = 0;
    /// Keys 1 and 2 step the count down and up.
    pub const COUNT: u64 = 1;
    /// Keys 1 and 2 flip the rule and who starts.
    pub const RULE: u64 = 2;
    /// The game is played.
    pub const PLAY: u64 = 3;
}

/// Segments of the letter `L` (D, E, F) on the rule page.
const LETTER_L: u64 = 0b011_1000;

/// The on-chip solver on any board: set a game, the FPGA solves it
/// ([`SticksSolverGame`]), then play it.
///
/// ```text
///             +----------------------------------------------------+
///  keys[30]-->| Buttons<7>, Synchronizer (switches, reset),         |--> remaining[8], lights[8]
///  clock   -->| PressTimer, PowerOnReset, set-up registers          |--> machine_take[4], turn, thinking
///             | SticksSolverGame<W, K, M, S>, Blinker, DecimalDigits |--> game_over, blink, holding
///             | SevenSegment x4, MuxDisplay                         |--> game_take_set[8], game_last_wins
///             +----------------------------------------------------+--> tens/ones_segments[7], segments[8], select[4]
/// ```
///
/// `keys` ([`solver_keys`], active high). The game comes from the
/// [`SolverSetup`]: fixed (the defaults given to [`SolverBoardCore::new`]),
/// set on pages ([`solver_pages`]: key 4 held 1 s, on release, goes to the
/// next page; from the rule page it solves and starts the game; in play it
/// returns to the takes page; at game over a short press of key 4 replays
/// the same game), or read from the switches when the new-game button is
/// pressed. While setting a game `lights` shows the take set (rule page:
/// bit 0 last stick wins, bit 1 machine first) and the digits the count
/// (rule page: `L` and 1 if the last stick wins, 0 if it loses); in play
/// `lights` bit `k - 1` is lit when the machine took `k`, the digits show
/// the sticks left. The multiplexed display shows the sticks left in its
/// three left digits and the machine's last take in the rightmost.
#[derive(LogicBlock)]
pub struct SolverBoardCore<const W: usize, const K: usize, const M: usize, const S: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys, active high ([`solver_keys`]).
    pub keys: Signal<In, Bits<30>>,
    /// Sticks left.
    pub remaining: Signal<Out, Bits<8>>,
    /// Set-up: the take set (or the rule page's two settings); play: the
    /// machine's last take, one-hot.
    pub lights: Signal<Out, Bits<8>>,
    /// The machine's last take, in binary.
    pub machine_take: Signal<Out, Bits<4>>,
    /// Your turn.
    pub turn: Signal<Out, Bit>,
    /// The machine is thinking (or solving).
    pub thinking: Signal<Out, Bit>,
    /// The game is over (only while playing).
    pub game_over: Signal<Out, Bit>,
    /// The game-over blink level (slow if you won, fast if not).
    pub blink: Signal<Out, Bit>,
    /// The long-press key has been held past the long press.
    pub holding: Signal<Out, Bit>,
    /// The take set of the game being played.
    pub game_take_set: Signal<Out, Bits<8>>,
    /// The game being played: the last stick wins.
    pub game_last_wins: Signal<Out, Bit>,
    /// Segments A..G of the left (tens) digit.
    pub tens_segments: Signal<Out, Bits<7>>,
    /// Segments A..G of the right (ones) digit.
    pub ones_segments: Signal<Out, Bits<7>>,
    /// Multiplexed display: segments.
    pub segments: Signal<Out, Bits<8>>,
    /// Multiplexed display: digit selects (bit 0 = rightmost).
    pub select: Signal<Out, Bits<4>>,
    long_level: Signal<Local, Bit>,
    long_release: Signal<Local, Bit>,
    short_release: Signal<Local, Bit>,
    step: Signal<Local, Bit>,
    playing: Signal<Local, Bit>,
    take: Signal<Local, Bits<M>>,
    take_valid: Signal<Local, Bit>,
    new_game: Signal<Local, Bit>,
    shown: Signal<Local, Bits<W>>,
    take_shown: Signal<Local, Bits<4>>,
    take4: Signal<Local, Bits<4>>,
    time_base: TimeBase,
    buttons: Buttons<7>,
    switches: Synchronizer<22>,
    reset_sync: Synchronizer<1>,
    long: PressTimer,
    por: PowerOnReset,
    page: DFF<Bits<2>>,
    cfg_take_set: DFF<Bits<K>>,
    cfg_count: DFF<Bits<W>>,
    cfg_last_wins: DFF<Bit>,
    cfg_machine_first: DFF<Bit>,
    repeat_count: DFF<Bits<8>>,
    por_q: DFF<Bit>,
    take_q: DFF<Bits<M>>,
    take_valid_q: DFF<Bit>,
    new_game_q: DFF<Bit>,
    game: SticksSolverGame<W, K, M, S>,
    blinker: Blinker,
    decimal: DecimalDigits<W>,
    tens: SevenSegment,
    ones: SevenSegment,
    hundreds: SevenSegment,
    take_digit: SevenSegment,
    remaining8: Widen<W, 8>,
    take_wide: Widen<M, 4>,
    game_set8: Widen<K, 8>,
    set_lights: Widen<K, 8>,
    last_wins_light: Widen<1, 8>,
    machine_first_light: Widen<1, 8>,
    last_wins_digit: Widen<1, 4>,
    hundreds_bus: Widen<7, 32>,
    tens_bus: Widen<7, 32>,
    ones_bus: Widen<7, 32>,
    take_bus: Widen<7, 32>,
    display: MuxDisplay,
    blank: Constant<Bits<4>>,
    letter_l: Constant<Bits<7>>,
    page_take_set: Constant<Bits<2>>,
    page_count: Constant<Bits<2>>,
    page_rules: Constant<Bits<2>>,
    page_play: Constant<Bits<2>>,
    page_step: Constant<Bits<2>>,
    repeat_zero: Constant<Bits<8>>,
    repeat_step: Constant<Bits<8>>,
    count_step: Constant<Bits<W>>,
    no_take: Constant<Bits<M>>,
    move_1: Constant<Bits<M>>,
    move_2: Constant<Bits<M>>,
    move_3: Constant<Bits<M>>,
    move_4: Constant<Bits<M>>,
    take_1: Constant<Bits<4>>,
    take_2: Constant<Bits<4>>,
    take_3: Constant<Bits<4>>,
    take_4: Constant<Bits<4>>,
    take_5: Constant<Bits<4>>,
    take_6: Constant<Bits<4>>,
    take_7: Constant<Bits<4>>,
    take_8: Constant<Bits<4>>,
    flip1: Constant<Bits<K>>,
    flip2: Constant<Bits<K>>,
    flip3: Constant<Bits<K>>,
    flip4: Constant<Bits<K>>,
    lights_none: Constant<Bits<8>>,
    light1: Constant<Bits<8>>,
    light2: Constant<Bits<8>>,
    light3: Constant<Bits<8>>,
    light4: Constant<Bits<8>>,
    light5: Constant<Bits<8>>,
    light6: Constant<Bits<8>>,
    light7: Constant<Bits<8>>,
    light8: Constant<Bits<8>>,

    default_take_set: Constant<Bits<K>>,
    default_count: Constant<Bits<W>>,
    default_last_wins: Constant<Bit>,
    repeat_delay: Constant<Bits<8>>,
    repeat_reload: Constant<Bits<8>>,
    paged: Constant<Bit>,
    switched: Constant<Bit>,
    chord: Constant<Bit>,
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> SolverBoardCore<W, K, M, S> {
    /// The core for `setup`, starting from (or, fixed, always playing)
    /// `default`: a game of at most `2^W - 1` sticks with takes up to `K`.
    /// Count keys repeat every tenth of the long press once held half of it (at most 255 ticks).
    /// `connect_all()` done.
    pub fn new(setup: SolverSetup, default: &crate::game::SticksGame, timing: &Timing) -> Self {
        use crate::game::Game;
        assert!(
            default.count() < 1 << W && default.max_take() <= K as u64,
            "the default game fits W = {W}, K = {K}"
        );
        let take_set = default.take().iter().fold(0u64, |m, &t| m | 1 << (t - 1));
        let delay = (timing.long_press_ticks / 2).clamp(1, 255);
        let period = (timing.long_press_ticks / 10).clamp(1, delay);
        // Bit k - 1 of the take set, which flips take k (none for a take above K).
        // Take k as a move (0, no move, for a take that does not fit M bits).
        let take_m = |k: u64| Constant::new((k & ((1u64 << M) - 1)).into());
        let flip = |k: u64| Constant::new(((1u64 << (k - 1)) & ((1u64 << K) - 1)).into());
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            remaining: Default::default(),
            lights: Default::default(),
            machine_take: Default::default(),
            turn: Default::default(),
            thinking: Default::default(),
            game_over: Default::default(),
            blink: Default::default(),
            holding: Default::default(),
            game_take_set: Default::default(),
            game_last_wins: Default::default(),
            tens_segments: Default::default(),
            ones_segments: Default::default(),
            segments: Default::default(),
            select: Default::default(),
            long_level: Default::default(),
            long_release: Default::default(),
            short_release: Default::default(),
            step: Default::default(),
            playing: Default::default(),
            take: Default::default(),
            take_valid: Default::default(),
            new_game: Default::default(),
            shown: Default::default(),
            take_shown: Default::default(),
            take4: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            switches: Synchronizer::new(),
            reset_sync: Synchronizer::new(),
            long: PressTimer::new(timing.long_press_ticks),
            por: PowerOnReset::new(),
            page: Default::default(),
            cfg_take_set: Default::default(),
            cfg_count: Default::default(),
            cfg_last_wins: Default::default(),
            cfg_machine_first: Default::default(),
            repeat_count: Default::default(),
            por_q: Default::default(),
            take_q: Default::default(),
            take_valid_q: Default::default(),
            new_game_q: Default::default(),
            game: SticksSolverGame::new(timing.think_ticks),
            blinker: Blinker::new(timing.blink_ticks),
            decimal: DecimalDigits::new(),
            tens: SevenSegment::new(),
            ones: SevenSegment::new(),
            hundreds: SevenSegment::new(),
            take_digit: SevenSegment::new(),
            remaining8: Widen::new(),
            take_wide: Widen::new(),
            game_set8: Widen::new(),
            set_lights: Widen::new(),
            last_wins_light: Widen::new(),
            machine_first_light: Widen::new(),
            last_wins_digit: Widen::new(),
            hundreds_bus: Widen::new(),
            tens_bus: Widen::new(),
            ones_bus: Widen::new(),
            take_bus: Widen::new(),
            display: MuxDisplay::new(timing.digit_ticks),
            blank: Constant::new(BLANK.into()),
            letter_l: Constant::new(LETTER_L.into()),
            page_take_set: Constant::new(0u64.into()),
            page_count: Constant::new(1u64.into()),
            page_rules: Constant::new(2u64.into()),
            page_play: Constant::new(3u64.into()),
            page_step: Constant::new(1u64.into()),
            repeat_zero: Constant::new(0u64.into()),
            repeat_step: Constant::new(1u64.into()),
            count_step: Constant::new(1u64.into()),
            no_take: Constant::new(0u64.into()),
            move_1: take_m(1),
            move_2: take_m(2),
            move_3: take_m(3),
            move_4: take_m(4),
            take_1: Constant::new(1u64.into()),
            take_2: Constant::new(2u64.into()),
            take_3: Constant::new(3u64.into()),
            take_4: Constant::new(4u64.into()),
            take_5: Constant::new(5u64.into()),
            take_6: Constant::new(6u64.into()),
            take_7: Constant::new(7u64.into()),
            take_8: Constant::new(8u64.into()),
            flip1: flip(1),
            flip2: flip(2),
            flip3: flip(3),
            flip4: flip(4),
            lights_none: Constant::new(0u64.into()),
            light1: Constant::new(1u64.into()),
            light2: Constant::new(2u64.into()),
            light3: Constant::new(4u64.into()),
            light4: Constant::new(8u64.into()),
            light5: Constant::new(16u64.into()),
            light6: Constant::new(32u64.into()),
            light7: Constant::new(64u64.into()),
            light8: Constant::new(128u64.into()),

            default_take_set: Constant::new(take_set.into()),
            default_count: Constant::new(default.count().into()),
            default_last_wins: Constant::new(default.last() == crate::game::Last::Wins),
            repeat_delay: Constant::new(delay.into()),
            repeat_reload: Constant::new((delay - period).into()),
            paged: Constant::new(setup == SolverSetup::Pages),
            switched: Constant::new(setup == SolverSetup::Switches),
            chord: Constant::new(setup == SolverSetup::Fixed { chord: true }),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> Logic
    for SolverBoardCore<W, K, M, S>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, time_base, buttons, switches, reset_sync, long, por, game, blinker,
            display
        );
        dff_setup!(
            self,
            clock,
            page,
            cfg_take_set,
            cfg_count,
            cfg_last_wins,
            cfg_machine_first,
            repeat_count,
            por_q,
            take_q,
            take_valid_q,
            new_game_q
        );
        self.buttons.tick.next = self.time_base.tick.val();
        self.long.tick.next = self.time_base.tick.val();
        self.game.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val().get_bits::<7>(0);
        self.switches.raw.next = self.keys.val().get_bits::<22>(8);
        self.reset_sync.raw.next = self.keys.val().get_bit(7).into();
        self.por.request.next = self.reset_sync.synced.val().any();
        self.por_q.d.next = self.por.reset.val();

        // The long-press key: key 4 (pages), the start button, or the chord.
        self.long_level.next = self.buttons.level.val().get_bit(4);
        if self.paged.val() {
            self.long_level.next = self.buttons.level.val().get_bit(3);
        }
        if self.chord.val() {
            self.long_level.next = self.buttons.level.val().get_bit(0)
                & self.buttons.level.val().get_bit(1)
                & self.buttons.level.val().get_bit(2);
        }
        self.long.level.next = self.long_level.val();
        self.holding.next = self.long.held_long.val() & self.long_level.val();
        self.long_release.next = self.long.released.val() & self.long.held_long.val();
        self.short_release.next = self.long.released.val() & !self.long.held_long.val();

        // Count keys repeat while held (pages).
        self.step.next = false;
        if self.buttons.level.val().get_bit(0) | self.buttons.level.val().get_bit(1) {
            if self.time_base.tick.val() {
                self.repeat_count.d.next = self.repeat_count.q.val() + self.repeat_step.val();
                if self.repeat_count.q.val() == self.repeat_delay.val() {
                    self.repeat_count.d.next = self.repeat_reload.val();
                    self.step.next = true;
                }
            }
        } else {
            self.repeat_count.d.next = self.repeat_zero.val();
        }

        // Moves: take keys 1-3 on press (the lowest wins), key 4 on a short
        // release (pages), or the take switches with the move button.
        self.playing.next = self.page.q.val() == self.page_play.val();
        self.take.next = self.no_take.val();
        if self.buttons.pressed.val().get_bit(2) {
            self.take.next = self.move_3.val();
        }
        if self.buttons.pressed.val().get_bit(1) {
            self.take.next = self.move_2.val();
        }
        if self.buttons.pressed.val().get_bit(0) {
            self.take.next = self.move_1.val();
        }
        self.take_valid.next = self.buttons.pressed.val().get_bit(0)
            | self.buttons.pressed.val().get_bit(1)
            | self.buttons.pressed.val().get_bit(2);
        if self.paged.val() & self.short_release.val() {
            self.take.next = self.move_4.val();
            self.take_valid.next = true;
        }
        if self.switched.val() {
            self.take.next = self.switches.synced.val().get_bits::<M>(18);
            self.take_valid.next = self.buttons.pressed.val().get_bit(6);
        }
        if !self.playing.val() | self.game.game_over.val() {
            self.take_valid.next = false;
        }

        // New games, and the set-up pages.
        self.new_game.next = self.por_q.q.val() & !self.por.reset.val() & !self.paged.val();
        if self.paged.val() {
            if self.page.q.val() == self.page_take_set.val() {
                if self.buttons.pressed.val().get_bit(0) {
                    self.cfg_take_set.d.next = self.cfg_take_set.q.val() ^ self.flip1.val();
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.cfg_take_set.d.next = self.cfg_take_set.q.val() ^ self.flip2.val();
                }
                if self.buttons.pressed.val().get_bit(2) {
                    self.cfg_take_set.d.next = self.cfg_take_set.q.val() ^ self.flip3.val();
                }
                if self.short_release.val() {
                    self.cfg_take_set.d.next = self.cfg_take_set.q.val() ^ self.flip4.val();
                }
            }
            if self.page.q.val() == self.page_count.val() {
                if self.buttons.pressed.val().get_bit(0)
                    | (self.step.val() & self.buttons.level.val().get_bit(0))
                {
                    self.cfg_count.d.next = self.cfg_count.q.val() - self.count_step.val();
                }
                if self.buttons.pressed.val().get_bit(1)
                    | (self.step.val() & self.buttons.level.val().get_bit(1))
                {
                    self.cfg_count.d.next = self.cfg_count.q.val() + self.count_step.val();
                }
            }
            if self.page.q.val() == self.page_rules.val() {
                if self.buttons.pressed.val().get_bit(0) {
                    self.cfg_last_wins.d.next = !self.cfg_last_wins.q.val();
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.cfg_machine_first.d.next = !self.cfg_machine_first.q.val();
                }
            }
            if self.long_release.val() {
                self.page.d.next = self.page.q.val() + self.page_step.val();
                if self.page.q.val() == self.page_rules.val() {
                    self.new_game.next = true;
                }
            }
            if self.playing.val() & self.game.game_over.val() & self.short_release.val() {
                self.new_game.next = true;
            }
        } else {
            self.page.d.next = self.page_play.val();
            if self.switched.val() {
                self.cfg_take_set.d.next = self.switches.synced.val().get_bits::<K>(0);
                self.cfg_count.d.next = self.switches.synced.val().get_bits::<W>(8);
                self.cfg_last_wins.d.next = self.switches.synced.val().get_bit(16);
                self.cfg_machine_first.d.next = self.switches.synced.val().get_bit(17);
                if self.buttons.pressed.val().get_bit(5) {
                    self.new_game.next = true;
                }
            } else {
                self.cfg_take_set.d.next = self.default_take_set.val();
                self.cfg_count.d.next = self.default_count.val();
                self.cfg_last_wins.d.next = self.default_last_wins.val();
                self.cfg_machine_first.d.next = self.long.held_long.val();
                if self.long.released.val() {
                    self.new_game.next = true;
                }
            }
        }
        if self.por.reset.val() {
            self.page.d.next = self.page_take_set.val();
            self.cfg_take_set.d.next = self.default_take_set.val();
            self.cfg_count.d.next = self.default_count.val();
            self.cfg_last_wins.d.next = self.default_last_wins.val();
            self.cfg_machine_first.d.next = false;
        }

        // The controller's move inputs pass through one register (as in
        // the sticks console), so the board logic and the controller's
        // move check never share a timing path; the set-up registers are
        // already registers.
        self.take_q.d.next = self.take.val();
        self.take_valid_q.d.next = self.take_valid.val();
        self.new_game_q.d.next = self.new_game.val();
        self.game.reset.next = self.por.reset.val();
        self.game.take_set.next = self.cfg_take_set.q.val();
        self.game.count.next = self.cfg_count.q.val();
        self.game.last_wins.next = self.cfg_last_wins.q.val();
        self.game.machine_first.next = self.cfg_machine_first.q.val();
        self.game.new_game.next = self.new_game_q.q.val();
        self.game.take.next = self.take_q.q.val();
        self.game.take_valid.next = self.take_valid_q.q.val();

        // What the board shows.
        self.remaining8.narrow.next = self.game.remaining.val();
        self.remaining.next = self.remaining8.wide.val();
        self.take_wide.narrow.next = self.game.machine_take.val();
        self.take4.next = self.take_wide.wide.val();
        self.machine_take.next = self.take4.val();
        self.game_set8.narrow.next = self.game.game_take_set.val();
        self.game_take_set.next = self.game_set8.wide.val();
        self.game_last_wins.next = self.game.game_last_wins.val();
        self.turn.next = self.playing.val() & self.game.human_turn.val() & !self.game.solving.val();
        self.thinking.next = self.playing.val()
            & ((!self.game.human_turn.val() & !self.game.game_over.val())
                | self.game.solving.val());
        self.game_over.next = self.playing.val() & self.game.game_over.val();
        self.blink.next = self.blinker.phase.val().get_bit(0);
        if self.game.human_won.val() {
            self.blink.next = self.blinker.phase.val().get_bit(2);
        }
        self.set_lights.narrow.next = self.cfg_take_set.q.val();
        self.last_wins_light.narrow.next = self.cfg_last_wins.q.val().into();
        self.machine_first_light.narrow.next = self.cfg_machine_first.q.val().into();
        self.lights.next = self.set_lights.wide.val();
        if self.page.q.val() == self.page_rules.val() {
            self.lights.next =
                self.last_wins_light.wide.val() | (self.machine_first_light.wide.val() << 1);
        }
        if self.playing.val() {
            self.lights.next = self.lights_none.val();
            if self.take4.val() == self.take_1.val() {
                self.lights.next = self.light1.val();
            }
            if self.take4.val() == self.take_2.val() {
                self.lights.next = self.light2.val();
            }
            if self.take4.val() == self.take_3.val() {
                self.lights.next = self.light3.val();
            }
            if self.take4.val() == self.take_4.val() {
                self.lights.next = self.light4.val();
            }
            if self.take4.val() == self.take_5.val() {
                self.lights.next = self.light5.val();
            }
            if self.take4.val() == self.take_6.val() {
                self.lights.next = self.light6.val();
            }
            if self.take4.val() == self.take_7.val() {
                self.lights.next = self.light7.val();
            }
            if self.take4.val() == self.take_8.val() {
                self.lights.next = self.light8.val();
            }
        }
        self.shown.next = self.cfg_count.q.val();
        if self.playing.val() {
            self.shown.next = self.game.remaining.val();
        }
        self.decimal.value.next = self.shown.val();
        self.hundreds.digit.next = self.decimal.hundreds.val();
        self.tens.digit.next = self.decimal.tens.val();
        self.ones.digit.next = self.decimal.ones.val();
        self.tens_segments.next = self.tens.segments.val();
        self.ones_segments.next = self.ones.segments.val();
        self.last_wins_digit.narrow.next = self.cfg_last_wins.q.val().into();
        if self.page.q.val() == self.page_rules.val() {
            self.tens_segments.next = self.letter_l.val();
            self.ones.digit.next = self.last_wins_digit.wide.val();
        }
        self.take_shown.next = self.take4.val();
        if self.game.machine_take.val() == self.no_take.val() {
            self.take_shown.next = self.blank.val();
        }
        self.take_digit.digit.next = self.take_shown.val();
        self.hundreds_bus.narrow.next = self.hundreds.segments.val();
        self.tens_bus.narrow.next = self.tens.segments.val();
        self.ones_bus.narrow.next = self.ones.segments.val();
        self.take_bus.narrow.next = self.take_digit.segments.val();
        self.display.digits.next = (self.hundreds_bus.wide.val() << 24)
            | (self.tens_bus.wide.val() << 16)
            | (self.ones_bus.wide.val() << 8)
            | self.take_bus.wide.val();
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> BoardCore
    for SolverBoardCore<W, K, M, S>
{
    const KEYS: usize = solver_keys::WIDTH;
    /// The blinker's phase bits the display does not use, the keys a board has no use for, the
    /// controller's game counter and illegal flag, the solver outputs the controller does not
    /// read (`busy`, `query_depth`), and the switch bits above the board's take set and count
    /// (the take-set, count and take fields are read only `K`, `W` and `M` bits wide).
    const UNREAD: &'static [&'static str] = &[
        "blinker$phase",
        "buttons$level",
        "buttons$pressed",
        "game$game_count",
        "game$illegal",
        "solver$busy",
        "solver$query_depth",
        "switches$synced",
    ];

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn set_keys(&mut self, keys: u64) {
        self.keys.next = keys.into();
    }

    fn output(&self, port: &str) -> u64 {
        match port {
            "remaining" => self.remaining.val().to_u64(),
            "lights" => self.lights.val().to_u64(),
            "machine_take" => self.machine_take.val().to_u64(),
            "turn" => u64::from(self.turn.val()),
            "thinking" => u64::from(self.thinking.val()),
            "game_over" => u64::from(self.game_over.val()),
            "blink" => u64::from(self.blink.val()),
            "holding" => u64::from(self.holding.val()),
            "game_take_set" => self.game_take_set.val().to_u64(),
            "game_last_wins" => u64::from(self.game_last_wins.val()),
            "tens_segments" => self.tens_segments.val().to_u64(),
            "ones_segments" => self.ones_segments.val().to_u64(),
            "segments" => self.segments.val().to_u64(),
            "select" => self.select.val().to_u64(),
            _ => panic!("SolverBoardCore has no output `{port}`"),
        }
    }
}
