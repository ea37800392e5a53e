//! Level 8's reading of the board: what the read-back chip's LEDs and digits show at each
//! checkpoint of the stimulus ([`stimulus`](mod@super::stimulus)), decoded through the
//! design's layout on the board and checked against the software solver, so the level stands
//! on the solver, not only on the RTL top:
//! - J.R. 01: the position the presses made and its answer from the solver's table (on the
//!   iCEstick, whichever of the two its alternating LEDs show at the checkpoint);
//! - the stick game and the solver design: the sticks left (count LEDs in binary, two digits,
//!   or the left digits of a multiplexed display), the machine's take (its LEDs or the
//!   display's right digit) and the your-turn LED, against the game the solver plays;
//! - the heap game: the heaps on the LEDs and your turn, and the four digits (k and S, the
//!   heaps, the task and its answer), against the software's table and `retrogate kege`.
//!
//! Each decoder returns the checkpoints it decoded and the first that did not match.

use super::stimulus::{Stimulus, SNAPSHOTS};
use super::BitstreamError;
use crate::board::{Board, Role};
use crate::circuit::board_io::DIGIT_SEGMENTS;
use crate::circuit::top::heaps::{layout as heaps_layout, HeapsOut};
use crate::circuit::top::jr01::{layout as jr01_layout, Jr01Out};
use crate::circuit::top::solver::{layout as solver_layout, SolverOut};
use crate::circuit::top::sticks::{layout as sticks_layout, SticksOut};
use crate::circuit::top::{Layout, Wire};

/// One output pin of the top.
#[derive(Clone, Debug)]
pub(super) struct OutputPin {
    pub(super) name: String,
    pub(super) active_low: bool,
}

/// The output index (in `outputs`) of each output role of `layout` on `board`: its LEDs, the
/// bits of its output banks, its digits' segments and its displays' segments and selects.
fn output_roles<I, O: Copy>(
    board: &Board,
    layout: &Layout<I, O>,
    outputs: &[OutputPin],
) -> Vec<(usize, O)> {
    let index = |name: &str| outputs.iter().position(|o| o.name == name);
    let mut roles = Vec::new();
    let mut place = |name: &str, role: O| roles.extend(index(name).map(|k| (k, role)));
    for wire in layout.wires {
        match *wire {
            Wire::Output(name, role) => place(name, role),
            Wire::OutputBus(name, bus) => {
                for (i, role) in bus.iter().enumerate() {
                    place(&format!("{name}[{i}]"), *role);
                }
            }
            Wire::Digit(name, role) => {
                let pins: Vec<&str> = board
                    .resource(name)
                    .map(|r| r.pins().iter().map(|p| p.name).collect())
                    .unwrap_or_default();
                for (n, pin) in pins.iter().enumerate() {
                    place(pin, role(n as u8));
                }
            }
            Wire::Display(name, segment, select) => {
                if let Some(r) = board.resource(name) {
                    for (role, f) in [(Role::Segment, segment), (Role::DigitSelect, select)] {
                        if let Some(bus) = r.bus_name(role) {
                            let n = r.pins_with_role(role).len();
                            for i in 0..n {
                                place(&format!("{bus}[{i}]"), f(i as u8));
                            }
                        }
                    }
                }
            }
            Wire::Input(..) | Wire::InputBus(..) => {}
        }
    }
    roles
}

/// Whether output `k` is lit in `row` (the chip's output levels, output 0 first), after its
/// polarity; `None` when the row has no level for it.
fn lit(outputs: &[OutputPin], row: &[char], k: usize) -> Option<bool> {
    match row.get(k) {
        Some('1') => Some(!outputs[k].active_low),
        Some('0') => Some(outputs[k].active_low),
        _ => None,
    }
}

/// What a stick game's board shows, whichever design drives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StickLight {
    /// Bit `n` of the sticks left.
    Count(u8),
    /// The machine took `k` (one LED per take).
    Took(u8),
    /// Your turn.
    Turn,
    /// Segment `n` of the tens digit of the count.
    Tens(u8),
    /// Segment `n` of the ones digit of the count.
    Ones(u8),
    /// Segment `n` of a multiplexed display.
    Segment(u8),
    /// Digit select `n` of a multiplexed display (bit 0: the rightmost digit).
    Select(u8),
}

