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
    _one_stage: bool,
}

impl<const N: usize> Synchronizer<N> {
    /// A synchroniser with both stages at 0, `connect_all()` done.
    pub fn new() -> Self {
        assert!((1..=64).contains(&N), "Synchronizer<{N}>: 1 to 64 bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }

    /// Only the first stage (`synced` is `raw` one edge later), for a reader whose
    /// own register is the second stage: the [`Debouncer`](super::Debouncer) loads
    /// `synced` into its sampling flip-flop, a full cycle after the first stage
    /// caught it, so the two together are a 2-FF synchroniser.
    pub fn first_stage() -> Self {
        let mut block = Self::new();
        block._one_stage = true;
        block
    }
}

impl<const N: usize> Logic for Synchronizer<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._synced = self._meta;
            self._meta = self.raw.val().to_u64() & mask(N);
            if self._one_stage {
                self._synced = self._meta;
            }
        }
        self.synced.next = self._synced.into();
    }

    fn connect(&mut self) {
        self.synced.connect();
    }

    fn hdl(&self) -> Verilog {
        let zero = sized(N, 0);
        if self._one_stage {
            return Verilog::Custom(format!(
                "// first stage only: the reader's register is the second\n\
                 initial synced = {zero};\n\
                 always @(posedge clock) synced <= raw;\n"
            ));
        }
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

    /// The first stage alone delays one edge.
    #[test]
    fn synchronizer_first_stage_delays_one_cycle() {
        let mut s = Stepper::new(Synchronizer::<2>::first_stage(), |b| &mut b.clock);
        s.block.raw.next = 0b10.into();
        s.settle();
        assert_eq!(s.block.synced.val(), 0);
        s.step();
        assert_eq!(s.block.synced.val(), 0b10, "after one edge");
        s.block.raw.next = 0b01.into();
        s.step();
        assert_eq!(s.block.synced.val(), 0b01);
    }

    #[test]
    fn synchronizer_verilog_snapshot() {
        let v = crate::verilog::emit(&Synchronizer::<3>::new(), "synchronizer").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    fn trace<const N: usize>(one_stage: bool, dir: &std::path::Path) {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let (block, stages) = if one_stage {
            (Synchronizer::<N>::first_stage(), 1)
        } else {
            (Synchronizer::<N>::new(), 2)
        };
        let module = format!("sync{N}_{stages}");
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
        // Row r shows the input of row r - stages (rows 2..5 are all ones).
        assert_eq!(trace[3 + stages], vec![mask(N)]);
        assert_eq!(trace[1 + stages], vec![0]);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn synchronizer_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("sync-trace");
        trace::<1>(false, dir.path());
        trace::<3>(false, dir.path());
        trace::<1>(true, dir.path());
        trace::<3>(true, dir.path());
    }
}
