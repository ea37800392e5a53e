//! Board tops: one top per design, assembled from the design's layout on a board. A design's
//! board-independent core ([`Jr01BoardCore`], [`SticksBoardCore`], [`SolverBoardCore`],
//! [`HeapsBoardCore`]) is
//! wrapped by a pin wrapper ([`BoardTop`], [`pins`]) built from the design's [`Layout`] on the
//! board, which requests the board's resources by name ([`layout`]); the top's ports are the
//! board's PCF pin names, so `board::render_pcf(board, ports)` constrains every port.
//!
//! Each design is one module here, holding its roles, its layouts, its core and its top
//! builder: [`jr01`], [`sticks`], [`solver`], [`heaps`] (the one design without a layout on
//! every board: [`Design::runs_on`]). [`BOARD_DESIGNS`] lists them for the listings
//! (`retrogate boards`, the tables of `docs/boards.md`, [`doc`]) and for the design-keyed clock
//! queries ([`Board::pll`], [`Board::design_clock_hz`]). [`top_verilog`] builds the top for a
//! [`BoardId`] and [`Design`] and emits it as `<design>_<board>` (e.g. `sticks_icebreaker`) with
//! its port list.
//!
//! A new design is a new module here (its roles, layouts, core and top builder), its entry in
//! [`BOARD_DESIGNS`], and its [`Design`] variant with its arm in [`top_verilog`]; no board file
//! changes. A new board is its file in `crate::board` plus, where a design should run on it,
//! a layout in that design's module.

#[cfg(test)]
mod board_tests;
pub mod doc;
pub mod heaps;
pub mod heaps_pages;
pub mod jr01;
pub mod layout;
pub mod pins;
pub mod solver;
pub mod sticks;

pub use heaps::{heaps_keys, heaps_modes, heaps_top, HeapsBoardCore, HeapsIn, HeapsOut};
pub use jr01::{jr01_strategy, jr01_top, Jr01BoardCore, Jr01In, Jr01Out, Jr01Panel};
pub use layout::{BoardDesign, Layout, PinUse, Wire};
pub use pins::{BoardCore, BoardTop, PLL_CLOCK, PLL_LOCK_CYCLES};
pub use solver::{
    solver_keys, solver_pages, solver_setup, solver_top, SolverBoardCore, SolverIn, SolverOut,
    SolverSetup,
};
pub use sticks::{
    sticks_keys, sticks_top, StartKeys, SticksBoardCore, SticksConsole, SticksIn, SticksOut,
    SticksParams,
};

use std::fmt;

use super::board_io::PullDownTiming;
use super::jr01::Jr01Error;
use super::CircuitError;
use crate::board::{Board, BoardError, BoardId, Pll};
use crate::game::{Game, SticksGame};
use crate::verilog::{module_ports, ModulePort, PortDir, VerilogError};

/// Every design with board tops, in listing order (`retrogate boards`, `docs/boards.md`): the
/// one list a new design joins.
pub const BOARD_DESIGNS: &[BoardDesign] = &[
    jr01::BOARD_DESIGN,
    sticks::BOARD_DESIGN,
    solver::BOARD_DESIGN,
    heaps::BOARD_DESIGN,
];

/// The design-keyed clock queries: which clock a design runs at on a board is the design's
/// choice ([`Layout::pll_hz`]), made from the PLL settings the board offers ([`Board::plls`]).
impl Board {
    /// The PLL that clocks `design` (a `--design` name such as `"solver"`) on this board, if any.
    ///
    /// # Panics
    /// If the design's layout asks for a frequency the board has no PLL setting for (the layout
    /// tests check every design on every board).
    pub fn pll(&self, design: &str) -> Option<&Pll> {
        let hz = BOARD_DESIGNS
            .iter()
            .find(|d| d.name == design)
            .and_then(|d| (d.pll_hz)(self.id))?;
        Some(self.pll_at(hz).unwrap_or_else(|| {
            panic!(
                "board data: {} has no PLL setting for {hz} Hz ({design})",
                self.id
            )
        }))
    }

    /// The clock `design` runs at on this board, Hz: its PLL's output, else the board clock.
    pub fn design_clock_hz(&self, design: &str) -> u32 {
        self.pll(design).map_or(self.clock.hz, |p| p.hz)
    }