/// Where a board shows a stick game: the lights by meaning, and how many digits of a
/// multiplexed display (from the left) hold the count.
#[derive(Clone, Debug, Default)]
pub(super) struct StickLights {
    count: Vec<(u8, usize)>,
    took: Vec<(u8, usize)>,
    turn: Option<usize>,
    tens: [Option<usize>; 7],
    ones: [Option<usize>; 7],
    segments: [Option<usize>; 7],
    selects: Vec<(u8, usize)>,
    count_digits: usize,
}

impl StickLights {
    fn new(roles: impl IntoIterator<Item = (usize, StickLight)>, count_digits: usize) -> Self {
        let mut l = StickLights {
            count_digits,
            ..StickLights::default()
        };
        for (k, light) in roles {
            match light {
                StickLight::Count(n) => l.count.push((n, k)),
                StickLight::Took(n) => l.took.push((n, k)),
                StickLight::Turn => l.turn = Some(k),
                StickLight::Tens(n) if n < 7 => l.tens[usize::from(n)] = Some(k),
                StickLight::Ones(n) if n < 7 => l.ones[usize::from(n)] = Some(k),
                StickLight::Segment(n) if n < 7 => l.segments[usize::from(n)] = Some(k),
                StickLight::Select(n) => l.selects.push((n, k)),
                _ => {}
            }
        }
        l
    }

    /// The stick-game design's lights on `board` (its display's two left digits hold the count).
    pub(super) fn sticks(board: &Board, outputs: &[OutputPin]) -> Self {
        let roles = output_roles(board, sticks_layout(board.id), outputs);
        let light = |role| match role {
            SticksOut::Count(n) => Some(StickLight::Count(n)),
            SticksOut::MachineTake(n) => Some(StickLight::Took(n)),
            SticksOut::Turn => Some(StickLight::Turn),
            SticksOut::TensSegment(n) => Some(StickLight::Tens(n)),
            SticksOut::OnesSegment(n) => Some(StickLight::Ones(n)),
            SticksOut::DisplaySegment(n) => Some(StickLight::Segment(n)),
            SticksOut::DigitSelect(n) => Some(StickLight::Select(n)),
            _ => None,
        };
        Self::new(
            roles
                .into_iter()
                .filter_map(|(k, r)| light(r).map(|l| (k, l))),
            2,
        )
    }

    /// The solver design's lights on `board` (its display's three left digits hold the count;
    /// the Go Board's LED k says, in play, that the machine took k).
    pub(super) fn solver(board: &Board, outputs: &[OutputPin]) -> Self {
        let roles = output_roles(board, solver_layout(board.id), outputs);
        let light = |role| match role {
            SolverOut::Count(n) => Some(StickLight::Count(n)),
            SolverOut::SetOrTake(n) => Some(StickLight::Took(n)),
            SolverOut::Turn => Some(StickLight::Turn),
            SolverOut::TensSegment(n) => Some(StickLight::Tens(n)),
            SolverOut::OnesSegment(n) => Some(StickLight::Ones(n)),
            SolverOut::DisplaySegment(n) => Some(StickLight::Segment(n)),
            SolverOut::DigitSelect(n) => Some(StickLight::Select(n)),
            _ => None,
        };
        Self::new(
            roles
                .into_iter()
                .filter_map(|(k, r)| light(r).map(|l| (k, l))),
            3,
        )
    }
}

/// A digit's value from its seven segments' pins (10: `-`); `Some(None)` when dark, `None`
/// when the pattern is not a digit or a pin is missing.
fn digit(outputs: &[OutputPin], row: &[char], pins: &[Option<usize>; 7]) -> Option<Option<u64>> {
    let mut pattern = 0u8;
    for (n, p) in pins.iter().enumerate() {
        pattern |= u8::from(lit(outputs, row, (*p)?)?) << n;
    }
    match pattern {
        0 => Some(None),
        0x40 => Some(Some(10)),
        _ => DIGIT_SEGMENTS
            .iter()
            .position(|&d| d == pattern)
            .map(|d| Some(d as u64)),
    }
}

