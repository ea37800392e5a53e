//! Acceptance and property tests of the logic core as a whole.

use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;

const ABC: [&str; 3] = ["A", "B", "C"];

/// Parses a sum in the J.R. 01 manual's notation over `names` (most significant first).
fn parse(names: &[&str], text: &str) -> Sop {
    let inputs = names.len();
    let cubes = text
        .split(" + ")
        .map(|product| {
            let mut cube = Cube::ONE;
            for literal in product.split('·') {
                let name = literal.trim_end_matches('\'');
                let index = names
                    .iter()
                    .position(|n| *n == name)
                    .unwrap_or_else(|| panic!("unknown variable {name}"));
                let bit = 1 << (inputs - 1 - index);
                cube.mask |= bit;
                if !literal.ends_with('\'') {
                    cube.bits |= bit;
                }
            }
            cube
        })
        .collect();
    Sop::new(inputs, cubes)
}

/// The J.R. 01 table: inputs A (bit 2), B, C; outputs X (bit 2), Y, Z.
fn jr01() -> TruthTable {
    let rows = [0b001, 0b011, 0b011, 0b100, 0b110, 0b110, 0b111, 0b100];
    TruthTable::new(3, 3, rows.into_iter().map(Some).collect()).expect("valid table")
}

#[test]
fn jr01_matches_the_seed() {
    let table = jr01();
    let [z, y, x]: [Sop; 3] = table.minimise().try_into().expect("three outputs");

    assert_eq!(x.render(&ABC), "A + B·C");
    assert_eq!(x, parse(&ABC, "A + B·C"));

    // Y has two minimum covers; the J.R. 01 manual's must be among them.
    let seed_y = parse(&ABC, "B·C' + A·C' + B'·C");
    assert_eq!((y.literals(), y.products()), (6, 3));
    let (on, dc) = table.output_bit(1);
    let covers = minimal_covers(3, &on, &dc, 10);
    assert_eq!(covers.len(), 2);
    assert!(covers.contains(&seed_y), "{covers:?}");
    assert_eq!(covers[0], y);
    let rendered: Vec<String> = covers.iter().map(|c| c.render(&ABC)).collect();
    assert_eq!(rendered, ["A·B' + B·C' + B'·C", "A·C' + B·C' + B'·C"]);

    assert_eq!(z, parse(&ABC, "A'·B' + B·C'"));
    assert_eq!(z.render(&ABC), "A'·B' + B·C'");

    let total: usize = [&x, &y, &z].iter().map(|s| s.literals()).sum();
    let products: usize = [&x, &y, &z].iter().map(|s| s.products()).sum();
    assert_eq!((total, products), (13, 7));

    // The J.R. 01 manual's covers implement the table.
    let seed = [parse(&ABC, "A'·B' + B·C'"), seed_y, parse(&ABC, "A + B·C")];
    assert!(table.is_implemented_by(|code| {
        (0..3).fold(0, |word, k| word | u32::from(seed[k].eval(code)) << k)
    }));
    assert_eq!(x.to_verilog(&["a", "b", "c"]), "(a) | (b & c)");
    assert_eq!(z.to_verilog(&["a", "b", "c"]), "(~a & ~b) | (b & ~c)");
}

#[test]
fn constant_functions() {
    for inputs in 0..=4 {
        let all: Vec<u32> = (0..1 << inputs).collect();
        let zero = minimise(inputs, &[], &[]);
        assert_eq!(zero, Sop::zero(inputs));
        assert_eq!(zero.render(&[]), "0");
        assert_eq!((zero.literals(), zero.products()), (0, 0));

        let one = minimise(inputs, &all, &[]);
        assert_eq!(one, Sop::one(inputs));
        assert_eq!(one.render(&[]), "1");
        assert_eq!((one.literals(), one.products()), (0, 1));
        assert_eq!(prime_implicants(inputs, &all, &[]), vec![Cube::ONE]);

        // All don't-care: the constant 0 is cheaper than the constant 1.
        assert_eq!(minimise(inputs, &[], &all), Sop::zero(inputs));
        assert!(prime_implicants(inputs, &[], &all).is_empty());
        // One on code, the rest don't care: the constant 1.
        assert_eq!(minimise(inputs, &[0], &all), Sop::one(inputs));
        assert_eq!(
            minimal_covers(inputs, &[0], &all, 5),
            vec![Sop::one(inputs)]
        );
    }
}

