//! The board drawn with ratatui: a frame titled with the board and the design, its parts in
//! board order (LEDs lit in their colour, 7-segment digits drawn as segments, buttons and
//! switches with their keys, labelled as on the board), and a status line. The terminal and
//! the scripted mode's frames ([`text`]) draw the same widgets; a terminal smaller than the
//! board gets a message saying what size it needs instead.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use super::panel::{DigitPins, Led, Part};
use super::{ControlKind, Panel, Shown};
use crate::board::Colour;

/// Lit and unlit LED.
pub const LIT: &str = "●";
/// An unlit LED.
pub const DARK: &str = "○";
/// A switch that is on, and one that is off.
pub const ON: &str = "▮";
/// A switch that is off.
pub const OFF: &str = "▯";

/// The smallest terminal every board fits (the 80 x 24).
pub const MIN_WIDTH: u16 = 80;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 24;

/// Room for the board's drawing inside the frame.
const INNER: usize = (MIN_WIDTH as usize) - 4;

fn led_style(colour: Option<Colour>, lit: bool) -> Style {
    if !lit {
        return Style::default().fg(Color::DarkGray);
    }
    let c = match colour {
        Some(Colour::Red) => Color::LightRed,
        Some(Colour::Green) => Color::LightGreen,
        None => Color::LightYellow,
    };
    Style::default().fg(c).add_modifier(Modifier::BOLD)
}

fn led_span(led: &Led, shown: &Shown) -> Span<'static> {
    let lit = shown.lit.get(led.output).copied().unwrap_or(false);
    Span::styled(if lit { LIT } else { DARK }, led_style(led.colour, lit))
}

