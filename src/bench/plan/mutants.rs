//! `verify <jr01|sticks> --mutants N [--seed S]`: the bench measured by the mutants of the
//! emitted Verilog it kills. Each mutant runs through the `--dut` levels that apply to it (a
//! strategy: the simulations and the proof against its table; the controller: the
//! co-simulations and its properties, proved at its ports as a user's controller is); a
//! failing level kills it, a proof of equality makes it equivalent, anything else survives.

use std::path::Path;
use std::time::Instant;

use super::table::run_level;
use super::{Check, CheckResult, Design, MutantResult, PlanError, Run, Section};
use crate::bench::dut::verify_controller;
use crate::bench::jr01::Jr01Design;
use crate::bench::level::{level_list, Level};
use crate::bench::mutants::{mutants, sites, Fate, Mutant, Score};
use crate::bench::properties::{prove_properties, ControllerDut, ProofOutcome, Property};
use crate::bench::sequential::VerifyOptions;
use crate::bench::{CombDesign, LevelReport, Mismatch};
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::GAME_MODULE;
use crate::flow::yosys::run_script;
use crate::game::SticksGame;

/// Longest induction (and base case) of the equivalence proof of a controller mutant.
pub const CONTROLLER_EQUIV_MAX_STEPS: u32 = 40;

/// The levels a strategy's mutants run: the simulations and the proof against the table.
const STRATEGY_LEVELS: [Level; 4] = [
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
];

/// The levels a controller's mutants run: the co-simulations, then its properties.
const CONTROLLER_LEVELS: [Level; 4] = [
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Properties,
];

/// One design whose mutants are benched.
pub enum Original {
    /// A combinational strategy, checked against its table.
    Strategy(Box<CombDesign>),
    /// The controller, co-simulated; equivalence is a k-induction proof against the original.
    Controller {
        /// The game.
        game: SticksGame,
        /// The emitted controller.
        verilog: String,
        /// Its think time.
        think_cycles: u32,
    },
}

impl Original {
    fn verilog(&self) -> &str {
        match self {
            Original::Strategy(d) => &d.verilog,
            Original::Controller { verilog, .. } => verilog,
        }
    }

    fn runs(&self) -> &'static [Level] {
        match self {
            Original::Strategy(_) => &STRATEGY_LEVELS,
            Original::Controller { .. } => &CONTROLLER_LEVELS,
        }
    }
}

/// A validated mutant run.
pub struct MutantPlan {
    /// `jr01` or `sticks`.
    pub design: &'static str,
    /// Mutants per original.
    pub n: usize,
    /// The shuffle's seed.
    pub seed: u64,
    /// The levels asked for (rust-hdl left out).
    pub levels: Vec<Level>,
    /// The designs mutated, by name, each with the levels its mutants run.
    pub originals: Vec<(String, Original, Vec<Level>)>,
}

