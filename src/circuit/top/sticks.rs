//! The `sticks` design on a board: a subtraction game (Fort Boyard by default) against the
//! machine, the machine's moves from the solver's table in a ROM.
//!
//! Here is all of it: its roles ([`SticksIn`], [`SticksOut`]), its [`Layout`] on every board
//! ([`layout`]), its board-independent core ([`SticksBoardCore`] around the [`SticksConsole`] and
//! the `sticks_game` controller logic) and the top builder ([`sticks_top`], [`sticks_verilog`]).
//!
//! The core is generic over the controller's widths `W` (bits of the stick count, at most 8) and
//! `M` (bits of the largest take, at most 4); [`sticks_verilog`] picks them from the game.

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
use crate::circuit::sticks_game::SticksCore;
use crate::circuit::sticks_strategy::Impl;
use crate::game::SticksGame;
use crate::solver::strategy::{sticks_table, SticksTable};
use crate::verilog::VerilogError;

/// A sticks-game control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
        let seg = |n: &u8| segment_letter(*n);
        match self {
            SticksOut::Count(n) => write!(f, "count bit {n}"),
            SticksOut::Turn => f.write_str("your turn"),
            SticksOut::Thinking => f.write_str("machine thinking"),
            SticksOut::MachineTake(k) => write!(f, "machine took {k}"),
            SticksOut::MachineFirst => f.write_str("machine-first switch echo"),
            SticksOut::TensSegment(n) => write!(f, "tens segment {}", seg(n)),
            SticksOut::OnesSegment(n) => write!(f, "ones segment {}", seg(n)),
            SticksOut::DisplaySegment(n) => write!(f, "display segment {}", seg(n)),
            SticksOut::DigitSelect(n) => write!(f, "digit select {n}"),
            SticksOut::Dark => f.write_str("game-over blink only"),
        }
    }
}

impl InRole for SticksIn {
    fn key(self) -> Option<usize> {
        use sticks_keys as k;
        match self {
            SticksIn::Take(t) => Some(k::TAKE1 + usize::from(t) - 1),
            SticksIn::Start => Some(k::START),
            SticksIn::NewGame => Some(k::NEW_GAME),
            SticksIn::MachineFirst => Some(k::MACHINE_FIRST),
            SticksIn::Reset => Some(k::RESET),
            SticksIn::Unused => None,
        }
    }
}

impl OutRole for SticksOut {
    fn source(self) -> Option<(&'static str, usize)> {
        let n = |n: u8| usize::from(n);
        match self {
            SticksOut::Count(b) => Some(("remaining", n(b))),
            SticksOut::Turn => Some(("turn", 0)),
            SticksOut::Thinking => Some(("thinking", 0)),
            SticksOut::MachineTake(k) => Some(("take_leds", n(k) - 1)),
            SticksOut::MachineFirst => Some(("machine_first", 0)),
            SticksOut::TensSegment(b) => Some(("tens_segments", n(b))),
            SticksOut::OnesSegment(b) => Some(("ones_segments", n(b))),
            SticksOut::DisplaySegment(b) => Some(("segments", n(b))),
            SticksOut::DigitSelect(b) => Some(("select", n(b))),
            SticksOut::Dark => None,
        }
    }

    fn blinks(self) -> bool {
        !matches!(
            self,
            SticksOut::TensSegment(_)
                | SticksOut::OnesSegment(_)
                | SticksOut::DisplaySegment(_)
                | SticksOut::DigitSelect(_)
        )
    }
}

/// The iCEBreaker: the snap-off buttons take 1, 2, 3; BTN_N starts a game; LED1..LED5 show the
/// sticks left in binary; green is your turn, red the machine thinking (and lit while BTN_N has
/// been held 1 s).
const ICEBREAKER: Layout<SticksIn, SticksOut> = Layout {
    wires: &[
        Wire::Input("BTN_N", SticksIn::Start),
        Wire::Input("BTN1", SticksIn::Take(1)),
        Wire::Input("BTN2", SticksIn::Take(2)),
        Wire::Input("BTN3", SticksIn::Take(3)),
        Wire::Output("LED1", SticksOut::Count(0)),
        Wire::Output("LED2", SticksOut::Count(1)),
        Wire::Output("LED3", SticksOut::Count(2)),
        Wire::Output("LED4", SticksOut::Count(3)),
        Wire::Output("LED5", SticksOut::Count(4)),
        Wire::Output("LEDR_N", SticksOut::Thinking),
        Wire::Output("LEDG_N", SticksOut::Turn),
    ],
    held_lights: &["LEDR_N"],
    pll_hz: None,
};

