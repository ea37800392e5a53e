//! Every board top, simulated: the rust-hdl core inside the Rust model of
//! the pin wrapper, and (feature `external-tools`) the emitted Verilog of the
//! whole top under Icarus, Verilator and at gate level, cycle by cycle. The
//! checks are the visible behaviour documented in `docs/boards.md`.

use super::tests::{jr01_fast, sticks_fast, Script};
use super::{BoardCore, BoardTop};
use crate::board::BoardId;
use crate::circuit::board_io::DIGIT_SEGMENTS;
use crate::circuit::sim::trace::{port, SwitchPins, TraceBench};
use crate::circuit::sim::Stepper;

/// A trace bench over every pin of `top`: the one-bit inputs (stimulus
/// columns, in port order), then one column per input bus, wired like Io
/// switches (`pulled_down`: an Io V2 with pull-down resistors; otherwise
/// the pins float when open, like an Io V1); the outputs in port order.
fn bench<C: BoardCore>(
    top: &BoardTop<C>,
    module: &str,
    pulled_down: bool,
) -> TraceBench<BoardTop<C>> {
    let driving: [fn(&BoardTop<C>) -> bool; 2] = [|b| b.bank_driving(0), |b| b.bank_driving(1)];
    let set: [fn(&mut BoardTop<C>, u64); 2] = [|b, v| b.bank_set(0, v), |b, v| b.bank_set(1, v)];
    TraceBench {
        module: module.into(),
        clock_name: top.clock_name().into(),
        clock: |b| b.clock(),
        inputs: top.input_names().iter().map(|n| port(n, 1)).collect(),
        outputs: top
            .output_names()
            .iter()
            .map(|(n, w)| port(n, *w))
            .collect(),
        apply: |b, r| b.apply_inputs(r),
        sample: |b| b.sample_outputs(),
        switches: top
            .bank_names()
            .iter()
            .enumerate()
            .map(|(k, (n, w))| {
                let pins = SwitchPins::new(port(n, *w), driving[k], set[k]);
                if pulled_down {
                    pins.with_pull_downs()
                } else {
                    pins
                }
            })
            .collect(),
    }
}

/// Run `script` on `top` under rust-hdl; with `external-tools` also on its
/// Verilog (Icarus, Verilator, gate level), asserting the traces agree.
fn trace<C: BoardCore>(
    top: BoardTop<C>,
    module: &str,
    pulled_down: bool,
    script: &[Vec<u64>],
) -> Vec<Vec<u64>> {
    let mut bench = bench(&top, module, pulled_down);
    #[cfg(feature = "external-tools")]
    {
        let dir = crate::flow::testing::work_dir(&format!("{module}-trace"));
        let verilog = top.verilog(module).unwrap();
        bench.compare_with_gates(top, &verilog, script, dir.path())
    }
    #[cfg(not(feature = "external-tools"))]
    {
        bench.run_rust_hdl(top, script)
    }
}

