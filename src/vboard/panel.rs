//! What the virtual board shows and what it has to press, from the board data: each resource
//! of the board that the design's top has pins for, in the board's order, with its silkscreen
//! label ([`Resource::label`](crate::board::Resource)), the design's use of each pin (the
//! roles of `retrogate boards`), its polarity and colour, and a key for each control.

use crate::board::{Board, Colour, Kind, Polarity, Role};
use crate::circuit::top::{Design, BOARD_DESIGNS};
use crate::verilog::{ModulePort, PortDir};

/// The keys given to controls, in order: digits, then letters (`q` quits, so it is left out).
pub const CONTROL_KEYS: &str = "1234567890abcdefghijklmnoprstuvwxyz";

/// What a control does when its key is pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    /// A push button: pressed, held as a finger holds it, released.
    Button,
    /// A reset push button (pressed as a button).
    Reset,
    /// A latching switch: each press flips it.
    Switch,
}

/// One button or switch of the board, with its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    /// The key that presses (or flips) it.
    pub key: char,
    /// The board's label: the resource's, and for a bank the bit (`Io DIP switches 3`, `up`).
    pub label: String,
    /// What the design does with it (`take 1`), if anything.
    pub role: Option<String>,
    /// Its index among the top's input pins.
    pub input: usize,
    /// The pin's level when released (open).
    pub idle: bool,
    /// Button, reset or switch.
    pub kind: ControlKind,
}

/// One LED.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Led {
    /// Its label (`LED1`, or the bit of a bank).
    pub label: String,
    /// What the design shows on it, if anything.
    pub role: Option<String>,
    /// Its index among the top's output pins.
    pub output: usize,
    /// Lit at level 0.
    pub active_low: bool,
    /// Its colour, where the board data gives it.
    pub colour: Option<Colour>,
}

/// One 7-segment digit: the output pin and polarity of each segment A .. G and the decimal
/// point (`None` where the digit has no pin for it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DigitPins {
    /// Segments A = 0 .. G = 6, decimal point 7.
    pub segments: [Option<(usize, bool)>; 8],
}

/// A multiplexed display: the digits share `segments`; digit `i` (from the right) is lit while
/// its select is active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MuxPins {
    /// The shared segment pins (A = 0 .. G = 6, decimal point 7).
    pub segments: DigitPins,
    /// Digit select `i` (0 = rightmost): output index and whether it is active low.
    pub selects: Vec<(usize, bool)>,
}

/// One group of the panel, in board order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// LEDs with a label each (single LEDs of the board, gathered).
    Leds(Vec<Led>),
    /// A bank of LEDs on one bus: its label and LEDs (bit 0 first).
    LedBank(String, Vec<Led>),
    /// Digits with their own pins (left to right), with their labels.
    Digits(Vec<(String, DigitPins)>),
    /// A multiplexed display and its label.
    Mux(String, MuxPins),
    /// Buttons (indices into [`Panel::controls`]).
    Buttons(Vec<usize>),
    /// A bank of switches and its label (indices into [`Panel::controls`], bit 0 first).
    Switches(String, Vec<usize>),
}

/// The board as the virtual board draws it, and the top's pins it drives and reads.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The board.
    pub board: &'static Board,
    /// The design's line (`sticks (18 sticks, take 1,2,3, last loses)`).
    pub title: String,
    /// The top's input pins (PCF names), in port order, without the clock.
    pub inputs: Vec<String>,
    /// Each input's idle level (a released button, an open switch).
    pub idle: Vec<bool>,
    /// The top's output pins, in port order.
    pub outputs: Vec<String>,
    /// The buttons and switches, with their keys.
    pub controls: Vec<Control>,
    /// What to draw, in board order.
    pub parts: Vec<Part>,
    /// The design clock, Hz (the PLL's output where the design has one).
    pub hz: u32,
}

/// The bit names of `ports` (inputs or outputs), without the clock.
fn bits(ports: &[ModulePort], clock: &str, inputs: bool) -> Vec<String> {
    ports
        .iter()
        .filter(|p| p.name != clock)
        .filter(|p| (p.dir != PortDir::Output) == inputs)
        .flat_map(ModulePort::bit_names)
        .collect()
}

