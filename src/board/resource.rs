//! What a board has for a design to use: [`Resource`]s, each one thing on the board (a button,
//! an LED, a bank of DIP switches, a 7-segment digit, ...) with its pins.
//!
//! A design requests a resource by its [`Resource::name`] (see `crate::circuit::top::Wire`); a
//! program that draws a board (a virtual board in a terminal, the tables of `docs/boards.md`)
//! reads the [`Kind`], the [`Resource::label`] and the pins' polarities. Resources are listed in
//! board order, and their pins in that order are the board's pins: the PCF groups and the pin
//! tables follow it.

use std::fmt;

use serde::Serialize;

use super::{split_bus_bit, Board, PinDef, Polarity, Role};

/// An LED's colour, where the board's sources give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Colour {
    Red,
    Green,
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Green => "green",
        })
    }
}

/// What kind of thing a [`Resource`] is, and how its pins are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The board's oscillator ([`Board::clock`] names its pin).
    Clock,
    /// A push button that resets the design (the Alchitry Cu's).
    ResetButton,
    /// A momentary push button.
    Button,
    /// Push buttons on one bus: button `i` is `pins[i]`, called `labels[i]`.
    ButtonBank {
        /// The buttons' names, in bus order (e.g. `up`, `centre`, ...).
        labels: &'static [&'static str],
    },
    /// Latching (DIP) switches on one bus: switch `i` is `pins[i]`.
    SwitchBank,
    /// One LED, of the colour given where the sources say it.
    Led(Option<Colour>),
    /// LEDs on one bus: LED `i` is `pins[i]`.
    LedBank(Option<Colour>),
    /// A 7-segment digit with a pin per segment: `pins[n]` is segment `n` (A = 0 .. G = 6,
    /// then the decimal point if it has a pin).
    Digit,
    /// `digits` 7-segment digits sharing one segment bus, lit one at a time: the digit select
    /// pins first (select `i` is digit `i` from the right), then the segment pins (segment `n` is
    /// bit `n`: A = 0 .. G = 6, decimal point 7).
    MuxDisplay {
        /// Number of digits.
        digits: u8,
    },
    /// A free header pin.
    Header,
}

/// The pins of a resource: one, or a bus (or a digit's segments) in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
enum Pins {
    One(PinDef),
    Many(&'static [PinDef]),
}

/// One thing on a board that a design may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Resource {
    /// The name a design requests it by: its pin's PCF name for a one-pin resource (`BTN1`),
    /// the bus name for a bank (`io_dip`), a name of its own for a digit or a display
    /// (`Segment1`, `io_display`).
    pub name: &'static str,
    /// What the board calls it: the label printed beside it where the sources give one (`L1`,
    /// `D5`, `SW1`), otherwise the short description its documentation uses (`user button`,
    /// `left digit`).
    pub label: &'static str,
    /// What it is.
    pub kind: Kind,
    pins: Pins,
}

impl Resource {
    /// A one-pin resource, named after its pin.
    pub const fn one(label: &'static str, kind: Kind, pin: PinDef) -> Self {
        Resource {
            name: pin.name,
            label,
            kind,
            pins: Pins::One(pin),
        }
    }

    /// One LED, of `colour` where the sources give it.
    pub const fn led(label: &'static str, colour: Option<Colour>, pin: PinDef) -> Self {
        Self::one(label, Kind::Led(colour), pin)
    }

    /// One push button.
    pub const fn button(label: &'static str, pin: PinDef) -> Self {
        Self::one(label, Kind::Button, pin)
    }

    /// One free header pin, labelled as its note says.
    pub const fn header(pin: PinDef) -> Self {
        Self::one(pin.note, Kind::Header, pin)
    }

    /// A resource of several pins (a bank, a digit, a display), in order.
    pub const fn many(
        name: &'static str,
        label: &'static str,
        kind: Kind,
        pins: &'static [PinDef],
    ) -> Self {
        Resource {
            name,
            label,
            kind,
            pins: Pins::Many(pins),
        }
    }

    /// Its pins, in order.
    pub fn pins(&self) -> &[PinDef] {
        match &self.pins {
            Pins::One(pin) => std::slice::from_ref(pin),
            Pins::Many(pins) => pins,
        }
    }

    /// The pins of a display that have `role` (its segments, or its digit selects), in order.
    pub fn pins_with_role(&self, role: Role) -> Vec<&PinDef> {
        self.pins().iter().filter(|p| p.role == role).collect()
    }

    /// The bus name of the pins with `role` (`io_seg` for a display's segments), if they
    /// form one bus.
    pub fn bus_name(&self, role: Role) -> Option<&'static str> {
        let pins = self.pins_with_role(role);
        let (base, _) = split_bus_bit(pins.first()?.name)?;
        pins.iter()
            .all(|p| split_bus_bit(p.name).is_some_and(|(b, _)| b == base))
            .then_some(base)
    }

    /// The role its pins should have: what [`Kind`] means for the PCF groups (a display's pins
    /// are segments and digit selects, so `None`).
    pub const fn pin_role(&self) -> Option<Role> {
        Some(match self.kind {
            Kind::Clock => Role::Clock,
            Kind::ResetButton => Role::Reset,
            Kind::Button | Kind::ButtonBank { .. } => Role::Button,
            Kind::SwitchBank => Role::Switch,
            Kind::Led(_) | Kind::LedBank(_) => Role::Led,
            Kind::Digit => Role::Segment,
            Kind::Header => Role::Pmod,
            Kind::MuxDisplay { .. } => return None,
        })
    }

    /// What it is, in words: kind, size, colour, polarity, pull-down emulation (`on` the
    /// board, whose clock it may be).
    pub fn describe(&self, on: &Board) -> String {
        let pins = self.pins();
        let n = pins.len();
        let polarity = |pins: &[&PinDef]| -> String {
            let low = pins
                .iter()
                .filter(|p| p.polarity == Polarity::ActiveLow)
                .count();
            match (low, pins.len()) {
                (0, _) => Polarity::ActiveHigh.to_string(),
                (l, all) if l == all => Polarity::ActiveLow.to_string(),
                _ => "mixed polarity".to_string(),
            }
        };
        let all: Vec<&PinDef> = pins.iter().collect();
        let mut parts = vec![match self.kind {
            Kind::Clock => format!("clock, {} MHz", on.clock_mhz()),
            Kind::ResetButton => "reset button".to_string(),
            Kind::Button => "push button".to_string(),
            Kind::ButtonBank { labels } => format!("{n} push buttons ({})", labels.join(", ")),
            Kind::SwitchBank => format!("{n} DIP switches"),
            Kind::Led(colour) => match colour {
                Some(c) => format!("{c} LED"),
                None => "LED".to_string(),
            },
            Kind::LedBank(colour) => match colour {
                Some(c) => format!("{n} {c} LEDs"),
                None => format!("{n} LEDs"),
            },
            Kind::Digit => format!("7-segment digit ({n} segment pins)"),
            Kind::MuxDisplay { digits } => format!(
                "{digits}-digit 7-segment display, multiplexed ({} segment, {} select pins)",
                self.pins_with_role(Role::Segment).len(),
                self.pins_with_role(Role::DigitSelect).len()
            ),
            Kind::Header => "free header pin".to_string(),
        }];
        match self.kind {
            Kind::Clock | Kind::Header => {}
            _ => parts.push(polarity(&all)),
        }
        if pins.iter().any(|p| p.pull_up) {
            parts.push("internal pull-up".to_string());
        }
        if pins.iter().any(|p| p.needs_pull_down_emulation) {
            parts.push("needs pull-down emulation".to_string());
        }
        parts.join(", ")
    }
}
