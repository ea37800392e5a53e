//! Alchitry Cu V1 (iCE40HX8K-CB132) with an Io V1 element.
//!
//! Sources (from `shared/boards.md`, confidence high): composed from two
//! Alchitry files in alchitry/Alchitry-Labs-V2, `hardware/pinout/CuPin.kt`
//! (connector pin -> ball) and `Constraints/io_v1.acf` (Io signal ->
//! connector pin); `alchitry.acf` for clk (100 MHz), rst_n and led[0..7].
//! Cross-checked: r1cebank/alchitry-cu-utils `alchitry_cu.pcf` matches all
//! lines exactly; litex-boards `alchitry_cu.py`, icestudio and apio-examples
//! agree on clock, reset, LEDs and the bank A/B map.
//!
//! Io 2-D indices are flattened as `[group*8+bit]`; group 0 is the rightmost.
//! Polarity (Alchitry Io tutorial): rst_n active low; LEDs active high;
//! io_seg and io_sel active low; io_seg bit0 = A ... bit6 = G, bit7 = DP;
//! io_sel[0] = rightmost digit; buttons up, centre, down, left, right.
//!
//! **Pull-down caveat:** io_dip and io_button switch to 3V3 through 330R, the
//! Io V1 has no pull-downs and the iCE40 has no internal pull-downs, so the
//! design must emulate them (Alchitry's `fake_pull_down`: drive the pin low,
//! release, wait ~30 ns, sample; ports declared `inout`).

use super::{
    Board, BoardId, Clock, Confidence, Designs, Device, Dir, Jr01In, Jr01Out, PinDef, Polarity,
    Role, SolverIn, SolverOut, SticksIn, SticksOut, Wire,
};

use Dir::{Input, Output};
use Polarity::{ActiveHigh, ActiveLow};

pub(super) static BOARD: Board = Board {
    id: BoardId::AlchitryCu,
    name: "Alchitry Cu V1 + Io V1",
    device: Device::Hx8k,
    package: "cb132",
    clock: Clock {
        pin: "clk",
        hz: 100_000_000,
    },
    pins: PINS,
    sources: &[
        "alchitry/Alchitry-Labs-V2 CuPin.kt + Constraints/io_v1.acf + alchitry.acf",
        "cross-checked: r1cebank/alchitry-cu-utils alchitry_cu.pcf (exact match), litex-boards alchitry_cu.py",
    ],
    confidence: Confidence::High,
    designs: DESIGNS,
    design_clocks: CU_DESIGN_CLOCKS,
    notes: &[
        "io_dip and io_button float when off: the Io V1 has no pull-downs and the iCE40 has none, so emulate pull-downs in the design",
        "io_seg and io_sel are ACTIVE LOW; io_sel[0] is the rightmost digit; io_seg bit0 = A .. bit6 = G, bit7 = DP",
    ],
};

/// The Cu's clocks by design (both Io versions): the solver design runs at 50 MHz from the
/// PLL (`icepll -i 100 -o 50`: DIVR 0, DIVF 7, DIVQ 4, FILTER_RANGE 5; exact): its
/// block-RAM solver alone reaches 100 to 115 MHz on the HX8K over placer seeds 1 to 8,
/// short of 1.2x the 100 MHz board clock. Every other design runs at 100 MHz.
pub(super) const CU_DESIGN_CLOCKS: &[super::DesignClock] = &[super::DesignClock {
    design: "solver",
    pll: super::Pll {
        hz: 50_000_000,
        divr: 0,
        divf: 7,
        divq: 4,
        filter_range: 5,
    },
}];

