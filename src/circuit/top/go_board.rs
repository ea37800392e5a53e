//! Nandland Go Board tops (25 MHz; push buttons and LEDs active high, the
//! two 7-segment digits active low, each with its own seven pins).

#![allow(non_snake_case)] // port names are the board's PCF names

use rust_hdl::prelude::*;

use super::{Jr01Panel, SticksConsole, Timing};
use crate::circuit::board_io::{Buttons, PowerOnReset, PressTimer, SevenSegment, TimeBase};
use crate::circuit::Jr01Strategy;

/// J.R. 01 on the Go Board.
///
/// | pin | role |
/// |---|---|
/// | i_Switch_1, i_Switch_2, i_Switch_3 | toggle A, B, C |
/// | o_LED_1, o_LED_2, o_LED_3 | A, B, C |
/// | left digit (o_Segment1_*) | the position A B C as a number, 0 to 7 |
/// | right digit (o_Segment2_*) | the answer X Y Z as a number, 0 to 7 |
///
/// i_Switch_4 and o_LED_4 are not used.
#[derive(LogicBlock)]
pub struct Jr01GoBoard {
    pub i_Clk: Signal<In, Clock>,
    pub i_Switch_1: Signal<In, Bit>,
    pub i_Switch_2: Signal<In, Bit>,
    pub i_Switch_3: Signal<In, Bit>,
    pub o_LED_1: Signal<Out, Bit>,
    pub o_LED_2: Signal<Out, Bit>,
    pub o_LED_3: Signal<Out, Bit>,
    pub o_Segment1_A: Signal<Out, Bit>,
    pub o_Segment1_B: Signal<Out, Bit>,
    pub o_Segment1_C: Signal<Out, Bit>,
    pub o_Segment1_D: Signal<Out, Bit>,
    pub o_Segment1_E: Signal<Out, Bit>,
    pub o_Segment1_F: Signal<Out, Bit>,
    pub o_Segment1_G: Signal<Out, Bit>,
    pub o_Segment2_A: Signal<Out, Bit>,
    pub o_Segment2_B: Signal<Out, Bit>,
    pub o_Segment2_C: Signal<Out, Bit>,
    pub o_Segment2_D: Signal<Out, Bit>,
    pub o_Segment2_E: Signal<Out, Bit>,
    pub o_Segment2_F: Signal<Out, Bit>,
    pub o_Segment2_G: Signal<Out, Bit>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    panel: Jr01Panel,
    left: SevenSegment,
    right: SevenSegment,
}

