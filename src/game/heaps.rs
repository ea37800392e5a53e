//! The KEGE heap games (exam tasks 19-21): one or more heaps; a move applies one of the move
//! expressions to one heap; the game ends when the end condition holds.
//!
//! Rules beyond the expressions themselves:
//! - a move whose result equals the heap's size, or is negative, is not legal there;
//! - two moves that reach the same position count once (the first in move order);
//! - move order: heap 1's moves in the order given, then heap 2's, and so on;
//! - with [`ApplyTo::Smaller`] only a smallest heap may change (any of them when equal);
//! - a position where the end condition does not hold and no move is legal ends the game:
//!   the player to move cannot move and loses.
//!
//! Index space: for every heap, the set of sizes it can take while the game may still go on
//! (the closure of its start sizes under the moves, stopping at sizes that end the game on
//! their own, such as a heap of 61 under `sum>=61`). Positions are the mixed-radix product of
//! those sets (heap 1 most significant). A move to a size outside its heap's set always ends
//! the game, so it is a [`Successor::Beyond`] and needs no storage.

use super::expr::{EvalError, MoveExpr};
use super::{
    check_size, join_commas, Direction, Ending, Game, GameError, Last, Order, SolverPath,
    Successor, Visit,
};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

/// Most distinct sizes a single heap may take before the game is called unbounded.
pub const MAX_HEAP_SIZES: usize = 4_000_000;
/// Most heaps a game may have.
pub const MAX_HEAPS: usize = 4;

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub enum End {
    /// The total reaches N or more.
    SumAtLeast(u64),
    /// Some heap reaches N or more.
    AnyAtLeast(u64),
    /// The total falls to N or less.
    SumAtMost(u64),
    /// Some heap falls to N or less.
    AnyAtMost(u64),
}

impl End {
    /// True when the game is over at these heap sizes.
    pub fn holds(&self, heaps: &[u64]) -> bool {
        match *self {
            End::SumAtLeast(n) => heaps.iter().sum::<u64>() >= n,
            End::AnyAtLeast(n) => heaps.iter().any(|&h| h >= n),
            End::SumAtMost(n) => heaps.iter().sum::<u64>() <= n,
            End::AnyAtMost(n) => heaps.iter().any(|&h| h <= n),
        }
    }
    /// True when a heap of this size ends the game whatever the other heaps hold.
    fn ends_alone(&self, size: u64) -> bool {
        match *self {
            End::SumAtLeast(n) | End::AnyAtLeast(n) => size >= n,
            End::AnyAtMost(n) => size <= n,
            End::SumAtMost(_) => false,
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            End::SumAtLeast(n) => write!(f, "sum>={n}"),
            End::AnyAtLeast(n) => write!(f, "any>={n}"),
            End::SumAtMost(n) => write!(f, "sum<={n}"),
            End::AnyAtMost(n) => write!(f, "any<={n}"),
        }
    }
}

impl From<End> for String {
    fn from(e: End) -> String {
        e.to_string()
    }
}

impl FromStr for End {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let fix = "write it as sum>=N, any>=N, sum<=N or any<=N, quoted for the shell, e.g. --end 'sum>=61'";
        let (at, op) = match (t.find(">="), t.find("<=")) {
            (Some(i), _) => (i, ">="),
            (None, Some(i)) => (i, "<="),
            (None, None) => {
                return Err(format!(
                    "--end `{s}` has no >= or <= (unquoted in a shell, `sum>=61` is cut at `>`, \
                     which redirects output into a file `=61`): {fix}"
                ));
            }
        };
        let (kind, num) = (&t[..at], &t[at + 2..]);
        let n: u64 = num
            .parse()
            .map_err(|_| format!("--end `{s}`: `{num}` is not a non-negative integer: {fix}"))?;
        match (kind, op) {
            ("sum", ">=") => Ok(End::SumAtLeast(n)),
            ("any", ">=") => Ok(End::AnyAtLeast(n)),
            ("sum", "<=") => Ok(End::SumAtMost(n)),
            ("any", "<=") => Ok(End::AnyAtMost(n)),
            _ => Err(format!(
                "--end `{s}`: `{kind}` is neither sum nor any: {fix}"
            )),
        }
    }
}

