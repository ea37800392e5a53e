//! The tables of `docs/boards.md`, rendered from the board data and the designs' layouts, so
//! the page cannot drift from them: every board's resources ([`Board::resource_table`]) and
//! pins ([`Board::doc_table`]), and what each pin does in each design ([`design_table`]).
//!
//! The page is hand-written prose around generated tables. Each table sits between a marker
//! line naming it and an end marker:
//!
//! ```text
//! <!-- generated from the board data: sticks icebreaker -->
//!
//! | Pin | Does |
//! ...
//!
//! <!-- end of generated table -->
//! ```
//!
//! (the blank lines keep markdown from reading the end marker as a table row).
//!
//! A table is `resources <board>`, `pins <board>` or `<design> <board>` (a `--board` and a
//! `--design` name). [`boards_page`] renders every marked table afresh and leaves the rest of
//! the page alone; `tests/up_to_date.rs` checks the committed page is its own fresh rendering
//! and holds every table ([`missing_tables`]).

use std::fmt::Write as _;

use super::layout::PinUse;
use super::BOARD_DESIGNS;
use crate::board::{Board, BoardId, Kind};

/// The line that opens a generated table, before its name.
pub const BEGIN: &str = "<!-- generated from the board data: ";
/// The line that closes a generated table.
pub const END: &str = "<!-- end of generated table -->";

/// Why the page's tables cannot be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocError {
    /// A marker names no table.
    #[error(
        "docs/boards.md: no table `{name}`; a table is `resources <board>`, `pins <board>` or \
         `<design> <board>`, with a design among {} and a board among {}",
        BOARD_DESIGNS.iter().map(|d| d.name).collect::<Vec<_>>().join(", "),
        BoardId::names().join(", ")
    )]
    UnknownTable {
        /// What the marker says.
        name: String,
    },
    /// A marker has no end marker after it.
    #[error("docs/boards.md: the table `{name}` has no `{END}` line after it; add one")]
    Unterminated {
        /// What the marker says.
        name: String,
    },
}

/// The table a marker names, rendered.
pub fn table(name: &str) -> Result<String, DocError> {
    let unknown = || DocError::UnknownTable {
        name: name.to_string(),
    };
    let (what, board) = name.split_once(' ').ok_or_else(unknown)?;
    let board: BoardId = board.parse().map_err(|_| unknown())?;
    let board = board.board();
    match what {
        "resources" => Ok(board.resource_table()),
        "pins" => Ok(board.doc_table()),
        design => {
            let design = BOARD_DESIGNS
                .iter()
                .find(|d| d.name == design)
                .ok_or_else(unknown)?;
            let uses = (design.pin_uses)(board).ok_or_else(unknown)?;
            Ok(design_table(board, &uses))
        }
    }
}

