//! Level 8: the bitstream read back. The `.bin` that goes on the board (the one `retrogate
//! build` leaves, built when missing, or any `--bin`) is unpacked (`iceunpack`), read back as
//! Verilog of the configured chip with the board's pin names (`icebox_vlog`), timed by
//! `icetime` (beside nextpnr's Fmax), and simulated through its pins under Verilator next to
//! the RTL top it was built from (the same Verilog `build` synthesises): both get the same
//! stimulus at the board's real timing (power-on, presses held past the debounce time, waits
//! past the machine's think time) and every output pin is compared every cycle. The first
//! differing pin is reported with its time, expected and actual value, and a VCD and SVG of
//! the cycles before it. For J.R. 01, what the LEDs and digits show after each press is also
//! decoded and checked against the solver's table, so the check stands on the solver, not
//! only on the RTL.
//!
//! Not modelled: the iCE40 PLL (`icebox_vlog` leaves `SB_PLL40_CORE` out of the read-back, so a
//! design the board clocks through a PLL is reported as a failed level saying so), and the
//! drive of pins read through `SB_IO` pads (the Alchitry Io switches): the testbench drives
//! those pins as a switch does, and both models read them.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::board::{Board, BoardId, Polarity, Role};
use crate::circuit::board_io::DIGIT_SEGMENTS;
use crate::circuit::top::jr01::{layout as jr01_layout, Jr01In, Jr01Out};
use crate::circuit::top::{top_verilog, Design, Timing, Wire, PLL_LOCK_CYCLES};
use crate::flow::runner::{self, SimulationLimit, Tool, ToolError};
use crate::flow::{equiv, icestorm, verilator};
use crate::verilog::PortDir;

/// Where the bitstream comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BitstreamSource {
    /// The build folder `retrogate build` leaves for the board and design: its `.bin`, built
    /// (or rebuilt) there when missing or stale.
    Build(PathBuf),
    /// A bitstream file (`--bin`).
    File(PathBuf),
}

/// What `verify bitstream` checks: a board, a design, and whose bitstream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitstreamTarget {
    /// The board.
    pub board: BoardId,
    /// The design on it.
    pub design: Design,
    /// The bitstream.
    pub source: BitstreamSource,
}

/// The first output pin where the read-back chip and the RTL top differ.
#[derive(Clone, Debug, PartialEq)]
pub struct PinMismatch {
    /// The pin (the PCF name, e.g. `LEDG_N`, `io_led[3]`).
    pub pin: String,
    /// The clock cycle (rising edges since power-on).
    pub cycle: u64,
    /// Seconds since power-on at the design clock.
    pub seconds: f64,
    /// The RTL top's level.
    pub expected: char,
    /// The chip's level.
    pub actual: char,
    /// The waveform of the cycles before it.
    pub vcd: Option<PathBuf>,
    /// The same, drawn.
    pub svg: Option<PathBuf>,
}

/// What level 8 found.
#[derive(Clone, Debug, PartialEq)]
pub struct BitstreamReport {
    /// Every output pin agreed every cycle, and every decoded checkpoint matched the solver.
    pub passed: bool,
    /// The bitstream checked.
    pub bin: PathBuf,
    /// Clock cycles simulated.
    pub cycles: u64,
    /// Seconds of board time they make at the design clock.
    pub board_seconds: f64,
    /// Output pins compared every cycle.
    pub pins: usize,
    /// Presses and switch changes in the stimulus.
    pub presses: usize,
    /// Checkpoints decoded against the solver (J.R. 01), and how many matched.
    pub decoded: usize,
    /// The first checkpoint that did not match the solver, if any.
    pub decode_failure: Option<String>,
    /// The first differing pin, if any.
    pub mismatch: Option<PinMismatch>,
    /// nextpnr's Fmax of the build, MHz (unknown for a `--bin`).
    pub nextpnr_mhz: Option<f64>,
    /// icetime's, MHz.
    pub icetime_mhz: f64,
    /// The design clock, MHz.
    pub clock_mhz: f64,
    /// Wall-clock time, tools and the build included.
    pub elapsed: Duration,
}

