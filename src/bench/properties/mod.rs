//! The `sticks_game` controller's properties, proven by k-induction with yosys-smtbmc and z3
//! or by ABC's PDR, and its cover traces (a game the human wins and one the machine wins, from either starting
//! player).
//!
//! The controller under test is any Verilog with the controller's port contract
//! ([`ControllerDut`]: the emitted `sticks_game`, or a user's module). [`wrapper()`] generates
//! the formal wrapper: a monitor that tracks the expected state (the reference model's rules
//! with the solver's tables) and the properties of issue 12 at the ports. The monitor's
//! equality with the outputs makes the properties inductive up to the controller's hidden
//! registers; for the emitted controller, whose register names are known, the wrapper also
//! relates those registers to the monitor ([`Internals`]), and the induction closes at a small
//! depth. A controller with unknown internals is proved by ABC's property-directed
//! reachability (`pdr`, IC3: it finds the inductive invariant itself, so it needs no relation
//! to the hidden registers), within [`PDR_LIMIT`]. When PDR gives no verdict in that time, the
//! k-induction is tried; when that does not close either, the properties are checked from
//! power-on to a whole game's depth and reported as BOUNDED ONLY, which the level counts as a
//! failure unless the user accepts it (`allow_bounded`, the CLI's `--allow-bounded`).
//!
//! A failed proof writes the counterexample's VCD and renders it as SVG with
//! [`crate::waveform`], naming the property, its line in the wrapper and the step.
//!
//! No proof is vacuous: the wrapped controller is checked for combinational loops (yosys
//! `check`) before a model is written, and the first bounded check runs with yosys-smtbmc's
//! `--presat` (some input sequence satisfies the model at every step from power-on); either
//! failing is [`ProofOutcome::Vacuous`], which fails the level naming why.

pub mod wrapper;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use wrapper::{wrapper, Check, CoverGoal, GameFacts, Internals, Property, WRAPPER_MODULE};

use super::{BenchError, Level, LevelReport};
use crate::circuit::sticks_strategy::Impl;
use crate::flow::abc;
use crate::flow::smtbmc::{self, Mode, Verdict};
use crate::flow::yosys::{Model, Vacuity};
use crate::game::SticksGame;
use crate::solver::{Outcome, SticksPeriod};
use crate::waveform::{render_svg, Picture, Trace};

/// A controller to check: its Verilog, its top module, and (for the emitted controller) the
/// names of its internal registers.
#[derive(Clone, Debug)]
pub struct ControllerDut {
    /// The Verilog source.
    pub verilog: String,
    /// The module with the controller's ports.
    pub top: String,
    /// Internal registers, when known.
    pub internals: Option<Internals>,
    /// Whether a BOUNDED ONLY result passes the level: the user accepted a bounded check
    /// for a controller no proof closes on (`--allow-bounded`; never for the emitted one).
    pub allow_bounded: bool,
}

impl ControllerDut {
    /// retrogate's emitted `sticks_game` for `game`.
    pub fn emitted(
        game: &SticksGame,
        implementation: Impl,
        think_cycles: u32,
    ) -> Result<Self, BenchError> {
        Ok(ControllerDut {
            verilog: crate::circuit::sticks_game_verilog(game, implementation, think_cycles)?,
            top: crate::circuit::GAME_MODULE.to_owned(),
            internals: Some(Internals::emitted()),
            allow_bounded: false,
        })
    }

    /// A user's controller: Verilog `verilog` with top module `top`, checked at its ports.
    pub fn user(verilog: String, top: String) -> Self {
        ControllerDut {
            verilog,
            top,
            internals: None,
            allow_bounded: false,
        }
    }
}

/// A failed check's counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The property that failed (when its line is known).
    pub property: Option<Property>,
    /// The assertion's location in the wrapper (`file.v:line.col-line.col`).
    pub location: String,
    /// The step where it failed.
    pub step: Option<usize>,
    /// The trace.
    pub vcd: Option<PathBuf>,
    /// The trace as a picture.
    pub svg: Option<PathBuf>,
}

