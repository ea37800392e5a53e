//! Driving clocked rust-hdl blocks cycle by cycle, and (with the
//! `external-tools` feature, in tests) replaying the same stimulus on the
//! block's *emitted Verilog* under Icarus to compare the two traces.
//!
//! rust-hdl simulates `update()` as Rust and renders Verilog separately, so
//! the two can disagree (unsized literals, hand-written `hdl()` bodies). The
//! trace comparison is how every clocked block in [`crate::circuit`] is
//! checked: one stimulus, two simulators, identical outputs cycle by cycle.
//!
//! One cycle, in both simulators:
//!
//! ```text
//!   clock low: apply the cycle's inputs, settle, sample the outputs
//!   rising edge, settle; falling edge, settle
//! ```
//!
//! so a sample shows the outputs *before* the edge that consumes the inputs.

use rust_hdl::prelude::{Block, Clock, In, Signal};

/// Rounds of `update_all` allowed for one settle. Clocked blocks nested a
/// few levels deep settle in a few dozen.
const SETTLE_ROUNDS: usize = 1000;

/// Settle `block`, panicking if it oscillates.
pub(crate) fn settle<B: Block>(block: &mut B) {
    assert!(
        rust_hdl::prelude::simulate(block, SETTLE_ROUNDS),
        "block did not settle in {SETTLE_ROUNDS} rounds"
    );
}

/// How to reach a block's clock input.
pub(crate) type ClockOf<B> = fn(&mut B) -> &mut Signal<In, Clock>;

/// A clocked block under simulation.
pub(crate) struct Stepper<B: Block> {
    /// The block; set its inputs' `.next` between steps.
    pub block: B,
    clock: ClockOf<B>,
    /// Cycles stepped so far.
    pub cycle: u64,
}

impl<B: Block> Stepper<B> {
    /// Wrap a block (already `connect_all`ed) with its clock low and settled.
    pub(crate) fn new(mut block: B, clock: ClockOf<B>) -> Self {
        clock(&mut block).next = Clock::from(false);
        settle(&mut block);
        Stepper {
            block,
            clock,
            cycle: 0,
        }
    }

    /// Settle after changing inputs.
    pub(crate) fn settle(&mut self) {
        settle(&mut self.block);
    }

    /// One full clock cycle: settle, rising edge, settle, falling edge, settle.
    pub(crate) fn step(&mut self) {
        self.settle();
        (self.clock)(&mut self.block).next = Clock::from(true);
        self.settle();
        (self.clock)(&mut self.block).next = Clock::from(false);
        self.settle();
        self.cycle += 1;
    }

    /// `n` cycles with the inputs unchanged.
    pub(crate) fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }
}

/// Signals of a block under a cycle-by-cycle trace: its inputs (set from one
/// stimulus row per cycle), its outputs (one trace row per cycle), and
/// optionally inout ports wired to switches. The rust-hdl side runs in any
/// test; the Icarus side needs the `external-tools` feature.
#[cfg_attr(not(feature = "external-tools"), allow(dead_code))]
pub(crate) mod trace {
    use std::fmt::Write as _;

    use rust_hdl::prelude::Block;

    use super::{settle, ClockOf};

    /// A port of the module under trace: Verilog name and width.
    #[derive(Clone, Debug)]
    pub(crate) struct TracePort {
        pub name: String,
        pub width: usize,
    }

    pub(crate) fn port(name: &str, width: usize) -> TracePort {
        TracePort {
            name: name.to_owned(),
            width,
        }
    }

    /// Inout pins wired like the Alchitry Io V1: a closed switch pulls the pin
    /// up through a resistor (`pull1` strength), an open one leaves it
    /// floating, and the pin's capacitance keeps its last level (modelled by a
    /// `weak` keeper). The FPGA's own strong drive beats both.
    pub(crate) struct SwitchPins<B> {
        pub port: TracePort,
        /// Whether the design drives the pins (low) right now.
        pub driving: fn(&B) -> bool,
        /// Set the pins' value seen by the design when it does not drive them.
        pub set: fn(&mut B, u64),
        /// The board has pull-down resistors (Io V2): an open switch reads 0
        /// with no help from the design.
        pub pulled_down: bool,
        keep: u64,
    }

