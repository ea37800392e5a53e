//! Verilator: lint, and build-and-run of a testbench with `--binary`.
//!
//! `--binary` needs Verilator 5.004 or later (Debian bookworm has 5.006);
//! with an older one [`build_binary`] fails with a message saying so.

use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError, ToolOutput};

/// `verilator --lint-only -Wall --top-module <top>` on `sources`. Any
/// warning makes Verilator exit nonzero, which is a [`ToolError::Failed`]
/// whose tail lists the warnings.
pub fn lint(dir: &Path, sources: &[PathBuf], top: &str) -> Result<ToolOutput, ToolError> {
    let mut args: Vec<String> = vec![
        "--lint-only".to_owned(),
        "-Wall".to_owned(),
        "--top-module".to_owned(),
        top.to_owned(),
    ];
    args.extend(sources.iter().map(|s| s.display().to_string()));
    runner::run(
        Tool::Verilator,
        dir,
        &args,
        Some(&format!("{top}.lint.log")),
    )
}

/// Build `sources` with `top` as root into the executable `dir/<name>`
/// (`--binary --trace -Wno-fatal`, objects in `dir/obj_<name>`). `--trace`
/// lets the testbench's `$dumpvars` write a VCD; `-Wno-fatal` keeps lint
/// warnings (left in the log) from stopping a simulation, since [`lint`] is
/// the place to insist on a clean design. `defines` are passed as `-D`.
pub fn build_binary(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<PathBuf, ToolError> {
    let mdir = format!("obj_{name}");
    let mut args: Vec<String> = vec![
        "--binary".to_owned(),
        "--trace".to_owned(),
        "-Wno-fatal".to_owned(),
        "--timescale".to_owned(),
        "1ns/1ps".to_owned(),
        "--top-module".to_owned(),
        top.to_owned(),
        "--Mdir".to_owned(),
        mdir.clone(),
        "-o".to_owned(),
        name.to_owned(),
    ];
    args.extend(defines.iter().map(|d| format!("-D{d}")));
    args.extend(sources.iter().map(|s| s.display().to_string()));
    let out = runner::output(
        Tool::Verilator,
        dir,
        &args,
        Some(&format!("{name}.verilator.log")),
    )?;
    if !out.status.success() && out.stderr.contains("Invalid option: --binary") {
        return Err(
            out.unexpected("this Verilator has no `--binary`; install Verilator 5.004 or later")
        );
    }
    out.check()?.expect_file(dir.join(&mdir).join(name))
}

/// Run an executable built by [`build_binary`] in `dir`. A nonzero exit is
/// a [`ToolError::Failed`].
pub fn run(dir: &Path, exe: &Path, name: &str) -> Result<ToolOutput, ToolError> {
    runner::output_program(
        exe,
        dir,
        std::iter::empty::<&str>(),
        Some(&format!("{name}.run.log")),
    )?
    .check()
}

/// Run an executable built by [`build_binary`] in `dir` with `plusargs`, returning its output
/// whatever its exit status (a self-checking testbench stops with `$fatal` on a failed check).
pub fn execute(
    dir: &Path,
    exe: &Path,
    name: &str,
    plusargs: &[String],
) -> Result<ToolOutput, ToolError> {
    runner::output_program(exe, dir, plusargs, Some(&format!("{name}.run.log")))
}

/// [`build_binary`] then [`run`].
pub fn simulate(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<ToolOutput, ToolError> {
    let exe = build_binary(dir, sources, top, defines, name)?;
    run(dir, &exe, name)
}