impl MutantPlan {
    /// Checks the request and makes the originals (nothing written).
    pub fn new(design: &Design, n: usize, seed: u64, asked: &[Level]) -> Result<Self, PlanError> {
        if n == 0 {
            return Err(PlanError::Usage(
                "--mutants 0: give how many mutants to make, e.g. --mutants 20".into(),
            ));
        }
        if asked.contains(&Level::RustHdl) {
            return Err(PlanError::Usage(
                "--level rust-hdl: mutants are Verilog, not rust-hdl blocks; choose among \
                 icarus, verilator, gate-level and formal"
                    .into(),
            ));
        }
        let mut levels: Vec<Level> = if asked.is_empty() {
            Level::ALL[1..7].to_vec()
        } else {
            asked.to_vec()
        };
        levels.sort();
        levels.dedup();
        let mut originals: Vec<(String, Original)> = Vec::new();
        let name = match design {
            Design::Jr01 => {
                let d = Jr01Design::build().map_err(|e| PlanError::Setup(e.to_string()))?;
                originals.push((
                    "jr01_strategy".into(),
                    Original::Strategy(Box::new(d.design)),
                ));
                "jr01"
            }
            Design::Sticks(s) => {
                s.check()?;
                let impls = s.impls();
                for &i in &impls {
                    let d = CombDesign::from_sticks(&s.game, i)
                        .map_err(|e| PlanError::Setup(e.to_string()))?;
                    originals.push((
                        format!("sticks_strategy ({})", i.name()),
                        Original::Strategy(Box::new(d)),
                    ));
                }
                let implementation = impls[impls.len() - 1];
                let verilog = sticks_game_verilog(&s.game, implementation, s.think_cycles)
                    .map_err(|e| PlanError::Usage(e.to_string()))?;
                originals.push((
                    format!("sticks_game ({} lookup)", implementation.name()),
                    Original::Controller {
                        game: s.game.clone(),
                        verilog,
                        think_cycles: s.think_cycles,
                    },
                ));
                "sticks"
            }
            Design::Solver { .. } | Design::HeapsSolver { .. } | Design::Bitstream(_) => {
                unreachable!("refused by the plan")
            }
        };
        let has_strategy = originals
            .iter()
            .any(|(_, o)| matches!(o, Original::Strategy(_)));
        let has_controller = originals
            .iter()
            .any(|(_, o)| matches!(o, Original::Controller { .. }));
        let originals: Vec<(String, Original, Vec<Level>)> = originals
            .into_iter()
            .map(|(n, o)| {
                let runs: Vec<Level> = levels
                    .iter()
                    .copied()
                    .filter(|l| o.runs().contains(l))
                    .collect();
                (n, o, runs)
            })
            .filter(|(_, _, runs)| !runs.is_empty())
            .collect();
        if originals.is_empty() {
            return Err(PlanError::Usage(format!(
                "--level {}: no level asked for runs on mutants ({}); mutants run icarus, \
                 verilator, gate-level, (strategies) formal and (the controller) properties",
                levels
                    .iter()
                    .map(|l| l.cli_name())
                    .collect::<Vec<_>>()
                    .join(","),
                not_run_reasons(&levels, has_strategy, has_controller)
            )));
        }
        Ok(MutantPlan {
            design: name,
            n,
            seed,
            levels,
            originals,
        })
    }

    /// The header's account of the levels: exactly those run on the mutants (per kind when a
    /// strategy and a controller differ), and why each other chosen level is not.
    pub fn levels_said(&self) -> String {
        let strategy = self
            .originals
            .iter()
            .find(|(_, o, _)| matches!(o, Original::Strategy(_)))
            .map(|(_, _, l)| l.clone());
        let controller = self
            .originals
            .iter()
            .find(|(_, o, _)| matches!(o, Original::Controller { .. }))
            .map(|(_, _, l)| l.clone());
        let mut said = match (&strategy, &controller) {
            (Some(c), Some(g)) if c != g => format!(
                "the strategies at {}, the controller at {} ({})",
                level_list(c),
                level_list(g),
                if g.contains(&Level::Properties) {
                    "co-simulation and properties"
                } else {
                    "co-simulation"
                }
            ),
            (Some(l), _) | (None, Some(l)) => level_list(l),
            (None, None) => "no levels".to_owned(),
        };
        let skipped = not_run_reasons(&self.levels, strategy.is_some(), controller.is_some());
        if !skipped.is_empty() {
            said.push_str(&format!("; not run on mutants: {skipped}"));
        }
        said
    }
}

/// Why each of `levels` that mutants do not run is left out: `level 6 (...: why); level 7 ...`.
fn not_run_reasons(levels: &[Level], strategy: bool, controller: bool) -> String {
    let mut skipped = Vec::new();
    for &level in levels {
        let why = match level {
            Level::Formal if strategy => continue,
            Level::Formal if controller => {
                "a proof against the strategy's table, and a controller has none"
            }
            Level::Formal => continue,
            Level::Properties if controller => continue,
            Level::Properties => "the controller's properties, and no controller is mutated",
            Level::Equivalence => {
                "a mutant's netlist is synthesised from the mutant itself, so it always equals \
                 its own RTL and cannot kill it"
            }
            _ => continue,
        };
        skipped.push(format!(
            "level {} ({}: {why})",
            level.number(),
            level.name()
        ));
    }
    skipped.join("; ")
}

