//! `sticks_solver_game`: the game controller that plays from the on-chip solver. The game (take
//! set, count, rule) is set at run time on its inputs; a `new_game` pulse samples it, the
//! [`SticksSolver`] inside solves it, and then the game is played exactly as the `sticks_game`
//! controller ([`super::SticksController`], modelled by [`crate::model::sticks_game`]) plays
//! that game, with the machine's moves read from the solver's query port instead of a ROM.
//!
//! ```text
//!                      +------------------------------------------+
//!   clock ------------>|  SticksSolverGame<W, K, M, S>            |---> solving
//!   tick ------------->|                                          |---> remaining[W]
//!   reset ------------>|   solver: SticksSolver<W, K, M>          |---> human_turn
//!   take_set[K] ------>|     (query = the position being entered) |---> machine_take[M]
//!   count[W] --------->|   move_check: SolverMoveCheck            |---> game_over
//!   last_wins -------->|   smallest_of: SmallestTake              |---> human_won
//!   machine_first ---->|   timer: ThinkTimer (think pause)        |---> illegal
//!   new_game --------->|                                          |---> game_count[W]
//!   take[M] ---------->|                                          |---> game_take_set[K]
//!   take_valid ------->|                                          |---> game_last_wins
//!                      +------------------------------------------+
//! ```
//!
//! `W`: bits of the largest count (1 to 8); `K`: the largest take (1 to 8); `M`: bits for `K`;
//! `S = 2^M`. Every port is synchronous and active high; every output is a register.
//!
//! # Cycle by cycle
//! * Power-on: every register 0, so no game (`game_over` = 1, `remaining` = 0), as
//!   `sticks_game`.
//! * `reset` or `new_game` at an edge (the same thing: `reset` is synchronous): `take_set`,
//!   `count`, `last_wins` and `machine_first` are sampled (the first three show on
//!   `game_take_set`, `game_count` and `game_last_wins` until the next `new_game`), the solver
//!   starts, `solving` rises, `remaining` shows the count, `machine_take`, `human_turn`,
//!   `game_over` and `human_won` are 0. A `take_valid` at this edge is ignored.
//! * While `solving`: a `take_valid` raises `illegal` for a cycle and is otherwise ignored (as
//!   while the machine thinks); a new `new_game` restarts the solve.
//! * The edge after the solver's `done` rises ("the start edge") starts the game exactly as
//!   `sticks_game` starts one at a reset edge: `solving` falls, and it is the human's turn, or
//!   the machine's with `machine_first`, or, if no move fits the count (a pile smaller than
//!   every allowed take, count 0, or an empty take set), the game is over at once and the human
//!   won exactly when the machine was to move (`sticks_game`'s rule for a stuck start). A
//!   `take_valid` at the start edge is ignored without `illegal`, as at a reset edge. From the
//!   start edge on, every output follows the model of `sticks_game` for the sampled game,
//!   cycle by cycle, with the start edge in the place of the model's reset edge. The start edge
//!   comes [`solve_cycles`]` + 1` edges after the `new_game` edge (at most [`cycle_bound`]).
//!
//! # How
//! The controller is [`super::sticks_game::SticksCore`]'s, with run-time data in place of its
//! build-time constants: the human's move is checked against the sampled take set
//! ([`SolverMoveCheck`]: `take` in `1..=K`, its bit set, at most `remaining`); a move "ends" the
//! game when fewer sticks than the smallest allowed take are left (that take is computed once,
//! at `new_game`, by [`SmallestTake`] into a register); it "empties" the pile at 0 sticks. The
//! machine's move is the solver's `query_take`, legal iff not 0 (at the start edge, 0 means no
//! move fits the count: the stuck start). One subtractor serves both players.
//!
//! The solver's read is registered (one cycle of latency), so its `query` is the position the
//! controller is *entering* (the `d` input of the position register): the word of a new
//! position is read at the very edge that enters it, and is there one edge later, in time for
//! a machine that answers at once (`think_ticks` = 0). During the solve the query is the count,
//! so the word at the start edge is the count's.

