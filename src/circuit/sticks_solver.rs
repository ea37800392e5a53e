//! `sticks_solver`: the retrograde analysis of a subtraction game, on the FPGA. A player sets
//! the take set, the count and the rule on the inputs, pulses `start`, and after at most
//! `(count + 1) * (K + 2) + 16` cycles the whole table (outcome, depth, chosen take for every
//! position `0..=count`) sits in block RAM (in registers up to C = 3, see [`table_storage`]),
//! readable through the `query` port.
//!
//! ```text
//!                     +-------------------------------------+
//!   clock ----------->|                                     |---> busy
//!   reset ----------->|   SticksSolver<W, K, M>             |---> done
//!   take_set[K] ----->|                                     |
//!   count[W] -------->|   table: 2^W words of 1 + W + M     |---> query_winning
//!   last_wins ------->|   bits (registers or a block RAM)   |---> query_depth[W]
//!   start ----------->|                                     |---> query_take[M]
//!   query[W] -------->|                                     |
//!                     +-------------------------------------+
//! ```
//!
//! W = bits for the largest count C (1 to 8), K = the largest take (1 to 8), M = bits for K.
//!
//! # Algorithm
//! Every move of a subtraction game goes down, so one ascending pass decides every position
//! (the software solver's `solve_descending`): position `n` is won one move after its
//! shallowest lost successor, else lost one move after its deepest won one; ties go to the
//! smallest take. A position with no move (position 0, or a pile smaller than every allowed
//! take) has depth 0 and take 0; it is won only at position 0 when the last stick loses.
//!
//! One position takes `K + 2` cycles, counted by `phase`:
//! * phase `p` in `0..K`: the RAM's read address is `addr` = `n - 1 - p` (the successor after
//!   taking `p + 1`), a down-counter; `under` marks it below 0 (taking `p + 1` is more than
//!   `n`), and `avail` carries that verdict along with the registered read, whose word arrives
//!   in phase `p + 1`;
//! * phase `p` in `1..=K`: the word of `n - p` is combined into the accumulator when `p` is in
//!   the take set (`pending[0]`, the set rotated once per phase, so that after `K` phases it is
//!   whole again) and `avail`;
//! * phase `K + 1`: the accumulator's verdict is written at address `n`, and the next position
//!   (or the end) follows. A write is at least one cycle before any read of its address.
//!
//! After the last write one more cycle lets the read port fetch `query`, then `busy` falls and
//! `done` rises: `(count + 1) * (K + 2) + 1` cycles from the edge that samples `start` to the
//! edge that raises `done`. Outside the successor reads the read port serves `query`, so the
//! query outputs are the registered RAM word: valid after the edge that follows a change of
//! `query`.
//!
//! `update()` (rust-hdl's simulation) and `hdl()` (the Verilog, written by hand) are separate
//! code; the bench (`bench::solver`) simulates the emitted Verilog itself, under
//! Icarus, Verilator and as a synthesised iCE40 netlist.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use crate::verilog::{emit, VerilogError};

/// Module name of the emitted solver.
pub const SOLVER_MODULE: &str = "sticks_solver";

/// Largest count the solver supports (W <= 8).
pub const MAX_SOLVER_COUNT: u64 = 255;

/// Largest take the solver supports.
pub const MAX_SOLVER_TAKE: u64 = 8;

/// The solve-time bound of the port contract: `(count + 1) * (K + 2) + 16` cycles.
pub fn cycle_bound(count: u64, max_take: u64) -> u64 {
    (count + 1) * (max_take + 2) + 16
}

/// Cycles this design takes: `(count + 1) * (K + 2) + 1`, from the edge that samples `start`
/// to the edge that raises `done`.
pub fn solve_cycles(count: u64, max_take: u64) -> u64 {
    (count + 1) * (max_take + 2) + 1
}

/// Bits needed to write `value` (at least 1).
pub fn bits_for(value: u64) -> usize {
    (64 - value.leading_zeros() as usize).max(1)
}

/// The solver's widths for a largest count and a largest take: (W, M).
pub fn solver_widths(max_count: u64, max_take: u64) -> (usize, usize) {
    (bits_for(max_count), bits_for(max_take))
}

