//! What a build leaves in its folder besides the files: `retrogate-build.json`, the build's
//! report with the stable keys of `docs/json.md`, and the hash ([`crate::flow::hash_parts`]) of everything that went into the
//! tools (the emitted Verilog and PCF, the options, the tool versions). `retrogate report`
//! reprints it without rebuilding, `retrogate program` finds the bitstream by it, and the next
//! `retrogate build` into the same folder skips synthesis, place and route and packing when the
//! hash is unchanged.
//!
//! In the folder the artifact paths are stored relative to it (the folder may move);
//! [`BuildJson::at`] makes them paths under the folder it was read from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{BuildReport, BuildStep, Utilisation};
use crate::board::BoardId;
use crate::flow::runner::{self, Tool, ToolError};

/// The record's file name in a build folder.
pub const RECORD: &str = "retrogate-build.json";

/// A build's report as JSON (`build --format json`, `report --format json` and the record).
/// Every key is documented in `docs/json.md`; a test keeps the two equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildJson {
    /// Always `"build"`.
    pub kind: String,
    /// The board's `--board` name.
    pub board: String,
    /// The design's `--design` name.
    pub design: String,
    /// The design in words, as the text report shows it.
    pub description: String,
    /// The stick game (`count`, `take`, `last`), or `null` for jr01.
    pub game: Option<GameJson>,
    /// The top module.
    pub module: String,
    /// Logic cells (`ICESTORM_LC`) used and available.
    pub cells: Utilisation,
    /// `SB_LUT4` cells after synthesis.
    pub luts: usize,
    /// Flip-flops after synthesis.
    pub ffs: usize,
    /// Block RAMs used and available.
    pub brams: Utilisation,
    /// Post-route Fmax of the board clock, MHz.
    pub fmax_mhz: f64,
    /// The board clock, MHz.
    pub clock_mhz: f64,
    /// Fmax over the clock.
    pub margin: f64,
    /// nextpnr's placer seed.
    pub seed: u64,
    /// The version line of each tool.
    pub tools: BTreeMap<String, String>,
    /// Each step and its time.
    pub steps: Vec<StepJson>,
    /// Time of the whole build, seconds.
    pub seconds: f64,
    /// yosys's and nextpnr's warnings.
    pub warnings: Vec<String>,
    /// Where the files are.
    pub artifacts: Artifacts,
    /// True when this run reused the folder's previous build (inputs unchanged).
    pub reused: bool,
    /// SHA-256 of the tools' inputs.
    pub inputs: String,
}

/// The stick game of a build, and of a verification run (`verify --format json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameJson {
    /// Sticks at the start.
    pub count: u64,
    /// Amounts a move may take.
    pub take: Vec<u64>,
    /// `wins` or `loses`.
    pub last: String,
}

impl GameJson {
    /// The keys of `game`.
    pub fn of(game: &crate::game::SticksGame) -> Self {
        GameJson {
            count: game.count(),
            take: game.take().to_vec(),
            last: crate::game::Game::last(game).to_string(),
        }
    }
}

/// One build step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepJson {
    /// `emit`, `synthesis`, `place and route` or `packing`.
    pub step: String,
    /// Its time, seconds.
    pub seconds: f64,
}

/// The files of a build.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Artifacts {
    /// The build folder.
    pub dir: PathBuf,
    /// The top's Verilog.
    pub verilog: PathBuf,
    /// The pin constraints.
    pub pcf: PathBuf,
    /// yosys's JSON netlist.
    pub netlist: PathBuf,
    /// The bitstream.
    pub bitstream: PathBuf,
    /// The tools' logs.
    pub logs: Vec<PathBuf>,
}

