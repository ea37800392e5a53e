//! Someone else's Verilog on the bench (`verify --dut FILE.v [--top NAME]`).
//!
//! A user's file is checked against a documented port contract ([`Contract`]) before anything
//! runs or is written ([`Dut::read`], [`Dut::check`]):
//!
//! * the path must be a regular file of at most [`MAX_DUT_BYTES`] (a folder, a FIFO or
//!   `/dev/zero` is refused without being read), and not empty;
//! * its `` `include "name" ``s of files beside it are followed, so the text every level reads
//!   is self-contained ([`Dut::verilog`]: the folder of the file is its include path at every
//!   level, though the levels work in folders of their own);
//! * yosys reads the text from stdin exactly as every level reads it (`read_verilog -sv`,
//!   SystemVerilog's `logic` and `always_comb` included; `hierarchy -check`, `write_json` to
//!   stdout), so nothing is written and no path reaches a yosys command;
//! * the top is `--top`, else the file's only module no other instantiates (several need
//!   `--top`), a plain identifier; [`check_contract`] compares its ports with the contract by
//!   name, direction and width, and no module may take a name the bench gives its own modules
//!   ([`reserved_name`]: `<top>_tb`, `<top>_reference`, the iCE40 cells, ...).
//!
//! Each refusal is a [`DutError`] naming `--dut` or `--top` and the fix (exit 2). A file that
//! passes becomes a [`CombDesign`] (the combinational strategies, checked against the solver's
//! table at every Verilog level and by the formal proof) or a controller Verilog text for the
//! co-simulation ([`verify_controller`]): the same levels the emitted Verilog goes through,
//! minus rust-hdl.
//!
//! Every level takes the design as Verilog source plus a top name, so a later level (a
//! property proof, a netlist equivalence) can run on a `--dut` file the same way.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::design::{CombDesign, Port};
use super::sequential::{
    run_engine, stimulus_and_expected, CosimError, Engine, EngineReport, PreparedEngine, Progress,
    VerifyOptions,
};
use crate::circuit::sticks_game::GAME_MODULE;
use crate::circuit::sticks_strategy::STRATEGY_MODULE;
use crate::flow::runner::{self, Options, Tool};
use crate::flow::ToolError;
use crate::game::SticksGame;
use crate::logic::TruthTable;
use crate::verilog::is_identifier;

/// A port's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `input`.
    Input,
    /// `output`.
    Output,
    /// `inout` (never part of a contract).
    Inout,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
            Direction::Inout => "inout",
        })
    }
}

/// One port of a module: name, direction and width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// The port's name.
    pub name: String,
    /// Its direction.
    pub direction: Direction,
    /// Its width in bits.
    pub width: usize,
}

impl PortSpec {
    fn new(name: &str, direction: Direction, width: usize) -> Self {
        PortSpec {
            name: name.to_owned(),
            direction,
            width,
        }
    }
}

impl fmt::Display for PortSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width == 1 {
            write!(f, "{} {}", self.direction, self.name)
        } else {
            write!(f, "{} [{}:0] {}", self.direction, self.width - 1, self.name)
        }
    }
}

/// The port contracts a `--dut` file can implement (see the README's "Port contracts").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contract {
    /// `jr01_strategy`: inputs `a b c`, outputs `x y z`, one bit each.
    Jr01,
    /// `sticks_strategy`: input `sticks` (`w` bits), outputs `take` (`m` bits) and `winning`.
    SticksStrategy {
        /// Bits of the stick count.
        w: usize,
        /// Bits of a move.
        m: usize,
    },
    /// The `sticks_game` controller: `clock reset new_game machine_first take[m]
    /// take_valid` in, `remaining[w] human_turn machine_take[m] game_over human_won illegal`
    /// out.
    SticksGame {
        /// Bits of the stick count.
        w: usize,
        /// Bits of a move.
        m: usize,
    },
}

