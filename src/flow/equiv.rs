//! Netlist equivalence with yosys's `equiv_*` passes, in the manner of eqy: the RTL (gold)
//! and the `synth_ice40` netlist (gate, with the iCE40 cells' own simulation models from
//! yosys's `ice40/cells_sim.v`, not blackboxes) are paired signal by signal by name
//! (`equiv_make`), then proved with `equiv_simple -seq` and `equiv_induct -seq` (an unbounded
//! proof by induction over the paired signals), and `equiv_status` counts what is left.
//!
//! A pairing of two internal signals that only agree where it matters (a flip-flop's `d`
//! input, which synthesis may change where the enable is low) is not provable on its own and
//! would leave the proof open; such internal names are excluded (`equiv_make -blacklist`) and
//! the proof rerun, a few rounds at most. The top's outputs are never excluded: the proof
//! holds when every output is proved.

use std::path::{Path, PathBuf};

use super::runner::{self, write_file, Tool, ToolError};

/// Rounds of excluding unprovable internal pairings before giving up.
const ROUNDS: usize = 6;

/// The outcome of [`prove_netlist`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetlistEquivalence {
    /// Every paired signal, every output among them, is proved equal.
    Proved {
        /// How many `$equiv` cells were proved.
        cells: usize,
        /// Internal signals left unpaired.
        excluded: Vec<String>,
    },
    /// Outputs (or, after the last round, internal signals) the proof could not show equal.
    Unproven {
        /// Their names (`remaining [2]`).
        signals: Vec<String>,
    },
}

/// A behavioural model of the iCE40 PLL `SB_PLL40_CORE`, for simulation and the netlist
/// equivalence (yosys's `ice40/cells_sim.v` has it only as a blackbox): the output clock is the
/// reference clock itself (one simulated cycle per design cycle; the frequency does not change
/// the logic), and `LOCK` rises after [`PLL_LOCK_CYCLES`](crate::circuit::top::PLL_LOCK_CYCLES)
/// reference clock cycles (3), as the board tops' Rust model has it. Same ports and
/// parameters as the blackbox.
pub const PLL_MODEL: &str = "\
// Behavioural model of SB_PLL40_CORE (retrogate, for simulation): clock passthrough, LOCK
// after 3 reference clock cycles.
module SB_PLL40_CORE (
\tinput   REFERENCECLK,
\toutput  PLLOUTCORE,
\toutput  PLLOUTGLOBAL,
\tinput   EXTFEEDBACK,
\tinput   [7:0] DYNAMICDELAY,
\toutput  LOCK,
\tinput   BYPASS,
\tinput   RESETB,
\tinput   LATCHINPUTVALUE,
\toutput  SDO,
\tinput   SDI,
\tinput   SCLK
);
\tparameter FEEDBACK_PATH = \"SIMPLE\";
\tparameter DELAY_ADJUSTMENT_MODE_FEEDBACK = \"FIXED\";
\tparameter DELAY_ADJUSTMENT_MODE_RELATIVE = \"FIXED\";
\tparameter SHIFTREG_DIV_MODE = 1'b0;
\tparameter FDA_FEEDBACK = 4'b0000;
\tparameter FDA_RELATIVE = 4'b0000;
\tparameter PLLOUT_SELECT = \"GENCLK\";
\tparameter DIVR = 4'b0000;
\tparameter DIVF = 7'b0000000;
\tparameter DIVQ = 3'b000;
\tparameter FILTER_RANGE = 3'b000;
\tparameter ENABLE_ICEGATE = 1'b0;
\tparameter TEST_MODE = 1'b0;
\tparameter EXTERNAL_DIVIDE_FACTOR = 1;
\treg [1:0] cycles = 2'd0;
\tassign PLLOUTCORE = REFERENCECLK;
\tassign PLLOUTGLOBAL = REFERENCECLK;
\tassign LOCK = cycles == 2'd3;
\tassign SDO = 1'b0;
\talways @(posedge REFERENCECLK)
\t\tif (!LOCK) cycles <= cycles + 2'd1;
endmodule
";

/// The iCE40 cells' models that `PLL_MODEL` replaces (yosys's blackboxes).
const MODELLED: &str = "SB_PLL40_CORE";

