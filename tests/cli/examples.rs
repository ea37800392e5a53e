//! Every documented example runs as pasted into `sh`: each example line of every subcommand's
//! `--help` (found by walking `Commands:` from the top) and every `$ ...` line of a ```console
//! block and every line of a ```sh block of README.md and docs/*.md (read by the parser the
//! documentation tests share, tests/common/doc_examples.rs). Each runs through `sh -c` in a
//! fresh empty folder (or, when its page says it runs from the repository root, in a copy of
//! the checkout), with the built `retrogate` first on PATH, empty stdin and its own empty
//! temporary directory, and must exit 0 and write only the paths it names (or the command's
//! documented defaults).
//!
//! Examples that run yosys, nextpnr-ice40, the simulators or dot run only with the
//! `external-tools` feature; the lines that are not retrogate commands, that need a board on
//! USB, that need the checkout, that are shown failing or that a test of their own runs (with
//! these checks) and checks further are listed below by their exact text, so a new one is
//! noticed.

#[path = "../common/doc_examples.rs"]
mod doc_examples;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Lines of the documentation's ```sh blocks that are not retrogate commands (they build, test
/// or benchmark the checkout itself).
const NOT_RETROGATE: [&str; 9] = [
    "make        # install missing tools, then build the Fort Boyard bitstream for the iCEBreaker",
    "make test   # install missing tools, then every test (external tools included)",
    "cargo build --release",
    "cargo run --release -- solve sticks              # Fort Boyard: every position",
    "cargo test                                       # needs only Rust",
    "cargo test --release --features external-tools   # also the yosys/nextpnr/iverilog/verilator/dot tests",
    "cargo bench                                      # criterion benchmarks",
    "cargo bench --bench cosim",
    "cargo run --release --example sticks_luts",
];

/// Examples that program a board over USB: they cannot pass without one.
const NEEDS_A_BOARD: [&str; 1] = ["retrogate build --board icebreaker --count 20 --program"];

/// Documented lines that need the checkout (its `examples/`, or the committed testbench in `hdl/`
/// and `sim/`): their pages say they run from the repository root, and they run in a copy of
/// the checkout.
const NEEDS_THE_CHECKOUT: [&str; 3] = [
    "retrogate verify jr01 --dut examples/jr01_student.v",
    "retrogate verify sticks --dut examples/sticks_student.v",
    "iverilog -g2012 -o jr01_tb.vvp sim/jr01_strategy_tb.v hdl/jr01_strategy.v && vvp -n jr01_tb.vvp +vectors=sim/jr01_strategy.vec +vcd=jr01_tb.vcd",
];

/// Documented lines that show a failure on a file the reader breaks by hand (`broken.v`):
/// tests/cli/dut.rs makes that file and runs the same command on it.
const SHOWN_FAILING: [&str; 2] = [
    "retrogate verify jr01 --dut broken.v --work w --level icarus",
    "retrogate verify sticks --dut broken.v --work w --level icarus",
];

/// Documented lines that a test of their own runs through [`run_as_pasted`] (the same checks
/// as here) and then checks what they print: each runs once, there, not again here. The test
/// named must exist in the file named, and call `run_as_pasted` with the line.
const RUN_BY_TESTS: [(&str, &str, &str); 3] = [
    (
        "retrogate verify sticks",
        "paths.rs",
        "verify_sticks_with_no_flags_from_a_fresh_folder",
    ),
    (
        "retrogate verify solver",
        "workflow.rs",
        "verify_solver_runs_every_level_as_documented",
    ),
    (
        "retrogate verify heaps-solver --max-target 20",
        "verify.rs",
        "verify_heaps_solver_runs_every_level_and_proves_its_netlist",
    ),
];

/// The source of each file a [`RUN_BY_TESTS`] entry names.
fn test_source(file: &str) -> &'static str {
    match file {
        "paths.rs" => include_str!("paths.rs"),
        "workflow.rs" => include_str!("workflow.rs"),
        "verify.rs" => include_str!("verify.rs"),
        other => panic!("RUN_BY_TESTS names {other}: add it to test_source"),
    }
}

