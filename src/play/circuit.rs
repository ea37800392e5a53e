//! The `sticks_game` controller as an [`Opponent`]: the circuit in rust-hdl simulation, driven
//! through its ports one clock cycle at a time (see [`crate::model::sticks_game`] for the
//! cycle semantics).
//!
//! A game starts with a reset (`machine_first` as asked). Each human move is a one-cycle
//! `take`/`take_valid` pulse; then the circuit is clocked until `human_turn` rises again or
//! `game_over`, and the machine's move is read off `machine_take`. After every move the
//! circuit's `remaining` must agree with the session's position, or the game stops with an
//! error.
//!
//! [`CircuitOpponent::on_chip`] plays against the controller with the on-chip solver instead
//! ([`SticksSolverGame`](crate::circuit::SticksSolverGame)): the game goes in through its
//! configuration ports, the reset solves it on the "chip", and the game starts when the solve
//! is done; from then on it is driven exactly like `sticks_game`.

use super::jr01::{DARK, LIT};
use super::session::Opponent;
use crate::circuit::sticks_solver_game::{
    check_on_chip, cycle_bound, game_request, FullSolverGameSim,
};
use crate::circuit::{sticks_game_sim, Impl, SticksCircuitError, SticksGameSim};
use crate::game::{SticksGame, Successor};
use crate::model::{Inputs, Outputs};

/// What the iCEBreaker top shows for these outputs: LED1..LED5 (the sticks left in binary,
/// LED1 = bit 0 first), the green "your turn" LED and the machine's last move.
pub fn icebreaker_panel(o: &Outputs) -> String {
    let led = |on: bool| if on { LIT } else { DARK };
    let leds: String = (0..5).map(|b| led(o.remaining >> b & 1 == 1)).collect();
    format!(
        "LED1-5 {leds} turn {} machine {}",
        led(o.human_turn),
        o.machine_take
    )
}

/// The `sticks_game` controller answering the human's moves.
pub struct CircuitOpponent {
    sim: Box<dyn SticksGameSim>,
    think_cycles: u32,
    /// What the intro says the machine plays.
    label: String,
    /// The outputs shown on the panel now.
    shown: Outputs,
    /// The outputs after the machine's answer, not yet played.
    answer: Option<Outputs>,
}

impl CircuitOpponent {
    /// The controller for `game` (lookup as sum-of-products logic), reset for a new game (the
    /// machine to open with `machine_first`).
    pub fn new(
        game: &SticksGame,
        think_cycles: u32,
        machine_first: bool,
    ) -> Result<Self, SticksCircuitError> {
        let sim = sticks_game_sim(game, Impl::Logic, think_cycles)?;
        let mut c = CircuitOpponent {
            sim,
            think_cycles,
            label: format!(
                "the sticks_game circuit (rust-hdl simulation, {think_cycles} think cycles)"
            ),
            shown: Outputs::default(),
            answer: None,
        };
        c.shown = c.sim.step(&Inputs::reset(machine_first));
        Ok(c)
    }

    /// The controller with the on-chip solver (counts up to 255, takes up to 8), its
    /// configuration ports set to `game`, reset (the machine to open with `machine_first`),
    /// and clocked until its solve is done and the game has started. The error says why not:
    /// a game the solver cannot hold, or a solve that did not finish within its cycle bound.
    pub fn on_chip(
        game: &SticksGame,
        think_cycles: u32,
        machine_first: bool,
    ) -> Result<Self, String> {
        check_on_chip(game).map_err(|e| e.to_string())?;
        let mut sim = FullSolverGameSim::new(u64::from(think_cycles), game_request(game));
        let bound = cycle_bound(game.count(), crate::circuit::sticks_solver::MAX_SOLVER_TAKE);
        let (shown, edges) = sim
            .start_game(&Inputs::reset(machine_first), bound)
            .ok_or_else(|| format!("the on-chip solver did not finish within {bound} cycles"))?;
        // The solver's `done` rose one edge before the game started.
        let solved_in = edges - 1;
        Ok(CircuitOpponent {
            sim: Box::new(sim),
            think_cycles,
            label: format!(
                "the sticks_solver_game circuit (rust-hdl simulation, solved on chip in \
                 {solved_in} cycles, {think_cycles} think cycles)"
            ),
            shown,
            answer: None,
        })
    }

    /// Clocks the idle circuit until the human is to move or the game is over.
    fn wait(&mut self) -> Result<Outputs, String> {
        let most = self.think_cycles + 2;
        self.sim
            .wait_for_turn(most)
            .map(|(o, _)| o)
            .ok_or_else(|| format!("the circuit did not answer within {most} cycles"))
    }
}

impl Opponent<SticksGame> for CircuitOpponent {
    fn describe(&self) -> String {
        self.label.clone()
    }

    fn hear(
        &mut self,
        _: &SticksGame,
        i: usize,
        m: &u64,
        after: Successor,
    ) -> Result<Option<String>, String> {
        if !self.shown.human_turn {
            return Err("the circuit is not waiting for a move".to_string());
        }
        let take = u32::try_from(*m).map_err(|_| format!("take {m} does not fit the port"))?;
        let o = self.sim.step(&Inputs::take(take));
        if o.illegal {
            return Ok(Some(format!("the circuit refused take {m} at {i} sticks")));
        }
        let Successor::Stored(left) = after else {
            return Err("a stick game never leaves the index space".to_string());
        };
        if o.remaining as usize != left {
            return Err(format!(
                "the circuit shows {} sticks left after take {m}, the game {left}",
                o.remaining
            ));
        }
        self.shown = o;
        if !o.game_over {
            self.answer = Some(self.wait()?);
        }
        Ok(None)
    }

    fn reply(&mut self, _: &SticksGame, i: usize) -> Result<u64, String> {
        let o = match self.answer.take() {
            Some(o) => o,
            // The opening move, when the machine moves first.
            None if !self.shown.human_turn && !self.shown.game_over => self.wait()?,
            None => return Err(format!("the circuit made no move at {i} sticks")),
        };
        if o.machine_take == 0 || o.remaining as usize + o.machine_take as usize != i {
            return Err(format!(
                "the circuit took {} and shows {} sticks left, but the game had {i}",
                o.machine_take, o.remaining
            ));
        }
        self.shown = o;
        Ok(u64::from(o.machine_take))
    }

    fn panel(&self) -> Option<String> {
        Some(icebreaker_panel(&self.shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Last;
    use crate::play::{Event, Session};
    use crate::solver::solve;

    /// A circuit built for another count disagrees with the session at the first move.
    #[test]
    fn a_circuit_for_another_game_stops_the_session() {
        let g = SticksGame::fort_boyard();
        let other = SticksGame::new(20, &[1, 2, 3], Last::Loses).unwrap();
        let s = solve(&g);
        let circuit = CircuitOpponent::new(&other, 2, false).unwrap();
        let (mut session, _) = Session::start(&s, circuit, "sticks", false);
        let events = session.feed("1");
        assert_eq!(
            events,
            [Event::Failed(
                "the circuit shows 19 sticks left after take 1, the game 17".into()
            )]
        );
        assert!(session.is_over());
    }

    #[test]
    fn the_panel_shows_the_count_low_bit_first() {
        let o = Outputs {
            remaining: 17,
            human_turn: true,
            machine_take: 3,
            ..Outputs::default()
        };
        assert_eq!(icebreaker_panel(&o), "LED1-5 ●○○○● turn ● machine 3");
    }
}
