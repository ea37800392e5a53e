//! Level 7: the `synth_ice40` netlist proved equal to its RTL (yosys `equiv_make`,
//! `equiv_simple`, `equiv_induct`, `equiv_status`, and the base case from the initial state;
//! see [`crate::flow::equiv`]), with the iCE40 cells' simulation models from yosys's
//! `ice40/cells_sim.v` (pads: [`crate::flow::equiv::PAD_MODEL`]; block RAMs cut out of both
//! sides, the RTL's memories mapped to them first: [`crate::flow::equiv::RAM_MODEL`]). For any
//! Verilog and top module: the combinational designs, the `sticks_game` controller, a board
//! top (the solver's, with its table in block RAM, too) or a user's module. When the proof is not reached, a counterexample is searched for and, when found,
//! written as a VCD and an SVG waveform with the first differing output and its cycle. A
//! design with a combinational loop is not proved (every pairing would hold vacuously): the
//! level fails naming the loop.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use super::counterexample::Counterexample;
use super::design::CombDesign;
use super::{BenchError, Level, LevelReport};
use crate::flow::equiv::{self, NetlistEquivalence, BASE_CYCLES, INDUCTION_DEPTH, SEARCH_DEPTH};
use crate::flow::yosys;
use crate::waveform::{render_svg, Picture, Trace};

/// Synthesise `verilog` (top `top`, outputs `outputs`) for iCE40 in `dir` (created) and prove
/// the netlist equal to it.
pub fn netlist_equivalence(
    dir: &Path,
    verilog: &str,
    top: &str,
    outputs: &[String],
) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let dir = super::work_dir(dir)?;
    let rtl = super::write(&dir, &format!("{top}.v"), verilog)?;
    let synthesis = yosys::synth_ice40(&dir, std::slice::from_ref(&rtl), top)?;
    let size = format!(
        " ({} SB_LUT4, {} flip-flops)",
        synthesis.stats.lut4, synthesis.stats.dff
    );
    compare(
        &dir,
        &rtl,
        &synthesis.netlist_verilog,
        top,
        outputs,
        &size,
        start,
    )
}

/// Prove the iCE40 netlist `netlist` (Verilog, as `synth_ice40` writes it) equal to the RTL
/// `verilog`, both with top module `top` and output ports `outputs`, in `dir` (created); the
/// same level as [`netlist_equivalence`] for a netlist made elsewhere. When the proof is not
/// reached, a counterexample is searched for (see [`equiv::search_counterexample`]) and, when
/// found, written as `netlist-counterexample.vcd` and `.svg` in `dir`, named in the detail.
pub fn netlist_against_rtl(
    dir: &Path,
    verilog: &str,
    netlist: &Path,
    top: &str,
    outputs: &[String],
) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let dir = super::work_dir(dir)?;
    let rtl = super::write(&dir, &format!("{top}.v"), verilog)?;
    let netlist = super::absolute(netlist)?;
    compare(&dir, &rtl, &netlist, top, outputs, "", start)
}

