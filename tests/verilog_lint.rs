//! Every Verilog file retrogate emits lints clean under `verilator --lint-only -Wall` (issue 21):
//! the committed `hdl/*.v` and `sim/*.v`, the top of every board x design (the registry
//! `circuit::top::BOARD_DESIGNS` on every board it has a layout for, so a new design or board is
//! linted without touching this file), and the testbenches `retrogate verify` writes into its
//! work folders (linted with their design, the way the bench builds them: `--timescale 1ns/1ps`),
//! `emit heaps-solver` at several sizes, with its `--sim` testbench, and the heap-game
//! controller `heaps_game` at several sizes.
//!
//! A file passes when Verilator prints no `%Warning` (and no `%Error`) located in a file
//! retrogate wrote. The iCE40 primitives a top instantiates (`SB_IO`, `SB_PLL40_CORE`) are
//! given to Verilator as models from this test; what Verilator says about the models is not
//! retrogate's output and is left out.
//!
//! The only waivers allowed are the ones `retrogate::verilog::WAIVERS` documents.

#![cfg(feature = "external-tools")]

use std::path::{Path, PathBuf};
use std::process::Command;

use retrogate::board::BoardId;
use retrogate::circuit::top::{top_verilog, Design, Timing, BOARD_DESIGNS};

/// Models of the iCE40 primitives the tops instantiate, enough for Verilator to elaborate them.
const PRIMITIVES: &str = "\
module SB_IO (inout PACKAGE_PIN, input OUTPUT_ENABLE, input D_OUT_0, output D_IN_0);
    parameter [5:0] PIN_TYPE = 6'b000000;
    parameter [0:0] PULLUP = 1'b0;
    assign D_IN_0 = OUTPUT_ENABLE ? D_OUT_0 : PACKAGE_PIN;
endmodule
";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run `verilator --lint-only -Wall` with `args` in `dir`; return the warning and error lines
/// located in one of `ours` (file names relative to `dir`, or absolute paths).
fn lint(dir: &Path, args: &[String], ours: &[String]) -> Vec<String> {
    let out = Command::new("verilator")
        .current_dir(dir)
        .args(["--lint-only", "-Wall"])
        .args(args)
        .output()
        .expect("verilator runs (it is one of the external tools)");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let messages: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("%Warning") || l.starts_with("%Error"))
        .filter(|l| !l.starts_with("%Error: Exiting due to"))
        .collect();
    // Verilator also fails on what it says about the models (a clean top included): a failure
    // counts only when it printed a message somewhere.
    assert!(
        out.status.success() || !messages.is_empty(),
        "verilator failed without a message:\n{text}"
    );
    let found: Vec<String> = messages
        .into_iter()
        .filter(|l| {
            // `%Warning-X: <file>:<line>:<col>: ...`; a message without a location counts.
            l.split_once(": ").is_none_or(|(_, rest)| {
                let file = rest.split(':').next().unwrap_or("");
                !file.ends_with(".v") || ours.iter().any(|o| file == o)
            })
        })
        .map(str::to_owned)
        .collect();
    found
}

fn committed(folder: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "v"))
        .collect();
    files.sort();
    files
}

#[test]
fn hdl_files_lint_clean() {
    let files = committed("hdl");
    assert!(files.len() >= 4, "{files:?}");
    for file in files {
        let path = file.to_str().unwrap().to_owned();
        let found = lint(
            &root(),
            std::slice::from_ref(&path),
            std::slice::from_ref(&path),
        );
        assert!(found.is_empty(), "{path}:\n{}", found.join("\n"));
    }
}

#[test]
fn sim_files_lint_clean() {
    // sim/<m>_tb.v with sim/<m>_reference.v and hdl/<m>.v, the way `emit --sim` users run it.
    let tbs: Vec<PathBuf> = committed("sim")
        .into_iter()
        .filter(|p| p.to_str().unwrap().ends_with("_tb.v"))
        .collect();
    assert!(!tbs.is_empty());
    for tb in tbs {
        let module = tb.file_name().unwrap().to_str().unwrap();
        let module = module.strip_suffix("_tb.v").unwrap();
        let mut files = vec![tb.clone(), root().join("hdl").join(format!("{module}.v"))];
        let reference = root().join("sim").join(format!("{module}_reference.v"));
        if reference.is_file() {
            files.push(reference);
        }
        let files: Vec<String> = files
            .iter()
            .map(|f| f.to_str().unwrap().to_owned())
            .collect();
        let mut args = vec![
            "--timing".to_owned(),
            "--top-module".to_owned(),
            format!("{module}_tb"),
        ];
        args.extend(files.iter().cloned());
        let found = lint(&root(), &args, &files);
        assert!(found.is_empty(), "{}:\n{}", tb.display(), found.join("\n"));
    }
}

/// Every design of the registry, by its `--design` name.
fn design(name: &str) -> Design {
    Design::named(name)
        .unwrap_or_else(|| panic!("design `{name}` of BOARD_DESIGNS: add it to Design::every"))
}

