//! The `heaps` design on four keys and two digits (the Go Board): the game set on pages, as
//! the board's solver design is, played on the keys with the two digits showing one heap at a
//! time, and the exam's answers on a page of their own. Here are its core
//! ([`HeapsPagesCore`]), its Go Board layout ([`GO_BOARD`]) and its top builder
//! ([`heaps_pages_top`]); the roles ([`HeapsIn`], [`HeapsOut`]) are the design's, in
//! [`super::heaps`].
//!
//! The Go Board's HX1K has 1,280 logic cells, and the design must fit 60% of them. So the
//! controller offers four moves (`x+1`, `x*2`, `x*3`, `x*4`: one key each), the digits are
//! read from a block RAM ([`PairRom`]) instead of decoded in logic, and the values are stepped
//! by one shared adder. The pages hold the rules, the start and the question while a game or a
//! search runs (they change only on the set-up pages), so the controller and the finder are
//! the compact ones ([`HeapsGame::compact`], [`HeapsAnswers::held`]): they read those
//! registers instead of keeping copies, and the controller's moves are made by its solver's
//! successor unit, idle in play.

use rust_hdl::prelude::*;

use super::heaps::{HeapsIn, HeapsOut};
use super::layout::{Layout, Wire};
use super::pins::{BoardCore, BoardTop, PinPlan};
use super::Timing;
use crate::board::BoardId;
use crate::circuit::board_io::{
    Blinker, Buttons, PairRom, PowerOnReset, PressTimer, TimeBase, Widen, PAIR_L0,
};
use crate::circuit::heaps_answers::HeapsAnswers;
use crate::circuit::heaps_game::HeapsGame;

/// The game at power-on: the exam's (3, S), `x+1` and `x*4`, sum >= 61, the last move wins,
/// S = 1, you first.
pub mod pages_defaults {
    /// The allowed moves (bit `i`: key `i + 1`'s move): `x+1` and `x*4`.
    pub const MOVES: u64 = 0b1001;
    /// The target.
    pub const TARGET: u64 = 61;
    /// The first heap k.
    pub const FIRST: u64 = 3;
    /// The second heap S.
    pub const SECOND: u64 = 1;
}

/// The page [`HeapsPagesCore`] shows (its page register).
pub mod pages {
    /// Keys 1-4 toggle the four moves; the digits show the target.
    pub const MOVES: u64 = 0;
    /// Keys 1 and 2 step the target down and up.
    pub const TARGET: u64 = 1;
    /// Keys 1 and 2 step the first heap k.
    pub const FIRST: u64 = 2;
    /// Keys 1 and 2 step the second heap S.
    pub const SECOND: u64 = 3;
    /// Keys 1 and 2 flip the rule and who starts.
    pub const RULE: u64 = 4;
    /// The game is played.
    pub const PLAY: u64 = 5;
    /// The exam's answers for (k, S).
    pub const ANSWERS: u64 = 6;
}

/// The Go Board: set the game on five pages, then play it (keys 1-4 make the four moves on the
/// heap the digits show, LED1 or LED2 saying which); see [`HeapsIn::Key`] and docs/boards.md.
pub const GO_BOARD: Layout<HeapsIn, HeapsOut> = Layout {
    wires: &[
        Wire::Input("i_Switch_1", HeapsIn::Key(1)),
        Wire::Input("i_Switch_2", HeapsIn::Key(2)),
        Wire::Input("i_Switch_3", HeapsIn::Key(3)),
        Wire::Input("i_Switch_4", HeapsIn::Key(4)),
        Wire::Output("o_LED_1", HeapsOut::Light(1)),
        Wire::Output("o_LED_2", HeapsOut::Light(2)),
        Wire::Output("o_LED_3", HeapsOut::Light(3)),
        Wire::Output("o_LED_4", HeapsOut::Light(4)),
        Wire::Digit("Segment1", HeapsOut::TensSegment),
        Wire::Digit("Segment2", HeapsOut::OnesSegment),
    ],
    held_lights: &["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"],
    pll_hz: None,
};