/// Runs every mutant of every original.
pub fn run(run: &mut Run<'_>, plan: &MutantPlan, work: &Path) {
    run.section(Section::Mutants {
        design: plan.design,
        n: plan.n,
        seed: plan.seed,
        levels: plan.levels_said(),
    });
    let mut total = Score::default();
    for (k, (name, original, levels)) in plan.originals.iter().enumerate() {
        let text = original.verilog();
        let chosen = mutants(text, plan.n, plan.seed);
        run.section(Section::MutantGroup {
            name: name.clone(),
            mutants: chosen.len(),
            sites: sites(text).len(),
        });
        let mut score = Score::default();
        for mutant in chosen {
            let dir = work.join(format!("{k}-{}", mutant.number));
            run.started(&format!("{name}: mutant {}", mutant.number));
            let (fate, checks) = match std::fs::create_dir_all(&dir) {
                Ok(()) => match original {
                    Original::Strategy(d) => strategy_fate(d, &mutant, levels, &dir),
                    Original::Controller {
                        game,
                        verilog,
                        think_cycles,
                    } => controller_fate(game, verilog, *think_cycles, &mutant, levels, &dir),
                },
                Err(e) => (
                    Fate::Stillborn {
                        error: format!("cannot create {}: {e}", dir.display()),
                    },
                    Vec::new(),
                ),
            };
            score.add(&fate);
            let result = MutantResult {
                design: name.clone(),
                mutant,
                fate,
                checks,
            };
            for check in &result.checks {
                run.ran += 1;
                if !check.passed() {
                    run.failed.push(check.label.clone());
                }
            }
            run.emit(super::Event::Mutant(&result));
        }
        run.emit(super::Event::Score {
            name,
            score: &score,
        });
        total.killed += score.killed;
        total.survived += score.survived;
        total.equivalent += score.equivalent;
        total.stillborn += score.stillborn;
    }
    run.mutants = Some(total);
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_owned()
}

/// Runs every chosen level on a mutant of a combinational design.
fn strategy_fate(
    original: &CombDesign,
    mutant: &Mutant,
    levels: &[Level],
    dir: &Path,
) -> (Fate, Vec<Check>) {
    let design = CombDesign {
        module: original.module.clone(),
        inputs: original.inputs.clone(),
        outputs: original.outputs.clone(),
        verilog: mutant.verilog.clone(),
        table: original.table.clone(),
    };
    let mut checks = Vec::new();
    let mut killed: Option<Fate> = None;
    let mut failing: Vec<String> = Vec::new();
    let mut proven = false;
    for &level in levels {
        let result = run_level(&design, &mut None, level, dir);
        if let CheckResult::NoVerdict { reason, .. } = &result {
            // A mutant the tools refuse (it does not compile or synthesise) is not counted.
            let fate = Fate::Stillborn {
                error: first_line(reason),
            };
            checks.push(mutant_check(&design.module, mutant, level, result));
            return (fate, checks);
        }
        let check = mutant_check(&design.module, mutant, level, result);
        if let CheckResult::Table(report) = &check.result {
            if !report.passed {
                failing.push(level.number().to_string());
                if killed.is_none() {
                    killed = Some(Fate::Killed {
                        by: level.to_string(),
                        detail: report.mismatch.clone().map_or_else(
                            || report.detail.clone(),
                            |m| Mismatch { vcd: None, ..m }.to_string(),
                        ),
                    });
                }
            }
            proven |= level == Level::Formal && report.passed;
        }
        checks.push(check);
    }
    if let Some(Fate::Killed { detail, .. }) = &mut killed {
        detail.push_str(&format!("; failing levels: {}", failing.join(", ")));
    }
    let fate = killed.unwrap_or(if proven {
        Fate::Equivalent {
            proof: "the formal level proves it equal to the solver's table".into(),
        }
    } else {
        Fate::Survived {
            reason: "every level passed and no formal level ran".into(),
        }
    });
    (fate, checks)
}