/// `cells_sim` (the text of yosys's `ice40/cells_sim.v`) with the blackbox of
/// `SB_PLL40_CORE` (and its `(* blackbox *)` attribute) replaced by [`PLL_MODEL`].
pub fn with_pll_model(cells_sim: &str) -> String {
    let mut text = String::with_capacity(cells_sim.len() + PLL_MODEL.len());
    let mut lines = cells_sim.lines().peekable();
    let mut skipping = false;
    while let Some(line) = lines.next() {
        let next_is_pll = lines
            .peek()
            .is_some_and(|l| l.starts_with(&format!("module {MODELLED} ")));
        if line.trim() == "(* blackbox *)" && next_is_pll {
            continue;
        }
        if line.starts_with(&format!("module {MODELLED} ")) {
            skipping = true;
            text.push_str(PLL_MODEL);
            continue;
        }
        if skipping {
            skipping = !line.starts_with("endmodule");
            continue;
        }
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Writes `dir/ice40_cells_sim.v`: yosys's `ice40/cells_sim.v` with [`PLL_MODEL`] in place of
/// the PLL's blackbox, for simulations of whole board tops (which may instantiate `SB_IO`s and
/// a PLL).
pub fn ice40_sim_models(dir: &Path) -> Result<PathBuf, ToolError> {
    let sim = super::yosys::ice40_cells_sim(dir)?;
    let models = std::fs::read_to_string(&sim).map_err(|err| {
        ToolError::io(Tool::Yosys, format!("reading {}", sim.display()), dir, err)
    })?;
    write_file(
        Tool::Yosys,
        dir,
        "ice40_cells_sim.v",
        &with_pll_model(&models),
    )
}

/// Writes `dir/<name>` holding the models of exactly the iCE40 cells `netlists` instantiate
/// (the RTL of a board top may instantiate some itself),
/// taken from yosys's `ice40/cells_sim.v` (its macro prelude and those modules, unchanged):
/// reading the whole file costs minutes of parsing for cells the netlist never uses.
pub fn cell_models(dir: &Path, netlists: &[PathBuf], name: &str) -> Result<PathBuf, ToolError> {
    let sim = super::yosys::ice40_cells_sim(dir)?;
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|err| {
            ToolError::io(Tool::Yosys, format!("reading {}", path.display()), dir, err)
        })
    };
    let models = with_pll_model(&read(&sim)?);
    let mut used = std::collections::BTreeSet::new();
    for netlist in netlists {
        used.extend(
            read(netlist)?
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .filter(|w| w.starts_with("SB_"))
                .map(str::to_owned),
        );
    }
    let mut text = String::new();
    let mut in_module = false;
    let mut keep = true;
    for line in models.lines() {
        if !in_module {
            if let Some(rest) = line.strip_prefix("module ") {
                in_module = true;
                let module = rest
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default();
                keep = used.contains(module);
            }
        }
        if keep {
            text.push_str(line);
            text.push('\n');
        }
        if in_module && line.starts_with("endmodule") {
            in_module = false;
            keep = false;
        }
    }
    write_file(Tool::Yosys, dir, name, &text)
}

/// Prove that `netlist` (with the cell models `cells`) equals the RTL `rtl`, both with top
/// module `top`, whose output ports are `outputs`. Leaves `<step>.ys`, `<step>.log` per round.
pub fn prove_netlist(
    dir: &Path,
    rtl: &[PathBuf],
    netlist: &Path,
    cells: &Path,
    top: &str,
    outputs: &[String],
    step: &str,
) -> Result<NetlistEquivalence, ToolError> {
    let mut excluded: Vec<String> = Vec::new();
    let mut unproven = Vec::new();
    for round in 0..ROUNDS {
        let blacklist = format!("{step}_excluded.txt");
        write_file(Tool::Yosys, dir, &blacklist, &lines(&excluded))?;
        let reads: String = rtl
            .iter()
            .map(|s| format!("read_verilog \"{}\"\n", s.display()))
            .collect();
        let script = format!(
            "read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS \"{cells}\"\n\
             {reads}hierarchy -check -top {top}\nproc -norom\nflatten\nrename {top} gold\n\
             design -stash gold\n\
             read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS \"{cells}\"\n\
             read_verilog \"{netlist}\"\nhierarchy -check -top {top}\nproc\nflatten\n\
             rename {top} gate\ndesign -stash gate\n\
             design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n\
             equiv_make -blacklist {blacklist} gold gate equiv\nhierarchy -top equiv\n\
             async2sync\nequiv_simple -seq 5\nequiv_induct -seq 5\nequiv_status\n",
            cells = cells.display(),
            netlist = netlist.display(),
        );
        let name = format!("{step}_{round}");
        write_file(Tool::Yosys, dir, &format!("{name}.ys"), &script)?;
        let out = runner::run(
            Tool::Yosys,
            dir,
            ["-s", &format!("{name}.ys")],
            Some(&format!("{name}.log")),
        )?;
        let (total, open) =
            parse_status(&out.stdout).ok_or_else(|| out.unexpected("no `equiv_status` summary"))?;
        if open.is_empty() {
            return Ok(NetlistEquivalence::Proved {
                cells: total,
                excluded,
            });
        }
        let is_output = |s: &String| {
            let wire = s.split(' ').next().unwrap_or(s);
            outputs.iter().any(|o| o == wire)
        };
        let internal: Vec<String> = open.iter().filter(|s| !is_output(s)).cloned().collect();
        if internal.is_empty() {
            return Ok(NetlistEquivalence::Unproven { signals: open });
        }
        for s in internal {
            let wire = s.split(' ').next().unwrap_or(&s).to_owned();
            if !excluded.contains(&wire) {
                excluded.push(wire);
            }
        }
        unproven = open;
    }
    Ok(NetlistEquivalence::Unproven { signals: unproven })
}

