//! How a design uses a board: its [`Layout`] there, requesting the board's resources by name.
//!
//! A design asks for controls and displays by role (a button that takes 2 sticks, an LED that
//! shows bit 0 of the count, segment C of the tens digit): its layout on a board lists, in port
//! order, which resource of the board ([`crate::board::Resource`], by
//! [`name`](crate::board::Resource::name)) provides each. The pin wrapper
//! ([`super::pins`]) builds the top from it: the top's ports are the resources' pins (the PCF
//! names), in this order, with the pins' polarities. The layouts live with their designs
//! ([`super::jr01`], [`super::sticks`], [`super::solver`]), never in a board's file.
//!
//! Roles use the designs' own numbering: J.R. 01 position bits are A = 2, B = 1, C = 0 (answer
//! X = 2, Y = 1, Z = 0); takes are 1, 2, 3; segments are A = 0 .. G = 6, decimal point 7; digit
//! select 0 is the rightmost digit of a multiplexed display.

use std::fmt::Display;

use crate::board::{Board, BoardId, Dir, Kind, PinDef, Resource, Role};
use crate::flow::yosys::Mapping;

/// One request of a design on a board: a resource by name, and what the design does with it.
/// It becomes one top-level port, or (a digit, a display) several.
#[derive(Debug, Clone, Copy)]
pub enum Wire<I: 'static, O: 'static> {
    /// A one-pin input resource (a button, a reset button) with its role.
    Input(&'static str, I),
    /// A one-pin output resource (an LED) with its role.
    Output(&'static str, O),
    /// A bank of inputs (e.g. `io_dip`), bit `i` with role `roles[i]`; fewer roles than the bank
    /// has bits take its low bits. The port is `inout`: it is read through iCE40 `SB_IO` pads,
    /// which also emulate pull-downs where the pins need it.
    InputBus(&'static str, &'static [I]),
    /// A bank of outputs (e.g. `io_led`), bit `i` with role `roles[i]` (the low bits, as above).
    OutputBus(&'static str, &'static [O]),
    /// A 7-segment digit with its own pins: one output port per segment pin, segment `n`
    /// (A = 0) with role `role(n)`.
    Digit(&'static str, fn(u8) -> O),
    /// A multiplexed display: its segment bus (segment `n` with role `segment(n)`), then its
    /// digit select bus (select `n` with role `select(n)`), as two output ports.
    Display(&'static str, fn(u8) -> O, fn(u8) -> O),
}

impl<I, O> Wire<I, O> {
    /// The name of the resource it requests.
    pub const fn resource(&self) -> &'static str {
        match self {
            Wire::Input(n, _)
            | Wire::Output(n, _)
            | Wire::InputBus(n, _)
            | Wire::OutputBus(n, _)
            | Wire::Digit(n, _)
            | Wire::Display(n, _, _) => n,
        }
    }
}

/// A design's use of one board.
#[derive(Debug, Clone, Copy)]
pub struct Layout<I: 'static, O: 'static> {
    /// The top's ports after the clock, in port order.
    pub wires: &'static [Wire<I, O>],
    /// Output pins lit while the long-press key (the start button, the chord, the Go Board's
    /// SW4) has been held 1 s, telling you to let go.
    pub held_lights: &'static [&'static str],
    /// The design clock, Hz, where it is not the board clock: the board must list a PLL
    /// setting for it ([`Board::plls`]).
    pub pll_hz: Option<u32>,
}

/// A wire resolved against a board: one top-level port with its pins.
#[derive(Debug, Clone)]
pub(crate) enum Port<I, O> {
    /// A one-bit input.
    Input(&'static PinDef, I),
    /// A one-bit output.
    Output(&'static PinDef, O),
    /// An input bus (bit `i` = `bits[i]`).
    InputBus(&'static str, Vec<(&'static PinDef, I)>),
    /// An output bus (bit `i` = `bits[i]`).
    OutputBus(&'static str, Vec<(&'static PinDef, O)>),
}

impl<I: Copy, O: Copy> Layout<I, O> {
    /// The top's ports after the clock on `board`, in order; `Err` says which request the board
    /// cannot serve (an unknown resource, one of the wrong kind or direction, or too narrow).
    pub(crate) fn ports(&self, board: &'static Board) -> Result<Vec<Port<I, O>>, String> {
        let mut ports = Vec::new();
        for wire in self.wires {
            let name = wire.resource();
            let resource = board
                .resource(name)
                .ok_or_else(|| format!("{} has no resource `{name}`", board.id))?;
            let pins = resource.pins();
            let bad = |what: &str| format!("{}: `{name}` is not {what}", board.id);
            let all = |dir: Dir| pins.iter().all(|p| p.dir == dir);
            match *wire {
                Wire::Input(_, role) => match pins {
                    [pin] if pin.dir == Dir::Input => ports.push(Port::Input(pin, role)),
                    _ => return Err(bad("a one-pin input")),
                },
                Wire::Output(_, role) => match pins {
                    [pin] if pin.dir == Dir::Output => ports.push(Port::Output(pin, role)),
                    _ => return Err(bad("a one-pin output")),
                },
                Wire::InputBus(_, roles) => {
                    if !is_bank(resource) || !all(Dir::Input) || pins.len() < roles.len() {
                        return Err(bad(&format!("an input bank of {} bits", roles.len())));
                    }
                    ports.push(Port::InputBus(
                        name,
                        pins.iter().zip(roles.iter().copied()).collect(),
                    ));
                }
                Wire::OutputBus(_, roles) => {
                    if !is_bank(resource) || !all(Dir::Output) || pins.len() < roles.len() {
                        return Err(bad(&format!("an output bank of {} bits", roles.len())));
                    }
                    ports.push(Port::OutputBus(
                        name,
                        pins.iter().zip(roles.iter().copied()).collect(),
                    ));
                }
                Wire::Digit(_, role) => {
                    if resource.kind != Kind::Digit {
                        return Err(bad("a 7-segment digit"));
                    }
                    ports.extend(pins.iter().zip(0..).map(|(p, n)| Port::Output(p, role(n))));
                }
                Wire::Display(_, segment, select) => {
                    if !matches!(resource.kind, Kind::MuxDisplay { .. }) {
                        return Err(bad("a multiplexed display"));
                    }
                    for (role, f) in [(Role::Segment, segment), (Role::DigitSelect, select)] {
                        let bus = resource
                            .bus_name(role)
                            .ok_or_else(|| bad("a display with segment and select buses"))?;
                        let bits = resource.pins_with_role(role);
                        ports.push(Port::OutputBus(
                            bus,
                            bits.into_iter().zip(0..).map(|(p, n)| (p, f(n))).collect(),
                        ));
                    }
                }
            }
        }
        Ok(ports)
    }
}

/// Whether a resource is a bank of like pins on one bus.
fn is_bank(resource: &Resource) -> bool {
    matches!(
        resource.kind,
        Kind::ButtonBank { .. } | Kind::SwitchBank | Kind::LedBank(_)
    )
}

/// One pin of a design's layout on a board, as `retrogate boards` and `docs/boards.md` list it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinUse {
    /// The pin.
    pub pin: &'static PinDef,
    /// What the design does with it (the role in words).
    pub role: String,
    /// Lit while the long-press key has been held 1 s.
    pub lit_while_held: bool,
}

impl<I: Copy + Display, O: Copy + Display> Layout<I, O> {
    /// Every pin the layout uses on `board`, in port order (bus bits one by one).
    ///
    /// # Panics
    /// If the board cannot serve the layout (the layout tests check every design on every board).
    pub fn pin_uses(&self, board: &'static Board) -> Vec<PinUse> {
        let held = |p: &PinDef| self.held_lights.contains(&p.name);
        let pin_use = |pin: &'static PinDef, role: String| PinUse {
            pin,
            role,
            lit_while_held: held(pin),
        };
        let ports = self
            .ports(board)
            .unwrap_or_else(|e| panic!("layout data: {e}"));
        let mut out = Vec::new();
        for port in ports {
            match port {
                Port::Input(pin, role) => out.push(pin_use(pin, role.to_string())),
                Port::Output(pin, role) => out.push(pin_use(pin, role.to_string())),
                Port::InputBus(_, bits) => {
                    out.extend(bits.into_iter().map(|(p, r)| pin_use(p, r.to_string())))
                }
                Port::OutputBus(_, bits) => {
                    out.extend(bits.into_iter().map(|(p, r)| pin_use(p, r.to_string())))
                }
            }
        }
        out
    }
}

