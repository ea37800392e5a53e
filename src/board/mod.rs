//! iCE40 board data: device, package, nextpnr flags, clock, the PLL settings the board's
//! oscillator allows, and what the board has for a design to use, as [`Resource`]s (buttons,
//! switches, LEDs, 7-segment digits, DIP and LED banks, reset buttons, the clock, free header
//! pins), each with its pins and their polarity and the name the board gives it; plus renderers
//! to nextpnr-ice40 PCF text and to the markdown tables of `docs/boards.md`.
//!
//! A board says what it has, once, and nothing about any design: how a design uses a board (which
//! button takes 2 sticks, which LED shows your turn) is the design's layout, kept with the design
//! in `crate::circuit::top`, which requests resources by name. Adding a board is its file here
//! (its resources) plus, where a design should run on it, one layout in that design's module.
//!
//! This module is pure data and string rendering: no I/O, no HDL.
//!
//! Every pin comes from the boards' public sources, named in each board's file and in its
//! [`Board::sources`] (the vendors' constraint files and schematics, cross-checked against the
//! board definitions of amaranth-boards, litex-boards and apio-examples where they exist).
//!
//! PCF syntax (nextpnr `docs/ice40.md`):
//! `set_io [-nowarn] [-pullup yes|no] port pin` and `set_frequency net MHz`.
//! Every iCE40 has internal pull-ups; **no iCE40 has internal pull-downs**.

mod alchitry_cu;
mod alchitry_cu_v2;
mod go_board;
mod icebreaker;
mod icestick;
mod pcf;
mod resource;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use pcf::{render_full_pcf, render_pcf};
pub use resource::{Colour, Kind, Resource};

/// Which board to target. The string forms (`FromStr`/`Display`/serde) are the
/// CLI names: `icebreaker`, `go-board`, `alchitry-cu`, `alchitry-cu-v2`,
/// `icestick`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum BoardId {
    /// 1BitSquared iCEBreaker (iCE40UP5K-SG48). The default.
    #[default]
    Icebreaker,
    /// Nandland Go Board (iCE40HX1K-VQ100).
    GoBoard,
    /// Alchitry Cu V1 with an Io V1 element (iCE40HX8K-CB132).
    AlchitryCu,
    /// Alchitry Cu V2 with an Io V2 element (iCE40HX8K-CB132). Medium confidence.
    AlchitryCuV2,
    /// Lattice iCEstick (iCE40HX1K-TQ144).
    Icestick,
}

impl BoardId {
    /// Every board, in a fixed order (the default first).
    pub const ALL: [BoardId; 5] = [
        BoardId::Icebreaker,
        BoardId::GoBoard,
        BoardId::AlchitryCu,
        BoardId::AlchitryCuV2,
        BoardId::Icestick,
    ];

    /// The CLI name, e.g. `"go-board"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            BoardId::Icebreaker => "icebreaker",
            BoardId::GoBoard => "go-board",
            BoardId::AlchitryCu => "alchitry-cu",
            BoardId::AlchitryCuV2 => "alchitry-cu-v2",
            BoardId::Icestick => "icestick",
        }
    }

    /// The CLI names of every board, in [`BoardId::ALL`] order.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|id| id.as_str()).collect()
    }

    /// The board data for this id.
    pub fn board(self) -> &'static Board {
        Board::get(self)
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BoardId {
    type Err = BoardError;

    /// Parses a CLI name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BoardId::ALL
            .into_iter()
            .find(|id| id.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| BoardError::UnknownBoard {
                name: s.to_string(),
                known: BoardId::names(),
            })
    }
}

/// The iCE40 part, as far as nextpnr-ice40 cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Device {
    Hx1k,
    Hx8k,
    Up5k,
    Lp8k,
}

impl Device {
    /// The nextpnr-ice40 device flag, e.g. `"--hx1k"`.
    pub const fn nextpnr_flag(self) -> &'static str {
        match self {
            Device::Hx1k => "--hx1k",
            Device::Hx8k => "--hx8k",
            Device::Up5k => "--up5k",
            Device::Lp8k => "--lp8k",
        }
    }

    /// Lattice's part family name, e.g. `"iCE40HX1K"`.
    pub const fn part(self) -> &'static str {
        match self {
            Device::Hx1k => "iCE40HX1K",
            Device::Hx8k => "iCE40HX8K",
            Device::Up5k => "iCE40UP5K",
            Device::Lp8k => "iCE40LP8K",
        }
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.part())
    }
}