fn lines(names: &[String]) -> String {
    names.iter().map(|n| format!("{n}\n")).collect()
}

/// `(cells, unproven signals)` from `equiv_status`: `Found N $equiv cells` and the lines
/// `Unproven $equiv <cell>: \<wire>_gold [bit] \<wire>_gate [bit]`.
fn parse_status(log: &str) -> Option<(usize, Vec<String>)> {
    let section = log.rsplit("Executing EQUIV_STATUS pass").next()?;
    let total = section.lines().find_map(|l| {
        l.trim()
            .strip_prefix("Found ")
            .and_then(|r| r.strip_suffix(" $equiv cells in equiv:"))
            .and_then(|n| n.parse().ok())
    });
    let total = match total {
        Some(n) => n,
        None if section.contains("No $equiv cells found") => 0,
        None => return None,
    };
    let open = section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Unproven $equiv "))
        .filter_map(|r| r.split_once(": ").map(|(_, sig)| sig))
        .map(|sig| {
            // `\remaining_gold [2] \remaining_gate [2]` or `\x_gold \x_gate`.
            let gold = sig.split(" \\").next().unwrap_or(sig);
            let gold = gold.trim_start_matches('\\');
            match gold.split_once(' ') {
                Some((wire, bit)) => {
                    format!("{} {bit}", wire.strip_suffix("_gold").unwrap_or(wire))
                }
                None => gold.strip_suffix("_gold").unwrap_or(gold).to_owned(),
            }
        })
        .collect();
    Some((total, open))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PLL model takes the blackbox's place (same ports), once, and locks after the
    /// cycles the board tops' Rust model counts.
    #[test]
    fn the_pll_model_replaces_the_blackbox() {
        let cells = "`define X\n(* blackbox *)\nmodule SB_IO (input A);\nendmodule\n\n\
                     (* blackbox *)\nmodule SB_PLL40_CORE (\n\tinput REFERENCECLK\n);\nendmodule\n\
                     module SB_GB (input A);\nendmodule\n";
        let text = with_pll_model(cells);
        assert_eq!(text.matches("module SB_PLL40_CORE").count(), 1);
        assert_eq!(text.matches("(* blackbox *)").count(), 1, "{text}");
        assert!(text.contains(PLL_MODEL));
        assert!(text.contains("module SB_IO (input A);") && text.contains("module SB_GB"));
        let lock = format!(
            "LOCK = cycles == 2'd{}",
            crate::circuit::top::PLL_LOCK_CYCLES
        );
        assert!(PLL_MODEL.contains(&lock));
    }

    #[test]
    fn reads_the_unproven_signals() {
        let log = "x\n5. Executing EQUIV_STATUS pass.\nFound 141 $equiv cells in equiv:\n  \
                   Of those cells 139 are proven and 2 are unproven.\n  \
                   Unproven $equiv $auto$equiv_make.cc:274:find_same_wires$868: \\core.thinking.d_gold \\core.thinking.d_gate\n  \
                   Unproven $equiv $a: \\remaining_gold [2] \\remaining_gate [2]\n";
        let (total, open) = parse_status(log).unwrap();
        assert_eq!(total, 141);
        assert_eq!(open, vec!["core.thinking.d", "remaining [2]"]);
    }
}
