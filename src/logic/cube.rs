//! Product terms ([`Cube`]) and sums of products ([`Sop`]).

use std::borrow::Cow;
use std::cmp::Ordering;

use serde::Serialize;

/// The largest number of variables a [`Cube`] or [`Sop`] can talk about
/// (one bit of a `u32` per variable).
pub const MAX_CUBE_INPUTS: usize = 32;

/// The codes `0..1 << inputs` as a bit mask (`u32::MAX` from 32 inputs on).
pub(crate) fn low_mask(inputs: usize) -> u32 {
    if inputs >= MAX_CUBE_INPUTS {
        u32::MAX
    } else {
        (1u32 << inputs) - 1
    }
}

/// A product term (a conjunction of literals), also called a cube.
///
/// Variable `j` takes part when bit `j` of `mask` is set; it is then a true
/// literal when bit `j` of `bits` is set and a complemented literal otherwise.
/// `bits & !mask == 0` always holds for cubes built with [`Cube::new`]; a cube
/// with stray value bits contains no code at all. `mask == 0` is the
/// constant-1 product ([`Cube::ONE`]).
///
/// The derived `Ord` compares `(mask, bits)` and is only meant for use as a
/// map or set key; [`Cube::canonical_cmp`] is the order used for output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Cube {
    /// Which variables take part in the product (bit `j` = variable `j`).
    pub mask: u32,
    /// The polarity of each taking-part variable (1 = true literal).
    pub bits: u32,
}

impl Cube {
    /// The constant-1 product: no literals, contains every code.
    pub const ONE: Cube = Cube { mask: 0, bits: 0 };

    /// A cube with the given literals; value bits outside `mask` are cleared.
    pub const fn new(mask: u32, bits: u32) -> Cube {
        Cube {
            mask,
            bits: bits & mask,
        }
    }

    /// The cube that contains exactly `code` among the codes of `inputs` variables.
    pub fn minterm(inputs: usize, code: u32) -> Cube {
        Cube::new(low_mask(inputs), code)
    }

    /// True when the product is 1 for input `code`.
    pub fn contains(&self, code: u32) -> bool {
        code & self.mask == self.bits
    }

    /// The number of literals in the product.
    pub fn literals(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// True when no value bit is set outside the mask.
    pub fn is_well_formed(&self) -> bool {
        self.bits & !self.mask == 0
    }

    /// The literal of variable `var`: `Some(true)` for a true literal,
    /// `Some(false)` for a complemented one, `None` when the variable is absent.
    pub fn literal(&self, var: usize) -> Option<bool> {
        if var >= MAX_CUBE_INPUTS || self.mask & (1 << var) == 0 {
            None
        } else {
            Some(self.bits & (1 << var) != 0)
        }
    }

    /// The cube with variable `var`'s literal removed (unchanged when absent).
    pub fn without(&self, var: usize) -> Cube {
        if var >= MAX_CUBE_INPUTS {
            *self
        } else {
            Cube::new(self.mask & !(1 << var), self.bits)
        }
    }

    /// True when every code in `other` is also in `self`.
    pub fn covers(&self, other: &Cube) -> bool {
        other.is_well_formed()
            && self.mask & !other.mask == 0
            && other.bits & self.mask == self.bits
    }

    /// The codes below `1 << inputs` that the cube contains, in ascending order.
    pub fn minterms(&self, inputs: usize) -> Minterms {
        let all = low_mask(inputs);
        if !self.is_well_formed() || self.bits & !all != 0 {
            return Minterms {
                base: 0,
                free: 0,
                next: None,
            };
        }
        Minterms {
            base: self.bits,
            free: all & !self.mask,
            next: Some(0),
        }
    }

    /// The canonical output order of cubes: fewer literals first; cubes with
    /// the same number of literals are compared variable by variable from the
    /// most significant one down, where a true literal comes before a
    /// complemented one, which comes before an absent variable.
    ///
    /// For variables `A` (bit 2), `B`, `C` (bit 0) this orders
    /// `A < B < A·B < A·B' < A·C < A'·B < B·C`.
    pub fn canonical_cmp(&self, other: &Cube) -> Ordering {
        self.literals()
            .cmp(&other.literals())
            .then_with(|| self.variable_key().cmp(&other.variable_key()))
    }

    /// Two bits per variable, most significant variable first:
    /// 0 = true literal, 1 = complemented, 2 = absent.
    fn variable_key(&self) -> u64 {
        (0..MAX_CUBE_INPUTS).rev().fold(0u64, |key, var| {
            let rank = match self.literal(var) {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            };
            (key << 2) | rank
        })
    }
}

/// Iterator over the codes of a cube, from [`Cube::minterms`].
#[derive(Clone, Debug)]
pub struct Minterms {
    base: u32,
    free: u32,
    next: Option<u32>,
}

impl Iterator for Minterms {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let sub = self.next?;
        // Next subset of `free` in ascending order; wraps to 0 after the last.
        let following = (sub | !self.free).wrapping_add(1) & self.free;
        self.next = (following != 0).then_some(following);
        Some(self.base | sub)
    }
}

