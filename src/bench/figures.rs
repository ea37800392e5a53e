//! Hardware figures: LUTs from synthesis, timing from place and route on
//! the iCEBreaker (UP5K, SG48, unconstrained pins, 12 MHz target).

use std::path::{Path, PathBuf};

use super::design::CombDesign;
use super::BenchError;
use crate::flow::icepack;
use crate::flow::nextpnr::{place_and_route, PnrOptions};
use crate::flow::yosys::{synth_ice40, CellStats};

/// Resource and timing figures for one design.
#[derive(Clone, Debug, PartialEq)]
pub struct HardwareFigures {
    /// `SB_LUT4` count after `synth_ice40`.
    pub luts: usize,
    /// Every cell count from `stat`.
    pub cells: CellStats,
    /// `ICESTORM_LC` logic cells nextpnr used (LUTs plus any constant drivers).
    pub logic_cells: Option<usize>,
    /// Longest post-route path in ns (pad to pad for a combinational design).
    pub critical_path_ns: Option<f64>,
    /// Post-route Fmax in MHz (`None` without clocked paths).
    pub fmax_mhz: Option<f64>,
    /// The packed bitstream.
    pub bitstream: PathBuf,
    /// Which board and options the figures are for.
    pub target: String,
}

/// Synthesise, place, route and pack `design` for the iCEBreaker in
/// `dir/figures`.
pub fn hardware_figures(design: &CombDesign, dir: &Path) -> Result<HardwareFigures, BenchError> {
    design.validate()?;
    let dir = super::work_dir(&dir.join("figures"))?;
    let source = super::write(&dir, &format!("{}.v", design.module), &design.verilog)?;
    let synth = synth_ice40(&dir, &[source], &design.module)?;
    let options = PnrOptions::icebreaker();
    let pnr = place_and_route(&dir, &synth.netlist_json, &options, &design.module)?;
    let bitstream = icepack::pack(&dir, &pnr.asc, &format!("{}.bin", design.module))?;
    Ok(HardwareFigures {
        luts: synth.stats.lut4,
        cells: synth.stats,
        logic_cells: pnr.logic_cells,
        critical_path_ns: pnr.critical_path_ns,
        fmax_mhz: pnr.fmax_mhz,
        bitstream,
        target: format!(
            "iCEBreaker: nextpnr-ice40 {} --package {} --pcf-allow-unconstrained --freq {} --seed {}",
            options.device.nextpnr_flag(),
            options.package,
            options.freq_mhz,
            options.seed
        ),
    })
}
