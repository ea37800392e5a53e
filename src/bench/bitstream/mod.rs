//! Level 8: the bitstream read back. The `.bin` that goes on the board (the one `retrogate
//! build` leaves, built when missing, or any `--bin`) is unpacked (`iceunpack`), read back as
//! Verilog of the configured chip with the board's pin names (`icebox_vlog`), timed by
//! `icetime` (beside nextpnr's Fmax), and simulated through its pins under Verilator next to
//! the RTL top it was built from (the same Verilog `build` synthesises; both in one module,
//! [`side_by_side`], which is also the proof's miter, driven by a C++ `main`): both get the same
//! stimulus at the board's real timing (power-on, presses held past the debounce time, waits
//! past the machine's think time) and every output pin is compared every cycle. The first
//! differing pin is reported with its time, expected and actual value, and a VCD and SVG of
//! the cycles before it. What a person does is in `stimulus.rs` (per design); at its checkpoints,
//! what the LEDs and digits show is also decoded and checked against the software solver
//! (`decode.rs`, every design), so the check stands on the solver, not only on the RTL.
//!
//! The iCE40 PLL (`SB_PLL40_CORE`, which the Alchitry Cu's solver design runs from) is read
//! back as an instance and simulated with retrogate's behavioural model on both sides
//! ([`equiv::PLL_MODEL`]: the output clock is the reference clock, one simulated cycle per
//! design cycle). The output pad that shares the PLL's IO tile, which `icebox_vlog` leaves out,
//! is connected again from the routing ([`icestorm::reconnect_unmatched`]).
//!
//! The read-back ([`read_back_chip`]: unpack, `icebox_vlog` with the top's PCF, the simulatable
//! chip, the checks that it is the top's) is shared with `retrogate board --bin`, which runs the
//! chip on the virtual board.
//!
//! Not modelled: the drive of pins read through `SB_IO` pads (the Alchitry Io switches): the
//! testbench drives those pins as a switch does, and both models read them.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod decode;
mod stimulus;

use decode::{decode_heaps, decode_jr01, decode_sticks, OutputPin, StickLights};
pub(crate) use stimulus::InputPin;
use stimulus::{stimulus, stimulus_hex};

use crate::board::{Board, BoardId, Polarity};
use crate::circuit::top::{top_verilog, Design, Timing};
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
    /// The design runs from the iCE40 PLL, simulated as its model (output clock = reference
    /// clock).
    pub pll_modelled: bool,
    /// Output pins `icebox_vlog` left out of the read-back and retrogate connected again from
    /// the routing ([`icestorm::reconnect_unmatched`]).
    pub reconnected: Vec<String>,
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
        let mut notes = String::new();
        if self.pll_modelled {
            notes.push_str("; the PLL simulated as its model (output clock = reference clock)");
        }
        if !self.reconnected.is_empty() {
            notes.push_str(&format!(
                "; pin {} left out by icebox_vlog, connected from the routing",
                self.reconnected.join(", ")
            ));
        }
        format!(
            "{} pins compared over {} cycles ({:.2} s at {} MHz, {} presses){decoded}{notes}; \
             {fmax} for {} MHz",
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
    /// The bitstream is not one of the top of that board and design: another device, or pins
    /// that are not the top's (the message says which).
    #[error("{0}")]
    NotForTop(String),
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

/// What an instance port of bus range `range` (`None`: a scalar) connects to: `bit(None)` for
/// a scalar, else the concatenation of `bit(Some(i))`, the most significant bit first.
pub(crate) fn port_value(
    range: Option<(usize, usize)>,
    mut bit: impl FnMut(Option<usize>) -> String,
) -> String {
    match range {
        None => bit(None),
        Some((msb, lsb)) => {
            let bits: Vec<String> = if msb >= lsb {
                (lsb..=msb).rev().map(|i| bit(Some(i))).collect()
            } else {
                (msb..=lsb).map(|i| bit(Some(i))).collect()
            };
            format!("{{{}}}", bits.join(", "))
        }
    }
}

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
        let value = port_value(*range, bit);
        conns.push(format!(".{}({value})", icestorm::escaped(name)));
    }
    conns.join(",\n    ")
}

/// What [`side_by_side`] puts on its output ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compared {
    /// `e_all` and `a_all`: every output pin of the RTL top and of the chip (the simulation).
    Both,
    /// `differs`: their bitwise difference (the proof's miter).
    Differs,
}

