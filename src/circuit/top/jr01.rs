//! The `jr01` design on a board: set the position A B C, read the machine's answer X Y Z.
//!
//! Here is all of it: its roles ([`Jr01In`], [`Jr01Out`]), its [`Layout`] on every board
//! ([`layout`]), its board-independent core ([`Jr01BoardCore`] around the [`Jr01Panel`]) and the
//! top builder ([`jr01_top`]).

use std::fmt;

use rust_hdl::prelude::*;

use super::layout::{segment_letter, BoardDesign, Layout, Wire};
use super::pins::{BoardCore, BoardTop, InRole, OutRole, PinPlan};
use super::{Timing, TopError};
use crate::board::BoardId;
use crate::circuit::board_io::{
    Blinker, Buttons, MuxDisplay, SevenSegment, TimeBase, Toggle, Widen,
};
use crate::circuit::Jr01Strategy;

/// A J.R. 01 control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Jr01In {
    /// A push button: each press flips position bit `n` (2 = A, 1 = B, 0 = C).
    Toggle(u8),
    /// A switch: its (debounced) level is position bit `n`.
    Switch(u8),
    /// Present on the port but not used.
    Unused,
}

/// A J.R. 01 display element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Jr01Out {
    /// Position bit `n` (2 = A, 1 = B, 0 = C).
    Position(u8),
    /// Answer bit `n` (2 = X, 1 = Y, 0 = Z).
    Answer(u8),
    /// Position bit `n` while [`Jr01Out::ShowingPosition`] is lit, answer bit
    /// `n` while it is dark; they alternate every second.
    Alternating(u8),
    /// Lit while the alternating LEDs show the position.
    ShowingPosition,
    /// Segment `n` of a digit showing the position as a number 0-7.
    PositionSegment(u8),
    /// Segment `n` of a digit showing the answer as a number 0-7.
    AnswerSegment(u8),
    /// Segment `n` of the multiplexed display: position in the leftmost
    /// digit, answer in the rightmost.
    DisplaySegment(u8),
    /// Digit select `n` of the multiplexed display.
    DigitSelect(u8),
    /// Always dark.
    Dark,
}

impl fmt::Display for Jr01In {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jr01In::Toggle(n) => write!(f, "toggle {}", abc(*n)),
            Jr01In::Switch(n) => write!(f, "switch {}", abc(*n)),
            Jr01In::Unused => f.write_str("unused"),
        }
    }
}

impl fmt::Display for Jr01Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seg = |n: &u8| segment_letter(*n);
        match self {
            Jr01Out::Position(n) => write!(f, "position {}", abc(*n)),
            Jr01Out::Answer(n) => write!(f, "answer {}", xyz(*n)),
            Jr01Out::Alternating(n) => write!(f, "{} or {}", abc(*n), xyz(*n)),
            Jr01Out::ShowingPosition => f.write_str("showing the position"),
            Jr01Out::PositionSegment(n) => write!(f, "position digit segment {}", seg(n)),
            Jr01Out::AnswerSegment(n) => write!(f, "answer digit segment {}", seg(n)),
            Jr01Out::DisplaySegment(n) => write!(f, "display segment {}", seg(n)),
            Jr01Out::DigitSelect(n) => write!(f, "digit select {n}"),
            Jr01Out::Dark => f.write_str("dark"),
        }
    }
}

fn abc(n: u8) -> char {
    ['C', 'B', 'A'].get(usize::from(n)).copied().unwrap_or('?')
}

fn xyz(n: u8) -> char {
    ['Z', 'Y', 'X'].get(usize::from(n)).copied().unwrap_or('?')
}

impl InRole for Jr01In {
    fn key(self) -> Option<usize> {
        match self {
            Jr01In::Toggle(n) | Jr01In::Switch(n) => Some(usize::from(n)),
            Jr01In::Unused => None,
        }
    }
}