impl std::fmt::Display for Counterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.property {
            Some(p) => write!(f, "assertion `{}` ({})", p.describe(), self.location)?,
            None => write!(f, "assertion at {}", self.location)?,
        }
        if let Some(step) = self.step {
            write!(f, " fails at step {step}")?;
        }
        if let Some(vcd) = &self.vcd {
            write!(f, "; trace {}", vcd.display())?;
        }
        if let Some(svg) = &self.svg {
            write!(f, ", waveform {}", svg.display())?;
        }
        Ok(())
    }
}

/// How far the proof got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofOutcome {
    /// Bounded check from power-on to `depth` steps passed and the induction closed at
    /// `k` steps: every property holds on every input sequence.
    Proved {
        /// Induction length.
        k: usize,
        /// Steps of the base case.
        depth: usize,
    },
    /// ABC's `pdr` proved every property on every input sequence from power-on (after the
    /// bounded check from power-on to `depth` steps passed).
    ProvedByPdr {
        /// Steps of the bounded check that ran first.
        depth: usize,
        /// PDR's own time.
        pdr_time: Duration,
    },
    /// The bounded check passed to `depth` steps; neither PDR (within its limit) nor the
    /// k-induction closed.
    BoundedOnly {
        /// Steps checked from power-on.
        depth: usize,
        /// Why PDR gave no verdict.
        pdr: String,
        /// The induction step's counterexample (it may start in an unreachable state).
        induction: Counterexample,
    },
    /// A property fails on a real trace from power-on.
    Failed(Counterexample),
    /// Nothing was proved: the wrapped controller has a combinational loop, or no input
    /// sequence satisfies the model from power-on, so every property would hold vacuously.
    Vacuous(Vacuity),
}

/// The result of [`prove_properties`].
#[derive(Clone, Debug)]
pub struct PropertyReport {
    /// The outcome.
    pub outcome: ProofOutcome,
    /// Wall-clock time, tools included.
    pub elapsed: Duration,
    /// The wrapper that was checked.
    pub wrapper: PathBuf,
}

/// Steps of the bounded check and the induction for a game with `think` cycles of thought:
/// enough for the monitor to see a whole machine turn and the move after it.
pub fn proof_depth(think: u32) -> usize {
    think as usize + 4
}

/// How long ABC's `pdr` may search for a proof of a controller with unknown internals before
/// the level falls back to k-induction and a bounded check.
pub const PDR_LIMIT: Duration = Duration::from_secs(120);

/// Clock period of the smtbmc VCD trace (time units per step).
const VCD_STEP: u64 = 10;

/// Prove the properties of `dut` for `game` with `think` cycles of thought, in `dir`
/// (created): a bounded check from power-on to [`proof_depth`] steps with yosys-smtbmc and z3,
/// then a k-induction to the same depth when the controller's internals are known, or ABC's
/// `pdr` (within [`PDR_LIMIT`]) when they are not (see the module docs for the fallback).
pub fn prove_properties(
    game: &SticksGame,
    think: u32,
    dut: &ControllerDut,
    dir: &Path,
) -> Result<PropertyReport, BenchError> {
    prove_properties_to(game, think, dut, dir, proof_depth(think), PDR_LIMIT)
}

