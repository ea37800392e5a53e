//! From a solved game to a truth table: a code table says which input code stands for which
//! positions and how the chosen move is written as an output code.
//!
//! For stick games the code is simply the number of sticks left: [`sticks_table`].
//!
//! A code table is data. Two positions that share a code must get the same answer, or the
//! encoding is refused naming both; codes no position uses are don't-cares.

use super::retrograde::{solve, Outcome, Solution};
use crate::game::matches::MatchesPosition;
use crate::game::{Game, MatchesGame, SticksGame};
use crate::logic::{LogicError, TruthTable};
use serde::Serialize;

/// One input code and the positions it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodeRow<P> {
    /// The input code.
    pub code: u32,
    /// Positions entered with this code.
    pub positions: Vec<P>,
}

/// An encoding of a game's positions as input codes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodeTable<P> {
    /// Input bits.
    pub inputs: usize,
    /// Output bits.
    pub outputs: usize,
    /// The codes in use.
    pub rows: Vec<CodeRow<P>>,
}

/// What the strategy does at one code: where it is used and the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategyRow<P> {
    /// The input code.
    pub code: u32,
    /// The positions it stands for, each with the position after the chosen move.
    pub moves: Vec<(P, P)>,
    /// The output code.
    pub output: u32,
}

/// Two positions share a code but need different answers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("code {code:0width$b} stands for {first} (answer {first_out:0owidth$b}) and {second} (answer {second_out:0owidth$b}): give them different codes")]
pub struct CodeConflict {
    /// The shared code.
    pub code: u32,
    /// Input width.
    pub width: usize,
    /// Output width.
    pub owidth: usize,
    /// The first position.
    pub first: String,
    /// Its answer.
    pub first_out: u32,
    /// The second position.
    pub second: String,
    /// Its answer.
    pub second_out: u32,
}

/// Other reasons a code table cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrategyError {
    /// Two positions with one code need different answers.
    #[error(transparent)]
    Conflict(#[from] CodeConflict),
    /// A coded position has no move.
    #[error("{0} has no move: a code table may only list positions where a move is made")]
    Terminal(String),
    /// A coded position does not exist in the game.
    #[error("{0} is not a position of the game")]
    Unknown(String),
    /// A code or answer does not fit its width.
    #[error("code {code} does not fit in {width} bits")]
    Width {
        /// The code.
        code: u32,
        /// The width.
        width: usize,
    },
}

/// The J.R. 01 encoding (the J.R. 01 manual): A B C is the running total after the opponent's move.
/// Phase 1: the total removed, in binary (0 to 6). Phase 2: 000 = 0, 111 = 2, 011 = 3,
/// 110 = 5 or 6. The answer X Y Z is the total the machine moves to, in binary.
pub fn jr01_codes() -> CodeTable<MatchesPosition> {
    let p1 = |t| MatchesPosition { phase: 1, total: t };
    let p2 = |t| MatchesPosition { phase: 2, total: t };
    let mut rows: Vec<CodeRow<MatchesPosition>> = (0..=6)
        .map(|t| CodeRow {
            code: t as u32,
            positions: vec![p1(t)],
        })
        .collect();
    let mut add = |code: u32, p: MatchesPosition| {
        rows.iter_mut()
            .find(|r| r.code == code)
            .expect("phase-1 code exists")
            .positions
            .push(p)
    };
    add(0b000, p2(0));
    add(0b011, p2(3));
    add(0b110, p2(5));
    add(0b110, p2(6));
    rows.push(CodeRow {
        code: 0b111,
        positions: vec![p2(2)],
    });
    CodeTable {
        inputs: 3,
        outputs: 3,
        rows,
    }
}