/// Signal direction as seen from the FPGA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dir {
    Input,
    Output,
    /// Free header pins (PMOD) that the design may use either way.
    Inout,
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::Input => "input",
            Dir::Output => "output",
            Dir::Inout => "inout",
        })
    }
}

/// Which logic level means "pressed" / "lit" / "selected".
///
/// For PMOD pins it is nominal (`ActiveHigh` = no inversion).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Polarity {
    ActiveHigh,
    ActiveLow,
}

impl fmt::Display for Polarity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Polarity::ActiveHigh => "active high",
            Polarity::ActiveLow => "active low",
        })
    }
}

/// What a pin is for. The declaration order is the group order of
/// [`render_full_pcf`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Clock,
    Reset,
    /// Momentary push button.
    Button,
    /// Latching (DIP) switch.
    Switch,
    Led,
    /// One segment of a 7-segment display (or its decimal point).
    Segment,
    /// Digit select (common anode/cathode enable) of a multiplexed display.
    DigitSelect,
    /// Free header pin.
    Pmod,
}

impl Role {
    /// Every role, in group order.
    pub const ALL: [Role; 8] = [
        Role::Clock,
        Role::Reset,
        Role::Button,
        Role::Switch,
        Role::Led,
        Role::Segment,
        Role::DigitSelect,
        Role::Pmod,
    ];

    /// Lower-case name, e.g. `"digit select"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Clock => "clock",
            Role::Reset => "reset",
            Role::Button => "button",
            Role::Switch => "switch",
            Role::Led => "led",
            Role::Segment => "segment",
            Role::DigitSelect => "digit select",
            Role::Pmod => "pmod",
        }
    }

    /// Heading used for the role's group in [`render_full_pcf`].
    pub const fn heading(self) -> &'static str {
        match self {
            Role::Clock => "Clock",
            Role::Reset => "Reset",
            Role::Button => "Buttons",
            Role::Switch => "Switches",
            Role::Led => "LEDs",
            Role::Segment => "7-segment segments",
            Role::DigitSelect => "7-segment digit selects",
            Role::Pmod => "PMOD / free header pins",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How well the pin map is backed by sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Several independent sources agree.
    High,
    /// Derived from one source, not cross-checked.
    Medium,
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Confidence::High => "high",
            Confidence::Medium => "medium",
        })
    }
}

/// One FPGA pin as the design sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct PinDef {
    /// The PCF / top-level port name, e.g. `"BTN1"`, `"LED1"`, `"io_dip[0]"`.
    pub name: &'static str,
    /// Package pin or BGA ball, e.g. `"20"`, `"P7"`, `"G12"`.
    pub location: &'static str,
    pub dir: Dir,
    pub polarity: Polarity,
    /// Turn on the iCE40 internal pull-up (`-pullup yes`).
    pub pull_up: bool,
    /// The input floats when inactive and the board has no pull-down, so the
    /// design must emulate one (briefly drive low, release, sample ~30 ns
    /// later; the port must then be `inout`). Alchitry Cu + Io V1 only.
    pub needs_pull_down_emulation: bool,
    pub role: Role,
    /// Short human note (position, colour, connector pin, caveat).
    pub note: &'static str,
}

impl PinDef {
    /// A pin with no pull-up and no pull-down emulation.
    pub const fn new(
        name: &'static str,
        location: &'static str,
        dir: Dir,
        polarity: Polarity,
        role: Role,
        note: &'static str,
    ) -> Self {
        PinDef {
            name,
            location,
            dir,
            polarity,
            pull_up: false,
            needs_pull_down_emulation: false,
            role,
            note,
        }
    }

    /// The board's oscillator input.
    pub const fn clock(name: &'static str, location: &'static str, note: &'static str) -> Self {
        Self::new(
            name,
            location,
            Dir::Input,
            Polarity::ActiveHigh,
            Role::Clock,
            note,
        )
    }

    /// A reset push button's input.
    pub const fn reset(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(name, location, Dir::Input, polarity, Role::Reset, note)
    }

