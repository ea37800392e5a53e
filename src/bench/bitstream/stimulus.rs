//! Level 8's stimulus: what a person does on the board, row by row (input levels, each held
//! some clock cycles at the board's real timing), and the checkpoints where what the board
//! shows is read back ([`super::decode`]) against the software solver:
//! - J.R. 01 walks every position (Gray code C B C A C B C), a checkpoint after each press;
//! - the stick game plays a round from power-on and a new game with the machine first;
//! - the solver design sets a game the way its board does (a fixed Fort Boyard started by the
//!   start button or the chord; the Go Board's set-up pages; the Alchitry Io's switches: 40
//!   sticks, takes {1, 2, 5, 8}), has it solved on the chip and plays a round, then (where the
//!   board can say so without the pages) a new game with the machine first;
//! - the heap game sets the seed's game ((3, S), `x+1` and `x*4`, sum >= 61, the last move
//!   wins) on the switches, plays a move and reads the machine's answer, then the answers page.
//!
//! Every press is held past the debounce time; every wait for a machine move lasts past the
//! machine's think time, the others (a game started with you first, a page of answers) past the
//! debounce time, far longer than a solve on the chip or an answer's search; a checkpoint that
//! reads a multiplexed display spans [`SNAPSHOTS`] rows of one digit time each.

use crate::bench::heaps_solver::{expected_heaps_table, kege_answers};
use crate::board::Board;
use crate::circuit::heaps_solver::{query_order, solve_cycles, HeapsRequest};
use crate::circuit::top::heaps::{layout as heaps_layout, HeapsIn};
use crate::circuit::top::jr01::{layout as jr01_layout, Jr01In};
use crate::circuit::top::solver::{layout as solver_layout, solver_setup, SolverIn, SolverSetup};
use crate::circuit::top::sticks::{layout as sticks_layout, SticksIn};
use crate::circuit::top::{Design, Layout, Timing, Wire, PLL_LOCK_CYCLES};
use crate::game::{Game, Last, SticksGame};
use crate::solver::strategy::sticks_table;

/// One input pin of the top, as the testbench drives it.
#[derive(Clone, Debug)]
pub(crate) struct InputPin {
    /// The pin (PCF name).
    pub(crate) name: String,
    /// Its level when released (open).
    pub(crate) idle: bool,
}

/// The stimulus: rows of input levels, each held some cycles.
#[derive(Clone, Debug, Default)]
pub(super) struct Stimulus {
    pub(super) rows: Vec<(u64, Vec<bool>)>,
    pub(super) presses: usize,
    /// Rows after which J.R. 01's position is this.
    pub(super) checkpoints: Vec<(usize, u32)>,
    /// The stick game the board plays (the sticks and solver designs).
    pub(super) game: Option<SticksGame>,
    /// What the stick game's board must show, each at a run of [`SNAPSHOTS`] rows.
    pub(super) sticks: Vec<SticksCheckpoint>,
    /// What the heap game's board must show, each at a run of [`SNAPSHOTS`] rows.
    pub(super) heaps: Vec<HeapsCheckpoint>,
}

/// Rows of one multiplexed digit's time each after a stick-game checkpoint: a display of up
/// to four digits shows each of them in one of these rows' last cycles.
pub(super) const SNAPSHOTS: usize = 4;

/// A point of the stick game where the board's display is read and checked against the
/// solver's game.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SticksCheckpoint {
    /// The first of its [`SNAPSHOTS`] rows.
    pub(super) row: usize,
    /// What led there.
    pub(super) what: String,
    /// The sticks left.
    pub(super) left: u64,
    /// The machine's last take (0: none yet).
    pub(super) machine: u64,
}

/// A point of the heap game where the board is read and checked against the software: the
/// heaps on the LEDs and your turn, or the four digits of the display.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct HeapsCheckpoint {
    /// The first of its [`SNAPSHOTS`] rows.
    pub(super) row: usize,
    /// What led there.
    pub(super) what: String,
    /// The heaps (first, second) the LEDs show, and that it is your turn.
    pub(super) heaps: Option<(u64, u64)>,
    /// The digits, left to right (`None`: dark; 10: `-`).
    pub(super) display: Option<[Option<u64>; 4]>,
    /// On a board with two digits and four LEDs (the Go Board): the two digits, left to right
    /// (`None`: dark; 10: `-`).
    pub(super) pair: Option<[Option<u64>; 2]>,
    /// On such a board: LED1 to LED4 lit.
    pub(super) lights: Option<[bool; 4]>,
}

