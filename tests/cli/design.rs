use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

#[test]
fn jr01_table_reproduces_the_seed() {
    assert_cmd_snapshot!(retrogate().args(["table", "jr01"]));
}

#[test]
fn jr01_table_json() {
    assert_cmd_snapshot!(retrogate().args(["table", "jr01", "--format", "json"]));
}

#[test]
fn jr01_minimize_with_plug_program() {
    assert_cmd_snapshot!(retrogate().args(["minimize", "jr01"]));
}

#[test]
fn emit_without_out_is_refused_and_writes_nothing() {
    assert_cmd_snapshot!(retrogate().args(["emit", "jr01"]));
}

#[test]
fn emit_writes_the_committed_verilog() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .args(["emit", "jr01", "--out"])
        .arg(dir.path().join("hdl"))
        .arg("--sim")
        .arg(dir.path().join("sim"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in [
        "hdl/jr01_strategy.v",
        "sim/jr01_strategy_tb.v",
        "sim/jr01_strategy.vec",
    ] {
        let fresh = std::fs::read_to_string(dir.path().join(f)).unwrap();
        let committed = std::fs::read_to_string(root.join(f)).unwrap();
        assert_eq!(fresh, committed, "{f}");
    }
    // Nothing else (no temporary files) is left behind; the manifest lists what was written.
    let mut names: Vec<_> = std::fs::read_dir(dir.path().join("hdl"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, vec![".retrogate-manifest", "jr01_strategy.v"]);
    let manifest = std::fs::read_to_string(dir.path().join("hdl/.retrogate-manifest")).unwrap();
    let listed: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(listed, vec!["jr01_strategy.v"]);
}

#[cfg(feature = "external-tools")]
#[test]
fn verify_names_the_debian_package_of_a_missing_tool() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .env("PATH", "/nonexistent")
        .args(["verify", "jr01", "--work"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Each level that needs a tool fails, naming the package; the others still run, and the
    // verdict comes.
    assert!(
        stdout.contains("level 2 (Verilog under Icarus): FAIL")
            && stdout.contains("apt-get install iverilog"),
        "{stdout}"
    );
    assert!(
        stdout.contains("level 1 (rust-hdl simulation): PASS"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verify jr01: 1 of 6 levels pass"),
        "{stdout}"
    );
    assert!(
        stderr.contains("verification failed at: level 2"),
        "{stderr}"
    );
}

#[test]
fn sticks_table_matches_the_solver() {
    assert_cmd_snapshot!(retrogate().args(["table", "sticks"]));
}

#[test]
fn sticks_emit_with_forced_impl_needs_no_tools_and_writes_the_committed_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .args(["emit", "sticks", "--impl", "logic", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in ["sticks_strategy.v", "sticks_game.v"] {
        let fresh = std::fs::read_to_string(dir.path().join(f)).unwrap();
        let committed = std::fs::read_to_string(root.join("hdl").join(f)).unwrap();
        assert_eq!(fresh, committed, "{f}");
    }
}

#[test]
fn a_stick_game_too_large_for_a_circuit_is_refused() {
    assert_cmd_snapshot!(retrogate().args([
        "emit",
        "sticks",
        "--count",
        "300",
        "--out",
        "/nonexistent/never"
    ]));
}

#[cfg(feature = "external-tools")]
#[test]
fn emit_sticks_picks_the_smaller_lookup_and_reports_both() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .args(["emit", "sticks", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("lookup: rom 4 SB_LUT4, logic 4 SB_LUT4 after synth_ice40: logic chosen"),
        "{stdout}"
    );
}

// `verify jr01` and `verify sticks` with every level: tests/cli/paths.rs, from a fresh folder.

#[test]
fn emit_solver_writes_the_module_with_the_contract_ports() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "solver",
            "--max-count",
            "255",
            "--max-take",
            "8",
            "--out",
            "hdl",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v = std::fs::read_to_string(dir.path().join("hdl/sticks_solver.v")).unwrap();
    for decl in [
        "input wire  clock;",
        "input wire  reset;",
        "input wire  [7:0] take_set;",
        "input wire  [7:0] count;",
        "input wire  last_wins;",
        "input wire  start;",
        "output reg  busy;",
        "output reg  done;",
        "input wire  [7:0] query;",
        "output reg  query_winning;",
        "output reg  [7:0] query_depth;",
        "output reg  [3:0] query_take;",
    ] {
        assert!(v.contains(decl), "{decl} missing");
    }
}

/// `emit solver` picks the table storage per size and says which: registers up to C = 3, one
/// block RAM from C = 4 (README, "Registers or block RAM").
#[test]
fn emit_solver_names_and_marks_the_table_storage() {
    for (count, says, style) in [
        ("3", "table in registers", "(* ram_style = \"logic\" *)"),
        (
            "4",
            "table in one SB_RAM40_4K",
            "(* ram_style = \"block\" *)",
        ),
        (
            "255",
            "table in one SB_RAM40_4K",
            "(* ram_style = \"block\" *)",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = retrogate()
            .current_dir(dir.path())
            .args([
                "emit",
                "solver",
                "--max-count",
                count,
                "--max-take",
                "3",
                "--out",
                "hdl",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(says), "C = {count}: {stdout}");
        let v = std::fs::read_to_string(dir.path().join("hdl/sticks_solver.v")).unwrap();
        assert!(v.contains(style), "C = {count}: {style} missing");
    }
}

#[test]
fn emit_solver_refuses_bad_sizes_naming_the_flag_and_writes_nothing() {
    for (flag, value) in [
        ("--max-count", "0"),
        ("--max-count", "256"),
        ("--max-take", "0"),
        ("--max-take", "9"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = retrogate()
            .current_dir(dir.path())
            .args([
                "emit", "solver", flag, value, "--out", "hdl", "--sim", "sim",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("{flag} {value}")), "{stderr}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

// `verify solver` with every level runs as the help example `retrogate verify solver` in
// tests/cli/examples.rs (exit 0 only when every level passes within the cycle bound).
