//! Level 8's proof: the chip read back from the bitstream (`icebox_vlog`'s Verilog, left in
//! the level's folder as `chip_readback.v`) equal to the RTL top it was built from, pin by pin,
//! from power-on. One miter holds both (`chip_equiv.v`: every input pin driven alike on both
//! sides, free on every cycle, the one clock pin clocking both, one output per output pin,
//! high where the two sides differ); yosys flattens it with the iCE40 cells' own models
//! ([`equiv::cell_models`], the block RAM simulated on both sides: the RTL's memory and the
//! chip's `SB_RAM40_4K`, both starting empty as the silicon does), gives every flip-flop
//! without an initial value the silicon's 0 (`setundef -init -zero`: the read-back's flops
//! all say 0, the RTL's keep theirs), and writes it as AIGER (`chip_equiv.aig`). Then:
//!
//! * the bounded check: ABC's `bmc3` for [`BOUND`] cycles from power-on; a difference is
//!   named by its pin and cycle, and yosys `sat` replays it into `chip_equiv.vcd` (the
//!   inputs, both sides' pins as `e_all` (the RTL top) and `a_all` (the chip));
//! * the unbounded proof: ABC's `dprove` (register correspondence found by induction,
//!   retiming, k-induction) on the same miter; where it does not close the check says
//!   "BOUNDED ONLY" and passes on the bounded check alone (as it does, without trying, for a
//!   chip with block RAM, where dprove took minutes), where it finds a difference it
//!   fails.
//!
//! A design clocked through the iCE40 PLL: `SB_PLL40_CORE` is [`equiv::PLL_MODEL`] on both
//! sides (the reference clock passed through, `LOCK` after three cycles), so one clock steps
//! both; when the read-back has no PLL, the net that clocks its flip-flops is driven from the
//! clock pin.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::bitstream::{
    chip_conns, input_pins, pins, side_by_side, top_ports, BitstreamError, BitstreamTarget,
    Compared, PinPair,
};
use crate::circuit::top::{top_verilog, Timing};
use crate::flow::abc::{self, Verdict};
use crate::flow::runner::{self, Tool, ToolError};
use crate::flow::{equiv, yosys};

/// Cycles from power-on the bounded check covers.
pub const BOUND: u64 = 30;

/// The depth of `dprove`'s induction: the solver tops need 16 (at 4, 8 and 12 it does not
/// close on the iCEBreaker's).
pub const PROOF_FRAMES: u64 = 16;

/// The miter's module.
const MITER: &str = "chip_equiv";

/// Which of the two checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipCheckKind {
    /// [`BOUND`] cycles from power-on.
    Bounded,
    /// Every cycle.
    Unbounded,
}

/// The first cycle on which an output pin of the chip and of the RTL top differ.
#[derive(Clone, Debug, PartialEq)]
pub struct PinDifference {
    /// The pin (PCF name).
    pub pin: String,
    /// Rising clock edges since power-on (0: at power-on).
    pub cycle: u64,
    /// The counterexample: inputs and both sides' pins, cycle by cycle.
    pub vcd: Option<PathBuf>,
}

/// One check of the chip against the RTL top.
#[derive(Clone, Debug, PartialEq)]
pub struct ChipCheck {
    /// Which.
    pub kind: ChipCheckKind,
    /// The verdict.
    pub passed: bool,
    /// Output pins compared.
    pub pins: usize,
    /// The first difference found, if any.
    pub difference: Option<PinDifference>,
    /// The unbounded proof closed (always false for the bounded check).
    pub proved: bool,
    /// What ran and what it found.
    pub detail: String,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl ChipCheck {
    /// The check's name.
    pub fn name(&self) -> String {
        match self.kind {
            ChipCheckKind::Bounded => format!("chip = RTL top, {BOUND} cycles from power-on"),
            ChipCheckKind::Unbounded => "chip = RTL top for all cycles".to_owned(),
        }
    }

    /// Cycles covered.
    pub fn cycles(&self) -> Option<u64> {
        match self.kind {
            ChipCheckKind::Bounded => Some(BOUND),
            ChipCheckKind::Unbounded => None,
        }
    }
}

impl fmt::Display for ChipCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level {} ({}): {} ({}) in {:.1} s",
            crate::bench::Level::Bitstream.number(),
            self.name(),
            if self.passed { "PASS" } else { "FAIL" },
            self.detail,
            self.elapsed.as_secs_f64()
        )?;
        if let Some(d) = &self.difference {
            write!(
                f,
                "\n  first difference: pin {} at cycle {} after power-on",
                d.pin, d.cycle
            )?;
            if let Some(vcd) = &d.vcd {
                write!(f, "; counterexample {}", vcd.display())?;
            }
        }
        Ok(())
    }
}