/// Which heaps a move may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ApplyTo {
    /// Any heap.
    Any,
    /// Only a smallest heap (either one when equal).
    Smaller,
}

/// A move of a heap game: which heap, which expression, and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapsMove {
    /// 0-based heap index.
    pub heap: usize,
    /// 0-based index into the move expressions.
    pub expr: usize,
    /// Heap sizes after the move.
    pub result: Vec<u64>,
}

/// Compressed rows: `offsets[r]..offsets[r + 1]` indexes `items`.
#[derive(Clone, Debug, Default)]
struct Rows<T> {
    offsets: Vec<u32>,
    items: Vec<T>,
}

impl<T> Rows<T> {
    fn row(&self, r: usize) -> &[T] {
        &self.items[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }
}

/// One heap's reachable sizes and its move tables.
#[derive(Clone, Debug)]
struct HeapSizes {
    /// Sizes, ascending; a size's rank is its index here.
    sizes: Vec<u64>,
    /// Per rank: (expression, result) in move order, each distinct result once;
    /// result is `Some(rank)` or `None` for a size that ends the game on its own.
    forward: Rows<(u8, Option<u32>, u64)>,
    /// Per rank: ranks that have a move to it.
    backward: Rows<u32>,
    /// Per rank: how far each move that stays in the index space shifts the position's index
    /// (`(to - rank) * stride`), in move order.
    steps: Rows<isize>,
    /// Per rank: true when some move leaves the index space.
    leaves: Vec<bool>,
}

/// Division of a `u32` by a fixed divisor with one multiplication (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019): `x / d == (x * (2^64 / d rounded up)) >> 64`
/// for every 32-bit `x` and 32-bit `d > 1`. `magic == 0` stands for `d == 1`.
#[derive(Clone, Copy, Debug)]
struct FastDiv {
    magic: u64,
}

impl FastDiv {
    fn new(d: usize) -> Self {
        assert!(
            d >= 1 && d <= u32::MAX as usize,
            "divisor {d} out of FastDiv's range"
        );
        FastDiv {
            magic: if d == 1 { 0 } else { u64::MAX / d as u64 + 1 },
        }
    }
    #[inline]
    fn div(self, x: usize) -> usize {
        debug_assert!(x <= u32::MAX as usize);
        if self.magic == 0 {
            return x;
        }
        ((self.magic as u128 * x as u128) >> 64) as usize
    }
}

/// A validated heap game.
#[derive(Clone, Debug)]
pub struct HeapsGame {
    starts: Vec<Vec<u64>>,
    moves: Vec<MoveExpr>,
    end: End,
    last: Last,
    apply_to: ApplyTo,
    heaps: Vec<HeapSizes>,
    strides: Vec<usize>,
    /// `strides[h]` as a [`FastDiv`], for every heap but the last (whose stride is 1).
    stride_divs: Vec<FastDiv>,
    direction: Option<Direction>,
    len: usize,
}

/// The parameters of a heap game, as given.
#[derive(Clone, Debug, Serialize)]
pub struct HeapsRules {
    /// Move expressions, in order.
    pub moves: Vec<String>,
    /// End condition.
    pub end: End,
    /// Rule at the end.
    pub last: Last,
    /// Which heap a move may change.
    pub apply_to: ApplyTo,
}

fn heaps_error(msg: impl Into<String>) -> GameError {
    GameError::Heaps(msg.into())
}

fn eval_error(e: EvalError) -> GameError {
    heaps_error(format!(
        "--move: {e}; guard the move, e.g. --move 'x/3 if x%3==0', or remove it"
    ))
}

impl HeapsGame {
    /// The KEGE write-up's game from one start: +1 or *4 on either heap, ends at a total of 61.
    pub fn kege_seed(start: &[u64]) -> Result<Self, GameError> {
        let moves = vec![
            MoveExpr::parse("x+1").unwrap(),
            MoveExpr::parse("x*4").unwrap(),
        ];
        Self::new(
            vec![start.to_vec()],
            moves,
            End::SumAtLeast(61),
            Last::Wins,
            ApplyTo::Any,
        )
    }

