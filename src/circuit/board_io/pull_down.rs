//! Pull-down emulation for inputs that float when off (Alchitry Cu + Io V1).

use rust_hdl::prelude::*;

use super::mask;
use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// When the [`PullDownEmulator`] drives, releases and samples, in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PullDownTiming {
    /// Cycles the pins are driven low at the start of each period (at least 1).
    pub drive_cycles: u64,
    /// Cycles the pins are released before the sampling edge (at least 1).
    pub release_cycles: u64,
    /// Length of the drive / release / sample period, in cycles.
    pub period: u64,
}

impl PullDownTiming {
    /// The timing for a board clock of `hz`: drive low for at least 20 ns,
    /// release for at least 30 ns (the settling time Alchitry's own
    /// `pull_down` waits), repeat every 16 cycles (or longer if needed).
    pub fn for_clock(hz: u64) -> Self {
        let cycles_for_ns = |ns: u64| ((ns * hz).div_ceil(1_000_000_000)).max(1);
        let drive_cycles = cycles_for_ns(20);
        let release_cycles = cycles_for_ns(30);
        PullDownTiming {
            drive_cycles,
            release_cycles,
            period: (drive_cycles + release_cycles + 1).max(16),
        }
    }

    /// The phase (0-based cycle in the period) whose closing edge samples.
    pub fn sample_phase(&self) -> u64 {
        self.drive_cycles + self.release_cycles - 1
    }

    fn check(&self) {
        assert!(
            self.drive_cycles >= 1
                && self.release_cycles >= 1
                && self.drive_cycles + self.release_cycles < self.period,
            "PullDownTiming: need drive >= 1, release >= 1 and drive + release < period: {self:?}"
        );
    }
}

/// Reads inputs that have a pull-up switch but no pull-down resistor.
///
/// ```text
///                 +---------------------------------------+
///   pins[N] <---->| phase 0 .. drive-1: drive pins low    |---> value[N]
///   clock   ----->| then release; release_cycles later:   |
///                 | value <= pins                         |
///                 +---------------------------------------+
/// ```
///
/// The Alchitry Io V1's DIP switches and buttons connect their pin to 3.3 V
/// through 330 Ω when on, and leave it floating when off; the iCE40 has no
/// internal pull-downs. A floating pin keeps whatever level it last had, so
/// a switch turned off would still read 1. This block does what Alchitry's
/// `pull_down` / `fake_pull_down` modules do: every `period` cycles it drives
/// the pins low for `drive_cycles` (discharging an open pin; a closed switch
/// just sources a few mA through its 330 Ω), releases them, waits
/// `release_cycles` (at least 30 ns) for a closed switch to pull its pin
/// back up, and samples. `value` is registered; feed it through a
/// [`Synchronizer`](super::Synchronizer)-free debouncer or straight into a
/// [`Buttons`](super::Buttons) (whose synchroniser is then merely redundant).
///
/// The Verilog instantiates one iCE40 `SB_IO` per pin (`PIN_TYPE` 6'b101001:
/// output driven from `D_OUT_0` under `OUTPUT_ENABLE`, plain input on
/// `D_IN_0`) with `D_OUT_0` = 0 and `OUTPUT_ENABLE` = `drive`, rather than
/// an inferred tristate (`'bz`), which yosys supports only partly and warns
/// about. `pins` must be a top-level `inout` port. Simulating the Verilog
/// needs yosys's `ice40/cells_sim.v` for `SB_IO`.
#[derive(LogicBlock, Default)]
pub struct PullDownEmulator<const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The pins (top-level inout).
    pub pins: Signal<InOut, Bits<N>>,
    /// The last sampled levels, 1 = switch closed.
    pub value: Signal<Out, Bits<N>>,
    _timing: Option<PullDownTiming>,
    _passive: bool,
    _phase: u64,
    _drive: bool,
    _value: u64,
}

