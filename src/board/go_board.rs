//! Nandland Go Board (iCE40HX1K-VQ100).
//!
//! Sources (confidence high):
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
//!
//! The push buttons are called switches (SW1 to SW4, `i_Switch_<n>`) by Nandland; they are
//! momentary push buttons.

use super::{Board, BoardId, Clock, Confidence, Device, Kind, PinDef, Polarity, Resource};

use Polarity::{ActiveHigh, ActiveLow};

/// What the vendor's code says of the push buttons.
const PRESSED: &str = "push button, pressed = 1";

pub(super) static BOARD: Board = Board {
    id: BoardId::GoBoard,
    name: "Nandland Go Board",
    device: Device::Hx1k,
    package: "vq100",
    clock: Clock {
        pin: "i_Clk",
        hz: 25_000_000,
    },
    resources: &[
        Resource::one(
            "25 MHz oscillator",
            Kind::Clock,
            PinDef::clock("i_Clk", "15", "25 MHz oscillator"),
        ),
        Resource::led("LED1", None, PinDef::led("o_LED_1", "56", ActiveHigh, "")),
        Resource::led("LED2", None, PinDef::led("o_LED_2", "57", ActiveHigh, "")),
        Resource::led("LED3", None, PinDef::led("o_LED_3", "59", ActiveHigh, "")),
        Resource::led("LED4", None, PinDef::led("o_LED_4", "60", ActiveHigh, "")),
        Resource::button(
            "SW1",
            PinDef::button("i_Switch_1", "53", ActiveHigh, PRESSED),
        ),
        Resource::button(
            "SW2",
            PinDef::button("i_Switch_2", "51", ActiveHigh, PRESSED),
        ),
        Resource::button(
            "SW3",
            PinDef::button("i_Switch_3", "54", ActiveHigh, PRESSED),
        ),
        Resource::button(
            "SW4",
            PinDef::button("i_Switch_4", "52", ActiveHigh, PRESSED),
        ),
        Resource::many(
            "Segment1",
            "left digit",
            Kind::Digit,
            &[
                PinDef::segment("o_Segment1_A", "3", ActiveLow, "left (tens) digit, A"),
                PinDef::segment("o_Segment1_B", "4", ActiveLow, "left (tens) digit, B"),
                PinDef::segment("o_Segment1_C", "93", ActiveLow, "left (tens) digit, C"),
                PinDef::segment("o_Segment1_D", "91", ActiveLow, "left (tens) digit, D"),
                PinDef::segment("o_Segment1_E", "90", ActiveLow, "left (tens) digit, E"),
                PinDef::segment("o_Segment1_F", "1", ActiveLow, "left (tens) digit, F"),
                PinDef::segment("o_Segment1_G", "2", ActiveLow, "left (tens) digit, G"),
            ],
        ),
        Resource::many(
            "Segment2",
            "right digit",
            Kind::Digit,
            &[
                PinDef::segment("o_Segment2_A", "100", ActiveLow, "right (ones) digit, A"),
                PinDef::segment("o_Segment2_B", "99", ActiveLow, "right (ones) digit, B"),
                PinDef::segment("o_Segment2_C", "97", ActiveLow, "right (ones) digit, C"),
                PinDef::segment("o_Segment2_D", "95", ActiveLow, "right (ones) digit, D"),
                PinDef::segment("o_Segment2_E", "94", ActiveLow, "right (ones) digit, E"),
                PinDef::segment("o_Segment2_F", "8", ActiveLow, "right (ones) digit, F"),
                PinDef::segment("o_Segment2_G", "96", ActiveLow, "right (ones) digit, G"),
            ],
        ),
        Resource::header(PinDef::header("io_PMOD_1", "65", "PMOD pin 1")),
        Resource::header(PinDef::header("io_PMOD_2", "64", "PMOD pin 2")),
        Resource::header(PinDef::header("io_PMOD_3", "63", "PMOD pin 3")),
        Resource::header(PinDef::header("io_PMOD_4", "62", "PMOD pin 4")),
        Resource::header(PinDef::header("io_PMOD_7", "78", "PMOD pin 7")),
        Resource::header(PinDef::header("io_PMOD_8", "79", "PMOD pin 8")),
        Resource::header(PinDef::header("io_PMOD_9", "80", "PMOD pin 9")),
        Resource::header(PinDef::header("io_PMOD_10", "81", "PMOD pin 10")),
    ],
    sources: &[
        "nandland/getting-started-with-fpgas Go_Board_Pin_Constraints.pcf (69ba2cb)",
        "polarity: Nandland example code (segments inverted, switches/LEDs active high)",
        "cross-checked: apio-examples go-board.pcf, amaranth-boards nandland_go.py",
    ],
    confidence: Confidence::High,
    plls: &[],
    notes: &["7-segment segments are ACTIVE LOW (0 = lit); each digit has its own 7 pins"],
};
