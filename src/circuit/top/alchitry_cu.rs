//! Alchitry Cu + Io tops (100 MHz; Io buttons and DIP switches active high,
//! LEDs active high, the 4-digit display's segments and digit selects
//! active low).
//!
//! On the Cu V1 with an Io V1 the buttons and DIP switches float when off,
//! so their ports are `inout` and go through a [`PullDownEmulator`]. The
//! same tops serve the Cu V2 + Io V2 (which has pull-down resistors) with
//! the emulator made passive: the ports stay `inout` but are never driven.
//!
//! Io numbering: `io_dip[0]`..`[7]` and `io_led[0]`..`[7]` are the rightmost
//! group, bit 0 presumably rightmost within it; `io_button[0..4]` = up,
//! centre, down, left, right; `io_sel[0]` is the rightmost digit.

#![allow(non_snake_case)] // port names are the board's PCF names

use rust_hdl::prelude::*;

use super::{SticksConsole, Timing};
use crate::circuit::board_io::{
    Buttons, MuxDisplay, PowerOnReset, PullDownEmulator, SevenSegment, Synchronizer, TimeBase,
    BLANK,
};
use crate::circuit::Jr01Strategy;

/// J.R. 01 on the Alchitry Cu + Io.
///
/// | pin | role |
/// |---|---|
/// | io_dip[2], io_dip[1], io_dip[0] (rightmost DIP switches) | A, B, C (switch on = 1) |
/// | io_led[2], io_led[1], io_led[0] (above them) | A, B, C |
/// | io_led[6], io_led[5], io_led[4] | X, Y, Z |
/// | leftmost digit | the position A B C as a number, 0 to 7 |
/// | rightmost digit | the answer X Y Z as a number, 0 to 7 |
#[derive(LogicBlock)]
pub struct Jr01AlchitryCu {
    pub clk: Signal<In, Clock>,
    pub io_dip: Signal<InOut, Bits<3>>,
    pub io_led: Signal<Out, Bits<8>>,
    pub io_seg: Signal<Out, Bits<8>>,
    pub io_sel: Signal<Out, Bits<4>>,
    answer: Signal<Local, Bits<3>>,
    time_base: TimeBase,
    pull: PullDownEmulator<3>,
    switches: Buttons<3>,
    strategy: Jr01Strategy,
    position_digit: SevenSegment,
    answer_digit: SevenSegment,
    display: MuxDisplay,
}

