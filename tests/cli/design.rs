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

/// `emit heaps-game` with its defaults (T = 63, A = 2, M = 3, 6,000,000 think ticks) writes
/// `heaps_game.v` byte for byte as committed in hdl/, says what it wrote, and follows
/// `--think-cycles`; `--constraints` writes the committed PCFs of the `heaps` board design, on
/// the two boards it runs on; `--sim` (which it has none of yet) is refused naming the flag, with
/// nothing written.
#[test]
fn emit_heaps_game_writes_the_committed_controller() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["emit", "heaps-game", "--out", "hdl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("heaps_game: the heap game against heaps_solver (targets up to 63, moves x+1..x+2 and x*2..x*4), thinking 6000000 ticks of `tick`")
            && stdout.contains("hdl/heaps_game.v"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(dir.path().join("hdl/heaps_game.v")).unwrap();
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/hdl/heaps_game.v")).unwrap();
    assert!(
        written == committed,
        "emit heaps-game differs from hdl/heaps_game.v"
    );
    assert!(
        written.contains("module heaps_game(clock,tick,reset,"),
        "{written}"
    );
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "heaps-game",
            "--think-cycles",
            "7",
            "--out",
            "short",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let short = std::fs::read_to_string(dir.path().join("short/heaps_game.v")).unwrap();
    assert_ne!(short, written, "--think-cycles changed nothing");
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "heaps-game",
            "--out",
            "hdl2",
            "--constraints",
            "pcf",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut pcfs: Vec<String> = std::fs::read_dir(dir.path().join("pcf"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pcf"))
        .collect();
    pcfs.sort();
    assert_eq!(
        pcfs,
        [
            "alchitry-cu-heaps.pcf",
            "alchitry-cu-v2-heaps.pcf",
            "go-board-heaps.pcf"
        ]
    );
    for name in &pcfs {
        let written = std::fs::read_to_string(dir.path().join("pcf").join(name)).unwrap();
        let committed = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("constraints")
                .join(name),
        )
        .unwrap();
        assert!(written == committed, "{name} differs from constraints/");
    }
    let out = retrogate()
        .current_dir(dir.path())
        .args(["emit", "heaps-game", "--out", "again", "--sim", "sim"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "--sim: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--sim: heaps-game has no"), "{stderr}");
    assert!(!dir.path().join("again").exists() && !dir.path().join("sim").exists());
}

/// `emit heaps-solver` with its defaults (T = 63, A = 2, M = 3) writes `heaps_solver.v` with the
/// issue's ports at those widths, and says what it wrote.
#[test]
fn emit_heaps_solver_writes_the_module_with_the_contract_ports() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["emit", "heaps-solver", "--out", "hdl"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("heaps_solver: targets up to 63, moves x+1..x+2 and x*2..x*4")
            && stdout.contains("table of 2048 words in block RAM")
            && stdout.contains("hdl/heaps_solver.v"),
        "{stdout}"
    );
    let v = std::fs::read_to_string(dir.path().join("hdl/heaps_solver.v")).unwrap();
    for decl in [
        "input wire  clock;",
        "input wire  reset;",
        "input wire  [1:0] adds;",
        "input wire  [2:0] muls;",
        "input wire  [5:0] target;",
        "input wire  last_wins;",
        "input wire  start;",
        "output reg  busy;",
        "output reg  done;",
        "input wire  [5:0] query_a;",
        "input wire  [5:0] query_b;",
        "output reg  query_winning;",
        "output reg  [6:0] query_depth;",
        "output reg  query_heap;",
        "output reg  [2:0] query_move;",
    ] {
        assert!(v.contains(decl), "{decl} missing");
    }
    // The widths follow the flags: T = 127 needs 7 bits, A + M - 1 = 1 needs 1 (a plain wire).
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "heaps-solver",
            "--max-target",
            "127",
            "--max-add",
            "1",
            "--max-mul",
            "1",
            "--out",
            "wide",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v = std::fs::read_to_string(dir.path().join("wide/heaps_solver.v")).unwrap();
    for decl in [
        "input wire  adds;",
        "input wire  muls;",
        "input wire  [6:0] target;",
        "output reg  [7:0] query_depth;",
        "output reg  query_move;",
    ] {
        assert!(v.contains(decl), "{decl} missing");
    }
}

#[test]
fn emit_heaps_solver_refuses_bad_sizes_naming_the_flag_and_writes_nothing() {
    for (flag, value) in [
        ("--max-target", "2"),
        ("--max-target", "128"),
        ("--max-add", "0"),
        ("--max-add", "5"),
        ("--max-mul", "0"),
        ("--max-mul", "4"),
        ("--max-mul", "-1"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = retrogate()
            .current_dir(dir.path())
            .args([
                "emit",
                "heaps-solver",
                flag,
                value,
                "--out",
                "hdl",
                "--sim",
                "sim",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(flag) && stderr.contains(value),
            "{flag} {value}: {stderr}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
    // No board design yet: --constraints is refused, saying so, before anything is written.
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "heaps-solver",
            "--out",
            "hdl",
            "--constraints",
            "pcf",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--constraints") && stderr.contains("no board design"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The testbench `emit heaps-solver --sim` writes passes under Icarus, run as a user would from
/// the sim folder, and it checks the cycle bound and every position of every solve.
#[cfg(feature = "external-tools")]
#[test]
fn emit_heaps_solver_sim_testbench_passes_under_icarus() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "emit",
            "heaps-solver",
            "--max-target",
            "20",
            "--max-add",
            "3",
            "--max-mul",
            "2",
            "--out",
            "hdl",
            "--sim",
            "sim",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let sim = dir.path().join("sim");
    let status = std::process::Command::new("iverilog")
        .current_dir(&sim)
        .args([
            "-g2012",
            "-o",
            "tb",
            "heaps_solver_tb.v",
            "../hdl/heaps_solver.v",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let run = std::process::Command::new("vvp")
        .current_dir(&sim)
        .args(["-n", "tb"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    // Every subset with all moves, none, or x+1 alone, both rules, then 8 random solves.
    let pass = stdout
        .lines()
        .find_map(|l| l.strip_prefix("PASS "))
        .expect("a PASS line");
    let solves: usize = pass.split(' ').next().unwrap().parse().unwrap();
    assert!(solves >= 14, "{stdout}");
    assert_eq!(stdout.matches("CYCLES ").count(), solves);
}
