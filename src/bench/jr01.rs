//! The J.R. 01 design as the bench and the CLI take it: the strategy read off the solved game,
//! every minimal cover of its outputs, and the circuit ([`crate::circuit::jr01`], which also
//! chooses the covers) wired into a bench design ([`CombDesign`]: Verilog, ports, table).
//!
//! The hardware itself does not depend on this module: the board tops build the same circuit
//! with [`Jr01Strategy::from_game`].

use super::{BenchError, CombDesign};
use crate::circuit::jr01::seed_first_covers;
use crate::circuit::{CircuitError, Jr01Strategy};
use crate::logic::Sop;
use crate::solver::strategy::{Jr01Strategy as Jr01Solution, StrategyError};

pub use crate::circuit::jr01::{all_minimal_covers, COVER_LIMIT, JR01_MODULE, SEED_001_COVERS};

/// Why a design could not be built.
#[derive(Debug, thiserror::Error)]
pub enum DesignError {
    /// The strategy could not be read off the solution.
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    /// The circuit refused its covers or table.
    #[error(transparent)]
    Circuit(#[from] CircuitError),
    /// The bench refused the design.
    #[error(transparent)]
    Bench(#[from] BenchError),
}

/// The J.R. 01 design: the strategy from the game, its minimal covers, and the circuit built
/// from one minimal cover of each output (the seed's where it is minimal).
pub struct Jr01Design {
    /// The strategy read off the solved game.
    pub solution: Jr01Solution,
    /// Every minimal cover of X, Y, Z; the circuit uses the first of each (the seed's).
    pub covers: Vec<Vec<Sop>>,
    /// The design for the bench: Verilog, ports and table.
    pub design: CombDesign,
}

impl Jr01Design {
    /// Builds everything from the game's rules.
    pub fn build() -> Result<Self, DesignError> {
        let solution = Jr01Solution::derive()?;
        let covers = seed_first_covers(&solution.table);
        let design = CombDesign::from_jr01(
            &Jr01Strategy::from_covers(&covers)?,
            JR01_MODULE,
            solution.table.clone(),
        )?;
        Ok(Self {
            solution,
            covers,
            design,
        })
    }

    /// The covers the circuit uses: X, Y, Z.
    pub fn chosen(&self) -> [&Sop; 3] {
        [&self.covers[0][0], &self.covers[1][0], &self.covers[2][0]]
    }

    /// A fresh rust-hdl block of the circuit (for simulation).
    pub fn block(&self) -> Result<Jr01Strategy, DesignError> {
        Ok(Jr01Strategy::from_covers(&self.covers)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench design carries the circuit of the board tops: the covers the circuit module
    /// chooses from the game, and the game's table.
    #[test]
    fn jr01_design_is_the_circuit_of_the_game() {
        let d = Jr01Design::build().unwrap();
        let block = Jr01Strategy::from_game().unwrap();
        assert_eq!(d.chosen(), block.covers().each_ref());
        assert_eq!(d.block().unwrap().covers(), block.covers());
        assert_eq!(d.design.table, d.solution.table);
        let [x, _, _] = d.chosen();
        assert_eq!(x.render(&["A", "B", "C"]), "A + B·C");
    }
}
