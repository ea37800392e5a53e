//! Every board top (each board x design, as `retrogate build` emits it through the public
//! `top_verilog`) synthesised with `synth_ice40` and proved equal to its RTL with yosys
//! `equiv_make` / `equiv_simple` / `equiv_induct` (the netlist equivalence level).
//!
//! The two Alchitry Cu (Io V1) tops read their switches through `SB_IO` pads that emulate
//! pull-downs; the proof models those pads with the pin as a free input on both sides (see
//! `retrogate::flow::equiv`), so what a switch sets reaches the design in the proof too.
//! The solver's and the heap game's tops hold their tables in `SB_RAM40_4K`s; the proof maps
//! the RTL's memory to the same RAMs and cuts them out of both sides
//! (`retrogate::flow::equiv::RAM_MODEL`). The heap solver's 2-bit state register `drain` is
//! marked `fsm_encoding = "none"`: recoded one-hot by `synth_ice40`, it no longer paired with
//! the RTL's by name, and the induction did not close in 10 minutes; kept binary, the heaps
//! top is proved in 2 to 4 minutes.
//!
//! `make test` proves here the tops that nothing else in it proves for every cycle
//! ([`proved_here`]); [`every_other_top_netlist_equals_its_rtl`] proves the rest when asked
//! for: the tops whose chip level 8 proves equal to the RTL top (tests/common/chip_proofs.rs),
//! and the [`long_proof`]s. With all of them, a clean clone's `make test` took over 30
//! minutes.

#![cfg(feature = "external-tools")]

use retrogate::bench::equivalence::{netlist_against_rtl, netlist_equivalence};
use retrogate::board::BoardId;
use retrogate::circuit::top::{top_verilog, Design, Timing, BOARD_DESIGNS};
use retrogate::flow::yosys::synth_ice40;
use retrogate::verilog::PortDir;

/// The design of the registry entry `name` (its `--design` name).
fn design(name: &str) -> Design {
    Design::named(name)
        .unwrap_or_else(|| panic!("design `{name}` of BOARD_DESIGNS: add it to Design::every"))
}

#[path = "common/chip_proofs.rs"]
mod chip_proofs;

/// The board tops whose proofs run only when asked for (`--run-ignored`), with why: the two
/// `heaps` tops' proofs take 2 to 4 minutes each (236 s and 224 s on 2026-12-03; the Cu's 148 s
/// on 2026-12-04, once both sides were cleaned up with `opt -fast -keepdc`), which took
/// `make test` from a clean clone past its 30 minutes; and the Cu V2's solver top (about a
/// minute), the Cu V1's solver top but for its pins and the Io V1's pull-down emulation, which
/// the Cu V1's and the Cu V2's other tops' proofs cover.
/// [`every_other_top_netlist_equals_its_rtl`] runs them.
fn long_proof(board: BoardId, design: &str) -> bool {
    design == "heaps" || (board == BoardId::AlchitryCuV2 && design == "solver")
}