    impl<B> SwitchPins<B> {
        pub(crate) fn new(port: TracePort, driving: fn(&B) -> bool, set: fn(&mut B, u64)) -> Self {
            SwitchPins {
                port,
                driving,
                set,
                pulled_down: false,
                keep: 0,
            }
        }

        /// The same pins on a board with pull-down resistors.
        pub(crate) fn with_pull_downs(mut self) -> Self {
            self.pulled_down = true;
            self
        }

        /// Resolve the pins for switch states `closed` and push the level into
        /// the block. Returns true if the level changed.
        fn resolve(&mut self, block: &mut B, closed: u64) -> bool {
            let level = if (self.driving)(block) {
                0
            } else if self.pulled_down {
                closed
            } else {
                self.keep | closed
            };
            let changed = level != self.keep;
            self.keep = level;
            if !(self.driving)(block) {
                (self.set)(block, level);
            }
            changed
        }
    }

    /// What to drive and what to watch.
    pub(crate) struct TraceBench<B> {
        pub module: String,
        /// Name of the clock port in the Verilog.
        pub clock_name: String,
        pub clock: ClockOf<B>,
        /// Stimulus columns, in order, then one column per switch bank.
        pub inputs: Vec<TracePort>,
        pub outputs: Vec<TracePort>,
        /// Set the block's inputs from the first `inputs.len()` columns.
        pub apply: fn(&mut B, &[u64]),
        /// Read the outputs, in `outputs` order.
        pub sample: fn(&B) -> Vec<u64>,
        pub switches: Vec<SwitchPins<B>>,
    }

    impl<B: Block> TraceBench<B> {
        fn settle_world(&mut self, block: &mut B, row: &[u64]) {
            let base = self.inputs.len();
            for _ in 0..8 {
                settle(block);
                let mut changed = false;
                for (k, sw) in self.switches.iter_mut().enumerate() {
                    changed |= sw.resolve(block, row[base + k]);
                }
                if !changed {
                    settle(block);
                    return;
                }
            }
            panic!("switch model did not settle");
        }

        /// Run the stimulus under rust-hdl; one output row per cycle.
        pub(crate) fn run_rust_hdl(
            &mut self,
            mut block: B,
            stimulus: &[Vec<u64>],
        ) -> Vec<Vec<u64>> {
            use rust_hdl::prelude::Clock;
            (self.clock)(&mut block).next = Clock::from(false);
            settle(&mut block);
            let mut rows = Vec::with_capacity(stimulus.len());
            for row in stimulus {
                (self.apply)(&mut block, row);
                self.settle_world(&mut block, row);
                rows.push((self.sample)(&block));
                (self.clock)(&mut block).next = Clock::from(true);
                self.settle_world(&mut block, row);
                (self.clock)(&mut block).next = Clock::from(false);
                self.settle_world(&mut block, row);
            }
            rows
        }