/// The level on the RTL file `rtl` and netlist file `netlist`, `size` describing the netlist.
fn compare(
    dir: &Path,
    rtl: &Path,
    netlist: &Path,
    top: &str,
    outputs: &[String],
    size: &str,
    start: Instant,
) -> Result<LevelReport, BenchError> {
    let cells = equiv::cell_models(
        dir,
        &[netlist.to_path_buf(), rtl.to_path_buf()],
        "ice40_cells.v",
        equiv::BlockRam::Cut,
    )?;
    let rtl = equiv::pins_as_inputs(dir, &[rtl.to_path_buf()], "rtl_pins_in")?;
    let netlist =
        equiv::pins_as_inputs(dir, &[netlist.to_path_buf()], "netlist_pins_in")?.remove(0);
    let outcome = equiv::prove_netlist(dir, &rtl, &netlist, &cells, top, outputs, "equiv")?;
    let (passed, detail) = match outcome {
        NetlistEquivalence::Proved { cells, excluded } => (
            true,
            format!(
                "yosys equiv_make/equiv_simple/equiv_induct proved the synth_ice40 netlist of \
                 {top}{size} equal to its RTL on every input sequence from power-on: \
                 {cells} paired signals, every output among them{}, by induction (equiv_induct \
                 -seq {INDUCTION_DEPTH}: {INDUCTION_DEPTH} cycles of agreement imply the next) \
                 and its base case (ABC: they agree on the first {BASE_CYCLES} cycles from the \
                 initial state)",
                if excluded.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({} internal signal{} left unpaired)",
                        excluded.len(),
                        if excluded.len() == 1 { "" } else { "s" }
                    )
                }
            ),
        ),
        NetlistEquivalence::Vacuous(why) => (
            false,
            format!("the synth_ice40 netlist of {top} is not proved equal to its RTL: {why}"),
        ),
        NetlistEquivalence::Unproven { signals } => {
            let found = equiv::search_counterexample(
                dir,
                &rtl,
                &netlist,
                &cells,
                top,
                SEARCH_DEPTH,
                "miter",
            )?;
            let detail = match found {
                Some(raw) => {
                    let cex = write_counterexample(dir, &raw, top, outputs)?;
                    format!(
                        "the synth_ice40 netlist of {top} differs from its RTL: {}; waveform \
                         {} (VCD {}); not proved at: {}",
                        cex.first,
                        cex.svg.display(),
                        cex.vcd.display(),
                        signals.join(", ")
                    )
                }
                None => format!(
                    "the synth_ice40 netlist of {top} is not proved equal to its RTL at: {}; \
                     no run of up to {SEARCH_DEPTH} cycles from the initial state tells them \
                     apart, so this is an unfinished proof, not a counterexample (logs in {})",
                    signals.join(", "),
                    dir.display()
                ),
            };
            (false, detail)
        }
    };
    Ok(LevelReport {
        level: Level::Equivalence,
        vectors: 0,
        passed,
        elapsed: start.elapsed(),
        detail,
        mismatch: None,
    })
}

/// VCD time units in one cycle of the counterexample trace.
const CYCLE: u64 = 10;

/// A miter run read back: per signal of the readable trace, its name, width and value per
/// cycle (most significant bit first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiterRun {
    /// `(name, width, values per cycle)`: each input, then `rtl_<output>` and
    /// `netlist_<output>` for each output, then `differ`.
    pub signals: Vec<(String, u32, Vec<String>)>,
    /// Cycles in the run (the last is the first where an output differs).
    pub cycles: usize,
    /// The first differing output at the last cycle, as (name, RTL bits, netlist bits).
    pub first: Option<(String, String, String)>,
}