/// Applies a code table to the solved matches game: the answer is the running total after the
/// chosen move. Returns one row per code in use, ascending.
pub fn matches_strategy(
    solution: &Solution<'_, MatchesGame>,
    codes: &CodeTable<MatchesPosition>,
) -> Result<Vec<StrategyRow<MatchesPosition>>, StrategyError> {
    let game = solution.game();
    let mut out = Vec::new();
    for row in &codes.rows {
        if row.code >> codes.inputs != 0 {
            return Err(StrategyError::Width {
                code: row.code,
                width: codes.inputs,
            });
        }
        let mut moves = Vec::new();
        let mut answer: Option<(u32, MatchesPosition)> = None;
        for &p in &row.positions {
            let i = game
                .index(p)
                .ok_or_else(|| StrategyError::Unknown(p.to_string()))?;
            let (k, succ) = solution
                .best_move(i)
                .ok_or_else(|| StrategyError::Terminal(p.to_string()))?;
            let total = p.total + k;
            let output = total as u32;
            if total >> codes.outputs != 0 {
                return Err(StrategyError::Width {
                    code: output,
                    width: codes.outputs,
                });
            }
            let after = match succ {
                crate::game::Successor::Stored(j) => game.position(j),
                crate::game::Successor::Beyond => unreachable!("matches positions are all stored"),
            };
            match answer {
                Some((prev, first)) if prev != output => {
                    return Err(CodeConflict {
                        code: row.code,
                        width: codes.inputs,
                        owidth: codes.outputs,
                        first: first.to_string(),
                        first_out: prev,
                        second: p.to_string(),
                        second_out: output,
                    }
                    .into())
                }
                None => answer = Some((output, p)),
                _ => {}
            }
            moves.push((p, after));
        }
        if let Some((output, _)) = answer {
            out.push(StrategyRow {
                code: row.code,
                moves,
                output,
            });
        }
    }
    out.sort_by_key(|r| r.code);
    Ok(out)
}

/// The truth table of a strategy: each code in use gives its answer; the rest are don't-cares.
pub fn truth_table<P>(
    rows: &[StrategyRow<P>],
    inputs: usize,
    outputs: usize,
) -> Result<TruthTable, LogicError> {
    let mut table = vec![None; 1 << inputs];
    for r in rows {
        table[r.code as usize] = Some(r.output);
    }
    TruthTable::new(inputs, outputs, table)
}

/// The J.R. 01 strategy derived from the game's rules alone: the seven-matches game solved,
/// then read through the J.R. 01 manual's input codes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Jr01Strategy {
    /// One row per input code, ascending.
    pub rows: Vec<StrategyRow<MatchesPosition>>,
    /// A B C (A = bit 2) to X Y Z (X = bit 2).
    pub table: TruthTable,
}

impl Jr01Strategy {
    /// Input names, most significant first.
    pub const INPUTS: [&'static str; 3] = ["A", "B", "C"];
    /// Output names, most significant first.
    pub const OUTPUTS: [&'static str; 3] = ["X", "Y", "Z"];

    /// Solves the J.R. 01 game and applies the manual's code table.
    pub fn derive() -> Result<Self, StrategyError> {
        let game = MatchesGame::jr01();
        let solution = super::solve(&game);
        let codes = jr01_codes();
        let rows = matches_strategy(&solution, &codes)?;
        let table = truth_table(&rows, codes.inputs, codes.outputs).expect("3 in, 3 out");
        Ok(Self { rows, table })
    }
}

/// Largest starting count a stick strategy circuit takes (8 input bits).
pub const MAX_STICKS_COUNT: u64 = 255;
/// Largest move a stick strategy circuit takes (4 output bits).
pub const MAX_STICKS_TAKE: u64 = 15;

/// A stick game too large for a strategy circuit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SticksTableError {
    /// The count needs more than 8 input bits.
    #[error(
        "--count {count} is too large for a strategy circuit: at most {max} sticks (8 input bits) \
         are supported; lower --count"
    )]
    CountTooLarge {
        /// The count asked for.
        count: u64,
        /// The largest count supported.
        max: u64,
    },
    /// The largest move needs more than 4 output bits.
    #[error(
        "--take contains {take}, too large for a strategy circuit: moves of at most {max} (4 output \
         bits) are supported; drop the larger moves"
    )]
    TakeTooLarge {
        /// The largest move asked for.
        take: u64,
        /// The largest move supported.
        max: u64,
    },
}

/// The strategy of a stick game as a truth table for a circuit.
///
/// Input code: the number of sticks left, `0..=count`, in `sticks_bits` bits (W, the bits
/// `count` needs). Output word: `take << 1 | winning`, where `take` (`take_bits` bits, M, the
/// bits the largest move needs) is the solver's chosen move, 0 at a terminal position (no
/// sticks left, or fewer than every move), and `winning` is 1 when the player to move wins.
/// This is the word of the ports `take` then `winning`, first port most significant, as the
/// bench concatenates them. Codes above `count` are don't-cares.
///
/// `filled` gives a word for every code, don't-cares included: the same rule applied to a pile
/// of that many sticks (what the game would answer with a larger count). A ROM stores it, so
/// that its contents continue the game's periodic pattern instead of breaking it with zeros,
/// which keeps it as small as the logic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SticksTable {
    /// The truth table: `sticks_bits` inputs, `take_bits + 1` outputs.
    pub table: TruthTable,
    /// A word for each of the `1 << sticks_bits` codes, equal to the table where it cares.
    pub filled: Vec<u32>,
    /// W: width of the `sticks` input.
    pub sticks_bits: usize,
    /// M: width of the `take` output.
    pub take_bits: usize,
}