        /// The Icarus testbench replaying `stimulus` on `module`.
        pub(crate) fn testbench(&self, stimulus: &[Vec<u64>]) -> String {
            let range = |w: usize| {
                if w == 1 {
                    String::new()
                } else {
                    format!("[{}:0] ", w - 1)
                }
            };
            let mut tb = String::from("`timescale 1ns/1ps\n`default_nettype none\n");
            let _ = writeln!(tb, "module {}_trace_tb;", self.module);
            let _ = writeln!(tb, "    reg {} = 1'b0;", self.clock_name);
            for p in &self.inputs {
                let _ = writeln!(tb, "    reg {}{} = 0;", range(p.width), p.name);
            }
            for p in &self.outputs {
                let _ = writeln!(tb, "    wire {}{};", range(p.width), p.name);
            }
            for sw in &self.switches {
                let (n, r) = (&sw.port.name, range(sw.port.width));
                let _ = writeln!(tb, "    wire {r}{n};");
                let _ = writeln!(tb, "    reg {r}{n}_closed = 0;");
                let _ = writeln!(tb, "    reg {r}{n}_keep = 0;");
                let _ = writeln!(tb, "    assign (pull1, highz0) {n} = {n}_closed;");
                if sw.pulled_down {
                    let _ = writeln!(tb, "    assign (weak1, weak0) {n} = 0;");
                } else {
                    let _ = writeln!(tb, "    assign (weak1, weak0) {n} = {n}_keep;");
                    let _ = writeln!(tb, "    always @({n}) {n}_keep = {n};");
                }
            }
            let mut conns: Vec<String> = vec![format!(".{0}({0})", self.clock_name)];
            conns.extend(
                self.inputs
                    .iter()
                    .chain(&self.outputs)
                    .chain(self.switches.iter().map(|s| &s.port))
                    .map(|p| format!(".{0}({0})", p.name)),
            );
            let _ = writeln!(
                tb,
                "    {} uut (\n        {}\n    );",
                self.module,
                conns.join(",\n        ")
            );
            tb.push_str("    initial begin\n");
            let fmt: Vec<&str> = self.outputs.iter().map(|_| "%0d").collect();
            let args: Vec<&str> = self.outputs.iter().map(|p| p.name.as_str()).collect();
            for (cycle, row) in stimulus.iter().enumerate() {
                let mut col = 0;
                for p in &self.inputs {
                    let _ = writeln!(tb, "        {} = {};", p.name, row[col]);
                    col += 1;
                }
                for sw in &self.switches {
                    let _ = writeln!(tb, "        {}_closed = {};", sw.port.name, row[col]);
                    col += 1;
                }
                let _ = writeln!(
                    tb,
                    "        #1 $display(\"T {cycle} {}\"{}{});",
                    fmt.join(" "),
                    if args.is_empty() { "" } else { ", " },
                    args.join(", ")
                );
                let _ = writeln!(
                    tb,
                    "        #4 {0} = 1'b1;\n        #5 {0} = 1'b0;",
                    self.clock_name
                );
            }
            tb.push_str("        $display(\"DONE\");\n        $finish;\n    end\nendmodule\n");
            tb
        }

        /// Run the stimulus on `verilog` (with yosys's iCE40 cell models, for
        /// instantiated `SB_IO`s) under Icarus in `dir`; one output row per cycle.
        #[cfg(feature = "external-tools")]
        pub(crate) fn run_icarus(
            &self,
            verilog: &str,
            stimulus: &[Vec<u64>],
            dir: &std::path::Path,
        ) -> Vec<Vec<u64>> {
            use crate::flow::iverilog;
            let design = dir.join(format!("{}.v", self.module));
            std::fs::write(&design, verilog).expect("write design");
            let tb_name = format!("{}_trace_tb", self.module);
            let tb = dir.join(format!("{tb_name}.v"));
            std::fs::write(&tb, self.testbench(stimulus)).expect("write testbench");
            // yosys's iCE40 cell models, for the `SB_IO` pads a top instantiates, and the
            // PLL's behavioural model.
            let cells = crate::flow::equiv::ice40_sim_models(dir).expect("cells_sim.v");
            let out = iverilog::simulate(
                dir,
                &[tb, design, cells],
                &tb_name,
                &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
                &tb_name,
            )
            .unwrap_or_else(|e| panic!("Icarus run of {} failed: {e}", self.module));
            parse_trace(&out.stdout)
        }