fn mutant_check(module: &str, mutant: &Mutant, level: Level, result: CheckResult) -> Check {
    let target = format!("{module} mutant {}", mutant.number);
    Check {
        level,
        label: format!("{target} {level}"),
        target,
        prefix: String::new(),
        dir: None,
        result,
    }
}

/// Co-simulates a controller mutant; when no engine kills it, tries a k-induction equivalence
/// proof against the original.
fn controller_fate(
    game: &SticksGame,
    original: &str,
    think_cycles: u32,
    mutant: &Mutant,
    levels: &[Level],
    dir: &Path,
) -> (Fate, Vec<Check>) {
    let mut checks = Vec::new();
    for &level in levels {
        if level == Level::Properties {
            let (settled, check) = properties_fate(game, think_cycles, mutant, dir);
            checks.push(check);
            if let Some(fate) = settled {
                return (fate, checks);
            }
            continue;
        }
        let Some(engine) = level.engine() else {
            continue;
        };
        let options = VerifyOptions {
            think_cycles,
            engines: vec![engine],
            ..VerifyOptions::default()
        };
        let start = Instant::now();
        let report = match verify_controller(game, &options, &mutant.verilog, dir, &mut |_| {}) {
            Ok(reports) => reports.into_iter().find(|r| r.engine == engine),
            Err(e) => {
                checks.push(mutant_check(
                    GAME_MODULE,
                    mutant,
                    level,
                    CheckResult::NoVerdict {
                        head: engine.to_string(),
                        elapsed: start.elapsed(),
                        reason: e.to_string(),
                    },
                ));
                return (
                    Fate::Stillborn {
                        error: first_line(&e.to_string()),
                    },
                    checks,
                );
            }
        };
        let Some(report) = report else { continue };
        let killed = report.mismatch.as_ref().map(|m| Fate::Killed {
            by: format!("sticks_game {}", report.engine),
            detail: format!(
                "cycle {} ({}): {} expected {}, actual {}",
                m.cycle, m.segment, m.signal, m.expected, m.actual
            ),
        });
        checks.push(mutant_check(
            GAME_MODULE,
            mutant,
            level,
            CheckResult::Cosim(report),
        ));
        if let Some(fate) = killed {
            return (fate, checks);
        }
    }
    let equiv_dir = dir.join("equiv");
    if let Err(e) = std::fs::create_dir_all(&equiv_dir) {
        return (
            Fate::Survived {
                reason: format!(
                    "the co-simulation passes and the equivalence proof could not run: cannot \
                     create {}: {e}",
                    equiv_dir.display()
                ),
            },
            checks,
        );
    }
    let fate = match induction_equivalent(original, &mutant.verilog, &equiv_dir) {
        Ok(Induction::Proven(k)) => Fate::Equivalent {
            proof: format!(
                "yosys sat -tempinduct proves its outputs equal to the original's for every input \
                 sequence from power-on (k-induction, k = {k})"
            ),
        },
        Ok(Induction::Differs) => Fate::Survived {
            reason: "the co-simulation passes but yosys sat finds an input sequence where it \
                     differs from the original"
                .into(),
        },
        Ok(Induction::Undecided) => Fate::Survived {
            reason: format!(
                "the co-simulation passes and k-induction up to {CONTROLLER_EQUIV_MAX_STEPS} \
                 neither proves it equal to the original nor finds a difference"
            ),
        },
        Err(e) => Fate::Survived {
            reason: format!(
                "the co-simulation passes and the equivalence proof gave no verdict: {}",
                first_line(&e)
            ),
        },
    };
    (fate, checks)
}