/// The Go Board: switches 1-3 take 1, 2, 3; switch 4 starts a game; the digits show the sticks
/// left; LEDs 1-3 the machine's last take, LED 4 your turn (all four lit while switch 4 has
/// been held 1 s).
const GO_BOARD: Layout<SticksIn, SticksOut> = Layout {
    wires: &[
        Wire::Input("i_Switch_1", SticksIn::Take(1)),
        Wire::Input("i_Switch_2", SticksIn::Take(2)),
        Wire::Input("i_Switch_3", SticksIn::Take(3)),
        Wire::Input("i_Switch_4", SticksIn::Start),
        Wire::Output("o_LED_1", SticksOut::MachineTake(1)),
        Wire::Output("o_LED_2", SticksOut::MachineTake(2)),
        Wire::Output("o_LED_3", SticksOut::MachineTake(3)),
        Wire::Output("o_LED_4", SticksOut::Turn),
        Wire::Digit("Segment1", SticksOut::TensSegment),
        Wire::Digit("Segment2", SticksOut::OnesSegment),
    ],
    held_lights: &["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"],
    pll_hz: None,
};

/// The Alchitry Io (both versions; `io_button[0..4]` = up, centre, down, left, right): left,
/// centre, right take 1, 2, 3; up starts a new game; DIP 0 on: the machine moves first; rst_n
/// resets; the display shows the sticks left, `-` and the machine's last take; `io_led[0]` your
/// turn, `[1]` thinking, `[7]` echoes DIP 0; at game over all eight blink.
const ALCHITRY_IO: Layout<SticksIn, SticksOut> = Layout {
    wires: &[
        Wire::Input("rst_n", SticksIn::Reset),
        Wire::InputBus(
            "io_button",
            &[
                SticksIn::NewGame,
                SticksIn::Take(2),
                SticksIn::Unused,
                SticksIn::Take(1),
                SticksIn::Take(3),
            ],
        ),
        Wire::InputBus(
            "io_dip",
            &[
                SticksIn::MachineFirst,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
            ],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                SticksOut::Turn,
                SticksOut::Thinking,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::MachineFirst,
            ],
        ),
        Wire::Display(
            "io_display",
            SticksOut::DisplaySegment,
            SticksOut::DigitSelect,
        ),
    ],
    held_lights: &[],
    pll_hz: None,
};

/// The iCEstick: BTN1..BTN3 take 1, 2, 3; all three pressed together start a game (held 1 s:
/// machine first, all LEDs lit); D1..D5 show the sticks left in binary.
const ICESTICK: Layout<SticksIn, SticksOut> = Layout {
    wires: &[
        Wire::Input("BTN1", SticksIn::Take(1)),
        Wire::Input("BTN2", SticksIn::Take(2)),
        Wire::Input("BTN3", SticksIn::Take(3)),
        Wire::Output("D1", SticksOut::Count(0)),
        Wire::Output("D2", SticksOut::Count(1)),
        Wire::Output("D3", SticksOut::Count(2)),
        Wire::Output("D4", SticksOut::Count(3)),
        Wire::Output("D5", SticksOut::Count(4)),
    ],
    held_lights: &["D1", "D2", "D3", "D4", "D5"],
    pll_hz: None,
};

/// The design's layout on `board`.
pub fn layout(board: BoardId) -> &'static Layout<SticksIn, SticksOut> {
    match board {
        BoardId::Icebreaker => &ICEBREAKER,
        BoardId::GoBoard => &GO_BOARD,
        BoardId::AlchitryCu | BoardId::AlchitryCuV2 => &ALCHITRY_IO,
        BoardId::Icestick => &ICESTICK,
    }
}

/// The design in [`super::BOARD_DESIGNS`].
pub const BOARD_DESIGN: BoardDesign = BoardDesign {
    name: "sticks",
    pin_uses: |board| Some(layout(board.id).pin_uses(board)),
    pll_hz: |board| layout(board).pll_hz,
    check: |board| layout(board.id).check(board),
    mapping: crate::flow::yosys::Mapping::Abc9,
};

