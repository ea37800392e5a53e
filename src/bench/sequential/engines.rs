//! The engines a `sticks_game` stimulus runs on: the reference model and rust-hdl in process;
//! the emitted Verilog under Icarus and under Verilator; the `synth_ice40` netlist with
//! yosys's iCE40 cell models under Icarus. Each is prepared once (Verilog written, simulator
//! built) and can then run any stimulus; the time of a run counts the simulation only (for the
//! external simulators: the process, which reads the stimulus and writes every output). The
//! simulators run in the engine's folder with every file named relative to it, and each run
//! is bounded by its number of cycles ([`SimulationLimit`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::testbench::{
    parse_line, sequential_testbench, stimulus_file, Observed, OUT_FILE, STIM_FILE,
    TESTBENCH_MODULE, VCD_FILE,
};
use super::CosimError;
use crate::circuit::sticks_game::{sticks_game_sim, sticks_game_verilog, GAME_MODULE};
use crate::circuit::sticks_strategy::Impl;
use crate::flow::iverilog::relative_to;
use crate::flow::runner::{self, Options, SimulationLimit, Tool};
use crate::flow::{iverilog, verilator, yosys};
use crate::game::SticksGame;
use crate::model::{Inputs, SticksGameModel};
use crate::solver::strategy::sticks_table;

/// A simulation engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// The plain-Rust reference model ([`SticksGameModel`]); the others are compared with it.
    Model,
    /// rust-hdl's simulation of the block, driven in process.
    RustHdl,
    /// The emitted Verilog under Icarus.
    Icarus,
    /// The emitted Verilog under Verilator.
    Verilator,
    /// The `synth_ice40` netlist with `ice40/cells_sim.v` under Icarus.
    GateLevel,
}

impl Engine {
    /// Every engine, the reference first.
    pub const ALL: [Engine; 5] = [
        Engine::Model,
        Engine::RustHdl,
        Engine::Icarus,
        Engine::Verilator,
        Engine::GateLevel,
    ];

