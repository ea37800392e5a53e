//! Alchitry Cu V1 (iCE40HX8K-CB132) with an Io V1 element.
//!
//! Sources (confidence high): composed from two Alchitry files in
//! alchitry/Alchitry-Labs-V2, `hardware/pinout/CuPin.kt` (connector pin -> ball) and
//! `Constraints/io_v1.acf` (Io signal -> connector pin); `alchitry.acf` for clk (100 MHz),
//! rst_n and led[0..7]. Cross-checked: r1cebank/alchitry-cu-utils `alchitry_cu.pcf` matches all
//! lines exactly; litex-boards `alchitry_cu.py`, icestudio and apio-examples agree on clock,
//! reset, LEDs and the bank A/B map.
//!
//! Io 2-D indices are flattened as `[group*8+bit]`; group 0 is the rightmost.
//! Polarity (Alchitry Io tutorial): rst_n active low; LEDs active high;
//! io_seg and io_sel active low; io_seg bit0 = A ... bit6 = G, bit7 = DP;
//! `io_sel[0]` = rightmost digit; buttons up, centre, down, left, right.
//!
//! **Pull-down caveat:** io_dip and io_button switch to 3V3 through 330R, the
//! Io V1 has no pull-downs and the iCE40 has no internal pull-downs, so the
//! design must emulate them (Alchitry's `fake_pull_down`: drive the pin low,
//! release, wait ~30 ns, sample; ports declared `inout`).
//!
//! The pin shorthands below are shared with `alchitry_cu_v2` (same parts, other balls).

use super::{Board, BoardId, Clock, Confidence, Device, Kind, PinDef, Pll, Polarity, Resource};

use Polarity::{ActiveHigh, ActiveLow};

/// The Io V1's inputs float when off: the design emulates pull-downs.
const EMULATE: bool = true;

