//! Running a controller in process: [`SticksGameSim`] (one clock cycle at a time, with an
//! optional VCD trace) and its implementation for the emitted `sticks_game`,
//! [`ControllerSim`].

use rust_hdl::core::vcd_probe::VCDProbe;
use rust_hdl::prelude::*;

use super::SticksController;
use crate::circuit::settle;
use crate::model::{Inputs, Outputs};

/// Think cycles of the simulated controller in terminal play and waveforms (a board waits
/// half a second instead).
pub const SIM_THINK_CYCLES: u32 = 4;

/// One clock cycle of [`SticksGameSim`]'s VCD trace, in ps.
pub const SIM_CYCLE_PS: u64 = 10_000;

/// Drives a rust-hdl block one clock cycle at a time, in process (no threads, no
/// `Simulation` harness), the way rust-hdl's own `simulate` settles a block.
pub trait SticksGameSim {
    /// One cycle: the inputs are applied while the clock is low, then the clock rises; returns
    /// the outputs after the rising edge. Only the low M bits of `take` reach the port.
    fn step(&mut self, inputs: &Inputs) -> Outputs;
    /// Starts writing a VCD of every signal to `writer` (time in ps, one cycle =
    /// [`SIM_CYCLE_PS`]).
    fn trace(&mut self, writer: Box<dyn std::io::Write>);
    /// Flushes and stops the VCD, if any.
    fn finish_trace(&mut self);

    /// Clocks the idle circuit until the human is to move or the game is over, for at most
    /// `max_cycles` cycles: the outputs then and the cycles taken, or `None` if the circuit
    /// did not answer.
    fn wait_for_turn(&mut self, max_cycles: u32) -> Option<(Outputs, u32)> {
        for n in 1..=max_cycles {
            let o = self.step(&Inputs::IDLE);
            if o.human_turn || o.game_over {
                return Some((o, n));
            }
        }
        None
    }
}

/// The in-process simulation of a [`SticksController`].
pub struct ControllerSim<const W: usize, const M: usize, const S: usize> {
    block: SticksController<W, M, S>,
    vcd: Option<VCDProbe<Box<dyn std::io::Write>>>,
    time: u64,
}

impl<const W: usize, const M: usize, const S: usize> ControllerSim<W, M, S> {
    /// Wraps a block.
    pub fn new(block: SticksController<W, M, S>) -> Self {
        ControllerSim {
            block,
            vcd: None,
            time: 0,
        }
    }

    fn dump(&mut self) {
        if let Some(mut vcd) = self.vcd.take() {
            let _ = vcd.timestamp(self.time);
            self.vcd = Some(write_vcd_change(vcd, &self.block));
        }
    }
}

impl<const W: usize, const M: usize, const S: usize> SticksGameSim for ControllerSim<W, M, S> {
    fn step(&mut self, inputs: &Inputs) -> Outputs {
        let b = &mut self.block;
        b.clock.next = Clock { clk: false };
        b.reset.next = inputs.reset;
        b.new_game.next = inputs.new_game;
        b.machine_first.next = inputs.machine_first;
        b.take.next = bits::<M>(u64::from(inputs.take) & ((1 << M) - 1));
        b.take_valid.next = inputs.take_valid;
        settle(&mut self.block);
        self.dump();
        self.time += SIM_CYCLE_PS / 2;
        self.block.clock.next = Clock { clk: true };
        settle(&mut self.block);
        self.dump();
        self.time += SIM_CYCLE_PS / 2;
        let b = &self.block;
        Outputs {
            remaining: b.remaining.val().to_u32(),
            human_turn: b.human_turn.val(),
            machine_take: b.machine_take.val().to_u32(),
            game_over: b.game_over.val(),
            human_won: b.human_won.val(),
            illegal: b.illegal.val(),
        }
    }

    fn trace(&mut self, writer: Box<dyn std::io::Write>) {
        self.vcd = Some(write_vcd_dump(
            write_vcd_header(writer, &self.block),
            &self.block,
        ));
    }

    fn finish_trace(&mut self) {
        self.vcd = None;
    }
}
