//! Level 1: rust-hdl's simulation of the block, driven input by input.

use std::time::Instant;

use super::design::{binary, CombDesign};
use super::{BenchError, Level, LevelReport, Mismatch};

/// Drive every cared-for input through `driver` and compare with the table.
///
/// `driver` takes an input code (ports concatenated, first port most
/// significant) and returns the block's output word the same way; for the
/// circuits in [`crate::circuit`] use
/// [`CombBlock::into_driver`](crate::circuit::CombBlock::into_driver)
/// (any `Fn(u32) -> u32` works too). This level exercises `update()` only:
/// it says nothing about the Verilog, which levels 2 to 5 check.
pub fn rust_hdl_level(
    design: &CombDesign,
    mut driver: impl FnMut(u32) -> u32,
) -> Result<LevelReport, BenchError> {
    design.validate()?;
    let start = Instant::now();
    let ow = design.output_width();
    let mask = if ow >= 32 { u32::MAX } else { (1u32 << ow) - 1 };
    let mut checked = 0;
    let mut mismatch = None;
    for (code, expected) in design.cared_rows() {
        checked += 1;
        let actual = driver(code) & mask;
        if actual != expected {
            mismatch = Some(Mismatch {
                input: code,
                input_width: design.input_width(),
                expected,
                actual: binary(actual, ow),
                vcd: None,
            });
            break;
        }
    }
    Ok(LevelReport {
        level: Level::RustHdl,
        vectors: checked,
        passed: mismatch.is_none(),
        elapsed: start.elapsed(),
        detail: format!(
            "rust-hdl update() of {} over {checked} cared-for inputs",
            design.module
        ),
        mismatch,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::design::tests::{jr01_design, jr01_rom_design};
    use crate::circuit::jr01::tests::{jr01_block, jr01_table};
    use crate::circuit::{CombBlock, TruthTableRom};

    #[test]
    fn jr01_passes_level_1() {
        let report = rust_hdl_level(&jr01_design(), jr01_block().into_driver()).expect("level 1");
        assert!(report.passed, "{report}");
        assert_eq!(report.vectors, 8);
    }

    #[test]
    fn rom_passes_level_1() {
        let rom = TruthTableRom::<3, 3>::new(&jr01_table()).expect("rom");
        let report = rust_hdl_level(&jr01_rom_design(), rom.into_driver()).expect("level 1");
        assert!(report.passed, "{report}");
    }

    #[test]
    fn level_1_reports_first_mismatch() {
        let mut block = jr01_block();
        let broken = move |code: u32| block.eval(code) ^ if code >= 5 { 0b010 } else { 0 };
        let report = rust_hdl_level(&jr01_design(), broken).expect("level 1");
        assert!(!report.passed);
        let m = report.mismatch.expect("mismatch");
        assert_eq!((m.input, m.expected, m.actual.as_str()), (5, 0b110, "100"));
        assert_eq!(report.vectors, 6);
    }
}
