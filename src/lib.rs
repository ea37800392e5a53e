//! retrogate: solve small combinatorial games by retrograde analysis, turn the winning strategy
//! into an iCE40 circuit, and prove that the circuit plays exactly like the solver.
//!
//! Layers, each depending only on those above it:
//! - [`game`]: the games as validated values (sticks, J.R. 01 matches, KEGE heaps);
//! - [`solver`]: retrograde analysis, periods of subtraction games, the KEGE questions;
//! - [`play`]: games against the machine as pure state machines (lines in, events out);
//! - [`model`]: plain-Rust reference models of the clocked circuits;
//! - [`waveform`]: signal values read from a VCD trace, drawn as an SVG waveform;
//! - [`schematic`]: circuits as Graphviz DOT text (sums of products as gates, LUT INITs);
//! - [`build`]: the bitstream pipeline (emit, yosys, nextpnr-ice40, icepack; iceprog) and its
//!   build record, above [`circuit`] (the board tops) and [`flow`] (one runner per tool);
//! - [`output_dir`]: where retrogate may write (new, empty, or its own folders, marked by a
//!   manifest at every depth; never through a link; one run at a time, by a lock) and writing
//!   files whole; [`interrupt`]: SIGINT/SIGTERM while tools run (stop them, remove the
//!   temporary folders);
//! - [`cli`]: the command line, the only layer that prints or touches files.

pub mod bench;
pub mod board;
pub mod build;
pub mod circuit;
pub mod cli;
pub mod designs;
pub mod flow;
pub mod game;
pub mod interrupt;
pub mod logic;
pub mod model;
pub mod output_dir;
pub mod play;
pub mod plugboard;
pub mod schematic;
pub mod solver;
pub mod verilog;
pub mod waveform;
