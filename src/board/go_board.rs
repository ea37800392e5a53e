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

const fn led(label: &'static str, name: &'static str, location: &'static str) -> Resource {
    Resource::one(
        label,
        Kind::Led(None),
        PinDef::led(name, location, ActiveHigh, ""),
    )
}

const fn switch(label: &'static str, name: &'static str, location: &'static str) -> Resource {
    Resource::one(
        label,
        Kind::Button,
        PinDef::button(name, location, ActiveHigh, "push button, pressed = 1"),
    )
}

const fn pmod(label: &'static str, name: &'static str, location: &'static str) -> Resource {
    Resource::one(label, Kind::Header, PinDef::header(name, location, label))
}

const fn seg(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::segment(name, location, ActiveLow, note)
}

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
        led("LED1", "o_LED_1", "56"),
        led("LED2", "o_LED_2", "57"),
        led("LED3", "o_LED_3", "59"),
        led("LED4", "o_LED_4", "60"),
        switch("SW1", "i_Switch_1", "53"),
        switch("SW2", "i_Switch_2", "51"),
        switch("SW3", "i_Switch_3", "54"),
        switch("SW4", "i_Switch_4", "52"),
        Resource::many(
            "Segment1",
            "left digit",
            Kind::Digit,
            &[
                seg("o_Segment1_A", "3", "left (tens) digit, A"),
                seg("o_Segment1_B", "4", "left (tens) digit, B"),
                seg("o_Segment1_C", "93", "left (tens) digit, C"),
                seg("o_Segment1_D", "91", "left (tens) digit, D"),
                seg("o_Segment1_E", "90", "left (tens) digit, E"),
                seg("o_Segment1_F", "1", "left (tens) digit, F"),
                seg("o_Segment1_G", "2", "left (tens) digit, G"),
            ],
        ),
        Resource::many(
            "Segment2",
            "right digit",
            Kind::Digit,
            &[
                seg("o_Segment2_A", "100", "right (ones) digit, A"),
                seg("o_Segment2_B", "99", "right (ones) digit, B"),
                seg("o_Segment2_C", "97", "right (ones) digit, C"),
                seg("o_Segment2_D", "95", "right (ones) digit, D"),
                seg("o_Segment2_E", "94", "right (ones) digit, E"),
                seg("o_Segment2_F", "8", "right (ones) digit, F"),
                seg("o_Segment2_G", "96", "right (ones) digit, G"),
            ],
        ),
        pmod("PMOD pin 1", "io_PMOD_1", "65"),
        pmod("PMOD pin 2", "io_PMOD_2", "64"),
        pmod("PMOD pin 3", "io_PMOD_3", "63"),
        pmod("PMOD pin 4", "io_PMOD_4", "62"),
        pmod("PMOD pin 7", "io_PMOD_7", "78"),
        pmod("PMOD pin 8", "io_PMOD_8", "79"),
        pmod("PMOD pin 9", "io_PMOD_9", "80"),
        pmod("PMOD pin 10", "io_PMOD_10", "81"),
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