#[test]
fn single_minterm() {
    let names = ["A", "B", "C", "D"];
    let sop = minimise(4, &[5], &[]);
    assert_eq!(sop.render(&names), "A'·B·C'·D");
    assert_eq!(sop.to_verilog(&["a", "b", "c", "d"]), "~a & b & ~c & d");
    assert_eq!(minimal_covers(4, &[5], &[], 10).len(), 1);
    // A don't-care neighbour lets it drop a literal.
    assert_eq!(minimise(4, &[5], &[13]).render(&names), "B·C'·D");
}

#[test]
fn parity_cannot_merge() {
    for inputs in 1..=6 {
        let odd: Vec<u32> = (0..1u32 << inputs)
            .filter(|c| c.count_ones() % 2 == 1)
            .collect();
        let primes = prime_implicants(inputs, &odd, &[]);
        assert_eq!(primes.len(), odd.len());
        let covers = minimal_covers(inputs, &odd, &[], 10);
        assert_eq!(covers.len(), 1);
        let sop = &covers[0];
        assert_eq!(sop.products(), 1 << (inputs - 1));
        assert_eq!(sop.literals(), inputs << (inputs - 1));
        for code in 0..1u32 << inputs {
            assert_eq!(sop.eval(code), code.count_ones() % 2 == 1);
        }
    }
    assert_eq!(minimise(2, &[1, 2], &[]).render(&["A", "B"]), "A·B' + A'·B");
}

#[test]
fn overlapping_and_repeated_codes() {
    // A code both on and don't-care counts as on; repeats are harmless.
    assert_eq!(minimise(2, &[3, 3], &[3, 0]), minimise(2, &[3], &[0]));
    assert_eq!(minimise(2, &[3], &[3]), parse(&["A", "B"], "A·B"));
}

#[test]
fn bad_arguments_are_errors() {
    assert_eq!(
        try_minimise(2, &[4], &[]),
        Err(LogicError::CodeOutOfRange { code: 4, inputs: 2 })
    );
    assert_eq!(
        try_minimal_covers(2, &[], &[7], 3),
        Err(LogicError::CodeOutOfRange { code: 7, inputs: 2 })
    );
    assert_eq!(
        try_prime_implicants(13, &[], &[]),
        Err(LogicError::TooManyInputs {
            inputs: 13,
            max: 12
        })
    );
    let message = try_minimise(2, &[4], &[]).unwrap_err().to_string();
    assert!(message.contains("below 4"), "{message}");
    assert!(minimal_covers(2, &[1], &[], 0).is_empty());
}

#[test]
#[should_panic(expected = "out of range")]
fn panicking_twin_reports_the_error() {
    minimise(3, &[8], &[]);
}

#[test]
fn cyclic_function_lists_every_minimum() {
    // f = Σm(0,1,2,5,6,7) over A,B,C: the classic cyclic core with two covers.
    let on = [0, 1, 2, 5, 6, 7];
    let covers = minimal_covers(3, &on, &[], 10);
    let rendered: Vec<String> = covers.iter().map(|c| c.render(&ABC)).collect();
    assert_eq!(rendered.len(), 2, "{rendered:?}");
    assert!(
        rendered.contains(&"A·C + A'·B' + B·C'".to_owned()),
        "{rendered:?}"
    );
    assert!(
        rendered.contains(&"A·B + A'·C' + B'·C".to_owned()),
        "{rendered:?}"
    );
    assert_eq!(minimal_covers(3, &on, &[], 1), covers[..1].to_vec());
}

#[test]
fn textbook_function_with_dont_cares() {
    // f(A,B,C,D) = Σm(4,8,10,11,12,15) + d(9,14), A = bit 3.
    let names = ["A", "B", "C", "D"];
    let on = [4, 8, 10, 11, 12, 15];
    let dc = [9, 14];
    let rendered: Vec<String> = minimal_covers(4, &on, &dc, 10)
        .iter()
        .map(|sop| sop.render(&names))
        .collect();
    assert_eq!(rendered, ["A·B' + A·C + B·C'·D'", "A·C + A·D' + B·C'·D'"]);
    assert_eq!(minimise(4, &on, &dc).render(&names), rendered[0]);
}

