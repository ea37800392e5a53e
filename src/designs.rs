//! The designs retrogate builds, each assembled from its game's solution: solver -> truth table
//! -> minimised covers -> rust-hdl block -> Verilog and a bench design.

use crate::bench::{BenchError, CombDesign};
use crate::circuit::{CircuitError, Jr01Strategy};
use crate::logic::{minimal_covers, Sop, TruthTable};
use crate::solver::strategy::{Jr01Strategy as Jr01Solution, StrategyError};

/// Module name of the J.R. 01 strategy.
pub const JR01_MODULE: &str = "jr01_strategy";

/// Most alternative minimal covers listed per output.
pub const COVER_LIMIT: usize = 16;

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

/// Every minimal cover of each output bit, most significant output first.
pub fn all_minimal_covers(table: &TruthTable) -> Vec<Vec<Sop>> {
    (0..table.outputs())
        .rev()
        .map(|k| {
            let (on, dc) = table.output_bit(k);
            minimal_covers(table.inputs(), &on, &dc, COVER_LIMIT)
        })
        .collect()
}

/// The covers seed 001 chose for X, Y, Z, as sets of products in its notation. Y has two
/// minimal covers (with A·C' or with A·B'); where the seed's choice is among the minimal
/// covers, the circuit takes it, so the hardware is the seed's plug program. It is a choice
/// among equals, never a result: the covers themselves come from the minimiser.
pub const SEED_001_COVERS: [&[&str]; 3] =
    [&["A", "B·C"], &["B·C'", "A·C'", "B'·C"], &["A'·B'", "B·C'"]];

fn products(sop: &Sop, names: &[&str]) -> Vec<String> {
    let mut p = sop.render_products(names);
    p.sort();
    p
}

/// Moves the seed's cover, when it is minimal, to the front of each output's list.
fn prefer_seed(covers: &mut [Vec<Sop>]) {
    let names = Jr01Solution::INPUTS;
    for (list, seed) in covers.iter_mut().zip(SEED_001_COVERS) {
        let mut seed: Vec<String> = seed.iter().map(|s| s.to_string()).collect();
        seed.sort();
        if let Some(i) = list.iter().position(|c| products(c, &names) == seed) {
            let chosen = list.remove(i);
            list.insert(0, chosen);
        }
    }
}

/// Every minimal cover of X, Y, Z, the seed's first where it is minimal.
fn jr01_covers(table: &TruthTable) -> Vec<Vec<Sop>> {
    let mut covers = all_minimal_covers(table);
    prefer_seed(&mut covers);
    covers
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
        let covers = jr01_covers(&solution.table);
        let design = CombDesign::from_jr01(
            &Self::block_from(&covers)?,
            JR01_MODULE,
            solution.table.clone(),
        )?;
        Ok(Self {
            solution,
            covers,
            design,
        })
    }

    /// The circuit alone (for the board tops), with the same covers as [`Jr01Design::build`]
    /// and without the bench design.
    pub fn strategy() -> Result<Jr01Strategy, DesignError> {
        let solution = Jr01Solution::derive()?;
        Self::block_from(&jr01_covers(&solution.table))
    }

    /// The covers the circuit uses: X, Y, Z.
    pub fn chosen(&self) -> [&Sop; 3] {
        [&self.covers[0][0], &self.covers[1][0], &self.covers[2][0]]
    }

    /// A fresh rust-hdl block of the circuit (for simulation).
    pub fn block(&self) -> Result<Jr01Strategy, DesignError> {
        Self::block_from(&self.covers)
    }

    fn block_from(covers: &[Vec<Sop>]) -> Result<Jr01Strategy, DesignError> {
        Ok(Jr01Strategy::new(
            covers[0][0].clone(),
            covers[1][0].clone(),
            covers[2][0].clone(),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jr01_reproduces_the_seed_simplification() {
        let d = Jr01Design::build().unwrap();
        let names = ["A", "B", "C"];
        let [x, y, z] = d.chosen();
        assert_eq!(x.render(&names), "A + B·C");
        assert_eq!(products(y, &names), ["A·C'", "B'·C", "B·C'"]);
        assert_eq!(products(z, &names), ["A'·B'", "B·C'"]);
        // Each seed cover is one of the minimiser's minimal covers, found, not imposed.
        for (list, seed) in d.covers.iter().zip(SEED_001_COVERS) {
            let mut seed: Vec<String> = seed.iter().map(|s| s.to_string()).collect();
            seed.sort();
            assert!(list.iter().any(|c| products(c, &names) == seed));
            let cost = (list[0].literals(), list[0].products());
            assert!(list.iter().all(|c| (c.literals(), c.products()) == cost));
        }
        let literals: usize = d.chosen().iter().map(|s| s.literals()).sum();
        let products: usize = d.chosen().iter().map(|s| s.products()).sum();
        assert_eq!((literals, products), (13, 7));
    }
}
