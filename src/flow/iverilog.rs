//! Icarus Verilog: compile with `iverilog -g2012`, run with `vvp`.

use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError, ToolOutput};

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
    let mut args: Vec<String> = vec![
        "-g2012".to_owned(),
        "-o".to_owned(),
        output.clone(),
        "-s".to_owned(),
        top.to_owned(),
    ];
    args.extend(defines.iter().map(|d| format!("-D{d}")));
    args.extend(sources.iter().map(|s| s.display().to_string()));
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
        [std::ffi::OsStr::new("-n"), vvp_file.as_os_str()],
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
    let mut args = vec![std::ffi::OsString::from("-n"), vvp_file.as_os_str().into()];
    args.extend(plusargs.iter().map(std::ffi::OsString::from));
    runner::output(Tool::Vvp, dir, args, Some(&format!("{name}.vvp.log")))
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
