//! Cycle-accurate co-simulation of the clocked `sticks_game` controller.
//!
//! The same input sequence ([`Stimulus`]) runs through every [`Engine`]:
//!
//! 1. the plain-Rust reference model ([`crate::model::SticksGameModel`]), the reference;
//! 2. rust-hdl's simulation of the block, driven in process (inputs set while the clock is
//!    low, `update_all` until settled, clock up, settle again: no threads, no `Simulation`);
//! 3. the emitted Verilog under Icarus;
//! 4. the emitted Verilog under Verilator (`--binary`);
//! 5. the `synth_ice40` gate-level netlist with yosys's `ice40/cells_sim.v` under Icarus
//!    (`-DNO_ICE40_DEFAULT_ASSIGNMENTS`).
//!
//! The external engines share one generated testbench ([`testbench`]) that reads a stimulus
//! file and writes every output after every rising edge; the comparison happens in Rust.
//! Every output is compared on every cycle with the model's. Independently of the model, each
//! engine's trace is also checked against the retrograde solver: whenever the machine moves,
//! the move must be the solver's move for the position it moved from.
//!
//! On a mismatch the report names the cycle (and the game or random run it belongs to), the
//! signal, the expected and actual values, and the failing engine reruns up to that cycle
//! writing a VCD.
//!
//! [`verify_sticks`] is the entry point; [`sticks_stimulus`] builds its sequences: the
//! power-on state, every game a human can play (when there are at most
//! [`VerifyOptions::max_exhaustive_games`]), and seeded random play.

pub mod checking;
pub mod engines;
pub mod stimulus;
pub mod testbench;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

pub use checking::sim_files;
pub use engines::{Engine, EngineRun, PreparedEngine};
pub use stimulus::{count_games, every_game, random_play, Segment, SplitMix64, Stimulus};
pub use testbench::Observed;

use crate::circuit::sticks_strategy::{Impl, SticksCircuitError};
use crate::flow::ToolError;
use crate::game::SticksGame;
use crate::model::{Inputs, Outputs, SticksGameModel};
use crate::solver::solve;
use crate::solver::strategy::sticks_table;

/// Errors that stop the co-simulation from reaching a verdict. (A mismatch is not an error: it
/// is an [`EngineReport`] with a [`CycleMismatch`].)
#[derive(Debug, thiserror::Error)]
pub enum CosimError {
    /// The game's circuit cannot be built.
    #[error(transparent)]
    Sticks(#[from] SticksCircuitError),
    /// An external tool failed or is missing.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// Writing or reading a file failed.
    #[error("could not access {path}: {source}; check that the work directory is writable")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// An engine ran but its output is unusable.
    #[error("{engine}: {problem}; see {log}")]
    Engine {
        /// The engine.
        engine: Engine,
        /// What went wrong.
        problem: String,
        /// Its log.
        log: String,
    },
}

/// The first cycle where an engine disagrees with the model or the solver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CycleMismatch {
    /// The cycle (0 = the first rising edge after power-on).
    pub cycle: usize,
    /// The segment of the stimulus it is in, and the cycle's offset there.
    pub segment: String,
    /// The output port, or `machine move` for a move the solver would not make.
    pub signal: String,
    /// The expected value (binary for ports).
    pub expected: String,
    /// The actual value, as the engine gave it (`x`/`z` bits survive).
    pub actual: String,
    /// The inputs sampled at that edge.
    #[serde(skip)]
    pub inputs: Inputs,
    /// The failing engine's waveform up to a little after the cycle, if it writes one.
    pub vcd: Option<PathBuf>,
}

impl fmt::Display for CycleMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cycle {} ({}): {} expected {} actual {} (inputs reset={} new_game={} machine_first={} take={} take_valid={})",
            self.cycle,
            self.segment,
            self.signal,
            self.expected,
            self.actual,
            u8::from(self.inputs.reset),
            u8::from(self.inputs.new_game),
            u8::from(self.inputs.machine_first),
            self.inputs.take,
            u8::from(self.inputs.take_valid),
        )?;
        if let Some(vcd) = &self.vcd {
            write!(f, "; waveform: {}", vcd.display())?;
        }
        Ok(())
    }
}