/// A sum of products over `inputs` variables. An empty cube list is the
/// constant 0; a list holding [`Cube::ONE`] is the constant 1.
///
/// The cubes are kept in the canonical order of [`Cube::canonical_cmp`]
/// without duplicates, so two sums of the same products compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sop {
    inputs: usize,
    cubes: Vec<Cube>,
}

impl Sop {
    /// A sum of `cubes` over `inputs` variables.
    ///
    /// Never fails: stray value bits outside a cube's mask are cleared, the
    /// cubes are put in canonical order and duplicates are dropped. Cubes are
    /// not checked against `inputs`.
    pub fn new(inputs: usize, cubes: Vec<Cube>) -> Self {
        let mut cubes: Vec<Cube> = cubes
            .into_iter()
            .map(|cube| Cube::new(cube.mask, cube.bits))
            .collect();
        cubes.sort_by(Cube::canonical_cmp);
        cubes.dedup();
        Sop { inputs, cubes }
    }

    /// The constant-0 function of `inputs` variables.
    pub fn zero(inputs: usize) -> Self {
        Sop {
            inputs,
            cubes: Vec::new(),
        }
    }

    /// The constant-1 function of `inputs` variables.
    pub fn one(inputs: usize) -> Self {
        Sop {
            inputs,
            cubes: vec![Cube::ONE],
        }
    }

    /// The number of input variables.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The products, in canonical order.
    pub fn cubes(&self) -> &[Cube] {
        &self.cubes
    }

    /// The value of the function for input `code`.
    pub fn eval(&self, code: u32) -> bool {
        self.cubes.iter().any(|cube| cube.contains(code))
    }

    /// The total number of literals over all products.
    pub fn literals(&self) -> usize {
        self.cubes.iter().map(Cube::literals).sum()
    }

    /// The number of products.
    pub fn products(&self) -> usize {
        self.cubes.len()
    }

    /// The sum in the J.R. 01 manual's notation.
    ///
    /// `names` lists the variables most significant first: `names[0]` is
    /// variable `inputs - 1`, the last name is variable 0. Products are joined
    /// by `" + "`, literals inside a product by `"·"` in `names` order, and a
    /// complement is the suffix `'`. The constant-1 product is `"1"` and the
    /// empty sum `"0"`. A variable without a name is written `x<j>`.
    ///
    /// With `names = ["A", "B", "C"]`, the cubes `A` (mask `0b100`, bits
    /// `0b100`) and `B·C'` (mask `0b011`, bits `0b010`) render as `"A + B·C'"`.
    pub fn render(&self, names: &[&str]) -> String {
        self.write(names, &SEED_NOTATION)
    }

    /// Each product on its own in the J.R. 01 manual's notation, in the sum's order (`["A", "B·C"]`).
    pub fn render_products(&self, names: &[&str]) -> Vec<String> {
        self.cubes
            .iter()
            .map(|c| Sop::new(self.inputs, vec![*c]).render(names))
            .collect()
    }