/// Where the table lives: the smaller of a register file and one SB_RAM40_4K for the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableStorage {
    /// Flip-flops (`ram_style = "logic"`).
    Registers,
    /// One iCE40 block RAM (`ram_style = "block"`).
    BlockRam,
}

/// The largest count whose table goes into registers. Measured (`synth_ice40`, then
/// `nextpnr-ice40 --up5k --pack-only`, logic cells of the register file over those of the
/// block-RAM version, K = 1..8): 1 to 4 more at C = 1, 22 to 34 more at C = 2..3, 56 to 123 more
/// at C = 4..7, about 200 more and up from C = 8. Registers win while they cost less than half
/// of the logic cells a block RAM stands for on the smallest target (the HX1K: 1,280 logic
/// cells and 16 block RAMs, 80 cells each), so up to C = 3.
pub const MAX_REGISTER_TABLE_COUNT: u64 = 3;

/// The table storage for counts up to `max_count` (it depends on the word count `2^W` only).
pub fn table_storage(max_count: u64) -> TableStorage {
    storage_for_width(bits_for(max_count))
}

fn storage_for_width(w: usize) -> TableStorage {
    if w <= bits_for(MAX_REGISTER_TABLE_COUNT) {
        TableStorage::Registers
    } else {
        TableStorage::BlockRam
    }
}

impl std::fmt::Display for TableStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableStorage::Registers => "registers",
            TableStorage::BlockRam => "one SB_RAM40_4K",
        })
    }
}

/// Registers of the solver, as `update()` models them.
#[derive(Clone, Debug, Default)]
struct State {
    mem: Vec<u32>,
    rdata: u32,
    pending: u32,
    addr: u32,
    under: bool,
    avail: bool,
    last_wins: bool,
    count: u32,
    n: u32,
    phase: u32,
    busy: bool,
    done: bool,
    finish: bool,
    have_move: bool,
    have_loss: bool,
    acc_depth: u32,
    acc_take: u32,
}

/// The on-chip solver (see the module docs). Ports are exactly those of the issue.
#[derive(LogicBlock)]
pub struct SticksSolver<const W: usize, const K: usize, const M: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: not solving, not done.
    pub reset: Signal<In, Bit>,
    /// Bit `i` set: taking `i + 1` is allowed. Sampled with `start`.
    pub take_set: Signal<In, Bits<K>>,
    /// Solve positions `0..=count`. Sampled with `start`.
    pub count: Signal<In, Bits<W>>,
    /// 1: whoever takes the last stick wins; 0: loses. Sampled with `start`.
    pub last_wins: Signal<In, Bit>,
    /// Starts a solve (also during one, which restarts it).
    pub start: Signal<In, Bit>,
    /// High while solving.
    pub busy: Signal<Out, Bit>,
    /// High from the end of a solve until the next `start`.
    pub done: Signal<Out, Bit>,
    /// The position to read.
    pub query: Signal<In, Bits<W>>,
    /// 1 when the player to move at `query` wins.
    pub query_winning: Signal<Out, Bit>,
    /// Moves to the end from `query` with optimal play.
    pub query_depth: Signal<Out, Bits<W>>,
    /// The chosen take at `query`; 0 where there is no move.
    pub query_take: Signal<Out, Bits<M>>,
    _state: State,
}

impl<const W: usize, const K: usize, const M: usize> Default for SticksSolver<W, K, M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const K: usize, const M: usize> SticksSolver<W, K, M> {
    /// The solver, `connect_all()` called.
    ///
    /// # Panics
    /// Unless `1 <= W <= 8`, `1 <= K <= 8` and `M` is the bits for `K`.
    pub fn new() -> Self {
        assert!((1..=8).contains(&W), "W = {W} is not in 1..=8");
        assert!((1..=8).contains(&K), "K = {K} is not in 1..=8");
        assert_eq!(M, bits_for(K as u64), "M must be the bits for K = {K}");
        let mut block = Self {
            clock: Default::default(),
            reset: Default::default(),
            take_set: Default::default(),
            count: Default::default(),
            last_wins: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            query: Default::default(),
            query_winning: Default::default(),
            query_depth: Default::default(),
            query_take: Default::default(),
            _state: State {
                mem: vec![0; 1 << W],
                ..State::default()
            },
        };
        block.connect_all();
        block
    }