impl Jr01GoBoard {
    /// The top around `strategy`, `connect_all()` done.
    pub fn new(strategy: Jr01Strategy, timing: &Timing) -> Self {
        let mut block = Self {
            i_Clk: Default::default(),
            i_Switch_1: Default::default(),
            i_Switch_2: Default::default(),
            i_Switch_3: Default::default(),
            o_LED_1: Default::default(),
            o_LED_2: Default::default(),
            o_LED_3: Default::default(),
            o_Segment1_A: Default::default(),
            o_Segment1_B: Default::default(),
            o_Segment1_C: Default::default(),
            o_Segment1_D: Default::default(),
            o_Segment1_E: Default::default(),
            o_Segment1_F: Default::default(),
            o_Segment1_G: Default::default(),
            o_Segment2_A: Default::default(),
            o_Segment2_B: Default::default(),
            o_Segment2_C: Default::default(),
            o_Segment2_D: Default::default(),
            o_Segment2_E: Default::default(),
            o_Segment2_F: Default::default(),
            o_Segment2_G: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            panel: Jr01Panel::new(strategy),
            left: SevenSegment::new(),
            right: SevenSegment::new(),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01GoBoard {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, i_Clk, time_base, buttons, panel);
        self.buttons.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = (bit_cast::<3, 1>(self.i_Switch_1.val().into()) << 2)
            | (bit_cast::<3, 1>(self.i_Switch_2.val().into()) << 1)
            | bit_cast::<3, 1>(self.i_Switch_3.val().into());
        self.panel.flip.next = self.buttons.pressed.val();
        self.o_LED_1.next = self.panel.position.val().get_bit(2);
        self.o_LED_2.next = self.panel.position.val().get_bit(1);
        self.o_LED_3.next = self.panel.position.val().get_bit(0);
        self.left.digit.next = bit_cast::<4, 3>(self.panel.position.val());
        self.right.digit.next = bit_cast::<4, 3>(self.panel.answer.val());
        // Segments are active low.
        self.o_Segment1_A.next = !self.left.segments.val().get_bit(0);
        self.o_Segment1_B.next = !self.left.segments.val().get_bit(1);
        self.o_Segment1_C.next = !self.left.segments.val().get_bit(2);
        self.o_Segment1_D.next = !self.left.segments.val().get_bit(3);
        self.o_Segment1_E.next = !self.left.segments.val().get_bit(4);
        self.o_Segment1_F.next = !self.left.segments.val().get_bit(5);
        self.o_Segment1_G.next = !self.left.segments.val().get_bit(6);
        self.o_Segment2_A.next = !self.right.segments.val().get_bit(0);
        self.o_Segment2_B.next = !self.right.segments.val().get_bit(1);
        self.o_Segment2_C.next = !self.right.segments.val().get_bit(2);
        self.o_Segment2_D.next = !self.right.segments.val().get_bit(3);
        self.o_Segment2_E.next = !self.right.segments.val().get_bit(4);
        self.o_Segment2_F.next = !self.right.segments.val().get_bit(5);
        self.o_Segment2_G.next = !self.right.segments.val().get_bit(6);
    }
}

/// The sticks game on the Go Board.
///
/// | pin | role |
/// |---|---|
/// | i_Switch_1, i_Switch_2, i_Switch_3 | take 1, 2, 3 sticks |
/// | i_Switch_4 | release: new game, you first; held 1 s or more: new game, machine first |
/// | both digits | sticks left in decimal (tens blank below 10) |
/// | o_LED_1, o_LED_2, o_LED_3 | the machine's last take: LED k for k sticks (games with takes above 3: the take in binary, LED1 = bit 0) |
/// | o_LED_4 | your turn |
///
/// While i_Switch_4 has been held 1 s, all four LEDs light. Game over: the
/// four LEDs blink, slowly (1 Hz) if you won, fast (4 Hz) if the machine
/// won; the digits keep the count. Counts of 100 or more show their last two
/// digits.
#[derive(LogicBlock)]
pub struct SticksGoBoard<const W: usize, const M: usize, const S: usize> {
    pub i_Clk: Signal<In, Clock>,
    pub i_Switch_1: Signal<In, Bit>,
    pub i_Switch_2: Signal<In, Bit>,
    pub i_Switch_3: Signal<In, Bit>,
    pub i_Switch_4: Signal<In, Bit>,
    pub o_LED_1: Signal<Out, Bit>,
    pub o_LED_2: Signal<Out, Bit>,
    pub o_LED_3: Signal<Out, Bit>,
    pub o_LED_4: Signal<Out, Bit>,
    pub o_Segment1_A: Signal<Out, Bit>,
    pub o_Segment1_B: Signal<Out, Bit>,
    pub o_Segment1_C: Signal<Out, Bit>,
    pub o_Segment1_D: Signal<Out, Bit>,
    pub o_Segment1_E: Signal<Out, Bit>,
    pub o_Segment1_F: Signal<Out, Bit>,
    pub o_Segment1_G: Signal<Out, Bit>,
    pub o_Segment2_A: Signal<Out, Bit>,
    pub o_Segment2_B: Signal<Out, Bit>,
    pub o_Segment2_C: Signal<Out, Bit>,
    pub o_Segment2_D: Signal<Out, Bit>,
    pub o_Segment2_E: Signal<Out, Bit>,
    pub o_Segment2_F: Signal<Out, Bit>,
    pub o_Segment2_G: Signal<Out, Bit>,
    holding_long: Signal<Local, Bit>,
    time_base: TimeBase,
    buttons: Buttons<4>,
    start: PressTimer,
    por: PowerOnReset,
    console: SticksConsole<W, M, S>,
    tens: SevenSegment,
    ones: SevenSegment,
    one_hot: Constant<Bit>,
}

impl<const W: usize, const M: usize, const S: usize> SticksGoBoard<W, M, S> {
    /// The top around `console`; `one_hot` shows the machine's take as "LED
    /// k" (takes up to 3) instead of in binary. `connect_all()` done.
    pub fn new(console: SticksConsole<W, M, S>, timing: &Timing, one_hot: bool) -> Self {
        let mut block = Self {
            i_Clk: Default::default(),
            i_Switch_1: Default::default(),
            i_Switch_2: Default::default(),
            i_Switch_3: Default::default(),
            i_Switch_4: Default::default(),
            o_LED_1: Default::default(),
            o_LED_2: Default::default(),
            o_LED_3: Default::default(),
            o_LED_4: Default::default(),
            o_Segment1_A: Default::default(),
            o_Segment1_B: Default::default(),
            o_Segment1_C: Default::default(),
            o_Segment1_D: Default::default(),
            o_Segment1_E: Default::default(),
            o_Segment1_F: Default::default(),
            o_Segment1_G: Default::default(),
            o_Segment2_A: Default::default(),
            o_Segment2_B: Default::default(),
            o_Segment2_C: Default::default(),
            o_Segment2_D: Default::default(),
            o_Segment2_E: Default::default(),
            o_Segment2_F: Default::default(),
            o_Segment2_G: Default::default(),
            holding_long: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            start: PressTimer::new(timing.long_press_ticks),
            por: PowerOnReset::new(),
            console,
            tens: SevenSegment::new(),
            ones: SevenSegment::new(),
            one_hot: Constant::new(one_hot),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksGoBoard<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, i_Clk, time_base, buttons, start, por, console);
        self.buttons.tick.next = self.time_base.tick.val();
        self.start.tick.next = self.time_base.tick.val();
        self.console.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = (bit_cast::<4, 1>(self.i_Switch_4.val().into()) << 3)
            | (bit_cast::<4, 1>(self.i_Switch_3.val().into()) << 2)
            | (bit_cast::<4, 1>(self.i_Switch_2.val().into()) << 1)
            | bit_cast::<4, 1>(self.i_Switch_1.val().into());
        self.start.level.next = self.buttons.level.val().get_bit(3);
        self.por.request.next = false;
        self.console.reset.next = self.por.reset.val();
        self.console.take1.next = self.buttons.pressed.val().get_bit(0);
        self.console.take2.next = self.buttons.pressed.val().get_bit(1);
        self.console.take3.next = self.buttons.pressed.val().get_bit(2);
        self.console.new_game.next = self.start.released.val();
        self.console.machine_first.next = self.start.held_long.val();
        self.holding_long.next = self.start.held_long.val() & self.buttons.level.val().get_bit(3);

        self.tens.digit.next = self.console.tens.val();
        self.ones.digit.next = self.console.ones.val();
        self.o_Segment1_A.next = !self.tens.segments.val().get_bit(0);
        self.o_Segment1_B.next = !self.tens.segments.val().get_bit(1);
        self.o_Segment1_C.next = !self.tens.segments.val().get_bit(2);
        self.o_Segment1_D.next = !self.tens.segments.val().get_bit(3);
        self.o_Segment1_E.next = !self.tens.segments.val().get_bit(4);
        self.o_Segment1_F.next = !self.tens.segments.val().get_bit(5);
        self.o_Segment1_G.next = !self.tens.segments.val().get_bit(6);
        self.o_Segment2_A.next = !self.ones.segments.val().get_bit(0);
        self.o_Segment2_B.next = !self.ones.segments.val().get_bit(1);
        self.o_Segment2_C.next = !self.ones.segments.val().get_bit(2);
        self.o_Segment2_D.next = !self.ones.segments.val().get_bit(3);
        self.o_Segment2_E.next = !self.ones.segments.val().get_bit(4);
        self.o_Segment2_F.next = !self.ones.segments.val().get_bit(5);
        self.o_Segment2_G.next = !self.ones.segments.val().get_bit(6);

        if self.one_hot.val() {
            self.o_LED_1.next = self.console.machine_take.val() == 1;
            self.o_LED_2.next = self.console.machine_take.val() == 2;
            self.o_LED_3.next = self.console.machine_take.val() == 3;
        } else {
            self.o_LED_1.next = self.console.machine_take.val().get_bit(0);
            self.o_LED_2.next = self.console.machine_take.val().get_bit(1);
            self.o_LED_3.next = self.console.machine_take.val().get_bit(2);
        }
        self.o_LED_4.next = self.console.human_turn.val();
        if self.console.game_over.val() {
            self.o_LED_1.next = self.console.blink.val();
            self.o_LED_2.next = self.console.blink.val();
            self.o_LED_3.next = self.console.blink.val();
            self.o_LED_4.next = self.console.blink.val();
        }
        if self.holding_long.val() {
            self.o_LED_1.next = true;
            self.o_LED_2.next = true;
            self.o_LED_3.next = true;
            self.o_LED_4.next = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{jr01_go_board, sticks_go_board};
    use super::*;
    use crate::circuit::board_io::DIGIT_SEGMENTS;
    use crate::circuit::sim::Stepper;

    /// The digit a Go Board display shows, from its active-low segments
    /// (`None` if dark, panics on a non-digit pattern).
    fn digit(segments_n: [bool; 7]) -> Option<usize> {
        let lit = segments_n
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &s)| acc | (u8::from(!s) << i));
        if lit == 0 {
            return None;
        }
        Some(
            DIGIT_SEGMENTS
                .iter()
                .position(|&p| p == lit)
                .unwrap_or_else(|| panic!("not a digit: {lit:07b}")),
        )
    }

