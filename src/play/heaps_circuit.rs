//! The `heaps_game` controller with its on-chip solver as an [`Opponent`] of a heap game: the
//! circuit in rust-hdl simulation ([`FullHeapsGame`]: targets up to 127, `x+1 .. x+4`,
//! `x*2 .. x*4`), driven through its ports one clock cycle at a time.
//!
//! The game goes in through the configuration ports, a `new_game` pulse solves it on the
//! "chip", and the game starts when the solve is done. Each human move is a one-cycle
//! `heap`/`move_index`/`move_valid` pulse; then the circuit is clocked until `human_turn` rises
//! again or `game_over`, and the machine's move is read off `machine_heap`/`machine_move`.
//! After every move the circuit's heaps must agree with the session's position, or the game
//! stops with an error.
//!
//! Only games of the circuit's family are played ([`on_chip_config`]): two heaps, moves among
//! `x+1 .. x+4` and `x*2 .. x*4` listed in that order (the order the circuit breaks ties by,
//! so the solver's moves and the circuit's are the same), the end `sum>=N` with `N <= 127`,
//! either heap may move.

use super::session::Opponent;
use crate::circuit::heaps_game::{
    cycle_bound, start_game, FullHeapsGame, HeapsGameConfig, HeapsGameInputs, HeapsGameOutputs,
    HeapsGameSim, FULL_HEAPS_SIZE,
};
use crate::circuit::heaps_solver::HeapsRequest;
use crate::game::expr::MoveExpr;
use crate::game::heaps::HeapsMove;
use crate::game::{ApplyTo, End, Game, HeapsGame, Last, Successor};

/// Why a heap game cannot be played on the on-chip solver: each names the flag and the fix.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeapsOnChipError {
    /// Not two heaps.
    #[error(
        "--start {0}: the on-chip solver plays two heaps; give two heap sizes, e.g. --start 3,10, \
         or play without --solver onchip"
    )]
    HeapCount(String),
    /// A heap of 0 at the start.
    #[error(
        "--start {0}: the on-chip solver's table holds heaps from 1 up; give heaps of at least 1, \
         e.g. --start 3,10"
    )]
    EmptyHeap(String),
    /// Only the smaller heap may move.
    #[error(
        "--apply-to smaller: the on-chip solver lets a move change either heap; drop --apply-to \
         (or pass --apply-to any)"
    )]
    ApplyTo,
    /// An end the circuit does not have.
    #[error(
        "--end '{0}': the on-chip solver ends the game at sum>=N with N up to {max}; pass e.g. \
         --end 'sum>=61', or play without --solver onchip",
        max = FULL_HEAPS_SIZE.0
    )]
    End(String),
    /// A move the circuit does not have.
    #[error(
        "--move '{0}': the on-chip solver offers x+1 to x+{a} and x*2 to x*{m}; pass moves among \
         those, or play without --solver onchip",
        a = FULL_HEAPS_SIZE.1,
        m = FULL_HEAPS_SIZE.2 + 1
    )]
    Move(String),
    /// Moves out of the circuit's order, or one twice.
    #[error(
        "--move '{0}': list the moves once each in the circuit's order x+1, ..., x+{a}, x*2, ..., \
         x*{m} (it breaks ties by that order), e.g. --move x+1 --move 'x*4'",
        a = FULL_HEAPS_SIZE.1,
        m = FULL_HEAPS_SIZE.2 + 1
    )]
    Order(String),
}

/// The index of `m` in the circuit's fixed list `x+1, ..., x+A, x*2, ..., x*(M+1)` (A = 4,
/// M = 3), judged by what it does to every heap size from 0 to 1000: `None` when it is none
/// of them.
pub fn fixed_index(m: &MoveExpr) -> Option<u32> {
    let (max_add, max_mul) = (FULL_HEAPS_SIZE.1, FULL_HEAPS_SIZE.2);
    let does = |f: &dyn Fn(i64) -> i64| (0..=1000).all(|x| m.apply(x) == Ok(Some(f(x))));
    for k in 1..=max_add as i64 {
        if does(&|x| x + k) {
            return Some(k as u32 - 1);
        }
    }
    for k in 2..=max_mul as i64 + 1 {
        if does(&|x| x * k) {
            return Some(max_add as u32 + k as u32 - 2);
        }
    }
    None
}

