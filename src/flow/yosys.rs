//! yosys: iCE40 synthesis with cell statistics, SAT-based equivalence checking, and the
//! check that a model is not vacuous (no combinational loop, some input satisfies it).
//!
//! Every script goes through [`super::script`] (written and run in the work folder, files
//! named relative to it) and reads Verilog with `read_verilog -sv`, as Icarus (`-g2012`) and
//! Verilator read it, so a design in SystemVerilog (`logic`, `always_comb`) reads the same at
//! every level.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError, ToolOutput};
use super::script::{self, Interpreter};

/// Writes `script` to `dir/<stem>.ys` and runs `yosys -s <stem>.ys` there, its output kept in
/// `<stem>.log` (see [`script::run`]).
pub fn run_script(dir: &Path, stem: &str, script: &str) -> Result<ToolOutput, ToolError> {
    script::run(dir, Interpreter::Yosys, stem, script, None)
}

/// [`run_script`] through the tool cache ([`script::output_cached`]): for the proof steps, whose
/// script and input files decide their result; `outputs` are the files the script writes that
/// a later step reads.
pub fn run_script_cached(
    dir: &Path,
    stem: &str,
    script: &str,
    outputs: &[&str],
) -> Result<ToolOutput, ToolError> {
    script::output_cached(dir, Interpreter::Yosys, stem, script, None, outputs, |_| {
        true
    })?
    .check()
}

/// What `synth_ice40` produced.
#[derive(Clone, Debug)]
pub struct Synthesis {
    /// Gate-level netlist, `write_verilog -noattr` (`<top>_netlist.v`).
    pub netlist_verilog: PathBuf,
    /// JSON netlist for nextpnr (`<top>.json`).
    pub netlist_json: PathBuf,
    /// Cell counts from `stat` after synthesis.
    pub stats: CellStats,
    /// The yosys log (`<top>_synth.log`): the whole log, yosys runs without `-q`.
    pub log: Option<PathBuf>,
    /// yosys's `Warning:` lines, in order.
    pub warnings: Vec<String>,
}

/// Cell counts of a synthesised iCE40 design, from yosys `stat`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellStats {
    /// `SB_LUT4` cells.
    pub lut4: usize,
    /// All flip-flops (`SB_DFF`, `SB_DFFE`, `SB_DFFSR`, ...).
    pub dff: usize,
    /// `SB_CARRY` cells.
    pub carry: usize,
    /// `SB_RAM40_4K` block RAMs.
    pub ram40_4k: usize,
    /// Total number of cells.
    pub total: usize,
    /// Every cell type with its count.
    pub by_type: BTreeMap<String, usize>,
}

impl CellStats {
    /// Parse the output of yosys `stat`. With several modules, the last
    /// module listed (the top after `synth_ice40`'s flattening) counts.
    /// Accepts both the `NAME  COUNT` layout of yosys 0.23 and the
    /// `COUNT  NAME` layout of later releases.
    pub fn parse(text: &str) -> Option<CellStats> {
        let mut stats = None;
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let trimmed = line.trim();
            let Some(total) = number_of_cells(trimmed) else {
                continue;
            };
            let mut current = CellStats {
                total,
                ..CellStats::default()
            };
            for cell_line in lines.by_ref() {
                let words: Vec<&str> = cell_line.split_whitespace().collect();
                let (name, count) = match words.as_slice() {
                    [name, count] if count.parse::<usize>().is_ok() => (*name, *count),
                    [count, name] if count.parse::<usize>().is_ok() => (*name, *count),
                    _ => break,
                };
                let count: usize = count.parse().ok()?;
                current.add(name, count);
            }
            stats = Some(current);
        }
        stats
    }

    fn add(&mut self, name: &str, count: usize) {
        *self.by_type.entry(name.to_owned()).or_default() += count;
        match name {
            "SB_LUT4" => self.lut4 += count,
            "SB_CARRY" => self.carry += count,
            "SB_RAM40_4K" => self.ram40_4k += count,
            _ if name.starts_with("SB_DFF") => self.dff += count,
            _ => {}
        }
    }
}

/// `Number of cells: N` (0.23) or `N cells` (later): the total, if this is
/// such a line.
fn number_of_cells(line: &str) -> Option<usize> {
    if let Some(rest) = line.strip_prefix("Number of cells:") {
        return rest.trim().parse().ok();
    }
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        [count, "cells"] => count.parse().ok(),
        _ => None,
    }
}

