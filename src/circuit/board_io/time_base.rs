//! The board's one time base: a prescaler from the board clock to a tick.

use rust_hdl::prelude::*;

use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// A one-cycle `tick` every `cycles` clock cycles (1 ms on a board: `cycles` = clock / 1000),
/// shared by every human-scale timer of a top (debounce, long press, blink, think pause,
/// display multiplexing), so each of them counts ticks with a counter sized to its own limit.
///
/// ```text
///             +-------------------------------------------+
///   clock --->| count: cycles-1 .. 0, reload at 0          |---> tick (a register)
///             | tick <= (count == 0)                       |
///             +-------------------------------------------+
/// ```
///
/// `tick` is a flip-flop (it fans out to every timer); it is first high at the end of the
/// first cycle after configuration and then every `cycles` cycles. With `cycles` = 1 there is
/// no counter: `tick` is constantly high, so every timer counts clock cycles (simulation).
#[derive(LogicBlock, Default)]
pub struct TimeBase {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// One-cycle pulse every `cycles` cycles (always high when `cycles` = 1).
    pub tick: Signal<Out, Bit>,
    _cycles: u64,
    _count: u64,
    _tick: bool,
}

impl TimeBase {
    /// A tick every `cycles` (at least 1) clock cycles, `connect_all()` done.
    pub fn new(cycles: u64) -> Self {
        assert!(cycles >= 1, "TimeBase: cycles must be at least 1");
        let mut block = Self {
            _cycles: cycles,
            ..Self::default()
        };
        block.connect_all();
        block
    }

    /// Clock cycles per tick.
    pub fn cycles(&self) -> u64 {
        self._cycles
    }
}

impl Logic for TimeBase {
    fn update(&mut self) {
        if self._cycles == 1 {
            self.tick.next = true;
            return;
        }
        if self.clock.pos_edge() {
            self._tick = self._count == 0;
            self._count = if self._count == 0 {
                self._cycles - 1
            } else {
                self._count - 1
            };
        }
        self.tick.next = self._tick;
    }

    fn connect(&mut self) {
        self.tick.connect();
    }

    fn hdl(&self) -> Verilog {
        if self._cycles == 1 {
            // A flip-flop that starts at 1 and stays 1: yosys makes it a constant.
            return Verilog::Custom(
                "// a tick every cycle\ninitial tick = 1'b1;\nalways @(posedge clock) tick <= 1'b1;\n"
                    .into(),
            );
        }
        let last = self._cycles - 1;
        let cw = bits_for(last);
        Verilog::Custom(format!(
            "// a tick every {cycles} cycles\n\
             reg [{top}:0] count;\n\
             initial begin\n    count = {zero};\n    tick = 1'b0;\nend\n\
             always @(posedge clock) begin\n\
             \x20   tick <= (count == {zero});\n\
             \x20   if (count == {zero}) count <= {last};\n\
             \x20   else count <= count - {one};\n\
             end\n",
            cycles = self._cycles,
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
    fn time_base_ticks_every_cycles() {
        let mut s = Stepper::new(TimeBase::new(4), |b| &mut b.clock);
        let mut ticks = Vec::new();
        for _ in 0..13 {
            s.settle();
            ticks.push(u8::from(s.block.tick.val()));
            s.step();
        }
        assert_eq!(ticks, [0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    }

    #[test]
    fn time_base_of_one_cycle_is_always_high() {
        let mut s = Stepper::new(TimeBase::new(1), |b| &mut b.clock);
        for _ in 0..4 {
            s.settle();
            assert!(s.block.tick.val());
            s.step();
        }
    }

    #[test]
    fn time_base_verilog_snapshot() {
        let v = crate::verilog::emit(&TimeBase::new(12_000), "time_base").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn time_base_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("time-base-trace");
        for cycles in [1, 2, 5] {
            let block = TimeBase::new(cycles);
            let module = format!("time_base{cycles}");
            let verilog = crate::verilog::emit(&block, &module).unwrap();
            let mut bench = TraceBench {
                module,
                clock_name: "clock".into(),
                clock: |b: &mut TimeBase| &mut b.clock,
                inputs: vec![],
                outputs: vec![port("tick", 1)],
                apply: |_, _| {},
                sample: |b| vec![u64::from(b.tick.val())],
                switches: vec![],
            };
            let trace = bench.compare(block, &verilog, &expand(&[(vec![], 23)]), dir.path());
            let ticks = trace.iter().filter(|r| r[0] == 1).count() as u64;
            // Rows 1, 1 + cycles, 1 + 2 * cycles, ... of the 23 (every row for 1 cycle).
            let want = if cycles == 1 {
                23
            } else {
                (23 - 2) / cycles + 1
            };
            assert_eq!(ticks, want, "{cycles}");
        }
    }
}
