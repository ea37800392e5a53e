//! Commands as a user types them: from a temporary current directory, with the default and
//! relative paths (issue 9: `verify` failed with any relative `--work`), rebuilding into
//! retrogate's own output, the testbenches run by hand from anywhere, and an interrupted build.
//! Every test here runs external tools (the module is behind the `external-tools` feature).

use super::retrogate;
use std::path::Path;

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `retrogate verify jr01` with no flags, from a fresh folder: the default `--work
/// build/verify` is relative. Each level has its PASS line, then the verdict line.
#[test]
fn verify_jr01_with_no_flags_from_a_fresh_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(dir.path(), &["verify", "jr01"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    for level in 1..=5 {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("level {level} ")))
            .unwrap_or_else(|| panic!("no level {level} line in\n{stdout}"));
        assert!(line.contains(": PASS (8 vectors"), "{line}");
    }
    let equivalence = lines
        .iter()
        .find(|l| l.starts_with("level 7 "))
        .unwrap_or_else(|| panic!("no level 7 line in\n{stdout}"));
    assert!(equivalence.contains(": PASS ("), "{equivalence}");
    assert!(!stdout.contains("level 6 "), "{stdout}");
    assert!(stdout.contains("hardware: 3 SB_LUT4"), "{stdout}");
    assert_eq!(lines.last(), Some(&"verify jr01: 6 of 6 levels pass"));
    let work = dir.path().join("build/verify");
    assert!(work.join("jr01/icarus/jr01_strategy_tb.vcd").is_file());
    assert_eq!(
        std::fs::read_to_string(work.join(".retrogate-manifest"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        vec!["jr01"]
    );
    // Again, into its own earlier work folder.
    let again = run_in(dir.path(), &["verify", "jr01", "--level", "icarus"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
}

/// From another folder with a relative `--work`, and a subset of the levels (`--level`, as a
/// comma list and repeated): only those run, in order, and the verdict counts them.
#[test]
fn verify_jr01_with_a_relative_work_from_another_folder_and_chosen_levels() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("elsewhere");
    std::fs::create_dir(&sub).unwrap();
    let out = run_in(
        &sub,
        &[
            "verify",
            "jr01",
            "--work",
            "../w",
            "--level",
            "formal,icarus",
            "--level",
            "gate-level",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let levels: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("level "))
        .map(|l| &l[..7])
        .collect();
    assert_eq!(levels, ["level 2", "level 4", "level 5"], "{stdout}");
    assert!(
        stdout.ends_with("verify jr01: 3 of 3 levels pass\n"),
        "{stdout}"
    );
    assert!(dir.path().join("w/jr01/icarus").is_dir());
    assert!(!sub.join("build").exists() && !sub.join("w").exists());
}

/// `retrogate verify sticks` with no flags from a fresh folder: both lookups at every level,
/// the controller on every engine with the default 2 think cycles, and the verdict.
#[test]
fn verify_sticks_with_no_flags_from_a_fresh_folder() {
    // The documented line itself, as pasted into `sh` (the examples test leaves it to this one).
    let pasted = crate::examples::run_as_pasted("retrogate verify sticks");
    let (out, dir) = (&pasted.output, &pasted.folder);
    let stdout = text(&out.stdout);
    assert!(pasted.failure.is_none(), "{:?}\n{stdout}", pasted.failure);
    assert_eq!(stdout.matches(": PASS (19 vectors").count(), 10, "{stdout}");
    for engine in ["model", "rust-hdl", "icarus", "verilator", "gate-level"] {
        assert!(
            stdout.contains(&format!("{engine}: PASS (")),
            "{engine}\n{stdout}"
        );
    }
    assert!(stdout.contains("(think 2 cycles)"), "{stdout}");
    // The proofs: netlist equivalence of both lookups and the controller, the controller's
    // properties by induction, and cover traces with their waveforms.
    assert_eq!(stdout.matches("level 7 (").count(), 3, "{stdout}");
    assert!(
        stdout
            .contains("level 6 (controller properties (yosys-smtbmc k-induction, ABC pdr)): PASS"),
        "{stdout}"
    );
    assert!(stdout.contains("k-induction closed at k = "), "{stdout}");
    let work = dir.path().join("build/verify/sticks");
    for cover in [
        "human-wins-human-first",
        "machine-wins-human-first",
        "machine-wins-machine-first",
    ] {
        assert!(
            stdout.contains(&format!("cover {cover}: reached at step ")),
            "{stdout}"
        );
        assert!(
            work.join(format!("covers/{cover}.svg")).is_file(),
            "{cover}"
        );
    }
    assert!(
        stdout.ends_with("verify sticks: 18 of 18 levels pass\n"),
        "{stdout}"
    );
}

/// `--think-cycles N` reaches the co-simulation: the model and the circuits think N cycles
/// (the emitted Verilog's countdown is built for N; the comparison passes only if they agree).
#[test]
fn verify_sticks_think_cycles_takes_effect() {
    let dir = tempfile::tempdir().unwrap();
    let run = |think: &str| {
        let out = run_in(
            dir.path(),
            &[
                "verify",
                "sticks",
                "--count",
                "9",
                "--impl",
                "logic",
                "--think-cycles",
                think,
                "--level",
                "rust-hdl,icarus",
                "--work",
                "w",
            ],
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
        assert!(
            stdout.contains(&format!("(think {think} cycles)")),
            "{stdout}"
        );
        let model = stdout
            .lines()
            .find(|l| l.starts_with("model: PASS ("))
            .unwrap_or_else(|| panic!("{stdout}"));
        model
            .split_once("PASS (")
            .unwrap()
            .1
            .split(' ')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let (short, long) = (run("1"), run("40"));
    assert!(
        long > short,
        "40 think cycles make longer games: {long} vs {short}"
    );
}

/// A second build into its own earlier output succeeds (default, relative `--out`), the
/// summary ends with a newline, and no `.partial` folder is left.
#[test]
fn a_build_into_its_own_earlier_output_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["build", "--board", "icestick", "--design", "jr01"];
    let first = run_in(dir.path(), &args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = dir.path().join("build/icestick/jr01");
    let bin = std::fs::read(out.join("jr01_icestick.bin")).unwrap();
    let second = run_in(dir.path(), &args);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let stdout = text(&second.stdout);
    assert!(
        stdout.ends_with('\n') && !stdout.ends_with("\n\n"),
        "the summary ends with a newline: {stdout:?}"
    );
    assert_eq!(std::fs::read(out.join("jr01_icestick.bin")).unwrap(), bin);
    assert!(!dir.path().join("build/icestick/jr01.partial").exists());
    // `--out .` from inside its own output folder.
    let third = run_in(
        &out,
        &[
            "build", "--board", "icestick", "--design", "jr01", "--out", ".",
        ],
    );
    assert!(third.status.success(), "{}", text(&third.stderr));
    assert!(!dir.path().join("build/icestick/jr01.partial").exists());
}

/// The committed testbench finds its vectors from the checkout's root through `+vectors=`,
/// and from `sim/` by default; a missing vector file or a broken design ends with a non-zero
/// exit (`$fatal`), not just a printed line.
#[test]
fn the_committed_testbench_runs_from_anywhere_and_fails_loudly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let vvp = dir.path().join("tb.vvp");
    let compile = |design: &Path| {
        let st = std::process::Command::new("iverilog")
            .current_dir(root)
            .args(["-g2012", "-o"])
            .arg(&vvp)
            .arg("sim/jr01_strategy_tb.v")
            .arg(design)
            .status()
            .unwrap();
        assert!(st.success());
    };
    let vvp_in = |cwd: &Path, plusarg: Option<String>| {
        let mut c = std::process::Command::new("vvp");
        c.current_dir(cwd).arg("-n").arg(&vvp);
        c.args(plusarg);
        c.output().unwrap()
    };
    compile(&root.join("hdl/jr01_strategy.v"));
    let vectors = format!("+vectors={}", root.join("sim/jr01_strategy.vec").display());
    let out = vvp_in(dir.path(), Some(vectors.clone()));
    assert!(out.status.success() && text(&out.stdout).contains("PASS 8 vectors"));
    // By default the vectors are read from the current folder (a copy of sim/ here, so the
    // checkout gets no waveform).
    let copy = dir.path().join("sim");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(
        root.join("sim/jr01_strategy.vec"),
        copy.join("jr01_strategy.vec"),
    )
    .unwrap();
    let out = vvp_in(&copy, None);
    assert!(out.status.success() && text(&out.stdout).contains("PASS 8 vectors"));
    let out = vvp_in(dir.path(), None);
    assert!(
        !out.status.success(),
        "no vectors here: {}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("ERROR cannot read vectors"));
    // A broken design: y inverted.
    let broken = dir.path().join("broken.v");
    let good = std::fs::read_to_string(root.join("hdl/jr01_strategy.v")).unwrap();
    let line = good
        .lines()
        .find(|l| l.trim_start().starts_with("y = "))
        .unwrap();
    let (indent, rhs) = line.split_once("y = ").unwrap();
    let bad = good.replace(
        line,
        &format!("{indent}y = ~({});", rhs.trim_end_matches(';')),
    );
    std::fs::write(&broken, bad).unwrap();
    compile(&broken);
    let out = vvp_in(dir.path(), Some(vectors));
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("MISMATCH input=000"),
        "{}",
        text(&out.stdout)
    );
}

/// `emit sticks --sim` writes self-checking testbenches for the strategy and the controller;
/// run by hand from another folder they pass, and fail (non-zero exit) on a broken controller.
#[test]
fn emit_sticks_sim_writes_self_checking_testbenches() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_in(
        dir.path(),
        &[
            "emit",
            "sticks",
            "--count",
            "20",
            "--take",
            "1,3,4",
            "--impl",
            "rom",
            "--think-cycles",
            "3",
            "--out",
            "hdl",
            "--sim",
            "sim",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sim = dir.path().join("sim");
    for f in [
        "sticks_strategy_tb.v",
        "sticks_strategy.vec",
        "sticks_strategy_reference.v",
        "sticks_game_check_tb.v",
        "sticks_game.chk",
    ] {
        assert!(sim.join(f).is_file(), "{f}");
    }
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let sh = |script: &str| {
        std::process::Command::new("sh")
            .current_dir(&elsewhere)
            .args(["-c", script])
            .output()
            .unwrap()
    };
    let strategy = sh("iverilog -g2012 -o s.vvp ../sim/sticks_strategy_tb.v ../hdl/sticks_strategy.v && vvp -n s.vvp +vectors=../sim/sticks_strategy.vec");
    assert!(strategy.status.success(), "{}", text(&strategy.stdout));
    assert!(text(&strategy.stdout).contains("PASS 21 vectors"));
    let game = sh("iverilog -g2012 -o g.vvp ../sim/sticks_game_check_tb.v ../hdl/sticks_game.v && vvp -n g.vvp +check=../sim/sticks_game.chk");
    assert!(game.status.success(), "{}", text(&game.stdout));
    assert!(
        text(&game.stdout).contains("PASS "),
        "{}",
        text(&game.stdout)
    );
    // The controller emitted for another think time disagrees with these vectors.
    let other = run_in(
        dir.path(),
        &[
            "emit",
            "sticks",
            "--count",
            "20",
            "--take",
            "1,3,4",
            "--impl",
            "rom",
            "--think-cycles",
            "4",
            "--out",
            "hdl4",
        ],
    );
    assert!(other.status.success(), "{}", text(&other.stderr));
    let wrong = sh("iverilog -g2012 -o w.vvp ../sim/sticks_game_check_tb.v ../hdl4/sticks_game.v && vvp -n w.vvp +check=../sim/sticks_game.chk");
    assert!(!wrong.status.success(), "{}", text(&wrong.stdout));
    assert!(
        text(&wrong.stdout).contains("MISMATCH cycle="),
        "{}",
        text(&wrong.stdout)
    );
}

/// SIGINT or SIGTERM during a real build: retrogate stops its tools (nothing of their process
/// groups survives), removes its `.partial` folder, exits 130 or 143, and the previous build is
/// untouched.
#[test]
fn an_interrupted_build_stops_its_tools_and_keeps_the_previous_output() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "build", "--board", "icestick", "--design", "jr01", "--out", "o",
    ];
    let first = run_in(dir.path(), &args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let before = std::fs::read(dir.path().join("o/jr01_icestick.bin")).unwrap();
    for (signal, code) in [(libc_sigint(), 130), (libc_sigterm(), 143)] {
        let child = crate::retrogate_uncached()
            .env("PATH", std::env::var("PATH").unwrap())
            .current_dir(dir.path())
            .args(args)
            .arg("--force") // unchanged inputs: without it the build reuses its output
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        // Wait for a tool (yosys or nextpnr-ice40) started by retrogate.
        let started = std::time::Instant::now();
        let tool = loop {
            if let Some(t) = children(pid)
                .into_iter()
                .find(|(_, name)| name == "yosys" || name.starts_with("nextpnr"))
            {
                break t;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "no tool started"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let status = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(pid.to_string())
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("interrupted"),
            "{}",
            text(&out.stderr)
        );
        // The tool ran in its own process group (its pid): nothing of it survives.
        std::thread::sleep(std::time::Duration::from_millis(100));
        let survivors = in_group(tool.0);
        assert!(survivors.is_empty(), "{} survived: {survivors:?}", tool.1);
        assert!(!dir.path().join("o.partial").exists());
        assert_eq!(
            std::fs::read(dir.path().join("o/jr01_icestick.bin")).unwrap(),
            before
        );
    }
}

fn libc_sigint() -> i32 {
    2
}

fn libc_sigterm() -> i32 {
    15
}

/// `(pid, command name, parent pid, process group)` of every process, from /proc.
fn processes() -> Vec<(u32, String, u32, u32)> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let name = stat[open + 1..close].to_owned();
        let rest: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let (Some(ppid), Some(pgrp)) = (
            rest.get(1).and_then(|s| s.parse().ok()),
            rest.get(2).and_then(|s| s.parse().ok()),
        ) else {
            continue;
        };
        if rest.first() == Some(&"Z") {
            continue;
        }
        all.push((pid, name, ppid, pgrp));
    }
    all
}

fn children(parent: u32) -> Vec<(u32, String)> {
    processes()
        .into_iter()
        .filter(|p| p.2 == parent)
        .map(|p| (p.0, p.1))
        .collect()
}

fn in_group(group: u32) -> Vec<(u32, String)> {
    processes()
        .into_iter()
        .filter(|p| p.3 == group)
        .map(|p| (p.0, p.1))
        .collect()
}

/// An interrupted `emit sticks` (while yosys sizes the two lookups) removes its
/// `retrogate-emit-<pid>` folder from the temporary directory and writes nothing.
#[test]
fn an_interrupted_emit_removes_its_temporary_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let child = retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("TMPDIR", &tmp)
        .current_dir(dir.path())
        .args([
            "emit", "sticks", "--count", "200", "--take", "1,3,4", "--out", "hdl",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let started = std::time::Instant::now();
    while !children(pid).iter().any(|(_, name)| name == "yosys") {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "no yosys started"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(tmp.join(format!("retrogate-emit-{pid}")).is_dir());
    let status = std::process::Command::new("kill")
        .args(["-2", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "temporary folder left"
    );
    assert!(!dir.path().join("hdl").exists());
}

/// `verify` prints each level's line as soon as the level finishes, also into a pipe: the
/// rust-hdl line arrives while Verilator (level 3) is still building.
#[test]
fn verify_prints_each_level_as_it_finishes() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut child = retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .current_dir(dir.path())
        .args(["verify", "jr01", "--level", "rust-hdl,verilator"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let header = lines.next().unwrap().unwrap();
    assert!(header.starts_with("verify jr01: "), "{header}");
    let first = lines.next().unwrap().unwrap();
    assert!(
        first.starts_with("level 1 (rust-hdl simulation): PASS"),
        "{first}"
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "level 1 was printed only when everything had finished"
    );
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert!(child.wait().unwrap().success());
    assert!(
        rest[0].starts_with("level 3 (Verilog under Verilator): PASS"),
        "{rest:?}"
    );
    assert_eq!(rest.last().unwrap(), "verify jr01: 2 of 2 levels pass");
}
