//! The command line as a user sees it: one file per verb, snapshots of stdout, stderr and the
//! exit code (insta-cmd).

mod design;
mod kege;
mod solve;

use std::process::Command;

/// The binary under test, with a clean environment.
pub fn retrogate() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_retrogate"));
    c.env_clear();
    c
}

#[test]
fn top_level_help_lists_the_verbs() {
    insta_cmd::assert_cmd_snapshot!(retrogate().arg("--help"));
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    insta_cmd::assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--sticks", "3"]));
}
