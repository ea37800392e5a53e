//! Game models: each game is a validated value with a dense index over its positions,
//! a fixed move order, and the rule that says who wins at the end.
//!
//! The solver sees a game only through the [`Game`] trait: positions are `usize` indices in
//! `0..len()`, successors come in the game's move order, and predecessors are enumerated
//! without building a graph where the game can do it arithmetically.

pub mod expr;
pub mod heaps;
pub mod matches;
pub mod sticks;

use serde::Serialize;
use std::fmt;

pub use heaps::{ApplyTo, End, HeapsGame};
pub use matches::MatchesGame;
pub use sticks::SticksGame;

/// Which way the moves of an acyclic game go in its index space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Every move leads to a smaller index (or beyond the index space).
    Down,
    /// Every move leads to a larger index (or beyond the index space).
    Up,
}

/// The order of a [`Game::sweep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Index 0 first.
    Ascending,
    /// The last index first.
    Descending,
}

impl Direction {
    /// The sweep order that visits every successor before the positions that move to it.
    pub fn successors_first(self) -> Order {
        match self {
            Direction::Down => Order::Ascending,
            Direction::Up => Order::Descending,
        }
    }
    /// The sweep order that visits every position before its successors.
    pub fn predecessors_first(self) -> Order {
        match self {
            Direction::Down => Order::Descending,
            Direction::Up => Order::Ascending,
        }
    }
}

/// Told about each position of a [`Game::sweep`].
pub trait Visit {
    /// False when a move to a stored position where the end condition holds may be reported
    /// as leaving the index space instead (for the solver both have the same value), which
    /// spares reading it; true to get every stored successor (reachability).
    const EVERY_STORED_SUCCESSOR: bool = true;
    /// False to skip position `i` (its successors are then not generated).
    #[inline]
    fn wants(&mut self, _i: usize) -> bool {
        true
    }
    /// Position `i` has no moves, for this reason.
    fn ended(&mut self, i: usize, ending: Ending);
    /// Every position of `range` (visited in `order`) is over by the end condition. Visitors
    /// with nothing to do there override it to skip the range at once.
    #[inline]
    fn reached_all(&mut self, range: std::ops::Range<usize>, order: Order) {
        let mut at = |i| {
            if self.wants(i) {
                self.ended(i, Ending::Reached);
            }
        };
        match order {
            Order::Ascending => range.for_each(&mut at),
            Order::Descending => range.rev().for_each(&mut at),
        }
    }
    /// Position `i` has moves: to the stored positions `i + s` for every index step `s` of
    /// both lists of `steps` (each successor once, in no particular order) and, if `beyond`,
    /// out of the index space. Steps rather than indices let a game hand over a table it
    /// shares between many positions without copying it.
    fn moves(&mut self, i: usize, steps: [&[isize]; 2], beyond: bool);
}

/// Who wins when the game ends by its end condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Last {
    /// Whoever makes the last move wins (normal play).
    Wins,
    /// Whoever makes the last move loses (misère play, Fort Boyard).
    Loses,
}

impl fmt::Display for Last {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Last::Wins => "wins",
            Last::Loses => "loses",
        })
    }
}

/// Why a stored position has no moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game's end condition holds: the outcome follows [`Last`].
    Reached,
    /// The end condition does not hold but no move is legal: the player to move loses.
    Stuck,
}

/// Where a move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    /// A position of the game's index space.
    Stored(usize),
    /// A position outside the index space; it always satisfies the end condition
    /// (e.g. a heap pushed past the threshold), so its value is known without storing it.
    Beyond,
}

/// A game as the solver sees it.
pub trait Game {
    /// A position in the game's own terms.
    type Position: Clone + fmt::Debug;
    /// A move in the game's own terms.
    type Move: Clone + fmt::Debug;

    /// Number of positions in the dense index space.
    fn len(&self) -> usize;
    /// True when the index space is empty (never for a validated game).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The rule at the end condition.
    fn last(&self) -> Last;
    /// Some(..) when position `i` has no moves.
    fn ending(&self, i: usize) -> Option<Ending>;
    /// Calls `f` for every legal move of `i`, in the game's move order, each distinct
    /// successor once (the first move that reaches it).
    fn for_each_move<F: FnMut(Self::Move, Successor)>(&self, i: usize, f: F);
    /// Calls `f` for where each move of `i` leads, in move order, without building the moves.
    /// Games override it when building a move costs something.
    #[inline]
    fn for_each_successor<F: FnMut(Successor)>(&self, i: usize, mut f: F) {
        self.for_each_move(i, |_, s| f(s));
    }
    /// True when every move leads to a smaller index (or beyond the index space): the solver
    /// can then decide every position in one ascending pass, without counters or a queue.
    fn moves_go_down(&self) -> bool {
        false
    }
    /// Which way every move goes in the index space, when all go the same way (the game is
    /// then acyclic and solved in one sweep); `None` when the game may cycle.
    fn direction(&self) -> Option<Direction> {
        self.moves_go_down().then_some(Direction::Down)
    }
    /// An upper bound on the depth of every position (moves to the end of the game) that the
    /// game knows without solving, or `None`. The one-sweep solver stores 2 bytes a position
    /// instead of 4 when it is below 2^14.
    fn depth_bound(&self) -> Option<u64> {
        None
    }
    /// Visits every position in index order `order`, telling `visit` its ending or where its
    /// moves lead (stored successors in move order, and whether some move leaves the index
    /// space). Positions for which [`Visit::wants`] says no are skipped. Games override it to
    /// walk their index without decoding each position.
    fn sweep<V: Visit>(&self, order: Order, visit: &mut V) {
        let n = self.len();
        let mut steps = Vec::new();
        let mut at = |i: usize| {
            if !visit.wants(i) {
                return;
            }
            if let Some(ending) = self.ending(i) {
                visit.ended(i, ending);
                return;
            }
            steps.clear();
            let mut beyond = false;
            self.for_each_successor(i, |s| match s {
                Successor::Stored(j) => steps.push(j as isize - i as isize),
                Successor::Beyond => beyond = true,
            });
            visit.moves(i, [&steps, &[]], beyond);
        };
        match order {
            Order::Ascending => (0..n).for_each(&mut at),
            Order::Descending => (0..n).rev().for_each(&mut at),
        }
    }
    /// Calls `f` once for every stored position that has a move to `i`.
    fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, f: F);
    /// The position at index `i`.
    fn position(&self, i: usize) -> Self::Position;
    /// The start positions (indices) the game is played from.
    fn starts(&self) -> Vec<usize>;
}

