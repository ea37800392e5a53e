//! 1BitSquared iCEBreaker (iCE40UP5K-SG48), main board plus the snap-off
//! "iCEBreakoff" section on PMOD2.
//!
//! Sources (from `shared/boards.md`, confidence high):
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

use super::{
    Board, BoardId, Clock, Confidence, Designs, Device, Dir, Jr01In, Jr01Out, PinDef, Polarity,
    Role, SolverIn, SolverOut, SticksIn, SticksOut, Wire,
};

use Dir::{Input, Output};
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
    pins: PINS,
    sources: &[
        "icebreaker-fpga/icebreaker-examples icebreaker/icebreaker.pcf (de9e3f8)",
        "polarity: icebreaker-fpga/icebreaker hardware/v1.0e/icebreaker.kicad_pcb",
        "cross-checked: amaranth-boards icebreaker.py, litex-boards 1bitsquared_icebreaker.py",
    ],
    confidence: Confidence::High,
    designs: DESIGNS,
    design_clocks: &[],
    notes: &[
        "snap-off LED numbering is the current vendor one, NOT icestorm's old examples/icebreaker/icebreaker.pcf",
        "the v1.0e back silkscreen swaps L4/L5; the front labels and all PCFs agree with this file",
    ],
};

/// J.R. 01: the snap-off buttons toggle A B C, the snap-off green LEDs show
/// them, and X Y Z are on LED5 and the main board's red and green LEDs. LED1
/// (the red centre LED) and BTN_N are not used.
/// Sticks: the snap-off buttons take 1, 2, 3; BTN_N starts a game; LED1..LED5
/// show the sticks left in binary; green is your turn, red the machine
/// thinking (and lit while BTN_N has been held 1 s).
/// Solver: the same controls and lights, playing the default game (Fort
/// Boyard: 18 sticks, take 1-3, last loses) solved on the chip at each start.
const DESIGNS: Designs = Designs {
    jr01: &[
        Wire::Input("BTN1", Jr01In::Toggle(2)),
        Wire::Input("BTN2", Jr01In::Toggle(1)),
        Wire::Input("BTN3", Jr01In::Toggle(0)),
        Wire::Output("LED2", Jr01Out::Position(2)),
        Wire::Output("LED3", Jr01Out::Position(1)),
        Wire::Output("LED4", Jr01Out::Position(0)),
        Wire::Output("LED5", Jr01Out::Answer(2)),
        Wire::Output("LEDR_N", Jr01Out::Answer(1)),
        Wire::Output("LEDG_N", Jr01Out::Answer(0)),
    ],
    sticks: &[
        Wire::Input("BTN_N", SticksIn::Start),
        Wire::Input("BTN1", SticksIn::Take(1)),
        Wire::Input("BTN2", SticksIn::Take(2)),
        Wire::Input("BTN3", SticksIn::Take(3)),
        Wire::Output("LED1", SticksOut::Count(0)),
        Wire::Output("LED2", SticksOut::Count(1)),
        Wire::Output("LED3", SticksOut::Count(2)),
        Wire::Output("LED4", SticksOut::Count(3)),
        Wire::Output("LED5", SticksOut::Count(4)),
        Wire::Output("LEDR_N", SticksOut::Thinking),
        Wire::Output("LEDG_N", SticksOut::Turn),
    ],
    sticks_held_lights: &["LEDR_N"],
    solver: &[
        Wire::Input("BTN_N", SolverIn::Start),
        Wire::Input("BTN1", SolverIn::Take(1)),
        Wire::Input("BTN2", SolverIn::Take(2)),
        Wire::Input("BTN3", SolverIn::Take(3)),
        Wire::Output("LED1", SolverOut::Count(0)),
        Wire::Output("LED2", SolverOut::Count(1)),
        Wire::Output("LED3", SolverOut::Count(2)),
        Wire::Output("LED4", SolverOut::Count(3)),
        Wire::Output("LED5", SolverOut::Count(4)),
        Wire::Output("LEDR_N", SolverOut::Thinking),
        Wire::Output("LEDG_N", SolverOut::Turn),
    ],
    solver_held_lights: &["LEDR_N"],
};

const PINS: &[PinDef] = &[
    PinDef::new(
        "CLK",
        "35",
        Input,
        ActiveHigh,
        Role::Clock,
        "12 MHz oscillator",
    ),
    PinDef::new(
        "BTN_N",
        "10",
        Input,
        ActiveLow,
        Role::Button,
        "main-board user button; 10k external pull-up (R13)",
    ),
    PinDef::new(
        "LEDR_N",
        "11",
        Output,
        ActiveLow,
        Role::Led,
        "main-board red LED",
    ),
    PinDef::new(
        "LEDG_N",
        "37",
        Output,
        ActiveLow,
        Role::Led,
        "main-board green LED",
    ),
    PinDef::new(
        "LED1",
        "26",
        Output,
        ActiveHigh,
        Role::Led,
        "snap-off P2_7, centre red (L1)",
    ),
    PinDef::new(
        "LED2",
        "27",
        Output,
        ActiveHigh,
        Role::Led,
        "snap-off P2_1, green (L2)",
    ),
    PinDef::new(
        "LED3",
        "25",
        Output,
        ActiveHigh,
        Role::Led,
        "snap-off P2_2, green (L3)",
    ),
    PinDef::new(
        "LED4",
        "23",
        Output,
        ActiveHigh,
        Role::Led,
        "snap-off P2_8, green (L4)",
    ),
    PinDef::new(
        "LED5",
        "21",
        Output,
        ActiveHigh,
        Role::Led,
        "snap-off P2_3, green (L5)",
    ),
    PinDef::new(
        "BTN1",
        "20",
        Input,
        ActiveHigh,
        Role::Button,
        "snap-off P2_9; 10k external pull-down",
    ),
    PinDef::new(
        "BTN2",
        "19",
        Input,
        ActiveHigh,
        Role::Button,
        "snap-off P2_4; 10k external pull-down",
    ),
    PinDef::new(
        "BTN3",
        "18",
        Input,
        ActiveHigh,
        Role::Button,
        "snap-off P2_10; 10k external pull-down",
    ),
];
