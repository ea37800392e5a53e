//! `heaps_solver`: the retrograde analysis of the two-heap KEGE game (exam tasks 19-21) on the
//! FPGA. A player sets the allowed moves (`x+1 .. x+A`, `x*2 .. x*(M+1)`), the target and the
//! rule on the inputs, pulses `start`, and after [`solve_cycles`] cycles (within the port
//! contract's [`cycle_bound`]) the whole table (outcome, depth and chosen move of every position
//! `(a, b)` with `a, b >= 1` and `a + b < target`) sits in block RAM, readable through the
//! `query_a`/`query_b` port.
//!
//! ```text
//!                     +-------------------------------------+
//!   clock ----------->|                                     |---> busy
//!   reset ----------->|   HeapsSolver<W, D, A, M, B>        |---> done
//!   adds[A] --------->|                                     |
//!   muls[M] --------->|   table: 2^(2W-1) words of          |---> query_winning
//!   target[W] ------->|   2 + W + 1 + B bits, block RAM     |---> query_depth[W+1]
//!   last_wins ------->|                                     |---> query_heap
//!   start ----------->|                                     |---> query_move[B]
//!   query_a[W] ------>|                                     |---> query_blunder
//!   query_b[W] ------>|                                     |
//!                     +-------------------------------------+
//! ```
//!
//! W = bits for the largest target T (3 to 127), D = W + 1, A = the largest addition (1 to 4),
//! M = the number of multiplications (1 to 3: `x*2 .. x*(M+1)`), B = bits for `A + M - 1`, the
//! index of a move in the fixed list `x+1, ..., x+A, x*2, ..., x*(M+1)`.
//!
//! # The game
//! Exactly `retrogate solve heaps --move ... --end 'sum>=T' --last ...` with its moves listed in
//! that fixed order: a move applies one allowed expression to one heap (the first heap's moves
//! before the second's); the game ends when the heaps sum to at least `target`, and whoever makes
//! that move wins (`last_wins` = 1) or loses. Every move makes a heap of at least 1 larger, so no
//! move leaves a heap unchanged, and two moves that reach the same position (`x+2` and `x*2` at
//! 2) give the same value: the strict comparisons below keep the first, as the software does.
//! With no move allowed every position is lost at depth 0 (the player to move is stuck).
//!
//! # Table layout
//! Position `(a, b)` lives at `{a[W-2:0], b}`, every bit inverted when `a >= 2^(W-1)`: since
//! `a + b < target < 2^W`, a position with `a >= 2^(W-1)` has `b < 2^(W-1)`, and its folded
//! address is that of `(2^W - 1 - a, 2^W - 1 - b)`, whose sum `2^W + 2^(W-1) - 2 - ...` is at
//! least `2^W - 1`: never a position. So the triangle fits in `2^(2W-1)` words, half the square.
//! A word is `{blunder, winning, depth[W], heap, move[B]}`; depth is below `target` (every move
//! adds at least 1 to the sum), so W bits hold it and the `query_depth` port's top bit is 0.
//! `blunder` is set when some allowed move reaches a position below the target that is won at
//! depth 1: a move after which the opponent wins with their next move. It is the test of exam
//! task 19 for a start, read once per start ([`super::heaps_answers`]); the extra bit widens no
//! table at T = 63 (the 2048 words of 12 bits take the same 6 block RAMs as words of 11).
//!
//! # Algorithm
//! One sweep, `a` from `target - 2` down to 1 and, for each, `b` from `target - 1 - a` down to 1:
//! every successor of `(a, b)` has a larger `a` with the same `b` or a larger `b` with the same
//! `a`, so it is decided already, or its sum reaches the target (terminal: lost for the player to
//! move there when the last move wins, else won, at depth 0). A position is won one move after
//! its shallowest lost successor, else lost one move after its deepest won one.
//!
//! Two pipeline stages, one successor a cycle:
//! * stage 1 walks the allowed moves (`pending`, a mask of the moves not yet read on this heap,
//!   the lowest first) on heap 0, then on heap 1, computes the successor, whether it is terminal,
//!   and presents its address to the RAM's registered read port; with no move allowed it spends
//!   one empty cycle on the position. After the position's last move it steps to the next one.
//! * stage 2, one cycle later, folds the word read (or the terminal value) into the accumulator
//!   (the best move so far, and whether some successor in the table is won at depth 1),
//!   and on the position's last move writes the verdict. The write of `(a, b)` lands on the edge
//!   where stage 1 reads the next position's first move, which is on heap 0 (`(a + k, b - 1)`),
//!   never `(a, b)`; its move `b + 1` on heap 1 is read at least one edge later.
//!
//! So a solve costs one cycle per successor, `P * max(2n, 1)` for `P = (T-1)(T-2)/2` positions
//! and `n` allowed moves, plus 3 (the `start` edge, the last write, the query read), from the
//! edge that samples `start` to the edge that raises `done` ([`solve_cycles`]). One block-RAM
//! read port cannot do with fewer than one read per successor that stays in the table
//! ([`read_port_limit`]); this design also spends a cycle on each terminal successor.
//! Outside a solve the read port serves `query_a`/`query_b`, so the query outputs are the
//! registered RAM word: valid after the edge that follows a change of the query.
//!
//! # The compact solver
//! [`HeapsSolver::compact`], for [`HeapsGame::compact`](super::heaps_game::HeapsGame::compact),
//! reads the rules live instead of sampling them with `start`, and has seven more ports, the
//! `mover_*` ones: whenever stage 1 is not issuing reads, its successor unit computes the move
//! `mover_index` on the heap `mover_heap` of (`mover_a`, `mover_b`) for the controller. The
//! standalone module keeps exactly the contract's ports: rust-hdl's port list comes from the
//! visit this file writes by hand ([`Block`] below), which skips them.
//!
//! `update()` (rust-hdl's simulation) and `hdl()` (the Verilog, written by hand) are separate
//! code; the bench (`bench::heaps_solver`) checks both against the software solver.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::sticks_solver::bits_for;
use crate::verilog::{emit, VerilogError};

/// Module name of the emitted solver.
pub const HEAPS_SOLVER_MODULE: &str = "heaps_solver";

/// Smallest largest target (`--max-target`): below 3 there is no position.
pub const MIN_HEAPS_TARGET: u64 = 3;
/// Largest target the solver supports (W <= 7).
pub const MAX_HEAPS_TARGET: u64 = 127;
/// Largest addition `x+A` the solver supports.
pub const MAX_HEAPS_ADD: u64 = 4;
/// Most multiplications (`x*2 .. x*(M+1)`) the solver supports.
pub const MAX_HEAPS_MUL: u64 = 3;

/// The default sizes of `emit heaps-solver`: T = 63, A = 2, M = 3.
pub const DEFAULT_HEAPS_SIZE: (u64, u64, u64) = (63, 2, 3);

