//! The `sticks_game` controller's logic, [`SticksCore`]: the play rules of [`super::play`] over
//! a game fixed at build time (the count, the take set and the rule are constants; the
//! machine's moves come from the strategy lookup).

use rust_hdl::prelude::*;

use super::checks::{MachineMoveCheck, SticksMoveCheck};
use super::play::play_update;
use super::timer::ThinkTimer;
use crate::circuit::sticks_strategy::{Impl, SticksCircuitError, SticksStrategy};
use crate::game::{Last, SticksGame};
use crate::solver::strategy::SticksTable;

/// The controller's logic with a time-base input: the machine's pause is `think_ticks` ticks
/// of `tick`. Board consoles feed it the board's 1 ms tick;
/// [`SticksController`](super::SticksController) (the emitted `sticks_game`) ties `tick` high,
/// so its pause is `think_cycles` clock cycles.
#[derive(LogicBlock)]
pub struct SticksCore<const W: usize, const M: usize, const S: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// The time base's tick (high every cycle: the pause counts clock cycles).
    pub tick: Signal<In, Bit>,
    /// Synchronous reset, active high: starts a new game.
    pub reset: Signal<In, Bit>,
    /// One-cycle pulse: starts a new game.
    pub new_game: Signal<In, Bit>,
    /// Level, sampled when a game starts: the machine moves first.
    pub machine_first: Signal<In, Bit>,
    /// The human's move.
    pub take: Signal<In, Bits<M>>,
    /// One-cycle pulse: the human moves `take`.
    pub take_valid: Signal<In, Bit>,
    /// Sticks left.
    pub remaining: Signal<Out, Bits<W>>,
    /// Waiting for the human's move.
    pub human_turn: Signal<Out, Bit>,
    /// The machine's last move; 0 before its first.
    pub machine_take: Signal<Out, Bits<M>>,
    /// No game in progress.
    pub game_over: Signal<Out, Bit>,
    /// The human won (meaningful when `game_over`).
    pub human_won: Signal<Out, Bit>,
    /// One-cycle pulse: the move sampled at the last edge was refused.
    pub illegal: Signal<Out, Bit>,
    lookup: SticksStrategy<W, M>,
    /// The human's move check, and the one subtractor for both players' moves.
    move_check: SticksMoveCheck<W, M, S>,
    /// The machine's move check, from the position.
    machine_check: MachineMoveCheck<W>,
    timer: ThinkTimer,
    sticks_left: DFF<Bits<W>>,
    last_machine_take: DFF<Bits<M>>,
    waiting_for_human: DFF<Bit>,
    thinking: DFF<Bit>,
    won: DFF<Bit>,
    refused: DFF<Bit>,
    /// Sticks at the start.
    count: Constant<Bits<W>>,
    /// No move fits the count: a game is over as soon as it starts.
    start_stuck: Constant<Bit>,
    /// Whoever takes the last stick loses.
    last_loses: Constant<Bit>,
    no_take: Constant<Bits<M>>,
}

impl<const W: usize, const M: usize, const S: usize> SticksCore<W, M, S> {
    /// The controller logic for `game`, with its strategy table (`W` inputs, `M + 1`
    /// outputs, as [`sticks_table`](crate::solver::strategy::sticks_table) builds it) as a lookup of kind `implementation`, pausing
    /// `think_ticks` ticks before each machine move.
    pub fn new(
        game: &SticksGame,
        table: &SticksTable,
        implementation: Impl,
        think_ticks: u64,
    ) -> Result<Self, SticksCircuitError> {
        let lookup = SticksStrategy::<W, M>::new(table, implementation)?;
        let count = game.count();
        let min_take = game.take()[0];
        let last_terminal = (min_take - 1).min(count);
        let mut block = Self {
            clock: Default::default(),
            tick: Default::default(),
            reset: Default::default(),
            new_game: Default::default(),
            machine_first: Default::default(),
            take: Default::default(),
            take_valid: Default::default(),
            remaining: Default::default(),
            human_turn: Default::default(),
            machine_take: Default::default(),
            game_over: Default::default(),
            human_won: Default::default(),
            illegal: Default::default(),
            lookup,
            move_check: SticksMoveCheck::new(game.take(), last_terminal),
            machine_check: MachineMoveCheck::new(table, game.take(), last_terminal),
            timer: ThinkTimer::new(think_ticks),
            sticks_left: Default::default(),
            last_machine_take: Default::default(),
            waiting_for_human: Default::default(),
            thinking: Default::default(),
            won: Default::default(),
            refused: Default::default(),
            count: Constant::new(bits::<W>(count)),
            start_stuck: Constant::new(count < min_take),
            last_loses: Constant::new(crate::game::Game::last(game) == Last::Loses),
            no_take: Constant::new(bits::<M>(0)),
        };
        block.connect_all();
        Ok(block)
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksCore<W, M, S> {
    // The lookup and the move checks read the registered position; the subtractor takes the
    // lookup's move while the machine thinks, the human's otherwise. The machine's move is
    // checked by its own table of the position (`machine_check`).
    play_update! {
        #[hdl_gen]
        fn update(&mut self);
        dffs: [],
        clocked: [],
        wiring: {
            self.lookup.sticks.next = self.sticks_left.q.val();
            self.machine_check.sticks.next = self.sticks_left.q.val();
        },
        machine_take: { self.lookup.take.val() },
        checks: {},
        game_over: { !self.waiting_for_human.q.val() & !self.thinking.q.val() },
        outputs: {},
        start: {
            // A new game; a move sampled at this edge is ignored.
            self.sticks_left.d.next = self.count.val();
            self.last_machine_take.d.next = self.no_take.val();
            self.timer.load.next = true;
            if self.start_stuck.val() {
                // The player to move is stuck and loses.
                self.waiting_for_human.d.next = false;
                self.thinking.d.next = false;
                self.won.d.next = self.machine_first.val();
            } else {
                self.waiting_for_human.d.next = !self.machine_first.val();
                self.thinking.d.next = self.machine_first.val();
                self.won.d.next = false;
            }
        },
        last_loses: { self.last_loses.val() },
        machine_legal: { self.machine_check.legal.val() },
        machine_ends: { self.machine_check.ends.val() },
        machine_empties: { self.machine_check.empties.val() },
        machine_winning: { self.lookup.winning.val() },
        after: {},
    }
}