/// `read_verilog -sv <name>` for each of `sources`, named relative to `dir` (see
/// [`script::file`]); `flags` go before `-sv` (e.g. `-formal `).
pub(crate) fn read_sources(
    dir: &Path,
    sources: &[PathBuf],
    flags: &str,
) -> Result<String, ToolError> {
    sources
        .iter()
        .map(|s| {
            script::file(Tool::Yosys, dir, s)
                .map(|name| format!("read_verilog {flags}-sv {name}\n"))
        })
        .collect()
}

/// Synthesise `sources` for iCE40 with `synth_ice40 -top <top>` in `dir`.
///
/// Leaves `<top>_synth.ys`, `<top>_synth.log` (yosys's full log: it runs without `-q`),
/// `<top>.json`, `<top>_netlist.v` and `<top>_stat.txt` in `dir`.
pub fn synth_ice40(dir: &Path, sources: &[PathBuf], top: &str) -> Result<Synthesis, ToolError> {
    synth_ice40_with(dir, sources, top, Mapping::Default)
}

/// How `synth_ice40` maps logic to LUTs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    /// yosys's default ABC mapping (used for LUT counts and the bench).
    Default,
    /// The default mapping, with a flip-flop's enable pin used only where at least three
    /// flip-flops share the enable (`-dffe_min_ce_use 3`; a lone enable becomes LUT logic
    /// before its flip-flop): for the bitstreams of designs bound by their size, the heap
    /// game, which it packs in about 30 fewer logic cells on the Go Board and the Alchitry Cu.
    Area,
    /// `-abc9`: timing-driven mapping, used for the other board bitstreams (the Alchitry Cu's
    /// stick game meets 100 MHz with it: 107 MHz against 83 MHz with the default).
    Abc9,
}

/// [`synth_ice40`] with a choice of LUT mapping.
pub fn synth_ice40_with(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    mapping: Mapping,
) -> Result<Synthesis, ToolError> {
    script::module(Tool::Yosys, top)?;
    let flags = match mapping {
        Mapping::Default => "",
        Mapping::Area => " -dffe_min_ce_use 3",
        Mapping::Abc9 => " -abc9",
    };
    let json = format!("{top}.json");
    let netlist = format!("{top}_netlist.v");
    let stat = format!("{top}_stat.txt");
    let script = format!(
        "{reads}synth_ice40{flags} -top {top} -json {json}\nwrite_verilog -noattr {netlist}\ntee -q -o {stat} stat\n",
        reads = read_sources(dir, sources, "")?,
    );
    let stem = format!("{top}_synth");
    // Through the tool cache: the script names every source, so the key holds their contents.
    let out = script::output_cached(
        dir,
        Interpreter::Yosys,
        &stem,
        &script,
        None,
        &[&json, &netlist, &stat],
        |_| true,
    )?
    .check()?;
    let warnings = super::nextpnr::warnings(&format!("{}\n{}", out.stdout, out.stderr));
    let stat_path = dir.join(&stat);
    let stat_text = std::fs::read_to_string(&stat_path).map_err(|err| {
        ToolError::io(
            Tool::Yosys,
            format!("reading {}", stat_path.display()),
            dir,
            err,
        )
    })?;
    let stats = CellStats::parse(&stat_text).ok_or_else(|| {
        out.unexpected(format!("no `Number of cells` in {}", stat_path.display()))
    })?;
    Ok(Synthesis {
        netlist_verilog: dir.join(netlist),
        netlist_json: dir.join(json),
        stats,
        log: out.log,
        warnings,
    })
}

/// A netlist drawn by [`show_ice40`].
#[derive(Clone, Debug)]
pub struct Shown {
    /// The picture, `dir/<prefix>.dot`.
    pub dot: PathBuf,
    /// Each `SB_LUT4` cell (by the name the picture shows) with its `LUT_INIT`.
    pub lut_inits: BTreeMap<String, u16>,
}

