//! Level 7: the `synth_ice40` netlist proved equal to its RTL (yosys `equiv_make`,
//! `equiv_simple`, `equiv_induct`, `equiv_status`; see [`crate::flow::equiv`]), with the iCE40
//! cells' simulation models from yosys's `ice40/cells_sim.v`. For any Verilog and top module:
//! the combinational designs, the `sticks_game` controller, a board top or a user's module.

use std::path::Path;
use std::time::Instant;

use super::design::CombDesign;
use super::{BenchError, Level, LevelReport};
use crate::flow::equiv::{self, NetlistEquivalence};
use crate::flow::yosys;

/// Synthesise `verilog` (top `top`, outputs `outputs`) for iCE40 in `dir` (created) and prove
/// the netlist equal to it.
pub fn netlist_equivalence(
    dir: &Path,
    verilog: &str,
    top: &str,
    outputs: &[String],
) -> Result<LevelReport, BenchError> {
    let start = Instant::now();
    let dir = super::absolute(dir)?;
    std::fs::create_dir_all(&dir).map_err(|source| BenchError::Io {
        path: dir.clone(),
        source,
    })?;
    let rtl = super::write(&dir, &format!("{top}.v"), verilog)?;
    let synthesis = yosys::synth_ice40(&dir, std::slice::from_ref(&rtl), top)?;
    let cells = equiv::cell_models(
        &dir,
        &[synthesis.netlist_verilog.clone(), rtl.clone()],
        "ice40_cells.v",
    )?;
    let outcome = equiv::prove_netlist(
        &dir,
        &[rtl],
        &synthesis.netlist_verilog,
        &cells,
        top,
        outputs,
        "equiv",
    )?;
    let (passed, detail) = match outcome {
        NetlistEquivalence::Proved { cells, excluded } => (
            true,
            format!(
                "yosys equiv_make/equiv_simple/equiv_induct proved the synth_ice40 netlist of \
                 {top} ({} SB_LUT4, {} flip-flops) equal to its RTL for every input sequence: \
                 {cells} paired signals, every output among them{}",
                synthesis.stats.lut4,
                synthesis.stats.dff,
                if excluded.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({} internal signal{} left unpaired)",
                        excluded.len(),
                        if excluded.len() == 1 { "" } else { "s" }
                    )
                }
            ),
        ),
        NetlistEquivalence::Unproven { signals } => (
            false,
            format!(
                "the synth_ice40 netlist of {top} is not proved equal to its RTL at: {} (logs \
                 in {})",
                signals.join(", "),
                dir.display()
            ),
        ),
    };
    Ok(LevelReport {
        level: Level::Equivalence,
        vectors: 0,
        passed,
        elapsed: start.elapsed(),
        detail,
        mismatch: None,
    })
}

/// Level 7 of a combinational design (work directory `dir/equivalence`).
pub fn equivalence_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    design.validate()?;
    let outputs: Vec<String> = design.outputs.iter().map(|p| p.name.clone()).collect();
    netlist_equivalence(
        &dir.join("equivalence"),
        &design.verilog,
        &design.module,
        &outputs,
    )
}

#[cfg(all(test, feature = "external-tools"))]
mod tests {
    use super::*;
    use crate::circuit::sticks_strategy::Impl;
    use crate::flow::testing::work_dir;
    use crate::game::SticksGame;

    #[test]
    fn the_netlists_equal_their_rtl() {
        let game = SticksGame::new(6, &[1, 2, 3], crate::game::Last::Loses).unwrap();
        let jr01 = crate::designs::Jr01Design::build().unwrap().design;
        let mut designs = vec![jr01];
        for implementation in [Impl::Rom, Impl::Logic] {
            designs.push(CombDesign::from_sticks(&game, implementation).unwrap());
        }
        for design in &designs {
            let dir = work_dir("equivalence");
            let report = equivalence_level(design, dir.path()).unwrap();
            assert!(report.passed, "{report}");
        }
        let outputs: Vec<String> = crate::model::Outputs::NAMES
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let verilog = crate::circuit::sticks_game_verilog(&game, Impl::Logic, 1).unwrap();
        let dir = work_dir("equivalence-controller");
        let report = netlist_equivalence(dir.path(), &verilog, "sticks_game", &outputs).unwrap();
        assert!(report.passed, "{report}");
    }
}
