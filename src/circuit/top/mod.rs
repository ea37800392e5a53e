//! Board tops: one top per design, assembled from board data. A design's
//! board-independent core ([`Jr01BoardCore`], [`SticksBoardCore`]) is
//! wrapped by a pin wrapper built from the board's [`Designs`](crate::board::Designs)
//! entry ([`BoardTop`]), whose ports are the board's PCF pin names, so
//! `board::render_pcf(board, ports)` constrains every port.
//!
//! [`top_verilog`] builds the top for a [`BoardId`] and [`Design`] and
//! emits it as `<design>_<board>` (e.g. `sticks_icebreaker`) with its port
//! list. Which button and LED does what on each board is in the board data
//! (`src/board/<board>.rs`) and in `docs/boards.md`.
//!
//! The sticks core is generic over the controller's widths `W` (bits of the
//! stick count, at most 8) and `M` (bits of the largest take, at most 4);
//! [`top_verilog`] picks them from the game.

#[cfg(test)]
mod board_tests;
mod console;
mod core;
mod pins;

pub use self::core::{
    solver_keys, solver_pages, sticks_keys, BoardCore, Jr01BoardCore, SolverBoardCore, SolverSetup,
    StartKeys, SticksBoardCore,
};
pub use console::{Jr01Panel, SticksConsole};
pub use pins::{BoardTop, PLL_CLOCK, PLL_LOCK_CYCLES};

use std::fmt;

use super::board_io::PullDownTiming;
use super::jr01::Jr01Error;
use super::sticks_game::SticksCore;
use super::sticks_strategy::Impl;
use super::{CircuitError, Jr01Strategy};
use crate::board::{Board, BoardError, BoardId, Jr01In, SolverIn, SticksIn, Wire};
use crate::game::{Game, SticksGame};
use crate::solver::strategy::{sticks_table, SticksTable};
use crate::verilog::{module_ports, ModulePort, PortDir, VerilogError};
use pins::PinPlan;

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
}

impl Design {
    /// The default sticks game: 18 sticks, take 1, 2 or 3, last stick loses.
    pub fn sticks() -> Self {
        Design::Sticks(SticksGame::fort_boyard())
    }

    /// `"jr01"`, `"sticks"` or `"solver"`.
    pub fn name(&self) -> &'static str {
        match self {
            Design::Jr01 => "jr01",
            Design::Sticks(_) => "sticks",
            Design::Solver => "solver",
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
            let params = SticksParams::new(game)?;
            sticks_verilog(board, &params, timing, &module)?
        }
        Design::Solver => solver_verilog(board, timing, &module)?,
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

/// The J.R. 01 strategy block: the same circuit as `hdl/jr01_strategy.v`
/// ([`Jr01Strategy::from_game`]: the game's table, minimised, the seed's cover among equals).
pub fn jr01_strategy() -> Result<Jr01Strategy, TopError> {
    Ok(Jr01Strategy::from_game()?)
}

/// The J.R. 01 top for `board`: the core, its keys switches if the board
/// gives J.R. 01 switches rather than push buttons.
pub fn jr01_top(board: BoardId, timing: &Timing) -> Result<BoardTop<Jr01BoardCore>, TopError> {
    let data = board.board();
    let wires = data.designs.jr01;
    let switches = wires.iter().any(|w| match w {
        Wire::Input(_, role) => matches!(role, Jr01In::Switch(_)),
        Wire::InputBus(_, roles) => roles.iter().any(|r| matches!(r, Jr01In::Switch(_))),
        _ => false,
    });
    let core = Jr01BoardCore::new([jr01_strategy()?, jr01_strategy()?], timing, switches);
    let plan = PinPlan::new(data, wires, &[], 3);
    Ok(BoardTop::new(core, plan, timing.pull_down))
}

/// A sticks game checked against the hardware controller's limits.
#[derive(Clone, Debug)]
pub struct SticksParams {
    /// Bits of the stick count (1..=8).
    pub w: usize,
    /// Bits of the largest take (1..=4).
    pub m: usize,
    /// Bit `k` set: taking `k` is allowed.
    pub take_mask: u16,
    /// Sticks at the start.
    pub count: u64,
    /// The machine's moves (the solver's strategy table).
    pub table: SticksTable,
    /// The game.
    pub game: SticksGame,
}

impl SticksParams {
    /// Largest stick count the controller takes (W at most 8).
    pub const MAX_COUNT: u64 = 255;
    /// Largest take the controller takes (M at most 4).
    pub const MAX_TAKE: u64 = 15;

