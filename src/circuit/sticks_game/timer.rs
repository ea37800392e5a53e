//! The machine's think pause: [`ThinkTimer`], counting ticks of the board's time base.

use rust_hdl::prelude::*;

use crate::circuit::sized;

/// Counts the machine's thinking time in ticks: `load` sets it to `limit`, each `tick`
/// then counts down to 0, where `done` is high. Its width is `bits_for(limit)`, from its own
/// limit (a 0.5 s pause of 1 ms ticks: 9 bits; `emit sticks --think-cycles N` with the tick
/// tied high: the bits of N).
#[derive(LogicBlock, Default)]
pub struct ThinkTimer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Restart the pause (wins over `tick`).
    pub load: Signal<In, Bit>,
    /// Count down one step (at 0 the count stays).
    pub tick: Signal<In, Bit>,
    /// The count is 0: the pause is over.
    pub done: Signal<Out, Bit>,
    _limit: u64,
    _count: u64,
}

impl ThinkTimer {
    /// A pause of `limit` ticks, at 0 (done) after configuration, `connect_all()` done.
    pub fn new(limit: u64) -> Self {
        let mut block = Self {
            _limit: limit,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl Logic for ThinkTimer {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.load.val() {
                self._count = self._limit;
            } else if self.tick.val() && self._count != 0 {
                self._count -= 1;
            }
        }
        self.done.next = self._count == 0;
    }

    fn connect(&mut self) {
        self.done.connect();
    }

    fn hdl(&self) -> Verilog {
        let cw = crate::solver::strategy::bits_for(self._limit);
        let (zero, one, limit) = (sized(cw, 0), sized(cw, 1), sized(cw, self._limit));
        Verilog::Custom(format!(
            "// think pause: {ticks} ticks\n\
             reg [{top}:0] count;\n\
             initial count = {zero};\n\
             always @(posedge clock) begin\n\
             \x20   if (load) count <= {limit};\n\
             \x20   else if (tick && count != {zero}) count <= count - {one};\n\
             end\n\
             always @(*) done = (count == {zero});\n",
            ticks = self._limit,
            top = cw - 1,
        ))
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::flow::testing::work_dir;
    use crate::verilog::emit;

    /// The think pause counts ticks, not cycles: with a tick every third cycle, a load of 2
    /// is done two ticks later; the emitted Verilog agrees with rust-hdl cycle by cycle.
    #[test]
    fn think_timer_counts_ticks() {
        use crate::circuit::sim::trace::{port, TraceBench};
        let dir = work_dir("think-timer-trace");
        let block = ThinkTimer::new(2);
        let verilog = emit(&block, "think_timer").unwrap();
        let mut bench = TraceBench {
            module: "think_timer".into(),
            clock_name: "clock".into(),
            clock: |b: &mut ThinkTimer| &mut b.clock,
            inputs: vec![port("load", 1), port("tick", 1)],
            outputs: vec![port("done", 1)],
            apply: |b, r| {
                b.load.next = r[0] != 0;
                b.tick.next = r[1] != 0;
            },
            sample: |b| vec![u64::from(b.done.val())],
            switches: vec![],
        };
        let stimulus: Vec<Vec<u64>> = (0..16u64)
            .map(|cycle| vec![u64::from(cycle == 1), u64::from(cycle % 3 == 0)])
            .collect();
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        let done: Vec<u64> = trace.iter().map(|r| r[0]).collect();
        // Row k shows the outputs after the edge closing row k - 1: loaded at the edge closing
        // row 1 (seen from row 2), counted down at the ticks of rows 3 and 6 (seen from 7).
        assert_eq!(done, [1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    }
}