impl BitstreamReport {
    /// The line's detail: what ran and what it found.
    pub fn detail(&self) -> String {
        let fmax = match self.nextpnr_mhz {
            Some(n) => format!(
                "Fmax {n:.1} MHz (nextpnr), {:.1} MHz (icetime)",
                self.icetime_mhz
            ),
            None => format!(
                "Fmax {:.1} MHz (icetime; nextpnr's unknown for --bin)",
                self.icetime_mhz
            ),
        };
        let decoded = if self.decoded > 0 {
            format!(", {} checkpoints decoded against the solver", self.decoded)
        } else {
            String::new()
        };
        format!(
            "{} pins compared over {} cycles ({:.2} s at {} MHz, {} presses){decoded}; {fmax} \
             for {} MHz",
            self.pins,
            self.cycles,
            self.board_seconds,
            self.clock_mhz,
            self.presses,
            self.clock_mhz
        )
    }
}

impl fmt::Display for BitstreamReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({}) in {:.1} s",
            crate::bench::Level::Bitstream,
            if self.passed { "PASS" } else { "FAIL" },
            self.detail(),
            self.elapsed.as_secs_f64()
        )?;
        if let Some(m) = &self.mismatch {
            write!(
                f,
                "\n  first mismatch: pin {} at cycle {} ({:.6} s after power-on): expected {}, \
                 actual {}",
                m.pin, m.cycle, m.seconds, m.expected, m.actual
            )?;
            if let Some(vcd) = &m.vcd {
                write!(f, "; waveform {}", vcd.display())?;
            }
            if let Some(svg) = &m.svg {
                write!(f, " {}", svg.display())?;
            }
        }
        if let Some(why) = &self.decode_failure {
            write!(f, "\n  against the solver: {why}")?;
        }
        Ok(())
    }
}

/// Why the level could not reach a verdict.
#[derive(Debug, thiserror::Error)]
pub enum BitstreamError {
    /// A tool failed or is missing.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// The default bitstream could not be built.
    #[error("building the bitstream: {0}")]
    Build(String),
    /// The top, its PCF, or the read-back chip does not fit (the message says what to do).
    #[error("{0}")]
    Setup(String),
}

/// The checks of `--bin FILE` before anything is written: a readable file holding the iCE40
/// sync word `7E AA 99 7E` near its start, as every bitstream icepack writes does.
pub fn check_bin(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "--bin {}: cannot read it ({e}); give the .bin that icepack (or `retrogate build`) \
             wrote",
            path.display()
        )
    })?;
    let head = &bytes[..bytes.len().min(4096)];
    if head.windows(4).any(|w| w == [0x7E, 0xAA, 0x99, 0x7E]) {
        Ok(())
    } else {
        Err(format!(
            "--bin {}: not an iCE40 bitstream (no sync word 7E AA 99 7E in its first 4 KiB); \
             give the .bin that icepack (or `retrogate build`) wrote, not the .asc or a \
             netlist",
            path.display()
        ))
    }
}

/// One input pin of the top, as the testbench drives it.
#[derive(Clone, Debug)]
pub(crate) struct InputPin {
    /// The pin (PCF name).
    pub(crate) name: String,
    /// Its level when released (open).
    pub(crate) idle: bool,
}

/// One output pin of the top.
#[derive(Clone, Debug)]
struct OutputPin {
    name: String,
    active_low: bool,
}

/// The stimulus: rows of input levels, each held some cycles.
#[derive(Clone, Debug, Default)]
struct Stimulus {
    rows: Vec<(u64, Vec<bool>)>,
    presses: usize,
    /// Rows after which J.R. 01's position is this.
    checkpoints: Vec<(usize, u32)>,
}

impl Stimulus {
    fn hold(&mut self, levels: &[bool], cycles: u64) {
        if cycles > 0 {
            self.rows.push((cycles, levels.to_vec()));
        }
    }

    fn cycles(&self) -> u64 {
        self.rows.iter().map(|(n, _)| n).sum()
    }
}

/// The bit names of the top's ports in `dir`, in port order, without the clock.
pub(crate) fn pins(
    top: &crate::circuit::top::TopVerilog,
    clock: &str,
    inputs: bool,
) -> Vec<String> {
    top.ports
        .iter()
        .filter(|p| p.name != clock)
        .filter(|p| (p.dir == PortDir::Output) != inputs)
        .flat_map(|p| p.bit_names())
        .collect()
}

pub(crate) fn active_low(board: &Board, pin: &str) -> bool {
    board
        .pin(pin)
        .is_some_and(|p| p.polarity == Polarity::ActiveLow)
}

