//! Every board top (each board x design, as `retrogate build` emits it through the public
//! `top_verilog`) synthesised with `synth_ice40` and proved equal to its RTL with yosys
//! `equiv_make` / `equiv_simple` / `equiv_induct` (the netlist equivalence level).
//!
//! The two Alchitry Cu (Io V1) tops read their switches through `SB_IO` pads that emulate
//! pull-downs; the proof models those pads with the pin as a free input on both sides (see
//! `retrogate::flow::equiv`), so what a switch sets reaches the design in the proof too.
//! Every top must be proved.

#![cfg(feature = "external-tools")]

use retrogate::bench::equivalence::netlist_equivalence;
use retrogate::board::BoardId;
use retrogate::circuit::top::{top_verilog, Design, Timing};
use retrogate::verilog::PortDir;

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
            if !report.passed {
                failures.push(format!("{}: {report}", top.module));
                let _ = dir.keep();
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
