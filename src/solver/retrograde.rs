//! Retrograde analysis: outcome, depth and chosen move for every position of a game.
//!
//! Terminal positions are resolved first (depth 0). Then a FIFO queue, which holds positions in
//! non-decreasing depth, resolves predecessors: a predecessor of a lost position is won one move
//! later (the first such loss found is the shallowest, so the winner hurries); a predecessor
//! whose last unresolved successor turns out won is lost one move after the deepest of them (so
//! the loser delays). Nothing recurses, so cyclic graphs work: positions never resolved are
//! draws. Memory: a packed `u32` per position, a `u8` successor counter and a `u32` queue slot.
//!
//! Acyclic games (every move goes the same way in the index, [`Game::direction`]) skip all of
//! that: one [`Game::sweep`] in the order that puts successors first decides every position
//! from its successors' values, with one key a position alone (a loss in `d` is `d`, a win in
//! `d` is `TOP - d`, so the best successor is the smallest key): a `u16` when the game bounds
//! every depth below 2^14 ([`Game::depth_bound`]), else a `u32`. Successors come as index
//! steps, so a game can share one table of steps among many positions.
//!
//! The chosen move is not stored: it is recomputed from the successors' values, which gives
//! the move that realises the depth, ties going to the earliest move in the game's order.

use super::reachable::Reachable;
use crate::game::{Direction, Ending, Game, Last, Order, SolverPath, Successor, Visit};
use serde::Serialize;
use std::fmt;

/// Game-theoretic value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player to move wins with optimal play.
    Win,
    /// The player to move loses against optimal play.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        })
    }
}

/// Outcome and depth of a position: depth is the number of moves to the end with optimal
/// play (the winner hurries, the loser delays); `None` for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Value {
    /// Outcome for the player to move.
    pub outcome: Outcome,
    /// Moves to the end; `None` for draws.
    pub depth: Option<u64>,
}

impl Value {
    /// A won position, `depth` moves from the end.
    pub const fn win(depth: u64) -> Self {
        Value {
            outcome: Outcome::Win,
            depth: Some(depth),
        }
    }
    /// A lost position, `depth` moves from the end.
    pub const fn loss(depth: u64) -> Self {
        Value {
            outcome: Outcome::Loss,
            depth: Some(depth),
        }
    }
    /// A drawn position.
    pub const DRAW: Value = Value {
        outcome: Outcome::Draw,
        depth: None,
    };

    /// The value of a terminal position.
    pub fn terminal(ending: Ending, last: Last) -> Self {
        match (ending, last) {
            (Ending::Reached, Last::Loses) => Value::win(0),
            _ => Value::loss(0),
        }
    }

