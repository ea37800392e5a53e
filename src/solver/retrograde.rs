//! Retrograde analysis: outcome, depth and chosen move for every position of a game.
//!
//! Terminal positions are resolved first (depth 0). Then a FIFO queue, which holds positions in
//! non-decreasing depth, resolves predecessors: a predecessor of a lost position is won one move
//! later (the first such loss found is the shallowest, so the winner hurries); a predecessor
//! whose last unresolved successor turns out won is lost one move after the deepest of them (so
//! the loser delays). Nothing recurses, so cyclic graphs work: positions never resolved are
//! draws. Memory: a packed `u32` per position, a `u8` successor counter and a `u32` queue slot.
//!
//! The chosen move is not stored: it is recomputed from the successors' values, which gives
//! the move that realises the depth, ties going to the earliest move in the game's order.

use crate::game::{Ending, Game, Last, Successor};
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

/// The solved game.
#[derive(Clone, Debug)]
pub struct Solution<'g, G: Game> {
    game: &'g G,
    packed: Vec<u32>,
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

/// Solves every position of `game`.
pub fn solve<G: Game>(game: &G) -> Solution<'_, G> {
    solve_with_progress(game, &mut NoProgress)
}

/// [`solve`], reporting its three passes (terminal positions, successor counts, resolution)
/// to `progress`.
pub fn solve_with_progress<'g, G: Game>(
    game: &'g G,
    progress: &mut dyn Progress,
) -> Solution<'g, G> {
    let n = game.len();
    assert!(
        n as u64 <= crate::game::MAX_POSITIONS,
        "{n} positions exceed the solver's limit; games check their size when built (SticksGame::check_solvable)"
    );
    if game.moves_go_down() {
        return solve_descending(game, progress);
    }
    let last = game.last();
    let mut packed = vec![UNRESOLVED; n];
    let mut pending = vec![0u8; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n.min(1 << 24));

    // Depth 0: the positions with no moves.
    progress.pass("ends", n as u64);
    for (i, slot) in packed.iter_mut().enumerate() {
        if i % PROGRESS_STEP == 0 {
            progress.at(i as u64);
        }
        if let Some(ending) = game.ending(i) {
            let v = Value::terminal(ending, last);
            *slot = pack(if v.outcome == Outcome::Win { WIN } else { LOSS }, 0);
            queue.push(i as u32);
        }
    }
    // Depth 1 from moves that leave the index space (they always end the game), and the
    // successor counters for everything else.
    let beyond = Value::terminal(Ending::Reached, last);
    progress.pass("moves", n as u64);
    for i in 0..n {
        if i % PROGRESS_STEP == 0 {
            progress.at(i as u64);
        }
        if packed[i] != UNRESOLVED {
            continue;
        }
        let (mut stored, mut beyond_moves) = (0u32, 0u32);
        game.for_each_successor(i, |s| match s {
            Successor::Stored(_) => stored += 1,
            Successor::Beyond => beyond_moves += 1,
        });
        if beyond_moves > 0 && beyond.outcome == Outcome::Loss {
            packed[i] = pack(WIN, 1);
            queue.push(i as u32);
        } else if stored == 0 {
            packed[i] = pack(LOSS, 1);
            queue.push(i as u32);
        } else {
            pending[i] = u8::try_from(stored).expect("at most 255 moves per position");
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
            } else {
                pending[q] -= 1;
                if pending[q] == 0 {
                    packed[q] = pack(LOSS, next_depth);
                    queue.push(q as u32);
                }
            }
        });
    }
    progress.at(head as u64);
    Solution { game, packed }
}

/// The same analysis in one ascending pass, for games whose moves always lead to smaller
/// indices: every successor is decided before its predecessor, so a position is won one move
/// after its shallowest lost successor, or else lost one move after its deepest won one.
/// (No position can be drawn.) Terminal positions come first in this order, as in the queue.
fn solve_descending<'g, G: Game>(game: &'g G, progress: &mut dyn Progress) -> Solution<'g, G> {
    let n = game.len();
    let last = game.last();
    let beyond = Value::terminal(Ending::Reached, last);
    let beyond_packed = pack(
        if beyond.outcome == Outcome::Win {
            WIN
        } else {
            LOSS
        },
        0,
    );
    let mut packed: Vec<u32> = Vec::with_capacity(n);
    progress.pass("resolve", n as u64);
    for i in 0..n {
        if i % PROGRESS_STEP == 0 {
            progress.at(i as u64);
        }
        if let Some(ending) = game.ending(i) {
            let v = Value::terminal(ending, last);
            packed.push(pack(if v.outcome == Outcome::Win { WIN } else { LOSS }, 0));
            continue;
        }
        // Shallowest lost successor, deepest won successor.
        let (mut lost, mut won): (Option<u32>, Option<u32>) = (None, None);
        game.for_each_successor(i, |s| {
            let v = match s {
                Successor::Stored(j) => {
                    debug_assert!(j < i, "moves_go_down: move from {i} to {j}");
                    packed[j]
                }
                Successor::Beyond => beyond_packed,
            };
            let d = v >> 2;
            if v & 3 == LOSS {
                lost = Some(lost.map_or(d, |m| m.min(d)));
            } else {
                won = Some(won.map_or(d, |m| m.max(d)));
            }
        });
        packed.push(match (lost, won) {
            (Some(d), _) => pack(WIN, d as u64 + 1),
            (None, Some(d)) => pack(LOSS, d as u64 + 1),
            (None, None) => unreachable!("a position with no move has an ending"),
        });
    }
    progress.at(n as u64);
    Solution { game, packed }
}

impl<'g, G: Game> Solution<'g, G> {
    /// The game this solves.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// Value of position `i`.
    pub fn value(&self, i: usize) -> Value {
        let v = self.packed[i];
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
        let (mut w, mut l, mut d) = (0, 0, 0);
        for &v in &self.packed {
            match v & 3 {
                WIN => w += 1,
                LOSS => l += 1,
                _ => d += 1,
            }
        }
        (w, l, d)
    }

    /// Indices of the positions reachable from the game's starts, ascending.
    pub fn reachable(&self) -> Vec<usize> {
        let n = self.game.len();
        let mut seen = vec![false; n];
        let mut stack = self.game.starts();
        for &s in &stack {
            seen[s] = true;
        }
        while let Some(p) = stack.pop() {
            self.game.for_each_move(p, |_, s| {
                if let Successor::Stored(j) = s {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            });
        }
        (0..n).filter(|&i| seen[i]).collect()
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

    #[test]
    fn matches_game_starts_lost_for_the_first_player() {
        let g = MatchesGame::jr01();
        let s = solve(&g);
        assert_eq!(s.value(0).outcome, Outcome::Loss);
    }
}