    fn left<T: GoDigits>(b: &T) -> Option<usize> {
        digit(b.left())
    }
    fn right<T: GoDigits>(b: &T) -> Option<usize> {
        digit(b.right())
    }

    trait GoDigits {
        fn left(&self) -> [bool; 7];
        fn right(&self) -> [bool; 7];
    }

    macro_rules! go_digits {
        ($t:ty) => {
            impl GoDigits for $t {
                fn left(&self) -> [bool; 7] {
                    [
                        self.o_Segment1_A.val(),
                        self.o_Segment1_B.val(),
                        self.o_Segment1_C.val(),
                        self.o_Segment1_D.val(),
                        self.o_Segment1_E.val(),
                        self.o_Segment1_F.val(),
                        self.o_Segment1_G.val(),
                    ]
                }
                fn right(&self) -> [bool; 7] {
                    [
                        self.o_Segment2_A.val(),
                        self.o_Segment2_B.val(),
                        self.o_Segment2_C.val(),
                        self.o_Segment2_D.val(),
                        self.o_Segment2_E.val(),
                        self.o_Segment2_F.val(),
                        self.o_Segment2_G.val(),
                    ]
                }
            }
        };
    }
    go_digits!(Jr01GoBoard);
    go_digits!(SticksGoBoard<5, 2, 4>);

