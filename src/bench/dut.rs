//! Someone else's Verilog on the bench (`verify --dut FILE.v [--top NAME]`).
//!
//! A user's file is checked against a documented port contract ([`Contract`]) before anything
//! runs: yosys reads it (`read_verilog -sv`, `hierarchy -check`, `write_json` to stdout, so
//! nothing is written) and [`check_contract`] compares the top module's ports with the
//! contract by name, direction and width. A file that passes becomes a [`CombDesign`] (the
//! combinational strategies, checked against the solver's table at every Verilog level and
//! by the formal proof) or a controller Verilog text for the co-simulation
//! ([`verify_controller`]): the same levels the emitted Verilog goes through, minus rust-hdl.
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
use crate::flow::runner::{self, Tool};
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
            Contract::SticksGame { w, m } => vec![
                PortSpec::new("clock", Input, 1),
                PortSpec::new("reset", Input, 1),
                PortSpec::new("new_game", Input, 1),
                PortSpec::new("machine_first", Input, 1),
                PortSpec::new("take", Input, m),
                PortSpec::new("take_valid", Input, 1),
                PortSpec::new("remaining", Output, w),
                PortSpec::new("human_turn", Output, 1),
                PortSpec::new("machine_take", Output, m),
                PortSpec::new("game_over", Output, 1),
                PortSpec::new("human_won", Output, 1),
                PortSpec::new("illegal", Output, 1),
            ],
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
    /// yosys is missing or crashed.
    #[error(transparent)]
    Tool(#[from] ToolError),
}

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
    /// Its text.
    pub verilog: String,
    /// The top module (`--top`, else the one yosys's `hierarchy -auto-top` picks).
    pub top: String,
    /// The top module's ports (in name order).
    pub ports: Vec<PortSpec>,
}

impl Dut {
    /// Reads `path` with yosys and finds its top module's ports. Writes nothing (yosys runs
    /// in the file's folder with its JSON on stdout).
    pub fn read(path: &Path, top: Option<&str>) -> Result<Self, DutError> {
        if let Some(t) = top {
            if !is_identifier(t) {
                return Err(DutError::BadTop(t.to_owned()));
            }
        }
        let verilog = std::fs::read_to_string(path).map_err(|source| DutError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let absolute = std::path::absolute(path).map_err(|source| DutError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        let dir = absolute
            .parent()
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        let hierarchy = match top {
            Some(t) => format!("-top {t}"),
            None => "-auto-top".to_owned(),
        };
        let file = absolute.display().to_string().replace('"', "\\\"");
        let script =
            format!("read_verilog -sv \"{file}\"; hierarchy -check {hierarchy}; proc; write_json");
        let out = runner::output(Tool::Yosys, &dir, ["-q", "-p", &script], None)?;
        if !out.status.success() {
            let text = format!("{}\n{}", out.stdout, out.stderr);
            let message = text
                .lines()
                .find(|l| l.starts_with("ERROR"))
                .unwrap_or_else(|| text.trim().lines().last().unwrap_or("no message"))
                .trim()
                .to_owned();
            return Err(DutError::Elaborate {
                path: path.to_path_buf(),
                top: top.map(str::to_owned),
                message,
            });
        }
        let (top, ports) = parse_json_ports(&out.stdout)
            .ok_or_else(|| out.unexpected("`write_json` printed no module marked as the top"))?;
        Ok(Dut {
            path: path.to_path_buf(),
            verilog,
            top,
            ports,
        })
    }

    /// Checks the ports against `contract` (see [`check_contract`]).
    pub fn check(&self, contract: Contract) -> Result<(), DutError> {
        let problems = check_contract(&self.ports, contract);
        if problems.is_empty() {
            return Ok(());
        }
        Err(DutError::Contract {
            path: self.path.clone(),
            top: self.top.clone(),
            contract: contract.module().to_owned(),
            contract_ports: contract.describe(),
            problems,
        })
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

/// The top module and its ports from yosys's `write_json` text.
fn parse_json_ports(json: &str) -> Option<(String, Vec<PortSpec>)> {
    #[derive(serde::Deserialize)]
    struct Netlist {
        modules: BTreeMap<String, Module>,
    }
    #[derive(serde::Deserialize)]
    struct Module {
        #[serde(default)]
        attributes: BTreeMap<String, serde_json::Value>,
        #[serde(default)]
        ports: BTreeMap<String, JsonPort>,
    }
    #[derive(serde::Deserialize)]
    struct JsonPort {
        direction: String,
        bits: Vec<serde_json::Value>,
    }
    // yosys may print log lines before the JSON even with -q (warnings): start at the `{`.
    let start = json.find('{')?;
    let netlist: Netlist = serde_json::from_str(&json[start..]).ok()?;
    let (name, module) = netlist.modules.into_iter().find(|(_, m)| {
        m.attributes.get("top").is_some_and(|v| {
            v.as_str().is_some_and(|s| s.trim_start_matches('0') == "1") || v.as_u64() == Some(1)
        })
    })?;
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
    Some((name, ports))
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
/// stimulus of [`sticks_stimulus`], on the external engines of `options.engines` (rust-hdl
/// and the model are not run as engines: the model is the reference). Engines work in
/// `dir/<engine>`.
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
    fn yosys_json_ports_and_top() {
        let json = r#"{"creator": "Yosys", "modules": {
            "helper": {"attributes": {}, "ports": {"p": {"direction": "input", "bits": [2]}}},
            "top": {"attributes": {"top": "00000000000000000000000000000001"},
                    "ports": {"a": {"direction": "input", "bits": [2, 3]},
                              "q": {"direction": "output", "bits": [4]}}}}}"#;
        let (top, ports) = parse_json_ports(json).unwrap();
        assert_eq!(top, "top");
        assert_eq!(
            ports,
            vec![
                PortSpec::new("a", Direction::Input, 2),
                PortSpec::new("q", Direction::Output, 1)
            ]
        );
    }

    #[test]
    fn a_controller_under_another_name_gets_a_wrapper() {
        let dut = Dut {
            path: "c.v".into(),
            verilog: "module mine(); endmodule".into(),
            top: "mine".into(),
            ports: Vec::new(),
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
}
