//! `retrogate clean`: remove what retrogate wrote, name what stays.

use super::args::CleanArgs;
use super::CliError;
use std::io::Write;

pub fn run(args: CleanArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = &args.out;
    if !dir.exists() && std::fs::symlink_metadata(dir).is_err() {
        writeln!(out, "nothing to clean: {} does not exist", dir.display())?;
        return Ok(());
    }
    let cleaned = crate::output_dir::clean(dir)?;
    for path in &cleaned.removed {
        writeln!(out, "removed {}", path.display())?;
    }
    for path in &cleaned.kept {
        writeln!(out, "kept {} (retrogate did not write it)", path.display())?;
    }
    writeln!(
        out,
        "clean {}: removed {} {}, kept {} {}",
        dir.display(),
        cleaned.removed.len(),
        if cleaned.removed.len() == 1 {
            "entry"
        } else {
            "entries"
        },
        cleaned.kept.len(),
        if cleaned.kept.len() == 1 {
            "file"
        } else {
            "files"
        },
    )?;
    Ok(())
}