/// A number from its digits, left to right: dark digits only before the first digit, which is
/// not 0 unless it is the last; `None` otherwise.
fn number(digits: &[Option<Option<u64>>]) -> Option<u64> {
    let lead = digits.iter().take_while(|d| **d == Some(None)).count();
    let shown = &digits[lead..];
    let mut v = 0;
    for (i, d) in shown.iter().enumerate() {
        let d = (*d)??;
        if d > 9 || (d == 0 && i == 0 && shown.len() > 1) {
            return None;
        }
        v = v * 10 + d;
    }
    (!shown.is_empty()).then_some(v)
}

/// The digits of a multiplexed display over a checkpoint's rows, left to right: each row shows
/// one digit (select bit k lights digit `width - 1 - k` from the left); `None` where no row
/// showed that digit alone.
fn display(
    outputs: &[OutputPin],
    rows: &[Vec<char>],
    segments: &[Option<usize>; 7],
    selects: &[(u8, usize)],
) -> Vec<Option<Option<u64>>> {
    let width = selects.len();
    let mut shown: Vec<Option<Option<u64>>> = vec![None; width];
    for r in rows {
        let on: Vec<u8> = selects
            .iter()
            .filter(|&&(_, k)| lit(outputs, r, k) == Some(true))
            .map(|&(n, _)| n)
            .collect();
        if let [n] = on[..] {
            if let Some(slot) = shown.get_mut(width.wrapping_sub(1 + usize::from(n))) {
                *slot = digit(outputs, r, segments);
            }
        }
    }
    shown
}

/// A binary number from its bits' outputs; `None` when a level is missing.
fn binary(outputs: &[OutputPin], row: &[char], bits: &[(u8, usize)]) -> Option<u64> {
    bits.iter().try_fold(0u64, |v, &(n, k)| {
        lit(outputs, row, k).map(|l| v | u64::from(l) << n)
    })
}

/// How a decoded value reads in a message.
fn show(v: Option<u64>) -> String {
    v.map_or("nothing readable".to_owned(), |v| v.to_string())
}

/// Checks the stick game's count (in binary on LEDs, on two digits, or on a multiplexed
/// display's left digits), the machine's last take (on its LEDs or the display's right digit)
/// and the your-turn LED at each checkpoint against the solver's game.
pub(super) fn decode_sticks(
    lights: &StickLights,
    outputs: &[OutputPin],
    stim: &Stimulus,
    rows: &[Vec<char>],
) -> (usize, Option<String>) {
    let l = lights;
    let mut decoded = 0;
    for cp in &stim.sticks {
        let Some(row) = rows.get(cp.row + SNAPSHOTS - 1) else {
            continue;
        };
        let mut checks: Vec<(&str, Option<u64>, u64)> = Vec::new();
        if !l.count.is_empty() {
            checks.push(("count LEDs", binary(outputs, row, &l.count), cp.left));
        }
        if l.tens.iter().chain(&l.ones).all(Option::is_some) {
            let got = number(&[digit(outputs, row, &l.tens), digit(outputs, row, &l.ones)]);
            checks.push(("count digits", got, cp.left));
        }
        if l.segments.iter().all(Option::is_some) && l.selects.len() == 4 {
            let shown = display(
                outputs,
                &rows[cp.row..cp.row + SNAPSHOTS],
                &l.segments,
                &l.selects,
            );
            let got = number(&shown[..l.count_digits]);
            checks.push(("count on the display", got, cp.left));
            if cp.machine > 0 && cp.machine < 10 {
                checks.push((
                    "the machine's take on the display",
                    shown[3].flatten(),
                    cp.machine,
                ));
            }
        }
        if l.took.iter().any(|&(n, _)| u64::from(n) == cp.machine) {
            let on: Vec<u64> = l
                .took
                .iter()
                .filter(|&&(_, k)| lit(outputs, row, k) == Some(true))
                .map(|&(n, _)| u64::from(n))
                .collect();
            let got = if let [t] = on[..] { Some(t) } else { None };
            checks.push(("the machine's take LEDs", got, cp.machine));
        }
        if let Some(k) = l.turn {
            checks.push(("your-turn LED", lit(outputs, row, k).map(u64::from), 1));
        }
        for (what, got, expected) in &checks {
            if *got != Some(*expected) {
                return (
                    decoded,
                    Some(format!(
                        "after {}: the {what} show {}, the solver's game has {expected}",
                        cp.what,
                        show(*got)
                    )),
                );
            }
        }
        if !checks.is_empty() {
            decoded += 1;
        }
    }
    (decoded, None)
}