    /// A momentary push button's input.
    pub const fn button(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(name, location, Dir::Input, polarity, Role::Button, note)
    }

    /// A latching (DIP) switch's input.
    pub const fn switch(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(name, location, Dir::Input, polarity, Role::Switch, note)
    }

    /// An LED's output.
    pub const fn led(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(name, location, Dir::Output, polarity, Role::Led, note)
    }

    /// A 7-segment segment's output.
    pub const fn segment(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(name, location, Dir::Output, polarity, Role::Segment, note)
    }

    /// A multiplexed display's digit select output.
    pub const fn digit_select(
        name: &'static str,
        location: &'static str,
        polarity: Polarity,
        note: &'static str,
    ) -> Self {
        Self::new(
            name,
            location,
            Dir::Output,
            polarity,
            Role::DigitSelect,
            note,
        )
    }

    /// A free header pin (either direction; polarity nominal).
    pub const fn header(name: &'static str, location: &'static str, note: &'static str) -> Self {
        Self::new(
            name,
            location,
            Dir::Inout,
            Polarity::ActiveHigh,
            Role::Pmod,
            note,
        )
    }

    /// The same pin with the internal pull-up turned on.
    pub const fn with_pull_up(mut self) -> Self {
        self.pull_up = true;
        self
    }

    /// The same pin marked as needing pull-down emulation.
    pub const fn with_pull_down_emulation(mut self) -> Self {
        self.needs_pull_down_emulation = true;
        self
    }

    pub const fn is_active_low(&self) -> bool {
        matches!(self.polarity, Polarity::ActiveLow)
    }

    /// For a bus bit such as `"io_dip[3]"`, the base name and index
    /// (`("io_dip", 3)`); `None` for scalar names.
    pub fn bus_bit(&self) -> Option<(&'static str, u32)> {
        split_bus_bit(self.name)
    }
}

pub(crate) fn split_bus_bit(name: &str) -> Option<(&str, u32)> {
    let open = name.find('[')?;
    let index = name.strip_suffix(']')?.get(open + 1..)?;
    let index = index.parse().ok()?;
    Some((&name[..open], index))
}

/// The board's main clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Clock {
    /// Port name of the clock pin: the pin of the board's [`Kind::Clock`] resource.
    pub pin: &'static str,
    pub hz: u32,
}

/// An iCE40 PLL setting (`SB_PLL40_CORE`, simple feedback) that makes a design's clock from the
/// board clock: `hz = board hz * (divf + 1) / ((divr + 1) * 2^divq)`, the values `icepll -i <board
/// MHz> -o <MHz>` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Pll {
    /// The output clock, Hz.
    pub hz: u32,
    /// Reference divider (`DIVR`, 0..=15).
    pub divr: u8,
    /// Feedback divider (`DIVF`, 0..=127).
    pub divf: u8,
    /// Output divider, a power of two (`DIVQ`, 1..=6).
    pub divq: u8,
    /// Loop filter range (`FILTER_RANGE`, 0..=7).
    pub filter_range: u8,
}

impl Pll {
    /// The output frequency the dividers give from a `reference_hz` input, Hz.
    pub fn output_hz(&self, reference_hz: u32) -> f64 {
        f64::from(reference_hz) * f64::from(self.divf + 1)
            / (f64::from(self.divr + 1) * f64::from(1u32 << self.divq))
    }

    /// The VCO frequency (533 to 1066 MHz on the iCE40), Hz.
    pub fn vco_hz(&self, reference_hz: u32) -> f64 {
        f64::from(reference_hz) * f64::from(self.divf + 1) / f64::from(self.divr + 1)
    }
}

/// A board: part, package, clock, PLL settings and everything a design may use on it.
///
/// The design-keyed clock queries ([`Board::pll`], [`Board::design_clock_hz`],
/// [`Board::design_clock_mhz`]) are defined with the designs, in `crate::circuit::top`: which
/// clock a design runs at is the design's choice, made from the settings [`Board::plls`] offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Board {
    pub id: BoardId,
    /// Human name, e.g. `"1BitSquared iCEBreaker"`.
    pub name: &'static str,
    pub device: Device,
    /// nextpnr package name, e.g. `"sg48"`.
    pub package: &'static str,
    pub clock: Clock,
    /// What the board has, in board order; their pins, in that order, are [`Board::pins`].
    pub resources: &'static [Resource],
    /// Where the pins come from (one line each, for PCF headers and docs).
    pub sources: &'static [&'static str],
    pub confidence: Confidence,
    /// PLL settings a design may run at instead of [`Clock::hz`], one per output frequency.
    pub plls: &'static [Pll],
    /// Caveats worth repeating in every generated PCF.
    pub notes: &'static [&'static str],
}