/// A game whose parameters are invalid. Each message names the flag and says how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("--take is empty: give at least one move, e.g. --take 1,2,3")]
    EmptyTakeSet,
    #[error("--take contains 0: a move must take at least one, e.g. --take 1,2,3")]
    ZeroTake,
    #[error("--take has {0} distinct moves; at most 255 are supported")]
    TooManyMoves(usize),
    #[error("--count must be at least 1 (got 0): the game needs something to play with")]
    ZeroCount,
    #[error("{0}")]
    Heaps(String),
    #[error("the game has {positions} positions, more than the solver's limit of {limit} (it would need about {} GiB of memory); {fix}", bytes.div_ceil(1 << 30))]
    TooLarge {
        positions: u128,
        limit: u64,
        bytes: u128,
        fix: String,
    },
}

/// Memory the dense solver may plan for: 9 GB, which is the queue path's 9 bytes a position
/// for its limit of [`MAX_POSITIONS`].
pub const MEMORY_BUDGET: u128 = 9_000_000_000;
/// Most positions the queue path (games that may cycle) will allocate for.
pub const MAX_POSITIONS: u64 = 1_000_000_000;

/// Which of the solver's two algorithms a game takes, and so how much memory a position costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverPath {
    /// Acyclic games ([`Game::direction`] is `Some`): one sweep over a `u32` key a position
    /// (`u16` when [`Game::depth_bound`] allows), then a reachability bit a position: at most
    /// 4 1/8 bytes.
    OneSweep,
    /// Games that may cycle: packed value (4), successor counter (1) and queue slot (4) a
    /// position, 9 bytes (the reachability search afterwards, a bit and at most a 4-byte stack
    /// slot a position beside the values, needs less).
    Queue,
}

impl SolverPath {
    /// The path the solver takes for `game`.
    pub fn of<G: Game + ?Sized>(game: &G) -> Self {
        if game.direction().is_some() {
            SolverPath::OneSweep
        } else {
            SolverPath::Queue
        }
    }
    /// Bytes a position costs, in eighths of a byte.
    pub const fn eighths_per_position(self) -> u128 {
        match self {
            SolverPath::OneSweep => 33,
            SolverPath::Queue => 72,
        }
    }
    /// Bytes the solver's arrays need for `positions` positions.
    pub fn bytes(self, positions: u128) -> u128 {
        (positions * self.eighths_per_position()).div_ceil(8)
    }
    /// Most positions this path allocates for: those that fit [`MEMORY_BUDGET`], and never
    /// more than [`MAX_POSITIONS`] (a depth must fit the 30 bits the packed value gives it).
    pub fn max_positions(self) -> u64 {
        (MEMORY_BUDGET * 8 / self.eighths_per_position()).min(MAX_POSITIONS as u128) as u64
    }
}

pub(crate) fn check_size(positions: u128, path: SolverPath, fix: &str) -> Result<(), GameError> {
    let limit = path.max_positions();
    if positions > limit as u128 {
        return Err(GameError::TooLarge {
            positions,
            limit,
            bytes: path.bytes(positions),
            fix: fix.to_string(),
        });
    }
    Ok(())
}

/// Parses a comma-separated take set such as `1,2,3`, sorted ascending and de-duplicated.
pub fn validate_take_set(take: &[u64]) -> Result<Vec<u64>, GameError> {
    if take.is_empty() {
        return Err(GameError::EmptyTakeSet);
    }
    if take.contains(&0) {
        return Err(GameError::ZeroTake);
    }
    let mut t = take.to_vec();
    t.sort_unstable();
    t.dedup();
    if t.len() > 255 {
        return Err(GameError::TooManyMoves(t.len()));
    }
    Ok(t)
}

/// Numbers joined with commas, `1,2,3`: how heaps and take sets are written.
pub fn join_commas(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}
