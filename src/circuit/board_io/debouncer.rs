//! A debouncer that samples its inputs once every few time-base ticks.

use rust_hdl::prelude::*;

use super::mask;
use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// Debounces `N` independent, already synchronised bits by sampling them all
/// together on every `ticks`-th tick, with one counter shared by the bits.
///
/// ```text
///                 +------------------------------+
///   raw[N]   ---->| count ticks 0 .. ticks-1;    |----> debounced[N]
///   tick     ---->| on the last: debounced <= raw |
///   clock    ---->|                              |
///                 +------------------------------+
/// ```
///
/// A contact that bounces for less than one sample period (`ticks` ticks: 16 ms on
/// a board) gives at most one sample taken mid-bounce, and the next sample sees the
/// settled level, so each press or release changes `debounced` exactly once, 0 to
/// `ticks` ticks after the contact settles. There is one `bits_for(ticks - 1)`-bit
/// counter for all `N` bits (rather than a counter per bit). With `tick` always
/// high and `ticks` = 1 it is a plain register.
#[derive(LogicBlock, Default)]
pub struct Debouncer<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronised input bits.
    pub raw: Signal<In, Bits<N>>,
    /// The time base's tick (see [`TimeBase`](super::TimeBase)).
    pub tick: Signal<In, Bit>,
    /// The debounced levels (0 after configuration).
    pub debounced: Signal<Out, Bits<N>>,
    _cycles: u64,
    _count: u64,
    _state: u64,
}

