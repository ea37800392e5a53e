//! `retrogate boards`: every board's part, package and clock, and the pins
//! each design uses on it with their roles, from the board data
//! ([`crate::board::Designs`]).

use std::fmt::Display;
use std::io::Write;

use serde::Serialize;

use super::args::{BoardsArgs, BoardsFormat};
use super::CliError;
use crate::board::{Board, PinDef, Wire};

/// One pin a design uses.
#[derive(Serialize)]
struct PinUse {
    /// PCF name (a bus bit as `name[i]`).
    pin: &'static str,
    /// Package pin or ball.
    location: &'static str,
    /// `input` or `output` (as the board wires it).
    direction: String,
    /// `active high` or `active low`.
    polarity: String,
    /// What the design does with it.
    role: String,
    /// Lit while the start button has been held 1 s (sticks only).
    lit_while_held: bool,
}

/// One board.
#[derive(Serialize)]
struct BoardInfo {
    board: String,
    name: &'static str,
    device: String,
    package: &'static str,
    clock_pin: &'static str,
    clock_hz: u32,
    jr01: Vec<PinUse>,
    sticks: Vec<PinUse>,
    solver: Vec<PinUse>,
}

#[derive(Serialize)]
struct Boards {
    boards: Vec<BoardInfo>,
}

fn uses<I: Display, O: Display>(board: &Board, wires: &[Wire<I, O>], held: &[&str]) -> Vec<PinUse> {
    let pin_use = |p: &PinDef, role: String| PinUse {
        pin: p.name,
        location: p.location,
        direction: p.dir.to_string(),
        polarity: p.polarity.to_string(),
        role,
        lit_while_held: held.contains(&p.name),
    };
    let mut out = Vec::new();
    for wire in wires {
        match wire {
            Wire::Input(n, r) => out.extend(board.pin(n).map(|p| pin_use(p, r.to_string()))),
            Wire::Output(n, r) => out.extend(board.pin(n).map(|p| pin_use(p, r.to_string()))),
            Wire::InputBus(n, rs) => out.extend(
                board
                    .bus(n)
                    .into_iter()
                    .zip(rs.iter())
                    .map(|(p, r)| pin_use(p, r.to_string())),
            ),
            Wire::OutputBus(n, rs) => out.extend(
                board
                    .bus(n)
                    .into_iter()
                    .zip(rs.iter())
                    .map(|(p, r)| pin_use(p, r.to_string())),
            ),
        }
    }
    out
}

fn info(board: &Board) -> BoardInfo {
    BoardInfo {
        board: board.id.to_string(),
        name: board.name,
        device: board.device.to_string(),
        package: board.package,
        clock_pin: board.clock.pin,
        clock_hz: board.clock.hz,
        jr01: uses(board, board.designs.jr01, &[]),
        sticks: uses(
            board,
            board.designs.sticks,
            board.designs.sticks_held_lights,
        ),
        solver: uses(
            board,
            board.designs.solver,
            board.designs.solver_held_lights,
        ),
    }
}

/// Runs `retrogate boards`.
pub fn run(args: BoardsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let boards = Boards {
        boards: Board::all().map(info).collect(),
    };
    match args.format {
        BoardsFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &boards).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        BoardsFormat::Text => {
            for (k, b) in boards.boards.iter().enumerate() {
                if k > 0 {
                    writeln!(out)?;
                }
                writeln!(
                    out,
                    "{}: {}, {} {}, clock {} at {} MHz",
                    b.board,
                    b.name,
                    b.device,
                    b.package,
                    b.clock_pin,
                    f64::from(b.clock_hz) / 1e6
                )?;
                for (design, pins) in [
                    ("jr01", &b.jr01),
                    ("sticks", &b.sticks),
                    ("solver", &b.solver),
                ] {
                    writeln!(out, "  {design}:")?;
                    let width = pins.iter().map(|p| p.pin.len()).max().unwrap_or(0);
                    for p in pins.iter() {
                        writeln!(
                            out,
                            "    {:width$}  {:4}  {:6}  {:11}  {}{}",
                            p.pin,
                            p.location,
                            p.direction,
                            p.polarity,
                            p.role,
                            if p.lit_while_held {
                                "; lit while start is held 1 s"
                            } else {
                                ""
                            }
                        )?;
                    }
                }
            }
        }
    }
    Ok(())
}
