//! Solver benchmarks (criterion). See benches/RESULTS.md for the figures and how they were made.
//!
//! `cargo bench --bench solve` runs every group; `cargo bench --bench solve -- sticks` one group.
//!
//! Two extra modes, chosen with the environment variable `RETROGATE_BENCH`, run outside
//! criterion so that an outside tool can measure them:
//! - `RETROGATE_BENCH=checksums`: prints, for every game the Python baselines in
//!   benches/python/ solve, the same checksum they print (FNV-1a 64 over a text rendering of
//!   the answers), so the two can be compared line by line;
//! - `RETROGATE_BENCH=once:GAME`, GAME one of `sticks` (10^8, take 1,3,4), `sticks1e7`,
//!   `sticks:COUNT:TAKE` (e.g. `sticks:100000:1,2,3`), `heaps`, `heaps-lower-bound` (the
//!   specialised x+1 / x*2 solver of the same game), `cyclic` (the queue-path game), `kege`
//!   (the KEGE write-up's analysis) or `kege1` (the single start (3,10)), solves that game once and
//!   prints its wall time; run it under `/usr/bin/time -v` for the maximum RSS, or under
//!   valgrind for a profile.

use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode};
use retrogate::game::expr::MoveExpr;
use retrogate::game::{ApplyTo, End, Game, HeapsGame, Last, SticksGame};
use retrogate::solver::{kege, solve, KegeReport, Outcome, SticksPeriod};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The 10^8 stick game of the target: take 1, 3 or 4, whoever takes the last stick loses.
const BIG_STICKS: u64 = 100_000_000;
/// The heap game's threshold: two heaps, x+1 or x*2, the game ends at a total of 3000.
const HEAPS_END: u64 = 3000;

fn sticks(count: u64, take: &[u64]) -> SticksGame {
    SticksGame::new(count, take, Last::Loses).expect("valid stick game")
}

fn heaps_game(end: u64) -> HeapsGame {
    HeapsGame::new(
        vec![vec![1, 1]],
        vec![
            MoveExpr::parse("x+1").unwrap(),
            MoveExpr::parse("x*2").unwrap(),
        ],
        End::SumAtLeast(end),
        Last::Wins,
        ApplyTo::Any,
    )
    .expect("valid heap game")
}

/// The cyclic benchmark game (queue path): two heaps from (1,1), x+1, x-2 or x*2, ending at a
/// total of [`CYCLIC_END`]; x-2 undoes x+1, so positions can repeat and some are draws.
const CYCLIC_END: u64 = 1000;

fn cyclic_heaps_game() -> HeapsGame {
    HeapsGame::new(
        vec![vec![1, 1]],
        ["x+1", "x-2", "x*2"]
            .iter()
            .map(|m| MoveExpr::parse(m).unwrap())
            .collect(),
        End::SumAtLeast(CYCLIC_END),
        Last::Wins,
        ApplyTo::Any,
    )
    .expect("valid heap game")
}

/// The honest lower bound for the heap game: a solver for exactly x+1 / x*2 on two heaps,
/// ending at a total of `end`, last move wins, with nothing general about it (moves hard-coded,
/// a dense `u16` depth a position `(a, b)`, no outcome stored: the depth is odd for a win, as
/// a position where the game is over has depth 0 and is lost for the player to move there).
/// Returns the depths, `a * end + b` for `1 <= a, b` and `a + b < end`.
fn lower_bound_heaps(end: usize) -> Vec<u16> {
    let mut depth = vec![0u16; end * end];
    for a in (1..end).rev() {
        for b in (1..end - a).rev() {
            let at = |x: usize, y: usize| {
                if x + y >= end {
                    0
                } else {
                    depth[x * end + y]
                }
            };
            let succ = [at(a + 1, b), at(2 * a, b), at(a, b + 1), at(a, 2 * b)];
            // Shallowest successor lost for its mover (even depth), else the deepest one.
            let lost = succ.iter().filter(|&&d| d % 2 == 0).min();
            depth[a * end + b] = match lost {
                Some(&d) => d + 1,
                None => succ.iter().max().unwrap() + 1,
            };
        }
    }
    depth
}

