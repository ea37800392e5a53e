//! The `heaps` design on a board: the KEGE heap game of exam tasks 19-21, solved on the chip at
//! each new game ([`HeapsGame`]) and played on the board's buttons and display, with an answers
//! page that shows the exam's answers computed by the circuit from the solved table
//! ([`HeapsAnswers`]).
//!
//! Here is all of it: its roles ([`HeapsIn`], [`HeapsOut`]), its [`Layout`] on the boards that
//! can play it ([`layout`]: the Alchitry Cu and Cu V2 with the Io, at 25 MHz from the PLL, and
//! the Go Board), its
//! core for boards with switches ([`HeapsBoardCore`]) and the top builders ([`heaps_top`],
//! [`heaps_verilog`]). The sizes there are the solver's board size: targets up to 63, moves
//! `x+1`, `x+2`, `x*2`, `x*3`, `x*4`. The Go Board's core, set on pages with four keys, is in
//! [`super::heaps_pages`].
//!
//! The iCEBreaker (three buttons, five LEDs) and the iCEstick (no button of its own) have no
//! way to show two heaps up to 63 and set a target, the moves and a rule: they have no layout,
//! and `retrogate build` says so.

use std::fmt;

use rust_hdl::prelude::*;

use super::layout::{segment_letter, BoardDesign, Layout, Wire};
use super::pins::{BoardCore, BoardTop, InRole, OutRole, PinPlan};
use super::{Timing, TopError};
use crate::board::BoardId;
use crate::circuit::board_io::{
    Blinker, Buttons, DecimalDigits, MuxDisplay, PowerOnReset, SevenSegment, Synchronizer,
    TimeBase, Widen,
};
use crate::circuit::heaps_answers::HeapsAnswers;
use crate::circuit::heaps_game::HeapsGame;

use super::heaps_pages::{heaps_pages_top, GO_BOARD};

/// A heap-game control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeapsIn {
    /// Set-up: S up by one; play: the next move; answers: the previous task.
    Up,
    /// Set-up: solve the game and start it; play: make the chosen move (at the end: back to
    /// the set-up); answers: solve again and show the first answer.
    Centre,
    /// Set-up: S down by one; play: the previous move; answers: the next task.
    Down,
    /// Play: your move is on the first heap.
    Left,
    /// Play: your move is on the second heap; answers: the next S that answers the task.
    Right,
    /// Reset button: back to the set-up.
    Reset,
    /// Switch: bit `n` of the first heap `k` of the start.
    FirstSwitch(u8),
    /// Switch: bit `n` of the target (the game ends when the heaps sum to at least it).
    TargetSwitch(u8),
    /// Switch: the move `x+(i+1)` is allowed.
    AddSwitch(u8),
    /// Switch: the move `x*(i+2)` is allowed.
    MulSwitch(u8),
    /// Switch: on, whoever reaches the target wins; off, loses.
    LastWinsSwitch,
    /// Switch: on, the machine moves first.
    MachineFirstSwitch,
    /// Switch: on, the answers page.
    AnswersSwitch,
    /// Key `n` (1-4) of a board with four keys and set-up pages ([`super::heaps_pages`]).
    Key(u8),
    /// Present on the port but not used.
    Unused,
}

/// A heap-game display element. Every LED role blinks at game over (slowly if you won, fast if
/// the machine won); segments and digit selects do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeapsOut {
    /// Bit `n` of the first heap, in binary.
    HeapA(u8),
    /// Bit `n` of the second heap, in binary.
    HeapB(u8),
    /// Move `i` of `x+1, x+2, x*2, x*3, x*4`: your chosen move on your turn, else the
    /// machine's last move.
    Move(u8),
    /// The chosen (or the machine's last) move is on the second heap.
    SecondHeap,
    /// Your turn.
    Turn,
    /// Your last move was refused (or the start is outside the game).
    Illegal,
    /// Segment `n` of the 4-digit multiplexed display.
    DisplaySegment(u8),
    /// Digit select `n` of the multiplexed display.
    DigitSelect(u8),
    /// An LED with nothing to show but the game-over blink.
    Dark,
    /// LED `n` (1-4) of a board with set-up pages ([`super::heaps_pages`]).
    Light(u8),
    /// Segment `n` of the left (tens) digit of a two-digit board.
    TensSegment(u8),
    /// Segment `n` of the right (ones) digit.
    OnesSegment(u8),
}

