//! The command line as a user sees it: one file per verb, snapshots of stdout, stderr and the
//! exit code (insta-cmd).

mod bad_input;
mod bad_input_files;
mod bitstream;
mod board;
mod boards;
mod build;
mod design;
#[cfg(feature = "external-tools")]
mod dut;
#[cfg(feature = "external-tools")]
mod dut_inputs;
mod examples;
mod kege;
mod minimize;
#[cfg(feature = "external-tools")]
mod paths;
mod play;
mod schematic;
mod solve;
mod trust;
mod verify;
mod wave;
mod workflow;

use std::process::Command;

/// The binary under test, with a clean environment (but for the tool cache `make test` names).
pub fn retrogate() -> Command {
    let mut c = retrogate_uncached();
    c.envs(tool_cache());
    c
}

/// The binary under test, with a clean environment and no tool cache: for tests that watch the
/// tools themselves run (their command lines under `-v`, a signal while one runs).
pub fn retrogate_uncached() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_retrogate"));
    c.env_clear();
    c.envs(tool_log());
    c
}

/// `RETROGATE_TOOL_LOG` as the test runner has it, when set: every tool run appended to one
/// file (src/flow/runner.rs), for a profile of the suite. It changes no result.
pub fn tool_log() -> Option<(&'static str, std::ffi::OsString)> {
    std::env::var_os("RETROGATE_TOOL_LOG").map(|v| ("RETROGATE_TOOL_LOG", v))
}

/// `RETROGATE_TOOL_CACHE` as the test runner has it (`make test` sets it), to pass through a
/// clean environment: results of synthesis, place and route and Verilator builds are shared
/// between tests (src/flow/cache.rs). With it `RETROGATE_TOOL_LOG`, when set, so that a
/// profile of the suite sees the tools the binary runs. Nothing of either when unset.
pub fn tool_cache() -> Vec<(&'static str, std::ffi::OsString)> {
    std::env::var_os("RETROGATE_TOOL_CACHE")
        .map(|v| ("RETROGATE_TOOL_CACHE", v))
        .into_iter()
        .chain(tool_log())
        .collect()
}

#[test]
fn top_level_help_lists_the_verbs() {
    insta_cmd::assert_cmd_snapshot!(retrogate().arg("--help"));
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    insta_cmd::assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--sticks", "3"]));
}

#[test]
fn every_verb_has_an_example_in_its_help() {
    for verb in [
        "solve",
        "kege",
        "table",
        "minimize",
        "emit",
        "verify",
        "play",
        "schematic",
        "wave",
        "boards",
        "board",
        "build",
        "program",
        "report",
        "clean",
    ] {
        let out = retrogate().args([verb, "--help"]).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains("Example"), "`{verb} --help`:\n{help}");
    }
}

/// A solve over a million positions shows progress only on a terminal: piped, stderr stays
/// empty.
#[test]
fn a_large_solve_prints_nothing_on_a_piped_stderr() {
    let out = retrogate()
        .args([
            "solve", "matches", "--count", "600000", "--format", "summary",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("matches (J.R. 01): 600000"));
}