/// Synthesise `sources` for iCE40 (`synth_ice40 -top <top>`) and draw the netlist with
/// yosys `show -format dot` into `dir/<prefix>.dot`, which Graphviz lays out (see
/// [`super::dot::svg`]). LUTs with internal (`$`) names are renamed `lut_<n>` first, so the
/// picture and `dir/<prefix>.json` (read for each LUT's INIT) name them alike. Leaves
/// `<prefix>.ys` and `<prefix>.log` in `dir`.
pub fn show_ice40(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    prefix: &str,
) -> Result<Shown, ToolError> {
    script::module(Tool::Yosys, top)?;
    let text = format!(
        "{reads}synth_ice40 -top {top}\nclean -purge\nrename -enumerate -pattern lut_% t:SB_LUT4\n\
         write_json {prefix}.json\nshow -format dot -prefix {prefix} {top}\n",
        reads = read_sources(dir, sources, "")?,
    );
    let out = script::run(dir, Interpreter::YosysQuiet, prefix, &text, None)?;
    let dot = dir.join(format!("{prefix}.dot"));
    if !dot.is_file() {
        return Err(out.unexpected(format!("`show -format dot` wrote no {}", dot.display())));
    }
    let json = dir.join(format!("{prefix}.json"));
    let text = std::fs::read_to_string(&json)
        .map_err(|e| ToolError::io(Tool::Yosys, "reading the netlist", &json, e))?;
    let lut_inits = lut_inits(&text, top).ok_or_else(|| {
        out.unexpected(format!("no SB_LUT4 INITs of {top} in {}", json.display()))
    })?;
    Ok(Shown { dot, lut_inits })
}

/// Each `SB_LUT4` cell of module `top` in a yosys JSON netlist, with its `LUT_INIT` (a binary
/// string, most significant bit first); `None` when the module is missing or an INIT is not
/// 16 bits.
fn lut_inits(json: &str, top: &str) -> Option<BTreeMap<String, u16>> {
    let netlist: serde_json::Value = serde_json::from_str(json).ok()?;
    let cells = netlist["modules"][top]["cells"].as_object()?;
    let mut inits = BTreeMap::new();
    for (name, cell) in cells {
        if cell["type"] != "SB_LUT4" {
            continue;
        }
        let bits = cell["parameters"]["LUT_INIT"].as_str()?;
        if bits.len() != 16 {
            return None;
        }
        inits.insert(name.clone(), u16::from_str_radix(bits, 2).ok()?);
    }
    Some(inits)
}

/// Outcome of an equivalence proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equivalence {
    /// No input makes the two modules differ (under the given constraints).
    Equivalent,
    /// An input where they differ: every miter signal yosys showed
    /// (`in_<port>`, `gold_<port>`, `gate_<port>`, `trigger`) with its value
    /// as a binary string, MSB first.
    Counterexample(BTreeMap<String, String>),
    /// No proof: the miter has no behaviour to check (a combinational loop, or no input
    /// satisfies it), so "no counterexample" would hold for any design.
    Vacuous(Vacuity),
}

/// Why a proof over a model would be vacuous: a SAT proof of "no input breaks an assertion"
/// holds trivially when no input satisfies the model at all, and a combinational loop is an
/// equation to the solver (`take = ~take` has no solution), not the circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vacuity {
    /// Combinational loops, as yosys `check` reports them.
    Loops {
        /// The module they are in.
        module: String,
        /// Each loop, as the signals around it (`take[0]`, or `a -> b` through two).
        loops: Vec<String>,
    },
    /// No assignment of the model's inputs (and initial state) satisfies it.
    Unsatisfiable {
        /// The tool that said so (`yosys sat`, `yosys-smtbmc --presat`).
        by: String,
        /// yosys `check`'s warnings, which may say why (conflicting drivers).
        warnings: Vec<String>,
    },
}

impl fmt::Display for Vacuity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Vacuity::Loops { module, loops } => {
                let shown = loops.len().min(LOOPS_SHOWN);
                write!(
                    f,
                    "combinational loop{} in module {module} through {}{} (yosys check): a \
                     proof reads a signal that depends on itself as an equation, which may have \
                     no solution (then any design \"passes\") or several, not as the circuit, \
                     so it is not a proof; break the loop (a register, or a default assignment \
                     that does not read the signal)",
                    if loops.len() == 1 { "" } else { "s" },
                    loops[..shown].join("; "),
                    if loops.len() > shown {
                        format!(" and {} more", loops.len() - shown)
                    } else {
                        String::new()
                    }
                )
            }
            Vacuity::Unsatisfiable { by, warnings } => {
                write!(
                    f,
                    "no input satisfies the model ({by} finds no assignment), so a proof over it \
                     holds for any design and is not a proof"
                )?;
                if !warnings.is_empty() {
                    write!(f, "; yosys check: {}", warnings.join("; "))?;
                }
                Ok(())
            }
        }
    }
}

