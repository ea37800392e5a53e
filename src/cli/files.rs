//! Writing files whole or not at all: every file goes to a temporary sibling first, and only
//! when all are written are they renamed into place (see [`crate::output_dir`]).

use super::CliError;
use std::path::{Path, PathBuf};

/// Writes each `(path, contents)`; on any error nothing new is left behind. Each file's
/// folder records it in its manifest (see [`crate::output_dir`]): check the paths with
/// [`crate::output_dir::check_folder`] or [`crate::output_dir::check_file`] first.
pub fn write_all_or_nothing(files: &[(PathBuf, String)]) -> Result<(), CliError> {
    Ok(crate::output_dir::write_files(files)?)
}

/// `path` made absolute against the current directory: the command line resolves every path
/// once, so tools that run in their own folders see the same file.
pub fn absolute(path: &Path) -> Result<PathBuf, CliError> {
    Ok(crate::output_dir::absolute(path)?)
}

/// Checks that `--out` names an SVG file: `what` is the picture ("the schematic is SVG"),
/// `example` a good file name for the message.
pub fn require_svg(path: &Path, what: &str, example: &str) -> Result<(), CliError> {
    if path.extension().and_then(|e| e.to_str()) == Some("svg") {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "--out {}: {what}; give a file name ending in .svg, e.g. --out {example}",
        path.display()
    )))
}