/// Both Io versions (also used by `alchitry_cu_v2`). Io numbering:
/// `io_dip[0..7]` and `io_led[0..7]` are the rightmost group;
/// `io_button[0..4]` = up, centre, down, left, right.
/// J.R. 01: the three rightmost DIP switches set C B A (io_dip[0] = C); the
/// LEDs above them show the position, io_led[6..4] the answer X Y Z; the
/// leftmost digit shows the position, the rightmost the answer.
/// Sticks: left, centre, right take 1, 2, 3; up starts a new game; DIP 0 on:
/// the machine moves first; rst_n resets; the display shows the sticks
/// left, `-` and the machine's last take; io_led[0] your turn, [1] thinking,
/// [7] echoes DIP 0; at game over all eight blink.
/// Solver: io_dip[7:0] the take set (DIP k-1: take k allowed), io_dip[15:8]
/// the count, [16] last stick wins, [17] machine first, io_dip[23:20] your
/// take; up reads the switches, solves and starts a game, centre plays your
/// take; the display shows the sticks left (3 digits) and the machine's last
/// take; io_led[7:0] the game's take set, [15:8] the sticks left, [16] your
/// turn, [17] thinking, [18] last stick wins.
pub(super) const DESIGNS: Designs = Designs {
    jr01: &[
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
        Wire::OutputBus("io_seg", &DISPLAY_SEGMENTS_JR01),
        Wire::OutputBus(
            "io_sel",
            &[
                Jr01Out::DigitSelect(0),
                Jr01Out::DigitSelect(1),
                Jr01Out::DigitSelect(2),
                Jr01Out::DigitSelect(3),
            ],
        ),
    ],
    sticks: &[
        Wire::Input("rst_n", SticksIn::Reset),
        Wire::InputBus(
            "io_button",
            &[
                SticksIn::NewGame,
                SticksIn::Take(2),
                SticksIn::Unused,
                SticksIn::Take(1),
                SticksIn::Take(3),
            ],
        ),
        Wire::InputBus(
            "io_dip",
            &[
                SticksIn::MachineFirst,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
                SticksIn::Unused,
            ],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                SticksOut::Turn,
                SticksOut::Thinking,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::Dark,
                SticksOut::MachineFirst,
            ],
        ),
        Wire::OutputBus("io_seg", &DISPLAY_SEGMENTS_STICKS),
        Wire::OutputBus(
            "io_sel",
            &[
                SticksOut::DigitSelect(0),
                SticksOut::DigitSelect(1),
                SticksOut::DigitSelect(2),
                SticksOut::DigitSelect(3),
            ],
        ),
    ],
    sticks_held_lights: &[],
    solver: &[
        Wire::Input("rst_n", SolverIn::Reset),
        Wire::InputBus(
            "io_button",
            &[
                SolverIn::NewGame,
                SolverIn::Move,
                SolverIn::Unused,
                SolverIn::Unused,
                SolverIn::Unused,
            ],
        ),
        Wire::InputBus(
            "io_dip",
            &[
                SolverIn::TakeSetSwitch(1),
                SolverIn::TakeSetSwitch(2),
                SolverIn::TakeSetSwitch(3),
                SolverIn::TakeSetSwitch(4),
                SolverIn::TakeSetSwitch(5),
                SolverIn::TakeSetSwitch(6),
                SolverIn::TakeSetSwitch(7),
                SolverIn::TakeSetSwitch(8),
                SolverIn::CountSwitch(0),
                SolverIn::CountSwitch(1),
                SolverIn::CountSwitch(2),
                SolverIn::CountSwitch(3),
                SolverIn::CountSwitch(4),
                SolverIn::CountSwitch(5),
                SolverIn::CountSwitch(6),
                SolverIn::CountSwitch(7),
                SolverIn::LastWinsSwitch,
                SolverIn::MachineFirstSwitch,
                SolverIn::Unused,
                SolverIn::Unused,
                SolverIn::TakeSwitch(0),
                SolverIn::TakeSwitch(1),
                SolverIn::TakeSwitch(2),
                SolverIn::TakeSwitch(3),
            ],
        ),
        Wire::OutputBus(
            "io_led",
            &[
                SolverOut::GameTake(1),
                SolverOut::GameTake(2),
                SolverOut::GameTake(3),
                SolverOut::GameTake(4),
                SolverOut::GameTake(5),
                SolverOut::GameTake(6),
                SolverOut::GameTake(7),
                SolverOut::GameTake(8),
                SolverOut::Count(0),
                SolverOut::Count(1),
                SolverOut::Count(2),
                SolverOut::Count(3),
                SolverOut::Count(4),
                SolverOut::Count(5),
                SolverOut::Count(6),
                SolverOut::Count(7),
                SolverOut::Turn,
                SolverOut::Thinking,
                SolverOut::GameLastWins,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
                SolverOut::Dark,
            ],
        ),
        Wire::OutputBus("io_seg", &DISPLAY_SEGMENTS_SOLVER),
        Wire::OutputBus(
            "io_sel",
            &[
                SolverOut::DigitSelect(0),
                SolverOut::DigitSelect(1),
                SolverOut::DigitSelect(2),
                SolverOut::DigitSelect(3),
            ],
        ),
    ],
    solver_held_lights: &[],
};

