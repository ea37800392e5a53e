//! Waveforms: the values of chosen signals over time, read from a VCD trace, and their
//! picture as SVG.
//!
//! rust-hdl ships a VCD-to-SVG renderer (`rust_hdl::docs::vcd2svg`), but it labels a bus only
//! between two of its changes, so a bus's last value is never written (the controller's
//! `machine_take` showed 0 all game), and it writes values as `0h..`. This renderer labels every
//! value, the last one included, in decimal, and draws the clock's rising edges as a numbered
//! cycle grid. Parsing is the `vcd` crate's; both halves are pure (text in, text out). The same
//! signals also go to a GTKWave save file ([`render_gtkw`]).

mod gtkw;
mod svg;
mod trace;

pub use gtkw::{gtkw_name, render_gtkw};
pub use svg::{render_svg, Picture};
pub use trace::{Level, Segment, Signal, Trace, WaveformError};

#[cfg(test)]
mod tests {
    /// A small trace: a clock, a 3-bit bus with a repeated value and an unknown bit, and a
    /// bit in a sub-scope that starts unknown.
    pub const VCD: &str = "$timescale 1 ps $end
$scope module uut $end
$var wire 1 ! clock $end
$var wire 3 \" count $end
$scope module inner $end
$var wire 1 # flag $end
$upscope $end
$upscope $end
$enddefinitions $end
0!
b0 \"
x#
#5
1!
b101 \"
#10
0!
0#
#15
1!
b101 \"
#20
0!
b1x \"
1#
#25
1!
b11 \"
#30
0!
";
}