#[test]
fn symmetric_functions_close_quickly() {
    // Symmetric functions have large cyclic cores in which every prime has
    // the same size; the least costs were checked with an independent
    // integer-programming solver.
    let cases: [(&[u32], usize, usize); 3] = [
        (&[3, 4, 5], 336, 56),
        (&[2, 3, 4, 5, 6], 112, 28),
        (&[2, 3, 4, 5], 280, 56),
    ];
    for (weights, literals, products) in cases {
        let on: Vec<u32> = (0..256u32)
            .filter(|code| weights.contains(&code.count_ones()))
            .collect();
        let start = Instant::now();
        let sop = minimise(8, &on, &[]);
        eprintln!(
            "S{weights:?}(8): {} literals in {:?}",
            sop.literals(),
            start.elapsed()
        );
        check_cover(8, &on, &[], &sop);
        assert_eq!(
            (sop.literals(), sop.products()),
            (literals, products),
            "S{weights:?}"
        );
    }
}

#[test]
fn truth_table_from_fn_and_minimise() {
    // A 2-bit adder's sum and carry: out = a + b, a = bits 3..2, b = bits 1..0.
    let table = TruthTable::from_fn(4, 3, |code| Some((code >> 2) + (code & 3))).expect("table");
    let sops = table.minimise();
    assert_eq!(sops.len(), 3);
    assert!(table.is_implemented_by(|code| {
        (0..3).fold(0, |word, k| word | u32::from(sops[k].eval(code)) << k)
    }));
    // The low sum bit is an XOR: two products of two literals.
    assert_eq!(sops[0].render(&["a1", "a0", "b1", "b0"]), "a0·b0' + a0'·b0");
}

/// A tiny deterministic generator for the speed checks.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A random function as (on, dc) with the given percentages.
fn random_function(
    rng: &mut SplitMix,
    inputs: usize,
    dc_percent: u64,
    on_percent: u64,
) -> (Vec<u32>, Vec<u32>) {
    let mut on = Vec::new();
    let mut dc = Vec::new();
    for code in 0..1u32 << inputs {
        let roll = rng.next() % 100;
        if roll < dc_percent {
            dc.push(code);
        } else if roll < dc_percent + on_percent {
            on.push(code);
        }
    }
    (on, dc)
}

/// A speed sanity check, not a timing assertion: random 8-input functions
/// with about 20% don't-cares are minimised and checked, and the times are
/// printed (`cargo test --release -- --nocapture eight_inputs`).
#[test]
fn eight_inputs_minimise_quickly() {
    let mut rng = SplitMix(0x5eed);
    let mut slowest = Duration::ZERO;
    let mut total = Duration::ZERO;
    let runs = 12;
    for run in 0..runs {
        let on_percent = [20, 40, 60][run % 3];
        let (on, dc) = random_function(&mut rng, 8, 20, on_percent);
        let start = Instant::now();
        let sop = minimise(8, &on, &dc);
        let elapsed = start.elapsed();
        slowest = slowest.max(elapsed);
        total += elapsed;
        check_cover(8, &on, &dc, &sop);
        let start = Instant::now();
        let covers = minimal_covers(8, &on, &dc, 16);
        let listing = start.elapsed();
        assert_eq!(covers[0], sop);
        for cover in &covers {
            assert_eq!(
                (cover.literals(), cover.products()),
                (sop.literals(), sop.products())
            );
        }
        eprintln!(
            "8-input random function #{run} ({} on, {} dc): {} products, {} literals, \
             minimised in {elapsed:?}; {} minimum covers (limit 16) listed in {listing:?}",
            on.len(),
            dc.len(),
            sop.products(),
            sop.literals(),
            covers.len()
        );
    }
    eprintln!(
        "8-input minimise: slowest {slowest:?}, mean {:?}",
        total / runs as u32
    );
}

/// Checks that `sop` agrees with (on, dc) on every cared-for code and that
/// each of its cubes is a prime implicant.
fn check_cover(inputs: usize, on: &[u32], dc: &[u32], sop: &Sop) {
    let allowed = |code: u32| on.contains(&code) || dc.contains(&code);
    for code in 0..1u32 << inputs {
        if on.contains(&code) {
            assert!(sop.eval(code), "misses on code {code}: {sop:?}");
        } else if !dc.contains(&code) {
            assert!(!sop.eval(code), "covers off code {code}: {sop:?}");
        }
    }
    for cube in sop.cubes() {
        assert!(
            cube.minterms(inputs).all(allowed),
            "{cube:?} is no implicant"
        );
        for var in 0..inputs {
            if cube.literal(var).is_some() {
                let bigger = cube.without(var);
                assert!(
                    !bigger.minterms(inputs).all(allowed),
                    "{cube:?} is not prime: it can drop variable {var}"
                );
            }
        }
    }
}

