//! Binary to decimal digits, as a lookup table.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use crate::circuit::{settle, sized, CombBlock};

/// The digit code that lights no segment on a [`SevenSegment`](super::SevenSegment).
pub const BLANK: u64 = 0xF;

/// The hundreds, tens and ones digits of `value`, leading zeros replaced by
/// [`BLANK`] (0 shows as a single `0`).
pub fn decimal_digits(value: u64) -> [u64; 3] {
    let (h, t, o) = ((value / 100) % 10, (value / 10) % 10, value % 10);
    [
        if value >= 100 { h } else { BLANK },
        if value >= 10 { t } else { BLANK },
        o,
    ]
}

/// Splits a `W`-bit count (W at most 8, so at most 255) into decimal digits.
///
/// ```text
///                +------------------+---> hundreds[4]
///   value[W] --->| DecimalDigits<W> |---> tens[4]
///                +------------------+---> ones[4]
/// ```
///
/// Leading zeros come out as [`BLANK`], so the digits can go straight to a
/// [`SevenSegment`](super::SevenSegment). The Verilog is a `case` over all
/// `2^W` values (at most 256 rows, a handful of LUTs), computed from the same
/// [`decimal_digits`] the simulation uses.
#[derive(LogicBlock, Default)]
pub struct DecimalDigits<const W: usize> {
    /// The count.
    pub value: Signal<In, Bits<W>>,
    /// Hundreds digit, or [`BLANK`] below 100.
    pub hundreds: Signal<Out, Bits<4>>,
    /// Tens digit, or [`BLANK`] below 10.
    pub tens: Signal<Out, Bits<4>>,
    /// Ones digit.
    pub ones: Signal<Out, Bits<4>>,
}

impl<const W: usize> DecimalDigits<W> {
    /// A converter, `connect_all()` done.
    pub fn new() -> Self {
        assert!((1..=8).contains(&W), "DecimalDigits<{W}>: 1 to 8 bits");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const W: usize> Logic for DecimalDigits<W> {
    fn update(&mut self) {
        let [h, t, o] = decimal_digits(self.value.val().to_u64());
        self.hundreds.next = h.into();
        self.tens.next = t.into();
        self.ones.next = o.into();
    }

    fn connect(&mut self) {
        self.hundreds.connect();
        self.tens.connect();
        self.ones.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut code = String::from("always @(*) begin\n    case (value)\n");
        for v in 0..(1u64 << W) {
            let [h, t, o] = decimal_digits(v);
            let _ = writeln!(
                code,
                "        {}: begin hundreds = 4'd{h}; tens = 4'd{t}; ones = 4'd{o}; end",
                sized(W, v)
            );
        }
        code.push_str(
            "        default: begin hundreds = 4'd15; tens = 4'd15; ones = 4'd15; end\n    endcase\nend\n",
        );
        Verilog::Custom(code)
    }
}

impl<const W: usize> CombBlock for DecimalDigits<W> {
    fn eval(&mut self, input: u32) -> u32 {
        self.value.next = u64::from(input).into();
        settle(self);
        (self.hundreds.val().to_u32() << 8)
            | (self.tens.val().to_u32() << 4)
            | self.ones.val().to_u32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{rust_hdl_level, CombDesign, Port};
    use crate::logic::TruthTable;

    fn design<const W: usize>() -> CombDesign {
        let module = format!("decimal{W}");
        CombDesign {
            inputs: vec![Port::new("value", W)],
            outputs: vec![
                Port::new("hundreds", 4),
                Port::new("tens", 4),
                Port::new("ones", 4),
            ],
            verilog: crate::verilog::emit(&DecimalDigits::<W>::new(), &module).unwrap(),
            module,
            table: TruthTable::from_fn(W, 12, |c| {
                let [h, t, o] = decimal_digits(u64::from(c));
                Some(((h << 8) | (t << 4) | o) as u32)
            })
            .unwrap(),
        }
    }

    #[test]
    fn decimal_digits_blank_leading_zeros() {
        assert_eq!(decimal_digits(0), [BLANK, BLANK, 0]);
        assert_eq!(decimal_digits(7), [BLANK, BLANK, 7]);
        assert_eq!(decimal_digits(18), [BLANK, 1, 8]);
        assert_eq!(decimal_digits(100), [1, 0, 0]);
        assert_eq!(decimal_digits(255), [2, 5, 5]);
    }

    #[test]
    fn decimal_rust_hdl_matches_table() {
        for report in [
            rust_hdl_level(&design::<5>(), DecimalDigits::<5>::new().into_driver()).unwrap(),
            rust_hdl_level(&design::<8>(), DecimalDigits::<8>::new().into_driver()).unwrap(),
        ] {
            assert!(report.passed, "{report}");
        }
    }

    #[test]
    fn decimal_verilog_snapshot() {
        insta::assert_snapshot!(design::<4>().verilog);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn decimal_verilog_matches_table() {
        let dir = crate::flow::testing::work_dir("decimal");
        for d in [design::<1>(), design::<5>(), design::<8>()] {
            let report = crate::bench::icarus_level(&d, dir.path()).unwrap();
            assert!(report.passed, "{report}");
        }
    }
}