/// The verbs whose examples run external tools (and `emit sticks` without `--impl`, which
/// synthesises both implementations to pick the smaller).
fn needs_tools(line: &str) -> bool {
    [
        "retrogate verify",
        "retrogate build",
        "retrogate schematic",
        "retrogate board",
        "iverilog",
    ]
    .iter()
    .any(|v| line.contains(v))
        || (line.contains("retrogate emit sticks") && !line.contains("--impl"))
}

fn help(path: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_retrogate"))
        .args(path)
        .arg("--help")
        .env_clear()
        .output()
        .unwrap();
    assert!(out.status.success(), "{path:?} --help: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The example lines of every help text, with the subcommand path they came from.
fn help_examples() -> Vec<(String, String)> {
    let mut examples = Vec::new();
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        seen += 1;
        let text = help(&path);
        let mut lines = text.lines();
        let mut in_commands = false;
        for line in lines.by_ref() {
            if line == "Commands:" {
                in_commands = true;
            } else if in_commands && line.is_empty() {
                in_commands = false;
            } else if in_commands {
                let name = line.split_whitespace().next().unwrap().to_string();
                if name != "help" {
                    let mut sub = path.clone();
                    sub.push(name);
                    todo.push(sub);
                }
            } else if line.starts_with("Example") {
                break;
            }
        }
        let here: Vec<String> = lines
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        assert!(
            path.is_empty() || !here.is_empty(),
            "`retrogate {} --help` has no examples",
            path.join(" ")
        );
        for line in here {
            examples.push((format!("retrogate {} --help", path.join(" ")), line));
        }
    }
    // The top level and its ten verbs, play's four games, and the subcommands below the design
    // verbs at least.
    assert!(seen >= 20, "only {seen} help texts walked");
    examples
}

/// The examples of README.md and docs/*.md, each with its page and line. An example that needs
/// the checkout must say on its page that it runs from the repository root, and one that says
/// so must be listed as needing the checkout.
fn doc_examples() -> Vec<(String, String)> {
    let mut examples = Vec::new();
    for example in doc_examples::examples() {
        let listed = NEEDS_THE_CHECKOUT.contains(&example.command.as_str());
        assert!(
            listed == example.from_root,
            "{}: `{}`: {}",
            example.place(),
            example.command,
            if listed {
                "needs the checkout, but the paragraph above it does not say it runs \
                 \"from the repository root\""
            } else {
                "its page says it runs from the repository root: list it in NEEDS_THE_CHECKOUT"
            }
        );
        examples.push((example.place(), example.command));
    }
    examples
}

/// The paths (relative to the folder it runs in) a command may write: the values of its path
/// flags, and the defaults of the verbs that write without one.
fn named_paths(line: &str) -> Vec<PathBuf> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |flag: &str| {
        words
            .iter()
            .position(|w| *w == flag)
            .and_then(|i| words.get(i + 1))
            .map(PathBuf::from)
    };
    let mut paths: Vec<PathBuf> = [
        "--out",
        "--sim",
        "--work",
        "--constraints",
        "-o",
        "--frames",
    ]
    .iter()
    .filter_map(|f| value(f))
    .collect();
    // A testbench's waveform plusarg names the file it writes.
    paths.extend(
        words
            .iter()
            .filter_map(|w| w.strip_prefix("+vcd="))
            .map(PathBuf::from),
    );
    let verb = |v: &str| line.contains(&format!("retrogate {v}"));
    if verb("wave") {
        let svg = value("--out").unwrap_or_else(|| PathBuf::from("wave-sticks.svg"));
        paths.push(svg.with_extension("vcd"));
        if words.contains(&"--gtkw") {
            paths.push(svg.with_extension("gtkw"));
        }
        paths.push(svg);
    }
    if verb("schematic") {
        let design = if line.contains("schematic sticks") {
            "sticks"
        } else {
            "jr01"
        };
        paths.push(PathBuf::from(format!("schematic-{design}.svg")));
        paths.push(PathBuf::from("build/schematic"));
    }
    if verb("verify") {
        paths.push(PathBuf::from("build/verify"));
    }
    // Without --bin, `verify bitstream` reads (and when missing builds) the bitstream where
    // `retrogate build` leaves it: build/<board>/<design>.
    if verb("verify bitstream") && value("--bin").is_none() {
        let board = value("--board").unwrap_or_else(|| PathBuf::from("icebreaker"));
        let design = value("--design").unwrap_or_else(|| PathBuf::from("sticks"));
        let folder = Path::new("build").join(board);
        paths.push(folder.join(".retrogate-manifest"));
        paths.push(folder.join(design));
        paths.push(folder);
    }
    if verb("build") {
        paths.push(PathBuf::from("build"));
    }
    // `board` builds its Verilator model in build/board; its examples write their key file
    // (`> keys.txt`) first.
    if verb("board") {
        paths.push(PathBuf::from("build/board"));
        paths.push(PathBuf::from("build/.retrogate-manifest"));
        paths.extend(
            words
                .windows(2)
                .filter(|w| w[0] == ">")
                .map(|w| PathBuf::from(w[1])),
        );
    }
    // retrogate records each file it writes in its folder's manifest (the rule that it never
    // replaces a file it did not write), so a named file may bring that folder's manifest.
    let manifests: Vec<PathBuf> = paths
        .iter()
        .map(|p| {
            p.parent()
                .unwrap_or(Path::new(""))
                .join(".retrogate-manifest")
        })
        .collect();
    paths.extend(manifests);
    paths
}