/// The stimulus for `design` on `board`: power-on, then presses held past the debounce time;
/// J.R. 01 walks every position (Gray code C B C A C B C); the other designs turn on their
/// first three switches, press every button once in port order (reset buttons last) and wait
/// past the machine's think time after the last game button.
fn stimulus(board: &Board, design: &Design, timing: &Timing, inputs: &[InputPin]) -> Stimulus {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let idle: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let mut s = Stimulus::default();
    let power_on = 4 * debounce + 4 * tick + u64::from(PLL_LOCK_CYCLES);
    s.hold(&idle, power_on);
    let index = |name: &str| inputs.iter().position(|p| p.name == name);
    match design {
        Design::Jr01 => {
            // Which input flips (a button) or sets (a switch) each position bit.
            let mut controls: [Option<(usize, bool)>; 3] = [None; 3];
            for wire in jr01_layout(board.id).wires {
                match *wire {
                    Wire::Input(name, Jr01In::Toggle(n)) => {
                        controls[usize::from(n)] = index(name).map(|k| (k, true));
                    }
                    Wire::InputBus(name, roles) => {
                        for (i, role) in roles.iter().enumerate() {
                            if let Jr01In::Switch(n) = role {
                                controls[usize::from(*n)] =
                                    index(&format!("{name}[{i}]")).map(|k| (k, false));
                            }
                        }
                    }
                    _ => {}
                }
            }
            let mut levels = idle.clone();
            let mut position = 0u32;
            s.checkpoints.push((s.rows.len() - 1, position));
            for bit in [0usize, 1, 0, 2, 0, 1, 0] {
                let Some((k, button)) = controls[bit] else {
                    continue;
                };
                position ^= 1 << bit;
                s.presses += 1;
                if button {
                    let mut pressed = levels.clone();
                    pressed[k] = !inputs[k].idle;
                    s.hold(&pressed, 3 * debounce);
                } else {
                    levels[k] = !levels[k];
                }
                s.hold(&levels, 3 * debounce);
                s.checkpoints.push((s.rows.len() - 1, position));
            }
        }
        Design::Sticks(_) | Design::Solver => {
            // Switches: the first three turned on, one at a time, and left on. Buttons: each
            // pressed once (reset buttons last), the machine's think time waited after the
            // last press of a game button.
            let short = 3 * debounce;
            let think = timing.think_ticks * tick + 3 * debounce;
            let role = |k: usize| board.pin(&inputs[k].name).map(|p| p.role);
            let mut levels = idle.clone();
            for k in (0..inputs.len())
                .filter(|&k| role(k) == Some(Role::Switch))
                .take(3)
            {
                levels[k] = !levels[k];
                s.hold(&levels, short);
                s.presses += 1;
            }
            let game: Vec<usize> = (0..inputs.len())
                .filter(|&k| !matches!(role(k), Some(Role::Switch | Role::Reset)))
                .collect();
            let reset: Vec<usize> = (0..inputs.len())
                .filter(|&k| role(k) == Some(Role::Reset))
                .collect();
            for (n, &k) in game.iter().chain(&reset).enumerate() {
                let mut pressed = levels.clone();
                pressed[k] = !inputs[k].idle;
                s.hold(&pressed, 2 * debounce + 2 * tick);
                let last_game = n + 1 == game.len();
                s.hold(&levels, if last_game { think } else { short });
                s.presses += 1;
            }
        }
    }
    s
}

/// A Verilog identifier for a pin's wire: `io_led[3]` becomes `io_led_3`.
pub(crate) fn wire_name(pin: &str) -> String {
    pin.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .trim_end_matches('_')
        .to_owned()
}

/// A port of an instance: its name, its bus range (`(msb, lsb)`; `None` for a scalar, whose
/// name is the pin's) and whether it is an output.
pub(crate) type PortConn = (String, Option<(usize, usize)>, bool);

/// The port connections of an instance: each port of `ports` to its bits' wires (`prefix` +
/// wire name for outputs, `in_vec[k]` for inputs, a constant 0 for an input the stimulus does
/// not drive).
pub(crate) fn connections(
    ports: &[PortConn],
    clock: &str,
    inputs: &[InputPin],
    prefix: &str,
) -> String {
    let mut conns = vec![format!(".{clock}({clock})")];
    for (name, range, output) in ports {
        let bit = |i: Option<usize>| -> String {
            let pin = match i {
                Some(i) => format!("{name}[{i}]"),
                None => name.clone(),
            };
            if *output {
                format!("{prefix}{}", wire_name(&pin))
            } else {
                match inputs.iter().position(|p| p.name == pin) {
                    Some(k) => format!("in_vec[{k}]"),
                    None => "1'b0".to_owned(),
                }
            }
        };
        let value = match range {
            None => bit(None),
            Some((msb, lsb)) => {
                let bits: Vec<String> = if msb >= lsb {
                    (*lsb..=*msb).rev().map(|i| bit(Some(i))).collect()
                } else {
                    (*msb..=*lsb).map(|i| bit(Some(i))).collect()
                };
                format!("{{{}}}", bits.join(", "))
            }
        };
        conns.push(format!(".{}({value})", icestorm::escaped(name)));
    }
    conns.join(",\n    ")
}

