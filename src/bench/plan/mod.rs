//! The verification plan: for each `verify` target, which levels run, in which order, on
//! which engine, and the run itself, reported as [`Event`]s.
//!
//! A [`Request`] names a [`Design`] (J.R. 01, a stick game, the on-chip solvers), how it is
//! checked ([`Mode`]: retrogate's own Verilog, a user's `--dut` file, or mutants of the
//! emitted Verilog) and the levels asked for. [`Plan::new`] validates it and decides the
//! levels (bad input is a [`PlanError`] that [`PlanError::is_usage`], before anything is
//! written); [`Plan::run`] runs them in a work folder and reports every step to a callback.
//!
//! The rules every run keeps:
//! - every level that runs ends in a [`Check`] that passes or fails: a tool that is missing,
//!   fails or times out, or a testbench that stops, fails that level with the reason
//!   ([`CheckResult::NoVerdict`]), and the other levels still run;
//! - a counterexample that cannot be drawn is a note ([`Waveform::NotDrawn`]), not an end;
//! - the run always ends with one [`Event::Verdict`], and a run passes only when at least one
//!   level ran and applied and every one passed ([`Verdict::passed`]);
//! - a level that does not apply to the target is never counted: asked for alone it is
//!   refused, asked for with others it is reported as skipped with the reason.
//!
//! | design | levels that apply | how |
//! |---|---|---|
//! | jr01, a `--dut` strategy | 1 (own only), 2, 3, 4, 5, 7 | [`table`]: vectors, a SAT proof, netlist equivalence |
//! | sticks | 1-5, 7 on each lookup; 1-4, 6, 7 on the controller | [`table`], [`controller`]: co-simulation, properties, equivalence |
//! | a `--dut` controller | 2, 3, 4, 6, 7 | [`controller`] |
//! | solver | 1-5, 7 | [`solver`] |
//! | heaps-solver | 1-5, 7 on the solver; 6 on the heap-game controller | [`heaps`] |
//! | mutants | 2, 3, 4, 5 (strategies), 2, 3, 4, 6 (controller) | [`mutants`] |
//! | a board design's bitstream | 8 | [`crate::bench::bitstream`] |

pub mod bitstream;
pub mod controller;
pub mod document;
pub mod event;
pub mod heaps;
pub mod mutants;
pub mod solver;
pub mod table;

use std::path::{Path, PathBuf};

pub use document::Document;
pub use event::{Check, CheckResult, Event, MutantResult, Section, Verdict, Waveform};

use super::dut::{Contract, Dut, DutError};
use super::level::Level;
use super::CombDesign;
use crate::bench::jr01::Jr01Design;
use crate::circuit::sticks_game::sticks_game_verilog;
use crate::circuit::sticks_strategy::Impl;
use crate::game::SticksGame;
use crate::solver::strategy::sticks_table;

/// The think time `verify sticks` co-simulates when none is given: short games.
pub const DEFAULT_THINK_CYCLES: u32 = 2;

/// The longest think time `verify sticks` co-simulates (its games grow with it).
pub const MAX_THINK_CYCLES: u32 = 1000;

/// A stick game and its circuit's choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SticksDesign {
    /// The game.
    pub game: SticksGame,
    /// The lookup inside the controller (`None`: both, the logic one in the controller).
    pub implementation: Option<Impl>,
    /// Cycles the machine thinks.
    pub think_cycles: u32,
}

/// What is verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Design {
    /// The J.R. 01 strategy.
    Jr01,
    /// A stick game's lookup and controller.
    Sticks(SticksDesign),
    /// The on-chip solver of the given size.
    Solver {
        /// Largest count.
        max_count: u64,
        /// Largest take.
        max_take: u64,
    },
    /// The on-chip heap solver of the given size.
    HeapsSolver {
        /// Largest target.
        max_target: u64,
        /// Largest addition.
        max_add: u64,
        /// Number of multiplications.
        max_mul: u64,
    },
    /// A board design's bitstream (`verify bitstream`).
    Bitstream(Box<crate::bench::bitstream::BitstreamTarget>),
}

impl Design {
    /// `jr01`, `sticks`, `solver`, `heaps-solver` or `bitstream`.
    pub fn name(&self) -> &'static str {
        match self {
            Design::Jr01 => "jr01",
            Design::Sticks(_) => "sticks",
            Design::Solver { .. } => "solver",
            Design::HeapsSolver { .. } => "heaps-solver",
            Design::Bitstream(_) => "bitstream",
        }
    }
}

