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
        Resource::led("D1", Some(Red), PinDef::led("D1", "99", ActiveHigh, "red, top")),
        Resource::led(
            "D2",
            Some(Red),
            PinDef::led("D2", "98", ActiveHigh, "red, middle row after D5"),
        ),
        Resource::led("D3", Some(Red), PinDef::led("D3", "97", ActiveHigh, "red, bottom")),
        Resource::led(
            "D4",
            Some(Red),
            PinDef::led("D4", "96", ActiveHigh, "red, middle row before D5"),
        ),
        Resource::led("D5", Some(Green), PinDef::led("D5", "95", ActiveHigh, "green, centre")),
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
        Resource::header(PinDef::header("PMOD4", "81", "PMOD J2 pin 4")),
        Resource::header(PinDef::header("PMOD7", "87", "PMOD J2 pin 7")),
        Resource::header(PinDef::header("PMOD8", "88", "PMOD J2 pin 8")),
        Resource::header(PinDef::header("PMOD9", "90", "PMOD J2 pin 9")),
        Resource::header(PinDef::header("PMOD10", "91", "PMOD J2 pin 10")),
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
