//! A trace drawn as an SVG waveform: one row per signal, a step line for a bit, a chain of
//! hexagons with the value in decimal for a bus, and the clock's rising edges as a numbered
//! cycle grid. The output depends only on the trace and the picture settings.

use super::trace::{Level, Segment, Signal, Trace, WaveformError};
use std::fmt::Write;

/// Horizontal space for one clock cycle, px.
const CYCLE_PX: f64 = 36.0;
/// Height of a signal row, px.
const ROW_PX: f64 = 28.0;
/// Top of the first signal row, px.
const ROWS_TOP: f64 = 52.0;
/// Width of one character of the 12 px monospace font, px (a generous estimate).
const CHAR_PX: f64 = 7.5;
/// Margin around the picture, px.
const MARGIN: f64 = 10.0;
/// The slant of a bus hexagon's ends, px.
const SLANT: f64 = 3.0;

const TRACE_COLOUR: &str = "#1a7f37";
const CLOCK_COLOUR: &str = "#57606a";
const BUS_FILL: &str = "#ddf4ff";
const BUS_STROKE: &str = "#0969da";
const UNKNOWN_COLOUR: &str = "#cf222e";
const GRID_COLOUR: &str = "#d0d7de";
const TEXT_COLOUR: &str = "#1f2328";

/// What the picture shows besides the trace.
#[derive(Clone, Debug)]
pub struct Picture<'a> {
    /// The line above the waveform.
    pub title: &'a str,
    /// The signal whose rising edges start the numbered cycles.
    pub clock: &'a str,
    /// VCD time units in one clock cycle (sets the horizontal scale).
    pub cycle: u64,
}

/// Draws `trace` as an SVG document.
pub fn render_svg(trace: &Trace, picture: &Picture) -> Result<String, WaveformError> {
    if picture.cycle == 0 {
        return Err(WaveformError::ZeroCycle);
    }
    let clock = trace
        .signal(picture.clock)
        .ok_or_else(|| WaveformError::NoClock(picture.clock.to_string()))?;
    let label_chars = trace
        .signals
        .iter()
        .map(|s| s.label().chars().count())
        .max()
        .unwrap_or(0);
    let layout = Layout {
        x0: MARGIN + label_chars as f64 * CHAR_PX + 12.0,
        px_per_unit: CYCLE_PX / picture.cycle as f64,
    };
    let plot_right = layout.x(trace.end);
    let width = (plot_right + MARGIN)
        .max(MARGIN * 2.0 + picture.title.chars().count() as f64 * CHAR_PX)
        .ceil();
    let height = (ROWS_TOP + trace.signals.len() as f64 * ROW_PX + MARGIN).ceil();

    let mut s = String::new();
    let w = &mut s;
    // Writing to a String cannot fail.
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"#
    );
    let _ = writeln!(w, "<title>{}</title>", escape(picture.title));
    let _ = writeln!(
        w,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        w,
        r#"<text x="{MARGIN}" y="20" font-weight="bold" fill="{TEXT_COLOUR}">{}</text>"#,
        escape(picture.title)
    );

    // The cycle grid: a line and a number at each rising clock edge.
    let edges = clock.rising_edges(trace.end);
    let step = label_step(edges.len());
    let grid_bottom = height - MARGIN;
    let _ = writeln!(
        w,
        r#"<g class="grid" stroke="{GRID_COLOUR}" stroke-width="1">"#
    );
    for &t in &edges {
        let x = layout.x(t);
        let _ = writeln!(
            w,
            r#"<line x1="{x:.1}" y1="30" x2="{x:.1}" y2="{grid_bottom:.1}"/>"#
        );
    }
    let _ = writeln!(w, "</g>");
    let _ = writeln!(
        w,
        r#"<g class="cycles" fill="{CLOCK_COLOUR}" text-anchor="start" font-size="10">"#
    );
    let _ = writeln!(
        w,
        r#"<text x="{MARGIN}" y="42" font-size="12">cycle</text>"#
    );
    for (n, &t) in edges.iter().enumerate().filter(|(n, _)| n % step == 0) {
        let _ = writeln!(w, r#"<text x="{:.1}" y="42">{n}</text>"#, layout.x(t) + 2.0);
    }
    let _ = writeln!(w, "</g>");

    for (row, signal) in trace.signals.iter().enumerate() {
        let top = ROWS_TOP + row as f64 * ROW_PX;
        let rows = Row {
            hi: top + 5.0,
            lo: top + ROW_PX - 5.0,
        };
        let _ = writeln!(
            w,
            r#"<g class="signal" data-signal="{}">"#,
            escape(signal.name())
        );
        let _ = writeln!(
            w,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="{TEXT_COLOUR}">{}</text>"#,
            layout.x0 - 12.0,
            rows.mid() + 4.0,
            escape(&signal.label())
        );
        let segments = signal.segments(trace.end);
        if signal.width == 1 {
            let colour = if std::ptr::eq(signal, clock) {
                CLOCK_COLOUR
            } else {
                TRACE_COLOUR
            };
            bit_row(w, &layout, rows, &segments, colour);
        } else {
            bus_row(w, &layout, rows, signal, &segments);
        }
        let _ = writeln!(w, "</g>");
    }
    let _ = writeln!(w, "</svg>");
    Ok(s)
}