/// The controller's properties (level 6) on a mutant, checked at its ports like a user's
/// controller (the emitted controller's internal relations need not hold in a mutant): a
/// property that fails from power-on kills it; a proof, or a bounded check that neither proves
/// nor refutes, leaves it to the equivalence proof (`None`); a tool failure or a proof with
/// nothing to prove (a combinational loop, an unsatisfiable model) is no verdict, and the
/// mutant is not counted (stillborn), as when a tool refuses it at another level.
fn properties_fate(
    game: &SticksGame,
    think_cycles: u32,
    mutant: &Mutant,
    dir: &Path,
) -> (Option<Fate>, Check) {
    let level = Level::Properties;
    let start = Instant::now();
    let dut = ControllerDut::user(mutant.verilog.clone(), GAME_MODULE.to_owned());
    let folder = dir.join(level.folder().expect("the properties level has a folder"));
    let names = Property::PORT.len();
    let report = match prove_properties(game, think_cycles, &dut, &folder) {
        Ok(report) => report,
        Err(e) => return no_verdict(mutant, start, e.to_string()),
    };
    let (killed, passed, detail) = match &report.outcome {
        ProofOutcome::Failed(cex) => {
            let detail = format!("a property fails from power-on (yosys-smtbmc, z3): {cex}");
            (
                Some(Fate::Killed {
                    by: format!("{GAME_MODULE} {level}"),
                    detail: detail.clone(),
                }),
                false,
                detail,
            )
        }
        ProofOutcome::Proved { k, depth } => (
            None,
            true,
            format!(
                "{names} properties proved for every input sequence: k-induction closed at k = \
                 {k}, base case from power-on to {depth} steps (yosys-smtbmc, z3)"
            ),
        ),
        ProofOutcome::ProvedByPdr { depth, pdr_time } => (
            None,
            true,
            format!(
                "{names} properties proved for every input sequence (ABC pdr, {:.2}s), bounded \
                 check from power-on to {depth} steps (yosys-smtbmc, z3)",
                pdr_time.as_secs_f64()
            ),
        ),
        ProofOutcome::BoundedOnly { depth, pdr, .. } => (
            None,
            true,
            format!(
                "{names} properties hold from power-on for {depth} steps (yosys-smtbmc, z3), \
                 neither proved nor refuted (ABC pdr: {pdr}): the mutant is not killed here"
            ),
        ),
        ProofOutcome::Vacuous(why) => {
            return no_verdict(
                mutant,
                start,
                format!("{names} properties not proved: {why}"),
            )
        }
    };
    let result = CheckResult::Table(LevelReport {
        level,
        vectors: 0,
        passed,
        elapsed: report.elapsed,
        detail,
        mismatch: None,
    });
    (killed, mutant_check(GAME_MODULE, mutant, level, result))
}

/// A properties check of a controller mutant that gave no verdict: the mutant is stillborn.
fn no_verdict(mutant: &Mutant, start: Instant, reason: String) -> (Option<Fate>, Check) {
    let level = Level::Properties;
    let fate = Fate::Stillborn {
        error: first_line(&reason),
    };
    let result = CheckResult::NoVerdict {
        head: level.to_string(),
        elapsed: start.elapsed(),
        reason,
    };
    (Some(fate), mutant_check(GAME_MODULE, mutant, level, result))
}

/// What the equivalence proof of two controllers found.
enum Induction {
    /// Equal on every input sequence; the induction length.
    Proven(u32),
    /// A reachable difference.
    Differs,
    /// Neither within the step limit.
    Undecided,
}