    fn word_mask() -> u32 {
        (1 << (1 + W + M)) - 1
    }

    /// One rising edge of the registers, from the inputs' current values.
    fn tick(&mut self) {
        let w_mask = (1u32 << W) - 1;
        let k = K as u32;
        let s = &mut self._state;
        // The read port: a successor during phases 0..K of a position, `query` otherwise.
        let reading = s.busy && !s.finish && s.phase < k;
        let read_address = if reading {
            s.addr
        } else {
            self.query.val().to_u64() as u32
        };
        let rdata_next = s.mem[read_address as usize];
        // The write port: the verdict of position n in phase K + 1.
        if s.busy && !s.finish && s.phase == k + 1 {
            let word = if s.have_move {
                (u32::from(s.have_loss) << (W + M))
                    | (((s.acc_depth + 1) & w_mask) << M)
                    | s.acc_take
            } else {
                u32::from(s.n == 0 && !s.last_wins) << (W + M)
            };
            s.mem[s.n as usize] = word & Self::word_mask();
        }
        let rd_win = (s.rdata >> (W + M)) & 1 == 1;
        let rd_depth = (s.rdata >> M) & w_mask;
        let mut next_avail = s.avail;
        if self.reset.val() {
            s.busy = false;
            s.done = false;
            s.finish = false;
        } else if self.start.val() {
            s.pending = self.take_set.val().to_u64() as u32;
            s.addr = 0;
            s.under = true;
            s.count = self.count.val().to_u64() as u32;
            s.last_wins = self.last_wins.val();
            s.n = 0;
            s.phase = 0;
            s.busy = true;
            s.done = false;
            s.finish = false;
            s.have_move = false;
            s.have_loss = false;
        } else if s.busy {
            if s.finish {
                s.busy = false;
                s.done = true;
                s.finish = false;
            } else if s.phase == k + 1 {
                s.have_move = false;
                s.have_loss = false;
                s.phase = 0;
                if s.n == s.count {
                    s.finish = true;
                } else {
                    s.addr = s.n;
                    s.under = false;
                    s.n = (s.n + 1) & w_mask;
                }
            } else {
                if reading {
                    next_avail = !s.under;
                    s.under = s.under || s.addr == 0;
                    s.addr = s.addr.wrapping_sub(1) & w_mask;
                }
                if s.phase != 0 {
                    if s.pending & 1 == 1 && s.avail {
                        let take = s.phase;
                        if !rd_win {
                            if !s.have_loss || rd_depth < s.acc_depth {
                                s.have_loss = true;
                                s.acc_depth = rd_depth;
                                s.acc_take = take;
                            }
                        } else if !s.have_loss && (!s.have_move || rd_depth > s.acc_depth) {
                            s.acc_depth = rd_depth;
                            s.acc_take = take;
                        }
                        s.have_move = true;
                    }
                    s.pending = (s.pending >> 1) | ((s.pending & 1) << (K - 1));
                }
                s.phase += 1;
            }
        }
        s.rdata = rdata_next;
        s.avail = next_avail;
    }