/// The digit lit by 7 segment levels (`active_low`), `None` if dark; panics
/// on a pattern that is not a digit.
fn digit(levels: &[u64], active_low: bool) -> Option<usize> {
    let lit = levels.iter().enumerate().fold(0u8, |acc, (i, &s)| {
        acc | (u8::from((s != 0) != active_low) << i)
    });
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

mod icebreaker {
    use super::*;

    /// Pressing BTN1 then BTN3 sets A = 1, C = 1 (position 5); the LEDs show
    /// the position and the answer 110 (Y lit: LEDR_N low).
    #[test]
    fn jr01_icebreaker_toggles_and_answers() {
        let mut s = Stepper::new(jr01_fast(BoardId::Icebreaker), |b| b.clock());
        s.settle();
        let b = &s.block;
        // Position 000: answer 001 -> Z lit (LEDG_N low), Y dark.
        assert_eq!((b.get("LEDG_N"), b.get("LEDR_N"), b.get("LED5")), (0, 1, 0));
        for pin in ["BTN1", "BTN3"] {
            s.block.set(pin, 1);
            s.run(8);
            s.block.set(pin, 0);
            s.run(8);
        }
        let b = &s.block;
        let leds = |names: [&str; 3]| names.map(|n| b.get(n));
        assert_eq!(leds(["LED2", "LED3", "LED4"]), [1, 0, 1], "A B C = 1 0 1");
        // Answer for 101 is 110: X on, Y on (LEDR_N low), Z off (LEDG_N high).
        assert_eq!(leds(["LED5", "LEDR_N", "LEDG_N"]), [1, 0, 1]);
    }

    /// A short BTN_N press starts a game with the human first; BTN2 takes 2;
    /// the machine thinks (red) and answers; a long press starts with the
    /// machine first.
    #[test]
    fn sticks_icebreaker_plays() {
        let mut s = Stepper::new(sticks_fast(BoardId::Icebreaker), |b| b.clock());
        s.block.set("BTN_N", 1);
        s.run(20);
        let leds = |b: &BoardTop<_>| {
            ["LED1", "LED2", "LED3", "LED4", "LED5"]
                .iter()
                .rev()
                .fold(0u64, |acc, n| acc << 1 | b.get(n))
        };
        assert_eq!(leds(&s.block), 18);
        assert_eq!(s.block.get("LEDG_N"), 0, "your turn: green lit");
        assert_eq!(s.block.get("LEDR_N"), 1, "red dark");
        s.block.set("BTN2", 1);
        s.run(8);
        s.block.set("BTN2", 0);
        s.settle();
        assert_eq!(leds(&s.block), 16);
        assert_eq!(s.block.get("LEDR_N"), 0, "machine thinking: red lit");
        assert_eq!(s.block.get("LEDG_N"), 1);
        s.run(10);
        assert_eq!(leds(&s.block), 13, "the machine took 3");
        // Long press: new game, machine first.
        s.block.set("BTN_N", 0);
        s.run(20);
        assert_eq!(s.block.get("LEDR_N"), 0, "held long: red lit");
        s.block.set("BTN_N", 1);
        s.run(6);
        assert_eq!(leds(&s.block), 18);
        assert_eq!(s.block.get("LEDR_N"), 0, "machine first: thinking");
        s.run(10);
        assert_eq!(leds(&s.block), 17);
        assert_eq!(s.block.get("LEDG_N"), 0);
    }

    /// The buttons walk through all eight positions; the LEDs show each
    /// position with its answer from the J.R. 01 table.
    #[test]
    fn jr01_icebreaker_walks_every_position() {
        // Gray code: C, B, C, A, C, B, C visits 001 011 010 110 111 101 100.
        let presses = [2usize, 1, 2, 0, 2, 1, 2];
        let mut script = Script::new(vec![0, 0, 0]);
        script.idle(4);
        let mut checkpoints = vec![script.rows().len() - 1];
        for &col in &presses {
            script.press(col, 1, 6, 8);
            checkpoints.push(script.rows().len() - 1);
        }
        let top = jr01_fast(BoardId::Icebreaker);
        let trace = trace(top, "jr01_icebreaker", false, &script.rows());
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

    /// A whole game (the human always takes 1 and loses), the game-over
    /// blink, and a long press that starts a game with the machine first.
    #[test]
    fn sticks_icebreaker_game_and_blink() {
        let mut script = Script::new(vec![1, 0, 0, 0]);
        script.idle(20);
        for _ in 0..10 {
            script.press(1, 1, 6, 14);
        }
        script.idle(40);
        script.press(0, 0, 24, 8);
        let top = sticks_fast(BoardId::Icebreaker);
        let mut trace = trace(top, "sticks_icebreaker", false, &script.rows());
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

mod icestick {
    use super::*;

    /// Buttons idle high (pull-ups); pressing BTN1 and BTN2 (to GND) sets
    /// A B C = 110, whose answer is 111; D1-D3 alternate between the two
    /// with D5 telling which.
    #[test]
    fn jr01_icestick_alternates_position_and_answer() {
        let mut s = Script::new(vec![1, 1, 1]);
        s.idle(4).press(0, 0, 6, 8).press(1, 0, 6, 40);
        let trace = trace(
            jr01_fast(BoardId::Icestick),
            "jr01_icestick",
            false,
            &s.rows(),
        );
        let end = &trace[trace.len() - 32..];
        let code = |r: &Vec<u64>| r[0] << 2 | r[1] << 1 | r[2];
        assert!(end.iter().any(|r| r[3] == 1) && end.iter().any(|r| r[3] == 0));
        for r in end {
            assert_eq!(code(r), if r[3] == 1 { 0b110 } else { 0b111 }, "{r:?}");
        }
    }

    /// Take 2 (BTN2): 16, the machine takes 3: 13. Then a short chord of all
    /// three buttons starts a new game (18, you first) and a long chord one
    /// the machine opens (18, then 17), with all LEDs lit while held long.
    #[test]
    fn sticks_icestick_plays() {
        let mut s = Script::new(vec![1, 1, 1]);
        s.idle(20);
        let start = s.rows().len() - 1;
        s.press(1, 0, 6, 16);
        let answered = s.rows().len() - 1;
        s.set(&[(0, 0), (1, 0), (2, 0)], 6).idle(8);
        let short_chord = s.rows().len() - 1;
        s.set(&[(0, 0), (1, 0), (2, 0)], 20).idle(16);
        let long_chord = s.rows().len() - 1;
        let trace = trace(
            sticks_fast(BoardId::Icestick),
            "sticks_icestick",
            false,
            &s.rows(),
        );
        let count = |r: &Vec<u64>| r.iter().rev().fold(0, |a, &l| a << 1 | l);
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
}

mod go_board {
    use super::*;

    fn digits(b: &BoardTop<impl BoardCore>) -> (Option<usize>, Option<usize>) {
        let levels = |d: u8| {
            "ABCDEFG"
                .chars()
                .map(|c| b.get(&format!("o_Segment{d}_{c}")))
                .collect::<Vec<_>>()
        };
        (digit(&levels(1), true), digit(&levels(2), true))
    }

    /// The digits show position and answer; switch 2 toggles B.
    #[test]
    fn jr01_go_board_shows_position_and_answer() {
        let mut s = Stepper::new(jr01_fast(BoardId::GoBoard), |b| b.clock());
        s.settle();
        assert_eq!(digits(&s.block), (Some(0), Some(1)));
        s.block.set("i_Switch_2", 1);
        s.run(8);
        s.block.set("i_Switch_2", 0);
        s.run(8);
        assert_eq!(digits(&s.block), (Some(2), Some(3)));
        let leds = ["o_LED_1", "o_LED_2", "o_LED_3"].map(|n| s.block.get(n));
        assert_eq!(leds, [0, 1, 0]);
    }

    /// 18 in decimal; taking 2 leaves 16 and the machine answers 3 (LED 3).
    #[test]
    fn sticks_go_board_plays() {
        let mut s = Stepper::new(sticks_fast(BoardId::GoBoard), |b| b.clock());
        s.run(20);
        assert_eq!(digits(&s.block), (Some(1), Some(8)));
        assert_eq!(s.block.get("o_LED_4"), 1);
        s.block.set("i_Switch_2", 1);
        s.run(6);
        s.block.set("i_Switch_2", 0);
        s.run(12);
        assert_eq!(digits(&s.block), (Some(1), Some(3)));
        let leds = ["o_LED_1", "o_LED_2", "o_LED_3"].map(|n| s.block.get(n));
        assert_eq!(leds, [0, 0, 1], "the machine took 3");
        assert_eq!(s.block.get("o_LED_4"), 1);
        // Down to a single digit: the tens digit goes dark.
        for _ in 0..3 {
            s.block.set("i_Switch_1", 1);
            s.run(6);
            s.block.set("i_Switch_1", 0);
            s.run(12);
        }
        assert_eq!(digits(&s.block), (None, Some(1)));
    }

    /// Switch 1 and switch 3 toggle A and C; the digits end on 5 and 6.
    #[test]
    fn jr01_go_board_trace() {
        let mut script = Script::new(vec![0, 0, 0]);
        script.idle(4).press(0, 1, 6, 8).press(2, 1, 6, 8);
        let trace = trace(
            jr01_fast(BoardId::GoBoard),
            "jr01_go_board",
            false,
            &script.rows(),
        );
        let last = trace.last().unwrap();
        assert_eq!(
            (digit(&last[3..10], true), digit(&last[10..17], true)),
            (Some(5), Some(6))
        );
        assert_eq!(&last[..3], &[1, 0, 1]);
    }

    /// A game the human loses (always taking 1), then a long press of
    /// switch 4: a new game the machine opens.
    #[test]
    fn sticks_go_board_trace() {
        let mut script = Script::new(vec![0, 0, 0, 0]);
        script.idle(20);
        for _ in 0..8 {
            script.press(0, 1, 6, 14);
        }
        script.idle(30);
        script.press(3, 1, 24, 8);
        let trace = trace(
            sticks_fast(BoardId::GoBoard),
            "sticks_go_board",
            false,
            &script.rows(),
        );
        let digits = |r: &[u64]| (digit(&r[4..11], true), digit(&r[11..18], true));
        assert_eq!(digits(&trace[19]), (Some(1), Some(8)));
        assert_eq!(digits(&trace[190]), (None, Some(0)), "game over at 0");
        let last = trace.last().unwrap();
        assert_eq!(digits(last), (Some(1), Some(8)), "a new game");
        assert_eq!(last[3], 0, "machine first: not your turn");
    }
}

mod alchitry_cu {
    use super::*;

    /// The board for an Io version: V1 floats, V2 has pull-downs.
    fn board(v1: bool) -> BoardId {
        if v1 {
            BoardId::AlchitryCu
        } else {
            BoardId::AlchitryCuV2
        }
    }

    /// The four digits the display shows over the last 8 rows
    /// (`[leftmost .. rightmost]`); `io_seg` and `io_sel` are the columns.
    /// `Some(10)` stands for `-`, `None` for dark.
    fn display(trace: &[Vec<u64>], seg: usize, sel: usize) -> [Option<usize>; 4] {
        let mut digits = [None; 4];
        for r in &trace[trace.len() - 8..] {
            let select = !r[sel] & 0xF;
            assert_eq!(select.count_ones(), 1, "one digit at a time");
            let lit = !r[seg] & 0x7F;
            let d = if lit == 0x40 {
                Some(10)
            } else {
                let levels: Vec<u64> = (0..7).map(|i| lit >> i & 1).collect();
                digit(&levels, false)
            };
            digits[3 - select.trailing_zeros() as usize] = d;
        }
        digits
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
    #[test]
    fn jr01_alchitry_cu_reads_switches_through_the_emulation() {
        for v1 in [true, false] {
            let b = board(v1);
            let module = super::super::module_name(b, &super::super::Design::Jr01);
            let trace = trace(jr01_fast(b), &module, !v1, &jr01_script());
            let at = |row: usize| (trace[row][0] & 7, trace[row][0] >> 4 & 7);
            assert_eq!(at(39), (0b101, 0b110));
            assert_eq!(at(69), (0b000, 0b001), "open switches read 0");
            assert_eq!(at(99), (0b011, 0b100));
            assert_eq!(display(&trace[..100], 1, 2), [Some(3), None, None, Some(4)]);
        }
    }

    /// Without the emulation (the Io V2 top) an Io V1 switch, once closed,
    /// reads 1 for ever.
    #[test]
    fn jr01_alchitry_cu_needs_the_emulation_on_an_io_v1() {
        let top = jr01_fast(BoardId::AlchitryCuV2);
        let trace = bench(&top, "jr01_alchitry_cu_v2", false).run_rust_hdl(top, &jr01_script());
        assert_eq!(trace[69][0] & 7, 0b101, "the pins keep their charge");
    }

    /// 18 on the display; take 2 (centre): 16, the machine takes 3: "13-3";
    /// taking 1 each turn loses; with io_dip[0] on, "up" starts a game the
    /// machine opens: "17-1". Columns: rst_n, io_button, io_dip.
    #[test]
    fn sticks_alchitry_cu_plays() {
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
        for v1 in [true, false] {
            let b = board(v1);
            let module = super::super::module_name(b, &super::super::Design::sticks());
            let trace = trace(sticks_fast(b), &module, !v1, &s.rows());
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
            let end = display(&trace, 1, 2);
            assert_eq!(
                end,
                [Some(1), Some(7), Some(10), Some(1)],
                "the machine took 1"
            );
        }
    }
}