impl OutRole for Jr01Out {
    fn source(self) -> Option<(&'static str, usize)> {
        let n = |n: u8| usize::from(n);
        match self {
            Jr01Out::Position(b) => Some(("position", n(b))),
            Jr01Out::Answer(b) => Some(("answer", n(b))),
            Jr01Out::Alternating(b) => Some(("alternating", n(b))),
            Jr01Out::ShowingPosition => Some(("showing_position", 0)),
            Jr01Out::PositionSegment(b) => Some(("position_segments", n(b))),
            Jr01Out::AnswerSegment(b) => Some(("answer_segments", n(b))),
            Jr01Out::DisplaySegment(b) => Some(("segments", n(b))),
            Jr01Out::DigitSelect(b) => Some(("select", n(b))),
            Jr01Out::Dark => None,
        }
    }

    fn blinks(self) -> bool {
        false
    }
}

/// The iCEBreaker: the snap-off buttons toggle A B C, the snap-off green LEDs show them, and
/// X Y Z are on LED5 and the main board's red and green LEDs. LED1 (the red centre LED) and
/// BTN_N are not used.
const ICEBREAKER: Layout<Jr01In, Jr01Out> = Layout {
    wires: &[
        Wire::Input("BTN1", Jr01In::Toggle(2)),
        Wire::Input("BTN2", Jr01In::Toggle(1)),
        Wire::Input("BTN3", Jr01In::Toggle(0)),
        Wire::Output("LED2", Jr01Out::Position(2)),
        Wire::Output("LED3", Jr01Out::Position(1)),
        Wire::Output("LED4", Jr01Out::Position(0)),
        Wire::Output("LED5", Jr01Out::Answer(2)),
        Wire::Output("LEDR_N", Jr01Out::Answer(1)),
        Wire::Output("LEDG_N", Jr01Out::Answer(0)),
    ],
    held_lights: &[],
    pll_hz: None,
};

/// The Go Board: switches 1-3 toggle A B C, LEDs 1-3 show them, the left digit shows the
/// position and the right digit the answer (0-7). Switch 4 and LED 4 are not used.
const GO_BOARD: Layout<Jr01In, Jr01Out> = Layout {
    wires: &[
        Wire::Input("i_Switch_1", Jr01In::Toggle(2)),
        Wire::Input("i_Switch_2", Jr01In::Toggle(1)),
        Wire::Input("i_Switch_3", Jr01In::Toggle(0)),
        Wire::Output("o_LED_1", Jr01Out::Position(2)),
        Wire::Output("o_LED_2", Jr01Out::Position(1)),
        Wire::Output("o_LED_3", Jr01Out::Position(0)),
        Wire::Digit("Segment1", Jr01Out::PositionSegment),
        Wire::Digit("Segment2", Jr01Out::AnswerSegment),
    ],
    held_lights: &[],
    pll_hz: None,
};

/// The Alchitry Io (both versions): the three rightmost DIP switches set C B A (`io_dip[0]` =
/// C); the LEDs above them show the position, io_led[6..4] the answer X Y Z; the leftmost
/// digit shows the position, the rightmost the answer.
const ALCHITRY_IO: Layout<Jr01In, Jr01Out> = Layout {
    wires: &[
        Wire::InputBus(
            "io_dip",
            &[Jr01In::Switch(0), Jr01In::Switch(1), Jr01In::Switch(2)],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                Jr01Out::Position(0),
                Jr01Out::Position(1),
                Jr01Out::Position(2),
                Jr01Out::Dark,
                Jr01Out::Answer(0),
                Jr01Out::Answer(1),
                Jr01Out::Answer(2),
                Jr01Out::Dark,
            ],
        ),
        Wire::Display("io_display", Jr01Out::DisplaySegment, Jr01Out::DigitSelect),
    ],
    held_lights: &[],
    pll_hz: None,
};