/// A cell of a packed row: its spans, its width, and the control it presses (if any).
type Cell = (Vec<Span<'static>>, usize, Option<usize>);

/// Where a control is drawn: row and column in the board's lines, width, control.
type Hit = (usize, usize, usize, usize);

/// `cells` packed into lines of at most [`INNER`] columns, each cell padded to the widest, from
/// line `first` on; the controls' places go to `hits`.
fn pack(cells: Vec<Cell>, first: usize, hits: &mut Vec<Hit>) -> Vec<Line<'static>> {
    let widest = cells.iter().map(|c| c.1).max().unwrap_or(0) + 2;
    let per_line = (INNER / widest.max(1)).max(1);
    let mut lines = Vec::new();
    for (row, chunk) in cells.chunks(per_line).enumerate() {
        let mut spans = Vec::new();
        for (i, (cell, width, control)) in chunk.iter().enumerate() {
            if let Some(c) = control {
                hits.push((first + row, i * widest, *width, *c));
            }
            spans.extend(cell.iter().cloned());
            spans.push(Span::raw(" ".repeat(widest - width)));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// The three rows of 7-segment digits (`None`: a blank position), left to right.
fn digit_rows(digits: &[[bool; 8]], style: Style) -> Vec<Line<'static>> {
    let mut rows = vec![Vec::new(), Vec::new(), Vec::new()];
    for s in digits {
        let c = |on: bool, ch: &'static str| if on { ch } else { " " };
        let parts: [[&str; 4]; 3] = [
            [" ", c(s[0], "_"), " ", " "],
            [c(s[5], "|"), c(s[6], "_"), c(s[1], "|"), " "],
            [c(s[4], "|"), c(s[3], "_"), c(s[2], "|"), c(s[7], ".")],
        ];
        for (row, p) in rows.iter_mut().zip(parts) {
            row.push(Span::styled(p.concat(), style));
            row.push(Span::raw(" "));
        }
    }
    rows.into_iter().map(Line::from).collect()
}

fn digit_of(pins: &DigitPins, shown: &Shown) -> [bool; 8] {
    let mut s = [false; 8];
    for (n, pin) in pins.segments.iter().enumerate() {
        s[n] = pin.is_some_and(|(k, _)| shown.lit.get(k).copied().unwrap_or(false));
    }
    s
}

/// The board's lines (inside the frame), in board order.
pub fn lines(panel: &Panel, shown: &Shown) -> Vec<Line<'static>> {
    layout(panel, shown).0
}

/// The board's lines and where each control is drawn.
fn layout(panel: &Panel, shown: &Shown) -> (Vec<Line<'static>>, Vec<Hit>) {
    let mut hits: Vec<Hit> = Vec::new();
    let seg = Style::default().fg(Color::LightRed);
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut mux = 0;
    for part in &panel.parts {
        if !out.is_empty() {
            out.push(Line::raw(""));
        }
        match part {
            Part::Leds(leds) => {
                let cells = leds
                    .iter()
                    .map(|l| {
                        let text = match &l.role {
                            Some(r) => format!(" {} {r}", l.label),
                            None => format!(" {}", l.label),
                        };
                        let w = 1 + text.chars().count();
                        (vec![led_span(l, shown), Span::raw(text)], w, None)
                    })
                    .collect();
                let first = out.len();
                out.extend(pack(cells, first, &mut hits));
            }
            Part::LedBank(label, leds) => {
                let mut spans = vec![Span::raw(format!("{label}  "))];
                for (i, l) in leds.iter().enumerate().rev() {
                    spans.push(led_span(l, shown));
                    if i % 8 == 0 && i > 0 {
                        spans.push(Span::raw(" "));
                    }
                }
                spans.push(Span::styled(
                    "  (bit 0 right)",
                    Style::default().fg(Color::DarkGray),
                ));
                out.push(Line::from(spans));
            }
            Part::Digits(digits) => {
                let labels: Vec<String> = digits.iter().map(|(l, _)| l.clone()).collect();
                out.push(Line::raw(labels.join(", ")));
                let shapes: Vec<[bool; 8]> =
                    digits.iter().map(|(_, d)| digit_of(d, shown)).collect();
                out.extend(digit_rows(&shapes, seg));
            }
            Part::Mux(label, _) => {
                out.push(Line::raw(label.clone()));
                let latched = shown.latched.get(mux).cloned().unwrap_or_default();
                let shapes: Vec<[bool; 8]> = latched.iter().rev().copied().collect();
                out.extend(digit_rows(&shapes, seg));
                mux += 1;
            }
            Part::Buttons(list) => {
                let cells = list
                    .iter()
                    .map(|&c| {
                        let control = &panel.controls[c];
                        let held = shown.held.get(c).copied().unwrap_or(false);
                        let key = if held {
                            format!("<{}>", control.key)
                        } else {
                            format!("[{}]", control.key)
                        };
                        let style = if held {
                            Style::default().add_modifier(Modifier::REVERSED)
                        } else {
                            Style::default().add_modifier(Modifier::BOLD)
                        };
                        let text = match (&control.role, control.kind) {
                            (Some(r), _) => format!(" {} {r}", control.label),
                            (None, ControlKind::Reset) => format!(" {} reset", control.label),
                            (None, _) => format!(" {}", control.label),
                        };
                        let w = key.chars().count() + text.chars().count();
                        (vec![Span::styled(key, style), Span::raw(text)], w, Some(c))
                    })
                    .collect();
                let first = out.len();
                out.extend(pack(cells, first, &mut hits));
            }
            Part::Switches(label, list) => {
                out.push(Line::raw(format!(
                    "{label} (key, then {ON} on / {OFF} off; switch 0 left)"
                )));
                let mut spans = Vec::new();
                let mut col = 0;
                for (i, &c) in list.iter().enumerate() {
                    if i > 0 && i % 8 == 0 {
                        spans.push(Span::raw("  "));
                        col += 2;
                    }
                    hits.push((out.len(), col, 2, c));
                    col += 3;
                    let on = shown.on.get(c).copied().unwrap_or(false);
                    spans.push(Span::styled(
                        panel.controls[c].key.to_string(),
                        Style::default().add_modifier(Modifier::BOLD),
                    ));
                    spans.push(Span::styled(
                        if on { ON } else { OFF },
                        if on {
                            Style::default().fg(Color::White)
                        } else {
                            Style::default().fg(Color::DarkGray)
                        },
                    ));
                    spans.push(Span::raw(" "));
                }
                out.push(Line::from(spans));
            }
        }
    }
    (out, hits)
}

/// Where each control is drawn on a screen of `area` (for mouse clicks): `(cell, control)`;
/// none when the screen is too small for the board.
pub fn hit_areas(panel: &Panel, area: Rect) -> Vec<(Rect, usize)> {
    let (w, h) = needed(panel);
    if area.width < w || area.height < h {
        return Vec::new();
    }
    layout(panel, &Shown::default())
        .1
        .into_iter()
        .map(|(row, col, width, c)| {
            let x = area.x + 2 + u16::try_from(col).unwrap_or(0);
            let y = area.y + 1 + u16::try_from(row).unwrap_or(0);
            (Rect::new(x, y, u16::try_from(width).unwrap_or(1), 1), c)
        })
        .collect()
}

/// The help text: every control with its key and use, every light's use, and the other keys.
pub fn help_lines(panel: &Panel) -> Vec<Line<'static>> {
    let mut out = vec![Line::raw(
        "Keys (a press holds a button 120 ms, as a finger does):",
    )];
    for c in &panel.controls {
        if c.role.is_some() || c.kind != ControlKind::Switch {
            let what = c.role.clone().unwrap_or_else(|| match c.kind {
                ControlKind::Reset => "reset".into(),
                _ => "(unused)".into(),
            });
            out.push(Line::raw(format!("  {}  {}: {what}", c.key, c.label)));
        }
    }
    out.push(Line::raw(
        "  +  then a button's key: a long press (held 1.5 s)",
    ));
    out.push(Line::raw("  ~  power cycle (the board starts again)"));
    out.push(Line::raw("  ?  this help;  q, Esc or Ctrl-C: quit"));
    out
}

