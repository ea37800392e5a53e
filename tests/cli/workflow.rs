//! The workflow verbs around `build`: `program`, `report`, `clean`, incremental builds and
//! `verify`, `--format json` checked against the key tables of docs/json.md, and `-v`.

use super::retrogate;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `retrogate ARGS` in `dir` with the tools of this machine on PATH.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    retrogate()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// [`run_in`] without the tool cache: `-v` shows every tool's command line.
fn run_uncached_in(dir: &Path, args: &[&str]) -> Output {
    crate::retrogate_uncached()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn report_of_a_folder_without_a_build_names_the_fix() {
    let here = tempfile::tempdir().unwrap();
    std::fs::create_dir(here.path().join("empty")).unwrap();
    let out = run_in(here.path(), &["report", "--out", "empty"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("holds no retrogate build"), "{stderr}");
    assert!(stderr.contains("retrogate build --out"), "{stderr}");
    assert_eq!(stdout, "");
    // The default folder, missing entirely.
    let out = run_in(here.path(), &["program", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out)
        .1
        .contains("build/icebreaker/sticks holds no retrogate build"));
}

#[test]
fn program_dry_run_prints_the_quoted_command_and_a_missing_bin_is_refused() {
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("my top.bin"), [0u8; 8]).unwrap();
    let out = run_in(
        here.path(),
        &["program", "--bin", "my top.bin", "--dry-run"],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(text(&out).0, "iceprog 'my top.bin'\n");
    let out = run_in(here.path(), &["program", "--bin", "none.bin"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("--bin none.bin: no such file"));
    // `--bin` and `--out` name the bitstream two ways: refused.
    let out = run_in(
        here.path(),
        &["program", "--bin", "my top.bin", "--out", "x"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn program_without_iceprog_names_the_package() {
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("top.bin"), [0u8; 8]).unwrap();
    let out = retrogate()
        .env("PATH", "/nonexistent")
        .current_dir(here.path())
        .args(["program", "--bin", "top.bin"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("apt-get install fpga-icestorm"),
        "{:?}",
        text(&out)
    );
}

#[test]
fn clean_removes_what_retrogate_wrote_and_names_what_it_kept() {
    let here = tempfile::tempdir().unwrap();
    // `wave` writes without external tools: two retrogate files in build/pictures.
    let out = run_in(
        here.path(),
        &[
            "wave",
            "sticks",
            "--moves",
            "1",
            "--out",
            "build/pictures/w.svg",
        ],
    );
    assert!(out.status.success(), "{:?}", text(&out));
    std::fs::write(here.path().join("build/pictures/mine.txt"), "keep").unwrap();
    std::fs::write(here.path().join("notes.txt"), "keep").unwrap();
    let out = run_in(here.path(), &["clean"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "removed build/pictures/w.svg\nremoved build/pictures/w.vcd\n\
         kept build/pictures/mine.txt (retrogate did not write it)\n\
         clean build: removed 2 entries, kept 1 entry\n"
    );
    assert!(!here.path().join("build/pictures/w.svg").exists());
    assert_eq!(
        std::fs::read_to_string(here.path().join("build/pictures/mine.txt")).unwrap(),
        "keep"
    );
    assert!(here.path().join("notes.txt").is_file());
    let out = run_in(here.path(), &["clean", "--out", "nothing-here"]);
    assert!(out.status.success());
    assert_eq!(
        text(&out).0,
        "nothing to clean: nothing-here does not exist\n"
    );
    let out = run_in(here.path(), &["clean", "--out", "notes.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(here.path().join("notes.txt").is_file());
}

/// The key paths of a JSON value: `a`, `a.b`, `a[].b`; with the paths of each `null` and each
/// empty array (whose keys cannot be printed).
pub fn key_paths(
    v: &serde_json::Value,
    prefix: &str,
    keys: &mut BTreeSet<String>,
    nulls: &mut Vec<String>,
) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, child) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                keys.insert(path.clone());
                key_paths(child, &path, keys, nulls);
            }
        }
        serde_json::Value::Array(items) if items.is_empty() => nulls.push(prefix.to_string()),
        serde_json::Value::Array(items) => {
            for item in items {
                key_paths(item, &format!("{prefix}[]"), keys, nulls);
            }
        }
        serde_json::Value::Null => nulls.push(prefix.to_string()),
        _ => {}
    }
}

/// The keys docs/json.md lists in the table under the heading `## {section}`.
pub fn documented_keys(section: &str) -> BTreeSet<String> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json.md"))
        .unwrap();
    let body = doc
        .split("\n## ")
        .find(|s| s.starts_with(section))
        .unwrap_or_else(|| panic!("docs/json.md has no section `## {section}`"));
    let keys: BTreeSet<String> = body
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    assert!(keys.len() > 10, "{section}: {keys:?}");
    keys
}

/// Every key printed is documented, and every documented key is printed (unless it sits
/// under a `null`, or an array that is empty here).
pub fn assert_documented(json: &str, section: &str) -> serde_json::Value {
    let value: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let (mut keys, mut nulls) = (BTreeSet::new(), Vec::new());
    key_paths(&value, "", &mut keys, &mut nulls);
    let documented = documented_keys(section);
    let undocumented: Vec<&String> = keys.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "{section}: not in docs/json.md: {undocumented:?}"
    );
    let missing: Vec<&String> = documented
        .difference(&keys)
        .filter(|k| {
            !nulls
                .iter()
                .any(|n| k.starts_with(&format!("{n}.")) || k.starts_with(&format!("{n}[].")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "{section}: documented but not printed: {missing:?}"
    );
    value
}

#[test]
fn documented_key_tables_parse() {
    assert!(documented_keys("build and report").contains("artifacts.bitstream"));
    assert!(documented_keys("verify").contains("levels[].artifacts.dir"));
}

/// The done-when line, as a user types it, then a second build (reused, fast), a
/// forced one, JSON that matches docs/json.md, and `clean`.
#[cfg(feature = "external-tools")]
#[test]
fn build_report_program_dry_run_then_reuse_json_and_clean() {
    let here = tempfile::tempdir().unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_retrogate")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("retrogate build && retrogate report --out build/icebreaker/sticks && retrogate program --dry-run")
        .env_clear()
        .envs(crate::tool_log())
        .env("PATH", &path)
        .current_dir(here.path())
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 9, "{stdout}");
    assert_eq!(
        lines[..4],
        lines[4..8],
        "report reprints the build's report"
    );
    assert!(lines[2].contains("for a 12 MHz clock"), "{stdout}");
    assert_eq!(
        lines[8],
        "iceprog build/icebreaker/sticks/sticks_icebreaker.bin"
    );
    let bin = here
        .path()
        .join("build/icebreaker/sticks/sticks_icebreaker.bin");
    let built = std::fs::metadata(&bin).unwrap().modified().unwrap();

    // Unchanged: no tool runs, the report comes back.
    let out = run_uncached_in(here.path(), &["-v", "build"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.starts_with("up to date: "), "{stdout}");
    assert_eq!(stdout.lines().skip(1).collect::<Vec<_>>(), lines[..4]);
    assert!(
        !stderr.contains("nextpnr-ice40 --up5k"),
        "no place and route: {stderr}"
    );
    assert!(
        stderr.contains("+ yosys -V"),
        "-v shows the version queries: {stderr}"
    );
    assert_eq!(std::fs::metadata(&bin).unwrap().modified().unwrap(), built);

    // Another seed is another build; JSON keys as documented.
    let out = run_uncached_in(
        here.path(),
        &["-v", "build", "--seed", "2", "--format", "json"],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("nextpnr-ice40 --up5k"),
        "-v shows the tools: {stderr}"
    );
    let json = assert_documented(&stdout, "build and report");
    assert_eq!(json["seed"], 2);
    assert_eq!(json["reused"], false);
    assert_eq!(json["game"]["take"], serde_json::json!([1, 2, 3]));
    assert!(Path::new(json["artifacts"]["bitstream"].as_str().unwrap()).is_file());
    let out = run_in(here.path(), &["report", "--format", "json"]);
    let report = assert_documented(&text(&out).0, "build and report");
    assert_eq!(report, json, "report prints what build printed");
    let out = run_in(here.path(), &["build", "--seed", "2", "--force"]);
    assert!(!text(&out).0.contains("up to date"));
    assert_ne!(std::fs::metadata(&bin).unwrap().modified().unwrap(), built);

    std::fs::write(here.path().join("build/icebreaker/sticks/mine.txt"), "keep").unwrap();
    let out = run_in(here.path(), &["clean"]);
    let (stdout, _) = text(&out);
    assert!(out.status.success());
    assert!(
        stdout.contains("kept build/icebreaker/sticks/mine.txt"),
        "{stdout}"
    );
    assert!(!bin.exists());
    assert!(here
        .path()
        .join("build/icebreaker/sticks/mine.txt")
        .is_file());
}

/// A second `verify jr01` in the same work folder reuses the Verilator model; its JSON matches
/// docs/json.md.
#[cfg(feature = "external-tools")]
#[test]
fn verify_reuses_the_verilator_model_and_prints_documented_json() {
    let here = tempfile::tempdir().unwrap();
    let out = run_in(here.path(), &["verify", "jr01"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(!stdout.contains("model reused"), "{stdout}");
    let out = run_in(here.path(), &["verify", "jr01", "--format", "json"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    let json = assert_documented(&stdout, "verify");
    assert_eq!(json["verdict"], "pass");
    assert_eq!(json["ran"], 6);
    let levels = json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 6);
    assert!(
        levels[2]["detail"]
            .as_str()
            .unwrap()
            .contains("model reused"),
        "{}",
        levels[2]
    );
    assert!(levels.iter().all(|l| l["passed"] == true));
    // Change the model's inputs: the model is rebuilt.
    let tb = here
        .path()
        .join("build/verify/jr01/verilator/jr01_strategy_tb.inputs");
    assert!(tb.is_file());
    std::fs::write(&tb, "stale\n").unwrap();
    let out = run_in(here.path(), &["verify", "jr01", "--level", "verilator"]);
    let (stdout, _) = text(&out);
    assert!(out.status.success());
    assert!(!stdout.contains("model reused"), "{stdout}");
}

/// The documented `retrogate verify solver`, as pasted into `sh`: ten levels (four per
/// configuration, the formal check and the netlist equivalence), all passing, the exhaustive
/// configuration's levels counting every position of every game (30 games x 2,080 positions,
/// by hand: 15 take sets, 2 rules, counts 0..63 with count + 1 positions each; 30 games x 64
/// counts = 1,920 solves). The JSON document of the two simulation levels in Rust and under
/// Icarus (the netlist equivalence, the slowest level, runs once: in the pasted run) has the
/// documented keys and counts.
#[cfg(feature = "external-tools")]
#[test]
fn verify_solver_runs_every_level_as_documented() {
    let pasted = crate::examples::run_as_pasted("retrogate verify solver");
    let (stdout, stderr) = text(&pasted.output);
    assert!(pasted.failure.is_none(), "{:?}\n{stdout}", pasted.failure);
    assert!(
        stdout.ends_with("verify solver: 10 of 10 levels pass\n"),
        "{stdout}{stderr}"
    );
    let exhaustive: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("PASS ") && l.contains("[exhaustive]"))
        .collect();
    assert_eq!(exhaustive.len(), 4, "{stdout}");
    for line in exhaustive {
        assert!(line.contains(": 1920 solves, 62400 positions,"), "{line}");
    }
    assert!(
        stdout.contains(
            "sticks_solver level 7 (iCE40 netlist equivalence (yosys equiv_induct)): PASS"
        ),
        "{stdout}"
    );

    let here = tempfile::tempdir().unwrap();
    let out = run_in(
        here.path(),
        &[
            "verify",
            "solver",
            "--level",
            "rust-hdl,icarus",
            "--format",
            "json",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    let json = assert_documented(&stdout, "verify");
    assert_eq!(json["design"], "solver");
    assert_eq!(json["verdict"], "pass");
    // Both levels on the exhaustive configuration, then on the sample of the default size.
    assert_eq!(json["ran"], 4);
    let levels = json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4);
    for (k, level) in levels.iter().enumerate() {
        assert_eq!(level["level"], [1, 2, 1, 2][k], "{level}");
        assert_eq!(level["passed"], true, "{level}");
    }
    for k in [0, 1] {
        assert_eq!(levels[k]["target"], "sticks_solver (exhaustive)");
        assert_eq!(levels[k]["vectors"], 15 * 2 * (64 * 65 / 2));
    }
}