/// Reads yosys's VCD of a `sat` run on the miter (`raw`: one time step per cycle, the first
/// at time 0 together with the initial state; ports `in_<input>`, `gold_<output>`,
/// `gate_<output>`, `trigger`) as a [`MiterRun`] up to the first cycle where `trigger` is
/// high, outputs in the order of `outputs`.
pub fn read_miter_run(raw: &str, outputs: &[String]) -> Result<MiterRun, String> {
    // Internal wires (a dot in the name) are not read; yosys names a slice of one like
    // `\gold.core.mem.0.0.WADDR [3_0]` (the block RAM's mapping leaves such), which the VCD
    // parser rejects, so their declarations are dropped first (their changes are then ignored).
    let raw: String = raw
        .lines()
        .filter(|l| {
            let mut words = l.split_whitespace();
            !(words.next() == Some("$var") && words.nth(3).is_some_and(|r| r.contains('.')))
        })
        .flat_map(|l| [l, "\n"])
        .collect();
    let mut parser = vcd::Parser::new(raw.as_bytes());
    let header = parser.parse_header().map_err(|e| e.to_string())?;
    let mut vars: Vec<(vcd::IdCode, String, u32)> = Vec::new();
    let mut scopes: Vec<&vcd::ScopeItem> = header.items.iter().collect();
    while let Some(item) = scopes.pop() {
        match item {
            vcd::ScopeItem::Scope(scope) => scopes.extend(scope.children.iter()),
            vcd::ScopeItem::Var(var) => {
                let name = var.reference.trim_start_matches('\\').to_owned();
                if !name.contains('.') {
                    vars.push((var.code, name, var.size.max(1)));
                }
            }
        }
    }
    // Changes per var: (step, bits), step 1 at times 0 and 1.
    let mut changes: Vec<Vec<(u64, String)>> = vec![Vec::new(); vars.len()];
    let mut time = 0;
    for command in parser {
        let command = command.map_err(|e| e.to_string())?;
        let (code, bits): (vcd::IdCode, String) = match command {
            vcd::Command::Timestamp(t) => {
                time = t;
                continue;
            }
            vcd::Command::ChangeScalar(code, v) => (code, v.to_string()),
            vcd::Command::ChangeVector(code, v) => {
                (code, v.iter().map(ToString::to_string).collect())
            }
            _ => continue,
        };
        for (k, _) in vars.iter().enumerate().filter(|(_, v)| v.0 == code) {
            changes[k].push((time.max(1), bits.clone()));
        }
    }
    let value = |k: usize, step: u64| -> String {
        let width = vars[k].2 as usize;
        let bits = changes[k]
            .iter()
            .take_while(|(t, _)| *t <= step)
            .last()
            .map_or_else(|| "x".to_owned(), |(_, b)| b.clone());
        // VCD left-extends with 0 after a leading 0 or 1, else with the leading x or z.
        let fill = if bits.starts_with('x') {
            'x'
        } else if bits.starts_with('z') {
            'z'
        } else {
            '0'
        };
        let mut out: String = std::iter::repeat_n(fill, width.saturating_sub(bits.len())).collect();
        out.push_str(&bits[bits.len().saturating_sub(width)..]);
        out
    };
    let find = |name: &str| vars.iter().position(|v| v.1 == name);
    let trigger = find("trigger").ok_or("the miter's VCD has no `trigger`")?;
    let last_step = changes.iter().flatten().map(|(t, _)| *t).max().unwrap_or(1);
    let cycles = (1..=last_step)
        .find(|&s| value(trigger, s) == "1")
        .ok_or("the miter's outputs never differ in the VCD")? as usize;
    let mut signals = Vec::new();
    let mut inputs: Vec<usize> = (0..vars.len())
        .filter(|&k| vars[k].1.starts_with("in_"))
        .collect();
    inputs.sort_by(|a, b| vars[*a].1.cmp(&vars[*b].1));
    let series = |k: usize| (1..=cycles as u64).map(|s| value(k, s)).collect::<Vec<_>>();
    for k in inputs {
        let name = vars[k].1.trim_start_matches("in_").to_owned();
        signals.push((name, vars[k].2, series(k)));
    }
    let mut first = None;
    for output in outputs {
        let (Some(gold), Some(gate)) = (
            find(&format!("gold_{output}")),
            find(&format!("gate_{output}")),
        ) else {
            continue;
        };
        let (g, n) = (value(gold, cycles as u64), value(gate, cycles as u64));
        let differs = g.chars().zip(n.chars()).any(|(a, b)| a != 'x' && a != b);
        if differs && first.is_none() {
            first = Some((output.clone(), g, n));
        }
        signals.push((format!("rtl_{output}"), vars[gold].2, series(gold)));
        signals.push((format!("netlist_{output}"), vars[gate].2, series(gate)));
    }
    signals.push(("differ".to_owned(), 1, series(trigger)));
    Ok(MiterRun {
        signals,
        cycles,
        first,
    })
}

