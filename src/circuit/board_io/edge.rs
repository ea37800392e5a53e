//! Rising-edge detection: a one-cycle pulse when a level goes from 0 to 1.

use rust_hdl::prelude::*;

use super::mask;
use crate::circuit::sized;

/// Rising-edge detector, `N` independent bits.
///
/// ```text
///               +--------------------------+
///   level[N] -->| rose = level & ~previous |--> rose[N]  (combinational)
///   clock    -->| previous <= level        |
///               +--------------------------+
/// ```
///
/// `rose` is high for exactly the cycle in which `level` is 1 and was 0 at
/// the previous edge. `level` must come from a register (it does: the
/// [`Debouncer`](super::Debouncer)), so `rose` cannot glitch.
#[derive(LogicBlock, Default)]
pub struct EdgeDetector<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The level to watch (registered).
    pub level: Signal<In, Bits<N>>,
    /// One-cycle pulse per rising edge of `level`.
    pub rose: Signal<Out, Bits<N>>,
    _previous: u64,
}

impl<const N: usize> EdgeDetector<N> {
    /// A detector whose previous level is 0, `connect_all()` done.
    pub fn new() -> Self {
        assert!((1..=64).contains(&N), "EdgeDetector<{N}>: 1 to 64 bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for EdgeDetector<N> {
    fn update(&mut self) {
        let level = self.level.val().to_u64() & mask(N);
        if self.clock.pos_edge() {
            self._previous = level;
        }
        self.rose.next = (level & !self._previous & mask(N)).into();
    }

    fn connect(&mut self) {
        self.rose.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "reg [{top}:0] previous;\n\
             initial previous = {zero};\n\
             always @(posedge clock) previous <= level;\n\
             always @(*) rose = level & ~previous;\n",
            top = N - 1,
            zero = sized(N, 0)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    /// One pulse per 0 -> 1 change, lasting one cycle; nothing on 1 -> 0.
    #[test]
    fn edge_detector_pulses_once_per_rise() {
        let mut s = Stepper::new(EdgeDetector::<2>::new(), |b| &mut b.clock);
        s.block.level.next = 0b01.into();
        s.settle();
        assert_eq!(s.block.rose.val(), 0b01);
        s.step();
        assert_eq!(s.block.rose.val(), 0, "held: no second pulse");
        s.block.level.next = 0b10.into();
        s.settle();
        assert_eq!(s.block.rose.val(), 0b10, "bit 0 fell, bit 1 rose");
        s.step();
        assert_eq!(s.block.rose.val(), 0);
    }

    #[test]
    fn edge_detector_verilog_snapshot() {
        let v = crate::verilog::emit(&EdgeDetector::<2>::new(), "edge_detector").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    fn trace<const N: usize>(dir: &std::path::Path) {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let block = EdgeDetector::<N>::new();
        let module = format!("edge{N}");
        let verilog = crate::verilog::emit(&block, &module).unwrap();
        let mut bench = TraceBench {
            module,
            clock_name: "clock".into(),
            clock: |b: &mut EdgeDetector<N>| &mut b.clock,
            inputs: vec![port("level", N)],
            outputs: vec![port("rose", N)],
            apply: |b, r| b.level.next = r[0].into(),
            sample: |b| vec![b.rose.val().to_u64()],
            switches: vec![],
        };
        let stimulus = expand(&[
            (vec![0], 2),
            (vec![mask(N)], 3),
            (vec![1], 1),
            (vec![0], 2),
            (vec![mask(N)], 1),
            (vec![0], 2),
        ]);
        let trace = bench.compare(block, &verilog, &stimulus, dir);
        let pulses = trace.iter().filter(|r| r[0] != 0).count();
        assert_eq!(pulses, 2);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn edge_detector_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("edge-trace");
        trace::<1>(dir.path());
        trace::<3>(dir.path());
    }
}
