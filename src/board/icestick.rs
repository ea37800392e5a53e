//! Lattice iCEstick (iCE40HX1K-TQ144).
//!
//! Sources (confidence high, all three agree):
//! - YosysHQ/icestorm `examples/icestick/icestick.pcf` and Makefile
//!   (`DEVICE = hx1k`, `PACKAGE = tq144`).
//! - FPGAwars/apio-examples `icestick/template/icestick.pcf` (LEDs, PMOD, clock).
//! - amaranth-boards `icestick.py` (clk 21 at 12 MHz, LEDs not inverted,
//!   PMOD `78 79 80 81 - - 87 88 90 91`).
//!
//! The iCEstick has **no user button or switch**. Retrogate's convention:
//! the user wires three push buttons from PMOD J2 pins 1-3 (FPGA 78 79 80) to
//! GND (J2 pin 5 or 11). Those pins get the internal pull-up and read
//! ACTIVE LOW. They are named BTN1..BTN3 here instead of PMOD1..PMOD3; the
//! remaining J2 pins stay plain PMOD pins.
//!
//! LED layout (apio-examples comment): D1 top, D4 D5 D2 across the middle,
//! D3 bottom; D1-D4 red, D5 green.

use super::{Board, BoardId, Clock, Colour, Confidence, Device, Kind, PinDef, Polarity, Resource};

use Colour::{Green, Red};
use Polarity::{ActiveHigh, ActiveLow};

const fn led(
    label: &'static str,
    colour: Colour,
    location: &'static str,
    note: &'static str,
) -> Resource {
    Resource::one(
        label,
        Kind::Led(Some(colour)),
        PinDef::led(label, location, ActiveHigh, note),
    )
}

/// A push button the user wires from a J2 pin to GND: internal pull-up, active low.
const fn user_button(
    label: &'static str,
    name: &'static str,
    location: &'static str,
    note: &'static str,
) -> Resource {
    Resource::one(
        label,
        Kind::Button,
        PinDef::button(name, location, ActiveLow, note).with_pull_up(),
    )
}

const fn pmod(label: &'static str, name: &'static str, location: &'static str) -> Resource {
    Resource::one(label, Kind::Header, PinDef::header(name, location, label))
}

pub(super) static BOARD: Board = Board {
    id: BoardId::Icestick,
    name: "Lattice iCEstick",
    device: Device::Hx1k,
    package: "tq144",
    clock: Clock {
        pin: "clk",
        hz: 12_000_000,
    },
    resources: &[
        Resource::one(
            "12 MHz oscillator",
            Kind::Clock,
            PinDef::clock("clk", "21", "12 MHz oscillator"),
        ),
        led("D1", Red, "99", "red, top"),
        led("D2", Red, "98", "red, middle row after D5"),
        led("D3", Red, "97", "red, bottom"),
        led("D4", Red, "96", "red, middle row before D5"),
        led("D5", Green, "95", "green, centre"),
        user_button(
            "button 1",
            "BTN1",
            "78",
            "user-wired: button from PMOD J2 pin 1 to GND",
        ),
        user_button(
            "button 2",
            "BTN2",
            "79",
            "user-wired: button from PMOD J2 pin 2 to GND",
        ),
        user_button(
            "button 3",
            "BTN3",
            "80",
            "user-wired: button from PMOD J2 pin 3 to GND",
        ),
        pmod("PMOD J2 pin 4", "PMOD4", "81"),
        pmod("PMOD J2 pin 7", "PMOD7", "87"),
        pmod("PMOD J2 pin 8", "PMOD8", "88"),
        pmod("PMOD J2 pin 9", "PMOD9", "90"),
        pmod("PMOD J2 pin 10", "PMOD10", "91"),
    ],
    sources: &[
        "YosysHQ/icestorm examples/icestick/icestick.pcf",
        "cross-checked: apio-examples icestick.pcf, amaranth-boards icestick.py",
    ],
    confidence: Confidence::High,
    plls: &[],
    notes: &[
        "the iCEstick has no buttons: wire push buttons from PMOD J2 pins 1, 2, 3 to GND (J2 pin 5 or 11)",
        "BTN1..BTN3 use the internal pull-up and read active low (pressed = 0)",
    ],
};
