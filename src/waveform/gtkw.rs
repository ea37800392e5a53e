//! A GTKWave save file (`.gtkw`) for a trace: `gtkwave FILE.vcd FILE.gtkw` opens with the same
//! signals as the SVG picture, in the same order.

use super::Trace;
use std::fmt::Write;

/// The name GTKWave gives a VCD variable: its scope path, and for a bus declared without a
/// range (as rust-hdl writes them) the range GTKWave adds, `[width-1:0]`.
pub fn gtkw_name(path: &str, width: u32) -> String {
    if width > 1 {
        format!("{path}[{}:0]", width - 1)
    } else {
        path.to_owned()
    }
}

/// The save file: a `[*]` comment with `title`, then each signal of `trace` in order, single
/// bits in binary (`@28`) and buses in decimal (`@24`), as the SVG labels them.
pub fn render_gtkw(trace: &Trace, title: &str) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "[*] GTKWave save file written by retrogate");
    let _ = writeln!(text, "[*] {}", title.replace('\n', " "));
    let _ = writeln!(text, "[timestart] 0");
    let _ = writeln!(text, "[sst_expanded] 1");
    let mut format = "";
    for signal in &trace.signals {
        let flags = if signal.width > 1 { "@24" } else { "@28" };
        if flags != format {
            let _ = writeln!(text, "{flags}");
            format = flags;
        }
        let _ = writeln!(text, "{}", gtkw_name(&signal.path, signal.width));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::waveform::tests::VCD;

    #[test]
    fn buses_get_their_range_and_a_decimal_format() {
        let trace =
            Trace::from_vcd(VCD, &["uut.clock", "uut.count", "uut.inner.flag"], 30).unwrap();
        let text = render_gtkw(&trace, "t");
        assert_eq!(
            text,
            "[*] GTKWave save file written by retrogate\n[*] t\n[timestart] 0\n[sst_expanded] 1\n\
             @28\nuut.clock\n@24\nuut.count[2:0]\n@28\nuut.inner.flag\n"
        );
    }
}