    /// How good this value is for the player who moves INTO it (the opponent of the player to
    /// move here); larger is better: wins for the mover first, fastest first; then draws;
    /// then losses, slowest first.
    pub(crate) fn score_for_mover(self) -> (u8, i128) {
        match (self.outcome, self.depth) {
            (Outcome::Loss, Some(d)) => (2, -(d as i128)),
            (Outcome::Draw, _) => (1, 0),
            (Outcome::Win, Some(d)) => (0, d as i128),
            _ => unreachable!("won and lost positions have a depth"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.depth {
            Some(d) => write!(f, "{} in {}", self.outcome, d),
            None => write!(f, "{}", self.outcome),
        }
    }
}

const UNRESOLVED: u32 = 0;
const WIN: u32 = 1;
const LOSS: u32 = 2;
/// Deepest depth the packed representation holds.
pub const MAX_DEPTH: u64 = (1 << 30) - 1;

#[inline]
fn pack(outcome: u32, depth: u64) -> u32 {
    assert!(depth <= MAX_DEPTH, "depth {depth} exceeds {MAX_DEPTH}");
    outcome | ((depth as u32) << 2)
}

/// The solver's values. The queue path stores `pack`ed values (outcome in the low two bits,
/// depth above; 0 is unresolved: a draw). The one-sweep path stores keys ([`Cell`]), 2 bytes a
/// position when the game bounds every depth below 2^14 ([`Game::depth_bound`]), else 4; the
/// stick games' pass ([`Game::moves_go_down`]) stores 4-byte keys.
#[derive(Clone, Debug)]
enum Packed {
    Keys16(Vec<u16>),
    Keys32(Vec<u32>),
    Wide(Vec<u32>),
}

/// A one-sweep solver cell: `u16` or `u32`. It holds a position's key for the player who moves
/// into it, so that the best successor is the one with the smallest key: a loss in `d` has
/// key `d`, a win in `d` has key `Cell::TOP - d` (above every loss key). The key is stored
/// XOR the key of the end condition's own value, so that the allocator's zeros stand for
/// positions where the end condition holds and need not be written.
trait Cell: Zeroable {
    /// The largest key: a win in 0.
    const TOP: u32;
    /// Deepest depth the cell holds.
    const MAX_DEPTH: u32;
    fn get(self) -> u32;
    fn of(v: u32) -> Self;
}

impl Cell for u16 {
    const TOP: u32 = u16::MAX as u32;
    const MAX_DEPTH: u32 = (1 << 14) - 1;
    #[inline]
    fn get(self) -> u32 {
        self as u32
    }
    #[inline]
    fn of(v: u32) -> Self {
        v as u16
    }
}

impl Cell for u32 {
    const TOP: u32 = u32::MAX;
    const MAX_DEPTH: u32 = MAX_DEPTH as u32;
    #[inline]
    fn get(self) -> u32 {
        self
    }
    #[inline]
    fn of(v: u32) -> Self {
        v
    }
}

/// The key of a won or lost value (see [`Cell`]).
fn key_of<C: Cell>(v: Value) -> u32 {
    let d = v.depth.expect("won and lost values have a depth") as u32;
    match v.outcome {
        Outcome::Loss => d,
        _ => C::TOP - d,
    }
}

/// The `pack`ed value of a key (see [`Cell`]).
#[inline]
fn unkey<C: Cell>(key: u32) -> u32 {
    if key <= C::MAX_DEPTH {
        LOSS | (key << 2)
    } else {
        WIN | ((C::TOP - key) << 2)
    }
}

impl Packed {
    /// The `pack`ed value of position `i`; `mask` is the solution's `zero`.
    #[inline]
    fn get(&self, i: usize, mask: u32) -> u32 {
        match self {
            Packed::Keys16(v) => unkey::<u16>(v[i].get() ^ mask),
            Packed::Keys32(v) => unkey::<u32>(v[i] ^ mask),
            Packed::Wide(v) => match v[i] {
                UNRESOLVED => mask,
                v => v,
            },
        }
    }
    fn len(&self) -> usize {
        match self {
            Packed::Keys16(v) => v.len(),
            Packed::Keys32(v) | Packed::Wide(v) => v.len(),
        }
    }
}

/// The solved game.
#[derive(Clone, Debug)]
pub struct Solution<'g, G: Game> {
    game: &'g G,
    packed: Packed,
    /// [`Packed::Wide`]: the packed value that 0 stands for (a draw); the keys: the mask they
    /// are stored with, the key of a position where the end condition holds.
    zero: u32,
}

/// Told how far a long solve has got. The solver calls it every [`PROGRESS_STEP`] positions
/// of each pass, so a no-op costs nothing measurable.
pub trait Progress {
    /// A pass over `total` positions begins: `pass` names it.
    fn pass(&mut self, pass: &'static str, total: u64);
    /// `done` of the current pass's positions are handled.
    fn at(&mut self, done: u64);
}

/// No progress reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn pass(&mut self, _: &'static str, _: u64) {}
    fn at(&mut self, _: u64) {}
}

/// How many positions go by between two progress reports.
pub const PROGRESS_STEP: usize = 1 << 16;

/// The solver could not get the memory for one of its arrays.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate {bytes} bytes for {what}")]
pub struct OutOfMemory {
    /// Bytes asked for.
    pub bytes: u128,
    /// The array.
    pub what: &'static str,
}

/// Integers, for which all-zero bytes are a valid value.
pub(crate) trait Zeroable: Copy {}
impl Zeroable for u8 {}
impl Zeroable for u16 {}
impl Zeroable for u32 {}
impl Zeroable for u64 {}

/// A vector of `n` zeros, or [`OutOfMemory`] instead of an abort. The memory comes zeroed
/// from the allocator (`calloc`), so pages never written cost no memory.
pub(crate) fn try_zeroed<T: Zeroable>(n: usize, what: &'static str) -> Result<Vec<T>, OutOfMemory> {
    let error = OutOfMemory {
        bytes: n as u128 * std::mem::size_of::<T>() as u128,
        what,
    };
    if n == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| error.clone())?;
    // SAFETY: `layout` has a non-zero size; a null pointer is handled. The buffer comes from
    // the global allocator with `T`'s alignment and room for exactly `n` values, all zero
    // bytes, which is a valid `T` (`Zeroable` is only implemented for integers), as
    // `Vec::from_raw_parts` requires.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return Err(error);
        }
        Ok(Vec::from_raw_parts(ptr, n, n))
    }
}

