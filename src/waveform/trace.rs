//! The values of chosen signals over time, from a VCD trace.

use thiserror::Error;

/// Why a trace cannot be read or drawn.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WaveformError {
    /// The VCD text does not parse.
    #[error("the VCD cannot be read: {0}")]
    Vcd(String),
    /// A requested signal is not declared in the VCD.
    #[error("the VCD declares no signal `{0}`")]
    NoSignal(String),
    /// A signal too wide for a 64-bit value.
    #[error("signal `{name}` is {width} bits wide; at most 64 bits can be drawn")]
    TooWide {
        /// The signal's path.
        name: String,
        /// Its width in bits.
        width: u32,
    },
    /// The clock named for the cycle grid is not among the signals.
    #[error("the clock `{0}` is not among the signals drawn")]
    NoClock(String),
    /// A cycle of zero time units.
    #[error("a clock cycle must last at least one time unit")]
    ZeroCycle,
}

/// A signal's value: known bits, or unknown when any bit is `x` or `z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Every bit is 0 or 1.
    Known(u64),
    /// Some bit is `x` or `z`, or the trace has not set the signal yet.
    Unknown,
}

/// One value held over `start..end` (VCD time units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// First time unit of the value.
    pub start: u64,
    /// First time unit after it.
    pub end: u64,
    /// The value.
    pub level: Level,
}

/// One signal of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    /// The path asked for, scopes joined by dots (`uut.remaining`).
    pub path: String,
    /// Its width in bits.
    pub width: u32,
    /// Changes in time order; consecutive values differ.
    changes: Vec<(u64, Level)>,
}

impl Signal {
    /// The last part of the path (`remaining`).
    pub fn name(&self) -> &str {
        self.path.rsplit('.').next().unwrap_or(&self.path)
    }

    /// The label drawn for the row: the name, with `[w-1:0]` for a bus.
    pub fn label(&self) -> String {
        if self.width == 1 {
            self.name().to_string()
        } else {
            format!("{}[{}:0]", self.name(), self.width - 1)
        }
    }

    fn record(&mut self, time: u64, level: Level) {
        match self.changes.last_mut() {
            Some((t, l)) if *t == time => *l = level,
            Some((_, l)) if *l == level => {}
            _ => self.changes.push((time, level)),
        }
        // A same-time overwrite may make the last two equal.
        let n = self.changes.len();
        if n >= 2 && self.changes[n - 2].1 == self.changes[n - 1].1 {
            self.changes.pop();
        }
    }

    /// The values over `0..end`, one segment per value, the last one reaching `end`; before
    /// the trace first sets the signal its value is unknown. Changes at or after `end` are left
    /// out.
    pub fn segments(&self, end: u64) -> Vec<Segment> {
        let mut out: Vec<Segment> = Vec::new();
        let mut start = 0;
        let mut level = Level::Unknown;
        for &(t, l) in self.changes.iter().take_while(|(t, _)| *t < end) {
            if t > start {
                out.push(Segment {
                    start,
                    end: t,
                    level,
                });
            }
            start = t;
            level = l;
        }
        if end > start {
            out.push(Segment { start, end, level });
        }
        // Merge neighbours with equal values (an unknown start followed by unknown).
        out.dedup_by(|b, a| {
            if a.level == b.level {
                a.end = b.end;
                true
            } else {
                false
            }
        });
        out
    }

    /// The times before `end` at which the signal rises from 0 to 1.
    pub fn rising_edges(&self, end: u64) -> Vec<u64> {
        self.segments(end)
            .windows(2)
            .filter(|w| w[0].level == Level::Known(0) && w[1].level == Level::Known(1))
            .map(|w| w[1].start)
            .collect()
    }
}

/// The signals of a trace over `0..end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// First time unit after the trace.
    pub end: u64,
    /// The signals, in the order asked for.
    pub signals: Vec<Signal>,
}

impl Trace {
    /// Reads the signals at `paths` (scopes joined by dots, e.g. `uut.remaining`) from `vcd`,
    /// over `0..end`.
    pub fn from_vcd(vcd: &str, paths: &[&str], end: u64) -> Result<Self, WaveformError> {
        let mut parser = vcd::Parser::new(vcd.as_bytes());
        let header = parser
            .parse_header()
            .map_err(|e| WaveformError::Vcd(e.to_string()))?;
        let mut signals = Vec::with_capacity(paths.len());
        let mut codes = Vec::with_capacity(paths.len());
        for path in paths {
            let parts: Vec<&str> = path.split('.').collect();
            let var = header
                .find_var(&parts)
                .ok_or_else(|| WaveformError::NoSignal(path.to_string()))?;
            if var.size > 64 {
                return Err(WaveformError::TooWide {
                    name: path.to_string(),
                    width: var.size,
                });
            }
            codes.push(var.code);
            signals.push(Signal {
                path: path.to_string(),
                width: var.size.max(1),
                changes: Vec::new(),
            });
        }
        let mut time = 0;
        for command in parser {
            let command = command.map_err(|e| WaveformError::Vcd(e.to_string()))?;
            let (code, bits) = match command {
                vcd::Command::Timestamp(t) => {
                    time = t;
                    continue;
                }
                vcd::Command::ChangeScalar(code, v) => (code, vec![v]),
                vcd::Command::ChangeVector(code, v) => (code, v),
                _ => continue,
            };
            for (signal, _) in signals.iter_mut().zip(&codes).filter(|(_, c)| **c == code) {
                let level = level_of(&bits, signal.width);
                signal.record(time, level);
            }
        }
        Ok(Self { end, signals })
    }