/// A design that has board tops, as the listings (`retrogate boards`, `docs/boards.md`) and the
/// design-keyed clock queries see it, whatever its role types. [`super::BOARD_DESIGNS`] lists
/// them all.
#[derive(Clone, Copy)]
pub struct BoardDesign {
    /// The `--design` name.
    pub name: &'static str,
    /// What each pin does on a board, in port order; `None` where the design has no layout.
    pub pin_uses: fn(&'static Board) -> Option<Vec<PinUse>>,
    /// The design clock on a board where it is not the board clock (a PLL output), Hz.
    pub pll_hz: fn(BoardId) -> Option<u32>,
    /// Whether the layout on a board names resources the board has, of the right kinds (the
    /// problem if not); `Ok` where the design has no layout there.
    pub check: fn(&'static Board) -> Result<(), String>,
    /// How `retrogate build` maps its logic to LUTs: timing-driven (`-abc9`) where the clock
    /// asks for it, yosys's default where the design is bound by its size.
    pub mapping: Mapping,
}

impl std::fmt::Debug for BoardDesign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoardDesign")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl<I: Copy, O: Copy> Layout<I, O> {
    /// Whether `board` can serve the layout: every request names a resource of the right kind,
    /// direction and width, no port appears twice, the held lights are outputs of the layout,
    /// and the board has a PLL setting for [`Layout::pll_hz`]. `Err` names the first problem.
    pub fn check(&self, board: &'static Board) -> Result<(), String> {
        let ports = self.ports(board)?;
        let mut names = Vec::new();
        let mut outputs = Vec::new();
        for port in &ports {
            let name = match port {
                Port::Input(pin, _) => pin.name,
                Port::Output(pin, _) => {
                    outputs.push(pin.name);
                    pin.name
                }
                Port::InputBus(name, _) => name,
                Port::OutputBus(name, bits) => {
                    outputs.extend(bits.iter().map(|(p, _)| p.name));
                    name
                }
            };
            if names.contains(&name) {
                return Err(format!("{}: port `{name}` twice", board.id));
            }
            names.push(name);
        }
        if let Some(light) = self.held_lights.iter().find(|l| !outputs.contains(l)) {
            return Err(format!(
                "{}: held light `{light}` is not an output of the layout",
                board.id
            ));
        }
        if let Some(hz) = self.pll_hz {
            if board.pll_at(hz).is_none() {
                return Err(format!("{}: no PLL setting for {hz} Hz", board.id));
            }
        }
        Ok(())
    }
}

/// The letter of segment `n` (A = 0 .. G = 6, `P` for the decimal point 7), for role names.
pub(crate) fn segment_letter(n: u8) -> char {
    "ABCDEFGP".chars().nth(usize::from(n)).unwrap_or('?')
}
