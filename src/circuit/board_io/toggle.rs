//! Toggle flip-flops: each pulse flips a latched bit.

use rust_hdl::prelude::*;

use super::mask;
use crate::circuit::sized;

/// `N` toggle flip-flops: a 1 on `flip[i]` at a rising edge inverts `state[i]`.
///
/// ```text
///              +-----------------------------+
///   flip[N] -->| state <= state ^ flip       |--> state[N]
///   clock   -->|                             |
///              +-----------------------------+
/// ```
///
/// Turns momentary push buttons (their one-cycle "pressed" pulses) into
/// switches, e.g. the J.R. 01 position bits A B C.
#[derive(LogicBlock, Default)]
pub struct Toggle<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// One-cycle pulses.
    pub flip: Signal<In, Bits<N>>,
    /// The latched bits (0 after configuration).
    pub state: Signal<Out, Bits<N>>,
    _state: u64,
}

impl<const N: usize> Toggle<N> {
    /// All bits 0, `connect_all()` done.
    pub fn new() -> Self {
        assert!((1..=64).contains(&N), "Toggle<{N}>: 1 to 64 bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for Toggle<N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._state ^= self.flip.val().to_u64() & mask(N);
        }
        self.state.next = self._state.into();
    }

    fn connect(&mut self) {
        self.state.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "initial state = {};\nalways @(posedge clock) state <= state ^ flip;\n",
            sized(N, 0)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    #[test]
    fn toggle_flips_on_each_pulse() {
        let mut s = Stepper::new(Toggle::<3>::new(), |b| &mut b.clock);
        s.block.flip.next = 0b101.into();
        s.step();
        assert_eq!(s.block.state.val(), 0b101);
        s.block.flip.next = 0b001.into();
        s.step();
        assert_eq!(s.block.state.val(), 0b100);
        s.block.flip.next = 0.into();
        s.run(3);
        assert_eq!(s.block.state.val(), 0b100);
    }

    #[test]
    fn toggle_verilog_snapshot() {
        let v = crate::verilog::emit(&Toggle::<3>::new(), "toggle").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn toggle_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("toggle-trace");
        let block = Toggle::<3>::new();
        let verilog = crate::verilog::emit(&block, "toggle3").unwrap();
        let mut bench = TraceBench {
            module: "toggle3".into(),
            clock_name: "clock".into(),
            clock: |b: &mut Toggle<3>| &mut b.clock,
            inputs: vec![port("flip", 3)],
            outputs: vec![port("state", 3)],
            apply: |b, r| b.flip.next = r[0].into(),
            sample: |b| vec![b.state.val().to_u64()],
            switches: vec![],
        };
        let stimulus = expand(&[
            (vec![0], 2),
            (vec![1], 1),
            (vec![0], 1),
            (vec![6], 1),
            (vec![7], 2),
            (vec![0], 2),
        ]);
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        assert_eq!(trace.last().unwrap(), &vec![0b111]);
    }
}