impl SticksTable {
    /// The chosen move at `sticks` (0 at a terminal position); `None` above the count.
    pub fn take(&self, sticks: u32) -> Option<u32> {
        self.table.row(sticks).map(|w| w >> 1)
    }
    /// Whether the player to move at `sticks` wins; `None` above the count.
    pub fn winning(&self, sticks: u32) -> Option<bool> {
        self.table.row(sticks).map(|w| w & 1 == 1)
    }
}

/// Bits needed to write `n` in binary (at least 1).
pub fn bits_for(n: u64) -> usize {
    (u64::BITS - n.leading_zeros()).max(1) as usize
}

/// The strategy table of `game`, built from the retrograde solver (see [`SticksTable`]).
pub fn sticks_table(game: &SticksGame) -> Result<SticksTable, SticksTableError> {
    if game.count() > MAX_STICKS_COUNT {
        return Err(SticksTableError::CountTooLarge {
            count: game.count(),
            max: MAX_STICKS_COUNT,
        });
    }
    if game.max_take() > MAX_STICKS_TAKE {
        return Err(SticksTableError::TakeTooLarge {
            take: game.max_take(),
            max: MAX_STICKS_TAKE,
        });
    }
    let w = bits_for(game.count());
    let m = bits_for(game.max_take());
    // A position's answer does not depend on the starting count, so one solve of the largest
    // pile the input can code answers every code.
    let full = game
        .with_count((1 << w) - 1)
        .expect("the same rules with a positive count");
    let solution = solve(&full);
    let filled: Vec<u32> = (0..1usize << w)
        .map(|i| {
            let take = solution.best_move(i).map_or(0, |(k, _)| k as u32);
            let winning = solution.value(i).outcome == Outcome::Win;
            take << 1 | u32::from(winning)
        })
        .collect();
    let count = game.count() as u32;
    let table = TruthTable::from_fn(w, m + 1, |code| {
        (code <= count).then(|| filled[code as usize])
    })
    .expect("widths are within the truth table's limits (8 inputs, 5 outputs)");
    Ok(SticksTable {
        table,
        filled,
        sticks_bits: w,
        take_bits: m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solve;

    /// The J.R. 01 manual's table, rows 000 to 111: X Y Z.
    const SEED_TABLE: [u32; 8] = [0b001, 0b011, 0b011, 0b100, 0b110, 0b110, 0b111, 0b100];

    #[test]
    fn the_jr01_table_follows_from_the_game_alone() {
        let g = MatchesGame::jr01();
        let s = solve(&g);
        let rows = matches_strategy(&s, &jr01_codes()).unwrap();
        let table: Vec<u32> = rows.iter().map(|r| r.output).collect();
        assert_eq!(
            rows.iter().map(|r| r.code).collect::<Vec<_>>(),
            (0..8).collect::<Vec<_>>()
        );
        assert_eq!(table, SEED_TABLE);
    }

    #[test]
    fn the_jr01_truth_table_has_no_dont_cares() {
        let s = Jr01Strategy::derive().unwrap();
        let rows: Vec<Option<u32>> = SEED_TABLE.iter().map(|&w| Some(w)).collect();
        assert_eq!(s.table.rows(), &rows[..]);
    }

    #[test]
    fn a_code_shared_by_positions_with_different_answers_is_refused() {
        let g = MatchesGame::jr01();
        let s = solve(&g);
        let mut codes = jr01_codes();
        // Phase 2 total 1 (answer: put back 1, total 2) entered as 001, which phase 1 total 1
        // uses with answer 011.
        codes.rows[1]
            .positions
            .push(MatchesPosition { phase: 2, total: 1 });
        let e = matches_strategy(&s, &codes).unwrap_err();
        assert_eq!(
            e.to_string(),
            "code 001 stands for phase 1 total 1 (answer 011) and phase 2 total 1 (answer 010): give them different codes"
        );
    }

    #[test]
    fn widths_follow_count_and_largest_move() {
        assert_eq!(
            (bits_for(0), bits_for(1), bits_for(18), bits_for(255)),
            (1, 1, 5, 8)
        );
        let t = sticks_table(&SticksGame::fort_boyard()).unwrap();
        assert_eq!((t.sticks_bits, t.take_bits), (5, 2));
        assert_eq!((t.table.inputs(), t.table.outputs()), (5, 3));
        let g = SticksGame::new(255, &[2, 5, 7], crate::game::Last::Wins).unwrap();
        let t = sticks_table(&g).unwrap();
        assert_eq!((t.sticks_bits, t.take_bits), (8, 3));
        let g = SticksGame::new(3, &[1, 15], crate::game::Last::Wins).unwrap();
        let t = sticks_table(&g).unwrap();
        assert_eq!((t.sticks_bits, t.take_bits), (2, 4));
    }

    #[test]
    fn fort_boyard_table() {
        let t = sticks_table(&SticksGame::fort_boyard()).unwrap();
        // 0: terminal, won (the opponent took the last stick); 4k+1 lost, taking 1 to delay.
        let takes: Vec<u32> = (0..=18).map(|n| t.take(n).unwrap()).collect();
        assert_eq!(
            takes,
            vec![0, 1, 1, 2, 3, 1, 1, 2, 3, 1, 1, 2, 3, 1, 1, 2, 3, 1, 1]
        );
        let losing: Vec<u32> = (0..=18).filter(|&n| !t.winning(n).unwrap()).collect();
        assert_eq!(losing, vec![1, 5, 9, 13, 17]);
        assert!((19..32).all(|n| t.table.row(n).is_none()));
    }

    #[test]
    fn too_large_games_are_refused() {
        let g = SticksGame::new(256, &[1, 2], crate::game::Last::Wins).unwrap();
        assert_eq!(
            sticks_table(&g),
            Err(SticksTableError::CountTooLarge {
                count: 256,
                max: 255
            })
        );
        let g = SticksGame::new(20, &[1, 16], crate::game::Last::Wins).unwrap();
        let e = sticks_table(&g).unwrap_err();
        assert!(e.to_string().contains("--take contains 16"), "{e}");
    }

    /// Every row of every table agrees with the solver (and with the period, which is a
    /// separate algorithm): for many take sets, both endings and all counts up to 255.
    #[test]
    fn sticks_tables_agree_with_the_solver_exhaustively() {
        use crate::game::Last;
        use crate::solver::SticksPeriod;
        let sets: [&[u64]; 8] = [
            &[1, 2, 3],
            &[1, 3, 4],
            &[2, 5, 7],
            &[1],
            &[15],
            &[2, 3],
            &[1, 4, 9, 15],
            &[3, 4, 9, 11],
        ];
        for take in sets {
            for last in [Last::Wins, Last::Loses] {
                let full = SticksGame::new(255, take, last).unwrap();
                let period = SticksPeriod::find(&full).unwrap();
                for count in [1, 2, 7, 18, 20, 31, 32, 100, 255] {
                    let g = full.with_count(count).unwrap();
                    let t = sticks_table(&g).unwrap();
                    let s = solve(&g);
                    for code in 0..1u32 << t.sticks_bits {
                        // Every code, don't-cares included, is the period's answer.
                        let p = period.at(u64::from(code));
                        let word = (p.take.unwrap_or(0) as u32) << 1
                            | u32::from(p.value.outcome == Outcome::Win);
                        assert_eq!(t.filled[code as usize], word, "{take:?} {last} {code}");
                        let row = t.table.row(code);
                        if u64::from(code) > count {
                            assert_eq!(row, None, "{take:?} {last} {count} {code}");
                            continue;
                        }
                        let i = code as usize;
                        let take_n = s.best_move(i).map_or(0, |(k, _)| k);
                        let win = s.value(i).outcome == Outcome::Win;
                        assert_eq!(row, Some((take_n as u32) << 1 | u32::from(win)));
                        let p = period.at(u64::from(code));
                        assert_eq!(t.take(code), Some(p.take.unwrap_or(0) as u32));
                        assert_eq!(t.winning(code), Some(p.value.outcome == Outcome::Win));
                    }
                }
            }
        }
    }
}