    /// [`Board::design_clock_hz`] in MHz: the timing target of a build of `design`.
    pub fn design_clock_mhz(&self, design: &str) -> f64 {
        f64::from(self.design_clock_hz(design)) / 1_000_000.0
    }
}

/// What to put on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Design {
    /// The J.R. 01 strategy: set the position A B C, read the answer X Y Z.
    Jr01,
    /// Play a subtraction game (Fort Boyard by default) against the machine.
    Sticks(SticksGame),
    /// Set a subtraction game on the board, which solves it itself (the
    /// on-chip solver) and plays it; boards without the controls play Fort
    /// Boyard, solved on the chip.
    Solver,
    /// The KEGE heap game (exam tasks 19-21) set on the board's switches, solved on the chip
    /// and played on its buttons, with the exam's answers on an answers page (the Alchitry
    /// boards).
    Heaps,
}

impl Design {
    /// The default sticks game: 18 sticks, take 1, 2 or 3, last stick loses.
    pub fn sticks() -> Self {
        Design::Sticks(SticksGame::fort_boyard())
    }

    /// `"jr01"`, `"sticks"`, `"solver"` or `"heaps"`.
    pub fn name(&self) -> &'static str {
        match self {
            Design::Jr01 => "jr01",
            Design::Sticks(_) => "sticks",
            Design::Solver => "solver",
            Design::Heaps => "heaps",
        }
    }

    /// Every design, with its default game, in [`BOARD_DESIGNS`] order.
    pub fn every() -> [Design; 4] {
        [
            Design::Jr01,
            Design::sticks(),
            Design::Solver,
            Design::Heaps,
        ]
    }

    /// The design a `--design` name (a [`BOARD_DESIGNS`] name) builds by default.
    pub fn named(name: &str) -> Option<Design> {
        Design::every().into_iter().find(|d| d.name() == name)
    }

    /// Whether the design has a layout on `board` (every design but `heaps` runs on every
    /// board).
    pub fn runs_on(&self, board: BoardId) -> bool {
        match self {
            Design::Heaps => heaps::layout(board).is_some(),
            _ => true,
        }
    }
}

impl fmt::Display for Design {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Design::Jr01 => f.write_str("jr01"),
            Design::Sticks(g) => write!(
                f,
                "sticks ({} sticks, take {}, last {})",
                g.count(),
                crate::game::join_commas(g.take()),
                g.last()
            ),
            Design::Solver => f.write_str("solver (the game set on the board, solved on the chip)"),
            Design::Heaps => {
                f.write_str("heaps (the KEGE heap game set on the board, solved on the chip)")
            }
        }
    }
}

/// The tops' time base and human-scale times. Every timer counts ticks of one
/// [`TimeBase`](crate::circuit::board_io::TimeBase) per top (1 ms on a board), so each
/// counter is as wide as its own limit needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Board clock cycles per tick (1 ms: the clock in kHz).
    pub tick_cycles: u64,
    /// Buttons are sampled every this many ticks (16 ms: longer than any bounce).
    pub debounce_ticks: u64,
    /// The machine "thinks" this many ticks before moving (0.5 s).
    pub think_ticks: u64,
    /// The blink phase advances every this many ticks (125 ms: 4 Hz fast, 1 Hz slow).
    pub blink_ticks: u64,
    /// A press at least this many ticks long is a long press (1 s).
    pub long_press_ticks: u64,
    /// Each digit of a multiplexed display is lit this many ticks (1 ms).
    pub digit_ticks: u64,
    /// Pull-down emulation (Alchitry Io V1), in clock cycles.
    pub pull_down: PullDownTiming,
}

impl Timing {
    /// Ticks per second on a board.
    pub const TICKS_PER_SECOND: u64 = 1000;

    /// The times above for a clock of `hz`: a tick every `round(hz / 1000)` cycles, within
    /// 1% of 1 ms for any clock of 50 kHz or more (exact for every board in
    /// [`crate::board`]).
    pub fn for_clock(hz: u32) -> Self {
        let hz = u64::from(hz);
        Timing {
            tick_cycles: ((hz + Self::TICKS_PER_SECOND / 2) / Self::TICKS_PER_SECOND).max(1),
            debounce_ticks: 16,
            think_ticks: 500,
            blink_ticks: 125,
            long_press_ticks: 1000,
            digit_ticks: 1,
            pull_down: PullDownTiming::for_clock(hz),
        }
    }

