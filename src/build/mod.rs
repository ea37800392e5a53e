//! The build pipeline, one command from a design to a bitstream: emit the board top and its
//! PCF, synthesise (yosys `synth_ice40`), place and route (nextpnr-ice40 at the design clock),
//! pack (icepack); and program a board (iceprog). It sits above [`crate::circuit`] (which makes
//! the top) and [`crate::flow`] (one runner per tool); [`record`] is the build record it leaves
//! in the folder.
//!
//! ```text
//!   top_verilog ──▶ <top>.v + <top>.pcf ──▶ yosys ──▶ <top>.json
//!        ──▶ nextpnr-ice40 --freq <clock> ──▶ <top>.asc ──▶ icepack ──▶ <top>.bin
//! ```
//!
//! Outputs are written whole or not at all: `out_dir` must be new, empty or
//! one retrogate wrote (see [`crate::output_dir`]), checked before anything
//! is written; everything is built in the sibling directory
//! `<out_dir>.partial` (retrogate's own: a foreign one is refused, never
//! deleted), and only a build that meets timing moves its files into
//! `out_dir`, one rename each, replacing the previous build's files and
//! nothing else. A failed build leaves `out_dir` as it was and
//! `<out_dir>.partial` with the logs of every step that ran. Tools run
//! inside the build directory with relative paths, so the files stay valid
//! after the move.

pub mod record;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::board::{BoardError, BoardId};
use crate::circuit::top::{top_verilog, Design, Timing, TopError, TopVerilog};
use crate::flow::nextpnr::{self, Pins, PnrOptions};
use crate::flow::runner::{self, Tool, ToolError};
use crate::flow::{icepack, yosys};
use crate::output_dir;

/// The largest placer seed: nextpnr-ice40 reads `--seed` as a C `int` (0 and negative seeds it
/// takes too; retrogate's are 0 up).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// The steps of a build, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuildStep {
    /// Build the rust-hdl top, write its Verilog and PCF.
    Emit,
    /// yosys `synth_ice40`.
    Synthesize,
    /// nextpnr-ice40.
    PlaceAndRoute,
    /// icepack.
    Pack,
}

impl BuildStep {
    /// Every step, in order.
    pub const ALL: [BuildStep; 4] = [
        BuildStep::Emit,
        BuildStep::Synthesize,
        BuildStep::PlaceAndRoute,
        BuildStep::Pack,
    ];

    /// The step in a word or two, for people and JSON: `emit`, `synthesis`, `place and route`,
    /// `packing`.
    pub fn name(self) -> &'static str {
        match self {
            BuildStep::Emit => "emit",
            BuildStep::Synthesize => "synthesis",
            BuildStep::PlaceAndRoute => "place and route",
            BuildStep::Pack => "packing",
        }
    }
}

impl fmt::Display for BuildStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BuildStep::Emit => "emit Verilog and PCF",
            BuildStep::Synthesize => "synthesise (yosys synth_ice40)",
            BuildStep::PlaceAndRoute => "place and route (nextpnr-ice40)",
            BuildStep::Pack => "pack the bitstream (icepack)",
        })
    }
}

/// What [`build`] tells its caller as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A step is starting.
    Started(BuildStep),
    /// A step finished in this time.
    Finished(BuildStep, Duration),
}

/// Use of one kind of iCE40 resource, as nextpnr reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Utilisation {
    /// Used.
    pub used: usize,
    /// Available on the device.
    pub available: usize,
}

impl fmt::Display for Utilisation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.used, self.available)
    }
}