impl fmt::Display for HeapsIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapsIn::Up => f.write_str("up: S + 1 / next move / previous task"),
            HeapsIn::Centre => f.write_str("centre: solve and start / make the move / answers"),
            HeapsIn::Down => f.write_str("down: S - 1 / previous move / next task"),
            HeapsIn::Left => f.write_str("left: move on the first heap"),
            HeapsIn::Right => f.write_str("right: move on the second heap / next S"),
            HeapsIn::Reset => f.write_str("reset"),
            HeapsIn::FirstSwitch(n) => write!(f, "switch: first heap k, bit {n}"),
            HeapsIn::TargetSwitch(n) => write!(f, "switch: target, bit {n}"),
            HeapsIn::AddSwitch(i) => write!(f, "switch: move x+{} allowed", i + 1),
            HeapsIn::MulSwitch(i) => write!(f, "switch: move x*{} allowed", i + 2),
            HeapsIn::LastWinsSwitch => f.write_str("switch: the last move wins (off: loses)"),
            HeapsIn::MachineFirstSwitch => f.write_str("switch: machine first"),
            HeapsIn::AnswersSwitch => f.write_str("switch: answers page (tasks 19-21)"),
            HeapsIn::Key(1) => f.write_str(
                "key 1: toggle x+1 / value - 1 / flip the rule; in play x+1; answers: next task",
            ),
            HeapsIn::Key(2) => f.write_str(
                "key 2: toggle x*2 / value + 1 / flip who starts; in play x*2; answers: next S",
            ),
            HeapsIn::Key(3) => {
                f.write_str("key 3: toggle x*3; other set-up pages: the answers; in play x*3")
            }
            HeapsIn::Key(n) => write!(
                f,
                "key {n}: toggle x*4; held 1 s: next page (then solve and play); in play x*4, \
                 held 1 s: the other heap; at game over or in the answers: back to the set-up"
            ),
            HeapsIn::Unused => f.write_str("unused"),
        }
    }
}

/// The moves' names, in index order.
const MOVE_NAMES: [&str; 5] = ["x+1", "x+2", "x*2", "x*3", "x*4"];

impl fmt::Display for HeapsOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seg = |n: &u8| segment_letter(*n);
        match self {
            HeapsOut::HeapA(n) => write!(f, "first heap bit {n}"),
            HeapsOut::HeapB(n) => write!(f, "second heap bit {n}"),
            HeapsOut::Move(i) => write!(
                f,
                "move {}: yours chosen / the machine's last",
                MOVE_NAMES[usize::from(*i)]
            ),
            HeapsOut::SecondHeap => f.write_str("the move is on the second heap"),
            HeapsOut::Turn => f.write_str("your turn"),
            HeapsOut::Illegal => f.write_str("move refused"),
            HeapsOut::DisplaySegment(n) => write!(f, "display segment {}", seg(n)),
            HeapsOut::DigitSelect(n) => write!(f, "digit select {n}"),
            HeapsOut::Dark => f.write_str("game-over blink only"),
            HeapsOut::Light(1) => f.write_str(
                "set-up: x+1 allowed (k page; rule page: the last move wins); in play: the \
                 first heap shown; answers: task 19",
            ),
            HeapsOut::Light(2) => f.write_str(
                "set-up: x*2 allowed (S page; rule page: machine first); in play: the second \
                 heap shown; answers: task 20",
            ),
            HeapsOut::Light(3) => {
                f.write_str("set-up: x*3 allowed; in play: your move refused; answers: task 21")
            }
            HeapsOut::Light(_) => f.write_str("set-up: x*4 allowed; in play: your turn"),
            HeapsOut::TensSegment(n) => write!(f, "tens segment {}", seg(n)),
            HeapsOut::OnesSegment(n) => write!(f, "ones segment {}", seg(n)),
        }
    }
}

/// `keys` bits of [`HeapsBoardCore`].
pub mod heaps_keys {
    /// The buttons up, centre, down, left, right: bits 0-4.
    pub const UP: usize = 0;
    /// Centre.
    pub const CENTRE: usize = 1;
    /// Down.
    pub const DOWN: usize = 2;
    /// Left.
    pub const LEFT: usize = 3;
    /// Right.
    pub const RIGHT: usize = 4;
    /// The reset button (synchronised, not debounced).
    pub const RESET: usize = 5;
    /// Switches: the first heap k, bits 6-11.
    pub const FIRST: usize = 6;
    /// Switches: the target, bits 12-17.
    pub const TARGET: usize = 12;
    /// Switches: `x+1`, `x+2` allowed, bits 18-19.
    pub const ADDS: usize = 18;
    /// Switches: `x*2`, `x*3`, `x*4` allowed, bits 20-22.
    pub const MULS: usize = 20;
    /// Switch: the last move wins.
    pub const LAST_WINS: usize = 23;
    /// Switch: the machine moves first.
    pub const MACHINE_FIRST: usize = 24;
    /// Switch: the answers page.
    pub const ANSWERS: usize = 25;
    /// Width of `keys`.
    pub const WIDTH: usize = 26;
}

impl InRole for HeapsIn {
    fn key(self) -> Option<usize> {
        use heaps_keys as k;
        let n = |n: u8| usize::from(n);
        match self {
            HeapsIn::Up => Some(k::UP),
            HeapsIn::Centre => Some(k::CENTRE),
            HeapsIn::Down => Some(k::DOWN),
            HeapsIn::Left => Some(k::LEFT),
            HeapsIn::Right => Some(k::RIGHT),
            HeapsIn::Reset => Some(k::RESET),
            HeapsIn::FirstSwitch(b) => Some(k::FIRST + n(b)),
            HeapsIn::TargetSwitch(b) => Some(k::TARGET + n(b)),
            HeapsIn::AddSwitch(i) => Some(k::ADDS + n(i)),
            HeapsIn::MulSwitch(i) => Some(k::MULS + n(i)),
            HeapsIn::LastWinsSwitch => Some(k::LAST_WINS),
            HeapsIn::MachineFirstSwitch => Some(k::MACHINE_FIRST),
            HeapsIn::AnswersSwitch => Some(k::ANSWERS),
            HeapsIn::Key(n) => Some(usize::from(n) - 1),
            HeapsIn::Unused => None,
        }
    }
}