    /// Builds the game for one or more starts (all with the same number of heaps).
    /// A start that already satisfies the end condition is refused (see [`End::holds`]).
    pub fn new(
        starts: Vec<Vec<u64>>,
        moves: Vec<MoveExpr>,
        end: End,
        last: Last,
        apply_to: ApplyTo,
    ) -> Result<Self, GameError> {
        let k = match starts.first() {
            Some(s) => s.len(),
            None => {
                return Err(heaps_error(
                    "--start: no start position; give e.g. --start 3,10",
                ))
            }
        };
        if k == 0 || k > MAX_HEAPS {
            return Err(heaps_error(format!(
                "--start has {k} heaps; give 1 to 4 heap sizes separated by commas, e.g. --start 3,10"
            )));
        }
        if starts.iter().any(|s| s.len() != k) {
            return Err(heaps_error(
                "--start: every start needs the same number of heaps",
            ));
        }
        if moves.is_empty() {
            return Err(heaps_error(
                "--move: give at least one move, e.g. --move x+1 --move 'x*4'",
            ));
        }
        if moves.len() > 64 {
            return Err(heaps_error(format!(
                "--move: {} moves given; at most 64 are supported",
                moves.len()
            )));
        }
        for m in &moves {
            if m.is_identity_on(0..=1000) {
                return Err(heaps_error(format!(
                    "--move `{m}` never changes a heap (like *1 or /1), so it is never a legal move; remove it"
                )));
            }
        }
        for s in &starts {
            if end.holds(s) {
                return Err(heaps_error(format!(
                    "--start {}: the game is already over there ({end} holds); pick a start where it does not",
                    join_commas(s)
                )));
            }
        }
        let mut heaps = Vec::with_capacity(k);
        for h in 0..k {
            let seeds: Vec<u64> = starts.iter().map(|s| s[h]).collect();
            heaps.push(Self::heap_sizes(&seeds, &moves, end)?);
        }
        let direction = Self::direction_of(&heaps);
        let path = if direction.is_some() {
            SolverPath::OneSweep
        } else {
            SolverPath::Queue
        };
        let mut strides = vec![1usize; k];
        let mut len: u128 = 1;
        for h in (0..k).rev() {
            strides[h] = len as usize;
            len *= heaps[h].sizes.len() as u128;
            check_size(
                len,
                path,
                "lower the --end threshold, use fewer heaps, or shrink --start",
            )?;
        }
        assert!(
            len <= u32::MAX as u128,
            "the solver's limits keep indices in 32 bits"
        );
        for (h, hs) in heaps.iter_mut().enumerate() {
            let stride = strides[h] as isize;
            let mut steps = Rows {
                offsets: vec![0],
                items: vec![],
            };
            let mut leaves = Vec::with_capacity(hs.sizes.len());
            for r in 0..hs.sizes.len() {
                let mut leave = false;
                for &(_, to, _) in hs.forward.row(r) {
                    match to {
                        Some(t) => steps.items.push((t as isize - r as isize) * stride),
                        None => leave = true,
                    }
                }
                steps.offsets.push(steps.items.len() as u32);
                leaves.push(leave);
            }
            hs.steps = steps;
            hs.leaves = leaves;
        }
        let stride_divs = strides[..k - 1].iter().map(|&s| FastDiv::new(s)).collect();
        Ok(Self {
            starts,
            moves,
            end,
            last,
            apply_to,
            heaps,
            strides,
            stride_divs,
            direction,
            len: len as usize,
        })
    }

    /// `Up` when every move of every heap leads to a larger size (or out of the index space),
    /// `Down` when every one leads to a smaller size; `None` when the moves go both ways.
    /// The index orders positions by their heaps' sizes, so the index moves the same way.
    fn direction_of(heaps: &[HeapSizes]) -> Option<Direction> {
        let (mut up, mut down) = (true, true);
        for hs in heaps {
            for r in 0..hs.sizes.len() {
                for &(_, to, _) in hs.forward.row(r) {
                    if let Some(t) = to {
                        up &= t as usize > r;
                        down &= (t as usize) < r;
                    }
                }
            }
        }
        match (up, down) {
            (true, _) => Some(Direction::Up),
            (false, true) => Some(Direction::Down),
            (false, false) => None,
        }
    }

