//! Lattice iCEstick (iCE40HX1K-TQ144).
//!
//! Sources (from `shared/boards.md`, confidence high, all three agree):
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

use super::{
    Board, BoardId, Clock, Confidence, Designs, Device, Dir, Jr01In, Jr01Out, PinDef, Polarity,
    Role, SolverIn, SolverOut, SticksIn, SticksOut, Wire,
};

use Dir::{Inout, Input, Output};
use Polarity::{ActiveHigh, ActiveLow};

pub(super) static BOARD: Board = Board {
    id: BoardId::Icestick,
    name: "Lattice iCEstick",
    device: Device::Hx1k,
    package: "tq144",
    clock: Clock {
        pin: "clk",
        hz: 12_000_000,
    },
    pins: PINS,
    sources: &[
        "YosysHQ/icestorm examples/icestick/icestick.pcf",
        "cross-checked: apio-examples icestick.pcf, amaranth-boards icestick.py",
    ],
    confidence: Confidence::High,
    designs: DESIGNS,
    design_clocks: &[],
    notes: &[
        "the iCEstick has no buttons: wire push buttons from PMOD J2 pins 1, 2, 3 to GND (J2 pin 5 or 11)",
        "BTN1..BTN3 use the internal pull-up and read active low (pressed = 0)",
    ],
};

/// The three buttons are wired by the user to PMOD J2 pins 1-3 (to GND).
/// J.R. 01: five LEDs cannot show six bits, so D1 D2 D3 alternate every
/// second between the position and the answer, and the green D5 says which
/// (lit: position). D4 is not used.
/// Sticks: BTN1..BTN3 take 1, 2, 3; all three pressed together start a game
/// (held 1 s: machine first, all LEDs lit); D1..D5 show the sticks left in
/// binary.
/// Solver: the same controls and lights, playing the default game (Fort
/// Boyard: 18 sticks, take 1-3, last loses) solved on the chip at each start.
const DESIGNS: Designs = Designs {
    jr01: &[
        Wire::Input("BTN1", Jr01In::Toggle(2)),
        Wire::Input("BTN2", Jr01In::Toggle(1)),
        Wire::Input("BTN3", Jr01In::Toggle(0)),
        Wire::Output("D1", Jr01Out::Alternating(2)),
        Wire::Output("D2", Jr01Out::Alternating(1)),
        Wire::Output("D3", Jr01Out::Alternating(0)),
        Wire::Output("D5", Jr01Out::ShowingPosition),
    ],
    sticks: &[
        Wire::Input("BTN1", SticksIn::Take(1)),
        Wire::Input("BTN2", SticksIn::Take(2)),
        Wire::Input("BTN3", SticksIn::Take(3)),
        Wire::Output("D1", SticksOut::Count(0)),
        Wire::Output("D2", SticksOut::Count(1)),
        Wire::Output("D3", SticksOut::Count(2)),
        Wire::Output("D4", SticksOut::Count(3)),
        Wire::Output("D5", SticksOut::Count(4)),
    ],
    sticks_held_lights: &["D1", "D2", "D3", "D4", "D5"],
    solver: &[
        Wire::Input("BTN1", SolverIn::Take(1)),
        Wire::Input("BTN2", SolverIn::Take(2)),
        Wire::Input("BTN3", SolverIn::Take(3)),
        Wire::Output("D1", SolverOut::Count(0)),
        Wire::Output("D2", SolverOut::Count(1)),
        Wire::Output("D3", SolverOut::Count(2)),
        Wire::Output("D4", SolverOut::Count(3)),
        Wire::Output("D5", SolverOut::Count(4)),
    ],
    solver_held_lights: &["D1", "D2", "D3", "D4", "D5"],
};

const fn led(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveHigh, Role::Led, note)
}

const fn user_button(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Input, ActiveLow, Role::Button, note).with_pull_up()
}

const fn pmod(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Inout, ActiveHigh, Role::Pmod, note)
}

const PINS: &[PinDef] = &[
    PinDef::new(
        "clk",
        "21",
        Input,
        ActiveHigh,
        Role::Clock,
        "12 MHz oscillator",
    ),
    led("D1", "99", "red, top"),
    led("D2", "98", "red, middle row after D5"),
    led("D3", "97", "red, bottom"),
    led("D4", "96", "red, middle row before D5"),
    led("D5", "95", "green, centre"),
    user_button("BTN1", "78", "user-wired: button from PMOD J2 pin 1 to GND"),
    user_button("BTN2", "79", "user-wired: button from PMOD J2 pin 2 to GND"),
    user_button("BTN3", "80", "user-wired: button from PMOD J2 pin 3 to GND"),
    pmod("PMOD4", "81", "PMOD J2 pin 4"),
    pmod("PMOD7", "87", "PMOD J2 pin 7"),
    pmod("PMOD8", "88", "PMOD J2 pin 8"),
    pmod("PMOD9", "90", "PMOD J2 pin 9"),
    pmod("PMOD10", "91", "PMOD J2 pin 10"),
];
