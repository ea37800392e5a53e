//! The JSON document of a verification run (`verify --format json`), built from the run's
//! events: the serde types below hold the keys docs/json.md lists, once. Fields are in the
//! alphabetical order the document has always printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Check, Event, Mode, Plan};
use crate::bench::mutants::{Fate, Score};
pub use crate::build::record::GameJson;
use crate::flow::runner::{output, Tool};

/// The user's file of `--dut`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DutJson {
    /// The port contract it was checked against: `jr01_strategy`, `sticks_strategy`,
    /// `sticks_game`.
    pub contract: String,
    /// The file, as given.
    pub path: PathBuf,
    /// Its top module.
    pub top: String,
}

/// A check's files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArtifactsJson {
    /// Its work folder, if it has one.
    pub dir: Option<PathBuf>,
    /// The waveform of the first mismatch, if any.
    pub vcd: Option<PathBuf>,
}

/// One check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelJson {
    /// Its files.
    pub artifacts: ArtifactsJson,
    /// Clock cycles simulated, or the slowest solve.
    pub cycles: Option<u64>,
    /// What ran, as the text line says it.
    pub detail: String,
    /// The level, 1 to 8.
    pub level: u8,
    /// The check's name.
    pub name: String,
    /// The verdict.
    pub passed: bool,
    /// Its time.
    pub seconds: f64,
    /// What was checked.
    pub target: String,
    /// Table rows (or solver positions) checked.
    pub vectors: Option<u64>,
}

impl LevelJson {
    /// The keys of `check`.
    pub fn of(check: &Check) -> Self {
        LevelJson {
            artifacts: ArtifactsJson {
                dir: check.dir.clone(),
                vcd: check.vcd(),
            },
            cycles: check.cycles(),
            detail: check.detail(),
            level: check.level.number(),
            name: check.name(),
            passed: check.passed(),
            seconds: check.seconds(),
            target: check.target.clone(),
            vectors: check.vectors(),
        }
    }
}

/// One cover trace of a controller's proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoverJson {
    /// The goal, e.g. `human-wins-human-first`.
    pub goal: String,
    /// Why it was not searched or not reached.
    pub note: Option<String>,
    /// The step it was reached at.
    pub step: Option<usize>,
    /// Its picture.
    pub svg: Option<PathBuf>,
    /// Its trace.
    pub vcd: Option<PathBuf>,
}

/// One mutant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MutantJson {
    /// The level (or engine) that killed it.
    pub by: Option<String>,
    /// What changed, where.
    pub description: String,
    /// The design mutated.
    pub design: String,
    /// The killing mismatch, the proof, or why it survived or did not build.
    pub detail: String,
    /// `killed`, `equivalent`, `survived` or `stillborn`.
    pub fate: &'static str,
    /// Its number.
    pub number: usize,
    /// The mutation operator.
    pub operator: &'static str,
}

/// The fates counted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreJson {
    /// Equivalent mutants.
    pub equivalent: usize,
    /// Killed mutants.
    pub killed: usize,
    /// Killed / (killed + survived), in percent.
    pub percent: f64,
    /// Mutants that did not build.
    pub stillborn: usize,
    /// Surviving mutants.
    pub survived: usize,
}

/// The hardware figures of a run of every level (jr01).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HardwareJson {
    /// The packed bitstream.
    pub bitstream: PathBuf,
    /// `ICESTORM_LC` cells nextpnr used.
    pub cells: Option<usize>,
    /// The longest post-route path.
    pub critical_path_ns: Option<f64>,
    /// Post-route Fmax.
    pub fmax_mhz: Option<f64>,
    /// `SB_LUT4` cells after `synth_ice40`.
    pub luts: usize,
    /// The board and options.
    pub target: String,
}

/// The whole document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Document {
    /// The cover traces of a controller's proof.
    pub covers: Vec<CoverJson>,
    /// `jr01`, `sticks` or `solver`.
    pub design: &'static str,
    /// The user's file, for `--dut`.
    pub dut: Option<DutJson>,
    /// The stick game.
    pub game: Option<GameJson>,
    /// The hardware figures.
    pub hardware: Option<HardwareJson>,
    /// Always `verify`.
    pub kind: &'static str,
    /// Every check that ran, in order.
    pub levels: Vec<LevelJson>,
    /// The mutants, for `--mutants`.
    pub mutants: Option<Vec<MutantJson>>,
    /// Checks that passed.
    pub passed: usize,
    /// Checks that ran: the length of `levels`.
    pub ran: usize,
    /// The fates counted, for `--mutants`.
    pub score: Option<ScoreJson>,
    /// The version line of each tool.
    pub tools: BTreeMap<String, String>,
    /// `pass` or `fail`.
    pub verdict: &'static str,
    /// The work folder.
    pub work: PathBuf,
}