/// Both checks of `target`, whose level-8 folder is `level_dir` (holding the read-back
/// `chip_readback.v`, written at or after `since`), in `level_dir/equiv` (created).
pub fn check_chip(
    target: &BitstreamTarget,
    level_dir: &Path,
    since: SystemTime,
) -> Result<[ChipCheck; 2], BitstreamError> {
    let start = Instant::now();
    let readback = level_dir.join("chip_readback.v");
    let fresh = std::fs::metadata(&readback)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= since);
    if !fresh {
        return Err(BitstreamError::Setup(
            "the bitstream was not read back (see the level's simulation check above for why)"
                .into(),
        ));
    }
    let dir = level_dir.join("equiv");
    std::fs::create_dir_all(&dir)
        .map_err(|e| ToolError::io(Tool::Yosys, "creating the work folder", &dir, e))?;
    let board = target.board.board();
    let design = &target.design;
    let timing = Timing::for_design(board, design);
    let top = top_verilog(target.board, design, &timing)
        .map_err(|e| BitstreamError::Setup(e.to_string()))?;
    let clock = board.clock.pin;
    let read = std::fs::read_to_string(&readback)
        .map_err(|e| ToolError::io(Tool::IceboxVlog, "reading chip_readback.v", &dir, e))?;
    let (chip_ports, mut chip_v) = super::bitstream::chip_source(&read, &top, board)?;
    if !chip_ports.iter().any(|p| p.name == clock) {
        return Err(BitstreamError::Setup(format!(
            "the bitstream reads no clock pin {clock}: was it built for --board {}?",
            target.board
        )));
    }
    if !chip_v.contains("SB_PLL40_CORE") {
        // A PLL the read-back left out: its output net (the one clocking the flip-flops) is
        // driven from the clock pin, as the RTL side's PLL model passes it through.
        if let Some(net) = flop_clock(&chip_v).filter(|n| n != clock) {
            chip_v = chip_v.replacen(
                "\nendmodule",
                &format!("\nassign {net} = {clock};\nendmodule"),
                1,
            );
        }
    }
    let chip = runner::write_file(Tool::Yosys, &dir, "chip.v", &chip_v)?;
    let inputs = input_pins(board, &top, clock);
    let outputs: Vec<String> = pins(&top, clock, false);
    let rtl_ports = top_ports(&top, clock);
    let (chip_conns, _) = chip_conns(&rtl_ports, &chip_ports);
    runner::write_file(Tool::Yosys, &dir, "rtl_top.v", &top.verilog)?;
    let rtl = equiv::pins_as_inputs(&dir, &[dir.join("rtl_top.v")], "rtl_pins")?;
    let mut for_models = rtl.clone();
    for_models.push(chip.clone());
    let cells = equiv::cell_models(
        &dir,
        &for_models,
        "ice40_cells.v",
        equiv::BlockRam::Simulated,
    )?;
    let miter = runner::write_file(
        Tool::Yosys,
        &dir,
        "chip_equiv.v",
        &side_by_side(
            MITER,
            &PinPair {
                module: &top.module,
                clock,
                rtl_ports: &rtl_ports,
                chip_ports: &chip_conns,
                inputs: &inputs,
                outputs: &outputs,
            },
            Compared::Differs,
        ),
    )?;
    let mut sources = rtl;
    sources.push(chip);
    sources.push(miter);
    let load = load_script(&dir, &cells, &sources)?;

    // The miter as AIGER, its outputs mapped to the pins. `aigmap` turns the gates into AND and
    // NOT directly; ABC's checks hash the graph themselves (`abc -g AND -fast` here took 27 s of
    // the Go Board heap game's 47 s, aigmap 4 s, 2026-12-05).
    let script = format!(
        "{load}setundef -undriven -anyseq\ntechmap\ndffunmap\naigmap\n\
         write_aiger -zinit -map {MITER}.aim {MITER}.aig\n"
    );
    yosys::run_script_cached(
        &dir,
        "chip_equiv_aiger",
        &script,
        &[&format!("{MITER}.aim"), &format!("{MITER}.aig")],
    )?;
    let aig = dir.join(format!("{MITER}.aig"));
    let map = std::fs::read_to_string(dir.join(format!("{MITER}.aim")))
        .map_err(|e| ToolError::io(Tool::Yosys, "reading chip_equiv.aim", &dir, e))?;
    let pin_of = |output: usize| -> String {
        output_bit(&map, output)
            .and_then(|bit| outputs.get(bit).cloned())
            .unwrap_or_else(|| format!("output {output} of the miter"))
    };
    let setup = start.elapsed();

    // The bounded check.
    let t = Instant::now();
    let bmc = abc::bmc3(&dir, &aig, BOUND, "chip_equiv_bmc")?;
    let mut bounded = ChipCheck {
        kind: ChipCheckKind::Bounded,
        passed: false,
        pins: outputs.len(),
        difference: None,
        proved: false,
        detail: String::new(),
        elapsed: Duration::ZERO,
    };
    match bmc.verdict {
        Verdict::HoldsFor { frames } => {
            bounded.passed = true;
            bounded.detail = format!(
                "{} pins equal on every cycle of {frames} from power-on, every input free \
                 (yosys miter, ABC bmc3)",
                outputs.len()
            );
        }
        Verdict::Failed { output, frame } => {
            let pin = pin_of(output);
            let vcd = replay(&dir, &load, frame);
            bounded.detail = format!(
                "pin {pin} differs at cycle {frame} after power-on (yosys miter, ABC bmc3)"
            );
            bounded.difference = Some(PinDifference {
                pin,
                cycle: frame,
                vcd,
            });
        }
        Verdict::Proved | Verdict::Undecided { .. } => {
            return Err(BitstreamError::Setup(format!(
                "ABC's bmc3 gave no verdict on the miter (see {})",
                bmc.log.display()
            )));
        }
    }
    bounded.elapsed = setup + t.elapsed();

    // The unbounded proof.
    let t = Instant::now();
    let mut unbounded = ChipCheck {
        kind: ChipCheckKind::Unbounded,
        passed: false,
        pins: outputs.len(),
        difference: None,
        proved: false,
        detail: String::new(),
        elapsed: Duration::ZERO,
    };
    if chip_v.contains("SB_RAM40_4K") {
        // A chip with block RAM: dprove took 44 s to over 10 minutes on these tops (and did
        // not close on some), more than the level can spend on every run.
        unbounded.passed = bounded.passed;
        unbounded.detail = format!(
            "BOUNDED ONLY: the unbounded proof is not attempted on a chip with block RAM \
             (SB_RAM40_4K); the chip equals the RTL top for {BOUND} cycles from power-on"
        );
        unbounded.elapsed = t.elapsed();
        return Ok([bounded, unbounded]);
    }
    let run = abc::dprove(&dir, &aig, PROOF_FRAMES, "chip_equiv_dprove")?;
    match run.verdict {
        Verdict::Proved => {
            unbounded.passed = bounded.passed;
            unbounded.proved = true;
            unbounded.detail = format!(
                "{} pins equal on every cycle from power-on, every input free (ABC dprove, \
                 induction depth {PROOF_FRAMES})",
                outputs.len()
            );
        }
        Verdict::Failed { output, frame } => {
            let pin = pin_of(output);
            unbounded.detail =
                format!("pin {pin} differs at cycle {frame} after power-on (ABC dprove)");
            unbounded.difference = Some(PinDifference {
                pin,
                cycle: frame,
                vcd: bounded.difference.as_ref().and_then(|d| d.vcd.clone()),
            });
        }
        Verdict::HoldsFor { .. } | Verdict::Undecided { .. } => {
            let why = match run.verdict {
                Verdict::Undecided { reason } => reason,
                _ => String::new(),
            };
            unbounded.passed = bounded.passed;
            unbounded.detail = format!(
                "BOUNDED ONLY: the unbounded proof did not close ({why}); the chip equals the \
                 RTL top for {BOUND} cycles from power-on"
            );
        }
    }
    unbounded.elapsed = t.elapsed();
    Ok([bounded, unbounded])
}