impl<const N: usize> PullDownEmulator<N> {
    /// An emulator with the given timing, `connect_all()` done.
    pub fn new(timing: PullDownTiming) -> Self {
        assert!((1..=64).contains(&N), "PullDownEmulator<{N}>: 1 to 64 bits");
        timing.check();
        let mut block = Self {
            _timing: Some(timing),
            ..Self::default()
        };
        block.connect_all();
        block
    }

    /// The same block that never drives: it only samples every `period`
    /// cycles. For inputs that have real pull-downs (the Alchitry Io V2),
    /// so one top serves both Io versions; the pads' output enables stay off.
    pub fn passive(mut self) -> Self {
        self._passive = true;
        self
    }

    fn timing(&self) -> PullDownTiming {
        self._timing.expect("built with new()")
    }

    /// Whether the block drives the pins low right now.
    pub fn driving(&self) -> bool {
        self._drive
    }
}

impl<const N: usize> Logic for PullDownEmulator<N> {
    fn update(&mut self) {
        let t = self.timing();
        if self.clock.pos_edge() {
            if self._phase == t.sample_phase() {
                self._value = self.pins.val().to_u64() & mask(N);
            }
            let next = if self._phase == t.period - 1 {
                0
            } else {
                self._phase + 1
            };
            self._drive = !self._passive && next < t.drive_cycles;
            self._phase = next;
        }
        if self._drive {
            self.pins.next = 0.into();
        }
        self.pins.set_tristate_is_output(self._drive);
        self.value.next = self._value.into();
    }

    fn connect(&mut self) {
        self.pins.connect();
        self.value.connect();
    }

