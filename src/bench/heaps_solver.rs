//! Verification of the on-chip heap solver `heaps_solver` against the software solver.
//!
//! The reference is [`crate::solver::solve`] on a [`HeapsGame`] of the same rules (its moves in
//! the fixed order `x+1, ..., x+A, x*2, ..., x*(M+1)`, end `sum>=T`, the same rule): for every
//! position `(a, b)` with `a, b >= 1` and `a + b < T` its outcome, depth and
//! [`best_move`](crate::solver::Solution::best_move) (heap and the move's index in the fixed
//! list), exactly what `retrogate solve heaps --format json` prints; and the blunder bit,
//! whether some move reaches a position the software solver finds won at depth 1 (the test
//! `retrogate kege` applies for task 19). With no move allowed (no
//! such game exists) every position is lost at depth 0, as a stuck player is.
//!
//! A configuration ([`heaps_case`]) is a list of solves run back to back on one circuit: every
//! subset of the moves (the empty one too), both rules, at the largest target, then seeded random
//! subsets, rules and targets (0 to T); `verify heaps-solver` runs [`verify_cases`]. Levels, each checking every table entry and every solve's
//! cycle count against [`cycle_bound`]:
//! 1. rust-hdl's simulation of the block ([`simulate_heaps_solves`]), compared in Rust;
//! 2. the emitted Verilog under Icarus, 3. under Verilator, 4. the `synth_ice40` netlist with
//!    yosys's `ice40/cells_sim.v` under Icarus: one generated self-checking testbench
//!    ([`heaps_testbench`]) reads the expected words from a vector file ([`heaps_vectors`]) and
//!    ends with `$fatal` on the first mismatch or overlong solve.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::level::Level;
use super::solver::SolverLevelReport;
use crate::bench::sequential::SplitMix64;
use crate::circuit::heaps_solver::{
    cycle_bound, heaps_solver_verilog, heaps_widths, query_order, simulate_heaps_solves,
    HeapsEntry, HeapsRequest, HeapsSolved, HeapsSolverError, HEAPS_SOLVER_MODULE,
};
use crate::flow::{iverilog, runner, verilator, yosys, ToolError};
use crate::game::expr::MoveExpr;
use crate::game::{ApplyTo, End, Game, HeapsGame, Last};
use crate::solver::kege::{analyse, KegeAnswers};
use crate::solver::{solve, Outcome};

/// Module name of the generated testbench.
pub const HEAPS_TB_MODULE: &str = "heaps_solver_tb";
/// File the testbench reads its vectors from.
pub const HEAPS_VECTORS: &str = "heaps_vectors.hex";

/// The software's answers (`retrogate kege`) for `(k, S)`, S in 1..target-k-1, as the
/// three lists the finder gives: task 19, 20, 21.
pub fn kege_answers(rules: &HeapsRequest, k: u32) -> [Vec<u32>; 3] {
    let last = if rules.last_wins {
        Last::Wins
    } else {
        Last::Loses
    };
    // No S, or no move (every position stuck: lost at depth 0, no first move): no answer.
    if k == 0 || k + 1 >= rules.target || rules.move_count() == 0 {
        return Default::default();
    }
    let moves = rules
        .moves(2)
        .iter()
        .map(|(_, m)| MoveExpr::parse(m).expect("a fixed-list move"))
        .collect();
    let range = 1..=u64::from(rules.target - k - 1);
    let report = analyse(
        &format!("{k},S").parse().expect("start"),
        range,
        moves,
        End::SumAtLeast(u64::from(rules.target)),
        last,
        ApplyTo::Any,
    )
    .expect("a game");
    let KegeAnswers {
        vanya_wins_after_bad_move,
        petya_wins_in_2,
        vanya_wins_in_2,
        ..
    } = report.answers;
    let c = |v: Vec<u64>| v.into_iter().map(|s| s as u32).collect();
    [
        c(vanya_wins_after_bad_move),
        c(petya_wins_in_2),
        c(vanya_wins_in_2),
    ]
}

