//! The `sticks_game` controller: a human plays a stick game against the machine, which answers
//! with the strategy lookup's move. Board-independent; board tops wire buttons and displays to
//! its ports. This module holds the contract (the module name [`GAME_MODULE`], its ports
//! [`GAME_PORTS`]), the emitted block [`SticksController`] and its emission and simulation;
//! its parts are split by concern: the play rules shared with the on-chip solver's game
//! ([`play`]), the controller logic ([`SticksCore`], in `controller`), the move checks
//! ([`SticksMoveCheck`], [`MachineMoveCheck`]), the think pause ([`ThinkTimer`]) and the
//! in-process simulation ([`SticksGameSim`]).
//!
//! ```text
//!                      +---------------------------------------+
//!   clock ------------>|  SticksController<W, M, S>            |---> remaining[W]
//!   reset ------------>|   core: SticksCore<W, M, S>, tick = 1 |---> human_turn
//!   new_game --------->|                                       |---> machine_take[M]
//!   machine_first ---->|   lookup: SticksStrategy<W, M>        |---> game_over
//!   take[M] ---------->|   move_check, machine_check           |---> human_won
//!   take_valid ------->|   timer: ThinkTimer (think pause)     |---> illegal
//!                      +---------------------------------------+
//! ```
//!
//! The cycle-by-cycle behaviour is specified (and modelled in plain Rust) in
//! [`crate::model::sticks_game`]; this block implements it with registers only (every output is
//! a flip-flop or a function of flip-flops), all of them 0 at power-on, which is the "no game"
//! state (`game_over` = 1, `remaining` = 0).
//!
//! State: `sticks_left` (W), `last_machine_take` (M), `waiting_for_human`, `thinking`, `won`,
//! `refused` (the `illegal` pulse) and the [`ThinkTimer`]'s count for the machine's thinking
//! time, as wide as its limit needs; the rules that move them are [`play`]'s. The logic is
//! [`SticksCore`], which has one more input,
//! `tick` (the board's time base: the pause counts ticks); the emitted `sticks_game` ties it
//! high, so there the pause is `think_cycles` clock cycles, as the model says.
//! `game_over` is `!waiting_for_human & !thinking`, so the two flags are never both set and the
//! game is always in exactly one of three phases. `sticks_left` only ever takes the count or
//! the `after` of a legal move, so it never exceeds the count or wraps.
//!
//! The control logic is rust-hdl `#[hdl_gen]` code over same-width operands and sized
//! constants only; the width-changing parts (the take-set test, `take <= remaining`, the
//! subtraction) live in [`SticksMoveCheck`], whose Verilog is written by hand with explicit
//! zero-extension. One subtractor serves both players (the human's move, or the lookup's while
//! the machine thinks); the machine's move is checked by a table of the position
//! ([`MachineMoveCheck`]), so the two checks never wait for the subtractor's operand select. Were
//! the lookup ever to give no legal move, the game ends on the lookup's `winning` verdict instead
//! of corrupting the count (with a correct table this never happens: the machine only thinks
//! at positions where a move exists).

mod checks;
mod controller;
pub mod play;
mod sim;
mod timer;

pub use checks::{MachineMoveCheck, SticksMoveCheck};
pub use controller::SticksCore;
pub use sim::{ControllerSim, SticksGameSim, SIM_CYCLE_PS, SIM_THINK_CYCLES};
pub use timer::ThinkTimer;

use rust_hdl::prelude::*;

use super::settle;
use super::sticks_strategy::{Impl, SticksCircuitError};
use crate::game::SticksGame;
use crate::solver::strategy::{sticks_table, SticksTable};
use crate::verilog::{emit, waive_declfilename, PortDir};

/// Module name of the emitted controller.
pub const GAME_MODULE: &str = "sticks_game";

/// How wide a port of the `sticks_game` contract is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortWidth {
    /// One bit.
    One,
    /// `W` bits: the stick count.
    Count,
    /// `M` bits: a take.
    Take,
}

impl PortWidth {
    /// The width in bits, for a count of `w` bits and takes of `m` bits.
    pub const fn bits(self, w: usize, m: usize) -> usize {
        match self {
            PortWidth::One => 1,
            PortWidth::Count => w,
            PortWidth::Take => m,
        }
    }
}

/// One port of the `sticks_game` contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePort {
    /// The Verilog name.
    pub name: &'static str,
    /// Input or output.
    pub dir: PortDir,
    /// Its width.
    pub width: PortWidth,
}

const fn port(name: &'static str, dir: PortDir, width: PortWidth) -> GamePort {
    GamePort { name, dir, width }
}