/// What one engine did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineReport {
    /// The engine.
    pub engine: Engine,
    /// Cycles simulated.
    pub cycles: usize,
    /// Time the simulation took (not the preparation).
    pub elapsed: Duration,
    /// `cycles / elapsed`.
    pub cycles_per_second: f64,
    /// Time the preparation took (Verilog, synthesis, compilation).
    pub setup: Duration,
    /// `None` when every output matched on every cycle and every machine move was the
    /// solver's.
    pub mismatch: Option<CycleMismatch>,
    /// What was run.
    pub detail: String,
}

impl EngineReport {
    /// True when the engine matched on every cycle.
    pub fn passed(&self) -> bool {
        self.mismatch.is_none()
    }
}

impl fmt::Display for EngineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({} cycles in {:.3}s, {:.0} cycles/s; setup {:.2}s) {}",
            self.engine,
            if self.passed() { "PASS" } else { "FAIL" },
            self.cycles,
            self.elapsed.as_secs_f64(),
            self.cycles_per_second,
            self.setup.as_secs_f64(),
            self.detail
        )?;
        if let Some(m) = &self.mismatch {
            write!(f, "; first mismatch {m}")?;
        }
        Ok(())
    }
}

/// What [`verify_sticks`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The strategy lookup inside the controller.
    pub implementation: Impl,
    /// Cycles the machine thinks (small, so that games are short).
    pub think_cycles: u32,
    /// Seed of the first random run; run `i` uses `seed + i`.
    pub seed: u64,
    /// Number of random runs.
    pub random_runs: usize,
    /// Cycles per random run.
    pub random_cycles: usize,
    /// Play every game when there are at most this many (human first plus machine first).
    pub max_exhaustive_games: u128,
    /// The engines to run; the model always runs, as the reference.
    pub engines: Vec<Engine>,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            implementation: Impl::Logic,
            think_cycles: 2,
            seed: 0x5EED,
            random_runs: 4,
            random_cycles: 5_000,
            max_exhaustive_games: 20_000,
            engines: Engine::ALL.to_vec(),
        }
    }
}

/// Progress of [`verify_sticks`].
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// The stimulus is ready.
    Stimulus {
        /// Its cycles.
        cycles: usize,
        /// How many complete games it plays exhaustively (0 when there are too many).
        games: usize,
    },
    /// An engine is being prepared and run.
    Starting(Engine),
    /// An engine finished.
    Finished(&'a EngineReport),
}

/// The sequences [`verify_sticks`] runs for `game`: three power-on cycles (idle, a move with
/// no game, idle), every game when there are few enough, then the random runs.
pub fn sticks_stimulus(game: &SticksGame, options: &VerifyOptions) -> Stimulus {
    let mut s = Stimulus::default();
    s.push("power-on", [Inputs::IDLE, Inputs::take(1), Inputs::IDLE]);
    if count_games(game) <= options.max_exhaustive_games {
        for (i, (name, inputs)) in every_game(game, options.think_cycles)
            .into_iter()
            .enumerate()
        {
            s.push(format!("game {i}, {name}"), inputs);
        }
    }
    for run in 0..options.random_runs {
        let seed = options.seed.wrapping_add(run as u64);
        s.push(
            format!("random play, seed {seed:#x}"),
            random_play(game, options.think_cycles, seed, options.random_cycles),
        );
    }
    s
}

