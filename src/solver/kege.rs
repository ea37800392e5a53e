//! The three standard questions of KEGE tasks 19-21 over a range of starts `(.., S, ..)`.
//!
//! Petya moves first, Vanya second. With depth counted in moves to the end (winner hurries,
//! loser delays):
//! - `petya_wins_in_1`: the start is won with depth 1;
//! - `vanya_wins_after_bad_move`: some first move of Petya reaches a position Vanya wins with
//!   depth 1 (the usual wording of task 19);
//! - `vanya_wins_in_1`: the start is lost with depth 2 (the other wording of task 19);
//! - `petya_wins_in_2`: the start is won with depth 3 (task 20);
//! - `vanya_wins_in_2`: the start is lost with depth 4 (task 21).

use super::retrograde::{solve, Outcome, Value};
use crate::game::{expr::MoveExpr, ApplyTo, End, Game, GameError, HeapsGame, Last};
use serde::Serialize;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A start with one unknown heap: `3,S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KegeStart {
    heaps: Vec<Option<u64>>,
}

impl KegeStart {
    /// The start with `S = s`.
    pub fn with(&self, s: u64) -> Vec<u64> {
        self.heaps.iter().map(|h| h.unwrap_or(s)).collect()
    }
}

impl FromStr for KegeStart {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let mut heaps = Vec::new();
        for part in text.split(',') {
            let p = part.trim();
            if p.eq_ignore_ascii_case("s") {
                heaps.push(None);
            } else {
                heaps.push(Some(p.parse::<u64>().map_err(|_| {
                    format!("--start `{text}`: `{p}` is neither a heap size nor S; write e.g. --start 3,S")
                })?));
            }
        }
        match heaps.iter().filter(|h| h.is_none()).count() {
            1 => Ok(KegeStart { heaps }),
            0 => Err(format!(
                "--start `{text}` has no S: mark the unknown heap with S, e.g. --start 3,S"
            )),
            _ => Err(format!(
                "--start `{text}` has more than one S: only one heap can be unknown, e.g. --start 3,S"
            )),
        }
    }
}

/// Most values `--s` may give S.
pub const MAX_S_VALUES: u64 = 1_000_000;

/// Parses `1..57` (inclusive, as the exam writes 1 <= S <= 57); `1..=57` is accepted too.
pub fn parse_s_range(text: &str) -> Result<RangeInclusive<u64>, String> {
    let fix = "write it as FIRST..LAST, e.g. --s 1..57";
    let (a, b) = text
        .split_once("..")
        .ok_or_else(|| format!("--s `{text}` is not a range: {fix}"))?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let a: u64 = a
        .trim()
        .parse()
        .map_err(|_| format!("--s `{text}`: `{a}` is not a number: {fix}"))?;
    let b: u64 = b
        .trim()
        .parse()
        .map_err(|_| format!("--s `{text}`: `{b}` is not a number: {fix}"))?;
    if a > b {
        return Err(format!(
            "--s `{text}` is empty (the first value is larger than the last): {fix}"
        ));
    }
    if b - a >= MAX_S_VALUES {
        return Err(format!(
            "--s `{text}` has {} values, more than the limit of {MAX_S_VALUES} (a million); narrow it",
            u128::from(b - a) + 1
        ));
    }
    Ok(a..=b)
}

/// One first move of Petya and the value of the position it reaches (for Vanya).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KegeMove {
    /// Heap sizes after the move.
    pub position: Vec<u64>,
    /// Value for Vanya, who moves next.
    pub outcome: Outcome,
    /// Depth for Vanya.
    pub depth: Option<u64>,
}

/// One value of S.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KegeRow {
    /// The value of S.
    pub s: u64,
    /// Start heaps.
    pub start: Vec<u64>,
    /// True when the end condition already holds at the start (no answer includes it).
    pub over: bool,
    /// Value for Petya; `None` when over.
    pub outcome: Option<Outcome>,
    /// Depth for Petya; `None` when over or drawn.
    pub depth: Option<u64>,
    /// Petya's first moves in the game's order.
    pub moves: Vec<KegeMove>,
}

/// The answers, as sets of S (ascending).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct KegeAnswers {
    /// Start won with depth 1.
    pub petya_wins_in_1: Vec<u64>,
    /// Some first move lets Vanya win with depth 1 (task 19).
    pub vanya_wins_after_bad_move: Vec<u64>,
    /// Start lost with depth 2 (task 19, other wording).
    pub vanya_wins_in_1: Vec<u64>,
    /// Start won with depth 3 (task 20).
    pub petya_wins_in_2: Vec<u64>,
    /// Start lost with depth 4 (task 21).
    pub vanya_wins_in_2: Vec<u64>,
}

/// Rows and answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KegeReport {
    /// One row per S.
    pub rows: Vec<KegeRow>,
    /// The answers.
    pub answers: KegeAnswers,
}

/// Solves the heap game once for every S in `range` and answers the three questions.
pub fn analyse(
    start: &KegeStart,
    range: RangeInclusive<u64>,
    moves: Vec<MoveExpr>,
    end: End,
    last: Last,
    apply_to: ApplyTo,
) -> Result<KegeReport, GameError> {
    let live: Vec<Vec<u64>> = range
        .clone()
        .map(|s| start.with(s))
        .filter(|p| !end.holds(p))
        .collect();
    let game = if live.is_empty() {
        None
    } else {
        Some(HeapsGame::new(live, moves, end, last, apply_to)?)
    };
    let solution = game.as_ref().map(solve);
    let mut rows = Vec::new();
    let mut answers = KegeAnswers::default();
    for s in range {
        let heaps = start.with(s);
        let (Some(game), Some(sol)) = (game.as_ref(), solution.as_ref()) else {
            rows.push(over_row(s, heaps));
            continue;
        };
        let Some(i) = game.index(&heaps).filter(|_| !end.holds(&heaps)) else {
            rows.push(over_row(s, heaps));
            continue;
        };
        let v = sol.value(i);
        let mut first = Vec::new();
        game.for_each_move(i, |m, succ| {
            let sv = sol.successor_value(succ);
            first.push(KegeMove {
                position: m.result,
                outcome: sv.outcome,
                depth: sv.depth,
            });
        });
        let is = |o: Outcome, d: u64| {
            v == Value {
                outcome: o,
                depth: Some(d),
            }
        };
        if is(Outcome::Win, 1) {
            answers.petya_wins_in_1.push(s);
        }
        if first
            .iter()
            .any(|m| m.outcome == Outcome::Win && m.depth == Some(1))
        {
            answers.vanya_wins_after_bad_move.push(s);
        }
        if is(Outcome::Loss, 2) {
            answers.vanya_wins_in_1.push(s);
        }
        if is(Outcome::Win, 3) {
            answers.petya_wins_in_2.push(s);
        }
        if is(Outcome::Loss, 4) {
            answers.vanya_wins_in_2.push(s);
        }
        rows.push(KegeRow {
            s,
            start: heaps,
            over: false,
            outcome: Some(v.outcome),
            depth: v.depth,
            moves: first,
        });
    }
    Ok(KegeReport { rows, answers })
}

fn over_row(s: u64, start: Vec<u64>) -> KegeRow {
    KegeRow {
        s,
        start,
        over: true,
        outcome: None,
        depth: None,
        moves: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_game() -> KegeReport {
        analyse(
            &"3,S".parse().unwrap(),
            1..=57,
            vec![
                MoveExpr::parse("x+1").unwrap(),
                MoveExpr::parse("x*4").unwrap(),
            ],
            End::SumAtLeast(61),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap()
    }

    #[test]
    fn seed_002_answers() {
        let r = seed_game();
        assert_eq!(r.answers.vanya_wins_after_bad_move.first(), Some(&4));
        assert_eq!(r.answers.petya_wins_in_2, vec![12, 14]);
        assert_eq!(r.answers.vanya_wins_in_2.first(), Some(&13));
    }

    #[test]
    fn start_and_range_errors_name_the_flag() {
        assert!("3,10".parse::<KegeStart>().unwrap_err().contains("no S"));
        assert!("S,S"
            .parse::<KegeStart>()
            .unwrap_err()
            .contains("more than one S"));
        assert!(parse_s_range("57..1").unwrap_err().contains("--s"));
        assert!(parse_s_range("1-57").unwrap_err().contains("--s"));
        assert_eq!(parse_s_range("1..57").unwrap(), 1..=57);
        assert_eq!(parse_s_range("1..=57").unwrap(), 1..=57);
        // The limit counts values: 1..1000000 has a million, 1..1000001 one more.
        assert_eq!(parse_s_range("1..1000000").unwrap(), 1..=1_000_000);
        let e = parse_s_range("1..1000001").unwrap_err();
        assert!(
            e.contains("1000001 values, more than the limit of 1000000"),
            "{e}"
        );
        let e = parse_s_range("0..18446744073709551615").unwrap_err();
        assert!(e.contains("18446744073709551616 values"), "{e}");
    }
}
