//! The boolean-logic core: truth tables, prime implicants and exact two-level
//! (sum-of-products) minimisation.
//!
//! # Bit conventions
//!
//! * An **input code** is a `u32` whose bit `j` is input variable `j`
//!   (bit 0 is the least significant variable).
//! * An **output word** is a `u32` whose bit `k` is output `k`.
//! * A [`TruthTable`] row is indexed by input code and holds `Some(word)`, or
//!   `None` for a don't-care row.
//! * A [`Cube`] (product term) has a `mask` of the variables taking part and
//!   the `bits` they must have: variable `j` is a true literal when bit `j` of
//!   both is set and a complemented literal when only the mask bit is.
//! * When a [`Sop`] is written out, variable names are listed most
//!   significant first: for three inputs `["A", "B", "C"]` names bit 2 `A`
//!   and bit 0 `C`.
//!
//! # Minimisation
//!
//! [`prime_implicants`] runs Quine–McCluskey over the on-set and the
//! don't-care set. [`minimal_covers`] then solves the covering problem
//! exactly by branch and bound (essential primes, row and column dominance,
//! and a Lagrangian lower bound rounded up to costs a cover can have, with
//! reduced-cost fixing) and lists every cover of least cost, the cost being
//! the total number of literals, ties broken by the number of products.
//! [`minimise()`] returns the first such cover. Random 8-input functions with
//! don't-cares typically take milliseconds.
//!
//! # Ordering
//!
//! Everything returned is deterministic and independent of hashing. Cubes
//! are ordered by [`Cube::canonical_cmp`]: fewer literals first, then
//! variable by variable from the most significant down, a true literal
//! before a complemented one before an absent variable. Every [`Sop`] keeps
//! its cubes in that order, so `A + B·C`, never `B·C + A`. The covers of
//! [`minimal_covers`] come in a fixed search order, the first being the one
//! [`minimise()`] returns; asking for fewer gives a prefix of the list.

mod bitset;
mod cover;
mod cube;
mod error;
mod minimise;
mod primes;
mod truth_table;

#[cfg(test)]
mod tests;

pub use cube::{Cube, Minterms, Sop, MAX_CUBE_INPUTS};
pub use error::LogicError;
pub use minimise::{
    minimal_covers, minimise, minimise_bounded, prime_implicants, try_minimal_covers, try_minimise,
    try_prime_implicants, MAX_FUNCTION_INPUTS,
};
pub use truth_table::TruthTable;
