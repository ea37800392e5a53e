//! Subtraction games are eventually periodic. This module solves a stick game position by
//! position in increasing size until the state that determines everything after it (the last
//! `max take` values, with depths taken relative to the newest) repeats. From then on outcome,
//! chosen move and depth increment repeat with that period, so any count up to 2^63 is answered
//! without solving every position.
//!
//! The minimal period and pre-period of the outcome sequence alone are derived from it (the
//! outcome sequence's minimal eventual period divides the state's period).
//!
//! Memory is 8 bytes a position examined, whatever the largest take: the states are never
//! stored, only compared (a rolling hash of each window, checked value by value when two hashes
//! agree) along Brent's cycle search over the sequence of states. The search stops after
//! [`PERIOD_SEARCH_LIMIT`] positions' worth of states (no period then); every allocation is
//! asked for first, so a search that does not fit in memory is an [`OutOfMemory`] error, never
//! an abort.

use super::retrograde::{OutOfMemory, Outcome, Value};
use crate::game::{Ending, Last, SticksGame};
use serde::Serialize;

/// The value and chosen move of one stick count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SticksValue {
    /// Outcome and depth.
    pub value: Value,
    /// Sticks the player to move takes; `None` at a terminal position.
    pub take: Option<u64>,
}

/// One stick count's value as the search keeps it: 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    /// Moves to the end (below 2^32: the search examines fewer positions than that).
    depth: u32,
    /// Index of the chosen take in the take set; [`NO_TAKE`] at a terminal position.
    take: u8,
    /// True for a win of the player to move.
    win: bool,
}

/// [`Packed::take`] of a terminal position (a take set holds at most 255 amounts).
const NO_TAKE: u8 = u8::MAX;

/// The periodic structure of a stick game.
#[derive(Clone, Debug)]
pub struct SticksPeriod {
    take: Vec<u64>,
    last: Last,
    /// Values for 0..prefix.len().
    prefix: Vec<Packed>,
    /// The full state repeats: value(n + state_period) follows value(n) for n >= state_start.
    state_start: u64,
    state_period: u64,
    depth_step: u64,
    /// Outcome sequence: minimal period and pre-period.
    period: u64,
    pre_period: u64,
}

/// The state (the window of the last `max take` values) must repeat within this many
/// positions: a game whose first repeated state ends past it has no period here.
pub const PERIOD_SEARCH_LIMIT: u64 = 1 << 22;

/// Bytes the search keeps for each position it examines.
pub const PERIOD_BYTES_PER_POSITION: u64 = std::mem::size_of::<Packed>() as u64;

/// The most positions a search examines for a game whose largest take is `max_take`: Brent's
/// search finds every repeat that ends within [`PERIOD_SEARCH_LIMIT`] positions after at most
/// three times as many steps past the first full window.
pub fn period_search_positions(max_take: u64) -> u64 {
    max_take.saturating_sub(1) + 3 * PERIOD_SEARCH_LIMIT + 2
}

impl Packed {
    fn unpack(self, take: &[u64]) -> SticksValue {
        let depth = u64::from(self.depth);
        SticksValue {
            value: if self.win {
                Value::win(depth)
            } else {
                Value::loss(depth)
            },
            take: (self.take != NO_TAKE).then(|| take[usize::from(self.take)]),
        }
    }

    fn outcome(self) -> Outcome {
        if self.win {
            Outcome::Win
        } else {
            Outcome::Loss
        }
    }
}