impl Board {
    /// The static data for `id`.
    pub fn get(id: BoardId) -> &'static Board {
        match id {
            BoardId::Icebreaker => &icebreaker::BOARD,
            BoardId::GoBoard => &go_board::BOARD,
            BoardId::AlchitryCu => &alchitry_cu::BOARD,
            BoardId::AlchitryCuV2 => &alchitry_cu_v2::BOARD,
            BoardId::Icestick => &icestick::BOARD,
        }
    }

    /// Every board, in [`BoardId::ALL`] order.
    pub fn all() -> impl Iterator<Item = &'static Board> {
        BoardId::ALL.into_iter().map(Board::get)
    }

    /// Every pin, in board order: the pins of each resource in turn (scalar pins, then buses in
    /// index order).
    pub fn pins(&self) -> impl Iterator<Item = &PinDef> + '_ {
        self.resources.iter().flat_map(Resource::pins)
    }

    /// The resource a design requests by `name` (case-sensitive, like PCF).
    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| r.name == name)
    }

    /// The pin with exactly this port name (case-sensitive, like PCF).
    pub fn pin(&self, name: &str) -> Option<&PinDef> {
        self.pins().find(|p| p.name == name)
    }

    /// The bits of bus `base` (e.g. `"led"` -> `led[0]`, `led[1]`, ...) in
    /// index order; empty if there is no such bus.
    pub fn bus(&self, base: &str) -> Vec<&PinDef> {
        bus_bits(self.pins(), base)
    }

    /// All pins with the given role, in board order.
    pub fn pins_with_role(&self, role: Role) -> impl Iterator<Item = &PinDef> + '_ {
        self.pins().filter(move |p| p.role == role)
    }

    /// The clock's pin definition.
    pub fn clock_pin(&self) -> &PinDef {
        self.pin(self.clock.pin)
            .expect("board data: clock pin is listed in pins")
    }

    /// nextpnr-ice40 arguments for the part, e.g. `["--up5k", "--package", "sg48"]`.
    pub fn nextpnr_args(&self) -> Vec<String> {
        vec![
            self.device.nextpnr_flag().to_string(),
            "--package".to_string(),
            self.package.to_string(),
        ]
    }

    pub fn clock_mhz(&self) -> f64 {
        f64::from(self.clock.hz) / 1_000_000.0
    }

    /// The board's PLL setting that makes `hz` from its clock, if it lists one.
    pub fn pll_at(&self, hz: u32) -> Option<&Pll> {
        self.plls.iter().find(|p| p.hz == hz)
    }

    /// Whether any input needs pull-down emulation in the design.
    pub fn needs_pull_down_emulation(&self) -> bool {
        self.pins().any(|p| p.needs_pull_down_emulation)
    }

    /// A markdown table of every pin (name, pin, direction, polarity, role,
    /// note), header row included, one row per line. Polarity is `-` for the
    /// clock and PMOD pins, where it means nothing.
    pub fn doc_table(&self) -> String {
        let mut out = String::from(
            "| Name | Pin | Direction | Polarity | Role | Note |\n|---|---|---|---|---|---|\n",
        );
        for p in self.pins() {
            let mut note = String::new();
            if p.pull_up {
                note.push_str("internal pull-up");
            }
            if p.needs_pull_down_emulation {
                if !note.is_empty() {
                    note.push_str("; ");
                }
                note.push_str("needs pull-down emulation");
            }
            if !p.note.is_empty() {
                if !note.is_empty() {
                    note.push_str("; ");
                }
                note.push_str(p.note);
            }
            let polarity = match p.role {
                Role::Clock | Role::Pmod => "-".to_string(),
                _ => p.polarity.to_string(),
            };
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                p.name,
                p.location,
                p.dir,
                polarity,
                p.role,
                note.replace('|', "\\|")
            ));
        }
        out
    }

    /// A markdown table of the board's resources (the name a design requests, the board's
    /// label, what it is, its pins), header row included, one row per line.
    pub fn resource_table(&self) -> String {
        let mut out = String::from("| Resource | Label | What it is | Pins |\n|---|---|---|---|\n");
        for r in self.resources {
            let pins = r.pins();
            let names: Vec<&str> = pins.iter().map(|p| p.name).collect();
            let at = match pins {
                [pin] => pin.location.to_string(),
                // A bus, or buses: `io_dip[0..23]`.
                _ if names.iter().all(|n| split_bus_bit(n).is_some()) => {
                    format!("{}: `{}`", pins.len(), summarize_names(&names)).replace(", ", "`, `")
                }
                // Pins of their own: the first and the last.
                [first, .., last] => format!("{}: `{}` .. `{}`", pins.len(), first.name, last.name),
                [] => String::new(),
            };
            out.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                r.name,
                r.label.replace('|', "\\|"),
                r.describe(self).replace('|', "\\|"),
                at
            ));
        }
        out
    }
}

