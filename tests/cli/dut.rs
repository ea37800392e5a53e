//! `verify --dut`: a user's own Verilog against the solver, from a temporary current folder
//! with relative paths; the port contract refused before anything is written; counterexample
//! waveforms for a broken file; `--mutants` (a handful, for the CI's time). Every test runs
//! external tools (the module is behind the `external-tools` feature).

use std::path::{Path, PathBuf};

fn sh_in(dir: &Path, command: &str) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_retrogate")).parent().unwrap();
    std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .env_clear()
        .envs(crate::tool_cache())
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder with the README's example file at `examples/jr01_student.v`.
fn with_example() -> (tempfile::TempDir, PathBuf) {
    with_example_file("jr01_student.v")
}

/// A fresh folder with the committed example `name` at `examples/<name>`.
fn with_example_file(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let examples = dir.path().join("examples");
    std::fs::create_dir(&examples).unwrap();
    let file = examples.join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
        &file,
    )
    .unwrap();
    (dir, file)
}

/// The README's command on the committed example passes every Verilog level; a broken copy
/// (x loses its `a |`) fails with exit 1, the first differing output and input, and a
/// counterexample VCD and SVG at the printed paths.
#[test]
fn the_students_jr01_passes_and_a_broken_copy_fails_with_a_waveform() {
    let (dir, file) = with_example();
    let out = sh_in(
        dir.path(),
        "retrogate verify jr01 --dut examples/jr01_student.v",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.starts_with(
            "verify jr01 --dut examples/jr01_student.v: module jr01_student against the \
             solver's table (8 cared-for inputs): levels 2, 3, 4, 5, 7\n\
             level 1 (rust-hdl simulation): skipped: not rust-hdl\n"
        ),
        "{stdout}"
    );
    for level in 2..=5 {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("level {level} ")) && l.contains(": PASS (8")),
            "level {level}: {stdout}"
        );
    }
    assert!(
        stdout.ends_with("verify jr01: 5 of 5 levels pass\n"),
        "{stdout}"
    );

    // x = a | (b & c) becomes x = b & c: wrong from input 100 on (expected x=1).
    let good = std::fs::read_to_string(&file).unwrap();
    let broken = good.replace("assign x = a | (b & c);", "assign x = b & c;");
    assert_ne!(broken, good);
    std::fs::write(dir.path().join("broken.v"), broken).unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate verify jr01 --dut broken.v --work w --level icarus,formal", // the README shows `--level icarus`
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    let firsts: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  first difference: "))
        .collect();
    // Only the simulation level draws a counterexample; the proof's line has its input.
    assert_eq!(firsts.len(), 1, "{stdout}");
    for line in &firsts {
        assert_eq!(
            *line,
            "  first difference: output x at input a b c = 100 (vector 5 of 8): expected 1, \
             actual 0"
        );
    }
    let svgs: Vec<PathBuf> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  counterexample: "))
        .map(|l| PathBuf::from(l.split(" (waveform ").next().unwrap()))
        .collect();
    assert_eq!(svgs.len(), 1, "{stdout}");
    for svg in &svgs {
        let picture = std::fs::read_to_string(svg).unwrap();
        assert!(picture.contains("<svg"), "{}", svg.display());
        assert!(picture.contains("expected_x"), "{}", svg.display());
        assert!(svg.with_extension("vcd").is_file());
        assert!(
            svg.starts_with(dir.path().join("w/jr01")),
            "{}",
            svg.display()
        );
    }
    assert!(
        stdout.ends_with("verify jr01: 0 of 2 levels pass\n"),
        "{stdout}"
    );
}