/// The heap-game top on a board with four keys and two digits (the Go Board).
pub fn heaps_pages_top(board: BoardId, timing: &Timing) -> BoardTop<HeapsPagesCore> {
    let plan = PinPlan::new(board.board(), &GO_BOARD, 4, None);
    BoardTop::new(HeapsPagesCore::new(timing), plan, timing.pull_down)
}

/// The heap game on four keys, four LEDs and two digits: set it on pages, the FPGA solves it
/// ([`HeapsGame`], four moves), play it; or read the exam's answers ([`HeapsAnswers`]).
///
/// ```text
///             +-------------------------------------------------------+
///  keys[4] -->| Buttons<4>, PressTimer (key 4), PowerOnReset          |--> lights[4]
///  clock   -->| page, moves, target, k, S, rule, shown heap registers |--> tens_segments[7]
///             | HeapsGame<6, 7, 1, 3, 2, 8>, HeapsAnswers<6, 7>        |--> ones_segments[7]
///             | Blinker, PairRom (the digits, from block RAM)         |--> game_over, blink, holding
///             +-------------------------------------------------------+
/// ```
///
/// Key 4 held one second and released moves to the next page ([`pages`]; `holding`
/// lights every LED once the second has passed). The pages:
/// * **moves**: keys 1-4 toggle `x+1`, `x*2`, `x*3`, `x*4` (LED *k*: key *k*'s move allowed);
///   the digits show the target;
/// * **target**, **first heap k**, **second heap S**: keys 1 and 2 step the value down and up
///   (0 to 63, wrapping); the digits show it; the LEDs the moves (target page), LED1 (k page),
///   LED2 (S page);
/// * **rule**: key 1 flips the rule (`L1`: the last move wins, `L0`: it loses; LED1), key 2
///   who starts (LED2: the machine); leaving it solves the game and starts it at (k, S).
///
/// Key 3 on any of these pages but the moves page opens the answers page.
/// * **Play**: the digits show one heap, LED1 the first or LED2 the second; keys 1 to 3 make
///   `x+1`, `x*2`, `x*3` on it, key 4 `x*4` on release, key 4 held one second shows (and
///   chooses) the other heap. After the machine's move the digits show the heap it moved.
///   LED3: your move was refused; LED4: your turn. At the end every LED blinks (slowly if you
///   won) and the digits show the last heap moved (its last two digits: a heap can end above
///   99); key 4 returns to the moves page.
/// * **Answers** (key 3 on a set-up page but the moves page): the chip solves the game, then
///   LED1, LED2 or LED3 says the task (19, 20, 21) and the digits the smallest S of (k, S), S
///   from 1 to target - k - 1, that answers it (`--` when none); key 1 the next task, key 2
///   the next S that answers it (task 20 asks for them all); key 4 held one second returns to
///   the moves page.
#[derive(LogicBlock)]
pub struct HeapsPagesCore {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys 1-4, active high.
    pub keys: Signal<In, Bits<4>>,
    /// LED1-LED4 (see the block docs).
    pub lights: Signal<Out, Bits<4>>,
    /// Segments A..G of the left (tens) digit.
    pub tens_segments: Signal<Out, Bits<7>>,
    /// Segments A..G of the right (ones) digit.
    pub ones_segments: Signal<Out, Bits<7>>,
    /// The game is over (only while playing).
    pub game_over: Signal<Out, Bit>,
    /// The game-over blink level (slow if you won, fast if not).
    pub blink: Signal<Out, Bit>,
    /// Key 4 has been held past the long press.
    pub holding: Signal<Out, Bit>,
    short_release: Signal<Local, Bit>,
    long_release: Signal<Local, Bit>,
    setting: Signal<Local, Bit>,
    playing: Signal<Local, Bit>,
    answering: Signal<Local, Bit>,
    new_game: Signal<Local, Bit>,
    move_valid: Signal<Local, Bit>,
    stepping: Signal<Local, Bit>,
    delta: Signal<Local, Bits<6>>,
    edited: Signal<Local, Bits<6>>,
    stepped: Signal<Local, Bits<6>>,
    machine_moving: Signal<Local, Bit>,
    lit_1: Signal<Local, Bit>,
    lit_2: Signal<Local, Bit>,
    lit_3: Signal<Local, Bit>,
    lit_4: Signal<Local, Bit>,
    mask_1: Signal<Local, Bits<4>>,
    mask_2: Signal<Local, Bits<4>>,
    mask_3: Signal<Local, Bits<4>>,
    mask_4: Signal<Local, Bits<4>>,
    code: Signal<Local, Bits<8>>,
    lit_digits: Signal<Local, Bits<7>>,
    time_base: TimeBase,
    buttons: Buttons<4>,
    press: PressTimer,
    por: PowerOnReset,
    game: HeapsGame<6, 7, 1, 3, 2, 8>,
    answers: HeapsAnswers<6, 7>,
    blinker: Blinker,
    digits: PairRom,
    page_r: DFF<Bits<3>>,
    moves_r: DFF<Bits<4>>,
    target_r: DFF<Bits<6>>,
    first_r: DFF<Bits<6>>,
    second_r: DFF<Bits<6>>,
    last_wins_r: DFF<Bits<1>>,
    machine_first_r: DFF<Bit>,
    shown_r: DFF<Bit>,
    move_r: DFF<Bits<2>>,
    question_r: DFF<Bits<2>>,
    pending_find: DFF<Bit>,
    new_game_q: DFF<Bit>,
    move_valid_q: DFF<Bit>,
    machine_q: DFF<Bit>,
    target8: Widen<6, 8>,
    first8: Widen<6, 8>,
    second8: Widen<6, 8>,
    found8: Widen<6, 8>,
    rule8: Widen<1, 8>,
    page_moves: Constant<Bits<3>>,
    page_target: Constant<Bits<3>>,
    page_first: Constant<Bits<3>>,
    page_second: Constant<Bits<3>>,
    page_rule: Constant<Bits<3>>,
    page_play: Constant<Bits<3>>,
    page_answers: Constant<Bits<3>>,
    page_one: Constant<Bits<3>>,
    value_one: Constant<Bits<6>>,
    value_minus_one: Constant<Bits<6>>,
    value_zero: Constant<Bits<6>>,
    moves_default: Constant<Bits<4>>,
    target_default: Constant<Bits<6>>,
    first_default: Constant<Bits<6>>,
    second_default: Constant<Bits<6>>,
    toggle_0: Constant<Bits<4>>,
    toggle_1: Constant<Bits<4>>,
    toggle_2: Constant<Bits<4>>,
    toggle_3: Constant<Bits<4>>,
    light_1: Constant<Bits<4>>,
    light_2: Constant<Bits<4>>,
    light_3: Constant<Bits<4>>,
    light_4: Constant<Bits<4>>,
    lights_none: Constant<Bits<4>>,
    move_0: Constant<Bits<2>>,
    move_1: Constant<Bits<2>>,
    move_2: Constant<Bits<2>>,
    move_3: Constant<Bits<2>>,
    question_zero: Constant<Bits<2>>,
    question_one: Constant<Bits<2>>,
    question_last: Constant<Bits<2>>,
    rule_loses: Constant<Bits<8>>,
    rule_one: Constant<Bits<1>>,
    all_segments: Constant<Bits<7>>,
    no_segments: Constant<Bits<7>>,
}