impl Panel {
    /// The panel of `design` on `board`, whose top has `ports`.
    pub fn new(board: &'static Board, design: &Design, ports: &[ModulePort]) -> Self {
        let clock = board.clock.pin;
        let inputs = bits(ports, clock, true);
        let outputs = bits(ports, clock, false);
        let low = |name: &str| {
            board
                .pin(name)
                .is_some_and(|p| p.polarity == Polarity::ActiveLow)
        };
        let idle: Vec<bool> = inputs.iter().map(|n| low(n)).collect();
        let uses = BOARD_DESIGNS
            .iter()
            .find(|d| d.name == design.name())
            .and_then(|d| (d.pin_uses)(board))
            .unwrap_or_default();
        let role = |pin: &str| {
            uses.iter()
                .find(|u| u.pin.name == pin)
                .map(|u| u.role.clone())
                .filter(|r| r != "unused")
        };
        let input = |pin: &str| inputs.iter().position(|n| n == pin);
        let output = |pin: &str| outputs.iter().position(|n| n == pin);
        let mut controls: Vec<Control> = Vec::new();
        let mut parts: Vec<Part> = Vec::new();
        for resource in board.resources {
            let pins = resource.pins();
            let control = |label: String, pin: &str, kind: ControlKind| {
                input(pin).map(|k| Control {
                    key: ' ',
                    label,
                    role: role(pin),
                    input: k,
                    idle: idle[k],
                    kind,
                })
            };
            let led = |label: String, pin: &str, colour: Option<Colour>| {
                output(pin).map(|k| Led {
                    label,
                    role: role(pin),
                    output: k,
                    active_low: low(pin),
                    colour,
                })
            };
            let digit = |pins: &[&crate::board::PinDef]| {
                let mut d = DigitPins::default();
                for (n, p) in pins.iter().enumerate().take(8) {
                    d.segments[n] = output(p.name).map(|k| (k, low(p.name)));
                }
                d
            };
            match resource.kind {
                Kind::Clock | Kind::Header => {}
                Kind::Button | Kind::ResetButton => {
                    let kind = if resource.kind == Kind::Button {
                        ControlKind::Button
                    } else {
                        ControlKind::Reset
                    };
                    if let Some(c) = control(resource.label.to_owned(), pins[0].name, kind) {
                        controls.push(c);
                        let n = controls.len() - 1;
                        match parts.last_mut() {
                            Some(Part::Buttons(list)) => list.push(n),
                            _ => parts.push(Part::Buttons(vec![n])),
                        }
                    }
                }
                Kind::ButtonBank { labels } => {
                    let mut list = Vec::new();
                    for (i, p) in pins.iter().enumerate() {
                        let label = labels
                            .get(i)
                            .map_or_else(|| format!("{} {i}", resource.label), |l| (*l).to_owned());
                        if let Some(c) = control(label, p.name, ControlKind::Button) {
                            controls.push(c);
                            list.push(controls.len() - 1);
                        }
                    }
                    if !list.is_empty() {
                        parts.push(Part::Buttons(list));
                    }
                }
                Kind::SwitchBank => {
                    let mut list = Vec::new();
                    for (i, p) in pins.iter().enumerate() {
                        let label = format!("{} {i}", resource.label);
                        if let Some(c) = control(label, p.name, ControlKind::Switch) {
                            controls.push(c);
                            list.push(controls.len() - 1);
                        }
                    }
                    if !list.is_empty() {
                        parts.push(Part::Switches(resource.label.to_owned(), list));
                    }
                }
                Kind::Led(colour) => {
                    if let Some(l) = led(resource.label.to_owned(), pins[0].name, colour) {
                        match parts.last_mut() {
                            Some(Part::Leds(list)) => list.push(l),
                            _ => parts.push(Part::Leds(vec![l])),
                        }
                    }
                }
                Kind::LedBank(colour) => {
                    let list: Vec<Led> = pins
                        .iter()
                        .enumerate()
                        .filter_map(|(i, p)| led(format!("{} {i}", resource.label), p.name, colour))
                        .collect();
                    if !list.is_empty() {
                        parts.push(Part::LedBank(resource.label.to_owned(), list));
                    }
                }
                Kind::Digit => {
                    let all: Vec<&crate::board::PinDef> = pins.iter().collect();
                    let d = digit(&all);
                    if d.segments.iter().any(Option::is_some) {
                        let entry = (resource.label.to_owned(), d);
                        match parts.last_mut() {
                            Some(Part::Digits(list)) => list.push(entry),
                            _ => parts.push(Part::Digits(vec![entry])),
                        }
                    }
                }
                Kind::MuxDisplay { .. } => {
                    let segments = digit(&resource.pins_with_role(Role::Segment));
                    let selects: Vec<(usize, bool)> = resource
                        .pins_with_role(Role::DigitSelect)
                        .iter()
                        .filter_map(|p| output(p.name).map(|k| (k, low(p.name))))
                        .collect();
                    if !selects.is_empty() {
                        parts.push(Part::Mux(
                            resource.label.to_owned(),
                            MuxPins { segments, selects },
                        ));
                    }
                }
            }
        }
        assign_keys(&mut controls);
        Panel {
            board,
            title: design.to_string(),
            inputs,
            idle,
            outputs,
            controls,
            parts,
            hz: board.design_clock_hz(design.name()),
        }
    }

