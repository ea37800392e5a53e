//! Nandland Go Board (iCE40HX1K-VQ100).
//!
//! Sources (from `shared/boards.md`, confidence high):
//! - Pins: nandland/getting-started-with-fpgas `Go_Board_Pin_Constraints.pcf`
//!   (HEAD 69ba2cb); `Go_Board_Clock_Constraint.sdc` gives 40 ns (25 MHz).
//! - Polarity from vendor code: every segment output is inverted ("Invert
//!   needed on Go Board"), so segments are ACTIVE LOW; `o_LED_1 = i_Switch_1`,
//!   so LEDs and push buttons are active high. The vendor PCF sets no
//!   pull-ups, so the board has pull-downs on the buttons (inferred).
//! - Cross-checks: apio-examples `go-board/template/go-board.pcf`,
//!   amaranth-boards `nandland_go.py`.
//! - Segment1 = left/tens digit, Segment2 = right/ones digit (mmicko/grom8).
//!   No digit-select lines: each digit has its own 7 pins.
//! - PMOD port names follow Nandland's own `io_PMOD_<n>` convention.

use super::{
    Board, BoardId, Clock, Confidence, Designs, Device, Dir, Jr01In, Jr01Out, PinDef, Polarity,
    Role, SolverIn, SolverOut, SticksIn, SticksOut, Wire,
};

use Dir::{Inout, Input, Output};
use Polarity::{ActiveHigh, ActiveLow};

pub(super) static BOARD: Board = Board {
    id: BoardId::GoBoard,
    name: "Nandland Go Board",
    device: Device::Hx1k,
    package: "vq100",
    clock: Clock {
        pin: "i_Clk",
        hz: 25_000_000,
    },
    pins: PINS,
    sources: &[
        "nandland/getting-started-with-fpgas Go_Board_Pin_Constraints.pcf (69ba2cb)",
        "polarity: Nandland example code (segments inverted, switches/LEDs active high)",
        "cross-checked: apio-examples go-board.pcf, amaranth-boards nandland_go.py",
    ],
    confidence: Confidence::High,
    designs: DESIGNS,
    design_clocks: &[],
    notes: &["7-segment segments are ACTIVE LOW (0 = lit); each digit has its own 7 pins"],
};

/// J.R. 01: switches 1-3 toggle A B C, LEDs 1-3 show them, the left digit
/// shows the position and the right digit the answer (0-7). Switch 4 and
/// LED 4 are not used.
/// Sticks: switches 1-3 take 1, 2, 3; switch 4 starts a game; the digits
/// show the sticks left; LEDs 1-3 the machine's last take, LED 4 your turn
/// (all four lit while switch 4 has been held 1 s).
/// Solver: set the game on three pages, then play it (keys 1-4 take 1-4,
/// the digits show the sticks left, LED k the machine's take k); see
/// [`SolverIn::Key`] and docs/boards.md.
const DESIGNS: Designs = Designs {
    jr01: &[
        Wire::Input("i_Switch_1", Jr01In::Toggle(2)),
        Wire::Input("i_Switch_2", Jr01In::Toggle(1)),
        Wire::Input("i_Switch_3", Jr01In::Toggle(0)),
        Wire::Output("o_LED_1", Jr01Out::Position(2)),
        Wire::Output("o_LED_2", Jr01Out::Position(1)),
        Wire::Output("o_LED_3", Jr01Out::Position(0)),
        Wire::Output("o_Segment1_A", Jr01Out::PositionSegment(0)),
        Wire::Output("o_Segment1_B", Jr01Out::PositionSegment(1)),
        Wire::Output("o_Segment1_C", Jr01Out::PositionSegment(2)),
        Wire::Output("o_Segment1_D", Jr01Out::PositionSegment(3)),
        Wire::Output("o_Segment1_E", Jr01Out::PositionSegment(4)),
        Wire::Output("o_Segment1_F", Jr01Out::PositionSegment(5)),
        Wire::Output("o_Segment1_G", Jr01Out::PositionSegment(6)),
        Wire::Output("o_Segment2_A", Jr01Out::AnswerSegment(0)),
        Wire::Output("o_Segment2_B", Jr01Out::AnswerSegment(1)),
        Wire::Output("o_Segment2_C", Jr01Out::AnswerSegment(2)),
        Wire::Output("o_Segment2_D", Jr01Out::AnswerSegment(3)),
        Wire::Output("o_Segment2_E", Jr01Out::AnswerSegment(4)),
        Wire::Output("o_Segment2_F", Jr01Out::AnswerSegment(5)),
        Wire::Output("o_Segment2_G", Jr01Out::AnswerSegment(6)),
    ],
    sticks: &[
        Wire::Input("i_Switch_1", SticksIn::Take(1)),
        Wire::Input("i_Switch_2", SticksIn::Take(2)),
        Wire::Input("i_Switch_3", SticksIn::Take(3)),
        Wire::Input("i_Switch_4", SticksIn::Start),
        Wire::Output("o_LED_1", SticksOut::MachineTake(1)),
        Wire::Output("o_LED_2", SticksOut::MachineTake(2)),
        Wire::Output("o_LED_3", SticksOut::MachineTake(3)),
        Wire::Output("o_LED_4", SticksOut::Turn),
        Wire::Output("o_Segment1_A", SticksOut::TensSegment(0)),
        Wire::Output("o_Segment1_B", SticksOut::TensSegment(1)),
        Wire::Output("o_Segment1_C", SticksOut::TensSegment(2)),
        Wire::Output("o_Segment1_D", SticksOut::TensSegment(3)),
        Wire::Output("o_Segment1_E", SticksOut::TensSegment(4)),
        Wire::Output("o_Segment1_F", SticksOut::TensSegment(5)),
        Wire::Output("o_Segment1_G", SticksOut::TensSegment(6)),
        Wire::Output("o_Segment2_A", SticksOut::OnesSegment(0)),
        Wire::Output("o_Segment2_B", SticksOut::OnesSegment(1)),
        Wire::Output("o_Segment2_C", SticksOut::OnesSegment(2)),
        Wire::Output("o_Segment2_D", SticksOut::OnesSegment(3)),
        Wire::Output("o_Segment2_E", SticksOut::OnesSegment(4)),
        Wire::Output("o_Segment2_F", SticksOut::OnesSegment(5)),
        Wire::Output("o_Segment2_G", SticksOut::OnesSegment(6)),
    ],
    sticks_held_lights: &["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"],
    solver: &[
        Wire::Input("i_Switch_1", SolverIn::Key(1)),
        Wire::Input("i_Switch_2", SolverIn::Key(2)),
        Wire::Input("i_Switch_3", SolverIn::Key(3)),
        Wire::Input("i_Switch_4", SolverIn::Key(4)),
        Wire::Output("o_LED_1", SolverOut::SetOrTake(1)),
        Wire::Output("o_LED_2", SolverOut::SetOrTake(2)),
        Wire::Output("o_LED_3", SolverOut::SetOrTake(3)),
        Wire::Output("o_LED_4", SolverOut::SetOrTake(4)),
        Wire::Output("o_Segment1_A", SolverOut::TensSegment(0)),
        Wire::Output("o_Segment1_B", SolverOut::TensSegment(1)),
        Wire::Output("o_Segment1_C", SolverOut::TensSegment(2)),
        Wire::Output("o_Segment1_D", SolverOut::TensSegment(3)),
        Wire::Output("o_Segment1_E", SolverOut::TensSegment(4)),
        Wire::Output("o_Segment1_F", SolverOut::TensSegment(5)),
        Wire::Output("o_Segment1_G", SolverOut::TensSegment(6)),
        Wire::Output("o_Segment2_A", SolverOut::OnesSegment(0)),
        Wire::Output("o_Segment2_B", SolverOut::OnesSegment(1)),
        Wire::Output("o_Segment2_C", SolverOut::OnesSegment(2)),
        Wire::Output("o_Segment2_D", SolverOut::OnesSegment(3)),
        Wire::Output("o_Segment2_E", SolverOut::OnesSegment(4)),
        Wire::Output("o_Segment2_F", SolverOut::OnesSegment(5)),
        Wire::Output("o_Segment2_G", SolverOut::OnesSegment(6)),
    ],
    solver_held_lights: &["o_LED_1", "o_LED_2", "o_LED_3", "o_LED_4"],
};