/// The ports of the `sticks_game` contract, in declaration order (inputs, then outputs): the
/// one list of them. [`SticksController`] declares exactly these; a hand-written controller
/// (`--dut`), the co-simulation testbench, the counterexample and README waveforms and the
/// schematic all name them.
pub const GAME_PORTS: [GamePort; 12] = [
    port("clock", PortDir::Input, PortWidth::One),
    port("reset", PortDir::Input, PortWidth::One),
    port("new_game", PortDir::Input, PortWidth::One),
    port("machine_first", PortDir::Input, PortWidth::One),
    port("take", PortDir::Input, PortWidth::Take),
    port("take_valid", PortDir::Input, PortWidth::One),
    port("remaining", PortDir::Output, PortWidth::Count),
    port("human_turn", PortDir::Output, PortWidth::One),
    port("machine_take", PortDir::Output, PortWidth::Take),
    port("game_over", PortDir::Output, PortWidth::One),
    port("human_won", PortDir::Output, PortWidth::One),
    port("illegal", PortDir::Output, PortWidth::One),
];

/// The names of [`GAME_PORTS`], in order.
pub const GAME_PORT_NAMES: [&str; 12] = {
    let mut names = [""; 12];
    let mut i = 0;
    while i < GAME_PORTS.len() {
        names[i] = GAME_PORTS[i].name;
        i += 1;
    }
    names
};

/// The controller (see the module docs), emitted as `sticks_game`: [`SticksCore`] with its
/// tick tied high, so the machine answers `think_cycles` clock cycles after a move (the port
/// list and its meaning are the `sticks_game` contract). `W`: bits of the count; `M`: bits of
/// the largest move; `S = 2^M`.
#[derive(LogicBlock)]
pub struct SticksController<const W: usize, const M: usize, const S: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: starts a new game.
    pub reset: Signal<In, Bit>,
    /// One-cycle pulse: starts a new game.
    pub new_game: Signal<In, Bit>,
    /// Level, sampled when a game starts: the machine moves first.
    pub machine_first: Signal<In, Bit>,
    /// The human's move.
    pub take: Signal<In, Bits<M>>,
    /// One-cycle pulse: the human moves `take`.
    pub take_valid: Signal<In, Bit>,
    /// Sticks left.
    pub remaining: Signal<Out, Bits<W>>,
    /// Waiting for the human's move.
    pub human_turn: Signal<Out, Bit>,
    /// The machine's last move; 0 before its first.
    pub machine_take: Signal<Out, Bits<M>>,
    /// No game in progress.
    pub game_over: Signal<Out, Bit>,
    /// The human won (meaningful when `game_over`).
    pub human_won: Signal<Out, Bit>,
    /// One-cycle pulse: the move sampled at the last edge was refused.
    pub illegal: Signal<Out, Bit>,
    core: SticksCore<W, M, S>,
}

impl<const W: usize, const M: usize, const S: usize> SticksController<W, M, S> {
    /// The controller for `game`, with its strategy table (`W` inputs, `M + 1` outputs, as
    /// [`sticks_table`] builds it) as a lookup of kind `implementation`.
    pub fn new(
        game: &SticksGame,
        table: &SticksTable,
        implementation: Impl,
        think_cycles: u32,
    ) -> Result<Self, SticksCircuitError> {
        let mut block = Self {
            clock: Default::default(),
            reset: Default::default(),
            new_game: Default::default(),
            machine_first: Default::default(),
            take: Default::default(),
            take_valid: Default::default(),
            remaining: Default::default(),
            human_turn: Default::default(),
            machine_take: Default::default(),
            game_over: Default::default(),
            human_won: Default::default(),
            illegal: Default::default(),
            core: SticksCore::new(game, table, implementation, u64::from(think_cycles))?,
        };
        block.connect_all();
        Ok(block)
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksController<W, M, S> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, core);
        self.core.tick.next = true;
        self.core.reset.next = self.reset.val();
        self.core.new_game.next = self.new_game.val();
        self.core.machine_first.next = self.machine_first.val();
        self.core.take.next = self.take.val();
        self.core.take_valid.next = self.take_valid.val();
        self.remaining.next = self.core.remaining.val();
        self.human_turn.next = self.core.human_turn.val();
        self.machine_take.next = self.core.machine_take.val();
        self.game_over.next = self.core.game_over.val();
        self.human_won.next = self.core.human_won.val();
        self.illegal.next = self.core.illegal.val();
    }
}

fn game_block_verilog<const W: usize, const M: usize, const S: usize>(
    game: &SticksGame,
    table: &SticksTable,
    implementation: Impl,
    think_cycles: u32,
) -> Result<String, SticksCircuitError> {
    let block = SticksController::<W, M, S>::new(game, table, implementation, think_cycles)?;
    Ok(waive_declfilename(&emit(&block, GAME_MODULE)?))
}

fn game_block_sim<const W: usize, const M: usize, const S: usize>(
    game: &SticksGame,
    table: &SticksTable,
    implementation: Impl,
    think_cycles: u32,
) -> Result<Box<dyn SticksGameSim>, SticksCircuitError> {
    let mut block = SticksController::<W, M, S>::new(game, table, implementation, think_cycles)?;
    // Propagate the power-on register values to the outputs.
    settle(&mut block);
    Ok(Box::new(ControllerSim::new(block)))
}