impl Contract {
    /// The module name retrogate emits for this contract.
    pub fn module(self) -> &'static str {
        match self {
            Contract::Jr01 => "jr01_strategy",
            Contract::SticksStrategy { .. } => STRATEGY_MODULE,
            Contract::SticksGame { .. } => GAME_MODULE,
        }
    }

    /// The ports, inputs first, each group most significant first.
    pub fn ports(self) -> Vec<PortSpec> {
        use Direction::{Input, Output};
        match self {
            Contract::Jr01 => ["a", "b", "c"]
                .iter()
                .map(|n| PortSpec::new(n, Input, 1))
                .chain(["x", "y", "z"].iter().map(|n| PortSpec::new(n, Output, 1)))
                .collect(),
            Contract::SticksStrategy { w, m } => vec![
                PortSpec::new("sticks", Input, w),
                PortSpec::new("take", Output, m),
                PortSpec::new("winning", Output, 1),
            ],
            Contract::SticksGame { w, m } => crate::circuit::sticks_game::GAME_PORTS
                .iter()
                .map(|p| {
                    let direction = match p.dir {
                        crate::verilog::PortDir::Input => Input,
                        _ => Output,
                    };
                    PortSpec::new(p.name, direction, p.width.bits(w, m))
                })
                .collect(),
        }
    }

    /// The contract as one line: `input a, input b, ..., output z`.
    pub fn describe(self) -> String {
        self.ports()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a `--dut` file cannot be benched. All are the user's input (exit 2) except
/// [`DutError::Tool`].
#[derive(Debug, thiserror::Error)]
pub enum DutError {
    /// The file cannot be read.
    #[error("--dut {}: cannot read it: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `--top` is not a plain identifier.
    #[error(
        "--top {0}: not a plain Verilog identifier; give the module name (letters, digits, `_`)"
    )]
    BadTop(String),
    /// yosys could not read or elaborate the file.
    #[error("--dut {}: yosys cannot read it{}: {message}; fix the Verilog{}", path.display(), top.as_ref().map_or(String::new(), |t| format!(" with top module `{t}`")), if top.is_none() { " or name its top module with --top" } else { "" })]
    Elaborate {
        /// The file.
        path: PathBuf,
        /// The `--top` given.
        top: Option<String>,
        /// yosys's error line.
        message: String,
    },
    /// The top module's ports do not match the contract.
    #[error(
        "--dut {}: module `{top}` does not implement the {contract} port contract: {}; the \
         contract is ({}), see the README's \"Port contracts\"",
        path.display(), problems.join("; "), contract_ports
    )]
    Contract {
        /// The file.
        path: PathBuf,
        /// The top module.
        top: String,
        /// The contract's module name.
        contract: String,
        /// The contract's ports, as a line.
        contract_ports: String,
        /// Each missing, extra or wrong port.
        problems: Vec<String>,
    },
    /// Not a regular file (a folder, a FIFO, a device such as `/dev/zero`): not read at all.
    #[error(
        "--dut {}: {kind}, not a Verilog file; give the path of a regular `.v` or `.sv` file",
        path.display()
    )]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is (`a folder`, `a FIFO`, `a character device`).
        kind: &'static str,
    },
    /// Larger than [`MAX_DUT_BYTES`] (its includes counted).
    #[error(
        "--dut {}: {bytes} bytes{}, more than the {} MiB a design file may have; give the          Verilog of one design",
        path.display(),
        if *with_includes { " with its `include files" } else { "" },
        MAX_DUT_BYTES >> 20
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (at least), in bytes.
        bytes: u64,
        /// Whether the size counts the included files.
        with_includes: bool,
    },
    /// No module in it (empty, or only comments).
    #[error(
        "--dut {}: {}; give a Verilog file with the design's module",
        path.display(),
        if *empty { "the file is empty" } else { "the file defines no module" }
    )]
    NoModule {
        /// The file.
        path: PathBuf,
        /// Whether the file is empty (or all whitespace).
        empty: bool,
    },
    /// Several modules that nothing instantiates, and no `--top`.
    #[error(
        "--dut {}: it has {} top-level modules ({}), so which one is the design is not clear; \
         name it with --top (e.g. --top {})",
        path.display(), tops.len(), tops.join(", "), tops[0]
    )]
    SeveralTops {
        /// The file.
        path: PathBuf,
        /// The modules no other module instantiates, in name order.
        tops: Vec<String>,
    },
    /// The top module's name cannot be used (an escaped identifier).
    #[error(
        "--dut {}: the top module `{name}` is not a plain Verilog identifier (letters, digits, \
         `_`); rename it{}",
        path.display(),
        if *given { "" } else { " or name another module with --top" }
    )]
    BadModuleName {
        /// The file.
        path: PathBuf,
        /// The module's name.
        name: String,
        /// Whether `--top` named it.
        given: bool,
    },
    /// A module of the file has the name of a module the bench adds beside it.
    #[error(
        "--dut {}: module `{module}` has the name of {role}, which the bench adds beside your \
         design; rename that module",
        path.display()
    )]
    NameClash {
        /// The file.
        path: PathBuf,
        /// The module.
        module: String,
        /// The generated module of that name, in words.
        role: String,
    },
    /// An `include directive could not be followed.
    #[error(
        "--dut {}: `include \"{name}\" ({file}, line {line}): {problem}",
        path.display()
    )]
    Include {
        /// The `--dut` file.
        path: PathBuf,
        /// The file holding the directive.
        file: String,
        /// Its line.
        line: usize,
        /// The included name.
        name: String,
        /// What went wrong, and the fix.
        problem: String,
    },
    /// yosys is missing or crashed.
    #[error(transparent)]
    Tool(#[from] ToolError),
}

/// The largest `--dut` file (its `include files counted) retrogate reads: 16 MiB.
pub const MAX_DUT_BYTES: u64 = 16 << 20;

/// How deep `include files may nest in a `--dut` file.
pub const MAX_INCLUDE_DEPTH: usize = 16;

impl DutError {
    /// Whether the error is the user's input (exit 2).
    pub fn is_usage(&self) -> bool {
        !matches!(self, DutError::Tool(_))
    }
}

/// A user's Verilog file, read: its text, its top module and that module's ports.
#[derive(Clone, Debug)]
pub struct Dut {
    /// The file as given.
    pub path: PathBuf,
    /// Its text, each `` `include "name" `` of a file found beside it (or beside the file that
    /// includes it) replaced by that file's text between `` `line `` directives, so every level
    /// reads the same self-contained text from its own work folder and the tools' messages
    /// still name the user's files and lines. Without includes, the file's text unchanged.
    pub verilog: String,
    /// The top module (`--top`, else the file's only module that no other instantiates).
    pub top: String,
    /// The top module's ports (in name order).
    pub ports: Vec<PortSpec>,
    /// Every module the file defines (in name order): none may take a name the bench uses.
    pub modules: Vec<String>,
}