/// A sticks game checked against the hardware controller's limits.
#[derive(Clone, Debug)]
pub struct SticksParams {
    /// Bits of the stick count (1..=8).
    pub w: usize,
    /// Bits of the largest take (1..=4).
    pub m: usize,
    /// Bit `k` set: taking `k` is allowed.
    pub take_mask: u16,
    /// Sticks at the start.
    pub count: u64,
    /// The machine's moves (the solver's strategy table).
    pub table: SticksTable,
    /// The game.
    pub game: SticksGame,
}

impl SticksParams {
    /// Largest stick count the controller takes (W at most 8).
    pub const MAX_COUNT: u64 = 255;
    /// Largest take the controller takes (M at most 4).
    pub const MAX_TAKE: u64 = 15;

    /// Check `game` and derive widths, mask and strategy table.
    pub fn new(game: &SticksGame) -> Result<Self, TopError> {
        let unsupported = |reason: String| Err(TopError::UnsupportedGame { reason });
        if game.count() > Self::MAX_COUNT {
            return unsupported(format!(
                "{} sticks is more than the {} a board controller counts; use --count {} or fewer",
                game.count(),
                Self::MAX_COUNT,
                Self::MAX_COUNT
            ));
        }
        if game.max_take() > Self::MAX_TAKE {
            return unsupported(format!(
                "a take of {} is more than the {} a board controller allows; use takes up to {}",
                game.max_take(),
                Self::MAX_TAKE,
                Self::MAX_TAKE
            ));
        }
        let table = sticks_table(game).map_err(|e| TopError::UnsupportedGame {
            reason: e.to_string(),
        })?;
        Ok(SticksParams {
            w: table.sticks_bits,
            m: table.take_bits,
            take_mask: game.take().iter().fold(0u16, |mask, &t| mask | 1 << t),
            count: game.count(),
            table,
            game: game.clone(),
        })
    }

    /// The controller logic for these parameters, pausing `think_ticks` ticks.
    pub fn controller<const W: usize, const M: usize, const S: usize>(
        &self,
        think_ticks: u64,
    ) -> SticksCore<W, M, S> {
        // Board tops use the ROM lookup: never larger than the logic for Fort Boyard, and much
        // smaller for larger games (docs/sticks-luts.md).
        SticksCore::new(&self.game, &self.table, Impl::Rom, think_ticks)
            .expect("SticksParams checked the game")
    }
}

/// The sticks top for `board`, with the controller's widths fixed.
pub fn sticks_top<const W: usize, const M: usize, const S: usize>(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
) -> BoardTop<SticksBoardCore<W, M, S>> {
    let layout = layout(board);
    let has = |role: SticksIn| {
        layout.wires.iter().any(|w| match w {
            Wire::Input(_, r) => *r == role,
            Wire::InputBus(_, roles) => roles.contains(&role),
            _ => false,
        })
    };
    let start = if has(SticksIn::Start) {
        StartKeys::Button
    } else if has(SticksIn::NewGame) {
        StartKeys::Separate
    } else {
        StartKeys::Chord
    };
    let core = SticksBoardCore::new(
        params.controller::<W, M, S>(timing.think_ticks),
        timing,
        start,
        params.m <= 2,
    );
    let plan = PinPlan::new(
        board.board(),
        layout,
        sticks_keys::WIDTH,
        Some(sticks_keys::RESET),
    );
    BoardTop::new(core, plan, timing.pull_down)
}

fn sticks_top_verilog<const W: usize, const M: usize, const S: usize>(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
    module: &str,
) -> Result<String, VerilogError> {
    sticks_top::<W, M, S>(board, params, timing).verilog(module)
}

/// The Verilog of the sticks top for `board` (module `module`), at the game's widths.
pub fn sticks_verilog(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
    module: &str,
) -> Result<String, TopError> {
    Ok(crate::with_widths!(
        params.w,
        params.m,
        sticks_top_verilog(board, params, timing, module)
    )?)
}