impl Stimulus {
    pub(super) fn hold(&mut self, levels: &[bool], cycles: u64) {
        if cycles > 0 {
            self.rows.push((cycles, levels.to_vec()));
        }
    }

    pub(super) fn cycles(&self) -> u64 {
        self.rows.iter().map(|(n, _)| n).sum()
    }

    /// [`SNAPSHOTS`] rows of `digit` cycles each at `levels`; returns the first row's index.
    fn snapshots(&mut self, levels: &[bool], digit: u64) -> usize {
        let row = self.rows.len();
        for _ in 0..SNAPSHOTS {
            self.rows.push((digit, levels.to_vec()));
        }
        row
    }
}

/// The stimulus for `design` on `board`: power-on, then the design's game as a person plays it
/// (the module's doc says which).
pub(super) fn stimulus(
    board: &Board,
    design: &Design,
    timing: &Timing,
    inputs: &[InputPin],
) -> Stimulus {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let idle: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let mut s = Stimulus::default();
    let power_on = 4 * debounce + 4 * tick + u64::from(PLL_LOCK_CYCLES);
    s.hold(&idle, power_on);
    match design {
        Design::Jr01 => {
            // Which input flips (a button) or sets (a switch) each position bit.
            let mut controls: [Option<(usize, bool)>; 3] = [None; 3];
            for (k, role) in input_roles(jr01_layout(board.id), inputs) {
                match role {
                    Jr01In::Toggle(n) => controls[usize::from(n)] = Some((k, true)),
                    Jr01In::Switch(n) => controls[usize::from(n)] = Some((k, false)),
                    _ => {}
                }
            }
            let mut levels = idle.clone();
            let mut position = 0u32;
            s.checkpoints.push((s.rows.len() - 1, position));
            for bit in [0usize, 1, 0, 2, 0, 1, 0] {
                let Some((k, button)) = controls[bit] else {
                    continue;
                };
                position ^= 1 << bit;
                s.presses += 1;
                if button {
                    let mut pressed = levels.clone();
                    pressed[k] = !inputs[k].idle;
                    s.hold(&pressed, 3 * debounce);
                } else {
                    levels[k] = !levels[k];
                }
                s.hold(&levels, 3 * debounce);
                s.checkpoints.push((s.rows.len() - 1, position));
            }
        }
        Design::Sticks(game) => sticks_game(board, game, timing, inputs, &mut s),
        Design::Heaps => heaps_game(board, timing, inputs, &mut s),
        Design::Solver => solver_game(board, timing, inputs, &mut s),
    }
    s
}

/// The input index (in `inputs`) of each input role of `layout`: its one-pin inputs and the
/// bits of its input banks, in layout order.
pub(super) fn input_roles<I: Copy, O>(
    layout: &Layout<I, O>,
    inputs: &[InputPin],
) -> Vec<(usize, I)> {
    let index = |name: &str| inputs.iter().position(|p| p.name == name);
    let mut roles = Vec::new();
    for wire in layout.wires {
        match *wire {
            Wire::Input(name, role) => roles.extend(index(name).map(|k| (k, role))),
            Wire::InputBus(name, bus) => {
                for (i, role) in bus.iter().enumerate() {
                    roles.extend(index(&format!("{name}[{i}]")).map(|k| (k, *role)));
                }
            }
            _ => {}
        }
    }
    roles
}

/// The seed's heap game: (3, S), `x+1` and `x*4`, sum >= 61, the last move wins.
const SEED_HEAPS: HeapsRequest = HeapsRequest {
    adds: 0b01,
    muls: 0b100,
    target: 61,
    last_wins: true,
};

/// How the heap design shows `v` on two digits: the tens dark below 10 (a heap of 100 or more
/// shows its last two digits).
fn pair(v: u64) -> [Option<u64>; 2] {
    let v = v % 100;
    [(v >= 10).then_some(v / 10), Some(v % 10)]
}