impl<const N: usize> Debouncer<N> {
    /// A debouncer sampling every `cycles` (at least 1) ticks.
    pub fn new(cycles: u64) -> Self {
        assert!((1..=64).contains(&N), "Debouncer<{N}>: 1 to 64 bits");
        assert!(cycles >= 1, "Debouncer: cycles must be at least 1");
        let mut block = Self {
            _cycles: cycles,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for Debouncer<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.tick.val() {
            if self._count == self._cycles - 1 {
                self._count = 0;
                self._state = self.raw.val().to_u64() & mask(N);
            } else {
                self._count += 1;
            }
        }
        self.debounced.next = self._state.into();
    }

    fn connect(&mut self) {
        self.debounced.connect();
    }

    fn hdl(&self) -> Verilog {
        let last = self._cycles - 1;
        let cw = bits_for(last);
        Verilog::Custom(format!(
            "// sample every {cycles} ticks; one {cw}-bit counter for all bits\n\
             reg [{top}:0] count;\n\
             initial begin\n    count = {zero};\n    debounced = {zero_n};\nend\n\
             always @(posedge clock) begin\n\
             \x20   if (tick) begin\n\
             \x20       if (count == {last}) begin\n\
             \x20           count <= {zero};\n\
             \x20           debounced <= raw;\n\
             \x20       end else begin\n\
             \x20           count <= count + {one};\n\
             \x20       end\n\
             \x20   end\n\
             end\n",
            cycles = self._cycles,
            top = cw - 1,
            zero = sized(cw, 0),
            one = sized(cw, 1),
            last = sized(cw, last),
            zero_n = sized(N, 0),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    fn stepper(cycles: u64) -> Stepper<Debouncer<2>> {
        let mut s = Stepper::new(Debouncer::<2>::new(cycles), |b| &mut b.clock);
        s.block.tick.next = true;
        s
    }

    /// Only ticks count: a change needs `ticks` ticks, however many cycles apart.
    #[test]
    fn debouncer_counts_ticks() {
        let mut s = stepper(2);
        s.block.raw.next = 0b01.into();
        s.block.tick.next = false;
        s.run(10);
        assert_eq!(s.block.debounced.val(), 0, "no tick, no count");
        s.block.tick.next = true;
        s.step();
        s.block.tick.next = false;
        s.run(5);
        assert_eq!(s.block.debounced.val(), 0, "one tick of two");
        s.block.tick.next = true;
        s.step();
        assert_eq!(s.block.debounced.val(), 0b01, "two ticks");
    }

    /// A level held for `cycles` edges gets through on the last of them (the sample).
    #[test]
    fn debouncer_passes_a_stable_change() {
        let mut s = stepper(4);
        s.block.raw.next = 0b01.into();
        s.run(3);
        assert_eq!(s.block.debounced.val(), 0, "3 of 4 cycles");
        s.step();
        assert_eq!(s.block.debounced.val(), 0b01, "4 of 4 cycles");
        s.block.raw.next = 0b00.into();
        s.run(3);
        assert_eq!(s.block.debounced.val(), 0b01);
        s.step();
        assert_eq!(s.block.debounced.val(), 0);
    }

    /// Between samples the input is ignored: a glitch between two samples never shows.
    #[test]
    fn debouncer_ignores_changes_between_samples() {
        let mut s = stepper(4);
        for _ in 0..5 {
            s.block.raw.next = 0b10.into();
            s.run(3);
            s.block.raw.next = 0b00.into();
            s.step();
            assert_eq!(s.block.debounced.val(), 0);
        }
        s.block.raw.next = 0b10.into();
        s.run(4);
        assert_eq!(s.block.debounced.val(), 0b10);
    }

    /// A press that bounces for less than one sample period, starting at any point
    /// of the period and with any bounce pattern, changes the output exactly once,
    /// at most one period after the contact settles.
    #[test]
    fn debouncer_turns_a_bouncy_press_into_one_change() {
        let period = 4u64;
        // Every bounce pattern of 3 cycles (< 4) before the level settles at 1.
        for pattern in 0u64..8 {
            for phase in 0..period {
                let mut s = stepper(period);
                s.run(phase);
                let mut seen = Vec::new();
                for k in 0..3 {
                    s.block.raw.next = ((pattern >> k) & 1).into();
                    s.step();
                    seen.push(s.block.debounced.val().to_u64());
                }
                s.block.raw.next = 1.into();
                for _ in 0..period {
                    s.step();
                    seen.push(s.block.debounced.val().to_u64());
                }
                let changes =
                    seen.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(seen[0] != 0);
                assert_eq!(changes, 1, "pattern {pattern:03b}, phase {phase}: {seen:?}");
                assert_eq!(seen.last(), Some(&1));
            }
        }
    }

    /// The bits are sampled together, by the one counter.
    #[test]
    fn debouncer_samples_all_bits_together() {
        let mut s = stepper(2);
        s.block.raw.next = 0b01.into();
        s.step();
        s.block.raw.next = 0b11.into();
        s.step();
        assert_eq!(s.block.debounced.val(), 0b11);
        s.block.raw.next = 0b10.into();
        s.step();
        assert_eq!(s.block.debounced.val(), 0b11);
        s.step();
        assert_eq!(s.block.debounced.val(), 0b10);
    }

    #[test]
    fn debouncer_of_one_cycle_is_a_register() {
        let mut s = Stepper::new(Debouncer::<1>::new(1), |b| &mut b.clock);
        s.block.tick.next = true;
        s.block.raw.next = 1.into();
        s.settle();
        assert_eq!(s.block.debounced.val(), 0);
        s.step();
        assert_eq!(s.block.debounced.val(), 1);
    }

    #[test]
    fn debouncer_verilog_snapshot() {
        let v = crate::verilog::emit(&Debouncer::<2>::new(5), "debouncer").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    fn trace<const N: usize>(cycles: u64, dir: &std::path::Path) {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let block = Debouncer::<N>::new(cycles);
        let module = format!("debouncer{N}_{cycles}");
        let verilog = crate::verilog::emit(&block, &module).unwrap();
        let mut bench = TraceBench {
            module,
            clock_name: "clock".into(),
            clock: |b: &mut Debouncer<N>| &mut b.clock,
            inputs: vec![port("raw", N), port("tick", 1)],
            outputs: vec![port("debounced", N)],
            apply: |b, r| {
                b.raw.next = r[0].into();
                b.tick.next = r[1] != 0;
            },
            sample: |b| vec![b.debounced.val().to_u64()],
            switches: vec![],
        };
        let all = mask(N);
        let stimulus = expand(&[
            (vec![0], 2),
            (vec![all], 2),
            (vec![0], 1),
            (vec![all], 9),
            (vec![1], 3),
            (vec![0], 2),
            (vec![all & 2], 8),
            (vec![0], 9),
        ])
        .into_iter()
        .enumerate()
        // A tick in three cycles of four.
        .map(|(cycle, mut row)| {
            row.push(u64::from(cycle % 4 != 3));
            row
        })
        .collect::<Vec<_>>();
        let trace = bench.compare(block, &verilog, &stimulus, dir);
        assert!(
            trace.iter().any(|r| r[0] == all),
            "the long press got through"
        );
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn debouncer_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("debouncer-trace");
        trace::<1>(1, dir.path());
        trace::<1>(4, dir.path());
        trace::<3>(3, dir.path());
        trace::<2>(6, dir.path());
    }
}
