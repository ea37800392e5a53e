//! Alchitry Cu V2 (iCE40HX8K-CB132) with an Io V2 element.
//!
//! **Medium confidence, one source.** Derived from Alchitry's `CuV2Pin.kt` +
//! `Constraints/io_v2.acf` (alchitry/Alchitry-Labs-V2) the same way as the
//! V1 map, but not cross-checked against an independent file. Polarity is
//! assumed the same as the Io V1 (the current Alchitry Io tutorial uses one
//! top module for both versions: io_seg/io_sel active low, LEDs active high).
//!
//! The Io V2 ("Built by SparkFun ... V2") has pull-down resistors on the
//! buttons and DIP switches, so no pull-down emulation is needed (its `.acf`
//! declares no `PULL(DOWN)` block either).

use super::alchitry_cu::{button, clock, dip, reset, CU_PLLS, IO_BUTTONS};
use super::{Board, BoardId, Clock, Confidence, Device, Kind, PinDef, Polarity, Resource};

use Polarity::{ActiveHigh, ActiveLow};

/// The Io V2 has pull-down resistors: no emulation.
const PULLED_DOWN: bool = false;

pub(super) static BOARD: Board = Board {
    id: BoardId::AlchitryCuV2,
    name: "Alchitry Cu V2 + Io V2",
    device: Device::Hx8k,
    package: "cb132",
    clock: Clock {
        pin: "clk",
        hz: 100_000_000,
    },
    resources: &[
        clock(),
        reset(),
        Resource::many(
            "led",
            "Cu LEDs",
            Kind::LedBank(None),
            &[
                PinDef::led("led[0]", "J11", ActiveHigh, "Cu LED 0"),
                PinDef::led("led[1]", "K11", ActiveHigh, "Cu LED 1"),
                PinDef::led("led[2]", "G12", ActiveHigh, "Cu LED 2"),
                PinDef::led("led[3]", "H12", ActiveHigh, "Cu LED 3"),
                PinDef::led("led[4]", "K14", ActiveHigh, "Cu LED 4"),
                PinDef::led("led[5]", "J12", ActiveHigh, "Cu LED 5"),
                PinDef::led("led[6]", "L14", ActiveHigh, "Cu LED 6"),
                PinDef::led("led[7]", "K12", ActiveHigh, "Cu LED 7"),
            ],
        ),
        Resource::many(
            "io_led",
            "Io LEDs",
            Kind::LedBank(None),
            &[
                PinDef::led("io_led[0]", "E12", ActiveHigh, "Io LED group 0 bit 0"),
                PinDef::led("io_led[1]", "D14", ActiveHigh, "Io LED group 0 bit 1"),
                PinDef::led("io_led[2]", "F12", ActiveHigh, "Io LED group 0 bit 2"),
                PinDef::led("io_led[3]", "E14", ActiveHigh, "Io LED group 0 bit 3"),
                PinDef::led("io_led[4]", "C14", ActiveHigh, "Io LED group 0 bit 4"),
                PinDef::led("io_led[5]", "D12", ActiveHigh, "Io LED group 0 bit 5"),
                PinDef::led("io_led[6]", "B14", ActiveHigh, "Io LED group 0 bit 6"),
                PinDef::led("io_led[7]", "C12", ActiveHigh, "Io LED group 0 bit 7"),
                PinDef::led("io_led[8]", "C11", ActiveHigh, "Io LED group 1 bit 0"),
                PinDef::led("io_led[9]", "A12", ActiveHigh, "Io LED group 1 bit 1"),
                PinDef::led("io_led[10]", "C10", ActiveHigh, "Io LED group 1 bit 2"),
                PinDef::led("io_led[11]", "A11", ActiveHigh, "Io LED group 1 bit 3"),
                PinDef::led("io_led[12]", "C9", ActiveHigh, "Io LED group 1 bit 4"),
                PinDef::led("io_led[13]", "A10", ActiveHigh, "Io LED group 1 bit 5"),
                PinDef::led("io_led[14]", "A7", ActiveHigh, "Io LED group 1 bit 6"),
                PinDef::led("io_led[15]", "C7", ActiveHigh, "Io LED group 1 bit 7"),
                PinDef::led("io_led[16]", "A6", ActiveHigh, "Io LED group 2 bit 0"),
                PinDef::led("io_led[17]", "C6", ActiveHigh, "Io LED group 2 bit 1"),
                PinDef::led("io_led[18]", "A5", ActiveHigh, "Io LED group 2 bit 2"),
                PinDef::led("io_led[19]", "C5", ActiveHigh, "Io LED group 2 bit 3"),
                PinDef::led("io_led[20]", "A4", ActiveHigh, "Io LED group 2 bit 4"),
                PinDef::led("io_led[21]", "C4", ActiveHigh, "Io LED group 2 bit 5"),
                PinDef::led("io_led[22]", "G4", ActiveHigh, "Io LED group 2 bit 6"),
                PinDef::led("io_led[23]", "D5", ActiveHigh, "Io LED group 2 bit 7"),
            ],
        ),
        Resource::many(
            "io_dip",
            "Io DIP switches",
            Kind::SwitchBank,
            &[
                dip("io_dip[0]", "H11", "Io DIP group 0 bit 0", PULLED_DOWN),
                dip("io_dip[1]", "G11", "Io DIP group 0 bit 1", PULLED_DOWN),
                dip("io_dip[2]", "F11", "Io DIP group 0 bit 2", PULLED_DOWN),
                dip("io_dip[3]", "E11", "Io DIP group 0 bit 3", PULLED_DOWN),
                dip("io_dip[4]", "D11", "Io DIP group 0 bit 4", PULLED_DOWN),
                dip("io_dip[5]", "D10", "Io DIP group 0 bit 5", PULLED_DOWN),
                dip("io_dip[6]", "G1", "Io DIP group 0 bit 6", PULLED_DOWN),
                dip("io_dip[7]", "D9", "Io DIP group 0 bit 7", PULLED_DOWN),
                dip("io_dip[8]", "H1", "Io DIP group 1 bit 0", PULLED_DOWN),
                dip("io_dip[9]", "D7", "Io DIP group 1 bit 1", PULLED_DOWN),
                dip("io_dip[10]", "D6", "Io DIP group 1 bit 2", PULLED_DOWN),
                dip("io_dip[11]", "M6", "Io DIP group 1 bit 3", PULLED_DOWN),
                dip("io_dip[12]", "P4", "Io DIP group 1 bit 4", PULLED_DOWN),
                dip("io_dip[13]", "M4", "Io DIP group 1 bit 5", PULLED_DOWN),
                dip("io_dip[14]", "P3", "Io DIP group 1 bit 6", PULLED_DOWN),
                dip("io_dip[15]", "L4", "Io DIP group 1 bit 7", PULLED_DOWN),
                dip("io_dip[16]", "P2", "Io DIP group 2 bit 0", PULLED_DOWN),
                dip("io_dip[17]", "L1", "Io DIP group 2 bit 1", PULLED_DOWN),
                dip("io_dip[18]", "J3", "Io DIP group 2 bit 2", PULLED_DOWN),
                dip("io_dip[19]", "M1", "Io DIP group 2 bit 3", PULLED_DOWN),
                dip("io_dip[20]", "K3", "Io DIP group 2 bit 4", PULLED_DOWN),
                dip("io_dip[21]", "N1", "Io DIP group 2 bit 5", PULLED_DOWN),
                dip("io_dip[22]", "P1", "Io DIP group 2 bit 6", PULLED_DOWN),
                dip("io_dip[23]", "M3", "Io DIP group 2 bit 7", PULLED_DOWN),
            ],
        ),
        Resource::many(
            "io_button",
            "Io buttons",
            Kind::ButtonBank {
                labels: IO_BUTTONS,
            },
            &[
                button("io_button[0]", "D1", "Io button up", PULLED_DOWN),
                button("io_button[1]", "E4", "Io button centre", PULLED_DOWN),
                button("io_button[2]", "E1", "Io button down", PULLED_DOWN),
                button("io_button[3]", "F4", "Io button left", PULLED_DOWN),
                button("io_button[4]", "H4", "Io button right", PULLED_DOWN),
            ],
        ),
        Resource::many(
            "io_display",
            "Io 4-digit display",
            Kind::MuxDisplay { digits: 4 },
            &[
                PinDef::digit_select("io_sel[0]", "H3", ActiveLow, "Io rightmost digit"),
                PinDef::digit_select("io_sel[1]", "J1", ActiveLow, "Io 2nd digit from right"),
                PinDef::digit_select("io_sel[2]", "F3", ActiveLow, "Io 3rd digit from right"),
                PinDef::digit_select("io_sel[3]", "G3", ActiveLow, "Io leftmost digit"),
                PinDef::segment("io_seg[0]", "B1", ActiveLow, "Io segment A"),
                PinDef::segment("io_seg[1]", "C1", ActiveLow, "Io segment B"),
                PinDef::segment("io_seg[2]", "C3", ActiveLow, "Io segment C"),
                PinDef::segment("io_seg[3]", "D4", ActiveLow, "Io segment D"),
                PinDef::segment("io_seg[4]", "A1", ActiveLow, "Io segment E"),
                PinDef::segment("io_seg[5]", "D3", ActiveLow, "Io segment F"),
                PinDef::segment("io_seg[6]", "A3", ActiveLow, "Io segment G"),
                PinDef::segment("io_seg[7]", "A2", ActiveLow, "Io decimal point"),
            ],
        ),
    ],
    sources: &[
        "alchitry/Alchitry-Labs-V2 CuV2Pin.kt + Constraints/io_v2.acf + alchitry.acf",
        "MEDIUM CONFIDENCE: one source, not cross-checked",
    ],
    confidence: Confidence::Medium,
    plls: CU_PLLS,
    notes: &[
        "for a Cu V2 with an Io V2 only (the Io V2 has pull-downs); a Cu V1 or an Io V1 is wired differently",
        "io_seg and io_sel are ACTIVE LOW; io_sel[0] is the rightmost digit; io_seg bit0 = A .. bit6 = G, bit7 = DP",
    ],
};