/// A finished build.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// The board.
    pub board: BoardId,
    /// The design, as text (e.g. `sticks (18 sticks, take 1,2,3, last loses)`).
    pub design: String,
    /// The design's name (`sticks`, `jr01`).
    pub design_name: String,
    /// The stick game, for the sticks design.
    pub game: Option<record::GameJson>,
    /// The top module, e.g. `sticks_icebreaker`.
    pub module: String,
    /// Where everything is: `out_dir`.
    pub dir: PathBuf,
    /// The top's Verilog, `<module>.v`.
    pub verilog: PathBuf,
    /// The pin constraints, `<module>.pcf`.
    pub pcf: PathBuf,
    /// The bitstream, `<module>.bin`.
    pub bitstream: PathBuf,
    /// yosys's JSON netlist, `<module>.json`.
    pub netlist: PathBuf,
    /// The tools' logs.
    pub logs: Vec<PathBuf>,
    /// Logic cells (`ICESTORM_LC`) used / available.
    pub logic_cells: Utilisation,
    /// Flip-flops after synthesis (every `SB_DFF*` cell).
    pub flip_flops: usize,
    /// `SB_LUT4` cells after synthesis.
    pub luts: usize,
    /// Block RAMs (`ICESTORM_RAM`) used / available.
    pub block_rams: Utilisation,
    /// Post-route maximum frequency of the design clock, MHz.
    pub fmax_mhz: f64,
    /// The design clock, MHz (the `--freq` target): the board clock, or the PLL's output where
    /// the board data gives the design one ([`crate::board::Board::design_clock_mhz`]).
    pub clock_mhz: f64,
    /// nextpnr's placer seed.
    pub seed: u64,
    /// The warnings of yosys and nextpnr, each prefixed with its tool (`yosys: Warning: ...`);
    /// the full logs are in `dir`.
    pub warnings: Vec<String>,
    /// Time of each step.
    pub steps: Vec<(BuildStep, Duration)>,
    /// Time of the whole build.
    pub elapsed: Duration,
    /// The version line of each tool.
    pub tools: std::collections::BTreeMap<String, String>,
    /// SHA-256 of everything the tools read: Verilog, PCF, options, tool versions.
    pub inputs: String,
    /// True when this run found the same inputs built in the folder and reused that build.
    pub reused: bool,
}

impl BuildReport {
    /// Fmax over the board clock (at least 1 for a build that met timing).
    pub fn timing_margin(&self) -> f64 {
        self.fmax_mhz / self.clock_mhz
    }
}

impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} on {}: {}",
            self.design,
            self.board,
            self.bitstream.display()
        )?;
        writeln!(
            f,
            "  logic cells {}, flip-flops {}, LUTs {}, block RAMs {}",
            self.logic_cells, self.flip_flops, self.luts, self.block_rams
        )?;
        writeln!(
            f,
            "  Fmax {:.1} MHz for a {} MHz clock ({:.1}x) at placer seed {}; built in {:.1} s",
            self.fmax_mhz,
            self.clock_mhz,
            self.timing_margin(),
            self.seed,
            self.elapsed.as_secs_f64()
        )?;
        if self.warnings.is_empty() {
            write!(f, "  tool warnings: none")
        } else {
            write!(f, "  tool warnings: {}", self.warnings.len())?;
            for w in &self.warnings {
                write!(f, "\n    {w}")?;
            }
            Ok(())
        }
    }
}

/// Why a build failed. In every case `out_dir` is untouched.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The top could not be built (e.g. a game too large for the controller).
    #[error(transparent)]
    Top(#[from] TopError),
    /// A port of the top has no pin (a bug in the top).
    #[error("cannot constrain the top's ports: {0}")]
    Pins(#[from] BoardError),
    /// A tool failed or is missing (the error names the Debian package).
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// Creating, writing or renaming the output failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// nextpnr did not reach the design clock.
    #[error(
        "timing not met on {board}: Fmax {fmax_mhz:.2} MHz is below the {clock_mhz} MHz design \
         clock; the routed design and its log are in {}", partial.display()
    )]
    TimingNotMet {
        /// The board.
        board: BoardId,
        /// What nextpnr achieved.
        fmax_mhz: f64,
        /// What the design needs (its clock on the board).
        clock_mhz: f64,
        /// The kept build directory.
        partial: PathBuf,
    },
    /// The output folder (or its `.partial` sibling) is not retrogate's, or not a folder.
    #[error(transparent)]
    Output(#[from] crate::output_dir::OutputError),
    /// The placer seed is more than nextpnr-ice40 accepts ([`MAX_SEED`]).
    #[error(
        "--seed {seed}: nextpnr-ice40 takes placer seeds from 0 to {MAX_SEED}; give one of \
         those, e.g. --seed 2"
    )]
    Seed {
        /// The seed asked for.
        seed: u64,
    },
    /// nextpnr reported no Fmax for the clock (the design has no clocked
    /// paths, which a board top always has: a bug).
    #[error("nextpnr-ice40 reported no Fmax for the board clock; see {}", log.display())]
    NoFmax {
        /// The nextpnr log.
        log: PathBuf,
    },
}

