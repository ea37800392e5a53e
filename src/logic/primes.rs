//! Prime implicant generation by the Quine–McCluskey merging procedure.

use super::cube::Cube;

/// The prime implicants of the function whose cared-for-or-don't-care codes
/// are flagged in `allowed` (length `1 << inputs`), keeping only the primes
/// that contain at least one code flagged in `on`, in canonical cube order.
///
/// Level by level, every pair of implicants with the same mask whose values
/// differ in exactly one variable is merged into an implicant without that
/// variable; implicants that merge with no other are prime. The partner of
/// an implicant is found by binary search in the sorted level, so each level
/// costs `O(size · inputs · log size)` instead of comparing all pairs.
pub(crate) fn quine_mccluskey(inputs: usize, on: &[bool], allowed: &[bool]) -> Vec<Cube> {
    let mut level: Vec<Cube> = (0u32..)
        .zip(allowed)
        .filter(|&(_, &flag)| flag)
        .map(|(code, _)| Cube::minterm(inputs, code))
        .collect();
    level.sort_unstable();
    let mut primes = Vec::new();
    while !level.is_empty() {
        let mut merged = vec![false; level.len()];
        let mut next = Vec::new();
        for (index, cube) in level.iter().enumerate() {
            for var in 0..inputs {
                let bit = 1u32 << var;
                if cube.mask & bit == 0 || cube.bits & bit != 0 {
                    continue;
                }
                let partner = Cube::new(cube.mask, cube.bits | bit);
                if let Ok(other) = level.binary_search(&partner) {
                    merged[index] = true;
                    merged[other] = true;
                    next.push(Cube::new(cube.mask & !bit, cube.bits));
                }
            }
        }
        primes.extend(
            level
                .iter()
                .zip(&merged)
                .filter(|&(_, &was_merged)| !was_merged)
                .map(|(cube, _)| *cube),
        );
        next.sort_unstable();
        next.dedup();
        level = next;
    }
    primes.retain(|prime| {
        prime
            .minterms(inputs)
            .any(|code| on.get(code as usize).copied().unwrap_or(false))
    });
    primes.sort_by(Cube::canonical_cmp);
    primes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(inputs: usize, codes: &[u32]) -> Vec<bool> {
        let mut flags = vec![false; 1 << inputs];
        for &code in codes {
            flags[code as usize] = true;
        }
        flags
    }

    #[test]
    fn textbook_example() {
        // f(A,B,C,D) = Σm(4,8,10,11,12,15) + d(9,14), A = bit 3.
        let on = flags(4, &[4, 8, 10, 11, 12, 15]);
        let allowed = flags(4, &[4, 8, 9, 10, 11, 12, 14, 15]);
        let primes = quine_mccluskey(4, &on, &allowed);
        let expected = vec![
            Cube::new(0b1100, 0b1000), // A·B'
            Cube::new(0b1010, 0b1010), // A·C
            Cube::new(0b1001, 0b1000), // A·D'
            Cube::new(0b0111, 0b0100), // B·C'·D'
        ];
        assert_eq!(primes, expected);
    }

    #[test]
    fn dc_only_primes_are_dropped() {
        // on = {0}, dc = {3}: the prime {3} lies in the don't-care set only.
        let primes = quine_mccluskey(2, &flags(2, &[0]), &flags(2, &[0, 3]));
        assert_eq!(primes, vec![Cube::new(0b11, 0b00)]);
    }

    #[test]
    fn zero_inputs() {
        assert_eq!(quine_mccluskey(0, &[true], &[true]), vec![Cube::ONE]);
        assert!(quine_mccluskey(0, &[false], &[true]).is_empty());
    }
}