    /// The digits show position and answer; switch 2 toggles B.
    #[test]
    fn jr01_go_board_shows_position_and_answer() {
        let mut s = Stepper::new(jr01_go_board(), |b| &mut b.i_Clk);
        s.settle();
        assert_eq!((left(&s.block), right(&s.block)), (Some(0), Some(1)));
        s.block.i_Switch_2.next = true;
        s.run(8);
        s.block.i_Switch_2.next = false;
        s.run(8);
        assert_eq!((left(&s.block), right(&s.block)), (Some(2), Some(3)));
        assert_eq!(
            (
                s.block.o_LED_1.val(),
                s.block.o_LED_2.val(),
                s.block.o_LED_3.val()
            ),
            (false, true, false)
        );
    }

    /// 18 in decimal; taking 2 leaves 16 and the machine answers 3 (LED 3).
    #[test]
    fn sticks_go_board_plays() {
        let mut s = Stepper::new(sticks_go_board(), |b| &mut b.i_Clk);
        s.run(20);
        assert_eq!((left(&s.block), right(&s.block)), (Some(1), Some(8)));
        assert!(s.block.o_LED_4.val());
        s.block.i_Switch_2.next = true;
        s.run(6);
        s.block.i_Switch_2.next = false;
        s.run(12);
        assert_eq!((left(&s.block), right(&s.block)), (Some(1), Some(3)));
        assert_eq!(
            (
                s.block.o_LED_1.val(),
                s.block.o_LED_2.val(),
                s.block.o_LED_3.val()
            ),
            (false, false, true),
            "the machine took 3"
        );
        assert!(s.block.o_LED_4.val());
        // Down to a single digit: the tens digit goes dark.
        for _ in 0..3 {
            s.block.i_Switch_1.next = true;
            s.run(6);
            s.block.i_Switch_1.next = false;
            s.run(12);
        }
        assert_eq!((left(&s.block), right(&s.block)), (None, Some(1)));
    }

    /// LED ports then the 14 segment ports, as trace outputs.
    #[cfg(feature = "external-tools")]
    fn go_outputs(leds: &[&str]) -> Vec<crate::circuit::sim::trace::TracePort> {
        use crate::circuit::sim::trace::port;
        leds.iter()
            .map(|n| port(n, 1))
            .chain(
                ["o_Segment1_", "o_Segment2_"]
                    .iter()
                    .flat_map(|d| "ABCDEFG".chars().map(move |c| port(&format!("{d}{c}"), 1))),
            )
            .collect()
    }