/// Every cube of `inputs` variables, brute force.
fn all_cubes(inputs: usize) -> Vec<Cube> {
    let full = (1u32 << inputs) - 1;
    let mut cubes = Vec::new();
    for mask in 0..=full {
        // Every subset of the mask as the value bits.
        let mut bits = 0u32;
        loop {
            cubes.push(Cube::new(mask, bits));
            if bits == mask {
                break;
            }
            bits = (bits | !mask).wrapping_add(1) & mask;
        }
    }
    cubes
}

/// The implicants (cubes inside on ∪ dc that touch the on-set), brute force.
fn implicants(inputs: usize, on: &[u32], dc: &[u32]) -> Vec<Cube> {
    all_cubes(inputs)
        .into_iter()
        .filter(|cube| {
            cube.minterms(inputs)
                .all(|c| on.contains(&c) || dc.contains(&c))
                && cube.minterms(inputs).any(|c| on.contains(&c))
        })
        .collect()
}

/// The prime implicants, brute force: implicants no other implicant covers.
fn brute_primes(inputs: usize, on: &[u32], dc: &[u32]) -> Vec<Cube> {
    let all = implicants(inputs, on, dc);
    let mut primes: Vec<Cube> = all
        .iter()
        .filter(|cube| !all.iter().any(|other| other != *cube && other.covers(cube)))
        .copied()
        .collect();
    primes.sort_by(Cube::canonical_cmp);
    primes
}

/// The least (literals, products) of any cover by any implicants, by dynamic
/// programming over the sets of on codes still to cover.
fn brute_least_cost(inputs: usize, on: &[u32], dc: &[u32]) -> (usize, usize) {
    let cubes: Vec<(u32, (usize, usize))> = implicants(inputs, on, dc)
        .into_iter()
        .map(|cube| {
            let covers = (0..on.len())
                .filter(|&i| cube.contains(on[i]))
                .fold(0u32, |set, i| set | 1 << i);
            (covers, (cube.literals(), 1))
        })
        .collect();
    let mut memo = vec![None; 1 << on.len()];
    fn solve(
        left: u32,
        cubes: &[(u32, (usize, usize))],
        memo: &mut [Option<(usize, usize)>],
    ) -> (usize, usize) {
        if left == 0 {
            return (0, 0);
        }
        if let Some(cost) = memo[left as usize] {
            return cost;
        }
        let lowest = left & left.wrapping_neg();
        let best = cubes
            .iter()
            .filter(|(covers, _)| covers & lowest != 0)
            .map(|&(covers, (lits, prods))| {
                let (l, p) = solve(left & !covers, cubes, memo);
                (l + lits, p + prods)
            })
            .min()
            .expect("every on code has an implicant");
        memo[left as usize] = Some(best);
        best
    }
    solve((1u32 << on.len()) - 1, &cubes, &mut memo)
}

/// Every minimum cover as sorted cube lists, by trying all subsets of primes.
fn brute_minimal_covers(inputs: usize, on: &[u32], primes: &[Cube]) -> Vec<Vec<Cube>> {
    let mut best = (usize::MAX, usize::MAX);
    let mut covers = Vec::new();
    for set in 0u32..1 << primes.len() {
        let chosen: Vec<Cube> = (0..primes.len())
            .filter(|&i| set >> i & 1 == 1)
            .map(|i| primes[i])
            .collect();
        if !on
            .iter()
            .all(|&c| chosen.iter().any(|cube| cube.contains(c)))
        {
            continue;
        }
        let sop = Sop::new(inputs, chosen);
        let cost = (sop.literals(), sop.products());
        if cost < best {
            best = cost;
            covers.clear();
        }
        if cost == best {
            covers.push(sop.cubes().to_vec());
        }
    }
    covers.sort();
    covers
}

/// A random incompletely specified function of 1..=`max_inputs` inputs as
/// (inputs, on, dc).
fn function(max_inputs: usize) -> impl Strategy<Value = (usize, Vec<u32>, Vec<u32>)> {
    (1..=max_inputs)
        .prop_flat_map(|inputs| (Just(inputs), prop::collection::vec(0u8..3, 1 << inputs)))
        .prop_map(|(inputs, values)| {
            let mut on = Vec::new();
            let mut dc = Vec::new();
            for (code, value) in (0u32..).zip(values) {
                match value {
                    1 => on.push(code),
                    2 => dc.push(code),
                    _ => {}
                }
            }
            (inputs, on, dc)
        })
}

