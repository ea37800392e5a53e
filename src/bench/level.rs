//! The verification levels: one enum for every design `verify` checks, with each level's
//! number, name, command-line name, work subfolder and co-simulation engine in one place.

use std::fmt;
use std::path::{Path, PathBuf};

use super::sequential::Engine;

/// A verification level. Levels 1 to 7 serve the designs of `verify jr01`, `sticks` and
/// `solver`, each running the ones that apply to it; level 8 is `verify bitstream`'s (see
/// [`super::plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 1: rust-hdl's own simulation of the block (`update()`).
    RustHdl,
    /// 2: the emitted Verilog under Icarus Verilog.
    Icarus,
    /// 3: the same under Verilator.
    Verilator,
    /// 4: the yosys `synth_ice40` netlist with yosys's iCE40 cell models, under Icarus.
    GateLevel,
    /// 5: a formal proof against the solver's answer: a yosys SAT proof that a strategy equals
    /// its table; for the on-chip solver, a k-induction proof of its tables.
    Formal,
    /// 6: the `sticks_game` controller's properties, proved by k-induction (yosys-smtbmc, z3) or
    /// ABC's PDR (a user's controller).
    Properties,
    /// 7: the `synth_ice40` netlist proved equal to its RTL (yosys `equiv_*`).
    Equivalence,
    /// 8: a board design's bitstream read back (`iceunpack`, `icebox_vlog`) and simulated
    /// through its pins against the RTL top and the solver (`verify bitstream` only).
    Bitstream,
}

impl Level {
    /// All levels in order.
    pub const ALL: [Level; 8] = [
        Level::RustHdl,
        Level::Icarus,
        Level::Verilator,
        Level::GateLevel,
        Level::Formal,
        Level::Properties,
        Level::Equivalence,
        Level::Bitstream,
    ];

    /// The level's number, 1 to 8.
    pub fn number(self) -> u8 {
        match self {
            Level::RustHdl => 1,
            Level::Icarus => 2,
            Level::Verilator => 3,
            Level::GateLevel => 4,
            Level::Formal => 5,
            Level::Properties => 6,
            Level::Equivalence => 7,
            Level::Bitstream => 8,
        }
    }

    /// A short description.
    pub fn name(self) -> &'static str {
        match self {
            Level::RustHdl => "rust-hdl simulation",
            Level::Icarus => "Verilog under Icarus",
            Level::Verilator => "Verilog under Verilator",
            Level::GateLevel => "iCE40 gate-level netlist under Icarus",
            Level::Formal => "formal equivalence (yosys sat)",
            Level::Properties => "controller properties (yosys-smtbmc k-induction, ABC pdr)",
            Level::Equivalence => "iCE40 netlist equivalence (yosys equiv_induct)",
            Level::Bitstream => "bitstream read back (icebox_vlog) against the RTL top",
        }
    }

    /// The name `verify --level` takes: `rust-hdl`, `icarus`, `verilator`, `gate-level`,
    /// `formal`, `properties`, `equivalence`, `bitstream`.
    pub fn cli_name(self) -> &'static str {
        match self {
            Level::RustHdl => "rust-hdl",
            Level::Icarus => "icarus",
            Level::Verilator => "verilator",
            Level::GateLevel => "gate-level",
            Level::Formal => "formal",
            Level::Properties => "properties",
            Level::Equivalence => "equivalence",
            Level::Bitstream => "bitstream",
        }
    }

    /// The level of a `--level` name.
    pub fn from_cli_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.cli_name() == name)
    }

    /// The work subfolder the level writes into (its sources, logs and waveforms), `None` for
    /// rust-hdl, which runs in process.
    pub fn folder(self) -> Option<&'static str> {
        match self {
            Level::RustHdl => None,
            Level::Icarus => Some("icarus"),
            Level::Verilator => Some("verilator"),
            Level::GateLevel => Some("gate"),
            Level::Formal => Some("formal"),
            Level::Properties => Some("properties"),
            Level::Equivalence => Some("equivalence"),
            Level::Bitstream => Some("bitstream"),
        }
    }

    /// The level's [`folder`](Level::folder) under `work` (`work` itself for rust-hdl, which
    /// writes nothing), made absolute (the tools run inside it and are given their files'
    /// paths) and created with its parents; on failure, the path and why.
    pub fn work_dir(self, work: &Path) -> Result<PathBuf, (PathBuf, std::io::Error)> {
        let work = std::path::absolute(work).map_err(|e| (work.to_path_buf(), e))?;
        let dir = match self.folder() {
            Some(folder) => work.join(folder),
            None => work,
        };
        std::fs::create_dir_all(&dir).map_err(|e| (dir.clone(), e))?;
        Ok(dir)
    }

    /// The co-simulation engine that runs this level for a clocked design, if any.
    pub fn engine(self) -> Option<Engine> {
        match self {
            Level::RustHdl => Some(Engine::RustHdl),
            Level::Icarus => Some(Engine::Icarus),
            Level::Verilator => Some(Engine::Verilator),
            Level::GateLevel => Some(Engine::GateLevel),
            Level::Formal | Level::Properties | Level::Equivalence | Level::Bitstream => None,
        }
    }

    /// The level a co-simulation engine runs (`None` for the reference model, which is the
    /// answer, not a level).
    pub fn of_engine(engine: Engine) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.engine() == Some(engine))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {} ({})", self.number(), self.name())
    }
}

/// `levels 1, 2, 5` (or `level 2`) for a header line.
pub fn level_list(levels: &[Level]) -> String {
    let numbers: Vec<String> = levels.iter().map(|l| l.number().to_string()).collect();
    format!(
        "level{} {}",
        if levels.len() == 1 { "" } else { "s" },
        numbers.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_engines_round_trip() {
        for level in Level::ALL {
            assert_eq!(Level::from_cli_name(level.cli_name()), Some(level));
            if let Some(engine) = level.engine() {
                assert_eq!(Level::of_engine(engine), Some(level));
            }
        }
        assert_eq!(Level::of_engine(Engine::Model), None);
        let numbers: Vec<u8> = Level::ALL.iter().map(|l| l.number()).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn level_lists_read_as_english() {
        assert_eq!(level_list(&[Level::Icarus]), "level 2");
        assert_eq!(
            level_list(&[Level::RustHdl, Level::Formal, Level::Equivalence]),
            "levels 1, 5, 7"
        );
    }
}