/// The sticks game with everything every board shows: the controller, a
/// blink phase, and the count in decimal.
///
/// ```text
///                     +----------------------------------+
///   take1/2/3     --->| SticksCore<W, M, S>              |---> remaining[8], tens[4], ones[4]
///   new_game      --->|   (take k when take<k> pulses)   |---> machine_take[4]
///   machine_first --->| Blinker, DecimalDigits<W>        |---> human_turn, thinking
///   reset, tick   --->|                                  |---> game_over, human_won, illegal
///   clock         --->|                                  |---> blink, phase[4]
///                     +----------------------------------+
/// ```
///
/// The controller's inputs (the move, encoded from `take*`, `new_game`,
/// `machine_first`) pass through one register, so everything reaches the
/// controller a cycle later;
/// `reset` goes straight through. The register keeps the buttons' edge
/// detection and the long-press compare out of the controller's move path
/// (without it the Alchitry Cu's stick game reaches only 115-119 MHz). `tick`
/// is the board's time base: the machine's pause and the blink phase count
/// its ticks.
///
/// `take1`..`take3` are one-cycle pulses meaning "take 1/2/3 sticks" (the
/// lowest wins if several pulse together; a take that does not fit in M
/// bits is sent as 0, which the controller refuses). `blink` is the
/// game-over pattern: the 1 Hz phase bit if the human won, the 4 Hz one if
/// the machine won. `tens`/`ones` are [`BLANK`]
/// for leading zeros.
#[derive(LogicBlock)]
pub struct SticksConsole<const W: usize, const M: usize, const S: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// The time base's tick.
    pub tick: Signal<In, Bit>,
    /// Pulse: take 1 stick.
    pub take1: Signal<In, Bit>,
    /// Pulse: take 2 sticks.
    pub take2: Signal<In, Bit>,
    /// Pulse: take 3 sticks.
    pub take3: Signal<In, Bit>,
    /// Pulse: start a new game.
    pub new_game: Signal<In, Bit>,
    /// Level sampled at game start: the machine moves first.
    pub machine_first: Signal<In, Bit>,
    /// Sticks left (zero-extended).
    pub remaining: Signal<Out, Bits<8>>,
    /// Tens digit of the sticks left (or blank).
    pub tens: Signal<Out, Bits<4>>,
    /// Ones digit of the sticks left.
    pub ones: Signal<Out, Bits<4>>,
    /// The machine's last take (zero-extended).
    pub machine_take: Signal<Out, Bits<4>>,
    /// The human is to move.
    pub human_turn: Signal<Out, Bit>,
    /// The machine is to move (thinking).
    pub thinking: Signal<Out, Bit>,
    /// The game is over.
    pub game_over: Signal<Out, Bit>,
    /// At game over: the human won.
    pub human_won: Signal<Out, Bit>,
    /// Pulse: the last take was refused.
    pub illegal: Signal<Out, Bit>,
    /// Game-over blink level (slow if the human won, fast if not).
    pub blink: Signal<Out, Bit>,
    /// The blinker's phase (bit 0 = 4 Hz, bit 2 = 1 Hz, bit 3 = 0.5 Hz).
    pub phase: Signal<Out, Bits<4>>,
    take_q: DFF<Bits<M>>,
    take_valid_q: DFF<Bit>,
    new_game_q: DFF<Bit>,
    machine_first_q: DFF<Bit>,
    game: SticksCore<W, M, S>,
    blinker: Blinker,
    decimal: DecimalDigits<W>,
    remaining8: Widen<W, 8>,
    take4: Widen<M, 4>,
    take_one: Constant<Bits<M>>,
    take_two: Constant<Bits<M>>,
    take_three: Constant<Bits<M>>,
}

