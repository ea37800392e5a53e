//! `retrogate boards`: every board's part, package and clock, and the pins each design uses on
//! it with their roles, from the board data and the designs' layouts
//! ([`crate::circuit::top::BOARD_DESIGNS`]).

use std::io::Write;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::args::{BoardsArgs, BoardsFormat};
use super::CliError;
use crate::board::Board;
use crate::circuit::top::{PinUse, BOARD_DESIGNS};

/// One pin a design uses.
#[derive(Serialize)]
struct PinInfo {
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
    /// Lit while the start button has been held 1 s.
    lit_while_held: bool,
}

impl From<PinUse> for PinInfo {
    fn from(u: PinUse) -> Self {
        PinInfo {
            pin: u.pin.name,
            location: u.pin.location,
            direction: u.pin.dir.to_string(),
            polarity: u.pin.polarity.to_string(),
            role: u.role,
            lit_while_held: u.lit_while_held,
        }
    }
}

/// One board: its facts, then each design's pins under the design's name, in
/// [`BOARD_DESIGNS`] order.
struct BoardInfo {
    board: String,
    name: &'static str,
    device: String,
    package: &'static str,
    clock_pin: &'static str,
    clock_hz: u32,
    designs: Vec<(&'static str, Vec<PinInfo>)>,
}

impl Serialize for BoardInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(6 + self.designs.len()))?;
        map.serialize_entry("board", &self.board)?;
        map.serialize_entry("name", self.name)?;
        map.serialize_entry("device", &self.device)?;
        map.serialize_entry("package", self.package)?;
        map.serialize_entry("clock_pin", self.clock_pin)?;
        map.serialize_entry("clock_hz", &self.clock_hz)?;
        for (design, pins) in &self.designs {
            map.serialize_entry(design, pins)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct Boards {
    boards: Vec<BoardInfo>,
}

fn info(board: &'static Board) -> BoardInfo {
    BoardInfo {
        board: board.id.to_string(),
        name: board.name,
        device: board.device.to_string(),
        package: board.package,
        clock_pin: board.clock.pin,
        clock_hz: board.clock.hz,
        designs: BOARD_DESIGNS
            .iter()
            .filter_map(|d| {
                let uses = (d.pin_uses)(board)?;
                Some((d.name, uses.into_iter().map(PinInfo::from).collect()))
            })
            .collect(),
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
                for (design, pins) in &b.designs {
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