    /// The sum as a Verilog expression over the identifiers in `names`
    /// (most significant variable first, as for [`Sop::render`]).
    ///
    /// A single product is written bare (`~b & c`); several products are each
    /// parenthesised and joined by `|` (`(a) | (b & c)`). The constants are
    /// `1'b1` and `1'b0`.
    pub fn to_verilog(&self, names: &[&str]) -> String {
        self.write(names, &VERILOG_NOTATION)
    }

    /// The name of variable `var`: `names[inputs - 1 - var]`, or `x<var>`.
    fn name<'a>(&self, names: &[&'a str], var: usize) -> Cow<'a, str> {
        self.inputs
            .checked_sub(var + 1)
            .and_then(|index| names.get(index))
            .map_or_else(
                || Cow::Owned(format!("x{var}")),
                |name| Cow::Borrowed(*name),
            )
    }

    /// Writes the sum in the given notation.
    fn write(&self, names: &[&str], notation: &Notation) -> String {
        if self.cubes.is_empty() {
            return notation.zero.to_owned();
        }
        let parenthesise = notation.parenthesise && self.cubes.len() > 1;
        let products: Vec<String> = self
            .cubes
            .iter()
            .map(|cube| {
                let product = if cube.mask == 0 {
                    notation.one.to_owned()
                } else {
                    (0..MAX_CUBE_INPUTS)
                        .rev()
                        .filter_map(|var| {
                            cube.literal(var).map(|positive| {
                                let name = self.name(names, var);
                                if positive {
                                    name.into_owned()
                                } else {
                                    format!("{}{name}{}", notation.not_prefix, notation.not_suffix)
                                }
                            })
                        })
                        .collect::<Vec<_>>()
                        .join(notation.and)
                };
                if parenthesise {
                    format!("({product})")
                } else {
                    product
                }
            })
            .collect();
        products.join(notation.or)
    }
}

/// How [`Sop::write`] spells a sum of products.
struct Notation {
    zero: &'static str,
    one: &'static str,
    or: &'static str,
    and: &'static str,
    not_prefix: &'static str,
    not_suffix: &'static str,
    /// Parenthesise each product when there are several.
    parenthesise: bool,
}

/// The J.R. 01 manual's notation: `A + B·C'`.
const SEED_NOTATION: Notation = Notation {
    zero: "0",
    one: "1",
    or: " + ",
    and: "·",
    not_prefix: "",
    not_suffix: "'",
    parenthesise: false,
};