/// A file whose ports do not match the contract is refused with exit 2, naming each wrong
/// port, before any folder is created.
#[test]
fn a_file_off_the_port_contract_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("wide.v"),
        "module wide(input a, input b, input [1:0] c, output x, output y);\n\
         assign x = a; assign y = b ^ c[0];\nendmodule\n",
    )
    .unwrap();
    let out = sh_in(dir.path(), "retrogate verify jr01 --dut wide.v");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for part in [
        "module `wide` does not implement the jr01_strategy port contract",
        "port `c` is 2 bits wide (want `input c`, 1 bit)",
        "port `z` is missing (want `output z`)",
    ] {
        assert!(stderr.contains(part), "{part}: {stderr}");
    }
    let out = sh_in(
        dir.path(),
        "retrogate verify jr01 --dut wide.v --top nosuch",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nosuch"),
        "{}",
        text(&out.stderr)
    );
    let out = sh_in(dir.path(), "retrogate verify jr01 --dut missing.v");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--dut missing.v"));
    let out = sh_in(dir.path(), "retrogate verify sticks --dut wide.v");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("sticks_strategy port contract"),
        "{}",
        text(&out.stderr)
    );
    // Nothing was written: only the file itself is there.
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1);
}

/// A controller under another module name (the emitted one, renamed) passes the
/// co-simulation through `--dut`; with its lookup broken it fails with the cycle and a
/// waveform SVG of the cycles around it.
#[test]
fn a_hand_named_controller_passes_and_a_broken_one_gets_a_waveform() {
    let dir = tempfile::tempdir().unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate emit sticks --impl logic --think-cycles 2 --out hdl",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let emitted = std::fs::read_to_string(dir.path().join("hdl/sticks_game.v")).unwrap();
    let mine = emitted.replace("module sticks_game(", "module my_controller(");
    std::fs::write(dir.path().join("mine.v"), &mine).unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate verify sticks --dut mine.v --level icarus --work w",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.starts_with("verify sticks --dut mine.v: controller my_controller cycle by cycle"),
        "{stdout}"
    );
    assert!(stdout.contains("icarus: PASS"), "{stdout}");
    let broken = mine.replacen("take[0] = (sticks[4]) |", "take[0] = (sticks[3]) |", 1);
    assert_ne!(broken, mine);
    std::fs::write(dir.path().join("broken.v"), &broken).unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate verify sticks --dut broken.v --level icarus --work w2",
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("  first mismatch at cycle "), "{stdout}");
    let svg = stdout
        .lines()
        .find_map(|l| l.strip_prefix("  counterexample: "))
        .map(|l| PathBuf::from(l.split(" (cycles").next().unwrap()))
        .expect("a counterexample line");
    let picture = std::fs::read_to_string(dir.path().join(&svg)).unwrap();
    assert!(picture.contains("remaining"), "{picture}");
}

