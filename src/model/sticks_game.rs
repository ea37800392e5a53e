//! Reference model of the `sticks_game` controller: a human plays a stick game against the
//! machine, which answers with the solver's move.
//!
//! # Ports
//!
//! Inputs (sampled at each rising clock edge): `reset` and `new_game` (either starts a new
//! game; `reset` is synchronous), `machine_first` (who moves first in the game being
//! started), `take` (M bits) and `take_valid` (the human's move, a one-cycle pulse).
//!
//! Outputs: `remaining` (W bits), `human_turn`, `machine_take` (M bits: the machine's last move,
//! 0 before its first), `game_over`, `human_won` (meaningful when `game_over`; 0 during play),
//! `illegal` (a one-cycle pulse).
//!
//! # Timing
//!
//! Every output is registered: it changes only at a rising edge and depends only on the inputs
//! sampled at that edge and earlier. [`SticksGameModel::step`] is one rising edge: it takes the
//! inputs as they are just before the edge and returns the outputs just after it (they hold
//! until the next edge). [`SticksGameModel::outputs`] before the first step is the power-on
//! state: every register 0, so no game, `game_over` = 1 and `remaining` = 0 until a reset or
//! `new_game`.
//!
//! At an edge, in priority order:
//!
//! 1. `reset` or `new_game`: a new game starts from `count` sticks with `machine_take` = 0 and
//!    `human_won` = 0. If no move fits `count` (a take set without small moves) the player to
//!    move is stuck: the game is over at once and the human wins exactly when the machine was
//!    to move. Otherwise it is the human's turn (`human_turn` = 1), or with `machine_first` the
//!    machine's. A `take_valid` at this edge is ignored without an `illegal` pulse.
//! 2. Human's turn, `take_valid` = 1: a legal move (in the take set, which never holds 0, and
//!    at most `remaining`) is made: `remaining` drops, `human_turn` falls, and either the game
//!    ends (see below) or the machine starts thinking. An illegal move changes nothing but
//!    raises `illegal` for one cycle.
//! 3. Machine's turn: a move made at edge `e` (the human's, or the start of a game with the
//!    machine first) is answered at edge `e + 1 + think_cycles`, with the solver's move at
//!    `remaining` (in a losing position the move that delays the end longest). `machine_take`
//!    shows it, `remaining` drops, and either the game ends or `human_turn` rises. A
//!    `take_valid` while the machine thinks raises `illegal` and is otherwise ignored.
//! 4. Game over: a `take_valid` raises `illegal`; nothing else changes until a new game.
//!
//! A game ends when the player to move has no move: no sticks left (under `--last loses` that
//! player won, since the other took the last stick; under `--last wins` they lost) or fewer
//! sticks than every move (stuck: that player lost). The outcome is the solver's value of that
//! terminal position for the player to move there.
//!
//! The model takes the machine's move and the terminal values from the periodic solver
//! ([`SticksPeriod`]), never from a circuit's table.

use crate::game::SticksGame;
use crate::solver::{Outcome, SticksPeriod};

/// The inputs just before one rising edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs {
    /// Synchronous reset: starts a new game.
    pub reset: bool,
    /// Starts a new game (a one-cycle pulse).
    pub new_game: bool,
    /// The machine moves first in a game started at this edge.
    pub machine_first: bool,
    /// The human's move (only read with `take_valid`; only its low M bits reach the port, M
    /// the bits of the largest move, and the model reads those bits too).
    pub take: u32,
    /// The human moves at this edge.
    pub take_valid: bool,
}

impl Inputs {
    /// No input active.
    pub const IDLE: Inputs = Inputs {
        reset: false,
        new_game: false,
        machine_first: false,
        take: 0,
        take_valid: false,
    };

    /// A reset starting a game, the machine first or not.
    pub fn reset(machine_first: bool) -> Self {
        Inputs {
            reset: true,
            machine_first,
            ..Inputs::IDLE
        }
    }

    /// A `new_game` pulse, the machine first or not.
    pub fn new_game(machine_first: bool) -> Self {
        Inputs {
            new_game: true,
            machine_first,
            ..Inputs::IDLE
        }
    }

    /// The human takes `take`.
    pub fn take(take: u32) -> Self {
        Inputs {
            take,
            take_valid: true,
            ..Inputs::IDLE
        }
    }
}

/// The outputs just after one rising edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outputs {
    /// Sticks left.
    pub remaining: u32,
    /// Waiting for the human's move.
    pub human_turn: bool,
    /// The machine's last move in this game; 0 before its first.
    pub machine_take: u32,
    /// No game in progress.
    pub game_over: bool,
    /// The human won (meaningful when `game_over`).
    pub human_won: bool,
    /// The move sampled at this edge was refused.
    pub illegal: bool,
}

