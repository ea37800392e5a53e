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
    Blinker, Buttons, MuxDisplay, PowerOnReset, PressTimer, SevenSegment, Synchronizer, TimeBase,
    BLANK,
};
use crate::circuit::sticks_game::SticksCore;
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