impl Document {
    /// An empty document for `plan`, run in `work`.
    pub fn new(plan: &Plan, work: &Path) -> Self {
        let mutants = matches!(plan.request().mode, Mode::Mutants { .. });
        Document {
            covers: Vec::new(),
            design: plan.request().design.name(),
            dut: plan.dut().map(|f| DutJson {
                contract: f.contract.module().to_owned(),
                path: f.dut.path.clone(),
                top: f.dut.top.clone(),
            }),
            game: plan.game().map(GameJson::of),
            hardware: None,
            kind: "verify",
            levels: Vec::new(),
            mutants: mutants.then(Vec::new),
            passed: 0,
            ran: 0,
            score: None,
            tools: BTreeMap::new(),
            verdict: "fail",
            work: work.to_path_buf(),
        }
    }

    /// Takes in one event of the run.
    pub fn observe(&mut self, event: &Event<'_>) {
        match event {
            Event::Finished(check) => self.levels.push(LevelJson::of(check)),
            Event::Cover(t) => self.covers.push(CoverJson {
                goal: t.goal.name(),
                note: t.note.clone(),
                step: t.step,
                svg: t.svg.clone(),
                vcd: t.vcd.clone(),
            }),
            Event::Hardware(f) => {
                self.hardware = Some(HardwareJson {
                    bitstream: f.bitstream.clone(),
                    cells: f.logic_cells,
                    critical_path_ns: f.critical_path_ns,
                    fmax_mhz: f.fmax_mhz,
                    luts: f.luts,
                    target: f.target.clone(),
                })
            }
            Event::Mutant(m) => {
                self.levels.extend(m.checks.iter().map(LevelJson::of));
                let (fate, by, detail) = match &m.fate {
                    Fate::Killed { by, detail } => ("killed", Some(by.clone()), detail.clone()),
                    Fate::Equivalent { proof } => ("equivalent", None, proof.clone()),
                    Fate::Survived { reason } => ("survived", None, reason.clone()),
                    Fate::Stillborn { error } => ("stillborn", None, error.clone()),
                };
                if let Some(list) = &mut self.mutants {
                    list.push(MutantJson {
                        by,
                        description: m.mutant.description.clone(),
                        design: m.design.clone(),
                        detail,
                        fate,
                        number: m.mutant.number,
                        operator: m.mutant.site.operator.name(),
                    });
                }
            }
            Event::Verdict(v) => {
                self.ran = v.ran;
                self.passed = v.passed_checks();
                self.verdict = if v.passed() { "pass" } else { "fail" };
                self.score = v.mutants.as_ref().map(score_json);
                self.tools = tool_versions();
            }
            Event::Section(_)
            | Event::Skipped { .. }
            | Event::Started(_)
            | Event::Reference(_)
            | Event::Counterexample(_)
            | Event::Note(_)
            | Event::Score { .. } => {}
        }
    }
}

fn score_json(s: &Score) -> ScoreJson {
    ScoreJson {
        equivalent: s.equivalent,
        killed: s.killed,
        percent: s.percent(),
        stillborn: s.stillborn,
        survived: s.survived,
    }
}

/// The version line of each simulator and prover `verify` runs (or why it is unknown).
pub fn tool_versions() -> BTreeMap<String, String> {
    let here = Path::new(".");
    let mut tools = BTreeMap::new();
    for (tool, flag) in [
        (Tool::Iverilog, "-V"),
        (Tool::Verilator, "--version"),
        (Tool::Yosys, "-V"),
    ] {
        let line = match output(tool, here, [flag], None) {
            Ok(o) => format!("{}\n{}", o.stdout, o.stderr)
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
                .to_owned(),
            Err(e) => e.to_string(),
        };
        tools.insert(tool.program().to_owned(), line);
    }
    tools
}