impl Outputs {
    /// Names of the output ports, in the order of [`Outputs::values`].
    pub const NAMES: [&'static str; 6] = [
        "remaining",
        "human_turn",
        "machine_take",
        "game_over",
        "human_won",
        "illegal",
    ];

    /// The port values, in the order of [`Outputs::NAMES`].
    pub fn values(&self) -> [u32; 6] {
        [
            self.remaining,
            u32::from(self.human_turn),
            self.machine_take,
            u32::from(self.game_over),
            u32::from(self.human_won),
            u32::from(self.illegal),
        ]
    }
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No game (power-on, or the game ended).
    Over,
    /// Waiting for the human.
    Human,
    /// The machine moves when `wait` reaches 0 (decremented at each edge before that).
    Machine { wait: u32 },
}

/// The reference model (see the module docs).
#[derive(Clone, Debug)]
pub struct SticksGameModel {
    game: SticksGame,
    period: SticksPeriod,
    think_cycles: u32,
    phase: Phase,
    remaining: u64,
    machine_take: u64,
    human_won: bool,
    illegal: bool,
}

impl SticksGameModel {
    /// The model of `game` with the machine answering `think_cycles` cycles after a move.
    ///
    /// # Panics
    /// When the game has no period within the solver's search limit (no stick game a circuit
    /// takes comes near it).
    pub fn new(game: &SticksGame, think_cycles: u32) -> Self {
        let period = SticksPeriod::find(game).expect("stick games have a period");
        SticksGameModel {
            game: game.clone(),
            period,
            think_cycles,
            phase: Phase::Over,
            remaining: 0,
            machine_take: 0,
            human_won: false,
            illegal: false,
        }
    }

    /// The game.
    pub fn game(&self) -> &SticksGame {
        &self.game
    }

    /// The current outputs (power-on state before the first [`step`](Self::step)).
    pub fn outputs(&self) -> Outputs {
        Outputs {
            remaining: self.remaining as u32,
            human_turn: self.phase == Phase::Human,
            machine_take: self.machine_take as u32,
            game_over: self.phase == Phase::Over,
            human_won: self.human_won,
            illegal: self.illegal,
        }
    }

    /// True when the player to move at `n` sticks has no move.
    fn no_move(&self, n: u64) -> bool {
        !self.game.take().iter().any(|&k| k <= n)
    }

    /// The player to move at terminal position `n` wins.
    fn mover_wins_at_end(&self, n: u64) -> bool {
        self.period.at(n).value.outcome == Outcome::Win
    }

    /// The move the port sees, when it is legal.
    fn legal(&self, take: u32) -> Option<u64> {
        let port_bits = crate::solver::strategy::bits_for(self.game.max_take());
        let take = u64::from(take) & ((1 << port_bits) - 1);
        (self.game.take().contains(&take) && take <= self.remaining).then_some(take)
    }

    /// One rising clock edge (see the module docs for the rules).
    pub fn step(&mut self, inputs: Inputs) -> Outputs {
        self.illegal = false;
        if inputs.reset || inputs.new_game {
            self.remaining = self.game.count();
            self.machine_take = 0;
            self.human_won = false;
            self.phase = if self.no_move(self.remaining) {
                // The player to move is stuck and loses.
                self.human_won = inputs.machine_first;
                Phase::Over
            } else if inputs.machine_first {
                Phase::Machine {
                    wait: self.think_cycles,
                }
            } else {
                Phase::Human
            };
            return self.outputs();
        }
        match self.phase {
            Phase::Over => self.illegal = inputs.take_valid,
            Phase::Human => {
                if inputs.take_valid {
                    if let Some(take) = self.legal(inputs.take) {
                        self.remaining -= take;
                        self.phase = if self.no_move(self.remaining) {
                            // The machine is to move and cannot.
                            self.human_won = !self.mover_wins_at_end(self.remaining);
                            Phase::Over
                        } else {
                            Phase::Machine {
                                wait: self.think_cycles,
                            }
                        };
                    } else {
                        self.illegal = true;
                    }
                }
            }
            Phase::Machine { wait } => {
                self.illegal = inputs.take_valid;
                if wait > 0 {
                    self.phase = Phase::Machine { wait: wait - 1 };
                } else {
                    let k = self
                        .period
                        .at(self.remaining)
                        .take
                        .expect("the machine only thinks where a move exists");
                    self.remaining -= k;
                    self.machine_take = k;
                    self.phase = if self.no_move(self.remaining) {
                        self.human_won = self.mover_wins_at_end(self.remaining);
                        Phase::Over
                    } else {
                        Phase::Human
                    };
                }
            }
        }
        self.outputs()
    }