const DISPLAY_SEGMENTS_SOLVER: [SolverOut; 8] = [
    SolverOut::DisplaySegment(0),
    SolverOut::DisplaySegment(1),
    SolverOut::DisplaySegment(2),
    SolverOut::DisplaySegment(3),
    SolverOut::DisplaySegment(4),
    SolverOut::DisplaySegment(5),
    SolverOut::DisplaySegment(6),
    SolverOut::DisplaySegment(7),
];

const DISPLAY_SEGMENTS_JR01: [Jr01Out; 8] = [
    Jr01Out::DisplaySegment(0),
    Jr01Out::DisplaySegment(1),
    Jr01Out::DisplaySegment(2),
    Jr01Out::DisplaySegment(3),
    Jr01Out::DisplaySegment(4),
    Jr01Out::DisplaySegment(5),
    Jr01Out::DisplaySegment(6),
    Jr01Out::DisplaySegment(7),
];

const DISPLAY_SEGMENTS_STICKS: [SticksOut; 8] = [
    SticksOut::DisplaySegment(0),
    SticksOut::DisplaySegment(1),
    SticksOut::DisplaySegment(2),
    SticksOut::DisplaySegment(3),
    SticksOut::DisplaySegment(4),
    SticksOut::DisplaySegment(5),
    SticksOut::DisplaySegment(6),
    SticksOut::DisplaySegment(7),
];

/// LEDs (Cu and Io): active high.
const fn led(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveHigh, Role::Led, note)
}

/// Io input: active high, switches to 3V3 via 330R and floats otherwise
/// (no pull-down on the Io V1), so it needs pull-down emulation.
const fn io_input(
    name: &'static str,
    location: &'static str,
    role: Role,
    note: &'static str,
) -> PinDef {
    PinDef::new(name, location, Input, ActiveHigh, role, note).with_pull_down_emulation()
}

const fn dip(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    io_input(name, location, Role::Switch, note)
}

const fn button(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    io_input(name, location, Role::Button, note)
}

/// 7-segment digit select: active low.
const fn sel(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveLow, Role::DigitSelect, note)
}

/// 7-segment segment: active low.
const fn seg(name: &'static str, location: &'static str, note: &'static str) -> PinDef {
    PinDef::new(name, location, Output, ActiveLow, Role::Segment, note)
}

