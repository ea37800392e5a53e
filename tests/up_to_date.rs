//! Committed outputs are checked outputs: hdl/, sim/, constraints/, the README's waveform
//! (docs/sticks-wave.svg, .vcd and .gtkw), the tables of docs/boards.md and, with the external
//! tools, the README's J.R. 01 schematic (docs/jr01-schematic.svg) must equal what the current
//! code generates. On a difference, regenerate them with `make generated` (the schematic: `make
//! docs`; the tables of docs/boards.md: the command the failing test names).

use retrogate::bench::jr01::{Jr01Design, JR01_MODULE};
use retrogate::bench::sim_files;
use std::path::Path;

fn assert_file(path: &str, fresh: &str) {
    assert_made_by(path, fresh, "make generated");
}

fn assert_made_by(path: &str, fresh: &str, make: &str) {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let committed = std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("{path}: {e}; run `{make}` and commit the result"));
    assert!(
        committed == fresh,
        "{path} differs from what the code generates now; run `{make}` and commit the result"
    );
}

#[test]
fn hdl_jr01_strategy_is_up_to_date() {
    let d = Jr01Design::build().unwrap();
    assert_file(&format!("hdl/{JR01_MODULE}.v"), &d.design.verilog);
}

#[test]
fn sim_jr01_testbench_and_vectors_are_up_to_date() {
    let d = Jr01Design::build().unwrap();
    for (name, text) in sim_files(&d.design).unwrap() {
        assert_file(&format!("sim/{name}"), &text);
    }
}

#[test]
fn emitting_twice_gives_identical_bytes() {
    let a = Jr01Design::build().unwrap().design.verilog;
    let b = Jr01Design::build().unwrap().design.verilog;
    assert_eq!(a, b);
}

#[test]
fn constraints_for_jr01_are_up_to_date() {
    use retrogate::board::BoardId;
    use retrogate::circuit::top::Design;
    use retrogate::circuit::top::{top_verilog, Timing};
    for board in BoardId::ALL {
        let top = top_verilog(board, &Design::Jr01, &Timing::for_board(board.board())).unwrap();
        assert_file(
            &format!("constraints/{board}-jr01.pcf"),
            &top.pcf().unwrap(),
        );
    }
}

#[test]
fn hdl_sticks_strategy_and_game_are_up_to_date() {
    use retrogate::circuit::sticks_game::sticks_game_verilog;
    use retrogate::circuit::sticks_strategy::{sticks_strategy_verilog, Impl};
    use retrogate::game::SticksGame;
    // Fort Boyard: the ROM and the logic both map to 4 SB_LUT4, and a tie goes to the logic
    // (checked with yosys in tests/cli/design.rs); think time: half a second at 12 MHz.
    let g = SticksGame::fort_boyard();
    assert_file(
        "hdl/sticks_strategy.v",
        &sticks_strategy_verilog(&g, Impl::Logic).unwrap(),
    );
    assert_file(
        "hdl/sticks_game.v",
        &sticks_game_verilog(&g, Impl::Logic, 6_000_000).unwrap(),
    );
}

/// The on-chip solver at the size the README describes (`emit solver --max-count 255
/// --max-take 8`).
#[test]
fn hdl_sticks_solver_is_up_to_date() {
    use retrogate::circuit::sticks_solver::sticks_solver_verilog;
    assert_file(
        "hdl/sticks_solver.v",
        &sticks_solver_verilog(255, 8).unwrap(),
    );
}

/// The heap-game controller at the solver's default size and `emit`'s default think time
/// (`emit heaps-game`: T = 63, A = 2, M = 3, 6,000,000 ticks).
#[test]
fn hdl_heaps_game_is_up_to_date() {
    use retrogate::circuit::heaps_game::heaps_game_verilog;
    assert_file(
        "hdl/heaps_game.v",
        &heaps_game_verilog(63, 2, 3, 6_000_000).unwrap(),
    );
}

/// The on-chip heap solver at the default size (`emit heaps-solver`: T = 63, A = 2,
/// M = 3).
#[test]
fn hdl_heaps_solver_is_up_to_date() {
    use retrogate::circuit::heaps_solver::heaps_solver_verilog;
    assert_file(
        "hdl/heaps_solver.v",
        &heaps_solver_verilog(63, 2, 3).unwrap(),
    );
}

#[test]
fn constraints_for_sticks_are_up_to_date() {
    use retrogate::board::BoardId;
    use retrogate::circuit::top::Design;
    use retrogate::circuit::top::{top_verilog, Timing};
    for board in BoardId::ALL {
        let top = top_verilog(board, &Design::sticks(), &Timing::for_board(board.board())).unwrap();
        assert_file(
            &format!("constraints/{board}-sticks.pcf"),
            &top.pcf().unwrap(),
        );
    }
}

