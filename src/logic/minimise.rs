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
        let problem = Self::cover_problem(&on, &primes);
        optimal_covers(&problem, limit)
            .into_iter()
            .map(|cover| self.sop(&primes, cover))
            .collect()
    }

    /// The exact minimum when there are at most `prime_limit` primes, else the greedy cover.
    fn bounded_cover(&self, prime_limit: usize) -> (Sop, bool) {
        let on = self.on_codes();
        if on.is_empty() {
            return (Sop::zero(self.inputs), true);
        }
        let primes = self.primes();
        let problem = Self::cover_problem(&on, &primes);
        if primes.len() <= prime_limit {
            let cover = optimal_covers(&problem, 1)
                .into_iter()
                .next()
                .expect("the primes cover the on-set");
            (self.sop(&primes, cover), true)
        } else {
            (self.sop(&primes, greedy_cover(&problem)), false)
        }
    }

    fn sop(&self, primes: &[Cube], cover: Vec<usize>) -> Sop {
        Sop::new(self.inputs, cover.into_iter().map(|c| primes[c]).collect())
    }

    /// Rows: the on-set codes; columns: the primes, each listing the rows it covers; weights:
    /// the primes' literal counts.
    fn cover_problem(on: &[u32], primes: &[Cube]) -> CoverProblem {
        CoverProblem {
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
        }
    }
}

/// A greedy irredundant cover: essential columns first (the only column of some row), then
/// repeatedly the column with the least weight per newly covered row (weights of at least 1,
/// ties to the lower index), then columns the others make redundant dropped, last picked first.
fn greedy_cover(problem: &CoverProblem) -> Vec<usize> {
    let covers = |c: usize, row: usize| problem.columns[c].contains(&row);
    let mut chosen: Vec<usize> = Vec::new();
    for row in 0..problem.rows {
        let mut only = (0..problem.columns.len()).filter(|&c| covers(c, row));
        if let (Some(c), None) = (only.next(), only.next()) {
            if !chosen.contains(&c) {
                chosen.push(c);
            }
        }
    }
    let mut covered = vec![false; problem.rows];
    for &c in &chosen {
        for &row in &problem.columns[c] {
            covered[row] = true;
        }
    }
    while covered.iter().any(|&c| !c) {
        let mut best: Option<(usize, u64, u64)> = None; // (column, weight, new rows)
        for (c, rows) in problem.columns.iter().enumerate() {
            let new = rows.iter().filter(|&&row| !covered[row]).count() as u64;
            if new == 0 {
                continue;
            }
            let weight = problem.weights[c].max(1);
            // weight / new smaller is better: compare crosswise.
            if best.is_none_or(|(_, bw, bn)| weight * bn < bw * new) {
                best = Some((c, weight, new));
            }
        }
        let (c, _, _) = best.expect("every row lies in some column");
        chosen.push(c);
        for &row in &problem.columns[c] {
            covered[row] = true;
        }
    }
    let mut i = chosen.len();
    while i > 0 {
        i -= 1;
        let c = chosen[i];
        let others_cover = problem.columns[c]
            .iter()
            .all(|&row| chosen.iter().any(|&d| d != c && covers(d, row)));
        if others_cover {
            chosen.remove(i);
        }
    }
    chosen
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

/// A cover of the function that is 1 on `on`, free on `dc` and 0 elsewhere, and whether it is
/// exact: the cover [`minimise`] returns when the function has at most `prime_limit` prime
/// implicants; otherwise, where the exact search could take very long, a greedy irredundant
/// cover of the primes (essential primes, then repeatedly the prime with the fewest literals
/// per newly covered on-set code, ties to the canonical order, then primes made redundant by
/// later picks dropped, last picked first).
///
/// # Panics
///
/// As [`prime_implicants`].
pub fn minimise_bounded(inputs: usize, on: &[u32], dc: &[u32], prime_limit: usize) -> (Sop, bool) {
    expect_valid(Function::new(inputs, on, dc)).bounded_cover(prime_limit)
}