impl OutRole for HeapsOut {
    fn source(self) -> Option<(&'static str, usize)> {
        let n = |n: u8| usize::from(n);
        match self {
            HeapsOut::HeapA(b) => Some(("heap_a", n(b))),
            HeapsOut::HeapB(b) => Some(("heap_b", n(b))),
            HeapsOut::Move(i) => Some(("moves", n(i))),
            HeapsOut::SecondHeap => Some(("second", 0)),
            HeapsOut::Turn => Some(("turn", 0)),
            HeapsOut::Illegal => Some(("illegal", 0)),
            HeapsOut::DisplaySegment(b) => Some(("segments", n(b))),
            HeapsOut::DigitSelect(b) => Some(("select", n(b))),
            HeapsOut::Dark => None,
            HeapsOut::Light(b) => Some(("lights", n(b) - 1)),
            HeapsOut::TensSegment(b) => Some(("tens_segments", n(b))),
            HeapsOut::OnesSegment(b) => Some(("ones_segments", n(b))),
        }
    }

    fn blinks(self) -> bool {
        !matches!(
            self,
            HeapsOut::DisplaySegment(_)
                | HeapsOut::DigitSelect(_)
                | HeapsOut::TensSegment(_)
                | HeapsOut::OnesSegment(_)
        )
    }
}

/// The Alchitry Io (both versions): `io_dip[5:0]` the first heap k, `[11:6]` the target, `[12]`
/// `x+1`, `[13]` `x+2`, `[14]` `x*2`, `[15]` `x*3`, `[16]` `x*4`, `[17]` the last move wins, `[18]`
/// machine first, `[19]` the answers page; `io_led[7:0]` the first heap, `[15:8]` the second
/// (binary), `[20:16]` the move (one LED per move, under its switch's position), `[21]` the move is
/// on the second heap, `[22]` your turn, `[23]` refused; the display shows k and S while setting
/// up, the two heaps in play, the task and its answer on the answers page.
///
/// It runs at 25 MHz from the Cu's PLL: the solver's successor path (an adder, a multiplier by
/// a constant and a comparison into block-RAM addresses) does not close at the 100 MHz board
/// clock, nor at 50 MHz with the 1.2x margin.
const ALCHITRY_IO: Layout<HeapsIn, HeapsOut> = Layout {
    wires: &[
        Wire::Input("rst_n", HeapsIn::Reset),
        Wire::InputBus(
            "io_button",
            &[
                HeapsIn::Up,
                HeapsIn::Centre,
                HeapsIn::Down,
                HeapsIn::Left,
                HeapsIn::Right,
            ],
        ),
        Wire::InputBus(
            "io_dip",
            &[
                HeapsIn::FirstSwitch(0),
                HeapsIn::FirstSwitch(1),
                HeapsIn::FirstSwitch(2),
                HeapsIn::FirstSwitch(3),
                HeapsIn::FirstSwitch(4),
                HeapsIn::FirstSwitch(5),
                HeapsIn::TargetSwitch(0),
                HeapsIn::TargetSwitch(1),
                HeapsIn::TargetSwitch(2),
                HeapsIn::TargetSwitch(3),
                HeapsIn::TargetSwitch(4),
                HeapsIn::TargetSwitch(5),
                HeapsIn::AddSwitch(0),
                HeapsIn::AddSwitch(1),
                HeapsIn::MulSwitch(0),
                HeapsIn::MulSwitch(1),
                HeapsIn::MulSwitch(2),
                HeapsIn::LastWinsSwitch,
                HeapsIn::MachineFirstSwitch,
                HeapsIn::AnswersSwitch,
                HeapsIn::Unused,
                HeapsIn::Unused,
                HeapsIn::Unused,
                HeapsIn::Unused,
            ],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                HeapsOut::HeapA(0),
                HeapsOut::HeapA(1),
                HeapsOut::HeapA(2),
                HeapsOut::HeapA(3),
                HeapsOut::HeapA(4),
                HeapsOut::HeapA(5),
                HeapsOut::HeapA(6),
                HeapsOut::HeapA(7),
                HeapsOut::HeapB(0),
                HeapsOut::HeapB(1),
                HeapsOut::HeapB(2),
                HeapsOut::HeapB(3),
                HeapsOut::HeapB(4),
                HeapsOut::HeapB(5),
                HeapsOut::HeapB(6),
                HeapsOut::HeapB(7),
                HeapsOut::Move(0),
                HeapsOut::Move(1),
                HeapsOut::Move(2),
                HeapsOut::Move(3),
                HeapsOut::Move(4),
                HeapsOut::SecondHeap,
                HeapsOut::Turn,
                HeapsOut::Illegal,
            ],
        ),
        Wire::Display(
            "io_display",
            HeapsOut::DisplaySegment,
            HeapsOut::DigitSelect,
        ),
    ],
    held_lights: &[],
    pll_hz: Some(25_000_000),
};