/// The size the board needs: [`MIN_WIDTH`] wide, and tall enough for its lines, the frame and
/// the status line (at least [`MIN_HEIGHT`]).
pub fn needed(panel: &Panel) -> (u16, u16) {
    let n = lines(panel, &Shown::default()).len();
    let h = u16::try_from(n + 3).unwrap_or(u16::MAX);
    (MIN_WIDTH, h.max(MIN_HEIGHT))
}

/// Draws the board (or, with `help`, the help over it) with the status line `status` into
/// `area` of `buf`; a smaller area gets a message saying what size the board needs.
pub fn draw(panel: &Panel, shown: &Shown, status: &str, help: bool, area: Rect, buf: &mut Buffer) {
    let (w, h) = needed(panel);
    if area.width < w || area.height < h {
        let msg = format!(
            "This terminal is {} x {}; the virtual {} needs at least {w} x {h}. Enlarge the \
             window (or the font smaller); q quits.",
            area.width, area.height, panel.board.name
        );
        Clear.render(area, buf);
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let board = Rect::new(area.x, area.y, w, area.height - 1);
    let title = format!(" {}: {} ", panel.board.name, panel.title);
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(board);
    block.render(board, buf);
    let body = Rect::new(
        inner.x + 1,
        inner.y,
        inner.width.saturating_sub(2),
        inner.height,
    );
    if help {
        Paragraph::new(help_lines(panel)).render(body, buf);
    } else {
        Paragraph::new(lines(panel, shown)).render(body, buf);
    }
    let status_area = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
    Paragraph::new(Line::from(vec![
        Span::raw(format!("{status}   ")),
        Span::styled(
            "? help  + long press  ~ power cycle  q quit",
            Style::default().fg(Color::DarkGray),
        ),
    ]))
    .render(status_area, buf);
}

/// The screen as plain text (no colours), `width` x `height`, trailing spaces trimmed.
pub fn text(panel: &Panel, shown: &Shown, status: &str, width: u16, height: u16) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    draw(panel, shown, status, false, area, &mut buf);
    buffer_text(&buf)
}

