//! Counterexamples a person can read: when a level fails, a VCD and an SVG waveform of the
//! failing run, and the first differing signal with its cycle or input vector.
//!
//! * A combinational design ([`comb_counterexample`]): the levels report the lowest failing
//!   input, so every cared-for vector below it matched. The trace replays the last few
//!   vectors up to the failing one, one per cycle of a `step` clock, with every input port,
//!   every output port as the design drove it and `expected_<port>` from the solver's table
//!   (`x` bits kept). It is written as `<dir>/<level>-counterexample.vcd` and drawn with
//!   retrogate's waveform renderer ([`crate::waveform`]) next to it.
//! * The clocked controller ([`controller_svg`]): the failing engine already wrote the run's
//!   VCD up to a little after the failing cycle; the SVG draws the cycles around it.
//!
//! Both are pure text in, text out apart from the file writes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::design::{binary, CombDesign};
use super::{BenchError, Level, Mismatch};
use crate::waveform::{render_svg, Picture, Trace};

/// Vectors shown before the failing one.
const CONTEXT_VECTORS: usize = 7;

/// Cycles shown before the failing cycle of a controller run.
const CONTEXT_CYCLES: u64 = 12;

/// What was written for a failing level, and what differs first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The waveform of the failing run.
    pub vcd: PathBuf,
    /// Its picture.
    pub svg: PathBuf,
    /// The first differing signal and where: `output y at input a b c = 000 (vector 1 of 8):
    /// expected 0, actual 1`.
    pub first: String,
}

/// The first output port whose bits differ in `m`, as (port name, expected bits, actual bits).
pub fn first_difference(design: &CombDesign, m: &Mismatch) -> Option<(String, String, String)> {
    let expected = binary(m.expected, design.output_width());
    let mut at = 0;
    for port in &design.outputs {
        let want = &expected[at..at + port.width];
        let got = m.actual.get(at..at + port.width).unwrap_or("?");
        if want != got {
            return Some((port.name.clone(), want.to_owned(), got.to_owned()));
        }
        at += port.width;
    }
    None
}

/// The counterexample trace of `m` as VCD text (see the module docs), and the number of
/// vectors it shows.
pub fn comb_vcd(design: &CombDesign, m: &Mismatch) -> (String, usize) {
    let rows: Vec<(u32, u32)> = design
        .cared_rows()
        .take_while(|&(c, _)| c < m.input)
        .collect();
    let before = &rows[rows.len().saturating_sub(CONTEXT_VECTORS)..];
    let mut shown: Vec<(u32, u32, String)> = before
        .iter()
        .map(|&(c, w)| (c, w, binary(w, design.output_width())))
        .collect();
    shown.push((m.input, m.expected, m.actual.clone()));
    let mut ids = (0..).map(|i: u32| {
        // Printable VCD identifiers from `!`.
        let mut id = String::new();
        let mut n = i;
        loop {
            id.push(char::from(b'!' + (n % 90) as u8));
            n /= 90;
            if n == 0 {
                break id;
            }
        }
    });
    let mut vars: Vec<(String, String, usize)> = Vec::new(); // (id, name, width)
    let clock = ids.next().unwrap_or_default();
    vars.push((clock.clone(), "step".to_owned(), 1));
    for port in &design.inputs {
        vars.push((
            ids.next().unwrap_or_default(),
            port.name.clone(),
            port.width,
        ));
    }
    for port in &design.outputs {
        vars.push((
            ids.next().unwrap_or_default(),
            port.name.clone(),
            port.width,
        ));
    }
    for port in &design.outputs {
        vars.push((
            ids.next().unwrap_or_default(),
            format!("expected_{}", port.name),
            port.width,
        ));
    }
    let mut v = String::from("$timescale 1ns $end\n");
    let _ = writeln!(v, "$scope module {} $end", design.module);
    for (id, name, width) in &vars {
        let _ = writeln!(v, "$var wire {width} {id} {name} $end");
    }
    v.push_str("$upscope $end\n$enddefinitions $end\n");
    let (iw, ow) = (design.input_width(), design.output_width());
    let value = |bits: &str, id: &str, width: usize| {
        if width == 1 {
            format!("{bits}{id}\n")
        } else {
            format!("b{bits} {id}\n")
        }
    };
    for (k, (code, word, actual)) in shown.iter().enumerate() {
        let t = k as u64 * 10;
        let _ = writeln!(v, "#{t}");
        v.push_str(&value("0", &clock, 1));
        let inputs = binary(*code, iw);
        let expected = binary(*word, ow);
        let mut at = 0;
        let mut var = vars.iter().skip(1);
        for port in &design.inputs {
            let (id, _, w) = var.next().expect("an input var");
            v.push_str(&value(&inputs[at..at + port.width], id, *w));
            at += port.width;
        }
        for bits in [actual, &expected] {
            let mut at = 0;
            for port in &design.outputs {
                let (id, _, w) = var.next().expect("an output var");
                let slice = bits.get(at..at + port.width).unwrap_or("x");
                v.push_str(&value(slice, id, *w));
                at += port.width;
            }
        }
        let _ = writeln!(v, "#{}", t + 5);
        v.push_str(&value("1", &clock, 1));
    }
    let _ = writeln!(v, "#{}", shown.len() as u64 * 10);
    v.push_str(&value("0", &clock, 1));
    (v, shown.len())
}