/// `page` with every generated table rendered afresh (and everything else unchanged).
pub fn boards_page(page: &str) -> Result<String, DocError> {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find(BEGIN) {
        let after = &rest[at + BEGIN.len()..];
        let line_end = after.find('\n').map_or(after.len(), |i| i + 1);
        let name = after[..line_end]
            .trim_end()
            .trim_end_matches("-->")
            .trim()
            .to_string();
        let body = &after[line_end..];
        let end = body
            .find(END)
            .ok_or_else(|| DocError::Unterminated { name: name.clone() })?;
        out.push_str(&rest[..at + BEGIN.len() + line_end]);
        out.push('\n');
        out.push_str(&table(&name)?);
        out.push('\n');
        rest = &body[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The tables the page should hold and does not: every board's resources and pins, and every
/// design's table on every board (a table identical to another board's, as the two Alchitry
/// Cu's design tables are, counts as there once it is there for either).
pub fn missing_tables(page: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for board in Board::all() {
        let mut names = vec![
            format!("resources {}", board.id),
            format!("pins {}", board.id),
        ];
        names.extend(
            BOARD_DESIGNS
                .iter()
                .filter(|d| (d.pin_uses)(board).is_some())
                .map(|d| format!("{} {}", d.name, board.id)),
        );
        for name in names {
            let fresh = table(&name).expect("every board and design has tables");
            if !page.contains(&format!("-->\n\n{fresh}\n{END}")) {
                missing.push(name);
            }
        }
    }
    missing
}

/// One row of a design table before folding: the pin, its board label, what it does.
struct Row {
    pin: &'static str,
    label: Option<&'static str>,
    role: String,
    held: bool,
}

/// What each pin does in a design on `board` (`uses`, in port order), as a markdown table:
/// runs of pins that do the same or the next thing in a row (`LED1` .. `LED5`: count bit
/// 0 .. 4) share one row.
pub fn design_table(board: &Board, uses: &[PinUse]) -> String {
    let rows: Vec<Row> = uses
        .iter()
        .map(|u| Row {
            pin: u.pin.name,
            label: label(board, u.pin.name),
            role: u.role.clone(),
            held: u.lit_while_held,
        })
        .collect();
    let mut out = String::from("| Pin | Does |\n|---|---|\n");
    let mut i = 0;
    while i < rows.len() {
        let first = &rows[i];
        let mut j = i + 1;
        let same = rows.get(j).is_some_and(|r| r.role == first.role);
        while j < rows.len() && follows(&rows[j - 1], &rows[j], same) {
            j += 1;
        }
        let last = &rows[j - 1];
        let pin = if j - i == 1 {
            format!("`{}`", first.pin)
        } else {
            match (split_token(first.pin), split_token(last.pin)) {
                (Some((p, a, "]")), Some((_, b, _))) => format!("`{p}{a}..{b}]`"),
                _ => format!("`{}` .. `{}`", first.pin, last.pin),
            }
        };
        let label = match (first.label, last.label) {
            (Some(a), _) if j - i == 1 => format!(" ({a})"),
            (Some(a), Some(b)) => format!(" ({a} .. {b})"),
            _ => String::new(),
        };
        let role = if j - i == 1 || same {
            first.role.clone()
        } else {
            let (prefix, a, suffix) = split_token(&first.role).expect("a run of roles");
            let (_, b, _) = split_token(&last.role).expect("a run of roles");
            format!("{prefix}{a} .. {b}{suffix}")
        };
        let held = if first.held {
            "; lit while start is held 1 s"
        } else {
            ""
        };
        let _ = writeln!(out, "| {pin}{label} | {role}{held} |");
        i = j;
    }
    out
}

/// The board's name for a pin, where it is not the pin's own name: a one-pin resource's
/// label, or a button's in a button bank.
fn label(board: &Board, pin: &str) -> Option<&'static str> {
    board.resources.iter().find_map(|r| {
        let i = r.pins().iter().position(|p| p.name == pin)?;
        let label = match r.kind {
            Kind::ButtonBank { labels } => labels.get(i).copied(),
            _ if r.pins().len() == 1 => Some(r.label),
            _ => None,
        };
        label.filter(|l| *l != pin)
    })
}

/// Whether `next` continues a run ending in `prev`: the next pin, the next label (or none), the
/// same lit-while-held, and the same role (`same`) or the next one.
fn follows(prev: &Row, next: &Row, same: bool) -> bool {
    let labels = match (prev.label, next.label) {
        (None, None) => true,
        (Some(a), Some(b)) => is_next(a, b),
        _ => false,
    };
    let roles = if same {
        next.role == prev.role
    } else {
        is_next(&prev.role, &next.role)
    };
    prev.held == next.held && is_next(prev.pin, next.pin) && labels && roles
}

/// Whether `b` is `a` with its token (last number, or final letter) one higher.
fn is_next(a: &str, b: &str) -> bool {
    match (split_token(a), split_token(b)) {
        (Some((pa, ta, sa)), Some((pb, tb, sb))) => {
            pa == pb && sa == sb && {
                match (ta.parse::<u64>(), tb.parse::<u64>()) {
                    (Ok(x), Ok(y)) => y == x + 1,
                    (Err(_), Err(_)) => {
                        let (x, y) = (ta.chars().next(), tb.chars().next());
                        matches!((x, y), (Some(x), Some(y)) if u32::from(y) == u32::from(x) + 1)
                    }
                    _ => false,
                }
            }
        }
        _ => false,
    }
}

/// `s` as prefix, token, suffix: the token is a final upper-case letter after a space or `_`
/// (`tens segment A`, `o_Segment1_A`), otherwise the last run of digits (`io_dip[8]`,
/// `count bit 0`, `switch: take 1 allowed`).
fn split_token(s: &str) -> Option<(&str, &str, &str)> {
    let bytes = s.as_bytes();
    if let [.., sep, letter] = bytes {
        if (*sep == b' ' || *sep == b'_') && letter.is_ascii_uppercase() {
            let at = s.len() - 1;
            return Some((&s[..at], &s[at..], ""));
        }
    }
    let end = s.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = s[..end]
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    Some((&s[..start], &s[start..end], &s[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_and_follow() {
        assert_eq!(split_token("io_dip[8]"), Some(("io_dip[", "8", "]")));
        assert_eq!(
            split_token("tens segment A"),
            Some(("tens segment ", "A", ""))
        );
        assert_eq!(split_token("o_Segment1_B"), Some(("o_Segment1_", "B", "")));
        assert_eq!(
            split_token("switch: take 12 allowed"),
            Some(("switch: take ", "12", " allowed"))
        );
        assert_eq!(split_token("your turn"), None);
        assert!(is_next("io_dip[9]", "io_dip[10]"));
        assert!(is_next("LED1", "LED2") && !is_next("LED2", "LED1"));
        assert!(is_next("position A", "position B") && !is_next("answer X", "position Y"));
        assert!(!is_next("LEDR_N", "LEDG_N"));
    }

    /// The iCEBreaker's sticks table folds the take buttons and the count LEDs, with the
    /// snap-off labels, and says which LED lights while start is held.
    #[test]
    fn design_tables_fold_runs() {
        let sticks = table("sticks icebreaker").unwrap();
        assert_eq!(
            sticks,
            "| Pin | Does |\n|---|---|\n\
             | `BTN_N` (user button) | start (long press: machine first) |\n\
             | `BTN1` .. `BTN3` | take 1 .. 3 |\n\
             | `LED1` .. `LED5` (L1 .. L5) | count bit 0 .. 4 |\n\
             | `LEDR_N` (red LED) | machine thinking; lit while start is held 1 s |\n\
             | `LEDG_N` (green LED) | your turn |\n"
        );
        let cu = table("solver alchitry-cu").unwrap();
        for row in [
            "| `io_button[0]` (up) | new game: solve the switches' game and start |\n",
            "| `io_dip[0..7]` | switch: take 1 .. 8 allowed |\n",
            "| `io_dip[18..19]` | unused |\n",
            "| `io_seg[0..6]` | display segment A .. G |\n",
            "| `io_seg[7]` | display segment P |\n",
            "| `io_led[19..23]` | game-over blink only |\n",
        ] {
            assert!(cu.contains(row), "{row}{cu}");
        }
        let go = table("sticks go-board").unwrap();
        assert!(go.contains(
            "| `o_LED_1` .. `o_LED_3` (LED1 .. LED3) | machine took 1 .. 3; lit while start is \
             held 1 s |\n"
        ));
        assert!(go.contains("| `o_Segment2_A` .. `o_Segment2_G` | ones segment A .. G |\n"));
    }

    /// The page's tables are replaced, the prose kept; a marker without an end, or naming no
    /// table, is an error naming it.
    #[test]
    fn pages_are_filled_between_markers() {
        let page = format!("# Boards\n\nprose\n{BEGIN}pins icestick -->\nstale\n{END}\nmore\n");
        let filled = boards_page(&page).unwrap();
        let pins = BoardId::Icestick.board().doc_table();
        assert_eq!(
            filled,
            format!("# Boards\n\nprose\n{BEGIN}pins icestick -->\n\n{pins}\n{END}\nmore\n")
        );
        assert_eq!(boards_page(&filled).unwrap(), filled);
        let design_tables: usize = crate::board::Board::all()
            .map(|b| {
                BOARD_DESIGNS
                    .iter()
                    .filter(|d| (d.pin_uses)(b).is_some())
                    .count()
            })
            .sum();
        assert_eq!(
            missing_tables(&filled).len(),
            BoardId::ALL.len() * 2 + design_tables - 1
        );
        let err = boards_page(&format!("{BEGIN}pins icestick -->\n")).unwrap_err();
        assert_eq!(
            err,
            DocError::Unterminated {
                name: "pins icestick".into()
            }
        );
        let err = boards_page(&format!("{BEGIN}heaps icestick -->\n{END}")).unwrap_err();
        assert!(
            err.to_string().contains("no table `heaps icestick`"),
            "{err}"
        );
        assert!(
            err.to_string().contains("jr01, sticks, solver, heaps"),
            "{err}"
        );
    }
}