/// The heap game on `board` from power-on (already in `s`), as a person plays it: the seed's
/// game on the switches (k = 3), S stepped up to 4 (checkpoint: the display shows k and S),
/// the game solved and started (the heaps on the LEDs and the display, your turn), one move
/// (`x+1` on the first heap) and, after the think time, the position the software's move
/// leads to; then the answers page: task 19's first S, down to task 20 and its first S, right
/// to its next S (each the software's, `retrogate kege`, or `--` where there is none); the
/// reset button last.
fn heaps_game(board: &Board, timing: &Timing, inputs: &[InputPin], s: &mut Stimulus) {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let hold = 2 * debounce + 2 * tick;
    let think = timing.think_ticks * tick + 3 * debounce;
    let digit = timing.digit_ticks.max(1) * tick;
    let Some(layout) = heaps_layout(board.id) else {
        return;
    };
    let roles = input_roles(layout, inputs);
    let find = |role: HeapsIn| roles.iter().find(|(_, r)| *r == role).map(|&(k, _)| k);
    if find(HeapsIn::Key(4)).is_some() {
        return heaps_pages_game(timing, inputs, &roles, s);
    }
    let mut levels: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let set = |levels: &mut Vec<bool>, role: HeapsIn| {
        if let Some(k) = find(role) {
            levels[k] = !inputs[k].idle;
        }
    };
    let game = SEED_HEAPS;
    let k = 3u64;
    let mut on = vec![
        HeapsIn::AddSwitch(0),
        HeapsIn::MulSwitch(2),
        HeapsIn::LastWinsSwitch,
    ];
    on.extend((0..6).filter(|n| k >> n & 1 == 1).map(HeapsIn::FirstSwitch));
    on.extend(
        (0..6)
            .filter(|n| game.target >> n & 1 == 1)
            .map(HeapsIn::TargetSwitch),
    );
    for role in on {
        set(&mut levels, role);
    }
    s.hold(&levels, hold);
    let press = |s: &mut Stimulus, levels: &[bool], role: HeapsIn, after: u64| {
        let Some(k) = find(role) else { return };
        let mut pressed = levels.to_vec();
        pressed[k] = !inputs[k].idle;
        s.hold(&pressed, hold);
        s.hold(levels, after);
        s.presses += 1;
    };
    let checkpoint = |s: &mut Stimulus, levels: &[bool], what: &str, heaps, display| {
        let row = s.snapshots(levels, digit);
        s.heaps.push(HeapsCheckpoint {
            row,
            what: what.into(),
            heaps,
            display,
            pair: None,
            lights: None,
        });
    };
    let shows = |left: u64, right: u64| {
        let [a, b] = pair(left);
        let [c, d] = pair(right);
        Some([a, b, c, d])
    };
    // S from 1 up to 4.
    for _ in 0..3 {
        press(s, &levels, HeapsIn::Up, hold);
    }
    let (mut a, mut b) = (k, 4u64);
    checkpoint(s, &levels, "S stepped up to 4", None, shows(a, b));
    press(s, &levels, HeapsIn::Centre, hold);
    checkpoint(
        s,
        &levels,
        "the game solved and started",
        Some((a, b)),
        shows(a, b),
    );
    press(s, &levels, HeapsIn::Centre, think);
    a += 1;
    let table: Vec<((u32, u32), _)> = query_order(game.target)
        .into_iter()
        .zip(expected_heaps_table(&game, 2))
        .collect();
    let entry = table
        .iter()
        .find(|(p, _)| u64::from(p.0) == a && u64::from(p.1) == b)
        .map(|(_, e)| *e);
    if let Some(e) = entry {
        // The fixed list: x+1, x+2, x*2, x*3, x*4.
        let x = if e.heap == 1 { b } else { a };
        let i = u64::from(e.index);
        let y = if i < 2 { x + i + 1 } else { x * i };
        if e.heap == 1 {
            b = y;
        } else {
            a = y;
        }
        if a + b < u64::from(game.target) {
            checkpoint(
                s,
                &levels,
                "your x+1 on the first heap and the machine's answer",
                Some((a, b)),
                shows(a, b),
            );
        }
    }
    // The answers page.
    let want = kege_answers(&game, k as u32);
    let answer = |task: u64, v: Option<&u32>| {
        let [c, d] = v.map_or([Some(10), Some(10)], |&v| pair(u64::from(v)));
        Some([Some(task / 10), Some(task % 10), c, d])
    };
    set(&mut levels, HeapsIn::AnswersSwitch);
    s.hold(&levels, hold);
    checkpoint(
        s,
        &levels,
        "the answers page",
        None,
        answer(19, want[0].first()),
    );
    press(s, &levels, HeapsIn::Down, hold);
    checkpoint(
        s,
        &levels,
        "down: task 20",
        None,
        answer(20, want[1].first()),
    );
    press(s, &levels, HeapsIn::Right, hold);
    checkpoint(
        s,
        &levels,
        "right: task 20's next S",
        None,
        answer(20, want[1].get(1)),
    );
    press(s, &levels, HeapsIn::Reset, hold);
}