impl Jr01AlchitryCu {
    /// The top around `strategy`; `emulate_pull_downs` for an Io V1 (false:
    /// Io V2). `connect_all()` done.
    pub fn new(strategy: Jr01Strategy, timing: &Timing, emulate_pull_downs: bool) -> Self {
        let pull = PullDownEmulator::new(timing.pull_down);
        let mut block = Self {
            clk: Default::default(),
            io_dip: Default::default(),
            io_led: Default::default(),
            io_seg: Default::default(),
            io_sel: Default::default(),
            answer: Default::default(),
            pull: if emulate_pull_downs {
                pull
            } else {
                pull.passive()
            },
            time_base: TimeBase::new(timing.tick_cycles),
            switches: Buttons::new(timing.debounce_ticks),
            strategy,
            position_digit: SevenSegment::new(),
            answer_digit: SevenSegment::new(),
            display: MuxDisplay::new(timing.digit_ticks),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01AlchitryCu {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clk, time_base, pull, switches, display);
        self.switches.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        Signal::<InOut, Bits<3>>::link(&mut self.io_dip, &mut self.pull.pins);
        self.switches.raw.next = self.pull.value.val();
        self.strategy.a.next = self.switches.level.val().get_bit(2);
        self.strategy.b.next = self.switches.level.val().get_bit(1);
        self.strategy.c.next = self.switches.level.val().get_bit(0);
        self.answer.next = (bit_cast::<3, 1>(self.strategy.x.val().into()) << 2)
            | (bit_cast::<3, 1>(self.strategy.y.val().into()) << 1)
            | bit_cast::<3, 1>(self.strategy.z.val().into());
        self.io_led.next = (bit_cast::<8, 3>(self.answer.val()) << 4)
            | bit_cast::<8, 3>(self.switches.level.val());
        self.position_digit.digit.next = bit_cast::<4, 3>(self.switches.level.val());
        self.answer_digit.digit.next = bit_cast::<4, 3>(self.answer.val());
        self.display.digits.next = (bit_cast::<32, 7>(self.position_digit.segments.val()) << 24)
            | bit_cast::<32, 7>(self.answer_digit.segments.val());
        // Segments and digit selects are active low.
        self.io_seg.next = !self.display.segments.val();
        self.io_sel.next = !self.display.select.val();
    }
}

/// The sticks game on the Alchitry Cu + Io.
///
/// | pin | role |
/// |---|---|
/// | io_button[3], [1], [4] (left, centre, right) | take 1, 2, 3 sticks |
/// | io_button[0] (up) | new game |
/// | io_dip[0] (rightmost DIP switch) | on: the machine moves first in the next game |
/// | rst_n (Cu reset button) | reset: new game |
/// | two left digits | sticks left in decimal |
/// | third digit | `-` |
/// | rightmost digit | the machine's last take (blank before its first move) |
/// | io_led[0] | your turn |
/// | io_led[1] | the machine is thinking |
/// | io_led[7] | echoes io_dip[0] (machine first) |
///
/// Game over: the eight LEDs of the rightmost group blink, slowly (1 Hz) if
/// you won, fast (4 Hz) if the machine won. Counts of 100 or more show their
/// last two digits; takes of 10 or more leave the last digit blank.
#[derive(LogicBlock)]
pub struct SticksAlchitryCu<const W: usize, const M: usize, const S: usize> {
    pub clk: Signal<In, Clock>,
    pub rst_n: Signal<In, Bit>,
    pub io_button: Signal<InOut, Bits<5>>,
    pub io_dip: Signal<InOut, Bits<8>>,
    pub io_led: Signal<Out, Bits<8>>,
    pub io_seg: Signal<Out, Bits<8>>,
    pub io_sel: Signal<Out, Bits<4>>,
    reset_pressed: Signal<Local, Bit>,
    take_shown: Signal<Local, Bits<4>>,
    time_base: TimeBase,
    reset_sync: Synchronizer<1>,
    pull_buttons: PullDownEmulator<5>,
    pull_dips: PullDownEmulator<8>,
    buttons: Buttons<5>,
    dips: Buttons<8>,
    por: PowerOnReset,
    console: SticksConsole<W, M, S>,
    tens: SevenSegment,
    ones: SevenSegment,
    take_digit: SevenSegment,
    display: MuxDisplay,
    blank: Constant<Bits<4>>,
}

impl<const W: usize, const M: usize, const S: usize> SticksAlchitryCu<W, M, S> {
    /// The top around `console`; `emulate_pull_downs` for an Io V1 (false:
    /// Io V2). `connect_all()` done.
    pub fn new(console: SticksConsole<W, M, S>, timing: &Timing, emulate_pull_downs: bool) -> Self {
        let pull = |p: PullDownEmulator<8>| if emulate_pull_downs { p } else { p.passive() };
        let pull5 = PullDownEmulator::new(timing.pull_down);
        let mut block = Self {
            clk: Default::default(),
            rst_n: Default::default(),
            io_button: Default::default(),
            io_dip: Default::default(),
            io_led: Default::default(),
            io_seg: Default::default(),
            io_sel: Default::default(),
            reset_pressed: Default::default(),
            take_shown: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            reset_sync: Synchronizer::new(),
            pull_buttons: if emulate_pull_downs {
                pull5
            } else {
                pull5.passive()
            },
            pull_dips: pull(PullDownEmulator::new(timing.pull_down)),
            buttons: Buttons::new(timing.debounce_ticks),
            dips: Buttons::new(timing.debounce_ticks),
            por: PowerOnReset::new(),
            console,
            tens: SevenSegment::new(),
            ones: SevenSegment::new(),
            take_digit: SevenSegment::new(),
            display: MuxDisplay::new(timing.digit_ticks),
            blank: Constant::new(BLANK.into()),
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksAlchitryCu<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clk,
            time_base,
            reset_sync,
            pull_buttons,
            pull_dips,
            buttons,
            dips,
            por,
            console,
            display
        );
        Signal::<InOut, Bits<5>>::link(&mut self.io_button, &mut self.pull_buttons.pins);
        self.buttons.tick.next = self.time_base.tick.val();
        self.dips.tick.next = self.time_base.tick.val();
        self.console.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        Signal::<InOut, Bits<8>>::link(&mut self.io_dip, &mut self.pull_dips.pins);

        // rst_n is active low.
        self.reset_pressed.next = !self.rst_n.val();
        self.reset_sync.raw.next = self.reset_pressed.val().into();
        self.por.request.next = self.reset_sync.synced.val().any();
        self.buttons.raw.next = self.pull_buttons.value.val();
        self.dips.raw.next = self.pull_dips.value.val();

        self.console.reset.next = self.por.reset.val();
        self.console.take1.next = self.buttons.pressed.val().get_bit(3);
        self.console.take2.next = self.buttons.pressed.val().get_bit(1);
        self.console.take3.next = self.buttons.pressed.val().get_bit(4);
        self.console.new_game.next = self.buttons.pressed.val().get_bit(0);
        self.console.machine_first.next = self.dips.level.val().get_bit(0);

        self.tens.digit.next = self.console.tens.val();
        self.ones.digit.next = self.console.ones.val();
        self.take_shown.next = self.console.machine_take.val();
        if self.console.machine_take.val() == 0 {
            self.take_shown.next = self.blank.val();
        }
        self.take_digit.digit.next = self.take_shown.val();
        self.display.digits.next = (bit_cast::<32, 7>(self.tens.segments.val()) << 24)
            | (bit_cast::<32, 7>(self.ones.segments.val()) << 16)
            | (bit_cast::<32, 8>(0x40.into()) << 8)
            | bit_cast::<32, 7>(self.take_digit.segments.val());
        // Segments and digit selects are active low.
        self.io_seg.next = !self.display.segments.val();
        self.io_sel.next = !self.display.select.val();

        self.io_led.next = (bit_cast::<8, 1>(self.dips.level.val().get_bit(0).into()) << 7)
            | (bit_cast::<8, 1>(self.console.thinking.val().into()) << 1)
            | bit_cast::<8, 1>(self.console.human_turn.val().into());
        if self.console.game_over.val() {
            self.io_led.next = 0.into();
            if self.console.blink.val() {
                self.io_led.next = 0xFF.into();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{jr01_alchitry_cu, sticks_alchitry_cu, Script};
    use super::*;
    use crate::circuit::board_io::DIGIT_SEGMENTS;
    use crate::circuit::sim::trace::{port, SwitchPins, TraceBench};

    /// The switch model of an Io V1 (floating when open) or V2 (pull-downs).
    fn switches<B>(
        name: &str,
        width: usize,
        driving: fn(&B) -> bool,
        set: fn(&mut B, u64),
        v1: bool,
    ) -> SwitchPins<B> {
        let pins = SwitchPins::new(port(name, width), driving, set);
        if v1 {
            pins
        } else {
            pins.with_pull_downs()
        }
    }

    /// The four digits the display shows over the last `4 * digit_cycles`
    /// rows (`[leftmost .. rightmost]`); `io_seg` and `io_sel` are the
    /// columns. `Some(10)` stands for `-`, `None` for dark.
    fn display(trace: &[Vec<u64>], seg: usize, sel: usize) -> [Option<usize>; 4] {
        let mut digits = [None; 4];
        for r in &trace[trace.len() - 8..] {
            let select = !r[sel] & 0xF;
            assert_eq!(select.count_ones(), 1, "one digit at a time");
            let lit = (!r[seg] & 0x7F) as u8;
            let d = match lit {
                0 => None,
                0x40 => Some(10),
                _ => Some(
                    DIGIT_SEGMENTS
                        .iter()
                        .position(|&p| p == lit)
                        .expect("a digit"),
                ),
            };
            digits[3 - select.trailing_zeros() as usize] = d;
        }
        digits
    }

    fn jr01_bench(v1: bool) -> TraceBench<Jr01AlchitryCu> {
        TraceBench {
            module: "jr01_alchitry_cu".into(),
            clock_name: "clk".into(),
            clock: |b: &mut Jr01AlchitryCu| &mut b.clk,
            inputs: vec![],
            outputs: vec![port("io_led", 8), port("io_seg", 8), port("io_sel", 4)],
            apply: |_, _| {},
            sample: |b| {
                vec![
                    b.io_led.val().to_u64(),
                    b.io_seg.val().to_u64(),
                    b.io_sel.val().to_u64(),
                ]
            },
            switches: vec![switches(
                "io_dip",
                3,
                |b: &Jr01AlchitryCu| b.io_dip.is_driving_tristate(),
                |b, v| b.io_dip.next = v.into(),
                v1,
            )],
        }
    }

    fn jr01_script() -> Vec<Vec<u64>> {
        let mut s = Script::new(vec![0]);
        s.idle(10)
            .set(&[(0, 0b101)], 30)
            .idle(30)
            .set(&[(0, 0b011)], 30);
        s.rows()
    }

    /// Position 101 answers 110, opening every switch reads 000 (answer
    /// 001) thanks to the pull-down emulation, then 011 answers 100.
    fn check_jr01(trace: &[Vec<u64>]) {
        let at = |row: usize| (trace[row][0] & 7, trace[row][0] >> 4 & 7);
        assert_eq!(at(39), (0b101, 0b110));
        assert_eq!(at(69), (0b000, 0b001), "open switches read 0");
        assert_eq!(at(99), (0b011, 0b100));
        assert_eq!(display(&trace[..100], 1, 2), [Some(3), None, None, Some(4)]);
    }

    #[test]
    fn jr01_alchitry_cu_reads_switches_through_the_emulation() {
        for v1 in [true, false] {
            let trace = jr01_bench(v1).run_rust_hdl(jr01_alchitry_cu(v1), &jr01_script());
            check_jr01(&trace);
        }
    }

    /// Without the emulation an Io V1 switch, once closed, reads 1 for ever.
    #[test]
    fn jr01_alchitry_cu_needs_the_emulation_on_an_io_v1() {
        let mut bench = jr01_bench(true);
        let trace = bench.run_rust_hdl(jr01_alchitry_cu(false), &jr01_script());
        assert_eq!(trace[69][0] & 7, 0b101, "the pins keep their charge");
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn jr01_alchitry_cu_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("jr01-cu-trace");
        for v1 in [true, false] {
            let block = jr01_alchitry_cu(v1);
            let verilog = crate::verilog::emit(&block, "jr01_alchitry_cu").unwrap();
            let bench = &mut jr01_bench(v1);
            let trace = bench.compare_with_gates(block, &verilog, &jr01_script(), dir.path());
            check_jr01(&trace);
        }
    }

    fn sticks_bench(v1: bool) -> TraceBench<SticksAlchitryCu<5, 2, 4>> {
        TraceBench {
            module: "sticks_alchitry_cu".into(),
            clock_name: "clk".into(),
            clock: |b: &mut SticksAlchitryCu<5, 2, 4>| &mut b.clk,
            inputs: vec![port("rst_n", 1)],
            outputs: vec![port("io_led", 8), port("io_seg", 8), port("io_sel", 4)],
            apply: |b, r| b.rst_n.next = r[0] != 0,
            sample: |b| {
                vec![
                    b.io_led.val().to_u64(),
                    b.io_seg.val().to_u64(),
                    b.io_sel.val().to_u64(),
                ]
            },
            switches: vec![
                switches(
                    "io_button",
                    5,
                    |b: &SticksAlchitryCu<5, 2, 4>| b.io_button.is_driving_tristate(),
                    |b, v| b.io_button.next = v.into(),
                    v1,
                ),
                switches(
                    "io_dip",
                    8,
                    |b: &SticksAlchitryCu<5, 2, 4>| b.io_dip.is_driving_tristate(),
                    |b, v| b.io_dip.next = v.into(),
                    v1,
                ),
            ],
        }
    }

    /// Columns: rst_n, io_button, io_dip. Buttons: 1 up, 2 centre, 8 left,
    /// 16 right.
    fn sticks_script() -> (Vec<Vec<u64>>, [usize; 4]) {
        let mut s = Script::new(vec![1, 0, 0]);
        s.idle(30);
        let start = s.rows().len() - 1;
        s.press(1, 2, 8, 16); // centre: take 2 -> 16, machine 3 -> 13
        let first = s.rows().len() - 1;
        for _ in 0..6 {
            s.press(1, 8, 8, 16); // left: take 1
        }
        s.idle(20);
        let over = s.rows().len() - 1;
        s.set(&[(2, 1)], 20)
            .set(&[(2, 1), (1, 1)], 8)
            .set(&[(2, 1)], 4);
        let machine_first = s.rows().len() - 1;
        s.set(&[(2, 1)], 16);
        (s.rows(), [start, first, over, machine_first])
    }

    /// 18 on the display; take 2 (centre): 16, the machine takes 3: "13-3";
    /// taking 1 each turn loses; with io_dip[0] on, "up" starts a game the
    /// machine opens: "17-1".
    fn check_sticks(trace: &[Vec<u64>], rows: [usize; 4]) {
        let [start, first, over, machine_first] = rows;
        assert_eq!(
            display(&trace[..=start], 1, 2),
            [Some(1), Some(8), Some(10), None]
        );
        assert_eq!(trace[start][0] & 3, 0b01, "your turn");
        assert_eq!(
            display(&trace[..=first], 1, 2),
            [Some(1), Some(3), Some(10), Some(3)]
        );
        assert_eq!(display(&trace[..=over], 1, 2)[..2], [None, Some(0)]);
        let leds: Vec<u64> = trace[over - 20..=over].iter().map(|r| r[0]).collect();
        assert!(leds.iter().all(|&l| l == 0 || l == 0xFF), "{leds:?}");
        assert!(leds.contains(&0) && leds.contains(&0xFF), "blinking");
        assert_eq!(
            trace[machine_first][0], 0b1000_0010,
            "thinking, machine-first DIP on"
        );
        let end = display(trace, 1, 2);
        assert_eq!(
            end,
            [Some(1), Some(7), Some(10), Some(1)],
            "the machine took 1"
        );
    }

    #[test]
    fn sticks_alchitry_cu_plays() {
        let (script, rows) = sticks_script();
        for v1 in [true, false] {
            let trace = sticks_bench(v1).run_rust_hdl(sticks_alchitry_cu(v1), &script);
            check_sticks(&trace, rows);
        }
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn sticks_alchitry_cu_verilog_matches_rust_hdl() {
        let dir = crate::flow::testing::work_dir("sticks-cu-trace");
        let (script, rows) = sticks_script();
        for v1 in [true, false] {
            let block = sticks_alchitry_cu(v1);
            let verilog = crate::verilog::emit(&block, "sticks_alchitry_cu").unwrap();
            let trace = sticks_bench(v1).compare_with_gates(block, &verilog, &script, dir.path());
            check_sticks(&trace, rows);
        }
    }
}