/// Digits as they read (dark: a space; 10: `-`).
fn digits(d: &[Option<u64>]) -> String {
    d.iter()
        .map(|d| match d {
            None => ' ',
            Some(10) => '-',
            Some(v) => char::from_digit(*v as u32, 10).unwrap_or('?'),
        })
        .collect()
}

/// The message for digits `shown` (each `None` when unreadable) where the software's are
/// `want`, after the checkpoint `what`.
fn mismatch(
    what: &str,
    place: &str,
    shown: &[Option<Option<u64>>],
    want: &[Option<u64>],
) -> String {
    let got: Option<Vec<Option<u64>>> = shown.iter().copied().collect();
    format!(
        "after {what}: {place} shows {}, the software's is \"{}\"",
        got.map_or("nothing readable".into(), |g| format!("\"{}\"", digits(&g))),
        digits(want)
    )
}

/// Checks the heap game's board at each checkpoint: the heaps on the LEDs (in binary) with
/// your turn lit, and the four digits of the display, against the software's game and answers.
pub(super) fn decode_heaps(
    board: &Board,
    outputs: &[OutputPin],
    stim: &Stimulus,
    rows: &[Vec<char>],
) -> (usize, Option<String>) {
    let Some(layout) = heaps_layout(board.id) else {
        return (0, None);
    };
    let mut heap_a = Vec::new();
    let mut heap_b = Vec::new();
    let mut turn = None;
    let mut segments = [None; 7];
    let mut selects = Vec::new();
    let mut lights = [None; 4];
    let mut tens = [None; 7];
    let mut ones = [None; 7];
    for (k, role) in output_roles(board, layout, outputs) {
        match role {
            HeapsOut::Light(n @ 1..=4) => lights[usize::from(n) - 1] = Some(k),
            HeapsOut::TensSegment(n) if n < 7 => tens[usize::from(n)] = Some(k),
            HeapsOut::OnesSegment(n) if n < 7 => ones[usize::from(n)] = Some(k),
            HeapsOut::HeapA(n) => heap_a.push((n, k)),
            HeapsOut::HeapB(n) => heap_b.push((n, k)),
            HeapsOut::Turn => turn = Some(k),
            HeapsOut::DisplaySegment(n) if n < 7 => segments[usize::from(n)] = Some(k),
            HeapsOut::DigitSelect(n) => selects.push((n, k)),
            _ => {}
        }
    }
    let mut decoded = 0;
    for cp in &stim.heaps {
        let Some(row) = rows.get(cp.row + SNAPSHOTS - 1) else {
            continue;
        };
        let mut checked = false;
        if let Some((a, b)) = cp.heaps {
            for (what, bits, want) in [("first heap's", &heap_a, a), ("second heap's", &heap_b, b)]
            {
                if bits.is_empty() {
                    continue;
                }
                checked = true;
                let got = binary(outputs, row, bits);
                if got != Some(want) {
                    return (
                        decoded,
                        Some(format!(
                            "after {}: the {what} LEDs show {}, the software's game has {want}",
                            cp.what,
                            show(got)
                        )),
                    );
                }
            }
            if let Some(k) = turn {
                checked = true;
                if lit(outputs, row, k) != Some(true) {
                    return (
                        decoded,
                        Some(format!("after {}: the your-turn LED is not lit", cp.what)),
                    );
                }
            }
        }
        if let Some(want) = cp.pair {
            if tens.iter().chain(&ones).all(Option::is_some) {
                checked = true;
                let shown = [digit(outputs, row, &tens), digit(outputs, row, &ones)];
                if shown != want.map(Some) {
                    return (
                        decoded,
                        Some(mismatch(&cp.what, "the pair of digits", &shown, &want)),
                    );
                }
            }
        }
        if let Some(want) = cp.lights {
            if lights.iter().all(Option::is_some) {
                checked = true;
                let shown: Vec<Option<bool>> = lights
                    .iter()
                    .map(|k| k.and_then(|k| lit(outputs, row, k)))
                    .collect();
                if shown != want.map(Some) {
                    return (
                        decoded,
                        Some(format!(
                            "after {}: LED1 to LED4 show {shown:?}, the software's are {want:?}",
                            cp.what
                        )),
                    );
                }
            }
        }
        if let Some(want) = cp.display {
            if segments.iter().all(Option::is_some) && selects.len() == 4 {
                checked = true;
                let shown = display(
                    outputs,
                    &rows[cp.row..cp.row + SNAPSHOTS],
                    &segments,
                    &selects,
                );
                if shown != want.map(Some) {
                    return (
                        decoded,
                        Some(mismatch(&cp.what, "the display", &shown, &want)),
                    );
                }
            }
        }
        if checked {
            decoded += 1;
        }
    }
    (decoded, None)
}