/// `run` as a VCD with a `cycle` clock (one cycle every [`CYCLE`] ns, values set at its
/// start, rising edge in its middle), in scope `scope`.
pub fn miter_run_vcd(run: &MiterRun, scope: &str) -> String {
    let id = |k: usize| {
        let mut id = String::new();
        let mut n = k;
        loop {
            id.push(char::from(b'!' + (n % 90) as u8));
            n /= 90;
            if n == 0 {
                break id;
            }
        }
    };
    let mut v = String::from("$timescale 1ns $end\n");
    let _ = writeln!(v, "$scope module {scope} $end");
    let _ = writeln!(v, "$var wire 1 {} cycle $end", id(0));
    for (k, (name, width, _)) in run.signals.iter().enumerate() {
        let _ = writeln!(v, "$var wire {width} {} {name} $end", id(k + 1));
    }
    v.push_str("$upscope $end\n$enddefinitions $end\n");
    for c in 0..run.cycles {
        let t = c as u64 * CYCLE;
        let _ = writeln!(v, "#{t}\n0{}", id(0));
        for (k, (_, width, values)) in run.signals.iter().enumerate() {
            if *width == 1 {
                let _ = writeln!(v, "{}{}", values[c], id(k + 1));
            } else {
                let _ = writeln!(v, "b{} {}", values[c], id(k + 1));
            }
        }
        let _ = writeln!(v, "#{}\n1{}", t + CYCLE / 2, id(0));
    }
    let _ = writeln!(v, "#{}\n0{}", run.cycles as u64 * CYCLE, id(0));
    v
}

/// Writes the miter run `raw_vcd` (from [`equiv::search_counterexample`]) as
/// `netlist-counterexample.vcd` and `.svg` in `dir`.
fn write_counterexample(
    dir: &Path,
    raw_vcd: &Path,
    top: &str,
    outputs: &[String],
) -> Result<Counterexample, BenchError> {
    let no_verdict = |problem: String| BenchError::NoVerdict {
        level: Level::Equivalence,
        problem,
        log: raw_vcd.display().to_string(),
    };
    let raw = std::fs::read_to_string(raw_vcd).map_err(|source| BenchError::Io {
        path: raw_vcd.to_path_buf(),
        source,
    })?;
    let run = read_miter_run(&raw, outputs)
        .map_err(|e| no_verdict(format!("the miter's counterexample cannot be read: {e}")))?;
    let first = match &run.first {
        Some((output, rtl, netlist)) => format!(
            "output {output} first differs at cycle {} of a run from the initial state: \
             RTL {rtl}, netlist {netlist}",
            run.cycles
        ),
        None => format!(
            "an output differs at cycle {} of a run from the initial state",
            run.cycles
        ),
    };
    let scope = format!("{top}_equivalence");
    let vcd = miter_run_vcd(&run, &scope);
    let paths: Vec<String> = std::iter::once("cycle")
        .chain(
            run.signals
                .iter()
                .filter(|(_, w, _)| *w <= 64)
                .map(|(n, _, _)| n.as_str()),
        )
        .map(|n| format!("{scope}.{n}"))
        .collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let title = format!("{top}: netlist equivalence fails; {first}");
    let svg = Trace::from_vcd(&vcd, &refs, run.cycles as u64 * CYCLE)
        .and_then(|trace| {
            render_svg(
                &trace,
                &Picture {
                    title: &title,
                    clock: "cycle",
                    cycle: CYCLE,
                },
            )
        })
        .map_err(|e| no_verdict(format!("the counterexample waveform cannot be drawn: {e}")))?;
    let vcd_path = super::write(dir, "netlist-counterexample.vcd", &vcd)?;
    let svg_path = super::write(dir, "netlist-counterexample.svg", &svg)?;
    Ok(Counterexample {
        vcd: vcd_path,
        svg: svg_path,
        first,
    })
}

/// Level 7 of a combinational design (work directory `dir/equivalence`).
pub fn equivalence_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    design.validate()?;
    let outputs: Vec<String> = design.outputs.iter().map(|p| p.name.clone()).collect();
    netlist_equivalence(
        &dir.join(Level::Equivalence.folder().expect("a folder")),
        &design.verilog,
        &design.module,
        &outputs,
    )
}

#[cfg(test)]
mod run_tests {
    use super::*;

