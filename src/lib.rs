//! retrogate: solve small combinatorial games by retrograde analysis, turn the winning strategy
//! into an iCE40 circuit, and prove that the circuit plays exactly like the solver.
//!
//! Layers, top to bottom; each module uses only modules listed below it (`tests/layers.rs`
//! checks every `crate::` path outside test modules), and only [`cli`] prints or exits (clippy's
//! `print_stdout`, `print_stderr` and `exit` are denied everywhere else):
//! - [`cli`]: the command line: arguments, one module per verb, the text and JSON renderings of
//!   the library's events; it prints, and it owns the files it names;
//! - [`vboard`]: the virtual board: a board top (or, with `--bin`, the chip read back from a
//!   bitstream by level 8's read-back in [`bench`](mod@bench)) under Verilator driven through
//!   its pins at the board's clock by a harness, drawn from the board data (ratatui), with a
//!   scripted mode that keeps frames as text;
//! - [`bench`](mod@bench): verification: the plan of levels for each `verify` target, the
//!   levels, their events, reports and JSON document;
//! - [`build`]: the bitstream pipeline (a board top through yosys, nextpnr-ice40 and icepack;
//!   iceprog) and its build record;
//! - [`play`]: games against the machine as pure state machines (lines in, events out), against
//!   the solver or the simulated circuit;
//! - [`schematic`]: circuits as Graphviz DOT text (sums of products as gates, the controller's
//!   blocks, LUT INITs);
//! - [`circuit`]: the rust-hdl blocks (strategies, controllers, the on-chip solver, board I/O)
//!   and the board tops, one module per design with its layout on every board;
//! - [`flow`]: one runner per external tool (yosys, nextpnr-ice40, icepack, iverilog,
//!   Verilator, yosys-smtbmc, yosys-abc, dot), each in a work folder it is given;
//! - [`verilog`]: Verilog emission with our module names, deterministic;
//! - [`board`]: iCE40 board data and PCF rendering;
//! - [`model`]: plain-Rust reference models of the clocked circuits;
//! - [`plugboard`]: the J.R. 01 plug program from the covers;
//! - [`solver`]: retrograde analysis, periods of subtraction games, the KEGE questions, truth
//!   tables of strategies;
//! - [`logic`]: truth tables, Quine-McCluskey, exact minimum covers, sums of products;
//! - [`game`]: the games as validated values (sticks, J.R. 01 matches, KEGE heaps, move
//!   expressions);
//! - [`waveform`]: signal values read from a VCD trace, drawn as an SVG waveform;
//! - [`interrupt`]: SIGINT/SIGTERM while tools run: stop them, remove the temporary folders,
//!   end the output folders (record what was written, drop the locks), then hand over to the
//!   caller's handler;
//! - [`output_dir`]: where retrogate may write (new, empty, or its own folders, marked by a
//!   manifest at every depth; never through a link; one run at a time, by a lock) and writing
//!   files whole.

#![cfg_attr(
    not(test),
    deny(clippy::print_stdout, clippy::print_stderr, clippy::exit)
)]

pub mod bench;
pub mod board;
pub mod build;
pub mod circuit;
#[allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]
pub mod cli;
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
pub mod vboard;
pub mod verilog;
pub mod waveform;