    /// Short name, also the engine's work subdirectory.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Model => "model",
            Engine::RustHdl => "rust-hdl",
            Engine::Icarus => "icarus",
            Engine::Verilator => "verilator",
            Engine::GateLevel => "gate-level",
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct EngineRun {
    /// The outputs after every rising edge, one per stimulus cycle (fewer if the engine
    /// stopped early).
    pub observed: Vec<Observed>,
    /// Time the simulation took.
    pub elapsed: Duration,
}

#[derive(Debug)]
enum Kind {
    Model,
    RustHdl,
    Verilator { exe: PathBuf },
    Icarus { vvp: PathBuf },
}

/// An engine ready to run stimuli for one game and circuit.
#[derive(Debug)]
pub struct PreparedEngine {
    engine: Engine,
    kind: Kind,
    game: SticksGame,
    implementation: Impl,
    think_cycles: u32,
    take_bits: usize,
    dir: PathBuf,
    /// Time the preparation took (writing, synthesis, compilation).
    pub setup: Duration,
    /// A note on what was built (e.g. the netlist's cell counts).
    pub detail: String,
}

fn create_dir(dir: &Path) -> Result<(), CosimError> {
    std::fs::create_dir_all(dir).map_err(|source| CosimError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, CosimError> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|source| CosimError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

impl PreparedEngine {
    /// Prepares `engine` for `game`'s controller with the lookup as `implementation` and the
    /// machine answering after `think_cycles`; external engines work in `dir/<engine name>`.
    pub fn prepare(
        engine: Engine,
        game: &SticksGame,
        implementation: Impl,
        think_cycles: u32,
        dir: &Path,
    ) -> Result<Self, CosimError> {
        Self::prepare_with_verilog(engine, game, implementation, think_cycles, dir, None)
    }

    /// [`prepare`](Self::prepare), with the external engines simulating `verilog` (a
    /// `sticks_game` module for `game`'s widths) instead of the emitted Verilog: to check the
    /// bench catches a broken design.
    pub fn prepare_with_verilog(
        engine: Engine,
        game: &SticksGame,
        implementation: Impl,
        think_cycles: u32,
        dir: &Path,
        verilog: Option<String>,
    ) -> Result<Self, CosimError> {
        let start = Instant::now();
        let table = sticks_table(game).map_err(crate::circuit::SticksCircuitError::from)?;
        let (w, m) = (table.sticks_bits, table.take_bits);
        // The tools run inside `dir`: keep every path they get independent of the current one.
        let dir =
            std::path::absolute(dir.join(engine.name())).map_err(|source| CosimError::Io {
                path: dir.join(engine.name()),
                source,
            })?;
        let mut detail = String::new();
        let kind = match engine {
            Engine::Model => Kind::Model,
            Engine::RustHdl => {
                // Fail early if the block cannot be built.
                sticks_game_sim(game, implementation, think_cycles)?;
                Kind::RustHdl
            }
            Engine::Icarus | Engine::Verilator | Engine::GateLevel => {
                create_dir(&dir)?;
                let verilog = match verilog {
                    Some(v) => v,
                    None => sticks_game_verilog(game, implementation, think_cycles)?,
                };
                let design = write(&dir, &format!("{GAME_MODULE}.v"), &verilog)?;
                let tb = write(
                    &dir,
                    &format!("{TESTBENCH_MODULE}.v"),
                    &sequential_testbench(w, m),
                )?;
                match engine {
                    Engine::Verilator => {
                        let exe = verilator::build_binary(
                            &dir,
                            &[tb, design],
                            TESTBENCH_MODULE,
                            &[],
                            "sticks_game_sim",
                        )?;
                        detail = "verilator --binary of sticks_game.v".to_owned();
                        Kind::Verilator { exe }
                    }
                    Engine::Icarus => {
                        let vvp = iverilog::compile(
                            &dir,
                            &[tb, design],
                            TESTBENCH_MODULE,
                            &[],
                            "sticks_game_rtl",
                        )?;
                        detail = "iverilog -g2012 of sticks_game.v".to_owned();
                        Kind::Icarus { vvp }
                    }
                    _ => {
                        let synth = yosys::synth_ice40(&dir, &[design], GAME_MODULE)?;
                        let cells = yosys::ice40_cells_sim(&dir)?;
                        let vvp = iverilog::compile(
                            &dir,
                            &[tb, synth.netlist_verilog, cells],
                            TESTBENCH_MODULE,
                            &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
                            "sticks_game_gate",
                        )?;
                        detail = format!(
                            "synth_ice40 netlist ({} SB_LUT4, {} flip-flops, {} SB_CARRY) + \
                             ice40/cells_sim.v under Icarus",
                            synth.stats.lut4, synth.stats.dff, synth.stats.carry
                        );
                        Kind::Icarus { vvp }
                    }
                }
            }
        };
        Ok(PreparedEngine {
            engine,
            kind,
            game: game.clone(),
            implementation,
            think_cycles,
            take_bits: m,
            dir,
            setup: start.elapsed(),
            detail,
        })
    }

    /// The engine.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Runs `inputs` from power-on and returns the outputs after every rising edge.
    pub fn run(&self, inputs: &[Inputs]) -> Result<EngineRun, CosimError> {
        match &self.kind {
            Kind::Model => {
                let mut model = SticksGameModel::new(&self.game, self.think_cycles);
                let start = Instant::now();
                let observed = inputs
                    .iter()
                    .map(|&i| Observed::Known(model.step(i)))
                    .collect();
                Ok(EngineRun {
                    observed,
                    elapsed: start.elapsed(),
                })
            }
            Kind::RustHdl => {
                let mut sim = sticks_game_sim(&self.game, self.implementation, self.think_cycles)?;
                let start = Instant::now();
                let observed = inputs
                    .iter()
                    .map(|i| Observed::Known(sim.step(i)))
                    .collect();
                Ok(EngineRun {
                    observed,
                    elapsed: start.elapsed(),
                })
            }
            Kind::Verilator { .. } | Kind::Icarus { .. } => self.run_external(inputs, None),
        }
    }

    fn run_external(
        &self,
        inputs: &[Inputs],
        vcd_cycles: Option<usize>,
    ) -> Result<EngineRun, CosimError> {
        write(&self.dir, STIM_FILE, &stimulus_file(inputs, self.take_bits))?;
        let out_path = self.dir.join(OUT_FILE);
        let _ = std::fs::remove_file(&out_path);
        let mut args: Vec<String> = Vec::new();
        if let Some(n) = vcd_cycles {
            args.push("+vcd".to_owned());
            args.push(format!("+cycles={n}"));
        }
        let log = if vcd_cycles.is_some() {
            "sticks_game_vcd.log"
        } else {
            "sticks_game_run.log"
        };
        // Bounded by the stimulus's length: a controller that loops stops with a message
        // saying so, not after the tools' 600 s.
        let options = Options {
            simulation: Some(SimulationLimit::cycles(
                vcd_cycles.unwrap_or(inputs.len()).min(inputs.len()),
            )),
            ..Options::default()
        };
        let start = Instant::now();
        let out = match &self.kind {
            Kind::Verilator { exe } => {
                runner::output_program_with(exe, &self.dir, &args, Some(log), options)?.check()?
            }
            Kind::Icarus { vvp } => {
                let mut all = vec!["-n".into(), relative_to(&self.dir, vvp)];
                all.extend(args.iter().map(std::ffi::OsString::from));
                runner::output_with(Tool::Vvp, &self.dir, &all, Some(log), options)?.check()?
            }
            _ => unreachable!("only external engines get here"),
        };
        let elapsed = start.elapsed();
        let expected = vcd_cycles.unwrap_or(inputs.len()).min(inputs.len());
        let done = out
            .stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix("DONE "))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok());
        if done != Some(expected) {
            return Err(CosimError::Engine {
                engine: self.engine,
                problem: format!(
                    "the testbench did not report `DONE {expected} cycles` (got {done:?})"
                ),
                log: out.log_name(),
            });
        }
        let text = std::fs::read_to_string(&out_path).map_err(|source| CosimError::Io {
            path: out_path.clone(),
            source,
        })?;
        Ok(EngineRun {
            observed: text.lines().map(parse_line).collect(),
            elapsed,
        })
    }

    /// Runs the first `cycles` cycles of `inputs` again, dumping every signal to a VCD, and
    /// returns its path (`None` for the model, which is the reference).
    pub fn write_vcd(
        &self,
        inputs: &[Inputs],
        cycles: usize,
    ) -> Result<Option<PathBuf>, CosimError> {
        let cycles = cycles.min(inputs.len());
        match &self.kind {
            Kind::Model => Ok(None),
            Kind::RustHdl => {
                create_dir(&self.dir)?;
                let path = self.dir.join("sticks_game.vcd");
                let file = std::fs::File::create(&path).map_err(|source| CosimError::Io {
                    path: path.clone(),
                    source,
                })?;
                let mut sim = sticks_game_sim(&self.game, self.implementation, self.think_cycles)?;
                sim.trace(Box::new(std::io::BufWriter::new(file)));
                for i in &inputs[..cycles] {
                    sim.step(i);
                }
                sim.finish_trace();
                Ok(Some(path))
            }
            Kind::Verilator { .. } | Kind::Icarus { .. } => {
                self.run_external(inputs, Some(cycles))?;
                Ok(Some(self.dir.join(VCD_FILE)))
            }
        }
    }
}