/// The configuration ports of the circuit for `game`, or why it cannot play it.
pub fn on_chip_config(
    game: &HeapsGame,
    machine_first: bool,
) -> Result<HeapsGameConfig, HeapsOnChipError> {
    let start = &game.start_positions()[0];
    let shown = start
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if start.len() != 2 {
        return Err(HeapsOnChipError::HeapCount(shown));
    }
    if start.contains(&0) {
        return Err(HeapsOnChipError::EmptyHeap(shown));
    }
    let rules = game.rules();
    if rules.apply_to != ApplyTo::Any {
        return Err(HeapsOnChipError::ApplyTo);
    }
    let target = match rules.end {
        End::SumAtLeast(n) if n <= FULL_HEAPS_SIZE.0 => n as u32,
        other => return Err(HeapsOnChipError::End(other.to_string())),
    };
    let (mut adds, mut muls) = (0u32, 0u32);
    let mut last: Option<u32> = None;
    for m in game.moves() {
        let index = fixed_index(m).ok_or_else(|| HeapsOnChipError::Move(m.to_string()))?;
        if last.is_some_and(|l| index <= l) {
            return Err(HeapsOnChipError::Order(m.to_string()));
        }
        last = Some(index);
        let max_add = FULL_HEAPS_SIZE.1 as u32;
        if index < max_add {
            adds |= 1 << index;
        } else {
            muls |= 1 << (index - max_add);
        }
    }
    Ok(HeapsGameConfig {
        rules: HeapsRequest {
            adds,
            muls,
            target,
            last_wins: rules.last == Last::Wins,
        },
        start: (start[0] as u32, start[1] as u32),
        machine_first,
    })
}

/// The `heaps_game` controller answering the human's moves.
pub struct HeapsCircuitOpponent {
    sim: FullHeapsGame,
    think_cycles: u32,
    /// The circuit's move index of each of the game's moves.
    index_of: Vec<u32>,
    label: String,
    /// The outputs now.
    shown: HeapsGameOutputs,
    /// The outputs after the machine's answer, not yet played.
    answer: Option<HeapsGameOutputs>,
}

impl HeapsCircuitOpponent {
    /// The controller configured with `game` (refused when outside its family), started with
    /// `new_game` and clocked until its solve is done and the game has started. The error says
    /// why not: a game the circuit cannot play (exit 2 material), or a solve that did not
    /// finish within its cycle bound.
    pub fn new(
        game: &HeapsGame,
        think_cycles: u32,
        machine_first: bool,
    ) -> Result<Self, HeapsCircuitError> {
        let config = on_chip_config(game, machine_first)?;
        let index_of = game
            .moves()
            .iter()
            .map(|m| fixed_index(m).expect("checked by on_chip_config"))
            .collect();
        let mut sim = FullHeapsGame::new(u64::from(think_cycles), &config);
        let bound = cycle_bound(u64::from(config.rules.target), config.rules.move_count());
        let (shown, edges) = start_game(&mut sim, bound).ok_or(HeapsCircuitError::Solve(bound))?;
        // The solver's `done` rose one edge before the game started.
        let solved_in = edges - 1;
        Ok(Self {
            sim,
            think_cycles,
            index_of,
            label: format!(
                "the heaps_game circuit (rust-hdl simulation, solved on chip in {solved_in} \
                 cycles, {think_cycles} think cycles)"
            ),
            shown,
            answer: None,
        })
    }

    /// Clocks the idle circuit until the human is to move or the game is over.
    fn wait(&mut self) -> Result<HeapsGameOutputs, String> {
        let most = self.think_cycles + 2;
        for _ in 0..most {
            let o = self.sim.step(&HeapsGameInputs::IDLE);
            if o.human_turn || o.game_over {
                return Ok(o);
            }
        }
        Err(format!("the circuit did not answer within {most} cycles"))
    }
}

/// Why the circuit opponent could not be set up.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeapsCircuitError {
    /// The game is outside the circuit's family.
    #[error(transparent)]
    Game(#[from] HeapsOnChipError),
    /// The solve did not finish.
    #[error("the on-chip solver did not finish within {0} cycles")]
    Solve(u64),
}

fn heaps_of(o: &HeapsGameOutputs) -> Vec<u64> {
    vec![u64::from(o.heaps.0), u64::from(o.heaps.1)]
}

impl Opponent<HeapsGame> for HeapsCircuitOpponent {
    fn describe(&self) -> String {
        self.label.clone()
    }