/// The value of `n` sticks from the values below it.
fn step(values: &[Packed], n: u64, take: &[u64], last: Last) -> Packed {
    let terminal = |ending| Packed {
        depth: 0,
        take: NO_TAKE,
        win: Value::terminal(ending, last).outcome == Outcome::Win,
    };
    if n == 0 {
        return terminal(Ending::Reached);
    }
    // The best move for the mover: leave a loss, the fastest; else a win, the slowest (the
    // order of `Value::score_for_mover`); the first such take on ties.
    let mut best: Option<(usize, Packed)> = None;
    for (i, &k) in take.iter().enumerate().take_while(|&(_, &k)| k <= n) {
        let v = values[(n - k) as usize];
        let better = match best {
            None => true,
            Some((_, b)) => match (v.win, b.win) {
                (false, true) => true,
                (true, false) => false,
                (false, false) => v.depth < b.depth,
                (true, true) => v.depth > b.depth,
            },
        };
        if better {
            best = Some((i, v));
        }
    }
    match best {
        None => terminal(Ending::Stuck),
        Some((i, v)) => Packed {
            depth: v.depth + 1,
            take: i as u8,
            win: !v.win,
        },
    }
}

/// Arithmetic modulo the Mersenne prime 2^61 - 1, for the rolling hash of a window.
mod hash {
    pub const M: u64 = (1 << 61) - 1;
    /// The base of the polynomial hash.
    pub const BASE: u64 = 0x1d8e_4e27_c47d_124f % M;

    pub fn mul(a: u64, b: u64) -> u64 {
        let p = u128::from(a) * u128::from(b);
        let r = ((p >> 61) as u64) + ((p as u64) & M);
        if r >= M {
            r - M
        } else {
            r
        }
    }

    pub fn add(a: u64, b: u64) -> u64 {
        let r = a + b;
        if r >= M {
            r - M
        } else {
            r
        }
    }

    pub fn sub(a: u64, b: u64) -> u64 {
        if a >= b {
            a - b
        } else {
            a + M - b
        }
    }

    /// A well-mixed value of `x` below `M` (splitmix64's finaliser).
    pub fn mix(mut x: u64) -> u64 {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (x ^ (x >> 31)) % M
    }
}

/// The search's values and what compares two windows of them.
struct Search<'a> {
    take: &'a [u64],
    last: Last,
    /// The window length: the largest take.
    k: usize,
    values: Vec<Packed>,
    /// `BASE^(k - 2)`: the weight of the oldest element of a tail hash (see [`Self::tail_hash`]).
    top: u64,
}

impl Search<'_> {
    /// Computes values up to `n` (inclusive), asking for the memory first.
    fn fill_to(&mut self, n: u64) -> Result<(), OutOfMemory> {
        while self.values.len() as u64 <= n {
            if self.values.len() == self.values.capacity() {
                let more = self.values.len().max(1 << 12);
                self.values
                    .try_reserve_exact(more)
                    .map_err(|_| OutOfMemory {
                        bytes: (self.values.len() + more) as u128
                            * PERIOD_BYTES_PER_POSITION as u128,
                        what: "the values of the period search",
                    })?;
            }
            let v = step(&self.values, self.values.len() as u64, self.take, self.last);
            self.values.push(v);
        }
        Ok(())
    }

    /// The hash of position `i` inside a window: its outcome, its take and its depth relative
    /// to the position before (the first of a window leaves its depth out, see [`Self::head`]).
    fn element(&self, i: usize) -> u64 {
        let v = self.values[i];
        let delta = i64::from(v.depth) - i64::from(self.values[i - 1].depth);
        hash::mix(hash::mix(delta as u64) ^ (u64::from(v.take) << 1 | u64::from(v.win)))
    }

    /// The hash of the oldest position of a window: its outcome and take.
    fn head(&self, i: usize) -> u64 {
        let v = self.values[i];
        hash::mix(u64::from(v.take) << 1 | u64::from(v.win))
    }

    /// The hash of the elements `n + 2 - k ..= n` (the window of `n` but its oldest position).
    fn tail_hash(&self, n: usize) -> u64 {
        let mut h = 0;
        for i in n + 2 - self.k..=n {
            h = hash::add(hash::mul(h, hash::BASE), self.element(i));
        }
        h
    }

    /// Slides a tail hash from `n` to `n + 1`.
    fn slide(&self, h: u64, n: usize) -> u64 {
        if self.k == 1 {
            return 0;
        }
        let oldest = hash::mul(self.element(n + 2 - self.k), self.top);
        hash::add(
            hash::mul(hash::sub(h, oldest), hash::BASE),
            self.element(n + 1),
        )
    }

    /// The hash of the whole window of `n` from its tail hash.
    fn window_hash(&self, tail: u64, n: usize) -> u64 {
        hash::add(hash::mul(tail, hash::BASE), self.head(n + 1 - self.k))
    }

    /// Whether the windows of `a` and `b` hold the same state: outcomes and takes equal, and
    /// depths equal relative to the newest.
    fn same_window(&self, a: usize, b: usize) -> bool {
        let (da, db) = (self.values[a].depth, self.values[b].depth);
        (0..self.k).all(|j| {
            let (x, y) = (self.values[a - j], self.values[b - j]);
            x.win == y.win
                && x.take == y.take
                && i64::from(x.depth) - i64::from(da) == i64::from(y.depth) - i64::from(db)
        })
    }
}

