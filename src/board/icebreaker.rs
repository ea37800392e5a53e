//! 1BitSquared iCEBreaker (iCE40UP5K-SG48), main board plus the snap-off
//! "iCEBreakoff" section on PMOD2.
//!
//! Sources (confidence high):
//! - Pins: icebreaker-fpga/icebreaker-examples `icebreaker/icebreaker.pcf`
//!   (HEAD de9e3f8); Makefiles give `DEVICE = up5k`, `PACKAGE = sg48`.
//! - Polarity: icebreaker-fpga/icebreaker `hardware/v1.0e/icebreaker.kicad_pcb`
//!   (snap-off LEDs/buttons active high with 10k external pull-downs; BTN_N
//!   has a 10k pull-up; LEDR_N/LEDG_N active low). The board README agrees.
//! - Cross-checks: amaranth-boards `icebreaker.py`, litex-boards
//!   `1bitsquared_icebreaker.py`, apio-examples `icebreaker/buttons`.
//!
//! Caveat: YosysHQ/icestorm `examples/icebreaker/icebreaker.pcf` still uses
//! the **old** LED numbering (LED1=27 ... LED5=26); icebreaker-examples fixed
//! it in 23ddea36. Do not copy those lines. The v1.0e back silkscreen swaps
//! L4 and L5 relative to the front and every PCF.

use super::{Board, BoardId, Clock, Colour, Confidence, Device, Kind, PinDef, Polarity, Resource};

use Colour::{Green, Red};
use Polarity::{ActiveHigh, ActiveLow};

pub(super) static BOARD: Board = Board {
    id: BoardId::Icebreaker,
    name: "1BitSquared iCEBreaker",
    device: Device::Up5k,
    package: "sg48",
    clock: Clock {
        pin: "CLK",
        hz: 12_000_000,
    },
    resources: &[
        Resource::one(
            "12 MHz oscillator",
            Kind::Clock,
            PinDef::clock("CLK", "35", "12 MHz oscillator"),
        ),
        Resource::button("user button",
            PinDef::button(
                "BTN_N",
                "10",
                ActiveLow,
                "main-board user button; 10k external pull-up (R13)",
            ),
        ),
        Resource::led("red LED", Some(Red),
            PinDef::led("LEDR_N", "11", ActiveLow, "main-board red LED"),
        ),
        Resource::led("green LED", Some(Green),
            PinDef::led("LEDG_N", "37", ActiveLow, "main-board green LED"),
        ),
        Resource::led("L1", Some(Red),
            PinDef::led("LED1", "26", ActiveHigh, "snap-off P2_7, centre red (L1)"),
        ),
        Resource::led("L2", Some(Green),
            PinDef::led("LED2", "27", ActiveHigh, "snap-off P2_1, green (L2)"),
        ),
        Resource::led("L3", Some(Green),
            PinDef::led("LED3", "25", ActiveHigh, "snap-off P2_2, green (L3)"),
        ),
        Resource::led("L4", Some(Green),
            PinDef::led("LED4", "23", ActiveHigh, "snap-off P2_8, green (L4)"),
        ),
        Resource::led("L5", Some(Green),
            PinDef::led("LED5", "21", ActiveHigh, "snap-off P2_3, green (L5)"),
        ),
        Resource::button("BTN1",
            PinDef::button(
                "BTN1",
                "20",
                ActiveHigh,
                "snap-off P2_9; 10k external pull-down",
            ),
        ),
        Resource::button("BTN2",
            PinDef::button(
                "BTN2",
                "19",
                ActiveHigh,
                "snap-off P2_4; 10k external pull-down",
            ),
        ),
        Resource::button("BTN3",
            PinDef::button(
                "BTN3",
                "18",
                ActiveHigh,
                "snap-off P2_10; 10k external pull-down",
            ),
        ),
    ],
    sources: &[
        "icebreaker-fpga/icebreaker-examples icebreaker/icebreaker.pcf (de9e3f8)",
        "polarity: icebreaker-fpga/icebreaker hardware/v1.0e/icebreaker.kicad_pcb",
        "cross-checked: amaranth-boards icebreaker.py, litex-boards 1bitsquared_icebreaker.py",
    ],
    confidence: Confidence::High,
    plls: &[],
    notes: &[
        "snap-off LED numbering is the current vendor one, NOT icestorm's old examples/icebreaker/icebreaker.pcf",
        "the v1.0e back silkscreen swaps L4/L5; the front labels and all PCFs agree with this file",
    ],
};
