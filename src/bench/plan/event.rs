//! What a verification run tells its caller as it goes: [`Event`]s, each check's result
//! ([`Check`]), the counterexample waveforms it draws ([`Waveform`]), the headers of its
//! groups of checks ([`Section`]) and the final [`Verdict`]. The text forms (`Display`) are the
//! lines `retrogate verify` prints; the JSON document is built from the same events
//! ([`super::document`]).

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::bench::counterexample::Counterexample;
use crate::bench::figures::HardwareFigures;
use crate::bench::level::{level_list, Level};
use crate::bench::mutants::{Fate, Mutant, Score};
use crate::bench::properties::CoverTrace;
use crate::bench::report::LevelReport;
use crate::bench::sequential::{Engine, EngineReport};
use crate::bench::solver::SolverLevelReport;

/// One thing that happened in a run, in order.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A group of checks begins.
    Section(&'a Section),
    /// A level the target does not have (not counted): printed when every level was asked for.
    Skipped {
        /// The level.
        level: Level,
        /// Why it does not apply.
        reason: &'a str,
    },
    /// Work is starting (a label for a progress display).
    Started(&'a str),
    /// The co-simulation's reference model ran (the answer the engines are compared with; not
    /// a level).
    Reference(&'a EngineReport),
    /// A level finished on a target: PASS or FAIL, with the reason.
    Finished(&'a Check),
    /// The counterexample of the check just finished, drawn (or why it could not be).
    Counterexample(&'a Waveform),
    /// A cover trace of the controller's proof.
    Cover(&'a CoverTrace),
    /// Something worth saying that is not a check (figures that could not be measured...).
    Note(&'a str),
    /// The hardware figures of the design (jr01 with every level).
    Hardware(&'a HardwareFigures),
    /// What became of one mutant.
    Mutant(&'a MutantResult),
    /// The mutants of one design, counted.
    Score {
        /// The design mutated.
        name: &'a str,
        /// Its mutants' fates.
        score: &'a Score,
    },
    /// The end: always the last event.
    Verdict(&'a Verdict),
}

/// The header of a group of checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// A combinational design against its table: `{subject} against {against} (N cared-for
    /// inputs): levels ...`.
    Table {
        /// `verify jr01: jr01_strategy`, `verify sticks_strategy (rom)`, ...
        subject: String,
        /// `the solver's table` or `the solver`.
        against: &'static str,
        /// Cared-for inputs, when the line says them.
        cared: Option<usize>,
        /// The levels that run.
        levels: Vec<Level>,
    },
    /// A controller co-simulated cycle by cycle.
    Cosim {
        /// `verify sticks_game`, `verify sticks --dut F: controller T`.
        subject: String,
        /// `the reference model` (and the solver).
        against: &'static str,
        /// Machine think time.
        think: u32,
        /// The engines that run.
        engines: Vec<Engine>,
    },
    /// A controller's properties and cover traces.
    Proof {
        /// The module proved.
        top: String,
        /// Machine think time.
        think: u32,
    },
    /// One configuration of the on-chip solver.
    SolverCase {
        /// Module name.
        module: &'static str,
        /// Largest count.
        max_count: u64,
        /// Largest take.
        max_take: u64,
        /// Configuration name.
        name: &'static str,
        /// Solves run.
        solves: usize,
        /// Positions checked.
        positions: u64,
    },
    /// One configuration of the on-chip heap solver.
    HeapsCase {
        /// Module name.
        module: &'static str,
        /// Largest target.
        max_target: u64,
        /// Largest addition.
        max_add: u64,
        /// Number of multiplications.
        max_mul: u64,
        /// Configuration name.
        name: &'static str,
        /// Solves run.
        solves: usize,
        /// Positions checked.
        positions: u64,
    },
    /// The on-chip solver's formal level.
    SolverFormal {
        /// Module name.
        module: &'static str,
        /// Largest count of the formal configuration.
        max_count: u64,
        /// Largest take of the formal configuration.
        max_take: u64,
    },
    /// The on-chip solver's netlist equivalence.
    SolverNetlist {
        /// Module name.
        module: &'static str,
        /// Largest count.
        max_count: u64,
        /// Largest take.
        max_take: u64,
    },
    /// The on-chip heap solver's formal check (bounded).
    HeapsFormal {
        /// Module name.
        module: &'static str,
        /// Largest target of the formal configuration.
        max_target: u64,
        /// Largest addition.
        max_add: u64,
        /// Number of multiplications.
        max_mul: u64,
    },
    /// The heap-game controller's safety properties.
    HeapsGameProperties {
        /// Module name.
        module: &'static str,
        /// Largest target of the checked controller.
        max_target: u64,
        /// Largest addition.
        max_add: u64,
        /// Number of multiplications.
        max_mul: u64,
    },
    /// The on-chip heap solver's netlist equivalence.
    HeapsNetlist {
        /// Module name.
        module: &'static str,
        /// Largest target.
        max_target: u64,
        /// Largest addition.
        max_add: u64,
        /// Number of multiplications.
        max_mul: u64,
    },
    /// A board design's bitstream (`verify bitstream`).
    Bitstream {
        /// The design, e.g. `jr01`.
        design: &'static str,
        /// The board.
        board: crate::board::BoardId,
        /// The bitstream, or the build folder it comes from.
        source: String,
    },
    /// A mutant run: what is mutated and which levels judge the mutants.
    Mutants {
        /// `jr01` or `sticks`.
        design: &'static str,
        /// Mutants asked for per design.
        n: usize,
        /// The shuffle's seed.
        seed: u64,
        /// Which levels run on the mutants and why the others do not.
        levels: String,
    },
    /// The mutants of one design.
    MutantGroup {
        /// `jr01_strategy`, `sticks_game (logic lookup)`, ...
        name: String,
        /// Mutants made.
        mutants: usize,
        /// Sites found.
        sites: usize,
    },
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Section::Table {
                subject,
                against,
                cared,
                levels,
            } => {
                write!(f, "{subject} against {against}")?;
                if let Some(n) = cared {
                    write!(f, " ({n} cared-for inputs)")?;
                }
                write!(f, ": {}", level_list(levels))
            }
            Section::Cosim {
                subject,
                against,
                think,
                engines,
            } => write!(
                f,
                "{subject} cycle by cycle against {against} (think {think} cycles): {}",
                engines
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Section::Proof { top, think } => write!(
                f,
                "verify {top} by proof (think {think} cycles): properties, then cover traces"
            ),
            Section::SolverCase {
                module,
                max_count,
                max_take,
                name,
                solves,
                positions,
            } => write!(
                f,
                "verify {module} (C = {max_count}, K = {max_take}, {name}) against the software \
                 solver: {solves} solves, {positions} positions"
            ),
            Section::HeapsCase {
                module,
                max_target,
                max_add,
                max_mul,
                name,
                solves,
                positions,
            } => write!(
                f,
                "verify {module} (T = {max_target}, A = {max_add}, M = {max_mul}, {name}) against \
                 the software solver: {solves} solves, {positions} positions"
            ),
            Section::SolverFormal {
                module,
                max_count,
                max_take,
            } => write!(
                f,
                "verify {module} (C = {max_count}, K = {max_take}) against the software solver's \
                 tables, formally"
            ),
            Section::SolverNetlist {
                module,
                max_count,
                max_take,
            } => write!(
                f,
                "verify {module} (C = {max_count}, K = {max_take}): its synth_ice40 netlist \
                 against its RTL"
            ),
            Section::HeapsFormal {
                module,
                max_target,
                max_add,
                max_mul,
            } => write!(
                f,
                "verify {module} (T = {max_target}, A = {max_add}, M = {max_mul}) against the \
                 software solver's tables, formally (bounded)"
            ),
            Section::HeapsGameProperties {
                module,
                max_target,
                max_add,
                max_mul,
            } => write!(
                f,
                "verify {module} (T = {max_target}, A = {max_add}, M = {max_mul}), the controller \
                 playing the heap solver: its safety properties against the solver's port contract"
            ),
            Section::HeapsNetlist {
                module,
                max_target,
                max_add,
                max_mul,
            } => write!(
                f,
                "verify {module} (T = {max_target}, A = {max_add}, M = {max_mul}): its \
                 synth_ice40 netlist against its RTL"
            ),
            Section::Mutants {
                design,
                n,
                seed,
                levels,
            } => write!(
                f,
                "verify {design} --mutants {n} --seed {seed}: each mutant of the emitted Verilog \
                 through the --dut bench, {levels}"
            ),
            Section::MutantGroup {
                name,
                mutants,
                sites,
            } => write!(f, "{name}: {mutants} mutants of {sites} sites"),
            Section::Bitstream {
                design,
                board,
                source,
            } => write!(
                f,
                "verify bitstream: {design} on {board} ({source}) read back and simulated \
                 through its pins against the RTL top: level 8"
            ),
        }
    }
}

/// One level's result on one target.
#[derive(Clone, Debug)]
pub struct Check {
    /// The level.
    pub level: Level,
    /// What was checked: `jr01_strategy`, `sticks_strategy (rom)`, `sticks_game`,
    /// `sticks_solver (exhaustive)`, a user's module.
    pub target: String,
    /// How the check is named in the list of failures: `strategy rom level 2 (...)`,
    /// `sticks_game icarus`.
    pub label: String,
    /// Printed before the result's line (`sticks_game ` for the controller's netlist
    /// equivalence), else empty.
    pub prefix: String,
    /// The result.
    pub result: CheckResult,
    /// The level's work folder (sources, logs, waveforms), if it has one.
    pub dir: Option<PathBuf>,
}

/// What a level found.
#[derive(Clone, Debug)]
pub enum CheckResult {
    /// A level of a combinational design (or a proof level): vectors, or a proof.
    Table(LevelReport),
    /// A co-simulation engine on a controller.
    Cosim(EngineReport),
    /// A level of the on-chip solver.
    Solver(SolverLevelReport),
    /// Level 8: a bitstream read back and simulated through its pins.
    Bitstream(crate::bench::bitstream::BitstreamReport),
    /// Level 8: the read-back chip against the RTL top by a miter, bounded or unbounded.
    ChipEquivalence(crate::bench::bitstream_equiv::ChipCheck),
    /// The level could not reach a verdict (a tool missing, failing, timing out, a testbench
    /// stopping): it fails, and says why.
    NoVerdict {
        /// How the level's line starts (`level 3 (Verilog under Verilator)`, `verilator`).
        head: String,
        /// Time spent.
        elapsed: Duration,
        /// Why there is no verdict.
        reason: String,
    },
}

impl Check {
    /// The check passed.
    pub fn passed(&self) -> bool {
        match &self.result {
            CheckResult::Table(r) => r.passed,
            CheckResult::Cosim(r) => r.passed(),
            CheckResult::Solver(r) => r.passed(),
            CheckResult::Bitstream(r) => r.passed,
            CheckResult::ChipEquivalence(r) => r.passed,
            CheckResult::NoVerdict { .. } => false,
        }
    }

    /// The check's name as the JSON document gives it: `level 3 (Verilog under Verilator)`,
    /// `sticks_game icarus`, `Icarus (emitted Verilog)`.
    pub fn name(&self) -> String {
        match &self.result {
            CheckResult::Table(r) => r.level.to_string(),
            CheckResult::Cosim(r) => format!("{} {}", self.target, r.engine),
            CheckResult::Solver(r) => r.level_name().to_owned(),
            CheckResult::Bitstream(_) => self.level.to_string(),
            CheckResult::ChipEquivalence(r) => {
                format!("level {} ({})", self.level.number(), r.name())
            }
            CheckResult::NoVerdict { head, .. } => head.clone(),
        }
    }

    /// Wall-clock seconds, tools included.
    pub fn seconds(&self) -> f64 {
        match &self.result {
            CheckResult::Table(r) => r.elapsed.as_secs_f64(),
            CheckResult::Cosim(r) => (r.setup + r.elapsed).as_secs_f64(),
            CheckResult::Solver(r) => r.elapsed.as_secs_f64(),
            CheckResult::Bitstream(r) => r.elapsed.as_secs_f64(),
            CheckResult::ChipEquivalence(r) => r.elapsed.as_secs_f64(),
            CheckResult::NoVerdict { elapsed, .. } => elapsed.as_secs_f64(),
        }
    }

    /// Table rows (or solver positions) checked, when the level checks a table.
    pub fn vectors(&self) -> Option<u64> {
        match &self.result {
            CheckResult::Table(r) => Some(r.vectors as u64),
            CheckResult::Cosim(_) => None,
            CheckResult::Solver(r) => Some(r.positions),
            CheckResult::Bitstream(_)
            | CheckResult::ChipEquivalence(_)
            | CheckResult::NoVerdict { .. } => None,
        }
    }

    /// Clock cycles simulated (the co-simulation) or the slowest solve (the solver).
    pub fn cycles(&self) -> Option<u64> {
        match &self.result {
            CheckResult::Cosim(r) => Some(r.cycles as u64),
            CheckResult::Solver(r) => Some(r.max_cycles),
            CheckResult::Bitstream(r) => Some(r.cycles),
            CheckResult::ChipEquivalence(r) => r.cycles(),
            CheckResult::Table(_) | CheckResult::NoVerdict { .. } => None,
        }
    }

    /// What ran and what it found, in a line.
    pub fn detail(&self) -> String {
        match &self.result {
            CheckResult::Table(r) => r.detail.clone(),
            CheckResult::Cosim(r) => r.detail.clone(),
            CheckResult::Solver(r) => r.failure.clone().unwrap_or_else(|| r.detail.clone()),
            CheckResult::Bitstream(r) => r.detail(),
            CheckResult::ChipEquivalence(r) => r.detail.clone(),
            CheckResult::NoVerdict { reason, .. } => reason.clone(),
        }
    }

    /// The waveform of the first mismatch, if the level wrote one.
    pub fn vcd(&self) -> Option<PathBuf> {
        match &self.result {
            CheckResult::Table(r) => r.mismatch.as_ref().and_then(|m| m.vcd.clone()),
            CheckResult::Cosim(r) => r.mismatch.as_ref().and_then(|m| m.vcd.clone()),
            CheckResult::Bitstream(r) => r.mismatch.as_ref().and_then(|m| m.vcd.clone()),
            CheckResult::ChipEquivalence(r) => r.difference.as_ref().and_then(|d| d.vcd.clone()),
            CheckResult::Solver(_) | CheckResult::NoVerdict { .. } => None,
        }
    }
}

impl fmt::Display for Check {
    /// The level's line as `verify` prints it, then its first mismatch on indented lines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.prefix)?;
        match &self.result {
            CheckResult::Table(r) => {
                write!(f, "{r}")?;
                if let Some(m) = &r.mismatch {
                    write!(
                        f,
                        "\n  first mismatch: input {:0iw$b}: expected {:0ow$b}, actual {}{}",
                        m.input,
                        m.expected,
                        m.actual,
                        m.vcd
                            .as_ref()
                            .map_or(String::new(), |p| format!("; waveform {}", p.display())),
                        iw = m.input_width,
                        ow = m.actual.len()
                    )?;
                }
                Ok(())
            }
            CheckResult::Cosim(r) => {
                write!(f, "{r}")?;
                if let Some(m) = &r.mismatch {
                    write!(
                        f,
                        "\n  first mismatch at cycle {} ({}): {} expected {}, actual {}",
                        m.cycle, m.segment, m.signal, m.expected, m.actual
                    )?;
                }
                Ok(())
            }
            CheckResult::Solver(r) => write!(f, "{r}"),
            CheckResult::Bitstream(r) => write!(f, "{r}"),
            CheckResult::ChipEquivalence(r) => write!(f, "{r}"),
            CheckResult::NoVerdict {
                head,
                elapsed,
                reason,
            } => write!(
                f,
                "{head}: FAIL ({:.2}s) no verdict: {reason}",
                elapsed.as_secs_f64()
            ),
        }
    }
}

/// The counterexample waveform of a failed check.
#[derive(Clone, Debug)]
pub enum Waveform {
    /// A combinational level's: a short trace of the vectors up to the failing one.
    Table(Counterexample),
    /// A controller engine's: the cycles before the failing one, drawn from the engine's VCD.
    Controller {
        /// The picture.
        svg: PathBuf,
        /// The first cycle shown.
        first: u64,
        /// The last cycle shown.
        last: usize,
        /// The engine's waveform.
        vcd: PathBuf,
    },
    /// It could not be drawn; the check's verdict stands, and the other levels still run.
    NotDrawn {
        /// Why.
        reason: String,
    },
}

impl fmt::Display for Waveform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Waveform::Table(cx) => write!(
                f,
                "  first difference: {}\n  counterexample: {} (waveform {})",
                cx.first,
                cx.svg.display(),
                cx.vcd.display()
            ),
            Waveform::Controller {
                svg,
                first,
                last,
                vcd,
            } => write!(
                f,
                "  counterexample: {} (cycles {first} to {last}; waveform {})",
                svg.display(),
                vcd.display()
            ),
            Waveform::NotDrawn { reason } => write!(f, "  counterexample: not drawn: {reason}"),
        }
    }
}

/// One mutant's fate, and the checks that decided it.
#[derive(Clone, Debug)]
pub struct MutantResult {
    /// The design mutated (`jr01_strategy`, `sticks_game (logic lookup)`).
    pub design: String,
    /// The mutant.
    pub mutant: Mutant,
    /// What became of it.
    pub fate: Fate,
    /// Every level run on it.
    pub checks: Vec<Check>,
}

impl fmt::Display for MutantResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fate = match &self.fate {
            Fate::Killed { by, detail } => format!("killed by {by}: {detail}"),
            Fate::Equivalent { proof } => format!("equivalent ({proof})"),
            Fate::Survived { reason } => format!("SURVIVED ({reason})"),
            Fate::Stillborn { error } => format!("did not build ({error})"),
        };
        write!(
            f,
            "  mutant {} ({}) {}: {fate}",
            self.mutant.number,
            self.mutant.site.operator.name(),
            self.mutant.description
        )
    }
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `jr01`, `sticks` or `solver`.
    pub design: &'static str,
    /// The run's work folder.
    pub work: PathBuf,
    /// Checks that ran (for mutants: level runs on mutants).
    pub ran: usize,
    /// The labels of the checks that failed (for mutants: none; see `mutants`).
    pub failed: Vec<String>,
    /// For a mutant run, the fates counted.
    pub mutants: Option<Score>,
}

impl Verdict {
    /// Checks that passed.
    pub fn passed_checks(&self) -> usize {
        self.ran - self.failed.len()
    }

    /// The run passes: at least one check ran and every one passed (for mutants: at least one
    /// mutant was judged, by a failing level or a proof, and none survived).
    pub fn passed(&self) -> bool {
        match &self.mutants {
            Some(score) => score.survived == 0 && score.killed + score.equivalent > 0,
            None => self.ran > 0 && self.failed.is_empty(),
        }
    }

    /// Why the run failed, in a line, or `None` when it passed.
    pub fn failure(&self) -> Option<String> {
        if self.passed() {
            return None;
        }
        Some(match &self.mutants {
            Some(score) if score.survived > 0 => format!(
                "{} mutants survived the bench (see above; their files are in {})",
                score.survived,
                self.work.display()
            ),
            Some(_) => format!(
                "no mutant was judged: every one failed to build or no level could run (see \
                 above; their files are in {})",
                self.work.display()
            ),
            None if self.ran == 0 => format!(
                "no level ran, so nothing was verified (see above; logs in {})",
                self.work.display()
            ),
            None => format!(
                "verification failed at: {} (logs and waveforms in {})",
                self.failed.join(", "),
                self.work.display()
            ),
        })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mutants {
            Some(score) => write!(f, "verify {} --mutants: {score}", self.design),
            None => write!(
                f,
                "verify {}: {} of {} levels pass",
                self.design,
                self.passed_checks(),
                self.ran
            ),
        }
    }
}
