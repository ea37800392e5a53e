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
//! The controller is [`super::sticks_game::SticksCore`]'s: the same play rules, written once in
//! [`super::sticks_game::play`], with run-time data in place of its build-time constants: the human's move is checked against the sampled take set
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

use rust_hdl::core::vcd_probe::VCDProbe;
use rust_hdl::prelude::*;

use super::settle;
use super::sticks_game::play::play_update;
use super::sticks_game::{SticksGameSim, ThinkTimer, SIM_CYCLE_PS};
pub use super::sticks_solver::{cycle_bound, solve_cycles};
use super::sticks_solver::{SolveRequest, SticksSolver, MAX_SOLVER_COUNT, MAX_SOLVER_TAKE};
use crate::game::{Last, SticksGame};
use crate::model::{Inputs, Outputs};
use crate::verilog::{emit, waive_declfilename, waive_unused, VerilogError};

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
            // A one-bit port has no bit select.
            let bit = if K == 1 {
                "take_set".to_owned()
            } else {
                format!("take_set[{i}]")
            };
            let _ = writeln!(
                code,
                "    if ({bit}) smallest = {};",
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

impl<const W: usize, const K: usize, const M: usize, const S: usize> SticksSolverGame<W, K, M, S> {
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
    // The solver samples the configuration ports itself, at the edge that starts it. The move
    // check reads the registered position and game; the subtractor takes the solver's move
    // while the machine thinks, the human's otherwise. The solver reads the position being
    // entered (after the state machine), so its word is there one edge later.
    play_update! {
        #[hdl_gen]
        fn update(&mut self);
        dffs: [
            solving_game,
            first,
            sampled_count,
            sampled_take_set,
            sampled_last_wins,
            smallest,
        ],
        clocked: [solver],
        wiring: {
            self.solver.reset.next = false;
            self.solver.start.next = self.reset.val() | self.new_game.val();
            self.solver.take_set.next = self.take_set.val();
            self.solver.count.next = self.count.val();
            self.solver.last_wins.next = self.last_wins.val();
            self.smallest_of.take_set.next = self.take_set.val();
        },
        machine_take: { self.solver.query_take.val() },
        checks: {
            self.move_check.take_set.next = self.sampled_take_set.q.val();
            self.move_check.smallest.next = self.smallest.q.val();
        },
        game_over: {
            !self.waiting_for_human.q.val() & !self.thinking.q.val() & !self.solving_game.q.val()
        },
        outputs: {
            self.solving.next = self.solving_game.q.val();
            self.game_count.next = self.sampled_count.q.val();
            self.game_take_set.next = self.sampled_take_set.q.val();
            self.game_last_wins.next = self.sampled_last_wins.q.val();
        },
        start: {
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
        },
        solving: { self.solving_game.q.val() } {
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
        },
        last_loses: { !self.sampled_last_wins.q.val() },
        machine_legal: { self.solver.query_take.val() != self.no_take.val() },
        machine_ends: { self.move_check.ends.val() },
        machine_empties: { self.move_check.empties.val() },
        machine_winning: { self.solver.query_winning.val() },
        after: {
            self.solver.query.next = self.sticks_left.d.val();
        },
    }
}

/// The game on the configuration ports: what [`SticksSolverGame`] samples at `new_game`.
pub fn game_request(game: &SticksGame) -> SolveRequest {
    SolveRequest {
        take_set: game.take().iter().fold(0u32, |set, &k| set | 1 << (k - 1)),
        count: game.count() as u32,
        last_wins: crate::game::Game::last(game) == Last::Wins,
    }
}

/// Drives a [`SticksSolverGame`] one clock cycle at a time, in process, with its configuration
/// ports held at one game (so that every `reset` or `new_game` solves and plays that game).
pub struct SolverGameSim<const W: usize, const K: usize, const M: usize, const S: usize> {
    block: SticksSolverGame<W, K, M, S>,
    vcd: Option<VCDProbe<Box<dyn std::io::Write>>>,
    time: u64,
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> SolverGameSim<W, K, M, S> {
    /// The controller pausing `think_ticks` ticks, its configuration ports set to `config`
    /// (bits above the ports' widths are dropped), at power-on.
    pub fn new(think_ticks: u64, config: SolveRequest) -> Self {
        let mut block = SticksSolverGame::<W, K, M, S>::new(think_ticks);
        block.take_set.next = bits::<K>(u64::from(config.take_set) & ((1 << K) - 1));
        block.count.next = bits::<W>(u64::from(config.count) & ((1 << W) - 1));
        block.last_wins.next = config.last_wins;
        block.tick.next = true;
        block.clock.next = Clock { clk: false };
        settle(&mut block);
        SolverGameSim {
            block,
            vcd: None,
            time: 0,
        }
    }

    /// The block (its outputs after the last edge).
    pub fn block(&self) -> &SticksSolverGame<W, K, M, S> {
        &self.block
    }

    /// One cycle with `tick` as given: the inputs are applied while the clock is low, then the
    /// clock rises; returns the outputs after the rising edge.
    pub fn step_with_tick(&mut self, inputs: &Inputs, tick: bool) -> Outputs {
        let b = &mut self.block;
        b.clock.next = Clock { clk: false };
        b.tick.next = tick;
        b.reset.next = inputs.reset;
        b.new_game.next = inputs.new_game;
        b.machine_first.next = inputs.machine_first;
        b.take.next = bits::<M>(u64::from(inputs.take) & ((1 << M) - 1));
        b.take_valid.next = inputs.take_valid;
        settle(&mut self.block);
        self.dump();
        self.time += SIM_CYCLE_PS / 2;
        self.block.clock.next = Clock { clk: true };
        settle(&mut self.block);
        self.dump();
        self.time += SIM_CYCLE_PS / 2;
        self.outputs()
    }

    /// The game outputs now.
    pub fn outputs(&self) -> Outputs {
        let b = &self.block;
        Outputs {
            remaining: b.remaining.val().to_u32(),
            human_turn: b.human_turn.val(),
            machine_take: b.machine_take.val().to_u32(),
            game_over: b.game_over.val(),
            human_won: b.human_won.val(),
            illegal: b.illegal.val(),
        }
    }

    /// The `solving` output now.
    pub fn solving(&self) -> bool {
        self.block.solving.val()
    }

    /// Starts a game with `start` (a `reset` or `new_game`), then clocks the idle circuit until
    /// the solve is done and the game has started, for at most `limit` edges after the start:
    /// the outputs at the start edge and the edges from the `new_game` edge to it (the solver's
    /// [`solve_cycles`] and one), or `None` if the game did not start.
    pub fn start_game(&mut self, start: &Inputs, limit: u64) -> Option<(Outputs, u64)> {
        let mut o = self.step_with_tick(start, true);
        for edges in 0..=limit {
            if !self.solving() {
                return Some((o, edges));
            }
            if edges < limit {
                o = self.step_with_tick(&Inputs::IDLE, true);
            }
        }
        None
    }

    fn dump(&mut self) {
        if let Some(mut vcd) = self.vcd.take() {
            let _ = vcd.timestamp(self.time);
            self.vcd = Some(write_vcd_change(vcd, &self.block));
        }
    }
}

impl<const W: usize, const K: usize, const M: usize, const S: usize> SticksGameSim
    for SolverGameSim<W, K, M, S>
{
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        self.step_with_tick(inputs, true)
    }

    fn trace(&mut self, writer: Box<dyn std::io::Write>) {
        self.vcd = Some(write_vcd_dump(
            write_vcd_header(writer, &self.block),
            &self.block,
        ));
    }

    fn finish_trace(&mut self) {
        self.vcd = None;
    }
}

/// The solver-game of the boards and of `play --solver onchip`: counts up to 255, takes up to 8.
pub type FullSolverGameSim = SolverGameSim<8, 8, 4, 16>;

/// Why a game cannot be played on the on-chip solver.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OnChipError {
    /// The count does not fit the solver.
    #[error(
        "--count {0} is too large for the on-chip solver, which holds counts up to \
         {MAX_SOLVER_COUNT}; pass --count 1..={MAX_SOLVER_COUNT}, or --solver software"
    )]
    Count(u64),
    /// A take does not fit the solver.
    #[error(
        "--take {0} is too large for the on-chip solver, which allows takes up to \
         {MAX_SOLVER_TAKE}; pass takes in 1..={MAX_SOLVER_TAKE}, or --solver software"
    )]
    Take(u64),
}