/// The input code as `a b c = 101` (or `sticks = 10011`).
fn inputs_text(design: &CombDesign, input: u32) -> String {
    let names: Vec<&str> = design.inputs.iter().map(|p| p.name.as_str()).collect();
    format!(
        "{} = {}",
        names.join(" "),
        binary(input, design.input_width())
    )
}

/// Writes the counterexample of a failed combinational `level` into `dir` as
/// `level<n>-counterexample.vcd` and `.svg`.
pub fn comb_counterexample(
    design: &CombDesign,
    level: Level,
    m: &Mismatch,
    dir: &Path,
) -> Result<Counterexample, BenchError> {
    let (vcd, shown) = comb_vcd(design, m);
    let index = design
        .cared_rows()
        .position(|(c, _)| c == m.input)
        .map_or(0, |i| i + 1);
    let (signal, want, got) = first_difference(design, m).unwrap_or_else(|| {
        (
            "(outputs)".to_owned(),
            binary(m.expected, design.output_width()),
            m.actual.clone(),
        )
    });
    let first = format!(
        "output {signal} at input {} (vector {index} of {}): expected {want}, actual {got}",
        inputs_text(design, m.input),
        design.cared_count()
    );
    let title = format!("{}: {level} fails; last cycle: {first}", design.module);
    let paths: Vec<String> = std::iter::once("step".to_owned())
        .chain(design.inputs.iter().map(|p| p.name.clone()))
        .chain(design.outputs.iter().map(|p| p.name.clone()))
        .chain(
            design
                .outputs
                .iter()
                .map(|p| format!("expected_{}", p.name)),
        )
        .map(|n| format!("{}.{n}", design.module))
        .collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let svg = Trace::from_vcd(&vcd, &refs, shown as u64 * 10)
        .and_then(|trace| {
            render_svg(
                &trace,
                &Picture {
                    title: &title,
                    clock: "step",
                    cycle: 10,
                },
            )
        })
        .map_err(|e| BenchError::NoVerdict {
            level,
            problem: format!("the counterexample waveform cannot be drawn: {e}"),
            log: "-".to_owned(),
        })?;
    let stem = format!("level{}-counterexample", level.number());
    let vcd_path = super::write(dir, &format!("{stem}.vcd"), &vcd)?;
    let svg_path = super::write(dir, &format!("{stem}.svg"), &svg)?;
    Ok(Counterexample {
        vcd: vcd_path,
        svg: svg_path,
        first,
    })
}

/// VCD time units in one nanosecond, from the VCD's `$timescale` (1 when it has none).
fn units_per_ns(vcd: &str) -> u64 {
    let mut parser = vcd::Parser::new(vcd.as_bytes());
    match parser.parse_header().ok().and_then(|h| h.timescale) {
        Some((n, unit)) => (unit.divisor() / 1_000_000_000 / u64::from(n.max(1))).max(1),
        None => 1,
    }
}

/// The controller testbench's nets drawn in a counterexample, inputs first: the ports of the
/// `sticks_game` contract.
pub const CONTROLLER_SIGNALS: [&str; 12] = crate::circuit::sticks_game::GAME_PORT_NAMES;

