//! The J.R. 01 strategy as a three-input, three-output combinational block
//! built from sum-of-products covers, and the choice of those covers: every minimal cover of
//! each output of the solved game's table ([`all_minimal_covers`]), the seed's cover first where
//! it is among them ([`seed_first_covers`], [`SEED_001_COVERS`]). [`Jr01Strategy::from_game`]
//! builds the committed circuit (`hdl/jr01_strategy.v`, and the block inside every J.R. 01
//! board top) from the game's rules alone.

use rust_hdl::prelude::*;

use super::{settle, CircuitError, CombBlock};
use crate::logic::{minimal_covers, Sop, TruthTable};
use crate::solver::strategy::{Jr01Strategy as Jr01Solution, StrategyError};

/// Module name of the J.R. 01 strategy.
pub const JR01_MODULE: &str = "jr01_strategy";

/// Most alternative minimal covers listed per output.
pub const COVER_LIMIT: usize = 16;

/// The covers seed 001 chose for X, Y, Z, as sets of products in its notation. Y has two
/// minimal covers (with A·C' or with A·B'); where the seed's choice is among the minimal
/// covers, the circuit takes it, so the hardware is the seed's plug program. It is a choice
/// among equals, never a result: the covers themselves come from the minimiser.
pub const SEED_001_COVERS: [&[&str]; 3] =
    [&["A", "B·C"], &["B·C'", "A·C'", "B'·C"], &["A'·B'", "B·C'"]];