impl SticksPeriod {
    /// Finds the period of `game`'s rules (its count does not matter). `None` when the state
    /// does not repeat within [`PERIOD_SEARCH_LIMIT`] positions. Panics when the search's
    /// memory cannot be had; see [`SticksPeriod::try_find`].
    pub fn find(game: &SticksGame) -> Option<Self> {
        Self::try_find(game).unwrap_or_else(|e| panic!("the period search: {e}"))
    }

    /// [`SticksPeriod::find`], or [`OutOfMemory`] when the values of the positions examined
    /// (8 bytes each, at most [`period_search_positions`] of them) do not fit in memory.
    pub fn try_find(game: &SticksGame) -> Result<Option<Self>, OutOfMemory> {
        let take = game.take().to_vec();
        let last = crate::game::Game::last(game);
        let max_take = *take.last().expect("non-empty");
        // The first state is the window of `max_take - 1`: a repeat ends past it.
        if max_take > PERIOD_SEARCH_LIMIT {
            return Ok(None);
        }
        let k = max_take as usize;
        let mut s = Search {
            take: &take,
            last,
            k,
            values: Vec::new(),
            top: (1..k.max(2) - 1).fold(1, |p, _| hash::mul(p, hash::BASE)),
        };
        let x0 = k - 1;
        let cap = period_search_positions(max_take) as usize;
        s.fill_to(x0 as u64 + 1)?;
        // Brent: the tortoise waits at x0 + 2^j - 1 while the hare runs up to 2^j steps ahead.
        let (mut power, mut lam) = (1usize, 1usize);
        let mut tortoise = x0;
        let first_tail = if k == 1 { 0 } else { s.tail_hash(x0) };
        let mut tortoise_hash = s.window_hash(first_tail, tortoise);
        let mut hare = x0 + 1;
        let mut hare_tail = s.slide(first_tail, x0);
        loop {
            let h = s.window_hash(hare_tail, hare);
            if h == tortoise_hash && s.same_window(tortoise, hare) {
                break;
            }
            if power == lam {
                tortoise = hare;
                tortoise_hash = h;
                power *= 2;
                lam = 0;
            }
            if hare >= cap {
                return Ok(None);
            }
            s.fill_to(hare as u64 + 1)?;
            hare_tail = s.slide(hare_tail, hare);
            hare += 1;
            lam += 1;
        }
        let p = lam;
        // The first state that repeats: walk two windows `p` apart from the start.
        let mut a = x0;
        let mut a_tail = if k == 1 { 0 } else { s.tail_hash(x0) };
        let mut b = x0 + p;
        let mut b_tail = if k == 1 { 0 } else { s.tail_hash(b) };
        while !(s.window_hash(a_tail, a) == s.window_hash(b_tail, b) && s.same_window(a, b)) {
            a_tail = s.slide(a_tail, a);
            b_tail = s.slide(b_tail, b);
            a += 1;
            b += 1;
        }
        let (start, p) = (a as u64, p as u64);
        // The state first repeats at `start + p`: past the limit, no period (as if the
        // search had stopped there).
        if start + p > PERIOD_SEARCH_LIMIT {
            return Ok(None);
        }
        // Two full periods past the start so the outcome period can be checked; the values the
        // search computed past them are dropped.
        s.fill_to(start + 2 * p)?;
        let mut values = s.values;
        values.truncate((start + 2 * p + 1) as usize);
        values.shrink_to_fit();
        let depth_step =
            u64::from(values[(start + p) as usize].depth) - u64::from(values[start as usize].depth);
        let out = |i: u64| values[i as usize].win;
        let period = (1..=p)
            .filter(|d| p % d == 0)
            .find(|&d| (start..start + p).all(|i| out(i) == out(i + d)))
            .expect("p itself is a period");
        let mut pre = start;
        while pre > 0 && out(pre - 1) == out(pre - 1 + period) {
            pre -= 1;
        }
        Ok(Some(Self {
            take,
            last,
            prefix: values,
            state_start: start,
            state_period: p,
            depth_step,
            period,
            pre_period: pre,
        }))
    }

