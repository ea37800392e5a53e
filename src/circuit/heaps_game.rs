//! `heaps_game`: the two-heap KEGE game (exam tasks 19-21) played on the chip. The rules
//! (allowed moves, target, rule), the start heaps and who moves first are set at run time on
//! its inputs; a `new_game` pulse samples them, the [`HeapsSolver`] inside solves the game into
//! block RAM, and then the controller plays it: the person's moves come in on `heap`,
//! `move_index` and a `move_valid` pulse, the machine's are read from the solver's query port
//! after a think pause counted in ticks of a time base ([`ThinkTimer`], as `sticks_game` has).
//!
//! ```text
//!                      +------------------------------------------+
//!   clock ------------>|  HeapsGame<W, D, A, M, B, H>             |---> heap_a[H]
//!   tick ------------->|                                          |---> heap_b[H]
//!   reset ------------>|   solver: HeapsSolver<W, D, A, M, B>     |---> human_turn
//!   adds[A] ---------->|     (query = the position being entered) |---> machine_heap
//!   muls[M] ---------->|   timer: ThinkTimer (think pause)        |---> machine_move[B]
//!   target[W] -------->|                                          |---> solving
//!   last_wins -------->|                                          |---> game_over
//!   start_a[W] ------->|                                          |---> human_won
//!   start_b[W] ------->|                                          |---> illegal
//!   machine_first ---->|                                          |
//!   new_game --------->|                                          |
//!   heap ------------->|                                          |
//!   move_index[B] ---->|                                          |
//!   move_valid ------->|                                          |---> probe_winning
//!   probe ------------>|                                          |---> probe_depth[D]
//!   probe_a[W] ------->|                                          |---> probe_blunder
//!   probe_b[W] ------->|                                          |
//!                      +------------------------------------------+
//! ```
//!
//! W, D, A, M, B are the solver's (W = bits for the largest target T, D = W + 1, A the largest
//! addition, M the number of multiplications, B = bits for `A + M - 1`); H = W + 2, the heaps'
//! width: a heap below the target grows by at most `x*4` on the move that ends the game, and the
//! heaps show the final position. Every port is synchronous and active high; every output is a
//! register.
//!
//! # Cycle by cycle
//! * Power-on: every register 0: no game (`game_over` = 1, heaps 0).
//! * `reset` or `new_game` at an edge (the same thing): `adds`, `muls`, `target`, `last_wins`,
//!   `start_a`, `start_b` and `machine_first` are sampled, the solver starts, `solving` rises,
//!   the heaps show the start, every other output is 0. A `move_valid` at this edge is ignored.
//! * While `solving`: a `move_valid` is refused (`illegal` rises); a new `new_game` restarts.
//! * The edge after the solver's `done` rises ("the start edge", the [`solve_cycles`]` + 1`-th
//!   edge counting the `new_game` edge): `solving` falls and the game starts: the person's turn, or the
//!   machine's with `machine_first`. A start outside the game (a heap of 0, or a sum already at
//!   the target) ends it at once with `illegal` = 1 and `human_won` = 0 (otherwise `illegal`
//!   falls); with no move allowed the player to move is stuck and loses: over at once,
//!   `human_won` = `machine_first`.
//! * The person's turn (`human_turn`): a `move_valid` with a legal move (`move_index` below
//!   `A + M`, that move allowed, and the heap changed by it) applies it and clears `illegal`;
//!   if the heaps then sum to at least the target the game is over and `human_won` =
//!   `last_wins`, else the machine thinks (the timer starts). An illegal move sets `illegal`,
//!   which stays up until the next legal move or new game; the position does not change.
//! * The machine's turn: once the timer is done (`think_ticks` ticks of `tick` after it
//!   started; with 0, at the edge after the turn began) the machine makes the solver's chosen
//!   move at the position, shown on `machine_heap` / `machine_move` until its next move; the
//!   game is over if the sum reaches the target (`human_won` = not `last_wins`), else it is the
//!   person's turn. A `move_valid` meanwhile is refused.
//! * Game over: a `move_valid` is refused.
//! * The probe: while no game is in progress (`game_over`, and no `new_game` or `reset` at the
//!   edge), `probe` high makes the solver read (`probe_a`, `probe_b`) at the edge instead of the
//!   position, and `probe_winning`/`probe_depth`/`probe_blunder` show that word after it: the
//!   table of the last solve, for the answers of the exam ([`super::heaps_answers`]). Outside those times, and with
//!   `probe` low, they show the word of the position being played. Tie `probe` low for the plain
//!   controller.
//!
//! The machine's move is exactly `heaps_solver`'s (the software solver's chosen move with the
//! moves in the fixed order `x+1, ..., x+A, x*2, ..., x*(M+1)`: the winner fastest, the loser
//! longest, ties to the earliest move, the first heap's before the second's).
//!
//! # How
//! One mover serves both players: the heap and move index (the person's, or the solver's
//! `query_heap`/`query_move` while the machine thinks) select a heap, apply the move to it and
//! compare the new sum with the target. It reads the heaps' low W bits: a move is made only
//! below the target, where both heaps are at least 1 and below 2^W, so every allowed move
//! changes its heap and the mover need not compare the result with the heap. The solver's read is registered, so its query is the
//! position being entered (the next state of the heap registers): the word of a new position is
//! read at the edge that enters it and is there one edge later, in time for a machine that
//! answers at once. During the solve the query is the start, so its word is there at the start
//! edge.
//!
//! # The compact controller
//! [`HeapsGame::compact`] has the same ports for a parent that holds the rules from `new_game`
//! until the game is over (the Go Board's pages): it reads them live instead of keeping
//! copies, and its solver ([`HeapsSolver::compact`]) lends it the successor unit of its stage
//! 1, idle in play, in place of the mover above.
//!
//! `update()` (rust-hdl's simulation) and `hdl()` (the Verilog, written by hand) are separate
//! code; the tests play whole games on both against the software solver.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::heaps_solver::{check_heaps_size, HeapsRequest, HeapsSolver, HeapsSolverError};
pub use super::heaps_solver::{cycle_bound, solve_cycles};
use super::sticks_game::ThinkTimer;
use super::sticks_solver::bits_for;
use crate::verilog::{emit, waive_declfilename, waive_unused};

/// Module name of the emitted heap-game controller.
pub const HEAPS_GAME_MODULE: &str = "heaps_game";

/// The controller's registers, as `update()` models them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct State {
    a: u32,
    b: u32,
    allowed: u32,
    target: u32,
    last_wins: bool,
    first: bool,
    solving: bool,
    human: bool,
    thinking: bool,
    won: bool,
    refused: bool,
    m_heap: bool,
    m_move: u32,
}

/// The heap-game controller with the on-chip solver (see the module docs).
#[derive(LogicBlock)]
pub struct HeapsGame<
    const W: usize,
    const D: usize,
    const A: usize,
    const M: usize,
    const B: usize,
    const H: usize,
> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// The time base's tick: the think pause counts ticks.
    pub tick: Signal<In, Bit>,
    /// Synchronous reset, active high: samples the game and starts a solve, as `new_game`.
    pub reset: Signal<In, Bit>,
    /// Bit `i`: the move `x+(i+1)` is allowed. Sampled with `new_game` or `reset`.
    pub adds: Signal<In, Bits<A>>,
    /// Bit `i`: the move `x*(i+2)` is allowed. Sampled with `new_game` or `reset`.
    pub muls: Signal<In, Bits<M>>,
    /// The game ends when the heaps sum to at least `target`. Sampled with `new_game`.
    pub target: Signal<In, Bits<W>>,
    /// 1: whoever reaches the target wins; 0: loses. Sampled with `new_game`.
    pub last_wins: Signal<In, Bit>,
    /// The first heap at the start. Sampled with `new_game`.
    pub start_a: Signal<In, Bits<W>>,
    /// The second heap at the start. Sampled with `new_game`.
    pub start_b: Signal<In, Bits<W>>,
    /// The machine moves first. Sampled with `new_game`.
    pub machine_first: Signal<In, Bit>,
    /// One-cycle pulse: sample the game, solve it, then start it.
    pub new_game: Signal<In, Bit>,
    /// The person's move: 0 the first heap, 1 the second.
    pub heap: Signal<In, Bit>,
    /// The person's move: its index in `x+1, ..., x+A, x*2, ..., x*(M+1)`.
    pub move_index: Signal<In, Bits<B>>,
    /// One-cycle pulse: the person makes the move on `heap` and `move_index`.
    pub move_valid: Signal<In, Bit>,
    /// Read the solved table at (`probe_a`, `probe_b`) instead of the position: honoured only
    /// while no game is in progress (`game_over`, not at a `new_game` or `reset` edge); tie it
    /// low for the plain controller.
    pub probe: Signal<In, Bit>,
    /// The first heap of the position `probe` reads.
    pub probe_a: Signal<In, Bits<W>>,
    /// The second heap of the position `probe` reads.
    pub probe_b: Signal<In, Bits<W>>,
    /// The first heap.
    pub heap_a: Signal<Out, Bits<H>>,
    /// The second heap.
    pub heap_b: Signal<Out, Bits<H>>,
    /// Waiting for the person's move.
    pub human_turn: Signal<Out, Bit>,
    /// The heap of the machine's last move (0 before its first).
    pub machine_heap: Signal<Out, Bit>,
    /// The index of the machine's last move (0 before its first).
    pub machine_move: Signal<Out, Bits<B>>,
    /// The solver is solving the sampled game; the game has not started.
    pub solving: Signal<Out, Bit>,
    /// No game in progress (0 while solving).
    pub game_over: Signal<Out, Bit>,
    /// The person won (meaningful when `game_over`).
    pub human_won: Signal<Out, Bit>,
    /// The last move input was refused (or the start is outside the game); cleared by a legal
    /// move or a new game.
    pub illegal: Signal<Out, Bit>,
    /// The table's word for the position the solver read at the last edge (`probe_a`,
    /// `probe_b` when probing): the player to move there wins.
    pub probe_winning: Signal<Out, Bit>,
    /// The same word's depth.
    pub probe_depth: Signal<Out, Bits<D>>,
    /// The same word's blunder bit: some move there lets the opponent win with their next move.
    pub probe_blunder: Signal<Out, Bit>,
    solver: HeapsSolver<W, D, A, M, B>,
    timer: ThinkTimer,
    /// [`HeapsGame::compact`]: the rules read live, the moves made by the solver's unit.
    _compact: bool,
    _state: State,
}