/// The yosys commands that read the cell models, both sides and the miter, and flatten it to
/// flip-flops and gates (memories to flip-flops), every flip-flop with an initial value (0
/// where its source gives none, as the silicon powers on). No clean-up between the passes:
/// ABC's `strash` and `fold` merge and drop what `opt` or `opt_clean` would, and on the heap
/// design's chip (its block RAM as about 45,000 flip-flops) `opt -fast` took 90 of yosys's
/// 142 s, and the three `opt_clean` that replaced it 34 s of 88 s (without them: 56 s).
/// Only constants are folded first (`opt_expr`), so that `opt_mem` drops the write port of a
/// block RAM the chip only reads: the read-back ties its write clock and enable to constant
/// 0 through a LUT, and a write port clocked by a constant made `async2sync` give its
/// initialised words conflicting initial values (the Go Board's heap game, whose digits are a
/// ROM in block RAM).
fn load_script(dir: &Path, cells: &Path, sources: &[PathBuf]) -> Result<String, ToolError> {
    let cells = crate::flow::script::file(Tool::Yosys, dir, cells)?;
    let reads = yosys::read_sources(dir, sources, "")?;
    Ok(format!(
        "read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS {cells}\n{reads}\
         hierarchy -check -top {MITER}\nproc -norom\nflatten\nopt_expr\nopt_mem\n\
         memory -nordff\nmemory_map\nasync2sync\ndffunmap\nsetundef -init -zero\n"
    ))
}