/// A model file a proof runs on (AIGER, SMT-LIB), or why a proof over it would be vacuous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// The model.
    Ready(PathBuf),
    /// The design has combinational loops (or no behaviour): no model was written.
    Vacuous(Vacuity),
}

/// yosys commands that report combinational loops and conflicting drivers (`check`) on the
/// current design with readable signal names (after `opt_clean`), then restore the design as
/// it was: [`vacuity`] reads the report from the log.
pub const CHECK_COMMANDS: &str =
    "design -save retrogate_checked\nopt_clean\ncheck\ndesign -load retrogate_checked\n";

/// Loops a [`Vacuity::Loops`] names in its message (the others are counted).
const LOOPS_SHOWN: usize = 4;

/// Signals a loop is named by in a [`Vacuity::Loops`] message (the others are counted).
const LOOP_SIGNALS_SHOWN: usize = 6;

/// The loops yosys `check` reported in `log` (see [`CHECK_COMMANDS`]), if any.
pub fn loops(log: &str) -> Option<Vacuity> {
    let mut module = None;
    let mut loops: Vec<String> = Vec::new();
    let mut lines = log.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line
            .trim()
            .strip_prefix("Warning: found logic loop in module ")
        else {
            continue;
        };
        let name = rest.trim_end_matches(':').trim().to_owned();
        module.get_or_insert(name);
        let (mut wires, mut cells) = (Vec::new(), Vec::new());
        while let Some(next) = lines.peek() {
            let Some(item) = next.strip_prefix("    ") else {
                break;
            };
            if let Some(wire) = item.trim().strip_prefix("wire ") {
                wires.push(signal_name(wire));
            } else if let Some(cell) = item.trim().strip_prefix("cell ") {
                cells.push(cell.split(" (").next().unwrap_or(cell).to_owned());
            }
            lines.next();
        }
        let public: Vec<String> = wires
            .iter()
            .filter(|w| !w.starts_with('$'))
            .cloned()
            .collect();
        let around = if !public.is_empty() {
            public
        } else if !wires.is_empty() {
            wires
        } else {
            cells
        };
        let text = if around.len() > LOOP_SIGNALS_SHOWN {
            format!(
                "{} -> ... ({} signals)",
                around[..LOOP_SIGNALS_SHOWN].join(" -> "),
                around.len()
            )
        } else {
            around.join(" -> ")
        };
        if !loops.contains(&text) {
            loops.push(text);
        }
    }
    module.map(|module| Vacuity::Loops { module, loops })
}

/// `\take [0]` -> `take[0]`, `\x` -> `x`, `$auto$x` -> `$auto$x`.
fn signal_name(wire: &str) -> String {
    let wire = wire.trim();
    let wire = wire.strip_prefix('\\').unwrap_or(wire);
    match wire.rsplit_once(" [") {
        Some((name, bit)) => format!("{name}[{bit}"),
        None => wire.to_owned(),
    }
}

/// yosys `check`'s warnings in `log` (one line each), for an unsatisfiable model's report.
pub fn check_warnings(log: &str) -> Vec<String> {
    let Some(section) = log.split("Executing CHECK pass").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Found "))
        .filter_map(|l| l.strip_prefix("Warning: "))
        .map(|w| w.trim_end_matches(':').to_owned())
        .collect()
}

/// Whether the model is vacuous, from the log of a script that ran [`CHECK_COMMANDS`] and then
/// `sat` without `-prove` (`satisfiable`: its verdict, `None` when it did not run).
fn vacuity(log: &str, satisfiable: Option<bool>) -> Option<Vacuity> {
    loops(log).or_else(|| {
        (satisfiable == Some(false)).then(|| Vacuity::Unsatisfiable {
            by: "yosys sat".to_owned(),
            warnings: check_warnings(log),
        })
    })
}

/// One constraint on a miter input bit for [`prove_equivalent`]:
/// `signal` is a yosys signal expression such as `in_a` or `in_address[2]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedBit {
    /// The signal (bit) to fix.
    pub signal: String,
    /// Its value.
    pub value: bool,
}