    /// The control whose key is `key`.
    pub fn control(&self, key: char) -> Option<usize> {
        self.controls.iter().position(|c| c.key == key)
    }

    /// The keys of the controls, in order, for messages (`1 2 3 4`).
    pub fn keys(&self) -> String {
        self.controls
            .iter()
            .map(|c| c.key.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Gives each control a key of [`CONTROL_KEYS`]: a button whose label ends in a digit gets that
/// digit (`SW1`: `1`, `BTN3`: `3`) where it is free; then buttons, switches and resets take the
/// next free keys in board order.
fn assign_keys(controls: &mut [Control]) {
    let mut used: Vec<char> = Vec::new();
    for c in controls.iter_mut() {
        if c.kind != ControlKind::Button {
            continue;
        }
        if let Some(d) = c.label.chars().last().filter(char::is_ascii_digit) {
            if d != '0' && !used.contains(&d) {
                c.key = d;
                used.push(d);
            }
        }
    }
    for kind in [ControlKind::Button, ControlKind::Switch, ControlKind::Reset] {
        for c in controls
            .iter_mut()
            .filter(|c| c.kind == kind && c.key == ' ')
        {
            if let Some(k) = CONTROL_KEYS.chars().find(|k| !used.contains(k)) {
                c.key = k;
                used.push(k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardId;

    fn panel(board: BoardId, design: &Design) -> Panel {
        crate::vboard::panel(board, design).unwrap()
    }

    /// The keys follow the silkscreen's numbers where a button has one: the Go Board's SW1 to
    /// SW4 are keys 1 to 4, the iCEBreaker's BTN1 to BTN3 keys 1 to 3 and its user button the
    /// next free key, with the design's use of each.
    #[test]
    fn buttons_get_the_digit_of_their_label() {
        let p = panel(BoardId::GoBoard, &Design::sticks());
        let keys: Vec<(char, &str, Option<&str>)> = p
            .controls
            .iter()
            .map(|c| (c.key, c.label.as_str(), c.role.as_deref()))
            .collect();
        assert_eq!(
            keys,
            [
                ('1', "SW1", Some("take 1")),
                ('2', "SW2", Some("take 2")),
                ('3', "SW3", Some("take 3")),
                ('4', "SW4", Some("start (long press: machine first)")),
            ]
        );
        let p = panel(BoardId::Icebreaker, &Design::sticks());
        let keys: Vec<(char, &str)> = p
            .controls
            .iter()
            .map(|c| (c.key, c.label.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ('4', "user button"),
                ('1', "BTN1"),
                ('2', "BTN2"),
                ('3', "BTN3")
            ]
        );
        // Buttons idle low (pull-downs) on the Go Board; the iCEBreaker's BTN_N idles high.
        assert!(p.idle[p.controls[0].input]);
    }

    /// Every control of every board design gets a distinct key, none of them `q`, `+`, `~` or
    /// `?` (quit, long press, power cycle, help); on the Alchitry Io the three switches J.R. 01
    /// reads and the four-digit display.
    #[test]
    fn every_control_has_its_own_key() {
        for board in BoardId::ALL {
            for design in [
                Design::Jr01,
                Design::sticks(),
                Design::Solver,
                Design::Heaps,
            ] {
                let Ok(p) = crate::vboard::panel(board, &design) else {
                    continue;
                };
                let mut keys: Vec<char> = p.controls.iter().map(|c| c.key).collect();
                assert!(
                    keys.iter().all(|k| CONTROL_KEYS.contains(*k)),
                    "{board} {design}: {keys:?}"
                );
                let n = keys.len();
                keys.sort_unstable();
                keys.dedup();
                assert_eq!(keys.len(), n, "{board} {design}");
                assert!(!p.controls.is_empty(), "{board} {design}");
            }
        }
        let p = panel(BoardId::AlchitryCu, &Design::Jr01);
        let switches = p
            .controls
            .iter()
            .filter(|c| c.kind == ControlKind::Switch)
            .count();
        // The top has the DIP switches the design reads: A B C.
        assert_eq!(switches, 3);
        assert!(p
            .parts
            .iter()
            .any(|part| matches!(part, Part::Mux(_, m) if m.selects.len() == 4)));
    }
}
