//! Output hygiene: progress on stderr only when it is a terminal (and not `--quiet`), colours
//! only on a terminal and never when `NO_COLOR` is set.

use crate::solver::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Games with at least this many positions show a progress bar while they are solved.
pub const PROGRESS_FROM_POSITIONS: usize = 1_000_000;

/// What the user asked for and what the streams are.
#[derive(Clone, Copy, Debug)]
pub struct Ui {
    progress: bool,
}

impl Ui {
    /// Progress is shown when stderr is a terminal and `quiet` is off.
    pub fn new(quiet: bool) -> Self {
        Ui {
            progress: !quiet && std::io::stderr().is_terminal(),
        }
    }

    /// A bar for solving a game of `positions` positions (hidden for small games).
    pub fn solve_progress(&self, positions: usize) -> SolveProgress {
        SolveProgress {
            bar: (self.progress && positions >= PROGRESS_FROM_POSITIONS).then(|| {
                let bar = ProgressBar::new(positions as u64).with_message("solve");
                bar.set_style(
                    ProgressStyle::with_template(
                        "{msg:14} [{wide_bar}] {percent:>3}% of {human_len} positions",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar
            }),
        }
    }

    /// A spinner saying what is being done (hidden unless progress is shown); it disappears
    /// when dropped.
    pub fn spinner(&self, message: &str) -> Spinner {
        Spinner {
            bar: self.progress.then(|| {
                let bar = ProgressBar::new_spinner();
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                        .expect("valid template"),
                );
                bar.set_message(message.to_string());
                bar.enable_steady_tick(Duration::from_millis(100));
                bar
            }),
        }
    }
}

/// A solve's progress bar, cleared when dropped.
pub struct SolveProgress {
    bar: Option<ProgressBar>,
}

impl Progress for SolveProgress {
    fn pass(&mut self, pass: &'static str, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
            bar.set_position(0);
            bar.set_message(format!("solve: {pass}"));
        }
    }
    fn at(&mut self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }
}

impl Drop for SolveProgress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A spinner, cleared when dropped.
pub struct Spinner {
    bar: Option<ProgressBar>,
}

impl Spinner {
    /// Runs `f` (which prints) with the spinner hidden, so their lines do not mix.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Changes the message.
    pub fn say(&self, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(message.to_string());
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// True when `NO_COLOR` is set to anything but the empty string (<https://no-color.org>).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// ANSI colours, or plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    on: bool,
}

/// The colours used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Good news.
    Green,
    /// Bad news.
    Red,
    /// Warnings and refusals.
    Yellow,
    /// The machine.
    Cyan,
    /// Headings.
    Bold,
}

impl Paint {
    /// Colours when `is_terminal` and `NO_COLOR` is not set.
    pub fn when(is_terminal: bool) -> Self {
        Self::decide(is_terminal, no_color())
    }

    fn decide(is_terminal: bool, no_color: bool) -> Self {
        Paint {
            on: is_terminal && !no_color,
        }
    }

    /// For stdout.
    pub fn stdout() -> Self {
        Self::when(std::io::stdout().is_terminal())
    }

    /// For stderr.
    pub fn stderr() -> Self {
        Self::when(std::io::stderr().is_terminal())
    }

    /// `text` in `colour` (unchanged when colours are off).
    pub fn paint(self, colour: Colour, text: &str) -> String {
        if !self.on {
            return text.to_string();
        }
        let code = match colour {
            Colour::Green => "32",
            Colour::Red => "31",
            Colour::Yellow => "33",
            Colour::Cyan => "36",
            Colour::Bold => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert_eq!(
            Paint::decide(true, false).paint(Colour::Red, "x"),
            "\x1b[31mx\x1b[0m"
        );
        assert_eq!(Paint::decide(false, false).paint(Colour::Red, "x"), "x");
        assert_eq!(Paint::decide(true, true).paint(Colour::Red, "x"), "x");
    }

    #[test]
    fn hidden_progress_costs_nothing() {
        let ui = Ui { progress: false };
        let mut p = ui.solve_progress(10_000_000);
        assert!(p.bar.is_none());
        p.pass("ends", 10);
        p.at(5);
        assert!(ui.spinner("x").bar.is_none());
    }
}