    fn body() -> String {
        let dw = 1 + W + M;
        let top = (1u32 << W) - 1;
        // The take set rotated by one: after K phases it is whole again.
        let rotate = if K == 1 {
            "pending".to_owned()
        } else {
            format!("{{pending[0], pending[{}:1]}}", K - 1)
        };
        let storage = storage_for_width(W);
        let style = match storage {
            TableStorage::Registers => "logic",
            TableStorage::BlockRam => "block",
        };
        let mut v = String::new();
        let _ = write!(
            v,
            "\
// Table: one word per position, {{winning, depth[{W}], take[{M}]}}, in {storage}.
(* ram_style = \"{style}\" *) reg [{dwm}:0] mem [0:{top}];
reg [{dwm}:0] rdata;
reg [{km}:0] pending;
reg [{wm}:0] addr;
reg under;
reg avail;
reg last_r;
reg [{wm}:0] count_r;
reg [{wm}:0] n;
reg [3:0] phase;
reg busy_r;
reg done_r;
reg finish_r;
reg have_move;
reg have_loss;
reg [{wm}:0] acc_depth;
reg [{mm}:0] acc_take;
wire reading = busy_r & ~finish_r & (phase < 4'd{k});
wire [{wm}:0] read_address = reading ? addr : query;
wire writing = busy_r & ~finish_r & (phase == 4'd{k1});
wire [{wm}:0] depth_next = acc_depth + {w}'d1;
wire [{dwm}:0] wdata = have_move ? {{have_loss, depth_next, acc_take}}
    : {{(n == {w}'d0) & ~last_r, {wm1}'d0}};
wire rd_win = rdata[{dwm}];
wire [{wm}:0] rd_depth = rdata[{dwm1}:{m}];
wire usable = pending[0] & avail;

always @(posedge clock) begin
    rdata <= mem[read_address];
end

always @(posedge clock) begin
    if (writing) begin
        mem[n] <= wdata;
    end
end

always @(posedge clock) begin
    if (reset) begin
        busy_r <= 1'b0;
        done_r <= 1'b0;
        finish_r <= 1'b0;
    end else if (start) begin
        pending <= take_set;
        addr <= {w}'d0;
        under <= 1'b1;
        count_r <= count;
        last_r <= last_wins;
        n <= {w}'d0;
        phase <= 4'd0;
        busy_r <= 1'b1;
        done_r <= 1'b0;
        finish_r <= 1'b0;
        have_move <= 1'b0;
        have_loss <= 1'b0;
    end else if (busy_r) begin
        if (finish_r) begin
            busy_r <= 1'b0;
            done_r <= 1'b1;
            finish_r <= 1'b0;
        end else if (phase == 4'd{k1}) begin
            have_move <= 1'b0;
            have_loss <= 1'b0;
            phase <= 4'd0;
            if (n == count_r) begin
                finish_r <= 1'b1;
            end else begin
                addr <= n;
                under <= 1'b0;
                n <= n + {w}'d1;
            end
        end else begin
            if (reading) begin
                avail <= ~under;
                under <= under | (addr == {w}'d0);
                addr <= addr - {w}'d1;
            end
            if (phase != 4'd0) begin
                if (usable) begin
                    if (~rd_win) begin
                        if (~have_loss | (rd_depth < acc_depth)) begin
                            have_loss <= 1'b1;
                            acc_depth <= rd_depth;
                            acc_take <= phase[{mm}:0];
                        end
                    end else if (~have_loss & (~have_move | (rd_depth > acc_depth))) begin
                        acc_depth <= rd_depth;
                        acc_take <= phase[{mm}:0];
                    end
                    have_move <= 1'b1;
                end
                pending <= {rotate};
            end
            phase <= phase + 4'd1;
        end
    end
end

always @(*) begin
    busy = busy_r;
    done = done_r;
    query_winning = rdata[{dwm}];
    query_depth = rdata[{dwm1}:{m}];
    query_take = rdata[{mm}:0];
end
",
            dwm = dw - 1,
            dwm1 = dw - 2,
            km = K - 1,
            wm = W - 1,
            wm1 = W + M,
            mm = M - 1,
            m = M,
            w = W,
            k = K,
            k1 = K + 1,
            rotate = rotate,
            storage = storage,
            style = style,
        );
        v
    }
}

impl<const W: usize, const K: usize, const M: usize> Logic for SticksSolver<W, K, M> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.tick();
        }
        let s = &self._state;
        let w_mask = (1u32 << W) - 1;
        self.busy.next = s.busy;
        self.done.next = s.done;
        self.query_winning.next = (s.rdata >> (W + M)) & 1 == 1;
        self.query_depth.next = bits::<W>(u64::from((s.rdata >> M) & w_mask));
        self.query_take.next = bits::<M>(u64::from(s.rdata & ((1 << M) - 1)));
    }

    fn connect(&mut self) {
        self.busy.connect();
        self.done.connect();
        self.query_winning.connect();
        self.query_depth.connect();
        self.query_take.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(Self::body())
    }
}

/// Calls `$f::<W, K, M>($args)` for a solver's widths at run time: `$w` in 1..=8 and `$k` in
/// 1..=8 (M follows from K). Other widths panic; validate them first.
#[macro_export]
macro_rules! with_solver_widths {
    ($w:expr, $k:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match ($w, $k) {
            (1, 1) => $f::<1, 1, 1>($($arg),*),
            (1, 2) => $f::<1, 2, 2>($($arg),*),
            (1, 3) => $f::<1, 3, 2>($($arg),*),
            (1, 4) => $f::<1, 4, 3>($($arg),*),
            (1, 5) => $f::<1, 5, 3>($($arg),*),
            (1, 6) => $f::<1, 6, 3>($($arg),*),
            (1, 7) => $f::<1, 7, 3>($($arg),*),
            (1, 8) => $f::<1, 8, 4>($($arg),*),
            (2, 1) => $f::<2, 1, 1>($($arg),*),
            (2, 2) => $f::<2, 2, 2>($($arg),*),
            (2, 3) => $f::<2, 3, 2>($($arg),*),
            (2, 4) => $f::<2, 4, 3>($($arg),*),
            (2, 5) => $f::<2, 5, 3>($($arg),*),
            (2, 6) => $f::<2, 6, 3>($($arg),*),
            (2, 7) => $f::<2, 7, 3>($($arg),*),
            (2, 8) => $f::<2, 8, 4>($($arg),*),
            (3, 1) => $f::<3, 1, 1>($($arg),*),
            (3, 2) => $f::<3, 2, 2>($($arg),*),
            (3, 3) => $f::<3, 3, 2>($($arg),*),
            (3, 4) => $f::<3, 4, 3>($($arg),*),
            (3, 5) => $f::<3, 5, 3>($($arg),*),
            (3, 6) => $f::<3, 6, 3>($($arg),*),
            (3, 7) => $f::<3, 7, 3>($($arg),*),
            (3, 8) => $f::<3, 8, 4>($($arg),*),
            (4, 1) => $f::<4, 1, 1>($($arg),*),
            (4, 2) => $f::<4, 2, 2>($($arg),*),
            (4, 3) => $f::<4, 3, 2>($($arg),*),
            (4, 4) => $f::<4, 4, 3>($($arg),*),
            (4, 5) => $f::<4, 5, 3>($($arg),*),
            (4, 6) => $f::<4, 6, 3>($($arg),*),
            (4, 7) => $f::<4, 7, 3>($($arg),*),
            (4, 8) => $f::<4, 8, 4>($($arg),*),
            (5, 1) => $f::<5, 1, 1>($($arg),*),
            (5, 2) => $f::<5, 2, 2>($($arg),*),
            (5, 3) => $f::<5, 3, 2>($($arg),*),
            (5, 4) => $f::<5, 4, 3>($($arg),*),
            (5, 5) => $f::<5, 5, 3>($($arg),*),
            (5, 6) => $f::<5, 6, 3>($($arg),*),
            (5, 7) => $f::<5, 7, 3>($($arg),*),
            (5, 8) => $f::<5, 8, 4>($($arg),*),
            (6, 1) => $f::<6, 1, 1>($($arg),*),
            (6, 2) => $f::<6, 2, 2>($($arg),*),
            (6, 3) => $f::<6, 3, 2>($($arg),*),
            (6, 4) => $f::<6, 4, 3>($($arg),*),
            (6, 5) => $f::<6, 5, 3>($($arg),*),
            (6, 6) => $f::<6, 6, 3>($($arg),*),
            (6, 7) => $f::<6, 7, 3>($($arg),*),
            (6, 8) => $f::<6, 8, 4>($($arg),*),
            (7, 1) => $f::<7, 1, 1>($($arg),*),
            (7, 2) => $f::<7, 2, 2>($($arg),*),
            (7, 3) => $f::<7, 3, 2>($($arg),*),
            (7, 4) => $f::<7, 4, 3>($($arg),*),
            (7, 5) => $f::<7, 5, 3>($($arg),*),
            (7, 6) => $f::<7, 6, 3>($($arg),*),
            (7, 7) => $f::<7, 7, 3>($($arg),*),
            (7, 8) => $f::<7, 8, 4>($($arg),*),
            (8, 1) => $f::<8, 1, 1>($($arg),*),
            (8, 2) => $f::<8, 2, 2>($($arg),*),
            (8, 3) => $f::<8, 3, 2>($($arg),*),
            (8, 4) => $f::<8, 4, 3>($($arg),*),
            (8, 5) => $f::<8, 5, 3>($($arg),*),
            (8, 6) => $f::<8, 6, 3>($($arg),*),
            (8, 7) => $f::<8, 7, 3>($($arg),*),
            (8, 8) => $f::<8, 8, 4>($($arg),*),
            (w, k) => panic!("no solver of {w} count bits and largest take {k} (1..=8, 1..=8)"),
        }
    };
}

/// Why a solver cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolverError {
    /// `--max-count` out of range.
    #[error("--max-count {0} is out of range: the on-chip solver handles 1 to {MAX_SOLVER_COUNT} sticks; pass --max-count 1..=255")]
    MaxCount(u64),
    /// `--max-take` out of range.
    #[error("--max-take {0} is out of range: the on-chip solver handles takes 1 to {MAX_SOLVER_TAKE}; pass --max-take 1..=8")]
    MaxTake(u64),
    /// Emitting the Verilog failed.
    #[error(transparent)]
    Verilog(#[from] VerilogError),
}

/// Checks a largest count and a largest take.
pub fn check_solver_size(max_count: u64, max_take: u64) -> Result<(), SolverError> {
    if !(1..=MAX_SOLVER_COUNT).contains(&max_count) {
        return Err(SolverError::MaxCount(max_count));
    }
    if !(1..=MAX_SOLVER_TAKE).contains(&max_take) {
        return Err(SolverError::MaxTake(max_take));
    }
    Ok(())
}

fn solver_verilog_of<const W: usize, const K: usize, const M: usize>() -> Result<String, SolverError>
{
    Ok(emit(&SticksSolver::<W, K, M>::new(), SOLVER_MODULE)?)
}

/// The Verilog of the solver for counts up to `max_count` and takes up to `max_take`, module
/// `sticks_solver`.
pub fn sticks_solver_verilog(max_count: u64, max_take: u64) -> Result<String, SolverError> {
    check_solver_size(max_count, max_take)?;
    let w = bits_for(max_count);
    with_solver_widths!(w, max_take as usize, solver_verilog_of())
}

/// One solve's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveRequest {
    /// Bit `i`: taking `i + 1` is allowed.
    pub take_set: u32,
    /// Solve `0..=count`.
    pub count: u32,
    /// The rule.
    pub last_wins: bool,
}

/// `count 18, take 1,2,3, last loses`, as a person reads a game.
impl std::fmt::Display for SolveRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let takes: Vec<String> = (0..32)
            .filter(|i| self.take_set >> i & 1 == 1)
            .map(|i| (i + 1).to_string())
            .collect();
        let rule = if self.last_wins { "wins" } else { "loses" };
        write!(
            f,
            "count {}, take {}, last {rule}",
            self.count,
            takes.join(",")
        )
    }
}

/// One position as the solver's query port reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The player to move wins.
    pub winning: bool,
    /// Moves to the end.
    pub depth: u32,
    /// The chosen take, 0 without a move.
    pub take: u32,
}