impl HeapsPagesCore {
    /// The core with `timing`'s time base, debounce, long press, think time and blink,
    /// `connect_all()` done.
    pub fn new(timing: &Timing) -> Self {
        let timing = &coarse(timing);
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            lights: Default::default(),
            tens_segments: Default::default(),
            ones_segments: Default::default(),
            game_over: Default::default(),
            blink: Default::default(),
            holding: Default::default(),
            short_release: Default::default(),
            long_release: Default::default(),
            setting: Default::default(),
            playing: Default::default(),
            answering: Default::default(),
            new_game: Default::default(),
            move_valid: Default::default(),
            stepping: Default::default(),
            delta: Default::default(),
            edited: Default::default(),
            stepped: Default::default(),
            machine_moving: Default::default(),
            lit_1: Default::default(),
            lit_2: Default::default(),
            lit_3: Default::default(),
            lit_4: Default::default(),
            mask_1: Default::default(),
            mask_2: Default::default(),
            mask_3: Default::default(),
            mask_4: Default::default(),
            code: Default::default(),
            lit_digits: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            press: PressTimer::new(timing.long_press_ticks),
            por: PowerOnReset::new(),
            game: HeapsGame::compact(timing.think_ticks),
            answers: HeapsAnswers::held(),
            blinker: Blinker::new(timing.blink_ticks),
            digits: PairRom::new(),
            page_r: Default::default(),
            moves_r: Default::default(),
            target_r: Default::default(),
            first_r: Default::default(),
            second_r: Default::default(),
            last_wins_r: Default::default(),
            machine_first_r: Default::default(),
            shown_r: Default::default(),
            move_r: Default::default(),
            question_r: Default::default(),
            pending_find: Default::default(),
            new_game_q: Default::default(),
            move_valid_q: Default::default(),
            machine_q: Default::default(),
            target8: Widen::new(),
            first8: Widen::new(),
            second8: Widen::new(),
            found8: Widen::new(),
            rule8: Widen::new(),
            page_moves: constant(pages::MOVES),
            page_target: constant(pages::TARGET),
            page_first: constant(pages::FIRST),
            page_second: constant(pages::SECOND),
            page_rule: constant(pages::RULE),
            page_play: constant(pages::PLAY),
            page_answers: constant(pages::ANSWERS),
            page_one: constant(1),
            value_one: constant(1),
            value_minus_one: constant(63),
            value_zero: constant(0),
            moves_default: constant(pages_defaults::MOVES),
            target_default: constant(pages_defaults::TARGET),
            first_default: constant(pages_defaults::FIRST),
            second_default: constant(pages_defaults::SECOND),
            toggle_0: constant(1),
            toggle_1: constant(2),
            toggle_2: constant(4),
            toggle_3: constant(8),
            light_1: constant(1),
            light_2: constant(2),
            light_3: constant(4),
            light_4: constant(8),
            lights_none: constant(0),
            move_0: constant(0),
            move_1: constant(1),
            move_2: constant(2),
            move_3: constant(3),
            question_zero: constant(0),
            question_one: constant(1),
            question_last: constant(2),
            rule_loses: constant(PAIR_L0),
            rule_one: constant(1),
            all_segments: constant(0x7F),
            no_segments: constant(0),
        };
        block.connect_all();
        block
    }
}