    /// The part of the trace over `from..to`, shifted to start at 0: each signal starts with
    /// the value it had at `from` (a readable window around a cycle of a long run).
    pub fn window(&self, from: u64, to: u64) -> Trace {
        let signals = self
            .signals
            .iter()
            .map(|s| {
                let mut w = Signal {
                    path: s.path.clone(),
                    width: s.width,
                    changes: Vec::new(),
                };
                let at_from = s
                    .changes
                    .iter()
                    .take_while(|(t, _)| *t <= from)
                    .last()
                    .map_or(Level::Unknown, |&(_, l)| l);
                w.record(0, at_from);
                for &(t, l) in s.changes.iter().filter(|(t, _)| *t > from && *t < to) {
                    w.record(t - from, l);
                }
                w
            })
            .collect();
        Trace {
            end: to.saturating_sub(from),
            signals,
        }
    }

    /// The signal with this path or name.
    pub fn signal(&self, name: &str) -> Option<&Signal> {
        self.signals
            .iter()
            .find(|s| s.path == name || s.name() == name)
    }
}

/// The value of VCD bits, most significant first, left-extended to `width` as VCD does (with
/// 0 after a leading 0 or 1, else with the leading `x` or `z`).
fn level_of(bits: &[vcd::Value], width: u32) -> Level {
    use vcd::Value::{V0, V1};
    let pad_unknown = matches!(bits.first(), Some(v) if !matches!(v, V0 | V1));
    if pad_unknown && (bits.len() as u32) < width {
        return Level::Unknown;
    }
    let mut value = 0u64;
    for &b in bits.iter().skip(bits.len().saturating_sub(width as usize)) {
        value = match b {
            V0 => value << 1,
            V1 => (value << 1) | 1,
            _ => return Level::Unknown,
        };
    }
    Level::Known(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::waveform::tests::VCD;

    fn trace(end: u64) -> Trace {
        Trace::from_vcd(VCD, &["uut.clock", "uut.count", "uut.inner.flag"], end).unwrap()
    }

    fn seg(start: u64, end: u64, level: Level) -> Segment {
        Segment { start, end, level }
    }

    #[test]
    fn every_value_is_a_segment_and_the_last_one_reaches_the_end() {
        let t = trace(40);
        let count = t.signal("count").unwrap();
        assert_eq!(count.width, 3);
        assert_eq!(
            count.segments(40),
            vec![
                seg(0, 5, Level::Known(0)),
                // #15 repeats 101: no new segment.
                seg(5, 20, Level::Known(5)),
                seg(20, 25, Level::Unknown),
                seg(25, 40, Level::Known(3)),
            ]
        );
        let flag = t.signal("uut.inner.flag").unwrap();
        assert_eq!(
            flag.segments(40),
            vec![
                seg(0, 10, Level::Unknown),
                seg(10, 20, Level::Known(0)),
                seg(20, 40, Level::Known(1)),
            ]
        );
    }

    #[test]
    fn a_window_starts_with_the_value_at_its_start() {
        let w = trace(40).window(12, 30);
        assert_eq!(w.end, 18);
        assert_eq!(
            w.signal("count").unwrap().segments(18),
            vec![
                seg(0, 8, Level::Known(5)),
                seg(8, 13, Level::Unknown),
                seg(13, 18, Level::Known(3)),
            ]
        );
    }

    #[test]
    fn the_end_cuts_later_changes() {
        let t = trace(22);
        assert_eq!(
            t.signal("count").unwrap().segments(22),
            vec![
                seg(0, 5, Level::Known(0)),
                seg(5, 20, Level::Known(5)),
                seg(20, 22, Level::Unknown),
            ]
        );
    }

    #[test]
    fn rising_edges_of_the_clock() {
        let t = trace(40);
        assert_eq!(t.signal("clock").unwrap().rising_edges(40), vec![5, 15, 25]);
    }

    #[test]
    fn a_missing_signal_is_named() {
        assert_eq!(
            Trace::from_vcd(VCD, &["uut.nothing"], 10),
            Err(WaveformError::NoSignal("uut.nothing".into()))
        );
    }

    #[test]
    fn short_vectors_are_left_extended_as_vcd_says() {
        use vcd::Value::{V0, V1, X, Z};
        assert_eq!(level_of(&[V1, V0], 5), Level::Known(2));
        assert_eq!(level_of(&[V0], 5), Level::Known(0));
        assert_eq!(level_of(&[X, V1], 5), Level::Unknown);
        assert_eq!(level_of(&[Z], 1), Level::Unknown);
        assert_eq!(level_of(&[V1, V1, V1], 2), Level::Known(3));
    }

    #[test]
    fn labels_show_the_bus_width() {
        let t = trace(40);
        assert_eq!(t.signals[1].label(), "count[2:0]");
        assert_eq!(t.signals[0].label(), "clock");
        assert_eq!(t.signals[2].name(), "flag");
    }
}