/// Checks that the lower-bound solver and retrogate agree on every position of the triangle.
fn check_lower_bound(end: u64) {
    let game = heaps_game(end);
    let sol = solve(&game);
    let lb = lower_bound_heaps(end as usize);
    for a in 1..end {
        for b in 1..end - a {
            let Some(i) = game.index(&[a, b]) else {
                continue;
            };
            let v = sol.value(i);
            let d = lb[(a * end + b) as usize];
            assert_eq!(
                (v.depth, v.outcome == Outcome::Win),
                (Some(d as u64), d % 2 == 1),
                "lower bound and retrogate disagree at ({a}, {b})"
            );
        }
    }
}

fn kege_seed() -> KegeReport {
    kege::analyse(
        &"3,S".parse().unwrap(),
        1..=57,
        vec![
            MoveExpr::parse("x+1").unwrap(),
            MoveExpr::parse("x*4").unwrap(),
        ],
        End::SumAtLeast(61),
        Last::Wins,
        ApplyTo::Any,
    )
    .expect("valid KEGE game")
}

fn bench_sticks(c: &mut Criterion) {
    let mut g = c.benchmark_group("sticks");
    // The sizes the Python list-based induction can still run, for a like-for-like speed-up.
    g.sample_size(20);
    for take in [&[1u64, 2, 3][..], &[1, 3, 4]] {
        for count in [10_000u64, 100_000] {
            let game = sticks(count, take);
            let name = take
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join("-");
            let id = BenchmarkId::new(format!("take-{name}"), count);
            g.bench_with_input(id, &game, |b, game| b.iter(|| solve(black_box(game))));
        }
    }
    // The target: 10^8 positions. One solve per sample; ten samples.
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(30));
    for count in [10_000_000u64, BIG_STICKS] {
        let game = sticks(count, &[1, 3, 4]);
        let id = BenchmarkId::new("take-1-3-4", count);
        g.bench_with_input(id, &game, |b, game| b.iter(|| solve(black_box(game))));
    }
    g.finish();
}

fn bench_heaps(c: &mut Criterion) {
    let game = heaps_game(HEAPS_END);
    let sol = solve(&game);
    eprintln!(
        "heaps x+1,x*2 sum>={HEAPS_END} from (1,1): Game::len = {}, reachable = {}, start = {}",
        game.len(),
        sol.reachable().len(),
        sol.value(game.starts()[0])
    );
    drop(sol);
    for end in [1000, HEAPS_END] {
        check_lower_bound(end);
    }
    let cyclic = cyclic_heaps_game();
    let sol = solve(&cyclic);
    eprintln!(
        "cyclic heaps x+1,x-2,x*2 sum>={CYCLIC_END} from (1,1): Game::len = {}, direction = {:?}, (win, loss, draw) = {:?}, start = {}",
        cyclic.len(),
        cyclic.direction(),
        sol.counts(),
        sol.value(cyclic.starts()[0])
    );
    drop(sol);
    let mut g = c.benchmark_group("heaps");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    let sum1000 = heaps_game(1000);
    g.bench_function("sum1000-from-1-1/build-solve", |b| {
        b.iter(|| {
            let game = heaps_game(black_box(1000));
            solve(&game).value(0)
        })
    });
    g.bench_function("sum1000-from-1-1/solve", |b| {
        b.iter(|| solve(black_box(&sum1000)))
    });
    g.bench_function("sum1000-lower-bound", |b| {
        b.iter(|| lower_bound_heaps(black_box(1000)))
    });
    g.bench_function("sum3000-lower-bound", |b| {
        b.iter(|| lower_bound_heaps(black_box(HEAPS_END as usize)))
    });
    g.bench_function("cyclic-sum1000-from-1-1/solve", |b| {
        b.iter(|| solve(black_box(&cyclic)))
    });
    g.bench_function("sum3000-from-1-1/solve", |b| {
        b.iter(|| solve(black_box(&game)))
    });
    g.bench_function("sum3000-from-1-1/build-solve", |b| {
        b.iter(|| {
            let game = heaps_game(black_box(HEAPS_END));
            solve(&game).value(0)
        })
    });
    g.finish();
}

