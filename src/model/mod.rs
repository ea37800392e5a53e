//! Plain-Rust reference models of the clocked designs, written from their specifications and
//! independently of the rust-hdl blocks, so that every engine can be compared with them cycle
//! by cycle. Nothing here depends on rust-hdl.
//!
//! * [`sticks_game`]: the `sticks_game` controller (a human against the solver's strategy).

pub mod sticks_game;

pub use sticks_game::{Inputs, Outputs, SticksGameModel};