        /// Synthesise `verilog` with yosys `synth_ice40` and run the stimulus
        /// on the gate-level netlist (with yosys's `ice40/cells_sim.v`, whose
        /// flip-flops start at 0 like the silicon's, and `simcells.v` for the
        /// tristate buffers nextpnr turns into `SB_IO` output enables) under
        /// Icarus.
        #[cfg(feature = "external-tools")]
        pub(crate) fn run_gate_level(
            &self,
            verilog: &str,
            stimulus: &[Vec<u64>],
            dir: &std::path::Path,
        ) -> Vec<Vec<u64>> {
            use crate::flow::{iverilog, yosys};
            let design = dir.join(format!("{}.v", self.module));
            std::fs::write(&design, verilog).expect("write design");
            let synth = yosys::synth_ice40(dir, &[design], &self.module)
                .unwrap_or_else(|e| panic!("synthesis of {} failed: {e}", self.module));
            let cells = crate::flow::equiv::ice40_sim_models(dir).expect("cells_sim.v");
            // yosys's generic cells: the `$_TBUF_`s of tristate pins.
            let generic = yosys::datdir(dir).expect("yosys datdir").join("simcells.v");
            let tb_name = format!("{}_trace_tb", self.module);
            let tb = dir.join(format!("{tb_name}_gate.v"));
            std::fs::write(&tb, self.testbench(stimulus)).expect("write testbench");
            let out = iverilog::simulate(
                dir,
                &[tb, synth.netlist_verilog, cells, generic],
                &tb_name,
                &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
                &format!("{tb_name}_gate"),
            )
            .unwrap_or_else(|e| panic!("gate-level run of {} failed: {e}", self.module));
            parse_trace(&out.stdout)
        }

        /// Run both simulators and assert that the traces are identical;
        /// returns the (common) trace.
        #[cfg(feature = "external-tools")]
        pub(crate) fn compare(
            &mut self,
            block: B,
            verilog: &str,
            stimulus: &[Vec<u64>],
            dir: &std::path::Path,
        ) -> Vec<Vec<u64>> {
            let rust = self.run_rust_hdl(block, stimulus);
            assert_eq!(rust.len(), stimulus.len());
            let icarus = self.run_icarus(verilog, stimulus, dir);
            self.assert_same("Icarus", &rust, &icarus, stimulus);
            rust
        }

        /// [`compare`](Self::compare), then the same for the synthesised
        /// netlist ([`run_gate_level`](Self::run_gate_level)).
        #[cfg(feature = "external-tools")]
        pub(crate) fn compare_with_gates(
            &mut self,
            block: B,
            verilog: &str,
            stimulus: &[Vec<u64>],
            dir: &std::path::Path,
        ) -> Vec<Vec<u64>> {
            let rust = self.compare(block, verilog, stimulus, dir);
            let gates = self.run_gate_level(verilog, stimulus, dir);
            self.assert_same("the iCE40 netlist under Icarus", &rust, &gates, stimulus);
            rust
        }

        #[cfg(feature = "external-tools")]
        fn assert_same(
            &self,
            what: &str,
            rust: &[Vec<u64>],
            other: &[Vec<u64>],
            stimulus: &[Vec<u64>],
        ) {
            assert_eq!(other.len(), rust.len(), "{what} printed too few cycles");
            for (cycle, (r, o)) in rust.iter().zip(other).enumerate() {
                if r != o {
                    let diffs: Vec<String> = self
                        .outputs
                        .iter()
                        .zip(r.iter().zip(o))
                        .filter(|(_, (a, b))| a != b)
                        .map(|(p, (a, b))| format!("{}: rust-hdl {a}, {what} {b}", p.name))
                        .collect();
                    panic!(
                        "{}: rust-hdl and {what} disagree at cycle {cycle} (inputs {:?}): {}",
                        self.module,
                        stimulus[cycle],
                        diffs.join("; ")
                    );
                }
            }
        }
    }

    /// The rows a trace testbench printed (`T <cycle> <values..>`).
    #[cfg(feature = "external-tools")]
    fn parse_trace(stdout: &str) -> Vec<Vec<u64>> {
        assert!(
            stdout.lines().any(|l| l.trim() == "DONE"),
            "testbench did not finish:\n{stdout}"
        );
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("T "))
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .map(|v| {
                        v.parse::<u64>().unwrap_or_else(|_| {
                            panic!("non-numeric value {v:?} (x or z?) in Icarus line {l:?}")
                        })
                    })
                    .collect()
            })
            .collect()
    }

    /// Hold each row of `script` (a row and a repeat count) for that many cycles.
    pub(crate) fn expand(script: &[(Vec<u64>, usize)]) -> Vec<Vec<u64>> {
        script
            .iter()
            .flat_map(|(row, n)| std::iter::repeat_n(row.clone(), *n))
            .collect()
    }
}
