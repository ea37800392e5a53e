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
/// When `dir` holds a model built from the same inputs, it is reused (see
/// [`build_model`]).
pub fn build_binary(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<PathBuf, ToolError> {
    build_model(dir, sources, top, defines, name).map(|m| m.exe)
}

/// A simulator built by [`build_model`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The executable.
    pub exe: PathBuf,
    /// True when the model of an earlier run was reused (its inputs are unchanged).
    pub reused: bool,
}

/// [`build_binary`], saying whether the model was reused. The SHA-256 of the inputs (the
/// Verilator version line, the arguments and every source's contents) is kept in
/// `dir/<name>.inputs` next to the model; a later call with the same inputs and the executable
/// still there skips Verilator and the C++ compiler.
pub fn build_model(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<Model, ToolError> {
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
    let exe = dir.join(&mdir).join(name);
    let stamp = dir.join(format!("{name}.inputs"));
    let inputs = inputs_hash(dir, &args, sources)?;
    if exe.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == inputs) {
        if runner::verbose() {
            eprintln!(
                "+ # reusing {} (its Verilator inputs are unchanged)",
                exe.display()
            );
        }
        return Ok(Model { exe, reused: true });
    }
    // A stale stamp must not survive a failed build.
    let _ = std::fs::remove_file(&stamp);
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
    let exe = out.check()?.expect_file(exe)?;
    runner::write_file(
        Tool::Verilator,
        dir,
        &format!("{name}.inputs"),
        &format!("{inputs}\n"),
    )?;
    Ok(Model { exe, reused: false })
}

/// SHA-256 of a model's inputs: `verilator --version`, the arguments, each source's contents.
fn inputs_hash(dir: &Path, args: &[String], sources: &[PathBuf]) -> Result<String, ToolError> {
    let version = runner::run(Tool::Verilator, dir, ["--version"], None)?.stdout;
    let mut parts: Vec<Vec<u8>> = vec![version.into_bytes(), args.join("\0").into_bytes()];
    for source in sources {
        let path = dir.join(source);
        let text = std::fs::read(&path).map_err(|e| {
            ToolError::io(
                Tool::Verilator,
                format!("reading {}", path.display()),
                dir,
                e,
            )
        })?;
        parts.push(text);
    }
    Ok(super::hash_parts(parts.iter().map(Vec::as_slice)))
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