    /// The closure of `seeds` under the moves, stopping at sizes that end the game alone.
    fn heap_sizes(seeds: &[u64], moves: &[MoveExpr], end: End) -> Result<HeapSizes, GameError> {
        let mut seen: HashSet<u64> = HashSet::new();
        let mut work: Vec<u64> = Vec::new();
        let mut sizes: Vec<u64> = Vec::new();
        for &s in seeds {
            if seen.insert(s) {
                work.push(s);
            }
        }
        while let Some(v) = work.pop() {
            if end.ends_alone(v) {
                continue;
            }
            sizes.push(v);
            if sizes.len() > MAX_HEAP_SIZES {
                // Say which way the heaps run away: past the largest start, or below the smallest.
                let (way, example) = if seeds.iter().all(|&s| v > s) {
                    ("grow", "sum>=N with growing moves")
                } else {
                    ("shrink", "sum<=N or any<=N with shrinking moves")
                };
                return Err(heaps_error(format!(
                    "a heap can take more than {MAX_HEAP_SIZES} sizes under --move with --end '{end}': \
                     the heaps {way} without the end condition stopping them soon enough; use an --end \
                     that the moves reach quickly (e.g. {example}), or a smaller --start"
                )));
            }
            for m in moves {
                if let Some(r) = apply_or(m, v, |e| error_before_end(e, end))? {
                    if seen.insert(r) {
                        work.push(r);
                    }
                }
            }
        }
        sizes.sort_unstable();
        let rank: HashMap<u64, u32> = sizes
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, i as u32))
            .collect();
        let mut forward = Rows {
            offsets: vec![0],
            items: vec![],
        };
        let mut back_lists: Vec<Vec<u32>> = vec![Vec::new(); sizes.len()];
        for (r, &v) in sizes.iter().enumerate() {
            let start = forward.items.len();
            for (e, m) in moves.iter().enumerate() {
                if let Some(res) = apply(m, v)? {
                    if forward.items[start..].iter().any(|&(_, _, x)| x == res) {
                        continue;
                    }
                    let to = rank.get(&res).copied();
                    if let Some(to) = to {
                        back_lists[to as usize].push(r as u32);
                    }
                    forward.items.push((e as u8, to, res));
                }
            }
            forward.offsets.push(forward.items.len() as u32);
        }
        let mut backward = Rows {
            offsets: vec![0],
            items: vec![],
        };
        for list in back_lists {
            backward.items.extend(list);
            backward.offsets.push(backward.items.len() as u32);
        }
        Ok(HeapSizes {
            sizes,
            forward,
            backward,
            steps: Rows::default(),
            leaves: Vec::new(),
        })
    }

    /// Rules as given (for reports).
    pub fn rules(&self) -> HeapsRules {
        HeapsRules {
            moves: self.moves.iter().map(|m| m.source().to_string()).collect(),
            end: self.end,
            last: self.last,
            apply_to: self.apply_to,
        }
    }
    /// The end condition.
    pub fn end(&self) -> End {
        self.end
    }
    /// The move expressions.
    pub fn moves(&self) -> &[MoveExpr] {
        &self.moves
    }
    /// The start positions as given.
    pub fn start_positions(&self) -> &[Vec<u64>] {
        &self.starts
    }
    /// Number of heaps.
    pub fn heap_count(&self) -> usize {
        self.heaps.len()
    }

    /// Index of a position, or None when it is outside the index space (which means
    /// some heap alone ends the game) or unreachable from every start.
    pub fn index(&self, heaps: &[u64]) -> Option<usize> {
        if heaps.len() != self.heaps.len() {
            return None;
        }
        let mut i = 0;
        for (h, &v) in heaps.iter().enumerate() {
            let r = self.heaps[h].sizes.binary_search(&v).ok()?;
            i += r * self.strides[h];
        }
        Some(i)
    }

    /// Ranks and sizes of position `i` (the first `heap_count()` entries are used).
    #[inline]
    fn decode(&self, i: usize) -> ([usize; MAX_HEAPS], [u64; MAX_HEAPS]) {
        let mut ranks = [0usize; MAX_HEAPS];
        let mut sizes = [0u64; MAX_HEAPS];
        let last = self.heaps.len() - 1;
        let mut rest = i;
        for (h, div) in self.stride_divs.iter().enumerate() {
            ranks[h] = div.div(rest);
            rest -= ranks[h] * self.strides[h];
        }
        ranks[last] = rest;
        for (h, hs) in self.heaps.iter().enumerate() {
            sizes[h] = hs.sizes[ranks[h]];
        }
        (ranks, sizes)
    }

    /// The ranks of the last heap at which the game is over, when the other heaps have the
    /// sizes in `sizes[..last]`: a suffix for `>=` conditions, a prefix for `<=` ones (the
    /// condition is monotone in one heap's size).
    fn over_in_row(&self, sizes: &mut [u64; MAX_HEAPS]) -> std::ops::Range<usize> {
        let k = self.heaps.len();
        let row = &self.heaps[k - 1].sizes;
        let mut holds = |x: u64| {
            sizes[k - 1] = x;
            self.end.holds(&sizes[..k])
        };
        match self.end {
            End::SumAtLeast(_) | End::AnyAtLeast(_) => {
                row.partition_point(|&x| !holds(x))..row.len()
            }
            End::SumAtMost(_) | End::AnyAtMost(_) => 0..row.partition_point(|&x| holds(x)),
        }
    }

    /// Every legal move of `i` as (heap, expression, new size, successor), in move order.
    #[inline]
    fn for_each_raw_move<F: FnMut(usize, u8, u64, Successor)>(&self, i: usize, mut f: F) {
        let (ranks, sizes) = self.decode(i);
        let k = self.heaps.len();
        if self.end.holds(&sizes[..k]) {
            return;
        }
        for (h, hs) in self.heaps.iter().enumerate() {
            if !self.may_move(&sizes[..k], h) {
                continue;
            }
            for &(e, to, res) in hs.forward.row(ranks[h]) {
                let succ = match to {
                    Some(t) => Successor::Stored(
                        i - ranks[h] * self.strides[h] + t as usize * self.strides[h],
                    ),
                    None => Successor::Beyond,
                };
                f(h, e, res, succ);
            }
        }
    }

    fn may_move(&self, sizes: &[u64], h: usize) -> bool {
        match self.apply_to {
            ApplyTo::Any => true,
            ApplyTo::Smaller => sizes.iter().all(|&o| sizes[h] <= o),
        }
    }
}