#[test]
fn the_readme_waveform_is_up_to_date() {
    // The same command as `make generated`.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("sticks-wave.svg");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrogate"))
        .args([
            "wave", "sticks", "--count", "20", "--moves", "1,3,2", "--gtkw", "--out",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_file(
        "docs/sticks-wave.gtkw",
        &std::fs::read_to_string(svg.with_extension("gtkw")).unwrap(),
    );
    assert_file(
        "docs/sticks-wave.svg",
        &std::fs::read_to_string(&svg).unwrap(),
    );
    assert_file(
        "docs/sticks-wave.vcd",
        &std::fs::read_to_string(svg.with_extension("vcd")).unwrap(),
    );
}

/// The README's J.R. 01 schematic: the same command as `make docs` (Graphviz lays it out).
#[cfg(feature = "external-tools")]
#[test]
fn the_readme_schematic_is_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("jr01-schematic.svg");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrogate"))
        .current_dir(dir.path())
        .args(["schematic", "jr01", "--out"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_made_by(
        "docs/jr01-schematic.svg",
        &std::fs::read_to_string(&svg).unwrap(),
        "make docs",
    );
}

/// The committed output folders carry the manifest that lets `make generated` (and users) write
/// into them again: it lists exactly the files retrogate wrote there.
#[test]
fn committed_output_folders_list_their_files_in_the_manifest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = |dir: &str| -> Vec<String> {
        let text = std::fs::read_to_string(root.join(dir).join(".retrogate-manifest"))
            .unwrap_or_else(|e| panic!("{dir}/.retrogate-manifest: {e}"));
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_owned)
            .collect()
    };
    for dir in ["hdl", "sim", "constraints"] {
        let mut files: Vec<String> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".retrogate-manifest")
            .collect();
        files.sort();
        assert_eq!(listed(dir), files, "{dir}/.retrogate-manifest");
    }
    for name in listed("docs") {
        assert!(root.join("docs").join(&name).is_file(), "docs/{name}");
    }
}

#[test]
fn constraints_for_solver_are_up_to_date() {
    use retrogate::board::BoardId;
    use retrogate::circuit::top::Design;
    use retrogate::circuit::top::{top_verilog, Timing};
    for board in BoardId::ALL {
        let top = top_verilog(board, &Design::Solver, &Timing::for_board(board.board())).unwrap();
        assert_file(
            &format!("constraints/{board}-solver.pcf"),
            &top.pcf().unwrap(),
        );
    }
}

#[test]
fn constraints_for_heaps_are_up_to_date() {
    use retrogate::board::BoardId;
    use retrogate::circuit::top::Design;
    use retrogate::circuit::top::{top_verilog, Timing};
    for board in BoardId::ALL
        .into_iter()
        .filter(|&b| Design::Heaps.runs_on(b))
    {
        let timing = Timing::for_design(board.board(), &Design::Heaps);
        let top = top_verilog(board, &Design::Heaps, &timing).unwrap();
        assert_file(
            &format!("constraints/{board}-heaps.pcf"),
            &top.pcf().unwrap(),
        );
    }
}

/// docs/boards.md: its tables are the board data and the designs' layouts as the code renders
/// them now (`retrogate::circuit::top::doc`), and it holds every board's and design's table.
/// With `RETROGATE_UPDATE_DOCS` set, a stale page has its tables (only) rewritten in place.
#[test]
fn docs_boards_tables_are_up_to_date() {
    use retrogate::circuit::top::doc::{boards_page, missing_tables};
    const UPDATE: &str =
        "RETROGATE_UPDATE_DOCS=1 cargo test --release --test up_to_date docs_boards";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/boards.md");
    let committed = std::fs::read_to_string(&path).unwrap();
    let fresh = boards_page(&committed).unwrap_or_else(|e| panic!("{e}"));
    if fresh != committed && std::env::var_os("RETROGATE_UPDATE_DOCS").is_some() {
        let partial = path.with_extension("md.partial");
        std::fs::write(&partial, &fresh).unwrap();
        std::fs::rename(&partial, &path).unwrap();
    } else {
        assert_made_by("docs/boards.md", &fresh, UPDATE);
    }
    let missing = missing_tables(&fresh);
    assert!(
        missing.is_empty(),
        "docs/boards.md has no table {missing:?}: add a marker for each (see \
         retrogate::circuit::top::doc), then run `{UPDATE}`"
    );
}