/// The iCEstick, with three buttons wired by the user to PMOD J2 pins 1-3 (to GND): five LEDs
/// cannot show six bits, so D1 D2 D3 alternate every second between the position and the
/// answer, and the green D5 says which (lit: position). D4 is not used.
const ICESTICK: Layout<Jr01In, Jr01Out> = Layout {
    wires: &[
        Wire::Input("BTN1", Jr01In::Toggle(2)),
        Wire::Input("BTN2", Jr01In::Toggle(1)),
        Wire::Input("BTN3", Jr01In::Toggle(0)),
        Wire::Output("D1", Jr01Out::Alternating(2)),
        Wire::Output("D2", Jr01Out::Alternating(1)),
        Wire::Output("D3", Jr01Out::Alternating(0)),
        Wire::Output("D5", Jr01Out::ShowingPosition),
    ],
    held_lights: &[],
    pll_hz: None,
};

/// The design's layout on `board`.
pub fn layout(board: BoardId) -> &'static Layout<Jr01In, Jr01Out> {
    match board {
        BoardId::Icebreaker => &ICEBREAKER,
        BoardId::GoBoard => &GO_BOARD,
        BoardId::AlchitryCu | BoardId::AlchitryCuV2 => &ALCHITRY_IO,
        BoardId::Icestick => &ICESTICK,
    }
}

/// The design in [`super::BOARD_DESIGNS`].
pub const BOARD_DESIGN: BoardDesign = BoardDesign {
    name: "jr01",
    pin_uses: |board| Some(layout(board.id).pin_uses(board)),
    pll_hz: |board| layout(board).pll_hz,
    check: |board| layout(board.id).check(board),
    mapping: crate::flow::yosys::Mapping::Abc9,
};

/// The J.R. 01 strategy block: the same circuit as `hdl/jr01_strategy.v`
/// ([`Jr01Strategy::from_game`]: the game's table, minimised, the seed's cover among equals).
pub fn jr01_strategy() -> Result<Jr01Strategy, TopError> {
    Ok(Jr01Strategy::from_game()?)
}

/// The J.R. 01 top for `board`: the core, its keys switches if the layout gives J.R. 01
/// switches rather than push buttons.
pub fn jr01_top(board: BoardId, timing: &Timing) -> Result<BoardTop<Jr01BoardCore>, TopError> {
    let layout = layout(board);
    let switches = layout.wires.iter().any(|w| match w {
        Wire::Input(_, role) => matches!(role, Jr01In::Switch(_)),
        Wire::InputBus(_, roles) => roles.iter().any(|r| matches!(r, Jr01In::Switch(_))),
        _ => false,
    });
    let core = Jr01BoardCore::new([jr01_strategy()?, jr01_strategy()?], timing, switches);
    let plan = PinPlan::new(board.board(), layout, Jr01BoardCore::KEYS, None);
    Ok(BoardTop::new(core, plan, timing.pull_down))
}

/// J.R. 01 with three toggles: each press flips one position bit, and the
/// strategy answers combinationally.
///
/// ```text
///               +-----------------------------------+
///   flip[3] --->| Toggle<3> --> Jr01Strategy        |---> position[3]  A B C (A = bit 2)
///   clock   --->|                                   |---> answer[3]    X Y Z (X = bit 2)
///               +-----------------------------------+
/// ```
#[derive(LogicBlock)]
pub struct Jr01Panel {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// One-cycle pulses: bit 2 flips A, bit 1 flips B, bit 0 flips C.
    pub flip: Signal<In, Bits<3>>,
    /// The position A B C (A = bit 2), all 0 after configuration.
    pub position: Signal<Out, Bits<3>>,
    /// The strategy's answer X Y Z (X = bit 2).
    pub answer: Signal<Out, Bits<3>>,
    toggles: Toggle<3>,
    strategy: Jr01Strategy,
    x3: Widen<1, 3>,
    y3: Widen<1, 3>,
    z3: Widen<1, 3>,
}

