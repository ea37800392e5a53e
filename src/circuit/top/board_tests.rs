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
    pub(super) fn display(trace: &[Vec<u64>], seg: usize, sel: usize) -> [Option<usize>; 4] {
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

/// The solver design on every board: a game set on the board's controls,
/// solved on the chip and played; every machine move and the outcome come
/// from the software solver ([`crate::solver`]) for that game.
mod solver {
    use super::super::tests::{solver_cu_fast, solver_fixed_fast, solver_go_fast};
    use super::super::SolverBoardCore;
    use super::*;
    use crate::game::{Game, Last, SticksGame};
    use crate::solver::strategy::sticks_table;

    /// One round of a game: the human's take (none when the machine opens),
    /// then the machine's reply (none once the human took the last stick),
    /// and the sticks left after the round.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) struct Round {
        pub human: Option<u64>,
        pub machine: Option<u64>,
        pub left: u64,
    }

    /// The game as the software solver plays it against a human who takes
    /// `human(left)`: the rounds, and whether the human won.
    pub(super) fn expected_game(
        game: &SticksGame,
        machine_first: bool,
        human: impl Fn(u64) -> u64,
    ) -> (Vec<Round>, bool) {
        let table = sticks_table(game).unwrap();
        let legal = |left: u64| game.take().iter().any(|&t| t <= left);
        let mut left = game.count();
        let mut rounds = Vec::new();
        let mut machine_turn = machine_first;
        // Whoever has no move (or faces 0) at their turn: the outcome.
        let human_won = loop {
            if !legal(left) {
                // The player to move has no move; with 0 left the previous player took the
                // last stick.
                let mover_loses = left > 0 || game.last() == Last::Wins;
                break machine_turn == mover_loses;
            }
            let (h, m);
            if machine_turn {
                h = None;
            } else {
                let t = human(left);
                assert!(
                    game.take().contains(&t) && t <= left,
                    "human take {t} at {left}"
                );
                left -= t;
                h = Some(t);
            }
            if !legal(left) {
                rounds.push(Round {
                    human: h,
                    machine: None,
                    left,
                });
                let mover_loses = left > 0 || game.last() == Last::Wins;
                // The machine is to move and cannot.
                break mover_loses;
            }
            let t = u64::from(table.take(left as u32).unwrap());
            assert!(t > 0, "the solver moves at {left}");
            left -= t;
            m = Some(t);
            rounds.push(Round {
                human: h,
                machine: m,
                left,
            });
            machine_turn = false;
        };
        (rounds, human_won)
    }

    /// The largest allowed take that fits.
    fn largest(game: &SticksGame) -> impl Fn(u64) -> u64 + '_ {
        move |left| *game.take().iter().filter(|&&t| t <= left).max().unwrap()
    }

    /// The rounds add up (every stick taken once), and from a winning
    /// position the machine always leaves a lost one.
    #[test]
    fn expected_game_follows_the_solver() {
        let g = SticksGame::fort_boyard();
        let table = sticks_table(&g).unwrap();
        for machine_first in [false, true] {
            let (rounds, _) = expected_game(&g, machine_first, |_| 1);
            let mut left = g.count();
            for r in &rounds {
                left -= r.human.unwrap_or(0);
                if let Some(m) = r.machine {
                    if table.winning(left as u32).unwrap() {
                        assert!(!table.winning((left - m) as u32).unwrap());
                    }
                    left -= m;
                }
                assert_eq!(left, r.left);
            }
            assert_eq!(left, 0);
        }
    }

    /// Presses on the Go Board's keys (columns 0-3, pressed = 1).
    /// A short press (4 cycles: shorter than the count keys' repeat delay).
    fn key(s: &mut Script, k: usize) {
        s.press(k - 1, 1, 4, 8);
    }

    fn long_key4(s: &mut Script) {
        s.press(3, 1, 20, 6);
    }

    /// Go Board trace columns: LED 1-4, then the two digits.
    fn go_digits(r: &[u64]) -> Option<u64> {
        let d = |levels: &[u64]| digit(levels, true).map(|d| d as u64);
        match (d(&r[4..11]), d(&r[11..18])) {
            (t, Some(o)) => Some(t.unwrap_or(0) * 10 + o),
            (_, None) => None,
        }
    }

    /// Set a game on the three pages (take 2 off, take 4 on: {1, 3, 4}; 18
    /// up to 21; last stick wins; machine first), solve it and play it,
    /// the human taking the largest take each turn; every machine move (its
    /// LED) and the sticks left (the digits) are the software solver's, and
    /// the game-over blink says who won; a long press of key 4 returns to
    /// the set-up with the game kept.
    #[test]
    fn solver_go_board_sets_solves_and_plays() {
        let game = SticksGame::new(21, &[1, 3, 4], Last::Wins).unwrap();
        let (rounds, human_won) = expected_game(&game, true, largest(&game));
        let mut s = Script::new(vec![0, 0, 0, 0]);
        s.idle(20);
        let at_start = s.rows().len() - 1;
        key(&mut s, 2);
        key(&mut s, 4);
        let takes_set = s.rows().len() - 1;
        long_key4(&mut s);
        for _ in 0..3 {
            key(&mut s, 2);
        }
        let counted = s.rows().len() - 1;
        long_key4(&mut s);
        let rule_page = s.rows().len() - 1;
        key(&mut s, 1);
        key(&mut s, 2);
        let rule_set = s.rows().len() - 1;
        long_key4(&mut s);
        // Solve ((21 + 1) * 6 + 1 cycles), think, move.
        s.idle(400);
        let mut checks = Vec::new();
        for round in &rounds {
            if let Some(t) = round.human {
                if t == 4 {
                    key(&mut s, 4);
                } else {
                    key(&mut s, t as usize);
                }
                s.idle(60);
            }
            checks.push((s.rows().len() - 1, *round));
        }
        s.idle(40);
        let over = s.rows().len() - 1;
        long_key4(&mut s);
        s.idle(4);
        let back = s.rows().len() - 1;
        let trace = trace(solver_go_fast(), "solver_go_board", false, &s.rows());
        let leds = |r: &[u64]| r[..4].to_vec();
        assert_eq!(go_digits(&trace[at_start]), Some(18), "default count");
        assert_eq!(
            leds(&trace[at_start]),
            [1, 1, 1, 0],
            "default takes 1, 2, 3"
        );
        assert_eq!(leds(&trace[takes_set]), [1, 0, 1, 1], "takes 1, 3, 4");
        assert_eq!(go_digits(&trace[counted]), Some(21));
        let l_lit = |r: &[u64]| (0..7).map(|i| 1 - r[4 + i]).collect::<Vec<_>>();
        assert_eq!(l_lit(&trace[rule_page]), [0, 0, 0, 1, 1, 1, 0], "L");
        assert_eq!(
            digit(&trace[rule_page][11..18], true),
            Some(0),
            "last loses"
        );
        assert_eq!(leds(&trace[rule_page]), [0, 0, 0, 0]);
        assert_eq!(digit(&trace[rule_set][11..18], true), Some(1), "last wins");
        assert_eq!(
            leds(&trace[rule_set]),
            [1, 1, 0, 0],
            "last wins, machine first"
        );
        for (row, round) in checks {
            let r = &trace[row];
            assert_eq!(go_digits(r), Some(round.left), "{round:?} at {row}");
            if round.left > 0 {
                let took = round.machine.unwrap();
                let want: Vec<u64> = (1..=4).map(|k| u64::from(k == took)).collect();
                assert_eq!(leds(r), want, "{round:?}: the machine's take");
            }
        }
        // Game over: the LEDs blink together, slowly if the human won.
        let end = &trace[over - 30..=over];
        assert!(end.iter().all(|r| r[..4].iter().all(|&v| v == r[0])));
        let changes = end.windows(2).filter(|w| w[0][0] != w[1][0]).count();
        if human_won {
            assert!((1..=5).contains(&changes), "slow blink: {changes}");
        } else {
            assert!(changes >= 6, "fast blink: {changes}");
        }
        assert_eq!(go_digits(&trace[back]), Some(21), "back to the set-up");
        assert_eq!(leds(&trace[back]), [1, 0, 1, 1]);
    }

    /// Holding key 2 on the count page repeats; key 1 below 0 wraps to 63.
    #[test]
    fn solver_go_board_count_keys_repeat_and_wrap() {
        let mut s = Stepper::new(solver_go_fast(), |b| b.clock());
        s.run(20);
        let digits = |b: &BoardTop<_>| {
            let levels = |d: u8| {
                "ABCDEFG"
                    .chars()
                    .map(|c| b.get(&format!("o_Segment{d}_{c}")))
                    .collect::<Vec<_>>()
            };
            let t = digit(&levels(1), true).unwrap_or(0);
            digit(&levels(2), true).map(|o| t * 10 + o)
        };
        let press =
            |s: &mut Stepper<BoardTop<SolverBoardCore<6, 4, 3, 8>>>, pin: &str, hold: u64| {
                s.block.set(pin, 1);
                s.run(hold);
                s.block.set(pin, 0);
                s.run(6);
            };
        press(&mut s, "i_Switch_4", 20);
        assert_eq!(digits(&s.block), Some(18));
        press(&mut s, "i_Switch_2", 30);
        let after = digits(&s.block).unwrap();
        assert!(after > 20, "held: repeats ({after})");
        for _ in 0..after + 1 {
            press(&mut s, "i_Switch_1", 3);
        }
        assert_eq!(digits(&s.block), Some(63), "wraps below 0");
    }

    /// iCEBreaker: BTN_N short starts Fort Boyard (you first), long the
    /// machine first; each move is the software solver's.
    #[test]
    fn solver_icebreaker_plays_fort_boyard() {
        let game = SticksGame::fort_boyard();
        // The human takes 1, then 2, then 3, round and round.
        let human = |left: u64| (left % 3 + 1).min(left);
        for machine_first in [false, true] {
            let (rounds, _) = expected_game(&game, machine_first, human);
            // Columns: BTN_N (active low), BTN1-3.
            let mut s = Script::new(vec![1, 0, 0, 0]);
            s.idle(20);
            s.press(0, 0, if machine_first { 24 } else { 4 }, 300);
            let mut checks = Vec::new();
            for round in &rounds {
                if let Some(t) = round.human {
                    s.press(t as usize, 1, 4, 60);
                }
                checks.push((s.rows().len() - 1, *round));
            }
            let trace = trace(
                solver_fixed_fast(BoardId::Icebreaker),
                "solver_icebreaker",
                false,
                &s.rows(),
            );
            let count = |r: &[u64]| r[..5].iter().rev().fold(0, |a, &l| a << 1 | l);
            for (row, round) in checks {
                if round.left > 0 && round.machine.is_some() {
                    assert_eq!(count(&trace[row]), round.left, "{round:?}");
                    assert_eq!(trace[row][6], 0, "your turn: green lit");
                }
            }
        }
    }

    /// iCEstick: the chord starts a game; the first machine reply is the
    /// solver's.
    #[test]
    fn solver_icestick_plays_fort_boyard() {
        let mut s = Script::new(vec![1, 1, 1]);
        s.idle(20);
        s.set(&[(0, 0), (1, 0), (2, 0)], 4).idle(300);
        let start = s.rows().len() - 1;
        s.press(1, 0, 4, 60);
        let answered = s.rows().len() - 1;
        let trace = trace(
            solver_fixed_fast(BoardId::Icestick),
            "solver_icestick",
            false,
            &s.rows(),
        );
        let count = |r: &Vec<u64>| r.iter().rev().fold(0, |a, &l| a << 1 | l);
        let table = sticks_table(&SticksGame::fort_boyard()).unwrap();
        assert_eq!(count(&trace[start]), 18);
        assert_eq!(
            count(&trace[answered]),
            16 - u64::from(table.take(16).unwrap())
        );
    }

    /// Alchitry Cu (Io V1 and V2): the DIP switches set {1, 2, 5, 8}, 40
    /// sticks, last stick loses, you first; up solves and starts, the take
    /// switches and centre play; the display shows the sticks left and the
    /// machine's take, each the software solver's.
    #[test]
    fn solver_alchitry_cu_plays_the_switches_game() {
        let game = SticksGame::new(40, &[1, 2, 5, 8], Last::Loses).unwrap();
        let (rounds, _) = expected_game(&game, false, largest(&game));
        let set = 0b1001_0011u64;
        let dips = |take: u64| set | 40 << 8 | take << 20;
        // Columns: rst_n, io_button, io_dip.
        let mut s = Script::new(vec![1, 0, 0]);
        s.set(&[(2, dips(0))], 20)
            .set(&[(2, dips(0)), (1, 1)], 8)
            .set(&[(2, dips(0))], 600);
        let mut checks = Vec::new();
        for round in &rounds {
            let t = round.human.unwrap();
            s.set(&[(2, dips(t))], 8)
                .set(&[(2, dips(t)), (1, 2)], 8)
                .set(&[(2, dips(t))], 60);
            checks.push((s.rows().len(), *round));
        }
        for v1 in [true, false] {
            let b = if v1 {
                BoardId::AlchitryCu
            } else {
                BoardId::AlchitryCuV2
            };
            let module = super::super::module_name(b, &super::super::Design::Solver);
            let trace = trace(solver_cu_fast(b), &module, !v1, &s.rows());
            // io_led: the game's take set, then the sticks left.
            assert_eq!(trace[checks[0].0 - 80][0] & 0xFF, set, "take set LEDs");
            for &(row, round) in &checks {
                let shown = display(&trace[..row]);
                let left = round.left;
                let digits = [
                    (left >= 100).then_some(left / 100 % 10),
                    (left >= 10).then_some(left / 10 % 10),
                    Some(left % 10),
                ];
                assert_eq!(
                    shown[..3]
                        .iter()
                        .map(|d| d.map(|d| d as u64))
                        .collect::<Vec<_>>(),
                    digits,
                    "{round:?}"
                );
                if let Some(m) = round.machine {
                    assert_eq!(shown[3], Some(m as usize), "{round:?}");
                    if left > 0 {
                        assert_eq!(trace[row - 1][0] >> 8 & 0xFF, left, "{round:?}");
                    }
                }
            }
        }
    }

    /// The four digits of the multiplexed display over the last 8 rows
    /// (columns: io_led, io_seg, io_sel).
    fn display(trace: &[Vec<u64>]) -> [Option<usize>; 4] {
        let mut digits = [None; 4];
        for r in &trace[trace.len() - 8..] {
            let select = !r[2] & 0xF;
            assert_eq!(select.count_ones(), 1, "one digit at a time");
            let lit = !r[1] & 0x7F;
            let levels: Vec<u64> = (0..7).map(|i| lit >> i & 1).collect();
            digits[3 - select.trailing_zeros() as usize] = digit(&levels, false);
        }
        digits
    }
}