/// The RTL top and the chip read back, and the pins they share.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PinPair<'a> {
    /// The RTL top's module.
    pub module: &'a str,
    /// The clock pin.
    pub clock: &'a str,
    /// The RTL top's ports (the clock left out).
    pub rtl_ports: &'a [PortConn],
    /// The chip's ports, as icebox_vlog declared them (the clock left out).
    pub chip_ports: &'a [PortConn],
    /// The input pins, in the order of `in_vec`.
    pub inputs: &'a [InputPin],
    /// The output pins compared, in the order of `e_all`/`a_all` (bit 0 first).
    pub outputs: &'a [String],
}

/// The RTL top (instance `rtl`, pins `e_<pin>`) and the chip read back (instance `dut`, pins
/// `a_<pin>`) side by side in module `name`, driven by one clock and one input vector
/// (`in_vec[k]`: input pin k); its outputs as `compared` says. Both the simulation's model and
/// the proof's miter are this module.
pub(crate) fn side_by_side(name: &str, pins: &PinPair<'_>, compared: Compared) -> String {
    let PinPair {
        module,
        clock,
        rtl_ports,
        chip_ports,
        inputs,
        outputs,
    } = *pins;
    let w = inputs.len().max(1);
    let o = outputs.len().max(1);
    let ports = match compared {
        Compared::Both => format!(
            "  output [{m}:0] e_all,\n  output [{m}:0] a_all\n",
            m = o - 1
        ),
        Compared::Differs => format!("  output [{}:0] differs\n", o - 1),
    };
    let mut v = format!(
        "// The read-back chip against the RTL top, pin by pin (retrogate verify bitstream).\n\
         module {name} (\n  input {clock},\n  input [{}:0] in_vec,\n{ports});\n",
        w - 1,
    );
    for pin in outputs {
        let n = wire_name(pin);
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
        let bits: Vec<String> = outputs
            .iter()
            .rev()
            .map(|o| format!("{p}{}", wire_name(o)))
            .collect();
        if bits.is_empty() {
            "1'b0".to_owned()
        } else {
            bits.join(", ")
        }
    };
    match compared {
        Compared::Both => v.push_str(&format!(
            "  assign e_all = {{{}}};\n  assign a_all = {{{}}};\nendmodule\n",
            all("e_"),
            all("a_")
        )),
        Compared::Differs => v.push_str(&format!(
            "  wire [{}:0] e_all = {{{}}};\n  wire [{}:0] a_all = {{{}}};\n  \
             assign differs = e_all ^ a_all;\nendmodule\n",
            o - 1,
            all("e_"),
            o - 1,
            all("a_")
        )),
    }
    v
}

/// The module [`side_by_side`] is in the simulation, and the name of its model.
const TESTBENCH: &str = "bitstream_tb";

/// The most input or output pins the simulation's C++ driver handles (one 64-bit word each).
const DRIVER_PINS: usize = 64;

