//! Short or long press: a release pulse, and whether the press was long.

use rust_hdl::prelude::*;

use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// Times how long a (debounced) level has been high.
///
/// ```text
///              +------------------------------+
///   level  --->| count ticks while level,     |---> released   (1 cycle, on 1 -> 0)
///   tick   --->| saturating at long_cycles    |---> held_long  (held >= long_cycles ticks)
///   clock  --->|                              |
///              +------------------------------+
/// ```
///
/// `held_long` rises once `level` has been high for `long_cycles` ticks and stays
/// high until the edge after the release, so it is valid both while the
/// button is held (for feedback) and during the `released` pulse (to decide
/// what the press meant). The count restarts at 0 whenever `level` is low.
#[derive(LogicBlock, Default)]
pub struct PressTimer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Debounced level.
    pub level: Signal<In, Bit>,
    /// The time base's tick (see [`TimeBase`](super::TimeBase)).
    pub tick: Signal<In, Bit>,
    /// One-cycle pulse in the first cycle `level` is low after being high.
    pub released: Signal<Out, Bit>,
    /// The current (or just-ended) press has lasted `long_cycles` or more.
    pub held_long: Signal<Out, Bit>,
    _long_cycles: u64,
    _count: u64,
    _previous: bool,
}

impl PressTimer {
    /// A timer calling a press long from `long_cycles` (at least 1) ticks.
    pub fn new(long_cycles: u64) -> Self {
        assert!(
            long_cycles >= 1,
            "PressTimer: long_cycles must be at least 1"
        );
        let mut block = Self {
            _long_cycles: long_cycles,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl Logic for PressTimer {
    fn update(&mut self) {
        let level = self.level.val();
        if self.clock.pos_edge() {
            self._previous = level;
            if !level {
                self._count = 0;
            } else if self.tick.val() && self._count != self._long_cycles {
                self._count += 1;
            }
        }
        self.released.next = !level && self._previous;
        self.held_long.next = self._count == self._long_cycles;
    }

    fn connect(&mut self) {
        self.released.connect();
        self.held_long.connect();
    }

    fn hdl(&self) -> Verilog {
        let cw = bits_for(self._long_cycles);
        let (zero, one, limit) = (sized(cw, 0), sized(cw, 1), sized(cw, self._long_cycles));
        Verilog::Custom(format!(
            "// long press: {cycles} ticks\n\
             reg previous;\n\
             reg [{top}:0] count;\n\
             initial begin\n    previous = 1'b0;\n    count = {zero};\nend\n\
             always @(posedge clock) begin\n\
             \x20   previous <= level;\n\
             \x20   if (!level) count <= {zero};\n\
             \x20   else if (tick && count != {limit}) count <= count + {one};\n\
             end\n\
             always @(*) begin\n\
             \x20   released = !level && previous;\n\
             \x20   held_long = (count == {limit});\n\
             end\n",
            cycles = self._long_cycles,
            top = cw - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    fn press(s: &mut Stepper<PressTimer>, held: u64) -> (bool, bool) {
        s.block.level.next = true;
        s.run(held);
        s.block.level.next = false;
        s.settle();
        let seen = (s.block.released.val(), s.block.held_long.val());
        s.step();
        assert!(!s.block.released.val(), "the release pulse lasts one cycle");
        assert!(
            !s.block.held_long.val(),
            "held_long clears after the release"
        );
        seen
    }

    #[test]
    fn press_timer_tells_short_from_long() {
        let mut s = Stepper::new(PressTimer::new(5), |b| &mut b.clock);
        s.block.tick.next = true;
        assert_eq!(press(&mut s, 4), (true, false));
        assert_eq!(press(&mut s, 5), (true, true));
        assert_eq!(press(&mut s, 50), (true, true));
        assert_eq!(press(&mut s, 1), (true, false));
    }

    #[test]
    fn press_timer_long_shows_while_held() {
        let mut s = Stepper::new(PressTimer::new(3), |b| &mut b.clock);
        s.block.tick.next = true;
        s.block.level.next = true;
        s.run(2);
        assert!(!s.block.held_long.val());
        s.step();
        assert!(s.block.held_long.val());
        assert!(!s.block.released.val());
    }

    #[test]
    fn press_timer_verilog_snapshot() {
        let v = crate::verilog::emit(&PressTimer::new(6), "press_timer").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn press_timer_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("press-trace");
        let block = PressTimer::new(4);
        let verilog = crate::verilog::emit(&block, "press_timer").unwrap();
        let mut bench = TraceBench {
            module: "press_timer".into(),
            clock_name: "clock".into(),
            clock: |b: &mut PressTimer| &mut b.clock,
            inputs: vec![port("level", 1), port("tick", 1)],
            outputs: vec![port("released", 1), port("held_long", 1)],
            apply: |b, r| {
                b.level.next = r[0] != 0;
                b.tick.next = r[1] != 0;
            },
            sample: |b| vec![u64::from(b.released.val()), u64::from(b.held_long.val())],
            switches: vec![],
        };
        // A tick every other cycle: 3 cycles are 1 or 2 ticks, 9 cycles are 4 or 5.
        let stimulus: Vec<Vec<u64>> = expand(&[
            (vec![0], 2),
            (vec![1], 3),
            (vec![0], 2),
            (vec![1], 9),
            (vec![0], 3),
        ])
        .into_iter()
        .enumerate()
        .map(|(cycle, mut row)| {
            row.push(cycle as u64 % 2);
            row
        })
        .collect();
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        let releases: Vec<(u64, u64)> = trace
            .iter()
            .filter(|r| r[0] == 1)
            .map(|r| (r[0], r[1]))
            .collect();
        assert_eq!(releases, vec![(1, 0), (1, 1)]);
    }
}