impl Dut {
    /// Reads `path` and finds its top module's ports, writing nothing.
    ///
    /// Before reading, the path must be a regular file (not a folder, a FIFO or a device
    /// such as `/dev/zero`, which are refused without being read) of at most
    /// [`MAX_DUT_BYTES`]; an empty file is refused. Its `` `include``s of files beside it are
    /// followed (see [`Dut::verilog`]). yosys then reads the text from stdin (`read_verilog
    /// -sv`, as every level reads it; `hierarchy -check`, `proc`, `write_json` to stdout) in
    /// the file's folder, so no path reaches yosys as a command. The top module is `top`, else
    /// the only module no other instantiates (several such modules need `--top`); it must be a
    /// plain identifier.
    pub fn read(path: &Path, top: Option<&str>) -> Result<Self, DutError> {
        if let Some(t) = top {
            if !is_identifier(t) {
                return Err(DutError::BadTop(t.to_owned()));
            }
        }
        let unreadable = |source| DutError::Unreadable {
            path: path.to_path_buf(),
            source,
        };
        let text = read_regular(path)?;
        if text.trim().is_empty() {
            return Err(DutError::NoModule {
                path: path.to_path_buf(),
                empty: true,
            });
        }
        let absolute = std::path::absolute(path).map_err(unreadable)?;
        let dir = absolute
            .parent()
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        let label = line_label(&absolute);
        let mut budget = MAX_DUT_BYTES;
        let verilog = inline_includes(path, &text, &label, &dir, &dir, 0, &mut budget)?;
        let out = runner::output_with(
            Tool::Yosys,
            &dir,
            [
                "-q",
                "-f",
                "verilog -sv",
                "-p",
                "hierarchy -check; proc; write_json",
                "-",
            ],
            None,
            Options {
                stdin: Some(verilog.as_bytes()),
                ..Options::default()
            },
        )?;
        if !out.status.success() {
            let text = format!("{}\n{}", out.stdout, out.stderr);
            let message = text
                .lines()
                .find(|l| l.contains("ERROR"))
                .unwrap_or_else(|| text.trim().lines().last().unwrap_or("no message"))
                .trim()
                .replace("<stdin>", &path.display().to_string());
            return Err(DutError::Elaborate {
                path: path.to_path_buf(),
                top: top.map(str::to_owned),
                message,
            });
        }
        let design = parse_json_design(&out.stdout)
            .ok_or_else(|| out.unexpected("`write_json` printed no design"))?;
        if design.modules.is_empty() {
            return Err(DutError::NoModule {
                path: path.to_path_buf(),
                empty: false,
            });
        }
        let name = match top {
            Some(t) if design.modules.iter().any(|(m, _)| m == t) => t.to_owned(),
            Some(t) => {
                return Err(DutError::Elaborate {
                    path: path.to_path_buf(),
                    top: Some(t.to_owned()),
                    message: format!(
                        "no module `{t}` in it (its modules: {})",
                        design
                            .modules
                            .iter()
                            .map(|(m, _)| m.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })
            }
            None => {
                let tops = design.tops();
                match tops.as_slice() {
                    [only] => only.clone(),
                    [] => design.modules[0].0.clone(),
                    _ => {
                        return Err(DutError::SeveralTops {
                            path: path.to_path_buf(),
                            tops,
                        })
                    }
                }
            }
        };
        if !is_identifier(&name) {
            return Err(DutError::BadModuleName {
                path: path.to_path_buf(),
                name,
                given: top.is_some(),
            });
        }
        let ports = design
            .modules
            .iter()
            .find(|(m, _)| *m == name)
            .map(|(_, module)| module.ports.clone())
            .unwrap_or_default();
        Ok(Dut {
            path: path.to_path_buf(),
            verilog,
            top: name,
            ports,
            modules: design.modules.into_iter().map(|(m, _)| m).collect(),
        })
    }

    /// Checks the ports against `contract` (see [`check_contract`]), then that no module of
    /// the file takes a name the bench gives a module of its own (see [`reserved_name`]).
    pub fn check(&self, contract: Contract) -> Result<(), DutError> {
        let problems = check_contract(&self.ports, contract);
        if !problems.is_empty() {
            return Err(DutError::Contract {
                path: self.path.clone(),
                top: self.top.clone(),
                contract: contract.module().to_owned(),
                contract_ports: contract.describe(),
                problems,
            });
        }
        for module in &self.modules {
            if let Some(role) = reserved_name(module, &self.top, contract) {
                return Err(DutError::NameClash {
                    path: self.path.clone(),
                    module: module.clone(),
                    role,
                });
            }
        }
        Ok(())
    }

    /// Which stick-game contract the ports claim: the controller when there is a `clock`
    /// port, else the strategy lookup.
    pub fn sticks_contract(&self, w: usize, m: usize) -> Contract {
        if self.ports.iter().any(|p| p.name == "clock") {
            Contract::SticksGame { w, m }
        } else {
            Contract::SticksStrategy { w, m }
        }
    }

    /// The file as a combinational design for `contract` (jr01 or the strategy lookup)
    /// checked against `table`.
    pub fn comb_design(&self, contract: Contract, table: TruthTable) -> CombDesign {
        let port = |p: &PortSpec| Port::new(p.name.clone(), p.width);
        let all = contract.ports();
        CombDesign {
            module: self.top.clone(),
            inputs: all
                .iter()
                .filter(|p| p.direction == Direction::Input)
                .map(port)
                .collect(),
            outputs: all
                .iter()
                .filter(|p| p.direction == Direction::Output)
                .map(port)
                .collect(),
            verilog: self.verilog.clone(),
            table,
        }
    }

    /// The file as a `sticks_game` module for the co-simulation testbench (which instantiates
    /// `sticks_game`): the text itself when its top has that name, else the text and a
    /// `sticks_game` wrapper around the top.
    pub fn controller_verilog(&self, w: usize, m: usize) -> String {
        if self.top == GAME_MODULE {
            return self.verilog.clone();
        }
        let ports = Contract::SticksGame { w, m }.ports();
        let names: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
        let mut text = self.verilog.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!(
            "\n// Added by retrogate verify --dut: the name the testbench instantiates.\n\
             module {GAME_MODULE}({});\n",
            names.join(", ")
        ));
        for p in &ports {
            text.push_str(&format!("    {};\n", wire_decl(p)));
        }
        let conns: Vec<String> = names.iter().map(|n| format!(".{n}({n})")).collect();
        text.push_str(&format!(
            "    {} dut_top({});\nendmodule\n",
            self.top,
            conns.join(", ")
        ));
        text
    }
}

fn wire_decl(p: &PortSpec) -> String {
    let range = if p.width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", p.width - 1)
    };
    format!("{} wire {range}{}", p.direction, p.name)
}