/// The heap game on a board with set-up pages (the Go Board) from power-on (already in `s`):
/// the power-on game is the seed's (3, S), `x+1` and `x*4`, sum >= 61, the last move wins (the
/// moves page shows the target and those two moves); key 4 held to the target page, where key
/// 3 opens the answers page, which shows task 19's first S; key 1, task 20's; key 2, its next
/// S (each the software's, `retrogate kege`, or `--`). Playing is left to the co-simulation of
/// the top (src/circuit/top/board_tests.rs): each machine move waits half a second, and leaving
/// a game takes its end.
fn heaps_pages_game(
    timing: &Timing,
    inputs: &[InputPin],
    roles: &[(usize, HeapsIn)],
    s: &mut Stimulus,
) {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let hold = 2 * debounce + 2 * tick;
    let long = (timing.long_press_ticks + 2 * timing.debounce_ticks) * tick + hold;
    let find = |role: HeapsIn| roles.iter().find(|(_, r)| *r == role).map(|&(k, _)| k);
    let levels: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let press = |s: &mut Stimulus, key: u8, cycles: u64, after: u64| {
        let Some(k) = find(HeapsIn::Key(key)) else {
            return;
        };
        let mut pressed = levels.clone();
        pressed[k] = !inputs[k].idle;
        s.hold(&pressed, cycles);
        s.hold(&levels, after);
        s.presses += 1;
    };
    let checkpoint = |s: &mut Stimulus, what: &str, pair: [Option<u64>; 2], lights: [bool; 4]| {
        let row = s.snapshots(&levels, tick);
        s.heaps.push(HeapsCheckpoint {
            row,
            what: what.into(),
            heaps: None,
            display: None,
            pair: Some(pair),
            lights: Some(lights),
        });
    };
    let game = SEED_HEAPS;
    let k = 3;
    s.hold(&levels, hold);
    checkpoint(
        s,
        "power-on: the moves page",
        pair(u64::from(game.target)),
        [true, false, false, true],
    );
    press(s, 4, long, hold);
    // The answers page: the solve, then the search.
    let solve = solve_cycles(u64::from(game.target), 2) + 4 * u64::from(game.target) + hold;
    press(s, 3, hold, solve);
    let want = kege_answers(&game, k);
    let answer = |v: Option<&u32>| v.map_or([Some(10), Some(10)], |&v| pair(u64::from(v)));
    checkpoint(
        s,
        "key 3 on the target page: task 19",
        answer(want[0].first()),
        [true, false, false, false],
    );
    press(s, 1, hold, hold);
    checkpoint(
        s,
        "key 1: task 20",
        answer(want[1].first()),
        [false, true, false, false],
    );
    press(s, 2, hold, hold);
    checkpoint(
        s,
        "key 2: task 20's next S",
        answer(want[1].get(1)),
        [false, true, false, false],
    );
}