/// Whose Verilog is verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// retrogate's own.
    Own,
    /// A user's file, against the design's port contract.
    Dut {
        /// The file.
        path: PathBuf,
        /// Its top module (`None`: the file's only top).
        top: Option<String>,
        /// Accept a bounded check of a controller's properties when no proof closes.
        allow_bounded: bool,
    },
    /// Mutants of the emitted Verilog, to measure the bench.
    Mutants {
        /// Mutants per design.
        n: usize,
        /// The shuffle's seed.
        seed: u64,
    },
}

/// A `verify` command, before validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// What.
    pub design: Design,
    /// Whose.
    pub mode: Mode,
    /// The levels asked for; empty: every level that applies.
    pub levels: Vec<Level>,
}

/// Why a request cannot run.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Bad input: the message names the flag and the fix.
    #[error("{0}")]
    Usage(String),
    /// The `--dut` file cannot be benched.
    #[error(transparent)]
    Dut(Box<DutError>),
    /// The design could not be built (a bug, or a tool failure while reading the input).
    #[error("{0}")]
    Setup(String),
}

impl PlanError {
    /// True when the error is the user's input (exit 2).
    pub fn is_usage(&self) -> bool {
        match self {
            PlanError::Usage(_) => true,
            PlanError::Dut(e) => e.is_usage(),
            PlanError::Setup(_) => false,
        }
    }
}

impl From<DutError> for PlanError {
    fn from(e: DutError) -> Self {
        PlanError::Dut(Box::new(e))
    }
}

/// The levels that run, and the ones asked for that are skipped, with the reason.
type Chosen = (Vec<Level>, Vec<(Level, String)>);

fn setup<E: std::fmt::Display>(e: E) -> PlanError {
    PlanError::Setup(e.to_string())
}

/// A user's file, read and checked against its contract.
#[derive(Clone, Debug)]
pub struct DutFile {
    /// The file, read.
    pub dut: Dut,
    /// The contract it implements.
    pub contract: Contract,
    /// Accept a bounded check of a controller's properties.
    pub allow_bounded: bool,
}

/// What a plan checks, prepared.
enum Work {
    Jr01(Box<Jr01Design>),
    Sticks {
        sticks: SticksDesign,
        impls: Vec<Impl>,
    },
    Solver {
        max_count: u64,
        max_take: u64,
    },
    HeapsSolver {
        max_target: u64,
        max_add: u64,
        max_mul: u64,
    },
    /// A user's strategy (jr01, or a stick game's lookup) against its table.
    DutTable {
        file: Box<DutFile>,
        design: Box<CombDesign>,
        sticks: Option<SticksDesign>,
    },
    /// A user's controller.
    DutController {
        file: Box<DutFile>,
        sticks: SticksDesign,
    },
    Mutants(Box<mutants::MutantPlan>),
    Bitstream(Box<crate::bench::bitstream::BitstreamTarget>),
}

/// A validated request: the levels decided, the inputs read, nothing written yet.
pub struct Plan {
    request: Request,
    work: Work,
    /// The levels that run, in order.
    levels: Vec<Level>,
    /// Levels reported as skipped, with the reason.
    skipped: Vec<(Level, String)>,
}

/// The levels of `applicable` that were asked for (all of them when none was), and the asked
/// ones that do not apply, with `why`. `None` when nothing asked for applies.
fn choose(asked: &[Level], applicable: &[Level], why: impl Fn(Level) -> String) -> Option<Chosen> {
    if asked.is_empty() {
        return Some((applicable.to_vec(), Vec::new()));
    }
    let mut asked = asked.to_vec();
    asked.sort();
    asked.dedup();
    let run: Vec<Level> = asked
        .iter()
        .copied()
        .filter(|l| applicable.contains(l))
        .collect();
    if run.is_empty() {
        return None;
    }
    let skipped = asked
        .iter()
        .copied()
        .filter(|l| !applicable.contains(l))
        .map(|l| (l, why(l)))
        .collect();
    Some((run, skipped))
}