use rust_hdl::prelude::*;

use super::sticks_game::ThinkTimer;
use super::sticks_solver::SticksSolver;
pub use super::sticks_solver::{cycle_bound, solve_cycles};

/// Module name of the emitted controller with the on-chip solver.
pub const SOLVER_GAME_MODULE: &str = "sticks_solver_game";

/// The smallest take in a take set (bit `i`: taking `i + 1` is allowed), 0 for an empty set:
/// a priority encoder.
#[derive(LogicBlock, Default)]
pub struct SmallestTake<const K: usize, const M: usize> {
    /// The take set.
    pub take_set: Signal<In, Bits<K>>,
    /// Its smallest take; 0 when it is empty.
    pub smallest: Signal<Out, Bits<M>>,
}

impl<const K: usize, const M: usize> SmallestTake<K, M> {
    /// The encoder, `connect_all()` done.
    pub fn new() -> Self {
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const K: usize, const M: usize> Logic for SmallestTake<K, M> {
    fn update(&mut self) {
        let set = self.take_set.val().to_u64();
        let smallest = if set == 0 {
            0
        } else {
            u64::from(set.trailing_zeros()) + 1
        };
        self.smallest.next = bits::<M>(smallest);
    }

    fn connect(&mut self) {
        self.smallest.connect();
    }

    fn hdl(&self) -> Verilog {
        use std::fmt::Write as _;
        let mut code = format!(
            "always @(*) begin\n    smallest = {};\n",
            super::sized(M, 0)
        );
        // Largest first, so the smallest set bit is assigned last and wins.
        for i in (0..K).rev() {
            let _ = writeln!(
                code,
                "    if (take_set[{i}]) smallest = {};",
                super::sized(M, i as u64 + 1)
            );
        }
        code.push_str("end\n");
        Verilog::Custom(code)
    }
}

/// Checks the human's move against a take set given at run time, and subtracts the move being
/// made (the human's or the machine's: the one subtractor of the controller).
///
/// `legal` = `take` is in `1..=K`, its bit of `take_set` is set, and `take <= remaining`;
/// `after` = `remaining - made`; `ends` = `after < smallest` (the player to move next has no
/// move); `empties` = `after == 0`. `ends` and `empties` are about `made`, and meaningful when
/// `made` is legal.
#[derive(LogicBlock, Default)]
pub struct SolverMoveCheck<const W: usize, const K: usize, const M: usize, const S: usize> {
    /// Sticks left.
    pub remaining: Signal<In, Bits<W>>,
    /// The human's move.
    pub take: Signal<In, Bits<M>>,
    /// The move being made (the human's or the machine's).
    pub made: Signal<In, Bits<M>>,
    /// The game's take set (bit `i`: taking `i + 1` is allowed).
    pub take_set: Signal<In, Bits<K>>,
    /// The smallest take of `take_set`.
    pub smallest: Signal<In, Bits<M>>,
    /// The human's move may be made.
    pub legal: Signal<Out, Bit>,
    /// Sticks left after `made`.
    pub after: Signal<Out, Bits<W>>,
    /// After `made` no move fits: `after < smallest`.
    pub ends: Signal<Out, Bit>,
    /// `made` takes the last stick: `after == 0`.
    pub empties: Signal<Out, Bit>,
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> SolverMoveCheck<W, K, M, S> {
    /// The check, `connect_all()` done.
    ///
    /// # Panics
    /// Unless `S = 2^M` and `K < S`.
    pub fn new() -> Self {
        assert_eq!(S, 1 << M, "S is the take mask width 2^M");
        assert!(K < S, "K = {K} does not fit {M} bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> Logic
    for SolverMoveCheck<W, K, M, S>
{
    fn update(&mut self) {
        let remaining = self.remaining.val().to_u64();
        let take = self.take.val().to_u64();
        let set = self.take_set.val().to_u64();
        let allowed = take >= 1 && take <= K as u64 && (set >> (take - 1)) & 1 == 1;
        self.legal.next = allowed && take <= remaining;
        let after = remaining.wrapping_sub(self.made.val().to_u64()) & ((1u64 << W) - 1);
        self.after.next = bits::<W>(after);
        self.ends.next = after < self.smallest.val().to_u64();
        self.empties.next = after == 0;
    }

    fn connect(&mut self) {
        self.legal.connect();
        self.after.connect();
        self.ends.connect();
        self.empties.connect();
    }

    fn hdl(&self) -> Verilog {
        // The take set as a mask indexed by the take itself: bit 0 (take 0) and the bits
        // above K are 0, so `allowed[take]` is the whole membership test.
        let pad = S - K - 1;
        let mask = if pad == 0 {
            "{take_set, 1'b0}".to_owned()
        } else {
            format!("{{{pad}'d0, take_set, 1'b0}}")
        };
        // Compare and subtract at max(W, M) bits with explicit zero-extension; a move that is
        // made is at most `remaining`, so the low W bits of the difference are the whole of it.
        let n = W.max(M);
        let ext = |name: &str, width: usize| {
            if width == n {
                name.to_owned()
            } else {
                format!("{{{}'d0, {name}}}", n - width)
            }
        };
        let (r, t, m, s) = (
            ext("remaining", W),
            ext("take", M),
            ext("made", M),
            ext("smallest", M),
        );
        let a = ext("after", W);
        let (diff_decl, diff_use) = if n == W {
            (String::new(), format!("{r} - {m}"))
        } else {
            (
                format!(
                    "/* verilator lint_off UNUSEDSIGNAL */\n\
                     wire [{top}:0] difference = {r} - {m};\n\
                     /* verilator lint_on UNUSEDSIGNAL */\n",
                    top = n - 1
                ),
                format!("difference[{}:0]", W - 1),
            )
        };
        Verilog::Custom(format!(
            "wire [{sm}:0] allowed = {mask};\n\
             {diff_decl}\
             always @(*) begin\n\
             \x20   legal = allowed[take] & ({t} <= {r});\n\
             \x20   after = {diff_use};\n\
             \x20   ends = {a} < {s};\n\
             \x20   empties = after == {zero};\n\
             end\n",
            sm = S - 1,
            zero = super::sized(W, 0),
        ))
    }
}

/// The controller playing from the on-chip solver (see the module docs). `W`: bits of the
/// count; `K`: the largest take; `M`: bits for `K`; `S = 2^M`.
#[derive(LogicBlock)]
pub struct SticksSolverGame<const W: usize, const K: usize, const M: usize, const S: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// The time base's tick: the think pause counts ticks.
    pub tick: Signal<In, Bit>,
    /// Synchronous reset, active high: samples the configuration and starts a solve, as
    /// `new_game`.
    pub reset: Signal<In, Bit>,
    /// Bit `i`: taking `i + 1` is allowed. Sampled with `new_game` or `reset`.
    pub take_set: Signal<In, Bits<K>>,
    /// Sticks at the start. Sampled with `new_game` or `reset`.
    pub count: Signal<In, Bits<W>>,
    /// 1: whoever takes the last stick wins; 0: loses. Sampled with `new_game` or `reset`.
    pub last_wins: Signal<In, Bit>,
    /// The machine moves first. Sampled with `new_game` or `reset`.
    pub machine_first: Signal<In, Bit>,
    /// One-cycle pulse: sample the configuration, solve, then start the game.
    pub new_game: Signal<In, Bit>,
    /// The human's move.
    pub take: Signal<In, Bits<M>>,
    /// One-cycle pulse: the human moves `take`.
    pub take_valid: Signal<In, Bit>,
    /// Sticks left (the count while solving).
    pub remaining: Signal<Out, Bits<W>>,
    /// Waiting for the human's move.
    pub human_turn: Signal<Out, Bit>,
    /// The machine's last move; 0 before its first.
    pub machine_take: Signal<Out, Bits<M>>,
    /// No game in progress (0 while solving).
    pub game_over: Signal<Out, Bit>,
    /// The human won (meaningful when `game_over`).
    pub human_won: Signal<Out, Bit>,
    /// One-cycle pulse: the move sampled at the last edge was refused.
    pub illegal: Signal<Out, Bit>,
    /// The solver is solving the sampled game; the game has not started.
    pub solving: Signal<Out, Bit>,
    /// The sampled count.
    pub game_count: Signal<Out, Bits<W>>,
    /// The sampled take set.
    pub game_take_set: Signal<Out, Bits<K>>,
    /// The sampled rule (1: the last stick wins).
    pub game_last_wins: Signal<Out, Bit>,
    solver: SticksSolver<W, K, M>,
    move_check: SolverMoveCheck<W, K, M, S>,
    smallest_of: SmallestTake<K, M>,
    timer: ThinkTimer,
    sticks_left: DFF<Bits<W>>,
    last_machine_take: DFF<Bits<M>>,
    waiting_for_human: DFF<Bit>,
    thinking: DFF<Bit>,
    won: DFF<Bit>,
    refused: DFF<Bit>,
    solving_game: DFF<Bit>,
    first: DFF<Bit>,
    sampled_count: DFF<Bits<W>>,
    sampled_take_set: DFF<Bits<K>>,
    sampled_last_wins: DFF<Bit>,
    smallest: DFF<Bits<M>>,
    no_take: Constant<Bits<M>>,
}

impl<const W: usize, const K: usize, const M: usize, const S: usize>
    SticksSolverGame<W, K, M, S>
{
    /// The controller, pausing `think_ticks` ticks before each machine move, `connect_all()`
    /// done.
    ///
    /// # Panics
    /// Unless `1 <= W <= 8`, `1 <= K <= 8`, `M` is the bits for `K` and `S = 2^M`.
    pub fn new(think_ticks: u64) -> Self {
        let mut block = Self {
            clock: Default::default(),
            tick: Default::default(),
            reset: Default::default(),
            take_set: Default::default(),
            count: Default::default(),
            last_wins: Default::default(),
            machine_first: Default::default(),
            new_game: Default::default(),
            take: Default::default(),
            take_valid: Default::default(),
            remaining: Default::default(),
            human_turn: Default::default(),
            machine_take: Default::default(),
            game_over: Default::default(),
            human_won: Default::default(),
            illegal: Default::default(),
            solving: Default::default(),
            game_count: Default::default(),
            game_take_set: Default::default(),
            game_last_wins: Default::default(),
            solver: SticksSolver::new(),
            move_check: SolverMoveCheck::new(),
            smallest_of: SmallestTake::new(),
            timer: ThinkTimer::new(think_ticks),
            sticks_left: Default::default(),
            last_machine_take: Default::default(),
            waiting_for_human: Default::default(),
            thinking: Default::default(),
            won: Default::default(),
            refused: Default::default(),
            solving_game: Default::default(),
            first: Default::default(),
            sampled_count: Default::default(),
            sampled_take_set: Default::default(),
            sampled_last_wins: Default::default(),
            smallest: Default::default(),
            no_take: Constant::new(bits::<M>(0)),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> Logic
    for SticksSolverGame<W, K, M, S>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sticks_left,
            last_machine_take,
            waiting_for_human,
            thinking,
            won,
            solving_game,
            first,
            sampled_count,
            sampled_take_set,
            sampled_last_wins,
            smallest
        );
        clock!(self, clock, refused, timer, solver);
        // The solver samples the configuration ports itself, at the edge that starts it.
        self.solver.reset.next = false;
        self.solver.start.next = self.reset.val() | self.new_game.val();
        self.solver.take_set.next = self.take_set.val();
        self.solver.count.next = self.count.val();
        self.solver.last_wins.next = self.last_wins.val();
        self.smallest_of.take_set.next = self.take_set.val();
        // The move check reads the registered position and game; the subtractor takes the
        // solver's move while the machine thinks, the human's otherwise.
        self.move_check.remaining.next = self.sticks_left.q.val();
        self.move_check.take.next = self.take.val();
        self.move_check.made.next = self.take.val();
        if self.thinking.q.val() {
            self.move_check.made.next = self.solver.query_take.val();
        }
        self.move_check.take_set.next = self.sampled_take_set.q.val();
        self.move_check.smallest.next = self.smallest.q.val();
        self.timer.tick.next = self.tick.val();
        self.timer.load.next = false;
        // Outputs: registers only.
        self.remaining.next = self.sticks_left.q.val();
        self.human_turn.next = self.waiting_for_human.q.val();
        self.machine_take.next = self.last_machine_take.q.val();
        self.game_over.next =
            !self.waiting_for_human.q.val() & !self.thinking.q.val() & !self.solving_game.q.val();
        self.human_won.next = self.won.q.val();
        self.illegal.next = self.refused.q.val();
        self.solving.next = self.solving_game.q.val();
        self.game_count.next = self.sampled_count.q.val();
        self.game_take_set.next = self.sampled_take_set.q.val();
        self.game_last_wins.next = self.sampled_last_wins.q.val();
        self.refused.d.next = false;
        if self.reset.val() | self.new_game.val() {
            // Sample the game and solve it; a move sampled at this edge is ignored.
            self.sampled_count.d.next = self.count.val();
            self.sampled_take_set.d.next = self.take_set.val();
            self.sampled_last_wins.d.next = self.last_wins.val();
            self.first.d.next = self.machine_first.val();
            self.smallest.d.next = self.smallest_of.smallest.val();
            self.sticks_left.d.next = self.count.val();
            self.last_machine_take.d.next = self.no_take.val();
            self.waiting_for_human.d.next = false;
            self.thinking.d.next = false;
            self.won.d.next = false;
            self.solving_game.d.next = true;
        } else if self.solving_game.q.val() {
            if self.solver.done.val() {
                // The start edge: the game starts as sticks_game starts one; the solver's
                // word is the count's. A move sampled at this edge is ignored.
                self.solving_game.d.next = false;
                self.timer.load.next = true;
                if self.solver.query_take.val() == self.no_take.val() {
                    // No move fits the count: the player to move is stuck and loses.
                    self.won.d.next = self.first.q.val();
                } else {
                    self.waiting_for_human.d.next = !self.first.q.val();
                    self.thinking.d.next = self.first.q.val();
                }
            } else {
                self.refused.d.next = self.take_valid.val();
            }
        } else if self.waiting_for_human.q.val() {
            if self.take_valid.val() {
                if self.move_check.legal.val() {
                    self.sticks_left.d.next = self.move_check.after.val();
                    self.waiting_for_human.d.next = false;
                    self.timer.load.next = true;
                    if self.move_check.ends.val() {
                        // The machine has no move: it wins only on an empty pile under
                        // last-loses.
                        self.thinking.d.next = false;
                        self.won.d.next =
                            !(!self.sampled_last_wins.q.val() & self.move_check.empties.val());
                    } else {
                        self.thinking.d.next = true;
                    }
                } else {
                    self.refused.d.next = true;
                }
            }
        } else if self.thinking.q.val() {
            self.refused.d.next = self.take_valid.val();
            if self.tick.val() & self.timer.done.val() {
                self.thinking.d.next = false;
                if self.solver.query_take.val() != self.no_take.val() {
                    self.sticks_left.d.next = self.move_check.after.val();
                    self.last_machine_take.d.next = self.solver.query_take.val();
                    if self.move_check.ends.val() {
                        // The human has no move: they win only on an empty pile under
                        // last-loses.
                        self.waiting_for_human.d.next = false;
                        self.won.d.next =
                            !self.sampled_last_wins.q.val() & self.move_check.empties.val();
                    } else {
                        self.waiting_for_human.d.next = true;
                    }
                } else {
                    // The solver gives no move: the machine is at an end position and the
                    // solver's verdict for it decides.
                    self.won.d.next = !self.solver.query_winning.val();
                }
            }
        } else {
            self.refused.d.next = self.take_valid.val();
        }
        // The solver reads the position being entered, so its word is there one edge later.
        self.solver.query.next = self.sticks_left.d.val();
    }
}