/// The solver design on `board` from power-on (already in `s`), as a person sets and plays it
/// (the module's doc says which game each board sets): a new game with you first, one round
/// (the largest take that has a control) and, where the board starts a game with the machine
/// first without the set-up pages, such a game; then the reset buttons. The game is recorded
/// in `s.game`; the checkpoints are the sticks left and the machine's take the solver's game
/// leads to.
fn solver_game(board: &Board, timing: &Timing, inputs: &[InputPin], s: &mut Stimulus) {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let hold = 2 * debounce + 2 * tick;
    let short = 3 * debounce;
    let think = timing.think_ticks * tick + 3 * debounce;
    let long = timing.long_press_ticks * tick + hold;
    let digit = timing.digit_ticks.max(1) * tick;
    let roles = input_roles(solver_layout(board.id), inputs);
    let find = |role: SolverIn| roles.iter().find(|(_, r)| *r == role).map(|&(k, _)| k);
    let (setup, _, _) = solver_setup(board.id);
    let game = match setup {
        SolverSetup::Switches => {
            SticksGame::new(40, &[1, 2, 5, 8], Last::Loses).expect("a valid game")
        }
        SolverSetup::Fixed { .. } | SolverSetup::Pages => SticksGame::fort_boyard(),
    };
    let Ok(table) = sticks_table(&game) else {
        return;
    };
    let solver = |left: u64| -> Option<u64> {
        u32::try_from(left)
            .ok()
            .and_then(|l| table.take(l))
            .map(u64::from)
            .filter(|&t| t > 0)
    };
    let count = game.count();
    // The largest take that has a control: a take button, a Go Board key, the take switches.
    let take = game
        .take()
        .iter()
        .copied()
        .filter(|&t| t <= count)
        .filter(|&t| match setup {
            SolverSetup::Fixed { .. } => find(SolverIn::Take(t as u8)).is_some(),
            SolverSetup::Pages => find(SolverIn::Key(t as u8)).is_some(),
            SolverSetup::Switches => {
                (0..4).all(|n| t >> n & 1 == 0 || find(SolverIn::TakeSwitch(n)).is_some()) && t < 16
            }
        })
        .max();
    let mut levels: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let flip = |levels: &mut Vec<bool>, role: SolverIn| {
        if let Some(k) = find(role) {
            levels[k] = !levels[k];
        }
    };
    let press = |s: &mut Stimulus, levels: &[bool], keys: &[SolverIn], cycles: u64, after: u64| {
        let mut pressed = levels.to_vec();
        for &role in keys {
            if let Some(k) = find(role) {
                pressed[k] = !inputs[k].idle;
            }
        }
        s.hold(&pressed, cycles);
        s.hold(levels, after);
        s.presses += 1;
    };
    let checkpoint = |s: &mut Stimulus, levels: &[bool], what: String, left, machine| {
        let row = s.snapshots(levels, digit);
        s.sticks.push(SticksCheckpoint {
            row,
            what,
            left,
            machine,
        });
    };
    let takes: Vec<SolverIn> = (1..=3).map(SolverIn::Take).collect();
    // A new game, you first.
    let started = match setup {
        SolverSetup::Fixed { chord: false } => {
            press(s, &levels, &[SolverIn::Start], hold, short);
            "a short press of start"
        }
        SolverSetup::Fixed { chord: true } => {
            press(s, &levels, &takes, hold, short);
            "a short chord of the take buttons"
        }
        SolverSetup::Pages => {
            // The default game: key 4 held past a second on each of the three pages.
            for _ in 0..3 {
                press(s, &levels, &[SolverIn::Key(4)], long, short);
            }
            "key 4 held on the three set-up pages"
        }
        SolverSetup::Switches => {
            for &t in game.take() {
                flip(&mut levels, SolverIn::TakeSetSwitch(t as u8));
            }
            for n in (0..8).filter(|n| count >> n & 1 == 1) {
                flip(&mut levels, SolverIn::CountSwitch(n));
            }
            if game.last() == Last::Wins {
                flip(&mut levels, SolverIn::LastWinsSwitch);
            }
            let t = take.unwrap_or(0);
            for n in (0..4).filter(|n| t >> n & 1 == 1) {
                flip(&mut levels, SolverIn::TakeSwitch(n));
            }
            s.hold(&levels, short);
            s.presses += 1;
            press(s, &levels, &[SolverIn::NewGame], hold, short);
            "the switches' game and new game"
        }
    };
    checkpoint(s, &levels, format!("{started}: you first"), count, 0);
    // One round.
    if let Some(t) = take {
        let control = match setup {
            SolverSetup::Fixed { .. } => SolverIn::Take(t as u8),
            SolverSetup::Pages => SolverIn::Key(t as u8),
            SolverSetup::Switches => SolverIn::Move,
        };
        press(s, &levels, &[control], hold, think);
        if let Some(m) = solver(count - t) {
            checkpoint(
                s,
                &levels,
                format!("you took {t} of {count}"),
                count - t - m,
                m,
            );
        }
    }
    // A new game, the machine first.
    let machine_first = match setup {
        SolverSetup::Fixed { chord: false } => {
            press(s, &levels, &[SolverIn::Start], long, think);
            Some("a long press of start")
        }
        SolverSetup::Fixed { chord: true } => {
            press(s, &levels, &takes, long, think);
            Some("a long chord of the take buttons")
        }
        SolverSetup::Switches => {
            flip(&mut levels, SolverIn::MachineFirstSwitch);
            s.hold(&levels, short);
            s.presses += 1;
            press(s, &levels, &[SolverIn::NewGame], hold, think);
            Some("the machine-first switch on and new game")
        }
        SolverSetup::Pages => None,
    };
    if let (Some(how), Some(m)) = (machine_first, solver(count)) {
        checkpoint(
            s,
            &levels,
            format!("{how}: the machine first"),
            count - m,
            m,
        );
    }
    if find(SolverIn::Reset).is_some() {
        press(s, &levels, &[SolverIn::Reset], hold, short);
    }
    s.game = Some(game);
}