/// The README's command on the hand-written Fort Boyard controller
/// (examples/sticks_student.v: the (n-1) mod 4 rule computed, not a ROM), with the levels that
/// check its behaviour (Icarus, the properties; tests/cli/examples.rs runs the README's command
/// itself, every level, and wants exit 0), passes, its properties proved for every input
/// sequence; a broken copy that takes a take of 0 as a move (no `illegal`) fails the
/// co-simulation and the properties with exit 1, the first differing output and cycle, and
/// counterexample VCDs and SVGs at the printed paths.
#[test]
fn the_students_controller_passes_and_a_broken_copy_fails_with_a_waveform() {
    let (dir, file) = with_example_file("sticks_student.v");
    let out = sh_in(
        dir.path(),
        "retrogate verify sticks --dut examples/sticks_student.v --level icarus,properties",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.starts_with(
            "verify sticks --dut examples/sticks_student.v: controller sticks_student cycle by \
             cycle against the reference model and the solver (think 2 cycles): icarus\n\
             icarus: PASS (24673 cycles in "
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("level 6 (controller properties ")
            && stdout.contains("): PASS (")
            && stdout.contains("7 properties of sticks_student proved for every input sequence"),
        "{stdout}"
    );
    assert!(!stdout.contains("BOUNDED ONLY"), "{stdout}");
    assert!(
        stdout.ends_with("verify sticks: 2 of 2 levels pass\n"),
        "{stdout}"
    );

    let student = std::fs::read_to_string(&file).unwrap();
    let broken = student.replacen("(take != 2'd0) && ", "", 1);
    assert_ne!(broken, student, "the example checks a take of 0");
    std::fs::write(dir.path().join("broken.v"), &broken).unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate verify sticks --dut broken.v --level icarus,properties --work w",
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("\nicarus: FAIL ("), "{stdout}");
    // The first difference: the take of 0 ends the human's turn, where the model refuses it.
    let mismatch = stdout
        .lines()
        .find_map(|l| l.strip_prefix("  first mismatch at cycle "))
        .expect("a first-mismatch line");
    assert!(
        mismatch.contains("): human_turn expected 1, actual 0"),
        "{stdout}"
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("  counterexample: "))
        .expect("a counterexample line");
    let (svg, rest) = line.split_once(" (cycles ").unwrap();
    let vcd = rest
        .split("; waveform ")
        .nth(1)
        .and_then(|v| v.strip_suffix(')'))
        .expect("the VCD's path");
    assert!(dir.path().join(vcd).is_file(), "{stdout}");
    let picture = std::fs::read_to_string(dir.path().join(svg)).unwrap();
    assert!(picture.contains("human_turn"), "{picture}");
    // The properties level names the broken property and writes its own trace.
    let proof = stdout
        .lines()
        .find(|l| l.starts_with("level 6 (controller properties "))
        .expect("the properties line");
    assert!(
        proof.contains("): FAIL (")
            && proof.contains(
                "assertion `an illegal or out-of-turn move changes nothing and raises illegal \
                 for one cycle`"
            ),
        "{stdout}"
    );
    let (trace, svg) = proof
        .split_once("; trace ")
        .and_then(|(_, t)| t.split_once(", waveform "))
        .expect("the trace and waveform paths");
    assert!(dir.path().join(trace).is_file(), "{stdout}");
    let picture = std::fs::read_to_string(dir.path().join(svg.trim())).unwrap();
    assert!(picture.contains("illegal"), "{picture}");
}

/// A handful of jr01 mutants (Icarus and the proof only, for the CI's time): every one is
/// killed or proven equivalent, and the same seed gives the same report.
#[test]
fn a_few_jr01_mutants_are_all_killed_or_equivalent() {
    let dir = tempfile::tempdir().unwrap();
    let run = |work: &str| {
        sh_in(
            dir.path(),
            &format!(
                "retrogate verify jr01 --mutants 4 --seed 3 --level icarus,formal,equivalence --work {work}"
            ),
        )
    };
    let first = run("a");
    let stdout = text(&first.stdout);
    assert!(first.status.success(), "{stdout}\n{}", text(&first.stderr));
    // The header lists exactly the levels the mutants run, and why the netlist level is not.
    assert!(
        stdout.starts_with(
            "verify jr01 --mutants 4 --seed 3: each mutant of the emitted Verilog through the \
             --dut bench, levels 2, 5; not run on mutants: level 7 (iCE40 netlist equivalence \
             (yosys equiv_induct): a mutant's netlist is synthesised from the mutant itself, so \
             it always equals its own RTL and cannot kill it)\n"
        ),
        "{stdout}"
    );
    let mutant_lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  mutant "))
        .collect();
    assert_eq!(mutant_lines.len(), 4, "{stdout}");
    assert!(
        mutant_lines
            .iter()
            .all(|l| l.contains(": killed by level 2") || l.contains(": equivalent (")),
        "{stdout}"
    );
    assert!(stdout.contains(" 0 survived, "), "{stdout}");
    let second = run("b");
    assert_eq!(text(&second.stdout), stdout, "deterministic for a seed");
}

