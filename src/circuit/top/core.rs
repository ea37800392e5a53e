//! The board-independent core of each design: everything a board top does
//! except naming pins. Its ports are abstract (`keys` in, role-named outputs
//! out, all active high); [`super::pins`] wraps it in a module whose ports are
//! a board's pins, from the board data ([`crate::board::Designs`]).
//!
//! A core carries every feature any board uses (a multiplexed display, the
//! J.R. 01 alternating LEDs, ...); a board that does not wire an output
//! leaves it unconnected, and synthesis removes the logic behind it.

use rust_hdl::prelude::*;

use super::{Jr01Panel, SticksConsole, Timing};
use crate::circuit::board_io::{
    Blinker, Buttons, DecimalDigits, MuxDisplay, PowerOnReset, PressTimer, SevenSegment,
    Synchronizer, TimeBase, BLANK,
};
use crate::circuit::sticks_game::SticksCore;
use crate::circuit::sticks_solver_game::SticksSolverGame;
use crate::circuit::Jr01Strategy;

/// What the pin wrapper needs of a core: its clock, its `keys` input and its
/// outputs by name.
pub trait BoardCore: Block {
    /// Width of `keys`.
    const KEYS: usize;
    /// The clock input.
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    /// Set the `keys` input (active high).
    fn set_keys(&mut self, keys: u64);
    /// The value of output `port` (panics on an unknown name: a bug in
    /// [`super::pins`]).
    fn output(&self, port: &str) -> u64;
}

/// J.R. 01 on any board.
///
/// ```text
///             +---------------------------------------------------+
///  keys[3] -->| Buttons -> Jr01Panel (toggles, or the switch     |--> position[3], answer[3]
///             |   levels with `switches`) -> Jr01Strategy         |--> alternating[3], showing_position
///  clock   -->| TimeBase, Blinker, SevenSegment x2, MuxDisplay    |--> position_segments[7], answer_segments[7]
///             +---------------------------------------------------+--> segments[8], select[4]
/// ```
///
/// `keys` bit 2 is A, bit 1 B, bit 0 C: push buttons that flip the bit, or
/// (`switches`) switches whose level is the bit. `alternating` shows the
/// position while `showing_position` is high (0.5 Hz), the answer while it
/// is low. The multiplexed display shows the position in its leftmost digit
/// and the answer in its rightmost.
#[derive(LogicBlock)]
pub struct Jr01BoardCore {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys, active high: bit 2 = A, 1 = B, 0 = C.
    pub keys: Signal<In, Bits<3>>,
    /// The position A B C (A = bit 2).
    pub position: Signal<Out, Bits<3>>,
    /// The answer X Y Z (X = bit 2).
    pub answer: Signal<Out, Bits<3>>,
    /// The position or the answer, alternating.
    pub alternating: Signal<Out, Bits<3>>,
    /// `alternating` shows the position.
    pub showing_position: Signal<Out, Bit>,
    /// Segments A..G of the position as a digit.
    pub position_segments: Signal<Out, Bits<7>>,
    /// Segments A..G of the answer as a digit.
    pub answer_segments: Signal<Out, Bits<7>>,
    /// Multiplexed display: segments (bit 7 = decimal point).
    pub segments: Signal<Out, Bits<8>>,
    /// Multiplexed display: digit selects (bit 0 = rightmost).
    pub select: Signal<Out, Bits<4>>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    panel: Jr01Panel,
    switch_strategy: Jr01Strategy,
    switch_answer: Signal<Local, Bits<3>>,
    switches: Constant<Bit>,
    blinker: Blinker,
    position_digit: SevenSegment,
    answer_digit: SevenSegment,
    display: MuxDisplay,
}

