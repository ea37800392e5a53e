//! A slow free-running counter for blink patterns.

use rust_hdl::prelude::*;

use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// A 4-bit phase that advances every `tick_cycles` ticks of the time base.
///
/// ```text
///              +-------------------------------+
///   tick   --->| count ticks (tick_cycles) ->  |---> phase[4]
///   clock  --->| phase + 1 every tick_cycles   |
///              +-------------------------------+
/// ```
///
/// Bit `k` of `phase` is a square wave with period `2^(k+1)` ticks. With the
/// boards' 125 ticks of 1 ms ([`Timing`](crate::circuit::top::Timing)): bit 0 blinks
/// at 4 Hz (the "fast" game-over pattern), bit 2 at 1 Hz ("slow"), bit 3 at
/// 0.5 Hz (1 s on, 1 s off).
#[derive(LogicBlock, Default)]
pub struct Blinker {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The time base's tick (see [`TimeBase`](super::TimeBase)).
    pub tick: Signal<In, Bit>,
    /// Ticks elapsed, modulo 16.
    pub phase: Signal<Out, Bits<4>>,
    _tick_cycles: u64,
    _count: u64,
    _phase: u64,
}

impl Blinker {
    /// A blinker whose phase advances every `tick_cycles` (at least 1) cycles.
    pub fn new(tick_cycles: u64) -> Self {
        assert!(tick_cycles >= 1, "Blinker: tick_cycles must be at least 1");
        let mut block = Self {
            _tick_cycles: tick_cycles,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl Logic for Blinker {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.tick.val() {
            if self._count == self._tick_cycles - 1 {
                self._count = 0;
                self._phase = (self._phase + 1) % 16;
            } else {
                self._count += 1;
            }
        }
        self.phase.next = self._phase.into();
    }

    fn connect(&mut self) {
        self.phase.connect();
    }

    fn hdl(&self) -> Verilog {
        let last = self._tick_cycles - 1;
        let cw = bits_for(last);
        Verilog::Custom(format!(
            "// phase advances every {cycles} ticks\n\
             reg [{top}:0] count;\n\
             initial begin\n    count = {zero};\n    phase = 4'd0;\nend\n\
             always @(posedge clock) begin\n\
             \x20   if (tick) begin\n\
             \x20       if (count == {last}) begin\n\
             \x20           count <= {zero};\n\
             \x20           phase <= phase + 4'd1;\n\
             \x20       end else begin\n\
             \x20           count <= count + {one};\n\
             \x20       end\n\
             \x20   end\n\
             end\n",
            cycles = self._tick_cycles,
            top = cw - 1,
            zero = sized(cw, 0),
            one = sized(cw, 1),
            last = sized(cw, last),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    #[test]
    fn blinker_phase_advances_every_tick_and_wraps() {
        let mut s = Stepper::new(Blinker::new(3), |b| &mut b.clock);
        s.block.tick.next = true;
        let mut phases = Vec::new();
        for _ in 0..(3 * 17) {
            phases.push(s.block.phase.val().to_u64());
            s.step();
        }
        let expect: Vec<u64> = (0..17).flat_map(|p| [p % 16; 3]).collect();
        assert_eq!(phases, expect);
    }

    #[test]
    fn blinker_verilog_snapshot() {
        let v = crate::verilog::emit(&Blinker::new(6), "blinker").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn blinker_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, TraceBench};
        let dir = crate::flow::testing::work_dir("blinker-trace");
        for cycles in [1, 2, 7] {
            let block = Blinker::new(cycles);
            let module = format!("blinker{cycles}");
            let verilog = crate::verilog::emit(&block, &module).unwrap();
            let mut bench = TraceBench {
                module,
                clock_name: "clock".into(),
                clock: |b: &mut Blinker| &mut b.clock,
                inputs: vec![crate::circuit::sim::trace::port("tick", 1)],
                outputs: vec![crate::circuit::sim::trace::port("phase", 4)],
                apply: |b, r| b.tick.next = r[0] != 0,
                sample: |b| vec![b.phase.val().to_u64()],
                switches: vec![],
            };
            let stimulus = expand(&[
                (vec![1], 20),
                (vec![0], 3),
                (vec![1], 5),
                (vec![0], 1),
                (vec![1], 20),
            ]);
            bench.compare(block, &verilog, &stimulus, dir.path());
        }
    }
}