/// Checks that the on-chip solver can hold `game`.
pub fn check_on_chip(game: &SticksGame) -> Result<(), OnChipError> {
    if game.count() > MAX_SOLVER_COUNT {
        return Err(OnChipError::Count(game.count()));
    }
    if game.max_take() > MAX_SOLVER_TAKE {
        return Err(OnChipError::Take(game.max_take()));
    }
    Ok(())
}

/// The Verilog of the controller with the on-chip solver for counts up to `2^W - 1` and takes
/// up to `K` (module `sticks_solver_game`, with its `tick` port, submodules prefixed
/// `sticks_solver_game$`). The file waives two Verilator rules, exactly where they apply: the
/// file-name rule for the submodules, and the unused-signal rule for the solver outputs the
/// controller does not read (`busy`, `query_depth`).
pub fn sticks_solver_game_verilog<
    const W: usize,
    const K: usize,
    const M: usize,
    const S: usize,
>(
    think_ticks: u64,
) -> Result<String, VerilogError> {
    let verilog = emit(
        &SticksSolverGame::<W, K, M, S>::new(think_ticks),
        SOLVER_GAME_MODULE,
    )?;
    Ok(waive_unused(
        &waive_declfilename(&verilog),
        &["solver$busy", "solver$query_depth"],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::sequential::{sticks_stimulus, VerifyOptions};
    use crate::model::SticksGameModel;

    /// The block of the tests: counts up to 31, takes up to 4.
    type Small = SolverGameSim<5, 4, 3, 8>;

    /// A short stimulus for `game`: every game when there are few, and one short random run.
    fn short_options(think: u32) -> VerifyOptions {
        VerifyOptions {
            think_cycles: think,
            random_runs: 1,
            random_cycles: 300,
            max_exhaustive_games: 40,
            ..VerifyOptions::default()
        }
    }

    /// Runs `game`'s co-simulation stimulus on the block and on the model of `sticks_game`:
    /// each start (reset or `new_game`) is applied to the block, which solves for at most the
    /// solver's cycle bound and then starts the game on the edge where the model starts it;
    /// every other edge is the same on both. Asserts that the outputs agree on every edge from
    /// a start on, and returns the rows the block was driven with (tick, reset, take_set,
    /// count, last_wins, machine_first, new_game, take, take_valid), one per cycle.
    pub(super) fn play_like_the_model<
        const W: usize,
        const K: usize,
        const M: usize,
        const S: usize,
    >(
        game: &SticksGame,
        think: u32,
        inputs: &[Inputs],
    ) -> Vec<Vec<u64>> {
        let config = game_request(game);
        let mut sim = SolverGameSim::<W, K, M, S>::new(u64::from(think), config);
        let mut model = SticksGameModel::new(game, think);
        let bound = cycle_bound(game.count(), K as u64);
        let row = |i: &Inputs| {
            vec![
                1,
                u64::from(i.reset),
                u64::from(config.take_set),
                u64::from(config.count),
                u64::from(config.last_wins),
                u64::from(i.machine_first),
                u64::from(i.new_game),
                u64::from(i.take) & ((1 << M) - 1),
                u64::from(i.take_valid),
            ]
        };
        let mut rows = Vec::new();
        assert_eq!(sim.outputs(), model.outputs(), "{game:?}: power-on");
        for (cycle, i) in inputs.iter().enumerate() {
            let want = model.step(*i);
            if i.reset || i.new_game {
                let (got, cycles) = sim
                    .start_game(i, bound)
                    .unwrap_or_else(|| panic!("{game:?}: no game within {bound} cycles"));
                assert!(cycles <= bound, "{game:?}: {cycles} > {bound} cycles");
                assert_eq!(cycles, solve_cycles(game.count(), K as u64) + 1);
                rows.push(row(i));
                rows.extend((0..cycles).map(|_| row(&Inputs::IDLE)));
                assert_eq!(got, want, "{game:?}: start at stimulus cycle {cycle}");
                let b = sim.block();
                assert_eq!(
                    (
                        b.game_count.val().to_u32(),
                        b.game_take_set.val().to_u32(),
                        b.game_last_wins.val()
                    ),
                    (config.count, config.take_set, config.last_wins)
                );
            } else {
                let got = sim.step_with_tick(i, true);
                rows.push(row(i));
                assert_eq!(got, want, "{game:?}: stimulus cycle {cycle} {i:?}");
            }
        }
        rows
    }

    /// Every non-empty take set within {1,2,3,4}, both rules, counts 1..=20: after the solve,
    /// the game phase is the model's, edge by edge, and the solve is within the bound.
    #[test]
    fn plays_like_the_model_of_sticks_game() {
        for set in 1u32..16 {
            let take: Vec<u64> = (0..4)
                .filter(|i| set >> i & 1 == 1)
                .map(|i| i + 1)
                .collect();
            for last in [Last::Loses, Last::Wins] {
                for count in 1..=20 {
                    let game = SticksGame::new(count, &take, last).unwrap();
                    let think = (count % 3) as u32;
                    let s = sticks_stimulus(&game, &short_options(think));
                    play_like_the_model::<5, 4, 3, 8>(&game, think, &s.inputs);
                }
            }
        }
    }

    /// With no move at the start (count 0, a pile smaller than every take, or an empty take set)
    /// the game is over at the start edge, won by the human exactly when the machine was to
    /// move; a take is then refused.
    #[test]
    fn a_stuck_start_ends_the_game_at_once() {
        for (take_set, count, last_wins) in [(0b1111, 0, false), (0b1100, 2, true), (0, 9, false)] {
            for machine_first in [false, true] {
                let config = SolveRequest {
                    take_set,
                    count,
                    last_wins,
                };
                let mut sim = Small::new(0, config);
                let (o, cycles) = sim
                    .start_game(&Inputs::new_game(machine_first), cycle_bound(31, 4))
                    .expect("starts");
                assert_eq!(cycles, solve_cycles(u64::from(count), 4) + 1);
                let want = Outputs {
                    remaining: count,
                    game_over: true,
                    human_won: machine_first,
                    ..Outputs::default()
                };
                assert_eq!(o, want, "{config}, machine first {machine_first}");
                let o = sim.step(&Inputs::take(1));
                assert!(o.illegal && o.game_over, "{config}");
            }
        }
    }

    /// While solving: not over, nobody's turn, the count shown, a take refused; a `new_game`
    /// during the solve restarts it with the configuration then on the ports.
    #[test]
    fn solving_shows_the_count_and_refuses_moves() {
        let game = SticksGame::new(13, &[2, 3], Last::Wins).unwrap();
        let mut sim = Small::new(1, game_request(&game));
        let o = sim.step(&Inputs::new_game(false));
        assert!(sim.solving());
        assert_eq!(
            o,
            Outputs {
                remaining: 13,
                ..Outputs::default()
            }
        );
        let o = sim.step(&Inputs::take(2));
        assert!(o.illegal && !o.game_over && !o.human_turn && sim.solving());
        let o = sim.step(&Inputs::IDLE);
        assert!(!o.illegal);
        let (o, cycles) = sim
            .start_game(&Inputs::new_game(false), cycle_bound(13, 4))
            .expect("starts");
        assert_eq!(cycles, solve_cycles(13, 4) + 1);
        assert!(o.human_turn && !sim.solving());
        assert_eq!(o.remaining, 13);
    }

    /// The tick is the time base: with a tick every third cycle the machine answers after
    /// `think` ticks, not cycles.
    #[test]
    fn the_think_pause_counts_ticks() {
        let game = SticksGame::new(10, &[1, 2, 3], Last::Loses).unwrap();
        let mut sim = Small::new(2, game_request(&game));
        let (o, _) = sim
            .start_game(&Inputs::new_game(false), cycle_bound(10, 4))
            .unwrap();
        assert!(o.human_turn);
        sim.step_with_tick(&Inputs::take(1), false);
        let mut cycles = 0;
        loop {
            cycles += 1;
            let o = sim.step_with_tick(&Inputs::IDLE, cycles % 3 == 0);
            if o.human_turn {
                // The machine moved from 9 sticks.
                assert!(o.remaining < 9 && o.machine_take == 9 - o.remaining);
                break;
            }
            assert!(cycles < 20);
        }
        // Ticks at cycles 3, 6 and 9: the timer (loaded with 2) is done after the second,
        // and the machine moves at the third.
        assert_eq!(cycles, 9);
    }

    #[test]
    fn the_smallest_take_is_the_lowest_set_bit() {
        let mut e = SmallestTake::<8, 4>::new();
        for set in 0u64..256 {
            e.take_set.next = bits::<8>(set);
            settle(&mut e);
            let want = if set == 0 {
                0
            } else {
                set.trailing_zeros() + 1
            };
            assert_eq!(e.smallest.val().to_u64(), u64::from(want));
        }
    }

    #[test]
    fn games_the_solver_cannot_hold_are_refused_naming_the_flag() {
        let e = check_on_chip(&SticksGame::new(256, &[1, 2], Last::Loses).unwrap()).unwrap_err();
        assert!(e.to_string().contains("--count 256"), "{e}");
        let e = check_on_chip(&SticksGame::new(20, &[1, 9], Last::Loses).unwrap()).unwrap_err();
        assert!(e.to_string().contains("--take 9"), "{e}");
        assert!(check_on_chip(&SticksGame::new(255, &[8], Last::Wins).unwrap()).is_ok());
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::bench::sequential::{sticks_stimulus, VerifyOptions};
    use crate::circuit::sim::trace::{port, TraceBench};
    use crate::flow::testing::work_dir;

    type Small = SticksSolverGame<5, 4, 3, 8>;

    fn apply(b: &mut Small, r: &[u64]) {
        b.tick.next = r[0] != 0;
        b.reset.next = r[1] != 0;
        b.take_set.next = bits::<4>(r[2]);
        b.count.next = bits::<5>(r[3]);
        b.last_wins.next = r[4] != 0;
        b.machine_first.next = r[5] != 0;
        b.new_game.next = r[6] != 0;
        b.take.next = bits::<3>(r[7]);
        b.take_valid.next = r[8] != 0;
    }

    fn sample(b: &Small) -> Vec<u64> {
        vec![
            b.remaining.val().to_u64(),
            u64::from(b.human_turn.val()),
            b.machine_take.val().to_u64(),
            u64::from(b.game_over.val()),
            u64::from(b.human_won.val()),
            u64::from(b.illegal.val()),
            u64::from(b.solving.val()),
            b.game_count.val().to_u64(),
            b.game_take_set.val().to_u64(),
            u64::from(b.game_last_wins.val()),
        ]
    }

    fn bench() -> TraceBench<Small> {
        TraceBench {
            module: SOLVER_GAME_MODULE.into(),
            clock_name: "clock".into(),
            clock: |b: &mut Small| &mut b.clock,
            inputs: vec![
                port("tick", 1),
                port("reset", 1),
                port("take_set", 4),
                port("count", 5),
                port("last_wins", 1),
                port("machine_first", 1),
                port("new_game", 1),
                port("take", 3),
                port("take_valid", 1),
            ],
            outputs: vec![
                port("remaining", 5),
                port("human_turn", 1),
                port("machine_take", 3),
                port("game_over", 1),
                port("human_won", 1),
                port("illegal", 1),
                port("solving", 1),
                port("game_count", 5),
                port("game_take_set", 4),
                port("game_last_wins", 1),
            ],
            apply,
            sample,
            switches: vec![],
        }
    }

    /// The emitted Verilog, under Icarus and as a synthesised iCE40 netlist, plays like
    /// rust-hdl cycle by cycle on the stimulus with which rust-hdl played like the model of
    /// `sticks_game`: several games in one run, the configuration changed between them (take
    /// sets {2,3}, {1,2,3}, {1,4}, {3}, both rules, think 0 to 2).
    #[test]
    fn the_emitted_verilog_plays_like_the_model() {
        let dir = work_dir("solver-game-verilog");
        for think in 0..=2u32 {
            let games = [
                SticksGame::new(13, &[2, 3], Last::Wins).unwrap(),
                SticksGame::new(20, &[1, 2, 3], Last::Loses).unwrap(),
                SticksGame::new(17, &[1, 4], Last::Wins).unwrap(),
                SticksGame::new(7, &[3], Last::Loses).unwrap(),
            ];
            let mut rows = Vec::new();
            for game in &games {
                let options = VerifyOptions {
                    think_cycles: think,
                    random_runs: 1,
                    random_cycles: 200,
                    max_exhaustive_games: 12,
                    ..VerifyOptions::default()
                };
                let s = sticks_stimulus(game, &options);
                rows.extend(super::tests::play_like_the_model::<5, 4, 3, 8>(
                    game, think, &s.inputs,
                ));
            }
            let sub = dir.path().join(format!("think-{think}"));
            std::fs::create_dir_all(&sub).unwrap();
            let verilog = sticks_solver_game_verilog::<5, 4, 3, 8>(u64::from(think)).unwrap();
            let block = Small::new(u64::from(think));
            if think == 1 {
                bench().compare_with_gates(block, &verilog, &rows, &sub);
            } else {
                bench().compare(block, &verilog, &rows, &sub);
            }
        }
    }

    /// `verilator --lint-only -Wall` passes on the emitted block for every width relation
    /// (W > M, W = M, W < M, one-bit ports) as it is: its waivers are in the file.
    #[test]
    fn the_emitted_block_passes_verilator_lint() {
        let dir = work_dir("solver-game-lint");
        let cases = [
            (
                "8-8",
                sticks_solver_game_verilog::<8, 8, 4, 16>(500).unwrap(),
            ),
            ("2-3", sticks_solver_game_verilog::<2, 3, 2, 4>(0).unwrap()),
            ("1-8", sticks_solver_game_verilog::<1, 8, 4, 16>(1).unwrap()),
            ("1-1", sticks_solver_game_verilog::<1, 1, 1, 2>(3).unwrap()),
        ];
        for (name, v) in cases {
            let sub = dir.path().join(name);
            std::fs::create_dir_all(&sub).unwrap();
            let path = sub.join("sticks_solver_game.v");
            // The waivers sit right around the two declarations.
            let lines: Vec<&str> = v.lines().collect();
            for unused in ["busy", "query_depth"] {
                let end = format!(" solver${unused};");
                let at = lines
                    .iter()
                    .position(|l| l.trim_start().starts_with("wire") && l.ends_with(&end))
                    .unwrap_or_else(|| panic!("{name}: no solver${unused}:\n{v}"));
                assert!(
                    lines[at - 1].contains("lint_off UNUSEDSIGNAL"),
                    "{name}: {unused}"
                );
                assert!(
                    lines[at + 1].contains("lint_on UNUSEDSIGNAL"),
                    "{name}: {unused}"
                );
            }
            std::fs::write(&path, v).unwrap();
            crate::flow::verilator::lint(&sub, &[path], SOLVER_GAME_MODULE)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
