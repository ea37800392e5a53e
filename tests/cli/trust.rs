//! Trust: retrogate never writes outside its folders or deletes what it did not write, its
//! memory stays bounded, and small bad inputs get a clear error. Each test runs the built
//! binary from a temporary current folder, as a user types the command: a symbolic link or a
//! user's file inside a work folder, a file name holding a newline, `clean` of `/` and of a
//! checkout, a full disk (`ulimit -f`), a leftover temporary file, a folder another run holds,
//! two builds at once, a take of 10,000 under `ulimit -v`, a folder on stdin.

use super::retrogate;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn run_in(dir: &Path, args: &[&str]) -> Output {
    cmd_in(dir).args(args).output().unwrap()
}

fn cmd_in(dir: &Path) -> Command {
    let mut c = retrogate();
    c.env("PATH", std::env::var("PATH").unwrap())
        .current_dir(dir)
        .stdin(Stdio::null());
    c
}

/// `sh -c SCRIPT` in `dir`, with `$R` the binary under test.
fn sh_in(dir: &Path, script: &str) -> Output {
    Command::new("sh")
        .args(["-c", script])
        .env_clear()
        .envs(crate::tool_log())
        .env("PATH", std::env::var("PATH").unwrap())
        .env("R", env!("CARGO_BIN_EXE_retrogate"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every entry below `root` (links as links, never followed), with each file's bytes and each
/// link's target.
fn tree(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut all = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("link to {}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path);
                "folder".to_owned()
            } else {
                String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
            };
            all.insert(rel, what);
        }
    }
    all
}

/// Asserts exit 2 with every one of `names` on stderr; returns stderr.
fn refused(out: &Output, names: &[&str]) -> String {
    let (stdout, stderr) = text(out);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    for name in names {
        assert!(
            stderr.contains(name),
            "stderr does not name `{name}`: {stderr}"
        );
    }
    stderr
}

/// A file name holding a newline would have been two manifest lines, the second naming the
/// user's file; it is refused (exit 2, naming --out), nothing is written, and a later `clean`
/// of the folder leaves the user's file alone.
#[test]
fn a_file_name_with_a_newline_is_refused_and_cannot_forge_a_manifest_line() {
    use std::os::unix::ffi::OsStrExt;
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("mine.txt"), "keep").unwrap();
    let before = tree(here.path());
    for name in [
        std::ffi::OsStr::new("mine.txt\nw.svg"),
        std::ffi::OsStr::from_bytes(b"w\xff.svg"),
    ] {
        let out = cmd_in(here.path())
            .args(["wave", "sticks", "--moves", "1", "--out"])
            .arg(name)
            .output()
            .unwrap();
        let stderr = refused(&out, &["--out", "the file name"]);
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert_eq!(tree(here.path()), before, "nothing written");
    }
    // A picture written there gives the folder a manifest; clean removes just that.
    let out = run_in(
        here.path(),
        &["wave", "sticks", "--moves", "1", "--out", "w.svg"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    let out = run_in(here.path(), &["clean", "--out", "."]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(
        text(&out).0,
        "removed ./w.svg\nremoved ./w.vcd\nkept ./mine.txt (retrogate did not write it)\n\
         clean .: removed 2 entries, kept 1 entry\n"
    );
    assert_eq!(tree(here.path()), before);
}

/// `clean --out /` is refused at once without walking anything; in a checkout (no manifest at
/// its top, committed `hdl/` and `docs/` with theirs) `clean --out .` is refused and removes
/// nothing; the committed folders go only when named.
#[test]
fn clean_refuses_the_root_and_a_checkout() {
    let here = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = run_in(here.path(), &["clean", "--out", "/"]);
    refused(&out, &["--out /", "file-system root"]);
    assert!(started.elapsed().as_secs() < 5, "nothing walked");
    let checkout = here.path();
    std::fs::create_dir(checkout.join(".git")).unwrap();
    std::fs::write(checkout.join("Cargo.toml"), "[package]\n").unwrap();
    let out = run_in(checkout, &["emit", "jr01", "--out", "hdl"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = run_in(
        checkout,
        &["wave", "sticks", "--moves", "1", "--out", "docs/w.svg"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    std::fs::write(checkout.join("docs/notes.md"), "mine").unwrap();
    let before = tree(checkout);
    let out = run_in(checkout, &["clean", "--out", "."]);
    refused(&out, &["--out .", "retrogate did not write this folder"]);
    assert_eq!(tree(checkout), before, "nothing removed");
    let out = run_in(checkout, &["clean"]);
    assert!(out.status.success());
    assert_eq!(text(&out).0, "nothing to clean: build does not exist\n");
    let out = run_in(checkout, &["clean", "--out", "docs"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(!checkout.join("docs/w.svg").exists());
    assert_eq!(
        std::fs::read_to_string(checkout.join("docs/notes.md")).unwrap(),
        "mine"
    );
    assert!(checkout.join("hdl/jr01_strategy.v").is_file());
}

/// A full disk (here: a file size limit, `ulimit -f`, with SIGXFSZ ignored so that writes fail
/// with an error) fails the write with exit 1 and leaves no temporary file, no manifest and no
/// new folder behind; the next run writes normally.
#[test]
fn a_failed_write_leaves_no_temporary_files() {
    let here = tempfile::tempdir().unwrap();
    let out = sh_in(
        here.path(),
        "ulimit -f 4; trap '' XFSZ; exec \"$R\" wave sticks --moves 1,3 --out pics/w.svg",
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("cannot write"), "{stderr}");
    assert_eq!(tree(here.path()), BTreeMap::new(), "nothing left");
    // In a folder retrogate wrote before: its files and manifest stay as they were.
    let out = run_in(
        here.path(),
        &["wave", "sticks", "--moves", "1", "--out", "w.svg"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    let before = tree(here.path());
    let out = sh_in(
        here.path(),
        "ulimit -f 4; trap '' XFSZ; exec \"$R\" wave sticks --moves 1,3 --out w.svg",
    );
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    assert_eq!(tree(here.path()), before);
}

/// `.NAME.tmp-PID` files a dead run left next to a name retrogate lists are its own: they do
/// not make the folder foreign, and the next write removes them.
#[test]
fn temporary_files_of_a_dead_run_are_retrogates_own() {
    let here = tempfile::tempdir().unwrap();
    let out = run_in(here.path(), &["emit", "jr01", "--out", "hdl"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let dead = i32::MAX; // above any process id Linux gives
    let leftovers = [
        format!("hdl/.jr01_strategy.v.tmp-{dead}"),
        format!("hdl/..retrogate-manifest.tmp-{dead}"),
    ];
    for l in &leftovers {
        std::fs::write(here.path().join(l), "half").unwrap();
    }
    let out = run_in(here.path(), &["emit", "jr01", "--out", "hdl"]);
    assert!(out.status.success(), "{:?}", text(&out));
    for l in &leftovers {
        assert!(!here.path().join(l).exists(), "{l} removed");
    }
    // Next to a name retrogate never wrote, the same pattern is the user's.
    std::fs::write(
        here.path().join(format!("hdl/.notes.txt.tmp-{dead}")),
        "mine",
    )
    .unwrap();
    let out = run_in(here.path(), &["emit", "jr01", "--out", "hdl"]);
    refused(&out, &[".notes.txt.tmp-"]);
}

/// A folder another process holds (its lock file locked, naming it) is refused with exit 2
/// naming that process, and nothing is written; a lock file whose process is gone is taken
/// over, and removed when the run ends.
#[test]
fn a_folder_in_use_is_refused_and_a_stale_lock_is_taken_over() {
    use std::io::Write;
    let here = tempfile::tempdir().unwrap();
    let hdl = here.path().join("hdl");
    std::fs::create_dir(&hdl).unwrap();
    let lock = hdl.join(".retrogate-lock");
    let mut held = std::fs::File::create(&lock).unwrap();
    held.try_lock().unwrap();
    writeln!(held, "{}", std::process::id()).unwrap();
    let before = tree(here.path());
    let out = run_in(here.path(), &["emit", "jr01", "--out", "hdl"]);
    refused(
        &out,
        &[&format!(
            "hdl is in use by retrogate process {}",
            std::process::id()
        )],
    );
    assert_eq!(tree(here.path()), before);
    drop(held);
    std::fs::write(&lock, format!("{}\n", i32::MAX)).unwrap();
    let out = run_in(here.path(), &["emit", "jr01", "--out", "hdl"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(hdl.join("jr01_strategy.v").is_file());
    assert!(!lock.exists(), "the lock file goes with the run");
}

/// A `.partial` folder of an earlier build that also holds a file of the user's is refused
/// (exit 2, naming the file) before any tool runs, and nothing in it is deleted.
#[test]
fn a_users_file_in_a_partial_folder_is_refused_and_kept() {
    let here = tempfile::tempdir().unwrap();
    let partial = here.path().join("o.partial");
    std::fs::create_dir(&partial).unwrap();
    std::fs::write(
        partial.join(".retrogate-manifest"),
        "# A scratch folder of retrogate: its files move into the output folder when done.\n\
         jr01_icebreaker_pnr.log\n",
    )
    .unwrap();
    std::fs::write(partial.join("jr01_icebreaker_pnr.log"), "log").unwrap();
    std::fs::write(partial.join("mine.txt"), "mine").unwrap();
    let before = tree(here.path());
    let out = cmd_in(here.path())
        .env("PATH", "/nonexistent") // no tool may run
        .args(["build", "--design", "jr01", "--out", "o"])
        .output()
        .unwrap();
    refused(
        &out,
        &["--out", "o.partial/mine.txt", "not written by retrogate"],
    );
    assert_eq!(tree(here.path()), before);
}

/// The period search keeps 8 bytes a position, whatever the largest take: a take of 10,000
/// (a 21-position game) answers at once under a 1 GB address-space limit, and agrees with the
/// full solve; takes near 100,000 answer or refuse cleanly, never abort.
#[test]
fn a_take_of_ten_thousand_answers_in_bounded_memory() {
    let here = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = sh_in(
        here.path(),
        "ulimit -v 1000000; exec \"$R\" solve sticks --count 20 --take 10000 --format summary",
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    // The independent answer: the dense solver, game by game (count n's start is position n;
    // position 0 is reachable from 10000 sticks).
    let dense = |count: u64| -> serde_json::Value {
        let out = run_in(
            here.path(),
            &[
                "solve",
                "sticks",
                "--count",
                &count.to_string(),
                "--take",
                "10000",
                "--format",
                "json",
            ],
        );
        assert!(out.status.success(), "{:?}", text(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["positions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["position"] == if count == 10000 { 0 } else { count })
            .unwrap()
            .clone()
    };
    let values: Vec<serde_json::Value> = [10000].into_iter().chain(1..=20).map(dense).collect();
    let losses = values.iter().filter(|p| p["outcome"] == "loss").count();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[1],
        format!("positions: 21 ({} win, {losses} loss, 0 draw)", 21 - losses)
    );
    let start = &values[20];
    assert_eq!(
        lines[2],
        format!(
            "start 20: {} in {}, -",
            start["outcome"].as_str().unwrap(),
            start["depth"]
        )
    );
    assert!(lines[3].starts_with("period: "), "{}", &lines[3][..40]);

    let out = sh_in(
        here.path(),
        "ulimit -v 1000000; exec \"$R\" solve sticks --count 100000 --take 99991,99989,99971 \
         --format summary",
    );
    let (stdout, stderr) = text(&out);
    match out.status.code() {
        Some(0) => assert!(
            stdout.starts_with("sticks: 100000 sticks, take 99971,99989,99991"),
            "{stdout}"
        ),
        Some(2) => assert!(stderr.contains("not enough memory"), "{stderr}"),
        other => panic!("exit {other:?}: {stderr}"),
    }
}

/// A read error on stdin (here stdin is a folder) is an error (exit 2, saying so), not the end
/// of the game's input.
#[test]
fn play_with_a_folder_on_stdin_is_an_error() {
    let here = tempfile::tempdir().unwrap();
    let out = cmd_in(here.path())
        .args(["play", "sticks"])
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    let stderr = refused(
        &out,
        &["cannot read the moves from stdin", "Is a directory"],
    );
    assert!(!text(&out).0.contains("end of input"), "{stderr}");
}

/// `program --dry-run` prints a command only when the bitstream it names is there: a build
/// folder whose bitstream was removed is an error naming the file and how to make it again.
#[test]
fn program_dry_run_needs_the_bitstream() {
    let here = tempfile::tempdir().unwrap();
    let dir = here.path().join("o");
    std::fs::create_dir(&dir).unwrap();
    let record = retrogate::build::record::BuildJson {
        kind: "build".into(),
        board: "icestick".into(),
        design: "jr01".into(),
        description: "jr01".into(),
        game: None,
        module: "jr01_icestick".into(),
        cells: retrogate::build::Utilisation {
            used: 10,
            available: 1280,
        },
        luts: 3,
        ffs: 0,
        brams: retrogate::build::Utilisation {
            used: 0,
            available: 16,
        },
        fmax_mhz: 100.0,
        clock_mhz: 12.0,
        margin: 8.3,
        seed: 1,
        tools: Default::default(),
        steps: Vec::new(),
        seconds: 1.0,
        warnings: Vec::new(),
        artifacts: retrogate::build::record::Artifacts {
            dir: ".".into(),
            verilog: "jr01_icestick.v".into(),
            pcf: "jr01_icestick.pcf".into(),
            netlist: "jr01_icestick.json".into(),
            bitstream: "jr01_icestick.bin".into(),
            logs: Vec::new(),
        },
        reused: false,
        inputs: "0".repeat(64),
    };
    std::fs::write(
        dir.join("retrogate-build.json"),
        serde_json::to_string_pretty(&record).unwrap(),
    )
    .unwrap();
    let out = run_in(here.path(), &["program", "--out", "o", "--dry-run"]);
    refused(
        &out,
        &[
            "jr01_icestick.bin is missing",
            "retrogate build --force",
            "--bin FILE",
        ],
    );
    std::fs::write(dir.join("jr01_icestick.bin"), [0u8; 8]).unwrap();
    let out = run_in(here.path(), &["program", "--out", "o", "--dry-run"]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(text(&out).0, "iceprog o/jr01_icestick.bin\n");
}

#[cfg(feature = "external-tools")]
mod with_tools {
    use super::*;

    /// After the first `verify`, a file of its work folder replaced by a link to the user's
    /// file, or a whole subfolder replaced by a link to the user's folder, or a user's file
    /// dropped in it, makes the second run refuse (exit 2, naming it) without writing through
    /// the link; `clean` keeps the links and the user's file, and says so.
    #[test]
    fn verify_never_writes_through_a_link_in_its_work_folder() {
        let here = tempfile::tempdir().unwrap();
        let mine = here.path().join("mine");
        std::fs::create_dir(&mine).unwrap();
        std::fs::write(mine.join("precious.v"), "mine").unwrap();
        let verify = ["verify", "jr01", "--level", "icarus", "--work", "w"];
        let out = run_in(here.path(), &verify);
        assert!(out.status.success(), "{:?}", text(&out));
        let icarus = here.path().join("w/jr01/icarus");
        let file = std::fs::read_dir(&icarus)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "v"))
            .unwrap();
        let out = run_in(here.path(), &verify);
        assert!(
            out.status.success(),
            "its own folder again: {:?}",
            text(&out)
        );

        let user = tree(&mine);
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(mine.join("precious.v"), &file).unwrap();
        let out = run_in(here.path(), &verify);
        refused(
            &out,
            &["--work", &file.display().to_string(), "is a symbolic link"],
        );
        assert_eq!(tree(&mine), user);

        std::fs::remove_dir_all(&icarus).unwrap();
        std::os::unix::fs::symlink(&mine, &icarus).unwrap();
        let out = run_in(here.path(), &verify);
        refused(&out, &["w/jr01/icarus", "is a symbolic link"]);
        assert_eq!(tree(&mine), user, "nothing written into the linked folder");

        let out = run_in(here.path(), &["clean", "--out", "w"]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(
            stdout.contains(
                "kept w/jr01/icarus (a symbolic link: clean never follows or removes links)"
            ),
            "{stdout}"
        );
        assert_eq!(tree(&mine), user);
        assert!(std::fs::symlink_metadata(&icarus)
            .unwrap()
            .file_type()
            .is_symlink());

        // A user's file in a design subfolder: refused, then kept by clean.
        std::fs::remove_file(&icarus).unwrap();
        let out = run_in(here.path(), &verify);
        assert!(out.status.success(), "{:?}", text(&out));
        std::fs::write(icarus.join("notes.txt"), "mine").unwrap();
        let out = run_in(here.path(), &verify);
        refused(
            &out,
            &["w/jr01/icarus/notes.txt", "not written by retrogate"],
        );
        let out = run_in(here.path(), &["clean", "--out", "w"]);
        assert!(text(&out)
            .0
            .contains("kept w/jr01/icarus/notes.txt (retrogate did not write it)"));
        assert_eq!(
            std::fs::read_to_string(icarus.join("notes.txt")).unwrap(),
            "mine"
        );
    }

    /// Two `build --out o` at once: the second is refused at once (exit 2, naming the first
    /// one's process) and writes nothing; the first finishes, and `o` holds its files only.
    #[test]
    fn a_second_build_into_the_same_folder_is_refused_while_the_first_runs() {
        let here = tempfile::tempdir().unwrap();
        let args = [
            "build", "--board", "icestick", "--design", "jr01", "--out", "o",
        ];
        let first = cmd_in(here.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lock = here.path().join("o.partial/.retrogate-lock");
        let started = std::time::Instant::now();
        // The lock is taken, and names its process.
        while std::fs::read_to_string(&lock).map_or(true, |t| !t.ends_with('\n')) {
            assert!(
                started.elapsed().as_secs() < 60,
                "the first build never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let second = run_in(here.path(), &args);
        let first_pid = first.id();
        let first = first.wait_with_output().unwrap();
        assert!(first.status.success(), "{:?}", text(&first));
        refused(
            &second,
            &[&format!(
                "o.partial is in use by retrogate process {first_pid}"
            )],
        );
        let names: Vec<String> = std::fs::read_dir(here.path().join("o"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let listed = std::fs::read_to_string(here.path().join("o/.retrogate-manifest")).unwrap();
        for name in &names {
            assert!(
                name == ".retrogate-manifest" || listed.lines().any(|l| l == name),
                "{name} is not the first build's: {names:?}"
            );
        }
        assert!(names.contains(&"jr01_icestick.bin".to_owned()), "{names:?}");
        assert!(!here.path().join("o.partial").exists());
        // The folder is free again: a third build reuses the first one's.
        let third = run_in(here.path(), &args);
        assert!(
            text(&third).0.starts_with("up to date"),
            "{:?}",
            text(&third)
        );
    }
}