impl Jr01BoardCore {
    /// The core around two copies of the strategy (one behind the toggles,
    /// one behind the switch levels); `switches`: the keys are switches, not
    /// push buttons. `connect_all()` done.
    pub fn new(strategies: [Jr01Strategy; 2], timing: &Timing, switches: bool) -> Self {
        let [strategy, switch_strategy] = strategies;
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            position: Default::default(),
            answer: Default::default(),
            alternating: Default::default(),
            showing_position: Default::default(),
            position_segments: Default::default(),
            answer_segments: Default::default(),
            segments: Default::default(),
            select: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            panel: Jr01Panel::new(strategy),
            switch_strategy,
            switch_answer: Default::default(),
            switches: Constant::new(switches),
            blinker: Blinker::new(timing.blink_ticks),
            position_digit: SevenSegment::new(),
            answer_digit: SevenSegment::new(),
            display: MuxDisplay::new(timing.digit_ticks),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01BoardCore {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, time_base, buttons, panel, blinker, display);
        self.buttons.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val();
        self.panel.flip.next = self.buttons.pressed.val();
        self.switch_strategy.a.next = self.buttons.level.val().get_bit(2);
        self.switch_strategy.b.next = self.buttons.level.val().get_bit(1);
        self.switch_strategy.c.next = self.buttons.level.val().get_bit(0);
        self.switch_answer.next = (bit_cast::<3, 1>(self.switch_strategy.x.val().into()) << 2)
            | (bit_cast::<3, 1>(self.switch_strategy.y.val().into()) << 1)
            | bit_cast::<3, 1>(self.switch_strategy.z.val().into());
        self.position.next = self.panel.position.val();
        self.answer.next = self.panel.answer.val();
        if self.switches.val() {
            self.position.next = self.buttons.level.val();
            self.answer.next = self.switch_answer.val();
        }
        self.showing_position.next = self.blinker.phase.val().get_bit(3);
        self.alternating.next = self.answer.val();
        if self.blinker.phase.val().get_bit(3) {
            self.alternating.next = self.position.val();
        }
        self.position_digit.digit.next = bit_cast::<4, 3>(self.position.val());
        self.answer_digit.digit.next = bit_cast::<4, 3>(self.answer.val());
        self.position_segments.next = self.position_digit.segments.val();
        self.answer_segments.next = self.answer_digit.segments.val();
        self.display.digits.next = (bit_cast::<32, 7>(self.position_digit.segments.val()) << 24)
            | bit_cast::<32, 7>(self.answer_digit.segments.val());
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl BoardCore for Jr01BoardCore {
    const KEYS: usize = 3;

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn set_keys(&mut self, keys: u64) {
        self.keys.next = keys.into();
    }

    fn output(&self, port: &str) -> u64 {
        match port {
            "position" => self.position.val().to_u64(),
            "answer" => self.answer.val().to_u64(),
            "alternating" => self.alternating.val().to_u64(),
            "showing_position" => u64::from(self.showing_position.val()),
            "position_segments" => self.position_segments.val().to_u64(),
            "answer_segments" => self.answer_segments.val().to_u64(),
            "segments" => self.segments.val().to_u64(),
            "select" => self.select.val().to_u64(),
            _ => panic!("Jr01BoardCore has no output `{port}`"),
        }
    }
}

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
    display: MuxDisplay,
    blank: Constant<Bits<4>>,
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
            display: MuxDisplay::new(timing.digit_ticks),
            blank: Constant::new(BLANK.into()),
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
        self.buttons.raw.next = bit_cast::<6, 7>(self.keys.val());
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
        self.take_leds.next = bit_cast::<3, 4>(self.console.machine_take.val());
        if self.one_hot.val() {
            self.take_leds.next = 0.into();
            if self.console.machine_take.val() == 1 {
                self.take_leds.next = 1.into();
            }
            if self.console.machine_take.val() == 2 {
                self.take_leds.next = 2.into();
            }
            if self.console.machine_take.val() == 3 {
                self.take_leds.next = 4.into();
            }
        }

        self.tens.digit.next = self.console.tens.val();
        self.ones.digit.next = self.console.ones.val();
        self.tens_segments.next = self.tens.segments.val();
        self.ones_segments.next = self.ones.segments.val();
        self.take_shown.next = self.console.machine_take.val();
        if self.console.machine_take.val() == 0 {
            self.take_shown.next = self.blank.val();
        }
        self.take_digit.digit.next = self.take_shown.val();
        self.display.digits.next = (bit_cast::<32, 7>(self.tens.segments.val()) << 24)
            | (bit_cast::<32, 7>(self.ones.segments.val()) << 16)
            | (bit_cast::<32, 8>(0x40.into()) << 8)
            | bit_cast::<32, 7>(self.take_digit.segments.val());
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl<const W: usize, const M: usize, const S: usize> BoardCore for SticksBoardCore<W, M, S> {
    const KEYS: usize = sticks_keys::WIDTH;

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
    take: Signal<Local, Bits<4>>,
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
    display: MuxDisplay,
    blank: Constant<Bits<4>>,
    letter_l: Constant<Bits<7>>,
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
            display: MuxDisplay::new(timing.digit_ticks),
            blank: Constant::new(BLANK.into()),
            letter_l: Constant::new(LETTER_L.into()),
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
        self.buttons.raw.next = bit_cast::<7, 30>(self.keys.val());
        self.switches.raw.next = bit_cast::<22, 30>(self.keys.val() >> 8);
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
                self.repeat_count.d.next = self.repeat_count.q.val() + 1;
                if self.repeat_count.q.val() == self.repeat_delay.val() {
                    self.repeat_count.d.next = self.repeat_reload.val();
                    self.step.next = true;
                }
            }
        } else {
            self.repeat_count.d.next = 0.into();
        }

