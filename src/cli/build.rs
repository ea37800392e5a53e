//! `retrogate build`, and the verbs that read a build folder: `program` and `report`; `verify
//! bitstream` takes its design flags and default folder from here ([`design_of`],
//! [`default_folder`]).

use super::args::{
    BuildArgs, BuildFolderArgs, BuildSticksArgs, DesignArg, ProgramArgs, ReportArgs, ResultFormat,
};
use super::files::absolute;
use super::ui::Ui;
use super::CliError;
use crate::board::BoardId;
use crate::build::record::{self, BuildJson};
use crate::build::{build_with, program, BuildError, BuildOptions, BuildReport, Progress};
use crate::circuit::top::Design;
use crate::flow::runner::shell_words;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn run(args: BuildArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    let board: BoardId = args.board.into();
    let design = design_of(board, args.design, &args.game)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| default_folder(board, design.name()));
    let dir = absolute(&dir)?;
    // Refuse a file, a folder with files retrogate did not write, or a `.partial` holding one,
    // before any work.
    crate::output_dir::check_folder("--out", &dir)?;
    crate::output_dir::check_scratch("--out", &partial_of(&dir))?;
    let spinner = ui.spinner(&format!("build {} for {board}", design.name()));
    let options = BuildOptions {
        seed: args.seed,
        force: args.force,
    };
    let report = build_with(board, &design, &dir, &options, &mut |p| {
        if let Progress::Started(step) = p {
            spinner.say(&format!(
                "build {} for {board}: {}",
                design.name(),
                step.name()
            ));
        }
    })
    .map_err(|e| match e {
        BuildError::Top(_) | BuildError::Pins(_) | BuildError::Seed { .. } => {
            CliError::Usage(e.to_string())
        }
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
    print_report(&report, args.format, out)?;
    if args.program {
        flash(&report.bitstream, false, out)?;
    }
    Ok(())
}

/// The design `--design` names for `--board`, with the stick-game flags (refused for the
/// designs that have no game to set, and for a board the design has no layout on).
pub(super) fn design_of(
    board: BoardId,
    design: DesignArg,
    game: &BuildSticksArgs,
) -> Result<Design, CliError> {
    Ok(match design {
        DesignArg::Jr01 => {
            if let Some(flag) = game.given().first() {
                return Err(CliError::Usage(format!(
                    "`{flag}` is a sticks option; the jr01 design has a fixed table: drop \
                     {flag}, or build the stick game with --design sticks"
                )));
            }
            Design::Jr01
        }
        DesignArg::Sticks => Design::Sticks(game.game()?),
        DesignArg::Solver => {
            if let Some(flag) = game.given().first() {
                return Err(CliError::Usage(format!(
                    "`{flag}` is a sticks option; the solver design's game is set on the board \
                     (docs/boards.md): drop {flag}, or build a fixed game with --design sticks"
                )));
            }
            Design::Solver
        }
        DesignArg::Heaps => {
            if let Some(flag) = game.given().first() {
                return Err(CliError::Usage(format!(
                    "`{flag}` is a sticks option; the heaps design's game is set on the board's \
                     switches or set-up pages (docs/boards.md): drop {flag}"
                )));
            }
            if let Some(why) = crate::circuit::top::heaps::no_layout_reason(board) {
                let boards: Vec<String> = crate::board::BoardId::ALL
                    .iter()
                    .filter(|b| crate::circuit::top::heaps::layout(**b).is_some())
                    .map(|b| format!("--board {}", b.as_str()))
                    .collect();
                return Err(CliError::Usage(format!(
                    "--design heaps is not built for --board {board}: {why}; use {}",
                    boards.join(" or ")
                )));
            }
            Design::Heaps
        }
    })
}

/// `build/<board>/<design>`, where `build` puts a board's design unless `--out` says otherwise.
pub(super) fn default_folder(board: BoardId, design: &str) -> PathBuf {
    PathBuf::from("build").join(board.to_string()).join(design)
}

/// The report as text (with a first line when the build was reused) or as JSON.
fn print_report(
    report: &BuildReport,
    format: ResultFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match format {
        ResultFormat::Json => {
            let json = serde_json::to_string_pretty(&BuildJson::from_report(report))
                .map_err(|e| CliError::Step(e.to_string()))?;
            writeln!(out, "{json}")?;
        }
        ResultFormat::Text => {
            if report.reused {
                writeln!(
                    out,
                    "up to date: the Verilog, PCF, options and tool versions are those of the \
                     build in {}, so synthesis, place and route and packing were skipped \
                     (--force rebuilds)",
                    report.dir.display()
                )?;
            }
            writeln!(out, "{report}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Programs the board with `bitstream` (or, with `dry_run`, prints the command instead).
fn flash(bitstream: &Path, dry_run: bool, out: &mut dyn Write) -> Result<(), CliError> {
    if dry_run {
        writeln!(
            out,
            "{}",
            shell_words(crate::build::program_command(bitstream))
        )?;
        return Ok(());
    }
    program(bitstream).map_err(|e| match e {
        crate::build::ProgramError::NoBitstream { .. } => CliError::Usage(e.to_string()),
        e => CliError::Failed(e.to_string()),
    })?;
    writeln!(out, "programmed {}", bitstream.display())?;
    Ok(())
}

/// The folder `--out` names, or the default one of `--board` and `--design`.
fn folder_of(args: &BuildFolderArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        let design = match args.design {
            DesignArg::Sticks => "sticks",
            DesignArg::Jr01 => "jr01",
            DesignArg::Solver => "solver",
            DesignArg::Heaps => "heaps",
        };
        default_folder(args.board.into(), design)
    })
}

/// The record of the build in `dir` (a usage error naming the fix when there is none).
fn read_record(dir: &Path) -> Result<BuildJson, CliError> {
    if dir.is_file() {
        return Err(CliError::Usage(format!(
            "--out {}: this is a file; give the folder of a build (e.g. build/icebreaker/sticks)",
            dir.display()
        )));
    }
    record::read(dir).map_err(|e| match e {
        record::RecordError::Missing { .. } => CliError::Usage(e.to_string()),
        e => CliError::Failed(e.to_string()),
    })
}

/// `retrogate program`.
pub fn program_verb(args: ProgramArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let bitstream = match &args.bin {
        Some(bin) => {
            if !bin.is_file() {
                return Err(CliError::Usage(format!(
                    "--bin {}: no such file; give an existing bitstream, or build one with \
                     `retrogate build`",
                    bin.display()
                )));
            }
            bin.clone()
        }
        None => {
            let dir = folder_of(&args.folder);
            let bitstream = read_record(&dir)?.artifacts.bitstream;
            // A dry run prints a command that must work: the bitstream must be there.
            if !bitstream.is_file() {
                return Err(CliError::Usage(format!(
                    "{}: the build's bitstream {} is missing; make it again with `retrogate \
                     build --force` (with the same --board, --design and --out), or give an \
                     existing one with --bin FILE",
                    dir.display(),
                    bitstream.display()
                )));
            }
            bitstream
        }
    };
    flash(&bitstream, args.dry_run, out)
}

/// `retrogate report`.
pub fn report_verb(args: ReportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let dir = absolute(&folder_of(&args.folder))?;
    let json = read_record(&dir)?;
    if !json.artifacts.bitstream.is_file() {
        return Err(CliError::Failed(format!(
            "{}: the build's bitstream {} is missing; rebuild with `retrogate build --force`",
            dir.display(),
            json.artifacts.bitstream.display()
        )));
    }
    let report = json.report().map_err(|problem| {
        CliError::Failed(format!(
            "cannot read the build record in {}: {problem}; rebuild with `retrogate build --force`",
            dir.display()
        ))
    })?;
    print_report(&report, args.format, out)
}

/// `<dir>.partial`, where the build works before moving its files into `dir`.
fn partial_of(dir: &std::path::Path) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    dir.with_file_name(name)
}
