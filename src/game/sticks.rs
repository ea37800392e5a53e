//! The stick game (Fort Boyard) and every subtraction game: one pile of sticks, a move takes
//! any amount in the take set that is not more than the pile.
//!
//! Index `n` is the position with `n` sticks left, `0..=count`. Moves come in ascending take.
//! Position 0 ends the game: under [`Last::Loses`] the player to move there has won (the other
//! one took the last stick). A non-empty pile that no take fits (take set without 1) is stuck:
//! the player to move cannot move and loses.

use super::{check_size, validate_take_set, Ending, Game, GameError, Last, SolverPath, Successor};
use serde::Serialize;

/// A validated subtraction game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SticksGame {
    count: u64,
    take: Vec<u64>,
    last: Last,
}

impl SticksGame {
    /// Fort Boyard: 18 sticks, take 1, 2 or 3, whoever takes the last stick loses.
    pub fn fort_boyard() -> Self {
        Self::new(18, &[1, 2, 3], Last::Loses).expect("valid")
    }

    /// Builds the game; the take set is sorted and de-duplicated.
    pub fn new(count: u64, take: &[u64], last: Last) -> Result<Self, GameError> {
        if count == 0 {
            return Err(GameError::ZeroCount);
        }
        let take = validate_take_set(take)?;
        Ok(Self { count, take, last })
    }

    /// Sticks at the start.
    pub fn count(&self) -> u64 {
        self.count
    }
    /// The take set, ascending.
    pub fn take(&self) -> &[u64] {
        &self.take
    }
    /// Largest move.
    pub fn max_take(&self) -> u64 {
        *self.take.last().expect("validated non-empty")
    }
    /// The same rules with another starting count.
    pub fn with_count(&self, count: u64) -> Result<Self, GameError> {
        Self::new(count, &self.take, self.last)
    }
    /// Checks the game fits the dense solver.
    pub fn check_solvable(&self) -> Result<(), GameError> {
        check_size(
            self.count as u128 + 1,
            SolverPath::OneSweep,
            "lower --count",
        )
    }
    /// [`SticksGame::check_solvable`] for `solve --format table|json`, whose error also points
    /// to `--format summary` (which answers from the period, without the dense solver).
    pub fn check_solvable_or_summary(&self) -> Result<(), GameError> {
        check_size(
            self.count as u128 + 1,
            SolverPath::OneSweep,
            "lower --count, or use --format summary, which answers any count up to 2^63 from the period",
        )
    }
}

impl Game for SticksGame {
    type Position = u64;
    /// The number of sticks taken.
    type Move = u64;

    fn len(&self) -> usize {
        self.count as usize + 1
    }
    fn last(&self) -> Last {
        self.last
    }
    fn moves_go_down(&self) -> bool {
        true
    }
    #[inline]
    fn ending(&self, i: usize) -> Option<Ending> {
        if i == 0 {
            Some(Ending::Reached)
        } else if (i as u64) < self.take[0] {
            Some(Ending::Stuck)
        } else {
            None
        }
    }
    #[inline]
    fn for_each_move<F: FnMut(u64, Successor)>(&self, i: usize, mut f: F) {
        let n = i as u64;
        for &k in self.take.iter().take_while(|&&k| k <= n) {
            f(k, Successor::Stored((n - k) as usize));
        }
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, mut f: F) {
        let n = i as u64;
        for &k in &self.take {
            match n.checked_add(k) {
                Some(p) if p <= self.count => f(p as usize),
                _ => break,
            }
        }
    }
    fn position(&self, i: usize) -> u64 {
        i as u64
    }
    fn starts(&self) -> Vec<usize> {
        vec![self.count as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_come_in_ascending_take_and_never_exceed_the_pile() {
        let g = SticksGame::new(10, &[3, 1, 2, 3], Last::Loses).unwrap();
        assert_eq!(g.take(), &[1, 2, 3]);
        let mut seen = vec![];
        g.for_each_move(2, |k, s| seen.push((k, s)));
        assert_eq!(
            seen,
            vec![(1, Successor::Stored(1)), (2, Successor::Stored(0))]
        );
    }

    #[test]
    fn predecessors_are_the_inverse_of_moves() {
        let g = SticksGame::new(30, &[2, 5, 7], Last::Wins).unwrap();
        for i in 0..g.len() {
            let mut preds = vec![];
            g.for_each_predecessor(i, |p| preds.push(p));
            let mut expected = vec![];
            for p in 0..g.len() {
                g.for_each_move(p, |_, s| {
                    if s == Successor::Stored(i) {
                        expected.push(p)
                    }
                });
            }
            assert_eq!(preds, expected);
        }
    }

    #[test]
    fn a_pile_smaller_than_every_take_is_stuck() {
        let g = SticksGame::new(10, &[2, 3], Last::Loses).unwrap();
        assert_eq!(g.ending(0), Some(Ending::Reached));
        assert_eq!(g.ending(1), Some(Ending::Stuck));
        assert_eq!(g.ending(2), None);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert_eq!(
            SticksGame::new(5, &[], Last::Loses),
            Err(GameError::EmptyTakeSet)
        );
        assert_eq!(
            SticksGame::new(5, &[0, 1], Last::Loses),
            Err(GameError::ZeroTake)
        );
        assert_eq!(
            SticksGame::new(0, &[1], Last::Loses),
            Err(GameError::ZeroCount)
        );
    }
}