/// A constant of the width its field has.
fn constant<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// `timing` with a tick as long as its debounce period (16 ms on a board), every time in those
/// ticks (rounded up): the buttons are sampled on every tick, and each timer counts a sixteenth
/// of the ticks, so every counter is four bits shorter.
fn coarse(timing: &Timing) -> Timing {
    let per = timing.debounce_ticks.max(1);
    let ticks = |n: u64| n.div_ceil(per).max(1);
    Timing {
        tick_cycles: timing.tick_cycles * per,
        debounce_ticks: 1,
        think_ticks: ticks(timing.think_ticks),
        blink_ticks: ticks(timing.blink_ticks),
        long_press_ticks: ticks(timing.long_press_ticks),
        digit_ticks: ticks(timing.digit_ticks),
        pull_down: timing.pull_down,
    }
}

impl Logic for HeapsPagesCore {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, time_base, buttons, press, por, game, answers, blinker, digits);
        dff_setup!(
            self,
            clock,
            page_r,
            moves_r,
            target_r,
            first_r,
            second_r,
            last_wins_r,
            machine_first_r,
            shown_r,
            move_r,
            question_r,
            pending_find,
            new_game_q,
            move_valid_q,
            machine_q
        );
        self.buttons.tick.next = self.time_base.tick.val();
        self.press.tick.next = self.time_base.tick.val();
        self.game.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val();
        self.press.level.next = self.buttons.level.val().get_bit(3);
        self.por.request.next = false;
        self.short_release.next = self.press.released.val() & !self.press.held_long.val();
        self.long_release.next = self.press.released.val() & self.press.held_long.val();

        self.playing.next = self.page_r.q.val() == self.page_play.val();
        self.answering.next = self.page_r.q.val() == self.page_answers.val();
        self.setting.next = !self.playing.val() & !self.answering.val();
        self.new_game.next = false;
        self.move_valid.next = false;

        // One adder steps the value of the page shown: the target, k or S.
        self.edited.next = self.target_r.q.val();
        if self.page_r.q.val() == self.page_first.val() {
            self.edited.next = self.first_r.q.val();
        }
        if self.page_r.q.val() == self.page_second.val() {
            self.edited.next = self.second_r.q.val();
        }
        self.delta.next = self.value_one.val();
        if self.buttons.pressed.val().get_bit(0) {
            self.delta.next = self.value_minus_one.val();
        }
        self.stepped.next = self.edited.val() + self.delta.val();
        self.stepping.next =
            self.buttons.pressed.val().get_bit(0) | self.buttons.pressed.val().get_bit(1);

        // The machine has just moved: show the heap it moved.
        self.machine_moving.next =
            !self.game.human_turn.val() & !self.game.game_over.val() & !self.game.solving.val();
        self.machine_q.d.next = self.machine_moving.val();
        if self.machine_q.q.val() & !self.machine_moving.val() {
            self.shown_r.d.next = self.game.machine_heap.val();
        }

        if self.setting.val() {
            if self.long_release.val() {
                self.page_r.d.next = self.page_r.q.val() + self.page_one.val();
                if self.page_r.q.val() == self.page_rule.val() {
                    self.new_game.next = true;
                    self.shown_r.d.next = false;
                }
            }
            if self.page_r.q.val() == self.page_moves.val() {
                if self.buttons.pressed.val().get_bit(0) {
                    self.moves_r.d.next = self.moves_r.q.val() ^ self.toggle_0.val();
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.moves_r.d.next = self.moves_r.q.val() ^ self.toggle_1.val();
                }
                if self.buttons.pressed.val().get_bit(2) {
                    self.moves_r.d.next = self.moves_r.q.val() ^ self.toggle_2.val();
                }
                if self.short_release.val() {
                    self.moves_r.d.next = self.moves_r.q.val() ^ self.toggle_3.val();
                }
            }
            if self.stepping.val() {
                if self.page_r.q.val() == self.page_target.val() {
                    self.target_r.d.next = self.stepped.val();
                }
                if self.page_r.q.val() == self.page_first.val() {
                    self.first_r.d.next = self.stepped.val();
                }
                if self.page_r.q.val() == self.page_second.val() {
                    self.second_r.d.next = self.stepped.val();
                }
            }
            if self.page_r.q.val() == self.page_rule.val() {
                if self.buttons.pressed.val().get_bit(0) {
                    self.last_wins_r.d.next = !self.last_wins_r.q.val();
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.machine_first_r.d.next = !self.machine_first_r.q.val();
                }
            }
            // Key 3 opens the answers page from every set-up page but the moves page.
            if (self.page_r.q.val() != self.page_moves.val())
                & self.buttons.pressed.val().get_bit(2)
            {
                self.page_r.d.next = self.page_answers.val();
                self.new_game.next = true;
                self.pending_find.d.next = true;
            }
        } else if self.playing.val() {
            if self.game.game_over.val() {
                if self.press.released.val() {
                    self.page_r.d.next = self.page_moves.val();
                }
            } else {
                if self.long_release.val() {
                    self.shown_r.d.next = !self.shown_r.q.val();
                }
                if self.buttons.pressed.val().get_bit(0) {
                    self.move_r.d.next = self.move_0.val();
                    self.move_valid.next = true;
                }
                if self.buttons.pressed.val().get_bit(1) {
                    self.move_r.d.next = self.move_1.val();
                    self.move_valid.next = true;
                }
                if self.buttons.pressed.val().get_bit(2) {
                    self.move_r.d.next = self.move_2.val();
                    self.move_valid.next = true;
                }
                if self.short_release.val() {
                    self.move_r.d.next = self.move_3.val();
                    self.move_valid.next = true;
                }
            }
        } else {
            if self.buttons.pressed.val().get_bit(0) {
                self.question_r.d.next = self.question_r.q.val() + self.question_one.val();
                if self.question_r.q.val() == self.question_last.val() {
                    self.question_r.d.next = self.question_zero.val();
                }
                self.pending_find.d.next = true;
            }
            if self.long_release.val() {
                self.page_r.d.next = self.page_moves.val();
            }
        }
        // The answers' search starts once the solve is done (a new game is one edge on its
        // way, then the solve runs).
        self.answers.find.next = false;
        if self.pending_find.q.val()
            & !self.new_game_q.q.val()
            & !self.game.solving.val()
            & !self.new_game.val()
        {
            self.answers.find.next = true;
            self.pending_find.d.next = false;
        }
        self.answers.advance.next = self.answering.val() & self.buttons.pressed.val().get_bit(1);
        if self.por.reset.val() {
            self.page_r.d.next = self.page_moves.val();
            self.moves_r.d.next = self.moves_default.val();
            self.target_r.d.next = self.target_default.val();
            self.first_r.d.next = self.first_default.val();
            self.second_r.d.next = self.second_default.val();
            self.last_wins_r.d.next = self.rule_one.val();
            self.machine_first_r.d.next = false;
            self.shown_r.d.next = false;
            self.question_r.d.next = self.question_zero.val();
            self.pending_find.d.next = false;
            self.new_game.next = false;
            self.move_valid.next = false;
        }

        // The controller: the set-up's game, the start (k, S) in play and (0, 0), no game,
        // otherwise; the move inputs through one register.
        self.new_game_q.d.next = self.new_game.val();
        self.move_valid_q.d.next = self.move_valid.val();
        self.game.reset.next = self.por.reset.val();
        self.game.adds.next = self.moves_r.q.val().get_bits::<1>(0);
        self.game.muls.next = self.moves_r.q.val().get_bits::<3>(1);
        self.game.target.next = self.target_r.q.val();
        self.game.last_wins.next = self.last_wins_r.q.val().any();
        self.game.machine_first.next = self.machine_first_r.q.val();
        // In the answers the second heap is 0: a start outside the game, over at once, so
        // that the finder can read the table.
        self.game.start_a.next = self.first_r.q.val();
        self.game.start_b.next = self.value_zero.val();
        if self.playing.val() {
            self.game.start_b.next = self.second_r.q.val();
        }
        self.game.new_game.next = self.new_game_q.q.val();
        self.game.heap.next = self.shown_r.q.val();
        self.game.move_index.next = self.move_r.q.val();
        self.game.move_valid.next = self.move_valid_q.q.val();
        self.game.probe.next = self.answers.probe.val();
        self.game.probe_a.next = self.answers.probe_a.val();
        self.game.probe_b.next = self.answers.probe_b.val();
        self.answers.question.next = self.question_r.q.val();
        self.answers.first.next = self.first_r.q.val();
        self.answers.target.next = self.target_r.q.val();
        self.answers.probe_winning.next = self.game.probe_winning.val();
        self.answers.probe_depth.next = self.game.probe_depth.val();
        self.answers.probe_blunder.next = self.game.probe_blunder.val();

        // The lights: the moves on the moves and target pages, else one bit per LED.
        self.lit_1.next = false;
        self.lit_2.next = false;
        self.lit_3.next = false;
        self.lit_4.next = false;
        if self.page_r.q.val() == self.page_first.val() {
            self.lit_1.next = true;
        }
        if self.page_r.q.val() == self.page_second.val() {
            self.lit_2.next = true;
        }
        if self.page_r.q.val() == self.page_rule.val() {
            self.lit_1.next = self.last_wins_r.q.val().any();
            self.lit_2.next = self.machine_first_r.q.val();
        }
        if self.playing.val() {
            self.lit_1.next = !self.shown_r.q.val();
            self.lit_2.next = self.shown_r.q.val();
            self.lit_3.next = self.game.illegal.val();
            self.lit_4.next = self.game.human_turn.val();
        }
        if self.answering.val() {
            self.lit_1.next = self.question_r.q.val() == self.question_zero.val();
            self.lit_2.next = self.question_r.q.val() == self.question_one.val();
            self.lit_3.next = self.question_r.q.val() == self.question_last.val();
        }
        self.mask_1.next = self.lights_none.val();
        self.mask_2.next = self.lights_none.val();
        self.mask_3.next = self.lights_none.val();
        self.mask_4.next = self.lights_none.val();
        if self.lit_1.val() {
            self.mask_1.next = self.light_1.val();
        }
        if self.lit_2.val() {
            self.mask_2.next = self.light_2.val();
        }
        if self.lit_3.val() {
            self.mask_3.next = self.light_3.val();
        }
        if self.lit_4.val() {
            self.mask_4.next = self.light_4.val();
        }
        self.lights.next =
            self.mask_1.val() | self.mask_2.val() | self.mask_3.val() | self.mask_4.val();
        if (self.page_r.q.val() == self.page_moves.val())
            | (self.page_r.q.val() == self.page_target.val())
        {
            self.lights.next = self.moves_r.q.val();
        }
        self.game_over.next = self.playing.val() & self.game.game_over.val();
        self.holding.next = self.press.held_long.val();
        self.blink.next = self.blinker.phase.val().get_bit(0);
        if self.game.human_won.val() {
            self.blink.next = self.blinker.phase.val().get_bit(2);
        }

        // The digits: the page's value (the target on the moves page), the rule, the heap
        // shown, or the answer (0, shown as `--`, when there is none).
        self.target8.narrow.next = self.target_r.q.val();
        self.first8.narrow.next = self.first_r.q.val();
        self.second8.narrow.next = self.second_r.q.val();
        self.found8.narrow.next = self.answers.s.val();
        self.rule8.narrow.next = self.last_wins_r.q.val();
        self.code.next = self.target8.wide.val();
        if self.page_r.q.val() == self.page_first.val() {
            self.code.next = self.first8.wide.val();
        }
        if self.page_r.q.val() == self.page_second.val() {
            self.code.next = self.second8.wide.val();
        }
        if self.page_r.q.val() == self.page_rule.val() {
            self.code.next = self.rule_loses.val() | self.rule8.wide.val();
        }
        if self.playing.val() {
            self.code.next = self.game.heap_a.val();
            if self.shown_r.q.val() {
                self.code.next = self.game.heap_b.val();
            }
        }
        if self.answering.val() {
            self.code.next = self.found8.wide.val();
        }
        self.digits.code.next = self.code.val();
        // Dark in the cycle of the power-on reset, before the digits' block RAM has read.
        self.lit_digits.next = self.all_segments.val();
        if self.por.reset.val() {
            self.lit_digits.next = self.no_segments.val();
        }
        self.tens_segments.next = self.digits.tens.val() & self.lit_digits.val();
        self.ones_segments.next = self.digits.ones.val() & self.lit_digits.val();
    }
}

impl BoardCore for HeapsPagesCore {
    const KEYS: usize = 4;
    /// The blinker's phase bits the lights do not use, the buttons' levels of keys 1 to 3
    /// (only their presses count) and key 4's press (its press timer reads its level), the
    /// controller outputs this board does not show (the machine's move index), the answers
    /// finder's `busy` and `found` (its `s` is 0, shown as `--`, when there is no answer) and
    /// the solver output the controller does not read (`busy`).
    const UNREAD: &'static [&'static str] = &[
        "blinker$phase",
        "buttons$level",
        "buttons$pressed",
        "game$machine_move",
        "answers$busy",
        "answers$found",
        "solver$busy",
    ];

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn set_keys(&mut self, keys: u64) {
        self.keys.next = keys.into();
    }

    fn output(&self, port: &str) -> u64 {
        match port {
            "lights" => self.lights.val().to_u64(),
            "tens_segments" => self.tens_segments.val().to_u64(),
            "ones_segments" => self.ones_segments.val().to_u64(),
            "game_over" => u64::from(self.game_over.val()),
            "blink" => u64::from(self.blink.val()),
            "holding" => u64::from(self.holding.val()),
            _ => panic!("HeapsPagesCore has no output `{port}`"),
        }
    }
}