mod heaps {
    use super::super::heaps::heaps_top;
    use super::super::tests::Script;
    use super::super::{Design, Timing};
    use super::*;
    use crate::bench::heaps_solver::expected_heaps_table;
    use crate::bench::heaps_solver::kege_answers;
    use crate::circuit::heaps_solver::{query_order, solve_cycles, HeapsRequest};

    /// The seed's game: (3, S), +1 and *4, sum >= 61, the last move wins.
    const SEED: HeapsRequest = HeapsRequest {
        adds: 0b01,
        muls: 0b100,
        target: 61,
        last_wins: true,
    };

    /// The switches of the seed's game with first heap `k` (io_dip), answers page or not.
    fn dips(k: u64, answers: bool) -> u64 {
        k | u64::from(SEED.target) << 6
            | u64::from(SEED.adds) << 12
            | u64::from(SEED.muls) << 14
            | 1 << 17
            | u64::from(answers) << 19
    }

    /// How a value of two digits shows (dark tens below 10; a heap of 100 or more shows its
    /// last two digits and lights the left digit's point).
    fn pair(v: u64) -> [Option<usize>; 2] {
        let v = v % 100;
        [
            (v >= 10).then_some((v / 10) as usize),
            Some((v % 10) as usize),
        ]
    }

    /// A press of io_button bit `bit` with the switches at `dip`: held 8 rows, then `after`
    /// rows released.
    fn press(s: &mut Script, dip: u64, bit: u64, after: usize) {
        s.set(&[(2, dip), (1, 1 << bit)], 8).set(&[(2, dip)], after);
    }