fn names(levels: &[Level]) -> String {
    levels
        .iter()
        .map(|l| l.cli_name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn asked_names(asked: &[Level]) -> String {
    let mut asked = asked.to_vec();
    asked.sort();
    asked.dedup();
    names(&asked)
}

/// The levels of a combinational design (its lookup or strategy).
const TABLE_LEVELS: [Level; 6] = [
    Level::RustHdl,
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
    Level::Equivalence,
];

/// The levels of a user's combinational file.
const DUT_TABLE_LEVELS: [Level; 5] = [
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
    Level::Equivalence,
];

/// The levels of a user's controller.
const DUT_CONTROLLER_LEVELS: [Level; 5] = [
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Properties,
    Level::Equivalence,
];

/// Why a level does not apply to a combinational design.
fn not_for_a_strategy(level: Level) -> String {
    match level {
        Level::Properties => {
            "the properties are the sticks_game controller's; a strategy has none".to_owned()
        }
        Level::RustHdl => "not rust-hdl".to_owned(),
        _ => format!("{} does not apply", level.cli_name()),
    }
}

/// Why a level does not apply to a user's controller.
fn not_for_a_controller(level: Level) -> String {
    match level {
        Level::Formal => "the proof covers the combinational strategy, not a controller".to_owned(),
        Level::RustHdl => "not rust-hdl".to_owned(),
        _ => format!("{} does not apply", level.cli_name()),
    }
}

impl SticksDesign {
    /// Checks the game and the think time for a circuit (nothing written).
    fn check(&self) -> Result<(), PlanError> {
        sticks_table(&self.game).map_err(|e| PlanError::Usage(e.to_string()))?;
        if self.think_cycles > MAX_THINK_CYCLES {
            return Err(PlanError::Usage(format!(
                "--think-cycles {}: verify co-simulates every game cycle by cycle, each machine \
                 move lasting the think time, so it takes at most {MAX_THINK_CYCLES}; give a \
                 smaller --think-cycles (the emitted controller's own think time is checked by \
                 the testbench of `emit sticks --sim`)",
                self.think_cycles
            )));
        }
        sticks_game_verilog(&self.game, Impl::Logic, self.think_cycles)
            .map_err(|e| PlanError::Usage(e.to_string()))?;
        Ok(())
    }

    /// The lookups checked: the one `--impl` names, else both.
    fn impls(&self) -> Vec<Impl> {
        match self.implementation {
            Some(i) => vec![i],
            None => vec![Impl::Rom, Impl::Logic],
        }
    }

    /// The lookup inside the controller: the one checked last.
    pub fn controller_impl(&self) -> Impl {
        self.implementation.unwrap_or(Impl::Logic)
    }
}

impl Plan {
    /// Validates `request`: the flags, the levels that apply, and (for `--dut`) the file and
    /// its ports. Writes nothing.
    pub fn new(request: Request) -> Result<Plan, PlanError> {
        let asked = request.levels.clone();
        if asked.contains(&Level::Bitstream) && !matches!(request.design, Design::Bitstream(_)) {
            return Err(PlanError::Usage(format!(
                "--level bitstream: level 8 checks a board design's bitstream; run `retrogate \
                 verify bitstream --board B --design {}`",
                // The board design that holds the heap solver is `heaps`.
                match request.design {
                    Design::HeapsSolver { .. } => "heaps",
                    _ => request.design.name(),
                }
            )));
        }
        let (work, levels, skipped) = match (&request.design, &request.mode) {
            (Design::Bitstream(_), Mode::Dut { .. } | Mode::Mutants { .. }) => {
                return Err(PlanError::Usage(
                    "--dut and --mutants apply to `verify jr01` and `verify sticks`; `verify \
                     bitstream` checks a bitstream (give another with --bin FILE): drop them"
                        .into(),
                ))
            }
            (Design::Bitstream(target), Mode::Own) => {
                if let Some(l) = asked.iter().find(|l| **l != Level::Bitstream) {
                    return Err(PlanError::Usage(format!(
                        "--level {}: `verify bitstream` runs level 8 (bitstream) only; drop \
                         --level, or give --level bitstream",
                        l.cli_name()
                    )));
                }
                if let crate::bench::bitstream::BitstreamSource::File(path) = &target.source {
                    crate::bench::bitstream::check_bin(path).map_err(PlanError::Usage)?;
                }
                crate::circuit::top::top_verilog(
                    target.board,
                    &target.design,
                    &crate::circuit::top::Timing::for_design(target.board.board(), &target.design),
                )
                .map_err(|e| PlanError::Usage(e.to_string()))?;
                (
                    Work::Bitstream(target.clone()),
                    vec![Level::Bitstream],
                    Vec::new(),
                )
            }
            (Design::Solver { .. }, Mode::Dut { .. } | Mode::Mutants { .. }) => {
                return Err(PlanError::Usage(
                    "--dut and --mutants apply to `verify jr01` and `verify sticks`; `verify \
                     solver` checks retrogate's own solver circuit: drop them"
                        .into(),
                ))
            }
            (Design::HeapsSolver { .. }, Mode::Dut { .. } | Mode::Mutants { .. }) => {
                return Err(PlanError::Usage(
                    "--dut and --mutants apply to `verify jr01` and `verify sticks`; `verify \
                     heaps-solver` checks retrogate's own heap solver circuit: drop them"
                        .into(),
                ))
            }
            (
                &Design::HeapsSolver {
                    max_target,
                    max_add,
                    max_mul,
                },
                Mode::Own,
            ) => {
                crate::circuit::heaps_solver::check_heaps_size(max_target, max_add, max_mul)
                    .map_err(|e| PlanError::Usage(e.to_string()))?;
                let levels = crate::bench::heaps_solver::HEAPS_LEVELS;
                let (levels, skipped) = choose(&asked, &levels, |l| {
                    format!("`verify heaps-solver` has no level {} yet", l.cli_name())
                })
                .ok_or_else(|| {
                    PlanError::Usage(format!(
                        "--level {}: `verify heaps-solver` runs the levels {}; choose among them",
                        asked_names(&asked),
                        names(&levels)
                    ))
                })?;
                (
                    Work::HeapsSolver {
                        max_target,
                        max_add,
                        max_mul,
                    },
                    levels,
                    skipped,
                )
            }
            (Design::Jr01, Mode::Own) => {
                let (levels, skipped) = choose(&asked, &TABLE_LEVELS, not_for_a_strategy)
                    .ok_or_else(|| {
                        PlanError::Usage(format!(
                            "--level {}: the properties level checks the sticks_game \
                             controller: run it with `verify sticks`, or give jr01 one of its \
                             levels ({})",
                            asked_names(&asked),
                            names(&TABLE_LEVELS)
                        ))
                    })?;
                let jr01 = Jr01Design::build().map_err(setup)?;
                (Work::Jr01(Box::new(jr01)), levels, skipped)
            }
            (Design::Sticks(sticks), Mode::Own) => {
                sticks.check()?;
                let mut levels = asked.clone();
                if levels.is_empty() {
                    levels = Level::ALL[..7].to_vec();
                }
                levels.sort();
                levels.dedup();
                (
                    Work::Sticks {
                        sticks: sticks.clone(),
                        impls: sticks.impls(),
                    },
                    levels,
                    Vec::new(),
                )
            }
            (
                &Design::Solver {
                    max_count,
                    max_take,
                },
                Mode::Own,
            ) => {
                crate::circuit::sticks_solver::check_solver_size(max_count, max_take)
                    .map_err(|e| PlanError::Usage(e.to_string()))?;
                let (levels, skipped) = choose(&asked, &solver::SOLVER_LEVELS, |l| match l {
                    Level::Properties => {
                        "the properties are the sticks_game controller's".to_owned()
                    }
                    _ => format!("`verify solver` has no level {}", l.cli_name()),
                })
                .ok_or_else(|| {
                    PlanError::Usage(format!(
                        "--level {}: `verify solver` runs the levels {}; choose among them",
                        asked_names(&asked),
                        names(&solver::SOLVER_LEVELS)
                    ))
                })?;
                (
                    Work::Solver {
                        max_count,
                        max_take,
                    },
                    levels,
                    skipped,
                )
            }
            (
                design,
                Mode::Dut {
                    path,
                    top,
                    allow_bounded,
                },
            ) => {
                let (work, (levels, skipped)) =
                    Self::for_dut(design, path, top.as_deref(), *allow_bounded, &asked)?;
                (work, levels, skipped)
            }
            (design, &Mode::Mutants { n, seed }) => {
                let plan = mutants::MutantPlan::new(design, n, seed, &asked)?;
                let levels = plan.levels.clone();
                (Work::Mutants(Box::new(plan)), levels, Vec::new())
            }
        };
        Ok(Plan {
            request,
            work,
            levels,
            skipped,
        })
    }

    fn for_dut(
        design: &Design,
        path: &Path,
        top: Option<&str>,
        allow_bounded: bool,
        asked: &[Level],
    ) -> Result<(Work, Chosen), PlanError> {
        if asked.contains(&Level::RustHdl) {
            return Err(PlanError::Usage(
                "--level rust-hdl: a --dut file is Verilog, not a rust-hdl block; choose among \
                 icarus, verilator, gate-level, formal, properties and equivalence"
                    .into(),
            ));
        }
        let (table, sticks) = match design {
            Design::Jr01 => (
                Jr01Design::build().map_err(setup)?.design.table.clone(),
                None,
            ),
            Design::Sticks(s) => {
                s.check()?;
                if s.implementation.is_some() {
                    return Err(PlanError::Usage(
                        "--impl picks retrogate's own lookup; with --dut your file is checked as \
                         it is: drop --impl"
                            .into(),
                    ));
                }
                (sticks_table(&s.game).map_err(setup)?.table, Some(s.clone()))
            }
            Design::Solver { .. } | Design::HeapsSolver { .. } | Design::Bitstream(_) => {
                unreachable!("refused by the caller")
            }
        };
        let dut = Dut::read(path, top)?;
        let contract = match &sticks {
            None => Contract::Jr01,
            Some(s) => {
                let t = sticks_table(&s.game).map_err(setup)?;
                dut.sticks_contract(t.sticks_bits, t.take_bits)
            }
        };
        dut.check(contract)?;
        let file = Box::new(DutFile {
            dut,
            contract,
            allow_bounded,
        });
        if let (Contract::SticksGame { .. }, Some(sticks)) = (contract, sticks.clone()) {
            let (mut levels, skipped) = choose(asked, &DUT_CONTROLLER_LEVELS, not_for_a_controller)
                .ok_or_else(|| {
                    PlanError::Usage(format!(
                        "--level {}: a controller is checked by co-simulation and proof: choose \
                         --level icarus, verilator, gate-level, properties or equivalence",
                        asked_names(asked)
                    ))
                })?;
            let mut skipped = skipped;
            if asked.is_empty() {
                skipped = vec![
                    (Level::RustHdl, not_for_a_controller(Level::RustHdl)),
                    (Level::Formal, not_for_a_controller(Level::Formal)),
                ];
            }
            levels.sort();
            return Ok((Work::DutController { file, sticks }, (levels, skipped)));
        }
        if allow_bounded {
            return Err(PlanError::Usage(
                "--allow-bounded accepts a bounded check of a controller's properties; this \
                 file is a strategy, whose proof is exact: drop --allow-bounded"
                    .into(),
            ));
        }
        let (levels, mut skipped) = choose(asked, &DUT_TABLE_LEVELS, not_for_a_strategy)
            .ok_or_else(|| {
                PlanError::Usage(format!(
                    "--level {}: {} is a strategy ({}), which has no controller properties; \
                     choose among {}",
                    asked_names(asked),
                    file.dut.top,
                    contract.module(),
                    names(&DUT_TABLE_LEVELS)
                ))
            })?;
        if asked.is_empty() {
            skipped = vec![(Level::RustHdl, not_for_a_strategy(Level::RustHdl))];
        }
        let design = Box::new(file.dut.comb_design(contract, table));
        design
            .validate()
            .map_err(|e| PlanError::Usage(e.to_string()))?;
        Ok((
            Work::DutTable {
                file,
                design,
                sticks,
            },
            (levels, skipped),
        ))
    }

    /// The request.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The levels that run, in order.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// The work subfolder this plan claims (`jr01`, `sticks`, `solver`, `jr01-mutants`...).
    pub fn folder(&self) -> String {
        let name = self.request.design.name();
        match (&self.request.mode, &self.request.design) {
            (Mode::Mutants { .. }, _) => format!("{name}-mutants"),
            (_, Design::Bitstream(t)) => format!("bitstream-{}-{}", t.board, t.design.name()),
            _ => name.to_owned(),
        }
    }

    /// The user's file, for `--dut`.
    pub fn dut(&self) -> Option<&DutFile> {
        match &self.work {
            Work::DutTable { file, .. } | Work::DutController { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The stick game verified, if any.
    pub fn game(&self) -> Option<&SticksGame> {
        match &self.request.design {
            Design::Sticks(s) => Some(&s.game),
            _ => None,
        }
    }

    /// Runs the plan in `work` (the claimed work folder), reporting every step to `sink`.
    /// Never fails: every problem is a failed check or a note, and the last event is the
    /// verdict, which is also returned.
    pub fn run(&self, work: &Path, sink: &mut dyn FnMut(&Event<'_>)) -> Verdict {
        let mut run = Run {
            sink,
            ran: 0,
            failed: Vec::new(),
            mutants: None,
        };
        let chosen_all = self.request.levels.is_empty();
        match &self.work {
            Work::Jr01(jr01) => {
                run.section(Section::Table {
                    subject: format!("verify jr01: {}", jr01.design.module),
                    against: "the solver's table",
                    cared: Some(jr01.design.cared_count()),
                    levels: self.levels.clone(),
                });
                self.report_skipped(&mut run);
                let driver = jr01
                    .block()
                    .map(crate::circuit::CombBlock::into_driver)
                    .ok();
                table::run_levels(
                    &mut run,
                    &jr01.design,
                    driver,
                    &self.levels,
                    work,
                    table::Names::plain(&jr01.design.module),
                );
                if chosen_all {
                    table::hardware(&mut run, &jr01.design, work);
                }
            }
            Work::Sticks { sticks, impls } => {
                controller::run_sticks(&mut run, sticks, impls, &self.levels, work);
            }
            &Work::Solver {
                max_count,
                max_take,
            } => solver::run(&mut run, max_count, max_take, &self.levels, work),
            &Work::HeapsSolver {
                max_target,
                max_add,
                max_mul,
            } => heaps::run(&mut run, max_target, max_add, max_mul, &self.levels, work),
            Work::DutTable {
                file,
                design,
                sticks,
            } => {
                let subject = match sticks {
                    None => format!(
                        "verify jr01 --dut {}: module {}",
                        file.dut.path.display(),
                        file.dut.top
                    ),
                    Some(_) => format!(
                        "verify sticks --dut {}: strategy lookup {}",
                        file.dut.path.display(),
                        file.dut.top
                    ),
                };
                run.section(Section::Table {
                    subject,
                    against: if sticks.is_some() {
                        "the solver"
                    } else {
                        "the solver's table"
                    },
                    cared: Some(design.cared_count()),
                    levels: self.levels.clone(),
                });
                self.report_skipped(&mut run);
                let names = if sticks.is_some() {
                    table::Names::prefixed(&design.module, "strategy ")
                } else {
                    table::Names::plain(&design.module)
                };
                table::run_levels(&mut run, design, None, &self.levels, work, names);
            }
            Work::DutController { file, sticks } => {
                controller::run_dut(&mut run, file, sticks, &self.levels, &self.skipped, work);
            }
            Work::Mutants(plan) => mutants::run(&mut run, plan, work),
            Work::Bitstream(target) => bitstream::run(&mut run, target, work),
        }
        let verdict = Verdict {
            design: self.request.design.name(),
            work: work.to_path_buf(),
            ran: run.ran,
            failed: std::mem::take(&mut run.failed),
            mutants: run.mutants,
        };
        run.emit(Event::Verdict(&verdict));
        verdict
    }

    fn report_skipped(&self, run: &mut Run<'_>) {
        for (level, reason) in &self.skipped {
            run.emit(Event::Skipped {
                level: *level,
                reason,
            });
        }
    }
}

/// A run in progress: where events go, and the tally.
pub struct Run<'s> {
    sink: &'s mut dyn FnMut(&Event<'_>),
    ran: usize,
    failed: Vec<String>,
    mutants: Option<super::mutants::Score>,
}

impl Run<'_> {
    fn emit(&mut self, event: Event<'_>) {
        (self.sink)(&event);
    }

    fn section(&mut self, section: Section) {
        self.emit(Event::Section(&section));
    }

    fn started(&mut self, label: &str) {
        self.emit(Event::Started(label));
    }

    fn note(&mut self, text: &str) {
        self.emit(Event::Note(text));
    }

    /// Counts `check` and reports it.
    fn record(&mut self, check: &Check) {
        self.ran += 1;
        if !check.passed() {
            self.failed.push(check.label.clone());
        }
        self.emit(Event::Finished(check));
    }
}

/// `dir/sub` for a level's work (the folder itself is made by the level).
fn level_dir(work: &Path, level: Level) -> Option<PathBuf> {
    level.folder().map(|f| work.join(f))
}