/// A module of yosys's `write_json` design: its ports and the modules it instantiates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct JsonModule {
    ports: Vec<PortSpec>,
    instantiates: Vec<String>,
}

/// The modules of yosys's `write_json` text (elaborated without a top), in name order,
/// without the `$paramod` copies yosys derives (whose instances count for the module they
/// derive from).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct JsonDesign {
    modules: Vec<(String, JsonModule)>,
    /// The modules the derived copies instantiate.
    derived_uses: Vec<String>,
}

impl JsonDesign {
    /// The modules no module instantiates, in name order.
    fn tops(&self) -> Vec<String> {
        let used: std::collections::BTreeSet<&str> = self
            .modules
            .iter()
            .flat_map(|(_, m)| m.instantiates.iter().map(String::as_str))
            .chain(self.derived_uses.iter().map(String::as_str))
            .collect();
        self.modules
            .iter()
            .map(|(name, _)| name)
            .filter(|name| !used.contains(name.as_str()))
            .cloned()
            .collect()
    }
}

/// The module a cell of type `kind` instantiates: `helper` for `helper`,
/// `$paramod\helper\W=...` and `$paramod$1a2b\helper`; `None` for yosys's own cells (`$and`).
fn instantiated(kind: &str) -> Option<String> {
    if let Some(rest) = kind.strip_prefix("$paramod") {
        let (_, name) = rest.split_once('\\')?;
        return Some(name.split('\\').next().unwrap_or(name).to_owned());
    }
    (!kind.starts_with('$')).then(|| kind.to_owned())
}

/// The design in yosys's `write_json` text.
fn parse_json_design(json: &str) -> Option<JsonDesign> {
    #[derive(serde::Deserialize)]
    struct Netlist {
        modules: BTreeMap<String, Module>,
    }
    #[derive(serde::Deserialize)]
    struct Module {
        #[serde(default)]
        ports: BTreeMap<String, JsonPort>,
        #[serde(default)]
        cells: BTreeMap<String, Cell>,
    }
    #[derive(serde::Deserialize)]
    struct JsonPort {
        direction: String,
        bits: Vec<serde_json::Value>,
    }
    #[derive(serde::Deserialize)]
    struct Cell {
        #[serde(rename = "type")]
        kind: String,
    }
    // yosys may print log lines before the JSON even with -q (warnings): start at the `{`.
    let start = json.find('{')?;
    let netlist: Netlist = serde_json::from_str(&json[start..]).ok()?;
    let mut design = JsonDesign::default();
    for (name, module) in netlist.modules {
        let instantiates: Vec<String> = module
            .cells
            .values()
            .filter_map(|c| instantiated(&c.kind))
            .collect();
        if name.starts_with('$') {
            design.derived_uses.extend(instantiates);
            continue;
        }
        let ports = module
            .ports
            .into_iter()
            .map(|(name, p)| PortSpec {
                name,
                direction: match p.direction.as_str() {
                    "input" => Direction::Input,
                    "output" => Direction::Output,
                    _ => Direction::Inout,
                },
                width: p.bits.len(),
            })
            .collect();
        design.modules.push((
            name,
            JsonModule {
                ports,
                instantiates,
            },
        ));
    }
    Some(design)
}

