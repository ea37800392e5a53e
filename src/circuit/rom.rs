//! A ROM holding any [`TruthTable`]: the table's rows, addressed by input code.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::{settle, sized, CircuitError, CombBlock};
use crate::logic::TruthTable;

/// Largest address width a [`TruthTableRom`] accepts (a 1M-row case
/// statement is already far beyond anything worth synthesising).
pub const MAX_ROM_INPUTS: usize = 20;

/// A combinational ROM holding a [`TruthTable`]: `address` is the table's
/// input code, `data` its output word.
///
/// ```text
///                 +---------------------+
///   address[N] -->| TruthTableRom<N, M> |--> data[M]
///                 +---------------------+
/// ```
///
/// Don't-care rows read as 0. `update()` looks the row up in a Rust vector;
/// `hdl()` renders the same vector as a `case` statement with sized literals
/// (`N'dK: data = M'dK;`) and `default: data = M'd0;`.
#[derive(LogicBlock)]
pub struct TruthTableRom<const N: usize, const M: usize> {
    /// The input code.
    pub address: Signal<In, Bits<N>>,
    /// The output word (0 on don't-care rows).
    pub data: Signal<Out, Bits<M>>,
    _rows: Vec<Option<u32>>,
}

impl<const N: usize, const M: usize> TruthTableRom<N, M> {
    /// Build a ROM from `table`, whose shape must be `N` inputs by `M`
    /// outputs. The block comes back with `connect_all()` already called.
    pub fn new(table: &TruthTable) -> Result<Self, CircuitError> {
        if N == 0 || N > MAX_ROM_INPUTS || M == 0 || M > 32 {
            return Err(CircuitError::Unsupported {
                inputs: N,
                outputs: M,
                max_inputs: MAX_ROM_INPUTS,
            });
        }
        if table.inputs() != N || table.outputs() != M {
            return Err(CircuitError::ShapeMismatch {
                table_inputs: table.inputs(),
                table_outputs: table.outputs(),
                rom_inputs: N,
                rom_outputs: M,
            });
        }
        let mut block = Self {
            address: Default::default(),
            data: Default::default(),
            _rows: table.rows().to_vec(),
        };
        block.connect_all();
        Ok(block)
    }

    /// The word stored at `code` (0 for don't-care rows and out-of-range codes).
    pub fn word(&self, code: usize) -> u32 {
        self._rows.get(code).copied().flatten().unwrap_or(0)
    }
}

impl<const N: usize, const M: usize> Logic for TruthTableRom<N, M> {
    fn update(&mut self) {
        let word = self.word(self.address.val().index());
        self.data.next = bits::<M>(u64::from(word));
    }

    fn connect(&mut self) {
        self.data.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::from("always @(*) begin\n    case (address)\n");
        for (row, word) in self._rows.iter().enumerate() {
            if let Some(word) = word {
                // Writing to a String cannot fail.
                let _ = writeln!(
                    code,
                    "        {}: data = {};",
                    sized(N, row as u64),
                    sized(M, u64::from(*word))
                );
            }
        }
        let _ = write!(
            code,
            "        default: data = {};\n    endcase\nend\n",
            sized(M, 0)
        );
        Verilog::Custom(code)
    }
}

impl<const N: usize, const M: usize> CombBlock for TruthTableRom<N, M> {
    fn eval(&mut self, input: u32) -> u32 {
        self.address.next = bits::<N>(u64::from(input));
        settle(self);
        self.data.val().to_u32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::jr01::tests::jr01_table;

    #[test]
    fn rom_matches_table() {
        let table = jr01_table();
        let mut rom = TruthTableRom::<3, 3>::new(&table).expect("3x3 ROM");
        for code in (0..8u32).chain((0..8u32).rev()) {
            assert_eq!(Some(rom.eval(code)), table.row(code), "address {code:03b}");
        }
    }

    #[test]
    fn rom_dont_care_rows_read_zero() {
        let table = TruthTable::new(2, 4, vec![Some(0xF), None, Some(0x5), None]).expect("table");
        let mut rom = TruthTableRom::<2, 4>::new(&table).expect("2x4 ROM");
        let read: Vec<u32> = (0..4).map(|code| rom.eval(code)).collect();
        assert_eq!(read, vec![0xF, 0, 0x5, 0]);
        let Verilog::Custom(code) = rom.hdl() else {
            panic!("expected custom Verilog");
        };
        assert_eq!(
            code,
            "always @(*) begin\n    case (address)\n        2'd0: data = 4'd15;\n        \
             2'd2: data = 4'd5;\n        default: data = 4'd0;\n    endcase\nend\n"
        );
    }

    #[test]
    fn rom_rejects_wrong_shape() {
        let table = jr01_table();
        assert_eq!(
            TruthTableRom::<4, 3>::new(&table).err(),
            Some(CircuitError::ShapeMismatch {
                table_inputs: 3,
                table_outputs: 3,
                rom_inputs: 4,
                rom_outputs: 3
            })
        );
    }

    /// The Verilog the J.R. 01 ROM emits, as committed.
    #[test]
    fn rom_verilog_snapshot() {
        let rom = TruthTableRom::<3, 3>::new(&jr01_table()).expect("3x3 ROM");
        insta::assert_snapshot!(crate::verilog::emit(&rom, "jr01_rom").expect("emit"));
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn rom_synthesizes() {
        let dir = crate::flow::testing::work_dir("rom_synthesizes");
        let rom = TruthTableRom::<3, 3>::new(&jr01_table()).expect("3x3 ROM");
        let verilog = crate::verilog::emit(&rom, "jr01_rom").expect("emit");
        let source = dir.path().join("jr01_rom.v");
        std::fs::write(&source, verilog).expect("write Verilog");
        let synth = crate::flow::yosys::synth_ice40(dir.path(), &[source], "jr01_rom")
            .expect("yosys synth_ice40");
        assert!(
            synth.stats.lut4 >= 1 && synth.stats.lut4 <= 3,
            "{:?}",
            synth.stats
        );
        assert_eq!(synth.stats.dff, 0);
    }
}