impl<
        const W: usize,
        const D: usize,
        const A: usize,
        const M: usize,
        const B: usize,
        const H: usize,
    > HeapsGame<W, D, A, M, B, H>
{
    /// The controller, pausing `think_ticks` ticks before each machine move, `connect_all()`
    /// done.
    ///
    /// # Panics
    /// Unless the solver's sizes hold ([`HeapsSolver::new`]) and `H = W + 2`.
    pub fn new(think_ticks: u64) -> Self {
        Self::build(think_ticks, false)
    }

    /// The compact controller, for a parent that holds the rules for the whole game: from
    /// the `new_game` edge until the game is over, `adds`, `muls`, `target`, `last_wins` and
    /// `machine_first` do not change (the Go Board's pages, which edit them only between
    /// games). It reads them live instead of keeping copies, and its solver is
    /// [`HeapsSolver::compact`], whose successor unit (idle in play) makes the moves in place
    /// of the controller's own mover. Same ports; under that condition, the same behaviour.
    ///
    /// # Panics
    /// As [`Self::new`].
    pub fn compact(think_ticks: u64) -> Self {
        Self::build(think_ticks, true)
    }

    fn build(think_ticks: u64, compact: bool) -> Self {
        assert_eq!(H, W + 2, "H must be W + 2");
        let mut block = Self {
            clock: Default::default(),
            tick: Default::default(),
            reset: Default::default(),
            adds: Default::default(),
            muls: Default::default(),
            target: Default::default(),
            last_wins: Default::default(),
            start_a: Default::default(),
            start_b: Default::default(),
            machine_first: Default::default(),
            new_game: Default::default(),
            heap: Default::default(),
            move_index: Default::default(),
            move_valid: Default::default(),
            probe: Default::default(),
            probe_a: Default::default(),
            probe_b: Default::default(),
            heap_a: Default::default(),
            heap_b: Default::default(),
            human_turn: Default::default(),
            machine_heap: Default::default(),
            machine_move: Default::default(),
            solving: Default::default(),
            game_over: Default::default(),
            human_won: Default::default(),
            illegal: Default::default(),
            probe_winning: Default::default(),
            probe_depth: Default::default(),
            probe_blunder: Default::default(),
            solver: if compact {
                HeapsSolver::compact()
            } else {
                HeapsSolver::new()
            },
            timer: ThinkTimer::new(think_ticks),
            _compact: compact,
            _state: State::default(),
        };
        block.connect_all();
        block
    }

    /// The mover's heap and move index: the machine's move while it thinks, the person's
    /// otherwise.
    fn mover_move(&self) -> (bool, u32) {
        if self._state.thinking {
            (
                self.solver.query_heap.val(),
                self.solver.query_move.val().to_u64() as u32,
            )
        } else {
            (self.heap.val(), self.move_index.val().to_u64() as u32)
        }
    }

    /// The registers after the next edge, and whether the timer is loaded at it, from the
    /// registers, the inputs and the sub-blocks' outputs now.
    fn next_state(&self) -> (State, bool) {
        let mut s = self._state;
        if self._compact {
            // The rules are wires of the inputs, not registers.
            s.allowed = (self.muls.val().to_u64() as u32) << A | self.adds.val().to_u64() as u32;
            s.target = self.target.val().to_u64() as u32;
            s.last_wins = self.last_wins.val();
            s.first = self.machine_first.val();
        }
        let h_mask = (1u32 << H) - 1;
        let mut n = s;
        let mut load = false;
        let (heap, index) = self.mover_move();
        // Moves are made below the target, where both heaps fit W bits and are at least 1:
        // the mover reads W bits, and every allowed move changes its heap.
        let w_mask = (1u32 << W) - 1;
        let (x, other) = if heap {
            (s.b & w_mask, s.a & w_mask)
        } else {
            (s.a & w_mask, s.b & w_mask)
        };
        let j = index as usize;
        let (mut result, in_set) = if j < A {
            ((x + index + 1) & h_mask, s.allowed >> j & 1 == 1)
        } else if j < A + M {
            (
                (x * (index - A as u32 + 2)) & h_mask,
                s.allowed >> j & 1 == 1,
            )
        } else {
            (x, false)
        };
        let legal = in_set;
        let mut ends = result + other >= s.target;
        if self._compact {
            // The solver's successor unit makes the move (the same sum: it reads the same
            // heaps, move and target).
            result = (self.solver.mover_high.val().to_u64() as u32) << W
                | self.solver.mover_low.val().to_u64() as u32;
            ends = self.solver.mover_ends.val();
        }
        let (a_moved, b_moved) = if heap { (s.a, result) } else { (result, s.b) };
        let move_valid = self.move_valid.val();
        if self.reset.val() || self.new_game.val() {
            n = State {
                a: self.start_a.val().to_u64() as u32,
                b: self.start_b.val().to_u64() as u32,
                allowed: (self.muls.val().to_u64() as u32) << A | self.adds.val().to_u64() as u32,
                target: self.target.val().to_u64() as u32,
                last_wins: self.last_wins.val(),
                first: self.machine_first.val(),
                solving: true,
                ..State::default()
            };
        } else if s.solving {
            if self.solver.done.val() {
                n.solving = false;
                load = true;
                let bad_start = s.a == 0 || s.b == 0 || s.a + s.b >= s.target;
                n.refused = bad_start;
                // A bad start is over at once, the person not the winner.
                if !bad_start && s.allowed == 0 {
                    n.won = s.first;
                } else if !bad_start {
                    n.human = !s.first;
                    n.thinking = s.first;
                }
            } else if move_valid {
                n.refused = true;
            }
        } else if s.human {
            if move_valid {
                if legal {
                    n.a = a_moved;
                    n.b = b_moved;
                    n.refused = false;
                    n.human = false;
                    if ends {
                        n.won = s.last_wins;
                    } else {
                        n.thinking = true;
                        load = true;
                    }
                } else {
                    n.refused = true;
                }
            }
        } else {
            if move_valid {
                n.refused = true;
            }
            if s.thinking && self.timer.done.val() {
                n.a = a_moved;
                n.b = b_moved;
                n.m_heap = heap;
                n.m_move = index;
                n.thinking = false;
                if ends {
                    n.won = !s.last_wins;
                } else {
                    n.human = true;
                }
            }
        }
        (n, load)
    }

    /// The module's Verilog; `compact` as [`Self::compact`].
    fn body(compact: bool) -> String {
        let j = A + M;
        let wm = W - 1;
        let hm = H - 1;
        let bm = B - 1;
        let jm = j - 1;
        let mut cases = String::new();
        for i in 0..j {
            let value = if i < A {
                format!("x + {H}'d{}", i + 1)
            } else {
                format!("x * {H}'d{}", i - A + 2)
            };
            let result = if compact {
                String::new()
            } else {
                format!("result = {value}; ")
            };
            let _ = writeln!(
                cases,
                "        {B}'d{i}: begin {result}in_set = allowed[{i}]; end"
            );
        }
        let default = match (j < 1 << B, compact) {
            (false, _) => "",
            (true, false) => "        default: begin result = x; in_set = 1'b0; end\n",
            (true, true) => "        default: begin in_set = 1'b0; end\n",
        };
        let rules = if compact {
            format!(
                "\
// The game's rules: the parent holds them from new_game until the game is over.
wire [{jm}:0] allowed = {{muls, adds}};
wire [{wm}:0] target_r = target;
wire last_r = last_wins;
wire first_r = machine_first;"
            )
        } else {
            format!(
                "\
// The game: sampled at new_game (or reset).
reg [{jm}:0] allowed;
reg [{wm}:0] target_r;
reg last_r;
reg first_r;"
            )
        };
        let rules_init = if compact {
            ""
        } else {
            "
    allowed = {j}'d0;
    target_r = {W}'d0;
    last_r = 1'b0;
    first_r = 1'b0;"
        }
        .replace("{j}", &j.to_string())
        .replace("{W}", &W.to_string());
        let sample = if compact {
            ""
        } else {
            "
    if (starting) begin
        allowed <= {muls, adds};
        target_r <= target;
        last_r <= last_wins;
        first_r <= machine_first;
    end"
        };
        // The move's index decoded: whether it is allowed (and, in the plain mover, its result).
        let decode = format!(
            "\
reg in_set;
always @(*) begin
    case (mover_index)
{cases}{default}    endcase
end
wire legal = in_set;"
        );
        let mover = if compact {
            format!(
                "\
// The solver's successor unit (idle in play) makes the move.
wire [{hm}:0] result = {{solver$mover_high, solver$mover_low}};
{decode}
wire ends = solver$mover_ends;"
            )
        } else {
            format!(
                "\
// Moves are made below the target, where both heaps fit {W} bits and are at least 1: the mover
// reads {W} bits, and every allowed move changes its heap.
wire [{wm}:0] x_low = mover_heap ? b[{wm}:0] : a[{wm}:0];
wire [{wm}:0] other_low = mover_heap ? a[{wm}:0] : b[{wm}:0];
wire [{hm}:0] x = {{2'd0, x_low}};
wire [{hm}:0] other = {{2'd0, other_low}};
reg [{hm}:0] result;
{decode}
wire [{H}:0] total = {{1'b0, result}} + {{1'b0, other}};
wire [{H}:0] target_x = {{{pad}'d0, target_r}};
wire ends = (total >= target_x);",
                pad = H + 1 - W
            )
        };
        let lend = if compact {
            format!(
                "
    solver$mover_heap = mover_heap;
    solver$mover_a = a[{wm}:0];
    solver$mover_b = b[{wm}:0];
    solver$mover_index = mover_index;"
            )
        } else {
            String::new()
        };
        format!(
            "\
{rules}
// The position and the phase (over when neither solving, the person's turn nor thinking).
reg [{hm}:0] a;
reg [{hm}:0] b;
reg solving_r;
reg human_r;
reg thinking_r;
reg won_r;
reg refused_r;
reg m_heap_r;
reg [{bm}:0] m_move_r;
initial begin{rules_init}
    a = {H}'d0;
    b = {H}'d0;
    solving_r = 1'b0;
    human_r = 1'b0;
    thinking_r = 1'b0;
    won_r = 1'b0;
    refused_r = 1'b0;
    m_heap_r = 1'b0;
    m_move_r = {B}'d0;
end
// The mover: the machine's move (the solver's word) while it thinks, the person's otherwise.
wire starting = reset | new_game;
wire mover_heap = thinking_r ? solver$query_heap : heap;
wire [{bm}:0] mover_index = thinking_r ? solver$query_move : move_index;
{mover}
wire [{hm}:0] a_moved = mover_heap ? a : result;
wire [{hm}:0] b_moved = mover_heap ? result : b;
// While solving the heaps hold the start, {W} bits.
wire [{W}:0] start_sum = {{1'b0, a[{wm}:0]}} + {{1'b0, b[{wm}:0]}};
wire bad_start = (a[{wm}:0] == {W}'d0) | (b[{wm}:0] == {W}'d0) | (start_sum >= {{1'b0, target_r}});
// The next state.
reg [{hm}:0] a_n;
reg [{hm}:0] b_n;
reg solving_n;
reg human_n;
reg thinking_n;
reg won_n;
reg refused_n;
reg m_heap_n;
reg [{bm}:0] m_move_n;
reg load;
always @(*) begin
    a_n = a;
    b_n = b;
    solving_n = solving_r;
    human_n = human_r;
    thinking_n = thinking_r;
    won_n = won_r;
    refused_n = refused_r;
    m_heap_n = m_heap_r;
    m_move_n = m_move_r;
    load = 1'b0;
    if (starting) begin
        a_n = {{2'd0, start_a}};
        b_n = {{2'd0, start_b}};
        solving_n = 1'b1;
        human_n = 1'b0;
        thinking_n = 1'b0;
        won_n = 1'b0;
        refused_n = 1'b0;
        m_heap_n = 1'b0;
        m_move_n = {B}'d0;
    end else if (solving_r) begin
        if (solver$done) begin
            solving_n = 1'b0;
            load = 1'b1;
            refused_n = bad_start;
            if (~bad_start & (allowed == {j}'d0)) begin
                won_n = first_r;
            end
            if (~bad_start & (allowed != {j}'d0)) begin
                human_n = ~first_r;
                thinking_n = first_r;
            end
        end else if (move_valid) begin
            refused_n = 1'b1;
        end
    end else if (human_r) begin
        if (move_valid) begin
            if (legal) begin
                a_n = a_moved;
                b_n = b_moved;
                refused_n = 1'b0;
                human_n = 1'b0;
                if (ends) begin
                    won_n = last_r;
                end else begin
                    thinking_n = 1'b1;
                    load = 1'b1;
                end
            end else begin
                refused_n = 1'b1;
            end
        end
    end else begin
        if (move_valid) begin
            refused_n = 1'b1;
        end
        if (thinking_r & timer$done) begin
            a_n = a_moved;
            b_n = b_moved;
            m_heap_n = mover_heap;
            m_move_n = mover_index;
            thinking_n = 1'b0;
            if (ends) begin
                won_n = ~last_r;
            end else begin
                human_n = 1'b1;
            end
        end
    end
end

always @(posedge clock) begin{sample}
    a <= a_n;
    b <= b_n;
    solving_r <= solving_n;
    human_r <= human_n;
    thinking_r <= thinking_n;
    won_r <= won_n;
    refused_r <= refused_n;
    m_heap_r <= m_heap_n;
    m_move_r <= m_move_n;
end

// The solver reads the position being entered, or the probe's while no game is in progress;
// the timer counts the think pause.
wire probing = probe & ~(starting | solving_r | human_r | thinking_r);
always @(*) begin
    solver$clock = clock;
    solver$reset = 1'b0;
    solver$adds = adds;
    solver$muls = muls;
    solver$target = target;
    solver$last_wins = last_wins;
    solver$start = starting;
    solver$query_a = probing ? probe_a : a_n[{wm}:0];
    solver$query_b = probing ? probe_b : b_n[{wm}:0];{lend}
    timer$clock = clock;
    timer$load = load;
    timer$tick = tick;
end

always @(*) begin
    heap_a = a;
    heap_b = b;
    human_turn = human_r;
    machine_heap = m_heap_r;
    machine_move = m_move_r;
    solving = solving_r;
    game_over = ~(solving_r | human_r | thinking_r);
    human_won = won_r;
    illegal = refused_r;
    probe_winning = solver$query_winning;
    probe_depth = solver$query_depth;
    probe_blunder = solver$query_blunder;
end
"
        )
    }
}

impl<
        const W: usize,
        const D: usize,
        const A: usize,
        const M: usize,
        const B: usize,
        const H: usize,
    > Logic for HeapsGame<W, D, A, M, B, H>
{
    fn update(&mut self) {
        let (next, load) = self.next_state();
        let w_mask = (1u64 << W) - 1;
        // The sub-blocks see the inputs of this edge (computed before the registers change).
        self.solver.clock.next = self.clock.val();
        self.timer.clock.next = self.clock.val();
        self.solver.reset.next = false;
        self.solver.adds.next = self.adds.val();
        self.solver.muls.next = self.muls.val();
        self.solver.target.next = self.target.val();
        self.solver.last_wins.next = self.last_wins.val();
        let starting = self.reset.val() || self.new_game.val();
        self.solver.start.next = starting;
        let now = self._state;
        let probing = self.probe.val() && !(starting || now.solving || now.human || now.thinking);
        if probing {
            self.solver.query_a.next = self.probe_a.val();
            self.solver.query_b.next = self.probe_b.val();
        } else {
            self.solver.query_a.next = bits::<W>(u64::from(next.a) & w_mask);
            self.solver.query_b.next = bits::<W>(u64::from(next.b) & w_mask);
        }
        let (heap, index) = self.mover_move();
        self.solver.mover_heap.next = heap;
        self.solver.mover_a.next = bits::<W>(u64::from(now.a) & w_mask);
        self.solver.mover_b.next = bits::<W>(u64::from(now.b) & w_mask);
        self.solver.mover_index.next = bits::<B>(u64::from(index));
        self.timer.load.next = load;
        self.timer.tick.next = self.tick.val();
        if self.clock.pos_edge() {
            self._state = next;
        }
        let s = self._state;
        self.heap_a.next = bits::<H>(u64::from(s.a));
        self.heap_b.next = bits::<H>(u64::from(s.b));
        self.human_turn.next = s.human;
        self.machine_heap.next = s.m_heap;
        self.machine_move.next = bits::<B>(u64::from(s.m_move));
        self.solving.next = s.solving;
        self.game_over.next = !(s.solving || s.human || s.thinking);
        self.human_won.next = s.won;
        self.illegal.next = s.refused;
        self.probe_winning.next = self.solver.query_winning.val();
        self.probe_depth.next = self.solver.query_depth.val();
        self.probe_blunder.next = self.solver.query_blunder.val();
    }

    fn connect(&mut self) {
        self.heap_a.connect();
        self.heap_b.connect();
        self.human_turn.connect();
        self.machine_heap.connect();
        self.machine_move.connect();
        self.solving.connect();
        self.game_over.connect();
        self.human_won.connect();
        self.illegal.connect();
        self.probe_winning.connect();
        self.probe_depth.connect();
        self.probe_blunder.connect();
        self.solver.clock.connect();
        self.solver.reset.connect();
        self.solver.adds.connect();
        self.solver.muls.connect();
        self.solver.target.connect();
        self.solver.last_wins.connect();
        self.solver.start.connect();
        self.solver.query_a.connect();
        self.solver.query_b.connect();
        self.solver.mover_heap.connect();
        self.solver.mover_a.connect();
        self.solver.mover_b.connect();
        self.solver.mover_index.connect();
        self.timer.clock.connect();
        self.timer.load.connect();
        self.timer.tick.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(Self::body(self._compact))
    }
}

/// Calls `$f::<W, D, A, M, B, H>($args)` for a heap game's sizes at run time: `$w` in 2..=7,
/// `$a` in 1..=4, `$m` in 1..=3 (D, B and H follow). Other sizes panic; validate them first.
#[macro_export]
macro_rules! with_heaps_game_widths {
    ($w:expr, $a:expr, $m:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match ($w, $a, $m) {
            (2, 1, 1) => $f::<2, 3, 1, 1, 1, 4>($($arg),*),
            (2, 1, 2) => $f::<2, 3, 1, 2, 2, 4>($($arg),*),
            (2, 1, 3) => $f::<2, 3, 1, 3, 2, 4>($($arg),*),
            (2, 2, 1) => $f::<2, 3, 2, 1, 2, 4>($($arg),*),
            (2, 2, 2) => $f::<2, 3, 2, 2, 2, 4>($($arg),*),
            (2, 2, 3) => $f::<2, 3, 2, 3, 3, 4>($($arg),*),
            (2, 3, 1) => $f::<2, 3, 3, 1, 2, 4>($($arg),*),
            (2, 3, 2) => $f::<2, 3, 3, 2, 3, 4>($($arg),*),
            (2, 3, 3) => $f::<2, 3, 3, 3, 3, 4>($($arg),*),
            (2, 4, 1) => $f::<2, 3, 4, 1, 3, 4>($($arg),*),
            (2, 4, 2) => $f::<2, 3, 4, 2, 3, 4>($($arg),*),
            (2, 4, 3) => $f::<2, 3, 4, 3, 3, 4>($($arg),*),
            (3, 1, 1) => $f::<3, 4, 1, 1, 1, 5>($($arg),*),
            (3, 1, 2) => $f::<3, 4, 1, 2, 2, 5>($($arg),*),
            (3, 1, 3) => $f::<3, 4, 1, 3, 2, 5>($($arg),*),
            (3, 2, 1) => $f::<3, 4, 2, 1, 2, 5>($($arg),*),
            (3, 2, 2) => $f::<3, 4, 2, 2, 2, 5>($($arg),*),
            (3, 2, 3) => $f::<3, 4, 2, 3, 3, 5>($($arg),*),
            (3, 3, 1) => $f::<3, 4, 3, 1, 2, 5>($($arg),*),
            (3, 3, 2) => $f::<3, 4, 3, 2, 3, 5>($($arg),*),
            (3, 3, 3) => $f::<3, 4, 3, 3, 3, 5>($($arg),*),
            (3, 4, 1) => $f::<3, 4, 4, 1, 3, 5>($($arg),*),
            (3, 4, 2) => $f::<3, 4, 4, 2, 3, 5>($($arg),*),
            (3, 4, 3) => $f::<3, 4, 4, 3, 3, 5>($($arg),*),
            (4, 1, 1) => $f::<4, 5, 1, 1, 1, 6>($($arg),*),
            (4, 1, 2) => $f::<4, 5, 1, 2, 2, 6>($($arg),*),
            (4, 1, 3) => $f::<4, 5, 1, 3, 2, 6>($($arg),*),
            (4, 2, 1) => $f::<4, 5, 2, 1, 2, 6>($($arg),*),
            (4, 2, 2) => $f::<4, 5, 2, 2, 2, 6>($($arg),*),
            (4, 2, 3) => $f::<4, 5, 2, 3, 3, 6>($($arg),*),
            (4, 3, 1) => $f::<4, 5, 3, 1, 2, 6>($($arg),*),
            (4, 3, 2) => $f::<4, 5, 3, 2, 3, 6>($($arg),*),
            (4, 3, 3) => $f::<4, 5, 3, 3, 3, 6>($($arg),*),
            (4, 4, 1) => $f::<4, 5, 4, 1, 3, 6>($($arg),*),
            (4, 4, 2) => $f::<4, 5, 4, 2, 3, 6>($($arg),*),
            (4, 4, 3) => $f::<4, 5, 4, 3, 3, 6>($($arg),*),
            (5, 1, 1) => $f::<5, 6, 1, 1, 1, 7>($($arg),*),
            (5, 1, 2) => $f::<5, 6, 1, 2, 2, 7>($($arg),*),
            (5, 1, 3) => $f::<5, 6, 1, 3, 2, 7>($($arg),*),
            (5, 2, 1) => $f::<5, 6, 2, 1, 2, 7>($($arg),*),
            (5, 2, 2) => $f::<5, 6, 2, 2, 2, 7>($($arg),*),
            (5, 2, 3) => $f::<5, 6, 2, 3, 3, 7>($($arg),*),
            (5, 3, 1) => $f::<5, 6, 3, 1, 2, 7>($($arg),*),
            (5, 3, 2) => $f::<5, 6, 3, 2, 3, 7>($($arg),*),
            (5, 3, 3) => $f::<5, 6, 3, 3, 3, 7>($($arg),*),
            (5, 4, 1) => $f::<5, 6, 4, 1, 3, 7>($($arg),*),
            (5, 4, 2) => $f::<5, 6, 4, 2, 3, 7>($($arg),*),
            (5, 4, 3) => $f::<5, 6, 4, 3, 3, 7>($($arg),*),
            (6, 1, 1) => $f::<6, 7, 1, 1, 1, 8>($($arg),*),
            (6, 1, 2) => $f::<6, 7, 1, 2, 2, 8>($($arg),*),
            (6, 1, 3) => $f::<6, 7, 1, 3, 2, 8>($($arg),*),
            (6, 2, 1) => $f::<6, 7, 2, 1, 2, 8>($($arg),*),
            (6, 2, 2) => $f::<6, 7, 2, 2, 2, 8>($($arg),*),
            (6, 2, 3) => $f::<6, 7, 2, 3, 3, 8>($($arg),*),
            (6, 3, 1) => $f::<6, 7, 3, 1, 2, 8>($($arg),*),
            (6, 3, 2) => $f::<6, 7, 3, 2, 3, 8>($($arg),*),
            (6, 3, 3) => $f::<6, 7, 3, 3, 3, 8>($($arg),*),
            (6, 4, 1) => $f::<6, 7, 4, 1, 3, 8>($($arg),*),
            (6, 4, 2) => $f::<6, 7, 4, 2, 3, 8>($($arg),*),
            (6, 4, 3) => $f::<6, 7, 4, 3, 3, 8>($($arg),*),
            (7, 1, 1) => $f::<7, 8, 1, 1, 1, 9>($($arg),*),
            (7, 1, 2) => $f::<7, 8, 1, 2, 2, 9>($($arg),*),
            (7, 1, 3) => $f::<7, 8, 1, 3, 2, 9>($($arg),*),
            (7, 2, 1) => $f::<7, 8, 2, 1, 2, 9>($($arg),*),
            (7, 2, 2) => $f::<7, 8, 2, 2, 2, 9>($($arg),*),
            (7, 2, 3) => $f::<7, 8, 2, 3, 3, 9>($($arg),*),
            (7, 3, 1) => $f::<7, 8, 3, 1, 2, 9>($($arg),*),
            (7, 3, 2) => $f::<7, 8, 3, 2, 3, 9>($($arg),*),
            (7, 3, 3) => $f::<7, 8, 3, 3, 3, 9>($($arg),*),
            (7, 4, 1) => $f::<7, 8, 4, 1, 3, 9>($($arg),*),
            (7, 4, 2) => $f::<7, 8, 4, 2, 3, 9>($($arg),*),
            (7, 4, 3) => $f::<7, 8, 4, 3, 3, 9>($($arg),*),
            (w, a, m) => panic!("no heap game of {w} target bits, A = {a}, M = {m}"),
        }
    };
}

fn heaps_game_verilog_of<
    const W: usize,
    const D: usize,
    const A: usize,
    const M: usize,
    const B: usize,
    const H: usize,
>(
    think_ticks: u64,
    compact: bool,
) -> Result<String, HeapsSolverError> {
    let block = if compact {
        HeapsGame::<W, D, A, M, B, H>::compact(think_ticks)
    } else {
        HeapsGame::<W, D, A, M, B, H>::new(think_ticks)
    };
    let verilog = emit(&block, HEAPS_GAME_MODULE)?;
    Ok(waive_unused(
        &waive_declfilename(&verilog),
        &["solver$busy"],
    ))
}

/// The Verilog of the heap-game controller for targets up to `max_target`, additions up to
/// `x+max_add` and multiplications `x*2 .. x*(max_mul+1)`, pausing `think_ticks` ticks before
/// each machine move (module `heaps_game`, submodules prefixed `heaps_game$`). The file waives
/// two Verilator rules where they apply: the file-name rule for the submodules, and the
/// unused-signal rule for the solver output the controller does not read (`busy`).
pub fn heaps_game_verilog(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    think_ticks: u64,
) -> Result<String, HeapsSolverError> {
    heaps_game_verilog_for(max_target, max_add, max_mul, think_ticks, false)
}

/// [`heaps_game_verilog`] of the compact controller ([`HeapsGame::compact`]), as the Go Board's
/// design holds it (for its proof: `bench::heaps_game_properties`).
pub fn heaps_game_compact_verilog(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    think_ticks: u64,
) -> Result<String, HeapsSolverError> {
    heaps_game_verilog_for(max_target, max_add, max_mul, think_ticks, true)
}

fn heaps_game_verilog_for(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    think_ticks: u64,
    compact: bool,
) -> Result<String, HeapsSolverError> {
    check_heaps_size(max_target, max_add, max_mul)?;
    with_heaps_game_widths!(
        bits_for(max_target),
        max_add as usize,
        max_mul as usize,
        heaps_game_verilog_of(think_ticks, compact)
    )
}

/// What [`HeapsGame`] samples at `new_game`: the rules and the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapsGameConfig {
    /// The rules, as the solver takes them.
    pub rules: HeapsRequest,
    /// The start heaps.
    pub start: (u32, u32),
    /// The machine moves first.
    pub machine_first: bool,
}

/// The controller's outputs after an edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapsGameOutputs {
    /// The heaps.
    pub heaps: (u32, u32),
    /// Waiting for the person's move.
    pub human_turn: bool,
    /// The machine's last move: heap and index.
    pub machine_move: (u32, u32),
    /// Solving.
    pub solving: bool,
    /// No game in progress.
    pub game_over: bool,
    /// The person won.
    pub human_won: bool,
    /// The last move input was refused.
    pub illegal: bool,
}

/// One cycle's inputs besides the configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapsGameInputs {
    /// Sample the configuration and solve.
    pub new_game: bool,
    /// The person moves: heap and index.
    pub person: Option<(u32, u32)>,
    /// The time base's tick.
    pub tick: bool,
}

impl HeapsGameInputs {
    /// Nothing but a tick.
    pub const IDLE: Self = Self {
        new_game: false,
        person: None,
        tick: true,
    };
}

/// The steps of a heap-game controller in rust-hdl simulation, whatever its widths.
pub trait HeapsGameSim {
    /// One cycle: the inputs applied while the clock is low, then the rising edge; the
    /// outputs after it.
    fn step(&mut self, inputs: &HeapsGameInputs) -> HeapsGameOutputs;
}

/// Drives a [`HeapsGame`] one clock cycle at a time, in process, with its configuration ports
/// held at one game.
pub struct HeapsGameDriver<
    const W: usize,
    const D: usize,
    const A: usize,
    const M: usize,
    const B: usize,
    const H: usize,
> {
    block: HeapsGame<W, D, A, M, B, H>,
}

impl<
        const W: usize,
        const D: usize,
        const A: usize,
        const M: usize,
        const B: usize,
        const H: usize,
    > HeapsGameDriver<W, D, A, M, B, H>
{
    /// The controller pausing `think_ticks` ticks, its configuration ports set to `config`
    /// (bits above the ports' widths dropped), at power-on.
    pub fn new(think_ticks: u64, config: &HeapsGameConfig) -> Self {
        Self::of(HeapsGame::new(think_ticks), config)
    }

    /// [`Self::new`] with the compact controller ([`HeapsGame::compact`]): the driver holds the
    /// configuration ports between the changes it is asked for, which come between games.
    pub fn compact(think_ticks: u64, config: &HeapsGameConfig) -> Self {
        Self::of(HeapsGame::compact(think_ticks), config)
    }

    fn of(block: HeapsGame<W, D, A, M, B, H>, config: &HeapsGameConfig) -> Self {
        let mut driver = Self { block };
        driver.configure(config);
        driver
    }

    /// Sets the configuration ports to `config` (sampled at the next `new_game`).
    pub fn configure(&mut self, config: &HeapsGameConfig) {
        let block = &mut self.block;
        let mask = |w: usize, v: u32| u64::from(v) & ((1u64 << w) - 1);
        block.adds.next = bits::<A>(mask(A, config.rules.adds));
        block.muls.next = bits::<M>(mask(M, config.rules.muls));
        block.target.next = bits::<W>(mask(W, config.rules.target));
        block.last_wins.next = config.rules.last_wins;
        block.start_a.next = bits::<W>(mask(W, config.start.0));
        block.start_b.next = bits::<W>(mask(W, config.start.1));
        block.machine_first.next = config.machine_first;
        block.clock.next = Clock { clk: false };
        super::settle(block);
    }

    /// The block.
    pub fn block(&self) -> &HeapsGame<W, D, A, M, B, H> {
        &self.block
    }

    /// The outputs now.
    pub fn outputs(&self) -> HeapsGameOutputs {
        let b = &self.block;
        HeapsGameOutputs {
            heaps: (
                b.heap_a.val().to_u64() as u32,
                b.heap_b.val().to_u64() as u32,
            ),
            human_turn: b.human_turn.val(),
            machine_move: (
                u32::from(b.machine_heap.val()),
                b.machine_move.val().to_u64() as u32,
            ),
            solving: b.solving.val(),
            game_over: b.game_over.val(),
            human_won: b.human_won.val(),
            illegal: b.illegal.val(),
        }
    }
}

impl<
        const W: usize,
        const D: usize,
        const A: usize,
        const M: usize,
        const B: usize,
        const H: usize,
    > HeapsGameSim for HeapsGameDriver<W, D, A, M, B, H>
{
    fn step(&mut self, inputs: &HeapsGameInputs) -> HeapsGameOutputs {
        let b = &mut self.block;
        b.clock.next = Clock { clk: false };
        b.tick.next = inputs.tick;
        b.reset.next = false;
        b.new_game.next = inputs.new_game;
        let (heap, index) = inputs.person.unwrap_or((0, 0));
        b.heap.next = heap & 1 == 1;
        b.move_index.next = bits::<B>(u64::from(index) & ((1u64 << B) - 1));
        b.move_valid.next = inputs.person.is_some();
        super::settle(&mut self.block);
        self.block.clock.next = Clock { clk: true };
        super::settle(&mut self.block);
        self.outputs()
    }
}

/// Starts a game (a `new_game` pulse) and clocks the idle controller until its solve is done
/// and the game has started, for at most `limit` edges counting the `new_game` edge: the
/// outputs at the start edge and the edges from the `new_game` edge to it, both counted
/// ([`solve_cycles`]` + 1`), or `None` if the game did not start.
pub fn start_game(sim: &mut dyn HeapsGameSim, limit: u64) -> Option<(HeapsGameOutputs, u64)> {
    let mut o = sim.step(&HeapsGameInputs {
        new_game: true,
        ..HeapsGameInputs::IDLE
    });
    for edges in 1..=limit {
        if !o.solving {
            return Some((o, edges));
        }
        o = sim.step(&HeapsGameInputs::IDLE);
    }
    None
}

/// The heap game of `retrogate play heaps --against circuit --solver onchip` and of the
/// tests: targets up to 127, additions up to `x+4`, multiplications `x*2 .. x*4`.
pub type FullHeapsGame = HeapsGameDriver<7, 8, 4, 3, 3, 9>;

/// The sizes of [`FullHeapsGame`]: T, A, M.
pub const FULL_HEAPS_SIZE: (u64, u64, u64) = (127, 4, 3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::heaps_solver::expected_heaps_table;
    use crate::bench::sequential::SplitMix64;
    use crate::circuit::heaps_solver::{query_order, HeapsEntry};

    /// The board size: T = 63, A = 2, M = 3.
    pub(super) type Board = HeapsGameDriver<6, 7, 2, 3, 3, 8>;

    /// How the person side picks its moves.
    #[derive(Clone, Copy, Debug)]
    pub(super) enum Person {
        /// Seeded random legal moves, with a refused move tried now and then.
        Random(u64),
        /// The software solver's chosen move.
        Solver,
    }

    /// The software solver's table as a map from a position to its entry.
    fn reference(
        rules: &HeapsRequest,
        max_add: u64,
    ) -> std::collections::HashMap<(u32, u32), HeapsEntry> {
        query_order(rules.target)
            .into_iter()
            .zip(expected_heaps_table(rules, max_add))
            .collect()
    }

    /// The result of move `index` (fixed list, largest addition `max_add`) on heap size `x`.
    fn apply(x: u32, index: u32, max_add: u32) -> u32 {
        if index < max_add {
            x + index + 1
        } else {
            x * (index - max_add + 2)
        }
    }

    /// The legal moves (heap, index) at `(a, b)` under `rules`, in the fixed order.
    fn legal(rules: &HeapsRequest, max_add: u32, a: u32, b: u32) -> Vec<(u32, u32)> {
        let moves = rules.moves(u64::from(max_add));
        let mut out = Vec::new();
        for (heap, x) in [(0, a), (1, b)] {
            for &(index, _) in &moves {
                if apply(x, index, max_add) != x {
                    out.push((heap, index));
                }
            }
        }
        out
    }

    /// Plays one whole game on `sim` (configured with `config`) and checks every step against
    /// the software solver: every machine move is the solver's chosen move, a refused move
    /// changes nothing and raises `illegal`, the game ends exactly when the sum reaches the
    /// target, and the winner is the rule's. `think` is the pause in ticks (every cycle
    /// ticks). Returns the moves made, (who: 0 person, 1 machine, heap, index), in order.
    pub(super) fn play_checked(
        sim: &mut dyn HeapsGameSim,
        config: &HeapsGameConfig,
        max_add: u64,
        think: u32,
        person: Person,
    ) -> Vec<(u32, u32, u32)> {
        let rules = &config.rules;
        let table = reference(rules, max_add);
        let bound = cycle_bound(u64::from(rules.target), rules.move_count());
        let (mut o, edges) =
            start_game(sim, bound + 1).unwrap_or_else(|| panic!("{rules}: no start"));
        assert_eq!(
            edges,
            solve_cycles(u64::from(rules.target), rules.move_count()) + 1,
            "{rules}"
        );
        assert_eq!(o.heaps, config.start, "{rules}");
        let mut rng = SplitMix64::new(match person {
            Person::Random(seed) => seed,
            Person::Solver => 0,
        });
        let (mut a, mut b) = config.start;
        let mut machine_to_move = config.machine_first;
        let mut moves = Vec::new();
        let a_max = max_add as u32;
        // Edges of the machine's pause already spent on a refused move.
        let mut spent = 0;
        loop {
            assert!(!o.game_over, "{rules}: over early at ({a}, {b}): {o:?}");
            if machine_to_move {
                assert!(!o.human_turn, "{rules}: ({a}, {b})");
                // The machine answers after `think` ticks and one edge.
                let mut waited = spent;
                spent = 0;
                while !o.human_turn && !o.game_over {
                    assert!(waited <= think + 1, "{rules}: no machine move");
                    o = sim.step(&HeapsGameInputs::IDLE);
                    waited += 1;
                }
                assert_eq!(waited, think + 1, "{rules}: the pause");
                let want = table[&(a, b)];
                assert_eq!(
                    o.machine_move,
                    (want.heap, want.index),
                    "{rules}: the machine's move at ({a}, {b})"
                );
                if want.heap == 0 {
                    a = apply(a, want.index, a_max);
                } else {
                    b = apply(b, want.index, a_max);
                }
                moves.push((1, want.heap, want.index));
            } else {
                assert!(o.human_turn, "{rules}: ({a}, {b}) {o:?}");
                let options = legal(rules, a_max, a, b);
                // Now and then a refused move first: an index not allowed, or out of range.
                if let Person::Random(_) = person {
                    if rng.below(3) == 0 {
                        let heap = rng.below(2) as u32;
                        let index = rng.below(1 << 3) as u32;
                        if !options.contains(&(heap, index)) {
                            let r = sim.step(&HeapsGameInputs {
                                person: Some((heap, index)),
                                ..HeapsGameInputs::IDLE
                            });
                            assert!(r.illegal && r.human_turn, "{rules}: {heap} {index}");
                            assert_eq!(r.heaps, (a, b), "{rules}: refused moves change nothing");
                        }
                    }
                }
                let (heap, index) = match person {
                    Person::Random(_) => options[rng.below(options.len() as u64) as usize],
                    Person::Solver => {
                        let e = table[&(a, b)];
                        (e.heap, e.index)
                    }
                };
                o = sim.step(&HeapsGameInputs {
                    person: Some((heap, index)),
                    ..HeapsGameInputs::IDLE
                });
                assert!(!o.illegal, "{rules}: ({a}, {b}) {heap} {index} refused");
                if heap == 0 {
                    a = apply(a, index, a_max);
                } else {
                    b = apply(b, index, a_max);
                }
                moves.push((0, heap, index));
                // The machine refuses a move while it thinks.
                if !o.game_over && think > 0 {
                    o = sim.step(&HeapsGameInputs {
                        person: Some((heap, index)),
                        ..HeapsGameInputs::IDLE
                    });
                    assert!(o.illegal && !o.human_turn, "{rules}: a move while thinking");
                    assert_eq!(o.heaps, (a, b));
                    spent = 1;
                }
            }
            assert_eq!(o.heaps, (a, b), "{rules}: the heaps after {moves:?}");
            if a + b >= rules.target {
                assert!(o.game_over && !o.human_turn, "{rules}: ({a}, {b}) not over");
                // The last mover was the machine when it moved last.
                let human_moved_last = !machine_to_move;
                assert_eq!(
                    o.human_won,
                    human_moved_last == rules.last_wins,
                    "{rules}: the winner after {moves:?}"
                );
                let r = sim.step(&HeapsGameInputs {
                    person: Some((0, 0)),
                    ..HeapsGameInputs::IDLE
                });
                assert!(r.illegal && r.game_over && r.heaps == (a, b), "{rules}");
                return moves;
            }
            machine_to_move = !machine_to_move;
        }
    }

    /// A game of the tests: (adds, muls, target, last_wins, start).
    pub(super) type TestGame = (u32, u32, u32, bool, (u32, u32));

    /// The games of the tests.
    pub(super) fn games() -> Vec<TestGame> {
        vec![
            // The seed's game: +1 and *4, sum >= 61, from (3, S).
            (0b01, 0b100, 61, true, (3, 10)),
            (0b01, 0b100, 61, true, (3, 19)),
            (0b01, 0b100, 61, false, (3, 7)),
            (0b11, 0b001, 30, true, (2, 5)),
            (0b10, 0b011, 45, false, (4, 1)),
            (0b01, 0b000, 12, true, (1, 1)),
            (0b00, 0b010, 40, true, (2, 3)),
            (0b11, 0b111, 63, false, (1, 2)),
        ]
    }

    /// Whole games on rust-hdl's simulation of the controller: both who-moves-first, both
    /// rules, several move sets and targets (the seed's game among them), the person playing
    /// seeded random moves (with refused ones) or the solver's: every machine move is the
    /// software solver's chosen move, and the end and the winner are right; for the plain
    /// controller and the compact one.
    #[test]
    fn plays_whole_games_like_the_software_solver() {
        for compact in [false, true] {
            plays_whole_games(compact);
        }
    }

    fn plays_whole_games(compact: bool) {
        let mut played = 0;
        for (k, &(adds, muls, target, last_wins, start)) in games().iter().enumerate() {
            for machine_first in [false, true] {
                let config = HeapsGameConfig {
                    rules: HeapsRequest {
                        adds,
                        muls,
                        target,
                        last_wins,
                    },
                    start,
                    machine_first,
                };
                let think = (k % 3) as u32;
                let mut sim = if compact {
                    Board::compact(u64::from(think), &config)
                } else {
                    Board::new(u64::from(think), &config)
                };
                let person = if k % 2 == 0 {
                    Person::Random(0x5eed + k as u64)
                } else {
                    Person::Solver
                };
                let moves = play_checked(&mut sim, &config, 2, think, person);
                assert!(!moves.is_empty());
                // A second game on the same circuit, the other person.
                let other = match person {
                    Person::Solver => Person::Random(k as u64),
                    Person::Random(_) => Person::Solver,
                };
                play_checked(&mut sim, &config, 2, think, other);
                played += 2;
            }
        }
        assert_eq!(played, 32);
    }

    /// A start outside the game is refused at the start edge; with no move allowed the player
    /// to move is stuck and loses at once; while solving a move is refused.
    #[test]
    fn bad_starts_and_stuck_games_end_at_once() {
        let rules = HeapsRequest {
            adds: 1,
            muls: 4,
            target: 20,
            last_wins: true,
        };
        for (start, refused) in [
            ((0, 5), true),
            ((5, 0), true),
            ((10, 10), true),
            ((9, 10), false),
        ] {
            let config = HeapsGameConfig {
                rules,
                start,
                machine_first: false,
            };
            let mut sim = Board::new(0, &config);
            let o = sim.step(&HeapsGameInputs {
                new_game: true,
                ..HeapsGameInputs::IDLE
            });
            assert!(o.solving && !o.game_over && o.heaps == start);
            let o = sim.step(&HeapsGameInputs {
                person: Some((0, 0)),
                ..HeapsGameInputs::IDLE
            });
            assert!(o.illegal && o.solving, "a move while solving is refused");
            let (o, _) = start_game(&mut sim, cycle_bound(20, 2)).expect("starts");
            assert_eq!(o.game_over, refused, "{start:?}");
            assert_eq!(o.illegal, refused, "{start:?}");
            assert!(!o.human_won);
        }
        for machine_first in [false, true] {
            let config = HeapsGameConfig {
                rules: HeapsRequest {
                    adds: 0,
                    muls: 0,
                    target: 20,
                    last_wins: true,
                },
                start: (3, 4),
                machine_first,
            };
            let mut sim = Board::new(0, &config);
            let (o, _) = start_game(&mut sim, cycle_bound(20, 0)).expect("starts");
            assert!(o.game_over && !o.illegal);
            assert_eq!(o.human_won, machine_first);
        }
    }

    /// The person's move is refused when its index is out of range, not allowed, and `illegal`
    /// stays up across idle cycles until a legal move clears it.
    #[test]
    fn illegal_stays_until_the_next_legal_move() {
        let config = HeapsGameConfig {
            rules: HeapsRequest {
                adds: 0b01,
                muls: 0b100,
                target: 61,
                last_wins: true,
            },
            start: (3, 10),
            machine_first: false,
        };
        let mut sim = Board::new(5, &config);
        let (o, _) = start_game(&mut sim, cycle_bound(61, 2)).unwrap();
        assert!(o.human_turn);
        // x+2 (index 1) and x*2 (index 2) are not allowed; index 5 and 7 are beyond x*4.
        for index in [1, 2, 3, 5, 7] {
            let o = sim.step(&HeapsGameInputs {
                person: Some((1, index)),
                ..HeapsGameInputs::IDLE
            });
            assert!(
                o.illegal && o.human_turn && o.heaps == (3, 10),
                "index {index}"
            );
            let o = sim.step(&HeapsGameInputs::IDLE);
            assert!(o.illegal, "held");
        }
        // x*4 on the second heap: (3, 40), legal.
        let o = sim.step(&HeapsGameInputs {
            person: Some((1, 4)),
            ..HeapsGameInputs::IDLE
        });
        assert!(!o.illegal && !o.human_turn && o.heaps == (3, 40));
    }

    /// The think pause counts ticks, not cycles.
    #[test]
    fn the_think_pause_counts_ticks() {
        let config = HeapsGameConfig {
            rules: HeapsRequest {
                adds: 0b01,
                muls: 0b100,
                target: 61,
                last_wins: true,
            },
            start: (3, 10),
            machine_first: true,
        };
        let mut sim = Board::new(2, &config);
        let (o, _) = start_game(&mut sim, cycle_bound(61, 2)).unwrap();
        assert!(!o.human_turn && !o.game_over);
        let mut cycles = 0;
        loop {
            cycles += 1;
            let o = sim.step(&HeapsGameInputs {
                tick: cycles % 3 == 0,
                ..HeapsGameInputs::IDLE
            });
            if o.human_turn {
                break;
            }
            assert!(cycles < 20);
        }
        // Ticks at cycles 3 and 6 finish the pause; the machine moves at the next edge.
        assert_eq!(cycles, 7);
    }

    #[test]
    fn bad_sizes_are_refused_naming_the_flag() {
        let e = heaps_game_verilog(200, 2, 3, 0).unwrap_err();
        assert!(e.to_string().contains("--max-target 200"), "{e}");
        let e = heaps_game_verilog(63, 5, 3, 0).unwrap_err();
        assert!(e.to_string().contains("--max-add 5"), "{e}");
    }

    #[test]
    fn ports_are_the_contract_and_emission_is_deterministic() {
        let v = heaps_game_verilog(63, 2, 3, 500).unwrap();
        assert_eq!(v, heaps_game_verilog(63, 2, 3, 500).unwrap());
        let ports = crate::verilog::module_ports(&v, HEAPS_GAME_MODULE).expect("module");
        let names: Vec<(String, usize)> = ports.iter().map(|p| (p.name.clone(), p.width)).collect();
        let expect = [
            ("clock", 1),
            ("tick", 1),
            ("reset", 1),
            ("adds", 2),
            ("muls", 3),
            ("target", 6),
            ("last_wins", 1),
            ("start_a", 6),
            ("start_b", 6),
            ("machine_first", 1),
            ("new_game", 1),
            ("heap", 1),
            ("move_index", 3),
            ("move_valid", 1),
            ("probe", 1),
            ("probe_a", 6),
            ("probe_b", 6),
            ("heap_a", 8),
            ("heap_b", 8),
            ("human_turn", 1),
            ("machine_heap", 1),
            ("machine_move", 3),
            ("solving", 1),
            ("game_over", 1),
            ("human_won", 1),
            ("illegal", 1),
            ("probe_winning", 1),
            ("probe_depth", 7),
            ("probe_blunder", 1),
        ];
        for (name, width) in expect {
            assert!(
                names.contains(&(name.to_owned(), width)),
                "{name}[{width}] missing from {names:?}"
            );
        }
        assert_eq!(names.len(), expect.len());
        assert!(v.contains("heaps_game$solver"), "the solver is a submodule");
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::tests::{games, play_checked, Board, Person};
    use super::*;
    use crate::circuit::sim::trace::{port, TraceBench};
    use crate::flow::testing::work_dir;

    type Block = HeapsGame<6, 7, 2, 3, 3, 8>;

    /// Records the rows a game is driven with, for the Verilog replay.
    struct Recorder {
        sim: Board,
        config: HeapsGameConfig,
        rows: Vec<Vec<u64>>,
    }

    impl HeapsGameSim for Recorder {
        fn step(&mut self, i: &HeapsGameInputs) -> HeapsGameOutputs {
            let c = &self.config;
            let (heap, index) = i.person.unwrap_or((0, 0));
            self.rows.push(vec![
                u64::from(i.tick),
                0,
                u64::from(c.rules.adds),
                u64::from(c.rules.muls),
                u64::from(c.rules.target),
                u64::from(c.rules.last_wins),
                u64::from(c.start.0),
                u64::from(c.start.1),
                u64::from(c.machine_first),
                u64::from(i.new_game),
                u64::from(heap),
                u64::from(index),
                u64::from(i.person.is_some()),
                0,
                0,
                0,
            ]);
            self.sim.step(i)
        }
    }

    fn apply(b: &mut Block, r: &[u64]) {
        b.tick.next = r[0] != 0;
        b.reset.next = r[1] != 0;
        b.adds.next = bits::<2>(r[2]);
        b.muls.next = bits::<3>(r[3]);
        b.target.next = bits::<6>(r[4]);
        b.last_wins.next = r[5] != 0;
        b.start_a.next = bits::<6>(r[6]);
        b.start_b.next = bits::<6>(r[7]);
        b.machine_first.next = r[8] != 0;
        b.new_game.next = r[9] != 0;
        b.heap.next = r[10] != 0;
        b.move_index.next = bits::<3>(r[11]);
        b.move_valid.next = r[12] != 0;
        b.probe.next = r[13] != 0;
        b.probe_a.next = bits::<6>(r[14]);
        b.probe_b.next = bits::<6>(r[15]);
    }

    fn sample(b: &Block) -> Vec<u64> {
        vec![
            b.heap_a.val().to_u64(),
            b.heap_b.val().to_u64(),
            u64::from(b.human_turn.val()),
            u64::from(b.machine_heap.val()),
            b.machine_move.val().to_u64(),
            u64::from(b.solving.val()),
            u64::from(b.game_over.val()),
            u64::from(b.human_won.val()),
            u64::from(b.illegal.val()),
        ]
    }

    fn bench() -> TraceBench<Block> {
        TraceBench {
            module: HEAPS_GAME_MODULE.into(),
            clock_name: "clock".into(),
            clock: |b: &mut Block| &mut b.clock,
            inputs: vec![
                port("tick", 1),
                port("reset", 1),
                port("adds", 2),
                port("muls", 3),
                port("target", 6),
                port("last_wins", 1),
                port("start_a", 6),
                port("start_b", 6),
                port("machine_first", 1),
                port("new_game", 1),
                port("heap", 1),
                port("move_index", 3),
                port("move_valid", 1),
                port("probe", 1),
                port("probe_a", 6),
                port("probe_b", 6),
            ],
            outputs: vec![
                port("heap_a", 8),
                port("heap_b", 8),
                port("human_turn", 1),
                port("machine_heap", 1),
                port("machine_move", 3),
                port("solving", 1),
                port("game_over", 1),
                port("human_won", 1),
                port("illegal", 1),
            ],
            apply,
            sample,
            switches: vec![],
        }
    }

    /// The emitted Verilog under Icarus plays, cycle by cycle, exactly as rust-hdl did on
    /// games in which rust-hdl's every machine move was checked against the software solver:
    /// the seed's game (3, S), +1 and *4, sum >= 61, both who-moves-first, and smaller games
    /// of other move sets and the other rule; several games on one circuit, the game changed
    /// between them. (The probe port, tied low here, is the block RAM's word, unknown in
    /// Verilog before the first read: `heaps_answers`' tests check it.) The same for the
    /// compact controller, whose moves its solver's successor unit makes.
    #[test]
    fn the_emitted_verilog_plays_like_rust_hdl() {
        for compact in [false, true] {
            plays_like_rust_hdl(compact);
        }
    }

    fn plays_like_rust_hdl(compact: bool) {
        let dir = work_dir("heaps-game-verilog");
        let think = 1u32;
        let all = games();
        let picked = [
            (all[0], false),
            (all[0], true),
            (all[3], true),
            (all[5], false),
        ];
        let mut rec: Option<Recorder> = None;
        for (k, &((adds, muls, target, last_wins, start), machine_first)) in
            picked.iter().enumerate()
        {
            let config = HeapsGameConfig {
                rules: HeapsRequest {
                    adds,
                    muls,
                    target,
                    last_wins,
                },
                start,
                machine_first,
            };
            // One circuit for all the games, reconfigured between them.
            let r = rec.get_or_insert_with(|| Recorder {
                sim: if compact {
                    Board::compact(u64::from(think), &config)
                } else {
                    Board::new(u64::from(think), &config)
                },
                config,
                rows: Vec::new(),
            });
            r.config = config;
            r.sim.configure(&config);
            play_checked(r, &config, 2, think, Person::Random(k as u64));
        }
        let rows = rec.expect("games").rows;
        let (block, verilog) = if compact {
            let verilog = heaps_game_compact_verilog(63, 2, 3, u64::from(think)).unwrap();
            (Block::compact(u64::from(think)), verilog)
        } else {
            let verilog = heaps_game_verilog(63, 2, 3, u64::from(think)).unwrap();
            (Block::new(u64::from(think)), verilog)
        };
        bench().compare(block, &verilog, &rows, dir.path());
    }
}