/// Time to x.
#[derive(Clone, Copy)]
struct Layout {
    x0: f64,
    px_per_unit: f64,
}

impl Layout {
    fn x(&self, t: u64) -> f64 {
        self.x0 + t as f64 * self.px_per_unit
    }
}

/// The high and low lines of a row.
#[derive(Clone, Copy)]
struct Row {
    hi: f64,
    lo: f64,
}

impl Row {
    fn mid(&self) -> f64 {
        (self.hi + self.lo) / 2.0
    }
}

/// Cycle numbers every `step` edges, so that they do not overlap.
fn label_step(edges: usize) -> usize {
    let digits = edges.max(1).to_string().len() as f64;
    let needed = digits * 6.5 + 6.0;
    [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&s| s as f64 * CYCLE_PX >= needed)
        .unwrap_or(1000)
}

/// A bit: a step line between the high and low lines; unknown spans as a red band.
fn bit_row(w: &mut String, layout: &Layout, row: Row, segments: &[Segment], colour: &str) {
    let mut d = String::new();
    for seg in segments {
        let (x1, x2) = (layout.x(seg.start), layout.x(seg.end));
        match seg.level {
            Level::Known(v) => {
                let y = if v == 0 { row.lo } else { row.hi };
                if d.is_empty() {
                    let _ = write!(d, "M{x1:.1},{y:.1}");
                } else {
                    let _ = write!(d, " V{y:.1}");
                }
                let _ = write!(d, " H{x2:.1}");
            }
            Level::Unknown => {
                unknown_band(w, x1, x2, row);
                if !d.is_empty() {
                    let _ = writeln!(
                        w,
                        r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#
                    );
                    d.clear();
                }
            }
        }
    }
    if !d.is_empty() {
        let _ = writeln!(
            w,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#
        );
    }
}

/// A bus: one hexagon per value with the value in decimal (the full value also as a tooltip).
fn bus_row(w: &mut String, layout: &Layout, row: Row, signal: &Signal, segments: &[Segment]) {
    for seg in segments {
        let (x1, x2) = (layout.x(seg.start), layout.x(seg.end));
        let Level::Known(v) = seg.level else {
            unknown_band(w, x1, x2, row);
            continue;
        };
        let slant = SLANT.min((x2 - x1) / 2.0);
        let (hi, mid, lo) = (row.hi, row.mid(), row.lo);
        let _ = writeln!(
            w,
            r#"<polygon points="{x1:.1},{mid:.1} {:.1},{hi:.1} {:.1},{hi:.1} {x2:.1},{mid:.1} {:.1},{lo:.1} {:.1},{lo:.1}" fill="{BUS_FILL}" stroke="{BUS_STROKE}" stroke-width="1"/>"#,
            x1 + slant,
            x2 - slant,
            x2 - slant,
            x1 + slant,
        );
        let _ = writeln!(
            w,
            r#"<text class="value" x="{:.1}" y="{:.1}" text-anchor="middle" fill="{TEXT_COLOUR}"><title>{} = {v} (0x{v:x}) from {} to {}</title>{v}</text>"#,
            (x1 + x2) / 2.0,
            mid + 4.0,
            escape(signal.name()),
            seg.start,
            seg.end
        );
    }
}