/// Why the J.R. 01 circuit could not be built from the game.
#[derive(Debug, thiserror::Error)]
pub enum Jr01Error {
    /// The strategy could not be read off the solution.
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    /// The circuit refused its covers.
    #[error(transparent)]
    Circuit(#[from] CircuitError),
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

/// A cover's products in the seed's notation (`A·C'`), sorted.
fn products(sop: &Sop, names: &[&str]) -> Vec<String> {
    let mut p = sop.render_products(names);
    p.sort();
    p
}

/// Every minimal cover of X, Y, Z of the J.R. 01 `table`, the seed's first where it is minimal.
pub fn seed_first_covers(table: &TruthTable) -> Vec<Vec<Sop>> {
    let mut covers = all_minimal_covers(table);
    let names = Jr01Solution::INPUTS;
    for (list, seed) in covers.iter_mut().zip(SEED_001_COVERS) {
        let mut seed: Vec<String> = seed.iter().map(|s| s.to_string()).collect();
        seed.sort();
        if let Some(i) = list.iter().position(|c| products(c, &names) == seed) {
            let chosen = list.remove(i);
            list.insert(0, chosen);
        }
    }
    covers
}

/// Input names, most significant first, as the covers' `to_verilog` expects.
const INPUT_NAMES: [&str; 3] = ["a", "b", "c"];
/// Mask of the three input variables a cover may use.
const INPUT_MASK: u32 = 0b111;

/// The J.R. 01 winning strategy: the current position `a b c` in, the move
/// `x y z` out.
///
/// ```text
///            +--------------+
///   a  ----->|              |-----> x
///   b  ----->| Jr01Strategy |-----> y
///   c  ----->|              |-----> z
///            +--------------+
///   input code  = a b c  (a = bit 2, variable 2 of the covers)
///   output word = x y z  (x = bit 2)
/// ```
///
/// The block is purely combinational. `update()` evaluates the covers in Rust
/// for rust-hdl's simulator, and `hdl()` renders the *same* covers as a
/// `Verilog::Custom` `always @(*)` block, so the two views cannot drift apart
/// in the data they start from (they are still separate code, which is why
/// the bench checks the Verilog on its own).
#[derive(LogicBlock)]
pub struct Jr01Strategy {
    /// Position bit A (most significant input).
    pub a: Signal<In, Bit>,
    /// Position bit B.
    pub b: Signal<In, Bit>,
    /// Position bit C (least significant input).
    pub c: Signal<In, Bit>,
    /// Move bit X (most significant output).
    pub x: Signal<Out, Bit>,
    /// Move bit Y.
    pub y: Signal<Out, Bit>,
    /// Move bit Z (least significant output).
    pub z: Signal<Out, Bit>,
    _covers: [Sop; 3],
}

impl Jr01Strategy {
    /// Build the block from one cover per output. Each cover is over 3 inputs
    /// with variable 2 = `a`, 1 = `b`, 0 = `c`.
    ///
    /// The block comes back with `connect_all()` already called, ready to
    /// simulate or to hand to [`crate::verilog::emit`].
    pub fn new(x: Sop, y: Sop, z: Sop) -> Result<Self, CircuitError> {
        for (output, cover) in [("x", &x), ("y", &y), ("z", &z)] {
            let wide = cover
                .cubes()
                .iter()
                .fold(0, |acc, cube| acc | (cube.mask & !INPUT_MASK));
            if wide != 0 {
                return Err(CircuitError::CoverTooWide {
                    output,
                    mask: wide,
                    inputs: INPUT_NAMES.len(),
                });
            }
        }
        let mut block = Self {
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            x: Default::default(),
            y: Default::default(),
            z: Default::default(),
            _covers: [x, y, z],
        };
        block.connect_all();
        Ok(block)
    }

    /// The block of the first cover of each output in `covers` (X, Y, Z, as
    /// [`seed_first_covers`] lists them).
    pub fn from_covers(covers: &[Vec<Sop>]) -> Result<Self, CircuitError> {
        Self::new(
            covers[0][0].clone(),
            covers[1][0].clone(),
            covers[2][0].clone(),
        )
    }

    /// The J.R. 01 circuit from the game's rules: the solved game's table, minimised, the
    /// seed's cover among equals.
    pub fn from_game() -> Result<Self, Jr01Error> {
        let solution = Jr01Solution::derive()?;
        Ok(Self::from_covers(&seed_first_covers(&solution.table))?)
    }

    /// The covers for `x`, `y`, `z`, in that order.
    pub fn covers(&self) -> &[Sop; 3] {
        &self._covers
    }

    fn input_code(&self) -> u32 {
        (u32::from(self.a.val()) << 2) | (u32::from(self.b.val()) << 1) | u32::from(self.c.val())
    }
}

impl Logic for Jr01Strategy {
    fn update(&mut self) {
        let code = self.input_code();
        let [x, y, z] = &self._covers;
        self.x.next = x.eval(code);
        self.y.next = y.eval(code);
        self.z.next = z.eval(code);
    }

    fn connect(&mut self) {
        self.x.connect();
        self.y.connect();
        self.z.connect();
    }

    fn hdl(&self) -> Verilog {
        let [x, y, z] = &self._covers;
        Verilog::Custom(format!(
            "always @(*) begin\n    x = {};\n    y = {};\n    z = {};\nend\n",
            x.to_verilog(&INPUT_NAMES),
            y.to_verilog(&INPUT_NAMES),
            z.to_verilog(&INPUT_NAMES),
        ))
    }
}

impl CombBlock for Jr01Strategy {
    fn eval(&mut self, input: u32) -> u32 {
        self.a.next = input & 0b100 != 0;
        self.b.next = input & 0b010 != 0;
        self.c.next = input & 0b001 != 0;
        settle(self);
        (u32::from(self.x.val()) << 2) | (u32::from(self.y.val()) << 1) | u32::from(self.z.val())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::logic::{Cube, TruthTable};

    /// The J.R. 01 table: rows in code order, `abc -> xyz`.
    pub(crate) fn jr01_table() -> TruthTable {
        let rows = [0b001, 0b011, 0b011, 0b100, 0b110, 0b110, 0b111, 0b100];
        TruthTable::new(3, 3, rows.iter().map(|&w| Some(w)).collect()).expect("J.R. 01 table")
    }

    fn cube(mask: u32, bits: u32) -> Cube {
        Cube { mask, bits }
    }

    /// Minimal covers: X = A + B·C, Y = B·C' + A·C' + B'·C, Z = A'·B' + B·C'.
    pub(crate) fn jr01_covers() -> (Sop, Sop, Sop) {
        let x = Sop::new(3, vec![cube(0b100, 0b100), cube(0b011, 0b011)]);
        let y = Sop::new(
            3,
            vec![cube(0b011, 0b010), cube(0b101, 0b100), cube(0b011, 0b001)],
        );
        let z = Sop::new(3, vec![cube(0b110, 0b000), cube(0b011, 0b010)]);
        (x, y, z)
    }

    pub(crate) fn jr01_block() -> Jr01Strategy {
        let (x, y, z) = jr01_covers();
        Jr01Strategy::new(x, y, z).expect("covers are over 3 inputs")
    }

    #[test]
    fn jr01_matches_table() {
        let table = jr01_table();
        let mut block = jr01_block();
        for code in 0..8u32 {
            assert_eq!(Some(block.eval(code)), table.row(code), "input {code:03b}");
        }
        // And back down again, so every output sees both edges.
        for code in (0..8u32).rev() {
            assert_eq!(Some(block.eval(code)), table.row(code), "input {code:03b}");
        }
    }

    #[test]
    fn jr01_rejects_wide_cover() {
        let (x, y, _) = jr01_covers();
        let z = Sop::new(4, vec![cube(0b1000, 0b1000)]);
        assert_eq!(
            Jr01Strategy::new(x, y, z).err(),
            Some(CircuitError::CoverTooWide {
                output: "z",
                mask: 0b1000,
                inputs: 3
            })
        );
    }

    /// The covers come from the minimiser, and the seed's are among them: X = A + B·C, Y's
    /// with A·C', Z = A'·B' + B·C', 13 literals in 7 products; every listed cover of an output
    /// costs the same.
    #[test]
    fn the_game_gives_the_seed_simplification() {
        let covers = seed_first_covers(&Jr01Solution::derive().unwrap().table);
        let names = ["A", "B", "C"];
        let [x, y, z] = [&covers[0][0], &covers[1][0], &covers[2][0]];
        assert_eq!(x.render(&names), "A + B·C");
        assert_eq!(products(y, &names), ["A·C'", "B'·C", "B·C'"]);
        assert_eq!(products(z, &names), ["A'·B'", "B·C'"]);
        for (list, seed) in covers.iter().zip(SEED_001_COVERS) {
            let mut seed: Vec<String> = seed.iter().map(|s| s.to_string()).collect();
            seed.sort();
            assert!(list.iter().any(|c| products(c, &names) == seed));
            let cost = (list[0].literals(), list[0].products());
            assert!(list.iter().all(|c| (c.literals(), c.products()) == cost));
        }
        let literals: usize = [x, y, z].iter().map(|s| s.literals()).sum();
        let products: usize = [x, y, z].iter().map(|s| s.products()).sum();
        assert_eq!((literals, products), (13, 7));
        // The block of the game is these covers, and plays the table.
        let mut block = Jr01Strategy::from_game().unwrap();
        assert_eq!(block.covers().each_ref(), [x, y, z]);
        let table = [0b001, 0b011, 0b011, 0b100, 0b110, 0b110, 0b111, 0b100];
        for (code, want) in table.into_iter().enumerate() {
            assert_eq!(block.eval(code as u32), want, "{code:03b}");
        }
    }

    /// The Verilog this block emits, as committed.
    #[test]
    fn jr01_verilog_snapshot() {
        let verilog = crate::verilog::emit(&jr01_block(), "jr01_strategy").expect("emit");
        insta::assert_snapshot!(verilog);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn jr01_synthesizes() {
        let dir = crate::flow::testing::work_dir("jr01_synthesizes");
        let verilog = crate::verilog::emit(&jr01_block(), "jr01_strategy").expect("emit");
        let source = dir.path().join("jr01_strategy.v");
        std::fs::write(&source, verilog).expect("write Verilog");
        let synth = crate::flow::yosys::synth_ice40(dir.path(), &[source], "jr01_strategy")
            .expect("yosys synth_ice40");
        assert_eq!(synth.stats.lut4, 3, "{:?}", synth.stats);
        assert_eq!(synth.stats.dff, 0);
    }
}