/// The C++ `main` driving [`side_by_side`] (module [`TESTBENCH`], `inputs` input pins,
/// `outputs` output pins) through the rows of `stimulus.hex` ([`stimulus_hex`]): each row's
/// levels held for its count of clock cycles, both sides' outputs compared after every cycle.
/// It prints `ROW <k> <cycle> <chip's outputs>` after each row, `DONE <cycle>` at the end, or
/// `MISMATCH <cycle> <rtl's> <chip's>` at the first difference (outputs in binary, the last
/// pin first). Built with tracing, `+vcd_from=<cycle>` writes `bitstream.vcd` from that cycle.
fn driver_cpp(clock: &str, inputs: usize, outputs: usize) -> String {
    let w = inputs.max(1);
    let o = outputs.max(1);
    format!(
        "// Drives the read-back chip and the RTL top through their pins (retrogate verify bitstream).\n\
         #include \"V{TESTBENCH}.h\"\n\
         #include \"verilated.h\"\n\
         #if VM_TRACE\n#include \"verilated_vcd_c.h\"\n#endif\n\
         #include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n\
         \n\
         static const int INPUTS = {w};\n\
         static const int OUTPUTS = {o};\n\
         \n\
         static void bits(char* out, uint64_t v) {{\n\
         \x20 for (int i = 0; i < OUTPUTS; ++i) out[i] = '0' + (int)((v >> (OUTPUTS - 1 - i)) & 1);\n\
         \x20 out[OUTPUTS] = 0;\n\
         }}\n\
         \n\
         int main(int argc, char** argv) {{\n\
         \x20 VerilatedContext* ctx = new VerilatedContext;\n\
         \x20 ctx->commandArgs(argc, argv);\n\
         \x20 unsigned long long vcd_from = ~0ULL;\n\
         \x20 const char* arg = ctx->commandArgsPlusMatch(\"vcd_from=\");\n\
         \x20 if (arg && *arg) vcd_from = strtoull(arg + strlen(\"+vcd_from=\"), nullptr, 10);\n\
         #if VM_TRACE\n\
         \x20 ctx->traceEverOn(true);\n\
         \x20 VerilatedVcdC* vcd = nullptr;\n\
         #endif\n\
         \x20 V{TESTBENCH}* m = new V{TESTBENCH}{{ctx}};\n\
         \x20 FILE* f = fopen(\"stimulus.hex\", \"r\");\n\
         \x20 if (!f) {{ fprintf(stderr, \"cannot open stimulus.hex\\n\"); return 2; }}\n\
         \x20 char line[64];\n\
         \x20 char e[OUTPUTS + 1], a[OUTPUTS + 1];\n\
         \x20 unsigned long long cycle = 0;\n\
         \x20 int row = 0;\n\
         \x20 m->{clock} = 0;\n\
         \x20 while (fgets(line, sizeof line, f)) {{\n\
         \x20   unsigned __int128 word = 0;\n\
         \x20   for (char* c = line; *c && *c != '\\n'; ++c) {{\n\
         \x20     int d = (*c >= '0' && *c <= '9') ? *c - '0' : ((*c | 32) - 'a' + 10);\n\
         \x20     word = (word << 4) | (unsigned)(d & 15);\n\
         \x20   }}\n\
         \x20   uint64_t levels = (uint64_t)(word & (((unsigned __int128)1 << INPUTS) - 1));\n\
         \x20   uint64_t n = (uint64_t)((word >> INPUTS) & 0xffffffffULL);\n\
         \x20   m->in_vec = levels;\n\
         \x20   for (uint64_t i = 0; i < n; ++i) {{\n\
         #if VM_TRACE\n\
         \x20     if (cycle == vcd_from) {{\n\
         \x20       vcd = new VerilatedVcdC;\n\
         \x20       m->trace(vcd, 99);\n\
         \x20       vcd->open(\"bitstream.vcd\");\n\
         \x20     }}\n\
         \x20     if (vcd) {{ m->eval(); vcd->dump((uint64_t)(2 * cycle)); }}\n\
         #endif\n\
         \x20     m->{clock} = 1;\n\
         \x20     m->eval();\n\
         #if VM_TRACE\n\
         \x20     if (vcd) vcd->dump((uint64_t)(2 * cycle + 1));\n\
         #endif\n\
         \x20     m->{clock} = 0;\n\
         \x20     m->eval();\n\
         \x20     ++cycle;\n\
         \x20     if ((uint64_t)m->e_all != (uint64_t)m->a_all) {{\n\
         #if VM_TRACE\n\
         \x20       if (vcd) {{ vcd->dump((uint64_t)(2 * cycle)); vcd->close(); }}\n\
         #endif\n\
         \x20       bits(e, (uint64_t)m->e_all);\n\
         \x20       bits(a, (uint64_t)m->a_all);\n\
         \x20       printf(\"MISMATCH %llu %s %s\\n\", cycle, e, a);\n\
         \x20       return 0;\n\
         \x20     }}\n\
         \x20   }}\n\
         \x20   bits(a, (uint64_t)m->a_all);\n\
         \x20   printf(\"ROW %d %llu %s\\n\", row++, cycle, a);\n\
         \x20 }}\n\
         \x20 printf(\"DONE %llu\\n\", cycle);\n\
         #if VM_TRACE\n\
         \x20 if (vcd) vcd->close();\n\
         #endif\n\
         \x20 m->final();\n\
         \x20 delete m;\n\
         \x20 delete ctx;\n\
         \x20 return 0;\n\
         }}\n"
    )
}

