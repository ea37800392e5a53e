//! A per-bit debouncer: the output follows the input once the input has
//! held a new level for a set number of time-base ticks.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::{bit_of, mask};
use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// Debounces `N` independent, already synchronised bits.
///
/// ```text
///                 +----------------------+
///   raw[N]   ---->| per bit: count ticks |----> debounced[N]
///   tick     ---->| while                |
///   clock    ---->| raw != debounced     |
///                 +----------------------+
/// ```
///
/// Per bit: while `raw` equals `debounced` the bit's counter stays 0; on the
/// `ticks`-th tick in a row where they differ, `debounced` takes the new
/// level. Any bounce back resets the count, so a change must be stable for
/// between `ticks - 1` and `ticks` tick periods to get through (each bit has a
/// counter of `bits_for(ticks - 1)` bits). With `tick` always high and `ticks`
/// = 1 it is a plain register.
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
    _counts: Vec<u64>,
    _state: u64,
}

impl<const N: usize> Debouncer<N> {
    /// A debouncer that needs `cycles` (at least 1) stable ticks.
    pub fn new(cycles: u64) -> Self {
        assert!((1..=64).contains(&N), "Debouncer<{N}>: 1 to 64 bits");
        assert!(cycles >= 1, "Debouncer: cycles must be at least 1");
        let mut block = Self {
            _cycles: cycles,
            _counts: vec![0; N],
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for Debouncer<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let raw = self.raw.val().to_u64() & mask(N);
            let tick = self.tick.val();
            for i in 0..N {
                let bit = 1u64 << i;
                if raw & bit == self._state & bit {
                    self._counts[i] = 0;
                } else if !tick {
                } else if self._counts[i] == self._cycles - 1 {
                    self._counts[i] = 0;
                    self._state ^= bit;
                } else {
                    self._counts[i] += 1;
                }
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
        let mut code = format!(
            "// {} stable ticks; one {cw}-bit counter per bit\ninitial debounced = {};\n",
            self._cycles,
            sized(N, 0)
        );
        for i in 0..N {
            let (raw, out) = (bit_of("raw", i, N), bit_of("debounced", i, N));
            let _ = write!(
                code,
                "reg [{top}:0] count{i};\n\
                 initial count{i} = {zero};\n\
                 always @(posedge clock) begin\n\
                 \x20   if ({raw} == {out}) begin\n\
                 \x20       count{i} <= {zero};\n\
                 \x20   end else if (tick) begin\n\
                 \x20       if (count{i} == {last}) begin\n\
                 \x20           count{i} <= {zero};\n\
                 \x20           {out} <= {raw};\n\
                 \x20       end else begin\n\
                 \x20           count{i} <= count{i} + {one};\n\
                 \x20       end\n\
                 \x20   end\n\
                 end\n",
                top = cw - 1,
                zero = sized(cw, 0),
                one = sized(cw, 1),
                last = sized(cw, last),
            );
        }
        Verilog::Custom(code)
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

    /// A level held for `cycles` edges gets through on the last of them.
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

    /// Bounces shorter than `cycles` never get through, and restart the count.
    #[test]
    fn debouncer_rejects_bounces() {
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

    /// The bits are independent.
    #[test]
    fn debouncer_bits_are_independent() {
        let mut s = stepper(2);
        s.block.raw.next = 0b01.into();
        s.step();
        s.block.raw.next = 0b11.into();
        s.step();
        assert_eq!(s.block.debounced.val(), 0b01);
        s.step();
        assert_eq!(s.block.debounced.val(), 0b11);
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