/// Prove that modules `gold` and `gate` (both read from `sources`) compute
/// the same outputs for every input, with
/// `miter -equiv -flatten -make_assert -make_outputs` and
/// `sat -prove-asserts -show-inputs -show-outputs`. Inputs may be pinned
/// with `fixed` (to search for a particular counterexample).
///
/// Not vacuous: the script first runs yosys `check` on the designs (a combinational loop is
/// [`Equivalence::Vacuous`], naming its signals) and, without `fixed`, a `sat` without
/// `-prove` on the miter, which must find an input that satisfies it (else
/// [`Equivalence::Vacuous`] too: a loop or conflicting drivers make every proof succeed).
///
/// The proof is decided by yosys's own verdict line (`SUCCESS` / `FAIL`); a
/// script that ends without either is a [`ToolError`]. `step` names the
/// script and log (`<step>.ys`, `<step>.log`).
pub fn prove_equivalent(
    dir: &Path,
    sources: &[PathBuf],
    gold: &str,
    gate: &str,
    fixed: &[FixedBit],
    step: &str,
) -> Result<Equivalence, ToolError> {
    script::module(Tool::Yosys, gold)?;
    script::module(Tool::Yosys, gate)?;
    let sets: String = fixed
        .iter()
        .map(|f| format!(" -set {} 1'b{}", f.signal, u8::from(f.value)))
        .collect();
    let satisfiable = if fixed.is_empty() {
        "sat -show-inputs retrogate_miter\n"
    } else {
        ""
    };
    let text = format!(
        "{reads}proc -norom\n{CHECK_COMMANDS}\
         miter -equiv -flatten -make_assert -make_outputs {gold} {gate} retrogate_miter\n\
         hierarchy -top retrogate_miter\n{satisfiable}\
         sat -prove-asserts{sets} -show-inputs -show-outputs retrogate_miter\n",
        reads = read_sources(dir, sources, "")?,
    );
    let out = run_script(dir, step, &text)?;
    let satisfied = if fixed.is_empty() {
        Some(parse_satisfiable(&out)?)
    } else {
        None
    };
    if let Some(why) = vacuity(&out.stdout, satisfied) {
        return Ok(Equivalence::Vacuous(why));
    }
    parse_sat(&out)
}

/// The verdict of a `sat` without `-prove`: whether it found a model.
fn parse_satisfiable(out: &ToolOutput) -> Result<bool, ToolError> {
    if out.stdout.contains("SAT solving finished - model found") {
        Ok(true)
    } else if out.stdout.contains("SAT solving finished - no model found") {
        Ok(false)
    } else {
        Err(out.unexpected("no `SAT solving finished` verdict from `sat` without `-prove`"))
    }
}

fn parse_sat(out: &ToolOutput) -> Result<Equivalence, ToolError> {
    if out
        .stdout
        .contains("SAT proof finished - no model found: SUCCESS!")
    {
        return Ok(Equivalence::Equivalent);
    }
    // The counterexample table follows the proof's verdict (an earlier `sat` may have printed
    // a table of its own).
    let Some((_, table)) = out
        .stdout
        .split_once("SAT proof finished - model found: FAIL!")
    else {
        return Err(out.unexpected("no `SAT proof finished` verdict from `sat -prove-asserts`"));
    };
    let mut model = BTreeMap::new();
    for line in table.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [name, _dec, _hex, bin] = words.as_slice() {
            if let Some(name) = name.strip_prefix('\\') {
                model.insert(name.to_owned(), (*bin).to_owned());
            }
        }
    }
    if model.is_empty() {
        return Err(out.unexpected("`sat` reported FAIL but printed no counterexample table"));
    }
    Ok(Equivalence::Counterexample(model))
}