/// An empty vector with room for `n` values, or [`OutOfMemory`].
pub(crate) fn try_with_capacity<T>(n: usize, what: &'static str) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| OutOfMemory {
        bytes: n as u128 * std::mem::size_of::<T>() as u128,
        what,
    })?;
    Ok(v)
}

/// Solves every position of `game`. Panics when memory runs out; see [`try_solve_with_progress`].
pub fn solve<G: Game>(game: &G) -> Solution<'_, G> {
    solve_with_progress(game, &mut NoProgress)
}

/// [`solve`], reporting its passes to `progress`. Panics when memory runs out.
pub fn solve_with_progress<'g, G: Game>(
    game: &'g G,
    progress: &mut dyn Progress,
) -> Solution<'g, G> {
    try_solve_with_progress(game, progress).unwrap_or_else(|e| panic!("{e}"))
}

/// Solves every position of `game`, reporting its passes to `progress`: acyclic games (see
/// [`Game::direction`]) in one sweep, successors first (pass "resolve"); the others with the
/// queue (passes "ends", "moves", "resolve"). The big arrays are reserved with `try_reserve`:
/// a failure is an [`OutOfMemory`], never an abort.
pub fn try_solve_with_progress<'g, G: Game>(
    game: &'g G,
    progress: &mut dyn Progress,
) -> Result<Solution<'g, G>, OutOfMemory> {
    let n = game.len();
    let path = SolverPath::of(game);
    assert!(
        n as u64 <= path.max_positions(),
        "{n} positions exceed the solver's limit; games check their size when built (SticksGame::check_solvable)"
    );
    if game.moves_go_down() {
        return solve_descending(game, progress);
    }
    if let Some(direction) = game.direction() {
        return solve_in_one_sweep(game, direction, progress);
    }
    let last = game.last();
    let mut packed = try_zeroed::<u32>(n, "the values (4 bytes a position)")?;
    let mut pending = try_zeroed::<u8>(n, "the successor counters (1 byte a position)")?;
    // Every position enters the queue at most once.
    let mut queue: Vec<u32> = try_with_capacity(n, "the queue (4 bytes a position)")?;

    // Depth 0: the positions with no moves. Depth 1 from moves that leave the index space
    // (they always end the game) is marked in the same sweep and queued after all of depth 0,
    // and the successor counters are set for everything else.
    struct Ends<'a> {
        packed: &'a mut [u32],
        pending: &'a mut [u8],
        queue: &'a mut Vec<u32>,
        last: Last,
        beyond_lost: bool,
        progress: &'a mut dyn Progress,
    }
    impl Visit for Ends<'_> {
        #[inline]
        fn ended(&mut self, i: usize, ending: Ending) {
            if i.is_multiple_of(PROGRESS_STEP) {
                self.progress.at(i as u64);
            }
            let v = Value::terminal(ending, self.last);
            self.packed[i] = pack(if v.outcome == Outcome::Win { WIN } else { LOSS }, 0);
            self.queue.push(i as u32);
        }
        #[inline]
        fn moves(&mut self, i: usize, steps: [&[isize]; 2], beyond: bool) {
            let stored = steps[0].len() + steps[1].len();
            if i.is_multiple_of(PROGRESS_STEP) {
                self.progress.at(i as u64);
            }
            if beyond && self.beyond_lost {
                self.packed[i] = pack(WIN, 1);
            } else if stored == 0 {
                self.packed[i] = pack(LOSS, 1);
            } else {
                // One less than the count: 4 heaps of 64 moves make 256 successors.
                self.pending[i] =
                    u8::try_from(stored - 1).expect("at most 256 stored successors a position");
            }
        }
    }
    progress.pass("ends", n as u64);
    game.sweep(
        Order::Ascending,
        &mut Ends {
            packed: &mut packed,
            pending: &mut pending,
            queue: &mut queue,
            last,
            beyond_lost: Value::terminal(Ending::Reached, last).outcome == Outcome::Loss,
            progress,
        },
    );
    progress.pass("moves", n as u64);
    for (i, &v) in packed.iter().enumerate() {
        if i % PROGRESS_STEP == 0 {
            progress.at(i as u64);
        }
        if v >> 2 == 1 {
            queue.push(i as u32);
        }
    }
    let mut head = 0;
    // Positions never resolved are draws, so the pass may end short of `n`.
    progress.pass("resolve", n as u64);
    while head < queue.len() {
        if head % PROGRESS_STEP == 0 {
            progress.at(head as u64);
        }
        let p = queue[head] as usize;
        head += 1;
        let v = packed[p];
        let next_depth = (v >> 2) as u64 + 1;
        let lost_here = v & 3 == LOSS;
        game.for_each_predecessor(p, |q| {
            if packed[q] != UNRESOLVED {
                return;
            }
            if lost_here {
                packed[q] = pack(WIN, next_depth);
                queue.push(q as u32);
            } else if pending[q] == 0 {
                // That was the last unresolved successor (the counter holds one less).
                packed[q] = pack(LOSS, next_depth);
                queue.push(q as u32);
            } else {
                pending[q] -= 1;
            }
        });
    }
    progress.at(head as u64);
    Ok(Solution {
        game,
        packed: Packed::Wide(packed),
        zero: UNRESOLVED,
    })
}