/// Every design of the registry that has a layout on `board` and that `wanted` accepts, as
/// `retrogate build` emits its top (the design's own clock and timing), proved equal to its
/// `synth_ice40` netlist; returns how many were proved. One test per board, so the test runner
/// spreads the proofs over the cores.
fn every_top_of(board: BoardId, wanted: impl Fn(&str) -> bool) -> usize {
    let mut failures = Vec::new();
    let mut proved = 0;
    for entry in BOARD_DESIGNS {
        if (entry.pin_uses)(board.board()).is_none() || !wanted(entry.name) {
            continue;
        }
        let design = design(entry.name);
        let timing = Timing::for_design(board.board(), &design);
        let top = top_verilog(board, &design, &timing).expect("top");
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
        if report.passed {
            proved += 1;
        } else {
            failures.push(format!("{}: {report}", top.module));
            let _ = dir.keep();
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    proved
}

/// Whether `make test` proves `design`'s top on `board` here: neither a [`long_proof`] nor a
/// top whose chip `make test`'s level 8 proves equal to it for every cycle.
fn proved_here(board: BoardId, design: &str) -> bool {
    !long_proof(board, design) && !chip_proofs::chip_proved_for_all_cycles(board, design)
}

/// The board's tops that [`proved_here`] takes: at least one.
fn every_top_proved_here_of(board: BoardId) {
    let proved = every_top_of(board, |d| proved_here(board, d));
    assert!(proved >= 1, "{board}: no top proved");
}

/// Every top `make test` does not prove here, proved like the others when asked for:
/// `cargo nextest run --cargo-profile fast-build --features external-tools --run-ignored
/// ignored-only --test netlist_equivalence`.
#[test]
#[ignore = "about 11 minutes: run with --run-ignored (see proved_here)"]
fn every_other_top_netlist_equals_its_rtl() {
    let mut proved = 0;
    for board in BoardId::ALL {
        proved += every_top_of(board, |d| {
            !proved_here(board, d) && !rom_in_block_ram(board, d)
        });
    }
    // J.R. 01 on the five boards, the stick game on four (the Cu V1's is proved here), the
    // heaps tops of the Cu and Cu V2, and the Cu V2's solver top.
    assert_eq!(proved, 12);
}

/// The tops with a ROM in block RAM (the Go Board's heap game: its digits), which this proof
/// cannot take: it cuts every block RAM at a blackbox and models RAM without initial contents
/// only (`retrogate::flow::equiv::RAM_MODEL`). Their level 8 proves the chip read back from
/// the bitstream equal to the RTL top for 30 cycles from power-on, ROM included.
fn rom_in_block_ram(board: BoardId, design: &str) -> bool {
    board == BoardId::GoBoard && design == "heaps"
}

#[test]
fn icebreaker_tops_netlists_equal_their_rtl() {
    every_top_proved_here_of(BoardId::Icebreaker);
}

#[test]
fn go_board_tops_netlists_equal_their_rtl() {
    every_top_proved_here_of(BoardId::GoBoard);
}

#[test]
fn alchitry_cu_tops_netlists_equal_their_rtl() {
    every_top_proved_here_of(BoardId::AlchitryCu);
}

#[test]
fn icestick_tops_netlists_equal_their_rtl() {
    every_top_proved_here_of(BoardId::Icestick);
}

/// Every board has its test above, or says why it needs none: the match names each board and
/// has no catch-all, so a new board does not compile here until it has one; each test it
/// names is in this file, and a board without one has every top proved elsewhere.
#[test]
fn every_board_has_its_equivalence_test() {
    for board in BoardId::ALL {
        let test = match board {
            BoardId::Icebreaker => Some("icebreaker_tops_netlists_equal_their_rtl"),
            BoardId::GoBoard => Some("go_board_tops_netlists_equal_their_rtl"),
            BoardId::AlchitryCu => Some("alchitry_cu_tops_netlists_equal_their_rtl"),
            // J.R. 01 and the stick game proved on the chip, the solver and the heap game
            // when asked for.
            BoardId::AlchitryCuV2 => None,
            BoardId::Icestick => Some("icestick_tops_netlists_equal_their_rtl"),
        };
        match test {
            Some(test) => assert!(
                include_str!("netlist_equivalence.rs").contains(&format!("fn {test}() {{")),
                "{board}: no test `{test}` in this file"
            ),
            None => assert!(
                BOARD_DESIGNS
                    .iter()
                    .filter(|entry| (entry.pin_uses)(board.board()).is_some())
                    .all(|entry| !proved_here(board, entry.name)),
                "{board}: a top is proved here: give the board its test"
            ),
        }
    }
}

/// The pads are modelled so that what a switch sets reaches the design: the Alchitry Cu (Io
/// V1) J.R. 01 top's netlist with its first two DIP pins swapped is not proved equal to the
/// RTL (with yosys's own `SB_IO` model, which reads back its own `1'bz`, it was). Its
/// difference needs the debouncer's millisecond ticks, beyond the counterexample search, so
/// the level reports an unfinished proof.
#[test]
fn a_v1_top_netlist_reading_the_wrong_pin_is_not_proved() {
    let board = BoardId::AlchitryCu;
    let top = top_verilog(board, &Design::Jr01, &Timing::for_board(board.board())).expect("top");
    let outputs: Vec<String> = top
        .ports
        .iter()
        .filter(|p| p.dir != PortDir::Input)
        .map(|p| p.name.clone())
        .collect();
    let made = tempfile::tempdir().expect("work directory");
    let rtl = made.path().join(format!("{}.v", top.module));
    std::fs::write(&rtl, &top.verilog).unwrap();
    let netlist = synth_ice40(made.path(), &[rtl], &top.module)
        .expect("synthesis")
        .netlist_verilog;
    let text = std::fs::read_to_string(&netlist).unwrap();
    let swapped = text
        .replace(".PACKAGE_PIN(io_dip[0])", ".PACKAGE_PIN(io_dip[@])")
        .replace(".PACKAGE_PIN(io_dip[1])", ".PACKAGE_PIN(io_dip[0])")
        .replace(".PACKAGE_PIN(io_dip[@])", ".PACKAGE_PIN(io_dip[1])");
    assert_ne!(
        swapped, text,
        "the netlist's pads read io_dip[0] and io_dip[1]"
    );
    std::fs::write(&netlist, swapped).unwrap();
    let dir = tempfile::tempdir().expect("work directory");
    let report = netlist_against_rtl(dir.path(), &top.verilog, &netlist, &top.module, &outputs)
        .expect("the level runs");
    eprintln!("{} {report}", top.module);
    assert!(!report.passed, "{report}");
}

/// The block RAM's cut is checked on both sides: the iCEstick solver top's netlist with its
/// RAM's reads disabled (`RCLKE` low), or read in another mode (`READ_MODE`), is not proved
/// equal to the RTL.
#[test]
fn a_solver_top_netlist_with_a_changed_ram_is_not_proved() {
    let board = BoardId::Icestick;
    let top = top_verilog(board, &Design::Solver, &Timing::for_board(board.board())).expect("top");
    let outputs: Vec<String> = top
        .ports
        .iter()
        .filter(|p| p.dir != PortDir::Input)
        .map(|p| p.name.clone())
        .collect();
    let made = tempfile::tempdir().expect("work directory");
    let rtl = made.path().join(format!("{}.v", top.module));
    std::fs::write(&rtl, &top.verilog).unwrap();
    let netlist = synth_ice40(made.path(), &[rtl], &top.module)
        .expect("synthesis")
        .netlist_verilog;
    let text = std::fs::read_to_string(&netlist).unwrap();
    for (from, to) in [
        (".RCLKE(1'h1)", ".RCLKE(1'h0)"),
        (".READ_MODE(2'h1)", ".READ_MODE(2'h2)"),
    ] {
        assert_eq!(
            text.matches(from).count(),
            1,
            "the netlist's RAM has {from}"
        );
        let changed = made.path().join("changed.v");
        std::fs::write(&changed, text.replace(from, to)).unwrap();
        let dir = tempfile::tempdir().expect("work directory");
        let report = netlist_against_rtl(dir.path(), &top.verilog, &changed, &top.module, &outputs)
            .expect("the level runs");
        eprintln!("{} {to}: {report}", top.module);
        assert!(!report.passed, "{to}: {report}");
    }
}
