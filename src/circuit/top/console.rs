//! The board-independent cores the tops wrap: the J.R. 01 panel and the
//! sticks console.

use rust_hdl::prelude::*;

use crate::circuit::board_io::{Blinker, DecimalDigits, Toggle};
use crate::circuit::sticks_game::SticksCore as SticksGame;
use crate::circuit::Jr01Strategy;

/// J.R. 01 with three toggles: each press flips one position bit, and the
/// strategy answers combinationally.
///
/// ```text
///               +-----------------------------------+
///   flip[3] --->| Toggle<3> --> Jr01Strategy        |---> position[3]  A B C (A = bit 2)
///   clock   --->|                                   |---> answer[3]    X Y Z (X = bit 2)
///               +-----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Jr01Panel {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// One-cycle pulses: bit 2 flips A, bit 1 flips B, bit 0 flips C.
    pub flip: Signal<In, Bits<3>>,
    /// The position A B C (A = bit 2), all 0 after configuration.
    pub position: Signal<Out, Bits<3>>,
    /// The strategy's answer X Y Z (X = bit 2).
    pub answer: Signal<Out, Bits<3>>,
    toggles: Toggle<3>,
    strategy: Jr01Strategy,
}

impl Jr01Panel {
    /// A panel around `strategy`, `connect_all()` done.
    pub fn new(strategy: Jr01Strategy) -> Self {
        let mut block = Self {
            clock: Default::default(),
            flip: Default::default(),
            position: Default::default(),
            answer: Default::default(),
            toggles: Toggle::new(),
            strategy,
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01Panel {
    #[hdl_gen]
    fn update(&mut self) {
        self.toggles.clock.next = self.clock.val();
        self.toggles.flip.next = self.flip.val();
        self.strategy.a.next = self.toggles.state.val().get_bit(2);
        self.strategy.b.next = self.toggles.state.val().get_bit(1);
        self.strategy.c.next = self.toggles.state.val().get_bit(0);
        self.position.next = self.toggles.state.val();
        self.answer.next = (bit_cast::<3, 1>(self.strategy.x.val().into()) << 2)
            | (bit_cast::<3, 1>(self.strategy.y.val().into()) << 1)
            | bit_cast::<3, 1>(self.strategy.z.val().into());
    }
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
/// the machine won. `tens`/`ones` are [`BLANK`](crate::circuit::board_io::BLANK)
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
    game: SticksGame<W, M, S>,
    blinker: Blinker,
    decimal: DecimalDigits<W>,
    take_one: Constant<Bits<M>>,
    take_two: Constant<Bits<M>>,
    take_three: Constant<Bits<M>>,
}

impl<const W: usize, const M: usize, const S: usize> SticksConsole<W, M, S> {
    /// A console around `game`, the blink phase advancing every `blink_ticks` ticks.
    pub fn new(game: SticksGame<W, M, S>, blink_ticks: u64) -> Self {
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
        self.remaining.next = bit_cast::<8, W>(self.game.remaining.val());
        self.tens.next = self.decimal.tens.val();
        self.ones.next = self.decimal.ones.val();
        self.machine_take.next = bit_cast::<4, M>(self.game.machine_take.val());
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