/// The design's layout on `board`, where it has one.
pub fn layout(board: BoardId) -> Option<&'static Layout<HeapsIn, HeapsOut>> {
    match board {
        BoardId::GoBoard => Some(&GO_BOARD),
        BoardId::AlchitryCu | BoardId::AlchitryCuV2 => Some(&ALCHITRY_IO),
        BoardId::Icebreaker | BoardId::Icestick => None,
    }
}

/// Why `board` has no heap game (the message `build` and the other verbs give), or `None`
/// where it has one.
pub fn no_layout_reason(board: BoardId) -> Option<&'static str> {
    match board {
        BoardId::Icebreaker => Some(
            "the iCEBreaker's three buttons and five LEDs cannot show two heaps up to 63 or set \
             a target, the moves and a rule",
        ),
        BoardId::Icestick => Some(
            "the iCEstick has no buttons of its own and five LEDs: no way to set or play a heap \
             game",
        ),
        BoardId::GoBoard | BoardId::AlchitryCu | BoardId::AlchitryCuV2 => None,
    }
}

/// The design in [`super::BOARD_DESIGNS`].
pub const BOARD_DESIGN: BoardDesign = BoardDesign {
    name: "heaps",
    pin_uses: |board| layout(board.id).map(|l| l.pin_uses(board)),
    pll_hz: |board| layout(board).and_then(|l| l.pll_hz),
    check: |board| layout(board.id).map_or(Ok(()), |l| l.check(board)),
    // Bound by its size, not its 25 MHz clock (which it meets with 1.8x or more either way):
    // the area mapping packs the Go Board's in fewer logic cells than the default or `-abc9`.
    mapping: crate::flow::yosys::Mapping::Area,
};

/// The heap-game top for `board`, a board with switches (the Alchitry Cu and Cu V2; the Go
/// Board's is [`heaps_pages_top`]).
///
/// # Panics
/// Where the design has no switch layout; [`heaps_verilog`] checks first.
pub fn heaps_top(board: BoardId, timing: &Timing) -> BoardTop<HeapsBoardCore> {
    let layout = match board {
        BoardId::AlchitryCu | BoardId::AlchitryCuV2 => &ALCHITRY_IO,
        _ => panic!("{board}: no heaps layout with switches"),
    };
    let core = HeapsBoardCore::new(timing);
    let plan = PinPlan::new(
        board.board(),
        layout,
        heaps_keys::WIDTH,
        Some(heaps_keys::RESET),
    );
    BoardTop::new(core, plan, timing.pull_down)
}

/// The Verilog of the heap-game top for `board` (module `module`).
pub fn heaps_verilog(board: BoardId, timing: &Timing, module: &str) -> Result<String, TopError> {
    if let Some(why) = no_layout_reason(board) {
        return Err(TopError::UnsupportedGame {
            reason: format!(
                "{board} has no heaps design: {why}; build it for go-board, alchitry-cu or \
                 alchitry-cu-v2"
            ),
        });
    }
    if board == BoardId::GoBoard {
        return Ok(heaps_pages_top(board, timing).verilog(module)?);
    }
    Ok(heaps_top(board, timing).verilog(module)?)
}

/// What the board is doing ([`HeapsBoardCore`]'s mode register).
pub mod heaps_modes {
    /// Setting up a game: the display shows k and S.
    pub const SETUP: u64 = 0;
    /// Playing (and, at the end, showing who won).
    pub const PLAY: u64 = 1;
    /// The answers page.
    pub const ANSWERS: u64 = 2;
}

/// Segments of a dash (G).
const DASH: u64 = 0b100_0000;

