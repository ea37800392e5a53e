//! Lattice iCEstick tops (12 MHz; LEDs active high). The iCEstick has no
//! buttons: wire three push buttons from PMOD J2 pins 1, 2, 3 to GND (J2
//! pin 5 or 11); the PCF turns on the internal pull-ups, so BTN1..BTN3
//! read active low.

#![allow(non_snake_case)] // port names are the board's PCF names

use rust_hdl::prelude::*;

use super::{Jr01Panel, SticksConsole, Timing};
use crate::circuit::board_io::{Blinker, Buttons, PowerOnReset, PressTimer, TimeBase};
use crate::circuit::Jr01Strategy;

/// J.R. 01 on the iCEstick. Five LEDs cannot show six bits at once, so the
/// three red LEDs alternate, every second, between the position and the
/// answer, and the green centre LED says which is showing.
///
/// | pin | role |
/// |---|---|
/// | BTN1, BTN2, BTN3 (PMOD J2 pins 1-3) | toggle A, B, C |
/// | D5 (green, centre) | lit: D1 D2 D3 show the position; dark: they show the answer |
/// | D1, D2, D3 (red) | A B C while D5 is lit, X Y Z while it is dark |
///
/// D4 is not used.
#[derive(LogicBlock)]
pub struct Jr01Icestick {
    pub clk: Signal<In, Clock>,
    pub BTN1: Signal<In, Bit>,
    pub BTN2: Signal<In, Bit>,
    pub BTN3: Signal<In, Bit>,
    pub D1: Signal<Out, Bit>,
    pub D2: Signal<Out, Bit>,
    pub D3: Signal<Out, Bit>,
    pub D5: Signal<Out, Bit>,
    pins: Signal<Local, Bits<3>>,
    shown: Signal<Local, Bits<3>>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    panel: Jr01Panel,
    blinker: Blinker,
}

