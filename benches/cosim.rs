//! Co-simulation throughput (criterion): cycles per second of each engine that runs the
//! `sticks_game` controller. See docs/cosim.md for the figures and how they were made.
//!
//! `cargo bench --bench cosim` runs every group; `cargo bench --bench cosim -- exhaustive` one.
//!
//! * `exhaustive/<engine>`: every game of Fort Boyard (18 sticks, human first and machine
//!   first, think time 2 cycles), the set `verify_sticks` plays, on each engine.
//! * `random-1M/<engine>`: one million cycles of seeded random play on the in-process engines
//!   (the reference model and rust-hdl), long enough to measure the rust-hdl rate by itself.
//!
//! Throughput is reported in elements (cycles) per second. Each sample times the simulation
//! only: for the external simulators the process that reads the stimulus file and writes every
//! output (start-up included), not the Verilog build, which happens once before measuring.
//! Needs yosys, iverilog and verilator on PATH.

use std::time::Duration;

use criterion::{criterion_group, Criterion, SamplingMode, Throughput};
use retrogate::bench::sequential::{every_game, random_play, Engine, PreparedEngine, Stimulus};
use retrogate::circuit::Impl;
use retrogate::game::SticksGame;

const THINK: u32 = 2;

fn exhaustive() -> Stimulus {
    let mut s = Stimulus::default();
    for (i, (name, inputs)) in every_game(&SticksGame::fort_boyard(), THINK)
        .into_iter()
        .enumerate()
    {
        s.push(format!("game {i}, {name}"), inputs);
    }
    s
}

fn bench_engines(c: &mut Criterion, group: &str, stimulus: &Stimulus, engines: &[Engine]) {
    let game = SticksGame::fort_boyard();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(stimulus.len() as u64))
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    for &engine in engines {
        let prepared = PreparedEngine::prepare(engine, &game, Impl::Logic, THINK, dir.path())
            .unwrap_or_else(|e| panic!("preparing {engine}: {e}"));
        g.bench_function(engine.name(), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        prepared
                            .run(&stimulus.inputs)
                            .unwrap_or_else(|e| panic!("{engine}: {e}"))
                            .elapsed
                    })
                    .sum()
            })
        });
    }
    g.finish();
}

fn bench_exhaustive(c: &mut Criterion) {
    let stimulus = exhaustive();
    eprintln!(
        "exhaustive: {} games of Fort Boyard, {} cycles",
        stimulus.segments.len(),
        stimulus.len()
    );
    bench_engines(c, "exhaustive", &stimulus, &Engine::ALL);
}

fn bench_random(c: &mut Criterion) {
    let mut stimulus = Stimulus::default();
    stimulus.push(
        "random play",
        random_play(&SticksGame::fort_boyard(), THINK, 0x5EED, 1_000_000),
    );
    bench_engines(c, "random-1M", &stimulus, &[Engine::Model, Engine::RustHdl]);
}

criterion_group!(benches, bench_exhaustive, bench_random);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