/// The heap game on a board with switches: set it, the FPGA solves it ([`HeapsGame`]), play it;
/// or read the exam's answers ([`HeapsAnswers`]).
///
/// ```text
///             +-------------------------------------------------------+
///  keys[26]-->| Buttons<5>, Synchronizer (switches, reset),           |--> heap_a[8], heap_b[8]
///  clock   -->| PowerOnReset, mode, S, chosen move, task registers    |--> moves[5], second
///             | HeapsGame<6, 7, 2, 3, 3, 8>, HeapsAnswers (probe port) |--> turn, illegal
///             | Blinker, DecimalDigits<8> x2, SevenSegment x4          |--> game_over, blink, holding
///             | MuxDisplay                                            |--> segments[8], select[4]
///             +-------------------------------------------------------+
/// ```
///
/// `keys` ([`heaps_keys`], active high). Modes ([`heaps_modes`]):
/// * **Set-up** (after power-on, reset, or centre at the end of a game): the display shows k
///   (the first-heap switches) on its left two digits and S on its right two; up and down step
///   S (1 to 63, wrapping); centre samples the switches and starts the game (k, S): the chip
///   solves it, then plays.
/// * **Play**: the display shows the heaps (a heap of 100 or more, only after the last move,
///   lights the decimal point of its left digit; the LEDs give it in binary); left and right
///   choose the heap, up and down step through the five moves, centre makes the move. A move
///   not allowed, or one the machine's turn, is refused (the refused LED, until your next
///   legal move). The move LEDs show your choice on your turn and the machine's last move
///   otherwise. At the end every LED blinks: slowly if you won, fast if the machine did; centre
///   returns to the set-up.
/// * **Answers** (the answers switch on): the chip solves the switches' game, then the display
///   shows the task (19, 20, 21) on its left two digits and on its right two the smallest S of
///   `(k, S)`, S from 1 to target - k - 1, that answers it (`--` when none); right shows the
///   next such S (task 20 asks for them all); up and down choose the task, centre solves again
///   (after changing the switches). Each of them solves the game again first, so the answers
///   are always the switches' game's.
#[derive(LogicBlock)]
pub struct HeapsBoardCore {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys, active high ([`heaps_keys`]).
    pub keys: Signal<In, Bits<26>>,
    /// The first heap.
    pub heap_a: Signal<Out, Bits<8>>,
    /// The second heap.
    pub heap_b: Signal<Out, Bits<8>>,
    /// One-hot: the chosen move on your turn, else the machine's last move.
    pub moves: Signal<Out, Bits<5>>,
    /// That move is on the second heap.
    pub second: Signal<Out, Bit>,
    /// Your turn.
    pub turn: Signal<Out, Bit>,
    /// A move was refused.
    pub illegal: Signal<Out, Bit>,
    /// The game is over (only while playing).
    pub game_over: Signal<Out, Bit>,
    /// The game-over blink level (slow if you won, fast if not).
    pub blink: Signal<Out, Bit>,
    /// Held lights (none in this design).
    pub holding: Signal<Out, Bit>,
    /// Multiplexed display: segments.
    pub segments: Signal<Out, Bits<8>>,
    /// Multiplexed display: digit selects (bit 0 = rightmost).
    pub select: Signal<Out, Bits<4>>,
    playing: Signal<Local, Bit>,
    answering: Signal<Local, Bit>,
    new_game: Signal<Local, Bit>,
    move_valid: Signal<Local, Bit>,
    shown_move: Signal<Local, Bits<3>>,
    left_value: Signal<Local, Bits<8>>,
    right_value: Signal<Local, Bits<8>>,
    left_hundreds: Signal<Local, Bit>,
    right_hundreds: Signal<Local, Bit>,
    left_dot: Signal<Local, Bits<32>>,
    blank_answer: Signal<Local, Bit>,
    right_mask: Signal<Local, Bits<7>>,
    right_dash: Signal<Local, Bits<7>>,
    no_answer: Signal<Local, Bit>,
    right_dot: Signal<Local, Bits<32>>,
    time_base: TimeBase,
    buttons: Buttons<5>,
    switches: Synchronizer<20>,
    reset_sync: Synchronizer<1>,
    por: PowerOnReset,
    game: HeapsGame<6, 7, 2, 3, 3, 8>,
    answers: HeapsAnswers<6, 7>,
    mode_r: DFF<Bits<2>>,
    s_r: DFF<Bits<6>>,
    heap_r: DFF<Bit>,
    move_r: DFF<Bits<3>>,
    question_r: DFF<Bits<2>>,
    pending_find: DFF<Bit>,
    answers_q: DFF<Bit>,
    new_game_q: DFF<Bit>,
    move_valid_q: DFF<Bit>,
    left_r: DFF<Bits<8>>,
    right_r: DFF<Bits<8>>,
    blinker: Blinker,
    left: DecimalDigits<8>,
    right: DecimalDigits<8>,
    d3: SevenSegment,
    d2: SevenSegment,
    d1: SevenSegment,
    d0: SevenSegment,
    k8: Widen<6, 8>,
    s8: Widen<6, 8>,
    found8: Widen<6, 8>,
    question8: Widen<2, 8>,
    d3_bus: Widen<7, 32>,
    d2_bus: Widen<7, 32>,
    d1_bus: Widen<7, 32>,
    d0_bus: Widen<7, 32>,
    display: MuxDisplay,
    mode_setup: Constant<Bits<2>>,
    mode_play: Constant<Bits<2>>,
    mode_answers: Constant<Bits<2>>,
    s_one: Constant<Bits<6>>,
    s_max: Constant<Bits<6>>,
    move_one: Constant<Bits<3>>,
    move_last: Constant<Bits<3>>,
    move_zero: Constant<Bits<3>>,
    move_0: Constant<Bits<3>>,
    move_1: Constant<Bits<3>>,
    move_2: Constant<Bits<3>>,
    move_3: Constant<Bits<3>>,
    move_4: Constant<Bits<3>>,
    light_0: Constant<Bits<5>>,
    light_1: Constant<Bits<5>>,
    light_2: Constant<Bits<5>>,
    light_3: Constant<Bits<5>>,
    light_4: Constant<Bits<5>>,
    lights_none: Constant<Bits<5>>,
    question_one: Constant<Bits<2>>,
    question_last: Constant<Bits<2>>,
    question_zero: Constant<Bits<2>>,
    start_zero: Constant<Bits<6>>,
    task_base: Constant<Bits<8>>,
    hundred: Constant<Bits<8>>,
    dash: Constant<Bits<7>>,
    dark: Constant<Bits<7>>,
    all_segments: Constant<Bits<7>>,
    dot: Constant<Bits<32>>,
    no_dot: Constant<Bits<32>>,
}