/// The controller's mutants run its properties level (level 6), proved at their ports like a
/// user's controller: mutants the property proof refutes are killed by it, with the property
/// and the trace named; those it cannot refute go on to the equivalence proof. The JSON lists
/// one level-6 entry per mutant, failed for the killed ones (and for one a tool refused).
#[test]
fn controller_mutants_run_the_properties_level() {
    let dir = tempfile::tempdir().unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate verify sticks --count 6 --think-cycles 1 --impl logic --mutants 8 --seed 1 \
         --level properties --format json",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let mutants = doc["mutants"].as_array().expect("mutants");
    assert_eq!(mutants.len(), 8, "{stdout}");
    let by_properties: Vec<&serde_json::Value> = mutants
        .iter()
        .filter(|m| m["fate"] == "killed")
        .filter(|m| {
            m["by"]
                .as_str()
                .unwrap()
                .contains("level 6 (controller properties")
        })
        .collect();
    assert!(
        !by_properties.is_empty(),
        "no mutant killed by level 6: {stdout}"
    );
    for m in &by_properties {
        let detail = m["detail"].as_str().unwrap();
        assert!(
            detail.contains("a property fails from power-on") && detail.contains("assertion `"),
            "{detail}"
        );
    }
    // Every mutant is accounted for: killed at level 6 or proved equal to the original (or,
    // if a tool refused it, not built); none survives.
    assert!(mutants.iter().all(|m| m["fate"] != "survived"), "{stdout}");
    let level6: Vec<&serde_json::Value> = doc["levels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["level"] == 6)
        .collect();
    assert_eq!(level6.len(), mutants.len(), "{stdout}");
    let stillborn = mutants.iter().filter(|m| m["fate"] == "stillborn").count();
    let failed = level6.iter().filter(|l| l["passed"] == false).count();
    assert_eq!(failed, by_properties.len() + stillborn, "{stdout}");
    assert_eq!(
        doc["ran"],
        doc["levels"].as_array().unwrap().len(),
        "{stdout}"
    );
}

/// The proof levels run on a user's controller too: the emitted controller for 6 sticks under
/// another module name, with `--level properties,equivalence`, is proved (by ABC's pdr: the
/// wrapper does not know its internals); with `human_won` inverted it fails the properties
/// level with a counterexample waveform.
#[test]
fn a_users_controller_goes_through_the_proof_levels() {
    let dir = tempfile::tempdir().unwrap();
    let out = sh_in(
        dir.path(),
        "retrogate emit sticks --count 6 --impl logic --think-cycles 1 --out hdl",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let emitted = std::fs::read_to_string(dir.path().join("hdl/sticks_game.v")).unwrap();
    let mine = emitted.replace("module sticks_game(", "module my_controller(");
    std::fs::write(dir.path().join("mine.v"), &mine).unwrap();
    let command = "retrogate verify sticks --count 6 --think-cycles 1 --dut mine.v \
                   --level properties,equivalence --work w";
    let out = sh_in(dir.path(), command);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("level 6 (") && stdout.contains("level 7 ("),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("verify sticks: 2 of 2 levels pass\n"),
        "{stdout}"
    );
    // Its internals are unknown to the wrapper: ABC's pdr proves it, not a bounded check.
    assert!(
        stdout.contains("7 properties of my_controller proved for every input sequence (ABC pdr, "),
        "{stdout}"
    );
    assert!(!stdout.contains("BOUNDED ONLY"), "{stdout}");
    let broken = mine.replacen(
        "human_won = core$human_won;",
        "human_won = !core$human_won;",
        1,
    );
    assert_ne!(broken, mine, "the emitted controller assigns human_won");
    std::fs::write(dir.path().join("mine.v"), &broken).unwrap();
    let out = sh_in(dir.path(), &command.replace("--work w", "--work w2"));
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains(".svg"),
        "a counterexample waveform: {stdout}"
    );
}

/// `--allow-bounded` accepts a bounded result for a user's controller only: without `--dut` it
/// is refused, naming the flag, before anything is written.
#[test]
fn allow_bounded_needs_a_dut() {
    let dir = tempfile::tempdir().unwrap();
    let out = sh_in(dir.path(), "retrogate verify sticks --allow-bounded");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--allow-bounded") && text(&out.stderr).contains("--dut"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
