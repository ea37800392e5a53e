//! Input sequences for the `sticks_game` co-simulation: every possible game, seeded random
//! play (illegal moves, mid-game restarts, resets, noise on inputs that should be ignored), and
//! the bookkeeping that says which part of the sequence a cycle belongs to.
//!
//! The sequences are fixed before any engine runs (nothing reacts to an engine's outputs):
//! when to move is worked out with the reference model, whose timing the specification fixes.

use std::ops::Range;

use crate::game::SticksGame;
use crate::model::{Inputs, SticksGameModel};
use crate::solver::SticksPeriod;

/// A deterministic pseudo-random generator (SplitMix64): fixed seeds give the same sequences on
/// every machine and every run.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        // The modulo bias is irrelevant for test stimuli.
        self.next_u64() % n
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

/// A named part of a [`Stimulus`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// What the part is, e.g. `game 12 (machine first: 3 2 1)` or `random seed 0x5eed`.
    pub name: String,
    /// Its cycles.
    pub cycles: Range<usize>,
}

/// The inputs of every cycle, in named segments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stimulus {
    /// One entry per cycle.
    pub inputs: Vec<Inputs>,
    /// The segments, in order, covering `inputs`.
    pub segments: Vec<Segment>,
}

impl Stimulus {
    /// Appends a segment.
    pub fn push(&mut self, name: impl Into<String>, inputs: impl IntoIterator<Item = Inputs>) {
        let start = self.inputs.len();
        self.inputs.extend(inputs);
        self.segments.push(Segment {
            name: name.into(),
            cycles: start..self.inputs.len(),
        });
    }

    /// Number of cycles.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// True when there are no cycles.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The segment holding `cycle`, and the cycle's offset in it.
    pub fn locate(&self, cycle: usize) -> Option<(&Segment, usize)> {
        self.segments
            .iter()
            .find(|s| s.cycles.contains(&cycle))
            .map(|s| (s, cycle - s.cycles.start))
    }
}

/// The moves of `game` that fit `n` sticks, ascending.
fn moves(game: &SticksGame, n: u64) -> impl Iterator<Item = u64> + '_ {
    game.take().iter().copied().filter(move |&k| k <= n)
}

/// How many different games a human can play against the solver from the start of `game`
/// (human first plus machine first), saturating at `u128::MAX`.
pub fn count_games(game: &SticksGame) -> u128 {
    let period = SticksPeriod::find(game).expect("stick games have a period");
    let n = game.count() as usize;
    // human[r] / machine[r]: games from r sticks with that player to move.
    let mut human = vec![0u128; n + 1];
    let mut machine = vec![0u128; n + 1];
    for r in 0..=n {
        let terminal = moves(game, r as u64).next().is_none();
        if terminal {
            human[r] = 1;
            machine[r] = 1;
            continue;
        }
        human[r] =
            moves(game, r as u64).fold(0u128, |acc, k| acc.saturating_add(machine[r - k as usize]));
        let k = period.at(r as u64).take.expect("a move exists") as usize;
        machine[r] = human[r - k];
    }
    human[n].saturating_add(machine[n])
}

/// Every game a human can play against the solver from the start of `game`: for each starter
/// (human, then machine), every legal human move at every turn, made on the first cycle the
/// human may move. Each game starts with a start pulse (alternately `reset` and `new_game`,
/// `machine_first` set accordingly) and ends with one idle cycle after the game is over.
/// Returns the games with a name listing the moves (`h` human, `m` machine).
pub fn every_game(game: &SticksGame, think_cycles: u32) -> Vec<(String, Vec<Inputs>)> {
    let mut games = Vec::new();
    for machine_first in [false, true] {
        let mut model = SticksGameModel::new(game, think_cycles);
        let start = Inputs::reset(machine_first);
        model.step(start);
        explore(
            &model,
            vec![start],
            String::from(if machine_first {
                "machine first:"
            } else {
                "human first:"
            }),
            &mut games,
        );
    }
    for (i, (_, inputs)) in games.iter_mut().enumerate() {
        if i % 2 == 1 {
            inputs[0].reset = false;
            inputs[0].new_game = true;
        }
    }
    games
}

fn explore(
    model: &SticksGameModel,
    mut inputs: Vec<Inputs>,
    mut name: String,
    out: &mut Vec<(String, Vec<Inputs>)>,
) {
    let mut model = model.clone();
    let mut before = model.outputs().remaining;
    loop {
        let o = model.outputs();
        if o.remaining != before {
            name.push_str(&format!(" m{}", before - o.remaining));
            before = o.remaining;
        }
        if o.game_over {
            inputs.push(Inputs::IDLE);
            let verdict = if o.human_won {
                " (human wins)"
            } else {
                " (machine wins)"
            };
            out.push((name + verdict, inputs));
            return;
        }
        if o.human_turn {
            break;
        }
        inputs.push(Inputs::IDLE);
        model.step(Inputs::IDLE);
    }
    let remaining = u64::from(model.outputs().remaining);
    for k in moves(model.game(), remaining).collect::<Vec<_>>() {
        let mut next = model.clone();
        let mv = Inputs::take(k as u32);
        next.step(mv);
        let mut seq = inputs.clone();
        seq.push(mv);
        explore(&next, seq, format!("{name} h{k}"), out);
    }
}