    /// Minimal period of the outcome sequence.
    pub fn period(&self) -> u64 {
        self.period
    }
    /// Number of leading counts before the outcome sequence becomes periodic.
    pub fn pre_period(&self) -> u64 {
        self.pre_period
    }
    /// Outcomes of one period, starting at the pre-period.
    pub fn pattern(&self) -> Vec<Outcome> {
        (self.pre_period..self.pre_period + self.period)
            .map(|i| self.prefix[i as usize].outcome())
            .collect()
    }

    /// Value and move at `n` sticks, for any `n`.
    pub fn at(&self, n: u64) -> SticksValue {
        if n < self.prefix.len() as u64 {
            return self.prefix[n as usize].unpack(&self.take);
        }
        let cycles = (n - self.state_start) / self.state_period;
        let r = self.state_start + (n - self.state_start) % self.state_period;
        let mut v = self.prefix[r as usize].unpack(&self.take);
        v.value.depth = v.value.depth.map(|d| d + cycles * self.depth_step);
        v
    }

    /// Number of counts in `0..=count` of each outcome: (wins, losses).
    pub fn outcome_counts(&self, count: u64) -> (u64, u64) {
        let losses_in = |from: u64, to_incl: u64| -> u64 {
            (from..=to_incl)
                .filter(|&i| !self.prefix[i as usize].win)
                .count() as u64
        };
        let losses = if count < self.prefix.len() as u64 {
            losses_in(0, count)
        } else {
            let s = self.state_start;
            let p = self.state_period;
            let full = (count + 1 - s) / p;
            let rem = (count + 1 - s) % p;
            let head = if s == 0 { 0 } else { losses_in(0, s - 1) };
            let per = losses_in(s, s + p - 1);
            let tail = if rem == 0 {
                0
            } else {
                losses_in(s, s + rem - 1)
            };
            head + full * per + tail
        };
        (count + 1 - losses, losses)
    }

