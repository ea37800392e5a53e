//! Bad input around files and folders: each case runs the binary in a fresh temporary
//! directory, and asserts exit code 2, a message naming the flag or value, and a file system
//! left exactly as it was (every file and its bytes, snapshotted before and after).
//!
//! None of these needs an external tool: every refusal happens before any tool runs.

use super::retrogate;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file and folder below `root`, with each file's bytes (`None` for a folder).
fn tree(root: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            if path.is_dir() {
                all.insert(rel, None);
                stack.push(path);
            } else {
                all.insert(rel, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    all
}

/// A scratch folder prepared by `setup` (paths relative to it).
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new(setup: &[(&str, Option<&str>)]) -> Case {
        let dir = tempfile::tempdir().unwrap();
        for (path, contents) in setup {
            let path = dir.path().join(path);
            match contents {
                Some(text) => {
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    std::fs::write(&path, text).unwrap();
                }
                None => std::fs::create_dir_all(&path).unwrap(),
            }
        }
        Case { dir }
    }

    /// Runs `args` in the folder (in `sub` of it, when given) and asserts exit code 2, that
    /// stderr names every one of `names`, and that nothing changed (also in the parent of the
    /// folder, for `.partial` siblings).
    fn refused(&self, sub: &str, args: &[&str], names: &[&str]) -> String {
        let parent = self.dir.path().parent().unwrap();
        let siblings = |p: &Path| -> Vec<PathBuf> {
            let stem = self
                .dir
                .path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            std::fs::read_dir(p)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().unwrap().to_string_lossy();
                    n.starts_with(&stem) && n != stem.as_str()
                })
                .collect()
        };
        let before = tree(self.dir.path());
        let before_siblings = siblings(parent);
        let out = retrogate()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .current_dir(self.dir.path().join(sub))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(
            out.status.code(),
            Some(2),
            "retrogate {}\nstdout: {}\nstderr: {stderr}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout)
        );
        for name in names {
            assert!(
                stderr.contains(name),
                "retrogate {}: stderr does not name {name}:\n{stderr}",
                args.join(" ")
            );
        }
        assert_eq!(
            tree(self.dir.path()),
            before,
            "retrogate {} changed the files",
            args.join(" ")
        );
        assert_eq!(
            siblings(parent),
            before_siblings,
            "a sibling folder appeared"
        );
        stderr
    }
}

