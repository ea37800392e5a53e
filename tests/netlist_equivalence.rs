//! Every board top (each board x design, as `retrogate build` emits it through the public
//! `top_verilog`) synthesised with `synth_ice40` and proved equal to its RTL with yosys
//! `equiv_make` / `equiv_simple` / `equiv_induct` (the netlist equivalence level).
//!
//! Open: for the two Alchitry Cu (Io V1) tops, whose switch inputs go through the SB_IO
//! pull-down emulation, the induction over name-paired signals does not close at the outputs
//! (measured 2026-11-30, yosys 0.23). That is an unfinished proof, not a counterexample (none
//! is searched for yet). Those two are listed in `OPEN`; every other top must be proved, and an
//! `OPEN` top that becomes proved fails the test until it is taken off the list.

#![cfg(feature = "external-tools")]

use retrogate::bench::equivalence::netlist_equivalence;
use retrogate::board::BoardId;
use retrogate::circuit::top::{top_verilog, Design, Timing};
use retrogate::verilog::PortDir;

/// Tops whose equivalence proof does not close yet (see the module docs).
const OPEN: [&str; 2] = ["jr01_alchitry_cu", "sticks_alchitry_cu"];

#[test]
fn every_board_top_netlist_equals_its_rtl() {
    let mut failures = Vec::new();
    for board in BoardId::ALL {
        for design in [Design::Jr01, Design::sticks()] {
            let top = top_verilog(board, &design, &Timing::for_board(board.board())).expect("top");
            let outputs: Vec<String> = top
                .ports
                .iter()
                .filter(|p| p.dir != PortDir::Input)
                .map(|p| p.name.clone())
                .collect();
            let dir = tempfile::Builder::new()
                .prefix(&format!("retrogate-equiv-{}-", top.module))
                .tempdir()
                .expect("work directory");
            let report = netlist_equivalence(dir.path(), &top.verilog, &top.module, &outputs)
                .unwrap_or_else(|e| panic!("{}: {e}", top.module));
            eprintln!("{} {report}", top.module);
            let open = OPEN.contains(&top.module.as_str());
            if !report.passed && !open {
                failures.push(format!("{}: {report}", top.module));
                let _ = dir.keep();
            }
            if report.passed && open {
                failures.push(format!("{} is proved now: take it off OPEN", top.module));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