/// The first cycle where `observed` differs from `expected` (or ends early).
fn compare(
    expected: &[Outputs],
    observed: &[Observed],
    widths: [usize; 6],
) -> Option<(usize, &'static str, String, String)> {
    for (cycle, e) in expected.iter().enumerate() {
        let Some(o) = observed.get(cycle) else {
            return Some((cycle, "(all)", "a line of outputs".into(), "nothing".into()));
        };
        let known = Observed::Known(*e);
        for (k, &name) in Outputs::NAMES.iter().enumerate() {
            let (want, got) = (known.field(k, widths[k]), o.field(k, widths[k]));
            if want != got {
                return Some((cycle, name, want, got));
            }
        }
    }
    None
}

/// Checks every machine move in a trace against the retrograde solver: a move happens when
/// the machine was thinking before an edge that started no game and `remaining` dropped; it
/// must equal the solver's move there, and `machine_take` must show it. Returns the first
/// violation as (cycle, expected, actual). Stops at the first unknown (`x`) output.
fn check_machine_moves(
    game: &SticksGame,
    inputs: &[Inputs],
    observed: &[Observed],
    power_on: Outputs,
) -> Option<(usize, String, String)> {
    let solution = solve(game);
    let mut before = power_on;
    for (cycle, (i, o)) in inputs.iter().zip(observed).enumerate() {
        let Observed::Known(o) = *o else {
            return None;
        };
        let thinking = !before.human_turn && !before.game_over;
        if thinking && !i.reset && !i.new_game && o.remaining != before.remaining {
            let from = before.remaining as usize;
            let want = (from <= game.count() as usize)
                .then(|| solution.best_move(from).map(|(k, _)| k))
                .flatten();
            let took = before.remaining.checked_sub(o.remaining);
            let ok = want.is_some_and(|k| took == Some(k as u32) && o.machine_take == k as u32);
            if !ok {
                return Some((
                    cycle,
                    format!(
                        "{} (the solver's move at {from})",
                        want.map_or("none".to_owned(), |k| k.to_string())
                    ),
                    format!(
                        "{} -> {} sticks, machine_take {}",
                        before.remaining, o.remaining, o.machine_take
                    ),
                ));
            }
        }
        before = o;
    }
    None
}

/// Runs `engine` (already prepared) on `stimulus`, compares with `expected` (the model's
/// outputs) and with the solver, and writes a VCD on a mismatch.
pub fn run_engine(
    prepared: &PreparedEngine,
    game: &SticksGame,
    stimulus: &Stimulus,
    expected: &[Outputs],
) -> Result<EngineReport, CosimError> {
    let t = sticks_table(game).map_err(SticksCircuitError::from)?;
    let widths = testbench::field_widths(t.sticks_bits, t.take_bits);
    let run = prepared.run(&stimulus.inputs)?;
    let power_on = SticksGameModel::new(game, 0).outputs();
    let mut found = compare(expected, &run.observed, widths);
    let solver = check_machine_moves(game, &stimulus.inputs, &run.observed, power_on);
    if let Some((cycle, want, got)) = solver {
        if found.as_ref().is_none_or(|f| cycle < f.0) {
            found = Some((cycle, "machine move (solver)", want, got));
        }
    }
    let mismatch = match found {
        None => None,
        Some((cycle, name, expected_value, actual)) => {
            let segment = stimulus.locate(cycle).map_or_else(String::new, |(s, off)| {
                format!("{}, cycle {off} of it", s.name)
            });
            let vcd = prepared.write_vcd(&stimulus.inputs, cycle + 3)?;
            Some(CycleMismatch {
                cycle,
                segment,
                signal: name.to_owned(),
                expected: expected_value,
                actual,
                inputs: stimulus.inputs.get(cycle).copied().unwrap_or_default(),
                vcd,
            })
        }
    };
    let secs = run.elapsed.as_secs_f64();
    Ok(EngineReport {
        engine: prepared.engine(),
        cycles: run.observed.len().min(stimulus.len()),
        elapsed: run.elapsed,
        cycles_per_second: if secs > 0.0 {
            run.observed.len() as f64 / secs
        } else {
            f64::INFINITY
        },
        setup: prepared.setup,
        mismatch,
        detail: prepared.detail.clone(),
    })
}