    fn hear(
        &mut self,
        _: &HeapsGame,
        _: usize,
        m: &HeapsMove,
        _: Successor,
    ) -> Result<Option<String>, String> {
        if !self.shown.human_turn {
            return Err("the circuit is not waiting for a move".to_string());
        }
        let index = self.index_of[m.expr];
        let o = self.sim.step(&HeapsGameInputs {
            person: Some((m.heap as u32, index)),
            ..HeapsGameInputs::IDLE
        });
        if o.illegal {
            return Ok(Some(format!(
                "the circuit refused move {index} on heap {}",
                m.heap + 1
            )));
        }
        if heaps_of(&o) != m.result {
            return Err(format!(
                "the circuit shows heaps {},{} after the move, the game {:?}",
                o.heaps.0, o.heaps.1, m.result
            ));
        }
        self.shown = o;
        if !o.game_over {
            self.answer = Some(self.wait()?);
        }
        Ok(None)
    }

    fn reply(&mut self, game: &HeapsGame, i: usize) -> Result<HeapsMove, String> {
        let o = match self.answer.take() {
            Some(o) => o,
            // The opening move, when the machine moves first.
            None if !self.shown.human_turn && !self.shown.game_over => self.wait()?,
            None => return Err("the circuit made no move".to_string()),
        };
        let (heap, index) = (o.machine_move.0 as usize, o.machine_move.1);
        let expr = self
            .index_of
            .iter()
            .position(|&k| k == index)
            .ok_or_else(|| format!("the circuit made move {index}, not one of the game's"))?;
        let mut result = game.position(i);
        result[heap] = game.moves()[expr]
            .apply(result[heap] as i64)
            .ok()
            .flatten()
            .ok_or_else(|| format!("the circuit's move {index} does not apply"))?
            as u64;
        if heaps_of(&o) != result {
            return Err(format!(
                "the circuit shows heaps {},{} after its move, the game {result:?}",
                o.heaps.0, o.heaps.1
            ));
        }
        self.shown = o;
        Ok(HeapsMove { heap, expr, result })
    }

    fn panel(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(start: Vec<u64>, moves: &[&str], end: End, apply_to: ApplyTo) -> HeapsGame {
        HeapsGame::new(
            vec![start],
            moves.iter().map(|m| MoveExpr::parse(m).unwrap()).collect(),
            end,
            Last::Wins,
            apply_to,
        )
        .unwrap()
    }

    #[test]
    fn the_fixed_list_is_recognised_by_what_a_move_does() {
        for (m, want) in [
            ("x+1", Some(0)),
            ("1+x", Some(0)),
            ("x+4", Some(3)),
            ("x*2", Some(4)),
            ("x+x", Some(4)),
            ("x*4", Some(6)),
            ("x+5", None),
            ("x*5", None),
            ("x+1 if x%2==0", None),
        ] {
            assert_eq!(fixed_index(&MoveExpr::parse(m).unwrap()), want, "{m}");
        }
    }

    #[test]
    fn games_outside_the_family_are_refused_naming_the_flag() {
        let seed = HeapsGame::kege_seed(&[3, 10]).unwrap();
        let c = on_chip_config(&seed, true).unwrap();
        assert_eq!(
            (c.rules.adds, c.rules.muls, c.rules.target, c.start),
            (1, 4, 61, (3, 10))
        );
        let cases = [
            (
                game(vec![3, 4, 5], &["x+1"], End::SumAtLeast(61), ApplyTo::Any),
                "--start 3,4,5",
            ),
            (
                game(vec![0, 4], &["x+1"], End::SumAtLeast(61), ApplyTo::Any),
                "--start 0,4",
            ),
            (
                game(vec![3, 4], &["x+1"], End::SumAtLeast(128), ApplyTo::Any),
                "--end 'sum>=128'",
            ),
            (
                game(vec![3, 4], &["x+1"], End::AnyAtLeast(30), ApplyTo::Any),
                "--end 'any>=30'",
            ),
            (
                game(vec![3, 4], &["x+1"], End::SumAtLeast(61), ApplyTo::Smaller),
                "--apply-to smaller",
            ),
            (
                game(vec![3, 4], &["x+5"], End::SumAtLeast(61), ApplyTo::Any),
                "--move 'x+5'",
            ),
            (
                game(
                    vec![3, 4],
                    &["x*4", "x+1"],
                    End::SumAtLeast(61),
                    ApplyTo::Any,
                ),
                "--move 'x+1'",
            ),
        ];
        for (g, flag) in cases {
            let e = on_chip_config(&g, false).unwrap_err();
            assert!(e.to_string().starts_with(flag), "{e}");
        }
    }
}