    /// The take set these results are for.
    pub fn take(&self) -> &[u64] {
        &self.take
    }
    /// The end rule these results are for.
    pub fn last(&self) -> Last {
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::retrograde::solve;

    #[test]
    fn fort_boyard_has_period_four_from_the_start() {
        let p = SticksPeriod::find(&SticksGame::fort_boyard()).unwrap();
        assert_eq!((p.pre_period(), p.period()), (0, 4));
        assert_eq!(
            p.pattern(),
            vec![Outcome::Win, Outcome::Loss, Outcome::Win, Outcome::Win]
        );
    }

    #[test]
    fn the_period_answers_agree_with_the_full_solve() {
        for take in [
            vec![1, 2, 3],
            vec![1, 3, 4],
            vec![2, 5, 7],
            vec![3, 4, 9, 11],
        ] {
            for last in [Last::Wins, Last::Loses] {
                let g = SticksGame::new(3000, &take, last).unwrap();
                let p = SticksPeriod::find(&g).unwrap();
                let s = solve(&g);
                let mut losses = 0;
                for n in 0..=3000u64 {
                    let v = s.value(n as usize);
                    losses += (v.outcome == Outcome::Loss) as u64;
                    let m = s.best_move(n as usize).map(|(k, _)| k);
                    assert_eq!(
                        p.at(n),
                        SticksValue { value: v, take: m },
                        "{take:?} {last} n={n}"
                    );
                    assert_eq!(p.outcome_counts(n).1, losses, "{take:?} {last} n={n}");
                }
            }
        }
    }

    /// The search as it was first written: every window stored whole in a map, the first
    /// window seen twice ends it. An independent answer for the state's start and period.
    fn first_repeat(take: &[u64], last: Last) -> (u64, u64) {
        let k = *take.last().unwrap() as usize;
        let mut values: Vec<Packed> = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for n in 0u64.. {
            values.push(step(&values, n, take, last));
            if n as usize + 1 >= k {
                let d0 = i64::from(values[n as usize].depth);
                let window: Vec<(bool, u8, i64)> = (n as usize + 1 - k..=n as usize)
                    .map(|i| {
                        (
                            values[i].win,
                            values[i].take,
                            i64::from(values[i].depth) - d0,
                        )
                    })
                    .collect();
                if let Some(&m) = seen.get(&window) {
                    return (m, n - m);
                }
                seen.insert(window, n);
            }
        }
        unreachable!()
    }

    /// Brent's search over hashed windows finds the same first repeated state as storing every
    /// window, for 300 take sets (a fixed pseudo-random sample, largest take up to 40).
    #[test]
    fn the_hashed_search_finds_the_first_repeated_state() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for case in 0..300 {
            let max = 1 + next() % 40;
            let mut take: Vec<u64> = (1..max).filter(|_| next() % 3 == 0).collect();
            take.push(max);
            let last = if case % 2 == 0 {
                Last::Wins
            } else {
                Last::Loses
            };
            let g = SticksGame::new(10, &take, last).unwrap();
            let p = SticksPeriod::find(&g).unwrap();
            assert_eq!(
                (p.state_start, p.state_period),
                first_repeat(g.take(), last),
                "{take:?} {last}"
            );
        }
    }

    /// A take of 10,000 (the state is 10,000 values long) is found quickly in a few hundred
    /// kilobytes, and agrees with the full solve over three periods.
    #[test]
    fn a_large_take_needs_memory_for_positions_not_windows() {
        for last in [Last::Wins, Last::Loses] {
            let g = SticksGame::new(60_000, &[7, 10_000], last).unwrap();
            let p = SticksPeriod::try_find(&g).unwrap().unwrap();
            assert!(p.prefix.len() < 100_000, "{} values kept", p.prefix.len());
            let s = solve(&g);
            for n in 0..=60_000u64 {
                let m = s.best_move(n as usize).map(|(k, _)| k);
                assert_eq!(
                    p.at(n),
                    SticksValue {
                        value: s.value(n as usize),
                        take: m
                    },
                    "{last} n={n}"
                );
            }
        }
    }

    /// A largest take past the search limit has no period here, at once.
    #[test]
    fn a_take_past_the_limit_has_no_period() {
        let g = SticksGame::new(10, &[1, PERIOD_SEARCH_LIMIT + 1], Last::Loses).unwrap();
        assert!(SticksPeriod::try_find(&g).unwrap().is_none());
    }

    #[test]
    fn huge_counts_are_answered_from_the_period() {
        let p = SticksPeriod::find(&SticksGame::fort_boyard()).unwrap();
        let n = (1u64 << 63) - 1;
        // 2^63 - 1 = 3 (mod 4): a win by taking 2, leaving 4k + 1.
        let v = p.at(n);
        assert_eq!(v.value.outcome, Outcome::Win);
        assert_eq!(v.take, Some(2));
    }
}