/// Every file and folder below `dir`, relative to it.
fn entries(dir: &Path) -> BTreeSet<PathBuf> {
    let mut all = BTreeSet::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            all.insert(path.strip_prefix(dir).unwrap().to_path_buf());
            if path.is_dir() {
                todo.push(path);
            }
        }
    }
    all
}

/// One documented line as it ran: its output, the folder it ran in (kept until dropped) and
/// what was wrong with it, if anything, in words.
pub struct Pasted {
    pub output: std::process::Output,
    pub folder: tempfile::TempDir,
    pub failure: Option<String>,
}

/// Runs one example; the failure, if any, in words.
fn run(source: &str, line: &str) -> Option<String> {
    run_as_pasted(line)
        .failure
        .map(|wrong| format!("{source}: `{line}`: {wrong}"))
}

/// Runs `line` as a reader pastes it into `sh` (see the module doc): the checks of
/// [`documented_examples_run`], with the output and the folder for a test that checks more
/// (the lines of [`RUN_BY_TESTS`]).
pub fn run_as_pasted(line: &str) -> Pasted {
    let here = tempfile::tempdir().unwrap();
    if NEEDS_THE_CHECKOUT.contains(&line) {
        doc_examples::copy_checkout(here.path());
    }
    let before = entries(here.path());
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .env_clear()
        .env("PATH", doc_examples::path_with_retrogate())
        .env("TMPDIR", tmp.path())
        .envs(crate::tool_cache())
        .current_dir(here.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let mut wrong = Vec::new();
    if !out.status.success() {
        wrong.push(format!(
            "exit {:?}; stderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let allowed = named_paths(line);
    let stray: Vec<PathBuf> = entries(here.path())
        .into_iter()
        .filter(|p| !before.contains(p))
        .filter(|p| !allowed.iter().any(|a| p.starts_with(a) || a.starts_with(p)))
        .collect();
    let changed: Vec<&PathBuf> = before
        .iter()
        .filter(|p| {
            let copy = here.path().join(p);
            let original = Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
            copy.is_file() && std::fs::read(&copy).ok() != std::fs::read(&original).ok()
        })
        .collect();
    if !changed.is_empty() {
        wrong.push(format!("changed files of the checkout: {changed:?}"));
    }
    if !stray.is_empty() {
        wrong.push(format!("wrote paths it does not name: {stray:?}"));
    }
    let left = entries(tmp.path());
    if !left.is_empty() {
        wrong.push(format!("left in the temporary directory: {left:?}"));
    }
    Pasted {
        output: out,
        folder: here,
        failure: (!wrong.is_empty()).then(|| wrong.join("; ")),
    }
}

/// How many tests share the examples (each runs every `SHARDS`-th distinct line), so that the
/// test runner spreads them over the cores.
const SHARDS: usize = 4;

#[test]
fn every_documented_example_runs_as_pasted_into_sh_part_1_of_4() {
    documented_examples_run(0);
}

#[test]
fn every_documented_example_runs_as_pasted_into_sh_part_2_of_4() {
    documented_examples_run(1);
}

#[test]
fn every_documented_example_runs_as_pasted_into_sh_part_3_of_4() {
    documented_examples_run(2);
}

#[test]
fn every_documented_example_runs_as_pasted_into_sh_part_4_of_4() {
    documented_examples_run(3);
}

/// Every help and documentation example, each distinct line once; this `shard` runs the
/// lines whose position among the runnable ones is `shard` modulo [`SHARDS`], and checks the
/// lists and counts that cover them all.
fn documented_examples_run(shard: usize) {
    let mut examples = help_examples();
    let from_help = examples.len();
    examples.extend(doc_examples());
    let from_docs = examples.len() - from_help;
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut done = BTreeSet::new();
    for (source, line) in &examples {
        // The same example in several help texts runs once.
        if !done.insert(line.clone()) {
            continue;
        }
        if NOT_RETROGATE.contains(&line.as_str())
            || NEEDS_A_BOARD.contains(&line.as_str())
            || SHOWN_FAILING.contains(&line.as_str())
        {
            continue;
        }
        if let Some((_, file, test)) = RUN_BY_TESTS.iter().find(|(l, _, _)| l == line) {
            let source = test_source(file);
            let body = source
                .split_once(&format!("fn {test}() {{"))
                .map(|(_, body)| body.split("\n}\n").next().unwrap_or_default())
                .unwrap_or_else(|| panic!("`{line}`: no test `{test}` in tests/cli/{file}"));
            assert!(
                body.contains(&format!("run_as_pasted({line:?})")),
                "`{line}`: tests/cli/{file}'s `{test}` does not run it with run_as_pasted"
            );
            continue;
        }
        assert!(
            line.contains("retrogate ") || NEEDS_THE_CHECKOUT.contains(&line.as_str()),
            "{source}: `{line}` is not a retrogate command: run it here, or list it in \
             NOT_RETROGATE or NEEDS_A_BOARD with the reason"
        );
        if needs_tools(line) && !cfg!(feature = "external-tools") {
            continue;
        }
        ran += 1;
        if ran % SHARDS == shard {
            let started = std::time::Instant::now();
            failures.extend(run(source, line));
            eprintln!("{:6.1} s  {line}", started.elapsed().as_secs_f64());
        }
    }
    // Each listed line is still documented (a stale entry would hide nothing, but says so).
    for listed in NOT_RETROGATE
        .iter()
        .chain(&NEEDS_A_BOARD)
        .chain(&NEEDS_THE_CHECKOUT)
        .chain(&SHOWN_FAILING)
        .chain(RUN_BY_TESTS.iter().map(|(line, _, _)| line))
    {
        assert!(
            done.contains(*listed),
            "`{listed}` is listed here but no longer documented: remove it from the list"
        );
    }
    assert!(from_help >= 40, "only {from_help} help examples found");
    // README.md and the docs pages: the tour, games, circuits, verify, build, play at least.
    assert!(
        from_docs >= 30,
        "only {from_docs} documentation examples found"
    );
    eprintln!(
        "{ran} examples, part {} of {SHARDS} ran here ({from_help} help lines, {from_docs} \
         documentation lines, each distinct line once)",
        shard + 1
    );
    assert!(
        failures.is_empty(),
        "{} of the {ran} examples' part {} failed:\n{}",
        failures.len(),
        shard + 1,
        failures.join("\n")
    );
}

/// The check itself: an unquoted `>=` is caught (the shell writes a stray file `=61`).
#[test]
fn an_unquoted_end_condition_is_caught() {
    let failure = run(
        "test",
        "retrogate solve heaps --start 3,10 --move x+1 --end sum>=61",
    )
    .expect("the unquoted example must fail");
    assert!(failure.contains("--end"), "{failure}");
    let failure = run(
        "test",
        "retrogate solve heaps --start 3,10 --move x+1 --move x*4 --format summary > =61",
    )
    .expect("a stray file must be caught");
    assert!(failure.contains("\"=61\""), "{failure}");
}
