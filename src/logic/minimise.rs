//! Two-level minimisation: prime implicants and exact minimum covers.

use super::cover::{optimal_covers, CoverProblem};
use super::cube::{Cube, Sop};
use super::error::LogicError;
use super::primes::quine_mccluskey;

/// The largest number of input variables the minimiser accepts.
///
/// Minimisation is exact for every size it accepts, but its run time and
/// memory grow quickly beyond 8 inputs (the size of a [`super::TruthTable`]).
pub const MAX_FUNCTION_INPUTS: usize = 12;

/// The on-set and the allowed (on or don't-care) set as flags per code.
struct Function {
    inputs: usize,
    on: Vec<bool>,
    allowed: Vec<bool>,
}

impl Function {
    /// Checks the arguments. A code listed in both `on` and `dc` counts as
    /// on; repeated codes are harmless.
    fn new(inputs: usize, on: &[u32], dc: &[u32]) -> Result<Self, LogicError> {
        if inputs > MAX_FUNCTION_INPUTS {
            return Err(LogicError::TooManyInputs {
                inputs,
                max: MAX_FUNCTION_INPUTS,
            });
        }
        let size = 1usize << inputs;
        let mut function = Function {
            inputs,
            on: vec![false; size],
            allowed: vec![false; size],
        };
        for (codes, is_on) in [(on, true), (dc, false)] {
            for &code in codes {
                let index = usize::try_from(code)
                    .ok()
                    .filter(|&index| index < size)
                    .ok_or(LogicError::CodeOutOfRange { code, inputs })?;
                function.allowed[index] = true;
                function.on[index] |= is_on;
            }
        }
        Ok(function)
    }

    fn on_codes(&self) -> Vec<u32> {
        (0u32..)
            .zip(&self.on)
            .filter(|&(_, &on)| on)
            .map(|(code, _)| code)
            .collect()
    }

    fn primes(&self) -> Vec<Cube> {
        quine_mccluskey(self.inputs, &self.on, &self.allowed)
    }

    fn minimal_covers(&self, limit: usize) -> Vec<Sop> {
        let on = self.on_codes();
        if on.is_empty() {
            return std::iter::once(Sop::zero(self.inputs))
                .take(limit)
                .collect();
        }
        let primes = self.primes();
        let problem = CoverProblem {
            rows: on.len(),
            columns: primes
                .iter()
                .map(|prime| {
                    (0..on.len())
                        .filter(|&row| prime.contains(on[row]))
                        .collect()
                })
                .collect(),
            weights: primes.iter().map(|prime| prime.literals() as u64).collect(),
        };
        optimal_covers(&problem, limit)
            .into_iter()
            .map(|cover| Sop::new(self.inputs, cover.into_iter().map(|c| primes[c]).collect()))
            .collect()
    }
}

/// Unwraps the result of a checked function for its panicking twin.
fn expect_valid<T>(result: Result<T, LogicError>) -> T {
    result.unwrap_or_else(|error| panic!("invalid boolean function: {error}"))
}

/// The prime implicants of the function that is 1 on `on`, free on `dc` and 0
/// elsewhere, by Quine–McCluskey, in canonical cube order
/// ([`Cube::canonical_cmp`]).
///
/// Only primes containing at least one on-set code are listed (a prime lying
/// wholly in the don't-care set is never part of a minimum cover), so an
/// empty on-set has no primes. A code in both lists counts as on.
///
/// # Panics
///
/// When `inputs` exceeds [`MAX_FUNCTION_INPUTS`] or a code is not below
/// `1 << inputs`; [`try_prime_implicants`] reports these as errors instead.
pub fn prime_implicants(inputs: usize, on: &[u32], dc: &[u32]) -> Vec<Cube> {
    expect_valid(try_prime_implicants(inputs, on, dc))
}

/// [`prime_implicants`], reporting bad arguments as an error.
pub fn try_prime_implicants(
    inputs: usize,
    on: &[u32],
    dc: &[u32],
) -> Result<Vec<Cube>, LogicError> {
    Ok(Function::new(inputs, on, dc)?.primes())
}

/// Every exact minimum sum of products of the function that is 1 on `on`,
/// free on `dc` and 0 elsewhere, at most `limit` of them.
///
/// A cover's cost is its total number of literals, ties broken by its number
/// of products; every returned cover has the least cost, is made of prime
/// implicants, and holds its cubes in canonical order. An empty on-set gives
/// the constant 0 (no products); a function that may be 1 everywhere gives
/// the constant 1. `limit == 0` gives nothing.
///
/// The order is deterministic (nothing depends on hashing or timing) and
/// stable under `limit`: asking for fewer covers returns a prefix of the
/// longer list. The first cover is the one the optimising pass of the branch
/// and bound settles on, which is what [`minimise`] returns; the others
/// follow in the order the enumerating pass finds them, which tries the
/// primes of each branching minterm cheapest first, in canonical order.
///
/// # Panics
///
/// As [`prime_implicants`]; [`try_minimal_covers`] reports errors instead.
pub fn minimal_covers(inputs: usize, on: &[u32], dc: &[u32], limit: usize) -> Vec<Sop> {
    expect_valid(try_minimal_covers(inputs, on, dc, limit))
}

/// [`minimal_covers`], reporting bad arguments as an error.
pub fn try_minimal_covers(
    inputs: usize,
    on: &[u32],
    dc: &[u32],
    limit: usize,
) -> Result<Vec<Sop>, LogicError> {
    Ok(Function::new(inputs, on, dc)?.minimal_covers(limit))
}

/// The first minimum cover of [`minimal_covers`].
///
/// # Panics
///
/// As [`prime_implicants`]; [`try_minimise`] reports errors instead.
pub fn minimise(inputs: usize, on: &[u32], dc: &[u32]) -> Sop {
    expect_valid(try_minimise(inputs, on, dc))
}

/// [`minimise`], reporting bad arguments as an error.
pub fn try_minimise(inputs: usize, on: &[u32], dc: &[u32]) -> Result<Sop, LogicError> {
    let function = Function::new(inputs, on, dc)?;
    // A function always has a cover (its on-set is covered by its own primes).
    Ok(function
        .minimal_covers(1)
        .into_iter()
        .next()
        .unwrap_or_else(|| Sop::zero(inputs)))
}
