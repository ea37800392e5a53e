//! How each game is played by hand: its positions drawn, the moves the human types, and the
//! moves said in words.

use crate::game::heaps::HeapsMove;
use crate::game::matches::MatchesPosition;
use crate::game::{join_commas, Game, HeapsGame, MatchesGame, SticksGame, Successor};

/// A game the human can play in the terminal.
pub trait Playable: Game<Move: PartialEq> {
    /// The position in one line.
    fn board(&self, p: &Self::Position) -> String;
    /// The position in a few words, e.g. `16 sticks`.
    fn name(&self, p: &Self::Position) -> String;
    /// What the human may type at stored position `i`, e.g. `take 1, 2 or 3`.
    fn hint(&self, i: usize) -> String;
    /// Reads the human's move at stored position `i`: the move and where it leads, or a
    /// one-line reason why the input is not a legal move there.
    fn parse_move(&self, i: usize, input: &str) -> Result<(Self::Move, Successor), String>;
    /// The position a move leads to (also when it leaves the index space).
    fn after(&self, from: &Self::Position, m: &Self::Move) -> Self::Position;
    /// The move in words, e.g. `take 2 -> 16`.
    fn say_move(&self, from: &Self::Position, m: &Self::Move) -> String;
    /// How the game ended at `p` by its end condition; `mover` made the last move.
    fn say_end(&self, p: &Self::Position, mover: &str) -> String;
}

/// The legal moves at `i`, in the game's order.
pub(crate) fn legal_moves<G: Game>(game: &G, i: usize) -> Vec<(G::Move, Successor)> {
    let mut moves = Vec::new();
    game.for_each_move(i, |m, s| moves.push((m, s)));
    moves
}

/// `1`, `1 or 2`, `1, 2 or 3`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A count typed by the human, with an optional leading word (`take 2`, `2`).
fn parse_count(input: &str, word: &str, what: &str, hint: &str) -> Result<u64, String> {
    let t = input.trim();
    let t = t.strip_prefix(word).map_or(t, str::trim_start);
    t.parse::<u64>().map_err(|_| {
        format!(
            "`{}` is not a number: type how many {what} ({hint})",
            super::excerpt(input.trim())
        )
    })
}

fn bars(n: u64) -> String {
    const MOST_DRAWN: u64 = 64;
    if n <= MOST_DRAWN {
        "|".repeat(n as usize)
    } else {
        format!("{}... ({n})", "|".repeat(MOST_DRAWN as usize))
    }
}

impl Playable for SticksGame {
    fn board(&self, p: &u64) -> String {
        let width = self.count().to_string().len();
        format!("{p:>width$} {}", bars(*p)).trim_end().to_string()
    }
    fn name(&self, p: &u64) -> String {
        format!("{p} {}", if *p == 1 { "stick" } else { "sticks" })
    }
    fn hint(&self, i: usize) -> String {
        let takes: Vec<String> = legal_moves(self, i)
            .iter()
            .map(|(k, _)| k.to_string())
            .collect();
        format!("take {}", or_list(&takes))
    }
    fn parse_move(&self, i: usize, input: &str) -> Result<(u64, Successor), String> {
        let hint = self.hint(i);
        let k = parse_count(input, "take", "sticks to take", &hint)?;
        let n = self.position(i);
        if let Some(found) = legal_moves(self, i).into_iter().find(|(m, _)| *m == k) {
            return Ok(found);
        }
        if self.take().contains(&k) {
            Err(format!("you cannot take {k} from {n}: {hint}"))
        } else {
            Err(format!("taking {k} is not a move of this game: {hint}"))
        }
    }
    fn after(&self, from: &u64, m: &u64) -> u64 {
        from - m
    }
    fn say_move(&self, from: &u64, m: &u64) -> String {
        format!("take {m} -> {}", from - m)
    }
    fn say_end(&self, _: &u64, mover: &str) -> String {
        format!("{mover} took the last stick")
    }
}