/// The same analysis in one ascending pass, for games whose moves always lead to smaller
/// indices: every successor is decided before its predecessor, so a position is won one move
/// after its shallowest lost successor, or else lost one move after its deepest won one.
/// (No position can be drawn.) Terminal positions come first in this order, as in the queue.
///
/// The values are `u32` keys as on the one-sweep path (see [`Cell`]): a position's value is
/// one `min` over its successors' keys, written in place into zeroed memory (the allocator's
/// zero pages, so no pass writes them first, and positions where the end condition holds
/// keep their 0).
fn solve_descending<'g, G: Game>(
    game: &'g G,
    progress: &mut dyn Progress,
) -> Result<Solution<'g, G>, OutOfMemory> {
    let n = game.len();
    let last = game.last();
    let mut keys = try_zeroed::<u32>(n, "the values (4 bytes a position)")?;
    let mask = key_of::<u32>(Value::terminal(Ending::Reached, last));
    let stuck = key_of::<u32>(Value::terminal(Ending::Stuck, last)) ^ mask;
    progress.pass("resolve", n as u64);
    descend(game, &mut keys, mask, stuck, progress);
    progress.at(n as u64);
    Ok(Solution {
        game,
        packed: Packed::Keys32(keys),
        zero: mask,
    })
}

/// The loop of [`solve_descending`]: `keys` all zeros on entry, stored XOR `mask` (the key of
/// the end condition's value); `stuck` is the stored key of a position with no move. Kept out
/// of line so that its code does not depend on what the caller inlines around it.
#[inline(never)]
fn descend<G: Game>(
    game: &G,
    keys: &mut [u32],
    mask: u32,
    stuck: u32,
    progress: &mut dyn Progress,
) {
    // The key of position i - 1, unmasked: the move to it (take 1) reads this register, not
    // the value just stored, which keeps the store-to-load latency out of the chain from one
    // position to the next.
    let mut previous = mask;
    for i in 0..keys.len() {
        if i % PROGRESS_STEP == 0 {
            progress.at(i as u64);
        }
        if let Some(ending) = game.ending(i) {
            previous = match ending {
                Ending::Stuck => {
                    keys[i] = stuck;
                    stuck ^ mask
                }
                Ending::Reached => mask,
            };
            continue;
        }
        let (decided, here) = keys.split_at_mut(i);
        // The smallest key of a successor: the shallowest loss, else the deepest win. A move
        // beyond the index space has the end condition's key, the mask.
        let mut best = u32::MAX;
        game.for_each_successor(i, |s| {
            let key = match s {
                Successor::Stored(j) if j + 1 == i => previous,
                Successor::Stored(j) => {
                    debug_assert!(j < i, "moves_go_down: move from {i} to {j}");
                    decided[j] ^ mask
                }
                Successor::Beyond => mask,
            };
            best = best.min(key);
        });
        let key = if best <= <u32 as Cell>::MAX_DEPTH {
            // Won one move after the shallowest lost successor.
            u32::MAX - (best + 1)
        } else {
            // Lost one move after the deepest won successor.
            u32::MAX - best + 1
        };
        debug_assert!(
            key.min(u32::MAX - key) <= <u32 as Cell>::MAX_DEPTH,
            "depth beyond {MAX_DEPTH}"
        );
        here[0] = key ^ mask;
        previous = key;
    }
}

