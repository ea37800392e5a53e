//! The description of a combinational design under test.

use std::fmt;

use super::BenchError;
use crate::circuit::sticks_strategy::{sticks_strategy_verilog_from, Impl, STRATEGY_MODULE};
use crate::circuit::{Jr01Strategy, TruthTableRom};
use crate::game::SticksGame;
use crate::logic::TruthTable;
use crate::solver::strategy::sticks_table;
use crate::verilog::{emit, is_identifier};

/// Names the generated testbench and reference module use for their own
/// signals; design ports must not start with these.
const RESERVED_PREFIXES: [&str; 2] = ["tb_", "ref_"];

/// One port of a design: a name and a width in bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// Verilog name of the port.
    pub name: String,
    /// Width in bits (at least 1).
    pub width: usize,
}

impl Port {
    /// A port of `width` bits.
    pub fn new(name: impl Into<String>, width: usize) -> Self {
        Port {
            name: name.into(),
            width,
        }
    }

    /// A one-bit port.
    pub fn bit(name: impl Into<String>) -> Self {
        Port::new(name, 1)
    }

    /// `[w-1:0] ` for a vector, nothing for a single bit: ready to put
    /// between a declaration keyword and the name.
    pub(crate) fn range(&self) -> String {
        if self.width == 1 {
            String::new()
        } else {
            format!("[{}:0] ", self.width - 1)
        }
    }
}

/// A combinational design to verify: its Verilog, its ports, and the table
/// it must implement.
///
/// The table's input code is the concatenation of the `inputs` ports, first
/// port most significant; its output word is the concatenation of the
/// `outputs` ports in the same way. Rows that are `None` (don't care) are
/// not checked.
pub struct CombDesign {
    /// Name of the top module in `verilog` (also names generated files).
    pub module: String,
    /// Input ports, most significant first.
    pub inputs: Vec<Port>,
    /// Output ports, most significant first.
    pub outputs: Vec<Port>,
    /// Verilog source defining `module` (and any submodules it uses).
    pub verilog: String,
    /// The function the design must implement.
    pub table: TruthTable,
}

impl fmt::Debug for CombDesign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombDesign")
            .field("module", &self.module)
            .field("inputs", &self.inputs)
            .field("outputs", &self.outputs)
            .field("verilog_bytes", &self.verilog.len())
            .field(
                "table",
                &format_args!("{}x{}", self.table.inputs(), self.table.outputs()),
            )
            .finish()
    }
}

impl CombDesign {
    /// The J.R. 01 strategy block as a design: ports `a b c` in, `x y z`
    /// out, Verilog from [`emit`] with top module `module`.
    pub fn from_jr01(
        block: &Jr01Strategy,
        module: &str,
        table: TruthTable,
    ) -> Result<Self, BenchError> {
        let design = CombDesign {
            module: module.to_owned(),
            inputs: ["a", "b", "c"].into_iter().map(Port::bit).collect(),
            outputs: ["x", "y", "z"].into_iter().map(Port::bit).collect(),
            verilog: emit(block, module)?,
            table,
        };
        design.validate()?;
        Ok(design)
    }

    /// A [`TruthTableRom`] as a design: port `address` in, `data` out.
    pub fn from_rom<const N: usize, const M: usize>(
        rom: &TruthTableRom<N, M>,
        module: &str,
        table: TruthTable,
    ) -> Result<Self, BenchError> {
        let design = CombDesign {
            module: module.to_owned(),
            inputs: vec![Port::new("address", N)],
            outputs: vec![Port::new("data", M)],
            verilog: emit(rom, module)?,
            table,
        };
        design.validate()?;
        Ok(design)
    }

    /// A stick game's strategy as a design: module `sticks_strategy`, port `sticks` (W bits)
    /// in, `take` (M bits) and `winning` out, the table from [`sticks_table`] (codes above the
    /// count don't care).
    pub fn from_sticks(game: &SticksGame, implementation: Impl) -> Result<Self, BenchError> {
        let t = sticks_table(game).map_err(crate::circuit::SticksCircuitError::from)?;
        let design = CombDesign {
            module: STRATEGY_MODULE.to_owned(),
            inputs: vec![Port::new("sticks", t.sticks_bits)],
            outputs: vec![Port::new("take", t.take_bits), Port::bit("winning")],
            verilog: sticks_strategy_verilog_from(&t, implementation)?,
            table: t.table,
        };
        design.validate()?;
        Ok(design)
    }

    /// Total input width in bits.
    pub fn input_width(&self) -> usize {
        self.inputs.iter().map(|p| p.width).sum()
    }

    /// Total output width in bits.
    pub fn output_width(&self) -> usize {
        self.outputs.iter().map(|p| p.width).sum()
    }

