//! `retrogate verify` as users run it: one JSON document for every target whose `ran` counts
//! its `levels`, a level that does not apply refused, a missing tool failing only its own
//! level, and a counterexample drawn for every engine that fails.

use std::path::Path;
use std::process::Output;

use super::retrogate;
use super::workflow::assert_documented;

fn run_in(dir: &Path, args: &[&str]) -> Output {
    retrogate()
        .current_dir(dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The document parses, matches docs/json.md, and counts exactly the checks it lists.
fn document(out: &Output) -> serde_json::Value {
    let stdout = text(&out.stdout);
    let json = assert_documented(&stdout, "verify");
    let levels = json["levels"].as_array().expect("levels").len();
    assert_eq!(json["ran"], levels, "{stdout}");
    let passed = json["levels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["passed"] == true)
        .count();
    assert_eq!(json["passed"], passed, "{stdout}");
    json
}

/// jr01, sticks and the solver at the level that needs no external tool: each prints one
/// document, and every check it ran is listed (sticks: both lookups and the controller).
#[test]
fn every_own_target_lists_every_check_it_counts() {
    for (args, design, checks) in [
        (&["verify", "jr01"][..], "jr01", 1),
        (
            &["verify", "sticks", "--count", "6", "--think-cycles", "1"][..],
            "sticks",
            3,
        ),
        (&["verify", "solver"][..], "solver", 2),
        (
            &["verify", "heaps-solver", "--max-target", "20"][..],
            "heaps-solver",
            2,
        ),
    ] {
        let here = tempfile::tempdir().unwrap();
        let mut args = args.to_vec();
        args.extend(["--level", "rust-hdl", "--format", "json"]);
        let out = run_in(here.path(), &args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let json = document(&out);
        assert_eq!(json["design"], design);
        assert_eq!(json["ran"], checks, "{args:?}");
        assert_eq!(json["verdict"], "pass");
        for level in json["levels"].as_array().unwrap() {
            assert_eq!(level["level"], 1, "{level}");
        }
    }
}

/// A level that is not among a design's is refused before anything is written.
#[test]
fn a_level_the_design_does_not_have_is_refused() {
    let here = tempfile::tempdir().unwrap();
    for args in [
        &["verify", "jr01", "--level", "properties"][..],
        &["verify", "solver", "--level", "properties"][..],
        &["verify", "heaps-solver", "--level", "bitstream"][..],
        &["verify", "jr01", "--mutants", "2", "--level", "equivalence"][..],
        &["verify", "jr01", "--mutants", "2", "--level", "properties"][..],
    ] {
        let out = run_in(here.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("--level"), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_dir(here.path()).unwrap().count(),
            0,
            "{args:?}"
        );
    }
}

/// `verify heaps-solver` refuses a size out of range, a `--dut` and `--mutants`, naming the
/// flag, before anything is written.
#[test]
fn verify_heaps_solver_refuses_bad_flags() {
    let here = tempfile::tempdir().unwrap();
    for (args, flag) in [
        (
            &["verify", "heaps-solver", "--max-target", "200"][..],
            "--max-target 200",
        ),
        (
            &["verify", "heaps-solver", "--max-mul", "4"][..],
            "--max-mul 4",
        ),
        (&["verify", "heaps-solver", "--dut", "x.v"][..], "--dut"),
        (
            &["verify", "heaps-solver", "--mutants", "2"][..],
            "--mutants",
        ),
    ] {
        let out = run_in(here.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_dir(here.path()).unwrap().count(),
            0,
            "{args:?}"
        );
    }
}

#[cfg(feature = "external-tools")]
mod with_tools {
    use super::*;

    /// A proof comes from the tool cache when its script and every file it reads are unchanged:
    /// `verify solver --level formal` run again in another folder with the same cache restores
    /// the model and both ABC verdicts (base case and inductive step) instead of running yosys
    /// and ABC, and reports the same verdict. The netlist proof of another size (other files)
    /// runs its tools again; of the same size, from the cache.
    /// `line` with every time it reports (`(7.19s)`, `4276 ms`) left out.
    fn without_times(line: &str) -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let seconds = |w: &str| {
            let n = w.trim_start_matches('(').trim_end_matches(['s', ')', ',']);
            w.trim_end_matches([')', ',']).ends_with('s')
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit() || c == '.')
        };
        let mut kept = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let before_ms = words
                .get(i + 1)
                .is_some_and(|n| n.trim_end_matches(',') == "ms");
            let is_ms = i > 0 && w.trim_end_matches(',') == "ms";
            if !(seconds(w) || before_ms || is_ms) {
                kept.push(*w);
            }
        }
        kept.join(" ")
    }

    #[test]
    fn proofs_come_from_the_tool_cache_when_their_inputs_are_unchanged() {
        let cache = tempfile::tempdir().unwrap();
        let run = |args: &[&str]| {
            let here = tempfile::tempdir().unwrap();
            let out = crate::retrogate_uncached()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .env("RETROGATE_TOOL_CACHE", cache.path())
                .current_dir(here.path())
                .arg("-v")
                .args(args)
                .output()
                .unwrap();
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            assert!(out.status.success(), "{args:?}\n{stdout}{stderr}");
            // The verdict without its times ("(7.19s)", ", 4276 ms").
            let verdict: Vec<String> = stdout.lines().map(without_times).collect();
            (verdict, stderr)
        };
        let formal = ["verify", "solver", "--level", "formal"];
        let (first, log) = run(&formal);
        for step in [
            "yosys -q -s sticks_solver_formal.ys",
            "yosys-abc -f sticks_solver_formal_base.abc",
            "yosys-abc -f sticks_solver_formal_ind.abc",
        ] {
            assert!(log.contains(step), "{step} did not run:\n{log}");
        }
        assert!(!log.contains("# from the tool cache"), "{log}");
        let (again, log) = run(&formal);
        assert_eq!(again, first);
        assert!(
            first.iter().any(|l| l.starts_with("PASS formal")),
            "{first:?}"
        );
        assert!(
            !log.contains("yosys -q -s") && !log.contains("yosys-abc -f"),
            "{log}"
        );
        assert_eq!(log.matches("# from the tool cache").count(), 3, "{log}");

        let netlist = |take: &'static str| {
            [
                "verify",
                "solver",
                "--level",
                "equivalence",
                "--max-count",
                "7",
                "--max-take",
                take,
            ]
        };
        let (first, log) = run(&netlist("2"));
        assert!(log.contains("yosys -s equiv_base.ys"), "{log}");
        let (other, log) = run(&netlist("3"));
        assert!(
            log.contains("yosys -s equiv_base.ys"),
            "another size ran again:\n{log}"
        );
        assert!(other.iter().any(|l| l.contains("PASS")), "{other:?}");
        let (again, log) = run(&netlist("2"));
        assert_eq!(again, first);
        assert!(!log.contains("yosys -s equiv"), "{log}");
    }

    /// The documented `retrogate verify heaps-solver --max-target 20` (its help and
    /// docs/heaps_solver.md; run here as pasted, not again by tests/cli/examples.rs) runs levels
    /// 1 to 4 on both configurations, level 5 (the bounded model check at T = 7, said to be
    /// bounded), level 6 (the properties of the heap-game board designs' two controllers, proved)
    /// and level 7 once at the requested size (its netlist proved equal to its RTL), and
    /// passes. The JSON of a run of levels 1 and 2 lists what it counts, with each level's
    /// number and target.
    #[test]
    fn verify_heaps_solver_runs_every_level_and_proves_its_netlist() {
        use crate::examples::run_as_pasted;
        let pasted = run_as_pasted("retrogate verify heaps-solver --max-target 20");
        let stdout = text(&pasted.output.stdout);
        assert!(
            pasted.failure.is_none(),
            "{:?}\n{stdout}{}",
            pasted.failure,
            text(&pasted.output.stderr)
        );
        assert!(
            stdout.ends_with("verify heaps-solver: 12 of 12 levels pass\n"),
            "{stdout}"
        );
        let passes = |prefix: &str| stdout.lines().filter(|l| l.starts_with(prefix)).count();
        for engine in [
            "PASS rust-hdl simulation [",
            "PASS Icarus (emitted Verilog) [",
            "PASS Verilator (emitted Verilog) [",
            "PASS gate level (synth_ice40 netlist) [",
        ] {
            assert_eq!(passes(engine), 2, "{engine}: {stdout}");
        }
        assert!(
            stdout.contains("verify heaps_solver (T = 20, A = 2, M = 3, size) against"),
            "{stdout}"
        );
        let formal = stdout
            .lines()
            .find(|l| l.starts_with("PASS formal (bounded model check): T = 7, A = 2, M = 3: "))
            .unwrap_or_else(|| panic!("no level 5: {stdout}"));
        assert!(
            formal.contains("BOUNDED: bounded model check to depth 159"),
            "{formal}"
        );
        // Level 6 on the Alchitry Cu's controller and the Go Board's compact one.
        let properties: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("PASS heaps_game properties (ABC pdr): "))
            .collect();
        assert_eq!(properties.len(), 2, "{stdout}");
        // Each with the engine that proves it fastest (see abc::PdrEngine).
        for (line, (sizes, engine)) in properties.iter().zip([
            (
                "(T = 63, A = 2, M = 3, think 500 ticks) against",
                "proved for every input sequence (ABC pdr -p, proof obligations reused, \
                 yosys-abc)",
            ),
            (
                "(T = 63, A = 1, M = 3, think 32 ticks, compact: the rules held during a game) \
                 against",
                "proved for every input sequence (ABC &scorr, then pdr, yosys-abc)",
            ),
        ]) {
            assert!(line.contains(sizes) && line.contains(engine), "{line}");
        }
        assert!(
            stdout.contains(
                "verify heaps_solver (T = 20, A = 2, M = 3): its synth_ice40 netlist against \
                 its RTL\n"
            ) && stdout.contains("proved the synth_ice40 netlist of heaps_solver"),
            "{stdout}"
        );

        let here = tempfile::tempdir().unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "heaps-solver",
                "--max-target",
                "20",
                "--level",
                "rust-hdl,icarus",
                "--format",
                "json",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json = document(&out);
        assert_eq!(json["design"], "heaps-solver");
        assert_eq!(json["verdict"], "pass");
        let levels: Vec<(u64, String)> = json["levels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                assert_eq!(l["passed"], true, "{l}");
                (
                    l["level"].as_u64().unwrap(),
                    l["target"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(
            levels,
            [
                (1, "heaps_solver (small)".to_owned()),
                (2, "heaps_solver (small)".to_owned()),
                (1, "heaps_solver (size)".to_owned()),
                (2, "heaps_solver (size)".to_owned()),
            ]
        );
    }

    /// The done-when commands of the architecture issue: the student's file and mutants, each
    /// one document; the JSON of `--dut` names the file, of `--mutants` every mutant's fate.
    #[test]
    fn dut_and_mutants_print_one_document_each() {
        let here = tempfile::tempdir().unwrap();
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/jr01_student.v");
        std::fs::copy(&example, here.path().join("jr01_student.v")).unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "jr01",
                "--dut",
                "jr01_student.v",
                "--format",
                "json",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json = document(&out);
        assert_eq!(json["ran"], 5);
        assert_eq!(json["dut"]["top"], "jr01_student");
        assert_eq!(json["dut"]["contract"], "jr01_strategy");

        let out = run_in(
            here.path(),
            &[
                "verify",
                "jr01",
                "--mutants",
                "3",
                "--seed",
                "1",
                "--level",
                "icarus,formal",
                "--format",
                "json",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json = document(&out);
        let mutants = json["mutants"].as_array().unwrap();
        assert_eq!(mutants.len(), 3);
        for m in mutants {
            assert!(
                ["killed", "equivalent"].contains(&m["fate"].as_str().unwrap()),
                "{m}"
            );
        }
        assert_eq!(json["score"]["survived"], 0);
        assert_eq!(json["verdict"], "pass");
    }

    /// Every kind of check of `verify sticks` (the lookups' levels, the controller's engines,
    /// its netlist equivalence and its properties) is listed, and counted once.
    #[test]
    fn verify_sticks_lists_the_controller_proofs_it_counts() {
        let here = tempfile::tempdir().unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "sticks",
                "--count",
                "6",
                "--think-cycles",
                "1",
                "--level",
                "rust-hdl,icarus,properties,equivalence",
                "--format",
                "json",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json = document(&out);
        // rom and logic at 1, 2, 7; the controller at 1, 2 (engines), 7 and 6.
        assert_eq!(json["ran"], 10);
        let controller: Vec<u64> = json["levels"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["target"] == "sticks_game")
            .map(|l| l["level"].as_u64().unwrap())
            .collect();
        assert_eq!(controller, [1, 2, 7, 6]);
        assert_eq!(json["covers"].as_array().unwrap().len(), 4);
    }

    /// A `--dut` lookup asked for the properties level alone (which only a controller has) is
    /// refused with exit 2, where it used to report "0 of 0 levels pass" and exit 0.
    #[test]
    fn the_properties_of_a_lookup_are_refused() {
        let here = tempfile::tempdir().unwrap();
        std::fs::write(
            here.path().join("lookup.v"),
            "module lookup (input wire [4:0] sticks, output wire [1:0] take, output wire winning);\n\
             assign take = 2'd1; assign winning = 1'b0;\nendmodule\n",
        )
        .unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "sticks",
                "--dut",
                "lookup.v",
                "--level",
                "properties",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains("no controller properties"),
            "{}",
            text(&out.stderr)
        );
        assert!(!here.path().join("build").exists());
    }

    /// A folder of links to every program on PATH but Verilator's.
    fn path_without_verilator(dir: &Path) -> std::ffi::OsString {
        std::fs::create_dir_all(dir).unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        for folder in std::env::split_paths(&path) {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let link = dir.join(&name);
                if name.to_string_lossy().starts_with("verilator") || link.exists() {
                    continue;
                }
                let _ = std::os::unix::fs::symlink(entry.path(), link);
            }
        }
        dir.as_os_str().to_owned()
    }

    /// With Verilator missing, its level fails naming the package; the levels before and after
    /// still run, the verdict line and the JSON document still come.
    #[test]
    fn a_missing_tool_fails_its_level_and_the_rest_still_run() {
        let here = tempfile::tempdir().unwrap();
        let bin = here.path().join("bin");
        let path = path_without_verilator(&bin);
        let args = ["verify", "jr01", "--level", "icarus,verilator,formal"];
        let out = retrogate()
            .current_dir(here.path())
            .env("PATH", &path)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(
            lines[1].starts_with("level 2 (Verilog under Icarus): PASS"),
            "{stdout}"
        );
        assert!(
            lines[2].starts_with("level 3 (Verilog under Verilator): FAIL")
                && lines[2].contains("apt-get install verilator"),
            "{stdout}"
        );
        assert!(
            lines[3].starts_with("level 5 (formal equivalence (yosys sat)): PASS"),
            "{stdout}"
        );
        assert_eq!(lines[4], "verify jr01: 2 of 3 levels pass");
        let out = retrogate()
            .current_dir(here.path())
            .env("PATH", &path)
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let json = document(&out);
        assert_eq!(json["verdict"], "fail");
        assert_eq!(json["levels"][1]["passed"], false);
        assert!(
            json["levels"][1]["detail"]
                .as_str()
                .unwrap()
                .contains("verilator"),
            "{json}"
        );
    }

    /// A controller that plays a legal but wrong move at 11 sticks fails under every engine,
    /// each with its counterexample drawn (Verilator's VCD puts the testbench under `TOP`),
    /// and the verdict comes.
    #[test]
    fn a_wrong_move_is_drawn_for_every_engine() {
        let here = tempfile::tempdir().unwrap();
        let out = run_in(
            here.path(),
            &[
                "emit",
                "sticks",
                "--impl",
                "rom",
                "--think-cycles",
                "2",
                "--out",
                "hdl",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let path = here.path().join("hdl/sticks_game.v");
        let verilog = std::fs::read_to_string(&path).unwrap();
        // Fort Boyard: from 11 the solver takes 2 (to 9, a loss for the human); take 1 instead.
        let row = verilog
            .lines()
            .find(|l| l.contains("5'd11:"))
            .unwrap_or_else(|| panic!("no row for 11 in {verilog}"))
            .to_owned();
        let wrong = row.replace("3'd5", "3'd3");
        assert_ne!(row, wrong, "row 11 is `{row}`");
        std::fs::write(&path, verilog.replace(&row, &wrong)).unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "sticks",
                "--dut",
                "hdl/sticks_game.v",
                "--level",
                "icarus,verilator,gate-level",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        for engine in ["icarus", "verilator", "gate-level"] {
            assert!(stdout.contains(&format!("\n{engine}: FAIL")), "{stdout}");
        }
        assert_eq!(stdout.matches("  counterexample: ").count(), 3, "{stdout}");
        assert!(!stdout.contains("not drawn"), "{stdout}");
        assert!(
            stdout.ends_with("verify sticks: 0 of 3 levels pass\n"),
            "{stdout}"
        );
    }
}