/// The Verilog of the controller for `game`: module `sticks_game`, submodules prefixed
/// `sticks_game$`.
pub fn sticks_game_verilog(
    game: &SticksGame,
    implementation: Impl,
    think_cycles: u32,
) -> Result<String, SticksCircuitError> {
    let t = sticks_table(game)?;
    crate::with_widths!(
        t.sticks_bits,
        t.take_bits,
        game_block_verilog(game, &t, implementation, think_cycles)
    )
}

/// rust-hdl's in-process simulation of the controller for `game`.
pub fn sticks_game_sim(
    game: &SticksGame,
    implementation: Impl,
    think_cycles: u32,
) -> Result<Box<dyn SticksGameSim>, SticksCircuitError> {
    let t = sticks_table(game)?;
    crate::with_widths!(
        t.sticks_bits,
        t.take_bits,
        game_block_sim(game, &t, implementation, think_cycles)
    )
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Inputs, SticksGameModel};

    #[test]
    fn follows_the_model_through_a_game() {
        let g = SticksGame::fort_boyard();
        for implementation in Impl::ALL {
            let mut sim = sticks_game_sim(&g, implementation, 2).unwrap();
            let mut model = SticksGameModel::new(&g, 2);
            let seq = [
                Inputs::IDLE,
                Inputs::take(1),
                Inputs::reset(false),
                Inputs::take(0),
                Inputs::take(2),
                Inputs::take(1),
                Inputs::IDLE,
                Inputs::IDLE,
                Inputs::IDLE,
                Inputs::take(3),
                Inputs::IDLE,
                Inputs::new_game(true),
                Inputs::IDLE,
                Inputs::IDLE,
                Inputs::IDLE,
            ];
            for (cycle, i) in seq.iter().enumerate() {
                assert_eq!(
                    sim.step(i),
                    model.step(*i),
                    "cycle {cycle} {implementation}"
                );
            }
        }
    }

    #[test]
    fn verilog_snapshot() {
        insta::assert_snapshot!(
            sticks_game_verilog(&SticksGame::fort_boyard(), Impl::Logic, 0).unwrap()
        );
    }

    #[test]
    fn emission_is_deterministic_and_named() {
        let g = SticksGame::fort_boyard();
        let a = sticks_game_verilog(&g, Impl::Rom, 5).unwrap();
        assert_eq!(a, sticks_game_verilog(&g, Impl::Rom, 5).unwrap());
        assert!(a.contains(
            "module sticks_game(clock,reset,new_game,machine_first,take,take_valid,remaining,human_turn,machine_take,game_over,human_won,illegal);"
        ), "{a}");
        // The port list of the contract is the emitted module's, names, directions and widths.
        let ports = crate::verilog::module_ports(&a, GAME_MODULE).unwrap();
        let declared: Vec<(String, PortDir, usize)> = ports
            .into_iter()
            .map(|p| (p.name, p.dir, p.width))
            .collect();
        let contract: Vec<(String, PortDir, usize)> = GAME_PORTS
            .iter()
            .map(|p| (p.name.to_string(), p.dir, p.width.bits(5, 2)))
            .collect();
        assert_eq!(declared, contract);
        assert_eq!(GAME_PORT_NAMES, GAME_PORTS.map(|p| p.name));
        assert!(
            a.contains("module sticks_game$core$lookup(sticks,take,winning);"),
            "{a}"
        );
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::flow::testing::work_dir;
    use crate::game::Last;

    /// `verilator --lint-only -Wall` passes on the emitted file as it is (its only waiver,
    /// DECLFILENAME, is inside it), for both lookups and every width relation (W > M, W = M,
    /// W < M, one-bit ports).
    #[test]
    fn sticks_game_passes_verilator_lint() {
        let dir = work_dir("sticks-game-lint");
        let games = [
            SticksGame::fort_boyard(),
            SticksGame::new(3, &[1, 6, 15], Last::Wins).unwrap(),
            SticksGame::new(3, &[1, 2], Last::Loses).unwrap(),
            SticksGame::new(1, &[1], Last::Loses).unwrap(),
            SticksGame::new(255, &[2, 5, 7], Last::Wins).unwrap(),
        ];
        for (i, game) in games.iter().enumerate() {
            for implementation in Impl::ALL {
                let sub = dir.path().join(format!("{i}-{implementation}"));
                std::fs::create_dir_all(&sub).unwrap();
                let path = sub.join("sticks_game.v");
                let verilog = sticks_game_verilog(game, implementation, 1000).unwrap();
                std::fs::write(&path, verilog).unwrap();
                crate::flow::verilator::lint(&sub, &[path], GAME_MODULE)
                    .unwrap_or_else(|e| panic!("{game:?} {implementation}: {e}"));
            }
        }
    }
}