/// `cycles` cycles of seeded random play against `game`: mostly legal human moves after random
/// pauses (often the solver's own move, so that the human wins some games), with illegal moves (outside the take set, too many, zero, while the machine thinks
/// or after the end), `new_game` pulses and resets in mid-game, and random values on `take` and
/// `machine_first` whenever they should be ignored. Starts with a reset.
pub fn random_play(game: &SticksGame, think_cycles: u32, seed: u64, cycles: usize) -> Vec<Inputs> {
    let mut rng = SplitMix64::new(seed);
    let mut model = SticksGameModel::new(game, think_cycles);
    let port_mask = (1u64 << crate::solver::strategy::bits_for(game.max_take())) - 1;
    let mut out = Vec::with_capacity(cycles);
    if cycles > 0 {
        let start = Inputs::reset(rng.coin());
        model.step(start);
        out.push(start);
    }
    while out.len() < cycles {
        let o = model.outputs();
        // Noise on inputs that only matter at some edges.
        let mut inputs = Inputs {
            machine_first: rng.coin(),
            take: (rng.next_u64() & port_mask) as u32,
            ..Inputs::IDLE
        };
        let roll = rng.below(1000);
        if roll < 3 {
            inputs.reset = true;
            inputs.take_valid = rng.coin();
        } else if roll < 10 {
            inputs.new_game = true;
            inputs.reset = rng.below(4) == 0;
            inputs.take_valid = rng.coin();
        } else if o.human_turn {
            if roll < 350 {
                // A legal move: the solver's three times in four (so the human wins some
                // games), else any.
                let legal: Vec<u64> = moves(game, u64::from(o.remaining)).collect();
                inputs.take_valid = true;
                let best = model.solver_move(u64::from(o.remaining));
                if let (Some(k), true) = (best, rng.below(4) != 0) {
                    inputs.take = k as u32;
                } else if !legal.is_empty() {
                    inputs.take = legal[rng.below(legal.len() as u64) as usize] as u32;
                }
            } else if roll < 450 {
                // Any value the port can carry: often illegal.
                inputs.take_valid = true;
            }
        } else if o.game_over {
            if roll < 100 {
                inputs.new_game = true;
            } else if roll < 150 {
                inputs.take_valid = true;
            }
        } else if roll < 60 {
            // The machine is thinking.
            inputs.take_valid = true;
        }
        model.step(inputs);
        out.push(inputs);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Last;

    #[test]
    fn fort_boyard_game_counts() {
        // Human first: 135 games from 18, 243 from 20; machine first: 81 each.
        assert_eq!(count_games(&SticksGame::fort_boyard()), 135 + 81);
        let twenty = SticksGame::fort_boyard().with_count(20).unwrap();
        assert_eq!(count_games(&twenty), 243 + 81);
        assert_eq!(every_game(&SticksGame::fort_boyard(), 0).len(), 216);
        assert_eq!(every_game(&twenty, 2).len(), 324);
    }

    #[test]
    fn every_game_ends_and_is_distinct() {
        let g = SticksGame::new(9, &[2, 3], Last::Wins).unwrap();
        let games = every_game(&g, 1);
        assert_eq!(games.len() as u128, count_games(&g));
        let mut names: Vec<&str> = games.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), games.len());
        for (name, inputs) in &games {
            let mut m = SticksGameModel::new(&g, 1);
            let outs: Vec<_> = inputs.iter().map(|&i| m.step(i)).collect();
            assert!(outs.last().unwrap().game_over, "{name}");
            assert!(outs.iter().all(|o| !o.illegal), "{name}");
            assert!(inputs[0].reset || inputs[0].new_game);
        }
    }

    #[test]
    fn random_play_is_reproducible_and_varied() {
        let g = SticksGame::fort_boyard();
        let a = random_play(&g, 2, 42, 5000);
        assert_eq!(a, random_play(&g, 2, 42, 5000));
        assert_ne!(a, random_play(&g, 2, 43, 5000));
        assert_eq!(a.len(), 5000);
        let mut m = SticksGameModel::new(&g, 2);
        let outs: Vec<_> = a.iter().map(|&i| m.step(i)).collect();
        let illegal = outs.iter().filter(|o| o.illegal).count();
        let ended = outs
            .windows(2)
            .filter(|w| !w[0].game_over && w[1].game_over)
            .count();
        let restarts = a
            .iter()
            .zip(std::iter::once(&m.outputs()).chain(&outs))
            .filter(|(i, before)| (i.reset || i.new_game) && !before.game_over)
            .count();
        assert!(illegal > 100, "{illegal}");
        assert!(ended > 50, "{ended}");
        assert!(restarts > 10, "{restarts}");
        let human_wins = outs
            .windows(2)
            .filter(|w| !w[0].game_over && w[1].game_over && w[1].human_won)
            .count();
        assert!(human_wins > 5, "{human_wins} of {ended}");
    }

    #[test]
    fn stimulus_segments_locate_cycles() {
        let mut s = Stimulus::default();
        s.push("a", [Inputs::IDLE; 3]);
        s.push("b", [Inputs::IDLE; 2]);
        assert_eq!(s.len(), 5);
        let (seg, offset) = s.locate(4).unwrap();
        assert_eq!((seg.name.as_str(), offset), ("b", 1));
        assert!(s.locate(5).is_none());
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
