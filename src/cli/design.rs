//! What the design verbs (`table`, `minimize`, `emit`, `schematic`) share: the designs of their
//! flags, errors as `CliError`s, checked output folders, and the boards' constraints.

use std::path::{Path, PathBuf};

use super::args::{ImplArg, SticksDesignArgs};
use super::files::absolute;
use super::CliError;
use crate::bench::jr01::{DesignError, Jr01Design};
use crate::circuit::sticks_strategy::Impl;
use crate::game::SticksGame;
use crate::output_dir;
use crate::solver::strategy::{sticks_table, SticksTable};

/// A library step's failure as exit 1.
pub(super) fn step<E: std::fmt::Display>(e: E) -> CliError {
    CliError::Step(e.to_string())
}

/// The J.R. 01 design, derived from the game.
pub(super) fn jr01() -> Result<Jr01Design, CliError> {
    Jr01Design::build().map_err(|e: DesignError| step(e))
}

/// The stick game of a design's flags.
pub fn sticks_game(a: &SticksDesignArgs) -> Result<SticksGame, CliError> {
    Ok(a.game.game()?)
}

impl From<ImplArg> for Impl {
    fn from(i: ImplArg) -> Impl {
        match i {
            ImplArg::Rom => Impl::Rom,
            ImplArg::Logic => Impl::Logic,
        }
    }
}

/// The strategy table of a stick game, or why it has none (exit 2).
pub(super) fn sticks_table_of(game: &SticksGame) -> Result<SticksTable, CliError> {
    sticks_table(game).map_err(|e| CliError::Usage(e.to_string()))
}

/// Resolves an output folder flag to an absolute path and checks it (new, empty or retrogate's).
pub(super) fn output_folder(flag: &str, dir: Option<&Path>) -> Result<Option<PathBuf>, CliError> {
    match dir {
        None => Ok(None),
        Some(dir) => {
            let dir = absolute(dir)?;
            output_dir::check_folder(flag, &dir)?;
            Ok(Some(dir))
        }
    }
}

/// Each board's PCF for `design`, as `(dir/<board>-<design>.pcf, text)`.
pub fn board_constraints(
    design: &crate::circuit::top::Design,
    dir: &Path,
) -> Result<Vec<(std::path::PathBuf, String)>, CliError> {
    use crate::board::BoardId;
    use crate::circuit::top::{top_verilog, Timing};
    let mut files = Vec::new();
    for board in BoardId::ALL.into_iter().filter(|&b| design.runs_on(b)) {
        let top =
            top_verilog(board, design, &Timing::for_design(board.board(), design)).map_err(step)?;
        let pcf = top.pcf().map_err(step)?;
        files.push((dir.join(format!("{board}-{}.pcf", design.name())), pcf));
    }
    Ok(files)
}