impl HeapsBoardCore {
    /// The core with `timing`'s time base, debounce, think time, blink and digit times,
    /// `connect_all()` done.
    pub fn new(timing: &Timing) -> Self {
        let c3 = |v: u64| Constant::new(v.into());
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            heap_a: Default::default(),
            heap_b: Default::default(),
            moves: Default::default(),
            second: Default::default(),
            turn: Default::default(),
            illegal: Default::default(),
            game_over: Default::default(),
            blink: Default::default(),
            holding: Default::default(),
            segments: Default::default(),
            select: Default::default(),
            playing: Default::default(),
            answering: Default::default(),
            new_game: Default::default(),
            move_valid: Default::default(),
            shown_move: Default::default(),
            left_value: Default::default(),
            right_value: Default::default(),
            left_hundreds: Default::default(),
            right_hundreds: Default::default(),
            left_dot: Default::default(),
            blank_answer: Default::default(),
            right_mask: Default::default(),
            right_dash: Default::default(),
            no_answer: Default::default(),
            right_dot: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            switches: Synchronizer::new(),
            reset_sync: Synchronizer::new(),
            por: PowerOnReset::new(),
            game: HeapsGame::new(timing.think_ticks),
            answers: HeapsAnswers::new(),
            mode_r: Default::default(),
            s_r: Default::default(),
            heap_r: Default::default(),
            move_r: Default::default(),
            question_r: Default::default(),
            pending_find: Default::default(),
            answers_q: Default::default(),
            new_game_q: Default::default(),
            move_valid_q: Default::default(),
            left_r: Default::default(),
            right_r: Default::default(),
            blinker: Blinker::new(timing.blink_ticks),
            left: DecimalDigits::new(),
            right: DecimalDigits::new(),
            d3: SevenSegment::new(),
            d2: SevenSegment::new(),
            d1: SevenSegment::new(),
            d0: SevenSegment::new(),
            k8: Widen::new(),
            s8: Widen::new(),
            found8: Widen::new(),
            question8: Widen::new(),
            d3_bus: Widen::new(),
            d2_bus: Widen::new(),
            d1_bus: Widen::new(),
            d0_bus: Widen::new(),
            display: MuxDisplay::new(timing.digit_ticks),
            mode_setup: Constant::new(heaps_modes::SETUP.into()),
            mode_play: Constant::new(heaps_modes::PLAY.into()),
            mode_answers: Constant::new(heaps_modes::ANSWERS.into()),
            s_one: Constant::new(1u64.into()),
            s_max: Constant::new(63u64.into()),
            move_one: c3(1),
            move_last: c3(4),
            move_zero: c3(0),
            move_0: c3(0),
            move_1: c3(1),
            move_2: c3(2),
            move_3: c3(3),
            move_4: c3(4),
            light_0: Constant::new(1u64.into()),
            light_1: Constant::new(2u64.into()),
            light_2: Constant::new(4u64.into()),
            light_3: Constant::new(8u64.into()),
            light_4: Constant::new(16u64.into()),
            lights_none: Constant::new(0u64.into()),
            question_one: Constant::new(1u64.into()),
            question_last: Constant::new(2u64.into()),
            question_zero: Constant::new(0u64.into()),
            start_zero: Constant::new(0u64.into()),
            task_base: Constant::new(19u64.into()),
            hundred: Constant::new(100u64.into()),
            dash: Constant::new(DASH.into()),
            dark: Constant::new(0u64.into()),
            all_segments: Constant::new(0x7Fu64.into()),
            dot: Constant::new(0x80u64.into()),
            no_dot: Constant::new(0u64.into()),
        };
        block.connect_all();
        block
    }
}

