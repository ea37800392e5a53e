//! A reset pulse after configuration, stretched by an external request.
//!
//! iCE40 flip-flops start at 0 after configuration, so a single flip-flop is
//! enough: it reads 0 in the first cycle only. No counter is needed (the
//! flip-flops' initial state is the power-up state).

use rust_hdl::prelude::*;

/// Power-on reset: `reset` is high in the first cycle after the FPGA is
/// configured (its flip-flops start at 0), and whenever `request` is high
/// (e.g. a synchronised reset button).
///
/// ```text
///              +---------------------------------+
///   request -->| reset = !started | request      |--> reset
///   clock   -->| started: 0, then 1 for good     |
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
    _started: bool,
}

impl PowerOnReset {
    /// Not started yet, `connect_all()` done.
    pub fn new() -> Self {
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl Logic for PowerOnReset {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._started = true;
        }
        self.reset.next = !self._started || self.request.val();
    }

    fn connect(&mut self) {
        self.reset.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "reg started;\n\
             initial started = 1'b0;\n\
             always @(posedge clock) started <= 1'b1;\n\
             always @(*) reset = !started || request;\n"
                .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    #[test]
    fn power_on_reset_lasts_one_cycle_then_follows_request() {
        let mut s = Stepper::new(PowerOnReset::new(), |b| &mut b.clock);
        assert!(s.block.reset.val(), "the first cycle");
        s.step();
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
        assert_eq!(trace.iter().filter(|r| r[0] == 1).count(), 3);
    }
}
