//! 1BitSquared iCEBreaker tops (12 MHz; snap-off buttons and LEDs active
//! high, main-board button and LEDs active low).

#![allow(non_snake_case)] // port names are the board's PCF names

use rust_hdl::prelude::*;

use super::{Jr01Panel, SticksConsole, Timing};
use crate::circuit::board_io::{Buttons, PowerOnReset, PressTimer, TimeBase};
use crate::circuit::Jr01Strategy;

/// J.R. 01 on the iCEBreaker.
///
/// | pin | role |
/// |---|---|
/// | BTN1, BTN2, BTN3 (snap-off) | toggle A, B, C |
/// | LED2, LED3, LED4 (snap-off, green) | A, B, C |
/// | LED5 (snap-off, green) | X |
/// | LEDR_N (main board, red) | Y |
/// | LEDG_N (main board, green) | Z |
///
/// LED1 (the red centre LED) and BTN_N are not used. All bits start at 0.
#[derive(LogicBlock)]
pub struct Jr01Icebreaker {
    pub CLK: Signal<In, Clock>,
    pub BTN1: Signal<In, Bit>,
    pub BTN2: Signal<In, Bit>,
    pub BTN3: Signal<In, Bit>,
    pub LED2: Signal<Out, Bit>,
    pub LED3: Signal<Out, Bit>,
    pub LED4: Signal<Out, Bit>,
    pub LED5: Signal<Out, Bit>,
    pub LEDR_N: Signal<Out, Bit>,
    pub LEDG_N: Signal<Out, Bit>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    panel: Jr01Panel,
}