fn bench_kege(c: &mut Criterion) {
    let seed = HeapsGame::new(
        (1..=57).map(|s| vec![3, s]).collect(),
        vec![
            MoveExpr::parse("x+1").unwrap(),
            MoveExpr::parse("x*4").unwrap(),
        ],
        End::SumAtLeast(61),
        Last::Wins,
        ApplyTo::Any,
    )
    .unwrap();
    let single = HeapsGame::kege_seed(&[3, 10]).unwrap();
    for (name, game) in [("(3,S) S=1..57", &seed), ("(3,10)", &single)] {
        eprintln!(
            "kege seed-002 {name}: Game::len = {}, reachable = {}",
            game.len(),
            solve(game).reachable().len()
        );
    }
    let mut g = c.benchmark_group("kege");
    g.bench_function("seed002/analyse-3-S-1..57", |b| b.iter(kege_seed));
    g.bench_function("seed002/build-solve-3-10", |b| {
        b.iter(|| {
            let game = HeapsGame::kege_seed(black_box(&[3, 10])).unwrap();
            solve(&game).value(game.starts()[0])
        })
    });
    g.finish();
}

fn bench_period(c: &mut Criterion) {
    let mut g = c.benchmark_group("period");
    let fort_boyard = SticksGame::fort_boyard();
    let take257 = SticksGame::new(18, &[2, 5, 7], Last::Loses).unwrap();
    g.bench_function("fort-boyard", |b| {
        b.iter(|| SticksPeriod::find(black_box(&fort_boyard)))
    });
    g.bench_function("take-2-5-7", |b| {
        b.iter(|| SticksPeriod::find(black_box(&take257)))
    });
    g.finish();
}

criterion_group!(benches, bench_sticks, bench_heaps, bench_kege, bench_period);

// ---------------------------------------------------------------------------------------------
// Checksums shared with benches/python/ and the run-once mode.

/// FNV-1a 64 over bytes, the checksum the Python baselines print too.
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// Writes the numbers as decimal text joined by commas.
    fn joined<I: IntoIterator<Item = u64>>(items: I) -> (u64, usize) {
        let mut h = Fnv::new();
        let mut n = 0;
        for (k, x) in items.into_iter().enumerate() {
            if k > 0 {
                h.write(b",");
            }
            h.write(x.to_string().as_bytes());
            n += 1;
        }
        (h.0, n)
    }
}

/// Losing positions in 1..=count, as the list-based induction builds them.
fn sticks_checksum(count: u64, take: &[u64]) {
    let game = sticks(count, take);
    let sol = solve(&game);
    let losing: Vec<u64> = (1..=count)
        .filter(|&n| sol.value(n as usize).outcome == Outcome::Loss)
        .collect();
    let (h, n) = Fnv::joined(losing.iter().copied());
    println!(
        "sticks count={count} take={take:?}: losing={n} sum={} fnv={h:016x}",
        losing.iter().sum::<u64>()
    );
}

/// Depths of every heap position (a, b) with a, b >= 1 and a + b < end, a then b ascending.
fn heaps_checksum(end: u64, moves: [&str; 2], start: [u64; 2]) {
    let game = HeapsGame::new(
        vec![start.to_vec()],
        moves.iter().map(|m| MoveExpr::parse(m).unwrap()).collect(),
        End::SumAtLeast(end),
        Last::Wins,
        ApplyTo::Any,
    )
    .unwrap();
    let sol = solve(&game);
    let mut depths = Vec::new();
    let mut wins = 0u64;
    for a in 1..end {
        for b in 1..end - a {
            // Sizes that the moves never reach from the start are not stored.
            let Some(i) = game.index(&[a, b]) else {
                continue;
            };
            let v = sol.value(i);
            wins += (v.outcome == Outcome::Win) as u64;
            depths.push(v.depth.expect("no draws in a growing game"));
        }
    }
    let (h, n) = Fnv::joined(depths.iter().copied());
    println!(
        "heaps {moves:?} sum>={end} start={start:?}: start depth={} positions={n} wins={wins} depth-sum={} fnv={h:016x}",
        sol.value(game.index(&start).unwrap()).depth.unwrap(),
        depths.iter().sum::<u64>()
    );
}