/// The one-pass analysis for any acyclic game, through its [`Game::sweep`] in the order that
/// puts successors first: a position is won one move after its shallowest lost successor, or
/// else lost one move after its deepest won one. 2 or 4 bytes a position (see [`Packed`]), no
/// counters, no queue.
///
/// Positions where the end condition holds are left at 0, which this solution reads as their
/// value (the same as a move beyond the index space): the allocator's zero pages of a large
/// terminal region are never written, so they cost no memory.
fn solve_in_one_sweep<'g, G: Game>(
    game: &'g G,
    direction: Direction,
    progress: &mut dyn Progress,
) -> Result<Solution<'g, G>, OutOfMemory> {
    let n = game.len();
    let reached = Value::terminal(Ending::Reached, game.last());
    Ok(
        if game
            .depth_bound()
            .is_some_and(|d| d <= <u16 as Cell>::MAX_DEPTH as u64)
        {
            let mut keys = try_zeroed::<u16>(n, "the values (2 bytes a position)")?;
            sweep_values(game, direction, &mut keys, progress);
            Solution {
                game,
                packed: Packed::Keys16(keys),
                zero: key_of::<u16>(reached),
            }
        } else {
            let mut keys = try_zeroed::<u32>(n, "the values (4 bytes a position)")?;
            sweep_values(game, direction, &mut keys, progress);
            Solution {
                game,
                packed: Packed::Keys32(keys),
                zero: key_of::<u32>(reached),
            }
        },
    )
}