/// Verilog: `(a) | (b & ~c)`.
const VERILOG_NOTATION: Notation = Notation {
    zero: "1'b0",
    one: "1'b1",
    or: " | ",
    and: " & ",
    not_prefix: "~",
    not_suffix: "",
    parenthesise: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    const ABC: [&str; 3] = ["A", "B", "C"];

    /// Parses `"A·B'"`-style products over A (bit 2), B, C (bit 0).
    fn cube(text: &str) -> Cube {
        let mut mask = 0;
        let mut bits = 0;
        for literal in text.split('·') {
            let var = match literal.trim_end_matches('\'') {
                "A" => 2,
                "B" => 1,
                "C" => 0,
                other => panic!("unknown variable {other}"),
            };
            mask |= 1 << var;
            if !literal.ends_with('\'') {
                bits |= 1 << var;
            }
        }
        Cube::new(mask, bits)
    }

    #[test]
    fn contains_and_literals() {
        let c = cube("A·C'");
        assert_eq!(c.literals(), 2);
        assert!(c.contains(0b100));
        assert!(c.contains(0b110));
        assert!(!c.contains(0b101));
        assert!(!c.contains(0b000));
        assert!(Cube::ONE.contains(0b111));
        assert_eq!(Cube::ONE.literals(), 0);
    }

    #[test]
    fn new_clears_stray_bits() {
        let c = Cube::new(0b01, 0b11);
        assert_eq!(c.bits, 0b01);
        assert!(c.is_well_formed());
        assert!(!Cube {
            mask: 0b01,
            bits: 0b11
        }
        .is_well_formed());
    }

    #[test]
    fn minterms_ascending() {
        assert_eq!(cube("B").minterms(3).collect::<Vec<_>>(), vec![2, 3, 6, 7]);
        assert_eq!(cube("A·B'·C").minterms(3).collect::<Vec<_>>(), vec![5]);
        assert_eq!(Cube::ONE.minterms(2).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert_eq!(Cube::ONE.minterms(0).collect::<Vec<_>>(), vec![0]);
        // A literal on a variable the function does not have that must be 1.
        assert_eq!(Cube::new(0b100, 0b100).minterms(2).count(), 0);
        assert_eq!(Cube::new(0b100, 0).minterms(2).count(), 4);
        assert_eq!(
            Cube::ONE.minterms(32).take(3).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
    }

    #[test]
    fn covers_and_without() {
        assert!(cube("A").covers(&cube("A·B'")));
        assert!(!cube("A·B'").covers(&cube("A")));
        assert!(!cube("A").covers(&cube("A'·B")));
        assert!(Cube::ONE.covers(&cube("C")));
        assert_eq!(cube("A·B'").without(1), cube("A"));
        assert_eq!(cube("A").without(0), cube("A"));
        assert_eq!(cube("A").without(40), cube("A"));
        assert_eq!(cube("A·B'").literal(1), Some(false));
        assert_eq!(cube("A·B'").literal(2), Some(true));
        assert_eq!(cube("A·B'").literal(0), None);
        assert_eq!(cube("A·B'").literal(99), None);
    }

    #[test]
    fn canonical_order() {
        let cubes: Vec<Cube> = ["B·C", "A'·B", "A·C", "A·B'", "A·B", "B", "A"]
            .into_iter()
            .map(cube)
            .collect();
        let sop = Sop::new(3, cubes);
        assert_eq!(sop.render(&ABC), "A + B + A·B + A·B' + A·C + A'·B + B·C");
    }

    #[test]
    fn render_seed_examples() {
        let x = Sop::new(3, vec![cube("B·C"), cube("A")]);
        assert_eq!(x.render(&ABC), "A + B·C");
        let y = Sop::new(3, vec![cube("B·C'"), cube("A·C'"), cube("B'·C")]);
        assert_eq!(y.render(&ABC), "A·C' + B·C' + B'·C");
        assert_eq!(y.literals(), 6);
        assert_eq!(y.products(), 3);
        assert_eq!(Sop::zero(3).render(&ABC), "0");
        assert_eq!(Sop::one(3).render(&ABC), "1");
        assert_eq!(Sop::new(3, vec![]).render(&ABC), "0");
    }

    #[test]
    fn render_missing_names() {
        let sop = Sop::new(3, vec![cube("A·C'")]);
        assert_eq!(sop.render(&["A"]), "A·x0'");
        assert_eq!(sop.render(&[]), "x2·x0'");
        assert_eq!(
            Sop::new(1, vec![Cube::new(0b10, 0b10)]).render(&["p"]),
            "x1"
        );
    }

    #[test]
    fn verilog() {
        let names = ["a", "b", "c"];
        let x = Sop::new(3, vec![cube("B·C"), cube("A")]);
        assert_eq!(x.to_verilog(&names), "(a) | (b & c)");
        assert_eq!(Sop::new(3, vec![cube("B'·C")]).to_verilog(&names), "~b & c");
        assert_eq!(Sop::new(3, vec![cube("A")]).to_verilog(&names), "a");
        assert_eq!(Sop::zero(3).to_verilog(&names), "1'b0");
        assert_eq!(Sop::one(3).to_verilog(&names), "1'b1");
    }

    #[test]
    fn eval_and_normalisation() {
        let sop = Sop::new(3, vec![cube("A"), cube("B·C"), cube("A")]);
        assert_eq!(sop.products(), 2);
        let expected = [false, false, false, true, true, true, true, true];
        for (code, want) in expected.into_iter().enumerate() {
            assert_eq!(sop.eval(code as u32), want, "code {code}");
        }
        assert!(!Sop::zero(2).eval(0));
        assert!(Sop::one(2).eval(3));
        let stray = Sop::new(
            2,
            vec![Cube {
                mask: 0b01,
                bits: 0b11,
            }],
        );
        assert_eq!(stray.cubes(), &[Cube::new(0b01, 0b01)]);
    }
}
