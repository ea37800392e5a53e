//! The proof levels of `verify sticks`: the controller's properties by k-induction or ABC's
//! PDR, and its cover traces, printed as they finish.

use std::io::Write;
use std::path::Path;

use super::design::{step, Tally};
use super::ui::Ui;
use super::CliError;
use crate::bench::properties::{cover_traces, properties_level, ControllerDut};
use crate::game::SticksGame;

/// Runs the properties level on `dut` in `work`, then its cover traces, printing each line.
pub(super) fn sticks_properties(
    game: &SticksGame,
    think_cycles: u32,
    dut: &ControllerDut,
    work: &Path,
    ui: &Ui,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<(), CliError> {
    writeln!(
        out,
        "verify {} by proof (think {think_cycles} cycles): properties, then cover traces",
        dut.top
    )?;
    out.flush()?;
    let spinner = ui.spinner("properties: yosys-smtbmc with z3, ABC pdr");
    let report = properties_level(game, think_cycles, dut, work).map_err(step)?;
    spinner.suspend(|| -> Result<(), CliError> {
        writeln!(out, "{report}")?;
        Ok(out.flush()?)
    })?;
    tally.add(report.passed, format!("{} {}", dut.top, report.level));
    drop(spinner);
    let spinner = ui.spinner("cover traces: yosys-smtbmc -c with z3");
    let traces = cover_traces(game, think_cycles, dut, work).map_err(step)?;
    spinner.suspend(|| -> Result<(), CliError> {
        for t in &traces {
            match (t.step, &t.vcd, &t.svg) {
                (Some(step), Some(vcd), Some(svg)) => writeln!(
                    out,
                    "cover {}: reached at step {step}: {} {}",
                    t.goal.name(),
                    vcd.display(),
                    svg.display()
                )?,
                _ => writeln!(
                    out,
                    "cover {}: {}",
                    t.goal.name(),
                    t.note.as_deref().unwrap_or("not reached")
                )?,
            }
        }
        Ok(out.flush()?)
    })?;
    Ok(())
}

/// Runs the netlist equivalence level on the emitted controller `verilog` in
/// `work/controller-equivalence`.
pub(super) fn controller_equivalence(
    verilog: &str,
    work: &Path,
    ui: &Ui,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let top = crate::circuit::GAME_MODULE;
    let spinner = ui.spinner(&format!("{top}: netlist equivalence"));
    let outputs: Vec<String> = crate::model::Outputs::NAMES
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let report = crate::bench::equivalence::netlist_equivalence(
        &work.join("controller-equivalence"),
        verilog,
        top,
        &outputs,
    )
    .map_err(step)?;
    spinner.suspend(|| -> Result<(), CliError> {
        writeln!(out, "{top} {report}")?;
        Ok(out.flush()?)
    })?;
    tally.add(report.passed, format!("{top} {}", report.level));
    Ok(())
}
