//! The J.R. 01 front panel: the human sets the three switches A B C, the simulated circuit
//! lights the lamps X Y Z.

use crate::game::matches::MatchesPosition;
use crate::solver::strategy::StrategyRow;

/// A lit lamp.
pub const LIT: char = '●';
/// A dark lamp.
pub const DARK: char = '○';

/// What the panel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Jr01Event {
    /// How to use the panel.
    Intro(String),
    /// The switches were set and the circuit lit the lamps.
    Lamps {
        /// A B C, A the most significant bit.
        input: u32,
        /// X Y Z as the circuit drives them.
        output: u32,
        /// What the row means: `phase 1: 3 -> 4; phase 2: 3 -> 4`.
        meaning: String,
    },
    /// Not three 0/1 digits.
    Rejected {
        /// What was typed.
        input: String,
        /// Why it was refused.
        reason: String,
    },
    /// The panel was switched off (end of input or `quit`).
    Off(String),
}

impl Jr01Event {
    /// The event as one stable line.
    pub fn script_line(&self) -> String {
        match self {
            Jr01Event::Intro(t) | Jr01Event::Off(t) => t.clone(),
            Jr01Event::Lamps {
                input,
                output,
                meaning,
            } => format!(
                "A B C {}  ->  {}  ({meaning})",
                spaced(*input),
                lamps(*output)
            ),
            Jr01Event::Rejected { input, reason } => format!("{input}  refused: {reason}"),
        }
    }
}

fn bit(word: u32, k: u32) -> u32 {
    (word >> k) & 1
}

/// `0 1 1`.
pub fn spaced(code: u32) -> String {
    format!("{} {} {}", bit(code, 2), bit(code, 1), bit(code, 0))
}

/// `X ● Y ○ Z ○`.
pub fn lamps(word: u32) -> String {
    let lamp = |k| if bit(word, k) == 1 { LIT } else { DARK };
    format!("X {} Y {} Z {}", lamp(2), lamp(1), lamp(0))
}

/// The panel: a circuit (any `A B C -> X Y Z` function, normally the rust-hdl block of
/// [`Jr01Design`](crate::bench::jr01::Jr01Design)) and the strategy rows that say what each
/// setting means.
pub struct Jr01Panel<'a> {
    circuit: Box<dyn FnMut(u32) -> u32 + 'a>,
    rows: Vec<StrategyRow<MatchesPosition>>,
    off: bool,
}

impl<'a> Jr01Panel<'a> {
    /// A panel over `circuit`, with `rows` (the strategy read off the solved game) for the
    /// meaning of each setting. Returns the panel and its intro.
    pub fn new(
        circuit: impl FnMut(u32) -> u32 + 'a,
        rows: Vec<StrategyRow<MatchesPosition>>,
    ) -> (Self, Vec<Jr01Event>) {
        let panel = Self {
            circuit: Box::new(circuit),
            rows,
            off: false,
        };
        let intro = Jr01Event::Intro(
            "J.R. 01: set the switches A B C to the total after your move (three 0/1 digits, e.g. 011); \
             the simulated circuit lights X Y Z with the total the machine moves to"
                .to_string(),
        );
        (panel, vec![intro])
    }

    /// True once switched off.
    pub fn is_off(&self) -> bool {
        self.off
    }

    /// Sets the switches from one typed line: `011` or `0 1 1`. Blank lines are ignored;
    /// `quit` switches the panel off.
    pub fn feed(&mut self, line: &str) -> Vec<Jr01Event> {
        let typed = line.trim();
        if self.off || typed.is_empty() {
            return Vec::new();
        }
        if matches!(typed, "q" | "quit" | "exit") {
            return self.switch_off("J.R. 01 switched off");
        }
        if matches!(typed, "help" | "?" | "h") {
            return vec![Jr01Event::Intro(
                "how to play: type the switches A B C as three 0/1 digits (e.g. 011) and press \
                 Enter; the lamps X Y Z show the circuit's answer. `quit` switches the panel \
                 off, `help` or `?` shows this"
                    .to_string(),
            )];
        }
        if let Some(reason) = super::too_long(typed) {
            return vec![Jr01Event::Rejected {
                input: super::excerpt(typed),
                reason,
            }];
        }
        let digits: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
        if digits.len() != 3 || !digits.chars().all(|c| c == '0' || c == '1') {
            return vec![Jr01Event::Rejected {
                input: super::excerpt(typed),
                reason: "type three 0/1 digits for the switches A B C, e.g. 011".to_string(),
            }];
        }
        let input = u32::from_str_radix(&digits, 2).expect("three binary digits");
        let output = (self.circuit)(input);
        vec![Jr01Event::Lamps {
            input,
            output,
            meaning: self.meaning(input, output),
        }]
    }

    /// The input ended.
    pub fn end_of_input(&mut self) -> Vec<Jr01Event> {
        self.switch_off("end of input: J.R. 01 switched off")
    }

    /// Ctrl-C.
    pub fn interrupted(&mut self) -> Vec<Jr01Event> {
        self.switch_off("interrupted: J.R. 01 switched off")
    }

    fn switch_off(&mut self, why: &str) -> Vec<Jr01Event> {
        if self.off {
            return Vec::new();
        }
        self.off = true;
        vec![Jr01Event::Off(why.to_string())]
    }

    /// `phase 1: total 3 -> 4; phase 2: total 3 -> 4`, from the lamps the circuit lit.
    fn meaning(&self, input: u32, output: u32) -> String {
        match self.rows.iter().find(|r| r.code == input) {
            None => "a setting no position uses".to_string(),
            Some(row) => row
                .moves
                .iter()
                .map(|(from, _)| {
                    format!("phase {}: total {} -> {}", from.phase, from.total, output)
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::strategy::Jr01Strategy;

    #[test]
    fn the_panel_reads_switches_and_shows_lamps() {
        let rows = Jr01Strategy::derive().unwrap().rows;
        let (mut panel, intro) = Jr01Panel::new(|code| code ^ 0b101, rows);
        assert_eq!(intro.len(), 1);
        let e = panel.feed("0 1 1");
        assert_eq!(
            e[0].script_line(),
            "A B C 0 1 1  ->  X ● Y ● Z ○  (phase 1: total 3 -> 6; phase 2: total 3 -> 6)"
        );
        assert_eq!(
            panel.feed("12")[0].script_line(),
            "12  refused: type three 0/1 digits for the switches A B C, e.g. 011"
        );
        assert!(panel.feed("").is_empty());
        // Long lines are quoted by their start only; over 1 KiB they are refused whole.
        assert_eq!(
            panel.feed(&"01".repeat(100))[0].script_line(),
            format!(
                "{}...  refused: type three 0/1 digits for the switches A B C, e.g. 011",
                "01".repeat(12)
            )
        );
        assert_eq!(
            panel.feed(&format!("011{}", " ".repeat(2000)))[0].script_line(),
            "A B C 0 1 1  ->  X ● Y ● Z ○  (phase 1: total 3 -> 6; phase 2: total 3 -> 6)",
            "trailing blanks are trimmed before the length is checked"
        );
        assert_eq!(
            panel.feed(&format!("0{}11", " ".repeat(2000)))[0].script_line(),
            format!(
                "0{}...  refused: the line is longer than 1024 bytes; type one move per line",
                " ".repeat(23)
            )
        );
        assert_eq!(
            panel.end_of_input(),
            [Jr01Event::Off("end of input: J.R. 01 switched off".into())]
        );
        assert!(panel.is_off());
    }
}
