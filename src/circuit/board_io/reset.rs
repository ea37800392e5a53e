//! A reset pulse after configuration, stretched by an external request.

use rust_hdl::prelude::*;

/// Cycles of reset after configuration.
pub const POWER_ON_CYCLES: u64 = 15;

/// Power-on reset: `reset` is high for the first [`POWER_ON_CYCLES`] cycles
/// after the FPGA is configured (its flip-flops start at 0), and whenever
/// `request` is high (e.g. a synchronised reset button).
///
/// ```text
///              +---------------------------------+
///   request -->| reset = (count != 15) | request  |--> reset
///   clock   -->| count: 0 .. 15, then stays      |
///              +---------------------------------+
/// ```
#[derive(LogicBlock, Default)]
pub struct PowerOnReset {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Extra reset request (synchronous, active high).
    pub request: Signal<In, Bit>,
    /// Synchronous reset, active high.
    pub reset: Signal<Out, Bit>,
    _count: u64,
}

impl PowerOnReset {
    /// Counting from 0, `connect_all()` done.
    pub fn new() -> Self {
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl Logic for PowerOnReset {
    fn update(&mut self) {
        if self.clock.pos_edge() && self._count != POWER_ON_CYCLES {
            self._count += 1;
        }
        self.reset.next = self._count != POWER_ON_CYCLES || self.request.val();
    }

    fn connect(&mut self) {
        self.reset.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "reg [3:0] count;\n\
             initial count = 4'd0;\n\
             always @(posedge clock) if (count != 4'd{n}) count <= count + 4'd1;\n\
             always @(*) reset = (count != 4'd{n}) || request;\n",
            n = POWER_ON_CYCLES
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    #[test]
    fn power_on_reset_lasts_fifteen_cycles_then_follows_request() {
        let mut s = Stepper::new(PowerOnReset::new(), |b| &mut b.clock);
        for _ in 0..POWER_ON_CYCLES {
            assert!(s.block.reset.val());
            s.step();
        }
        assert!(!s.block.reset.val());
        s.run(100);
        assert!(!s.block.reset.val());
        s.block.request.next = true;
        s.settle();
        assert!(s.block.reset.val());
        s.block.request.next = false;
        s.step();
        assert!(!s.block.reset.val());
    }

    #[test]
    fn power_on_reset_verilog_snapshot() {
        let v = crate::verilog::emit(&PowerOnReset::new(), "power_on_reset").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn power_on_reset_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("por-trace");
        let block = PowerOnReset::new();
        let verilog = crate::verilog::emit(&block, "power_on_reset").unwrap();
        let mut bench = TraceBench {
            module: "power_on_reset".into(),
            clock_name: "clock".into(),
            clock: |b: &mut PowerOnReset| &mut b.clock,
            inputs: vec![port("request", 1)],
            outputs: vec![port("reset", 1)],
            apply: |b, r| b.request.next = r[0] != 0,
            sample: |b| vec![u64::from(b.reset.val())],
            switches: vec![],
        };
        let stimulus = expand(&[(vec![0], 20), (vec![1], 2), (vec![0], 3)]);
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        assert_eq!(trace.iter().filter(|r| r[0] == 1).count(), 17);
    }
}