/// The stick game on `board` from power-on (already in `s`), as a person plays it: one round
/// (the largest take the game and the board's buttons allow), then a new game with the machine
/// first (a long press of the start button, the machine-first switch and the new-game button,
/// or a long chord of the take buttons, whichever the board has), then the reset buttons. Each
/// press is held past the debounce time, and each wait lasts past the machine's think time;
/// after each wait, a checkpoint of [`SNAPSHOTS`] rows of one digit time each, with the count
/// and the machine's take the solver's game leads to.
pub(super) fn sticks_game(
    board: &Board,
    game: &SticksGame,
    timing: &Timing,
    inputs: &[InputPin],
    s: &mut Stimulus,
) {
    let tick = timing.tick_cycles;
    let debounce = timing.debounce_ticks * tick;
    let hold = 2 * debounce + 2 * tick;
    let think = timing.think_ticks * tick + 3 * debounce;
    let long = timing.long_press_ticks * tick + hold;
    let digit = timing.digit_ticks.max(1) * tick;
    let roles = input_roles(sticks_layout(board.id), inputs);
    let find = |role: SticksIn| roles.iter().find(|(_, r)| *r == role).map(|(k, _)| *k);
    let Ok(table) = sticks_table(game) else {
        return;
    };
    let solver = |left: u64| -> Option<u64> {
        u32::try_from(left)
            .ok()
            .and_then(|l| table.take(l))
            .map(u64::from)
            .filter(|&t| t > 0)
    };
    let mut levels: Vec<bool> = inputs.iter().map(|p| p.idle).collect();
    let press = |s: &mut Stimulus, levels: &[bool], keys: &[usize], cycles: u64| {
        let mut pressed = levels.to_vec();
        for &k in keys {
            pressed[k] = !inputs[k].idle;
        }
        s.hold(&pressed, cycles);
        s.hold(levels, think);
        s.presses += 1;
    };
    s.game = Some(game.clone());
    let checkpoint = |s: &mut Stimulus, levels: &[bool], what: String, left, machine| {
        let row = s.snapshots(levels, digit);
        s.sticks.push(SticksCheckpoint {
            row,
            what,
            left,
            machine,
        });
    };
    let count = game.count();
    checkpoint(s, &levels, "power-on".into(), count, 0);
    // One round: the largest take the game allows that has a button.
    let take = roles
        .iter()
        .filter_map(|&(k, r)| match r {
            SticksIn::Take(t) if game.take().contains(&u64::from(t)) && u64::from(t) <= count => {
                Some((u64::from(t), k))
            }
            _ => None,
        })
        .max();
    if let Some((t, k)) = take {
        press(s, &levels, &[k], hold);
        if let Some(m) = solver(count - t) {
            checkpoint(
                s,
                &levels,
                format!("you took {t} of {count}"),
                count - t - m,
                m,
            );
        }
    }
    // A new game, the machine first.
    let takes: Vec<usize> = roles
        .iter()
        .filter(|(_, r)| matches!(r, SticksIn::Take(_)))
        .map(|(k, _)| *k)
        .collect();
    let started = if let Some(k) = find(SticksIn::Start) {
        press(s, &levels, &[k], long);
        Some("a long press of start")
    } else if let (Some(first), Some(new)) = (find(SticksIn::MachineFirst), find(SticksIn::NewGame))
    {
        levels[first] = !levels[first];
        s.hold(&levels, 3 * debounce);
        s.presses += 1;
        press(s, &levels, &[new], hold);
        Some("the machine-first switch on and new game")
    } else if !takes.is_empty() {
        press(s, &levels, &takes, long);
        Some("a long chord of the take buttons")
    } else {
        None
    };
    if let (Some(how), Some(m)) = (started, solver(count)) {
        checkpoint(
            s,
            &levels,
            format!("{how}: the machine first"),
            count - m,
            m,
        );
    }
    // The reset buttons.
    let resets: Vec<usize> = roles
        .iter()
        .filter(|(_, r)| *r == SticksIn::Reset)
        .map(|(k, _)| *k)
        .collect();
    for k in resets {
        let mut pressed = levels.clone();
        pressed[k] = !inputs[k].idle;
        s.hold(&pressed, hold);
        s.hold(&levels, 3 * debounce);
        s.presses += 1;
    }
}