/// Positions of a target: `(a, b)` with `a, b >= 1` and `a + b < target`.
pub const fn positions(target: u64) -> u64 {
    if target < 3 {
        0
    } else {
        (target - 1) * (target - 2) / 2
    }
}

/// The solve-time bound of the port contract: `target * target * (moves + 2) + 64` cycles,
/// `moves` the number of allowed move expressions.
pub fn cycle_bound(target: u64, moves: u64) -> u64 {
    target * target * (moves + 2) + 64
}

/// Cycles this design takes: `P * max(2 * moves, 1) + 3` for `P` = [`positions`], from the edge
/// that samples `start` to the edge that raises `done`.
pub const fn solve_cycles(target: u64, moves: u64) -> u64 {
    let per_position = if moves == 0 { 1 } else { 2 * moves };
    positions(target) * per_position + 3
}

/// The fewest cycles any design with one block-RAM read port needs: one read per successor
/// that stays in the table (sum below `target`), counted over every position and allowed move
/// (`adds` bit `i`: `x+(i+1)`; `muls` bit `i`: `x*(i+2)`).
pub fn read_port_limit(target: u64, adds: u32, muls: u32) -> u64 {
    let mut reads = 0;
    for a in 1..target {
        for b in 1..target.saturating_sub(a) {
            for x in [a, b] {
                let other = a + b - x;
                for r in move_results(x, adds, muls) {
                    if r + other < target {
                        reads += 1;
                    }
                }
            }
        }
    }
    reads
}

fn move_results(x: u64, adds: u32, muls: u32) -> Vec<u64> {
    let mut out = Vec::new();
    for i in 0..32u64 {
        if adds >> i & 1 == 1 {
            out.push(x + i + 1);
        }
    }
    for i in 0..32u64 {
        if muls >> i & 1 == 1 {
            out.push(x * (i + 2));
        }
    }
    out
}

/// Address of position `(a, b)` in the table of a solver with `w` target bits (module docs).
pub fn table_address(w: usize, a: u32, b: u32) -> u32 {
    let low = ((a & ((1 << (w - 1)) - 1)) << w) | (b & ((1 << w) - 1));
    if a >> (w - 1) & 1 == 1 {
        !low & ((1 << (2 * w - 1)) - 1)
    } else {
        low
    }
}

/// Registers of the solver, as `update()` models them.
#[derive(Clone, Debug, Default)]
struct State {
    mem: Vec<u32>,
    rdata: u32,
    allowed: u32,
    target: u32,
    last_wins: bool,
    a: u32,
    b: u32,
    heap: bool,
    pending: u32,
    issuing: bool,
    drain: u8,
    busy: bool,
    done: bool,
    m_valid: bool,
    m_move: bool,
    m_first: bool,
    m_last: bool,
    m_term: bool,
    m_heap: bool,
    m_move_index: u32,
    m_waddr: u32,
    have_move: bool,
    have_loss: bool,
    acc_depth: u32,
    acc_heap: bool,
    acc_move: u32,
    acc_blunder: bool,
    /// A mutant for the benches to catch: ties between equally deep moves go to the latest
    /// instead of the earliest. False in every product path (only the tests'
    /// `simulate_heaps_solves_tying_late` sets it).
    ties_to_latest: bool,
}

/// The on-chip heap solver (see the module docs). Ports are exactly those of the issue; the
/// compact solver ([`HeapsSolver::compact`]) has the `mover_*` ports too.
pub struct HeapsSolver<
    const W: usize,
    const D: usize,
    const A: usize,
    const M: usize,
    const B: usize,
> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: not solving, not done.
    pub reset: Signal<In, Bit>,
    /// Bit `i` set: the move `x+(i+1)` is allowed. Sampled with `start`.
    pub adds: Signal<In, Bits<A>>,
    /// Bit `i` set: the move `x*(i+2)` is allowed. Sampled with `start`.
    pub muls: Signal<In, Bits<M>>,
    /// The game ends when the heaps sum to at least `target`. Sampled with `start`.
    pub target: Signal<In, Bits<W>>,
    /// 1: whoever reaches the target wins; 0: loses. Sampled with `start`.
    pub last_wins: Signal<In, Bit>,
    /// Starts a solve (also during one, which restarts it).
    pub start: Signal<In, Bit>,
    /// High while solving.
    pub busy: Signal<Out, Bit>,
    /// High from the end of a solve until the next `start`.
    pub done: Signal<Out, Bit>,
    /// The first heap of the position to read.
    pub query_a: Signal<In, Bits<W>>,
    /// The second heap of the position to read.
    pub query_b: Signal<In, Bits<W>>,
    /// 1 when the player to move at the query wins.
    pub query_winning: Signal<Out, Bit>,
    /// Moves to the end from the query with optimal play.
    pub query_depth: Signal<Out, Bits<D>>,
    /// The chosen move's heap: 0 the first, 1 the second.
    pub query_heap: Signal<Out, Bit>,
    /// The chosen move's index in `x+1, ..., x+A, x*2, ..., x*(M+1)`; 0 without a move.
    pub query_move: Signal<Out, Bits<B>>,
    /// 1 when some move from the query lets the opponent win with their next move (it reaches
    /// a position below the target that is won at depth 1): exam task 19's test.
    pub query_blunder: Signal<Out, Bit>,
    /// Compact solver only: the heap of the move `mover_index` on (`mover_a`, `mover_b`).
    pub mover_heap: Signal<In, Bit>,
    /// Compact solver only: the first heap the mover reads.
    pub mover_a: Signal<In, Bits<W>>,
    /// Compact solver only: the second heap the mover reads.
    pub mover_b: Signal<In, Bits<W>>,
    /// Compact solver only: the move's index in `x+1, ..., x+A, x*2, ..., x*(M+1)`.
    pub mover_index: Signal<In, Bits<B>>,
    /// Compact solver only: the moved heap's low W bits, while no solve is issuing reads.
    pub mover_low: Signal<Out, Bits<W>>,
    /// Compact solver only: the moved heap's bits W and W + 1 (a heap below 2^W grows to at
    /// most `x*4 < 2^(W+2)`).
    pub mover_high: Signal<Out, Bits<2>>,
    /// Compact solver only: the heaps after the move sum to at least `target`.
    pub mover_ends: Signal<Out, Bit>,
    compact: bool,
    _state: State,
}

/// Lists the solver's ports once: their names, and references to them in that order.
macro_rules! solver_ports {
    ($($port:ident),* $(,)?) => {
        const PORT_NAMES: &'static [&'static str] = &[$(stringify!($port)),*];

        fn port_refs(&self) -> Vec<&dyn Block> {
            vec![$(&self.$port as &dyn Block),*]
        }

        fn port_refs_mut(&mut self) -> Vec<&mut dyn Block> {
            vec![$(&mut self.$port as &mut dyn Block),*]
        }
    };
}

impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize>
    HeapsSolver<W, D, A, M, B>
{
    solver_ports!(
        clock,
        reset,
        adds,
        muls,
        target,
        last_wins,
        start,
        busy,
        done,
        query_a,
        query_b,
        query_winning,
        query_depth,
        query_heap,
        query_move,
        query_blunder,
        mover_heap,
        mover_a,
        mover_b,
        mover_index,
        mover_low,
        mover_high,
        mover_ends,
    );

    /// The contract's ports: the first 16 of [`Self::PORT_NAMES`]; the `mover_*` ports follow.
    const CONTRACT_PORTS: usize = 16;

    /// How many of [`Self::PORT_NAMES`] the module has.
    fn module_ports(&self) -> usize {
        if self.compact {
            Self::PORT_NAMES.len()
        } else {
            Self::CONTRACT_PORTS
        }
    }
}

/// What rust-hdl's `#[derive(LogicBlock)]` would write, but the visit (which makes the
/// module's port list) skips the `mover_*` ports unless the solver is compact, so the
/// standalone module has exactly its contract's ports.
impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize> Block
    for HeapsSolver<W, D, A, M, B>
{
    fn connect_all(&mut self) {
        self.connect();
    }

    fn update_all(&mut self) {
        self.update();
        for port in self.port_refs_mut() {
            port.update_all();
        }
    }

    fn has_changed(&self) -> bool {
        self.port_refs().iter().any(|port| port.has_changed())
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        probe.visit_start_scope(name, self);
        let ports = Self::PORT_NAMES.iter().zip(self.port_refs());
        for (port_name, port) in ports.take(self.module_ports()) {
            port.accept(port_name, probe);
        }
        probe.visit_end_scope(name, self);
    }
}

impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize> Default
    for HeapsSolver<W, D, A, M, B>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize>
    HeapsSolver<W, D, A, M, B>
{
    /// The solver, `connect_all()` called.
    ///
    /// # Panics
    /// Unless `2 <= W <= 7`, `D = W + 1`, `1 <= A <= 4`, `1 <= M <= 3` and `B` is the bits for
    /// `A + M - 1`.
    pub fn new() -> Self {
        Self::build(false)
    }

    /// The compact solver, for a controller whose parent holds the rules for the whole game
    /// (the Go Board's pages): it reads `adds`, `muls`, `target` and `last_wins` live instead
    /// of sampling them with `start`, and it lends its successor unit (stage 1's move, sum and
    /// target test) to the controller through the `mover_*` ports whenever it is not issuing
    /// reads. The table it writes is the standalone solver's while the rules are held.
    ///
    /// # Panics
    /// As [`Self::new`].
    pub fn compact() -> Self {
        Self::build(true)
    }

    fn build(compact: bool) -> Self {
        assert!((2..=7).contains(&W), "W = {W} is not in 2..=7");
        assert_eq!(D, W + 1, "D must be W + 1");
        assert!((1..=MAX_HEAPS_ADD as usize).contains(&A), "A = {A}");
        assert!((1..=MAX_HEAPS_MUL as usize).contains(&M), "M = {M}");
        assert_eq!(
            B,
            bits_for((A + M - 1) as u64),
            "B must be the bits for A + M - 1"
        );
        let mut block = Self {
            clock: Default::default(),
            reset: Default::default(),
            adds: Default::default(),
            muls: Default::default(),
            target: Default::default(),
            last_wins: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            query_a: Default::default(),
            query_b: Default::default(),
            query_winning: Default::default(),
            query_depth: Default::default(),
            query_heap: Default::default(),
            query_move: Default::default(),
            query_blunder: Default::default(),
            mover_heap: Default::default(),
            mover_a: Default::default(),
            mover_b: Default::default(),
            mover_index: Default::default(),
            mover_low: Default::default(),
            mover_high: Default::default(),
            mover_ends: Default::default(),
            compact,
            _state: State {
                mem: vec![0; 1 << (2 * W - 1)],
                ..State::default()
            },
        };
        block.connect_all();
        block
    }

    /// The rules on the inputs now: the allowed moves (adds in the low bits), the target and
    /// the rule.
    fn rules_now(&self) -> (u32, u32, bool) {
        (
            (self.muls.val().to_u64() as u32) << A | self.adds.val().to_u64() as u32,
            self.target.val().to_u64() as u32,
            self.last_wins.val(),
        )
    }

    /// The heap `x` after the one move `pick` (a one-hot mask over the fixed move list) selects;
    /// 0 when `pick` is 0.
    fn moved(x: u32, pick: u32) -> u32 {
        let j = pick.trailing_zeros(); // 32 when nothing is picked
        if pick == 0 {
            0
        } else if (j as usize) < A {
            x + j + 1
        } else {
            x * (j - A as u32 + 2)
        }
    }

    /// The successor unit's operands now: the heap moved, the other heap and the one-hot move,
    /// stage 1's while a solve issues reads, else (compact solver) the `mover_*` ports'.
    fn operands(&self) -> (u32, u32, u32) {
        let s = &self._state;
        let (heap, a, b, pick) = if s.issuing {
            (s.heap, s.a, s.b, s.pending & s.pending.wrapping_neg())
        } else {
            let index = self.mover_index.val().to_u64() as u32;
            (
                self.mover_heap.val(),
                self.mover_a.val().to_u64() as u32,
                self.mover_b.val().to_u64() as u32,
                if (index as usize) < A + M {
                    1 << index
                } else {
                    0
                },
            )
        };
        if heap {
            (b, a, pick)
        } else {
            (a, b, pick)
        }
    }

    /// One rising edge of the registers, from the inputs' current values.
    fn tick(&mut self) {
        let w_mask = (1u32 << W) - 1;
        let rules = self.rules_now();
        if self.compact {
            // The rules are wires of the inputs, not registers.
            let s = &mut self._state;
            (s.allowed, s.target, s.last_wins) = rules;
        }
        let (x, other, pick) = self.operands();
        let s = &mut self._state;
        // Stage 1: the move read this cycle.
        let rest = s.pending & s.pending.wrapping_sub(1);
        let single = rest == 0;
        let none = s.allowed == 0;
        let last_read = single && (s.heap || none);
        let first_read = !s.heap && s.pending == s.allowed;
        let j = pick.trailing_zeros(); // 32 when nothing is picked
        let r = Self::moved(x, pick);
        let term = r + other >= s.target;
        let (sa, sb) = if s.heap {
            (s.a, r & w_mask)
        } else {
            (r & w_mask, s.b)
        };
        let read_address = if s.issuing {
            table_address(W, sa, sb)
        } else {
            table_address(
                W,
                self.query_a.val().to_u64() as u32,
                self.query_b.val().to_u64() as u32,
            )
        };
        let rdata_next = s.mem[read_address as usize];
        // Stage 2: the word read last cycle.
        let rd_win = (s.rdata >> (W + 1 + B)) & 1 == 1;
        let rd_depth = (s.rdata >> (1 + B)) & w_mask;
        let s_win = if s.m_term { !s.last_wins } else { rd_win };
        let s_depth = if s.m_term { 0 } else { rd_depth };
        let b_move = !s.m_first && s.have_move;
        let b_loss = !s.m_first && s.have_loss;
        let tie = s.ties_to_latest && s_depth == s.acc_depth;
        let take_loss = s.m_move && !s_win && (!b_loss || s_depth < s.acc_depth || tie);
        let take_win = s.m_move && s_win && !b_loss && (!b_move || s_depth > s.acc_depth || tie);
        let take = take_loss || take_win;
        let n_move = b_move || s.m_move;
        let n_loss = b_loss || take_loss;
        let n_depth = if take { s_depth } else { s.acc_depth };
        let n_heap = if take { s.m_heap } else { s.acc_heap };
        let n_index = if take { s.m_move_index } else { s.acc_move };
        let s_blunder = s.m_move && !s.m_term && rd_win && rd_depth == 1;
        let n_blunder = (!s.m_first && s.acc_blunder) || s_blunder;
        if s.m_valid && s.m_last {
            let word = if n_move {
                (u32::from(n_blunder) << (W + 2 + B))
                    | (u32::from(n_loss) << (W + 1 + B))
                    | (((n_depth + 1) & w_mask) << (1 + B))
                    | (u32::from(n_heap) << B)
                    | n_index
            } else {
                0
            };
            s.mem[s.m_waddr as usize] = word;
        }
        if self.reset.val() {
            s.busy = false;
            s.done = false;
            s.issuing = false;
            s.drain = 0;
            s.m_valid = false;
        } else if self.start.val() {
            let (allowed, target, _) = rules;
            (s.allowed, s.target, s.last_wins) = rules;
            s.a = target.wrapping_sub(2) & w_mask;
            s.b = 1;
            s.heap = false;
            s.pending = allowed;
            s.busy = true;
            s.done = false;
            s.issuing = target >= 3;
            s.drain = if target >= 3 { 0 } else { 1 };
            s.m_valid = false;
        } else if s.busy {
            let (was_valid, was_drain) = (s.m_valid, s.drain);
            s.m_valid = s.issuing;
            if s.issuing {
                s.m_move = !none;
                s.m_first = first_read;
                s.m_last = last_read;
                s.m_term = term;
                s.m_heap = s.heap;
                s.m_move_index = if pick == 0 { 0 } else { j };
                s.m_waddr = table_address(W, s.a, s.b);
                if last_read {
                    s.heap = false;
                    s.pending = s.allowed;
                    if s.b == 1 && s.a == 1 {
                        s.issuing = false;
                        s.drain = 1;
                    } else if s.b == 1 {
                        s.b = s.target.wrapping_sub(s.a) & w_mask;
                        s.a -= 1;
                    } else {
                        s.b -= 1;
                    }
                } else if single {
                    s.heap = true;
                    s.pending = s.allowed;
                } else {
                    s.pending = rest;
                }
            }
            if was_valid {
                s.have_move = n_move;
                s.have_loss = n_loss;
                s.acc_depth = n_depth;
                s.acc_heap = n_heap;
                s.acc_move = n_index;
                s.acc_blunder = n_blunder;
            }
            if was_drain == 1 {
                s.drain = 2;
            } else if was_drain == 2 {
                s.busy = false;
                s.done = true;
                s.drain = 0;
            }
        }
        s.rdata = rdata_next;
    }
}

impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize>
    HeapsSolver<W, D, A, M, B>
{
    /// The module's Verilog; `compact` as [`Self::compact`].
    fn body(compact: bool) -> String {
        let j = A + M;
        // Successor width: x * (M + 1) for x < 2^W.
        let r = W + bits_for(M as u64 + 1);
        let aw = 2 * W - 1;
        let dw = 3 + W + B;
        let top = (1u32 << aw) - 1;
        let mut result = Vec::new();
        for i in 0..j {
            let value = if i < A {
                format!("(xr + {r}'d{})", i + 1)
            } else {
                format!("(xr * {r}'d{})", i - A + 2)
            };
            result.push(format!("({{{r}{{pick[{i}]}}}} & {value})"));
        }
        let result = result.join("\n    | ");
        let mut index = Vec::new();
        for t in 0..B {
            let mask: u64 = (0..j).filter(|i| i >> t & 1 == 1).map(|i| 1u64 << i).sum();
            index.push(format!("(|(pick & {j}'d{mask}))"));
        }
        index.reverse();
        let index = index.join(", ");
        let wm = W - 1;
        // The compact solver reads the rules live and lends stage 1's unit to the mover ports.
        let (rules, sample, pick, operands, mover) = if compact {
            (
                format!(
                    "\
// The rules: the parent holds them for the whole game.
wire [{jm}:0] allowed = {{muls, adds}};
wire [{wm}:0] target_r = target;
wire last_r = last_wins;",
                    jm = j - 1
                ),
                String::new(),
                format!("issuing ? (pending & (~pending + {j}'d1)) : ({j}'d1 << mover_index)"),
                "\
// Stage 1's operands while it issues reads, else the mover ports': one successor unit.
wire [{wm}:0] x = issuing ? (heap ? b : a) : (mover_heap ? mover_b : mover_a);
wire [{wm}:0] other = issuing ? (heap ? a : b) : (mover_heap ? mover_a : mover_b);"
                    .replace("{wm}", &wm.to_string()),
                format!(
                    "
    mover_low = result[{wm}:0];
    mover_high = result[{w1}:{W}];
    mover_ends = term;",
                    w1 = W + 1
                ),
            )
        } else {
            (
                format!(
                    "\
reg [{jm}:0] allowed;
reg [{wm}:0] target_r;
reg last_r;",
                    jm = j - 1
                ),
                "
        allowed <= {muls, adds};
        target_r <= target;
        last_r <= last_wins;"
                    .to_owned(),
                format!("pending & (~pending + {j}'d1)"),
                "\
wire [{wm}:0] x = heap ? b : a;
wire [{wm}:0] other = heap ? a : b;"
                    .replace("{wm}", &wm.to_string()),
                String::new(),
            )
        };
        let mut v = String::new();
        let _ = write!(
            v,
            "\
// Table: one word per position (a, b), {{blunder, winning, depth[{W}], heap, move[{B}]}}, in
// block RAM;
// (a, b) at {{a[{wm1}:0], b}}, every bit inverted when a[{wm}] is set (the triangle a + b < 2^{W}
// folded into half the square).
(* ram_style = \"block\" *) reg [{dwm}:0] mem [0:{top}];
reg [{dwm}:0] rdata;
{rules}
reg [{wm}:0] a;
reg [{wm}:0] b;
reg heap;
reg [{jm}:0] pending;
reg issuing;
// Binary as written: synthesis keeps this encoding, so the netlist's register pairs with the
// RTL's by name in the equivalence proof.
(* fsm_encoding = \"none\" *) reg [1:0] drain;
reg busy_r;
reg done_r;
reg m_valid;
reg m_move;
reg m_first;
reg m_last;
reg m_term;
reg m_heap;
reg [{bm}:0] m_index;
reg [{awm}:0] m_waddr;
reg have_move;
reg have_loss;
reg [{wm}:0] acc_depth;
reg acc_heap;
reg [{bm}:0] acc_index;
reg acc_blunder;
// Stage 1: the lowest pending move of this heap, its successor and the successor's address.
wire [{jm}:0] pick = {pick};
wire [{jm}:0] rest = pending & (pending - {j}'d1);
wire single = (rest == {j}'d0);
wire none = (allowed == {j}'d0);
wire last_read = single & (heap | none);
wire first_read = ~heap & (pending == allowed);
{operands}
wire [{rm}:0] xr = {{{rw}'d0, x}};
wire [{rm}:0] result = {result};
wire [{r}:0] total = {{1'b0, result}} + {{{rw1}'d0, other}};
wire term = (total >= {{{rw1}'d0, target_r}});
wire [{bm}:0] index = {{{index}}};
wire [{wm}:0] sa = heap ? a : result[{wm}:0];
wire [{wm}:0] sb = heap ? result[{wm}:0] : b;
wire [{wm}:0] ra = issuing ? sa : query_a;
wire [{wm}:0] rb = issuing ? sb : query_b;
wire [{awm}:0] read_address = {{ra[{wm1}:0], rb}} ^ {{{aw}{{ra[{wm}]}}}};
wire [{awm}:0] here = {{a[{wm1}:0], b}} ^ {{{aw}{{a[{wm}]}}}};
wire at_end = (a == {W}'d1) & (b == {W}'d1);
// Stage 2: the word read (or the terminal value) folded into the accumulator.
wire rd_win = rdata[{dwm1}];
wire [{wm}:0] rd_depth = rdata[{dwm2}:{b1}];
wire s_win = m_term ? ~last_r : rd_win;
wire [{wm}:0] s_depth = m_term ? {W}'d0 : rd_depth;
wire b_move = ~m_first & have_move;
wire b_loss = ~m_first & have_loss;
wire take_loss = m_move & ~s_win & (~b_loss | (s_depth < acc_depth));
wire take_win = m_move & s_win & ~b_loss & (~b_move | (s_depth > acc_depth));
wire take = take_loss | take_win;
wire n_move = b_move | m_move;
wire n_loss = b_loss | take_loss;
wire [{wm}:0] n_depth = take ? s_depth : acc_depth;
wire n_heap = take ? m_heap : acc_heap;
wire [{bm}:0] n_index = take ? m_index : acc_index;
// A successor in the table won at depth 1: this move lets the opponent win at once.
wire s_blunder = m_move & ~m_term & rd_win & (rd_depth == {W}'d1);
wire n_blunder = (~m_first & acc_blunder) | s_blunder;
wire [{wm}:0] depth_next = n_depth + {W}'d1;
wire writing = m_valid & m_last;
wire [{dwm}:0] wdata = n_move ? {{n_blunder, n_loss, depth_next, n_heap, n_index}} : {dw}'d0;

always @(posedge clock) begin
    rdata <= mem[read_address];
end

always @(posedge clock) begin
    if (writing) begin
        mem[m_waddr] <= wdata;
    end
end

always @(posedge clock) begin
    if (reset) begin
        busy_r <= 1'b0;
        done_r <= 1'b0;
        issuing <= 1'b0;
        drain <= 2'd0;
        m_valid <= 1'b0;
    end else if (start) begin{sample}
        a <= target - {W}'d2;
        b <= {W}'d1;
        heap <= 1'b0;
        pending <= {{muls, adds}};
        busy_r <= 1'b1;
        done_r <= 1'b0;
        issuing <= (target >= {W}'d3);
        drain <= (target >= {W}'d3) ? 2'd0 : 2'd1;
        m_valid <= 1'b0;
    end else if (busy_r) begin
        m_valid <= issuing;
        if (issuing) begin
            m_move <= ~none;
            m_first <= first_read;
            m_last <= last_read;
            m_term <= term;
            m_heap <= heap;
            m_index <= index;
            m_waddr <= here;
            if (last_read) begin
                heap <= 1'b0;
                pending <= allowed;
                if (at_end) begin
                    issuing <= 1'b0;
                    drain <= 2'd1;
                end else if (b == {W}'d1) begin
                    b <= target_r - a;
                    a <= a - {W}'d1;
                end else begin
                    b <= b - {W}'d1;
                end
            end else if (single) begin
                heap <= 1'b1;
                pending <= allowed;
            end else begin
                pending <= rest;
            end
        end
        if (m_valid) begin
            have_move <= n_move;
            have_loss <= n_loss;
            acc_depth <= n_depth;
            acc_heap <= n_heap;
            acc_index <= n_index;
            acc_blunder <= n_blunder;
        end
        if (drain == 2'd1) begin
            drain <= 2'd2;
        end else if (drain == 2'd2) begin
            busy_r <= 1'b0;
            done_r <= 1'b1;
            drain <= 2'd0;
        end
    end
end

always @(*) begin
    busy = busy_r;
    done = done_r;
    query_winning = rdata[{dwm1}];
    query_depth = {{1'b0, rdata[{dwm2}:{b1}]}};
    query_heap = rdata[{b}];
    query_move = rdata[{bm}:0];
    query_blunder = rdata[{dwm}];{mover}
end
",
            wm1 = W - 2,
            dwm = dw - 1,
            dwm1 = dw - 2,
            dwm2 = dw - 3,
            jm = j - 1,
            bm = B - 1,
            b = B,
            b1 = B + 1,
            awm = aw - 1,
            rm = r - 1,
            rw = r - W,
            rw1 = r + 1 - W,
        );
        v
    }
}

impl<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize> Logic
    for HeapsSolver<W, D, A, M, B>
{
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.tick();
        }
        let s = &self._state;
        let w_mask = (1u32 << W) - 1;
        self.busy.next = s.busy;
        self.done.next = s.done;
        self.query_winning.next = (s.rdata >> (W + 1 + B)) & 1 == 1;
        self.query_depth.next = bits::<D>(u64::from((s.rdata >> (1 + B)) & w_mask));
        self.query_heap.next = (s.rdata >> B) & 1 == 1;
        self.query_move.next = bits::<B>(u64::from(s.rdata & ((1 << B) - 1)));
        self.query_blunder.next = (s.rdata >> (W + 2 + B)) & 1 == 1;
        // The successor unit, lent to the controller by the compact solver.
        let (moved, ends) = if self.compact {
            let (x, other, pick) = self.operands();
            let (_, target, _) = self.rules_now();
            let r = Self::moved(x, pick);
            (r, r + other >= target)
        } else {
            (0, false)
        };
        self.mover_low.next = bits::<W>(u64::from(moved & w_mask));
        self.mover_high.next = bits::<2>(u64::from(moved >> W & 3));
        self.mover_ends.next = ends;
    }

    fn connect(&mut self) {
        self.busy.connect();
        self.done.connect();
        self.query_winning.connect();
        self.query_depth.connect();
        self.query_heap.connect();
        self.query_move.connect();
        self.query_blunder.connect();
        self.mover_low.connect();
        self.mover_high.connect();
        self.mover_ends.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(Self::body(self.compact))
    }
}

/// Calls `$f::<W, D, A, M, B>($args)` for a heap solver's sizes at run time: `$w` in 2..=7,
/// `$a` in 1..=4, `$m` in 1..=3 (D and B follow). Other sizes panic; validate them first.
#[macro_export]
macro_rules! with_heaps_widths {
    ($w:expr, $a:expr, $m:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match ($w, $a, $m) {
            (2, 1, 1) => $f::<2, 3, 1, 1, 1>($($arg),*),
            (2, 1, 2) => $f::<2, 3, 1, 2, 2>($($arg),*),
            (2, 1, 3) => $f::<2, 3, 1, 3, 2>($($arg),*),
            (2, 2, 1) => $f::<2, 3, 2, 1, 2>($($arg),*),
            (2, 2, 2) => $f::<2, 3, 2, 2, 2>($($arg),*),
            (2, 2, 3) => $f::<2, 3, 2, 3, 3>($($arg),*),
            (2, 3, 1) => $f::<2, 3, 3, 1, 2>($($arg),*),
            (2, 3, 2) => $f::<2, 3, 3, 2, 3>($($arg),*),
            (2, 3, 3) => $f::<2, 3, 3, 3, 3>($($arg),*),
            (2, 4, 1) => $f::<2, 3, 4, 1, 3>($($arg),*),
            (2, 4, 2) => $f::<2, 3, 4, 2, 3>($($arg),*),
            (2, 4, 3) => $f::<2, 3, 4, 3, 3>($($arg),*),
            (3, 1, 1) => $f::<3, 4, 1, 1, 1>($($arg),*),
            (3, 1, 2) => $f::<3, 4, 1, 2, 2>($($arg),*),
            (3, 1, 3) => $f::<3, 4, 1, 3, 2>($($arg),*),
            (3, 2, 1) => $f::<3, 4, 2, 1, 2>($($arg),*),
            (3, 2, 2) => $f::<3, 4, 2, 2, 2>($($arg),*),
            (3, 2, 3) => $f::<3, 4, 2, 3, 3>($($arg),*),
            (3, 3, 1) => $f::<3, 4, 3, 1, 2>($($arg),*),
            (3, 3, 2) => $f::<3, 4, 3, 2, 3>($($arg),*),
            (3, 3, 3) => $f::<3, 4, 3, 3, 3>($($arg),*),
            (3, 4, 1) => $f::<3, 4, 4, 1, 3>($($arg),*),
            (3, 4, 2) => $f::<3, 4, 4, 2, 3>($($arg),*),
            (3, 4, 3) => $f::<3, 4, 4, 3, 3>($($arg),*),
            (4, 1, 1) => $f::<4, 5, 1, 1, 1>($($arg),*),
            (4, 1, 2) => $f::<4, 5, 1, 2, 2>($($arg),*),
            (4, 1, 3) => $f::<4, 5, 1, 3, 2>($($arg),*),
            (4, 2, 1) => $f::<4, 5, 2, 1, 2>($($arg),*),
            (4, 2, 2) => $f::<4, 5, 2, 2, 2>($($arg),*),
            (4, 2, 3) => $f::<4, 5, 2, 3, 3>($($arg),*),
            (4, 3, 1) => $f::<4, 5, 3, 1, 2>($($arg),*),
            (4, 3, 2) => $f::<4, 5, 3, 2, 3>($($arg),*),
            (4, 3, 3) => $f::<4, 5, 3, 3, 3>($($arg),*),
            (4, 4, 1) => $f::<4, 5, 4, 1, 3>($($arg),*),
            (4, 4, 2) => $f::<4, 5, 4, 2, 3>($($arg),*),
            (4, 4, 3) => $f::<4, 5, 4, 3, 3>($($arg),*),
            (5, 1, 1) => $f::<5, 6, 1, 1, 1>($($arg),*),
            (5, 1, 2) => $f::<5, 6, 1, 2, 2>($($arg),*),
            (5, 1, 3) => $f::<5, 6, 1, 3, 2>($($arg),*),
            (5, 2, 1) => $f::<5, 6, 2, 1, 2>($($arg),*),
            (5, 2, 2) => $f::<5, 6, 2, 2, 2>($($arg),*),
            (5, 2, 3) => $f::<5, 6, 2, 3, 3>($($arg),*),
            (5, 3, 1) => $f::<5, 6, 3, 1, 2>($($arg),*),
            (5, 3, 2) => $f::<5, 6, 3, 2, 3>($($arg),*),
            (5, 3, 3) => $f::<5, 6, 3, 3, 3>($($arg),*),
            (5, 4, 1) => $f::<5, 6, 4, 1, 3>($($arg),*),
            (5, 4, 2) => $f::<5, 6, 4, 2, 3>($($arg),*),
            (5, 4, 3) => $f::<5, 6, 4, 3, 3>($($arg),*),
            (6, 1, 1) => $f::<6, 7, 1, 1, 1>($($arg),*),
            (6, 1, 2) => $f::<6, 7, 1, 2, 2>($($arg),*),
            (6, 1, 3) => $f::<6, 7, 1, 3, 2>($($arg),*),
            (6, 2, 1) => $f::<6, 7, 2, 1, 2>($($arg),*),
            (6, 2, 2) => $f::<6, 7, 2, 2, 2>($($arg),*),
            (6, 2, 3) => $f::<6, 7, 2, 3, 3>($($arg),*),
            (6, 3, 1) => $f::<6, 7, 3, 1, 2>($($arg),*),
            (6, 3, 2) => $f::<6, 7, 3, 2, 3>($($arg),*),
            (6, 3, 3) => $f::<6, 7, 3, 3, 3>($($arg),*),
            (6, 4, 1) => $f::<6, 7, 4, 1, 3>($($arg),*),
            (6, 4, 2) => $f::<6, 7, 4, 2, 3>($($arg),*),
            (6, 4, 3) => $f::<6, 7, 4, 3, 3>($($arg),*),
            (7, 1, 1) => $f::<7, 8, 1, 1, 1>($($arg),*),
            (7, 1, 2) => $f::<7, 8, 1, 2, 2>($($arg),*),
            (7, 1, 3) => $f::<7, 8, 1, 3, 2>($($arg),*),
            (7, 2, 1) => $f::<7, 8, 2, 1, 2>($($arg),*),
            (7, 2, 2) => $f::<7, 8, 2, 2, 2>($($arg),*),
            (7, 2, 3) => $f::<7, 8, 2, 3, 3>($($arg),*),
            (7, 3, 1) => $f::<7, 8, 3, 1, 2>($($arg),*),
            (7, 3, 2) => $f::<7, 8, 3, 2, 3>($($arg),*),
            (7, 3, 3) => $f::<7, 8, 3, 3, 3>($($arg),*),
            (7, 4, 1) => $f::<7, 8, 4, 1, 3>($($arg),*),
            (7, 4, 2) => $f::<7, 8, 4, 2, 3>($($arg),*),
            (7, 4, 3) => $f::<7, 8, 4, 3, 3>($($arg),*),
            (w, a, m) => panic!("no heap solver of {w} target bits, A = {a}, M = {m}"),
        }
    };
}

/// Why a heap solver cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeapsSolverError {
    /// `--max-target` out of range.
    #[error("--max-target {0} is out of range: the heap solver handles targets {MIN_HEAPS_TARGET} to {MAX_HEAPS_TARGET} (its table of 2^(2W-1) words fits the block RAM up to there); pass --max-target 3..=127")]
    MaxTarget(u64),
    /// `--max-add` out of range.
    #[error("--max-add {0} is out of range: the heap solver offers x+1 up to x+{MAX_HEAPS_ADD}; pass --max-add 1..=4")]
    MaxAdd(u64),
    /// `--max-mul` out of range.
    #[error("--max-mul {0} is out of range: the heap solver offers 1 to {MAX_HEAPS_MUL} multiplications (x*2 up to x*4); pass --max-mul 1..=3")]
    MaxMul(u64),
    /// Emitting the Verilog failed.
    #[error(transparent)]
    Verilog(#[from] VerilogError),
}

/// Checks a largest target, a largest addition and a number of multiplications.
pub fn check_heaps_size(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
) -> Result<(), HeapsSolverError> {
    if !(MIN_HEAPS_TARGET..=MAX_HEAPS_TARGET).contains(&max_target) {
        return Err(HeapsSolverError::MaxTarget(max_target));
    }
    if !(1..=MAX_HEAPS_ADD).contains(&max_add) {
        return Err(HeapsSolverError::MaxAdd(max_add));
    }
    if !(1..=MAX_HEAPS_MUL).contains(&max_mul) {
        return Err(HeapsSolverError::MaxMul(max_mul));
    }
    Ok(())
}

/// The solver's widths for its sizes: (W, B), W the target bits, B the move-index bits.
pub fn heaps_widths(max_target: u64, max_add: u64, max_mul: u64) -> (usize, usize) {
    (bits_for(max_target), bits_for(max_add + max_mul - 1))
}

fn heaps_verilog_of<
    const W: usize,
    const D: usize,
    const A: usize,
    const M: usize,
    const B: usize,
>() -> Result<String, HeapsSolverError> {
    Ok(emit(
        &HeapsSolver::<W, D, A, M, B>::new(),
        HEAPS_SOLVER_MODULE,
    )?)
}

/// The Verilog of the heap solver for targets up to `max_target`, additions up to `x+max_add`
/// and multiplications `x*2 .. x*(max_mul+1)`, module `heaps_solver`.
pub fn heaps_solver_verilog(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
) -> Result<String, HeapsSolverError> {
    check_heaps_size(max_target, max_add, max_mul)?;
    with_heaps_widths!(
        bits_for(max_target),
        max_add as usize,
        max_mul as usize,
        heaps_verilog_of()
    )
}

/// One solve's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapsRequest {
    /// Bit `i`: `x+(i+1)` is allowed.
    pub adds: u32,
    /// Bit `i`: `x*(i+2)` is allowed.
    pub muls: u32,
    /// The game ends at a sum of at least `target`.
    pub target: u32,
    /// The rule.
    pub last_wins: bool,
}

impl HeapsRequest {
    /// The allowed move expressions, in the fixed order, each with its index in
    /// `x+1, ..., x+A, x*2, ..., x*(M+1)` for `max_add` = A.
    pub fn moves(&self, max_add: u64) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        for i in 0..32 {
            if self.adds >> i & 1 == 1 {
                out.push((i, format!("x+{}", i + 1)));
            }
        }
        for i in 0..32 {
            if self.muls >> i & 1 == 1 {
                out.push((max_add as u32 + i, format!("x*{}", i + 2)));
            }
        }
        out
    }

    /// Number of allowed move expressions.
    pub fn move_count(&self) -> u64 {
        u64::from(self.adds.count_ones() + self.muls.count_ones())
    }
}

/// `target 63, moves x+1,x*2, last wins`, as a person reads a game.
impl std::fmt::Display for HeapsRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let moves: Vec<String> = self.moves(0).into_iter().map(|(_, m)| m).collect();
        let moves = if moves.is_empty() {
            "none".to_owned()
        } else {
            moves.join(",")
        };
        let rule = if self.last_wins { "wins" } else { "loses" };
        write!(f, "target {}, moves {moves}, last {rule}", self.target)
    }
}

/// One position as the solver's query port reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapsEntry {
    /// The player to move wins.
    pub winning: bool,
    /// Moves to the end.
    pub depth: u32,
    /// The chosen move's heap (0 or 1).
    pub heap: u32,
    /// The chosen move's index in the fixed list, 0 without a move.
    pub index: u32,
    /// Some move lets the opponent win with their next move (exam task 19's test).
    pub blunder: bool,
}

/// `winning, depth 3, heap 1, move 2` (`, blunder` when it is set).
impl std::fmt::Display for HeapsEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = if self.winning { "winning" } else { "losing" };
        write!(
            f,
            "{outcome}, depth {}, heap {}, move {}{}",
            self.depth,
            self.heap,
            self.index,
            if self.blunder { ", blunder" } else { "" }
        )
    }
}

/// The positions of a target in the order the benches query them: `a` ascending, then `b`.
pub fn query_order(target: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for a in 1..target {
        for b in 1..target.saturating_sub(a) {
            out.push((a, b));
        }
    }
    out
}

/// A solve as seen through the ports: the table in [`query_order`] and the cycles it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapsSolved {
    /// Entries of the positions, in [`query_order`].
    pub table: Vec<HeapsEntry>,
    /// Rising edges from the one that samples `start` to the one that raises `done`.
    pub cycles: u64,
}

/// Runs solves on rust-hdl's simulation of a heap solver of the given sizes, through its ports
/// (start, wait for `done` counting cycles, query every position). `limit` caps each wait; a
/// solve that does not finish within it has `cycles` > `limit` and an empty table.
pub fn simulate_heaps_solves(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    requests: &[HeapsRequest],
    limit: u64,
) -> Result<Vec<HeapsSolved>, HeapsSolverError> {
    simulate_model(max_target, max_add, max_mul, requests, limit, false)
}

/// [`simulate_heaps_solves`] of a mutant model whose ties between equally deep moves go to
/// the latest move: for the tests that check level 1 catches it.
#[cfg(test)]
pub(crate) fn simulate_heaps_solves_tying_late(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    requests: &[HeapsRequest],
    limit: u64,
) -> Result<Vec<HeapsSolved>, HeapsSolverError> {
    simulate_model(max_target, max_add, max_mul, requests, limit, true)
}

fn simulate_model(
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    requests: &[HeapsRequest],
    limit: u64,
    ties_to_latest: bool,
) -> Result<Vec<HeapsSolved>, HeapsSolverError> {
    check_heaps_size(max_target, max_add, max_mul)?;
    Ok(with_heaps_widths!(
        bits_for(max_target),
        max_add as usize,
        max_mul as usize,
        simulate_of(requests, limit, ties_to_latest)
    ))
}

fn simulate_of<const W: usize, const D: usize, const A: usize, const M: usize, const B: usize>(
    requests: &[HeapsRequest],
    limit: u64,
    ties_to_latest: bool,
) -> Vec<HeapsSolved> {
    let mut block = HeapsSolver::<W, D, A, M, B>::new();
    block._state.ties_to_latest = ties_to_latest;
    let edge = |b: &mut HeapsSolver<W, D, A, M, B>| {
        b.clock.next = Clock::from(true);
        super::settle(b);
        b.clock.next = Clock::from(false);
        super::settle(b);
    };
    block.clock.next = Clock::from(false);
    block.reset.next = true;
    super::settle(&mut block);
    edge(&mut block);
    block.reset.next = false;
    let mut out = Vec::with_capacity(requests.len());
    for r in requests {
        block.adds.next = bits::<A>(u64::from(r.adds));
        block.muls.next = bits::<M>(u64::from(r.muls));
        block.target.next = bits::<W>(u64::from(r.target));
        block.last_wins.next = r.last_wins;
        block.start.next = true;
        edge(&mut block);
        block.start.next = false;
        // Scramble the inputs sampled with `start`: the solve must not look at them again.
        block.adds.next = bits::<A>(!u64::from(r.adds) & ((1 << A) - 1));
        block.muls.next = bits::<M>(!u64::from(r.muls) & ((1 << M) - 1));
        block.target.next = bits::<W>(!u64::from(r.target) & ((1 << W) - 1));
        block.last_wins.next = !r.last_wins;
        let mut cycles = 1;
        super::settle(&mut block);
        while !block.done.val() && cycles <= limit {
            if !block.busy.val() {
                break;
            }
            edge(&mut block);
            cycles += 1;
        }
        let mut table = Vec::new();
        if block.done.val() {
            for (a, b) in query_order(r.target) {
                block.query_a.next = bits::<W>(u64::from(a));
                block.query_b.next = bits::<W>(u64::from(b));
                edge(&mut block);
                table.push(HeapsEntry {
                    winning: block.query_winning.val(),
                    depth: block.query_depth.val().to_u64() as u32,
                    heap: u32::from(block.query_heap.val()),
                    index: block.query_move.val().to_u64() as u32,
                    blunder: block.query_blunder.val(),
                });
            }
        } else {
            cycles = cycles.max(limit + 1);
        }
        out.push(HeapsSolved { table, cycles });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fold_puts_every_position_at_its_own_address() {
        for w in 2..=7usize {
            let target = (1u32 << w) - 1;
            let mut seen = std::collections::HashSet::new();
            for (a, b) in query_order(target) {
                let addr = table_address(w, a, b);
                assert!(addr < 1 << (2 * w - 1), "W = {w} ({a}, {b})");
                assert!(seen.insert(addr), "W = {w}: ({a}, {b}) shares {addr}");
            }
            assert_eq!(seen.len() as u64, positions(u64::from(target)));
        }
    }

    #[test]
    fn cycles_stay_within_the_contract() {
        for target in 0..=127 {
            for moves in 0..=7 {
                assert!(
                    solve_cycles(target, moves) <= cycle_bound(target, moves),
                    "T = {target}, {moves} moves"
                );
            }
        }
        assert_eq!(positions(63), 1891);
        assert_eq!(solve_cycles(63, 5), 18_913);
        // x+1 only: every position reads 2 successors, the last row's are terminal.
        assert!(read_port_limit(63, 1, 0) < 2 * positions(63));
    }

    #[test]
    fn bad_sizes_are_refused_naming_the_flag() {
        for (t, a, m, flag) in [
            (2, 2, 3, "--max-target 2"),
            (128, 2, 3, "--max-target 128"),
            (63, 0, 3, "--max-add 0"),
            (63, 5, 3, "--max-add 5"),
            (63, 2, 0, "--max-mul 0"),
            (63, 2, 4, "--max-mul 4"),
        ] {
            let e = heaps_solver_verilog(t, a, m).unwrap_err();
            assert!(e.to_string().contains(flag), "{e}");
        }
    }

    #[test]
    fn ports_are_the_contract() {
        let v = heaps_solver_verilog(63, 2, 3).unwrap();
        let ports = crate::verilog::module_ports(&v, HEAPS_SOLVER_MODULE).expect("module");
        let names: Vec<(String, usize)> = ports.iter().map(|p| (p.name.clone(), p.width)).collect();
        let expect = [
            ("clock", 1),
            ("reset", 1),
            ("adds", 2),
            ("muls", 3),
            ("target", 6),
            ("last_wins", 1),
            ("start", 1),
            ("busy", 1),
            ("done", 1),
            ("query_a", 6),
            ("query_b", 6),
            ("query_winning", 1),
            ("query_depth", 7),
            ("query_heap", 1),
            ("query_move", 3),
            ("query_blunder", 1),
        ];
        for (name, width) in expect {
            assert!(
                names.contains(&(name.to_owned(), width)),
                "{name}[{width}] missing from {names:?}"
            );
        }
        assert_eq!(names.len(), expect.len());
        assert!(v.contains("(* ram_style = \"block\" *) reg [11:0] mem [0:2047];"));
    }

    #[test]
    fn emission_is_deterministic() {
        assert_eq!(
            heaps_solver_verilog(63, 2, 3).unwrap(),
            heaps_solver_verilog(63, 2, 3).unwrap()
        );
    }
}