/// The error of a move at a heap size the game reaches before `end` stops it: an overflow
/// there names the end condition too, since a lower threshold is one way out.
fn error_before_end(e: EvalError, end: End) -> GameError {
    match e {
        EvalError::Overflow { expr, x } => heaps_error(format!(
            "--move `{expr}` overflows 64-bit integers at x = {x}, a heap size the game reaches \
             before --end '{end}' stops it; lower the --end threshold, or guard the move, \
             e.g. --move '{expr} if x<1000000'"
        )),
        e => eval_error(e),
    }
}

fn apply(m: &MoveExpr, v: u64) -> Result<Option<u64>, GameError> {
    apply_or(m, v, eval_error)
}

/// [`apply`], with `on_error` turning an evaluation error into the game's error.
fn apply_or(
    m: &MoveExpr,
    v: u64,
    on_error: impl FnOnce(EvalError) -> GameError,
) -> Result<Option<u64>, GameError> {
    let x = i64::try_from(v).map_err(|_| heaps_error(format!("a heap of {v} is too large")))?;
    Ok(match m.apply(x).map_err(on_error)? {
        Some(r) if r >= 0 && r != x => Some(r as u64),
        _ => None,
    })
}

impl Game for HeapsGame {
    type Position = Vec<u64>;
    type Move = HeapsMove;