    /// The solver's move at `n` sticks (what the machine plays there); `None` at a terminal
    /// position.
    pub fn solver_move(&self, n: u64) -> Option<u64> {
        self.period.at(n).take
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Last;

    fn fort_boyard(think: u32) -> SticksGameModel {
        SticksGameModel::new(&SticksGame::fort_boyard(), think)
    }

    /// Steps until the human's turn or the end; returns the outputs then and the edges taken.
    fn wait_turn(m: &mut SticksGameModel) -> (Outputs, usize) {
        let mut edges = 0;
        loop {
            let o = m.step(Inputs::IDLE);
            edges += 1;
            if o.human_turn || o.game_over {
                return (o, edges);
            }
            assert!(edges < 1000, "no turn");
        }
    }

    #[test]
    fn power_on_is_no_game() {
        let m = fort_boyard(0);
        let o = m.outputs();
        assert!(o.game_over && !o.human_turn && !o.human_won && !o.illegal);
        assert_eq!((o.remaining, o.machine_take), (0, 0));
    }

    #[test]
    fn a_reset_starts_a_game_for_the_human() {
        let mut m = fort_boyard(0);
        let o = m.step(Inputs::reset(false));
        assert_eq!(
            o,
            Outputs {
                remaining: 18,
                human_turn: true,
                ..Outputs::default()
            }
        );
    }

    #[test]
    fn the_machine_answers_after_think_cycles_plus_one() {
        for think in [0, 1, 5] {
            let mut m = fort_boyard(think);
            m.step(Inputs::reset(false));
            let o = m.step(Inputs::take(2)); // 18 -> 16
            assert_eq!((o.remaining, o.human_turn, o.game_over), (16, false, false));
            for _ in 0..think {
                assert_eq!(m.step(Inputs::IDLE).remaining, 16);
            }
            let o = m.step(Inputs::IDLE);
            // 16 = 4*4: the machine takes 3, leaving 13 = 4*3 + 1.
            assert_eq!((o.remaining, o.machine_take, o.human_turn), (13, 3, true));
        }
    }

    #[test]
    fn the_machine_first_opens_with_the_solver_move() {
        let mut m = SticksGameModel::new(&SticksGame::fort_boyard().with_count(20).unwrap(), 2);
        m.step(Inputs::new_game(true));
        let (o, edges) = wait_turn(&mut m);
        assert_eq!(edges, 3);
        assert_eq!((o.remaining, o.machine_take), (17, 3));
    }

    #[test]
    fn illegal_moves_change_nothing_but_pulse() {
        let mut m = fort_boyard(1);
        let start = m.step(Inputs::reset(false));
        // 0 is never a move; 4 does not fit the 2-bit port, which reads it as 0.
        for bad in [0, 4] {
            let o = m.step(Inputs::take(bad));
            assert!(o.illegal);
            assert_eq!(
                o,
                Outputs {
                    illegal: true,
                    ..start
                }
            );
            assert_eq!(m.step(Inputs::IDLE), start);
        }
        // While the machine thinks, any move is refused.
        let o = m.step(Inputs::take(1));
        assert_eq!(o.remaining, 17);
        let o = m.step(Inputs::take(1));
        assert!(o.illegal && o.remaining == 17 && !o.human_turn);
        let o = m.step(Inputs::IDLE);
        assert!(!o.illegal && o.human_turn && o.remaining == 16);
        // Moves outside the take set, and more than remain.
        let mut m = SticksGameModel::new(&SticksGame::new(5, &[1, 3, 4], Last::Loses).unwrap(), 0);
        m.step(Inputs::reset(false));
        for bad in [2, 5, 6, 7] {
            assert!(m.step(Inputs::take(bad)).illegal, "{bad}");
        }
        assert_eq!(m.step(Inputs::take(4)).remaining, 1);
        let o = m.step(Inputs::IDLE);
        // The machine is left 1 and must take it: under last-loses the human wins.
        assert!(o.game_over && o.human_won && o.machine_take == 1);
        let mut m = SticksGameModel::new(&SticksGame::new(2, &[1, 3], Last::Loses).unwrap(), 0);
        m.step(Inputs::reset(false));
        assert!(m.step(Inputs::take(3)).illegal);
        assert!(!m.step(Inputs::take(1)).illegal);
    }

    #[test]
    fn the_human_loses_fort_boyard_from_18_and_wins_from_17() {
        // From 18 the machine (second) cannot be beaten... 18 is a win for the player to move,
        // so the human can win by always leaving 4k + 1.
        let mut m = fort_boyard(0);
        m.step(Inputs::reset(false));
        let mut o = m.step(Inputs::take(1)); // 17 for the machine: lost for it.
        loop {
            if o.game_over {
                break;
            }
            let (turn, _) = wait_turn(&mut m);
            if turn.game_over {
                o = turn;
                break;
            }
            let k = (turn.remaining - 1) % 4;
            o = m.step(Inputs::take(if k == 0 { 1 } else { k }));
        }
        assert!(o.human_won, "{o:?}");
        // Human first playing 1 each time loses against the solver.
        let mut m = fort_boyard(0);
        m.step(Inputs::reset(false));
        let mut last = m.outputs();
        while !last.game_over {
            last = m.step(Inputs::take(1));
            if !last.game_over {
                last = wait_turn(&mut m).0;
            }
        }
        assert!(!last.human_won);
        assert_eq!(last.remaining, 0);
    }

    #[test]
    fn last_wins_rule_and_stuck_positions() {
        // take {2,3}, last wins: from 4 the human takes 3 and leaves 1, where the machine is
        // stuck: the human wins.
        let g = SticksGame::new(4, &[2, 3], Last::Wins).unwrap();
        let mut m = SticksGameModel::new(&g, 0);
        m.step(Inputs::reset(false));
        let o = m.step(Inputs::take(3));
        assert!(o.game_over && o.human_won && o.remaining == 1);
        // Taking 2 leaves 2: the machine takes 2, takes the last stick and wins.
        m.step(Inputs::reset(false));
        m.step(Inputs::take(2));
        let o = m.step(Inputs::IDLE);
        assert!(o.game_over && !o.human_won && o.remaining == 0 && o.machine_take == 2);
        // A start no move fits: the player to move is stuck.
        let g = SticksGame::new(1, &[2, 3], Last::Loses).unwrap();
        let mut m = SticksGameModel::new(&g, 0);
        assert!(
            m.step(Inputs::reset(false))
                == Outputs {
                    remaining: 1,
                    game_over: true,
                    ..Outputs::default()
                }
        );
        let o = m.step(Inputs::reset(true));
        assert!(o.game_over && o.human_won);
    }

    #[test]
    fn new_game_mid_game_restarts_and_ignores_a_coincident_move() {
        let mut m = fort_boyard(3);
        m.step(Inputs::reset(false));
        m.step(Inputs::take(3));
        let o = m.step(Inputs {
            new_game: true,
            take: 9,
            take_valid: true,
            ..Inputs::IDLE
        });
        assert_eq!(
            o,
            Outputs {
                remaining: 18,
                human_turn: true,
                ..Outputs::default()
            }
        );
    }

    /// Random inputs from reset: the rust-hdl controller, with either lookup, agrees with the
    /// model on every cycle; a refused move changes nothing; and every move the machine makes
    /// is the retrograde solver's (the model plays from the period, an independent answer).
    #[test]
    fn random_inputs_the_circuit_agrees_and_the_machine_plays_the_solver() {
        use crate::circuit::{sticks_game_sim, Impl};
        use crate::solver::solve;
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        let games = [
            SticksGame::fort_boyard(),
            SticksGame::new(23, &[2, 5, 7], Last::Wins).unwrap(),
            SticksGame::new(9, &[3, 4], Last::Loses).unwrap(),
        ];
        let mut runner = TestRunner::new_with_rng(
            Config {
                cases: 64,
                ..Config::default()
            },
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let input = (0u8..16, 0u32..8, any::<bool>()).prop_map(|(kind, take, mf)| match kind {
            0 => Inputs::reset(mf),
            1 => Inputs::new_game(mf),
            2..=9 => Inputs::take(take),
            _ => Inputs::IDLE,
        });
        for game in games {
            let solution = solve(&game);
            runner
                .run(
                    &(
                        proptest::collection::vec(input.clone(), 1..400),
                        0u32..4,
                        any::<bool>(),
                    ),
                    |(seq, think, machine_first)| {
                        let mut m = SticksGameModel::new(&game, think);
                        let mut circuits = [Impl::Rom, Impl::Logic]
                            .map(|i| sticks_game_sim(&game, i, think).unwrap());
                        let mut before: Option<Outputs> = None;
                        for i in std::iter::once(Inputs::reset(machine_first)).chain(seq) {
                            let o = m.step(i);
                            for c in circuits.iter_mut() {
                                prop_assert_eq!(c.step(&i), o, "{:?}", i);
                            }
                            let Some(b) = before.replace(o) else {
                                continue;
                            };
                            if i.reset || i.new_game {
                                continue;
                            }
                            // A refused move changes nothing (while the machine thinks its own
                            // move may still land at the same edge).
                            if o.illegal && (b.human_turn || b.game_over) {
                                let quiet = |x: Outputs| Outputs {
                                    illegal: false,
                                    ..x
                                };
                                prop_assert_eq!(quiet(o), quiet(b));
                            }
                            if o.remaining != b.remaining && !b.human_turn {
                                let k = b.remaining - o.remaining;
                                prop_assert_eq!(k, o.machine_take);
                                let best = solution.best_move(b.remaining as usize);
                                prop_assert_eq!(best.map(|(k, _)| k), Some(u64::from(k)));
                            }
                        }
                        Ok(())
                    },
                )
                .unwrap();
        }
    }
}