const PINS: &[PinDef] = &[
    PinDef::new(
        "clk",
        "P7",
        Input,
        ActiveHigh,
        Role::Clock,
        "100 MHz oscillator",
    ),
    PinDef::new(
        "rst_n",
        "P8",
        Input,
        ActiveLow,
        Role::Reset,
        "Cu reset button",
    ),
    led("led[0]", "J11", "Cu LED 0"),
    led("led[1]", "K11", "Cu LED 1"),
    led("led[2]", "K12", "Cu LED 2"),
    led("led[3]", "K14", "Cu LED 3"),
    led("led[4]", "L12", "Cu LED 4"),
    led("led[5]", "L14", "Cu LED 5"),
    led("led[6]", "M12", "Cu LED 6"),
    led("led[7]", "N14", "Cu LED 7"),
    led("io_led[0]", "G14", "Io LED group 0 bit 0"),
    led("io_led[1]", "F14", "Io LED group 0 bit 1"),
    led("io_led[2]", "E12", "Io LED group 0 bit 2"),
    led("io_led[3]", "E14", "Io LED group 0 bit 3"),
    led("io_led[4]", "D14", "Io LED group 0 bit 4"),
    led("io_led[5]", "C14", "Io LED group 0 bit 5"),
    led("io_led[6]", "B14", "Io LED group 0 bit 6"),
    led("io_led[7]", "A12", "Io LED group 0 bit 7"),
    led("io_led[8]", "C10", "Io LED group 1 bit 0"),
    led("io_led[9]", "C9", "Io LED group 1 bit 1"),
    led("io_led[10]", "A11", "Io LED group 1 bit 2"),
    led("io_led[11]", "A10", "Io LED group 1 bit 3"),
    led("io_led[12]", "A7", "Io LED group 1 bit 4"),
    led("io_led[13]", "A6", "Io LED group 1 bit 5"),
    led("io_led[14]", "A4", "Io LED group 1 bit 6"),
    led("io_led[15]", "A3", "Io LED group 1 bit 7"),
    led("io_led[16]", "A2", "Io LED group 2 bit 0"),
    led("io_led[17]", "A1", "Io LED group 2 bit 1"),
    led("io_led[18]", "C3", "Io LED group 2 bit 2"),
    led("io_led[19]", "D3", "Io LED group 2 bit 3"),
    led("io_led[20]", "B1", "Io LED group 2 bit 4"),
    led("io_led[21]", "C1", "Io LED group 2 bit 5"),
    led("io_led[22]", "D1", "Io LED group 2 bit 6"),
    led("io_led[23]", "E1", "Io LED group 2 bit 7"),
    dip("io_dip[0]", "G12", "Io DIP group 0 bit 0"),
    dip("io_dip[1]", "F12", "Io DIP group 0 bit 1"),
    dip("io_dip[2]", "F11", "Io DIP group 0 bit 2"),
    dip("io_dip[3]", "E11", "Io DIP group 0 bit 3"),
    dip("io_dip[4]", "D12", "Io DIP group 0 bit 4"),
    dip("io_dip[5]", "D11", "Io DIP group 0 bit 5"),
    dip("io_dip[6]", "C12", "Io DIP group 0 bit 6"),
    dip("io_dip[7]", "C11", "Io DIP group 0 bit 7"),
    dip("io_dip[8]", "D10", "Io DIP group 1 bit 0"),
    dip("io_dip[9]", "D9", "Io DIP group 1 bit 1"),
    dip("io_dip[10]", "D7", "Io DIP group 1 bit 2"),
    dip("io_dip[11]", "D6", "Io DIP group 1 bit 3"),
    dip("io_dip[12]", "C7", "Io DIP group 1 bit 4"),
    dip("io_dip[13]", "C6", "Io DIP group 1 bit 5"),
    dip("io_dip[14]", "A5", "Io DIP group 1 bit 6"),
    dip("io_dip[15]", "C5", "Io DIP group 1 bit 7"),
    dip("io_dip[16]", "D5", "Io DIP group 2 bit 0"),
    dip("io_dip[17]", "C4", "Io DIP group 2 bit 1"),
    dip("io_dip[18]", "D4", "Io DIP group 2 bit 2"),
    dip("io_dip[19]", "E4", "Io DIP group 2 bit 3"),
    dip("io_dip[20]", "F4", "Io DIP group 2 bit 4"),
    dip("io_dip[21]", "F3", "Io DIP group 2 bit 5"),
    dip("io_dip[22]", "H4", "Io DIP group 2 bit 6"),
    dip("io_dip[23]", "G4", "Io DIP group 2 bit 7"),
    button("io_button[0]", "G11", "Io button up"),
    button("io_button[1]", "H11", "Io button centre"),
    button("io_button[2]", "H12", "Io button down"),
    button("io_button[3]", "J12", "Io button left"),
    button("io_button[4]", "P2", "Io button right"),
    sel("io_sel[0]", "G3", "Io rightmost digit"),
    sel("io_sel[1]", "G1", "Io 2nd digit from right"),
    sel("io_sel[2]", "H1", "Io 3rd digit from right"),
    sel("io_sel[3]", "H3", "Io leftmost digit"),
    seg("io_seg[0]", "J1", "Io segment A"),
    seg("io_seg[1]", "J3", "Io segment B"),
    seg("io_seg[2]", "N1", "Io segment C"),
    seg("io_seg[3]", "K4", "Io segment D"),
    seg("io_seg[4]", "K3", "Io segment E"),
    seg("io_seg[5]", "L1", "Io segment F"),
    seg("io_seg[6]", "M1", "Io segment G"),
    seg("io_seg[7]", "P1", "Io decimal point"),
];