fn io<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> BuildError + 'a {
    move |source| BuildError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// `<out_dir>.<suffix>`, next to `out_dir`.
fn sibling(out_dir: &Path, suffix: &str) -> PathBuf {
    let mut name = out_dir
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "build".into());
    name.push(format!(".{suffix}"));
    out_dir.with_file_name(name)
}

/// Build `design` for `board` into `out_dir` (e.g. `build/icebreaker/sticks`),
/// reporting each step to `progress`.
///
/// Writes `<module>.v`, `<module>.pcf`, the yosys netlist and statistics,
/// nextpnr's `<module>.asc`, `<module>.bin` and a log per step (yosys's and
/// nextpnr's full logs; their warnings are also in the report). nextpnr runs
/// with the board's device, package and PCF, `--freq <design clock MHz>` and
/// placer seed `seed`, without `--timing-allow-fail`: a miss is
/// [`BuildError::TimingNotMet`] with the achieved Fmax.
///
/// When `out_dir` holds a build of the same inputs (the same Verilog, PCF, seed, clock and
/// tool versions, by the SHA-256 in its [`record::RECORD`]), no tool runs: the report of that
/// build comes back with [`BuildReport::reused`] set. [`build_with`] can force a rebuild.
pub fn build(
    board: BoardId,
    design: &Design,
    out_dir: &Path,
    seed: u64,
    progress: &mut dyn FnMut(Progress),
) -> Result<BuildReport, BuildError> {
    build_with(
        board,
        design,
        out_dir,
        &BuildOptions { seed, force: false },
        progress,
    )
}

/// Options of [`build_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// nextpnr's placer seed.
    pub seed: u64,
    /// Rebuild even when the folder holds a build of the same inputs.
    pub force: bool,
}