/// Proves two `sticks_game` texts equal on every input sequence from their power-on state
/// (the registers' `initial` values): each is flattened into a module of its own (`gold`,
/// `gate`), then `miter -equiv` and `sat -tempinduct -prove-asserts` (k-induction). The
/// scripts name only files of `dir`, by relative names.
fn induction_equivalent(gold: &str, gate: &str, dir: &Path) -> Result<Induction, String> {
    for (name, text) in [("gold", gold), ("gate", gate)] {
        let source = format!("{name}_src.v");
        std::fs::write(dir.join(&source), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(&source).display()))?;
        let script = format!(
            "read_verilog -sv {source}\nhierarchy -top {GAME_MODULE}\nproc -norom\nflatten\n\
             opt_clean\nrename {GAME_MODULE} {name}\nwrite_verilog -noattr {name}.v\n"
        );
        run_script(dir, &format!("flatten_{name}"), &script).map_err(|e| e.to_string())?;
    }
    let script = format!(
        "read_verilog -sv gold.v gate.v\nproc -norom\nmiter -equiv -flatten -make_assert gold \
         gate miter\nhierarchy -top miter\nsat -tempinduct -prove-asserts -maxsteps \
         {CONTROLLER_EQUIV_MAX_STEPS} miter\n"
    );
    let log = run_script(dir, "equiv", &script)
        .map_err(|e| e.to_string())?
        .stdout;
    if log.contains("Induction step proven: SUCCESS!") {
        let k = log
            .lines()
            .filter_map(|l| l.strip_prefix("Base case for induction length "))
            .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
            .max()
            .unwrap_or(1);
        return Ok(Induction::Proven(k));
    }
    if log.contains("model found for base case: FAIL!") {
        return Ok(Induction::Differs);
    }
    Ok(Induction::Undecided)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::plan::SticksDesign;
    use crate::game::Last;

    fn sticks() -> Design {
        Design::Sticks(SticksDesign {
            game: SticksGame::new(6, &[1, 2, 3], Last::Loses).unwrap(),
            implementation: Some(crate::circuit::sticks_strategy::Impl::Logic),
            think_cycles: 1,
        })
    }

    #[test]
    fn the_mutants_header_lists_exactly_the_levels_run() {
        let plan = MutantPlan::new(&sticks(), 3, 1, &[]).unwrap();
        let said = plan.levels_said();
        assert!(
            said.starts_with(
                "the strategies at levels 2, 3, 4, 5, the controller at levels 2, 3, 4, 6 \
                 (co-simulation and properties); not run on mutants: level 7 (iCE40 netlist \
                 equivalence"
            ),
            "{said}"
        );
        // A strategy alone at the levels it runs: nothing to explain.
        let plan = MutantPlan::new(&Design::Jr01, 3, 1, &[Level::Icarus, Level::Formal]).unwrap();
        assert_eq!(plan.levels_said(), "levels 2, 5");
    }

    /// Levels no mutant runs are refused before anything runs: they used to count every
    /// mutant as survived.
    #[test]
    fn levels_that_no_mutant_runs_are_refused() {
        for (design, asked) in [
            (sticks(), vec![Level::Equivalence]),
            (Design::Jr01, vec![Level::Properties]),
            (Design::Jr01, vec![Level::Properties, Level::Equivalence]),
        ] {
            let Err(e) = MutantPlan::new(&design, 3, 1, &asked) else {
                panic!("{asked:?} accepted");
            };
            assert!(e.is_usage(), "{e}");
            assert!(
                e.to_string().contains("no level asked for runs on mutants"),
                "{e}"
            );
            // Each level asked for is explained.
            for level in &asked {
                assert!(
                    e.to_string()
                        .contains(&format!("level {} (", level.number())),
                    "{e}"
                );
            }
        }
        let Err(e) = MutantPlan::new(&Design::Jr01, 0, 1, &[]) else {
            panic!("0 mutants accepted");
        };
        assert!(e.to_string().starts_with("--mutants 0"), "{e}");
    }

    /// With only the properties level, the controller's mutants run it and the strategies
    /// (which have no properties) are left out.
    #[test]
    fn the_controller_mutants_run_the_properties_level() {
        let plan = MutantPlan::new(&sticks(), 3, 1, &[Level::Properties]).unwrap();
        let runs: Vec<(&str, &[Level])> = plan
            .originals
            .iter()
            .map(|(n, _, l)| (n.as_str(), l.as_slice()))
            .collect();
        assert_eq!(
            runs,
            [("sticks_game (logic lookup)", &[Level::Properties][..])]
        );
        assert_eq!(plan.levels_said(), "level 6");
    }

    /// With only the formal level, the controller (which has no table) is left out, and the
    /// strategies' mutants still run.
    #[test]
    fn the_controller_is_left_out_when_none_of_its_levels_is_asked() {
        let plan = MutantPlan::new(&sticks(), 3, 1, &[Level::Formal]).unwrap();
        let names: Vec<&str> = plan.originals.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["sticks_strategy (logic)"]);
    }
}
