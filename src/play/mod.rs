//! Playing a game against the machine, as pure state machines: a session is fed the human's
//! input one line at a time and answers with [`Event`]s; it never reads or prints anything
//! itself. The command line (`retrogate play`, in `src/cli/play.rs`) does the terminal I/O.
//!
//! - [`Session`]: a game of sticks, matches or heaps. The machine side is an [`Opponent`]:
//!   [`SolverOpponent`] plays the solver's chosen moves; a circuit-backed opponent (the
//!   `sticks_game` controller driven through rust-hdl) plugs in behind the same trait.
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
mod jr01;
mod session;

pub use circuit::CircuitOpponent;
pub use games::Playable;
pub use jr01::{spaced, Jr01Event, Jr01Panel, LIT};
pub use session::{Event, Opponent, Session, Side, SolverOpponent};