/// yosys's data directory (holding `ice40/cells_sim.v`).
///
/// Asks `yosys-config --datdir`; when `yosys-config` is not installed (it is
/// in Debian's `yosys-dev`), falls back to `<prefix>/share/yosys` next to the
/// `yosys` found on `PATH`, which is where yosys itself looks.
pub fn datdir(dir: &Path) -> Result<PathBuf, ToolError> {
    match runner::run(Tool::YosysConfig, dir, ["--datdir"], None) {
        Ok(out) => {
            let path = PathBuf::from(out.stdout.trim());
            if path.is_dir() {
                return Ok(path);
            }
            Err(out.unexpected(format!(
                "`yosys-config --datdir` printed `{}`, not a directory",
                path.display()
            )))
        }
        Err(ToolError::Missing { .. }) => {
            let yosys = find_on_path(Tool::Yosys.program()).ok_or(ToolError::Missing {
                tool: Tool::Yosys.program(),
                package: Tool::Yosys.package(),
            })?;
            let yosys = std::fs::canonicalize(&yosys).unwrap_or(yosys);
            yosys
                .parent()
                .and_then(Path::parent)
                .map(|prefix| prefix.join("share").join("yosys"))
                .filter(|p| p.is_dir())
                .ok_or(ToolError::Missing {
                    tool: Tool::YosysConfig.program(),
                    package: Tool::YosysConfig.package(),
                })
        }
        Err(err) => Err(err),
    }
}

/// Path of yosys's iCE40 simulation models, `<datdir>/ice40/cells_sim.v`.
pub fn ice40_cells_sim(dir: &Path) -> Result<PathBuf, ToolError> {
    let path = datdir(dir)?.join("ice40").join("cells_sim.v");
    if path.is_file() {
        Ok(path)
    } else {
        Err(ToolError::io(
            Tool::Yosys,
            format!("looking for {}", path.display()),
            dir,
            std::io::Error::new(std::io::ErrorKind::NotFound, "reinstall the yosys package"),
        ))
    }
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT_0_23: &str = "\n4. Printing statistics.\n\n=== jr01_strategy ===\n\n   Number of wires:                  6\n   \
        Number of wire bits:              6\n   Number of memories:               0\n   \
        Number of processes:              0\n   Number of cells:                  7\n     \
        SB_CARRY                        1\n     SB_DFFE                         2\n     \
        SB_LUT4                         3\n     SB_RAM40_4K                     1\n\n";

    #[test]
    fn parses_stat_0_23() {
        let stats = CellStats::parse(STAT_0_23).expect("stats");
        assert_eq!(
            (
                stats.lut4,
                stats.dff,
                stats.carry,
                stats.ram40_4k,
                stats.total
            ),
            (3, 2, 1, 1, 7)
        );
        assert_eq!(stats.by_type.get("SB_DFFE"), Some(&2));
    }

    #[test]
    fn parses_stat_count_first() {
        let text = "=== top ===\n\n        6 wires\n        3 cells\n        3   SB_LUT4\n\n";
        let stats = CellStats::parse(text).expect("stats");
        assert_eq!((stats.lut4, stats.total), (3, 3));
    }

    #[test]
    fn loops_are_named_by_their_signals() {
        let log = "4. Executing CHECK pass (checking for obvious problems).\n\
                   Checking module st...\n\
                   Warning: found logic loop in module st:\n    cell $not$st.v:1$2 ($not)\n    \
                   wire \\take [0]\n\
                   Warning: found logic loop in module st:\n    cell $not$st.v:1$2 ($not)\n    \
                   wire \\take [1]\n\
                   Warning: found logic loop in module st:\n    cell $and$x ($and)\n    \
                   wire $and$x_Y\n\
                   Found and reported 3 problems.\n";
        let found = loops(log).expect("loops");
        assert_eq!(
            found,
            Vacuity::Loops {
                module: "st".into(),
                loops: vec!["take[0]".into(), "take[1]".into(), "$and$x_Y".into()],
            }
        );
        let text = found.to_string();
        assert!(
            text.starts_with(
                "combinational loops in module st through take[0]; take[1]; $and$x_Y (yosys \
                 check): "
            ),
            "{text}"
        );
        assert_eq!(loops("Found and reported 0 problems.\n"), None);
        assert_eq!(
            check_warnings(log),
            [
                "found logic loop in module st",
                "found logic loop in module st",
                "found logic loop in module st"
            ]
        );
        let many = Vacuity::Loops {
            module: "m".into(),
            loops: (0..6).map(|n| format!("s{n}")).collect(),
        };
        assert!(many
            .to_string()
            .contains("through s0; s1; s2; s3 and 2 more (yosys check)"));
    }

    #[test]
    fn no_stat_is_none() {
        assert_eq!(CellStats::parse("ERROR: nothing"), None);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn finds_cells_sim() {
        let dir = crate::flow::testing::work_dir("cells_sim");
        let path = ice40_cells_sim(dir.path()).expect("cells_sim.v");
        assert!(path.ends_with("ice40/cells_sim.v"));
    }
}