/// A buffer's symbols, row by row, trailing spaces trimmed.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut row = String::new();
        for x in area.left()..area.right() {
            row.push_str(buf[(x, y)].symbol());
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardId;
    use crate::circuit::top::Design;

    /// The Go Board's frame: LEDs lit as `Shown` says, its two digits drawn as segments (the
    /// segment pins active low are lit at 0: here `Shown` holds lit, so 1 and 7), the buttons
    /// with their keys, and the status line; 80 x 24.
    #[test]
    fn the_go_board_frame_draws_leds_digits_and_keys() {
        let p = crate::vboard::panel(BoardId::GoBoard, &Design::sticks()).unwrap();
        let mut shown = Shown {
            lit: vec![false; p.outputs.len()],
            on: vec![false; p.controls.len()],
            held: vec![false; p.controls.len()],
            latched: Vec::new(),
        };
        let lit = |name: &str| p.outputs.iter().position(|o| o == name).unwrap();
        shown.lit[lit("o_LED_4")] = true;
        for s in ["B", "C"] {
            shown.lit[lit(&format!("o_Segment1_{s}"))] = true;
        }
        for s in ["A", "B", "C"] {
            shown.lit[lit(&format!("o_Segment2_{s}"))] = true;
        }
        shown.held[0] = true;
        let text = text(&p, &shown, "board time 1.000 s", 80, 24);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 24);
        assert!(
            lines[0].starts_with("┌ Nandland Go Board: sticks (18 sticks"),
            "{text}"
        );
        assert!(text.contains("○ LED1 machine took 1"), "{text}");
        assert!(text.contains("● LED4 your turn"), "{text}");
        assert!(text.contains("<1> SW1 take 1"), "{text}");
        assert!(text.contains("[2] SW2 take 2"), "{text}");
        let d = lines
            .iter()
            .position(|l| l.contains("left digit, right digit"))
            .unwrap();
        assert_eq!(
            lines[d + 1],
            "│       _                                                                      │"
        );
        assert_eq!(
            lines[d + 2],
            "│   |    |                                                                     │"
        );
        assert_eq!(
            lines[d + 3],
            "│   |    |                                                                     │"
        );
        assert!(lines[23].starts_with("board time 1.000 s"), "{text}");
        // Too small: the message, not the board.
        let small = super::text(&p, &shown, "", 60, 20);
        assert!(small.contains("This terminal is 60 x 20"), "{small}");
        assert!(small.contains("needs at least 80 x 24"), "{small}");
        assert!(!small.contains("SW1"), "{small}");
    }

    /// Every board design fits 80 x 24, and a click lands on the control drawn there.
    #[test]
    fn every_board_fits_80_by_24_and_clicks_find_the_controls() {
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
                assert_eq!(needed(&p), (MIN_WIDTH, MIN_HEIGHT), "{board} {design}");
                let shown = Shown {
                    lit: vec![false; p.outputs.len()],
                    on: vec![false; p.controls.len()],
                    held: vec![false; p.controls.len()],
                    latched: vec![vec![[false; 8]; 4]; 1],
                };
                let area = Rect::new(0, 0, 80, 24);
                let mut buf = Buffer::empty(area);
                draw(&p, &shown, "", false, area, &mut buf);
                let hits = hit_areas(&p, area);
                assert_eq!(hits.len(), p.controls.len(), "{board} {design}");
                for (r, c) in hits {
                    let at = buf[(r.x, r.y)].symbol().to_owned();
                    let key = p.controls[c].key.to_string();
                    assert!(at == "[" || at == key, "{board} {design}: {at:?} for {key}");
                }
            }
        }
    }
}