/// Checks J.R. 01's LEDs and digits at each checkpoint against the solver's table: the shown
/// position is the one the presses made, the shown answer the table's row for it. Returns the
/// checkpoints decoded and the first that did not match.
pub(super) fn decode_jr01(
    board: &Board,
    outputs: &[OutputPin],
    stim: &Stimulus,
    rows: &[Vec<char>],
) -> Result<(usize, Option<String>), BitstreamError> {
    let table = crate::solver::strategy::Jr01Strategy::derive()
        .map_err(|e| BitstreamError::Setup(e.to_string()))?
        .table;
    // The pins of each role: position / answer bits, and the two digits' segments.
    let mut position: [Option<usize>; 3] = [None; 3];
    let mut answer: [Option<usize>; 3] = [None; 3];
    let mut position_digit: [Option<usize>; 7] = [None; 7];
    let mut answer_digit: [Option<usize>; 7] = [None; 7];
    // LEDs that show the position while `showing` is lit, the answer while it is dark.
    let mut alternating: [Option<usize>; 3] = [None; 3];
    let mut showing: Option<usize> = None;
    for (k, role) in output_roles(board, jr01_layout(board.id), outputs) {
        match role {
            Jr01Out::Alternating(n) => alternating[usize::from(n)] = Some(k),
            Jr01Out::ShowingPosition => showing = Some(k),
            Jr01Out::Position(n) => position[usize::from(n)] = Some(k),
            Jr01Out::Answer(n) => answer[usize::from(n)] = Some(k),
            Jr01Out::PositionSegment(n) if n < 7 => position_digit[usize::from(n)] = Some(k),
            Jr01Out::AnswerSegment(n) if n < 7 => answer_digit[usize::from(n)] = Some(k),
            _ => {}
        }
    }
    let lit = |row: &[char], k: usize| lit(outputs, row, k);
    let bits = |row: &[char], pins: &[Option<usize>; 3]| -> Option<u32> {
        let mut v = 0;
        for (n, p) in pins.iter().enumerate() {
            v |= u32::from(lit(row, (*p)?)?) << n;
        }
        Some(v)
    };
    let digit = |row: &[char], pins: &[Option<usize>; 7]| -> Option<u32> {
        let mut pattern = 0u8;
        for (n, p) in pins.iter().enumerate() {
            pattern |= u8::from(lit(row, (*p)?)?) << n;
        }
        DIGIT_SEGMENTS
            .iter()
            .position(|&d| d == pattern)
            .map(|d| d as u32)
    };
    let mut decoded = 0;
    for &(row, expected_position) in &stim.checkpoints {
        let Some(shown) = rows.get(row) else {
            continue;
        };
        let expected_answer = table.row(expected_position);
        let mut checked = false;
        // Whether the alternating LEDs show the position (`Some(true)`) or the answer.
        let phase = showing
            .filter(|_| alternating.iter().all(Option::is_some))
            .and_then(|k| lit(shown, k));
        for (what, got, present) in [
            (
                "position LEDs",
                bits(shown, &position),
                position.iter().any(Option::is_some),
            ),
            (
                "position digit",
                digit(shown, &position_digit),
                position_digit.iter().any(Option::is_some),
            ),
            (
                "alternating LEDs (showing the position)",
                bits(shown, &alternating),
                phase == Some(true),
            ),
        ] {
            if !present {
                continue;
            }
            checked = true;
            if got != Some(expected_position) {
                return Ok((
                    decoded,
                    Some(format!(
                        "after press {row}: the {what} show {}, the presses made {expected_position:03b}",
                        got.map_or("no position".into(), |g| format!("{g:03b}"))
                    )),
                ));
            }
        }
        for (what, got, present) in [
            (
                "answer LEDs",
                bits(shown, &answer),
                answer.iter().any(Option::is_some),
            ),
            (
                "answer digit",
                digit(shown, &answer_digit),
                answer_digit.iter().any(Option::is_some),
            ),
            (
                "alternating LEDs (showing the answer)",
                bits(shown, &alternating),
                phase == Some(false),
            ),
        ] {
            if !present {
                continue;
            }
            let Some(expected) = expected_answer else {
                continue;
            };
            checked = true;
            if got != Some(expected) {
                return Ok((
                    decoded,
                    Some(format!(
                        "at position {expected_position:03b} the {what} show {}, the solver's \
                         answer is {expected:03b}",
                        got.map_or("no answer".into(), |g| format!("{g:03b}"))
                    )),
                ));
            }
        }
        if checked {
            decoded += 1;
        }
    }
    Ok((decoded, None))
}