impl Jr01Icestick {
    /// The top around `strategy`, `connect_all()` done.
    pub fn new(strategy: Jr01Strategy, timing: &Timing) -> Self {
        let mut block = Self {
            clk: Default::default(),
            BTN1: Default::default(),
            BTN2: Default::default(),
            BTN3: Default::default(),
            D1: Default::default(),
            D2: Default::default(),
            D3: Default::default(),
            D5: Default::default(),
            pins: Default::default(),
            shown: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            panel: Jr01Panel::new(strategy),
            blinker: Blinker::new(timing.blink_ticks),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01Icestick {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, time_base, buttons, panel, blinker);
        self.buttons.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        // The buttons pull their pins to GND: active low.
        self.pins.next = (bit_cast::<3, 1>(self.BTN1.val().into()) << 2)
            | (bit_cast::<3, 1>(self.BTN2.val().into()) << 1)
            | bit_cast::<3, 1>(self.BTN3.val().into());
        self.buttons.raw.next = !self.pins.val();
        self.panel.flip.next = self.buttons.pressed.val();
        self.shown.next = self.panel.answer.val();
        if self.blinker.phase.val().get_bit(3) {
            self.shown.next = self.panel.position.val();
        }
        self.D5.next = self.blinker.phase.val().get_bit(3);
        self.D1.next = self.shown.val().get_bit(2);
        self.D2.next = self.shown.val().get_bit(1);
        self.D3.next = self.shown.val().get_bit(0);
    }
}

/// The sticks game on the iCEstick.
///
/// | pin | role |
/// |---|---|
/// | BTN1, BTN2, BTN3 (PMOD J2 pins 1-3) | take 1, 2, 3 sticks |
/// | all three pressed together, then released | new game, you first; held together 1 s or more: machine first |
/// | D1 .. D5 | sticks left in binary, D1 = bit 0 .. D5 = bit 4 |
///
/// While all three buttons have been held 1 s, all LEDs light. Game over:
/// all LEDs blink, slowly (1 Hz) if you won, fast (4 Hz) if the machine
/// won. There is no turn LED: the count changes about half a second after
/// your take, when the machine has moved. Counts of 32 or more show only
/// their low 5 bits. Pressing the three buttons one after the other also
/// sends those takes to the current game before the new one starts.
#[derive(LogicBlock)]
pub struct SticksIcestick<const W: usize, const M: usize, const S: usize> {
    pub clk: Signal<In, Clock>,
    pub BTN1: Signal<In, Bit>,
    pub BTN2: Signal<In, Bit>,
    pub BTN3: Signal<In, Bit>,
    pub D1: Signal<Out, Bit>,
    pub D2: Signal<Out, Bit>,
    pub D3: Signal<Out, Bit>,
    pub D4: Signal<Out, Bit>,
    pub D5: Signal<Out, Bit>,
    pins: Signal<Local, Bits<3>>,
    chord: Signal<Local, Bit>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    start: PressTimer,
    por: PowerOnReset,
    console: SticksConsole<W, M, S>,
}

impl<const W: usize, const M: usize, const S: usize> SticksIcestick<W, M, S> {
    /// The top around `console`, `connect_all()` done.
    pub fn new(console: SticksConsole<W, M, S>, timing: &Timing) -> Self {
        let mut block = Self {
            clk: Default::default(),
            BTN1: Default::default(),
            BTN2: Default::default(),
            BTN3: Default::default(),
            D1: Default::default(),
            D2: Default::default(),
            D3: Default::default(),
            D4: Default::default(),
            D5: Default::default(),
            pins: Default::default(),
            chord: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            start: PressTimer::new(timing.long_press_ticks),
            por: PowerOnReset::new(),
            console,
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksIcestick<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, time_base, buttons, start, por, console);
        self.buttons.tick.next = self.time_base.tick.val();
        self.start.tick.next = self.time_base.tick.val();
        self.console.tick.next = self.time_base.tick.val();
        // Active low: bit k-1 = BTNk.
        self.pins.next = (bit_cast::<3, 1>(self.BTN3.val().into()) << 2)
            | (bit_cast::<3, 1>(self.BTN2.val().into()) << 1)
            | bit_cast::<3, 1>(self.BTN1.val().into());
        self.buttons.raw.next = !self.pins.val();
        self.chord.next = self.buttons.level.val().all();
        self.start.level.next = self.chord.val();
        self.por.request.next = false;
        self.console.reset.next = self.por.reset.val();
        self.console.take1.next = self.buttons.pressed.val().get_bit(0);
        self.console.take2.next = self.buttons.pressed.val().get_bit(1);
        self.console.take3.next = self.buttons.pressed.val().get_bit(2);
        self.console.new_game.next = self.start.released.val();
        self.console.machine_first.next = self.start.held_long.val();

        self.D1.next = self.console.remaining.val().get_bit(0);
        self.D2.next = self.console.remaining.val().get_bit(1);
        self.D3.next = self.console.remaining.val().get_bit(2);
        self.D4.next = self.console.remaining.val().get_bit(3);
        self.D5.next = self.console.remaining.val().get_bit(4);
        if self.console.game_over.val() {
            self.D1.next = self.console.blink.val();
            self.D2.next = self.console.blink.val();
            self.D3.next = self.console.blink.val();
            self.D4.next = self.console.blink.val();
            self.D5.next = self.console.blink.val();
        }
        if self.start.held_long.val() & self.chord.val() {
            self.D1.next = true;
            self.D2.next = true;
            self.D3.next = true;
            self.D4.next = true;
            self.D5.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{jr01_icestick, sticks_icestick, Script};
    use super::*;
    use crate::circuit::sim::trace::{port, TraceBench};

    fn jr01_bench() -> TraceBench<Jr01Icestick> {
        TraceBench {
            module: "jr01_icestick".into(),
            clock_name: "clk".into(),
            clock: |b: &mut Jr01Icestick| &mut b.clk,
            inputs: ["BTN1", "BTN2", "BTN3"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            outputs: ["D1", "D2", "D3", "D5"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            apply: |b, r| {
                b.BTN1.next = r[0] != 0;
                b.BTN2.next = r[1] != 0;
                b.BTN3.next = r[2] != 0;
            },
            sample: |b| {
                [b.D1.val(), b.D2.val(), b.D3.val(), b.D5.val()]
                    .into_iter()
                    .map(u64::from)
                    .collect()
            },
            switches: vec![],
        }
    }

    /// Buttons idle high (pull-ups); pressing BTN1 and BTN2 (to GND) sets
    /// A B C = 110, whose answer is 111; D1-D3 alternate between the two
    /// with D5 telling which.
    fn jr01_script() -> Vec<Vec<u64>> {
        let mut s = Script::new(vec![1, 1, 1]);
        s.idle(4).press(0, 0, 6, 8).press(1, 0, 6, 40);
        s.rows()
    }

    fn check_jr01(trace: &[Vec<u64>]) {
        let end = &trace[trace.len() - 32..];
        let code = |r: &Vec<u64>| r[0] << 2 | r[1] << 1 | r[2];
        assert!(end.iter().any(|r| r[3] == 1) && end.iter().any(|r| r[3] == 0));
        for r in end {
            assert_eq!(code(r), if r[3] == 1 { 0b110 } else { 0b111 }, "{r:?}");
        }
    }

    #[test]
    fn jr01_icestick_alternates_position_and_answer() {
        check_jr01(&jr01_bench().run_rust_hdl(jr01_icestick(), &jr01_script()));
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn jr01_icestick_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("jr01-icestick-trace");
        let block = jr01_icestick();
        let verilog = crate::verilog::emit(&block, "jr01_icestick").unwrap();
        check_jr01(&jr01_bench().compare_with_gates(block, &verilog, &jr01_script(), dir.path()));
    }

    fn sticks_bench() -> TraceBench<SticksIcestick<5, 2, 4>> {
        TraceBench {
            module: "sticks_icestick".into(),
            clock_name: "clk".into(),
            clock: |b: &mut SticksIcestick<5, 2, 4>| &mut b.clk,
            inputs: ["BTN1", "BTN2", "BTN3"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            outputs: ["D1", "D2", "D3", "D4", "D5"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            apply: |b, r| {
                b.BTN1.next = r[0] != 0;
                b.BTN2.next = r[1] != 0;
                b.BTN3.next = r[2] != 0;
            },
            sample: |b| {
                [b.D1.val(), b.D2.val(), b.D3.val(), b.D4.val(), b.D5.val()]
                    .into_iter()
                    .map(u64::from)
                    .collect()
            },
            switches: vec![],
        }
    }

    /// Take 2 (BTN2): 16, the machine takes 3: 13. Then a short chord of all
    /// three buttons starts a new game (18, you first) and a long chord one
    /// the machine opens (18, then 17).
    fn sticks_script() -> (Vec<Vec<u64>>, [usize; 4]) {
        let mut s = Script::new(vec![1, 1, 1]);
        s.idle(20);
        let start = s.rows().len() - 1;
        s.press(1, 0, 6, 16);
        let answered = s.rows().len() - 1;
        s.set(&[(0, 0), (1, 0), (2, 0)], 6).idle(8);
        let short_chord = s.rows().len() - 1;
        s.set(&[(0, 0), (1, 0), (2, 0)], 20).idle(16);
        let long_chord = s.rows().len() - 1;
        (s.rows(), [start, answered, short_chord, long_chord])
    }

    fn check_sticks(trace: &[Vec<u64>], rows: [usize; 4]) {
        let count = |r: &Vec<u64>| r.iter().rev().fold(0, |a, &l| a << 1 | l);
        let [start, answered, short_chord, long_chord] = rows;
        assert_eq!(count(&trace[start]), 18);
        assert_eq!(count(&trace[answered]), 13);
        assert_eq!(count(&trace[short_chord]), 18, "new game, you first");
        assert_eq!(
            count(&trace[long_chord]),
            17,
            "new game, the machine took 1"
        );
        let lit = trace[long_chord - 20..long_chord - 14]
            .iter()
            .any(|r| count(r) == 31);
        assert!(lit, "all LEDs lit while the chord is held long");
    }

    #[test]
    fn sticks_icestick_plays() {
        let (script, rows) = sticks_script();
        check_sticks(
            &sticks_bench().run_rust_hdl(sticks_icestick(), &script),
            rows,
        );
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn sticks_icestick_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("sticks-icestick-trace");
        let (script, rows) = sticks_script();
        let block = sticks_icestick();
        let verilog = crate::verilog::emit(&block, "sticks_icestick").unwrap();
        check_sticks(
            &sticks_bench().compare_with_gates(block, &verilog, &script, dir.path()),
            rows,
        );
    }
}
