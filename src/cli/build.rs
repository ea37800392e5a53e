//! `retrogate build`.

use super::args::{BuildArgs, DesignArg};
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
        DesignArg::Jr01 => Design::Jr01,
        DesignArg::Sticks => Design::Sticks(args.game.game()?),
    };
    let dir = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("build")
            .join(board.to_string())
            .join(design.name())
    });
    let spinner = ui.spinner(&format!("build {} for {board}", design.name()));
    let report = build(board, &design, &dir, args.seed, &mut |p| {
        if let Progress::Started(step) = p {
            spinner.say(&format!("build {} for {board}: {step:?}", design.name()));
        }
    })
    .map_err(|e| match e {
        BuildError::Top(_) | BuildError::Pins(_) => CliError::Usage(e.to_string()),
        e => CliError::Failed(e.to_string()),
    })?;
    drop(spinner);
    write!(out, "{report}")?;
    if args.program {
        program(&report.bitstream).map_err(|e| CliError::Failed(e.to_string()))?;
        writeln!(out, "programmed {}", report.bitstream.display())?;
    }
    Ok(())
}
