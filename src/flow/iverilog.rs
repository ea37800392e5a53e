//! Icarus Verilog: compile with `iverilog -g2012`, run with `vvp`.
//!
//! Both run inside their work folder and name the files there relative to it (a file elsewhere,
//! such as yosys's cell models, by its path), so the folder's own path (spaces, non-ASCII
//! letters, quotes) never reaches Icarus, whose `$fopen` of a plusarg path fails on non-ASCII
//! bytes. A run of a testbench can be bounded by its length ([`execute_limited`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::runner::{self, Options, SimulationLimit, Tool, ToolError, ToolOutput};

/// `path` as a program run in `dir` is given it: relative to `dir` when it lies inside it,
/// else as it is.
pub(crate) fn relative_to(dir: &Path, path: &Path) -> OsString {
    path.strip_prefix(dir)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .as_os_str()
        .to_owned()
}

/// Compile `sources` into `dir/<name>.vvp` with `iverilog -g2012`.
/// `top` selects the root module (`-s`), `defines` are passed as `-D`.
pub fn compile(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<PathBuf, ToolError> {
    let output = format!("{name}.vvp");
    let mut args: Vec<OsString> = vec![
        "-g2012".into(),
        "-o".into(),
        output.clone().into(),
        "-s".into(),
        top.into(),
    ];
    args.extend(defines.iter().map(|d| format!("-D{d}").into()));
    args.extend(sources.iter().map(|s| relative_to(dir, s)));
    runner::run(
        Tool::Iverilog,
        dir,
        &args,
        Some(&format!("{name}.iverilog.log")),
    )?;
    Ok(dir.join(output))
}

/// Run a compiled simulation with `vvp -n` (so `$stop` cannot wait for
/// input) in `dir`. A nonzero exit is a [`ToolError::Failed`].
pub fn run(dir: &Path, vvp_file: &Path, name: &str) -> Result<ToolOutput, ToolError> {
    runner::run(
        Tool::Vvp,
        dir,
        ["-n".into(), relative_to(dir, vvp_file)],
        Some(&format!("{name}.vvp.log")),
    )
}

/// Run a compiled simulation with `vvp -n <vvp_file> <plusargs...>` in `dir` and return its
/// output whatever its exit status (a self-checking testbench exits nonzero on a failed check;
/// the caller reads the verdict and the status).
pub fn execute(
    dir: &Path,
    vvp_file: &Path,
    name: &str,
    plusargs: &[String],
) -> Result<ToolOutput, ToolError> {
    execute_with(dir, vvp_file, name, plusargs, Options::default())
}

/// [`execute`] within `limit` (a time limit from the simulation's length): a run that does not
/// finish in time is a [`ToolError::SimulationTimedOut`].
pub fn execute_limited(
    dir: &Path,
    vvp_file: &Path,
    name: &str,
    plusargs: &[String],
    limit: SimulationLimit,
) -> Result<ToolOutput, ToolError> {
    let options = Options {
        simulation: Some(limit),
        ..Options::default()
    };
    execute_with(dir, vvp_file, name, plusargs, options)
}

fn execute_with(
    dir: &Path,
    vvp_file: &Path,
    name: &str,
    plusargs: &[String],
    options: Options<'_>,
) -> Result<ToolOutput, ToolError> {
    let mut args = vec![OsString::from("-n"), relative_to(dir, vvp_file)];
    args.extend(plusargs.iter().map(OsString::from));
    runner::output_with(
        Tool::Vvp,
        dir,
        args,
        Some(&format!("{name}.vvp.log")),
        options,
    )
}

/// [`compile`] then [`run`].
pub fn simulate(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<ToolOutput, ToolError> {
    let vvp = compile(dir, sources, top, defines, name)?;
    run(dir, &vvp, name)
}
