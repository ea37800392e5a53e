//! The stick game's strategy as a combinational block: `sticks` in, the solver's `take` and
//! `winning` out, built from [`sticks_table`] as a ROM (a `case` statement) or as minimised
//! logic (one minimum sum of products per output bit).
//!
//! ```text
//!                  +--------------------------+
//!   sticks[W] ---->|  SticksStrategy<W, M>    |----> take[M]   (0 at a terminal position)
//!                  |  (Impl::Rom or ::Logic)  |----> winning   (1: the player to move wins)
//!                  +--------------------------+
//! ```
//!
//! W is the bits the count needs (1 to 8), M the bits the largest move needs (1 to 4). Codes
//! above the count are don't-cares: the ROM stores the game's answer for that many sticks there
//! ([`SticksTable::filled`], which continues the periodic pattern and so keeps the ROM small),
//! the logic outputs whatever its covers give (the minimiser uses them freely).
//! `update()` (rust-hdl's simulation) and `hdl()` (the Verilog) are separate code built from the
//! same data, so the bench checks the Verilog on its own.
//!
//! Widths are const generics; [`sticks_strategy_verilog`], [`sticks_strategy_driver`] and
//! [`with_widths!`](crate::with_widths) dispatch a [`SticksGame`] to the right instance at run
//! time.

use std::fmt::Write as _;

use rust_hdl::prelude::*;
use serde::Serialize;

use super::{settle, sized, CircuitError, CombBlock};
use crate::game::SticksGame;
use crate::logic::{minimise_bounded, Sop, TruthTable};
use crate::solver::strategy::{sticks_table, SticksTable, SticksTableError};
use crate::verilog::{emit, VerilogError};

/// Module name of the emitted strategy.
pub const STRATEGY_MODULE: &str = "sticks_strategy";

/// How the strategy table becomes a circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Impl {
    /// A `case` statement over every code up to the count (yosys maps it as it likes).
    Rom,
    /// A sum of products per output bit, don't-cares used: the exact minimum of
    /// [`minimise`](crate::logic::minimise) when the bit has at most [`EXACT_PRIME_LIMIT`]
    /// prime implicants, otherwise a greedy irredundant cover of its primes (see
    /// [`cover_output_bit`]).
    Logic,
}

impl Impl {
    /// Both implementations, ROM first.
    pub const ALL: [Impl; 2] = [Impl::Rom, Impl::Logic];

    /// `rom` or `logic`.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Rom => "rom",
            Impl::Logic => "logic",
        }
    }
}

impl std::fmt::Display for Impl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Most prime implicants an output bit may have for the exact minimiser to be used; the exact
/// covering search is exponential in the worst case, so bits with more primes get a greedy
/// cover instead. Of the games in docs/sticks-luts.md only the 255-stick {1,3,4} and {2,5,7}
/// tables have such bits (checked by `large_tables_get_a_correct_cover`).
pub const EXACT_PRIME_LIMIT: usize = 80;

/// A sum of products for output bit `k` of `table`, and whether it is an exact minimum:
/// [`minimise_bounded`] with [`EXACT_PRIME_LIMIT`] (the exact minimum of [`minimise`](crate::logic::minimise) up to
/// that many prime implicants, a greedy irredundant cover of the primes beyond).
pub fn cover_output_bit(table: &TruthTable, k: usize) -> (Sop, bool) {
    let (on, dc) = table.output_bit(k);
    minimise_bounded(table.inputs(), &on, &dc, EXACT_PRIME_LIMIT)
}