#[cfg(test)]
mod tests {
    use super::super::active_low;
    use super::super::stimulus::{sticks_game, InputPin};
    use super::*;
    use crate::board::BoardId;
    use crate::circuit::top::{Design, Timing};
    use crate::game::SticksGame;
    use crate::solver::strategy::sticks_table;

    /// The iCEBreaker's stick game shows its count on LED1-LED5 (active high) and your turn on
    /// LEDG_N (active low): a board showing the solver's count passes, one showing another
    /// count fails naming it.
    #[test]
    fn the_stick_games_count_is_decoded_against_the_solver() {
        let board = BoardId::Icebreaker.board();
        let game = SticksGame::fort_boyard();
        let timing = Timing::for_design(board, &Design::Sticks(game.clone()));
        let inputs: Vec<InputPin> = ["BTN_N", "BTN1", "BTN2", "BTN3"]
            .iter()
            .map(|n| InputPin {
                name: (*n).into(),
                idle: active_low(board, n),
            })
            .collect();
        let mut s = Stimulus::default();
        sticks_game(board, &game, &timing, &inputs, &mut s);
        let table = sticks_table(&game).unwrap();
        // Power-on (18), you take 3 (15) and the machine answers, a long press of BTN_N.
        let left: Vec<u64> = s.sticks.iter().map(|c| c.left).collect();
        let answer = u64::from(table.take(15).unwrap());
        let first = u64::from(table.take(18).unwrap());
        assert_eq!(left, [18, 15 - answer, 18 - first], "{:?}", s.sticks);
        assert!(s.sticks[2].what.contains("long press"), "{:?}", s.sticks);
        // The long press is held past a second (12,000,000 cycles).
        assert!(
            s.rows.iter().any(|(n, l)| !l[0] && *n > 12_000_000),
            "{:?}",
            s.rows
        );
        let outputs: Vec<OutputPin> = ["LED1", "LED2", "LED3", "LED4", "LED5", "LEDR_N", "LEDG_N"]
            .iter()
            .map(|n| OutputPin {
                name: (*n).into(),
                active_low: active_low(board, n),
            })
            .collect();
        let lights = StickLights::sticks(board, &outputs);
        // A row showing `count` with your turn lit (LEDG_N low), red dark.
        let shows = |count: u64| -> Vec<char> {
            let mut r: Vec<char> = (0..5)
                .map(|i| if count >> i & 1 == 1 { '1' } else { '0' })
                .collect();
            r.extend(['1', '0']);
            r
        };
        let mut rows = vec![Vec::new(); s.rows.len()];
        for c in &s.sticks {
            for r in &mut rows[c.row..c.row + SNAPSHOTS] {
                *r = shows(c.left);
            }
        }
        assert_eq!(decode_sticks(&lights, &outputs, &s, &rows), (3, None));
        let second = s.sticks[1].row + SNAPSHOTS - 1;
        rows[second] = shows(s.sticks[1].left + 1);
        let (decoded, failure) = decode_sticks(&lights, &outputs, &s, &rows);
        assert_eq!(decoded, 1);
        let failure = failure.unwrap();
        assert!(
            failure.contains("you took 3 of 18")
                && failure.contains(&format!("count LEDs show {}", s.sticks[1].left + 1)),
            "{failure}"
        );
        rows[second] = shows(s.sticks[1].left);
        rows[second][6] = '1';
        let (_, failure) = decode_sticks(&lights, &outputs, &s, &rows);
        assert!(failure.unwrap().contains("your-turn LED show 0"));
    }