    /// The rows that are not don't-care, as `(input code, output word)` in
    /// ascending input order.
    pub fn cared_rows(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.table
            .rows()
            .iter()
            .enumerate()
            .filter_map(|(code, word)| word.map(|w| (code as u32, w)))
    }

    /// Number of rows that are not don't-care.
    pub fn cared_count(&self) -> usize {
        self.table.rows().iter().filter(|r| r.is_some()).count()
    }

    /// True when the table has at least one don't-care row.
    pub fn has_dont_cares(&self) -> bool {
        self.table.rows().iter().any(Option::is_none)
    }

    /// Check that the description is usable: identifiers, unique port names,
    /// widths that add up to the table's, and at least one cared-for row.
    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |problem: String| {
            Err(BenchError::InvalidDesign {
                module: self.module.clone(),
                problem,
            })
        };
        if !is_identifier(&self.module) {
            return bad(format!(
                "`{}` is not a plain Verilog identifier; use letters, digits and `_`",
                self.module
            ));
        }
        if self.inputs.is_empty() || self.outputs.is_empty() {
            return bad("a design needs at least one input and one output port".to_owned());
        }
        let mut names: Vec<&str> = Vec::new();
        for port in self.inputs.iter().chain(&self.outputs) {
            if !is_identifier(&port.name) {
                return bad(format!(
                    "port `{}` is not a plain Verilog identifier",
                    port.name
                ));
            }
            if let Some(prefix) = RESERVED_PREFIXES.iter().find(|p| port.name.starts_with(*p)) {
                return bad(format!(
                    "port `{}` starts with `{prefix}`, which the generated testbench and reference \
                     module reserve; rename the port",
                    port.name
                ));
            }
            if port.width == 0 {
                return bad(format!("port `{}` has width 0", port.name));
            }
            if names.contains(&port.name.as_str()) {
                return bad(format!("port `{}` is declared twice", port.name));
            }
            names.push(&port.name);
        }
        if self.input_width() != self.table.inputs() || self.output_width() != self.table.outputs()
        {
            return bad(format!(
                "ports add up to {} inputs and {} outputs but the table has {} and {}; make the \
                 port widths match the table",
                self.input_width(),
                self.output_width(),
                self.table.inputs(),
                self.table.outputs()
            ));
        }
        if self.input_width() > 24 || self.output_width() > 32 {
            return bad("the bench handles at most 24 input and 32 output bits".to_owned());
        }
        if self.cared_count() == 0 {
            return bad(
                "every row of the table is don't-care, so there is nothing to check".to_owned(),
            );
        }
        Ok(())
    }
}

/// `value` as `width` binary digits, MSB first.
pub(crate) fn binary(value: u32, width: usize) -> String {
    (0..width)
        .rev()
        .map(|bit| {
            if value.checked_shr(bit as u32).unwrap_or(0) & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::circuit::jr01::tests::{jr01_block, jr01_table};

    pub(crate) fn jr01_design() -> CombDesign {
        CombDesign::from_jr01(&jr01_block(), "jr01_strategy", jr01_table()).expect("J.R. 01 design")
    }

    pub(crate) fn jr01_rom_design() -> CombDesign {
        let rom = TruthTableRom::<3, 3>::new(&jr01_table()).expect("ROM");
        CombDesign::from_rom(&rom, "jr01_rom", jr01_table()).expect("ROM design")
    }

    #[test]
    fn a_two_port_design_is_valid_and_codes_print_in_binary() {
        let d = CombDesign {
            module: "m".into(),
            inputs: vec![Port::new("hi", 2), Port::bit("lo")],
            outputs: vec![Port::new("o", 4)],
            verilog: String::new(),
            table: TruthTable::new(3, 4, vec![Some(0); 8]).expect("table"),
        };
        assert!(d.validate().is_ok());
        assert_eq!(binary(5, 4), "0101");
    }

    #[test]
    fn rejects_bad_descriptions() {
        let mut d = jr01_design();
        d.inputs[0].name = "tb_a".into();
        assert!(matches!(
            d.validate(),
            Err(BenchError::InvalidDesign { .. })
        ));
        let mut d = jr01_design();
        d.outputs.push(Port::bit("w"));
        let err = d.validate().expect_err("widths do not add up");
        assert!(err.to_string().contains("4 outputs"), "{err}");
        let mut d = jr01_design();
        d.inputs[1].name = "a".into();
        assert!(d.validate().is_err());
    }

    #[test]
    fn jr01_designs_are_valid() {
        assert_eq!(jr01_design().cared_count(), 8);
        assert_eq!(jr01_rom_design().input_width(), 3);
    }
}