impl<const W: usize, const M: usize, const S: usize> SticksConsole<W, M, S> {
    /// A console around `game`, the blink phase advancing every `blink_ticks` ticks.
    pub fn new(game: SticksCore<W, M, S>, blink_ticks: u64) -> Self {
        let take = |k: u64| Constant::new(bits::<M>(if k >> M == 0 { k } else { 0 }));
        let mut block = Self {
            clock: Default::default(),
            reset: Default::default(),
            tick: Default::default(),
            take1: Default::default(),
            take2: Default::default(),
            take3: Default::default(),
            new_game: Default::default(),
            machine_first: Default::default(),
            remaining: Default::default(),
            tens: Default::default(),
            ones: Default::default(),
            machine_take: Default::default(),
            human_turn: Default::default(),
            thinking: Default::default(),
            game_over: Default::default(),
            human_won: Default::default(),
            illegal: Default::default(),
            blink: Default::default(),
            phase: Default::default(),
            take_q: Default::default(),
            take_valid_q: Default::default(),
            new_game_q: Default::default(),
            machine_first_q: Default::default(),
            game,
            blinker: Blinker::new(blink_ticks),
            decimal: DecimalDigits::new(),
            remaining8: Widen::new(),
            take4: Widen::new(),
            take_one: take(1),
            take_two: take(2),
            take_three: take(3),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksConsole<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        // The controller's inputs are registered, so board logic (edge
        // detection, the long-press compare) never shares a timing path with
        // the controller's move check.
        dff_setup!(
            self,
            clock,
            take_q,
            take_valid_q,
            new_game_q,
            machine_first_q
        );
        self.take_valid_q.d.next = self.take1.val() | self.take2.val() | self.take3.val();
        self.take_q.d.next = self.take_three.val();
        if self.take2.val() {
            self.take_q.d.next = self.take_two.val();
        }
        if self.take1.val() {
            self.take_q.d.next = self.take_one.val();
        }
        self.new_game_q.d.next = self.new_game.val();
        self.machine_first_q.d.next = self.machine_first.val();
        clock!(self, clock, game, blinker);
        self.game.tick.next = self.tick.val();
        self.blinker.tick.next = self.tick.val();
        self.game.reset.next = self.reset.val();
        self.game.new_game.next = self.new_game_q.q.val();
        self.game.machine_first.next = self.machine_first_q.q.val();
        self.game.take_valid.next = self.take_valid_q.q.val();
        self.game.take.next = self.take_q.q.val();
        self.decimal.value.next = self.game.remaining.val();
        self.remaining8.narrow.next = self.game.remaining.val();
        self.remaining.next = self.remaining8.wide.val();
        self.tens.next = self.decimal.tens.val();
        self.ones.next = self.decimal.ones.val();
        self.take4.narrow.next = self.game.machine_take.val();
        self.machine_take.next = self.take4.wide.val();
        self.human_turn.next = self.game.human_turn.val();
        self.thinking.next = !self.game.human_turn.val() & !self.game.game_over.val();
        self.game_over.next = self.game.game_over.val();
        self.human_won.next = self.game.human_won.val();
        self.illegal.next = self.game.illegal.val();
        self.phase.next = self.blinker.phase.val();
        self.blink.next = self.blinker.phase.val().get_bit(0);
        if self.game.human_won.val() {
            self.blink.next = self.blinker.phase.val().get_bit(2);
        }
    }
}

/// Segment G alone, `-`: the display's second digit from the right, between the count and
/// the machine's take.
const DASH: u64 = 0x40;

/// `keys` bits of [`SticksBoardCore`].
pub mod sticks_keys {
    /// Take 1, 2, 3: bits 0, 1, 2.
    pub const TAKE1: usize = 0;
    /// The start button (release: new game; long press: machine first).
    pub const START: usize = 3;
    /// The new-game button (boards with a machine-first switch).
    pub const NEW_GAME: usize = 4;
    /// The machine-first switch.
    pub const MACHINE_FIRST: usize = 5;
    /// The reset button (synchronised, not debounced).
    pub const RESET: usize = 6;
    /// Width of `keys`.
    pub const WIDTH: usize = 7;
}

/// The sticks game on any board.
///
/// ```text
///             +--------------------------------------------------+
///  keys[7] -->| Buttons<6>, Synchronizer (reset), PressTimer      |--> remaining[8], take_leds[3]
///  clock   -->| PowerOnReset, SticksConsole                       |--> turn, thinking, game_over, blink
///             | SevenSegment x3, MuxDisplay                       |--> holding, machine_first
///             +--------------------------------------------------+--> tens/ones_segments[7], segments[8], select[4]
/// ```
///
/// `keys` (active high, [`sticks_keys`]): take 1-3, start, new game,
/// machine-first switch, reset. With `chord` there is no start button: all
/// three take buttons held together act as one. With `separate_start` a
/// new-game button and a machine-first switch replace the start button's
/// release and long press. `holding` is high while the start button (or
/// chord) is held past the long press. `take_leds` shows the machine's last
/// take as LED k for k (`one_hot`, takes up to 3) or in binary. The
/// multiplexed display shows the count in its two left digits, `-`, and the
/// machine's last take (blank before its first move).
#[derive(LogicBlock)]
pub struct SticksBoardCore<const W: usize, const M: usize, const S: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys, active high ([`sticks_keys`]).
    pub keys: Signal<In, Bits<7>>,
    /// Sticks left.
    pub remaining: Signal<Out, Bits<8>>,
    /// The machine's last take for three LEDs.
    pub take_leds: Signal<Out, Bits<3>>,
    /// Your turn.
    pub turn: Signal<Out, Bit>,
    /// The machine is thinking.
    pub thinking: Signal<Out, Bit>,
    /// The game is over.
    pub game_over: Signal<Out, Bit>,
    /// The game-over blink level.
    pub blink: Signal<Out, Bit>,
    /// The start button (or chord) has been held past the long press.
    pub holding: Signal<Out, Bit>,
    /// The machine-first switch, debounced.
    pub machine_first: Signal<Out, Bit>,
    /// Segments A..G of the tens digit.
    pub tens_segments: Signal<Out, Bits<7>>,
    /// Segments A..G of the ones digit.
    pub ones_segments: Signal<Out, Bits<7>>,
    /// Multiplexed display: segments.
    pub segments: Signal<Out, Bits<8>>,
    /// Multiplexed display: digit selects (bit 0 = rightmost).
    pub select: Signal<Out, Bits<4>>,
    start_level: Signal<Local, Bit>,
    take_shown: Signal<Local, Bits<4>>,
    time_base: TimeBase,
    buttons: Buttons<6>,
    reset_sync: Synchronizer<1>,
    start: PressTimer,
    por: PowerOnReset,
    console: SticksConsole<W, M, S>,
    tens: SevenSegment,
    ones: SevenSegment,
    take_digit: SevenSegment,
    tens_bus: Widen<7, 32>,
    ones_bus: Widen<7, 32>,
    take_bus: Widen<7, 32>,
    display: MuxDisplay,
    blank: Constant<Bits<4>>,
    dash_bus: Constant<Bits<32>>,
    take_none: Constant<Bits<4>>,
    take_one: Constant<Bits<4>>,
    take_two: Constant<Bits<4>>,
    take_three: Constant<Bits<4>>,
    leds_none: Constant<Bits<3>>,
    led_one: Constant<Bits<3>>,
    led_two: Constant<Bits<3>>,
    led_three: Constant<Bits<3>>,
    chord: Constant<Bit>,
    separate_start: Constant<Bit>,
    one_hot: Constant<Bit>,
}

