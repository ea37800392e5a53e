//! Push buttons made usable: synchronised, debounced, edge-detected.

use rust_hdl::prelude::*;

use super::{Debouncer, EdgeDetector, Synchronizer};

/// The whole input chain for `N` active-high buttons or switches.
///
/// ```text
///              +--------------------------------------------------+
///   raw[N] --->| Synchronizer -> Debouncer(ticks) -> EdgeDetector  |--> pressed[N]
///              |  (1st stage)    (2nd stage)                       |
///   tick   --->|                          |                        |--> level[N]
///   clock  --->|                                                   |
///              +--------------------------------------------------+
/// ```
///
/// `level` is the debounced state (use it for switches and "held" checks);
/// `pressed` is a one-cycle pulse when a button goes down. The pins pass through
/// a 2-FF synchroniser: the [`Synchronizer`]'s first stage, then the
/// [`Debouncer`]'s sampling flip-flop, which loads every `ticks` ticks (a bounce
/// shorter than that gives one change). A change reaches `level` at the first
/// sample at least 2 edges after it. Invert active-low pins before `raw`.
#[derive(LogicBlock)]
pub struct Buttons<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The pins, active high (1 = pressed / on).
    pub raw: Signal<In, Bits<N>>,
    /// The time base's tick.
    pub tick: Signal<In, Bit>,
    /// Debounced levels.
    pub level: Signal<Out, Bits<N>>,
    /// One-cycle pulse per press.
    pub pressed: Signal<Out, Bits<N>>,
    sync: Synchronizer<N>,
    debounce: Debouncer<N>,
    edges: EdgeDetector<N>,
}

impl<const N: usize> Buttons<N> {
    /// Buttons sampled every `debounce_cycles` ticks (at least 1).
    pub fn new(debounce_cycles: u64) -> Self {
        let mut block = Self {
            clock: Default::default(),
            raw: Default::default(),
            tick: Default::default(),
            level: Default::default(),
            pressed: Default::default(),
            sync: Synchronizer::first_stage(),
            debounce: Debouncer::new(debounce_cycles),
            edges: EdgeDetector::new(),
        };
        block.connect_all();
        block
    }
}

impl<const N: usize> Logic for Buttons<N> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, sync, debounce, edges);
        self.sync.raw.next = self.raw.val();
        self.debounce.raw.next = self.sync.synced.val();
        self.debounce.tick.next = self.tick.val();
        self.edges.level.next = self.debounce.debounced.val();
        self.level.next = self.debounce.debounced.val();
        self.pressed.next = self.edges.rose.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    /// A press bouncing for less than the sample period gives one pulse, at the
    /// first sample that sees it settled (a tick every cycle).
    #[test]
    fn buttons_give_one_pulse_per_bouncy_press() {
        let mut s = Stepper::new(Buttons::<2>::new(8), |b| &mut b.clock);
        s.block.tick.next = true;
        let mut pulses = Vec::new();
        let mut run = |s: &mut Stepper<Buttons<2>>, raw: u64, n: usize| {
            s.block.raw.next = raw.into();
            for _ in 0..n {
                s.settle();
                pulses.push(s.block.pressed.val().to_u64());
                s.step();
            }
        };
        // Bounce: on 2, off 1, on 1, off 2, then on for good.
        run(&mut s, 0b10, 2);
        run(&mut s, 0, 1);
        run(&mut s, 0b10, 1);
        run(&mut s, 0, 2);
        run(&mut s, 0b10, 12);
        run(&mut s, 0, 12);
        let fired: Vec<usize> = (0..pulses.len()).filter(|&i| pulses[i] != 0).collect();
        assert_eq!(fired.len(), 1, "{pulses:?}");
        assert_eq!(pulses[fired[0]], 0b10);
        // Bounce in cycles 0..6 (shorter than the 8-tick period). Samples at edges 8, 16, ...
        // read the first synchroniser stage, the pin 2 cycles earlier: edge 8 sees cycle 6
        // (on, settled) -> the pulse in cycle 8.
        assert_eq!(fired[0], 8);
        assert_eq!(s.block.level.val(), 0);
    }

    #[test]
    fn buttons_verilog_snapshot() {
        let v = crate::verilog::emit(&Buttons::<2>::new(3), "buttons").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn buttons_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("buttons-trace");
        let block = Buttons::<3>::new(3);
        let verilog = crate::verilog::emit(&block, "buttons3").unwrap();
        let mut bench = TraceBench {
            module: "buttons3".into(),
            clock_name: "clock".into(),
            clock: |b: &mut Buttons<3>| &mut b.clock,
            inputs: vec![port("raw", 3), port("tick", 1)],
            outputs: vec![port("level", 3), port("pressed", 3)],
            apply: |b, r| {
                b.raw.next = r[0].into();
                b.tick.next = r[1] != 0;
            },
            sample: |b| vec![b.level.val().to_u64(), b.pressed.val().to_u64()],
            switches: vec![],
        };
        let stimulus = expand(&[
            (vec![0, 1], 3),
            (vec![1, 1], 1),
            (vec![0, 1], 1),
            (vec![1, 1], 8),
            (vec![5, 1], 2),
            (vec![4, 0], 2),
            (vec![4, 1], 8),
            (vec![0, 1], 8),
        ]);
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        let pulses: u64 = trace.iter().map(|r| u64::from(r[1].count_ones())).sum();
        assert_eq!(pulses, 2, "one press of button 0, one of button 2");
    }
}