/// Draws the cycles around `cycle` of a controller run's VCD (`vcd_path`, written by the
/// co-simulation testbench, 10 ns a cycle) as `<vcd stem>.svg` next to it, and returns its
/// path. The window's grid numbers its cycles from the first one shown; `title` should say
/// which one failed.
pub fn controller_svg(
    vcd_path: &Path,
    cycle: usize,
    title: &str,
) -> Result<(PathBuf, u64), BenchError> {
    let io = |source| BenchError::Io {
        path: vcd_path.to_path_buf(),
        source,
    };
    let vcd = std::fs::read_to_string(vcd_path).map_err(io)?;
    let ns = units_per_ns(&vcd);
    let period = 10 * ns;
    let first = (cycle as u64).saturating_sub(CONTEXT_CYCLES);
    let to = (cycle as u64 + 2) * period;
    let draw = |e: crate::waveform::WaveformError| BenchError::NoVerdict {
        level: Level::Icarus,
        problem: format!("the counterexample waveform cannot be drawn: {e}"),
        log: vcd_path.display().to_string(),
    };
    // Icarus names the testbench's scope after the module; Verilator puts it under `TOP`.
    let tb = super::sequential::testbench::TESTBENCH_MODULE;
    let scopes = [tb.to_owned(), format!("TOP.{tb}")];
    let mut trace = Err(None);
    for scope in &scopes {
        let paths: Vec<String> = CONTROLLER_SIGNALS
            .iter()
            .map(|s| format!("{scope}.{s}"))
            .collect();
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        match Trace::from_vcd(&vcd, &refs, to) {
            Ok(t) => {
                trace = Ok(t);
                break;
            }
            Err(e) => {
                if trace.as_ref().is_err_and(Option::is_none) {
                    trace = Err(Some(e));
                }
            }
        }
    }
    let trace = trace.map_err(|e| draw(e.expect("at least one scope was tried")))?;
    let window = trace.window(first * period, to);
    let svg = render_svg(
        &window,
        &Picture {
            title,
            clock: "clock",
            cycle: period,
        },
    )
    .map_err(draw)?;
    let svg_path = vcd_path.with_extension("svg");
    std::fs::write(&svg_path, svg).map_err(|source| BenchError::Io {
        path: svg_path.clone(),
        source,
    })?;
    Ok((svg_path, first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::design::tests::jr01_design;

    fn mismatch() -> Mismatch {
        // J.R. 01 row 3 (011) expects 100; say y came out 1 and z unknown.
        let design = jr01_design();
        let expected = design.table.row(3).unwrap();
        Mismatch {
            input: 3,
            input_width: 3,
            expected,
            actual: format!("{}1x", binary(expected, 3).chars().next().unwrap()),
            vcd: None,
        }
    }

    #[test]
    fn the_first_differing_output_is_named() {
        let design = jr01_design();
        let m = mismatch();
        let (name, want, got) = first_difference(&design, &m).unwrap();
        assert_eq!(
            name,
            if binary(m.expected, 3).as_bytes()[1] == b'1' {
                "z"
            } else {
                "y"
            }
        );
        assert_ne!(want, got);
    }

    #[test]
    fn the_trace_replays_the_vectors_up_to_the_failing_one() {
        let design = jr01_design();
        let m = mismatch();
        let (vcd, shown) = comb_vcd(&design, &m);
        assert_eq!(shown, 4, "vectors 000, 001, 010 and the failing 011");
        let trace = Trace::from_vcd(
            &vcd,
            &[
                "jr01_strategy.step",
                "jr01_strategy.a",
                "jr01_strategy.c",
                "jr01_strategy.z",
                "jr01_strategy.expected_x",
            ],
            40,
        )
        .unwrap();
        assert_eq!(
            trace.signal("step").unwrap().rising_edges(40),
            vec![5, 15, 25, 35]
        );
        let z = trace.signal("z").unwrap().segments(40);
        assert_eq!(z.last().unwrap().level, crate::waveform::Level::Unknown);
        let c = trace.signal("c").unwrap().segments(40);
        assert_eq!(c.last().unwrap().level, crate::waveform::Level::Known(1));
    }

    #[test]
    fn a_counterexample_is_written_and_drawn() {
        let dir = tempfile::tempdir().unwrap();
        let design = jr01_design();
        let cx = comb_counterexample(&design, Level::Icarus, &mismatch(), dir.path()).unwrap();
        assert!(cx.vcd.ends_with("level2-counterexample.vcd"));
        let svg = std::fs::read_to_string(&cx.svg).unwrap();
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
        assert!(svg.contains("expected_x"), "{svg}");
        assert!(
            cx.first.contains("at input a b c = 011 (vector 4 of 8)"),
            "{}",
            cx.first
        );
    }
}