/// The testbench: both models on one stimulus, every output compared after every rising edge.
fn testbench(
    module: &str,
    clock: &str,
    rtl_ports: &[PortConn],
    chip_ports: &[PortConn],
    inputs: &[InputPin],
    outputs: &[OutputPin],
    rows: usize,
) -> String {
    let w = inputs.len().max(1);
    let mut v = String::from(
        "// The read-back chip against the RTL top, pin by pin (retrogate verify bitstream).\n\
         `timescale 1ns/1ps\nmodule bitstream_tb;\n",
    );
    v.push_str(&format!(
        "  reg {clock} = 1'b0;\n  reg [{}:0] in_vec;\n",
        w - 1
    ));
    for o in outputs {
        let n = wire_name(&o.name);
        v.push_str(&format!("  wire e_{n};\n  wire a_{n};\n"));
    }
    v.push_str(&format!(
        "  {module} rtl (\n    {}\n  );\n",
        connections(rtl_ports, clock, inputs, "e_")
    ));
    v.push_str(&format!(
        "  {} dut (\n    {}\n  );\n",
        icestorm::CHIP_MODULE,
        connections(chip_ports, clock, inputs, "a_")
    ));
    let all = |p: &str| {
        outputs
            .iter()
            .rev()
            .map(|o| format!("{p}{}", wire_name(&o.name)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let o = outputs.len();
    v.push_str(&format!(
        "  wire [{}:0] e_all = {{{}}};\n  wire [{}:0] a_all = {{{}}};\n",
        o - 1,
        all("e_"),
        o - 1,
        all("a_")
    ));
    v.push_str(&format!("  reg [{}:0] rows [0:{}];\n", w + 31, rows - 1));
    v.push_str(&format!(
        "  integer k;\n  reg [31:0] n;\n  reg [63:0] cycle;\n  reg [63:0] vcd_from;\n\
         \x20 initial begin\n\
         \x20   cycle = 0;\n\
         \x20   if (!$value$plusargs(\"vcd_from=%d\", vcd_from)) vcd_from = ~64'd0;\n\
         \x20   $readmemh(\"stimulus.hex\", rows);\n\
         \x20   for (k = 0; k < {rows}; k = k + 1) begin\n\
         \x20     in_vec = rows[k][{}:0];\n\
         \x20     for (n = rows[k][{}:{w}]; n != 0; n = n - 1) begin\n\
         \x20       if (cycle == vcd_from) begin\n\
         \x20         $dumpfile(\"bitstream.vcd\");\n\
         \x20         $dumpvars(1, bitstream_tb);\n\
         \x20       end\n\
         \x20       #1 {clock} = 1'b1;\n\
         \x20       #1 {clock} = 1'b0;\n\
         \x20       cycle = cycle + 1;\n\
         \x20       if (e_all !== a_all) begin\n\
         \x20         $display(\"MISMATCH %0d %b %b\", cycle, e_all, a_all);\n\
         \x20         #1 $finish;\n\
         \x20       end\n\
         \x20     end\n\
         \x20     $display(\"ROW %0d %0d %b\", k, cycle, a_all);\n\
         \x20   end\n\
         \x20   $display(\"DONE %0d\", cycle);\n\
         \x20   $finish;\n\
         \x20 end\nendmodule\n",
        w - 1,
        w + 31,
    ));
    v
}

/// The stimulus rows for `$readmemh`: the count, then the input levels (bit k = input k).
fn stimulus_hex(s: &Stimulus, width: usize) -> String {
    let digits = width.div_ceil(4);
    let mut out = String::new();
    for (n, levels) in &s.rows {
        let mut word = vec![0u8; digits];
        for (k, &l) in levels.iter().enumerate() {
            if l {
                word[digits - 1 - k / 4] |= 1 << (k % 4);
            }
        }
        let hex: String = word.iter().map(|d| format!("{d:x}")).collect();
        out.push_str(&format!("{n:08x}{hex}\n"));
    }
    out
}

/// Runs level 8 for `target` in `dir` (created).
pub fn run_bitstream_level(
    target: &BitstreamTarget,
    dir: &Path,
) -> Result<BitstreamReport, BitstreamError> {
    let start = Instant::now();
    let board = target.board.board();
    let design = &target.design;
    std::fs::create_dir_all(dir)
        .map_err(|e| ToolError::io(Tool::Iceunpack, "creating the work folder", dir, e))?;
    let timing = Timing::for_design(board, design);
    let top = top_verilog(target.board, design, &timing)
        .map_err(|e| BitstreamError::Setup(e.to_string()))?;
    let pcf = top
        .pcf()
        .map_err(|e| BitstreamError::Setup(e.to_string()))?;

    // The bitstream.
    let (bin, nextpnr_mhz) = match &target.source {
        BitstreamSource::File(path) => (path.clone(), None),
        BitstreamSource::Build(folder) => {
            let report = crate::build::build(target.board, design, folder, 1, &mut |_| {})
                .map_err(|e| BitstreamError::Build(e.to_string()))?;
            (report.bitstream.clone(), Some(report.fmax_mhz))
        }
    };
    let bytes = std::fs::read(&bin).map_err(|e| {
        ToolError::io(
            Tool::Iceunpack,
            format!("reading {}", bin.display()),
            dir,
            e,
        )
    })?;
    std::fs::write(dir.join("chip.bin"), bytes)
        .map_err(|e| ToolError::io(Tool::Iceunpack, "writing chip.bin", dir, e))?;
    icestorm::unpack(dir, "chip.bin", "chip.asc")?;
    let icetime = icestorm::icetime(dir, "chip.asc", board.device, board.package)?;
    runner::write_file(Tool::IceboxVlog, dir, "chip.pcf", &icestorm::vlog_pcf(&pcf))?;
    let read = icestorm::read_back(
        dir,
        "chip.asc",
        "chip.pcf",
        board.package,
        "chip_readback.v",
    )?;
    let read = std::fs::read_to_string(&read)
        .map_err(|e| ToolError::io(Tool::IceboxVlog, "reading chip_readback.v", dir, e))?;
    let driven: Vec<&str> = top
        .ports
        .iter()
        .filter(|p| p.dir != PortDir::Output)
        .map(|p| p.name.as_str())
        .collect();
    let (Some(chip_ports), Some(chip_v)) = (
        icestorm::chip_ports(&read),
        icestorm::simulation_source(&read, &driven),
    ) else {
        return Err(BitstreamError::Setup(
            "icebox_vlog's Verilog has no `module chip (...)` header".into(),
        ));
    };
    runner::write_file(Tool::IceboxVlog, dir, "chip.v", &chip_v)?;

    let clock = board.clock.pin;
    if board.pll(design.name()).is_some() {
        return Err(BitstreamError::Setup(format!(
            "{} on {} is clocked by the iCE40 PLL (SB_PLL40_CORE), which icebox_vlog leaves \
             out of the read-back chip; the pin-level simulation of a PLL design is not \
             supported yet (icetime: Fmax {:.1} MHz)",
            design.name(),
            target.board,
            icetime.fmax_mhz
        )));
    }
    let inputs: Vec<InputPin> = pins(&top, clock, true)
        .into_iter()
        .map(|name| InputPin {
            idle: active_low(board, &name),
            name,
        })
        .collect();
    let outputs: Vec<OutputPin> = pins(&top, clock, false)
        .into_iter()
        .map(|name| OutputPin {
            active_low: active_low(board, &name),
            name,
        })
        .collect();
    let rtl_ports: Vec<PortConn> = top
        .ports
        .iter()
        .filter(|p| p.name != clock)
        .map(|p| {
            let range = (p.width > 1).then(|| (p.width - 1, 0));
            (p.name.clone(), range, p.dir == PortDir::Output)
        })
        .collect();
    // The chip's ports, checked against the top's: every output pin must be there (as the
    // collected bus or, for a lone bit, as `name[i]`).
    let mut chip_conns: Vec<PortConn> = Vec::new();
    for (name, _, output) in &rtl_ports {
        let before = chip_conns.len();
        chip_conns.extend(
            chip_ports
                .iter()
                .filter(|p| {
                    p.name == *name
                        || (p.range.is_none() && p.name.split('[').next() == Some(name.as_str()))
                })
                .map(|p| (p.name.clone(), p.range, *output)),
        );
        if chip_conns.len() == before && *output {
            return Err(BitstreamError::Setup(format!(
                "the bitstream drives no pin {name}, an output of {}: was it built for \
                 --board {} --design {}? (its pins: {})",
                top.module,
                target.board,
                design.name(),
                chip_ports
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    if !chip_ports.iter().any(|p| p.name == clock) {
        return Err(BitstreamError::Setup(format!(
            "the bitstream reads no clock pin {clock}: was it built for --board {}?",
            target.board
        )));
    }

    let stim = stimulus(board, design, &timing, &inputs);
    runner::write_file(
        Tool::Verilator,
        dir,
        "stimulus.hex",
        &stimulus_hex(&stim, inputs.len().max(1)),
    )?;
    runner::write_file(Tool::Verilator, dir, "rtl_top.v", &top.verilog)?;
    let rtl = equiv::pins_as_inputs(dir, &[dir.join("rtl_top.v")], "rtl_pins")?;
    let chip = dir.join("chip.v");
    let mut for_models = rtl.clone();
    for_models.push(chip.clone());
    let cells = equiv::cell_models(
        dir,
        &for_models,
        "ice40_cells.v",
        equiv::BlockRam::Simulated,
    )?;
    let tb = testbench(
        &top.module,
        clock,
        &rtl_ports,
        &chip_conns,
        &inputs,
        &outputs,
        stim.rows.len(),
    );
    let tb = runner::write_file(Tool::Verilator, dir, "bitstream_tb.v", &tb)?;
    let mut sources = vec![cells];
    sources.extend(rtl);
    sources.push(chip);
    sources.push(tb);
    let model = verilator::build_model(
        dir,
        &sources,
        "bitstream_tb",
        &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
        "bitstream_tb",
    )?;
    let cycles = stim.cycles();
    let limit = SimulationLimit::cycles(usize::try_from(cycles).unwrap_or(usize::MAX));
    let out = verilator::execute_limited(dir, &model.exe, "bitstream_tb", &[], limit)?;
    let hz = f64::from(board.design_clock_hz(design.name()));
    let mut report = BitstreamReport {
        passed: false,
        bin,
        cycles,
        board_seconds: cycles as f64 / hz,
        pins: outputs.len(),
        presses: stim.presses,
        decoded: 0,
        decode_failure: None,
        mismatch: None,
        nextpnr_mhz,
        icetime_mhz: icetime.fmax_mhz,
        clock_mhz: hz / 1e6,
        elapsed: Duration::ZERO,
    };
    let lines: Vec<&str> = out.stdout.lines().collect();
    if let Some(line) = lines.iter().find(|l| l.starts_with("MISMATCH ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (cycle, e, a) = match words[..] {
            [_, c, e, a] => (c.parse::<u64>().unwrap_or(0), e, a),
            _ => return Err(out.unexpected(format!("a malformed line: {line}")).into()),
        };
        let e: Vec<char> = e.chars().rev().collect();
        let a: Vec<char> = a.chars().rev().collect();
        let k = (0..outputs.len())
            .find(|&k| e.get(k) != a.get(k))
            .unwrap_or(0);
        let pin = outputs[k].name.clone();
        let (vcd, svg) = waveform(dir, &model.exe, cycle, clock, &pin, limit);
        report.mismatch = Some(PinMismatch {
            pin,
            cycle,
            seconds: cycle as f64 / hz,
            expected: e.get(k).copied().unwrap_or('?'),
            actual: a.get(k).copied().unwrap_or('?'),
            vcd,
            svg,
        });
    } else if !lines.iter().any(|l| l.starts_with("DONE ")) {
        let out = out.check()?;
        return Err(out
            .unexpected("the testbench stopped before its last row")
            .into());
    }
    if report.mismatch.is_none() {
        // What the board shows at each checkpoint, against the solver (J.R. 01).
        let rows: Vec<Vec<char>> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("ROW "))
            .filter_map(|l| l.split_whitespace().nth(2))
            .map(|bits| bits.chars().rev().collect())
            .collect();
        if let Design::Jr01 = design {
            let (decoded, failure) = decode_jr01(board, &outputs, &stim, &rows)?;
            report.decoded = decoded;
            report.decode_failure = failure;
        }
    }
    report.passed = report.mismatch.is_none() && report.decode_failure.is_none();
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Checks J.R. 01's LEDs and digits at each checkpoint against the solver's table: the shown
/// position is the one the presses made, the shown answer the table's row for it. Returns the
/// checkpoints decoded and the first that did not match.
fn decode_jr01(
    board: &Board,
    outputs: &[OutputPin],
    stim: &Stimulus,
    rows: &[Vec<char>],
) -> Result<(usize, Option<String>), BitstreamError> {
    let table = crate::solver::strategy::Jr01Strategy::derive()
        .map_err(|e| BitstreamError::Setup(e.to_string()))?
        .table;
    // The pins of each role: position / answer bits, and the two digits' segments.
    let mut position: [Option<usize>; 3] = [None; 3];
    let mut answer: [Option<usize>; 3] = [None; 3];
    let mut position_digit: [Option<usize>; 7] = [None; 7];
    let mut answer_digit: [Option<usize>; 7] = [None; 7];
    let index = |name: &str| outputs.iter().position(|o| o.name == name);
    let mut place = |name: &str, role: Jr01Out| match role {
        Jr01Out::Position(n) => position[usize::from(n)] = index(name),
        Jr01Out::Answer(n) => answer[usize::from(n)] = index(name),
        Jr01Out::PositionSegment(n) if n < 7 => position_digit[usize::from(n)] = index(name),
        Jr01Out::AnswerSegment(n) if n < 7 => answer_digit[usize::from(n)] = index(name),
        _ => {}
    };
    for wire in jr01_layout(board.id).wires {
        match *wire {
            Wire::Output(name, role) => place(name, role),
            Wire::OutputBus(name, roles) => {
                for (i, role) in roles.iter().enumerate() {
                    place(&format!("{name}[{i}]"), *role);
                }
            }
            Wire::Digit(name, role) => {
                let pins: Vec<&str> = board
                    .resource(name)
                    .map(|r| r.pins().iter().map(|p| p.name).collect())
                    .unwrap_or_default();
                for (n, pin) in pins.iter().enumerate() {
                    place(pin, role(n as u8));
                }
            }
            _ => {}
        }
    }
    let lit = |row: &[char], k: usize| -> Option<bool> {
        match row.get(k) {
            Some('1') => Some(!outputs[k].active_low),
            Some('0') => Some(outputs[k].active_low),
            _ => None,
        }
    };
    let bits = |row: &[char], pins: &[Option<usize>; 3]| -> Option<u32> {
        let mut v = 0;
        for (n, p) in pins.iter().enumerate() {
            v |= u32::from(lit(row, (*p)?)?) << n;
        }
        Some(v)
    };
    let digit = |row: &[char], pins: &[Option<usize>; 7]| -> Option<u32> {
        let mut pattern = 0u8;
        for (n, p) in pins.iter().enumerate() {
            pattern |= u8::from(lit(row, (*p)?)?) << n;
        }
        DIGIT_SEGMENTS
            .iter()
            .position(|&d| d == pattern)
            .map(|d| d as u32)
    };
    let mut decoded = 0;
    for &(row, expected_position) in &stim.checkpoints {
        let Some(shown) = rows.get(row) else {
            continue;
        };
        let expected_answer = table.row(expected_position);
        let mut checked = false;
        for (what, got) in [
            ("position LEDs", bits(shown, &position)),
            ("position digit", digit(shown, &position_digit)),
        ] {
            if position.iter().all(Option::is_none) && what == "position LEDs" {
                continue;
            }
            if position_digit.iter().all(Option::is_none) && what == "position digit" {
                continue;
            }
            checked = true;
            if got != Some(expected_position) {
                return Ok((
                    decoded,
                    Some(format!(
                        "after press {row}: the {what} show {}, the presses made {expected_position:03b}",
                        got.map_or("no position".into(), |g| format!("{g:03b}"))
                    )),
                ));
            }
        }
        for (what, got) in [
            ("answer LEDs", bits(shown, &answer)),
            ("answer digit", digit(shown, &answer_digit)),
        ] {
            if (what == "answer LEDs" && answer.iter().all(Option::is_none))
                || (what == "answer digit" && answer_digit.iter().all(Option::is_none))
            {
                continue;
            }
            let Some(expected) = expected_answer else {
                continue;
            };
            checked = true;
            if got != Some(expected) {
                return Ok((
                    decoded,
                    Some(format!(
                        "at position {expected_position:03b} the {what} show {}, the solver's \
                         answer is {expected:03b}",
                        got.map_or("no answer".into(), |g| format!("{g:03b}"))
                    )),
                ));
            }
        }
        if checked {
            decoded += 1;
        }
    }
    Ok((decoded, None))
}

/// Reruns the simulation dumping the cycles before `cycle`, and draws the clock, the inputs and
/// the pin's two levels (`e_`: the RTL top, `a_`: the chip). Either file may be missing (a
/// waveform that cannot be drawn is not the level's verdict).
fn waveform(
    dir: &Path,
    exe: &Path,
    cycle: u64,
    clock: &str,
    pin: &str,
    limit: SimulationLimit,
) -> (Option<PathBuf>, Option<PathBuf>) {
    let from = cycle.saturating_sub(24);
    let plus = vec![format!("+vcd_from={from}")];
    let vcd = dir.join("bitstream.vcd");
    if verilator::execute_limited(dir, exe, "bitstream_tb_vcd", &plus, limit).is_err()
        || !vcd.is_file()
    {
        return (None, None);
    }
    let svg = (|| -> Option<PathBuf> {
        let text = std::fs::read_to_string(&vcd).ok()?;
        let last = text.lines().rev().find_map(|l| {
            l.strip_prefix('#')
                .and_then(|t| t.trim().parse::<u64>().ok())
        })?;
        let first = text.lines().find_map(|l| {
            l.strip_prefix('#')
                .and_then(|t| t.trim().parse::<u64>().ok())
        })?;
        let n = wire_name(pin);
        // Verilator puts the testbench under a `TOP` scope.
        let tb = if text.contains("$scope module TOP $end") {
            "TOP.bitstream_tb"
        } else {
            "bitstream_tb"
        };
        let paths = [
            format!("{tb}.{clock}"),
            format!("{tb}.in_vec"),
            format!("{tb}.e_{n}"),
            format!("{tb}.a_{n}"),
        ];
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let trace = crate::waveform::Trace::from_vcd(&text, &refs, last + 1).ok()?;
        let edges = trace.signals.first()?.rising_edges(last + 1);
        let period = edges.windows(2).map(|w| w[1] - w[0]).next()?;
        let trace = trace.window(first, last + period);
        let title = format!("{pin}: e_ the RTL top, a_ the chip read back from the bitstream");
        let svg = crate::waveform::render_svg(
            &trace,
            &crate::waveform::Picture {
                title: &title,
                clock: &paths[0],
                cycle: period,
            },
        )
        .ok()?;
        let path = dir.join("bitstream.svg");
        std::fs::write(&path, svg).ok()?;
        Some(path)
    })();
    (Some(vcd), svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_needs_the_sync_word() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.bin");
        std::fs::write(
            &good,
            [0xFF, 0x00, 0x00, 0xFF, 0x7E, 0xAA, 0x99, 0x7E, 0x51],
        )
        .unwrap();
        assert_eq!(check_bin(&good), Ok(()));
        let bad = dir.path().join("bad.bin");
        std::fs::write(&bad, b".comment\n.device 1k\n").unwrap();
        let e = check_bin(&bad).unwrap_err();
        assert!(
            e.starts_with("--bin ") && e.contains("not an iCE40 bitstream"),
            "{e}"
        );
        let e = check_bin(&dir.path().join("none.bin")).unwrap_err();
        assert!(e.contains("cannot read it"), "{e}");
    }

    #[test]
    fn jr01_stimulus_walks_every_position_past_the_debounce() {
        let board = BoardId::Icebreaker.board();
        let timing = Timing::for_design(board, &Design::Jr01);
        let inputs: Vec<InputPin> = ["BTN1", "BTN2", "BTN3"]
            .iter()
            .map(|n| InputPin {
                name: (*n).into(),
                idle: false,
            })
            .collect();
        let s = stimulus(board, &Design::Jr01, &timing, &inputs);
        let positions: Vec<u32> = s.checkpoints.iter().map(|c| c.1).collect();
        let mut sorted = positions.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<u32>>(), "{positions:?}");
        // Every press is held past the 16 ms debounce (192,000 cycles at 12 MHz).
        for (n, levels) in &s.rows {
            if levels.iter().any(|&l| l) {
                assert!(*n > 192_000, "{n}");
            }
        }
        assert_eq!(s.presses, 7);
        // The hex rows: the count, then the levels with BTN1 as bit 0.
        let hex = stimulus_hex(&s, 3);
        let press_c = hex.lines().nth(1).unwrap();
        assert_eq!(press_c, format!("{:08x}4", 3 * 192_000));
    }

    #[test]
    fn wire_names_are_identifiers() {
        assert_eq!(wire_name("io_led[3]"), "io_led_3");
        assert_eq!(wire_name("LEDG_N"), "LEDG_N");
    }
}
