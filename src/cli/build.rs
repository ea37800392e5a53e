//! `retrogate build`.

use super::args::{BuildArgs, DesignArg};
use super::files::absolute;
use super::ui::Ui;
use super::CliError;
use crate::board::BoardId;
use crate::flow::build::{build, program, BuildError, Progress};
use crate::flow::Design;
use std::io::Write;
use std::path::PathBuf;

pub fn run(args: BuildArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    let board: BoardId = args.board.into();
    let design = match args.design {
        DesignArg::Jr01 => {
            if let Some(flag) = args.game.given().first() {
                return Err(CliError::Usage(format!(
                    "`{flag}` is a sticks option; the jr01 design has a fixed table: drop \
                     {flag}, or build the stick game with --design sticks"
                )));
            }
            Design::Jr01
        }
        DesignArg::Sticks => Design::Sticks(args.game.game()?),
    };
    let dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("build")
            .join(board.to_string())
            .join(design.name())
    });
    let dir = absolute(&dir)?;
    // Refuse a file, or a folder with files retrogate did not write, before any work.
    crate::output_dir::check_folder("--out", &dir)?;
    let spinner = ui.spinner(&format!("build {} for {board}", design.name()));
    let report = build(board, &design, &dir, args.seed, &mut |p| {
        if let Progress::Started(step) = p {
            spinner.say(&format!("build {} for {board}: {step:?}", design.name()));
        }
    })
    .map_err(|e| match e {
        BuildError::Top(_) | BuildError::Pins(_) => CliError::Usage(e.to_string()),
        BuildError::Output(e) => e.into(),
        e @ BuildError::TimingNotMet { .. } => CliError::Failed(e.to_string()),
        e => {
            // The failed build's files and logs stay in <out>.partial: say so.
            let partial = partial_of(&dir);
            if partial.is_dir() {
                CliError::Failed(format!(
                    "{e}\nthe files and logs of the failed build are in {}",
                    partial.display()
                ))
            } else {
                CliError::Failed(e.to_string())
            }
        }
    })?;
    drop(spinner);
    writeln!(out, "{report}")?;
    out.flush()?;
    if args.program {
        program(&report.bitstream).map_err(|e| CliError::Failed(e.to_string()))?;
        writeln!(out, "programmed {}", report.bitstream.display())?;
    }
    Ok(())
}

/// `<dir>.partial`, where [`build`] works before moving its files into `dir`.
fn partial_of(dir: &std::path::Path) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    dir.with_file_name(name)
}
