//! Playing a game against the machine, as pure state machines: a session is fed the human's
//! input one line at a time and answers with [`Event`]s; it never reads or prints anything
//! itself. The command line (`retrogate play`, in `src/cli/play.rs`) does the terminal I/O.
//!
//! - [`Session`]: a game of sticks, matches or heaps. The machine side is an [`Opponent`]:
//!   [`SolverOpponent`] plays the solver's chosen moves; a circuit-backed opponent (the
//!   `sticks_game` controller driven through rust-hdl, [`CircuitOpponent`], or the
//!   `heaps_game` controller with its on-chip solver, [`HeapsCircuitOpponent`]) plugs in behind
//!   the same trait.
//! - [`Playable`]: how a game draws its positions, reads a move typed by the human and says
//!   one in words.
//! - [`Jr01Panel`]: the J.R. 01 front panel: three switches A B C in, three lamps X Y Z out,
//!   lit by the simulated circuit.
//!
//! Every session judges the human's moves with the solver's labels: the first human move from a
//! position labelled win (for the human, who is to move there) into one labelled win for the
//! machine is the move that threw the win away, reported when the human loses.

mod circuit;
mod games;
mod heaps_circuit;
mod jr01;
mod session;

pub use circuit::CircuitOpponent;
pub use games::Playable;
pub use heaps_circuit::{
    fixed_index, on_chip_config, HeapsCircuitError, HeapsCircuitOpponent, HeapsOnChipError,
};
pub use jr01::{spaced, Jr01Event, Jr01Panel, LIT};
pub use session::{Event, Opponent, Session, Side, SolverOpponent};

/// Longest input line read as a move; a longer line is refused whole, and whoever reads the
/// input (the command line) need keep no more than this and one byte of a line.
pub const MAX_LINE_BYTES: usize = 1024;

/// Most characters of an input line a refusal quotes back.
pub const QUOTED_CHARS: usize = 24;

/// How a refusal quotes what was typed: the text, or its first [`QUOTED_CHARS`] characters
/// and `...` when it is longer.
pub fn excerpt(typed: &str) -> String {
    match typed.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &typed[..cut]),
        None => typed.to_string(),
    }
}

/// The refusal of a line longer than [`MAX_LINE_BYTES`], or `None` for a line that fits.
fn too_long(typed: &str) -> Option<String> {
    (typed.len() > MAX_LINE_BYTES)
        .then(|| format!("the line is longer than {MAX_LINE_BYTES} bytes; type one move per line"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_cut_at_characters() {
        assert_eq!(excerpt("abc"), "abc");
        assert_eq!(excerpt(&"x".repeat(QUOTED_CHARS)), "x".repeat(QUOTED_CHARS));
        let long = "é".repeat(1000);
        assert_eq!(excerpt(&long), format!("{}...", "é".repeat(QUOTED_CHARS)));
        assert_eq!(too_long(&"1".repeat(MAX_LINE_BYTES)), None);
        assert!(too_long(&"1".repeat(MAX_LINE_BYTES + 1)).is_some());
    }
}