fn kege_checksum() {
    let r = kege_seed();
    let depths: Vec<u64> = r.rows.iter().map(|row| row.depth.unwrap()).collect();
    let (h, _) = Fnv::joined(depths.iter().copied());
    println!("kege seed-002 (3,S) S=1..57 depths: {depths:?} fnv={h:016x}");
    let a = &r.answers;
    println!(
        "kege answers: 19 (min S, Vanya wins after a bad move) = {:?}; 20 = {:?}; 21 (min S) = {:?}",
        a.vanya_wins_after_bad_move.first(),
        a.petya_wins_in_2,
        a.vanya_wins_in_2.first()
    );
    let game = HeapsGame::kege_seed(&[3, 10]).unwrap();
    println!(
        "kege single start (3,10): {}",
        solve(&game).value(game.starts()[0])
    );
}

fn checksums() {
    for count in [18u64, 10_000, 30_000, 100_000] {
        sticks_checksum(count, &[1, 2, 3]);
        sticks_checksum(count, &[1, 3, 4]);
    }
    kege_checksum();
    heaps_checksum(61, ["x+1", "x*4"], [1, 1]);
    heaps_checksum(300, ["x+1", "x*2"], [1, 1]);
    heaps_checksum(HEAPS_END, ["x+1", "x*2"], [1, 1]);
}

fn once_sticks(count: u64, take: &[u64]) -> String {
    let game = sticks(count, take);
    let sol = solve(&game);
    format!(
        "{count} sticks take {take:?}: {}",
        sol.value(count as usize)
    )
}

fn once(what: &str) {
    let t = Instant::now();
    let answer = match what {
        "sticks" | "sticks1e7" => {
            let count = if what == "sticks" {
                BIG_STICKS
            } else {
                BIG_STICKS / 10
            };
            once_sticks(count, &[1, 3, 4])
        }
        w if w.starts_with("sticks:") => {
            // sticks:COUNT:TAKE, e.g. sticks:100000:1,2,3
            let mut parts = w.splitn(3, ':').skip(1);
            let count: u64 = parts.next().unwrap().parse().expect("COUNT");
            let take: Vec<u64> = parts
                .next()
                .expect("TAKE")
                .split(',')
                .map(|k| k.parse().expect("TAKE"))
                .collect();
            once_sticks(count, &take)
        }
        "heaps-lower-bound" => {
            let d = lower_bound_heaps(HEAPS_END as usize);
            format!(
                "heaps lower bound sum>={HEAPS_END} (1,1): depth {}",
                d[HEAPS_END as usize + 1]
            )
        }
        "heaps" => {
            let game = heaps_game(HEAPS_END);
            let sol = solve(&game);
            format!(
                "heaps sum>={HEAPS_END} (1,1): {}",
                sol.value(game.starts()[0])
            )
        }
        "cyclic" => {
            let game = cyclic_heaps_game();
            let sol = solve(&game);
            format!(
                "cyclic heaps sum>={CYCLIC_END} (1,1): {}",
                sol.value(game.starts()[0])
            )
        }
        "kege1" => {
            let game = HeapsGame::kege_seed(&[3, 10]).unwrap();
            format!("kege (3,10): {}", solve(&game).value(game.starts()[0]))
        }
        "kege" => {
            let r = kege_seed();
            format!("kege seed-002: 20 = {:?}", r.answers.petya_wins_in_2)
        }
        other => {
            panic!("RETROGATE_BENCH=once:{other}: expected sticks, sticks1e7, sticks:COUNT:TAKE, heaps, heaps-lower-bound, cyclic, kege or kege1")
        }
    };
    println!("{answer} ({:.3} s)", t.elapsed().as_secs_f64());
}

fn main() {
    match std::env::var("RETROGATE_BENCH").ok().as_deref() {
        Some("checksums") => checksums(),
        Some(mode) if mode.starts_with("once:") => once(&mode["once:".len()..]),
        Some(other) => panic!("RETROGATE_BENCH={other}: expected checksums or once:GAME"),
        None => {
            benches();
            Criterion::default().configure_from_args().final_summary();
        }
    }
}
