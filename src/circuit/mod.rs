//! rust-hdl circuits that implement combinational game strategies.
//!
//! Every circuit here pairs two views of one function, built from the same
//! data: a Rust `update()` used by rust-hdl's simulator, and a hand-written
//! Verilog body returned by `hdl()` (the pattern of rust-hdl's own `ROM`
//! widget). The two paths are independent code, so the rust-hdl simulation
//! is never taken as proof of the Verilog: the bench (`crate::bench`, which
//! builds on this module, never the other way round) checks the emitted
//! Verilog on its own.
//!
//! * [`Jr01Strategy`]: the J.R. 01 strategy as three sum-of-products covers, chosen from the
//!   solved game ([`jr01`]).
//! * [`TruthTableRom`]: any [`TruthTable`](crate::logic::TruthTable) as a
//!   case-statement ROM.
//! * [`SticksStrategy`]: a stick game's strategy (`sticks` in, `take` and
//!   `winning` out) as a ROM or as minimised logic ([`Impl`]).
//! * [`SticksController`]: the clocked `sticks_game` controller, a human
//!   against the strategy, with the lookup as a sub-block ([`sticks_game`]: its contract, its
//!   parts, and the play rules it shares with the solver's game).
//! * [`sticks_solver::SticksSolver`]: the retrograde solver itself on the chip,
//!   rules on its inputs, the table in block RAM.
//! * [`heaps_solver::HeapsSolver`]: the two-heap game's retrograde solver on the chip (the KEGE
//!   exam's tasks 19-21), moves, target and rule on its inputs, the table in block RAM.
//! * [`heaps_answers::HeapsAnswers`]: the exam's answers (tasks 19-21) read from the table the
//!   on-chip solver left, through the controller's probe port.
//! * [`heaps_game::HeapsGame`]: the two-heap game's controller, playing from a `HeapsSolver`
//!   inside it, the game and its start set at run time.
//! * [`SticksSolverGame`]: the game controller playing from a `SticksSolver` inside it, the
//!   game set at run time.
//! * [`board_io`]: the blocks between a board's pins and a game; [`top`]: every design's board
//!   top, from its layout on each board.

pub mod board_io;
pub mod heaps_answers;
pub mod heaps_game;
pub mod heaps_solver;
pub mod jr01;
pub mod rom;
#[cfg(test)]
pub(crate) mod sim;
pub mod sticks_game;
pub mod sticks_solver;
pub mod sticks_solver_game;
pub mod sticks_strategy;
pub mod top;

pub use jr01::{Jr01Error, Jr01Strategy};
pub use rom::TruthTableRom;
pub use sticks_game::{
    sticks_game_sim, sticks_game_verilog, SticksController, SticksGameSim, SticksMoveCheck,
    GAME_MODULE, GAME_PORTS, GAME_PORT_NAMES, SIM_CYCLE_PS, SIM_THINK_CYCLES,
};
pub use sticks_solver_game::{SticksSolverGame, SOLVER_GAME_MODULE};
pub use sticks_strategy::{
    sticks_strategy_driver, sticks_strategy_verilog, Impl, SticksCircuitError, SticksStrategy,
    STRATEGY_MODULE,
};

use rust_hdl::prelude::Block;

/// Errors raised while building a circuit from covers or tables.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CircuitError {
    /// A cover mentions an input variable the circuit does not have.
    #[error(
        "the cover for output `{output}` uses input variable(s) {mask:#b} but the circuit only has \
         {inputs} inputs; minimise that output over exactly {inputs} inputs"
    )]
    CoverTooWide {
        /// Output port whose cover is wrong.
        output: &'static str,
        /// The mask of offending variables.
        mask: u32,
        /// Number of inputs the circuit has.
        inputs: usize,
    },
    /// The table's shape does not match the ROM's const generic widths.
    #[error(
        "the truth table has {table_inputs} inputs and {table_outputs} outputs but the ROM was \
         declared as TruthTableRom<{rom_inputs}, {rom_outputs}>; use TruthTableRom<{table_inputs}, \
         {table_outputs}>"
    )]
    ShapeMismatch {
        /// Inputs of the table.
        table_inputs: usize,
        /// Outputs of the table.
        table_outputs: usize,
        /// `N` of the ROM.
        rom_inputs: usize,
        /// `M` of the ROM.
        rom_outputs: usize,
    },
    /// The ROM would be wider than this crate supports.
    #[error(
        "a TruthTableRom<{inputs}, {outputs}> is not supported: inputs must be 1..={max_inputs} \
         and outputs 1..=32 bits; split the table into smaller ROMs"
    )]
    Unsupported {
        /// Requested address width.
        inputs: usize,
        /// Requested data width.
        outputs: usize,
        /// Largest address width supported.
        max_inputs: usize,
    },
}

/// A combinational rust-hdl block that can be driven with one input code at a
/// time, first port most significant (the port order of the bench's `CombDesign`).
///
/// This is what level 1 of the bench (rust-hdl simulation) calls; see
/// [`CombBlock::into_driver`].
pub trait CombBlock: Block + Sized {
    /// Drive the inputs with `input` (first port most significant), let the
    /// rust-hdl simulation settle, and read the outputs back as one word.
    fn eval(&mut self, input: u32) -> u32;

    /// Turn the block into the closure level 1 of the bench expects.
    fn into_driver(mut self) -> Box<dyn FnMut(u32) -> u32>
    where
        Self: 'static,
    {
        Box::new(move |input| self.eval(input))
    }
}

/// Maximum number of `update_all` rounds allowed for a combinational block
/// to settle. A loop-free combinational block settles in a handful.
pub(crate) const SETTLE_ROUNDS: usize = 64;

/// Propagate `.next` values through `block` until nothing changes.
///
/// # Panics
/// If the block does not settle within [`SETTLE_ROUNDS`] rounds. That can only
/// happen with a combinational loop, which `check_all` (run by
/// [`crate::verilog::emit`]) rejects and which the circuits here cannot form.
pub(crate) fn settle<B: Block>(block: &mut B) {
    let settled = rust_hdl::prelude::simulate(block, SETTLE_ROUNDS);
    assert!(
        settled,
        "combinational block did not settle in {SETTLE_ROUNDS} rounds"
    );
}

/// A sized Verilog literal, `width'dvalue`: rust-hdl's own literals are
/// unsized (32-bit) in some contexts, so custom Verilog always writes widths.
pub(crate) fn sized(width: usize, value: u64) -> String {
    format!("{width}'d{value}")
}