    /// yosys 0.23's `sat -dump_vcd` of a miter whose output `p` differs at step 4.
    const RAW: &str = "$scope module \\miter $end\n\
        $var wire 8 v10 \\gold.c $end\n$var wire 2 v12 \\gate_o $end\n\
        $var wire 1 v13 \\gate_p $end\n$var wire 2 v14 \\gold_o $end\n\
        $var wire 1 v15 \\gold_p $end\n$var wire 1 v16 \\in_clock $end\n\
        $var wire 2 v17 \\in_i $end\n$var wire 1 v18 \\trigger $end\n\
        $upscope $end\n$enddefinitions $end\n$dumpvars\n#0\nb00000000 v10\n$end\n\
        b00 v12\n0v13\nb00 v14\n0v15\n0v16\nb10 v17\n0v18\n\
        #2\nb10 v12\n0v13\nb10 v14\n0v15\n0v16\nb10 v17\n0v18\n\
        #3\nb11 v12\n0v13\nb11 v14\n0v15\n0v16\nb11 v17\n0v18\n\
        #4\nb01 v12\n0v13\nb01 v14\n1v15\n0v16\nb11 v17\n1v18\n#5\n";

    #[test]
    fn reads_the_miter_run_up_to_the_first_difference() {
        let outputs = vec!["o".to_owned(), "p".to_owned()];
        let run = read_miter_run(RAW, &outputs).unwrap();
        assert_eq!(run.cycles, 4);
        assert_eq!(
            run.first,
            Some(("p".to_owned(), "1".to_owned(), "0".to_owned()))
        );
        let names: Vec<&str> = run.signals.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "clock",
                "i",
                "rtl_o",
                "netlist_o",
                "rtl_p",
                "netlist_p",
                "differ"
            ]
        );
        let i = &run.signals[1].2;
        assert_eq!(i, &["10", "10", "11", "11"]);
        assert_eq!(run.signals[4].2, ["0", "0", "0", "1"]);
    }

    /// A slice of an internal wire, as yosys names it after the block RAM's mapping
    /// (`[3_0]`), does not stop the reading: the run is the same as without it.
    #[test]
    fn an_internal_wire_slice_does_not_stop_the_reading() {
        let outputs = vec!["o".to_owned(), "p".to_owned()];
        let with = RAW.replacen(
            "$enddefinitions",
            "$var wire 4 v99 \\gold.core.mem.0.0.WADDR [3_0] $end\n$enddefinitions",
            1,
        );
        assert!(read_miter_run(&with, &outputs).is_ok());
        assert_ne!(with, RAW);
        assert_eq!(
            read_miter_run(&with, &outputs),
            read_miter_run(RAW, &outputs)
        );
    }

    #[test]
    fn the_run_is_drawn_one_cycle_per_step() {
        let outputs = vec!["p".to_owned()];
        let run = read_miter_run(RAW, &outputs).unwrap();
        let vcd = miter_run_vcd(&run, "toy_equivalence");
        let trace = Trace::from_vcd(
            &vcd,
            &[
                "toy_equivalence.cycle",
                "toy_equivalence.rtl_p",
                "toy_equivalence.i",
            ],
            40,
        )
        .unwrap();
        assert_eq!(
            trace.signal("cycle").unwrap().rising_edges(40),
            vec![5, 15, 25, 35]
        );
        let p = trace.signal("rtl_p").unwrap().segments(40);
        assert_eq!(p.last().unwrap().start, 30);
        assert_eq!(p.last().unwrap().level, crate::waveform::Level::Known(1));
    }

    #[test]
    fn a_run_without_a_difference_is_refused() {
        let same = RAW.replace("1v18", "0v18");
        assert!(read_miter_run(&same, &["p".to_owned()]).is_err());
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tests {
    use super::*;
    use crate::circuit::sticks_strategy::Impl;
    use crate::flow::testing::work_dir;
    use crate::game::SticksGame;

    #[test]
    fn the_netlists_equal_their_rtl() {
        let game = SticksGame::new(6, &[1, 2, 3], crate::game::Last::Loses).unwrap();
        let jr01 = crate::bench::jr01::Jr01Design::build().unwrap().design;
        let mut designs = vec![jr01];
        for implementation in [Impl::Rom, Impl::Logic] {
            designs.push(CombDesign::from_sticks(&game, implementation).unwrap());
        }
        for design in &designs {
            let dir = work_dir("equivalence");
            let report = equivalence_level(design, dir.path()).unwrap();
            assert!(report.passed, "{report}");
        }
        let outputs: Vec<String> = crate::model::Outputs::NAMES
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let verilog = crate::circuit::sticks_game_verilog(&game, Impl::Logic, 1).unwrap();
        let dir = work_dir("equivalence-controller");
        let report = netlist_equivalence(dir.path(), &verilog, "sticks_game", &outputs).unwrap();
        assert!(report.passed, "{report}");
    }

    /// A counter modulo 5 (`c`), a registered output `o` and a flag `p` set by `flag`.
    fn counter(flag: &str) -> String {
        format!(
            "module toy (input clock, input [1:0] i, output reg [1:0] o, output p);\n\
             reg [7:0] c = 8'd0;\n\
             initial o = 2'd0;\n\
             always @(posedge clock) begin\n\
             \x20   c <= (c == 8'd4) ? 8'd0 : c + 8'd1;\n\
             \x20   o <= i ^ c[1:0];\n\
             end\n\
             assign p = {flag};\n\
             endmodule\n"
        )
    }

    /// The netlist of `counter("1'b0")`, synthesised in `dir`.
    fn counter_netlist(dir: &Path) -> std::path::PathBuf {
        let rtl = super::super::write(dir, "toy.v", &counter("1'b0")).unwrap();
        yosys::synth_ice40(dir, &[rtl], "toy")
            .unwrap()
            .netlist_verilog
    }

    #[test]
    fn a_netlist_that_differs_gets_a_counterexample_naming_the_output() {
        let made = work_dir("equivalence-netlist");
        let netlist = counter_netlist(made.path());
        let outputs = vec!["o".to_owned(), "p".to_owned()];
        let same = work_dir("equivalence-same");
        let report =
            netlist_against_rtl(same.path(), &counter("1'b0"), &netlist, "toy", &outputs).unwrap();
        assert!(report.passed, "{report}");
        // The RTL raises p when c is 3: the 4th cycle from the initial state.
        let dir = work_dir("equivalence-mutant");
        let report = netlist_against_rtl(
            dir.path(),
            &counter("(c == 8'd3)"),
            &netlist,
            "toy",
            &outputs,
        )
        .unwrap();
        assert!(!report.passed, "{report}");
        assert!(
            report.detail.contains(
                "output p first differs at cycle 4 of a run from the initial state: RTL 1, \
                 netlist 0"
            ),
            "{report}"
        );
        let svg = dir.path().join("netlist-counterexample.svg");
        let vcd = dir.path().join("netlist-counterexample.vcd");
        assert!(
            report.detail.contains(&svg.display().to_string()),
            "{report}"
        );
        let picture = std::fs::read_to_string(&svg).unwrap();
        assert!(picture.starts_with("<svg"), "{picture}");
        assert!(picture.contains("netlist_p"), "{picture}");
        let trace = Trace::from_vcd(
            &std::fs::read_to_string(&vcd).unwrap(),
            &["toy_equivalence.rtl_p", "toy_equivalence.netlist_p"],
            40,
        )
        .unwrap();
        let rtl_p = trace.signal("rtl_p").unwrap().segments(40);
        assert_eq!(
            rtl_p.last().unwrap().level,
            crate::waveform::Level::Known(1)
        );
    }

    /// J.R. 01's netlist against its RTL with one product term of `y` changed: the
    /// counterexample names `y` (not `x`, which still matches) at the first cycle.
    #[test]
    fn a_mutated_jr01_rtl_fails_at_its_output() {
        let design = crate::bench::jr01::Jr01Design::build().unwrap().design;
        let made = work_dir("equivalence-netlist");
        let rtl = super::super::write(made.path(), "jr01_strategy.v", &design.verilog).unwrap();
        let netlist = yosys::synth_ice40(made.path(), &[rtl], &design.module)
            .unwrap()
            .netlist_verilog;
        let mutated = design.verilog.replacen("y = (a & ~c)", "y = (a & c)", 1);
        assert_ne!(mutated, design.verilog, "jr01's y has the term a & ~c");
        let outputs: Vec<String> = design.outputs.iter().map(|p| p.name.clone()).collect();
        let dir = work_dir("equivalence-jr01-mutant");
        let report =
            netlist_against_rtl(dir.path(), &mutated, &netlist, &design.module, &outputs).unwrap();
        assert!(!report.passed, "{report}");
        assert!(
            report
                .detail
                .contains("output y first differs at cycle 1 of a run from the initial state"),
            "{report}"
        );
        assert!(dir.path().join("netlist-counterexample.svg").is_file());
    }

    /// The `equiv_*` passes alone prove a netlist whose register starts at another value (the
    /// same next-state logic); the base case from the initial state does not.
    #[test]
    fn a_netlist_with_another_initial_value_is_not_proved() {
        let toggle = |init: &str| {
            format!(
                "module t (input clock, input e, output reg q);\n\
                 initial q = {init};\n\
                 always @(posedge clock) if (e) q <= ~q;\n\
                 endmodule\n"
            )
        };
        let made = work_dir("equivalence-netlist");
        let rtl = super::super::write(made.path(), "t.v", &toggle("1'b0")).unwrap();
        let netlist = yosys::synth_ice40(made.path(), &[rtl], "t")
            .unwrap()
            .netlist_verilog;
        let outputs = vec!["q".to_owned()];
        let dir = work_dir("equivalence-init");
        let report =
            netlist_against_rtl(dir.path(), &toggle("1'b1"), &netlist, "t", &outputs).unwrap();
        assert!(!report.passed, "{report}");
        assert!(
            report.detail.contains(
                "output q first differs at cycle 1 of a run from the initial state: RTL 1, \
                 netlist 0"
            ),
            "{report}"
        );
    }

    /// A loop through an output (`p` feeds itself): every pairing would hold vacuously, so
    /// the level fails naming it instead of proving anything.
    #[test]
    fn a_combinational_loop_is_not_proved() {
        let looped = "module toy (input clock, input [1:0] i, output p);\n\
                      wire q = ~p;\n  assign p = q & i[0];\nendmodule\n";
        let dir = work_dir("equivalence-loop");
        let report = netlist_equivalence(dir.path(), looped, "toy", &["p".to_owned()]).unwrap();
        assert!(!report.passed, "{report}");
        assert!(
            report.detail.starts_with(
                "the synth_ice40 netlist of toy is not proved equal to its RTL: combinational \
                 loop"
            ),
            "{report}"
        );
        assert!(
            !report.detail.contains("proved the synth_ice40"),
            "{report}"
        );
    }

    /// `p = (c == 255)` never holds (c counts 0 to 4) but no induction over the paired
    /// signals shows it: not proved, and no counterexample either.
    #[test]
    fn an_equal_but_unproved_netlist_is_not_a_counterexample() {
        let made = work_dir("equivalence-netlist");
        let netlist = counter_netlist(made.path());
        let outputs = vec!["o".to_owned(), "p".to_owned()];
        let dir = work_dir("equivalence-unproved");
        let report = netlist_against_rtl(
            dir.path(),
            &counter("(c == 8'd255)"),
            &netlist,
            "toy",
            &outputs,
        )
        .unwrap();
        assert!(!report.passed, "{report}");
        assert!(
            report
                .detail
                .contains("an unfinished proof, not a counterexample"),
            "{report}"
        );
        assert!(!dir.path().join("netlist-counterexample.vcd").exists());
    }
}