/// `winning, depth 3, take 2` (or `losing, depth 0, take 0`).
impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = if self.winning { "winning" } else { "losing" };
        write!(f, "{outcome}, depth {}, take {}", self.depth, self.take)
    }
}

/// A solve as seen through the ports: the table and the cycles it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Entries of positions `0..=count`.
    pub table: Vec<Entry>,
    /// Rising edges from the one that samples `start` to the one that raises `done`.
    pub cycles: u64,
}

/// Runs solves on rust-hdl's simulation of a solver of `max_count`/`max_take`, through its
/// ports (start, wait for `done` counting cycles, query every position). `limit` caps each
/// wait; a solve that does not finish within it has `cycles` > `limit` and an empty table.
pub fn simulate_solves(
    max_count: u64,
    max_take: u64,
    requests: &[SolveRequest],
    limit: u64,
) -> Result<Vec<Solved>, SolverError> {
    check_solver_size(max_count, max_take)?;
    let w = bits_for(max_count);
    Ok(with_solver_widths!(
        w,
        max_take as usize,
        simulate_solves_of(requests, limit)
    ))
}

fn simulate_solves_of<const W: usize, const K: usize, const M: usize>(
    requests: &[SolveRequest],
    limit: u64,
) -> Vec<Solved> {
    let mut block = SticksSolver::<W, K, M>::new();
    let edge = |b: &mut SticksSolver<W, K, M>| {
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
        block.take_set.next = bits::<K>(u64::from(r.take_set));
        block.count.next = bits::<W>(u64::from(r.count));
        block.last_wins.next = r.last_wins;
        block.start.next = true;
        edge(&mut block);
        block.start.next = false;
        // Scramble the inputs sampled with `start`: the solve must not look at them again.
        block.take_set.next = bits::<K>(!u64::from(r.take_set) & ((1 << K) - 1));
        block.count.next = bits::<W>(0);
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
            for q in 0..=r.count {
                block.query.next = bits::<W>(u64::from(q));
                edge(&mut block);
                table.push(Entry {
                    winning: block.query_winning.val(),
                    depth: block.query_depth.val().to_u64() as u32,
                    take: block.query_take.val().to_u64() as u32,
                });
            }
        } else {
            cycles = cycles.max(limit + 1);
        }
        out.push(Solved { table, cycles });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_limits() {
        assert_eq!(solver_widths(255, 8), (8, 4));
        assert_eq!(solver_widths(63, 4), (6, 3));
        assert_eq!(solver_widths(1, 1), (1, 1));
        assert_eq!(solver_widths(18, 3), (5, 2));
        assert!(solve_cycles(255, 8) <= cycle_bound(255, 8));
    }

    #[test]
    fn bad_sizes_are_refused_naming_the_flag() {
        let e = sticks_solver_verilog(256, 3).unwrap_err();
        assert!(e.to_string().contains("--max-count 256"), "{e}");
        let e = sticks_solver_verilog(0, 3).unwrap_err();
        assert!(e.to_string().contains("--max-count"), "{e}");
        let e = sticks_solver_verilog(10, 9).unwrap_err();
        assert!(e.to_string().contains("--max-take 9"), "{e}");
        let e = sticks_solver_verilog(10, 0).unwrap_err();
        assert!(e.to_string().contains("--max-take"), "{e}");
    }

    #[test]
    fn ports_are_the_contract() {
        let v = sticks_solver_verilog(255, 8).unwrap();
        let ports = crate::verilog::module_ports(&v, SOLVER_MODULE).expect("module");
        let names: Vec<(String, usize)> = ports.iter().map(|p| (p.name.clone(), p.width)).collect();
        let expect = [
            ("clock", 1),
            ("reset", 1),
            ("take_set", 8),
            ("count", 8),
            ("last_wins", 1),
            ("start", 1),
            ("busy", 1),
            ("done", 1),
            ("query", 8),
            ("query_winning", 1),
            ("query_depth", 8),
            ("query_take", 4),
        ];
        for (name, width) in expect {
            assert!(
                names.contains(&(name.to_owned(), width)),
                "{name}[{width}] missing from {names:?}"
            );
        }
        assert_eq!(names.len(), expect.len());
    }

    #[test]
    fn the_table_storage_follows_the_count() {
        assert_eq!(table_storage(1), TableStorage::Registers);
        assert_eq!(table_storage(3), TableStorage::Registers);
        assert_eq!(table_storage(4), TableStorage::BlockRam);
        assert_eq!(table_storage(255), TableStorage::BlockRam);
        assert!(sticks_solver_verilog(3, 8)
            .unwrap()
            .contains("(* ram_style = \"logic\" *) reg [6:0] mem [0:3];"));
        assert!(sticks_solver_verilog(4, 2)
            .unwrap()
            .contains("(* ram_style = \"block\" *) reg [5:0] mem [0:7];"));
    }

    #[test]
    fn emission_is_deterministic() {
        assert_eq!(
            sticks_solver_verilog(63, 4).unwrap(),
            sticks_solver_verilog(63, 4).unwrap()
        );
    }
}
