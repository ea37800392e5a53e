//! Subtraction games are eventually periodic. This module solves a stick game position by
//! position in increasing size until the state that determines everything after it (the last
//! `max take` values, with depths taken relative to the newest) repeats. From then on outcome,
//! chosen move and depth increment repeat with that period, so any count up to 2^63 is answered
//! without solving every position.
//!
//! The minimal period and pre-period of the outcome sequence alone are derived from it (the
//! outcome sequence's minimal eventual period divides the state's period).

use super::retrograde::{Outcome, Value};
use crate::game::{Ending, Last, SticksGame};
use serde::Serialize;
use std::collections::HashMap;

/// The value and chosen move of one stick count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SticksValue {
    /// Outcome and depth.
    pub value: Value,
    /// Sticks the player to move takes; `None` at a terminal position.
    pub take: Option<u64>,
}

/// The periodic structure of a stick game.
#[derive(Clone, Debug)]
pub struct SticksPeriod {
    take: Vec<u64>,
    last: Last,
    /// Values for 0..prefix.len().
    prefix: Vec<SticksValue>,
    /// The full state repeats: value(n + state_period) follows value(n) for n >= state_start.
    state_start: u64,
    state_period: u64,
    depth_step: u64,
    /// Outcome sequence: minimal period and pre-period.
    period: u64,
    pre_period: u64,
}

/// Most positions examined while looking for the period.
pub const PERIOD_SEARCH_LIMIT: u64 = 1 << 22;

fn step(values: &[SticksValue], n: u64, take: &[u64], last: Last) -> SticksValue {
    if n == 0 {
        return SticksValue {
            value: Value::terminal(Ending::Reached, last),
            take: None,
        };
    }
    let mut best: Option<((u8, i128), u64, Value)> = None;
    for &k in take.iter().take_while(|&&k| k <= n) {
        let v = values[(n - k) as usize].value;
        let s = v.score_for_mover();
        if best.is_none_or(|(b, _, _)| s > b) {
            best = Some((s, k, v));
        }
    }
    match best {
        None => SticksValue {
            value: Value::terminal(Ending::Stuck, last),
            take: None,
        },
        Some((_, k, v)) => {
            let d = v.depth.expect("acyclic") + 1;
            SticksValue {
                value: if v.outcome == Outcome::Loss {
                    Value::win(d)
                } else {
                    Value::loss(d)
                },
                take: Some(k),
            }
        }
    }
}

impl SticksPeriod {
    /// Finds the period of `game`'s rules (its count does not matter). `None` when the state
    /// does not repeat within [`PERIOD_SEARCH_LIMIT`] positions.
    pub fn find(game: &SticksGame) -> Option<Self> {
        let take = game.take().to_vec();
        let last = crate::game::Game::last(game);
        let k = *take.last().expect("non-empty") as usize;
        let mut values: Vec<SticksValue> = Vec::new();
        let mut seen: HashMap<Vec<(Outcome, i64, Option<u64>)>, u64> = HashMap::new();
        let window = |values: &[SticksValue], n: usize| -> Vec<(Outcome, i64, Option<u64>)> {
            let d0 = values[n].value.depth.unwrap_or(0) as i64;
            (n + 1 - k..=n)
                .map(|i| {
                    let v = values[i];
                    (
                        v.value.outcome,
                        v.value.depth.unwrap_or(0) as i64 - d0,
                        v.take,
                    )
                })
                .collect()
        };
        let mut n = 0u64;
        let (start, p) = loop {
            if n > PERIOD_SEARCH_LIMIT {
                return None;
            }
            let v = step(&values, n, &take, last);
            values.push(v);
            if n as usize + 1 >= k {
                let w = window(&values, n as usize);
                if let Some(&m) = seen.get(&w) {
                    break (m, n - m);
                }
                seen.insert(w, n);
            }
            n += 1;
        };
        // Two full periods past the start so the outcome period can be checked.
        while (values.len() as u64) < start + 2 * p + 1 {
            let n = values.len() as u64;
            let v = step(&values, n, &take, last);
            values.push(v);
        }
        let depth_step = values[(start + p) as usize].value.depth.unwrap_or(0)
            - values[start as usize].value.depth.unwrap_or(0);
        let out = |i: u64| values[i as usize].value.outcome;
        let period = (1..=p)
            .filter(|d| p % d == 0)
            .find(|&d| (start..start + p).all(|i| out(i) == out(i + d)))
            .expect("p itself is a period");
        let mut pre = start;
        while pre > 0 && out(pre - 1) == out(pre - 1 + period) {
            pre -= 1;
        }
        Some(Self {
            take,
            last,
            prefix: values,
            state_start: start,
            state_period: p,
            depth_step,
            period,
            pre_period: pre,
        })
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
            .map(|i| self.prefix[i as usize].value.outcome)
            .collect()
    }

    /// Value and move at `n` sticks, for any `n`.
    pub fn at(&self, n: u64) -> SticksValue {
        if (n as usize) < self.prefix.len() {
            return self.prefix[n as usize];
        }
        let cycles = (n - self.state_start) / self.state_period;
        let r = self.state_start + (n - self.state_start) % self.state_period;
        let mut v = self.prefix[r as usize];
        v.value.depth = v.value.depth.map(|d| d + cycles * self.depth_step);
        v
    }

    /// Number of counts in `0..=count` of each outcome: (wins, losses).
    pub fn outcome_counts(&self, count: u64) -> (u64, u64) {
        let losses_in = |from: u64, to_incl: u64| -> u64 {
            (from..=to_incl)
                .filter(|&i| self.prefix[i as usize].value.outcome == Outcome::Loss)
                .count() as u64
        };
        let losses = if (count as usize) < self.prefix.len() {
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