    /// Check `game` and derive widths, mask and strategy table.
    pub fn new(game: &SticksGame) -> Result<Self, TopError> {
        let unsupported = |reason: String| Err(TopError::UnsupportedGame { reason });
        if game.count() > Self::MAX_COUNT {
            return unsupported(format!(
                "{} sticks is more than the {} a board controller counts; use --count {} or fewer",
                game.count(),
                Self::MAX_COUNT,
                Self::MAX_COUNT
            ));
        }
        if game.max_take() > Self::MAX_TAKE {
            return unsupported(format!(
                "a take of {} is more than the {} a board controller allows; use takes up to {}",
                game.max_take(),
                Self::MAX_TAKE,
                Self::MAX_TAKE
            ));
        }
        let table = sticks_table(game).map_err(|e| TopError::UnsupportedGame {
            reason: e.to_string(),
        })?;
        Ok(SticksParams {
            w: table.sticks_bits,
            m: table.take_bits,
            take_mask: game.take().iter().fold(0u16, |mask, &t| mask | 1 << t),
            count: game.count(),
            table,
            game: game.clone(),
        })
    }

    /// The controller logic for these parameters, pausing `think_ticks` ticks.
    pub fn controller<const W: usize, const M: usize, const S: usize>(
        &self,
        think_ticks: u64,
    ) -> SticksCore<W, M, S> {
        // Board tops use the ROM lookup: never larger than the logic for Fort Boyard, and much
        // smaller for larger games (docs/sticks-luts.md).
        SticksCore::new(&self.game, &self.table, Impl::Rom, think_ticks)
            .expect("SticksParams checked the game")
    }
}

/// The sticks top for `board`, with the controller's widths fixed.
pub fn sticks_top<const W: usize, const M: usize, const S: usize>(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
) -> BoardTop<SticksBoardCore<W, M, S>> {
    let data = board.board();
    let wires = data.designs.sticks;
    let has = |role: SticksIn| {
        wires.iter().any(|w| match w {
            Wire::Input(_, r) => *r == role,
            Wire::InputBus(_, roles) => roles.contains(&role),
            _ => false,
        })
    };
    let start = if has(SticksIn::Start) {
        StartKeys::Button
    } else if has(SticksIn::NewGame) {
        StartKeys::Separate
    } else {
        StartKeys::Chord
    };
    let core = SticksBoardCore::new(
        params.controller::<W, M, S>(timing.think_ticks),
        timing,
        start,
        params.m <= 2,
    );
    let plan = PinPlan::new(
        data,
        wires,
        data.designs.sticks_held_lights,
        sticks_keys::WIDTH,
    );
    BoardTop::new(core, plan, timing.pull_down)
}

fn sticks_top_wm<const W: usize, const M: usize, const S: usize>(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
    module: &str,
) -> Result<String, VerilogError> {
    sticks_top::<W, M, S>(board, params, timing).verilog(module)
}

/// Instantiate [`sticks_top_wm`] for the run-time widths.
macro_rules! dispatch_widths {
    ($w:expr, $m:expr, $f:ident $args:tt; $(($W:literal, $M:literal)),* $(,)?) => {
        match ($w, $m) {
            $(($W, $M) => $f::<$W, $M, { 1 << $M }> $args,)*
            (w, m) => unreachable!("SticksParams keeps W = {w} in 1..=8 and M = {m} in 1..=4"),
        }
    };
}

fn sticks_verilog(
    board: BoardId,
    params: &SticksParams,
    timing: &Timing,
    module: &str,
) -> Result<String, TopError> {
    Ok(dispatch_widths!(
        params.w, params.m, sticks_top_wm(board, params, timing, module);
        (1, 1), (1, 2), (1, 3), (1, 4),
        (2, 1), (2, 2), (2, 3), (2, 4),
        (3, 1), (3, 2), (3, 3), (3, 4),
        (4, 1), (4, 2), (4, 3), (4, 4),
        (5, 1), (5, 2), (5, 3), (5, 4),
        (6, 1), (6, 2), (6, 3), (6, 4),
        (7, 1), (7, 2), (7, 3), (7, 4),
        (8, 1), (8, 2), (8, 3), (8, 4),
    )?)
}

/// How `board` sets the solver's game, and the solver's widths (W, K):
/// keys: set-up pages, counts up to 63, takes up to the number of keys;
/// switches: the take set and count switches' widths; otherwise Fort
/// Boyard (W = 5, K = 3), started with the start button or (none) a chord.
pub fn solver_setup(board: BoardId) -> (SolverSetup, usize, usize) {
    let roles: Vec<SolverIn> = board
        .board()
        .designs
        .solver
        .iter()
        .flat_map(|w| match w {
            Wire::Input(_, r) => vec![*r],
            Wire::InputBus(_, rs) => rs.to_vec(),
            _ => vec![],
        })
        .collect();
    let count = |f: fn(&SolverIn) -> bool| roles.iter().filter(|r| f(r)).count();
    let keys = count(|r| matches!(r, SolverIn::Key(_)));
    if keys > 0 {
        return (SolverSetup::Pages, 6, keys);
    }
    if roles.contains(&SolverIn::NewGame) {
        let k = count(|r| matches!(r, SolverIn::TakeSetSwitch(_)));
        let w = count(|r| matches!(r, SolverIn::CountSwitch(_)));
        return (SolverSetup::Switches, w, k);
    }
    let chord = !roles.contains(&SolverIn::Start);
    (SolverSetup::Fixed { chord }, 5, 3)
}

/// The solver top for `board`, with the widths fixed (they must be those of
/// [`solver_setup`]; `S = 2^M`).
pub fn solver_top<const W: usize, const K: usize, const M: usize, const S: usize>(
    board: BoardId,
    timing: &Timing,
) -> BoardTop<SolverBoardCore<W, K, M, S>> {
    let data = board.board();
    let (setup, w, k) = solver_setup(board);
    assert_eq!((w, k), (W, K), "{board}: solver widths");
    let core = SolverBoardCore::new(setup, &SticksGame::fort_boyard(), timing);
    let plan = PinPlan::new(
        data,
        data.designs.solver,
        data.designs.solver_held_lights,
        solver_keys::WIDTH,
    )
    .with_pll(data.pll(Design::Solver.name()), solver_keys::RESET);
    BoardTop::new(core, plan, timing.pull_down)
}

fn solver_verilog(board: BoardId, timing: &Timing, module: &str) -> Result<String, TopError> {
    let (_, w, k) = solver_setup(board);
    Ok(match (w, k) {
        (5, 3) => solver_top::<5, 3, 2, 4>(board, timing).verilog(module)?,
        (6, 4) => solver_top::<6, 4, 3, 8>(board, timing).verilog(module)?,
        (8, 8) => solver_top::<8, 8, 4, 16>(board, timing).verilog(module)?,
        (w, k) => {
            return Err(TopError::UnsupportedGame {
                reason: format!(
                    "{board}: no solver top for {w} count bits and takes up to {k} \
                     (add the widths to solver_verilog)"
                ),
            })
        }
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

    /// Every board the tops support, with every design.
    pub(crate) fn all_tops(timing: &Timing) -> Vec<TopVerilog> {
        BoardId::ALL
            .into_iter()
            .flat_map(|board| {
                [Design::Jr01, Design::sticks(), Design::Solver]
                    .into_iter()
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

    /// The Verilog and the PCF of every board top, for both designs, with
    /// the board's real timing (`<design>_<board>__v`, `..__pcf`).
    #[test]
    fn top_snapshots() {
        for board in BoardId::ALL {
            for design in [Design::Jr01, Design::sticks(), Design::Solver] {
                let timing = Timing::for_design(board.board(), &design);
                let top = top_verilog(board, &design, &timing).expect("top");
                insta::assert_snapshot!(format!("{}__v", top.module), top.verilog);
                insta::assert_snapshot!(format!("{}__pcf", top.module), top.pcf().expect("pcf"));
            }
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