    /// The Alchitry Cu's heap game shows the heaps on io_led (first heap [7:0], second [15:8],
    /// your turn [22]) and four digits on its multiplexed display (active-low segments and
    /// selects): a board showing what the checkpoints expect passes, one showing another
    /// answer or another heap fails naming it.
    #[test]
    fn the_heap_games_leds_and_display_are_decoded() {
        let id = BoardId::AlchitryCu;
        let board = id.board();
        let design = Design::Heaps;
        let timing = Timing::for_design(board, &design);
        let top = crate::circuit::top::top_verilog(id, &design, &timing).unwrap();
        let clock = board.clock.pin;
        let inputs = super::super::input_pins(board, &top, clock);
        let outputs: Vec<OutputPin> = super::super::pins(&top, clock, false)
            .into_iter()
            .map(|name| OutputPin {
                active_low: active_low(board, &name),
                name,
            })
            .collect();
        let s = super::super::stimulus::stimulus(board, &design, &timing, &inputs);
        let roles = output_roles(board, heaps_layout(id).unwrap(), &outputs);
        // The pins' levels showing `heaps` (your turn lit when shown) and digit `i` (from the
        // left) of `digits`.
        let paint = |heaps: Option<(u64, u64)>, digits: [Option<u64>; 4], i: usize| {
            let (a, b) = heaps.unwrap_or((0, 0));
            let pattern = match digits[i] {
                None => 0,
                Some(10) => 0x40,
                Some(d) => DIGIT_SEGMENTS[d as usize],
            };
            let mut row = vec!['0'; outputs.len()];
            for &(k, role) in &roles {
                let on = match role {
                    HeapsOut::HeapA(n) => a >> n & 1 == 1,
                    HeapsOut::HeapB(n) => b >> n & 1 == 1,
                    HeapsOut::Turn => heaps.is_some(),
                    HeapsOut::DisplaySegment(n) => pattern >> n & 1 == 1,
                    HeapsOut::DigitSelect(n) => usize::from(n) == 3 - i,
                    _ => false,
                };
                row[k] = if on != outputs[k].active_low {
                    '1'
                } else {
                    '0'
                };
            }
            row
        };
        let paint_all = |cps: &[super::super::stimulus::HeapsCheckpoint]| {
            let mut rows = vec![Vec::new(); s.rows.len()];
            for c in cps {
                let digits = c.display.unwrap_or([None; 4]);
                for i in 0..SNAPSHOTS {
                    rows[c.row + i] = paint(c.heaps, digits, i);
                }
            }
            rows
        };
        assert_eq!(s.heaps.len(), 6, "{:?}", s.heaps);
        let rows = paint_all(&s.heaps);
        assert_eq!(decode_heaps(board, &outputs, &s, &rows), (6, None));
        // Task 20's next S shown as 13 instead of 14.
        let mut wrong = s.heaps.clone();
        wrong[5].display = Some([Some(2), Some(0), Some(1), Some(3)]);
        let (decoded, failure) = decode_heaps(board, &outputs, &s, &paint_all(&wrong));
        assert_eq!(decoded, 5);
        let failure = failure.unwrap();
        assert!(
            failure.contains("task 20's next S")
                && failure.contains("\"2013\"")
                && failure.contains("\"2014\""),
            "{failure}"
        );
        // The machine's answer shown one off on the second heap.
        let mut wrong = s.heaps.clone();
        let (a, b) = wrong[2].heaps.unwrap();
        wrong[2].heaps = Some((a, b + 1));
        let (decoded, failure) = decode_heaps(board, &outputs, &s, &paint_all(&wrong));
        assert_eq!(decoded, 2);
        assert!(failure
            .unwrap()
            .contains(&format!("second heap's LEDs show {}", b + 1)),);
    }