    /// The seed's game on the Alchitry Cu (Io V1, and V2 in rust-hdl): S stepped up to 4, the
    /// game solved on the chip and played, the person always `x+1` on the first heap, every
    /// machine move the software solver's (io_led shows the heaps); the end on the display;
    /// then the answers page shows the software's answers of tasks 19, 20 and 21 for (3, S).
    #[test]
    fn heaps_alchitry_cu_plays_the_seed_game_and_answers_the_exam() {
        let table: std::collections::HashMap<(u32, u32), _> = query_order(SEED.target)
            .into_iter()
            .zip(expected_heaps_table(&SEED, 2))
            .collect();
        let solve = solve_cycles(61, 2) as usize + 40;
        let play = dips(3, false);
        let mut s = Script::new(vec![1, 0, 0]);
        s.set(&[(2, play)], 20);
        for _ in 0..3 {
            press(&mut s, play, 0, 8);
        }
        let set_up = s.rows().len();
        press(&mut s, play, 1, solve);
        let started = s.rows().len();
        // The game as the software plays it: (a, b) after each machine move.
        let (mut a, mut b) = (3u32, 4u32);
        let mut checks = Vec::new();
        loop {
            a += 1;
            press(&mut s, play, 1, 40);
            if a + b >= SEED.target {
                break;
            }
            let e = table[&(a, b)];
            let x = if e.heap == 1 { b } else { a };
            let y = if e.index == 0 { x + 1 } else { x * 4 };
            if e.heap == 1 {
                b = y;
            } else {
                a = y;
            }
            if a + b >= SEED.target {
                break;
            }
            checks.push((s.rows().len(), a, b));
        }
        let over = s.rows().len();
        // The answers page: task 19, then down (task 20), right (its next S), right, down
        // (task 21).
        let answers = dips(3, true);
        s.set(&[(2, answers)], solve + 200);
        let task19 = s.rows().len();
        press(&mut s, answers, 2, solve + 200);
        let task20 = s.rows().len();
        press(&mut s, answers, 4, 200);
        let task20_next = s.rows().len();
        press(&mut s, answers, 4, 200);
        let task20_end = s.rows().len();
        press(&mut s, answers, 2, solve + 200);
        let task21 = s.rows().len();
        let want = kege_answers(&SEED, 3);
        let script = s.rows();
        for v1 in [true, false] {
            let board = if v1 {
                BoardId::AlchitryCu
            } else {
                BoardId::AlchitryCuV2
            };
            let module = super::super::module_name(board, &Design::Heaps);
            let top = heaps_top(board, &Timing::fast());
            let trace = if v1 {
                trace(top, &module, false, &script)
            } else {
                bench(&top, &module, true).run_rust_hdl(top, &script)
            };
            // Columns: io_led, io_seg, io_sel.
            let shows = |row: usize| super::alchitry_cu::display(&trace[..row], 1, 2);
            assert_eq!(shows(set_up), [None, Some(3), None, Some(4)], "k and S");
            let led = |row: usize| (trace[row - 1][0] & 0xFF, trace[row - 1][0] >> 8 & 0xFF);
            assert_eq!(led(started), (3, 4), "the start on io_led");
            assert_eq!(trace[started - 1][0] >> 22 & 1, 1, "your turn");
            for &(row, a, b) in &checks {
                assert_eq!(led(row), (u64::from(a), u64::from(b)), "after the machine");
            }
            let end = shows(over);
            assert_eq!(end[..2], pair(u64::from(a)), "first heap at the end");
            assert_eq!(end[2..], pair(u64::from(b)), "second heap at the end");
            let answer = |row: usize| shows(row);
            let task = |t: usize| [Some(t / 10), Some(t % 10)];
            let s_digits = |v: Option<&u32>| match v {
                Some(&v) => pair(u64::from(v)),
                None => [Some(10), Some(10)],
            };
            assert_eq!(answer(task19)[..2], task(19));
            assert_eq!(answer(task19)[2..], s_digits(want[0].first()), "task 19");
            assert_eq!(answer(task20)[..2], task(20));
            assert_eq!(answer(task20)[2..], s_digits(want[1].first()), "task 20");
            assert_eq!(
                answer(task20_next)[2..],
                s_digits(want[1].get(1)),
                "task 20, next"
            );
            assert_eq!(
                answer(task20_end)[2..],
                s_digits(want[1].get(2)),
                "task 20, then"
            );
            assert_eq!(answer(task21)[..2], task(21));
            assert_eq!(answer(task21)[2..], s_digits(want[2].first()), "task 21");
        }
    }
}