#[test]
fn board_tops_lint_clean() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("primitives.v"), PRIMITIVES).unwrap();
    std::fs::write(dir.path().join("pll.v"), retrogate::flow::equiv::PLL_MODEL).unwrap();
    let mut problems = Vec::new();
    let mut linted = 0;
    for entry in BOARD_DESIGNS {
        let design = design(entry.name);
        for board in BoardId::ALL {
            if (entry.pin_uses)(board.board()).is_none() {
                continue;
            }
            let top = top_verilog(board, &design, &Timing::for_design(board.board(), &design))
                .unwrap_or_else(|e| panic!("{board} {}: {e}", entry.name));
            let file = format!("{}.v", top.module);
            std::fs::write(dir.path().join(&file), &top.verilog).unwrap();
            let args = vec![
                "--top-module".to_owned(),
                top.module.clone(),
                file.clone(),
                "primitives.v".to_owned(),
                "pll.v".to_owned(),
            ];
            linted += 1;
            problems.extend(lint(dir.path(), &args, std::slice::from_ref(&file)));
        }
    }
    assert!(linted >= BoardId::ALL.len() * 2, "only {linted} tops");
    assert!(
        problems.is_empty(),
        "{} warnings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `retrogate verify <design> --level icarus` writes its testbenches and designs into the work
/// folder; each testbench lints clean with the files next to it.
#[test]
fn verify_testbenches_lint_clean() {
    let work = tempfile::tempdir().unwrap();
    for design in ["jr01", "sticks", "solver"] {
        let out = Command::new(env!("CARGO_BIN_EXE_retrogate"))
            .current_dir(work.path())
            .args([
                "verify", "-q", "--level", "icarus", "--work", design, design,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "verify {design}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut tbs = Vec::new();
    let mut stack = vec![work.path().to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_str().unwrap().ends_with("_tb.v") {
                tbs.push(path);
            }
        }
    }
    tbs.sort();
    assert!(tbs.len() >= 4, "testbenches: {tbs:?}");
    let mut problems = Vec::new();
    for tb in &tbs {
        let dir = tb.parent().unwrap();
        let name = tb.file_name().unwrap().to_str().unwrap().to_owned();
        let ours: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_str().unwrap().to_owned())
            .filter(|n| n.ends_with(".v"))
            .collect();
        let args = vec![
            "--timing".to_owned(),
            "--timescale".to_owned(),
            "1ns/1ps".to_owned(),
            "-I.".to_owned(),
            "--top-module".to_owned(),
            name.trim_end_matches(".v").to_owned(),
            name.clone(),
        ];
        for line in lint(dir, &args, &ours) {
            problems.push(format!("{}: {line}", tb.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} warnings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `retrogate emit heaps-solver --sim` at the smallest, the default, the largest and an odd size:
/// the solver and its testbench lint clean.
#[test]
fn emitted_heaps_solvers_lint_clean() {
    let mut problems = Vec::new();
    for (t, a, m) in [
        ("3", "1", "1"),
        ("63", "2", "3"),
        ("127", "4", "3"),
        ("100", "3", "2"),
    ] {
        let work = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_retrogate"))
            .current_dir(work.path())
            .args([
                "emit",
                "heaps-solver",
                "--max-target",
                t,
                "--max-add",
                a,
                "--max-mul",
                m,
                "--out",
                "hdl",
                "--sim",
                "sim",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "emit heaps-solver {t} {a} {m}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let design = "hdl/heaps_solver.v".to_owned();
        problems.extend(lint(
            work.path(),
            std::slice::from_ref(&design),
            std::slice::from_ref(&design),
        ));
        let tb = "sim/heaps_solver_tb.v".to_owned();
        let args = vec![
            "--timing".to_owned(),
            "--timescale".to_owned(),
            "1ns/1ps".to_owned(),
            "--top-module".to_owned(),
            "heaps_solver_tb".to_owned(),
            tb.clone(),
            design.clone(),
        ];
        problems.extend(lint(work.path(), &args, &[tb, design]));
    }
    assert!(
        problems.is_empty(),
        "{} warnings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The heap-game controller (`heaps_game`, with its solver and think timer as submodules) at
/// the smallest, the default, the largest and an odd size, with several think pauses: lint
/// clean, its only waivers the documented ones.
#[test]
fn heaps_game_controllers_lint_clean() {
    let mut problems = Vec::new();
    for (t, a, m, think) in [
        (3, 1, 1, 0),
        (63, 2, 3, 500),
        (127, 4, 3, 1),
        (100, 3, 2, 3),
    ] {
        let work = tempfile::tempdir().unwrap();
        let verilog = retrogate::circuit::heaps_game::heaps_game_verilog(t, a, m, think)
            .unwrap_or_else(|e| panic!("heaps_game {t} {a} {m}: {e}"));
        let design = "heaps_game.v".to_owned();
        std::fs::write(work.path().join(&design), verilog).unwrap();
        problems.extend(lint(
            work.path(),
            std::slice::from_ref(&design),
            std::slice::from_ref(&design),
        ));
    }
    assert!(
        problems.is_empty(),
        "{} warnings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