pub(super) static BOARD: Board = Board {
    id: BoardId::AlchitryCu,
    name: "Alchitry Cu V1 + Io V1",
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
                PinDef::led("led[2]", "K12", ActiveHigh, "Cu LED 2"),
                PinDef::led("led[3]", "K14", ActiveHigh, "Cu LED 3"),
                PinDef::led("led[4]", "L12", ActiveHigh, "Cu LED 4"),
                PinDef::led("led[5]", "L14", ActiveHigh, "Cu LED 5"),
                PinDef::led("led[6]", "M12", ActiveHigh, "Cu LED 6"),
                PinDef::led("led[7]", "N14", ActiveHigh, "Cu LED 7"),
            ],
        ),
        Resource::many(
            "io_led",
            "Io LEDs",
            Kind::LedBank(None),
            &[
                PinDef::led("io_led[0]", "G14", ActiveHigh, "Io LED group 0 bit 0"),
                PinDef::led("io_led[1]", "F14", ActiveHigh, "Io LED group 0 bit 1"),
                PinDef::led("io_led[2]", "E12", ActiveHigh, "Io LED group 0 bit 2"),
                PinDef::led("io_led[3]", "E14", ActiveHigh, "Io LED group 0 bit 3"),
                PinDef::led("io_led[4]", "D14", ActiveHigh, "Io LED group 0 bit 4"),
                PinDef::led("io_led[5]", "C14", ActiveHigh, "Io LED group 0 bit 5"),
                PinDef::led("io_led[6]", "B14", ActiveHigh, "Io LED group 0 bit 6"),
                PinDef::led("io_led[7]", "A12", ActiveHigh, "Io LED group 0 bit 7"),
                PinDef::led("io_led[8]", "C10", ActiveHigh, "Io LED group 1 bit 0"),
                PinDef::led("io_led[9]", "C9", ActiveHigh, "Io LED group 1 bit 1"),
                PinDef::led("io_led[10]", "A11", ActiveHigh, "Io LED group 1 bit 2"),
                PinDef::led("io_led[11]", "A10", ActiveHigh, "Io LED group 1 bit 3"),
                PinDef::led("io_led[12]", "A7", ActiveHigh, "Io LED group 1 bit 4"),
                PinDef::led("io_led[13]", "A6", ActiveHigh, "Io LED group 1 bit 5"),
                PinDef::led("io_led[14]", "A4", ActiveHigh, "Io LED group 1 bit 6"),
                PinDef::led("io_led[15]", "A3", ActiveHigh, "Io LED group 1 bit 7"),
                PinDef::led("io_led[16]", "A2", ActiveHigh, "Io LED group 2 bit 0"),
                PinDef::led("io_led[17]", "A1", ActiveHigh, "Io LED group 2 bit 1"),
                PinDef::led("io_led[18]", "C3", ActiveHigh, "Io LED group 2 bit 2"),
                PinDef::led("io_led[19]", "D3", ActiveHigh, "Io LED group 2 bit 3"),
                PinDef::led("io_led[20]", "B1", ActiveHigh, "Io LED group 2 bit 4"),
                PinDef::led("io_led[21]", "C1", ActiveHigh, "Io LED group 2 bit 5"),
                PinDef::led("io_led[22]", "D1", ActiveHigh, "Io LED group 2 bit 6"),
                PinDef::led("io_led[23]", "E1", ActiveHigh, "Io LED group 2 bit 7"),
            ],
        ),
        Resource::many(
            "io_dip",
            "Io DIP switches",
            Kind::SwitchBank,
            &[
                dip("io_dip[0]", "G12", "Io DIP group 0 bit 0", EMULATE),
                dip("io_dip[1]", "F12", "Io DIP group 0 bit 1", EMULATE),
                dip("io_dip[2]", "F11", "Io DIP group 0 bit 2", EMULATE),
                dip("io_dip[3]", "E11", "Io DIP group 0 bit 3", EMULATE),
                dip("io_dip[4]", "D12", "Io DIP group 0 bit 4", EMULATE),
                dip("io_dip[5]", "D11", "Io DIP group 0 bit 5", EMULATE),
                dip("io_dip[6]", "C12", "Io DIP group 0 bit 6", EMULATE),
                dip("io_dip[7]", "C11", "Io DIP group 0 bit 7", EMULATE),
                dip("io_dip[8]", "D10", "Io DIP group 1 bit 0", EMULATE),
                dip("io_dip[9]", "D9", "Io DIP group 1 bit 1", EMULATE),
                dip("io_dip[10]", "D7", "Io DIP group 1 bit 2", EMULATE),
                dip("io_dip[11]", "D6", "Io DIP group 1 bit 3", EMULATE),
                dip("io_dip[12]", "C7", "Io DIP group 1 bit 4", EMULATE),
                dip("io_dip[13]", "C6", "Io DIP group 1 bit 5", EMULATE),
                dip("io_dip[14]", "A5", "Io DIP group 1 bit 6", EMULATE),
                dip("io_dip[15]", "C5", "Io DIP group 1 bit 7", EMULATE),
                dip("io_dip[16]", "D5", "Io DIP group 2 bit 0", EMULATE),
                dip("io_dip[17]", "C4", "Io DIP group 2 bit 1", EMULATE),
                dip("io_dip[18]", "D4", "Io DIP group 2 bit 2", EMULATE),
                dip("io_dip[19]", "E4", "Io DIP group 2 bit 3", EMULATE),
                dip("io_dip[20]", "F4", "Io DIP group 2 bit 4", EMULATE),
                dip("io_dip[21]", "F3", "Io DIP group 2 bit 5", EMULATE),
                dip("io_dip[22]", "H4", "Io DIP group 2 bit 6", EMULATE),
                dip("io_dip[23]", "G4", "Io DIP group 2 bit 7", EMULATE),
            ],
        ),
        Resource::many(
            "io_button",
            "Io buttons",
            Kind::ButtonBank {
                labels: IO_BUTTONS,
            },
            &[
                button("io_button[0]", "G11", "Io button up", EMULATE),
                button("io_button[1]", "H11", "Io button centre", EMULATE),
                button("io_button[2]", "H12", "Io button down", EMULATE),
                button("io_button[3]", "J12", "Io button left", EMULATE),
                button("io_button[4]", "P2", "Io button right", EMULATE),
            ],
        ),
        Resource::many(
            "io_display",
            "Io 4-digit display",
            Kind::MuxDisplay { digits: 4 },
            &[
                PinDef::digit_select("io_sel[0]", "G3", ActiveLow, "Io rightmost digit"),
                PinDef::digit_select("io_sel[1]", "G1", ActiveLow, "Io 2nd digit from right"),
                PinDef::digit_select("io_sel[2]", "H1", ActiveLow, "Io 3rd digit from right"),
                PinDef::digit_select("io_sel[3]", "H3", ActiveLow, "Io leftmost digit"),
                PinDef::segment("io_seg[0]", "J1", ActiveLow, "Io segment A"),
                PinDef::segment("io_seg[1]", "J3", ActiveLow, "Io segment B"),
                PinDef::segment("io_seg[2]", "N1", ActiveLow, "Io segment C"),
                PinDef::segment("io_seg[3]", "K4", ActiveLow, "Io segment D"),
                PinDef::segment("io_seg[4]", "K3", ActiveLow, "Io segment E"),
                PinDef::segment("io_seg[5]", "L1", ActiveLow, "Io segment F"),
                PinDef::segment("io_seg[6]", "M1", ActiveLow, "Io segment G"),
                PinDef::segment("io_seg[7]", "P1", ActiveLow, "Io decimal point"),
            ],
        ),
    ],
    sources: &[
        "alchitry/Alchitry-Labs-V2 CuPin.kt + Constraints/io_v1.acf + alchitry.acf",
        "cross-checked: r1cebank/alchitry-cu-utils alchitry_cu.pcf (exact match), litex-boards alchitry_cu.py",
    ],
    confidence: Confidence::High,
    plls: CU_PLLS,
    notes: &[
        "io_dip and io_button float when off: the Io V1 has no pull-downs and the iCE40 has none, so emulate pull-downs in the design",
        "io_seg and io_sel are ACTIVE LOW; io_sel[0] is the rightmost digit; io_seg bit0 = A .. bit6 = G, bit7 = DP",
    ],
};