const fn led(name: &'static str, location: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveHigh, Role::Led, "")
}

const fn switch(name: &'static str, location: &'static str) -> PinDef {
    PinDef::new(
        name,
        location,
        Input,
        ActiveHigh,
        Role::Button,
        "push button, pressed = 1",
    )
}

const fn seg(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveLow, Role::Segment, note)
}

const fn pmod(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Inout, ActiveHigh, Role::Pmod, note)
}

const PINS: &[PinDef] = &[
    PinDef::new(
        "i_Clk",
        "15",
        Input,
        ActiveHigh,
        Role::Clock,
        "25 MHz oscillator",
    ),
    led("o_LED_1", "56"),
    led("o_LED_2", "57"),
    led("o_LED_3", "59"),
    led("o_LED_4", "60"),
    switch("i_Switch_1", "53"),
    switch("i_Switch_2", "51"),
    switch("i_Switch_3", "54"),
    switch("i_Switch_4", "52"),
    seg("o_Segment1_A", "3", "left (tens) digit, A"),
    seg("o_Segment1_B", "4", "left (tens) digit, B"),
    seg("o_Segment1_C", "93", "left (tens) digit, C"),
    seg("o_Segment1_D", "91", "left (tens) digit, D"),
    seg("o_Segment1_E", "90", "left (tens) digit, E"),
    seg("o_Segment1_F", "1", "left (tens) digit, F"),
    seg("o_Segment1_G", "2", "left (tens) digit, G"),
    seg("o_Segment2_A", "100", "right (ones) digit, A"),
    seg("o_Segment2_B", "99", "right (ones) digit, B"),
    seg("o_Segment2_C", "97", "right (ones) digit, C"),
    seg("o_Segment2_D", "95", "right (ones) digit, D"),
    seg("o_Segment2_E", "94", "right (ones) digit, E"),
    seg("o_Segment2_F", "8", "right (ones) digit, F"),
    seg("o_Segment2_G", "96", "right (ones) digit, G"),
    pmod("io_PMOD_1", "65", "PMOD pin 1"),
    pmod("io_PMOD_2", "64", "PMOD pin 2"),
    pmod("io_PMOD_3", "63", "PMOD pin 3"),
    pmod("io_PMOD_4", "62", "PMOD pin 4"),
    pmod("io_PMOD_7", "78", "PMOD pin 7"),
    pmod("io_PMOD_8", "79", "PMOD pin 8"),
    pmod("io_PMOD_9", "80", "PMOD pin 9"),
    pmod("io_PMOD_10", "81", "PMOD pin 10"),
];