    /// The times for `board`'s clock.
    pub fn for_board(board: &Board) -> Self {
        Self::for_clock(board.clock.hz)
    }

    /// The times for the clock `design` runs at on `board` ([`Board::design_clock_hz`]: the
    /// board clock, or the PLL's output where the board data gives the design one).
    pub fn for_design(board: &Board, design: &Design) -> Self {
        Self::for_clock(board.design_clock_hz(design.name()))
    }

    /// Tiny times for simulation tests (a tick every cycle, a few ticks each).
    pub fn fast() -> Self {
        Timing {
            tick_cycles: 1,
            debounce_ticks: 2,
            think_ticks: 6,
            blink_ticks: 2,
            long_press_ticks: 12,
            digit_ticks: 2,
            pull_down: PullDownTiming {
                drive_cycles: 1,
                release_cycles: 1,
                period: 4,
            },
        }
    }
}

/// Errors building a top.
#[derive(Debug, thiserror::Error)]
pub enum TopError {
    /// The sticks game does not fit the hardware controller.
    #[error("the sticks game cannot be built for a board: {reason}")]
    UnsupportedGame {
        /// What does not fit, and the limit.
        reason: String,
    },
    /// Emitting Verilog failed.
    #[error(transparent)]
    Verilog(#[from] VerilogError),
    /// A circuit could not be built from the strategy.
    #[error(transparent)]
    Circuit(#[from] CircuitError),
    /// The J.R. 01 strategy could not be derived.
    #[error("J.R. 01 strategy: {0}")]
    Jr01(#[from] Jr01Error),
    /// The emitted Verilog has no readable port list (a bug).
    #[error("cannot read the ports of module `{module}` from its emitted Verilog")]
    Ports {
        /// The top module.
        module: String,
    },
}

/// A board top, emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopVerilog {
    /// The board.
    pub board: BoardId,
    /// `"jr01"` or `"sticks"`.
    pub design: &'static str,
    /// Top module name, `<design>_<board>` with `-` as `_`.
    pub module: String,
    /// The Verilog of the top and all its submodules.
    pub verilog: String,
    /// The top's ports, in declaration order.
    pub ports: Vec<ModulePort>,
}

impl TopVerilog {
    /// Every port bit's name (`CLK`, `io_dip[0]`, ...): the names to
    /// constrain.
    pub fn pin_names(&self) -> Vec<String> {
        self.ports.iter().flat_map(ModulePort::bit_names).collect()
    }

    /// The PCF constraining exactly the top's ports.
    pub fn pcf(&self) -> Result<String, BoardError> {
        let names = self.pin_names();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        crate::board::render_pcf(self.board.board(), &refs)
    }
}

/// The top module name for a board and design, e.g. `sticks_go_board`.
pub fn module_name(board: BoardId, design: &Design) -> String {
    format!("{}_{}", design.name(), board.as_str().replace('-', "_"))
}

/// How `retrogate build` maps `design`'s logic to LUTs ([`BoardDesign::mapping`]).
pub fn synth_mapping(design: &Design) -> crate::flow::yosys::Mapping {
    BOARD_DESIGNS
        .iter()
        .find(|d| d.name == design.name())
        .map_or(crate::flow::yosys::Mapping::Abc9, |d| d.mapping)
}

/// Build and emit the top for `board` and `design` with `timing`.
pub fn top_verilog(
    board: BoardId,
    design: &Design,
    timing: &Timing,
) -> Result<TopVerilog, TopError> {
    let module = module_name(board, design);
    let verilog = match design {
        Design::Jr01 => jr01_top(board, timing)?.verilog(&module)?,
        Design::Sticks(game) => {
            sticks::sticks_verilog(board, &SticksParams::new(game)?, timing, &module)?
        }
        Design::Solver => solver::solver_verilog(board, timing, &module)?,
        Design::Heaps => heaps::heaps_verilog(board, timing, &module)?,
    };
    let ports = module_ports(&verilog, &module).ok_or_else(|| TopError::Ports {
        module: module.clone(),
    })?;
    Ok(TopVerilog {
        board,
        design: design.name(),
        module,
        verilog,
        ports,
    })
}

/// Why a top's port cannot sit on a board pin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinMismatch {
    /// The port bit, e.g. `io_dip[3]`.
    pub port: String,
    /// What is wrong.
    pub problem: String,
}

/// Check every port bit of `top` against its board: the pin exists, and
/// the direction fits (an input pin takes an `input` or `inout` port, and
/// must be `inout` when it needs pull-down emulation; an output pin takes
/// an `output`; a free header pin takes anything).
pub fn check_pins(top: &TopVerilog) -> Vec<PinMismatch> {
    use crate::board::Dir;
    let board = top.board.board();
    let mut problems = Vec::new();
    for port in &top.ports {
        for bit in port.bit_names() {
            let Some(pin) = board.pin(&bit) else {
                problems.push(PinMismatch {
                    port: bit,
                    problem: format!("{} has no such pin", board.name),
                });
                continue;
            };
            let fits = match (pin.dir, port.dir) {
                (Dir::Inout, _) => true,
                (Dir::Input, PortDir::Input) => !pin.needs_pull_down_emulation,
                (Dir::Input, PortDir::Inout) => true,
                (Dir::Output, PortDir::Output) => true,
                _ => false,
            };
            if !fits {
                problems.push(PinMismatch {
                    port: bit,
                    problem: format!(
                        "the port is {:?} but the pin is {}{}",
                        port.dir,
                        pin.dir,
                        if pin.needs_pull_down_emulation {
                            " needing pull-down emulation (the port must be inout)"
                        } else {
                            ""
                        }
                    ),
                });
            }
        }
    }
    problems
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Last;

    /// The J.R. 01 top for `board` with [`Timing::fast`].
    pub(crate) fn jr01_fast(board: BoardId) -> BoardTop<Jr01BoardCore> {
        jr01_top(board, &Timing::fast()).unwrap()
    }

    /// The Fort Boyard top for `board` with [`Timing::fast`].
    pub(crate) fn sticks_fast(board: BoardId) -> BoardTop<SticksBoardCore<5, 2, 4>> {
        let p = SticksParams::new(&SticksGame::fort_boyard()).unwrap();
        sticks_top::<5, 2, 4>(board, &p, &Timing::fast())
    }

    /// A stimulus for the trace tests: rows of input values, each held for
    /// some cycles; unchanged columns keep their idle value.
    pub(crate) struct Script {
        idle: Vec<u64>,
        rows: Vec<Vec<u64>>,
    }

    impl Script {
        pub(crate) fn new(idle: Vec<u64>) -> Self {
            Script {
                idle,
                rows: Vec::new(),
            }
        }

        /// Idle for `n` cycles.
        pub(crate) fn idle(&mut self, n: usize) -> &mut Self {
            self.set(&[], n)
        }

        /// Columns `cols` set to `value` for `n` cycles, the rest idle.
        pub(crate) fn set(&mut self, cols: &[(usize, u64)], n: usize) -> &mut Self {
            let mut row = self.idle.clone();
            for &(c, v) in cols {
                row[c] = v;
            }
            self.rows.extend(std::iter::repeat_n(row, n));
            self
        }

        /// A press of the button in column `col` (pressed = `value`): held
        /// `hold` cycles, then idle `after` cycles.
        pub(crate) fn press(
            &mut self,
            col: usize,
            value: u64,
            hold: usize,
            after: usize,
        ) -> &mut Self {
            self.set(&[(col, value)], hold).idle(after)
        }

        pub(crate) fn rows(&self) -> Vec<Vec<u64>> {
            self.rows.clone()
        }
    }

    /// The solver top of the Go Board (set-up pages) with [`Timing::fast`].
    pub(crate) fn solver_go_fast() -> BoardTop<SolverBoardCore<6, 4, 3, 8>> {
        solver_top::<6, 4, 3, 8>(BoardId::GoBoard, &Timing::fast())
    }

    /// The solver top of an Alchitry Cu (switches) with [`Timing::fast`].
    pub(crate) fn solver_cu_fast(board: BoardId) -> BoardTop<SolverBoardCore<8, 8, 4, 16>> {
        solver_top::<8, 8, 4, 16>(board, &Timing::fast())
    }

    /// The solver top of a fixed-game board with [`Timing::fast`].
    pub(crate) fn solver_fixed_fast(board: BoardId) -> BoardTop<SolverBoardCore<5, 3, 2, 4>> {
        solver_top::<5, 3, 2, 4>(board, &Timing::fast())
    }

    /// Every board the tops support, with every design it runs.
    pub(crate) fn all_tops(timing: &Timing) -> Vec<TopVerilog> {
        BoardId::ALL
            .into_iter()
            .flat_map(|board| {
                Design::every()
                    .into_iter()
                    .filter(move |design| design.runs_on(board))
                    .map(move |design| top_verilog(board, &design, timing).expect("top"))
            })
            .collect()
    }

    #[test]
    fn timing_for_the_board_clocks() {
        let t = Timing::for_clock(12_000_000);
        assert_eq!(t.tick_cycles, 12_000);
        // Each time in ticks of 1 ms: 16 ms, 0.5 s, 125 ms, 1 s, 1 ms.
        assert_eq!(
            (t.debounce_ticks, t.think_ticks, t.blink_ticks),
            (16, 500, 125)
        );
        assert_eq!((t.long_press_ticks, t.digit_ticks), (1000, 1));
        let cu = Timing::for_board(BoardId::AlchitryCu.board());
        assert_eq!(cu.tick_cycles, 100_000);
        assert_eq!(cu.pull_down, PullDownTiming::for_clock(100_000_000));
        // Every board's tick is 1 ms within 1% (exact for these clocks).
        for board in BoardId::ALL {
            let hz = board.board().clock.hz as f64;
            let tick_s = Timing::for_board(board.board()).tick_cycles as f64 / hz;
            assert!((tick_s - 1e-3).abs() <= 1e-5, "{board}: {tick_s}");
        }
        // The Cu's solver runs at 50 MHz from the PLL: its time base counts 50,000 cycles.
        let solver = Timing::for_design(BoardId::AlchitryCu.board(), &Design::Solver);
        assert_eq!(solver.tick_cycles, 50_000);
        assert_eq!(solver.pull_down, PullDownTiming::for_clock(50_000_000));
        let sticks = Timing::for_design(BoardId::AlchitryCu.board(), &Design::sticks());
        assert_eq!(sticks, cu);
    }

    #[test]
    fn module_names() {
        assert_eq!(
            module_name(BoardId::GoBoard, &Design::Jr01),
            "jr01_go_board"
        );
        assert_eq!(
            module_name(BoardId::AlchitryCuV2, &Design::sticks()),
            "sticks_alchitry_cu_v2"
        );
    }

    #[test]
    fn sticks_params_widths() {
        let p = SticksParams::new(&SticksGame::fort_boyard()).unwrap();
        assert_eq!((p.w, p.m, p.take_mask, p.count), (5, 2, 0b1110, 18));
        let p = SticksParams::new(&SticksGame::new(20, &[1, 2, 3], Last::Loses).unwrap()).unwrap();
        assert_eq!((p.w, p.m), (5, 2));
        let p = SticksParams::new(&SticksGame::new(255, &[1, 15], Last::Loses).unwrap()).unwrap();
        assert_eq!((p.w, p.m, p.take_mask), (8, 4, 0b1000_0000_0000_0010));
        for (game, needle) in [
            (
                SticksGame::new(256, &[1, 2], Last::Loses).unwrap(),
                "256 sticks",
            ),
            (
                SticksGame::new(30, &[1, 16], Last::Loses).unwrap(),
                "a take of 16",
            ),
        ] {
            let err = SticksParams::new(&game).unwrap_err().to_string();
            assert!(err.contains(needle), "{err}");
        }
    }

    /// Every port of every top has a pin on its board, with a fitting
    /// direction, and the PCF renders.
    #[test]
    fn every_top_port_has_a_pin() {
        for top in all_tops(&Timing::fast()) {
            assert_eq!(check_pins(&top), vec![], "{}", top.module);
            let pcf = top.pcf().unwrap_or_else(|e| panic!("{}: {e}", top.module));
            let constrained = pcf.lines().filter(|l| l.starts_with("set_io")).count();
            assert_eq!(constrained, top.pin_names().len(), "{}", top.module);
            let clock = top.board.board().clock.pin;
            assert_eq!(top.ports[0].name, clock, "{}: clock first", top.module);
        }
    }

    /// The Verilog of every board top, for every design, with the board's real timing
    /// (`<design>_<board>__v`). Their PCFs are the committed `constraints/*.pcf`, checked by
    /// `tests/up_to_date.rs`.
    #[test]
    fn top_snapshots() {
        for board in BoardId::ALL {
            for design in Design::every().into_iter().filter(|d| d.runs_on(board)) {
                let timing = Timing::for_design(board.board(), &design);
                let top = top_verilog(board, &design, &timing).expect("top");
                insta::assert_snapshot!(format!("{}__v", top.module), top.verilog);
            }
        }
    }

    /// Every design's layout on every board names resources the board has, of the right kind,
    /// direction and width, each port once; its held lights are its own outputs; its PLL
    /// frequency is one the board offers. The registry's names are the `--design` names.
    #[test]
    fn every_layout_fits_its_board() {
        let names: Vec<&str> = BOARD_DESIGNS.iter().map(|d| d.name).collect();
        assert_eq!(names, Design::every().map(|d| d.name()));
        // The header of a top names its core without the Rust module path.
        let top = top_verilog(BoardId::GoBoard, &Design::sticks(), &Timing::fast()).unwrap();
        assert!(top
            .verilog
            .contains("// Design: sticks_go_board (board top around SticksBoardCore<5, 2, 4>)\n"));
        for design in BOARD_DESIGNS {
            for board in crate::board::Board::all() {
                (design.check)(board).unwrap_or_else(|e| panic!("{}: {e}", design.name));
                let runs = Design::every()
                    .into_iter()
                    .find(|d| d.name() == design.name)
                    .is_some_and(|d| d.runs_on(board.id));
                let uses = (design.pin_uses)(board);
                assert_eq!(uses.is_some(), runs, "{} on {}", design.name, board.id);
                if let Some(uses) = uses {
                    assert!(!uses.is_empty(), "{} on {}", design.name, board.id);
                }
            }
        }
    }

    /// A layout that asks for what a board does not have is refused, naming the problem.
    #[test]
    fn a_layout_the_board_cannot_serve_is_refused() {
        let ice = BoardId::Icebreaker.board();
        let cu = BoardId::AlchitryCu.board();
        let check = |layout: &'static Layout<SticksIn, SticksOut>, board| layout.check(board);
        const UNKNOWN: Layout<SticksIn, SticksOut> = Layout {
            wires: &[Wire::Input("BTN9", SticksIn::Take(1))],
            held_lights: &[],
            pll_hz: None,
        };
        const WRONG_DIRECTION: Layout<SticksIn, SticksOut> = Layout {
            wires: &[Wire::Input("LED1", SticksIn::Take(1))],
            held_lights: &[],
            pll_hz: None,
        };
        const TOO_WIDE: Layout<SticksIn, SticksOut> = Layout {
            wires: &[Wire::InputBus("io_button", &[SticksIn::Unused; 6])],
            held_lights: &[],
            pll_hz: None,
        };
        const NOT_A_DIGIT: Layout<SticksIn, SticksOut> = Layout {
            wires: &[Wire::Digit("io_display", SticksOut::TensSegment)],
            held_lights: &[],
            pll_hz: None,
        };
        const TWICE: Layout<SticksIn, SticksOut> = Layout {
            wires: &[
                Wire::Input("BTN1", SticksIn::Take(1)),
                Wire::Input("BTN1", SticksIn::Take(2)),
            ],
            held_lights: &[],
            pll_hz: None,
        };
        const HELD_INPUT: Layout<SticksIn, SticksOut> = Layout {
            wires: &[Wire::Input("BTN1", SticksIn::Take(1))],
            held_lights: &["BTN1"],
            pll_hz: None,
        };
        const NO_PLL: Layout<SticksIn, SticksOut> = Layout {
            wires: &[],
            held_lights: &[],
            pll_hz: Some(48_000_000),
        };
        for (layout, board, needle) in [
            (&UNKNOWN, ice, "no resource `BTN9`"),
            (&WRONG_DIRECTION, ice, "`LED1` is not a one-pin input"),
            (&TOO_WIDE, cu, "`io_button` is not an input bank of 6 bits"),
            (&NOT_A_DIGIT, cu, "`io_display` is not a 7-segment digit"),
            (&TWICE, ice, "port `BTN1` twice"),
            (&HELD_INPUT, ice, "held light `BTN1`"),
            (&NO_PLL, cu, "no PLL setting for 48000000 Hz"),
        ] {
            let err = check(layout, board).unwrap_err();
            assert!(err.contains(needle), "{err}");
        }
        assert_eq!(
            check(&UNKNOWN, cu).unwrap_err(),
            "alchitry-cu has no resource `BTN9`"
        );
    }

    /// The design clocks: the Cu's solver runs at 50 MHz from the PLL and its heap game at
    /// 25 MHz, every other design on every board at the board clock.
    #[test]
    fn design_clocks() {
        for board in crate::board::Board::all() {
            for design in BOARD_DESIGNS {
                let cu = matches!(board.id, BoardId::AlchitryCu | BoardId::AlchitryCuV2);
                let hz = board.design_clock_hz(design.name);
                if cu && design.name == "solver" {
                    assert_eq!(hz, 50_000_000);
                    assert_eq!(board.design_clock_mhz(design.name), 50.0);
                    let pll = board.pll(design.name).unwrap();
                    assert_eq!((pll.divr, pll.divf, pll.divq), (0, 7, 4));
                } else if cu && design.name == "heaps" {
                    assert_eq!(hz, 25_000_000);
                    let pll = board.pll(design.name).unwrap();
                    assert_eq!((pll.divr, pll.divf, pll.divq), (0, 7, 5));
                } else {
                    assert_eq!(hz, board.clock.hz, "{} {}", board.id, design.name);
                    assert!(board.pll(design.name).is_none());
                }
            }
            assert_eq!(board.design_clock_hz("no-such-design"), board.clock.hz);
        }
    }

    /// Exactly the designs the board data clocks from a PLL instantiate one, with its dividers,
    /// and run the core on its output; the core's reset key is held until `LOCK`.
    #[test]
    fn the_pll_clocks_exactly_the_designs_the_board_data_says() {
        for top in all_tops(&Timing::fast()) {
            let pll = top.board.board().pll(top.design);
            let v = &top.verilog;
            assert_eq!(v.contains("SB_PLL40_CORE"), pll.is_some(), "{}", top.module);
            if let Some(pll) = pll {
                let dividers = format!(
                    ".DIVR(4'd{}), .DIVF(7'd{}), .DIVQ(3'd{}), .FILTER_RANGE(3'd{})",
                    pll.divr, pll.divf, pll.divq, pll.filter_range
                );
                assert!(v.contains(&dividers), "{}", top.module);
                assert!(
                    v.contains(&format!(".clock({PLL_CLOCK})")),
                    "{}",
                    top.module
                );
                assert!(v.contains("(~rst_n | ~pll_lock)"), "{}", top.module);
            }
        }
    }

    /// The check catches a port without a pin and a wrong direction.
    #[test]
    fn pin_check_reports_problems() {
        let mut top = top_verilog(BoardId::Icebreaker, &Design::Jr01, &Timing::fast()).unwrap();
        top.ports.push(ModulePort {
            name: "LED9".into(),
            dir: PortDir::Output,
            width: 1,
        });
        top.ports.push(ModulePort {
            name: "BTN_N".into(),
            dir: PortDir::Output,
            width: 1,
        });
        let problems: Vec<String> = check_pins(&top).into_iter().map(|p| p.port).collect();
        assert_eq!(problems, ["LED9", "BTN_N"]);
        let mut cu = top_verilog(BoardId::AlchitryCu, &Design::Jr01, &Timing::fast()).unwrap();
        for p in &mut cu.ports {
            if p.dir == PortDir::Inout {
                p.dir = PortDir::Input;
            }
        }
        assert!(!check_pins(&cu).is_empty(), "Io V1 inputs must be inout");
    }
}