/// [`build`] with its options.
pub fn build_with(
    board: BoardId,
    design: &Design,
    out_dir: &Path,
    options: &BuildOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<BuildReport, BuildError> {
    build_for_clock(
        board,
        design,
        out_dir,
        options,
        progress,
        board.board().design_clock_mhz(design.name()),
    )
}

/// [`build`] with `clock_mhz` as the timing target instead of the board
/// clock (tests use it to force a timing failure).
fn build_for_clock(
    board: BoardId,
    design: &Design,
    out_dir: &Path,
    options: &BuildOptions,
    progress: &mut dyn FnMut(Progress),
    clock_mhz: f64,
) -> Result<BuildReport, BuildError> {
    let seed = options.seed;
    if seed > MAX_SEED {
        return Err(BuildError::Seed { seed });
    }
    let started = Instant::now();
    // The tools run inside the build directory: give them absolute paths.
    let out_dir = &std::path::absolute(out_dir).map_err(io("resolving", out_dir))?;
    let data = board.board();
    // Everything that can be refused is checked before the disk is touched.
    let top: TopVerilog = top_verilog(board, design, &Timing::for_design(data, design))?;
    let pcf_text = top.pcf()?;
    output_dir::check_folder("--out", out_dir)?;
    let tools = record::tool_versions()?;
    let mapping = crate::circuit::top::synth_mapping(design);
    let inputs = inputs_hash(&top, &pcf_text, seed, clock_mhz, mapping, &tools);
    if !options.force {
        if let Some(previous) = reusable(out_dir, &inputs) {
            return Ok(previous);
        }
    }
    let partial = sibling(out_dir, "partial");
    output_dir::check_scratch("--out", &partial)?;
    output_dir::create_scratch(&partial)?;
    let scratch = crate::interrupt::temp_folder(&partial);

    let mut steps = Vec::new();
    let mut step = |s: BuildStep, t: Instant, progress: &mut dyn FnMut(Progress)| {
        let d = t.elapsed();
        steps.push((s, d));
        progress(Progress::Finished(s, d));
    };

    // Emit.
    let t = Instant::now();
    progress(Progress::Started(BuildStep::Emit));
    let verilog_name = format!("{}.v", top.module);
    let pcf_name = format!("{}.pcf", top.module);
    for (name, text) in [(&verilog_name, &top.verilog), (&pcf_name, &pcf_text)] {
        let path = partial.join(name);
        std::fs::write(&path, text).map_err(io("writing", &path))?;
    }
    step(BuildStep::Emit, t, progress);

    // Synthesise.
    let t = Instant::now();
    progress(Progress::Started(BuildStep::Synthesize));
    let synth = yosys::synth_ice40_with(
        &partial,
        &[PathBuf::from(&verilog_name)],
        &top.module,
        mapping,
    )?;
    step(BuildStep::Synthesize, t, progress);

    // Place and route.
    let t = Instant::now();
    progress(Progress::Started(BuildStep::PlaceAndRoute));
    let mut options = PnrOptions::for_board(data, Pins::Pcf(PathBuf::from(&pcf_name)));
    options.freq_mhz = clock_mhz;
    options.seed = seed;
    let json = PathBuf::from(format!("{}.json", top.module));
    let pnr = nextpnr::place_and_route(&partial, &json, &options, &top.module)?;
    step(BuildStep::PlaceAndRoute, t, progress);
    let log_text = &pnr.output;
    // The design's clock net: the PLL's output where the board data gives the design a PLL.
    let clock_net = if data.pll(design.name()).is_some() {
        crate::circuit::top::PLL_CLOCK
    } else {
        data.clock.pin
    };
    let fmax_mhz = clock_fmax(log_text, clock_net)
        .or(pnr.fmax_mhz)
        .ok_or_else(|| BuildError::NoFmax {
            log: pnr.log.clone().unwrap_or_default(),
        })?;
    if pnr.timing_failed || fmax_mhz < clock_mhz {
        return Err(BuildError::TimingNotMet {
            board,
            fmax_mhz,
            clock_mhz,
            partial,
        });
    }
    let logic_cells = utilisation(log_text, "ICESTORM_LC").unwrap_or(Utilisation {
        used: pnr.logic_cells.unwrap_or(0),
        available: 0,
    });
    let block_rams = utilisation(log_text, "ICESTORM_RAM").unwrap_or(Utilisation {
        used: synth.stats.ram40_4k,
        available: 0,
    });

    // Pack.
    let t = Instant::now();
    progress(Progress::Started(BuildStep::Pack));
    let bin_name = format!("{}.bin", top.module);
    icepack::pack(
        &partial,
        Path::new(&format!("{}.asc", top.module)),
        &bin_name,
    )?;
    step(BuildStep::Pack, t, progress);

    let mut logs: Vec<PathBuf> = std::fs::read_dir(&partial)
        .map_err(io("reading", &partial))?
        .filter_map(|e| e.ok())
        .map(|e| PathBuf::from(e.file_name()))
        .filter(|n| n.extension().is_some_and(|x| x == "log"))
        .map(|n| out_dir.join(n))
        .collect();
    logs.sort();
    let report = BuildReport {
        board,
        design: design.to_string(),
        design_name: design.name().to_owned(),
        game: match design {
            // The solver's and the heap game's games are set on the board, not at build time.
            Design::Jr01 | Design::Solver | Design::Heaps => None,
            Design::Sticks(g) => Some(record::GameJson::of(g)),
        },
        module: top.module.clone(),
        dir: out_dir.to_path_buf(),
        verilog: out_dir.join(&verilog_name),
        pcf: out_dir.join(&pcf_name),
        bitstream: out_dir.join(&bin_name),
        netlist: out_dir.join(format!("{}.json", top.module)),
        logs,
        logic_cells,
        flip_flops: synth.stats.dff,
        luts: synth.stats.lut4,
        block_rams,
        fmax_mhz,
        clock_mhz,
        seed,
        warnings: tool_warnings(&synth.warnings, &pnr.warnings),
        steps,
        elapsed: started.elapsed(),
        tools,
        inputs,
        reused: false,
    };
    let record_path = partial.join(record::RECORD);
    std::fs::write(&record_path, record::record_text(&report))
        .map_err(io("writing", &record_path))?;
    crate::interrupt::critical(|| output_dir::move_into(&partial, out_dir))?;
    drop(scratch);
    Ok(report)
}

/// SHA-256 of what the tools read: retrogate's version (its flow scripts), the board, the top's
/// Verilog and PCF, the placer seed, the clock target, the LUT mapping and the tool versions.
fn inputs_hash(
    top: &TopVerilog,
    pcf: &str,
    seed: u64,
    clock_mhz: f64,
    mapping: yosys::Mapping,
    tools: &std::collections::BTreeMap<String, String>,
) -> String {
    let mapping = match mapping {
        yosys::Mapping::Abc9 => "abc9",
        yosys::Mapping::Default => "default",
        yosys::Mapping::Area => "area",
    };
    let options = format!(
        "retrogate {}\nmodule {}\nseed {seed}\nclock {clock_mhz}\nmapping {mapping}\n",
        env!("CARGO_PKG_VERSION"),
        top.module
    );
    let tools: String = tools.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    crate::flow::hash_parts([
        options.as_bytes(),
        top.verilog.as_bytes(),
        pcf.as_bytes(),
        tools.as_bytes(),
    ])
}

/// The previous build in `out_dir` when its inputs hash to `inputs` and its files are all
/// there and retrogate's.
fn reusable(out_dir: &Path, inputs: &str) -> Option<BuildReport> {
    let json = record::read(out_dir).ok()?;
    if json.inputs != inputs {
        return None;
    }
    let listed = output_dir::manifest(out_dir).ok()?;
    let a = &json.artifacts;
    let files = [&a.verilog, &a.pcf, &a.netlist, &a.bitstream];
    let all_there = files.iter().all(|p| {
        p.is_file()
            && p.parent() == Some(out_dir)
            && p.file_name()
                .is_some_and(|n| listed.contains(&*n.to_string_lossy()))
    });
    if !all_there {
        return None;
    }
    let mut report = json.report().ok()?;
    report.reused = true;
    Some(report)
}

/// yosys's then nextpnr's warnings, each prefixed with its tool.
fn tool_warnings(yosys: &[String], nextpnr: &[String]) -> Vec<String> {
    let tagged = |tool: &str, lines: &[String]| -> Vec<String> {
        lines.iter().map(|w| format!("{tool}: {w}")).collect()
    };
    [tagged("yosys", yosys), tagged("nextpnr-ice40", nextpnr)].concat()
}

/// Fmax of the clock net driven by the port `clock` in a nextpnr log (the
/// post-route report); nextpnr names the net after the port, e.g.
/// `CLK$SB_IO_IN_$glb_clk`.
fn clock_fmax(log: &str, clock: &str) -> Option<f64> {
    let post_route = log.rfind("Routing complete").map_or(log, |at| &log[at..]);
    post_route.lines().find_map(|line| {
        let rest = line.split("Max frequency for clock '").nth(1)?;
        let (net, rest) = rest.split_once("': ")?;
        let port = net.split('$').next()?;
        (port == clock).then(|| rest.split_whitespace().next()?.parse().ok())?
    })
}

/// `KIND: used/ available` from nextpnr's device utilisation report.
fn utilisation(log: &str, kind: &str) -> Option<Utilisation> {
    log.lines().find_map(|line| {
        let rest = line.split(&format!("{kind}:")).nth(1)?;
        let mut numbers = rest.split('/');
        let used = numbers.next()?.trim().parse().ok()?;
        let available = numbers.next()?.split_whitespace().next()?.parse().ok()?;
        Some(Utilisation { used, available })
    })
}

/// Why programming a board failed.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// The bitstream is not there.
    #[error(
        "no bitstream at {}: build it first with `retrogate build`, or give an existing one with \
         --bin FILE",
        path.display()
    )]
    NoBitstream {
        /// The path given.
        path: PathBuf,
    },
    /// iceprog ran but found no board on USB.
    #[error(
        "no board answered: iceprog found no iCE FTDI USB device. Plug the board in (`lsusb` \
         should list 0403:6010 or 0403:6014); if it is listed, give your user access to it (a \
         udev rule, or run as root), then try again. iceprog said:\n{tail}"
    )]
    NoBoard {
        /// iceprog's last lines.
        tail: String,
    },
    /// iceprog is missing or failed otherwise.
    #[error(transparent)]
    Tool(#[from] ToolError),
}

