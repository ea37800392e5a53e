//! Decimal digit to seven segments.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use crate::circuit::{settle, CombBlock};

/// Segment patterns of the digits 0 to 9, bit 0 = A ... bit 6 = G, 1 = lit:
///
/// ```text
///    AAA
///   F   B
///    GGG
///   E   C
///    DDD
/// ```
pub const DIGIT_SEGMENTS: [u8; 10] = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F];

/// The segments for a 4-bit code: the digit for 0 to 9, dark for 10 to 15
/// (so [`BLANK`](super::BLANK) = 15 blanks a digit).
pub fn segments_for(code: u64) -> u8 {
    DIGIT_SEGMENTS.get(code as usize).copied().unwrap_or(0)
}

/// A 7-segment decoder for decimal digits, active high.
///
/// ```text
///                +--------------+
///   digit[4] --->| SevenSegment |---> segments[7]   bit 0 = A .. bit 6 = G
///                +--------------+
/// ```
///
/// Codes 10 to 15 light nothing. Boards with active-low segments (Go Board,
/// Alchitry Io) invert `segments` in their top.
#[derive(LogicBlock, Default)]
pub struct SevenSegment {
    /// The digit (0 to 9; 10 to 15 = blank).
    pub digit: Signal<In, Bits<4>>,
    /// Segments A (bit 0) to G (bit 6), 1 = lit.
    pub segments: Signal<Out, Bits<7>>,
}

impl SevenSegment {
    /// A decoder, `connect_all()` done.
    pub fn new() -> Self {
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl Logic for SevenSegment {
    fn update(&mut self) {
        self.segments.next = u64::from(segments_for(self.digit.val().to_u64())).into();
    }

    fn connect(&mut self) {
        self.segments.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::from("always @(*) begin\n    case (digit)\n");
        for (d, s) in DIGIT_SEGMENTS.iter().enumerate() {
            let _ = writeln!(code, "        4'd{d}: segments = 7'b{s:07b};");
        }
        code.push_str("        default: segments = 7'b0000000;\n    endcase\nend\n");
        Verilog::Custom(code)
    }
}

impl CombBlock for SevenSegment {
    fn eval(&mut self, input: u32) -> u32 {
        self.digit.next = u64::from(input & 0xF).into();
        settle(self);
        self.segments.val().to_u32()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::{rust_hdl_level, CombDesign, Port};
    use crate::logic::TruthTable;

    pub(crate) fn seven_segment_design() -> CombDesign {
        CombDesign {
            module: "seven_segment".into(),
            inputs: vec![Port::new("digit", 4)],
            outputs: vec![Port::new("segments", 7)],
            verilog: crate::verilog::emit(&SevenSegment::new(), "seven_segment").unwrap(),
            table: TruthTable::from_fn(4, 7, |c| Some(u32::from(segments_for(u64::from(c)))))
                .unwrap(),
        }
    }

    /// The patterns read as the digits (checked segment by segment).
    #[test]
    fn seven_segment_patterns_are_the_digits() {
        let lit = |d: usize| -> String {
            "ABCDEFG"
                .chars()
                .enumerate()
                .filter(|(i, _)| DIGIT_SEGMENTS[d] >> i & 1 == 1)
                .map(|(_, c)| c)
                .collect()
        };
        let expected = [
            "ABCDEF", "BC", "ABDEG", "ABCDG", "BCFG", "ACDFG", "ACDEFG", "ABC", "ABCDEFG", "ABCDFG",
        ];
        for (d, e) in expected.iter().enumerate() {
            assert_eq!(lit(d), *e, "digit {d}");
        }
        for code in 10..16 {
            assert_eq!(segments_for(code), 0);
        }
    }

    #[test]
    fn seven_segment_rust_hdl_matches_table() {
        let report = rust_hdl_level(&seven_segment_design(), SevenSegment::new().into_driver())
            .expect("level 1");
        assert!(report.passed, "{report}");
        assert_eq!(report.vectors, 16);
    }

    #[test]
    fn seven_segment_verilog_snapshot() {
        insta::assert_snapshot!(seven_segment_design().verilog);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn seven_segment_verilog_matches_table() {
        let dir = crate::flow::testing::work_dir("seven-segment");
        let report = crate::bench::icarus_level(&seven_segment_design(), dir.path()).unwrap();
        assert!(report.passed, "{report}");
    }
}
