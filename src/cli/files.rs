//! Writing files whole or not at all: every file goes to a temporary sibling first, and only
//! when all are written are they renamed into place.

use super::CliError;
use std::fs;
use std::path::{Path, PathBuf};

/// Writes each `(path, contents)`; on any error nothing new is left behind.
pub fn write_all_or_nothing(files: &[(PathBuf, String)]) -> Result<(), CliError> {
    let mut temps: Vec<(PathBuf, &Path)> = Vec::new();
    let result = (|| {
        for (path, contents) in files {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                fs::create_dir_all(dir).map_err(|source| CliError::Write {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let temp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
            fs::write(&temp, contents).map_err(|source| CliError::Write {
                path: path.clone(),
                source,
            })?;
            temps.push((temp, path));
        }
        for (temp, path) in &temps {
            fs::rename(temp, path).map_err(|source| CliError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (temp, _) in &temps {
            let _ = fs::remove_file(temp);
        }
    }
    result
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