/// The sweep of [`solve_in_one_sweep`] into `keys` (all zeros on entry; see [`Cell`]).
fn sweep_values<G: Game, C: Cell>(
    game: &G,
    direction: Direction,
    keys: &mut [C],
    progress: &mut dyn Progress,
) {
    let n = game.len();
    let last = game.last();
    struct Resolve<'a, C> {
        keys: &'a mut [C],
        /// The key of the end condition's value, which every key is stored XOR.
        mask: u32,
        stuck: C,
        order: Order,
        progress: &'a mut dyn Progress,
    }
    impl<C> Resolve<'_, C> {
        #[inline]
        fn tick(&mut self, i: usize) {
            if i.is_multiple_of(PROGRESS_STEP) {
                let done = match self.order {
                    Order::Ascending => i,
                    Order::Descending => self.keys.len() - i,
                };
                self.progress.at(done as u64);
            }
        }
    }
    impl<C: Cell> Visit for Resolve<'_, C> {
        const EVERY_STORED_SUCCESSOR: bool = false;
        #[inline]
        fn ended(&mut self, i: usize, ending: Ending) {
            self.tick(i);
            if ending == Ending::Stuck {
                self.keys[i] = self.stuck;
            }
        }
        /// Positions where the end condition holds keep their 0 (see [`Cell`]).
        #[inline]
        fn reached_all(&mut self, range: std::ops::Range<usize>, _: Order) {
            let tick = range.start.next_multiple_of(PROGRESS_STEP);
            if tick < range.end {
                self.tick(tick);
            }
        }
        #[inline]
        fn moves(&mut self, i: usize, steps: [&[isize]; 2], beyond: bool) {
            self.tick(i);
            // The smallest key of a successor: the shallowest loss, else the deepest win. A
            // move beyond the index space has the end condition's key, the mask.
            let mut best = if beyond { self.mask } else { C::TOP };
            for part in steps {
                for &s in part {
                    best = best.min(self.keys[i.wrapping_add_signed(s)].get() ^ self.mask);
                }
            }
            let key = if best <= C::MAX_DEPTH {
                // Won one move after the shallowest lost successor.
                C::TOP - (best + 1)
            } else {
                // Lost one move after the deepest won successor.
                C::TOP - best + 1
            };
            debug_assert!(
                key.min(C::TOP - key) <= C::MAX_DEPTH,
                "depth beyond the game's bound"
            );
            self.keys[i] = C::of(key ^ self.mask);
        }
    }
    let order = direction.successors_first();
    let mask = key_of::<C>(Value::terminal(Ending::Reached, last));
    progress.pass("resolve", n as u64);
    game.sweep(
        order,
        &mut Resolve {
            keys,
            mask,
            stuck: C::of(key_of::<C>(Value::terminal(Ending::Stuck, last)) ^ mask),
            order,
            progress,
        },
    );
    progress.at(n as u64);
}

impl<'g, G: Game> Solution<'g, G> {
    /// The game this solves.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Value of position `i`.
    pub fn value(&self, i: usize) -> Value {
        let v = self.packed.get(i, self.zero);
        let depth = (v >> 2) as u64;
        match v & 3 {
            WIN => Value::win(depth),
            LOSS => Value::loss(depth),
            _ => Value::DRAW,
        }
    }

    /// Value of a successor, stored or beyond the index space.
    pub fn successor_value(&self, s: Successor) -> Value {
        match s {
            Successor::Stored(j) => self.value(j),
            Successor::Beyond => Value::terminal(Ending::Reached, self.game.last()),
        }
    }