/// The command [`program`] runs for `bitstream`: `iceprog <bitstream>`.
pub fn program_command(bitstream: &Path) -> Vec<std::ffi::OsString> {
    vec![
        Tool::Iceprog.program().into(),
        bitstream.as_os_str().to_owned(),
    ]
}

/// Program a board with `bitstream` (`iceprog <bitstream>`; Debian package
/// `fpga-icestorm`). A missing bitstream, board or tool is an error saying
/// what to do.
pub fn program(bitstream: &Path) -> Result<(), ProgramError> {
    if !bitstream.is_file() {
        return Err(ProgramError::NoBitstream {
            path: bitstream.to_path_buf(),
        });
    }
    let args = program_command(bitstream);
    match runner::run(Tool::Iceprog, Path::new("."), &args[1..], None) {
        Ok(_) => Ok(()),
        Err(ToolError::Failed { tail, .. }) if tail.contains("find iCE FTDI USB device") => {
            Err(ProgramError::NoBoard { tail })
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNR_LOG: &str = "Info: Device utilisation:\n\
        Info: \t         ICESTORM_LC:   226/ 5280     4%\n\
        Info: \t        ICESTORM_RAM:     0/   30     0%\n\
        Info: Max frequency for clock 'CLK$SB_IO_IN_$glb_clk': 50.00 MHz (PASS at 12.00 MHz)\n\
        Info: Routing complete.\n\
        Info: Max frequency for clock 'CLK$SB_IO_IN_$glb_clk': 71.55 MHz (PASS at 12.00 MHz)\n\
        Info: Max frequency for clock 'other_$glb_clk': 20.00 MHz (PASS at 12.00 MHz)\n";

    #[test]
    fn reads_the_board_clock_fmax_after_routing() {
        assert_eq!(clock_fmax(PNR_LOG, "CLK"), Some(71.55));
        assert_eq!(clock_fmax(PNR_LOG, "clk"), None);
    }

    #[test]
    fn reads_utilisation() {
        assert_eq!(
            utilisation(PNR_LOG, "ICESTORM_LC"),
            Some(Utilisation {
                used: 226,
                available: 5280
            })
        );
        assert_eq!(
            utilisation(PNR_LOG, "ICESTORM_RAM"),
            Some(Utilisation {
                used: 0,
                available: 30
            })
        );
    }

    #[test]
    fn siblings() {
        assert_eq!(
            sibling(Path::new("build/icebreaker/sticks"), "partial"),
            Path::new("build/icebreaker/sticks.partial")
        );
    }

    /// A seed nextpnr-ice40 would refuse fails before anything is written.
    #[test]
    fn a_seed_past_what_nextpnr_takes_fails_early() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        let err = build(
            BoardId::Icebreaker,
            &Design::Jr01,
            &out,
            MAX_SEED + 1,
            &mut |_| {},
        )
        .unwrap_err();
        assert!(
            matches!(err, BuildError::Seed { seed } if seed == 1 << 31),
            "{err}"
        );
        assert!(err.to_string().contains("0 to 2147483647"), "{err}");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }

    /// A game too large for the controller fails before any tool runs and
    /// leaves nothing behind (no output folder, no partial folder).
    #[test]
    fn unsupported_game_fails_early() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("big");
        let game = crate::game::SticksGame::new(300, &[1, 2], crate::game::Last::Loses).unwrap();
        let err = build(
            BoardId::Icebreaker,
            &Design::Sticks(game),
            &out,
            1,
            &mut |_| {},
        )
        .unwrap_err();
        assert!(
            matches!(err, BuildError::Top(TopError::UnsupportedGame { .. })),
            "{err}"
        );
        assert!(!out.exists());
        assert!(!sibling(&out, "partial").exists());
    }

    #[test]
    fn program_needs_a_bitstream() {
        let err = program(Path::new("/nonexistent/top.bin")).unwrap_err();
        assert!(matches!(err, ProgramError::NoBitstream { .. }), "{err}");
        assert!(err.to_string().contains("retrogate build"), "{err}");
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::game::{Last, SticksGame};

    /// One row of the figures table printed by the build tests.
    fn figures(r: &BuildReport) -> String {
        format!(
            "| {} | {} | {} | {} | {} | {:.1} / {} MHz | {:.1} s |",
            r.board,
            r.module,
            r.logic_cells,
            r.flip_flops,
            r.block_rams,
            r.fmax_mhz,
            r.clock_mhz,
            r.elapsed.as_secs_f64()
        )
    }

    fn build_ok(board: BoardId, design: &Design, root: &Path) -> BuildReport {
        let out = root.join(board.as_str()).join(design.name());
        let mut seen = Vec::new();
        let report = build(board, design, &out, 1, &mut |p| seen.push(p))
            .unwrap_or_else(|e| panic!("{board} {}: {e}", design.name()));
        let finished: Vec<BuildStep> = seen
            .iter()
            .filter_map(|p| match p {
                Progress::Finished(s, _) => Some(*s),
                Progress::Started(_) => None,
            })
            .collect();
        assert_eq!(finished, BuildStep::ALL);
        assert!(report.fmax_mhz >= report.clock_mhz, "{report}");
        assert!(report.bitstream.is_file() && report.pcf.is_file() && report.verilog.is_file());
        assert!(!sibling(&out, "partial").exists(), "partial renamed away");
        let size = std::fs::metadata(&report.bitstream).unwrap().len();
        assert!(size > 30_000, "a whole iCE40 bitstream: {size} bytes");
        assert_eq!(report.block_rams.used, 0);
        assert!(
            report.logic_cells.used > 20 && report.logic_cells.used < report.logic_cells.available
        );
        eprintln!("{}", figures(&report));
        report
    }

    /// Every board, both designs (default game), plus the 20-stick game on
    /// the iCEBreaker: synthesised, placed and routed at the board clock
    /// with timing met, and packed.
    #[test]
    fn every_board_builds_both_designs() {
        let root = crate::flow::testing::work_dir("build-all");
        eprintln!("| board | top | logic cells | FFs | BRAM | Fmax / clock | time |");
        for board in BoardId::ALL {
            for design in [Design::Jr01, Design::sticks()] {
                build_ok(board, &design, root.path());
            }
        }
        let twenty = SticksGame::new(20, &[1, 2, 3], Last::Loses).unwrap();
        let r = build_ok(
            BoardId::Icebreaker,
            &Design::Sticks(twenty),
            &root.path().join("twenty"),
        );
        assert!(r.design.contains("20 sticks"));
    }

    /// A rebuild replaces the previous output; a file retrogate did not write in the output
    /// folder, or a `.partial` sibling it did not make, is refused and kept, before any tool
    /// runs.
    #[test]
    fn rebuild_replaces_and_foreign_files_are_refused() {
        use crate::output_dir::OutputError;
        let root = crate::flow::testing::work_dir("build-replace");
        let out = root.path().join("jr01");
        let first = build(BoardId::Icestick, &Design::Jr01, &out, 1, &mut |_| {}).unwrap();
        let second = build(BoardId::Icestick, &Design::Jr01, &out, 1, &mut |_| {}).unwrap();
        assert_eq!(first.bitstream, second.bitstream);
        assert!(second.bitstream.is_file());
        assert!(!sibling(&out, "partial").exists());
        std::fs::write(out.join("marker"), "mine").unwrap();
        let mut steps = 0;
        let err = build(BoardId::Icestick, &Design::Jr01, &out, 1, &mut |_| {
            steps += 1
        })
        .unwrap_err();
        assert!(
            matches!(&err, BuildError::Output(OutputError::Foreign { first, .. }) if first.ends_with("marker")),
            "{err}"
        );
        assert_eq!(steps, 0, "refused before any step");
        assert_eq!(std::fs::read_to_string(out.join("marker")).unwrap(), "mine");
        assert!(!sibling(&out, "partial").exists());
        // A `.partial` that is not retrogate's.
        let blocked = root.path().join("blocked");
        std::fs::write(sibling(&blocked, "partial"), "a file, not a directory").unwrap();
        let err = build(BoardId::Icestick, &Design::Jr01, &blocked, 1, &mut |_| {}).unwrap_err();
        assert!(
            matches!(err, BuildError::Output(OutputError::Foreign { .. })),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(sibling(&blocked, "partial")).unwrap(),
            "a file, not a directory"
        );
        assert!(!blocked.exists());
    }

    /// A build that misses its clock is an error naming the Fmax; the
    /// previous output stays and the routed attempt is kept beside it.
    #[test]
    fn missed_timing_is_an_error_and_keeps_the_old_output() {
        let root = crate::flow::testing::work_dir("build-timing");
        let out = root.path().join("jr01");
        build(BoardId::Icestick, &Design::Jr01, &out, 1, &mut |_| {}).unwrap();
        let err = build_for_clock(
            BoardId::Icestick,
            &Design::Jr01,
            &out,
            &BuildOptions {
                seed: 1,
                force: false,
            },
            &mut |_| {},
            2000.0,
        )
        .unwrap_err();
        match &err {
            BuildError::TimingNotMet {
                fmax_mhz,
                clock_mhz,
                partial,
                ..
            } => {
                assert!(*fmax_mhz > 12.0 && *fmax_mhz < 2000.0);
                assert_eq!(*clock_mhz, 2000.0);
                assert!(partial.join("jr01_icestick_pnr.log").is_file());
            }
            other => panic!("expected TimingNotMet, got {other}"),
        }
        assert!(err.to_string().contains("timing not met"), "{err}");
        assert!(out.join("jr01_icestick.bin").is_file(), "old build kept");
    }

    /// iceprog is invoked: with no board attached it fails, and the error
    /// says so with its output (or names the package if it is not installed).
    #[test]
    fn program_invokes_iceprog() {
        let dir = crate::flow::testing::work_dir("program");
        let bin = dir.path().join("top.bin");
        std::fs::write(&bin, [0u8; 16]).unwrap();
        match program(&bin) {
            Err(e @ ProgramError::NoBoard { .. }) => {
                assert!(e.to_string().contains("Plug the board in"), "{e}");
                assert!(
                    e.to_string().contains("Can't find iCE FTDI USB device"),
                    "{e}"
                );
            }
            other => panic!("expected iceprog to run and find no board: {other:?}"),
        }
    }
}