/// How a board starts a sticks game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartKeys {
    /// A start button: release = new game, long press = machine first.
    Button,
    /// No start button: all take buttons together act as one.
    Chord,
    /// A new-game button and a machine-first switch.
    Separate,
}

impl<const W: usize, const M: usize, const S: usize> SticksBoardCore<W, M, S> {
    /// The core around `game`; `one_hot`: show the machine's take as LED k
    /// (takes up to 3). `connect_all()` done.
    pub fn new(
        game: SticksCore<W, M, S>,
        timing: &Timing,
        start: StartKeys,
        one_hot: bool,
    ) -> Self {
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            remaining: Default::default(),
            take_leds: Default::default(),
            turn: Default::default(),
            thinking: Default::default(),
            game_over: Default::default(),
            blink: Default::default(),
            holding: Default::default(),
            machine_first: Default::default(),
            tens_segments: Default::default(),
            ones_segments: Default::default(),
            segments: Default::default(),
            select: Default::default(),
            start_level: Default::default(),
            take_shown: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            reset_sync: Synchronizer::new(),
            start: PressTimer::new(timing.long_press_ticks),
            por: PowerOnReset::new(),
            console: SticksConsole::new(game, timing.blink_ticks),
            tens: SevenSegment::new(),
            ones: SevenSegment::new(),
            take_digit: SevenSegment::new(),
            tens_bus: Widen::new(),
            ones_bus: Widen::new(),
            take_bus: Widen::new(),
            display: MuxDisplay::new(timing.digit_ticks),
            blank: Constant::new(BLANK.into()),
            dash_bus: Constant::new((DASH << 8).into()),
            take_none: Constant::new(0u64.into()),
            take_one: Constant::new(1u64.into()),
            take_two: Constant::new(2u64.into()),
            take_three: Constant::new(3u64.into()),
            leds_none: Constant::new(0u64.into()),
            led_one: Constant::new(1u64.into()),
            led_two: Constant::new(2u64.into()),
            led_three: Constant::new(4u64.into()),
            chord: Constant::new(start == StartKeys::Chord),
            separate_start: Constant::new(start == StartKeys::Separate),
            one_hot: Constant::new(one_hot),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksBoardCore<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, time_base, buttons, reset_sync, start, por, console, display);
        self.buttons.tick.next = self.time_base.tick.val();
        self.start.tick.next = self.time_base.tick.val();
        self.console.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val().get_bits::<6>(0);
        self.reset_sync.raw.next = self.keys.val().get_bit(6).into();
        self.por.request.next = self.reset_sync.synced.val().any();
        self.start_level.next = self.buttons.level.val().get_bit(3);
        if self.chord.val() {
            self.start_level.next = self.buttons.level.val().get_bit(0)
                & self.buttons.level.val().get_bit(1)
                & self.buttons.level.val().get_bit(2);
        }
        self.start.level.next = self.start_level.val();
        self.holding.next = self.start.held_long.val() & self.start_level.val();