    fn hdl(&self) -> Verilog {
        let t = self.timing();
        let pw = bits_for(t.period - 1);
        let p = |v: u64| sized(pw, v);
        let (what, drive_next) = if self._passive {
            ("passive: never drive".to_owned(), "1'b0".to_owned())
        } else {
            (
                format!("drive low {} cycles", t.drive_cycles),
                format!("(phase_next < {})", p(t.drive_cycles)),
            )
        };
        let pads: String = (0..N)
            .map(|i| {
                format!(
                    "SB_IO #(.PIN_TYPE(6'b101001), .PULLUP(1'b0)) pad{i} (\n\
                     \x20   .PACKAGE_PIN({pin}),\n\
                     \x20   .OUTPUT_ENABLE(drive),\n\
                     \x20   .D_OUT_0(1'b0),\n\
                     \x20   .D_IN_0({sensed})\n\
                     );\n",
                    pin = super::bit_of("pins", i, N),
                    sensed = super::bit_of("sensed", i, N),
                )
            })
            .collect();
        Verilog::Custom(format!(
            "// {what}, release {release} cycles, sample; period {period} cycles\n\
             reg [{top}:0] phase;\n\
             reg drive;\n\
             wire [{ntop}:0] sensed;\n\
             wire [{top}:0] phase_next = (phase == {last}) ? {zero} : phase + {one};\n\
             initial begin\n    phase = {zero};\n    drive = 1'b0;\n    value = {nzero};\nend\n\
             always @(posedge clock) begin\n\
             \x20   if (phase == {sample}) value <= sensed;\n\
             \x20   phase <= phase_next;\n\
             \x20   drive <= {drive_next};\n\
             end\n\
             {pads}",
            release = t.release_cycles,
            period = t.period,
            top = pw - 1,
            last = p(t.period - 1),
            zero = p(0),
            one = p(1),
            sample = p(t.sample_phase()),
            nzero = sized(N, 0),
            ntop = N - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    #[test]
    fn pull_down_timing_for_board_clocks() {
        let cu = PullDownTiming::for_clock(100_000_000);
        assert_eq!(
            cu,
            PullDownTiming {
                drive_cycles: 2,
                release_cycles: 3,
                period: 16
            }
        );
        assert_eq!(cu.sample_phase(), 4);
        let slow = PullDownTiming::for_clock(12_000_000);
        assert_eq!((slow.drive_cycles, slow.release_cycles), (1, 1));
        // 30 ns of release at the sampling edge, whatever the clock.
        for hz in [12_000_000u64, 25_000_000, 100_000_000, 200_000_000] {
            let t = PullDownTiming::for_clock(hz);
            assert!(t.release_cycles * 1_000_000_000 >= 30 * hz, "{hz}");
        }
    }

    /// Switch model of the Io V1: a closed switch pulls the pin up unless the
    /// FPGA drives it; an open pin keeps its last level.
    fn run_with_switch(s: &mut Stepper<PullDownEmulator<2>>, keep: &mut u64, closed: u64, n: u64) {
        for _ in 0..n {
            for half in [true, false] {
                s.settle();
                if !s.block.driving() {
                    *keep |= closed;
                    s.block.pins.next = (*keep).into();
                } else {
                    *keep = 0;
                }
                s.settle();
                // Same as Stepper::step, split so the switch model runs after each edge.
                let clk = &mut s.block.clock;
                clk.next = Clock::from(half);
            }
        }
        s.settle();
    }

    /// Turning a switch off reads 0 within a period, although the pin
    /// "remembers" the 1; without the drive it would read 1 forever.
    #[test]
    fn pull_down_emulator_reads_open_switches_as_zero() {
        let t = PullDownTiming {
            drive_cycles: 1,
            release_cycles: 2,
            period: 6,
        };
        let mut s = Stepper::new(PullDownEmulator::<2>::new(t), |b| &mut b.clock);
        let mut keep = 0;
        run_with_switch(&mut s, &mut keep, 0b01, 13);
        assert_eq!(s.block.value.val(), 0b01);
        run_with_switch(&mut s, &mut keep, 0b10, 13);
        assert_eq!(
            s.block.value.val(),
            0b10,
            "switch 0 opened, switch 1 closed"
        );
        run_with_switch(&mut s, &mut keep, 0b00, 13);
        assert_eq!(s.block.value.val(), 0);
    }

    #[test]
    fn pull_down_emulator_verilog_snapshot() {
        let v = crate::verilog::emit(
            &PullDownEmulator::<3>::new(PullDownTiming::for_clock(100_000_000)),
            "pull_down",
        )
        .unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    fn trace<const N: usize>(t: PullDownTiming, dir: &std::path::Path) -> Vec<Vec<u64>> {
        use crate::circuit::sim::trace::{expand, port, SwitchPins, TraceBench};
        let block = PullDownEmulator::<N>::new(t);
        let module = format!("pull_down{N}_{}", t.period);
        let verilog = crate::verilog::emit(&block, &module).unwrap();
        let mut bench = TraceBench {
            module,
            clock_name: "clock".into(),
            clock: |b: &mut PullDownEmulator<N>| &mut b.clock,
            inputs: vec![],
            outputs: vec![port("value", N)],
            apply: |_, _| {},
            sample: |b| vec![b.value.val().to_u64()],
            switches: vec![SwitchPins::new(
                port("pins", N),
                |b: &PullDownEmulator<N>| b.driving(),
                |b, v| b.pins.next = v.into(),
            )],
        };
        let all = mask(N);
        let stimulus = expand(&[
            (vec![0], 20),
            (vec![all], 20),
            (vec![1], 20),
            (vec![0], 20),
            (vec![all], 3),
            (vec![0], 30),
        ]);
        bench.compare(block, &verilog, &stimulus, dir)
    }

    /// The Verilog's tristate and the switch model (pull1 switch, weak
    /// keeper) under Icarus agree with rust-hdl, and both read an opened
    /// switch as 0.
    #[cfg(feature = "external-tools")]
    #[test]
    fn pull_down_emulator_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("pull-down-trace");
        let t = PullDownTiming {
            drive_cycles: 2,
            release_cycles: 3,
            period: 8,
        };
        let trace3 = trace::<3>(t, dir.path());
        assert_eq!(trace3[39], vec![7]);
        assert_eq!(trace3[59], vec![1]);
        assert_eq!(trace3[79], vec![0], "opened switches read 0");
        assert_eq!(trace3.last().unwrap(), &vec![0]);
        trace::<1>(PullDownTiming::for_clock(12_000_000), dir.path());
    }
}
