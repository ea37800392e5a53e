//! Time-multiplexing four 7-segment digits over one segment bus.

use rust_hdl::prelude::*;

use crate::circuit::sized;
use crate::solver::strategy::bits_for;

/// Drives a 4-digit multiplexed display (the Alchitry Io's), active high.
///
/// ```text
///                  +------------------------------+
///   digits[32] --->| every digit_cycles ticks,     |---> segments[8]  (A..G, DP)
///   clock      --->| the next digit (0, 1, 2, 3)  |---> select[4]    (one-hot)
///                  +------------------------------+
/// ```
///
/// `digits[8i+7 : 8i]` are digit `i`'s segments (bit 0 = A .. bit 6 = G,
/// bit 7 = decimal point, 1 = lit); digit 0 is the rightmost on the Io.
/// Each digit is lit for `digit_cycles` ticks in turn, so the whole display
/// refreshes every `4 * digit_cycles` ticks. Both outputs are active high:
/// the Io wires segments and selects active low, and its top inverts them.
#[derive(LogicBlock, Default)]
pub struct MuxDisplay {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The time base's tick (see [`TimeBase`](super::TimeBase)).
    pub tick: Signal<In, Bit>,
    /// Four digits' segments, digit 0 in the low byte.
    pub digits: Signal<In, Bits<32>>,
    /// The selected digit's segments.
    pub segments: Signal<Out, Bits<8>>,
    /// One-hot digit select.
    pub select: Signal<Out, Bits<4>>,
    _digit_cycles: u64,
    _count: u64,
    _index: u64,
}

impl MuxDisplay {
    /// Each digit lit for `digit_cycles` (at least 1) ticks in turn.
    pub fn new(digit_cycles: u64) -> Self {
        assert!(
            digit_cycles >= 1,
            "MuxDisplay: digit_cycles must be at least 1"
        );
        let mut block = Self {
            _digit_cycles: digit_cycles,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl Logic for MuxDisplay {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.tick.val() {
            if self._count == self._digit_cycles - 1 {
                self._count = 0;
                self._index = (self._index + 1) % 4;
            } else {
                self._count += 1;
            }
        }
        let digits = self.digits.val().to_u64();
        self.segments.next = ((digits >> (8 * self._index)) & 0xFF).into();
        self.select.next = (1u64 << self._index).into();
    }

    fn connect(&mut self) {
        self.segments.connect();
        self.select.connect();
    }

    fn hdl(&self) -> Verilog {
        let last = self._digit_cycles - 1;
        let cw = bits_for(last);
        Verilog::Custom(format!(
            "// each digit lit for {cycles} ticks\n\
             reg [{top}:0] count;\n\
             reg [1:0] index;\n\
             initial begin\n    count = {zero};\n    index = 2'd0;\nend\n\
             always @(posedge clock) begin\n\
             \x20   if (tick) begin\n\
             \x20       if (count == {last}) begin\n\
             \x20           count <= {zero};\n\
             \x20           index <= index + 2'd1;\n\
             \x20       end else begin\n\
             \x20           count <= count + {one};\n\
             \x20       end\n\
             \x20   end\n\
             end\n\
             always @(*) begin\n\
             \x20   case (index)\n\
             \x20       2'd0: begin select = 4'b0001; segments = digits[7:0]; end\n\
             \x20       2'd1: begin select = 4'b0010; segments = digits[15:8]; end\n\
             \x20       2'd2: begin select = 4'b0100; segments = digits[23:16]; end\n\
             \x20       default: begin select = 4'b1000; segments = digits[31:24]; end\n\
             \x20   endcase\n\
             end\n",
            cycles = self._digit_cycles,
            top = cw - 1,
            zero = sized(cw, 0),
            one = sized(cw, 1),
            last = sized(cw, last),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;

    /// Digits come round in order 0, 1, 2, 3, 0, each for digit_cycles.
    #[test]
    fn mux_display_cycles_through_the_digits() {
        let mut s = Stepper::new(MuxDisplay::new(3), |b| &mut b.clock);
        s.block.tick.next = true;
        s.block.digits.next = 0x4433_2211u64.into();
        let mut seen = Vec::new();
        for _ in 0..15 {
            s.settle();
            seen.push((
                s.block.select.val().to_u64(),
                s.block.segments.val().to_u64(),
            ));
            s.step();
        }
        let expect: Vec<(u64, u64)> = [(1, 0x11), (2, 0x22), (4, 0x33), (8, 0x44), (1, 0x11)]
            .iter()
            .flat_map(|&p| [p; 3])
            .collect();
        assert_eq!(seen, expect);
    }

    #[test]
    fn mux_display_verilog_snapshot() {
        let v = crate::verilog::emit(&MuxDisplay::new(4), "mux_display").unwrap();
        insta::assert_snapshot!(v);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn mux_display_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("mux-trace");
        for cycles in [1, 5] {
            let block = MuxDisplay::new(cycles);
            let module = format!("mux_display{cycles}");
            let verilog = crate::verilog::emit(&block, &module).unwrap();
            let mut bench = TraceBench {
                module,
                clock_name: "clock".into(),
                clock: |b: &mut MuxDisplay| &mut b.clock,
                inputs: vec![port("digits", 32), port("tick", 1)],
                outputs: vec![port("segments", 8), port("select", 4)],
                apply: |b, r| {
                    b.digits.next = r[0].into();
                    b.tick.next = r[1] != 0;
                },
                sample: |b| vec![b.segments.val().to_u64(), b.select.val().to_u64()],
                switches: vec![],
            };
            let stimulus = expand(&[
                (vec![0x8040_2010, 1], 30),
                (vec![0x8040_2010, 0], 3),
                (vec![0xFF00_FF01, 1], 20),
            ]);
            let trace = bench.compare(block, &verilog, &stimulus, dir.path());
            assert!(trace.iter().all(|r| r[1].count_ones() == 1));
        }
    }
}