        self.console.reset.next = self.por.reset.val();
        self.console.take1.next = self.buttons.pressed.val().get_bit(0);
        self.console.take2.next = self.buttons.pressed.val().get_bit(1);
        self.console.take3.next = self.buttons.pressed.val().get_bit(2);
        self.console.new_game.next = self.start.released.val();
        self.console.machine_first.next = self.start.held_long.val();
        if self.separate_start.val() {
            self.console.new_game.next = self.buttons.pressed.val().get_bit(4);
            self.console.machine_first.next = self.buttons.level.val().get_bit(5);
        }
        self.machine_first.next = self.buttons.level.val().get_bit(5);

        self.remaining.next = self.console.remaining.val();
        self.turn.next = self.console.human_turn.val();
        self.thinking.next = self.console.thinking.val();
        self.game_over.next = self.console.game_over.val();
        self.blink.next = self.console.blink.val();
        self.take_leds.next = self.console.machine_take.val().get_bits::<3>(0);
        if self.one_hot.val() {
            self.take_leds.next = self.leds_none.val();
            if self.console.machine_take.val() == self.take_one.val() {
                self.take_leds.next = self.led_one.val();
            }
            if self.console.machine_take.val() == self.take_two.val() {
                self.take_leds.next = self.led_two.val();
            }
            if self.console.machine_take.val() == self.take_three.val() {
                self.take_leds.next = self.led_three.val();
            }
        }

        self.tens.digit.next = self.console.tens.val();
        self.ones.digit.next = self.console.ones.val();
        self.tens_segments.next = self.tens.segments.val();
        self.ones_segments.next = self.ones.segments.val();
        self.take_shown.next = self.console.machine_take.val();
        if self.console.machine_take.val() == self.take_none.val() {
            self.take_shown.next = self.blank.val();
        }
        self.take_digit.digit.next = self.take_shown.val();
        self.tens_bus.narrow.next = self.tens.segments.val();
        self.ones_bus.narrow.next = self.ones.segments.val();
        self.take_bus.narrow.next = self.take_digit.segments.val();
        self.display.digits.next = (self.tens_bus.wide.val() << 24)
            | (self.ones_bus.wide.val() << 16)
            | self.dash_bus.val()
            | self.take_bus.wide.val();
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl<const W: usize, const M: usize, const S: usize> BoardCore for SticksBoardCore<W, M, S> {
    const KEYS: usize = sticks_keys::WIDTH;
    /// The keys a board has no use for (`level`, `pressed` per key), the console's outcome and
    /// phase outputs the board shows through `blink`, and the hundreds digit of counts below 100.
    const UNREAD: &'static [&'static str] = &[
        "buttons$level",
        "buttons$pressed",
        "console$human_won",
        "console$illegal",
        "console$phase",
        "decimal$hundreds",
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
            "take_leds" => self.take_leds.val().to_u64(),
            "turn" => u64::from(self.turn.val()),
            "thinking" => u64::from(self.thinking.val()),
            "game_over" => u64::from(self.game_over.val()),
            "blink" => u64::from(self.blink.val()),
            "holding" => u64::from(self.holding.val()),
            "machine_first" => u64::from(self.machine_first.val()),
            "tens_segments" => self.tens_segments.val().to_u64(),
            "ones_segments" => self.ones_segments.val().to_u64(),
            "segments" => self.segments.val().to_u64(),
            "select" => self.select.val().to_u64(),
            _ => panic!("SticksBoardCore has no output `{port}`"),
        }
    }
}
