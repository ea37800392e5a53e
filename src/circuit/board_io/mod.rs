//! Building blocks between a board's pins and a game circuit: input
//! conditioning, displays, indicators and the Alchitry Io V1 pull-down
//! emulation.
//!
//! ```text
//!  TimeBase      board clock ─▶ 1 ms tick, shared by every timer below
//!  pin ─▶ Synchronizer ─▶ Debouncer ─▶ EdgeDetector ─▶ 1-cycle "pressed"
//!         (1st FF)        (2nd FF,      (rising edge)
//!                          sampled every N ticks)
//!         └──────────────── Buttons ─────────────────┘
//!  Toggle        pressed pulses ─▶ latched bits (J.R. 01 inputs)
//!  PressTimer    level ─▶ release pulse + "held long" (new game / machine first)
//!  PowerOnReset  reset in the first cycle after configuration (one flip-flop)
//!  DecimalDigits binary ─▶ hundreds, tens, ones (leading zeros blanked)
//!  SevenSegment  digit ─▶ segments A..G (active high)
//!  MuxDisplay    4 digits ─▶ one segment bus + digit selects (active high)
//!  PairRom       byte ─▶ two digits' segments, from one block RAM (Go Board heap game)
//!  Blinker       free-running phase for game-over blink patterns
//!  PullDownEmulator  inout pins: drive low, release, wait, sample
//!  Widen         M bits ─▶ N bits, zero-extended (a board core's lint-clean widening)
//! ```
//!
//! All blocks are active high; a board top inverts what its board wires
//! active low. Human-scale times are parameters in ticks of the [`TimeBase`]
//! (1 ms on a board), each counter sized from its own limit; the time base's
//! period is in cycles of the board clock (see [`crate::circuit::top::Timing`]).
//!
//! Each block pairs a Rust `update()` (rust-hdl's simulator) with a
//! hand-written Verilog body (`hdl()`), or wires sub-blocks with `#[hdl_gen]`.
//! Because the two views are separate code, every block is tested twice: a
//! behavioural test of the rust-hdl simulation, and (feature
//! `external-tools`) a cycle-by-cycle comparison of that simulation with
//! Icarus running the emitted Verilog (`crate::circuit::sim`).
//!
//! State in the custom blocks lives in plain Rust fields (prefixed `_`, which
//! rust-hdl's derive skips) and in registers the Verilog body declares; every
//! register starts at 0, as iCE40 flip-flops do after configuration.

mod blinker;
mod buttons;
mod debouncer;
mod decimal;
mod edge;
mod mux_display;
mod pair_rom;
mod press;
mod pull_down;
mod reset;
mod seven_segment;
mod synchronizer;
mod time_base;
mod toggle;
mod widen;

pub use blinker::Blinker;
pub use buttons::Buttons;
pub use debouncer::Debouncer;
pub use decimal::{DecimalDigits, BLANK};
pub use edge::EdgeDetector;
pub use mux_display::MuxDisplay;
pub use pair_rom::{pair_segments, PairRom, PAIR_DASHES, PAIR_L0, PAIR_L1};
pub use press::PressTimer;
pub use pull_down::{PullDownEmulator, PullDownTiming};
pub use reset::PowerOnReset;
pub use seven_segment::{segments_for, SevenSegment, DIGIT_SEGMENTS};
pub use synchronizer::Synchronizer;
pub use time_base::TimeBase;
pub use toggle::Toggle;
pub use widen::Widen;

/// Verilog for bit `i` of a port `width` bits wide: `name[i]`, or `name`
/// for a one-bit port (rust-hdl declares those as scalars, which cannot be
/// indexed).
pub(crate) fn bit_of(name: &str, i: usize, width: usize) -> String {
    if width == 1 {
        name.to_owned()
    } else {
        format!("{name}[{i}]")
    }
}

/// The low `width` bits of `value`.
pub(crate) fn mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(bit_of("raw", 2, 3), "raw[2]");
        assert_eq!(bit_of("raw", 0, 1), "raw");
        assert_eq!(mask(3), 7);
        assert_eq!(mask(64), u64::MAX);
    }
}