impl Playable for MatchesGame {
    fn board(&self, p: &MatchesPosition) -> String {
        let width = self.count().to_string().len();
        let total = p.total;
        if p.phase == 1 {
            format!(
                "phase 1, removed {total:>width$}, on the table {}",
                bars(self.count() - total)
            )
        } else {
            format!("phase 2, put back {total:>width$} {}", bars(total))
        }
        .trim_end()
        .to_string()
    }
    fn name(&self, p: &MatchesPosition) -> String {
        if p.phase == 1 {
            format!("phase 1 with {} removed", p.total)
        } else {
            format!("phase 2 with {} put back", p.total)
        }
    }
    fn hint(&self, i: usize) -> String {
        let p = self.position(i);
        let amounts: Vec<String> = legal_moves(self, i)
            .iter()
            .map(|(k, _)| k.to_string())
            .collect();
        let verb = if p.phase == 1 { "remove" } else { "put back" };
        format!("{verb} {}", or_list(&amounts))
    }
    fn parse_move(&self, i: usize, input: &str) -> Result<(u64, Successor), String> {
        let p = self.position(i);
        let hint = self.hint(i);
        let (word, what) = if p.phase == 1 {
            ("remove", "matches to remove")
        } else {
            ("put back", "matches to put back")
        };
        let k = parse_count(input, word, what, &hint)?;
        if let Some(found) = legal_moves(self, i).into_iter().find(|(m, _)| *m == k) {
            return Ok(found);
        }
        if self.take().contains(&k) {
            let room = self.count() - p.total;
            Err(format!(
                "you cannot {word} {k}: only {room} {} to go: {hint}",
                if room == 1 { "match" } else { "matches" }
            ))
        } else {
            Err(format!("{word} {k} is not a move of this game: {hint}"))
        }
    }
    fn after(&self, from: &MatchesPosition, m: &u64) -> MatchesPosition {
        let total = from.total + m;
        match (from.phase, total == self.count()) {
            (1, true) => MatchesPosition { phase: 2, total: 0 },
            (phase, _) => MatchesPosition { phase, total },
        }
    }
    fn say_move(&self, from: &MatchesPosition, m: &u64) -> String {
        let total = from.total + m;
        match (from.phase, total == self.count()) {
            (1, true) => format!("remove {m} -> all {total} removed, phase 2 begins"),
            (1, false) => format!("remove {m} -> removed {total}"),
            _ => format!("put back {m} -> put back {total}"),
        }
    }
    fn say_end(&self, _: &MatchesPosition, mover: &str) -> String {
        format!("{mover} brought the matches put back to {}", self.count())
    }
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

impl HeapsGame {
    /// The position the human's input names: `H EXPR` (heap H, 1-based, gets move EXPR),
    /// `EXPR` alone with one heap, or the heaps after the move, `4,10`.
    fn target(&self, from: &[u64], input: &str) -> Result<Vec<u64>, String> {
        let t = input.trim();
        let k = from.len();
        let numbers: Option<Vec<u64>> = t.split(',').map(|w| w.trim().parse().ok()).collect();
        if let Some(sizes) = numbers {
            if sizes.len() == k {
                return Ok(sizes);
            }
            return Err(format!(
                "`{}` names {} heap(s) but the game has {k}: type the heaps after your move, e.g. {}",
                super::excerpt(t),
                sizes.len(),
                join_commas(from)
            ));
        }
        let (heap, expr) = match t.split_once(char::is_whitespace) {
            Some((h, rest)) if h.parse::<usize>().is_ok() => (h.parse::<usize>().unwrap(), rest),
            _ if k == 1 => (1, t),
            _ => {
                return Err(format!(
                    "`{}` is neither `HEAP MOVE` (e.g. `1 {}`) nor the heaps after the move (e.g. `{}`)",
                    super::excerpt(t),
                    self.moves()[0].source(),
                    join_commas(from)
                ))
            }
        };
        if heap == 0 || heap > k {
            return Err(format!(
                "there is no heap {heap}: heaps are numbered 1 to {k}"
            ));
        }
        let wanted = squeeze(expr);
        let m = self
            .moves()
            .iter()
            .find(|m| squeeze(m.source()) == wanted)
            .ok_or_else(|| {
                let names: Vec<String> = self
                    .moves()
                    .iter()
                    .map(|m| m.source().to_string())
                    .collect();
                format!(
                    "`{}` is not one of the moves: {}",
                    super::excerpt(expr.trim()),
                    or_list(&names)
                )
            })?;
        let x = from[heap - 1] as i64;
        match m.apply(x) {
            Ok(Some(r)) if r >= 0 && r != x => {
                let mut sizes = from.to_vec();
                sizes[heap - 1] = r as u64;
                Ok(sizes)
            }
            Ok(Some(r)) if r == x => Err(format!(
                "{} leaves heap {heap} at {x}: a move must change the heap",
                m.source()
            )),
            Ok(Some(r)) => Err(format!(
                "{} takes heap {heap} to {r}: a heap cannot go below 0",
                m.source()
            )),
            Ok(None) => Err(format!(
                "{} does not apply to heap {heap} ({x}): its guard does not hold",
                m.source()
            )),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl Playable for HeapsGame {
    fn board(&self, p: &Vec<u64>) -> String {
        if p.len() == 1 {
            format!("heap {}", p[0])
        } else {
            format!("heaps {} (sum {})", join_commas(p), p.iter().sum::<u64>())
        }
    }
    fn name(&self, p: &Vec<u64>) -> String {
        format!(
            "{} {}",
            if p.len() == 1 { "heap" } else { "heaps" },
            join_commas(p)
        )
    }
    fn hint(&self, i: usize) -> String {
        let p = self.position(i);
        match legal_moves(self, i).first() {
            Some((m, _)) => format!(
                "heap and move, e.g. `{} {}`, or the heaps after it, e.g. `{}`",
                m.heap + 1,
                self.moves()[m.expr].source(),
                join_commas(&m.result)
            ),
            None => format!("no move from {}", join_commas(&p)),
        }
    }
    fn parse_move(&self, i: usize, input: &str) -> Result<(HeapsMove, Successor), String> {
        let from = self.position(i);
        let target = self.target(&from, input)?;
        let moves = legal_moves(self, i);
        if let Some(found) = moves.into_iter().find(|(m, _)| m.result == target) {
            return Ok(found);
        }
        let changed = from.iter().zip(&target).filter(|(a, b)| a != b).count();
        let why = if changed != 1 {
            "a move changes exactly one heap".to_string()
        } else if self.rules().apply_to == crate::game::ApplyTo::Smaller {
            "no move of the game gets there (only the smaller heap may move)".to_string()
        } else {
            "no move of the game gets there".to_string()
        };
        Err(format!(
            "{} -> {}: {why}: {}",
            join_commas(&from),
            join_commas(&target),
            self.hint(i)
        ))
    }
    fn after(&self, _: &Vec<u64>, m: &HeapsMove) -> Vec<u64> {
        m.result.clone()
    }
    fn say_move(&self, _: &Vec<u64>, m: &HeapsMove) -> String {
        format!(
            "heap {} {} -> {}",
            m.heap + 1,
            self.moves()[m.expr].source(),
            join_commas(&m.result)
        )
    }
    fn say_end(&self, p: &Vec<u64>, mover: &str) -> String {
        format!("{mover} reached {} ({} holds)", join_commas(p), self.end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::expr::MoveExpr;
    use crate::game::{ApplyTo, Last};

    #[test]
    fn sticks_read_a_number_and_say_why_not() {
        let g = SticksGame::fort_boyard();
        assert_eq!(g.parse_move(18, "2"), Ok((2, Successor::Stored(16))));
        assert_eq!(g.parse_move(18, " take 3 "), Ok((3, Successor::Stored(15))));
        assert_eq!(
            g.parse_move(2, "3"),
            Err("you cannot take 3 from 2: take 1 or 2".into())
        );
        assert_eq!(
            g.parse_move(18, "4"),
            Err("taking 4 is not a move of this game: take 1, 2 or 3".into())
        );
        assert!(g
            .parse_move(18, "two")
            .unwrap_err()
            .contains("not a number"));
        assert_eq!(g.board(&5), " 5 |||||");
        assert_eq!(g.board(&0), " 0");
    }

    #[test]
    fn matches_cross_into_phase_two() {
        let g = MatchesGame::jr01();
        let from = MatchesPosition { phase: 1, total: 6 };
        assert_eq!(g.after(&from, &1), MatchesPosition { phase: 2, total: 0 });
        assert_eq!(
            g.say_move(&from, &1),
            "remove 1 -> all 7 removed, phase 2 begins"
        );
        assert_eq!(
            g.parse_move(6, "2"),
            Err("you cannot remove 2: only 1 match to go: remove 1".into())
        );
        assert_eq!(g.board(&from), "phase 1, removed 6, on the table |");
    }

    #[test]
    fn heaps_read_a_heap_and_move_or_the_result() {
        let g = HeapsGame::kege_seed(&[3, 10]).unwrap();
        let i = g.index(&[3, 10]).unwrap();
        let by_move = g.parse_move(i, "1 x+1").unwrap();
        let by_result = g.parse_move(i, "4,10").unwrap();
        assert_eq!(by_move, by_result);
        assert_eq!(by_move.0.result, vec![4, 10]);
        assert_eq!(g.parse_move(i, "2 x * 4").unwrap().0.result, vec![3, 40]);
        assert!(g
            .parse_move(i, "1 x+2")
            .unwrap_err()
            .contains("not one of the moves: x+1 or x*4"));
        assert!(g
            .parse_move(i, "5,11")
            .unwrap_err()
            .contains("exactly one heap"));
        assert!(g.parse_move(i, "3 x+1").unwrap_err().contains("no heap 3"));
        assert!(g.parse_move(i, "x+1").unwrap_err().contains("HEAP MOVE"));
    }

    #[test]
    fn one_heap_takes_a_move_alone_and_reports_guards() {
        let g = HeapsGame::new(
            vec![vec![5]],
            vec![
                MoveExpr::parse("x+1").unwrap(),
                MoveExpr::parse("x*2 if x%2==0").unwrap(),
            ],
            "any>=12".parse().unwrap(),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap();
        let i = g.index(&[5]).unwrap();
        assert_eq!(g.parse_move(i, "x+1").unwrap().0.result, vec![6]);
        assert!(g
            .parse_move(i, "x*2 if x%2==0")
            .unwrap_err()
            .contains("guard does not hold"));
        assert_eq!(g.board(&vec![5]), "heap 5");
    }
}