/// [`prove_properties`] to `depth` steps, PDR within `pdr_limit`.
pub fn prove_properties_to(
    game: &SticksGame,
    think: u32,
    dut: &ControllerDut,
    dir: &Path,
    depth: usize,
    pdr_limit: Duration,
) -> Result<PropertyReport, BenchError> {
    let start = Instant::now();
    let dir = super::work_dir(dir)?;
    let facts = GameFacts::of(game, think);
    let w = wrapper(&facts, &dut.top, dut.internals.is_some(), Check::Prove);
    let dut_path = super::write(&dir, "dut.v", &dut.verilog)?;
    let wrapper_path = super::write(&dir, "properties.v", &w.verilog)?;
    let probes = dut
        .internals
        .as_ref()
        .map(Internals::probes)
        .unwrap_or_default();
    let vacuous = |why: Vacuity| PropertyReport {
        outcome: ProofOutcome::Vacuous(why),
        elapsed: start.elapsed(),
        wrapper: wrapper_path.clone(),
    };
    let smt2 = match smtbmc::smt2(
        &dir,
        &[dut_path.clone(), wrapper_path.clone()],
        WRAPPER_MODULE,
        &probes,
        "properties",
    )? {
        Model::Ready(smt2) => smt2,
        Model::Vacuous(why) => return Ok(vacuous(why)),
    };
    let sources = [dut_path, wrapper_path.clone()];
    let counterexample = |run: smtbmc::Run, title: &str| -> Result<Counterexample, BenchError> {
        let Verdict::Failed {
            line,
            location,
            step,
            all,
        } = run.verdict
        else {
            unreachable!("only failed runs have counterexamples")
        };
        // Name a property of the issue when one fails, before the monitor's equalities.
        let (line, location) = all
            .iter()
            .filter_map(|loc| smtbmc::line_of(loc).map(|l| (l, loc)))
            .find(|&(l, _)| {
                w.property_at(l)
                    .is_some_and(|p| Property::PORT.contains(&p))
            })
            .map_or((line, location.clone()), |(l, loc)| (Some(l), loc.clone()));
        let svg = match &run.vcd {
            Some(vcd) => Some(render(vcd, title)?),
            None => None,
        };
        Ok(Counterexample {
            property: line.and_then(|l| w.property_at(l)),
            location,
            step,
            vcd: run.vcd,
            svg,
        })
    };
    // `--presat`: the bounded check first shows that some input sequence satisfies the model
    // from power-on at every step; a model none satisfies would make every proof below pass.
    let base = smtbmc::check_with(&dir, &smt2, Mode::Bounded, depth, "bounded", true)?;
    if let Verdict::Unsatisfiable { step } = base.verdict {
        return Ok(vacuous(unsatisfiable(step)));
    }
    if matches!(base.verdict, Verdict::Failed { .. }) {
        let cex = counterexample(base, &format!("{}: property counterexample", dut.top))?;
        return Ok(PropertyReport {
            outcome: ProofOutcome::Failed(cex),
            elapsed: start.elapsed(),
            wrapper: wrapper_path,
        });
    }
    let title = format!("{}: property counterexample", dut.top);
    // Unknown internals: the k-induction cannot relate the hidden registers to the monitor;
    // PDR finds its own invariant.
    let mut pdr_said = String::from("not tried (the internals are known)");
    if dut.internals.is_none() {
        let aig = match abc::aiger(&dir, &sources, WRAPPER_MODULE, "pdr")? {
            Model::Ready(aig) => aig,
            Model::Vacuous(why) => return Ok(vacuous(why)),
        };
        let pdr_start = Instant::now();
        let run = abc::pdr(&dir, &aig, pdr_limit, "pdr")?;
        let pdr_time = pdr_start.elapsed();
        match run.verdict {
            abc::Verdict::Proved => {
                return Ok(PropertyReport {
                    outcome: ProofOutcome::ProvedByPdr { depth, pdr_time },
                    elapsed: start.elapsed(),
                    wrapper: wrapper_path,
                })
            }
            abc::Verdict::Failed { frame, .. } => {
                // The trace, the property and its waveform come from yosys-smtbmc replaying
                // the same wrapper from power-on to the failing cycle.
                let replay_depth = usize::try_from(frame)
                    .unwrap_or(usize::MAX)
                    .saturating_add(2);
                let replay = smtbmc::check(&dir, &smt2, Mode::Bounded, replay_depth, "pdr-cex")?;
                if !matches!(replay.verdict, Verdict::Failed { .. }) {
                    return Err(BenchError::NoVerdict {
                        level: Level::Properties,
                        problem: format!(
                            "ABC's pdr reports an assertion failing in cycle {frame}, but \
                             yosys-smtbmc finds none within {replay_depth} steps"
                        ),
                        log: run.log.display().to_string(),
                    });
                }
                return Ok(PropertyReport {
                    outcome: ProofOutcome::Failed(counterexample(replay, &title)?),
                    elapsed: start.elapsed(),
                    wrapper: wrapper_path,
                });
            }
            abc::Verdict::Undecided { reason } => {
                pdr_said = format!("{reason} (see {})", run.log.display());
            }
            other => {
                pdr_said = format!("pdr gave no verdict: {other:?} (see {})", run.log.display());
            }
        }
    }
    let induction = smtbmc::check(&dir, &smt2, Mode::Induction, depth, "induction")?;
    let outcome = match induction.verdict {
        Verdict::Unsatisfiable { step } => ProofOutcome::Vacuous(unsatisfiable(step)),
        Verdict::Passed { .. } => ProofOutcome::Proved {
            k: induction_length(&induction.log, depth),
            depth,
        },
        Verdict::Failed { .. } => {
            // The induction did not close: look for a real counterexample as deep as a whole
            // game goes before settling for a bounded result.
            let deep = depth.max(cover_depth(game, think));
            let deeper = smtbmc::check(&dir, &smt2, Mode::Bounded, deep, "bounded-deep")?;
            if matches!(deeper.verdict, Verdict::Failed { .. }) {
                ProofOutcome::Failed(counterexample(deeper, &title)?)
            } else if let Verdict::Unsatisfiable { step } = deeper.verdict {
                ProofOutcome::Vacuous(unsatisfiable(step))
            } else {
                ProofOutcome::BoundedOnly {
                    depth: deep,
                    pdr: pdr_said,
                    induction: counterexample(
                        induction,
                        &format!("{}: induction step counterexample", dut.top),
                    )?,
                }
            }
        }
    };
    Ok(PropertyReport {
        outcome,
        elapsed: start.elapsed(),
        wrapper: wrapper_path,
    })
}