/// The PLL settings of the Cu's 100 MHz clock (both versions): 50 MHz, `icepll -i 100 -o 50`
/// (DIVR 0, DIVF 7, DIVQ 4, FILTER_RANGE 5; exact, VCO 800 MHz), and 25 MHz, `icepll -i 100 -o
/// 25` (DIVQ 5, the rest the same).
pub(super) const CU_PLLS: &[Pll] = &[
    Pll {
        hz: 50_000_000,
        divr: 0,
        divf: 7,
        divq: 4,
        filter_range: 5,
    },
    Pll {
        hz: 25_000_000,
        divr: 0,
        divf: 7,
        divq: 5,
        filter_range: 5,
    },
];

/// The Io's five buttons, in `io_button` bit order (both versions).
pub(super) const IO_BUTTONS: &[&str] = &["up", "centre", "down", "left", "right"];

/// The Cu's 100 MHz oscillator (both versions).
pub(super) const fn clock() -> Resource {
    Resource::one(
        "100 MHz oscillator",
        Kind::Clock,
        PinDef::clock("clk", "P7", "100 MHz oscillator"),
    )
}

/// The Cu's reset button (both versions): active low.
pub(super) const fn reset() -> Resource {
    Resource::one(
        "Cu reset button",
        Kind::ResetButton,
        PinDef::reset("rst_n", "P8", ActiveLow, "Cu reset button"),
    )
}

/// An Io DIP switch: active high, switching to 3V3 via 330R; `emulate`: it floats when off
/// (Io V1), so the design emulates a pull-down.
pub(super) const fn dip(
    name: &'static str,
    location: &'static str,
    note: &'static str,
    emulate: bool,
) -> PinDef {
    pull_down(PinDef::switch(name, location, ActiveHigh, note), emulate)
}

/// An Io push button: as [`dip`].
pub(super) const fn button(
    name: &'static str,
    location: &'static str,
    note: &'static str,
    emulate: bool,
) -> PinDef {
    pull_down(PinDef::button(name, location, ActiveHigh, note), emulate)
}

const fn pull_down(pin: PinDef, emulate: bool) -> PinDef {
    if emulate {
        pin.with_pull_down_emulation()
    } else {
        pin
    }
}