/// The stimulus rows for `$readmemh`: one `width + 32`-bit word per row, the count in bits
/// `[width + 31 : width]` and the input levels below it (bit k = input k), as the testbench
/// reads them.
pub(super) fn stimulus_hex(s: &Stimulus, width: usize) -> String {
    let bits = width + 32;
    let digits = bits.div_ceil(4);
    let mut out = String::new();
    for (n, levels) in &s.rows {
        // Bit i of the word: an input level below `width`, a count bit above.
        let bit = |i: usize| -> bool {
            if i < width {
                levels.get(i).copied().unwrap_or(false)
            } else {
                (n >> (i - width)) & 1 == 1
            }
        };
        let hex: String = (0..digits)
            .rev()
            .map(|d| {
                let nibble = (0..4)
                    .filter(|&b| 4 * d + b < bits && bit(4 * d + b))
                    .fold(0u32, |acc, b| acc | 1 << b);
                char::from_digit(nibble, 16).unwrap_or('0')
            })
            .collect();
        out.push_str(&hex);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardId;

    #[test]
    fn jr01_stimulus_walks_every_position_past_the_debounce() {
        let board = BoardId::Icebreaker.board();
        let timing = Timing::for_design(board, &Design::Jr01);
        let inputs: Vec<InputPin> = ["BTN1", "BTN2", "BTN3"]
            .iter()
            .map(|n| InputPin {
                name: (*n).into(),
                idle: false,
            })
            .collect();
        let s = stimulus(board, &Design::Jr01, &timing, &inputs);
        let positions: Vec<u32> = s.checkpoints.iter().map(|c| c.1).collect();
        let mut sorted = positions.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..8).collect::<Vec<u32>>(), "{positions:?}");
        // Every press is held past the 16 ms debounce (192,000 cycles at 12 MHz).
        for (n, levels) in &s.rows {
            if levels.iter().any(|&l| l) {
                assert!(*n > 192_000, "{n}");
            }
        }
        assert_eq!(s.presses, 7);
        // The hex rows: the count above the 3 levels (BTN1 as bit 0), read back the way the
        // testbench does.
        let hex = stimulus_hex(&s, 3);
        let press_c = u64::from_str_radix(hex.lines().nth(1).unwrap(), 16).unwrap();
        assert_eq!((press_c >> 3, press_c & 7), (3 * 192_000, 0b100));
        // Any width: the count is not scaled by the padding of the levels to whole digits.
        for width in [1, 4, 13, 14, 17] {
            let mut t = Stimulus::default();
            let mut levels = vec![false; width];
            levels[width - 1] = true;
            t.hold(&levels, 6_800_003);
            let hex = stimulus_hex(&t, width);
            let line = hex.lines().next().unwrap();
            assert_eq!(line.len(), (width + 32).div_ceil(4), "{width}: {line}");
            let word = u128::from_str_radix(line, 16).unwrap();
            assert_eq!(word >> width, 6_800_003, "{width}: {line}");
            assert_eq!(
                word & ((1 << width) - 1),
                1 << (width - 1),
                "{width}: {line}"
            );
        }
    }

    /// The input pins of `design`'s top on `board`, as level 8 drives them.
    fn inputs_of(board: BoardId, design: &Design) -> Vec<InputPin> {
        let b = board.board();
        let top = crate::circuit::top::top_verilog(board, design, &Timing::for_design(b, design))
            .unwrap();
        super::super::input_pins(b, &top, b.clock.pin)
    }

    /// Fort Boyard's known answers (take 1-3, the last stick loses: the positions 4k + 1 are
    /// lost, so the winner takes down to one): from 15 the machine takes 2, from 18 it takes 1.
    /// The Alchitry Io's game (40, takes {1, 2, 5, 8}) is checked by a brute force: the machine
    /// leaves a position from which every take loses.
    #[test]
    fn the_solver_design_is_set_and_played_as_each_board_allows() {
        // Whether the player to move wins with `n` sticks left (the last stick loses).
        fn wins(n: u64, takes: &[u64]) -> bool {
            n == 0 || takes.iter().any(|&t| t <= n && !wins(n - t, takes))
        }
        for board in BoardId::ALL {
            let b = board.board();
            let design = Design::Solver;
            let timing = Timing::for_design(b, &design);
            let inputs = inputs_of(board, &design);
            let s = stimulus(b, &design, &timing, &inputs);
            let game = s.game.clone().expect("the game is recorded");
            let cps: Vec<(u64, u64)> = s.sticks.iter().map(|c| (c.left, c.machine)).collect();
            match solver_setup(board).0 {
                SolverSetup::Fixed { .. } => {
                    assert_eq!(cps, [(18, 0), (13, 2), (17, 1)], "{board}: {:?}", s.sticks)
                }
                SolverSetup::Pages => {
                    assert_eq!(cps, [(18, 0), (13, 2)], "{board}: {:?}", s.sticks);
                    assert!(s.sticks[0].what.contains("three set-up pages"));
                }
                SolverSetup::Switches => {
                    let takes = [1, 2, 5, 8];
                    assert_eq!(game.count(), 40);
                    assert_eq!(cps[0], (40, 0), "{board}");
                    // You took 8; the machine's answer leaves a lost position where 32 wins.
                    let (left, m) = cps[1];
                    assert_eq!(left + m, 32, "{board}");
                    assert!(takes.contains(&m));
                    assert!(!wins(32, &takes) || !wins(left, &takes), "{board}");
                    let (left, m) = cps[2];
                    assert_eq!(left + m, 40, "{board}");
                    assert!(!wins(40, &takes) || !wins(left, &takes), "{board}");
                    assert!(s.sticks[2].what.contains("machine-first switch"));
                }
            }
            // The checkpoints' rows exist, and every press is held past the debounce time.
            for c in &s.sticks {
                assert!(c.row + SNAPSHOTS <= s.rows.len(), "{board}");
            }
            let debounce = timing.debounce_ticks * timing.tick_cycles;
            let pressed = |levels: &Vec<bool>| {
                levels.iter().zip(&inputs).any(|(&l, p)| {
                    l != p.idle
                        && b.pin(&p.name)
                            .is_some_and(|p| p.role != crate::board::Role::Switch)
                })
            };
            assert!(
                s.rows.iter().filter(|(_, l)| pressed(l)).count() >= 3,
                "{board}"
            );
            for (n, levels) in &s.rows {
                if pressed(levels) {
                    assert!(*n > debounce, "{board}: a press of {n} cycles");
                }
            }
        }
    }

    /// The seed's heap game on the Alchitry Cu: k and S, the start, the machine's answer to
    /// x+1 (a brute force's), and the answers page showing the
    /// KEGE write-up's answers: task 19 S = 4, task 20 S = 12 and 14.
    #[test]
    fn the_heap_game_reads_the_exam_answers_on_the_answers_page() {
        // The player to move at (a, b): wins or not, the moves to the end, and the move the
        // rule picks (the winner fastest, the loser longest, ties to the earliest of x+1 and x*4
        // on the first heap, then on the second); the move reaching a sum of 61 wins.
        type Memo = std::collections::HashMap<(u64, u64), (bool, u64, (u64, u64))>;
        fn value(a: u64, b: u64, memo: &mut Memo) -> (bool, u64, (u64, u64)) {
            if let Some(&v) = memo.get(&(a, b)) {
                return v;
            }
            let mut best: Option<(bool, u64, (u64, u64))> = None;
            for next in [(a + 1, b), (a * 4, b), (a, b + 1), (a, b * 4)] {
                let (win, depth) = if next.0 + next.1 >= 61 {
                    (true, 1)
                } else {
                    let (w, d, _) = value(next.0, next.1, memo);
                    (!w, d + 1)
                };
                let better = match best {
                    None => true,
                    Some((bw, bd, _)) => match (win, bw) {
                        (true, false) => true,
                        (true, true) => depth < bd,
                        (false, false) => depth > bd,
                        (false, true) => false,
                    },
                };
                if better {
                    best = Some((win, depth, next));
                }
            }
            let v = best.expect("four moves");
            memo.insert((a, b), v);
            v
        }
        for board in [BoardId::AlchitryCu, BoardId::AlchitryCuV2] {
            let b = board.board();
            let inputs = inputs_of(board, &Design::Heaps);
            let timing = Timing::for_design(b, &Design::Heaps);
            let s = stimulus(b, &Design::Heaps, &timing, &inputs);
            let shown: Vec<_> = s.heaps.iter().map(|c| (c.heaps, c.display)).collect();
            assert_eq!(
                shown[0],
                (None, Some([None, Some(3), None, Some(4)])),
                "k and S"
            );
            assert_eq!(shown[1].0, Some((3, 4)), "the start");
            let machine = value(4, 4, &mut Memo::new()).2;
            assert_eq!(shown[2].0, Some(machine), "the machine's answer to x+1");
            let answers: Vec<_> = shown[3..].iter().map(|c| c.1).collect();
            assert_eq!(
                answers,
                [
                    Some([Some(1), Some(9), None, Some(4)]),
                    Some([Some(2), Some(0), Some(1), Some(2)]),
                    Some([Some(2), Some(0), Some(1), Some(4)]),
                ],
                "{board}"
            );
        }
    }
}
