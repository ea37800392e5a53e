//! From a solved game to a truth table: a code table says which input code stands for which
//! positions and how the chosen move is written as an output code.
//!
//! A code table is data. Two positions that share a code must get the same answer, or the
//! encoding is refused naming both; codes no position uses are don't-cares.

use super::retrograde::Solution;
use crate::game::matches::MatchesPosition;
use crate::game::{Game, MatchesGame};
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

/// The J.R. 01 encoding (seed 001): A B C is the running total after the opponent's move.
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
/// then read through the seed's input codes.
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

    /// Solves the J.R. 01 game and applies the seed's code table.
    pub fn derive() -> Result<Self, StrategyError> {
        let game = MatchesGame::jr01();
        let solution = super::solve(&game);
        let codes = jr01_codes();
        let rows = matches_strategy(&solution, &codes)?;
        let table = truth_table(&rows, codes.inputs, codes.outputs).expect("3 in, 3 out");
        Ok(Self { rows, table })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::solve;

    /// Seed 001's table, rows 000 to 111: X Y Z.
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
}
