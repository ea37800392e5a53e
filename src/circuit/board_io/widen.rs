//! Zero extension of a bus to a wider one, with the widths written out.

use rust_hdl::prelude::*;

use crate::circuit::{settle, sized, CombBlock};

/// Zero-extends an `M`-bit value to `N` bits (`M <= N`).
///
/// ```text
///                 +------------+
///   narrow[M] --->| Widen<M,N> |---> wide[N]   = {(N-M) zeros, narrow}
///                 +------------+
/// ```
///
/// rust-hdl writes a widening `bit_cast` as `narrow & N'h..`, an operation on operands of two
/// widths, which Verilator reports as WIDTH; its language has no concatenation to write the
/// zero bits with. This block writes them as a sized constant instead, so a board core widens
/// a value (a digit's segments into the display bus, a one-bit flag into a number) lint-clean.
/// Narrowing needs no block: `get_bits::<N>(offset)` is a part-select.
#[derive(LogicBlock, Default)]
pub struct Widen<const M: usize, const N: usize> {
    /// The value.
    pub narrow: Signal<In, Bits<M>>,
    /// The value, zero-extended to `N` bits.
    pub wide: Signal<Out, Bits<N>>,
}

impl<const M: usize, const N: usize> Widen<M, N> {
    /// A zero extension, `connect_all()` done.
    ///
    /// # Panics
    /// If `M` is 0 or wider than `N`.
    pub fn new() -> Self {
        assert!((1..=N).contains(&M), "Widen<{M}, {N}>: 1 to {N} bits in");
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl<const M: usize, const N: usize> Logic for Widen<M, N> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<N, M>(self.narrow.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(if M == N {
            "always @(*) wide = narrow;\n".to_owned()
        } else {
            format!("always @(*) wide = {{{}, narrow}};\n", sized(N - M, 0))
        })
    }
}

impl<const M: usize, const N: usize> CombBlock for Widen<M, N> {
    fn eval(&mut self, input: u32) -> u32 {
        self.narrow.next = u64::from(input).into();
        settle(self);
        self.wide.val().to_u32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{rust_hdl_level, CombDesign, Port};
    use crate::logic::TruthTable;

    /// The design of `Widen<M, N>`, its table the identity (zero extension keeps the value).
    fn design<const M: usize, const N: usize>() -> CombDesign {
        let module = format!("widen{M}_{N}");
        CombDesign {
            inputs: vec![Port::new("narrow", M)],
            outputs: vec![Port::new("wide", N)],
            verilog: crate::verilog::emit(&Widen::<M, N>::new(), &module).unwrap(),
            module,
            table: TruthTable::from_fn(M, N, Some).unwrap(),
        }
    }

    #[test]
    fn widen_rust_hdl_matches_table() {
        for report in [
            rust_hdl_level(&design::<1, 4>(), Widen::<1, 4>::new().into_driver()).unwrap(),
            rust_hdl_level(&design::<3, 8>(), Widen::<3, 8>::new().into_driver()).unwrap(),
            rust_hdl_level(&design::<4, 4>(), Widen::<4, 4>::new().into_driver()).unwrap(),
        ] {
            assert!(report.passed, "{report}");
        }
    }

    #[test]
    #[should_panic(expected = "Widen<5, 4>")]
    fn widen_refuses_to_narrow() {
        let _ = Widen::<5, 4>::new();
    }

    #[test]
    fn widen_verilog_snapshot() {
        insta::assert_snapshot!(design::<3, 8>().verilog);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn widen_verilog_matches_table() {
        let dir = crate::flow::testing::work_dir("widen");
        for d in [
            design::<1, 4>(),
            design::<1, 8>(),
            design::<3, 8>(),
            design::<7, 16>(),
            design::<4, 4>(),
        ] {
            let report = crate::bench::icarus_level(&d, dir.path()).unwrap();
            assert!(report.passed, "{report}");
        }
    }
}