impl Jr01Panel {
    /// A panel around `strategy`, `connect_all()` done.
    pub fn new(strategy: Jr01Strategy) -> Self {
        let mut block = Self {
            clock: Default::default(),
            flip: Default::default(),
            position: Default::default(),
            answer: Default::default(),
            toggles: Toggle::new(),
            strategy,
            x3: Widen::new(),
            y3: Widen::new(),
            z3: Widen::new(),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01Panel {
    #[hdl_gen]
    fn update(&mut self) {
        self.toggles.clock.next = self.clock.val();
        self.toggles.flip.next = self.flip.val();
        self.strategy.a.next = self.toggles.state.val().get_bit(2);
        self.strategy.b.next = self.toggles.state.val().get_bit(1);
        self.strategy.c.next = self.toggles.state.val().get_bit(0);
        self.position.next = self.toggles.state.val();
        self.x3.narrow.next = self.strategy.x.val().into();
        self.y3.narrow.next = self.strategy.y.val().into();
        self.z3.narrow.next = self.strategy.z.val().into();
        self.answer.next =
            (self.x3.wide.val() << 2) | (self.y3.wide.val() << 1) | self.z3.wide.val();
    }
}

/// J.R. 01 on any board.
///
/// ```text
///             +---------------------------------------------------+
///  keys[3] -->| Buttons -> Jr01Panel (toggles, or the switch     |--> position[3], answer[3]
///             |   levels with `switches`) -> Jr01Strategy         |--> alternating[3], showing_position
///  clock   -->| TimeBase, Blinker, SevenSegment x2, MuxDisplay    |--> position_segments[7], answer_segments[7]
///             +---------------------------------------------------+--> segments[8], select[4]
/// ```
///
/// `keys` bit 2 is A, bit 1 B, bit 0 C: push buttons that flip the bit, or
/// (`switches`) switches whose level is the bit. `alternating` shows the
/// position while `showing_position` is high (0.5 Hz), the answer while it
/// is low. The multiplexed display shows the position in its leftmost digit
/// and the answer in its rightmost.
#[derive(LogicBlock)]
pub struct Jr01BoardCore {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Raw keys, active high: bit 2 = A, 1 = B, 0 = C.
    pub keys: Signal<In, Bits<3>>,
    /// The position A B C (A = bit 2).
    pub position: Signal<Out, Bits<3>>,
    /// The answer X Y Z (X = bit 2).
    pub answer: Signal<Out, Bits<3>>,
    /// The position or the answer, alternating.
    pub alternating: Signal<Out, Bits<3>>,
    /// `alternating` shows the position.
    pub showing_position: Signal<Out, Bit>,
    /// Segments A..G of the position as a digit.
    pub position_segments: Signal<Out, Bits<7>>,
    /// Segments A..G of the answer as a digit.
    pub answer_segments: Signal<Out, Bits<7>>,
    /// Multiplexed display: segments (bit 7 = decimal point).
    pub segments: Signal<Out, Bits<8>>,
    /// Multiplexed display: digit selects (bit 0 = rightmost).
    pub select: Signal<Out, Bits<4>>,
    time_base: TimeBase,
    buttons: Buttons<3>,
    panel: Jr01Panel,
    switch_strategy: Jr01Strategy,
    switch_answer: Signal<Local, Bits<3>>,
    switches: Constant<Bit>,
    blinker: Blinker,
    switch_x3: Widen<1, 3>,
    switch_y3: Widen<1, 3>,
    switch_z3: Widen<1, 3>,
    position4: Widen<3, 4>,
    answer4: Widen<3, 4>,
    position_digit: SevenSegment,
    answer_digit: SevenSegment,
    position_bus: Widen<7, 32>,
    answer_bus: Widen<7, 32>,
    display: MuxDisplay,
}

impl Jr01BoardCore {
    /// The core around two copies of the strategy (one behind the toggles,
    /// one behind the switch levels); `switches`: the keys are switches, not
    /// push buttons. `connect_all()` done.
    pub fn new(strategies: [Jr01Strategy; 2], timing: &Timing, switches: bool) -> Self {
        let [strategy, switch_strategy] = strategies;
        let mut block = Self {
            clock: Default::default(),
            keys: Default::default(),
            position: Default::default(),
            answer: Default::default(),
            alternating: Default::default(),
            showing_position: Default::default(),
            position_segments: Default::default(),
            answer_segments: Default::default(),
            segments: Default::default(),
            select: Default::default(),
            time_base: TimeBase::new(timing.tick_cycles),
            buttons: Buttons::new(timing.debounce_ticks),
            panel: Jr01Panel::new(strategy),
            switch_strategy,
            switch_answer: Default::default(),
            switches: Constant::new(switches),
            blinker: Blinker::new(timing.blink_ticks),
            switch_x3: Widen::new(),
            switch_y3: Widen::new(),
            switch_z3: Widen::new(),
            position4: Widen::new(),
            answer4: Widen::new(),
            position_digit: SevenSegment::new(),
            answer_digit: SevenSegment::new(),
            position_bus: Widen::new(),
            answer_bus: Widen::new(),
            display: MuxDisplay::new(timing.digit_ticks),
        };
        block.connect_all();
        block
    }
}

impl Logic for Jr01BoardCore {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, time_base, buttons, panel, blinker, display);
        self.buttons.tick.next = self.time_base.tick.val();
        self.blinker.tick.next = self.time_base.tick.val();
        self.display.tick.next = self.time_base.tick.val();
        self.buttons.raw.next = self.keys.val();
        self.panel.flip.next = self.buttons.pressed.val();
        self.switch_strategy.a.next = self.buttons.level.val().get_bit(2);
        self.switch_strategy.b.next = self.buttons.level.val().get_bit(1);
        self.switch_strategy.c.next = self.buttons.level.val().get_bit(0);
        self.switch_x3.narrow.next = self.switch_strategy.x.val().into();
        self.switch_y3.narrow.next = self.switch_strategy.y.val().into();
        self.switch_z3.narrow.next = self.switch_strategy.z.val().into();
        self.switch_answer.next = (self.switch_x3.wide.val() << 2)
            | (self.switch_y3.wide.val() << 1)
            | self.switch_z3.wide.val();
        self.position.next = self.panel.position.val();
        self.answer.next = self.panel.answer.val();
        if self.switches.val() {
            self.position.next = self.buttons.level.val();
            self.answer.next = self.switch_answer.val();
        }
        self.showing_position.next = self.blinker.phase.val().get_bit(3);
        self.alternating.next = self.answer.val();
        if self.blinker.phase.val().get_bit(3) {
            self.alternating.next = self.position.val();
        }
        self.position4.narrow.next = self.position.val();
        self.answer4.narrow.next = self.answer.val();
        self.position_digit.digit.next = self.position4.wide.val();
        self.answer_digit.digit.next = self.answer4.wide.val();
        self.position_segments.next = self.position_digit.segments.val();
        self.answer_segments.next = self.answer_digit.segments.val();
        self.position_bus.narrow.next = self.position_digit.segments.val();
        self.answer_bus.narrow.next = self.answer_digit.segments.val();
        self.display.digits.next =
            (self.position_bus.wide.val() << 24) | self.answer_bus.wide.val();
        self.segments.next = self.display.segments.val();
        self.select.next = self.display.select.val();
    }
}

impl BoardCore for Jr01BoardCore {
    const KEYS: usize = 3;
    /// The blinker's phase: only its top bit (0.5 Hz) alternates the display.
    const UNREAD: &'static [&'static str] = &["blinker$phase"];

    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }

    fn set_keys(&mut self, keys: u64) {
        self.keys.next = keys.into();
    }

    fn output(&self, port: &str) -> u64 {
        match port {
            "position" => self.position.val().to_u64(),
            "answer" => self.answer.val().to_u64(),
            "alternating" => self.alternating.val().to_u64(),
            "showing_position" => u64::from(self.showing_position.val()),
            "position_segments" => self.position_segments.val().to_u64(),
            "answer_segments" => self.answer_segments.val().to_u64(),
            "segments" => self.segments.val().to_u64(),
            "select" => self.select.val().to_u64(),
            _ => panic!("Jr01BoardCore has no output `{port}`"),
        }
    }
}
