//! Two flip-flops in a row bring asynchronous pins into the clock domain.

use rust_hdl::prelude::*;

use super::mask;
use crate::circuit::sized;

/// A 2-FF synchroniser, `N` independent bits wide.
///
/// ```text
///              +-----------------+
///   raw[N] --->| FF ---> FF      |---> synced[N]   (2 cycles later)
///   clock ---->|                 |
///              +-----------------+
/// ```
///
/// The first stage may go metastable when `raw` changes near an edge; the
/// second gives it a full cycle to resolve. The bits are not synchronised
/// *together* (fine for independent buttons, wrong for a binary count).
/// rust-hdl's `BitSynchronizer` does the same for one bit; this one is
/// vector-wide and emits a flat module.
#[derive(LogicBlock, Default)]
pub struct Synchronizer<const N: usize> {
    /// Clock of the destination domain.
    pub clock: Signal<In, Clock>,
    /// Asynchronous input.
    pub raw: Signal<In, Bits<N>>,
    /// `raw` two clock edges later.
    pub synced: Signal<Out, Bits<N>>,
    _meta: u64,
    _synced: u64,
}

impl<const N: usize> Synchronizer<N> {
    /// A synchroniser with both stages at 0, `connect_all()` done.
    pub fn new() -> Self {
        assert!((1..=64).contains(&N), "Synchronizer<{N}>: 1 to 64 bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for Synchronizer<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._synced = self._meta;
            self._meta = self.raw.val().to_u64() & mask(N);
        }
        self.synced.next = self._synced.into();
    }

    fn connect(&mut self) {
        self.synced.connect();
    }

    fn hdl(&self) -> Verilog {
        let zero = sized(N, 0);
        Verilog::Custom(format!(
            "reg [{top}:0] meta;\n\
             initial begin\n    meta = {zero};\n    synced = {zero};\nend\n\
             always @(posedge clock) begin\n    meta <= raw;\n    synced <= meta;\nend\n",
            top = N - 1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    /// A change on `raw` shows on `synced` after exactly two rising edges.
    #[test]
    fn synchronizer_delays_two_cycles() {
        let mut s = Stepper::new(Synchronizer::<3>::new(), |b| &mut b.clock);
        s.block.raw.next = 0b101.into();
        s.settle();
        assert_eq!(s.block.synced.val(), 0);
        s.step();
        assert_eq!(s.block.synced.val(), 0, "after one edge");
        s.step();
        assert_eq!(s.block.synced.val(), 0b101, "after two edges");
        s.block.raw.next = 0b010.into();
        s.step();
        assert_eq!(s.block.synced.val(), 0b101);
        s.step();
        assert_eq!(s.block.synced.val(), 0b010);
    }

    #[test]
    fn synchronizer_verilog_snapshot() {
        let v = crate::verilog::emit(&Synchronizer::<3>::new(), "synchronizer").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    fn trace<const N: usize>(dir: &std::path::Path) {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let block = Synchronizer::<N>::new();
        let module = format!("sync{N}");
        let verilog = crate::verilog::emit(&block, &module).unwrap();
        let mut bench = TraceBench {
            module,
            clock_name: "clock".into(),
            clock: |b: &mut Synchronizer<N>| &mut b.clock,
            inputs: vec![port("raw", N)],
            outputs: vec![port("synced", N)],
            apply: |b, r| b.raw.next = r[0].into(),
            sample: |b| vec![b.synced.val().to_u64()],
            switches: vec![],
        };
        let stimulus = expand(&[(vec![0], 2), (vec![mask(N)], 3), (vec![1], 1), (vec![0], 4)]);
        let trace = bench.compare(block, &verilog, &stimulus, dir);
        assert_eq!(trace[4], vec![mask(N)]);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn synchronizer_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("sync-trace");
        trace::<1>(dir.path());
        trace::<3>(dir.path());
    }
}