        // Moves: take keys 1-3 on press (the lowest wins), key 4 on a short
        // release (pages), or the take switches with the move button.
        self.playing.next = self.page.q.val() == 3;
        self.take.next = 0.into();
        if self.buttons.pressed.val().get_bit(2) {
            self.take.next = 3.into();
        }
        if self.buttons.pressed.val().get_bit(1) {
            self.take.next = 2.into();
        }
        if self.buttons.pressed.val().get_bit(0) {
            self.take.next = 1.into();
        }
        self.take_valid.next = self.buttons.pressed.val().get_bit(0)
            | self.buttons.pressed.val().get_bit(1)
            | self.buttons.pressed.val().get_bit(2);
        if self.paged.val() & self.short_release.val() {
            self.take.next = 4.into();
            self.take_valid.next = true;
        }
        if self.switched.val() {
            self.take.next = bit_cast::<4, 22>(self.switches.synced.val() >> 18);
            self.take_valid.next = self.buttons.pressed.val().get_bit(6);
        }
        if !self.playing.val() | self.game.game_over.val() {
            self.take_valid.next = false;
        }

        // New games, and the set-up pages.
        self.new_game.next = self.por_q.q.val() & !self.por.reset.val() & !self.paged.val();
        if self.paged.val() {
            if self.page.q.val() == 0 {
                if self.buttons.pressed.val().get_bit(0) {
                    self.cfg_take_set.d.next =
                        self.cfg_take_set.q.val() ^ bit_cast::<K, 4>(1.into());
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.cfg_take_set.d.next =
                        self.cfg_take_set.q.val() ^ bit_cast::<K, 4>(2.into());
                }
                if self.buttons.pressed.val().get_bit(2) {
                    self.cfg_take_set.d.next =
                        self.cfg_take_set.q.val() ^ bit_cast::<K, 4>(4.into());
                }
                if self.short_release.val() {
                    self.cfg_take_set.d.next =
                        self.cfg_take_set.q.val() ^ bit_cast::<K, 4>(8.into());
                }
            }
            if self.page.q.val() == 1 {
                if self.buttons.pressed.val().get_bit(0)
                    | (self.step.val() & self.buttons.level.val().get_bit(0))
                {
                    self.cfg_count.d.next = self.cfg_count.q.val() - 1;
                }
                if self.buttons.pressed.val().get_bit(1)
                    | (self.step.val() & self.buttons.level.val().get_bit(1))
                {
                    self.cfg_count.d.next = self.cfg_count.q.val() + 1;
                }
            }
            if self.page.q.val() == 2 {
                if self.buttons.pressed.val().get_bit(0) {
                    self.cfg_last_wins.d.next = !self.cfg_last_wins.q.val();
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.cfg_machine_first.d.next = !self.cfg_machine_first.q.val();
                }
            }
            if self.long_release.val() {
                self.page.d.next = self.page.q.val() + 1;
                if self.page.q.val() == 2 {
                    self.new_game.next = true;
                }
            }
            if self.playing.val() & self.game.game_over.val() & self.short_release.val() {
                self.new_game.next = true;
            }
        } else {
            self.page.d.next = 3.into();
            if self.switched.val() {
                self.cfg_take_set.d.next = bit_cast::<K, 22>(self.switches.synced.val());
                self.cfg_count.d.next = bit_cast::<W, 22>(self.switches.synced.val() >> 8);
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
            self.page.d.next = 0.into();
            self.cfg_take_set.d.next = self.default_take_set.val();
            self.cfg_count.d.next = self.default_count.val();
            self.cfg_last_wins.d.next = self.default_last_wins.val();
            self.cfg_machine_first.d.next = false;
        }

        // The controller's move inputs pass through one register (as in
        // the sticks console), so the board logic and the controller's
        // move check never share a timing path; the set-up registers are
        // already registers.
        self.take_q.d.next = bit_cast::<M, 4>(self.take.val());
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
        self.remaining.next = bit_cast::<8, W>(self.game.remaining.val());
        self.take4.next = bit_cast::<4, M>(self.game.machine_take.val());
        self.machine_take.next = self.take4.val();
        self.game_take_set.next = bit_cast::<8, K>(self.game.game_take_set.val());
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
        self.lights.next = bit_cast::<8, K>(self.cfg_take_set.q.val());
        if self.page.q.val() == 2 {
            self.lights.next = bit_cast::<8, 1>(self.cfg_last_wins.q.val().into())
                | (bit_cast::<8, 1>(self.cfg_machine_first.q.val().into()) << 1);
        }
        if self.playing.val() {
            self.lights.next = 0.into();
            if self.take4.val() == 1 {
                self.lights.next = 1.into();
            }
            if self.take4.val() == 2 {
                self.lights.next = 2.into();
            }
            if self.take4.val() == 3 {
                self.lights.next = 4.into();
            }
            if self.take4.val() == 4 {
                self.lights.next = 8.into();
            }
            if self.take4.val() == 5 {
                self.lights.next = 16.into();
            }
            if self.take4.val() == 6 {
                self.lights.next = 32.into();
            }
            if self.take4.val() == 7 {
                self.lights.next = 64.into();
            }
            if self.take4.val() == 8 {
                self.lights.next = 128.into();
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
        if self.page.q.val() == 2 {
            self.tens_segments.next = self.letter_l.val();
            self.ones.digit.next = bit_cast::<4, 1>(self.cfg_last_wins.q.val().into());
        }
        self.take_shown.next = self.take4.val();
        if self.game.machine_take.val() == 0 {
            self.take_shown.next = self.blank.val();
        }
        self.take_digit.digit.next = self.take_shown.val();
        self.display.digits.next = (bit_cast::<32, 7>(self.hundreds.segments.val()) << 24)
            | (bit_cast::<32, 7>(self.tens.segments.val()) << 16)
            | (bit_cast::<32, 7>(self.ones.segments.val()) << 8)
            | bit_cast::<32, 7>(self.take_digit.segments.val());
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> BoardCore
    for SolverBoardCore<W, K, M, S>
{
    const KEYS: usize = solver_keys::WIDTH;

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