/// What reading a file beside the `--dut` found wrong.
enum ReadProblem {
    /// Not a regular file: what it is.
    NotRegular(&'static str),
    /// More bytes than allowed (at least this many).
    TooLarge(u64),
    /// Opening or reading failed (or the text is not UTF-8).
    Io(std::io::Error),
}

/// The text of `file`, a regular file of at most `budget` bytes. The file is opened without
/// blocking (a FIFO does not wait for a writer) and its type checked on the open file before
/// anything is read, so a folder, a FIFO or `/dev/zero` is never read.
fn read_bounded(file: &Path, budget: u64) -> Result<String, ReadProblem> {
    use std::io::Read as _;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let handle = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(file)
        .map_err(ReadProblem::Io)?;
    let meta = handle.metadata().map_err(ReadProblem::Io)?;
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(ReadProblem::NotRegular(if kind.is_dir() {
            "a folder"
        } else if kind.is_fifo() {
            "a FIFO (named pipe)"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        }));
    }
    if meta.len() > budget {
        return Err(ReadProblem::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    handle
        .take(budget + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadProblem::Io)?;
    if bytes.len() as u64 > budget {
        return Err(ReadProblem::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| {
        ReadProblem::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "it is not UTF-8 text",
        ))
    })
}

/// The `--dut` file's own text (see [`read_bounded`]), its problems as [`DutError`]s.
fn read_regular(path: &Path) -> Result<String, DutError> {
    read_bounded(path, MAX_DUT_BYTES).map_err(|problem| match problem {
        ReadProblem::NotRegular(kind) => DutError::NotRegular {
            path: path.to_path_buf(),
            kind,
        },
        ReadProblem::TooLarge(bytes) => DutError::TooLarge {
            path: path.to_path_buf(),
            bytes,
            with_includes: false,
        },
        ReadProblem::Io(source) => DutError::Unreadable {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// A file's name as a `` `line `` directive holds it: its last component, with `"`, `\` and
/// control characters replaced by `_`.
fn line_label(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dut.v".to_owned())
        .chars()
        .map(|c| {
            if c == '"' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// One `` `include "name" `` directive in a text, outside comments and strings.
struct IncludeDirective {
    /// Byte range of the directive (from the backquote to the closing quote).
    start: usize,
    end: usize,
    /// The quoted name.
    name: String,
    /// The line it is on (from 1).
    line: usize,
}

/// The `` `include "name" `` directives of `text` outside comments and strings (an `` `include ``
/// of a macro or of `<name>` is left to the tools).
fn include_directives(text: &str) -> Vec<IncludeDirective> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'`' if text[i..].starts_with("`include")
                && !bytes
                    .get(i + "`include".len())
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$') =>
            {
                let start = i;
                let mut j = i + "`include".len();
                while j < bytes.len() && (bytes[j] == b' ' || bytes[j] == b'\t') {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'"') {
                    if let Some(close) = text[j + 1..].find(['"', '\n']) {
                        let close = j + 1 + close;
                        if bytes[close] == b'"' {
                            found.push(IncludeDirective {
                                start,
                                end: close + 1,
                                name: text[j + 1..close].to_owned(),
                                line: 1 + text[..start].matches('\n').count(),
                            });
                            i = close + 1;
                            continue;
                        }
                    }
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    found
}

/// `text` (of the file `label`, in folder `folder`) with each `` `include "name" `` whose file
/// exists, beside the including file or beside the `--dut` file (`dut_folder`, its include
/// path), replaced by that file's text (its own includes followed in turn) between `` `line ``
/// directives, so the tools' messages name the included file and its lines, then the
/// including file's again. An include whose file is in neither folder is left for the tools
/// (inside an `ifdef that is off, it does not matter). Without includes, `text` unchanged.
/// `budget` is what the included text may still add (of [`MAX_DUT_BYTES`]).
fn inline_includes(
    dut: &Path,
    text: &str,
    label: &str,
    folder: &Path,
    dut_folder: &Path,
    depth: usize,
    budget: &mut u64,
) -> Result<String, DutError> {
    let directives = include_directives(text);
    if directives.is_empty() {
        return Ok(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for d in directives {
        let problem = |problem: String| DutError::Include {
            path: dut.to_path_buf(),
            file: label.to_owned(),
            line: d.line,
            name: d.name.clone(),
            problem,
        };
        let candidate = Path::new(&d.name);
        let found = if candidate.is_absolute() {
            Some(candidate.to_path_buf()).filter(|p| p.exists())
        } else {
            [folder, dut_folder]
                .iter()
                .map(|dir| dir.join(candidate))
                .find(|p| p.exists())
        };
        let Some(file) = found else {
            continue;
        };
        if depth + 1 > MAX_INCLUDE_DEPTH {
            return Err(problem(format!(
                "includes nest deeper than {MAX_INCLUDE_DEPTH} files; does a file include \
                 itself?"
            )));
        }
        let included = read_bounded(&file, *budget).map_err(|p| match p {
            ReadProblem::NotRegular(kind) => problem(format!(
                "{} is {kind}, not a Verilog file; include a regular file",
                file.display()
            )),
            ReadProblem::TooLarge(_) => DutError::TooLarge {
                path: dut.to_path_buf(),
                bytes: MAX_DUT_BYTES + 1,
                with_includes: true,
            },
            ReadProblem::Io(e) => problem(format!("cannot read {}: {e}", file.display())),
        })?;
        *budget -= included.len() as u64;
        let inner_folder = file
            .parent()
            .map_or_else(|| folder.to_path_buf(), Path::to_path_buf);
        let inner_label = line_label(&file);
        let inner = inline_includes(
            dut,
            &included,
            &inner_label,
            &inner_folder,
            dut_folder,
            depth + 1,
            budget,
        )?;
        out.push_str(&text[from..d.start]);
        out.push_str(&format!("\n`line 1 \"{inner_label}\" 1\n"));
        out.push_str(&inner);
        if !inner.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("`line {} \"{label}\" 2\n", d.line));
        from = d.end;
    }
    out.push_str(&text[from..]);
    if out.len() as u64 > MAX_DUT_BYTES {
        return Err(DutError::TooLarge {
            path: dut.to_path_buf(),
            bytes: out.len() as u64,
            with_includes: true,
        });
    }
    Ok(out)
}

/// What the bench calls its own module `module` when the `--dut` file's top is `top` under
/// `contract`, in words, if it uses that name: the iCE40 cells (`SB_*`, read with the netlist),
/// retrogate's proof modules (`retrogate_*`), the testbench and the formal reference of a
/// strategy (`<top>_tb`, `<top>_reference`), the co-simulation testbench, the properties
/// wrapper and the `sticks_game` wrapper of a controller.
pub fn reserved_name(module: &str, top: &str, contract: Contract) -> Option<String> {
    if module.starts_with("SB_") {
        return Some(format!(
            "an iCE40 cell (`SB_*`: the gate level and the netlist equivalence read every cell's \
             model, `{module}` among them, from yosys's ice40/cells_sim.v)"
        ));
    }
    if module.starts_with("retrogate_") {
        return Some("retrogate's own proof modules (`retrogate_*`)".to_owned());
    }
    match contract {
        Contract::Jr01 | Contract::SticksStrategy { .. } => {
            if module == super::testbench::testbench_module(top) {
                Some(format!("the testbench of `{top}` (levels 2 to 4)"))
            } else if module == super::reference::reference_module(top) {
                Some(format!(
                    "the reference module the formal level proves `{top}` against"
                ))
            } else {
                None
            }
        }
        Contract::SticksGame { .. } => {
            if module == GAME_MODULE && top != GAME_MODULE {
                Some(format!(
                    "the `{GAME_MODULE}` wrapper around `{top}` that the co-simulation \
                     testbench instantiates"
                ))
            } else if module == super::sequential::testbench::TESTBENCH_MODULE {
                Some("the co-simulation testbench".to_owned())
            } else if module == super::properties::WRAPPER_MODULE {
                Some("the properties level's formal wrapper".to_owned())
            } else {
                None
            }
        }
    }
}

/// Every way `ports` differ from `contract`: missing ports, extra ports, wrong directions and
/// wrong widths, each as a sentence naming the port (empty when they match).
pub fn check_contract(ports: &[PortSpec], contract: Contract) -> Vec<String> {
    let want = contract.ports();
    let mut problems = Vec::new();
    for w in &want {
        match ports.iter().find(|p| p.name == w.name) {
            None => problems.push(format!("port `{}` is missing (want `{w}`)", w.name)),
            Some(p) if p.direction != w.direction => problems.push(format!(
                "port `{}` is an {} (want `{w}`)",
                p.name, p.direction
            )),
            Some(p) if p.width != w.width => problems.push(format!(
                "port `{}` is {} bit{} wide (want `{w}`, {} bit{})",
                p.name,
                p.width,
                if p.width == 1 { "" } else { "s" },
                w.width,
                if w.width == 1 { "" } else { "s" }
            )),
            Some(_) => {}
        }
    }
    for p in ports {
        if !want.iter().any(|w| w.name == p.name) {
            problems.push(format!("port `{p}` is not in the contract (remove it)"));
        }
    }
    problems
}

/// Co-simulates a user's controller (`verilog`, a `sticks_game` module for `game`'s widths,
/// e.g. from [`Dut::controller_verilog`]) against the reference model and the solver on the
/// stimulus of [`sticks_stimulus`](super::sequential::sticks_stimulus), on the external
/// engines of `options.engines` (rust-hdl and the model are not run as engines: the model is
/// the reference). Engines work in `dir/<engine>`.
pub fn verify_controller(
    game: &SticksGame,
    options: &VerifyOptions,
    verilog: &str,
    dir: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Vec<EngineReport>, CosimError> {
    let (stimulus, expected) = stimulus_and_expected(game, options, progress);
    let mut reports = Vec::new();
    for &engine in options
        .engines
        .iter()
        .filter(|e| !matches!(e, Engine::Model | Engine::RustHdl))
    {
        progress(Progress::Starting(engine));
        let prepared = PreparedEngine::prepare_with_verilog(
            engine,
            game,
            options.implementation,
            options.think_cycles,
            dir,
            Some(verilog.to_owned()),
        )?;
        let report = run_engine(&prepared, game, &stimulus, &expected)?;
        progress(Progress::Finished(&report));
        reports.push(report);
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jr01_ports() -> Vec<PortSpec> {
        Contract::Jr01.ports()
    }

    #[test]
    fn matching_ports_pass_in_any_order() {
        let mut ports = jr01_ports();
        ports.reverse();
        assert!(check_contract(&ports, Contract::Jr01).is_empty());
        let c = Contract::SticksGame { w: 5, m: 2 };
        assert!(check_contract(&c.ports(), c).is_empty());
    }

    #[test]
    fn every_difference_is_named() {
        let mut ports = jr01_ports();
        ports.retain(|p| p.name != "b");
        ports.push(PortSpec::new("w", Direction::Output, 1));
        ports[0].width = 2; // a
        ports.iter_mut().find(|p| p.name == "x").unwrap().direction = Direction::Input;
        let problems = check_contract(&ports, Contract::Jr01);
        assert_eq!(
            problems,
            vec![
                "port `a` is 2 bits wide (want `input a`, 1 bit)",
                "port `b` is missing (want `input b`)",
                "port `x` is an input (want `output x`)",
                "port `output w` is not in the contract (remove it)",
            ]
        );
        let c = Contract::SticksStrategy { w: 5, m: 2 };
        let mut ports = c.ports();
        ports[1].width = 3;
        assert_eq!(
            check_contract(&ports, c),
            vec!["port `take` is 3 bits wide (want `output [1:0] take`, 2 bits)"]
        );
    }

    #[test]
    fn yosys_json_modules_ports_and_tops() {
        let json = r#"{"creator": "Yosys", "modules": {
            "helper": {"attributes": {}, "ports": {"p": {"direction": "input", "bits": [2]}},
                       "cells": {"$1": {"type": "$not"}}},
            "$paramod\\helper\\W=2": {"ports": {}, "cells": {"l": {"type": "leaf"}}},
            "leaf": {"ports": {}},
            "spare": {"ports": {}},
            "top": {"attributes": {},
                    "ports": {"a": {"direction": "input", "bits": [2, 3]},
                              "q": {"direction": "output", "bits": [4]}},
                    "cells": {"h": {"type": "$paramod\\helper\\W=2"},
                              "g": {"type": "$paramod$a1b2\\helper"}}}}}"#;
        let design = parse_json_design(json).unwrap();
        let names: Vec<&str> = design.modules.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["helper", "leaf", "spare", "top"]);
        assert_eq!(design.tops(), ["spare", "top"]);
        let top = &design.modules[3].1;
        assert_eq!(
            top.ports,
            vec![
                PortSpec::new("a", Direction::Input, 2),
                PortSpec::new("q", Direction::Output, 1)
            ]
        );
        assert_eq!(top.instantiates, ["helper", "helper"]);
    }

    #[test]
    fn includes_are_found_outside_comments_and_strings() {
        let text = "// `include \"no.vh\"\n/* `include \"no2.vh\" */\n\
                    $display(\"`include \\\"no3.vh\\\"\");\n  `include \"defs.vh\" // yes\n\
                    `include `MACRO\n`include <sys.vh>\n`includes \"no4.vh\"\n";
        let found = include_directives(text);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].name.as_str(), found[0].line), ("defs.vh", 4));
        assert_eq!(&text[found[0].start..found[0].end], "`include \"defs.vh\"");
    }

    #[test]
    fn includes_are_inlined_between_line_directives() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(
            dir.path().join("defs.vh"),
            "`define W 5\n`include \"sub/inner.vh\"",
        )
        .unwrap();
        std::fs::write(sub.join("inner.vh"), "`include \"deep.vh\"\n").unwrap();
        std::fs::write(sub.join("deep.vh"), "`define M 2\n").unwrap();
        let dut = dir.path().join("st.v");
        let text =
            "module st;\n  `include \"defs.vh\" wire a;\n`include \"missing.vh\"\nendmodule\n";
        let mut budget = MAX_DUT_BYTES;
        let out =
            inline_includes(&dut, text, "st.v", dir.path(), dir.path(), 0, &mut budget).unwrap();
        assert_eq!(
            out,
            "module st;\n  \n`line 1 \"defs.vh\" 1\n`define W 5\n\n`line 1 \"inner.vh\" 1\n\
             \n`line 1 \"deep.vh\" 1\n`define M 2\n`line 1 \"inner.vh\" 2\n\n\
             `line 2 \"defs.vh\" 2\n`line 2 \"st.v\" 2\n wire a;\n\
             `include \"missing.vh\"\nendmodule\n"
        );
        // A text without includes is left as it is, byte for byte.
        let plain = "module p; endmodule";
        assert_eq!(
            inline_includes(&dut, plain, "p.v", dir.path(), dir.path(), 0, &mut budget).unwrap(),
            plain
        );
        // A file that includes itself stops at the depth limit, naming the directive.
        std::fs::write(dir.path().join("loop.vh"), "`include \"loop.vh\"\n").unwrap();
        let err = inline_includes(
            &dut,
            "`include \"loop.vh\"\n",
            "st.v",
            dir.path(),
            dir.path(),
            0,
            &mut budget,
        )
        .unwrap_err();
        assert!(matches!(err, DutError::Include { .. }), "{err}");
        assert!(
            err.to_string().contains("does a file include itself?"),
            "{err}"
        );
        // An include of something that is not a regular file is refused, not read.
        let err = inline_includes(
            &dut,
            "`include \"sub\"\n",
            "st.v",
            dir.path(),
            dir.path(),
            0,
            &mut budget,
        )
        .unwrap_err();
        assert!(err.to_string().contains("is a folder"), "{err}");
    }

    #[test]
    fn files_that_are_not_regular_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.v");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, kind) in [
            (fifo.as_path(), "a FIFO (named pipe)"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.path(), "a folder"),
        ] {
            let err = read_regular(path).unwrap_err();
            assert!(
                matches!(err, DutError::NotRegular { kind: k, .. } if k == kind),
                "{err}"
            );
            assert!(err.to_string().starts_with("--dut "), "{err}");
        }
        let big = dir.path().join("big.v");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_DUT_BYTES + 1).unwrap();
        let err = read_regular(&big).unwrap_err();
        assert!(matches!(err, DutError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("more than the 16 MiB"), "{err}");
    }

    #[test]
    fn bench_names_are_reserved() {
        let strategy = Contract::SticksStrategy { w: 5, m: 2 };
        let game = Contract::SticksGame { w: 5, m: 2 };
        assert!(reserved_name("st_tb", "st", strategy).is_some());
        assert!(reserved_name("st_reference", "st", strategy).is_some());
        assert!(reserved_name("SB_LUT4", "st", strategy).is_some());
        assert!(reserved_name("retrogate_miter", "st", Contract::Jr01).is_some());
        assert!(reserved_name("helper", "st", strategy).is_none());
        assert!(reserved_name("sticks_game", "st", strategy).is_none());
        assert!(reserved_name("sticks_game", "mine", game).is_some());
        assert!(reserved_name("sticks_game", "sticks_game", game).is_none());
        assert!(reserved_name("sticks_game_tb", "mine", game).is_some());
        assert!(reserved_name("sticks_game_properties", "mine", game).is_some());
        assert!(reserved_name("mine_tb", "mine", game).is_none());
    }

    #[test]
    fn a_controller_under_another_name_gets_a_wrapper() {
        let dut = Dut {
            path: "c.v".into(),
            verilog: "module mine(); endmodule".into(),
            top: "mine".into(),
            ports: Vec::new(),
            modules: vec!["mine".into()],
        };
        let v = dut.controller_verilog(5, 2);
        assert!(v.starts_with("module mine(); endmodule\n"), "{v}");
        assert!(v.contains("module sticks_game(clock, reset,"), "{v}");
        assert!(v.contains("    input wire [1:0] take;\n"), "{v}");
        assert!(v.contains("    output wire [4:0] remaining;\n"), "{v}");
        assert!(v.contains("    mine dut_top(.clock(clock),"), "{v}");
        let named = Dut {
            top: "sticks_game".into(),
            ..dut
        };
        assert_eq!(named.controller_verilog(5, 2), named.verilog);
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::flow::testing::work_dir;

    #[test]
    fn reads_the_top_and_refuses_a_wrong_width() {
        let dir = work_dir("dut-read");
        let path = dir.path().join("student.v");
        std::fs::write(
            &path,
            "module helper(input wire p, output wire q); assign q = ~p; endmodule\n\
             module student(input a, input b, input c, output x, output y, output [1:0] z);\n\
             wire n; helper h(.p(a), .q(n));\n\
             assign x = n & b; assign y = b | c; assign z = {a, c};\nendmodule\n",
        )
        .unwrap();
        let dut = Dut::read(&path, None).expect("read");
        assert_eq!(dut.top, "student");
        let err = dut.check(Contract::Jr01).unwrap_err();
        assert!(err.is_usage());
        let text = err.to_string();
        assert!(text.contains("port `z` is 2 bits wide"), "{text}");
        assert!(text.contains("module `student`"), "{text}");
        let err = Dut::read(&path, Some("nope")).unwrap_err();
        assert!(matches!(err, DutError::Elaborate { .. }), "{err}");
        assert!(err.to_string().contains("nope"), "{err}");
        let helper = Dut::read(&path, Some("helper")).expect("read");
        assert_eq!(helper.ports.len(), 2);
        // Nothing was written next to the file.
        let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(entries.len(), 1);
    }

    #[test]
    fn reads_systemverilog_and_follows_includes_beside_the_file() {
        let dir = work_dir("dut-include");
        std::fs::write(
            dir.path().join("defs.vh"),
            "localparam logic [1:0] ONE = 2'd1;\n",
        )
        .unwrap();
        let path = dir.path().join("st.sv");
        std::fs::write(
            &path,
            "module st (input logic [4:0] sticks, output logic [1:0] take, output logic winning);\n\
             `include \"defs.vh\"\n\
             always_comb begin take = ONE; winning = sticks[0]; end\nendmodule\n",
        )
        .unwrap();
        let dut = Dut::read(&path, None).expect("read");
        assert_eq!(dut.top, "st");
        assert_eq!(dut.modules, ["st"]);
        assert!(
            dut.verilog.contains("`line 1 \"defs.vh\" 1\nlocalparam"),
            "{}",
            dut.verilog
        );
        dut.check(Contract::SticksStrategy { w: 5, m: 2 })
            .expect("the contract");
        // A syntax error is named by the user's file and line, not yosys's `<stdin>`.
        std::fs::write(&path, "module st (input a);\n  wire b = ;\nendmodule\n").unwrap();
        let err = Dut::read(&path, None).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(&format!("{}:2", path.display())), "{text}");
        assert!(!text.contains("<stdin>"), "{text}");
        let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(entries.len(), 2, "nothing written beside the file");
    }

    #[test]
    fn several_tops_clashing_names_and_empty_files_are_refused() {
        let dir = work_dir("dut-refused");
        let path = dir.path().join("two.v");
        std::fs::write(
            &path,
            "module a(input sticks, output take); assign take = sticks; endmodule\n\
             module b(input x, output y); assign y = x; endmodule\n",
        )
        .unwrap();
        let err = Dut::read(&path, None).unwrap_err();
        assert!(matches!(err, DutError::SeveralTops { .. }), "{err}");
        assert!(err.to_string().contains("(a, b)"), "{err}");
        assert!(err.to_string().contains("--top"), "{err}");
        assert_eq!(Dut::read(&path, Some("b")).expect("read").top, "b");
        std::fs::write(
            &path,
            "module st(input [4:0] sticks, output [1:0] take, output winning);\n\
             assign take = 2'd1; assign winning = 1'b0; endmodule\n\
             module st_tb; st s(.sticks(5'd0), .take(), .winning()); endmodule\n",
        )
        .unwrap();
        let dut = Dut::read(&path, Some("st")).expect("read");
        let err = dut
            .check(Contract::SticksStrategy { w: 5, m: 2 })
            .unwrap_err();
        assert!(matches!(err, DutError::NameClash { .. }), "{err}");
        assert!(err.is_usage());
        assert!(
            err.to_string()
                .contains("module `st_tb` has the name of the testbench"),
            "{err}"
        );
        std::fs::write(&path, " \n\t\n").unwrap();
        let err = Dut::read(&path, None).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("the file is empty; give a Verilog file with the design's module"),
            "{err}"
        );
        std::fs::write(&path, "// nothing here\n").unwrap();
        let err = Dut::read(&path, None).unwrap_err();
        assert!(
            err.to_string().contains("the file defines no module"),
            "{err}"
        );
        std::fs::write(&path, "module \\odd;name (input a); endmodule\n").unwrap();
        let err = Dut::read(&path, None).unwrap_err();
        assert!(matches!(err, DutError::BadModuleName { .. }), "{err}");
    }
}