/// Why a folder's record cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// No record: the folder holds no retrogate build.
    #[error(
        "{} holds no retrogate build (there is no {RECORD} in it): build one with `retrogate \
         build --out {}`, or give the folder of an existing build with --out",
        dir.display(), runner::shell_quote(&dir.display().to_string())
    )]
    Missing {
        /// The folder.
        dir: PathBuf,
    },
    /// The record is there but unreadable.
    #[error("cannot read the build record {}: {problem}; rebuild with `retrogate build --force`", path.display())]
    Unreadable {
        /// The record.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl BuildJson {
    /// The JSON of `report`, with its artifact paths as they are.
    pub fn from_report(report: &BuildReport) -> Self {
        BuildJson {
            kind: "build".into(),
            board: report.board.to_string(),
            design: report.design_name.clone(),
            description: report.design.clone(),
            game: report.game.clone(),
            module: report.module.clone(),
            cells: report.logic_cells,
            luts: report.luts,
            ffs: report.flip_flops,
            brams: report.block_rams,
            fmax_mhz: report.fmax_mhz,
            clock_mhz: report.clock_mhz,
            margin: report.timing_margin(),
            seed: report.seed,
            tools: report.tools.clone(),
            steps: report
                .steps
                .iter()
                .map(|(s, d)| StepJson {
                    step: s.name().into(),
                    seconds: d.as_secs_f64(),
                })
                .collect(),
            seconds: report.elapsed.as_secs_f64(),
            warnings: report.warnings.clone(),
            artifacts: Artifacts {
                dir: report.dir.clone(),
                verilog: report.verilog.clone(),
                pcf: report.pcf.clone(),
                netlist: report.netlist.clone(),
                bitstream: report.bitstream.clone(),
                logs: report.logs.clone(),
            },
            reused: report.reused,
            inputs: report.inputs.clone(),
        }
    }

    /// This record with its artifact paths relative to its folder (as stored).
    fn relative(mut self) -> Self {
        let dir = self.artifacts.dir.clone();
        let strip = |p: &mut PathBuf| {
            if let Ok(rest) = p.strip_prefix(&dir) {
                *p = rest.to_path_buf();
            }
        };
        let a = &mut self.artifacts;
        for p in [&mut a.verilog, &mut a.pcf, &mut a.netlist, &mut a.bitstream] {
            strip(p);
        }
        a.logs.iter_mut().for_each(strip);
        a.dir = PathBuf::from(".");
        self
    }

    /// This record (read from a folder) with its artifact paths under `dir`.
    pub fn at(mut self, dir: &Path) -> Self {
        let a = &mut self.artifacts;
        for p in [&mut a.verilog, &mut a.pcf, &mut a.netlist, &mut a.bitstream] {
            *p = dir.join(&*p);
        }
        for p in &mut a.logs {
            *p = dir.join(&*p);
        }
        a.dir = dir.to_path_buf();
        self
    }

    /// The report this JSON describes (for the text form).
    pub fn report(&self) -> Result<BuildReport, String> {
        let board: BoardId = self.board.parse().map_err(|e| format!("{e}"))?;
        let step = |name: &str| BuildStep::ALL.into_iter().find(|s| s.name() == name);
        let steps = self
            .steps
            .iter()
            .map(|s| {
                step(&s.step)
                    .map(|st| (st, Duration::from_secs_f64(s.seconds.max(0.0))))
                    .ok_or_else(|| format!("unknown step `{}`", s.step))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let a = &self.artifacts;
        Ok(BuildReport {
            board,
            design: self.description.clone(),
            design_name: self.design.clone(),
            game: self.game.clone(),
            module: self.module.clone(),
            dir: a.dir.clone(),
            verilog: a.verilog.clone(),
            pcf: a.pcf.clone(),
            netlist: a.netlist.clone(),
            bitstream: a.bitstream.clone(),
            logs: a.logs.clone(),
            logic_cells: self.cells,
            flip_flops: self.ffs,
            luts: self.luts,
            block_rams: self.brams,
            fmax_mhz: self.fmax_mhz,
            clock_mhz: self.clock_mhz,
            seed: self.seed,
            warnings: self.warnings.clone(),
            steps,
            elapsed: Duration::from_secs_f64(self.seconds.max(0.0)),
            tools: self.tools.clone(),
            inputs: self.inputs.clone(),
            reused: self.reused,
        })
    }
}

/// The record's text for the build folder (paths relative to it).
pub fn record_text(report: &BuildReport) -> String {
    let mut json = BuildJson::from_report(report).relative();
    json.reused = false;
    let mut text = serde_json::to_string_pretty(&json).expect("a record serialises");
    text.push('\n');
    text
}

/// Reads the record of the build folder `dir`, with artifact paths under `dir`.
pub fn read(dir: &Path) -> Result<BuildJson, RecordError> {
    let path = dir.join(RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(RecordError::Missing {
                dir: dir.to_path_buf(),
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(RecordError::Missing {
                dir: dir.to_path_buf(),
            })
        }
        Err(e) => {
            return Err(RecordError::Unreadable {
                path,
                problem: e.to_string(),
            })
        }
    };
    let json: BuildJson = serde_json::from_str(&text).map_err(|e| RecordError::Unreadable {
        path: path.clone(),
        problem: e.to_string(),
    })?;
    Ok(json.at(dir))
}

/// The version line of each tool a build runs: `yosys -V`, `nextpnr-ice40 --version`, and for
/// icepack (which has no version flag) its path and size on PATH.
pub fn tool_versions() -> Result<BTreeMap<String, String>, ToolError> {
    let here = Path::new(".");
    let first_line = |out: &runner::ToolOutput| {
        format!("{}\n{}", out.stdout, out.stderr)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    };
    let mut tools = BTreeMap::new();
    let yosys = runner::output(Tool::Yosys, here, ["-V"], None)?;
    tools.insert("yosys".to_owned(), first_line(&yosys));
    let nextpnr = runner::output(Tool::NextpnrIce40, here, ["--version"], None)?;
    tools.insert("nextpnr-ice40".to_owned(), first_line(&nextpnr));
    let icepack = runner::on_path(Tool::Icepack.program()).ok_or(ToolError::Missing {
        tool: Tool::Icepack.program(),
        package: Tool::Icepack.package(),
    })?;
    let size = std::fs::metadata(&icepack).map(|m| m.len()).unwrap_or(0);
    tools.insert(
        "icepack".to_owned(),
        format!("{} ({size} bytes)", icepack.display()),
    );
    Ok(tools)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_a_record_is_named_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path()).unwrap_err();
        assert!(matches!(err, RecordError::Missing { .. }));
        assert!(err.to_string().contains("retrogate build --out"), "{err}");
    }
}