/// The read-back chip (`icebox_vlog`'s Verilog `read` of a bitstream of `top` on `board`) as
/// a simulation or a proof reads it: the pins icebox_vlog left out connected again
/// ([`icestorm::reconnect_unmatched`]), then [`icestorm::simulation_source`]; with the chip's
/// ports as icebox_vlog declared them.
pub(crate) fn chip_source(
    read: &str,
    top: &crate::circuit::top::TopVerilog,
    board: &Board,
) -> Result<(Vec<icestorm::ChipPort>, String), BitstreamError> {
    let pcf = top
        .pcf()
        .map_err(|e| BitstreamError::Setup(e.to_string()))?;
    let read =
        icestorm::reconnect_unmatched(read, &icestorm::vlog_pcf(&pcf), board.device, board.package)
            .map_err(BitstreamError::Setup)?;
    let driven: Vec<&str> = top
        .ports
        .iter()
        .filter(|p| p.dir != PortDir::Output)
        .map(|p| p.name.as_str())
        .collect();
    match (
        icestorm::chip_ports(&read),
        icestorm::simulation_source(&read, &driven),
    ) {
        (Some(ports), Some(source)) => Ok((ports, source)),
        _ => Err(BitstreamError::Setup(
            "icebox_vlog's Verilog has no `module chip (...)` header".into(),
        )),
    }
}

/// A bitstream read back as a chip that a simulation runs ([`read_back_chip`]).
#[derive(Clone, Debug)]
pub(crate) struct ReadBackChip {
    /// The chip's Verilog, module `chip` (`dir/chip.v`): the read-back as [`chip_source`]
    /// makes it; it needs the iCE40 cell models ([`equiv::cell_models`]) and the define
    /// `NO_ICE40_DEFAULT_ASSIGNMENTS`.
    pub(crate) source: PathBuf,
    /// For each port of the top but the clock, the chip's ports carrying its pins.
    pub(crate) conns: Vec<PortConn>,
    /// The pins `icebox_vlog` left out, connected again from the routing.
    pub(crate) reconnected: Vec<String>,
}

/// Why a bitstream is not one of the top of a board and design (the message says so).
fn not_for_top(what: String) -> BitstreamError {
    BitstreamError::NotForTop(what)
}

/// Each port of `top` but the clock as an instance port: name, bus range, output.
pub(crate) fn top_ports(top: &crate::circuit::top::TopVerilog, clock: &str) -> Vec<PortConn> {
    top.ports
        .iter()
        .filter(|p| p.name != clock)
        .map(|p| {
            let range = (p.width > 1).then(|| (p.width - 1, 0));
            (p.name.clone(), range, p.dir == PortDir::Output)
        })
        .collect()
}

/// Reads the bitstream `bin` (of `top`, the top of `design` on `board`) back as a chip a
/// simulation runs, in `dir` (existing): copied to `chip.bin`, unpacked to `chip.asc`
/// (`iceunpack`; its device must be the board's), read back with the top's PCF
/// (`icebox_vlog`, `chip_readback.v`), and made simulatable (`chip.v`, [`chip_source`]). The
/// chip must read the board's clock pin and drive a pin of every output port of the top
/// ([`BitstreamError::NotForTop`] otherwise). Used by level 8 and by `retrogate board --bin`.
/// The chip's ports that stand for `rtl_ports` (a port's collected bus or, for a lone bit,
/// `name[i]`), each with the RTL port's direction; and the first output of the RTL top the
/// chip has no port for.
pub(crate) fn chip_conns(
    rtl_ports: &[PortConn],
    chip_ports: &[icestorm::ChipPort],
) -> (Vec<PortConn>, Option<String>) {
    let mut conns: Vec<PortConn> = Vec::new();
    let mut missing = None;
    for (name, _, output) in rtl_ports {
        let before = conns.len();
        conns.extend(
            chip_ports
                .iter()
                .filter(|p| {
                    p.name == *name
                        || (p.range.is_none() && p.name.split('[').next() == Some(name.as_str()))
                })
                .map(|p| (p.name.clone(), p.range, *output)),
        );
        if conns.len() == before && *output && missing.is_none() {
            missing = Some(name.clone());
        }
    }
    (conns, missing)
}

/// The input pins of `top` on `board` (the clock left out), each idle at its released level.
pub(crate) fn input_pins(
    board: &Board,
    top: &crate::circuit::top::TopVerilog,
    clock: &str,
) -> Vec<InputPin> {
    pins(top, clock, true)
        .into_iter()
        .map(|name| InputPin {
            idle: active_low(board, &name),
            name,
        })
        .collect()
}