    /// The chosen move of position `i` and where it leads; `None` at a terminal position.
    /// It is the move that realises the position's depth: the fastest win, the longest loss
    /// or a move that keeps the draw; ties go to the earliest move in the game's order.
    pub fn best_move(&self, i: usize) -> Option<(G::Move, Successor)> {
        let mut best: Option<((u8, i128), G::Move, Successor)> = None;
        self.game.for_each_move(i, |m, s| {
            let score = self.successor_value(s).score_for_mover();
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, m, s));
            }
        });
        best.map(|(_, m, s)| (m, s))
    }

    /// Number of positions of each outcome: (wins, losses, draws).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut counts = [0usize; 4];
        for i in 0..self.packed.len() {
            counts[(self.packed.get(i, self.zero) & 3) as usize] += 1;
        }
        (
            counts[WIN as usize],
            counts[LOSS as usize],
            counts[UNRESOLVED as usize],
        )
    }

    /// The positions reachable from the game's starts. Panics when memory runs out; see
    /// [`Solution::try_reachable`].
    pub fn reachable(&self) -> Reachable {
        self.try_reachable().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The positions reachable from the game's starts, as a bit a position: for acyclic games
    /// marked in one sweep that visits predecessors first, for the others by a depth-first
    /// search; no list of positions is built.
    pub fn try_reachable(&self) -> Result<Reachable, OutOfMemory> {
        Reachable::of(self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MatchesGame, SticksGame};

    #[test]
    fn fort_boyard_losing_positions_are_one_mod_four() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let losing: Vec<usize> = (1..=18)
            .filter(|&n| s.value(n).outcome == Outcome::Loss)
            .collect();
        assert_eq!(losing, vec![1, 5, 9, 13, 17]);
        let winning: Vec<usize> = (1..=18)
            .filter(|&n| s.value(n).outcome == Outcome::Win)
            .collect();
        assert_eq!(winning, vec![2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15, 16, 18]);
        assert_eq!(s.value(0), Value::win(0));
        assert_eq!(s.best_move(18).unwrap().0, 1);
    }

    #[test]
    fn twenty_sticks_open_by_taking_three() {
        let g = SticksGame::fort_boyard().with_count(20).unwrap();
        let s = solve(&g);
        assert_eq!(s.value(20).outcome, Outcome::Win);
        assert_eq!(s.best_move(20).unwrap().0, 3);
    }

    #[test]
    fn a_cycle_without_an_exit_is_a_draw() {
        use crate::game::{expr::MoveExpr, ApplyTo, End, HeapsGame};
        // x-1 and x+1 on one heap, game ends at 0 or below: from 2 the mover can run to 1?
        // No: from 1 the only moves are 0 (ends, mover wins) and 2. Everyone avoids handing
        // over 1, so with an upper bound far away everything but 1 is decided by depth.
        let g = HeapsGame::new(
            vec![vec![3]],
            vec![
                MoveExpr::parse("x-2").unwrap(),
                MoveExpr::parse("x+2 if x<6").unwrap(),
            ],
            End::SumAtMost(0),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap();
        let s = solve(&g);
        // Odd heaps never reach 0 by steps of 2 and cycle 1 <-> 3 <-> 5 <-> 7: draws.
        for h in [1, 3, 5, 7] {
            assert_eq!(
                s.value(g.index(&[h]).unwrap()).outcome,
                Outcome::Draw,
                "heap {h}"
            );
        }
    }

    #[test]
    fn progress_sees_three_passes_and_the_same_solution() {
        #[derive(Default)]
        struct Record(Vec<(&'static str, u64, u64)>);
        impl Progress for Record {
            fn pass(&mut self, pass: &'static str, total: u64) {
                self.0.push((pass, total, 0));
            }
            fn at(&mut self, done: u64) {
                let last = self.0.last_mut().expect("a pass first");
                assert!(done >= last.2 && done <= last.1, "{done} in {last:?}");
                last.2 = done;
            }
        }
        let g = QueueOnly(SticksGame::fort_boyard().with_count(300_000).unwrap());
        let mut record = Record::default();
        let with = solve_with_progress(&g, &mut record);
        let passes: Vec<&str> = record.0.iter().map(|p| p.0).collect();
        assert_eq!(passes, ["ends", "moves", "resolve"]);
        assert!(record.0.iter().all(|p| p.1 == 300_001));
        // Every position of a stick game resolves: the last pass reaches the end.
        assert_eq!(record.0[2].2, 300_001);
        let without = solve(&g);
        assert!((0..g.len()).all(|i| with.value(i) == without.value(i)));
        // The one-pass path of stick games sees one pass.
        let mut record = Record::default();
        solve_with_progress(&g.0, &mut record);
        assert_eq!(
            record.0.iter().map(|p| p.0).collect::<Vec<_>>(),
            ["resolve"]
        );
    }

    /// A game that hides `moves_go_down`, so the solver takes the queue.
    struct QueueOnly<G>(G);
    impl<G: Game> Game for QueueOnly<G> {
        type Position = G::Position;
        type Move = G::Move;
        fn len(&self) -> usize {
            self.0.len()
        }
        fn last(&self) -> Last {
            self.0.last()
        }
        fn ending(&self, i: usize) -> Option<Ending> {
            self.0.ending(i)
        }
        fn for_each_move<F: FnMut(G::Move, Successor)>(&self, i: usize, f: F) {
            self.0.for_each_move(i, f)
        }
        fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, f: F) {
            self.0.for_each_predecessor(i, f)
        }
        fn position(&self, i: usize) -> G::Position {
            self.0.position(i)
        }
        fn starts(&self) -> Vec<usize> {
            self.0.starts()
        }
    }

    #[test]
    fn the_one_pass_and_the_queue_agree_on_subtraction_games() {
        for take in [&[1, 2, 3][..], &[1, 3, 4], &[2, 5, 7], &[3, 4, 9, 11]] {
            for last in [Last::Wins, Last::Loses] {
                let g = SticksGame::new(5000, take, last).unwrap();
                let q = QueueOnly(g.clone());
                let (a, b) = (solve(&g), solve(&q));
                for i in 0..g.len() {
                    assert_eq!(a.value(i), b.value(i), "{take:?} {last} {i}");
                    assert_eq!(a.best_move(i), b.best_move(i), "{take:?} {last} {i}");
                }
            }
        }
    }

    /// 4 heaps of 64 moves give a position 256 distinct successors, one more than a `u8`
    /// counter holds. Here only a heap of 1 moves (to 2..=65); heaps of 2 or more are stuck, so
    /// with k heaps of 1 a position is won in 1 (k = 1), lost in 2, won in 3, lost in 4 (k = 4):
    /// (1,1,1,1) is lost only once all 256 counted successors are found won.
    #[test]
    fn four_heaps_of_64_moves_count_256_successors_on_the_queue_path() {
        use crate::game::{expr::MoveExpr, ApplyTo, End, HeapsGame};
        let moves = (1..=64)
            .map(|k| MoveExpr::parse(&format!("x+{k} if x==1")).unwrap())
            .collect();
        let g = HeapsGame::new(
            vec![vec![1, 1, 1, 1]],
            moves,
            End::AnyAtLeast(66),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap();
        let start = g.starts()[0];
        let mut successors = 0;
        g.for_each_successor(start, |s| {
            successors += matches!(s, Successor::Stored(_)) as u32
        });
        assert_eq!(successors, 256);
        let hidden = QueueOnly(g.clone());
        let queue = solve(&hidden);
        let sweep = solve(&g);
        assert_eq!(queue.value(start), Value::loss(4));
        let ones = |p: &[u64]| p.iter().filter(|&&h| h == 1).count();
        for i in (0..g.len()).step_by(97).chain([start]) {
            let expected = match ones(&g.position(i)) {
                0 => Value::loss(0),
                1 => Value::win(1),
                2 => Value::loss(2),
                3 => Value::win(3),
                _ => Value::loss(4),
            };
            assert_eq!(queue.value(i), expected, "{:?}", g.position(i));
            assert_eq!(sweep.value(i), expected, "{:?}", g.position(i));
        }
    }

    #[test]
    fn matches_game_starts_lost_for_the_first_player() {
        let g = MatchesGame::jr01();
        let s = solve(&g);
        assert_eq!(s.value(0).outcome, Outcome::Loss);
    }
}
