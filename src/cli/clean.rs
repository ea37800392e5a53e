//! `retrogate clean`: remove what retrogate wrote, name what stays (see
//! [`crate::output_dir::clean`]: only what manifests list, never through a link, never a folder
//! without a manifest).

use super::args::CleanArgs;
use super::CliError;
use crate::output_dir::Kept;
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
    for (path, why) in &cleaned.kept {
        let why = match why {
            Kept::NotWritten => "retrogate did not write it".to_owned(),
            Kept::Link => "a symbolic link: clean never follows or removes links".to_owned(),
            Kept::Special => "not a regular file or folder".to_owned(),
            Kept::InUse(Some(pid)) => format!("in use by retrogate process {pid}"),
            Kept::InUse(None) => "in use by another retrogate process".to_owned(),
        };
        writeln!(out, "kept {} ({why})", path.display())?;
    }
    let entries = |n: usize| if n == 1 { "entry" } else { "entries" };
    writeln!(
        out,
        "clean {}: removed {} {}, kept {} {}",
        dir.display(),
        cleaned.removed.len(),
        entries(cleaned.removed.len()),
        cleaned.kept.len(),
        entries(cleaned.kept.len()),
    )?;
    Ok(())
}