/// Errors that stop a level from reaching a verdict (a mismatch is a failed report).
#[derive(Debug, thiserror::Error)]
pub enum HeapsBenchError {
    /// The solver cannot be built.
    #[error(transparent)]
    Solver(#[from] HeapsSolverError),
    /// An external tool failed to run or to build the design.
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// A file could not be written.
    #[error("could not write {path}: {source}; check that the work directory is writable")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A heap solver's size and the solves to run on it.
#[derive(Clone, Debug)]
pub struct HeapsCase {
    /// Name of the configuration.
    pub name: &'static str,
    /// Largest target T.
    pub max_target: u64,
    /// Largest addition A.
    pub max_add: u64,
    /// Number of multiplications M.
    pub max_mul: u64,
    /// The solves, in order.
    pub requests: Vec<HeapsRequest>,
}

impl HeapsCase {
    /// Positions checked over all solves.
    pub fn positions(&self) -> u64 {
        self.requests
            .iter()
            .map(|r| query_order(r.target).len() as u64)
            .sum()
    }
}

/// The software solver's table for a request, in [`query_order`], move indices for a solver
/// whose largest addition is `max_add`.
pub fn expected_heaps_table(r: &HeapsRequest, max_add: u64) -> Vec<HeapsEntry> {
    let order = query_order(r.target);
    let moves = r.moves(max_add);
    if order.is_empty() || moves.is_empty() {
        // No position, or no move: every position is stuck, lost at depth 0.
        return vec![
            HeapsEntry {
                winning: false,
                depth: 0,
                heap: 0,
                index: 0,
                blunder: false,
            };
            order.len()
        ];
    }
    let exprs = moves
        .iter()
        .map(|(_, m)| MoveExpr::parse(m).expect("a move of the fixed list"))
        .collect();
    let starts = order
        .iter()
        .map(|&(a, b)| vec![u64::from(a), u64::from(b)])
        .collect();
    let last = if r.last_wins { Last::Wins } else { Last::Loses };
    let game = HeapsGame::new(
        starts,
        exprs,
        End::SumAtLeast(u64::from(r.target)),
        last,
        ApplyTo::Any,
    )
    .expect("a valid heap game");
    let solution = solve(&game);
    order
        .iter()
        .map(|&(a, b)| {
            let i = game
                .index(&[u64::from(a), u64::from(b)])
                .expect("a start is in the index space");
            let v = solution.value(i);
            let (heap, index) = solution
                .best_move(i)
                .map_or((0, 0), |(m, _)| (m.heap as u32, moves[m.expr].0));
            // As `retrogate kege` reads task 19: some move reaches a position won at depth 1.
            let mut blunder = false;
            game.for_each_successor(i, |succ| {
                let s = solution.successor_value(succ);
                blunder |= s.outcome == Outcome::Win && s.depth == Some(1);
            });
            HeapsEntry {
                winning: v.outcome == Outcome::Win,
                depth: v.depth.expect("heap games that grow have no draws") as u32,
                heap,
                index,
                blunder,
            }
        })
        .collect()
}

/// Solves for a heap solver of the given sizes: every subset of its moves (the empty one too),
/// both rules, at target `max_target`; then `random` seeded draws of subset, rule and target
/// (0 to `max_target`).
pub fn heaps_case(
    name: &'static str,
    max_target: u64,
    max_add: u64,
    max_mul: u64,
    random: usize,
) -> HeapsCase {
    let mut requests = Vec::new();
    let all = 1u64 << (max_add + max_mul);
    let split = |set: u64| ((set & ((1 << max_add) - 1)) as u32, (set >> max_add) as u32);
    for set in 0..all {
        let (adds, muls) = split(set);
        for last_wins in [true, false] {
            requests.push(HeapsRequest {
                adds,
                muls,
                target: max_target as u32,
                last_wins,
            });
        }
    }
    let mut rng = SplitMix64::new(max_target << 16 | max_add << 8 | max_mul);
    for _ in 0..random {
        let (adds, muls) = split(rng.below(all));
        requests.push(HeapsRequest {
            adds,
            muls,
            target: rng.below(max_target + 1) as u32,
            last_wins: rng.coin(),
        });
    }
    HeapsCase {
        name,
        max_target,
        max_add,
        max_mul,
        requests,
    }
}

/// The solves `emit heaps-solver --sim` writes: every move and `x+1` alone, both rules, and no
/// move, at the largest target, then 8 seeded random ones (a testbench of every subset would be
/// tens of megabytes at T = 127).
pub fn heaps_sim_case(max_target: u64, max_add: u64, max_mul: u64) -> HeapsCase {
    let every = heaps_case("emit", max_target, max_add, max_mul, 8);
    let full = max_add + max_mul;
    let requests = every
        .requests
        .iter()
        .enumerate()
        .filter(|&(i, r)| {
            i >= 2 << full
                || r.move_count() == full
                || r.move_count() == 0
                || (r.adds == 1 && r.muls == 0)
        })
        .map(|(_, r)| *r)
        .collect();
    HeapsCase { requests, ..every }
}

/// The issue's default size, T = 63, A = 2, M = 3: every subset of the moves, both rules, and 16
/// random solves.
pub fn default_heaps_case() -> HeapsCase {
    heaps_case("default", 63, 2, 3, 16)
}

/// The solves of `case` the gate-level level runs (a netlist simulates some thousand cycles a
/// second, too slow for every subset at T = 63 within a tool's time limit): at the largest
/// target every move, `x+1` alone and no move, both rules, then the first two random solves.
pub fn gate_case(case: &HeapsCase) -> HeapsCase {
    let full = case.max_add + case.max_mul;
    let at_target = 2usize << full;
    let requests = case
        .requests
        .iter()
        .enumerate()
        .filter(|&(i, r)| {
            if i >= at_target {
                i < at_target + 2
            } else {
                r.move_count() == full || r.move_count() == 0 || (r.adds == 1 && r.muls == 0)
            }
        })
        .map(|(_, r)| *r)
        .collect();
    HeapsCase {
        requests,
        ..case.clone()
    }
}

/// The configurations `verify heaps-solver` runs: `small` (T = 15, A = 2, M = 3, every subset of
/// the moves, both rules, 32 random solves), then the requested size (`size`): every subset and
/// 16 random solves up to 5 moves, else [`heaps_sim_case`]'s solves.
pub fn verify_cases(max_target: u64, max_add: u64, max_mul: u64) -> Vec<HeapsCase> {
    let mut cases = vec![heaps_case("small", 15, 2, 3, 32)];
    if (max_target, max_add, max_mul) != (15, 2, 3) {
        cases.push(if max_add + max_mul <= 5 {
            heaps_case("size", max_target, max_add, max_mul, 16)
        } else {
            HeapsCase {
                name: "size",
                ..heaps_sim_case(max_target, max_add, max_mul)
            }
        });
    }
    cases
}

/// The vector file: the number of solves, then per solve two header words
/// (`last_wins << 24 | muls << 20 | adds << 16 | target`, then the solve's cycle bound) and
/// one word per position in [`query_order`]
/// (`blunder << 20 | winning << 16 | depth << 8 | heap << 4 | move`),
/// 32-bit hex, one a line.
pub fn heaps_vectors(case: &HeapsCase) -> String {
    let mut text = format!("{:08x}\n", case.requests.len());
    for r in &case.requests {
        text.push_str(&format!(
            "{:08x}\n{:08x}\n",
            u32::from(r.last_wins) << 24 | r.muls << 20 | r.adds << 16 | r.target,
            cycle_bound(u64::from(r.target), r.move_count())
        ));
        for e in expected_heaps_table(r, case.max_add) {
            text.push_str(&format!(
                "{:08x}\n",
                u32::from(e.blunder) << 20
                    | u32::from(e.winning) << 16
                    | e.depth << 8
                    | e.heap << 4
                    | e.index
            ));
        }
    }
    text
}

/// A self-checking testbench for the heap solver of `case`'s size: for each solve it sets the
/// inputs with `start` for one cycle, scrambles them, counts cycles until `done` (busy must stay
/// high, the count must stay within the bound), then queries every position and compares it
/// with the vector; `$fatal` on the first difference. It prints `CYCLES <solve> <cycles>` per
/// solve and `PASS <solves> <positions>` at the end.
pub fn heaps_testbench(case: &HeapsCase) -> String {
    let (w, b) = heaps_widths(case.max_target, case.max_add, case.max_mul);
    let a = case.max_add as usize;
    let m = case.max_mul as usize;
    let words = 1 + 2 * case.requests.len() as u64 + case.positions();
    format!(
        "\
// Generated by retrogate -- self-checking testbench of {HEAPS_SOLVER_MODULE} (T = {t}, A = {a}, M = {m}).
`timescale 1ns/1ps
`default_nettype none
module {HEAPS_TB_MODULE};
    reg clock = 1'b0;
    reg reset = 1'b1;
    reg [{am}:0] adds = {a}'d0;
    reg [{mm}:0] muls = {m}'d0;
    reg [{wm}:0] target = {w}'d0;
    reg last_wins = 1'b0;
    reg start = 1'b0;
    reg [{wm}:0] query_a = {w}'d0;
    reg [{wm}:0] query_b = {w}'d0;
    wire busy;
    wire done;
    wire query_winning;
    wire [{w}:0] query_depth;
    wire query_heap;
    wire [{bm}:0] query_move;
    wire query_blunder;
    {HEAPS_SOLVER_MODULE} dut (
        .clock(clock), .reset(reset), .adds(adds), .muls(muls), .target(target),
        .last_wins(last_wins), .start(start), .busy(busy), .done(done),
        .query_a(query_a), .query_b(query_b), .query_winning(query_winning),
        .query_depth(query_depth), .query_heap(query_heap), .query_move(query_move),
        .query_blunder(query_blunder)
    );
    initial forever #5 clock = ~clock;
    reg [31:0] vec [0:{last_word}];
    reg [31:0] hdr;
    reg [31:0] want;
    integer solves;
    integer c;
    integer ptr;
    integer pa;
    integer pb;
    integer n;
    integer cycles;
    integer bound;
    integer positions;
    // Vector bits the checks do not read (named for Verilator's unused-signal rule).
    wire unused_bits = &{{1'b0, hdr, want}};
    initial begin
        $readmemh(\"{HEAPS_VECTORS}\", vec);
        solves = vec[0];
        ptr = 1;
        positions = 0;
        @(negedge clock);
        reset = 1'b0;
        for (c = 0; c < solves; c = c + 1) begin
            hdr = vec[ptr];
            bound = vec[ptr + 1];
            ptr = ptr + 2;
            n = {{24'd0, hdr[7:0]}};
            adds = hdr[16 +: {a}];
            muls = hdr[20 +: {m}];
            target = hdr[{wm}:0];
            last_wins = hdr[24];
            start = 1'b1;
            @(negedge clock);
            start = 1'b0;
            adds = ~hdr[16 +: {a}];
            muls = ~hdr[20 +: {m}];
            target = ~hdr[{wm}:0];
            last_wins = ~hdr[24];
            cycles = 1;
            while (done !== 1'b1) begin
                if (busy !== 1'b1) begin
                    $display(\"FAIL solve %0d: busy %b before done after %0d cycles\", c, busy, cycles);
                    $fatal(1, \"busy low before done\");
                end
                if (cycles > bound) begin
                    $display(\"FAIL solve %0d: not done after %0d cycles (bound %0d)\", c, cycles, bound);
                    $fatal(1, \"solve too slow\");
                end
                @(negedge clock);
                cycles = cycles + 1;
            end
            if (cycles > bound) begin
                $display(\"FAIL solve %0d: %0d cycles, bound %0d\", c, cycles, bound);
                $fatal(1, \"solve too slow\");
            end
            if (busy !== 1'b0) begin
                $display(\"FAIL solve %0d: busy %b with done\", c, busy);
                $fatal(1, \"busy with done\");
            end
            $display(\"CYCLES %0d %0d\", c, cycles);
            for (pa = 1; pa < n; pa = pa + 1) begin
                for (pb = 1; pa + pb < n; pb = pb + 1) begin
                    query_a = pa[{wm}:0];
                    query_b = pb[{wm}:0];
                    @(negedge clock);
                    want = vec[ptr];
                    ptr = ptr + 1;
                    if (done !== 1'b1 || query_winning !== want[16] || query_depth !== want[8 +: {w1}]
                            || query_heap !== want[4] || query_move !== want[0 +: {b}]
                            || query_blunder !== want[20]) begin
                        $display(\"FAIL solve %0d (adds %b, muls %b, last_wins %0d, target %0d) position (%0d, %0d): got winning %b depth %0d heap %0d move %0d blunder %b done %b, want winning %0d depth %0d heap %0d move %0d blunder %0d\",
                            c, hdr[16 +: {a}], hdr[20 +: {m}], hdr[24], n, pa, pb, query_winning, query_depth,
                            query_heap, query_move, query_blunder, done, want[16], want[15:8], want[4], want[3:0], want[20]);
                        $fatal(1, \"table mismatch\");
                    end
                    positions = positions + 1;
                end
            end
        end
        $display(\"PASS %0d %0d\", solves, positions);
        $finish;
    end
endmodule
`default_nettype wire
",
        t = case.max_target,
        am = a - 1,
        mm = m - 1,
        wm = w - 1,
        w1 = w + 1,
        bm = b - 1,
        last_word = words - 1,
    )
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, HeapsBenchError> {
    let path = dir.join(name);
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, text))
        .map_err(|source| HeapsBenchError::Io {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// The levels of the heap solver, in order: the four that compare its tables with the software
/// solver, then level 7, its netlist proved equal to its RTL (run by the verification plan).
pub const HEAPS_LEVELS: [Level; 7] = [
    Level::RustHdl,
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
    Level::Properties,
    Level::Equivalence,
];

/// Runs `level` on `case`, external tools working in `dir/<case>/<level>`.
pub fn run_heaps_level(
    level: Level,
    case: &HeapsCase,
    dir: &Path,
) -> Result<SolverLevelReport, HeapsBenchError> {
    run_heaps_level_with(level, case, dir, None)
}

/// [`run_heaps_level`], the external levels simulating `verilog` (a `heaps_solver` module of
/// `case`'s size) instead of the emitted Verilog: to check the bench catches a broken design.
///
/// # Panics
/// On a level that does not compare tables (not among the first four of [`HEAPS_LEVELS`]).
pub fn run_heaps_level_with(
    level: Level,
    case: &HeapsCase,
    dir: &Path,
    verilog: Option<String>,
) -> Result<SolverLevelReport, HeapsBenchError> {
    let start = Instant::now();
    let bound_of = |r: &HeapsRequest| cycle_bound(u64::from(r.target), r.move_count());
    let mut report = SolverLevelReport {
        level,
        case: case.name,
        solves: case.requests.len(),
        positions: case.positions(),
        max_cycles: 0,
        max_bound: case.requests.iter().map(bound_of).max().unwrap_or(0),
        failure: None,
        elapsed: Duration::ZERO,
        detail: String::new(),
    };
    if level == Level::RustHdl {
        let limit = report.max_bound;
        let solved = simulate_heaps_solves(
            case.max_target,
            case.max_add,
            case.max_mul,
            &case.requests,
            limit,
        )?;
        compare_solved(&mut report, case, &solved);
        report.elapsed = start.elapsed();
        return Ok(report);
    }
    let dir = std::path::absolute(dir).map_err(|source| HeapsBenchError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let dir = dir.join(case.name).join(match level {
        Level::Icarus | Level::Verilator | Level::GateLevel => {
            level.folder().expect("a tool level")
        }
        _ => panic!("the heap solver has no level {}", level.name()),
    });
    let verilog = match verilog {
        Some(v) => v,
        None => heaps_solver_verilog(case.max_target, case.max_add, case.max_mul)?,
    };
    let design = write(&dir, &format!("{HEAPS_SOLVER_MODULE}.v"), &verilog)?;
    let tb = write(
        &dir,
        &format!("{HEAPS_TB_MODULE}.v"),
        &heaps_testbench(case),
    )?;
    write(&dir, HEAPS_VECTORS, &heaps_vectors(case))?;
    let out = match level {
        Level::Icarus => {
            report.detail = format!("iverilog -g2012 of {HEAPS_SOLVER_MODULE}.v");
            let vvp = iverilog::compile(&dir, &[tb, design], HEAPS_TB_MODULE, &[], "heaps_rtl")?;
            runner::output(
                runner::Tool::Vvp,
                &dir,
                [std::ffi::OsStr::new("-n"), vvp.as_os_str()],
                Some("heaps_rtl.vvp.log"),
            )?
        }
        Level::Verilator => {
            report.detail = format!("verilator --binary of {HEAPS_SOLVER_MODULE}.v");
            let exe =
                verilator::build_binary(&dir, &[tb, design], HEAPS_TB_MODULE, &[], "heaps_sim")?;
            runner::output_program(
                &exe,
                &dir,
                std::iter::empty::<&str>(),
                Some("heaps_sim.run.log"),
            )?
        }
        _ => {
            let synth = yosys::synth_ice40(&dir, &[design], HEAPS_SOLVER_MODULE)?;
            let cells = yosys::ice40_cells_sim(&dir)?;
            report.detail = format!(
                "synth_ice40 netlist ({} SB_LUT4, {} flip-flops, {} SB_CARRY, {} SB_RAM40_4K) + ice40/cells_sim.v under Icarus",
                synth.stats.lut4, synth.stats.dff, synth.stats.carry, synth.stats.ram40_4k
            );
            let vvp = iverilog::compile(
                &dir,
                &[tb, synth.netlist_verilog, cells],
                HEAPS_TB_MODULE,
                &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
                "heaps_gate",
            )?;
            runner::output(
                runner::Tool::Vvp,
                &dir,
                [std::ffi::OsStr::new("-n"), vvp.as_os_str()],
                Some("heaps_gate.vvp.log"),
            )?
        }
    };
    report.elapsed = start.elapsed();
    judge(&mut report, case, &out.stdout);
    if report.passed() && !out.status.success() {
        report.failure = Some(format!(
            "the simulation exited with {}; see {}",
            out.status,
            out.log
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        ));
    }
    Ok(report)
}

/// Level 1's verdict: every solve of `case` in `solved` within its cycle bound and every table
/// entry equal to the software solver's (the first difference in `report.failure`).
fn compare_solved(report: &mut SolverLevelReport, case: &HeapsCase, solved: &[HeapsSolved]) {
    let bound_of = |r: &HeapsRequest| cycle_bound(u64::from(r.target), r.move_count());
    'outer: for (i, (r, s)) in case.requests.iter().zip(solved).enumerate() {
        let bound = bound_of(r);
        report.max_cycles = report.max_cycles.max(s.cycles);
        if s.cycles > bound {
            report.failure = Some(format!(
                "solve {i} ({r}): {} cycles, bound {bound}",
                s.cycles
            ));
            break;
        }
        let want = expected_heaps_table(r, case.max_add);
        if s.table.len() != want.len() {
            report.failure = Some(format!("solve {i} ({r}): table incomplete"));
            break;
        }
        for ((a, b), (got, want)) in query_order(r.target)
            .into_iter()
            .zip(s.table.iter().zip(want))
        {
            if *got != want {
                report.failure = Some(format!(
                    "solve {i} ({r}) position ({a}, {b}): got {got}, want {want}"
                ));
                break 'outer;
            }
        }
    }
}

/// Reads a testbench's output: every solve's cycle count within its bound, the `PASS` line,
/// and the first `FAIL` line if any.
fn judge(report: &mut SolverLevelReport, case: &HeapsCase, stdout: &str) {
    let mut seen = 0usize;
    for line in stdout.lines() {
        let line = line.trim();
        if let Some(fail) = line.strip_prefix("FAIL ") {
            report.failure = Some(fail.to_owned());
            return;
        }
        if let Some(rest) = line.strip_prefix("CYCLES ") {
            let nums: Vec<u64> = rest
                .split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect();
            if let [i, cycles] = nums[..] {
                let Some(r) = case.requests.get(i as usize) else {
                    report.failure = Some(format!(
                        "the testbench reported solve {i}, which it was not given"
                    ));
                    return;
                };
                let bound = cycle_bound(u64::from(r.target), r.move_count());
                report.max_cycles = report.max_cycles.max(cycles);
                if cycles > bound {
                    report.failure = Some(format!("solve {i}: {cycles} cycles, bound {bound}"));
                    return;
                }
                seen += 1;
            }
        }
        if let Some(rest) = line.strip_prefix("PASS ") {
            let expect = format!("{} {}", case.requests.len(), case.positions());
            if rest != expect || seen != case.requests.len() {
                report.failure = Some(format!(
                    "the testbench reported `PASS {rest}` after {seen} solves; expected `PASS {expect}`"
                ));
            }
            return;
        }
    }
    report.failure = Some("the testbench ended without PASS or FAIL".into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::heaps_solver::solve_cycles;

    fn request(adds: u32, muls: u32, target: u32, last_wins: bool) -> HeapsRequest {
        HeapsRequest {
            adds,
            muls,
            target,
            last_wins,
        }
    }

    /// The reference follows the game's rules, checked by hand on small games.
    #[test]
    fn expected_tables_follow_the_games_rules() {
        // x+1 only, target 5, last wins: from (a, b) the sum grows by 1 a move, so the game
        // lasts 5 - a - b moves; odd is a win. (1, 1): 3 moves, won, the first heap's move.
        let t = expected_heaps_table(&request(1, 0, 5, true), 2);
        let order = query_order(5);
        assert_eq!(order[0], (1, 1));
        assert_eq!(
            t[0],
            HeapsEntry {
                winning: true,
                depth: 3,
                heap: 0,
                index: 0,
                blunder: false
            }
        );
        for (&(a, b), e) in order.iter().zip(&t) {
            let d = 5 - a - b;
            assert_eq!((e.winning, e.depth), (d % 2 == 1, d), "({a}, {b})");
            // The one move reaches a sum of a + b + 1, won at depth 1 only at 4.
            assert_eq!(e.blunder, a + b == 3, "({a}, {b})");
        }
        // x*2 (index A = 2 in the fixed list) at target 4, last loses: (1, 2) -> (2, 2) or
        // (1, 4): both reach 4, a loss at once; the loser delays... both are depth 1, ties go
        // to the first heap's move.
        let t = expected_heaps_table(&request(0, 1, 4, false), 2);
        let order = query_order(4);
        let i = order.iter().position(|&p| p == (1, 2)).unwrap();
        assert_eq!(
            t[i],
            HeapsEntry {
                winning: false,
                depth: 1,
                heap: 0,
                index: 2,
                blunder: false
            }
        );
        // No move: every position stuck.
        assert!(expected_heaps_table(&request(0, 0, 9, true), 2)
            .iter()
            .all(|e| !e.winning && e.depth == 0 && e.index == 0));
        assert!(expected_heaps_table(&request(3, 7, 2, true), 2).is_empty());
    }

    #[test]
    fn rust_hdl_matches_the_solver_at_a_small_size() {
        // T = 15 (W = 4), every subset of x+1, x+2, x*2, x*3, x*4, both rules, plus 32 random.
        let case = heaps_case("small", 15, 2, 3, 32);
        let report = run_heaps_level(Level::RustHdl, &case, Path::new("unused")).unwrap();
        assert!(report.passed(), "{report}");
        assert_eq!(report.solves, 96);
    }

    #[test]
    fn rust_hdl_matches_the_solver_at_other_sizes() {
        for (t, a, m) in [(3, 1, 1), (7, 4, 1), (31, 1, 2), (100, 3, 3)] {
            let case = heaps_case("sizes", t, a, m, 4);
            let case = HeapsCase {
                // The full target with every move and with +1 alone, both rules, then the draws.
                requests: case
                    .requests
                    .iter()
                    .copied()
                    .filter(|r| {
                        r.target != t as u32
                            || r.move_count() == a + m
                            || (r.adds == 1 && r.muls == 0)
                    })
                    .collect(),
                ..case
            };
            let report = run_heaps_level(Level::RustHdl, &case, Path::new("unused")).unwrap();
            assert!(report.passed(), "T = {t}, A = {a}, M = {m}: {report}");
        }
    }

    /// The cycle count is exactly the documented one, at the default size.
    #[test]
    fn rust_hdl_takes_the_documented_cycles() {
        let requests = [
            request(3, 7, 63, true),
            request(1, 0, 63, false),
            request(0, 0, 63, true),
            request(2, 4, 2, true),
        ];
        let solved = simulate_heaps_solves(63, 2, 3, &requests, 1 << 20).unwrap();
        for (r, s) in requests.iter().zip(&solved) {
            assert_eq!(
                s.cycles,
                solve_cycles(u64::from(r.target), r.move_count()),
                "{r}"
            );
        }
        assert_eq!(solved[0].cycles, 18_913);
    }

    #[test]
    fn a_wrong_table_is_caught() {
        let case = HeapsCase {
            name: "t",
            max_target: 3,
            max_add: 1,
            max_mul: 1,
            requests: vec![request(1, 0, 3, false)],
        };
        let mut r = SolverLevelReport {
            level: Level::Icarus,
            case: "t",
            solves: 1,
            positions: 1,
            max_cycles: 0,
            max_bound: 0,
            failure: None,
            elapsed: Duration::ZERO,
            detail: String::new(),
        };
        judge(&mut r, &case, "CYCLES 0 5\nPASS 1 1\n");
        assert!(r.passed(), "{r}");
        judge(&mut r, &case, "CYCLES 0 99\nPASS 1 1\n");
        assert!(!r.passed());
        r.failure = None;
        judge(&mut r, &case, "CYCLES 0 5\n");
        assert!(!r.passed());
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn emitted_verilog_matches_the_solver_under_icarus() {
        let dir = crate::flow::testing::work_dir("heaps_icarus");
        for case in [heaps_case("small", 15, 2, 3, 8), default_heaps_case()] {
            let report = run_heaps_level(Level::Icarus, &case, dir.path()).unwrap();
            assert!(report.passed(), "{report}");
        }
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn emitted_verilog_matches_the_solver_under_verilator() {
        let dir = crate::flow::testing::work_dir("heaps_verilator");
        for case in [heaps_case("odd", 100, 3, 2, 8), default_heaps_case()] {
            let report = run_heaps_level(Level::Verilator, &case, dir.path()).unwrap();
            assert!(report.passed(), "{report}");
        }
    }

    /// The `synth_ice40` netlist (its block RAMs under yosys's `SB_RAM40_4K` model) solves like
    /// the software solver.
    #[cfg(feature = "external-tools")]
    #[test]
    fn the_netlist_matches_the_solver_at_gate_level() {
        let dir = crate::flow::testing::work_dir("heaps_gate");
        let report = run_heaps_level(
            Level::GateLevel,
            &gate_case(&heaps_case("gate", 63, 2, 3, 4)),
            dir.path(),
        )
        .unwrap();
        assert!(report.passed(), "{report}");
        assert!(report.detail.contains("SB_RAM40_4K"), "{report}");
    }

    /// The issue's targets at T = 63, A = 2, M = 3 on the UP5K: at most 12 block RAMs and 400
    /// logic cells, and Fmax at least 24 MHz (2x the iCEBreaker's 12 MHz). Placed and routed
    /// inside docs/heaps_solver_fmax.v (the solver has more ports than the SG48 package has
    /// pins), whose 24-bit shift register counts against the 400 cells too; seed 1 here,
    /// seeds 1..8 in docs/heaps_solver.md.
    #[cfg(feature = "external-tools")]
    #[test]
    fn synthesis_meets_the_issue_targets() {
        use crate::flow::nextpnr::{place_and_route, PnrOptions};
        let dir = crate::flow::testing::work_dir("heaps_figures");
        let design = write(
            dir.path(),
            &format!("{HEAPS_SOLVER_MODULE}.v"),
            &heaps_solver_verilog(63, 2, 3).unwrap(),
        )
        .unwrap();
        let wrapper = write(
            dir.path(),
            "heaps_solver_fmax.v",
            include_str!("../../docs/heaps_solver_fmax.v"),
        )
        .unwrap();
        let synth =
            yosys::synth_ice40(dir.path(), &[design, wrapper], "heaps_solver_fmax").unwrap();
        assert!(
            (1..=12).contains(&synth.stats.ram40_4k),
            "{} SB_RAM40_4K",
            synth.stats.ram40_4k
        );
        let options = PnrOptions {
            freq_mhz: 24.0,
            ..PnrOptions::icebreaker()
        };
        let pnr = place_and_route(
            dir.path(),
            &synth.netlist_json,
            &options,
            "heaps_solver_fmax",
        )
        .unwrap();
        let cells = pnr.logic_cells.expect("nextpnr reports its logic cells");
        assert!(cells <= 400, "{cells} logic cells");
        let fmax = pnr.fmax_mhz.expect("a clocked design");
        assert!(!pnr.timing_failed && fmax >= 24.0, "Fmax {fmax} MHz");
    }

    /// The issue's mutant, ties between equally deep moves going to the latest move instead of
    /// the earliest (the winner's and the loser's), is caught at every level: level 1 on the
    /// rust-hdl model mutated the same way, levels 2 to 4 on the mutated Verilog (Icarus,
    /// Verilator, its `synth_ice40` netlist), each on a table entry, and level 7 finds the
    /// mutant's netlist different from the emitted RTL, with a counterexample (the table word
    /// it writes).
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_solver_that_ties_to_the_latest_move_fails_every_level() {
        use crate::bench::equivalence::netlist_against_rtl;
        use crate::circuit::heaps_solver::simulate_heaps_solves_tying_late;
        use crate::verilog::{module_ports, PortDir};

        let case = heaps_case("ties", 15, 2, 3, 0);
        let good = heaps_solver_verilog(15, 2, 3).unwrap();
        let mutant = good
            .replace("(s_depth < acc_depth)", "(s_depth <= acc_depth)")
            .replace("(s_depth > acc_depth)", "(s_depth >= acc_depth)");
        assert_eq!(
            (
                good.matches("(s_depth <= acc_depth)").count(),
                mutant.matches("(s_depth <= acc_depth)").count()
            ),
            (0, 1),
            "the loser's comparison changed"
        );
        assert_eq!(
            (
                good.matches("(s_depth >= acc_depth)").count(),
                mutant.matches("(s_depth >= acc_depth)").count()
            ),
            (0, 1),
            "the winner's comparison changed"
        );

        // The emitted model passes level 1 on this case; the mutated one does not.
        let bound = case
            .requests
            .iter()
            .map(|r| cycle_bound(u64::from(r.target), r.move_count()))
            .max()
            .unwrap();
        let rust_hdl = |solved: &[HeapsSolved]| {
            let mut report = SolverLevelReport {
                level: Level::RustHdl,
                case: case.name,
                solves: case.requests.len(),
                positions: case.positions(),
                max_cycles: 0,
                max_bound: bound,
                failure: None,
                elapsed: Duration::ZERO,
                detail: String::new(),
            };
            compare_solved(&mut report, &case, solved);
            report
        };
        let right = simulate_heaps_solves(15, 2, 3, &case.requests, bound).unwrap();
        assert!(rust_hdl(&right).passed(), "{}", rust_hdl(&right));
        let late = simulate_heaps_solves_tying_late(15, 2, 3, &case.requests, bound).unwrap();
        let report = rust_hdl(&late);
        assert!(!report.passed(), "the mutant passed level 1: {report}");
        assert!(
            report.failure.as_deref().unwrap().contains("got "),
            "{report}"
        );

        for level in [Level::Icarus, Level::Verilator, Level::GateLevel] {
            let dir = crate::flow::testing::work_dir("heaps_ties");
            let report =
                run_heaps_level_with(level, &case, dir.path(), Some(mutant.clone())).unwrap();
            assert!(
                !report.passed(),
                "the mutant passed level {level}: {report}"
            );
            assert!(
                report.failure.as_deref().unwrap().contains(") position ("),
                "level {level} failed on something other than a table entry: {report}"
            );
        }

        // Level 7: the mutant's netlist against the emitted RTL.
        let dir = crate::flow::testing::work_dir("heaps_ties_netlist");
        let synth_dir = dir.path().join("mutant");
        std::fs::create_dir_all(&synth_dir).unwrap();
        let rtl = synth_dir.join(format!("{HEAPS_SOLVER_MODULE}.v"));
        std::fs::write(&rtl, &mutant).unwrap();
        let synth = yosys::synth_ice40(&synth_dir, &[rtl], HEAPS_SOLVER_MODULE).unwrap();
        let outputs: Vec<String> = module_ports(&good, HEAPS_SOLVER_MODULE)
            .unwrap()
            .into_iter()
            .filter(|p| p.dir != PortDir::Input)
            .map(|p| p.name)
            .collect();
        let report = netlist_against_rtl(
            &dir.path().join("equivalence"),
            &good,
            &synth.netlist_verilog,
            HEAPS_SOLVER_MODULE,
            &outputs,
        )
        .unwrap();
        assert!(
            !report.passed,
            "the mutant's netlist was proved equal: {report:?}"
        );
        assert!(
            report.detail.contains("differs from its RTL")
                && report.detail.contains("netlist-counterexample.vcd"),
            "{}",
            report.detail
        );
    }

    /// Small changes to the emitted Verilog (tie-breaking, the terminal rule, the order of the
    /// sweep, the blunder bit counting terminal successors or forgetting earlier moves) fail
    /// the Icarus level, each naming a table entry: the bench can fail.
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_broken_heaps_solver_fails_under_icarus() {
        let case = heaps_case("mutant", 15, 2, 3, 0);
        let good = heaps_solver_verilog(15, 2, 3).unwrap();
        for (from, to) in [
            ("(s_depth < acc_depth)", "(s_depth <= acc_depth)"),
            ("(s_depth > acc_depth)", "(s_depth >= acc_depth)"),
            ("m_term ? ~last_r", "m_term ? last_r"),
            ("(total >= ", "(total > "),
            ("b <= target_r - a;", "b <= target_r - a - 4'd1;"),
            ("m_move & ~m_term & rd_win", "m_move & rd_win"),
            ("(~m_first & acc_blunder) | s_blunder", "s_blunder"),
        ] {
            assert!(good.contains(from), "{from}");
            let dir = crate::flow::testing::work_dir("heaps_mutant");
            let report = run_heaps_level_with(
                Level::Icarus,
                &case,
                dir.path(),
                Some(good.replace(from, to)),
            )
            .unwrap();
            assert!(!report.passed(), "{from} -> {to} passed: {report}");
            let failure = report.failure.as_deref().unwrap_or_default();
            assert!(failure.contains("position ("), "{from} -> {to}: {report}");
        }
    }
}