/// The bits of bus `base` among `pins`, in index order.
fn bus_bits<'a>(pins: impl Iterator<Item = &'a PinDef>, base: &str) -> Vec<&'a PinDef> {
    let mut bits: Vec<(u32, &PinDef)> = pins
        .filter_map(|p| match p.bus_bit() {
            Some((b, i)) if b == base => Some((i, p)),
            _ => None,
        })
        .collect();
    bits.sort_by_key(|&(i, _)| i);
    bits.into_iter().map(|(_, p)| p).collect()
}

/// Errors from board lookup and PCF rendering.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("unknown board `{name}`; valid boards: {}", .known.join(", "))]
    UnknownBoard {
        name: String,
        known: Vec<&'static str>,
    },
    #[error(
        "unknown port `{port}` for board `{board}` ({}); valid ports: {} (a bus name such as `led` selects all its bits)",
        Board::get(*.board).name,
        summarize_names(.known)
    )]
    UnknownPort {
        board: BoardId,
        port: String,
        /// Every pin name of the board, in board order.
        known: Vec<&'static str>,
    },
    #[error("port `{port}` is listed more than once for board `{board}`")]
    DuplicatePort { board: BoardId, port: String },
}

/// Joins names with `", "`, folding runs of consecutive bus bits into
/// `base[first..last]`.
fn summarize_names(names: &[&str]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < names.len() {
        if let Some((base, first)) = split_bus_bit(names[i]) {
            let mut last = first;
            let mut j = i + 1;
            while j < names.len() {
                match split_bus_bit(names[j]) {
                    Some((b, k)) if b == base && k == last + 1 => {
                        last = k;
                        j += 1;
                    }
                    _ => break,
                }
            }
            if last > first {
                parts.push(format!("{base}[{first}..{last}]"));
            } else {
                parts.push(names[i].to_string());
            }
            i = j;
        } else {
            parts.push(names[i].to_string());
            i += 1;
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn pin_names_and_locations_are_unique() {
        for board in Board::all() {
            let mut names = BTreeSet::new();
            let mut locations = BTreeSet::new();
            for p in board.pins() {
                assert!(
                    names.insert(p.name),
                    "{}: duplicate name {}",
                    board.id,
                    p.name
                );
                assert!(
                    locations.insert(p.location),
                    "{}: duplicate location {} ({})",
                    board.id,
                    p.location,
                    p.name
                );
            }
        }
    }

    #[test]
    fn pin_fields_are_well_formed() {
        for board in Board::all() {
            for p in board.pins() {
                assert!(!p.name.is_empty() && !p.location.is_empty());
                for s in [p.name, p.location] {
                    assert!(
                        !s.contains(|c: char| c.is_whitespace() || c == '#'),
                        "{}: bad token {s:?}",
                        board.id
                    );
                }
                assert!(!p.note.contains('\n'));
                if p.pull_up || p.needs_pull_down_emulation {
                    assert_eq!(p.dir, Dir::Input, "{}: {}", board.id, p.name);
                }
            }
        }
    }

    #[test]
    fn board_ids_and_get_agree() {
        for id in BoardId::ALL {
            assert_eq!(Board::get(id).id, id);
            assert_eq!(id.board().id, id);
        }
    }

    #[test]
    fn clock_pin_is_a_clock_input() {
        for board in Board::all() {
            let clk = board.clock_pin();
            assert_eq!(clk.role, Role::Clock, "{}", board.id);
            assert_eq!(clk.dir, Dir::Input, "{}", board.id);
            assert_eq!(board.pins_with_role(Role::Clock).count(), 1, "{}", board.id);
        }
    }

    #[test]
    fn from_str_round_trips() {
        for id in BoardId::ALL {
            assert_eq!(id.to_string().parse::<BoardId>().unwrap(), id);
            assert_eq!(id.as_str().to_uppercase().parse::<BoardId>().unwrap(), id);
            let json = serde_json::to_string(&id).unwrap();
            assert_eq!(json, format!("\"{id}\""));
            assert_eq!(serde_json::from_str::<BoardId>(&json).unwrap(), id);
        }
        assert_eq!(
            BoardId::names(),
            [
                "icebreaker",
                "go-board",
                "alchitry-cu",
                "alchitry-cu-v2",
                "icestick"
            ]
        );
    }

    #[test]
    fn unknown_board_is_an_error() {
        let err = "icebreaker2".parse::<BoardId>().unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("`icebreaker2`"), "{msg}");
        assert!(msg.contains("icebreaker, go-board, alchitry-cu"), "{msg}");
    }

    #[test]
    fn default_is_icebreaker() {
        assert_eq!(BoardId::default(), BoardId::Icebreaker);
        assert_eq!(BoardId::ALL[0], BoardId::default());
    }

    /// The independent answer from the vendor's PCF (icebreaker-fpga/icebreaker-examples), its
    /// KiCad netlist and the front silkscreen, not icestorm's old numbering.
    #[test]
    fn icebreaker_snap_off_pins() {
        let b = Board::get(BoardId::Icebreaker);
        let loc = |n: &str| b.pin(n).unwrap().location;
        assert_eq!(loc("LED1"), "26");
        assert_eq!(loc("BTN1"), "20");
        let leds: Vec<_> = ["LED1", "LED2", "LED3", "LED4", "LED5"]
            .into_iter()
            .map(loc)
            .collect();
        assert_eq!(leds, ["26", "27", "25", "23", "21"]);
        let btns: Vec<_> = ["BTN1", "BTN2", "BTN3"].into_iter().map(loc).collect();
        assert_eq!(btns, ["20", "19", "18"]);
        for n in ["LED1", "LED5", "BTN1", "BTN3"] {
            assert_eq!(b.pin(n).unwrap().polarity, Polarity::ActiveHigh);
        }
        for n in ["BTN_N", "LEDR_N", "LEDG_N"] {
            assert_eq!(b.pin(n).unwrap().polarity, Polarity::ActiveLow, "{n}");
        }
        assert_eq!(b.nextpnr_args(), ["--up5k", "--package", "sg48"]);
        assert_eq!(b.clock_mhz(), 12.0);
        assert_eq!(b.clock_pin().location, "35");
    }

    /// Every PLL setting a board offers gives its frequency exactly from the board clock, within
    /// the iCE40 PLL's ranges (iCE40 sysCLOCK PLL guide: PFD 10 to 133 MHz, VCO 533 to 1066 MHz):
    /// the two Cu offer 50 and 25 MHz (`icepll -i 100 -o 50`, `-o 25`), the other boards nothing.
    #[test]
    fn board_plls_are_reachable_settings() {
        for board in Board::all() {
            for pll in board.plls {
                assert_eq!(
                    pll.output_hz(board.clock.hz),
                    f64::from(pll.hz),
                    "{}",
                    board.id
                );
                let pfd = f64::from(board.clock.hz) / f64::from(pll.divr + 1);
                assert!((10e6..=133e6).contains(&pfd), "{}: PFD {pfd}", board.id);
                let vco = pll.vco_hz(board.clock.hz);
                assert!((533e6..=1066e6).contains(&vco), "{}: VCO {vco}", board.id);
                assert!((1..=6).contains(&pll.divq) && pll.divr <= 15 && pll.divf <= 127);
                assert!(pll.filter_range <= 7);
                assert_eq!(board.pll_at(pll.hz), Some(pll));
            }
        }
        for id in [BoardId::AlchitryCu, BoardId::AlchitryCuV2] {
            let pll = Board::get(id).pll_at(50_000_000).expect("50 MHz");
            assert_eq!(
                (pll.divr, pll.divf, pll.divq, pll.filter_range),
                (0, 7, 4, 5)
            );
            let pll = Board::get(id).pll_at(25_000_000).expect("25 MHz");
            assert_eq!(
                (pll.divr, pll.divf, pll.divq, pll.filter_range),
                (0, 7, 5, 5)
            );
            assert!(Board::get(id).pll_at(100_000_000).is_none());
        }
        for id in [BoardId::Icebreaker, BoardId::GoBoard, BoardId::Icestick] {
            assert!(Board::get(id).plls.is_empty());
        }
    }

    #[test]
    fn polarity_facts() {
        let go = Board::get(BoardId::GoBoard);
        assert_eq!(go.pins_with_role(Role::Segment).count(), 14);
        assert!(go.pins_with_role(Role::Segment).all(|p| p.is_active_low()));
        assert!(go.pins_with_role(Role::Button).all(|p| !p.is_active_low()));
        assert_eq!(go.nextpnr_args(), ["--hx1k", "--package", "vq100"]);
        assert_eq!(go.clock_mhz(), 25.0);

        for id in [BoardId::AlchitryCu, BoardId::AlchitryCuV2] {
            let cu = Board::get(id);
            assert_eq!(cu.nextpnr_args(), ["--hx8k", "--package", "cb132"]);
            assert_eq!(cu.clock_mhz(), 100.0);
            assert_eq!(cu.pin("rst_n").unwrap().polarity, Polarity::ActiveLow);
            for (bus, len, pol) in [
                ("led", 8, Polarity::ActiveHigh),
                ("io_led", 24, Polarity::ActiveHigh),
                ("io_dip", 24, Polarity::ActiveHigh),
                ("io_button", 5, Polarity::ActiveHigh),
                ("io_sel", 4, Polarity::ActiveLow),
                ("io_seg", 8, Polarity::ActiveLow),
            ] {
                let bits = cu.bus(bus);
                assert_eq!(bits.len(), len, "{id} {bus}");
                assert!(bits.iter().all(|p| p.polarity == pol), "{id} {bus}");
            }
            let emulate = id == BoardId::AlchitryCu;
            assert_eq!(cu.needs_pull_down_emulation(), emulate);
            for p in cu.bus("io_dip").into_iter().chain(cu.bus("io_button")) {
                assert_eq!(p.needs_pull_down_emulation, emulate, "{id} {}", p.name);
            }
        }
        assert_eq!(Board::get(BoardId::AlchitryCu).confidence, Confidence::High);
        assert_eq!(
            Board::get(BoardId::AlchitryCuV2).confidence,
            Confidence::Medium
        );

        let stick = Board::get(BoardId::Icestick);
        assert_eq!(stick.nextpnr_args(), ["--hx1k", "--package", "tq144"]);
        for (n, loc) in [("BTN1", "78"), ("BTN2", "79"), ("BTN3", "80")] {
            let p = stick.pin(n).unwrap();
            assert_eq!(p.location, loc);
            assert!(p.pull_up && p.is_active_low());
        }
        let pulled: Vec<_> = Board::all()
            .flat_map(|b| b.pins().filter(|p| p.pull_up).map(|p| (b.id, p.name)))
            .collect();
        assert_eq!(
            pulled,
            [
                (BoardId::Icestick, "BTN1"),
                (BoardId::Icestick, "BTN2"),
                (BoardId::Icestick, "BTN3")
            ]
        );
    }

    /// Each resource's pins are what its kind says, in order: one-pin resources are named after
    /// their pin; banks are the bits 0, 1, ... of the bus they are named after; a digit has 7
    /// or 8 segment pins; a display has its digit selects, then its segments, each one bus; a
    /// button bank names every button; names are unique, labels given, and the clock resource
    /// is the board's clock.
    #[test]
    fn resources_describe_their_pins() {
        for board in Board::all() {
            let mut names = BTreeSet::new();
            for r in board.resources {
                let what = format!("{}: {}", board.id, r.name);
                assert!(names.insert(r.name), "{what}: twice");
                assert!(!r.label.is_empty() && !r.label.contains('|'), "{what}");
                let pins = r.pins();
                if let Some(role) = r.pin_role() {
                    assert!(pins.iter().all(|p| p.role == role), "{what}");
                }
                match r.kind {
                    Kind::Clock => {
                        assert_eq!(pins.len(), 1, "{what}");
                        assert_eq!(r.name, board.clock.pin, "{what}");
                    }
                    Kind::ResetButton | Kind::Button | Kind::Led(_) | Kind::Header => {
                        assert_eq!(pins.len(), 1, "{what}");
                        assert_eq!(r.name, pins[0].name, "{what}");
                    }
                    Kind::ButtonBank { .. } | Kind::SwitchBank | Kind::LedBank(_) => {
                        let bits: Vec<_> = pins.iter().map(|p| p.bus_bit()).collect();
                        let want: Vec<_> =
                            (0..pins.len() as u32).map(|i| Some((r.name, i))).collect();
                        assert_eq!(bits, want, "{what}");
                        if let Kind::ButtonBank { labels } = r.kind {
                            assert_eq!(labels.len(), pins.len(), "{what}");
                        }
                    }
                    Kind::Digit => assert!([7, 8].contains(&pins.len()), "{what}"),
                    Kind::MuxDisplay { digits } => {
                        let selects = r.pins_with_role(Role::DigitSelect);
                        let segments = r.pins_with_role(Role::Segment);
                        assert_eq!(selects.len(), usize::from(digits), "{what}");
                        assert_eq!(segments.len(), 8, "{what}");
                        assert_eq!(selects.len() + segments.len(), pins.len(), "{what}");
                        assert!(pins[..selects.len()]
                            .iter()
                            .all(|p| p.role == Role::DigitSelect));
                        for role in [Role::DigitSelect, Role::Segment] {
                            let bus = r.bus_name(role).expect("one bus");
                            let bits: Vec<_> = board.bus(bus).into_iter().map(|p| p.name).collect();
                            let own: Vec<_> =
                                r.pins_with_role(role).iter().map(|p| p.name).collect();
                            assert_eq!(bits, own, "{what}");
                        }
                    }
                }
            }
            assert_eq!(
                board
                    .resources
                    .iter()
                    .filter(|r| r.kind == Kind::Clock)
                    .count(),
                1,
                "{}",
                board.id
            );
        }
    }

    /// The resource table has a row per resource; the iCEBreaker's user button and the Io's DIP
    /// switches read as the board data says.
    #[test]
    fn resource_tables() {
        for board in Board::all() {
            assert_eq!(
                board.resource_table().lines().count(),
                board.resources.len() + 2
            );
        }
        let ice = Board::get(BoardId::Icebreaker).resource_table();
        assert!(
            ice.contains("| `BTN_N` | user button | push button, active low | 10 |"),
            "{ice}"
        );
        let go = Board::get(BoardId::GoBoard).resource_table();
        assert!(
            go.contains(
                "| `Segment1` | left digit | 7-segment digit (7 segment pins), active low | 7: \
                 `o_Segment1_A` .. `o_Segment1_G` |"
            ),
            "{go}"
        );
        let cu = Board::get(BoardId::AlchitryCu).resource_table();
        assert!(
            cu.contains(
                "| `io_dip` | Io DIP switches | 24 DIP switches, active high, needs pull-down \
                 emulation | 24: `io_dip[0..23]` |"
            ),
            "{cu}"
        );
    }

    #[test]
    fn bus_bits_parse() {
        assert_eq!(split_bus_bit("io_dip[23]"), Some(("io_dip", 23)));
        assert_eq!(split_bus_bit("LED1"), None);
        assert_eq!(split_bus_bit("x[]"), None);
        assert_eq!(
            summarize_names(&["clk", "led[0]", "led[1]", "led[2]", "io_sel[0]", "BTN1"]),
            "clk, led[0..2], io_sel[0], BTN1"
        );
    }

    #[test]
    fn doc_tables() {
        for board in Board::all() {
            let table = board.doc_table();
            assert_eq!(table.lines().count(), board.pins().count() + 2);
            insta::assert_snapshot!(format!("doc_table_{}", board.id), table);
        }
    }
}