/// Replays a difference found at `frame` with yosys `sat`, dumping `chip_equiv.vcd`; `None`
/// when it cannot (the verdict stands on ABC's).
fn replay(dir: &Path, load: &str, frame: u64) -> Option<PathBuf> {
    let vcd = dir.join(format!("{MITER}.vcd"));
    let _ = std::fs::remove_file(&vcd);
    let script = format!(
        "{load}sat -seq {} -prove differs 0 -set-init-zero -show-ports -show e_all -show a_all \
         -dump_vcd {MITER}.vcd {MITER}\n",
        frame + 1
    );
    yosys::run_script(dir, "chip_equiv_replay", &script).ok()?;
    vcd.is_file().then_some(vcd)
}

/// The bit of `differs` that AIGER output `output` is, from yosys's map (`output 3 2
/// differs`).
fn output_bit(map: &str, output: usize) -> Option<usize> {
    map.lines().find_map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        match words[..] {
            ["output", n, bit, "differs"] if n.parse() == Ok(output) => bit.parse().ok(),
            _ => None,
        }
    })
}

/// The net that clocks the read-back's flip-flops (`always @(posedge n5)`), the most used.
fn flop_clock(chip: &str) -> Option<String> {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for line in chip.lines() {
        if let Some(rest) = line.split("always @(posedge ").nth(1) {
            if let Some(net) = rest.split(')').next() {
                *counts.entry(net.trim()).or_default() += 1;
            }
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(net, _)| net.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::bitstream::{InputPin, PortConn};

    #[test]
    fn aiger_outputs_map_to_pins() {
        let map = "input 0 0 in_vec\ninput 1 1 in_vec\noutput 0 1 differs\noutput 1 0 differs\n\
                   latch 0 0 rtl.x\n";
        assert_eq!(output_bit(map, 0), Some(1));
        assert_eq!(output_bit(map, 1), Some(0));
        assert_eq!(output_bit(map, 2), None);
    }

    #[test]
    fn the_flops_clock_is_the_most_used() {
        let chip = "/* FF */ always @(posedge n5) if (1'b1) a <= b;\n\
                    /* FF */ always @(posedge n5) if (1'b1) c <= d;\n\
                    /* FF */ always @(posedge CLK) if (1'b1) e <= f;\n";
        assert_eq!(flop_clock(chip).as_deref(), Some("n5"));
        assert_eq!(flop_clock("assign a = b;\n"), None);
    }

    #[test]
    fn the_miter_compares_every_pin() {
        let inputs = vec![
            InputPin {
                name: "BTN1".into(),
                idle: false,
            },
            InputPin {
                name: "BTN2".into(),
                idle: false,
            },
        ];
        let outputs = vec!["LED1".to_owned(), "io_led[3]".to_owned()];
        let rtl: Vec<PortConn> = vec![
            ("BTN1".into(), None, false),
            ("BTN2".into(), None, false),
            ("LED1".into(), None, true),
            ("io_led".into(), Some((3, 3)), true),
        ];
        let v = side_by_side(
            MITER,
            &PinPair {
                module: "top",
                clock: "CLK",
                rtl_ports: &rtl,
                chip_ports: &rtl,
                inputs: &inputs,
                outputs: &outputs,
            },
            Compared::Differs,
        );
        assert!(v.contains("module chip_equiv (\n  input CLK,\n  input [1:0] in_vec,\n  output [1:0] differs\n);"), "{v}");
        assert!(
            v.contains("wire [1:0] e_all = {e_io_led_3, e_LED1};"),
            "{v}"
        );
        assert!(v.contains("assign differs = e_all ^ a_all;"), "{v}");
        assert!(v.contains(".BTN2(in_vec[1])"), "{v}");
        assert!(v.contains("top rtl (") && v.contains("chip dut ("), "{v}");
    }
}