#[test]
fn build_into_a_folder_with_a_foreign_file_is_refused_and_the_file_kept() {
    // The issue's own case: `echo keep > mine.txt && retrogate build --design jr01 --out .`
    let case = Case::new(&[("mine.txt", Some("keep\n"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "."],
        &["--out", "mine.txt", "not written by retrogate"],
    );
    let case = Case::new(&[("o/mine.txt", Some("keep\n"))]);
    case.refused("", &["build", "--out", "o"], &["--out", "mine.txt"]);
}

#[test]
fn build_default_out_with_a_foreign_file_is_refused() {
    let case = Case::new(&[("build/icebreaker/sticks/notes.md", Some("mine"))]);
    case.refused("", &["build"], &["--out", "notes.md"]);
}

#[test]
fn build_out_naming_a_file_is_refused_before_any_work() {
    let case = Case::new(&[("out.bin", Some("data"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "out.bin"],
        &["--out", "out.bin", "is a file"],
    );
    let case = Case::new(&[("a", Some("data"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "a/b"],
        &["--out", "is a file"],
    );
}

#[test]
fn build_never_deletes_a_partial_or_old_folder_it_did_not_make() {
    let case = Case::new(&[("o.partial/keep.txt", Some("mine"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "o"],
        &["--out", "o.partial"],
    );
    let case = Case::new(&[("o.partial", Some("a file"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "o"],
        &["o.partial"],
    );
    let case = Case::new(&[("o.old/keep.txt", Some("mine")), ("o/mine.txt", Some("x"))]);
    case.refused(
        "",
        &["build", "--design", "jr01", "--out", "o"],
        &["mine.txt"],
    );
}

#[test]
fn build_a_game_too_large_leaves_no_partial_folder() {
    let case = Case::new(&[]);
    case.refused(
        "",
        &["build", "--count", "256", "--out", "o9"],
        &["256 sticks", "--count 255"],
    );
}

#[test]
fn build_refuses_sticks_flags_with_the_jr01_design() {
    let case = Case::new(&[]);
    for (flag, value) in [("--count", "20"), ("--take", "1,3"), ("--last", "wins")] {
        let stderr = case.refused(
            "",
            &["build", "--design", "jr01", flag, value],
            &[
                &format!("`{flag}` is a sticks option"),
                "the jr01 design has a fixed table",
            ],
        );
        assert!(stderr.contains("--design sticks"), "{stderr}");
    }
}

/// The solver design's game is set on the board: the build-time game flags are refused.
#[test]
fn build_refuses_sticks_flags_with_the_solver_design() {
    let case = Case::new(&[]);
    for (flag, value) in [("--count", "20"), ("--take", "1,3"), ("--last", "wins")] {
        let stderr = case.refused(
            "",
            &["build", "--design", "solver", flag, value],
            &[
                &format!("`{flag}` is a sticks option"),
                "the solver design's game is set on the board",
            ],
        );
        assert!(stderr.contains("--design sticks"), "{stderr}");
    }
}

#[test]
fn emit_with_a_sim_folder_that_is_a_file_writes_nothing() {
    // The case: `emit jr01 --out D --sim <a file>` left an empty D.
    let case = Case::new(&[("tb", Some("not a folder"))]);
    case.refused(
        "",
        &["emit", "jr01", "--out", "D", "--sim", "tb"],
        &["--sim", "is a file"],
    );
    case.refused(
        "",
        &["emit", "jr01", "--out", "D", "--constraints", "tb"],
        &["--constraints", "is a file"],
    );
    case.refused(
        "",
        &["emit", "jr01", "--out", "tb"],
        &["--out", "is a file"],
    );
    case.refused(
        "",
        &[
            "emit", "sticks", "--impl", "logic", "--out", "D", "--sim", "tb",
        ],
        &["--sim", "is a file"],
    );
}

#[test]
fn emit_into_a_folder_with_foreign_files_is_refused() {
    let case = Case::new(&[
        ("src/main.rs", Some("fn main() {}")),
        ("sim/notes.txt", Some("x")),
    ]);
    case.refused("", &["emit", "jr01", "--out", "src"], &["--out", "main.rs"]);
    case.refused(
        "",
        &["emit", "jr01", "--out", "hdl", "--sim", "sim"],
        &["--sim", "notes.txt"],
    );
    case.refused(
        "",
        &[
            "emit",
            "sticks",
            "--impl",
            "rom",
            "--out",
            "hdl",
            "--constraints",
            "src",
        ],
        &["--constraints", "main.rs"],
    );
    // A file of the same name as one retrogate writes, but not listed: kept.
    let case = Case::new(&[("hdl/jr01_strategy.v", Some("// my own"))]);
    case.refused(
        "",
        &["emit", "jr01", "--out", "hdl"],
        &["--out", "jr01_strategy.v"],
    );
}

#[test]
fn emit_refuses_bad_games_and_think_cycles_before_writing() {
    let case = Case::new(&[]);
    case.refused(
        "",
        &[
            "emit", "sticks", "--count", "300", "--out", "D", "--sim", "S",
        ],
        &["300"],
    );
    case.refused(
        "",
        &["emit", "sticks", "--take", "0", "--out", "D"],
        &["take"],
    );
}

#[test]
fn wave_refuses_before_writing_when_the_vcd_path_is_a_folder() {
    // The case: `wave --out w.svg` when `w.vcd` is a folder wrote w.svg, then failed.
    let case = Case::new(&[("w.vcd", None)]);
    case.refused(
        "",
        &["wave", "sticks", "--moves", "1", "--out", "w.svg"],
        &["w.vcd", "is a folder"],
    );
    let case = Case::new(&[("w.svg", None)]);
    case.refused(
        "",
        &["wave", "sticks", "--moves", "1", "--out", "w.svg"],
        &["--out", "is a folder"],
    );
}

#[test]
fn wave_and_schematic_never_overwrite_a_file_they_did_not_write() {
    let case = Case::new(&[("game.svg", Some("<svg>mine</svg>"))]);
    case.refused(
        "",
        &["wave", "sticks", "--moves", "1", "--out", "game.svg"],
        &["--out", "game.svg", "not written by retrogate"],
    );
    let case = Case::new(&[("game.vcd", Some("mine"))]);
    case.refused(
        "",
        &["wave", "sticks", "--moves", "1", "--out", "game.svg"],
        &["game.vcd"],
    );
    let case = Case::new(&[("game.gtkw", Some("mine"))]);
    case.refused(
        "",
        &[
            "wave", "sticks", "--moves", "1", "--out", "game.svg", "--gtkw",
        ],
        &["--gtkw", "game.gtkw"],
    );
    let case = Case::new(&[("wave-sticks.svg", Some("mine"))]);
    case.refused(
        "",
        &["wave", "sticks", "--moves", "1"],
        &["wave-sticks.svg"],
    );
    let case = Case::new(&[("schematic-jr01.svg", Some("mine"))]);
    case.refused("", &["schematic", "jr01"], &["--out", "schematic-jr01.svg"]);
    let case = Case::new(&[("docs/pic.svg", Some("mine"))]);
    case.refused(
        "docs",
        &["schematic", "jr01", "--out", "pic.svg"],
        &["pic.svg"],
    );
}

#[test]
fn schematic_refuses_a_work_folder_that_is_not_its_own() {
    let case = Case::new(&[("w", Some("a file"))]);
    case.refused(
        "",
        &["schematic", "jr01", "--work", "w"],
        &["--work", "is a file"],
    );
    let case = Case::new(&[("build/schematic/mine.txt", Some("x"))]);
    case.refused("", &["schematic", "jr01"], &["--work", "mine.txt"]);
}

#[test]
fn schematic_refuses_the_think_cycles_it_would_ignore() {
    let case = Case::new(&[]);
    case.refused(
        "",
        &["schematic", "sticks", "--think-cycles", "5"],
        &["--think-cycles"],
    );
}

#[test]
fn verify_refuses_a_work_folder_that_is_not_its_own() {
    let case = Case::new(&[("w", Some("a file"))]);
    case.refused(
        "",
        &["verify", "jr01", "--work", "w"],
        &["--work", "is a file"],
    );
    let case = Case::new(&[("build/verify/results.txt", Some("mine"))]);
    case.refused("", &["verify", "jr01"], &["--work", "results.txt"]);
    case.refused("", &["verify", "sticks"], &["results.txt"]);
}

#[test]
fn verify_refuses_bad_levels_and_games_before_writing() {
    let case = Case::new(&[]);
    case.refused(
        "",
        &["verify", "jr01", "--level", "gates"],
        &["--level", "gates"],
    );
    case.refused("", &["verify", "sticks", "--count", "300"], &["300"]);
    case.refused(
        "",
        &["verify", "sticks", "--think-cycles", "6000000"],
        &["--think-cycles 6000000", "at most 1000"],
    );
}
