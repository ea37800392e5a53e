//! The command line: one module per verb over the library ([`args`] holds every flag). It parses
//! arguments into validated values, calls the library, renders what it reports (text, JSON,
//! progress on stderr), and is the only layer that prints or exits.
//!
//! Exit codes: 0 success; 1 a check failed or a tool failed; 2 bad input (the message names the
//! flag and the fix, and nothing is written).

mod args;
mod board;
mod boards;
mod build;
mod clean;
mod columns;
mod design;
mod emit;
mod files;
mod kege;
mod minimize;
mod play;
mod report;
mod schematic;
mod solve;
mod table;
mod ui;
mod verify;
mod wave;

pub use args::{Cli, Command};

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// Errors the command line reports.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// A game that cannot be built from the flags: exit code 2.
    #[error(transparent)]
    Game(#[from] crate::game::GameError),
    /// Writing output failed: exit code 1.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
    /// A file could not be written: exit code 1.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A check failed (the message says which): exit code 1.
    #[error("{0}")]
    Failed(String),
    /// A library step failed: exit code 1.
    #[error("{0}")]
    Step(String),
    /// The user pressed Ctrl-C (after the command said what it left undone): exit code 130.
    #[error("interrupted")]
    Interrupted,
}

impl From<crate::output_dir::OutputError> for CliError {
    fn from(e: crate::output_dir::OutputError) -> Self {
        if e.is_usage() {
            CliError::Usage(e.to_string())
        } else {
            CliError::Step(e.to_string())
        }
    }
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Game(_) => 2,
            CliError::Io(_) | CliError::Write { .. } | CliError::Failed(_) | CliError::Step(_) => 1,
            CliError::Interrupted => 130,
        }
    }
}

/// Runs a parsed command line, writing results to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    // With --verbose the tools' command lines go to stderr: no spinner there.
    let ui = ui::Ui::new(cli.quiet || cli.verbose);
    if cli.verbose {
        crate::flow::runner::set_observer(Some(Box::new(|line| eprintln!("+ {line}"))));
    }
    if matches!(
        cli.command,
        Command::Emit(_)
            | Command::Verify(_)
            | Command::Schematic(_)
            | Command::Build(_)
            | Command::Program(_)
            | Command::Board(_)
    ) {
        // These run tools: a signal stops them and removes the temporary folders.
        crate::interrupt::install(interrupted)?;
    }
    // What the command claimed is recorded and its locks released when it ends, also on an
    // error or a panic (a signal has the interrupt handler do it).
    struct Finish;
    impl Drop for Finish {
        fn drop(&mut self) {
            let _ = crate::output_dir::finish();
        }
    }
    let finish = Finish;
    let result = match cli.command {
        Command::Solve(a) => solve::run(a, &ui, out),
        Command::Kege(a) => kege::run(a, out),
        Command::Table(a) => table::run(a, out),
        Command::Minimize(a) => minimize::run(a, out),
        Command::Emit(a) => emit::run(a, out),
        Command::Verify(a) => verify::run(a, &ui, out),
        Command::Play(a) => play::run(a, &ui, out),
        Command::Schematic(a) => schematic::run(a, &ui, out),
        Command::Build(a) => build::run(a, &ui, out),
        Command::Program(a) => build::program_verb(a, out),
        Command::Report(a) => build::report_verb(a, out),
        Command::Clean(a) => clean::run(a, out),
        Command::Wave(a) => wave::run(a, out),
        Command::Boards(a) => boards::run(a, out),
        Command::Board(a) => board::run(a, &ui, out),
    };
    let finished = crate::output_dir::finish();
    drop(finish);
    match (result, finished) {
        (Ok(()), Err(e)) => Err(e.into()),
        (result, _) => result,
    }
}

/// After a signal stopped the tools: say so and exit 130 (SIGINT), 143 (SIGTERM) or 129
/// (SIGHUP).
fn interrupted(what: crate::interrupt::Interrupted) {
    eprintln!(
        "interrupted ({}): stopped {} running tool(s) and removed the temporary folders; the \
         previous output is untouched",
        what.name(),
        what.stopped
    );
    std::process::exit(what.exit_code())
}

/// The binary's entry point.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = run(cli, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e @ CliError::Interrupted) => ExitCode::from(e.exit_code()),
        Err(e) => {
            drop(out);
            eprintln!(
                "{} {e}",
                ui::Paint::stderr().paint(ui::Colour::Red, "error:")
            );
            ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    /// Every verb and every subcommand below it shows an example in its `--help`.
    #[test]
    fn every_subcommand_has_an_example() {
        fn walk(cmd: &clap::Command, path: &str, seen: &mut Vec<String>) {
            for sub in cmd.get_subcommands() {
                let path = format!("{path} {}", sub.get_name());
                let after = sub
                    .get_after_help()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                assert!(
                    after.contains("Example"),
                    "`{path} --help` has no example in its after_help"
                );
                seen.push(path.clone());
                walk(sub, &path, seen);
            }
        }
        let mut seen = Vec::new();
        walk(&Cli::command(), "retrogate", &mut seen);
        for verb in [
            "solve",
            "kege",
            "table",
            "minimize",
            "emit",
            "verify",
            "play",
            "schematic",
            "build",
            "program",
            "report",
            "clean",
        ] {
            assert!(
                seen.contains(&format!("retrogate {verb}")),
                "no verb {verb}: {seen:?}"
            );
        }
        assert!(seen.contains(&"retrogate play jr01".to_string()));
    }
}