/// Cases the property tests once shrank to, while the bound rounding was
/// wrongly applied to reduced-cost fixing (it lost tied minimum covers).
#[test]
fn regressions_from_property_tests() {
    let cases: [(&[u32], &[u32]); 2] = [
        (&[1, 2, 3, 4, 5, 7, 8, 10, 12], &[6]),
        (&[0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 15], &[4, 8, 14]),
    ];
    for (on, dc) in cases {
        let primes = brute_primes(4, on, dc);
        let expected = brute_minimal_covers(4, on, &primes);
        let mut found: Vec<Vec<Cube>> = minimal_covers(4, on, dc, usize::MAX)
            .into_iter()
            .map(|sop| sop.cubes().to_vec())
            .collect();
        found.sort();
        assert_eq!(found, expected, "on {on:?}, dc {dc:?}");
    }
}

proptest! {
    #[test]
    fn cover_is_correct_and_prime((inputs, on, dc) in function(6)) {
        let covers = minimal_covers(inputs, &on, &dc, 8);
        prop_assert!(!covers.is_empty());
        let first = &covers[0];
        prop_assert_eq!(first, &minimise(inputs, &on, &dc));
        let cost = (first.literals(), first.products());
        for (i, sop) in covers.iter().enumerate() {
            check_cover(inputs, &on, &dc, sop);
            prop_assert_eq!((sop.literals(), sop.products()), cost);
            prop_assert!(!covers[..i].contains(sop), "duplicate cover");
        }
        prop_assert_eq!(minimal_covers(inputs, &on, &dc, 3), covers[..covers.len().min(3)].to_vec());
    }

    /// Within the prime limit the bounded minimiser is the exact one; beyond it the greedy
    /// cover is still a correct cover by primes (against the brute-force truth), and
    /// irredundant: no product can be dropped.
    #[test]
    fn bounded_cover_is_exact_within_the_limit_and_correct_beyond(
        (inputs, on, dc) in function(6)
    ) {
        let primes = prime_implicants(inputs, &on, &dc).len();
        prop_assert_eq!(
            minimise_bounded(inputs, &on, &dc, primes),
            (minimise(inputs, &on, &dc), true)
        );
        if primes > 0 {
            let (greedy, exact) = minimise_bounded(inputs, &on, &dc, primes - 1);
            prop_assert!(!exact);
            check_cover(inputs, &on, &dc, &greedy);
            for i in 0..greedy.products() {
                let mut fewer = greedy.cubes().to_vec();
                fewer.remove(i);
                let fewer = Sop::new(inputs, fewer);
                prop_assert!(on.iter().any(|&m| !fewer.eval(m)), "product {} is redundant", i);
            }
        }
    }

    #[test]
    fn primes_match_brute_force((inputs, on, dc) in function(6)) {
        prop_assert_eq!(prime_implicants(inputs, &on, &dc), brute_primes(inputs, &on, &dc));
    }

    #[test]
    fn no_cheaper_cover_exists((inputs, on, dc) in function(4)) {
        let sop = minimise(inputs, &on, &dc);
        prop_assert_eq!((sop.literals(), sop.products()), brute_least_cost(inputs, &on, &dc));
    }

    #[test]
    fn every_minimum_cover_is_listed((inputs, on, dc) in function(4)) {
        let primes = brute_primes(inputs, &on, &dc);
        prop_assume!(primes.len() <= 16);
        let expected = brute_minimal_covers(inputs, &on, &primes);
        let mut found: Vec<Vec<Cube>> = minimal_covers(inputs, &on, &dc, usize::MAX)
            .into_iter()
            .map(|sop| sop.cubes().to_vec())
            .collect();
        found.sort();
        prop_assert_eq!(found, expected);
    }

    #[test]
    fn truth_table_outputs_are_implemented(
        (inputs, rows) in (1usize..=5).prop_flat_map(|inputs| {
            (Just(inputs), prop::collection::vec(prop::option::weighted(0.8, 0u32..8), 1 << inputs))
        })
    ) {
        let table = TruthTable::new(inputs, 3, rows).expect("valid table");
        let sops = table.minimise();
        prop_assert_eq!(sops.len(), 3);
        let implemented = table.is_implemented_by(|code| {
            (0..3).fold(0, |word, k| word | u32::from(sops[k].eval(code)) << k)
        });
        prop_assert!(implemented);
    }
}