pub(crate) fn read_back_chip(
    bin: &Path,
    top: &crate::circuit::top::TopVerilog,
    board_id: BoardId,
    design: &Design,
    dir: &Path,
) -> Result<ReadBackChip, BitstreamError> {
    let board = board_id.board();
    let pcf = top
        .pcf()
        .map_err(|e| BitstreamError::Setup(e.to_string()))?;
    let bytes = std::fs::read(bin).map_err(|e| {
        ToolError::io(
            Tool::Iceunpack,
            format!("reading {}", bin.display()),
            dir,
            e,
        )
    })?;
    std::fs::write(dir.join("chip.bin"), bytes)
        .map_err(|e| ToolError::io(Tool::Iceunpack, "writing chip.bin", dir, e))?;
    let asc = icestorm::unpack(dir, "chip.bin", "chip.asc")?;
    let asc_text = std::fs::read_to_string(&asc)
        .map_err(|e| ToolError::io(Tool::Iceunpack, "reading chip.asc", dir, e))?;
    let device = asc_text
        .lines()
        .find_map(|l| l.strip_prefix(".device "))
        .map(str::trim);
    let want = match board.device {
        crate::board::Device::Hx1k => "1k",
        crate::board::Device::Hx8k | crate::board::Device::Lp8k => "8k",
        crate::board::Device::Up5k => "5k",
    };
    if let Some(device) = device.filter(|d| *d != want) {
        return Err(not_for_top(format!(
            "the bitstream is for an iCE40 {device} device, --board {board_id} has an iCE40 \
             {want}: was it built for --board {board_id} --design {}?",
            design.name()
        )));
    }
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
    let reconnected = icestorm::unmatched_pins(&read);
    // A pin the read-back cannot place is a bitstream of another top (e.g. another board's).
    let (chip_ports, chip_v) = chip_source(&read, top, board).map_err(|e| match e {
        BitstreamError::Setup(what) => not_for_top(what),
        e => e,
    })?;
    let source = runner::write_file(Tool::IceboxVlog, dir, "chip.v", &chip_v)?;
    let clock = board.clock.pin;
    // The chip's ports, checked against the top's: every output pin must be there (as the
    // collected bus or, for a lone bit, as `name[i]`).
    let (conns, missing) = chip_conns(&top_ports(top, clock), &chip_ports);
    if let Some(name) = missing {
        return Err(not_for_top(format!(
            "the bitstream drives no pin {name}, an output of {}: was it built for \
             --board {board_id} --design {}? (its pins: {})",
            top.module,
            design.name(),
            chip_ports
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if !chip_ports.iter().any(|p| p.name == clock) {
        return Err(not_for_top(format!(
            "the bitstream reads no clock pin {clock}: was it built for --board {board_id}?"
        )));
    }
    Ok(ReadBackChip {
        source,
        conns,
        reconnected,
    })
}

/// How the simulation's model (the RTL top beside the read-back chip) is built: quickly, since
/// the chip is large and its C++ runs as fast at `-O1`.
const CHIP_MODEL: verilator::ProgramBuild = verilator::ProgramBuild {
    trace: false,
    quick_compile: true,
    flatten: false,
};

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
    top.pcf()
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
    let ReadBackChip {
        source: chip,
        conns: chip_conns,
        reconnected,
    } = read_back_chip(&bin, &top, target.board, design, dir)?;
    let icetime = icestorm::icetime(dir, "chip.asc", board.device, board.package)?;

    let clock = board.clock.pin;
    let inputs = input_pins(board, &top, clock);
    let outputs: Vec<OutputPin> = pins(&top, clock, false)
        .into_iter()
        .map(|name| OutputPin {
            active_low: active_low(board, &name),
            name,
        })
        .collect();
    let rtl_ports = top_ports(&top, clock);

    let stim = stimulus(board, design, &timing, &inputs);
    runner::write_file(
        Tool::Verilator,
        dir,
        "stimulus.hex",
        &stimulus_hex(&stim, inputs.len().max(1)),
    )?;
    runner::write_file(Tool::Verilator, dir, "rtl_top.v", &top.verilog)?;
    let rtl = equiv::pins_as_inputs(dir, &[dir.join("rtl_top.v")], "rtl_pins")?;
    let mut for_models = rtl.clone();
    for_models.push(chip.clone());
    let cells = equiv::cell_models(
        dir,
        &for_models,
        "ice40_cells.v",
        equiv::BlockRam::Simulated,
    )?;
    if inputs.len() > DRIVER_PINS || outputs.len() > DRIVER_PINS {
        return Err(BitstreamError::Setup(format!(
            "{} has {} input and {} output pins; the simulation drives at most {DRIVER_PINS} of each",
            top.module,
            inputs.len(),
            outputs.len()
        )));
    }
    let output_names: Vec<String> = outputs.iter().map(|o| o.name.clone()).collect();
    let pair = PinPair {
        module: &top.module,
        clock,
        rtl_ports: &rtl_ports,
        chip_ports: &chip_conns,
        inputs: &inputs,
        outputs: &output_names,
    };
    let tb = side_by_side(TESTBENCH, &pair, Compared::Both);
    let tb = runner::write_file(Tool::Verilator, dir, "bitstream_tb.v", &tb)?;
    let cpp = runner::write_file(
        Tool::Verilator,
        dir,
        "bitstream_tb.cpp",
        &driver_cpp(clock, inputs.len(), outputs.len()),
    )?;
    let mut sources = vec![cells];
    sources.extend(rtl);
    sources.push(chip);
    sources.push(tb);
    sources.push(cpp);
    let model = verilator::build_program_with(
        dir,
        &sources,
        TESTBENCH,
        &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
        TESTBENCH,
        CHIP_MODEL,
    )?;
    let cycles = stim.cycles();
    let limit = SimulationLimit::cycles(usize::try_from(cycles).unwrap_or(usize::MAX));
    let out = verilator::execute_limited(dir, &model.exe, TESTBENCH, &[], limit)?;
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
        pll_modelled: board.pll(design.name()).is_some(),
        reconnected,
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
        let (vcd, svg) = waveform(dir, &sources, cycle, clock, &pin, limit);
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
        // What the board shows at each checkpoint, against the solver.
        let rows: Vec<Vec<char>> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("ROW "))
            .filter_map(|l| l.split_whitespace().nth(2))
            .map(|bits| bits.chars().rev().collect())
            .collect();
        match design {
            Design::Jr01 => {
                let (decoded, failure) = decode_jr01(board, &outputs, &stim, &rows)?;
                report.decoded = decoded;
                report.decode_failure = failure;
            }
            Design::Sticks(_) | Design::Solver => {
                let lights = if matches!(design, Design::Solver) {
                    StickLights::solver(board, &outputs)
                } else {
                    StickLights::sticks(board, &outputs)
                };
                let (decoded, failure) = decode_sticks(&lights, &outputs, &stim, &rows);
                report.decoded = decoded;
                report.decode_failure = failure;
            }
            Design::Heaps => {
                let (decoded, failure) = decode_heaps(board, &outputs, &stim, &rows);
                report.decoded = decoded;
                report.decode_failure = failure;
            }
        }
    }
    report.passed = report.mismatch.is_none() && report.decode_failure.is_none();
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Rebuilds the simulation's model with tracing and reruns it dumping the cycles before `cycle`, and draws the clock, the inputs and
/// the pin's two levels (`e_`: the RTL top, `a_`: the chip). Either file may be missing (a
/// waveform that cannot be drawn is not the level's verdict).
fn waveform(
    dir: &Path,
    sources: &[PathBuf],
    cycle: u64,
    clock: &str,
    pin: &str,
    limit: SimulationLimit,
) -> (Option<PathBuf>, Option<PathBuf>) {
    let from = cycle.saturating_sub(24);
    let plus = vec![format!("+vcd_from={from}")];
    let vcd = dir.join("bitstream.vcd");
    let name = format!("{TESTBENCH}_vcd");
    let Ok(model) = verilator::build_program_with(
        dir,
        sources,
        TESTBENCH,
        &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
        &name,
        verilator::ProgramBuild {
            trace: true,
            ..CHIP_MODEL
        },
    ) else {
        return (None, None);
    };
    if verilator::execute_limited(dir, &model.exe, &name, &plus, limit).is_err() || !vcd.is_file() {
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
    fn wire_names_are_identifiers() {
        assert_eq!(wire_name("io_led[3]"), "io_led_3");
        assert_eq!(wire_name("LEDG_N"), "LEDG_N");
    }
}