    fn len(&self) -> usize {
        self.len
    }
    fn last(&self) -> Last {
        self.last
    }
    fn ending(&self, i: usize) -> Option<Ending> {
        let (ranks, sizes) = self.decode(i);
        let k = self.heaps.len();
        if self.end.holds(&sizes[..k]) {
            return Some(Ending::Reached);
        }
        let can_move = (0..k).any(|h| {
            self.may_move(&sizes[..k], h) && !self.heaps[h].forward.row(ranks[h]).is_empty()
        });
        if can_move {
            None
        } else {
            Some(Ending::Stuck)
        }
    }
    fn for_each_move<F: FnMut(HeapsMove, Successor)>(&self, i: usize, mut f: F) {
        let k = self.heaps.len();
        let sizes = self.decode(i).1;
        self.for_each_raw_move(i, |h, e, res, succ| {
            let mut result = sizes[..k].to_vec();
            result[h] = res;
            f(
                HeapsMove {
                    heap: h,
                    expr: e as usize,
                    result,
                },
                succ,
            )
        });
    }
    #[inline]
    fn for_each_successor<F: FnMut(Successor)>(&self, i: usize, mut f: F) {
        self.for_each_raw_move(i, |_, _, _, succ| f(succ));
    }
    fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, mut f: F) {
        let (ranks, mut sizes) = self.decode(i);
        let k = self.heaps.len();
        for (h, hs) in self.heaps.iter().enumerate() {
            let here = sizes[h];
            for &from in hs.backward.row(ranks[h]) {
                sizes[h] = hs.sizes[from as usize];
                if self.may_move(&sizes[..k], h) {
                    f(i - ranks[h] * self.strides[h] + from as usize * self.strides[h]);
                }
            }
            sizes[h] = here;
        }
    }
    fn position(&self, i: usize) -> Vec<u64> {
        self.decode(i).1[..self.heaps.len()].to_vec()
    }
    fn direction(&self) -> Option<Direction> {
        self.direction
    }
    /// When every move goes one way, each move changes one heap's rank by at least one in
    /// that direction or leaves the index space (which ends the game): no play is longer
    /// than the ranks there are to pass, plus that last move.
    fn depth_bound(&self) -> Option<u64> {
        self.direction.map(|_| {
            self.heaps
                .iter()
                .map(|hs| hs.sizes.len() as u64 - 1)
                .sum::<u64>()
                + 1
        })
    }
    /// Row by row (a row: the last heap's sizes, the other heaps fixed), with the row's
    /// terminal ranks found once and successors given as index steps from per-heap move
    /// tables built once: the other heaps' steps are the same along a row (a slice per run of
    /// ranks), the last heap's come from its table by rank. Nothing is decoded or divided per
    /// position.
    fn sweep<V: Visit>(&self, order: Order, visit: &mut V) {
        let k = self.heaps.len();
        let tail = &self.heaps[k - 1];
        let row_len = tail.sizes.len();
        let rows = self.len / row_len;
        // Whether successors where the game is over may count as leaving the index space.
        let spare = !V::EVERY_STORED_SUCCESSOR;
        // The end condition is monotone along a row: the ranks where it holds are a suffix
        // for `>=` conditions, a prefix for `<=` ones.
        let suffix = matches!(self.end, End::SumAtLeast(_) | End::AnyAtLeast(_));
        // The other heaps' steps of a row, each with the rank of the row from which on
        // (suffix) or below which (prefix) it leads where the game is over, sorted so that
        // the steps that stay in play at a rank are a prefix.
        let mut keyed: Vec<(usize, isize)> = Vec::with_capacity(3 * 64);
        let mut row_steps: Vec<isize> = Vec::with_capacity(3 * 64);
        let mut keys: Vec<usize> = Vec::with_capacity(3 * 64);
        let mut cuts: Vec<usize> = Vec::with_capacity(3 * 64 + 1);
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(3 * 64 + 1);
        // One position's steps when only the smaller heap may move.
        let mut stored = [0isize; MAX_HEAPS * 64];
        for row in 0..rows {
            let row = match order {
                Order::Ascending => row,
                Order::Descending => rows - 1 - row,
            };
            let base = row * row_len;
            let (mut ranks, mut sizes) = self.decode(base);
            let over = self.over_in_row(&mut sizes);
            // The ranks before the terminal ones and the ranks after them, in `order`, with
            // the terminal block between them.
            let (first, last) = match order {
                Order::Ascending => (0..over.start, over.end..row_len),
                Order::Descending => (over.end..row_len, 0..over.start),
            };
            if self.apply_to == ApplyTo::Smaller {
                for (part, segment) in [first, over.clone(), last].into_iter().enumerate() {
                    if part == 1 {
                        if !segment.is_empty() {
                            visit.reached_all(base + segment.start..base + segment.end, order);
                        }
                        continue;
                    }
                    for step in 0..segment.len() {
                        let r = match order {
                            Order::Ascending => segment.start + step,
                            Order::Descending => segment.end - 1 - step,
                        };
                        let i = base + r;
                        if !visit.wants(i) {
                            continue;
                        }
                        ranks[k - 1] = r;
                        sizes[k - 1] = tail.sizes[r];
                        let (mut n, mut leaves) = (0, false);
                        for (h, hs) in self.heaps.iter().enumerate() {
                            if self.may_move(&sizes[..k], h) {
                                for &s in hs.steps.row(ranks[h]) {
                                    stored[n] = s;
                                    n += 1;
                                }
                                leaves |= hs.leaves[ranks[h]];
                            }
                        }
                        if n == 0 && !leaves {
                            visit.ended(i, Ending::Stuck);
                        } else {
                            visit.moves(i, [&stored[..n], &[]], leaves);
                        }
                    }
                }
                continue;
            }
            keyed.clear();
            let mut row_leaves = false;
            for (h, hs) in self.heaps[..k - 1].iter().enumerate() {
                for &s in hs.steps.row(ranks[h]) {
                    let key = if spare {
                        let mut moved = sizes;
                        moved[h] =
                            hs.sizes[ranks[h].wrapping_add_signed(s / self.strides[h] as isize)];
                        let there = self.over_in_row(&mut moved);
                        if suffix {
                            there.start
                        } else {
                            there.end
                        }
                    } else if suffix {
                        row_len
                    } else {
                        0
                    };
                    keyed.push((key, s));
                }
                row_leaves |= hs.leaves[ranks[h]];
            }
            if suffix {
                keyed.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
            } else {
                keyed.sort_unstable_by_key(|&(key, _)| key);
            }
            row_steps.clear();
            row_steps.extend(keyed.iter().map(|&(_, s)| s));
            keys.clear();
            keys.extend(keyed.iter().map(|&(key, _)| key));
            // How many of the row's steps stay in play at rank r.
            let in_play = |r: usize| {
                if suffix {
                    keys.partition_point(|&key| key > r)
                } else {
                    keys.partition_point(|&key| key <= r)
                }
            };
            for (part, segment) in [first, over.clone(), last].into_iter().enumerate() {
                if part == 1 {
                    if !segment.is_empty() {
                        visit.reached_all(base + segment.start..base + segment.end, order);
                    }
                    continue;
                }
                // Runs of ranks over which the same steps stay in play, cut at the keys.
                cuts.clear();
                cuts.extend(
                    keys.iter()
                        .copied()
                        .filter(|&c| c > segment.start && c < segment.end),
                );
                cuts.push(segment.end);
                cuts.sort_unstable();
                cuts.dedup();
                runs.clear();
                let mut from = segment.start;
                for &to in &cuts {
                    if to > from {
                        runs.push((from, to));
                        from = to;
                    }
                }
                if order == Order::Descending {
                    runs.reverse();
                }
                for &(lo, hi) in &runs {
                    let m = in_play(lo);
                    let steps = &row_steps[..m];
                    let run_leaves = row_leaves | (m < row_steps.len());
                    for step in 0..hi - lo {
                        let r = match order {
                            Order::Ascending => lo + step,
                            Order::Descending => hi - 1 - step,
                        };
                        let i = base + r;
                        if !visit.wants(i) {
                            continue;
                        }
                        let own = tail.steps.row(r);
                        let leaves = run_leaves | tail.leaves[r];
                        if steps.is_empty() && own.is_empty() && !leaves {
                            visit.ended(i, Ending::Stuck);
                        } else {
                            visit.moves(i, [steps, own], leaves);
                        }
                    }
                }
            }
        }
    }
    fn starts(&self) -> Vec<usize> {
        self.starts.iter().filter_map(|s| self.index(s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(start: &[u64], moves: &[&str], end: &str, apply_to: ApplyTo) -> HeapsGame {
        HeapsGame::new(
            vec![start.to_vec()],
            moves.iter().map(|m| MoveExpr::parse(m).unwrap()).collect(),
            end.parse().unwrap(),
            Last::Wins,
            apply_to,
        )
        .unwrap()
    }

    #[test]
    fn end_conditions_parse_and_print() {
        for s in ["sum>=61", "any>=10", "sum<=4", "any<=0"] {
            assert_eq!(s.parse::<End>().unwrap().to_string(), s);
        }
        assert_eq!("sum >= 61".parse::<End>(), Ok(End::SumAtLeast(61)));
        assert!("total>=3"
            .parse::<End>()
            .unwrap_err()
            .contains("`total` is neither sum nor any"));
        assert!("sum=3".parse::<End>().unwrap_err().contains("no >= or <="));
        assert!("sum>=x"
            .parse::<End>()
            .unwrap_err()
            .contains("non-negative integer"));
    }

    #[test]
    fn moves_come_heap_by_heap_in_the_order_given() {
        let g = game(&[3, 10], &["x+1", "x*4"], "sum>=61", ApplyTo::Any);
        let i = g.index(&[3, 10]).unwrap();
        let mut seen = vec![];
        g.for_each_move(i, |m, s| seen.push((m.result, s == Successor::Beyond)));
        assert_eq!(
            seen,
            vec![
                (vec![4, 10], false),
                (vec![12, 10], false),
                (vec![3, 11], false),
                (vec![3, 40], false)
            ]
        );
        let i = g.index(&[3, 20]).unwrap();
        let mut beyond = vec![];
        g.for_each_move(i, |m, s| {
            if s == Successor::Beyond {
                beyond.push(m.result)
            }
        });
        assert_eq!(beyond, vec![vec![3, 80]]);
    }

    #[test]
    fn moves_to_the_same_size_count_once_and_identity_results_are_illegal() {
        // At x = 0 both x*4 and x*2 give 0 (illegal); at x = 2, x*2 and x+2 both give 4.
        let g = game(&[2], &["x*2", "x+2", "x*4"], "sum>=20", ApplyTo::Any);
        let mut seen = vec![];
        g.for_each_move(g.index(&[2]).unwrap(), |m, _| seen.push((m.expr, m.result)));
        assert_eq!(seen, vec![(0, vec![4]), (2, vec![8])]);
    }

    #[test]
    fn only_the_smaller_heap_moves_when_asked() {
        let g = game(&[3, 5], &["x+1"], "sum>=20", ApplyTo::Smaller);
        let mut seen = vec![];
        g.for_each_move(g.index(&[3, 5]).unwrap(), |m, _| seen.push(m.result));
        assert_eq!(seen, vec![vec![4, 5]]);
        let mut seen = vec![];
        g.for_each_move(g.index(&[5, 5]).unwrap(), |m, _| seen.push(m.result));
        assert_eq!(seen, vec![vec![6, 5], vec![5, 6]]);
    }

    #[test]
    fn predecessors_are_the_inverse_of_moves() {
        for apply_to in [ApplyTo::Any, ApplyTo::Smaller] {
            let g = game(
                &[2, 3],
                &["x+1", "x*2", "x-3 if x%2==1"],
                "sum>=17",
                apply_to,
            );
            for i in 0..g.len() {
                let mut preds = vec![];
                g.for_each_predecessor(i, |p| preds.push(p));
                preds.sort();
                let mut expected = vec![];
                for p in 0..g.len() {
                    g.for_each_move(p, |_, s| {
                        if s == Successor::Stored(i) {
                            expected.push(p)
                        }
                    });
                }
                // Predecessors may include positions where the game is already over;
                // the solver skips them, as they are resolved before anything else.
                preds.retain(|&p| !g.end.holds(&g.position(p)));
                assert_eq!(preds, expected, "{:?} {:?}", apply_to, g.position(i));
            }
        }
    }

    #[test]
    fn a_start_that_is_already_over_is_refused() {
        let e = HeapsGame::kege_seed(&[3, 58]).unwrap_err();
        assert!(e.to_string().contains("already over"), "{e}");
    }

    #[test]
    fn pointless_and_unbounded_games_are_refused() {
        let e = HeapsGame::new(
            vec![vec![3]],
            vec![MoveExpr::parse("x*1").unwrap()],
            End::SumAtLeast(10),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap_err();
        assert!(e.to_string().contains("never changes"), "{e}");
        let e = HeapsGame::new(
            vec![vec![3]],
            vec![MoveExpr::parse("x/0").unwrap()],
            End::SumAtLeast(10),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap_err();
        assert!(
            e.to_string().to_lowercase().contains("division by zero")
                || e.to_string().contains("zero"),
            "{e}"
        );
    }
}