/// The co-simulation's stimulus for `game` and the reference model's outputs on it, announced
/// to `progress` (cycles and games) before any engine runs.
pub fn stimulus_and_expected(
    game: &SticksGame,
    options: &VerifyOptions,
    progress: &mut dyn FnMut(Progress<'_>),
) -> (Stimulus, Vec<Outputs>) {
    let stimulus = sticks_stimulus(game, options);
    let games = stimulus
        .segments
        .iter()
        .filter(|s| s.name.starts_with("game "))
        .count();
    progress(Progress::Stimulus {
        cycles: stimulus.len(),
        games,
    });
    let mut model = SticksGameModel::new(game, options.think_cycles);
    let expected = stimulus.inputs.iter().map(|&i| model.step(i)).collect();
    (stimulus, expected)
}

/// Verifies `game`'s `sticks_game` controller: builds the stimulus ([`sticks_stimulus`]), runs
/// the reference model and every engine of `options.engines` on it (external ones under
/// `dir/<engine>`), and compares every output on every cycle. Returns one report per engine,
/// the model's first (its own check is against the solver). Tools that are missing are
/// errors.
pub fn verify_sticks(
    game: &SticksGame,
    options: &VerifyOptions,
    dir: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Vec<EngineReport>, CosimError> {
    sticks_table(game).map_err(SticksCircuitError::from)?;
    let (stimulus, expected) = stimulus_and_expected(game, options, progress);
    let mut reports = Vec::new();
    let mut engines = vec![Engine::Model];
    engines.extend(options.engines.iter().filter(|&&e| e != Engine::Model));
    for engine in engines {
        progress(Progress::Starting(engine));
        let prepared = PreparedEngine::prepare(
            engine,
            game,
            options.implementation,
            options.think_cycles,
            dir,
        )?;
        let mut report = run_engine(&prepared, game, &stimulus, &expected)?;
        if engine == Engine::Model {
            report.detail = format!(
                "reference model; {} cycles in {} segments",
                stimulus.len(),
                stimulus.segments.len()
            );
        } else if report.detail.is_empty() {
            report.detail = format!(
                "rust-hdl update() in process, lookup {}",
                options.implementation
            );
        }
        progress(Progress::Finished(&report));
        reports.push(report);
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Last;

    fn in_process(game: &SticksGame, options: &VerifyOptions) -> Vec<EngineReport> {
        let dir = std::env::temp_dir();
        let options = VerifyOptions {
            engines: vec![Engine::Model, Engine::RustHdl],
            ..options.clone()
        };
        verify_sticks(game, &options, &dir, &mut |_| {}).expect("in-process engines")
    }

    /// rust-hdl matches the model on every game of Fort Boyard (18 and 20 sticks) and on random
    /// play, for both lookups and several thinking times.
    #[test]
    fn rust_hdl_matches_the_model() {
        for count in [18, 20] {
            let game = SticksGame::fort_boyard().with_count(count).unwrap();
            for (implementation, think) in [(Impl::Logic, 0), (Impl::Rom, 1), (Impl::Logic, 5)] {
                let options = VerifyOptions {
                    implementation,
                    think_cycles: think,
                    ..VerifyOptions::default()
                };
                for report in in_process(&game, &options) {
                    assert!(
                        report.passed(),
                        "{count} {implementation} {think}: {report}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_games_match_too() {
        for game in [
            SticksGame::new(23, &[2, 5, 7], Last::Wins).unwrap(),
            SticksGame::new(40, &[1, 3, 4], Last::Loses).unwrap(),
            SticksGame::new(3, &[1, 6, 15], Last::Wins).unwrap(),
            SticksGame::new(1, &[2, 3], Last::Loses).unwrap(),
            SticksGame::new(255, &[1, 2, 3], Last::Loses).unwrap(),
        ] {
            let options = VerifyOptions {
                random_runs: 2,
                random_cycles: 3000,
                ..VerifyOptions::default()
            };
            for report in in_process(&game, &options) {
                assert!(report.passed(), "{game:?}: {report}");
            }
        }
    }

    #[test]
    fn a_wrong_output_is_located() {
        let game = SticksGame::fort_boyard();
        let stimulus = sticks_stimulus(&game, &VerifyOptions::default());
        let mut model = SticksGameModel::new(&game, 2);
        let expected: Vec<Outputs> = stimulus.inputs.iter().map(|&i| model.step(i)).collect();
        let mut observed: Vec<Observed> = expected.iter().map(|&o| Observed::Known(o)).collect();
        let mut bad = expected[40];
        bad.human_won = !bad.human_won;
        observed[40] = Observed::Known(bad);
        let (cycle, signal, want, got) = compare(&expected, &observed, [5, 1, 2, 1, 1, 1]).unwrap();
        assert_eq!((cycle, signal), (40, "human_won"));
        assert_ne!(want, got);
        observed.truncate(10);
        assert_eq!(
            compare(&expected, &observed, [5, 1, 2, 1, 1, 1]).unwrap().0,
            10
        );
    }

    #[test]
    fn rust_hdl_writes_a_waveform() {
        let dir = tempfile::tempdir().unwrap();
        let game = SticksGame::fort_boyard();
        let prepared =
            PreparedEngine::prepare(Engine::RustHdl, &game, Impl::Rom, 1, dir.path()).unwrap();
        let inputs = [
            Inputs::reset(false),
            Inputs::take(2),
            Inputs::IDLE,
            Inputs::IDLE,
        ];
        let path = prepared.write_vcd(&inputs, 10).unwrap().expect("a VCD");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("$enddefinitions"), "{text}");
        assert!(text.contains("remaining"), "{text}");
        // Cycle k: clock low at 10 000 k ps, rising edge 5 000 ps later.
        assert!(
            text.contains("#35000") && !text.contains("#40000"),
            "4 cycles: {text}"
        );
        let model =
            PreparedEngine::prepare(Engine::Model, &game, Impl::Rom, 1, dir.path()).unwrap();
        assert_eq!(model.write_vcd(&inputs, 10).unwrap(), None);
    }

    #[test]
    fn games_too_large_for_a_circuit_are_refused() {
        let game = SticksGame::new(300, &[1, 2], Last::Wins).unwrap();
        let err = verify_sticks(
            &game,
            &VerifyOptions::default(),
            &std::env::temp_dir(),
            &mut |_| {},
        )
        .unwrap_err();
        assert!(err.to_string().contains("--count 300"), "{err}");
    }

    #[test]
    fn a_move_the_solver_would_not_make_is_caught() {
        let game = SticksGame::fort_boyard();
        let inputs = [Inputs::reset(true), Inputs::IDLE, Inputs::IDLE];
        let start = Outputs {
            remaining: 18,
            ..Outputs::default()
        };
        // The machine (first, 18 sticks) must take 1; here it takes 2.
        let observed = [
            Observed::Known(start),
            Observed::Known(start),
            Observed::Known(Outputs {
                remaining: 16,
                machine_take: 2,
                human_turn: true,
                ..Outputs::default()
            }),
        ];
        let power_on = SticksGameModel::new(&game, 0).outputs();
        let (cycle, want, got) = check_machine_moves(&game, &inputs, &observed, power_on).unwrap();
        assert_eq!(cycle, 2);
        assert!(want.starts_with("1 "), "{want}");
        assert!(got.contains("18 -> 16"), "{got}");
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::flow::testing::work_dir;
    use crate::game::Last;

    fn assert_all_pass(reports: &[EngineReport], cycles: usize) {
        assert_eq!(reports.len(), Engine::ALL.len());
        for (report, engine) in reports.iter().zip(Engine::ALL) {
            assert_eq!(report.engine, engine);
            assert!(report.passed(), "{report}");
            assert_eq!(report.cycles, cycles, "{report}");
            eprintln!("{report}");
        }
    }

    /// The 20-stick variant with the ROM lookup and a longer think time, on every engine in
    /// order. (Fort Boyard itself, every game human and machine first plus random play, is
    /// `retrogate verify sticks`'s co-simulation, which tests/cli/paths.rs runs as documented.)
    #[test]
    fn twenty_sticks_cosim_all_engines() {
        let game = SticksGame::fort_boyard().with_count(20).unwrap();
        let dir = work_dir("cosim-fb20");
        let options = VerifyOptions {
            implementation: Impl::Rom,
            think_cycles: 3,
            seed: 20,
            random_runs: 2,
            random_cycles: 3000,
            ..VerifyOptions::default()
        };
        let cycles = sticks_stimulus(&game, &options).len();
        let mut seen = Vec::new();
        let reports = verify_sticks(&game, &options, dir.path(), &mut |p| {
            if let Progress::Starting(e) = p {
                seen.push(e);
            }
        })
        .expect("cosim");
        assert_eq!(seen, Engine::ALL.to_vec());
        assert_all_pass(&reports, cycles);
    }

    /// Widths where the take port is wider than the count (M > W) and last-wins, on every
    /// engine.
    #[test]
    fn narrow_count_wide_take_cosim() {
        let game = SticksGame::new(3, &[1, 6, 15], Last::Wins).unwrap();
        let dir = work_dir("cosim-narrow");
        let options = VerifyOptions {
            random_runs: 2,
            random_cycles: 2000,
            think_cycles: 0,
            ..VerifyOptions::default()
        };
        let cycles = sticks_stimulus(&game, &options).len();
        let reports = verify_sticks(&game, &options, dir.path(), &mut |_| {}).expect("cosim");
        assert_all_pass(&reports, cycles);
    }

    /// A broken lookup in the Verilog (bit 0 of the move no longer reads bit 4 of the count:
    /// at 16 sticks the machine takes 2 instead of 3) is caught by every external engine, with
    /// the cycle, the signal and a waveform.
    #[test]
    fn a_broken_controller_is_caught_with_a_waveform() {
        let game = SticksGame::fort_boyard();
        let dir = work_dir("cosim-broken");
        let options = VerifyOptions {
            random_runs: 0,
            ..VerifyOptions::default()
        };
        let stimulus = sticks_stimulus(&game, &options);
        let mut model = SticksGameModel::new(&game, options.think_cycles);
        let expected: Vec<Outputs> = stimulus.inputs.iter().map(|&i| model.step(i)).collect();
        let good = crate::circuit::sticks_game_verilog(&game, Impl::Logic, options.think_cycles)
            .expect("verilog");
        let broken = good.replacen("take[0] = (sticks[4]) |", "take[0] = (sticks[3]) |", 1);
        assert_ne!(broken, good);
        let mut first = None;
        for engine in [Engine::Icarus, Engine::Verilator, Engine::GateLevel] {
            let prepared = PreparedEngine::prepare_with_verilog(
                engine,
                &game,
                Impl::Logic,
                options.think_cycles,
                dir.path(),
                Some(broken.clone()),
            )
            .expect("prepare");
            let report = run_engine(&prepared, &game, &stimulus, &expected).expect("run");
            let m = report.mismatch.expect("a mismatch");
            assert!(m.vcd.as_ref().is_some_and(|p| p.is_file()), "{m}");
            assert_eq!(m.signal, "remaining", "{m}");
            assert!(m.segment.starts_with("game "), "{m}");
            let at = (m.cycle, m.expected.clone(), m.actual.clone());
            assert_eq!(*first.get_or_insert(at.clone()), at, "{engine}: {m}");
            eprintln!("{engine}: {m}");
        }
    }
}