    /// The digit shown by 7 active-low segment values of a trace row.
    #[cfg(feature = "external-tools")]
    fn shown(r: &[u64]) -> Option<usize> {
        digit(std::array::from_fn(|i| r[i] != 0))
    }

    /// Icarus agrees with rust-hdl on the whole J.R. 01 top while switch 1
    /// and switch 3 toggle A and C; the digits end on 5 and 6.
    #[cfg(feature = "external-tools")]
    #[test]
    fn jr01_go_board_verilog_matches_rust_hdl() {
        use super::super::tests::Script;
        use crate::circuit::sim::trace::{port, TraceBench};
        let dir = crate::flow::testing::work_dir("jr01-go-trace");
        let block = jr01_go_board();
        let verilog = crate::verilog::emit(&block, "jr01_go_board").unwrap();
        let mut bench = TraceBench {
            module: "jr01_go_board".into(),
            clock_name: "i_Clk".into(),
            clock: |b: &mut Jr01GoBoard| &mut b.i_Clk,
            inputs: ["i_Switch_1", "i_Switch_2", "i_Switch_3"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            outputs: go_outputs(&["o_LED_1", "o_LED_2", "o_LED_3"]),
            apply: |b, r| {
                b.i_Switch_1.next = r[0] != 0;
                b.i_Switch_2.next = r[1] != 0;
                b.i_Switch_3.next = r[2] != 0;
            },
            sample: |b| {
                [b.o_LED_1.val(), b.o_LED_2.val(), b.o_LED_3.val()]
                    .into_iter()
                    .chain(b.left())
                    .chain(b.right())
                    .map(u64::from)
                    .collect()
            },
            switches: vec![],
        };
        let mut script = Script::new(vec![0, 0, 0]);
        script.idle(4).press(0, 1, 6, 8).press(2, 1, 6, 8);
        let trace = bench.compare_with_gates(block, &verilog, &script.rows(), dir.path());
        let last = trace.last().unwrap();
        assert_eq!(
            (shown(&last[3..10]), shown(&last[10..17])),
            (Some(5), Some(6))
        );
        assert_eq!(&last[..3], &[1, 0, 1]);
    }

    /// Icarus agrees with rust-hdl on the whole sticks top over a game the
    /// human loses (always taking 1), its blink, and a long press of switch 4.
    #[cfg(feature = "external-tools")]
    #[test]
    fn sticks_go_board_verilog_matches_rust_hdl() {
        use super::super::tests::Script;
        use crate::circuit::sim::trace::{port, TraceBench};
        let dir = crate::flow::testing::work_dir("sticks-go-trace");
        let block = sticks_go_board();
        let verilog = crate::verilog::emit(&block, "sticks_go_board").unwrap();
        let mut bench = TraceBench {
            module: "sticks_go_board".into(),
            clock_name: "i_Clk".into(),
            clock: |b: &mut SticksGoBoard<5, 2, 4>| &mut b.i_Clk,
            inputs: ["i_Switch_1", "i_Switch_2", "i_Switch_3", "i_Switch_4"]
                .iter()
                .map(|n| port(n, 1))
                .collect(),
            outputs: go_outputs(&["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"]),
            apply: |b, r| {
                b.i_Switch_1.next = r[0] != 0;
                b.i_Switch_2.next = r[1] != 0;
                b.i_Switch_3.next = r[2] != 0;
                b.i_Switch_4.next = r[3] != 0;
            },
            sample: |b| {
                [
                    b.o_LED_1.val(),
                    b.o_LED_2.val(),
                    b.o_LED_3.val(),
                    b.o_LED_4.val(),
                ]
                .into_iter()
                .chain(b.left())
                .chain(b.right())
                .map(u64::from)
                .collect()
            },
            switches: vec![],
        };
        let mut script = Script::new(vec![0, 0, 0, 0]);
        script.idle(20);
        for _ in 0..8 {
            script.press(0, 1, 6, 14);
        }
        script.idle(30);
        script.press(3, 1, 24, 8);
        let trace = bench.compare_with_gates(block, &verilog, &script.rows(), dir.path());
        let digits = |r: &[u64]| (shown(&r[4..11]), shown(&r[11..18]));
        assert_eq!(digits(&trace[19]), (Some(1), Some(8)));
        assert_eq!(digits(&trace[190]), (None, Some(0)), "game over at 0");
        let last = trace.last().unwrap();
        assert_eq!(digits(last), (Some(1), Some(8)), "a new game");
        assert_eq!(last[3], 0, "machine first: not your turn");
    }
}