impl Jr01Icebreaker {
    /// The top around `strategy`, `connect_all()` done.
    pub fn new(strategy: Jr01Strategy, timing: &Timing) -> Self {
        let mut block = Self {
            CLK: Default::default(),
            BTN1: Default::default(),
            BTN2: Default::default(),
            BTN3: Default::default(),
            LED2: Default::default(),
            LED3: Default::default(),
            LED4: Default::default(),
            LED5: Default::default(),
            LEDR_N: Default::default(),
            LEDG_N: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            panel: Jr01Panel::new(strategy),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01Icebreaker {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, CLK, time_base, buttons, panel);
        self.buttons.tick.next = self.time_base.tick.val();
        // Bit 2 = BTN1 = A, bit 1 = BTN2 = B, bit 0 = BTN3 = C.
        self.buttons.raw.next = (bit_cast::<3, 1>(self.BTN1.val().into()) << 2)
            | (bit_cast::<3, 1>(self.BTN2.val().into()) << 1)
            | bit_cast::<3, 1>(self.BTN3.val().into());
        self.panel.flip.next = self.buttons.pressed.val();
        self.LED2.next = self.panel.position.val().get_bit(2);
        self.LED3.next = self.panel.position.val().get_bit(1);
        self.LED4.next = self.panel.position.val().get_bit(0);
        self.LED5.next = self.panel.answer.val().get_bit(2);
        self.LEDR_N.next = !self.panel.answer.val().get_bit(1);
        self.LEDG_N.next = !self.panel.answer.val().get_bit(0);
    }
}

/// The sticks game on the iCEBreaker.
///
/// | pin | role |
/// |---|---|
/// | BTN1, BTN2, BTN3 (snap-off) | take 1, 2, 3 sticks |
/// | BTN_N (main board) | release: new game, you first; held 1 s or more: new game, machine first |
/// | LED1 .. LED5 (snap-off) | sticks left in binary, LED1 = bit 0 .. LED5 = bit 4 |
/// | LEDG_N (main board, green) | your turn |
/// | LEDR_N (main board, red) | the machine is thinking; also lit while BTN_N has been held 1 s |
///
/// Game over: all seven LEDs blink, slowly (1 Hz) if you won, fast (4 Hz)
/// if the machine won. Counts of 32 or more show only their low 5 bits. A
/// game starts at power-up with you to move.
#[derive(LogicBlock)]
pub struct SticksIcebreaker<const W: usize, const M: usize, const S: usize> {
    pub CLK: Signal<In, Clock>,
    pub BTN_N: Signal<In, Bit>,
    pub BTN1: Signal<In, Bit>,
    pub BTN2: Signal<In, Bit>,
    pub BTN3: Signal<In, Bit>,
    pub LED1: Signal<Out, Bit>,
    pub LED2: Signal<Out, Bit>,
    pub LED3: Signal<Out, Bit>,
    pub LED4: Signal<Out, Bit>,
    pub LED5: Signal<Out, Bit>,
    pub LEDR_N: Signal<Out, Bit>,
    pub LEDG_N: Signal<Out, Bit>,
    start_pressed: Signal<Local, Bit>,
    holding_long: Signal<Local, Bit>,
    time_base: TimeBase,
    buttons: Buttons<4>,
    start: PressTimer,
    por: PowerOnReset,
    console: SticksConsole<W, M, S>,
}

impl<const W: usize, const M: usize, const S: usize> SticksIcebreaker<W, M, S> {
    /// The top around `console`, `connect_all()` done.
    pub fn new(console: SticksConsole<W, M, S>, timing: &Timing) -> Self {
        let mut block = Self {
            CLK: Default::default(),
            BTN_N: Default::default(),
            BTN1: Default::default(),
            BTN2: Default::default(),
            BTN3: Default::default(),
            LED1: Default::default(),
            LED2: Default::default(),
            LED3: Default::default(),
            LED4: Default::default(),
            LED5: Default::default(),
            LEDR_N: Default::default(),
            LEDG_N: Default::default(),
            start_pressed: Default::default(),
            holding_long: Default::default(),
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

impl<const W: usize, const M: usize, const S: usize> Logic for SticksIcebreaker<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, CLK, time_base, buttons, start, por, console);
        self.buttons.tick.next = self.time_base.tick.val();
        self.start.tick.next = self.time_base.tick.val();
        self.console.tick.next = self.time_base.tick.val();
        // BTN_N is active low; the snap-off buttons are active high.
        self.start_pressed.next = !self.BTN_N.val();
        self.buttons.raw.next = (bit_cast::<4, 1>(self.start_pressed.val().into()) << 3)
            | (bit_cast::<4, 1>(self.BTN3.val().into()) << 2)
            | (bit_cast::<4, 1>(self.BTN2.val().into()) << 1)
            | bit_cast::<4, 1>(self.BTN1.val().into());
        self.start.level.next = self.buttons.level.val().get_bit(3);
        self.por.request.next = false;
        self.console.reset.next = self.por.reset.val();
        self.console.take1.next = self.buttons.pressed.val().get_bit(0);
        self.console.take2.next = self.buttons.pressed.val().get_bit(1);
        self.console.take3.next = self.buttons.pressed.val().get_bit(2);
        self.console.new_game.next = self.start.released.val();
        self.console.machine_first.next = self.start.held_long.val();
        self.holding_long.next = self.start.held_long.val() & self.buttons.level.val().get_bit(3);

        self.LED1.next = self.console.remaining.val().get_bit(0);
        self.LED2.next = self.console.remaining.val().get_bit(1);
        self.LED3.next = self.console.remaining.val().get_bit(2);
        self.LED4.next = self.console.remaining.val().get_bit(3);
        self.LED5.next = self.console.remaining.val().get_bit(4);
        self.LEDG_N.next = !self.console.human_turn.val();
        self.LEDR_N.next = !self.console.thinking.val();
        if self.console.game_over.val() {
            self.LED1.next = self.console.blink.val();
            self.LED2.next = self.console.blink.val();
            self.LED3.next = self.console.blink.val();
            self.LED4.next = self.console.blink.val();
            self.LED5.next = self.console.blink.val();
            self.LEDG_N.next = !self.console.blink.val();
            self.LEDR_N.next = !self.console.blink.val();
        }
        if self.holding_long.val() {
            self.LEDR_N.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{jr01_icebreaker, sticks_icebreaker};
    use super::*;
    use crate::circuit::sim::Stepper;

    fn hold(s: &mut Stepper<impl Block>, n: u64) {
        s.run(n);
    }

    /// Pressing BTN1 then BTN3 sets A = 1, C = 1 (position 5); the LEDs show
    /// the position and the answer 110 (Y lit: LEDR_N low).
    #[test]
    fn jr01_icebreaker_toggles_and_answers() {
        let mut s = Stepper::new(jr01_icebreaker(), |b| &mut b.CLK);
        s.settle();
        // Position 000: answer 001 -> Z lit (LEDG_N low), Y dark.
        assert!(!s.block.LEDG_N.val() && s.block.LEDR_N.val() && !s.block.LED5.val());
        for press in [1, 3] {
            match press {
                1 => s.block.BTN1.next = true,
                _ => s.block.BTN3.next = true,
            }
            hold(&mut s, 8);
            s.block.BTN1.next = false;
            s.block.BTN3.next = false;
            hold(&mut s, 8);
        }
        let b = &s.block;
        assert_eq!(
            (b.LED2.val(), b.LED3.val(), b.LED4.val()),
            (true, false, true),
            "A B C = 1 0 1"
        );
        // Answer for 101 is 110: X on, Y on (LEDR_N low), Z off (LEDG_N high).
        assert_eq!(
            (b.LED5.val(), b.LEDR_N.val(), b.LEDG_N.val()),
            (true, false, true)
        );
    }

    /// A short BTN_N press starts a game with the human first; BTN2 takes 2;
    /// the machine thinks (red) and answers; a long press starts with the
    /// machine first.
    #[test]
    fn sticks_icebreaker_plays() {
        let mut s = Stepper::new(sticks_icebreaker(), |b| &mut b.CLK);
        s.block.BTN_N.next = true;
        s.run(20);
        let leds = |b: &SticksIcebreaker<5, 2, 4>| {
            [
                b.LED1.val(),
                b.LED2.val(),
                b.LED3.val(),
                b.LED4.val(),
                b.LED5.val(),
            ]
            .iter()
            .rev()
            .fold(0u64, |acc, &l| acc << 1 | u64::from(l))
        };
        assert_eq!(leds(&s.block), 18);
        assert!(!s.block.LEDG_N.val(), "your turn: green lit");
        assert!(s.block.LEDR_N.val(), "red dark");
        s.block.BTN2.next = true;
        s.run(8);
        s.block.BTN2.next = false;
        s.settle();
        assert_eq!(leds(&s.block), 16);
        assert!(!s.block.LEDR_N.val(), "machine thinking: red lit");
        assert!(s.block.LEDG_N.val());
        s.run(10);
        assert_eq!(leds(&s.block), 13, "the machine took 3");
        // Long press: new game, machine first.
        s.block.BTN_N.next = false;
        s.run(20);
        assert!(!s.block.LEDR_N.val(), "held long: red lit");
        s.block.BTN_N.next = true;
        s.run(6);
        assert_eq!(leds(&s.block), 18);
        assert!(!s.block.LEDR_N.val(), "machine first: thinking");
        s.run(10);
        assert_eq!(leds(&s.block), 17);
        assert!(!s.block.LEDG_N.val());
    }

    /// The whole top's Verilog under Icarus agrees with rust-hdl while the
    /// buttons walk through all eight positions, and the LEDs show each
    /// position with its answer from the J.R. 01 table.
    #[cfg(feature = "external-tools")]
    #[test]
    fn jr01_icebreaker_verilog_matches_rust_hdl() {
        use super::super::tests::Script;
        use crate::circuit::sim::trace::{port, TraceBench};
        let dir = crate::flow::testing::work_dir("jr01-icebreaker-trace");
        let block = jr01_icebreaker();
        let verilog = crate::verilog::emit(&block, "jr01_icebreaker").unwrap();
        let mut bench = TraceBench {
            module: "jr01_icebreaker".into(),
            clock_name: "CLK".into(),
            clock: |b: &mut Jr01Icebreaker| &mut b.CLK,
            inputs: vec![port("BTN1", 1), port("BTN2", 1), port("BTN3", 1)],
            outputs: ["LED2", "LED3", "LED4", "LED5", "LEDR_N", "LEDG_N"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            apply: |b, r| {
                b.BTN1.next = r[0] != 0;
                b.BTN2.next = r[1] != 0;
                b.BTN3.next = r[2] != 0;
            },
            sample: |b| {
                [
                    b.LED2.val(),
                    b.LED3.val(),
                    b.LED4.val(),
                    b.LED5.val(),
                    b.LEDR_N.val(),
                    b.LEDG_N.val(),
                ]
                .into_iter()
                .map(u64::from)
                .collect()
            },
            switches: vec![],
        };
        // Gray code: C, B, C, A, C, B, C visits 001 011 010 110 111 101 100.
        let presses = [2usize, 1, 2, 0, 2, 1, 2];
        let mut script = Script::new(vec![0, 0, 0]);
        script.idle(4);
        let mut checkpoints = vec![script.rows().len() - 1];
        for &col in &presses {
            script.press(col, 1, 6, 8);
            checkpoints.push(script.rows().len() - 1);
        }
        let trace = bench.compare_with_gates(block, &verilog, &script.rows(), dir.path());
        let table = [0b001, 0b011, 0b011, 0b100, 0b110, 0b110, 0b111, 0b100];
        let mut position = 0usize;
        for (k, &row) in checkpoints.iter().enumerate() {
            if k > 0 {
                position ^= 4 >> presses[k - 1];
            }
            let t = &trace[row];
            let shown = (t[0] << 2 | t[1] << 1 | t[2]) as usize;
            let answer = t[3] << 2 | (1 - t[4]) << 1 | (1 - t[5]);
            assert_eq!(shown, position, "cycle {row}");
            assert_eq!(answer, table[position], "answer for {position:03b}");
        }
    }

    /// The sticks top's Verilog agrees with rust-hdl over a whole game (the
    /// human always takes 1 and loses), the game-over blink, and a long
    /// press that starts a game with the machine first.
    #[cfg(feature = "external-tools")]
    #[test]
    fn sticks_icebreaker_verilog_matches_rust_hdl() {
        use super::super::tests::Script;
        use crate::circuit::sim::trace::{port, TraceBench};
        let dir = crate::flow::testing::work_dir("sticks-icebreaker-trace");
        let block = sticks_icebreaker();
        let verilog = crate::verilog::emit(&block, "sticks_icebreaker").unwrap();
        let mut bench = TraceBench {
            module: "sticks_icebreaker".into(),
            clock_name: "CLK".into(),
            clock: |b: &mut SticksIcebreaker<5, 2, 4>| &mut b.CLK,
            inputs: ["BTN_N", "BTN1", "BTN2", "BTN3"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            outputs: ["LED1", "LED2", "LED3", "LED4", "LED5", "LEDR_N", "LEDG_N"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            apply: |b, r| {
                b.BTN_N.next = r[0] != 0;
                b.BTN1.next = r[1] != 0;
                b.BTN2.next = r[2] != 0;
                b.BTN3.next = r[3] != 0;
            },
            sample: |b| {
                [
                    b.LED1.val(),
                    b.LED2.val(),
                    b.LED3.val(),
                    b.LED4.val(),
                    b.LED5.val(),
                    b.LEDR_N.val(),
                    b.LEDG_N.val(),
                ]
                .into_iter()
                .map(u64::from)
                .collect()
            },
            switches: vec![],
        };
        let mut script = Script::new(vec![1, 0, 0, 0]);
        script.idle(20);
        for _ in 0..10 {
            script.press(1, 1, 6, 14);
        }
        script.idle(40);
        script.press(0, 0, 24, 8);
        let mut trace = bench.compare_with_gates(block, &verilog, &script.rows(), dir.path());
        let count = |r: &Vec<u64>| r[..5].iter().rev().fold(0, |a, &l| a << 1 | l);
        assert_eq!(count(&trace[19]), 18);
        // Game over (the human took the last stick): all seven LEDs blink
        // together, fast (the machine won): a change every 2 cycles.
        let end = &trace[150..255];
        for r in end {
            assert!(r[..5].iter().all(|&v| v == r[0]) && r[5] == 1 - r[0] && r[6] == 1 - r[0]);
        }
        let changes = end.windows(2).filter(|w| w[0][0] != w[1][0]).count();
        assert!(changes >= 45, "fast blink: {changes} changes");
        let last = trace.pop().unwrap();
        assert_eq!(count(&last), 18, "new game after the long press");
        assert_eq!(last[5], 0, "the machine goes first: red lit");
    }
}