/// yosys-smtbmc's `--presat` found no input sequence satisfying the model up to `step`.
fn unsatisfiable(step: Option<usize>) -> Vacuity {
    Vacuity::Unsatisfiable {
        by: match step {
            Some(step) => format!("yosys-smtbmc --presat, at step {step}"),
            None => "yosys-smtbmc --presat".to_owned(),
        },
        warnings: Vec::new(),
    }
}

/// The induction length yosys-smtbmc needed: `depth - s` for the step `s` it succeeded at.
fn induction_length(log: &Path, depth: usize) -> usize {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let last = text
        .lines()
        .filter_map(|l| l.split("Trying induction in step ").nth(1))
        .filter_map(|r| r.trim_end_matches('.').parse::<usize>().ok())
        .min()
        .unwrap_or(depth);
    depth - last
}

/// Renders the smtbmc trace `vcd` as an SVG beside it (same name, `.svg`).
pub fn render(vcd: &Path, title: &str) -> Result<PathBuf, BenchError> {
    let text = std::fs::read_to_string(vcd).map_err(|source| BenchError::Io {
        path: vcd.to_path_buf(),
        source,
    })?;
    let no_verdict = |problem: String| BenchError::NoVerdict {
        level: Level::Properties,
        problem,
        log: vcd.display().to_string(),
    };
    let last = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .filter_map(|t| t.trim().parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    let paths: Vec<String> = super::counterexample::CONTROLLER_SIGNALS
        .iter()
        .map(|s| format!("{WRAPPER_MODULE}.{s}"))
        .collect();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let trace = Trace::from_vcd(&text, &paths, last + VCD_STEP)
        .map_err(|e| no_verdict(format!("cannot read the trace: {e}")))?;
    let svg = render_svg(
        &trace,
        &Picture {
            title,
            clock: "clock",
            cycle: VCD_STEP,
        },
    )
    .map_err(|e| no_verdict(format!("cannot draw the trace: {e}")))?;
    let path = vcd.with_extension("svg");
    std::fs::write(&path, svg).map_err(|source| BenchError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The properties level of `verify sticks`. A BOUNDED ONLY result passes only for a user's
/// controller with [`ControllerDut::allow_bounded`].
pub fn properties_level(
    game: &SticksGame,
    think: u32,
    dut: &ControllerDut,
    dir: &Path,
) -> Result<LevelReport, BenchError> {
    let report = prove_properties(
        game,
        think,
        dut,
        &dir.join(Level::Properties.folder().expect("a folder")),
    )?;
    let (passed, detail) = judge(&report.outcome, dut);
    Ok(LevelReport {
        level: Level::Properties,
        vectors: 0,
        passed,
        elapsed: report.elapsed,
        detail,
        mismatch: None,
    })
}

/// Whether the level passes, and its line: a proof passes, a failure fails, a bounded result
/// passes only for a user's controller that allows it.
fn judge(outcome: &ProofOutcome, dut: &ControllerDut) -> (bool, String) {
    let names = Property::PORT.len();
    let allow_bounded = dut.allow_bounded;
    match outcome {
        ProofOutcome::Proved { k, depth } => (
            true,
            format!(
                "{names} properties of {} proved for every input sequence: k-induction closed at \
                 k = {k} (yosys-smtbmc -i -t {depth}, z3), base case from power-on to {depth} \
                 steps",
                dut.top
            ),
        ),
        ProofOutcome::ProvedByPdr { depth, pdr_time } => (
            true,
            format!(
                "{names} properties of {} proved for every input sequence (ABC pdr, {:.2}s; \
                 yosys-abc), bounded check from power-on to {depth} steps (yosys-smtbmc, z3)",
                dut.top,
                pdr_time.as_secs_f64()
            ),
        ),
        // The emitted controller's induction closes with its internal relations; when it does
        // not, the proof failed. For a user's controller neither PDR nor the induction closed:
        // a bounded result is not a proof, and passes only when the user accepts it.
        ProofOutcome::BoundedOnly {
            depth,
            pdr,
            induction,
        } => (
            dut.internals.is_none() && allow_bounded,
            format!(
                "BOUNDED ONLY, not proved{}: {names} properties of {} hold from power-on for \
                 {depth} steps (yosys-smtbmc -t {depth}, z3); ABC's pdr: {pdr}; k-induction did \
                 not close within {depth} steps ({induction}){}",
                if allow_bounded && dut.internals.is_none() {
                    " (accepted by --allow-bounded)"
                } else {
                    ""
                },
                dut.top,
                if allow_bounded || dut.internals.is_some() {
                    ""
                } else {
                    "; a bounded check is not a proof, so the level fails: give --allow-bounded \
                     to accept it"
                }
            ),
        ),
        ProofOutcome::Failed(cex) => (
            false,
            format!(
                "property of {} fails from power-on (yosys-smtbmc, z3): {cex}",
                dut.top
            ),
        ),
        ProofOutcome::Vacuous(why) => (
            false,
            format!("{names} properties of {} not proved: {why}", dut.top),
        ),
    }
}

/// One cover goal's result.
#[derive(Clone, Debug)]
pub struct CoverTrace {
    /// The goal.
    pub goal: CoverGoal,
    /// The step it was reached at; `None` when not reached (see `note`).
    pub step: Option<usize>,
    /// The trace.
    pub vcd: Option<PathBuf>,
    /// Its picture.
    pub svg: Option<PathBuf>,
    /// Why a goal was not tried or not reached.
    pub note: Option<String>,
}

/// Steps a cover search may take: every move of a game (at most count / smallest take), the
/// machine's each lasting think + 1 cycles, plus the start.
pub fn cover_depth(game: &SticksGame, think: u32) -> usize {
    let moves = game.count() / game.take().iter().min().copied().unwrap_or(1) + 1;
    2 + moves as usize * (think as usize + 2)
}

/// Bounded covers of `dut` for every [`CoverGoal`], in `dir/covers`: the shortest game from
/// power-on reaching each, its VCD and SVG. A goal the solver says no game reaches (the human
/// cannot beat the machine from a start the machine wins) is not searched, and says why.
pub fn cover_traces(
    game: &SticksGame,
    think: u32,
    dut: &ControllerDut,
    dir: &Path,
) -> Result<Vec<CoverTrace>, BenchError> {
    let dir = super::work_dir(&dir.join("covers"))?;
    let facts = GameFacts::of(game, think);
    let period = SticksPeriod::find(game).expect("stick games have a period");
    let start_wins = period.at(game.count()).value.outcome == Outcome::Win;
    let dut_path = super::write(&dir, "dut.v", &dut.verilog)?;
    let depth = cover_depth(game, think);
    let mut traces = Vec::new();
    for goal in CoverGoal::ALL {
        // The human wins only by winning from a winning start (theirs) or from the
        // machine's losing start; the machine plays the solver's moves.
        let human_can_win = goal.machine_first != start_wins;
        let name = goal.name();
        if goal.human_wins && !human_can_win {
            traces.push(CoverTrace {
                goal,
                step: None,
                vcd: None,
                svg: None,
                note: Some(format!(
                    "not searched: the solver says {} sticks is a {} for the player to move, and \
                     the machine plays the solver's moves, so a game the {} starts never ends \
                     in the human's win",
                    game.count(),
                    if start_wins { "win" } else { "loss" },
                    if goal.machine_first {
                        "machine"
                    } else {
                        "human"
                    }
                )),
            });
            continue;
        }
        let w = wrapper(&facts, &dut.top, false, Check::Cover(goal));
        let wrapper_path = super::write(&dir, &format!("{name}.v"), &w.verilog)?;
        let smt2 = match smtbmc::smt2(
            &dir,
            &[dut_path.clone(), wrapper_path],
            WRAPPER_MODULE,
            &[],
            &name,
        )? {
            Model::Ready(smt2) => smt2,
            Model::Vacuous(why) => {
                traces.push(CoverTrace {
                    goal,
                    step: None,
                    vcd: None,
                    svg: None,
                    note: Some(format!("not searched: {why}")),
                });
                continue;
            }
        };
        let run = smtbmc::check(&dir, &smt2, Mode::Cover, depth, &format!("{name}-cover"))?;
        let step = match &run.verdict {
            Verdict::Passed { reached } => reached.first().copied(),
            Verdict::Failed { .. } | Verdict::Unsatisfiable { .. } => None,
        };
        let (vcd, svg) = match (&run.vcd, step) {
            (Some(vcd), Some(_)) => {
                let final_vcd = dir.join(format!("{name}.vcd"));
                std::fs::rename(vcd, &final_vcd).map_err(|source| BenchError::Io {
                    path: final_vcd.clone(),
                    source,
                })?;
                let title = format!(
                    "{}: {} wins, {} first",
                    dut.top,
                    if goal.human_wins { "human" } else { "machine" },
                    if goal.machine_first {
                        "machine"
                    } else {
                        "human"
                    }
                );
                let svg = render(&final_vcd, &title)?;
                (Some(final_vcd), Some(svg))
            }
            _ => (None, None),
        };
        traces.push(CoverTrace {
            goal,
            step,
            vcd,
            svg,
            note: step
                .is_none()
                .then(|| format!("not reached within {depth} steps")),
        });
    }
    Ok(traces)
}

#[cfg(test)]
mod policy_tests {
    use super::*;

    #[test]
    fn a_bounded_only_result_fails_the_level_unless_allowed() {
        let outcome = ProofOutcome::BoundedOnly {
            depth: 23,
            pdr: "pdr gave no verdict: Reached timeout".into(),
            induction: Counterexample {
                property: None,
                location: "properties.v:12.1-12.9".into(),
                step: Some(0),
                vcd: None,
                svg: None,
            },
        };
        let mut user = ControllerDut::user(String::new(), "mine".into());
        let (passed, line) = judge(&outcome, &user);
        assert!(!passed, "{line}");
        assert!(line.starts_with("BOUNDED ONLY, not proved: "), "{line}");
        assert!(line.contains("give --allow-bounded to accept it"), "{line}");
        assert!(line.contains("Reached timeout"), "{line}");
        user.allow_bounded = true;
        let (passed, line) = judge(&outcome, &user);
        assert!(passed, "{line}");
        assert!(line.contains("(accepted by --allow-bounded)"), "{line}");
        // retrogate's own controller must be proved: no flag makes a bounded result pass.
        let mut emitted = user.clone();
        emitted.internals = Some(Internals::emitted());
        assert!(!judge(&outcome, &emitted).0);
        let proved = ProofOutcome::ProvedByPdr {
            depth: 5,
            pdr_time: Duration::from_millis(120),
        };
        user.allow_bounded = false;
        let (passed, line) = judge(&proved, &user);
        assert!(passed);
        assert!(
            line.contains("proved for every input sequence (ABC pdr, 0.12s"),
            "{line}"
        );
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tests {
    use super::*;
    use crate::flow::testing::work_dir;
    use crate::game::Last;

    /// The smallest games that still exercise every property: a take set with 1 and one
    /// without (positions where the player to move is stuck), both end rules, a think time
    /// that makes the machine wait.
    fn small_games() -> Vec<SticksGame> {
        vec![
            SticksGame::new(6, &[1, 2, 3], Last::Loses).unwrap(),
            SticksGame::new(7, &[2, 3], Last::Wins).unwrap(),
        ]
    }

    #[test]
    fn the_emitted_controller_is_proved_by_induction() {
        for game in small_games() {
            for implementation in [Impl::Rom, Impl::Logic] {
                let dir = work_dir("properties");
                let dut = ControllerDut::emitted(&game, implementation, 1).unwrap();
                let report = prove_properties(&game, 1, &dut, dir.path()).unwrap();
                match report.outcome {
                    ProofOutcome::Proved { k, depth } => assert!(k >= 1 && k <= depth),
                    other => panic!("{game:?} {implementation:?}: {other:?}"),
                }
            }
        }
    }

    /// A controller whose wrong line is `find` replaced by `replace`, for the first small game.
    fn broken(find: &str, replace: &str) -> (SticksGame, ControllerDut) {
        let game = small_games().remove(0);
        let mut dut = ControllerDut::emitted(&game, Impl::Logic, 1).unwrap();
        assert!(
            dut.verilog.contains(find),
            "the emitted Verilog has `{find}`"
        );
        dut.verilog = dut.verilog.replacen(find, replace, 1);
        (game, dut)
    }

    #[test]
    fn a_broken_controller_fails_with_a_waveform() {
        // The human wins when they took the last stick under `--last loses`: inverted.
        let (game, dut) = broken(
            "won$d = ~(last_loses & move_check$empties);",
            "won$d = (last_loses & move_check$empties);",
        );
        let dir = work_dir("properties-broken");
        let report = prove_properties(&game, 1, &dut, dir.path()).unwrap();
        let ProofOutcome::Failed(cex) = report.outcome else {
            panic!("the broken controller passed: {:?}", report.outcome)
        };
        assert_eq!(cex.property, Some(Property::HumanWonRule), "{cex}");
        assert!(cex.step.is_some_and(|s| s > 0), "{cex}");
        let vcd = cex.vcd.as_ref().expect("a trace");
        let svg = cex.svg.as_ref().expect("a picture");
        assert!(std::fs::read_to_string(vcd)
            .unwrap()
            .contains("$enddefinitions"));
        assert!(std::fs::read_to_string(svg).unwrap().starts_with("<svg"));
        assert!(
            cex.to_string().contains(&svg.display().to_string()),
            "{cex}"
        );
    }

    #[test]
    fn an_out_of_turn_move_that_counts_is_caught() {
        // A move while the machine thinks is refused but also made.
        let (game, dut) = broken("refused$d = take_valid;", "refused$d = take_valid; if (take_valid & move_check$legal) sticks_left$d = move_check$after;");
        let dir = work_dir("properties-out-of-turn");
        let report = prove_properties(&game, 1, &dut, dir.path()).unwrap();
        let ProofOutcome::Failed(cex) = report.outcome else {
            panic!("the broken controller passed: {:?}", report.outcome)
        };
        assert!(
            matches!(
                cex.property,
                Some(Property::LegalChanges | Property::IllegalInput)
            ),
            "{cex}"
        );
    }

    #[test]
    fn a_controller_without_known_internals_is_proved_by_pdr() {
        for game in small_games() {
            let mut dut = ControllerDut::emitted(&game, Impl::Logic, 1).unwrap();
            dut.internals = None;
            let dir = work_dir("properties-user");
            let report = prove_properties(&game, 1, &dut, dir.path()).unwrap();
            assert!(
                matches!(report.outcome, ProofOutcome::ProvedByPdr { .. }),
                "{game:?}: {:?}",
                report.outcome
            );
        }
    }

    #[test]
    fn pdr_finds_a_counterexample_deeper_than_the_bounded_check() {
        // The human's win is inverted under `--last loses`: the bounded check to 1 step cannot
        // reach the end of a game, PDR does, and its trace comes back through yosys-smtbmc.
        let (game, mut dut) = broken(
            "won$d = ~(last_loses & move_check$empties);",
            "won$d = (last_loses & move_check$empties);",
        );
        dut.internals = None;
        let dir = work_dir("properties-pdr-cex");
        let report =
            prove_properties_to(&game, 1, &dut, dir.path(), 1, Duration::from_secs(60)).unwrap();
        let ProofOutcome::Failed(cex) = report.outcome else {
            panic!("the broken controller passed: {:?}", report.outcome)
        };
        assert_eq!(cex.property, Some(Property::HumanWonRule), "{cex}");
        assert!(cex.step.is_some_and(|s| s > 1), "{cex}");
        assert!(cex.svg.as_ref().is_some_and(|p| p.is_file()), "{cex}");
        assert!(dir.path().join("pdr.log").is_file());
    }

    /// A controller whose strategy lookup reads its own answer (a combinational loop through
    /// the submodule): no proof runs (a SAT query over a loop is unsatisfiable), the level
    /// fails naming the loop, and the covers say why they were not searched.
    #[test]
    fn a_combinational_loop_is_not_proved() {
        let (game, dut) = broken(
            "lookup$sticks = sticks_left$q;",
            "lookup$sticks = sticks_left$q ^ lookup$take;",
        );
        for internals in [true, false] {
            let mut dut = dut.clone();
            if !internals {
                dut.internals = None;
            }
            let dir = work_dir("properties-loop");
            let report = prove_properties(&game, 1, &dut, dir.path()).unwrap();
            let ProofOutcome::Vacuous(why) = &report.outcome else {
                panic!("a looping controller: {:?}", report.outcome)
            };
            assert!(why.to_string().contains("combinational loop"), "{why}");
            let (passed, line) = judge(&report.outcome, &dut);
            assert!(!passed);
            assert!(line.contains("not proved: combinational loop"), "{line}");
        }
        let dir = work_dir("covers-loop");
        let traces = cover_traces(&game, 1, &dut, dir.path()).unwrap();
        assert!(
            traces.iter().all(|t| t.step.is_none()
                && t.note
                    .as_deref()
                    .is_some_and(|n| n.starts_with("not searched"))),
            "{traces:?}"
        );
    }

    #[test]
    fn covers_reach_both_winners() {
        let game = small_games().remove(0);
        let dut = ControllerDut::emitted(&game, Impl::Logic, 1).unwrap();
        let dir = work_dir("covers");
        let traces = cover_traces(&game, 1, &dut, dir.path()).unwrap();
        assert_eq!(traces.len(), 4);
        for t in &traces {
            match (t.step, &t.svg) {
                (Some(_), Some(svg)) => assert!(svg.is_file()),
                _ => assert!(
                    t.note
                        .as_deref()
                        .is_some_and(|n| n.starts_with("not searched")),
                    "{t:?}"
                ),
            }
        }
        let reached = traces.iter().filter(|t| t.step.is_some()).count();
        assert_eq!(reached, 3, "{traces:?}");
    }
}