fn unknown_band(w: &mut String, x1: f64, x2: f64, row: Row) {
    let _ = writeln!(
        w,
        r#"<rect class="unknown" x="{x1:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{UNKNOWN_COLOUR}" fill-opacity="0.3"/>"#,
        row.hi,
        x2 - x1,
        row.lo - row.hi
    );
}

/// Escapes text for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::waveform::tests::VCD;

    fn svg() -> String {
        let trace =
            Trace::from_vcd(VCD, &["uut.clock", "uut.count", "uut.inner.flag"], 40).unwrap();
        render_svg(
            &trace,
            &Picture {
                title: "a <test> & more",
                clock: "clock",
                cycle: 10,
            },
        )
        .unwrap()
    }

    /// The value labels of a row, in order.
    fn row_values(doc: &roxmltree::Document, name: &str) -> Vec<String> {
        let row = doc
            .descendants()
            .find(|n| n.attribute("data-signal") == Some(name))
            .unwrap_or_else(|| panic!("no row {name}"));
        row.descendants()
            .filter(|n| n.attribute("class") == Some("value"))
            .map(|n| {
                n.children()
                    .filter(|c| c.is_text())
                    .map(|c| c.text().unwrap())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_bus_row_labels_every_value_the_last_one_too() {
        let text = svg();
        let doc = roxmltree::Document::parse(&text).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert_eq!(row_values(&doc, "count"), ["0", "5", "3"]);
        // The unknown span between 5 and 3 is a band, not a value.
        let count = doc
            .descendants()
            .find(|n| n.attribute("data-signal") == Some("count"))
            .unwrap();
        assert_eq!(
            count
                .descendants()
                .filter(|n| n.attribute("class") == Some("unknown"))
                .count(),
            1
        );
    }

    #[test]
    fn bits_are_step_lines_and_cycles_are_numbered_at_rising_edges() {
        let text = svg();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let flag = doc
            .descendants()
            .find(|n| n.attribute("data-signal") == Some("flag"))
            .unwrap();
        // Unknown 0..10, then low 10..20, high 20..40: x = x0 + 3.6 px per unit.
        let x0 = MARGIN + "count[2:0]".len() as f64 * CHAR_PX + 12.0;
        let path = flag.descendants().find(|n| n.has_tag_name("path")).unwrap();
        assert_eq!(
            path.attribute("d").unwrap(),
            format!(
                "M{:.1},{:.1} H{:.1} V{:.1} H{:.1}",
                x0 + 36.0,
                ROWS_TOP + 2.0 * ROW_PX + ROW_PX - 5.0,
                x0 + 72.0,
                ROWS_TOP + 2.0 * ROW_PX + 5.0,
                x0 + 144.0
            )
        );
        let cycles: Vec<&str> = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("cycles"))
            .unwrap()
            .children()
            .filter_map(|n| n.text())
            .filter(|t| !t.trim().is_empty())
            .collect();
        assert_eq!(cycles, ["cycle", "0", "1", "2"]);
    }

    #[test]
    fn the_title_is_escaped() {
        let text = svg();
        assert!(text.contains("<title>a &lt;test&gt; &amp; more</title>"));
    }

    #[test]
    fn a_clock_that_is_not_drawn_is_refused() {
        let trace = Trace::from_vcd(VCD, &["uut.count"], 40).unwrap();
        let err = render_svg(
            &trace,
            &Picture {
                title: "",
                clock: "clock",
                cycle: 10,
            },
        )
        .unwrap_err();
        assert_eq!(err, WaveformError::NoClock("clock".into()));
    }

    #[test]
    fn label_steps_keep_numbers_apart() {
        assert_eq!(label_step(21), 1);
        assert_eq!(label_step(999), 1);
        assert_eq!(label_step(5000), 1);
        assert_eq!(label_step(100_000), 2);
    }
}