/// Why a stick game's circuit could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SticksCircuitError {
    /// The game does not fit a strategy circuit.
    #[error(transparent)]
    Table(#[from] SticksTableError),
    /// The block refused the table.
    #[error(transparent)]
    Circuit(#[from] CircuitError),
    /// Emitting the Verilog failed.
    #[error(transparent)]
    Verilog(#[from] VerilogError),
}

/// The strategy lookup (see the module docs). Ports are exactly `sticks`, `take`, `winning`.
#[derive(LogicBlock)]
pub struct SticksStrategy<const W: usize, const M: usize> {
    /// Sticks left.
    pub sticks: Signal<In, Bits<W>>,
    /// The solver's move; 0 at a terminal position.
    pub take: Signal<Out, Bits<M>>,
    /// 1 when the player to move wins.
    pub winning: Signal<Out, Bit>,
    _impl: Impl,
    /// Word per code (`take << 1 | winning`), don't-cares filled: the ROM's contents.
    _words: Vec<u32>,
    /// Covers: index 0 is `winning`, index `1 + k` is `take[k]`.
    _covers: Vec<Sop>,
    /// Whether every cover is an exact minimum.
    _exact: bool,
}

impl<const W: usize, const M: usize> SticksStrategy<W, M> {
    /// Builds the block from a strategy table of `W` inputs and `M + 1` outputs (word
    /// `take << 1 | winning`, as [`sticks_table`] builds it). The logic implementation
    /// minimises each output bit of `table.table` here; the ROM stores `table.filled`.
    /// The block comes back with `connect_all()` called.
    pub fn new(sticks: &SticksTable, implementation: Impl) -> Result<Self, CircuitError> {
        let table = &sticks.table;
        if !(1..=8).contains(&W) || !(1..=4).contains(&M) {
            return Err(CircuitError::Unsupported {
                inputs: W,
                outputs: M + 1,
                max_inputs: 8,
            });
        }
        if table.inputs() != W || table.outputs() != M + 1 {
            return Err(CircuitError::ShapeMismatch {
                table_inputs: table.inputs(),
                table_outputs: table.outputs(),
                rom_inputs: W,
                rom_outputs: M + 1,
            });
        }
        let (covers, exact): (Vec<Sop>, Vec<bool>) = match implementation {
            Impl::Rom => (Vec::new(), Vec::new()),
            Impl::Logic => (0..table.outputs())
                .map(|k| cover_output_bit(table, k))
                .unzip(),
        };
        let mut block = Self {
            sticks: Default::default(),
            take: Default::default(),
            winning: Default::default(),
            _impl: implementation,
            // `filled` has a word for each of the 1 << W codes, equal to the table where it
            // cares.
            _words: sticks.filled.clone(),
            _covers: covers,
            _exact: exact.iter().all(|&e| e),
        };
        block.connect_all();
        Ok(block)
    }

    /// The covers of the logic implementation (`winning` first, then `take[0]` up); empty for
    /// the ROM.
    pub fn covers(&self) -> &[Sop] {
        &self._covers
    }

    /// True when every cover is an exact minimum (always for the ROM, which has none).
    pub fn exact(&self) -> bool {
        self._exact
    }

    /// The word (`take << 1 | winning`) the block computes for `code`.
    pub fn word(&self, code: u32) -> u32 {
        match self._impl {
            Impl::Rom => self._words.get(code as usize).copied().unwrap_or(0),
            Impl::Logic => self
                ._covers
                .iter()
                .enumerate()
                .fold(0, |w, (k, sop)| w | (u32::from(sop.eval(code)) << k)),
        }
    }

    /// `name[bit]`, or the bare name for a one-bit port (rust-hdl declares those scalar).
    fn bit(name: &str, width: usize, bit: usize) -> String {
        if width == 1 {
            name.to_owned()
        } else {
            format!("{name}[{bit}]")
        }
    }

    fn rom_hdl(&self) -> String {
        let mut code = String::from("always @(*) begin\n    case (sticks)\n");
        for (row, &word) in self._words.iter().enumerate() {
            let _ = writeln!(
                code,
                "        {}: {{take, winning}} = {};",
                sized(W, row as u64),
                sized(M + 1, u64::from(word))
            );
        }
        let _ = write!(
            code,
            "        default: {{take, winning}} = {};\n    endcase\nend\n",
            sized(M + 1, 0)
        );
        code
    }

    fn logic_hdl(&self) -> String {
        let names: Vec<String> = (0..W).rev().map(|b| Self::bit("sticks", W, b)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut code = String::from("always @(*) begin\n");
        for k in (0..M).rev() {
            let _ = writeln!(
                code,
                "    {} = {};",
                Self::bit("take", M, k),
                self._covers[1 + k].to_verilog(&names)
            );
        }
        let _ = write!(
            code,
            "    winning = {};\nend\n",
            self._covers[0].to_verilog(&names)
        );
        code
    }
}

impl<const W: usize, const M: usize> Logic for SticksStrategy<W, M> {
    fn update(&mut self) {
        let word = self.word(self.sticks.val().index() as u32);
        self.take.next = bits::<M>(u64::from(word >> 1));
        self.winning.next = word & 1 == 1;
    }

    fn connect(&mut self) {
        self.take.connect();
        self.winning.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(match self._impl {
            Impl::Rom => self.rom_hdl(),
            Impl::Logic => self.logic_hdl(),
        })
    }
}

impl<const W: usize, const M: usize> CombBlock for SticksStrategy<W, M> {
    fn eval(&mut self, input: u32) -> u32 {
        self.sticks.next = bits::<W>(u64::from(input));
        settle(self);
        (self.take.val().to_u32() << 1) | u32::from(self.winning.val())
    }
}

/// Calls `$f::<W, M, S>($args)` for the widths of a stick game at run time: `$w` in 1..=8,
/// `$m` in 1..=4 and `S = 1 << M` (the width of a take-set mask). Other widths panic; check
/// them first (as [`sticks_table`] does).
#[macro_export]
macro_rules! with_widths {
    ($w:expr, $m:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match ($w, $m) {
            (1, 1) => $f::<1, 1, 2>($($arg),*),
            (1, 2) => $f::<1, 2, 4>($($arg),*),
            (1, 3) => $f::<1, 3, 8>($($arg),*),
            (1, 4) => $f::<1, 4, 16>($($arg),*),
            (2, 1) => $f::<2, 1, 2>($($arg),*),
            (2, 2) => $f::<2, 2, 4>($($arg),*),
            (2, 3) => $f::<2, 3, 8>($($arg),*),
            (2, 4) => $f::<2, 4, 16>($($arg),*),
            (3, 1) => $f::<3, 1, 2>($($arg),*),
            (3, 2) => $f::<3, 2, 4>($($arg),*),
            (3, 3) => $f::<3, 3, 8>($($arg),*),
            (3, 4) => $f::<3, 4, 16>($($arg),*),
            (4, 1) => $f::<4, 1, 2>($($arg),*),
            (4, 2) => $f::<4, 2, 4>($($arg),*),
            (4, 3) => $f::<4, 3, 8>($($arg),*),
            (4, 4) => $f::<4, 4, 16>($($arg),*),
            (5, 1) => $f::<5, 1, 2>($($arg),*),
            (5, 2) => $f::<5, 2, 4>($($arg),*),
            (5, 3) => $f::<5, 3, 8>($($arg),*),
            (5, 4) => $f::<5, 4, 16>($($arg),*),
            (6, 1) => $f::<6, 1, 2>($($arg),*),
            (6, 2) => $f::<6, 2, 4>($($arg),*),
            (6, 3) => $f::<6, 3, 8>($($arg),*),
            (6, 4) => $f::<6, 4, 16>($($arg),*),
            (7, 1) => $f::<7, 1, 2>($($arg),*),
            (7, 2) => $f::<7, 2, 4>($($arg),*),
            (7, 3) => $f::<7, 3, 8>($($arg),*),
            (7, 4) => $f::<7, 4, 16>($($arg),*),
            (8, 1) => $f::<8, 1, 2>($($arg),*),
            (8, 2) => $f::<8, 2, 4>($($arg),*),
            (8, 3) => $f::<8, 3, 8>($($arg),*),
            (8, 4) => $f::<8, 4, 16>($($arg),*),
            (w, m) => panic!("no stick circuit of {w} input and {m} take bits (1..=8, 1..=4)"),
        }
    };
}

fn strategy_verilog<const W: usize, const M: usize, const S: usize>(
    table: &SticksTable,
    implementation: Impl,
) -> Result<String, SticksCircuitError> {
    let block = SticksStrategy::<W, M>::new(table, implementation)?;
    Ok(emit(&block, STRATEGY_MODULE)?)
}

fn strategy_driver<const W: usize, const M: usize, const S: usize>(
    table: &SticksTable,
    implementation: Impl,
) -> Result<Box<dyn FnMut(u32) -> u32>, SticksCircuitError> {
    Ok(SticksStrategy::<W, M>::new(table, implementation)?.into_driver())
}

/// The Verilog of `game`'s strategy, module `sticks_strategy` with ports `sticks`, `take`,
/// `winning`.
pub fn sticks_strategy_verilog(
    game: &SticksGame,
    implementation: Impl,
) -> Result<String, SticksCircuitError> {
    sticks_strategy_verilog_from(&sticks_table(game)?, implementation)
}

/// [`sticks_strategy_verilog`] from a table already built.
pub fn sticks_strategy_verilog_from(
    table: &SticksTable,
    implementation: Impl,
) -> Result<String, SticksCircuitError> {
    with_widths!(
        table.sticks_bits,
        table.take_bits,
        strategy_verilog(table, implementation)
    )
}

/// rust-hdl's simulation of `game`'s strategy as a closure from the `sticks` code to the word
/// `take << 1 | winning` (what level 1 of the bench takes).
pub fn sticks_strategy_driver(
    game: &SticksGame,
    implementation: Impl,
) -> Result<Box<dyn FnMut(u32) -> u32>, SticksCircuitError> {
    let t = sticks_table(game)?;
    with_widths!(
        t.sticks_bits,
        t.take_bits,
        strategy_driver(&t, implementation)
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Last;

    pub(crate) fn games() -> Vec<SticksGame> {
        let mut out = vec![
            SticksGame::fort_boyard(),
            SticksGame::fort_boyard().with_count(20).unwrap(),
        ];
        for take in [&[1, 3, 4][..], &[2, 5, 7], &[1], &[15], &[3, 4, 9, 11]] {
            for (count, last) in [(1, Last::Wins), (31, Last::Loses), (100, Last::Wins)] {
                out.push(SticksGame::new(count, take, last).unwrap());
            }
        }
        out
    }

    #[test]
    fn both_impls_simulate_the_table() {
        for game in games() {
            let t = sticks_table(&game).unwrap();
            for implementation in Impl::ALL {
                let mut driver = sticks_strategy_driver(&game, implementation).unwrap();
                for code in (0..1u32 << t.sticks_bits).chain((0..1u32 << t.sticks_bits).rev()) {
                    let word = driver(code);
                    if let Some(expected) = t.table.row(code) {
                        assert_eq!(word, expected, "{game:?} {implementation} {code}");
                    } else if implementation == Impl::Rom {
                        assert_eq!(word, t.filled[code as usize], "ROM don't-cares: filled");
                    }
                }
            }
        }
    }

    #[test]
    fn covers_implement_the_table() {
        let t = sticks_table(&SticksGame::fort_boyard()).unwrap();
        let block = SticksStrategy::<5, 2>::new(&t, Impl::Logic).unwrap();
        assert_eq!(block.covers().len(), 3);
        assert!(t.table.is_implemented_by(|c| block.word(c)));
    }

    /// Greedy covers (bits with many primes) implement their bit exactly like exact ones, and
    /// every cover has only prime implicants.
    #[test]
    fn large_tables_get_a_correct_cover() {
        for take in [&[1, 3, 4][..], &[2, 5, 7]] {
            let g = SticksGame::new(255, take, Last::Loses).unwrap();
            let t = sticks_table(&g).unwrap();
            let block = SticksStrategy::<8, 3>::new(&t, Impl::Logic).unwrap();
            assert!(
                !block.exact(),
                "{take:?}: some bit has more than {EXACT_PRIME_LIMIT} primes"
            );
            assert!(t.table.is_implemented_by(|c| block.word(c)), "{take:?}");
            for k in 0..t.table.outputs() {
                let (on, dc) = t.table.output_bit(k);
                let primes = crate::logic::prime_implicants(8, &on, &dc);
                assert!(block.covers()[k].cubes().iter().all(|c| primes.contains(c)));
            }
        }
        let t = sticks_table(&SticksGame::fort_boyard()).unwrap();
        assert!(SticksStrategy::<5, 2>::new(&t, Impl::Logic)
            .unwrap()
            .exact());
    }

    #[test]
    fn wrong_widths_are_refused() {
        let t = sticks_table(&SticksGame::fort_boyard()).unwrap();
        assert!(matches!(
            SticksStrategy::<4, 2>::new(&t, Impl::Rom),
            Err(CircuitError::ShapeMismatch { .. })
        ));
        let big = SticksGame::new(300, &[1, 2], Last::Wins).unwrap();
        assert!(matches!(
            sticks_strategy_verilog(&big, Impl::Rom),
            Err(SticksCircuitError::Table(_))
        ));
    }

    #[test]
    fn one_bit_ports_are_written_bare() {
        // 1 stick, take 1: W = M = 1, both scalar in rust-hdl's declarations.
        let g = SticksGame::new(1, &[1], Last::Loses).unwrap();
        let v = sticks_strategy_verilog(&g, Impl::Logic).unwrap();
        assert!(v.contains("input wire  sticks;"), "{v}");
        assert!(v.contains("    take = "), "{v}");
        assert!(!v.contains("sticks["), "{v}");
    }

    #[test]
    fn emission_is_deterministic() {
        for implementation in Impl::ALL {
            let g = SticksGame::fort_boyard();
            let a = sticks_strategy_verilog(&g, implementation).unwrap();
            assert_eq!(a, sticks_strategy_verilog(&g, implementation).unwrap());
            assert!(
                a.contains("module sticks_strategy(sticks,take,winning);"),
                "{a}"
            );
        }
    }

    #[test]
    fn fort_boyard_rom_snapshot() {
        insta::assert_snapshot!(
            sticks_strategy_verilog(&SticksGame::fort_boyard(), Impl::Rom).unwrap()
        );
    }

    #[test]
    fn fort_boyard_logic_snapshot() {
        insta::assert_snapshot!(
            sticks_strategy_verilog(&SticksGame::fort_boyard(), Impl::Logic).unwrap()
        );
    }
}