mod heaps_go_board {
    use super::super::heaps_pages::heaps_pages_top;
    use super::super::tests::Script;
    use super::super::Timing;
    use super::*;
    use crate::bench::heaps_solver::{expected_heaps_table, kege_answers};
    use crate::circuit::heaps_solver::{query_order, solve_cycles, HeapsRequest};

    /// The seed's game: (3, S), +1 and *4, sum >= 61, the last move wins (the power-on game).
    const SEED: HeapsRequest = HeapsRequest {
        adds: 0b1,
        muls: 0b100,
        target: 61,
        last_wins: true,
    };

    /// A short press of key `k` (columns 0-3, pressed = 1).
    fn key(s: &mut Script, k: usize) {
        s.press(k - 1, 1, 6, 10);
    }

    /// Key 4 held past the long press ([`Timing::fast`]: 12 ticks, 6 of the core's).
    fn long_key4(s: &mut Script) {
        s.press(3, 1, 40, 10);
    }

    /// What the two digits show (trace columns: LED 1-4, then segments A-G of each digit,
    /// active low): each digit's character, read against the digit ROM's own patterns.
    fn shows(r: &[u64]) -> String {
        let pattern = |levels: &[u64]| {
            levels
                .iter()
                .enumerate()
                .fold(0u8, |acc, (i, &s)| acc | (u8::from(s == 0) << i))
        };
        let char_of = |p: u8| match p {
            0 => ' ',
            0x40 => '-',
            0x38 => 'L',
            _ => DIGIT_SEGMENTS
                .iter()
                .position(|&d| d == p)
                .map_or('?', |d| char::from(b'0' + d as u8)),
        };
        [char_of(pattern(&r[4..11])), char_of(pattern(&r[11..18]))]
            .iter()
            .collect()
    }

