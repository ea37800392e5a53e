//! The bad-input suite: every case runs the binary from a fresh temporary folder (holding one
//! file of the user's), with its own empty temporary directory, and must exit 2 with a short
//! message on stderr that names the offending flag or value, writing nothing anywhere.
//!
//! The folder and file safety cases of `build`, `emit`, `wave` and `schematic` (existing output
//! folders, `--out` naming a file, ...) are in `bad_input_files.rs`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// One bad command line.
struct Case {
    args: Vec<String>,
    /// Each must appear in stderr.
    names: Vec<String>,
    /// None may appear in stderr (a wrong hint that was once given).
    absent: Vec<&'static str>,
}

/// A case: `args` must fail naming every one of `names`.
fn c(args: &[&str], names: &[&str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        names: names.iter().map(|s| s.to_string()).collect(),
        absent: Vec::new(),
    }
}

impl Case {
    /// ... and must not say any of `absent`.
    fn without(mut self, absent: &[&'static str]) -> Case {
        self.absent.extend(absent);
        self
    }
}

/// Every file and folder under `dir`, with the files' contents.
fn tree(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    let mut all = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            if path.is_dir() {
                all.insert(name, None);
                todo.push(path);
            } else {
                all.insert(name, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    all
}

/// Runs `case` in a fresh folder; the failure, if any, in words.
fn check(case: &Case) -> Option<String> {
    let here = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("mine.txt"), "keep\n").unwrap();
    let before = tree(here.path());
    let out = Command::new(env!("CARGO_BIN_EXE_retrogate"))
        .args(&case.args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TMPDIR", tmp.path())
        .current_dir(here.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown: Vec<String> = case
        .args
        .iter()
        .map(|a| {
            if a.chars().count() > 40 {
                format!(
                    "{}...({} chars)",
                    a.chars().take(20).collect::<String>(),
                    a.len()
                )
            } else {
                a.clone()
            }
        })
        .collect();
    let command = format!("retrogate {}", shown.join(" "));
    let mut wrong = Vec::new();
    if out.status.code() != Some(2) {
        wrong.push(format!("exit {:?}, not 2", out.status.code()));
    }
    for name in &case.names {
        if !stderr.contains(name.as_str()) {
            wrong.push(format!("stderr does not name `{name}`"));
        }
    }
    for hint in &case.absent {
        if stderr.contains(hint) {
            wrong.push(format!("stderr says `{hint}`"));
        }
    }
    if stderr.len() > 2000 {
        wrong.push(format!("stderr is {} bytes long", stderr.len()));
    }
    if !out.stdout.is_empty() && !case.args.iter().any(|a| a == "play") {
        wrong.push(format!(
            "stdout is not empty: {}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    if tree(here.path()) != before {
        wrong.push(format!(
            "the folder changed: {:?}",
            tree(here.path()).keys().collect::<Vec<_>>()
        ));
    }
    if !tree(tmp.path()).is_empty() {
        wrong.push(format!(
            "left in the temporary directory: {:?}",
            tree(tmp.path()).keys().collect::<Vec<_>>()
        ));
    }
    (!wrong.is_empty()).then(|| format!("`{command}`: {}\n  stderr: {stderr}", wrong.join("; ")))
}

/// `depth` opening parentheses around `x`, closed again.
fn nested(depth: usize) -> String {
    format!("{}x{}", "(".repeat(depth), ")".repeat(depth))
}

fn cases() -> Vec<Case> {
    let parens = nested(5000);
    let minus = format!("{}x", "-".repeat(20000));
    let chain = format!("x{}", "+1".repeat(50_000)); // one argument holds at most 128 KiB
    let mut moves65 = vec!["solve", "heaps", "--start", "3"];
    let many: Vec<String> = (1..=65).map(|k| format!("x+{k}")).collect();
    for m in &many {
        moves65.extend(["--move", m.as_str()]);
    }
    let deep = |verb: &[&str], m: &str, names: &[&str]| {
        let mut args: Vec<&str> = verb.to_vec();
        args.extend(["--move", m]);
        c(&args, names)
    };
    vec![
        // ---- no command, unknown command, unknown flags
        c(&[], &["Usage"]),
        c(&["frobnicate"], &["frobnicate"]),
        c(&["--quiet=yes", "solve", "sticks"], &["--quiet"]),
        c(&["solve"], &["Usage: retrogate solve"]),
        c(&["solve", "chess"], &["chess"]),
        c(&["solve", "sticks", "--sticks", "3"], &["--sticks"]),
        // ---- solve sticks
        c(&["solve", "sticks", "--count", "0"], &["--count"]),
        c(&["solve", "sticks", "--count", "-1"], &["-1"]),
        c(
            &["solve", "sticks", "--count", "many"],
            &["--count", "many"],
        ),
        c(
            &["solve", "sticks", "--count", "18446744073709551616"],
            &["--count"],
        ),
        c(
            &["solve", "sticks", "--count", "5000000000"],
            &["--count", "--format summary"],
        ),
        c(
            &[
                "solve",
                "sticks",
                "--count",
                "5000000000",
                "--format",
                "json",
            ],
            &["--count", "--format summary"],
        ),
        // No period within the search limit: the summary needs the dense solver too, so it
        // must not suggest itself.
        c(
            &[
                "solve",
                "sticks",
                "--count",
                "5000000000",
                "--take",
                "1,5000000",
                "--format",
                "summary",
            ],
            &["--count"],
        )
        .without(&["--format summary"]),
        c(&["solve", "sticks", "--take", "0"], &["--take"]),
        c(&["solve", "sticks", "--take", "1,0,3"], &["--take"]),
        c(&["solve", "sticks", "--take", ""], &["--take"]),
        c(&["solve", "sticks", "--take", "1,x"], &["--take", "x"]),
        c(
            &["solve", "sticks", "--last", "maybe"],
            &["--last", "maybe"],
        ),
        c(
            &["solve", "sticks", "--format", "xml"],
            &["--format", "xml"],
        ),
        c(&["solve", "sticks", "--impl", "rom"], &["--impl"]),
        // ---- solve matches
        c(&["solve", "matches", "--count", "0"], &["--count"]),
        c(&["solve", "matches", "--take", "0"], &["--take"]),
        c(&["solve", "matches", "--count", "2000000000"], &["--count"]),
        c(&["solve", "matches", "--last", "wins"], &["--last"]),
        // ---- solve heaps: start, end, moves
        c(&["solve", "heaps"], &["--start"]),
        c(&["solve", "heaps", "--start", "3,a"], &["--start", "a"]),
        c(
            &["solve", "heaps", "--start", "1,2,3,4,5"],
            &["--start", "5 heaps"],
        ),
        c(
            &["solve", "heaps", "--start", "100"],
            &["--start 100", "sum>=61"],
        ),
        // What the shell leaves of an unquoted `--end sum>=61`: the message says to quote it.
        c(
            &["solve", "heaps", "--start", "3,10", "--end", "sum"],
            &["--end `sum`", "--end 'sum>=61'"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--end", "total>=5"],
            &["--end", "total"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--end", "sum>=x"],
            &["--end", "`x`"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--end", "sum>=-5"],
            &["--end", "-5"],
        ),
        c(
            &[
                "solve",
                "heaps",
                "--start",
                "3,10",
                "--end",
                "sum>=99999999999999999999",
            ],
            &["--end"],
        ),
        c(
            &[
                "solve",
                "heaps",
                "--start",
                "3,10",
                "--end",
                "sum>=9223372036854775807",
            ],
            &[
                "--end 'sum>=9223372036854775807'",
                "--move `x*4`",
                "lower the --end threshold",
            ],
        ),
        c(
            &[
                "solve", "heaps", "--start", "10", "--move", "x+1", "--end", "sum<=3",
            ],
            &["--end 'sum<=3'", "grow"],
        ),
        c(
            &[
                "solve",
                "heaps",
                "--start",
                "100000000",
                "--move",
                "x-1",
                "--end",
                "sum>=200000000",
            ],
            &["--end 'sum>=200000000'", "shrink"],
        )
        .without(&["grow"]),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x*1"],
            &["--move `x*1`"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x+0"],
            &["--move `x+0`"],
        ),
        c(
            &[
                "solve", "heaps", "--start", "3,10", "--move", "x+1", "--move", "x/(x-5)",
            ],
            &["--move", "x/(x-5)", "--move 'x/3 if x%3==0'"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x+"],
            &["--move", "column 3"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", ""],
            &["--move", "empty move"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x+y"],
            &["--move", "`y`"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x*4)"],
            &["--move", "column 4"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "(x+1"],
            &["--move", "unclosed '('"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--move", "x if x"],
            &["--move", "a value used as a condition"],
        ),
        c(
            &[
                "solve",
                "heaps",
                "--start",
                "3,10",
                "--move",
                "x+99999999999999999999",
            ],
            &["--move", "too large"],
        ),
        deep(
            &["solve", "heaps", "--start", "3,10"],
            &parens,
            &["--move", "nested too deeply", "column 65"],
        ),
        deep(
            &["solve", "heaps", "--start", "3,10"],
            &minus,
            &["--move", "nested too deeply", "column 65"],
        ),
        deep(
            &["solve", "heaps", "--start", "3,10"],
            &chain,
            &["--move", "too deep", "column 512"],
        ),
        c(
            &moves65.iter().map(|s| s.as_ref()).collect::<Vec<&str>>(),
            &["--move", "at most 64"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--apply-to", "bigger"],
            &["--apply-to", "bigger"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--last", "draw"],
            &["--last", "draw"],
        ),
        c(
            &["solve", "heaps", "--start", "3,10", "--format", "csv"],
            &["--format", "csv"],
        ),
        // ---- kege
        c(&["kege", "--s", "1..1000001"], &["--s", "1000001 values"]),
        c(&["kege", "--s", "0..18446744073709551615"], &["--s"]),
        c(&["kege", "--s", "57..1"], &["--s", "empty"]),
        c(&["kege", "--s", "1-57"], &["--s", "1-57"]),
        c(&["kege", "--s", "a..5"], &["--s", "`a`"]),
        c(&["kege", "--s", ""], &["--s"]),
        c(&["kege", "--start", "3,7"], &["--start", "no S"]),
        c(&["kege", "--start", "S,S"], &["--start", "more than one S"]),
        c(&["kege", "--start", "3,Q"], &["--start", "`Q`"]),
        c(&["kege", "--start", "1,2,3,4,S"], &["--start", "5 heaps"]),
        c(&["kege", "--format", "summary"], &["--format", "summary"]),
        c(
            &["kege", "--end", "sum"],
            &["--end `sum`", "--end 'sum>=61'"],
        ),
        c(
            &["kege", "--end", "sum>=9223372036854775807"],
            &["--end 'sum>=9223372036854775807'"],
        ),
        c(&["kege", "--move", "x*1"], &["--move `x*1`"]),
        c(&["kege", "--move", "x%"], &["--move", "column 3"]),
        deep(
            &["kege"],
            &parens,
            &["--move", "nested too deeply", "column 65"],
        ),
        deep(
            &["kege"],
            &minus,
            &["--move", "nested too deeply", "column 65"],
        ),
        c(&["kege", "--apply-to", "none"], &["--apply-to", "none"]),
        c(&["kege", "--count", "3"], &["--count"]),
        // ---- table: only the game matters
        c(&["table"], &["Usage: retrogate table"]),
        c(&["table", "chess"], &["chess"]),
        c(&["table", "sticks", "--impl", "rom"], &["--impl"]),
        c(
            &["table", "sticks", "--think-cycles", "5"],
            &["--think-cycles"],
        ),
        c(&["table", "sticks", "--count", "0"], &["--count"]),
        c(&["table", "sticks", "--count", "300"], &["--count"]),
        c(&["table", "sticks", "--take", "0"], &["--take"]),
        c(&["table", "jr01", "--count", "5"], &["--count"]),
        c(&["table", "jr01", "--format", "csv"], &["--format", "csv"]),
        // ---- minimize
        c(&["minimize", "sticks", "--impl", "logic"], &["--impl"]),
        c(
            &["minimize", "sticks", "--think-cycles", "0"],
            &["--think-cycles"],
        ),
        c(&["minimize", "sticks", "--count", "300"], &["--count"]),
        c(&["minimize", "sticks", "--take", "1,0"], &["--take"]),
        c(&["minimize", "jr01", "--format", "json"], &["--format"]),
        c(&["minimize", "jr01", "--impl", "rom"], &["--impl"]),
        // ---- play: no --format to suggest
        c(&["play"], &["Usage: retrogate play"]),
        c(&["play", "chess"], &["chess"]),
        c(&["play", "sticks", "--format", "table"], &["--format"]),
        c(&["play", "sticks", "--count", "0"], &["--count"]),
        c(&["play", "sticks", "--count", "5000000000"], &["--count"]).without(&["--format"]),
        c(
            &["play", "sticks", "--against", "fpga"],
            &["--against", "fpga"],
        ),
        c(
            &["play", "sticks", "--against", "circuit", "--count", "300"],
            &["--count"],
        ),
        c(&["play", "matches", "--take", "0"], &["--take"]),
        c(&["play", "matches", "--count", "2000000000"], &["--count"]).without(&["--format"]),
        c(&["play", "heaps"], &["--start"]),
        c(
            &["play", "heaps", "--start", "3,10", "--end", "sum"],
            &["--end `sum`"],
        ),
        c(
            &["play", "heaps", "--start", "3,10", "--last", "draw"],
            &["--last"],
        ),
        deep(
            &["play", "heaps", "--start", "3,10"],
            &parens,
            &["--move", "nested too deeply"],
        ),
        c(&["play", "jr01", "--count", "3"], &["--count"]),
        c(&["play", "jr01", "--machine-first"], &["--machine-first"]),
        // ---- wave
        c(&["wave"], &["Usage: retrogate wave"]),
        c(&["wave", "jr01"], &["jr01"]),
        c(&["wave", "sticks"], &["--moves"]),
        c(&["wave", "sticks", "--moves", "1,x"], &["--moves", "x"]),
        c(
            &["wave", "sticks", "--moves", "1", "--out", "w.png"],
            &["--out", "w.png"],
        ),
        c(
            &["wave", "sticks", "--moves", "1", "--count", "0"],
            &["--count"],
        ),
        c(
            &["wave", "sticks", "--moves", "1", "--impl", "rom"],
            &["--impl"],
        ),
        c(
            &["wave", "sticks", "--moves", "1", "--think-cycles", "3"],
            &["--think-cycles"],
        ),
        c(
            &["wave", "sticks", "--moves", "1", "--format", "json"],
            &["--format"],
        ),
        // ---- schematic: the strategy only, so no --think-cycles
        c(&["schematic"], &["Usage: retrogate schematic"]),
        c(
            &["schematic", "sticks", "--think-cycles", "5"],
            &["--think-cycles"],
        ),
        c(
            &["schematic", "sticks", "--impl", "fpga"],
            &["--impl", "fpga"],
        ),
        c(&["schematic", "sticks", "--count", "0"], &["--count"]),
        c(&["schematic", "sticks", "--count", "300"], &["--count"]),
        c(
            &["schematic", "jr01", "--out", "x.png"],
            &["--out", "x.png"],
        ),
        c(&["schematic", "jr01", "--sim", "x"], &["--sim"]),
        c(
            &["schematic", "jr01", "--style", "blocks"],
            &["--style", "blocks", "gates", "luts"],
        ),
        c(
            &["schematic", "sticks", "--style", "gates"],
            &["--style", "gates", "blocks", "luts"],
        ),
        // ---- emit, verify, build: flag checks that need no tools
        c(&["emit"], &["Usage: retrogate emit"]),
        c(&["emit", "jr01"], &["--out"]),
        c(
            &["emit", "sticks", "--count", "0", "--out", "hdl"],
            &["--count"],
        ),
        c(
            &["emit", "sticks", "--impl", "fpga", "--out", "hdl"],
            &["--impl", "fpga"],
        ),
        c(
            &["emit", "sticks", "--think-cycles", "x", "--out", "hdl"],
            &["--think-cycles", "x"],
        ),
        c(
            &[
                "emit", "sticks", "--count", "300", "--impl", "rom", "--out", "hdl",
            ],
            &["--count"],
        ),
        c(
            &["emit", "jr01", "--board", "icebreaker", "--out", "hdl"],
            &["--board"],
        ),
        c(&["verify", "sticks", "--count", "0"], &["--count"]),
        c(&["verify", "sticks", "--impl", "fpga"], &["--impl", "fpga"]),
        c(&["verify", "jr01", "--impl", "rom"], &["--impl"]),
        c(&["verify", "chess"], &["chess"]),
        c(&["build", "--board", "nope"], &["--board", "nope"]),
        c(&["build", "--design", "chess"], &["--design", "chess"]),
        c(&["build", "--last", "draw"], &["--last", "draw"]),
        c(&["build", "--impl", "rom"], &["--impl"]),
        // ---- numbers: negative, repeated or out of range, each naming its flag and the fix
        c(
            &["solve", "sticks", "--count", "-1"],
            &["--count", "-1 is negative", "e.g. --count 18"],
        ),
        c(
            &["solve", "sticks", "--take", "1,1,2"],
            &["--take", "1 is given twice", "give each amount once"],
        ),
        c(
            &["solve", "sticks", "--take", "1", "--take", "2"],
            &["--take", "cannot be used multiple times"],
        ),
        c(
            &["solve", "sticks", "--take", "-1,2"],
            &["--take", "-1 is negative"],
        ),
        c(
            &["solve", "sticks", "--take", "1,,2"],
            &["--take", "missing between two commas"],
        ),
        c(
            &["solve", "matches", "--take", "1,1"],
            &["--take", "given twice"],
        ),
        c(
            &["solve", "matches", "--count", "-7"],
            &["--count", "negative"],
        ),
        c(
            &["solve", "heaps", "--start", "-3,10"],
            &["--start", "-3 is negative"],
        ),
        c(&["play", "sticks", "--take", "2,2"], &["--take", "twice"]),
        c(
            &["wave", "sticks", "--moves", "0"],
            &["--moves", "from 1 up", "e.g. --moves 1,3,2"],
        ),
        c(
            &["wave", "sticks", "--moves", "-1"],
            &["--moves", "-1 is negative"],
        ),
        c(
            &["wave", "sticks", "--moves", "1,5"],
            &[
                "--moves 1,5",
                "move 2 (take 5) is not a move",
                "1,2,3 (--take)",
            ],
        ),
        c(
            &["build", "--seed", "2147483648"],
            &["--seed", "goes up to 2147483647", "nextpnr-ice40"],
        ),
        c(&["build", "--seed", "-1"], &["--seed", "negative"]),
        c(&["build", "--take", "3,3"], &["--take", "twice"]),
        c(
            &["build", "--take", "1", "--take", "2"],
            &["--take", "cannot be used multiple times"],
        ),
        c(
            &["emit", "sticks", "--think-cycles", "-5", "--out", "hdl"],
            &["--think-cycles", "negative"],
        ),
        c(
            &["emit", "solver", "--max-count", "-1", "--out", "hdl"],
            &["--max-count", "negative"],
        ),
    ]
}

#[test]
fn every_bad_input_exits_2_names_the_flag_and_writes_nothing() {
    let cases = cases();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(check).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A 50 MB line typed into `play` is refused with a short quote of it, once, and the game goes
/// on with the next line.
#[test]
fn play_refuses_a_huge_line_quoting_only_its_start() {
    use std::io::Write;
    let here = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrogate"))
        .args(["play", "sticks"])
        .env_clear()
        .current_dir(here.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..50 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\n1\n").unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.len() < 2000, "{} bytes of stdout", stdout.len());
    let refused: Vec<&str> = stdout.lines().filter(|l| l.contains("refused")).collect();
    assert_eq!(refused.len(), 1, "{stdout}");
    assert!(
        refused[0].contains(&format!(
            "you: {}...  refused: the line is longer than 1024 bytes",
            "7".repeat(24)
        )),
        "{stdout}"
    );
    // The next line is still read as a move.
    assert!(stdout.contains("you: take 1 -> 17"), "{stdout}");
}