impl Logic for HeapsBoardCore {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self, clock, time_base, buttons, switches, reset_sync, por, game, answers, blinker,
            display
        );
        dff_setup!(
            self,
            clock,
            mode_r,
            s_r,
            heap_r,
            move_r,
            question_r,
            pending_find,
            answers_q,
            new_game_q,
            move_valid_q,
            left_r,
            right_r
        );
        self.buttons.tick.next = self.time_base.tick.val();
        self.game.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val().get_bits::<5>(0);
        self.reset_sync.raw.next = self.keys.val().get_bit(5).into();
        self.switches.raw.next = self.keys.val().get_bits::<20>(6);
        self.por.request.next = self.reset_sync.synced.val().any();

        self.playing.next = self.mode_r.q.val() == self.mode_play.val();
        self.answering.next = self.mode_r.q.val() == self.mode_answers.val();
        self.answers_q.d.next = self.switches.synced.val().get_bit(19);
        self.new_game.next = false;
        self.move_valid.next = false;

        // The modes: the answers switch first, then each mode's buttons.
        if self.switches.synced.val().get_bit(19) & !self.answers_q.q.val() {
            self.mode_r.d.next = self.mode_answers.val();
            self.new_game.next = true;
            self.pending_find.d.next = true;
        } else if !self.switches.synced.val().get_bit(19) & self.answers_q.q.val() {
            self.mode_r.d.next = self.mode_setup.val();
        } else if self.answering.val() {
            if self.buttons.pressed.val().get_bit(0) {
                self.question_r.d.next = self.question_r.q.val() - self.question_one.val();
                if self.question_r.q.val() == self.question_zero.val() {
                    self.question_r.d.next = self.question_last.val();
                }
            }
            if self.buttons.pressed.val().get_bit(2) {
                self.question_r.d.next = self.question_r.q.val() + self.question_one.val();
                if self.question_r.q.val() == self.question_last.val() {
                    self.question_r.d.next = self.question_zero.val();
                }
            }
            if self.buttons.pressed.val().get_bit(0)
                | self.buttons.pressed.val().get_bit(1)
                | self.buttons.pressed.val().get_bit(2)
            {
                self.new_game.next = true;
                self.pending_find.d.next = true;
            }
        } else if self.playing.val() {
            if self.game.game_over.val() {
                if self.buttons.pressed.val().get_bit(1) {
                    self.mode_r.d.next = self.mode_setup.val();
                }
            } else {
                if self.buttons.pressed.val().get_bit(3) {
                    self.heap_r.d.next = false;
                }
                if self.buttons.pressed.val().get_bit(4) {
                    self.heap_r.d.next = true;
                }
                if self.buttons.pressed.val().get_bit(0) {
                    self.move_r.d.next = self.move_r.q.val() + self.move_one.val();
                    if self.move_r.q.val() == self.move_last.val() {
                        self.move_r.d.next = self.move_zero.val();
                    }
                }
                if self.buttons.pressed.val().get_bit(2) {
                    self.move_r.d.next = self.move_r.q.val() - self.move_one.val();
                    if self.move_r.q.val() == self.move_zero.val() {
                        self.move_r.d.next = self.move_last.val();
                    }
                }
                self.move_valid.next = self.buttons.pressed.val().get_bit(1);
            }
        } else {
            if self.buttons.pressed.val().get_bit(0) {
                self.s_r.d.next = self.s_r.q.val() + self.s_one.val();
                if self.s_r.q.val() == self.s_max.val() {
                    self.s_r.d.next = self.s_one.val();
                }
            }
            if self.buttons.pressed.val().get_bit(2) {
                self.s_r.d.next = self.s_r.q.val() - self.s_one.val();
                if self.s_r.q.val() == self.s_one.val() {
                    self.s_r.d.next = self.s_max.val();
                }
            }
            if self.buttons.pressed.val().get_bit(1) {
                self.mode_r.d.next = self.mode_play.val();
                self.new_game.next = true;
            }
        }
        // The answers' search starts once the new solve is done (the new game is one edge on
        // its way, then the solve runs).
        self.answers.find.next = false;
        if self.pending_find.q.val()
            & !self.new_game_q.q.val()
            & !self.game.solving.val()
            & !self.new_game.val()
        {
            self.answers.find.next = true;
            self.pending_find.d.next = false;
        }
        self.answers.advance.next = self.answering.val() & self.buttons.pressed.val().get_bit(4);
        if self.por.reset.val() {
            self.mode_r.d.next = self.mode_setup.val();
            self.s_r.d.next = self.s_one.val();
            self.heap_r.d.next = false;
            self.move_r.d.next = self.move_zero.val();
            self.question_r.d.next = self.question_zero.val();
            self.pending_find.d.next = false;
            self.new_game.next = false;
            self.move_valid.next = false;
        }

        // The controller: the game from the switches, the start (k, S) in play and (0, 0),
        // no game, otherwise; the move inputs through one register.
        self.new_game_q.d.next = self.new_game.val();
        self.move_valid_q.d.next = self.move_valid.val();
        self.game.reset.next = self.por.reset.val();
        self.game.adds.next = self.switches.synced.val().get_bits::<2>(12);
        self.game.muls.next = self.switches.synced.val().get_bits::<3>(14);
        self.game.target.next = self.switches.synced.val().get_bits::<6>(6);
        self.game.last_wins.next = self.switches.synced.val().get_bit(17);
        self.game.machine_first.next = self.switches.synced.val().get_bit(18);
        self.game.start_a.next = self.start_zero.val();
        self.game.start_b.next = self.start_zero.val();
        if self.playing.val() {
            self.game.start_a.next = self.switches.synced.val().get_bits::<6>(0);
            self.game.start_b.next = self.s_r.q.val();
        }
        self.game.new_game.next = self.new_game_q.q.val();
        self.game.heap.next = self.heap_r.q.val();
        self.game.move_index.next = self.move_r.q.val();
        self.game.move_valid.next = self.move_valid_q.q.val();
        self.game.probe.next = self.answers.probe.val();
        self.game.probe_a.next = self.answers.probe_a.val();
        self.game.probe_b.next = self.answers.probe_b.val();
        self.answers.question.next = self.question_r.q.val();
        self.answers.first.next = self.switches.synced.val().get_bits::<6>(0);
        self.answers.target.next = self.switches.synced.val().get_bits::<6>(6);
        self.answers.probe_winning.next = self.game.probe_winning.val();
        self.answers.probe_depth.next = self.game.probe_depth.val();
        self.answers.probe_blunder.next = self.game.probe_blunder.val();

        // The lights.
        self.heap_a.next = self.game.heap_a.val();
        self.heap_b.next = self.game.heap_b.val();
        self.turn.next = self.playing.val() & self.game.human_turn.val();
        self.illegal.next = self.playing.val() & self.game.illegal.val();
        self.game_over.next = self.playing.val() & self.game.game_over.val();
        self.holding.next = false;
        self.blink.next = self.blinker.phase.val().get_bit(0);
        if self.game.human_won.val() {
            self.blink.next = self.blinker.phase.val().get_bit(2);
        }
        self.shown_move.next = self.game.machine_move.val();
        self.second.next = self.game.machine_heap.val();
        if self.game.human_turn.val() {
            self.shown_move.next = self.move_r.q.val();
            self.second.next = self.heap_r.q.val();
        }
        self.moves.next = self.lights_none.val();
        if self.playing.val() {
            if self.shown_move.val() == self.move_0.val() {
                self.moves.next = self.light_0.val();
            }
            if self.shown_move.val() == self.move_1.val() {
                self.moves.next = self.light_1.val();
            }
            if self.shown_move.val() == self.move_2.val() {
                self.moves.next = self.light_2.val();
            }
            if self.shown_move.val() == self.move_3.val() {
                self.moves.next = self.light_3.val();
            }
            if self.shown_move.val() == self.move_4.val() {
                self.moves.next = self.light_4.val();
            }
        }
        if !self.playing.val() {
            self.second.next = false;
        }

        // The display: k and S, the heaps, or the task and its answer.
        self.k8.narrow.next = self.switches.synced.val().get_bits::<6>(0);
        self.s8.narrow.next = self.s_r.q.val();
        self.found8.narrow.next = self.answers.s.val();
        self.question8.narrow.next = self.question_r.q.val();
        self.left_value.next = self.k8.wide.val();
        self.right_value.next = self.s8.wide.val();
        if self.playing.val() {
            self.left_value.next = self.game.heap_a.val();
            self.right_value.next = self.game.heap_b.val();
        }
        if self.answering.val() {
            self.left_value.next = self.task_base.val() + self.question8.wide.val();
            self.right_value.next = self.found8.wide.val();
        }
        // The shown values pass through a register: the digit decoders then read only
        // registers, and the core's statements form no combinational loop through them.
        self.left_r.d.next = self.left_value.val();
        self.right_r.d.next = self.right_value.val();
        self.left.value.next = self.left_r.q.val();
        self.right.value.next = self.right_r.q.val();
        self.left_hundreds.next = self.left_r.q.val() >= self.hundred.val();
        self.right_hundreds.next = self.right_r.q.val() >= self.hundred.val();
        self.d3.digit.next = self.left.tens.val();
        self.d2.digit.next = self.left.ones.val();
        self.d1.digit.next = self.right.tens.val();
        self.d0.digit.next = self.right.ones.val();
        self.d3_bus.narrow.next = self.d3.segments.val();
        self.d2_bus.narrow.next = self.d2.segments.val();
        self.blank_answer.next = self.answering.val()
            & (self.answers.busy.val() | self.game.solving.val() | self.pending_find.q.val());
        self.no_answer.next = self.answering.val() & !self.answers.found.val();
        // Blank while the answer is being found, dashes when there is none: masks on the
        // segments, so no child output is read under a condition (Verilator then orders the
        // block's statements without a false combinational loop).
        self.right_mask.next = self.all_segments.val();
        self.right_dash.next = self.dark.val();
        if self.blank_answer.val() {
            self.right_mask.next = self.dark.val();
        } else if self.no_answer.val() {
            self.right_mask.next = self.dark.val();
            self.right_dash.next = self.dash.val();
        }
        self.d1_bus.narrow.next =
            (self.d1.segments.val() & self.right_mask.val()) | self.right_dash.val();
        self.d0_bus.narrow.next =
            (self.d0.segments.val() & self.right_mask.val()) | self.right_dash.val();
        self.left_dot.next = self.no_dot.val();
        if self.left_hundreds.val() {
            self.left_dot.next = self.dot.val() << 24;
        }
        self.right_dot.next = self.no_dot.val();
        if self.right_hundreds.val() {
            self.right_dot.next = self.dot.val() << 8;
        }
        self.display.digits.next = (self.d3_bus.wide.val() << 24)
            | (self.d2_bus.wide.val() << 16)
            | (self.d1_bus.wide.val() << 8)
            | self.d0_bus.wide.val()
            | self.left_dot.val()
            | self.right_dot.val();
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl BoardCore for HeapsBoardCore {
    const KEYS: usize = heaps_keys::WIDTH;
    /// The blinker's phase bits the display does not use, the buttons' levels (only presses
    /// count), the solver output the controller does not read (`busy`), and the hundreds
    /// digits (a heap of 100 or more lights a decimal point instead).
    const UNREAD: &'static [&'static str] = &[
        "blinker$phase",
        "buttons$level",
        "solver$busy",
        "left$hundreds",
        "right$hundreds",
    ];

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn set_keys(&mut self, keys: u64) {
        self.keys.next = keys.into();
    }

    fn output(&self, port: &str) -> u64 {
        match port {
            "heap_a" => self.heap_a.val().to_u64(),
            "heap_b" => self.heap_b.val().to_u64(),
            "moves" => self.moves.val().to_u64(),
            "second" => u64::from(self.second.val()),
            "turn" => u64::from(self.turn.val()),
            "illegal" => u64::from(self.illegal.val()),
            "game_over" => u64::from(self.game_over.val()),
            "blink" => u64::from(self.blink.val()),
            "holding" => u64::from(self.holding.val()),
            "segments" => self.segments.val().to_u64(),
            "select" => self.select.val().to_u64(),
            _ => panic!("HeapsBoardCore has no output `{port}`"),
        }
    }
}