    /// How the digits show `v` (1 to 99): the tens dark below 10; `--` for none.
    fn value(v: Option<u32>) -> String {
        v.map_or("--".into(), |v| {
            assert!((1..100).contains(&v), "two digits show 1 to 99: {v}");
            format!("{v:>2}")
        })
    }

    /// The seed's game on the Go Board from power-on: the pages show the power-on game, S is
    /// stepped up to 4, the game is solved on the chip and played, the person always `x+1` on
    /// the first heap (key 4 held to show it again when the machine moved the second), every
    /// machine move the software solver's (the digits show the heap it moved, LED1 or LED2
    /// which); the end blinks; then the answers page (key 3 on S's page) shows the software's
    /// answers of tasks 19, 20 and 21 for (3, S) (`retrogate kege`).
    #[test]
    fn heaps_go_board_plays_the_seed_game_and_answers_the_exam() {
        let table: std::collections::HashMap<(u32, u32), _> = query_order(SEED.target)
            .into_iter()
            .zip(expected_heaps_table(&SEED, 1))
            .collect();
        let solve = solve_cycles(61, 2) as usize + 60;
        let mut s = Script::new(vec![0, 0, 0, 0]);
        s.idle(30);
        let moves_page = s.rows().len() - 1;
        long_key4(&mut s);
        let target_page = s.rows().len() - 1;
        long_key4(&mut s);
        let first_page = s.rows().len() - 1;
        long_key4(&mut s);
        for _ in 0..3 {
            key(&mut s, 2);
        }
        let second_page = s.rows().len() - 1;
        long_key4(&mut s);
        let rule_page = s.rows().len() - 1;
        long_key4(&mut s);
        s.idle(solve);
        let started = s.rows().len() - 1;
        // The game as the software plays it: the heap shown and the position after each
        // machine move.
        let (mut a, mut b) = (3u32, 4u32);
        let mut shown_second = false;
        let mut checks = Vec::new();
        let person_won = loop {
            if shown_second {
                long_key4(&mut s);
            }
            key(&mut s, 1);
            a += 1;
            s.idle(40);
            if a + b >= SEED.target {
                break SEED.last_wins;
            }
            let e = table[&(a, b)];
            let x = if e.heap == 1 { b } else { a };
            let y = [x + 1, x * 2, x * 3, x * 4][e.index as usize];
            if e.heap == 1 {
                b = y;
            } else {
                a = y;
            }
            shown_second = e.heap == 1;
            if a + b >= SEED.target {
                break !SEED.last_wins;
            }
            checks.push((s.rows().len() - 1, a, b, shown_second));
        };
        s.idle(30);
        let over = s.rows().len() - 1;
        key(&mut s, 4);
        let back = s.rows().len() - 1;
        // Key 3 on the second heap's page opens the answers.
        for _ in 0..3 {
            long_key4(&mut s);
        }
        key(&mut s, 3);
        s.idle(solve + 200);
        let task19 = s.rows().len() - 1;
        key(&mut s, 1);
        s.idle(200);
        let task20 = s.rows().len() - 1;
        key(&mut s, 2);
        s.idle(200);
        let task20_next = s.rows().len() - 1;
        key(&mut s, 2);
        s.idle(200);
        let task20_then = s.rows().len() - 1;
        key(&mut s, 1);
        s.idle(200);
        let task21 = s.rows().len() - 1;
        long_key4(&mut s);
        let left = s.rows().len() - 1;

        let top = heaps_pages_top(BoardId::GoBoard, &Timing::fast());
        let trace = trace(top, "heaps_go_board", false, &s.rows());
        let leds = |row: usize| trace[row][..4].to_vec();
        let digits = |row: usize| shows(&trace[row]);
        assert_eq!(digits(moves_page), "61", "the target on the moves page");
        assert_eq!(leds(moves_page), [1, 0, 0, 1], "x+1 and x*4 allowed");
        assert_eq!(digits(target_page), "61");
        assert_eq!(leds(target_page), [1, 0, 0, 1]);
        assert_eq!(digits(first_page), " 3", "k");
        assert_eq!(leds(first_page), [1, 0, 0, 0]);
        assert_eq!(digits(second_page), " 4", "S stepped up to 4");
        assert_eq!(leds(second_page), [0, 1, 0, 0]);
        assert_eq!(digits(rule_page), "L1", "the last move wins");
        assert_eq!(leds(rule_page), [1, 0, 0, 0], "you first");
        assert_eq!(digits(started), " 3", "the first heap");
        assert_eq!(leds(started), [1, 0, 0, 1], "the first heap, your turn");
        assert!(checks.len() >= 3, "a game of several rounds: {checks:?}");
        for &(row, a, b, second) in &checks {
            let heap = if second { b } else { a };
            assert_eq!(digits(row), value(Some(heap)), "({a}, {b}) at {row}");
            assert_eq!(
                leds(row),
                [u64::from(!second), u64::from(second), 0, 1],
                "({a}, {b}): the heap the machine moved, your turn"
            );
        }
        // Game over: every LED blinks together, slowly if the person won.
        let end = &trace[over - 30..=over];
        assert!(
            end.iter().all(|r| r[..4].iter().all(|&v| v == r[0])),
            "every LED blinks together at the end"
        );
        let changes = end.windows(2).filter(|w| w[0][0] != w[1][0]).count();
        if person_won {
            assert!((1..=5).contains(&changes), "slow blink: {changes}");
        } else {
            assert!(changes >= 6, "fast blink: {changes}");
        }
        assert_eq!(digits(back), "61", "back to the moves page");
        let want = kege_answers(&SEED, 3);
        assert_eq!(leds(task19), [1, 0, 0, 0], "task 19");
        assert_eq!(digits(task19), value(want[0].first().copied()), "task 19");
        assert_eq!(leds(task20), [0, 1, 0, 0], "task 20");
        assert_eq!(digits(task20), value(want[1].first().copied()), "task 20");
        assert_eq!(
            digits(task20_next),
            value(want[1].get(1).copied()),
            "task 20, next"
        );
        assert_eq!(
            digits(task20_then),
            value(want[1].get(2).copied()),
            "task 20, then"
        );
        assert_eq!(leds(task21), [0, 0, 1, 0], "task 21");
        assert_eq!(digits(task21), value(want[2].first().copied()), "task 21");
        assert_eq!(digits(left), "61", "back to the moves page");
    }
}
