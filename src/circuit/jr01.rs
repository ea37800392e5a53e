//! The J.R. 01 strategy as a three-input, three-output combinational block
//! built from sum-of-products covers.

use rust_hdl::prelude::*;

use super::{settle, CircuitError, CombBlock};
use crate::logic::Sop;

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
