//! The J.R. 01 seven-matches game (the J.R. 01 manual), in two phases.
//!
//! Phase 1: `count` matches on the table; players alternately remove an amount in the take
//! set. The player who removes the last match does not start phase 2; the other one does.
//! Phase 2: players alternately put back an amount in the take set; whoever brings the number
//! put back to `count` wins (the last move wins).
//!
//! A position is the phase and the running total (matches removed in phase 1, matches put back
//! in phase 2). Index `t` is phase 1 with total `t` (`0..count`); index `count + t` is phase 2
//! with total `t` (`0..=count`). Removing the last match leads to phase 2 with total 0, with
//! the other player to move: the game alternates as usual across the phase change.

use super::{validate_take_set, Direction, Ending, Game, GameError, Last, SolverPath, Successor};
use serde::Serialize;
use std::fmt;

/// A position of the seven-matches game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct MatchesPosition {
    /// 1 (removing) or 2 (putting back).
    pub phase: u8,
    /// Matches removed so far (phase 1) or put back so far (phase 2).
    pub total: u64,
}

impl fmt::Display for MatchesPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "phase {} total {}", self.phase, self.total)
    }
}

/// A validated two-phase matches game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchesGame {
    count: u64,
    take: Vec<u64>,
}

impl MatchesGame {
    /// The J.R. 01 game: 7 matches, take or put back 1 or 2.
    pub fn jr01() -> Self {
        Self::new(7, &[1, 2]).expect("valid")
    }

    /// Builds the game; the take set is sorted and de-duplicated.
    pub fn new(count: u64, take: &[u64]) -> Result<Self, GameError> {
        if count == 0 {
            return Err(GameError::ZeroCount);
        }
        let take = validate_take_set(take)?;
        super::check_size(2 * count as u128 + 1, SolverPath::OneSweep, "lower --count")?;
        Ok(Self { count, take })
    }

    /// Matches on the table at the start.
    pub fn count(&self) -> u64 {
        self.count
    }
    /// Amounts a move removes or puts back, ascending.
    pub fn take(&self) -> &[u64] {
        &self.take
    }
    /// Index of a position, if it exists.
    pub fn index(&self, p: MatchesPosition) -> Option<usize> {
        match p.phase {
            1 if p.total < self.count => Some(p.total as usize),
            2 if p.total <= self.count => Some((self.count + p.total) as usize),
            _ => None,
        }
    }
}

impl Game for MatchesGame {
    type Position = MatchesPosition;
    /// The number of matches removed (phase 1) or put back (phase 2).
    type Move = u64;

    fn len(&self) -> usize {
        2 * self.count as usize + 1
    }
    fn last(&self) -> Last {
        Last::Wins
    }
    /// Every move raises the total, and removing the last match leads to phase 2, whose
    /// indices all come after phase 1's.
    fn direction(&self) -> Option<Direction> {
        Some(Direction::Up)
    }
    fn ending(&self, i: usize) -> Option<Ending> {
        let p = self.position(i);
        if p.phase == 2 && p.total == self.count {
            Some(Ending::Reached)
        } else if p.total + self.take[0] > self.count {
            // Phase 1 can always reach `count` only if some take fits; phase 2 likewise.
            Some(Ending::Stuck)
        } else {
            None
        }
    }
    fn for_each_move<F: FnMut(u64, Successor)>(&self, i: usize, mut f: F) {
        let p = self.position(i);
        for &k in self.take.iter() {
            let t = p.total + k;
            if t > self.count {
                break;
            }
            let next = match (p.phase, t == self.count) {
                (1, false) => MatchesPosition { phase: 1, total: t },
                (1, true) => MatchesPosition { phase: 2, total: 0 },
                _ => MatchesPosition { phase: 2, total: t },
            };
            f(k, Successor::Stored(self.index(next).expect("in range")));
        }
    }
    fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, mut f: F) {
        let p = self.position(i);
        for &k in &self.take {
            let prev = match (p.phase, p.total) {
                (2, 0) if k <= self.count => MatchesPosition {
                    phase: 1,
                    total: self.count - k,
                },
                (_, t) if k <= t => MatchesPosition {
                    phase: p.phase,
                    total: t - k,
                },
                _ => continue,
            };
            f(self.index(prev).expect("in range"));
        }
    }
    fn position(&self, i: usize) -> MatchesPosition {
        let i = i as u64;
        if i < self.count {
            MatchesPosition { phase: 1, total: i }
        } else {
            MatchesPosition {
                phase: 2,
                total: i - self.count,
            }
        }
    }
    fn starts(&self) -> Vec<usize> {
        vec![0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_the_last_match_starts_phase_two() {
        let g = MatchesGame::jr01();
        let mut seen = vec![];
        g.for_each_move(6, |k, s| seen.push((k, s)));
        let p2 = g.index(MatchesPosition { phase: 2, total: 0 }).unwrap();
        assert_eq!(seen, vec![(1, Successor::Stored(p2))]);
        g.for_each_move(5, |k, s| {
            if k == 2 {
                assert_eq!(s, Successor::Stored(p2))
            }
        });
    }

    #[test]
    fn predecessors_are_the_inverse_of_moves() {
        for g in [
            MatchesGame::jr01(),
            MatchesGame::new(11, &[1, 3, 4]).unwrap(),
        ] {
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
                assert_eq!(preds, expected, "position {}", g.position(i));
            }
        }
    }

    #[test]
    fn every_move_raises_the_index() {
        for g in [
            MatchesGame::jr01(),
            MatchesGame::new(11, &[1, 3, 4]).unwrap(),
        ] {
            for i in 0..g.len() {
                g.for_each_move(i, |_, s| match s {
                    Successor::Stored(j) => assert!(j > i, "{} -> {}", i, j),
                    Successor::Beyond => panic!("matches moves stay in the index"),
                });
            }
        }
    }

    #[test]
    fn only_seven_put_back_ends_the_game() {
        let g = MatchesGame::jr01();
        let ends: Vec<_> = (0..g.len()).filter(|&i| g.ending(i).is_some()).collect();
        assert_eq!(
            ends,
            vec![g.index(MatchesPosition { phase: 2, total: 7 }).unwrap()]
        );
    }
}