    /// Digits read as numbers: dark digits lead, a leading 0 only alone.
    #[test]
    fn numbers_read_off_digits() {
        let d = |v: &[Option<u64>]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(number(&d(&[None, Some(1), Some(8)])), Some(18));
        assert_eq!(number(&d(&[None, None, Some(0)])), Some(0));
        assert_eq!(number(&d(&[Some(1), Some(0), Some(4)])), Some(104));
        assert_eq!(number(&d(&[None, Some(0), Some(4)])), None);
        assert_eq!(number(&d(&[Some(1), None, Some(4)])), None);
        assert_eq!(number(&d(&[None, None])), None);
        assert_eq!(number(&d(&[Some(10), Some(3)])), None);
        assert_eq!(number(&[None, Some(Some(3))]), None);
    }

    /// The iCEstick's J.R. 01 shows the position and the answer on D1-D3 in turn (D5 lit: the
    /// position): each checkpoint is read in the phase it shows, and a wrong answer fails
    /// naming the position.
    #[test]
    fn the_icesticks_alternating_leds_are_read_in_their_phase() {
        let id = BoardId::Icestick;
        let board = id.board();
        let design = Design::Jr01;
        let timing = Timing::for_design(board, &design);
        let top = crate::circuit::top::top_verilog(id, &design, &timing).unwrap();
        let clock = board.clock.pin;
        let inputs = super::super::input_pins(board, &top, clock);
        let outputs: Vec<OutputPin> = super::super::pins(&top, clock, false)
            .into_iter()
            .map(|name| OutputPin {
                active_low: active_low(board, &name),
                name,
            })
            .collect();
        let s = super::super::stimulus::stimulus(board, &design, &timing, &inputs);
        let roles = output_roles(board, jr01_layout(id), &outputs);
        let table = crate::solver::strategy::Jr01Strategy::derive()
            .unwrap()
            .table;
        // The row showing `value` on D1-D3, D5 lit when it is the position.
        let paint = |value: u32, position: bool| {
            let mut row = vec!['0'; outputs.len()];
            for &(k, role) in &roles {
                let on = match role {
                    Jr01Out::Alternating(n) => value >> n & 1 == 1,
                    Jr01Out::ShowingPosition => position,
                    _ => false,
                };
                row[k] = if on != outputs[k].active_low {
                    '1'
                } else {
                    '0'
                };
            }
            row
        };
        for showing_position in [false, true] {
            let mut rows = vec![Vec::new(); s.rows.len()];
            for &(row, position) in &s.checkpoints {
                let value = if showing_position {
                    position
                } else {
                    table.row(position).unwrap()
                };
                rows[row] = paint(value, showing_position);
            }
            assert_eq!(
                decode_jr01(board, &outputs, &s, &rows).unwrap(),
                (8, None),
                "showing the position: {showing_position}"
            );
        }
        // The answer at the fourth checkpoint off by one bit.
        let mut rows = vec![Vec::new(); s.rows.len()];
        for (i, &(row, position)) in s.checkpoints.iter().enumerate() {
            let answer = table.row(position).unwrap() ^ u32::from(i == 3);
            rows[row] = paint(answer, false);
        }
        let (decoded, failure) = decode_jr01(board, &outputs, &s, &rows).unwrap();
        assert_eq!(decoded, 3);
        assert!(failure
            .unwrap()
            .contains("the alternating LEDs (showing the answer) show"),);
    }
}
