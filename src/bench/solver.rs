//! Verification of the on-chip solver `sticks_solver` against the software solver.
//!
//! The reference is [`crate::solver::solve`] on a [`SticksGame`] of the same rules: for every
//! position its outcome, depth and [`best_move`](crate::solver::Solution::best_move) (0 where
//! there is none), exactly what `retrogate solve sticks --format json` prints.
//!
//! Two configurations, each a list of solves run back to back on one circuit:
//! * `exhaustive`: C = 63, K = 4; every non-empty take set within {1,2,3,4}, both rules, every
//!   count 0..=63 (1,920 solves);
//! * `sample`: C = 255, K = 8; the same 30 take sets and rules at count 63, the whole range
//!   (count 255) for a few fixed sets, and 48 seeded random take sets, rules and counts.
//!
//! Levels, each checking every table entry and every solve's cycle count against
//! [`cycle_bound`]:
//! 1. rust-hdl's simulation of the block ([`simulate_solves`]), compared in Rust;
//! 2. the emitted Verilog under Icarus, 3. under Verilator, 4. the `synth_ice40` netlist with
//!    yosys's `ice40/cells_sim.v` under Icarus: one generated self-checking testbench
//!    ([`solver_testbench`]) reads the expected words from a vector file ([`solver_vectors`])
//!    and ends with `$fatal` on the first mismatch or overlong solve;
//! 5. formal: a k-induction proof of C = 15, K = 3 against the solver's tables, run once
//!    ([`super::solver_formal`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::level::Level;
use crate::bench::sequential::SplitMix64;
use crate::circuit::sticks_solver::{
    bits_for, cycle_bound, simulate_solves, sticks_solver_verilog, Entry, SolveRequest,
    SolverError, SOLVER_MODULE,
};
use crate::flow::{iverilog, runner, verilator, yosys, ToolError};
use crate::game::{Last, SticksGame};
use crate::solver::{solve, Outcome};

/// Module name of the generated testbench.
pub const SOLVER_TB_MODULE: &str = "sticks_solver_tb";
/// File the testbench reads its vectors from.
pub const SOLVER_VECTORS: &str = "solver_vectors.hex";

/// Errors that stop a level from reaching a verdict (a mismatch is a failed [`SolverLevelReport`]).
#[derive(Debug, thiserror::Error)]
pub enum SolverBenchError {
    /// The solver cannot be built.
    #[error(transparent)]
    Solver(#[from] SolverError),
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

/// A solver size and the solves to run on it.
#[derive(Clone, Debug)]
pub struct SolverCase {
    /// Name of the configuration (`exhaustive`, `sample`).
    pub name: &'static str,
    /// Largest count C.
    pub max_count: u64,
    /// Largest take K.
    pub max_take: u64,
    /// The solves, in order.
    pub requests: Vec<SolveRequest>,
}

impl SolverCase {
    /// Positions checked over all solves.
    pub fn positions(&self) -> u64 {
        self.requests.iter().map(|r| u64::from(r.count) + 1).sum()
    }
}

/// The take set of a mask (bit i: take i + 1), ascending.
pub fn takes_of(mask: u32) -> Vec<u64> {
    (0..8u64)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| i + 1)
        .collect()
}

/// The software solver's table for a request: positions `0..=count`.
///
/// # Panics
/// On an empty take set (no game has one).
pub fn expected_table(r: &SolveRequest) -> Vec<Entry> {
    let last = if r.last_wins { Last::Wins } else { Last::Loses };
    // Positions do not depend on the count (moves go down); a game needs at least 1 stick.
    let game = SticksGame::new(u64::from(r.count).max(1), &takes_of(r.take_set), last)
        .expect("a non-empty take set");
    let solution = solve(&game);
    (0..=r.count as usize)
        .map(|i| {
            let v = solution.value(i);
            Entry {
                winning: v.outcome == Outcome::Win,
                depth: v.depth.expect("subtraction games have no draws") as u32,
                take: solution.best_move(i).map_or(0, |(m, _)| m as u32),
            }
        })
        .collect()
}

/// Every non-empty take set within {1,2,3,4}, both rules, every count 0..=63, on C = 63,
/// K = 4.
pub fn exhaustive_case() -> SolverCase {
    let mut requests = Vec::new();
    for take_set in 1..16 {
        for last_wins in [false, true] {
            for count in 0..=63 {
                requests.push(SolveRequest {
                    take_set,
                    count,
                    last_wins,
                });
            }
        }
    }
    SolverCase {
        name: "exhaustive",
        max_count: 63,
        max_take: 4,
        requests,
    }
}

/// Solves on C = 255, K = 8: the 30 small games at count 63, five fixed sets at count 255, and
/// `random` seeded draws (any non-empty set, any count, either rule).
pub fn sample_case(random: usize) -> SolverCase {
    let mut requests = Vec::new();
    for take_set in 1..16 {
        for last_wins in [false, true] {
            requests.push(SolveRequest {
                take_set,
                count: 63,
                last_wins,
            });
        }
    }
    for (take_set, last_wins) in [
        (0xff, false),
        (0xff, true),
        (0x80, false),
        (0b1010_0100, true),
        (0b0000_0111, false),
    ] {
        requests.push(SolveRequest {
            take_set,
            count: 255,
            last_wins,
        });
    }
    let mut rng = SplitMix64::new(0x0050_17e5);
    for _ in 0..random {
        requests.push(SolveRequest {
            take_set: 1 + rng.below(255) as u32,
            count: rng.below(256) as u32,
            last_wins: rng.coin(),
        });
    }
    SolverCase {
        name: "sample",
        max_count: 255,
        max_take: 8,
        requests,
    }
}

/// Solves for a solver of any size: every non-empty take set within {1..min(K, 4)}, both
/// rules, at count C; the full take set at C; and 16 seeded random solves.
pub fn size_case(max_count: u64, max_take: u64) -> SolverCase {
    let small = max_take.min(4) as u32;
    let full = (1u32 << max_take) - 1;
    let count = max_count as u32;
    let mut requests = Vec::new();
    for take_set in 1..(1u32 << small) {
        for last_wins in [false, true] {
            requests.push(SolveRequest {
                take_set,
                count,
                last_wins,
            });
        }
    }
    for last_wins in [false, true] {
        requests.push(SolveRequest {
            take_set: full,
            count,
            last_wins,
        });
    }
    let mut rng = SplitMix64::new(max_count << 8 | max_take);
    for _ in 0..16 {
        requests.push(SolveRequest {
            take_set: 1 + rng.below(u64::from(full)) as u32,
            count: rng.below(max_count + 1) as u32,
            last_wins: rng.coin(),
        });
    }
    SolverCase {
        name: "size",
        max_count,
        max_take,
        requests,
    }
}

/// The configurations `verify solver` runs.
pub fn solver_cases() -> Vec<SolverCase> {
    vec![exhaustive_case(), sample_case(48)]
}

/// The levels of the solver, in order ([`Level::Formal`] runs once, on a configuration of its
/// own, not per configuration).
pub const SOLVER_LEVELS: [Level; 5] = [
    Level::RustHdl,
    Level::Icarus,
    Level::Verilator,
    Level::GateLevel,
    Level::Formal,
];

/// How a solver level names itself in its line.
pub fn solver_level_name(level: Level) -> &'static str {
    match level {
        Level::RustHdl => "rust-hdl simulation",
        Level::Icarus => "Icarus (emitted Verilog)",
        Level::Verilator => "Verilator (emitted Verilog)",
        Level::GateLevel => "gate level (synth_ice40 netlist)",
        Level::Formal => "formal (k-induction)",
        Level::Properties | Level::Equivalence | Level::Bitstream => level.name(),
    }
}

/// The verdict of one level on one configuration.
#[derive(Clone, Debug)]
pub struct SolverLevelReport {
    /// The level.
    pub level: Level,
    /// The configuration's name.
    pub case: &'static str,
    /// Solves run.
    pub solves: usize,
    /// Positions checked.
    pub positions: u64,
    /// The slowest solve, in cycles (0 when none finished).
    pub max_cycles: u64,
    /// Its bound.
    pub max_bound: u64,
    /// The first problem, or `None` when everything matched.
    pub failure: Option<String>,
    /// Wall time.
    pub elapsed: Duration,
    /// What ran (tool, netlist size).
    pub detail: String,
}

impl SolverLevelReport {
    /// The report failed as not checked, for `why` (a formal model that came out vacuous), with
    /// the time since `start`.
    pub(crate) fn not_checked(mut self, why: impl std::fmt::Display, start: Instant) -> Self {
        self.failure = Some(format!("not checked: {why}"));
        self.elapsed = start.elapsed();
        self
    }

    /// Everything matched.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

impl SolverLevelReport {
    /// The level's name: [`solver_level_name`], but for the heap solver's formal level, which
    /// is a bounded check ([`crate::bench::heaps_formal::BOUNDED_CASE`]), and for the
    /// heap-game controller's properties ([`crate::bench::heaps_game_properties`]).
    pub fn level_name(&self) -> &'static str {
        if self.level == Level::Formal && self.case == crate::bench::heaps_formal::BOUNDED_CASE {
            crate::bench::heaps_formal::LEVEL_NAME
        } else if self.level == Level::Properties {
            crate::bench::heaps_game_properties::LEVEL_NAME
        } else {
            solver_level_name(self.level)
        }
    }
}

impl fmt::Display for SolverLevelReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed() { "PASS" } else { "FAIL" };
        if matches!(self.level, Level::Formal | Level::Properties) {
            write!(
                f,
                "{verdict} {level}: {detail}, {ms} ms",
                level = self.level_name(),
                detail = self.detail,
                ms = self.elapsed.as_millis()
            )?;
            if let Some(problem) = &self.failure {
                write!(f, "\n  {problem}")?;
            }
            return Ok(());
        }
        write!(
            f,
            "{verdict} {level} [{case}]: {solves} solves, {positions} positions, slowest solve {cyc} cycles (bound {bound}), {ms} ms",
            level = self.level_name(),
            case = self.case,
            solves = self.solves,
            positions = self.positions,
            cyc = self.max_cycles,
            bound = self.max_bound,
            ms = self.elapsed.as_millis()
        )?;
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        if let Some(problem) = &self.failure {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

/// The vector file: the number of solves, then per solve a header word
/// (`last_wins << 24 | take_set << 16 | count`) and one word per position
/// (`winning << 16 | depth << 8 | take`), 32-bit hex, one a line.
pub fn solver_vectors(case: &SolverCase) -> String {
    let mut text = format!("{:08x}\n", case.requests.len());
    for r in &case.requests {
        text.push_str(&format!(
            "{:08x}\n",
            u32::from(r.last_wins) << 24 | r.take_set << 16 | r.count
        ));
        for e in expected_table(r) {
            text.push_str(&format!(
                "{:08x}\n",
                u32::from(e.winning) << 16 | e.depth << 8 | e.take
            ));
        }
    }
    text
}

/// Words in [`solver_vectors`].
fn vector_words(case: &SolverCase) -> u64 {
    1 + case.requests.len() as u64 + case.positions()
}

/// A self-checking testbench for the solver of `case`'s size: for each solve it sets the
/// inputs with `start` for one cycle, scrambles them, counts cycles until `done` (busy must stay
/// high, the count must stay within the bound), then queries every position and compares it
/// with the vector; `$fatal` on the first difference. It prints `CYCLES <solve> <cycles>` per
/// solve and `PASS <solves> <positions>` at the end.
pub fn solver_testbench(case: &SolverCase) -> String {
    let w = bits_for(case.max_count);
    let k = case.max_take as usize;
    let m = bits_for(case.max_take);
    let words = vector_words(case);
    format!(
        "\
// Generated by retrogate -- self-checking testbench of {SOLVER_MODULE} (C = {c}, K = {k}).
`timescale 1ns/1ps
`default_nettype none
module {SOLVER_TB_MODULE};
    reg clock = 1'b0;
    reg reset = 1'b1;
    reg [{km}:0] take_set = {k}'d0;
    reg [{wm}:0] count = {w}'d0;
    reg last_wins = 1'b0;
    reg start = 1'b0;
    reg [{wm}:0] query = {w}'d0;
    wire busy;
    wire done;
    wire query_winning;
    wire [{wm}:0] query_depth;
    wire [{mm}:0] query_take;
    {SOLVER_MODULE} dut (
        .clock(clock), .reset(reset), .take_set(take_set), .count(count),
        .last_wins(last_wins), .start(start), .busy(busy), .done(done), .query(query),
        .query_winning(query_winning), .query_depth(query_depth), .query_take(query_take)
    );
    initial forever #5 clock = ~clock;
    reg [31:0] vec [0:{last_word}];
    reg [31:0] hdr;
    reg [31:0] want;
    integer solves;
    integer c;
    integer ptr;
    integer pos;
    integer n;
    integer cycles;
    integer bound;
    integer positions;
    // Vector bits the checks do not read (named for Verilator's unused-signal rule).
    wire unused_bits = &{{1'b0, hdr, want}};
    initial begin
        $readmemh(\"{SOLVER_VECTORS}\", vec);
        solves = vec[0];
        ptr = 1;
        positions = 0;
        @(negedge clock);
        reset = 1'b0;
        for (c = 0; c < solves; c = c + 1) begin
            hdr = vec[ptr];
            ptr = ptr + 1;
            n = {{24'd0, hdr[7:0]}};
            bound = (n + 1) * {k2} + 16;
            take_set = hdr[16 +: {k}];
            count = hdr[{wm}:0];
            last_wins = hdr[24];
            start = 1'b1;
            @(negedge clock);
            start = 1'b0;
            take_set = ~hdr[16 +: {k}];
            count = ~hdr[{wm}:0];
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
            for (pos = 0; pos <= n; pos = pos + 1) begin
                query = pos[{wm}:0];
                @(negedge clock);
                want = vec[ptr];
                ptr = ptr + 1;
                if (done !== 1'b1 || query_winning !== want[16] || query_depth !== want[8 +: {w}]
                        || query_take !== want[0 +: {m}]) begin
                    $display(\"FAIL solve %0d (take set %b, last_wins %0d, count %0d) position %0d: got winning %b depth %0d take %0d done %b, want winning %0d depth %0d take %0d\",
                        c, hdr[16 +: {k}], hdr[24], n, pos, query_winning, query_depth, query_take, done,
                        want[16], want[15:8], want[7:0]);
                    $fatal(1, \"table mismatch\");
                end
                positions = positions + 1;
            end
        end
        $display(\"PASS %0d %0d\", solves, positions);
        $finish;
    end
endmodule
`default_nettype wire
",
        c = case.max_count,
        km = k - 1,
        wm = w - 1,
        mm = m - 1,
        k2 = k + 2,
        last_word = words - 1,
    )
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, SolverBenchError> {
    let path = dir.join(name);
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, text))
        .map_err(|source| SolverBenchError::Io {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// Runs `level` on `case`, external tools working in `dir/<case>/<level>`.
pub fn run_solver_level(
    level: Level,
    case: &SolverCase,
    dir: &Path,
) -> Result<SolverLevelReport, SolverBenchError> {
    run_solver_level_with(level, case, dir, None)
}

/// [`run_solver_level`], the external levels simulating `verilog` (a `sticks_solver` module of
/// `case`'s size) instead of the emitted Verilog: to check the bench catches a broken design.
pub fn run_solver_level_with(
    level: Level,
    case: &SolverCase,
    dir: &Path,
    verilog: Option<String>,
) -> Result<SolverLevelReport, SolverBenchError> {
    if level == Level::Formal {
        // A configuration of its own (C = 15, K = 3), whatever `case` is.
        return super::solver_formal::run_formal_level(dir, verilog);
    }
    let start = Instant::now();
    let max_bound = case
        .requests
        .iter()
        .map(|r| cycle_bound(u64::from(r.count), case.max_take))
        .max()
        .unwrap_or(0);
    let mut report = SolverLevelReport {
        level,
        case: case.name,
        solves: case.requests.len(),
        positions: case.positions(),
        max_cycles: 0,
        max_bound,
        failure: None,
        elapsed: Duration::ZERO,
        detail: String::new(),
    };
    if level == Level::RustHdl {
        let limit = cycle_bound(case.max_count, case.max_take);
        let solved = simulate_solves(case.max_count, case.max_take, &case.requests, limit)?;
        'outer: for (i, (r, s)) in case.requests.iter().zip(&solved).enumerate() {
            let bound = cycle_bound(u64::from(r.count), case.max_take);
            report.max_cycles = report.max_cycles.max(s.cycles);
            if s.cycles > bound {
                report.failure = Some(format!(
                    "solve {i} ({r}): {} cycles, bound {bound}",
                    s.cycles
                ));
                break;
            }
            for (pos, (got, want)) in s.table.iter().zip(expected_table(r)).enumerate() {
                if *got != want {
                    report.failure = Some(format!(
                        "solve {i} ({r}) position {pos}: got {got}, want {want}"
                    ));
                    break 'outer;
                }
            }
            if s.table.len() != r.count as usize + 1 {
                report.failure = Some(format!("solve {i} ({r}): table incomplete"));
                break;
            }
        }
        report.elapsed = start.elapsed();
        return Ok(report);
    }
    // Tools run inside `dir` and are given the files' paths: make them absolute, so a relative
    // `--work` works.
    let dir = std::path::absolute(dir).map_err(|source| SolverBenchError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let dir = dir.join(case.name).join(match level {
        Level::Icarus | Level::Verilator | Level::GateLevel => {
            level.folder().expect("a tool level")
        }
        _ => unreachable!("rust-hdl and formal return above"),
    });
    let verilog = match verilog {
        Some(v) => v,
        None => sticks_solver_verilog(case.max_count, case.max_take)?,
    };
    let design = write(&dir, &format!("{SOLVER_MODULE}.v"), &verilog)?;
    let tb = write(
        &dir,
        &format!("{SOLVER_TB_MODULE}.v"),
        &solver_testbench(case),
    )?;
    write(&dir, SOLVER_VECTORS, &solver_vectors(case))?;
    let out = match level {
        Level::Icarus => {
            report.detail = "iverilog -g2012 of sticks_solver.v".into();
            let vvp = iverilog::compile(&dir, &[tb, design], SOLVER_TB_MODULE, &[], "solver_rtl")?;
            runner::output(
                runner::Tool::Vvp,
                &dir,
                [std::ffi::OsStr::new("-n"), vvp.as_os_str()],
                Some("solver_rtl.vvp.log"),
            )?
        }
        Level::Verilator => {
            report.detail = "verilator --binary of sticks_solver.v".into();
            let exe =
                verilator::build_binary(&dir, &[tb, design], SOLVER_TB_MODULE, &[], "solver_sim")?;
            runner::output_program(
                &exe,
                &dir,
                std::iter::empty::<&str>(),
                Some("solver_sim.run.log"),
            )?
        }
        _ => {
            let synth = yosys::synth_ice40(&dir, &[design], SOLVER_MODULE)?;
            let cells = yosys::ice40_cells_sim(&dir)?;
            report.detail = format!(
                "synth_ice40 netlist ({} SB_LUT4, {} flip-flops, {} SB_CARRY, {} SB_RAM40_4K) + ice40/cells_sim.v under Icarus",
                synth.stats.lut4, synth.stats.dff, synth.stats.carry, synth.stats.ram40_4k
            );
            let vvp = iverilog::compile(
                &dir,
                &[tb, synth.netlist_verilog, cells],
                SOLVER_TB_MODULE,
                &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
                "solver_gate",
            )?;
            runner::output(
                runner::Tool::Vvp,
                &dir,
                [std::ffi::OsStr::new("-n"), vvp.as_os_str()],
                Some("solver_gate.vvp.log"),
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

/// Reads a testbench's output: every solve's cycle count within its bound, the `PASS` line,
/// and the first `FAIL` line if any.
fn judge(report: &mut SolverLevelReport, case: &SolverCase, stdout: &str) {
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
                let r = &case.requests[i as usize];
                let bound = cycle_bound(u64::from(r.count), case.max_take);
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

    #[test]
    fn expected_tables_follow_the_games_rules() {
        // Fort Boyard: 1 mod 4 lost; position 0 won when the last stick loses.
        let t = expected_table(&SolveRequest {
            take_set: 0b111,
            count: 9,
            last_wins: false,
        });
        assert_eq!(
            t[0],
            Entry {
                winning: true,
                depth: 0,
                take: 0
            }
        );
        // 5 is lost: every move leaves a win in 2, so the loser delays with the smallest take.
        assert!(!t[5].winning && t[5].depth == 3 && t[5].take == 1);
        // Take set {2,3}: 1 stick is stuck, lost at depth 0 with take 0.
        let t = expected_table(&SolveRequest {
            take_set: 0b110,
            count: 3,
            last_wins: true,
        });
        assert_eq!(
            t[1],
            Entry {
                winning: false,
                depth: 0,
                take: 0
            }
        );
        assert!(!t[0].winning);
    }

    #[test]
    fn rust_hdl_matches_the_solver_on_every_small_game() {
        let report =
            run_solver_level(Level::RustHdl, &exhaustive_case(), Path::new("unused")).unwrap();
        assert!(report.passed(), "{report}");
        assert_eq!(report.solves, 1920);
    }

    #[test]
    fn rust_hdl_matches_the_solver_on_the_sample() {
        let report =
            run_solver_level(Level::RustHdl, &sample_case(24), Path::new("unused")).unwrap();
        assert!(report.passed(), "{report}");
        assert!(report.max_cycles <= report.max_bound);
    }

    #[test]
    fn a_wrong_table_is_caught() {
        // The judge fails on a FAIL line and on a missing PASS.
        let case = SolverCase {
            name: "t",
            max_count: 3,
            max_take: 2,
            requests: vec![SolveRequest {
                take_set: 1,
                count: 3,
                last_wins: false,
            }],
        };
        let mut r = SolverLevelReport {
            level: Level::Icarus,
            case: "t",
            solves: 1,
            positions: 4,
            max_cycles: 0,
            max_bound: 0,
            failure: None,
            elapsed: Duration::ZERO,
            detail: String::new(),
        };
        judge(&mut r, &case, "CYCLES 0 17\nPASS 1 4\n");
        assert!(r.passed(), "{r}");
        judge(&mut r, &case, "CYCLES 0 99\nPASS 1 4\n");
        assert!(!r.passed());
        r.failure = None;
        judge(&mut r, &case, "CYCLES 0 17\n");
        assert!(!r.passed());
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn emitted_verilog_matches_the_solver_under_icarus() {
        let dir = crate::flow::testing::work_dir("solver_icarus");
        let report = run_solver_level(Level::Icarus, &sample_case(8), dir.path()).unwrap();
        assert!(report.passed(), "{report}");
    }

    /// The storage choice holds after synthesis: registers up to C = 3, one block RAM from 4.
    #[cfg(feature = "external-tools")]
    #[test]
    fn synthesis_keeps_the_chosen_table_storage() {
        use crate::circuit::sticks_solver::{table_storage, TableStorage};
        for (max_count, max_take) in [(3, 8), (4, 3)] {
            let dir = crate::flow::testing::work_dir("solver_storage");
            let design = write(
                dir.path(),
                &format!("{SOLVER_MODULE}.v"),
                &sticks_solver_verilog(max_count, max_take).unwrap(),
            )
            .unwrap();
            let synth = yosys::synth_ice40(dir.path(), &[design], SOLVER_MODULE).unwrap();
            let rams = match table_storage(max_count) {
                TableStorage::Registers => 0,
                TableStorage::BlockRam => 1,
            };
            assert_eq!(
                synth.stats.ram40_4k, rams,
                "C = {max_count}, K = {max_take}"
            );
        }
    }

    /// Small changes to the emitted Verilog (tie-breaking, the rule at position 0, the number
    /// of successor reads) fail the Icarus level: the bench can fail.
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_broken_solver_fails_under_icarus() {
        let case = size_case(20, 3);
        let good = sticks_solver_verilog(20, 3).unwrap();
        for (from, to) in [
            ("(rd_depth < acc_depth)", "(rd_depth <= acc_depth)"),
            ("(rd_depth > acc_depth)", "(rd_depth >= acc_depth)"),
            ("~last_r, ", "last_r, "),
            ("phase < 4'd3", "phase < 4'd2"),
        ] {
            assert!(good.contains(from), "{from}");
            let dir = crate::flow::testing::work_dir("solver_mutant");
            let report = run_solver_level_with(
                Level::Icarus,
                &case,
                dir.path(),
                Some(good.replace(from, to)),
            )
            .unwrap();
            assert!(!report.passed(), "{from} -> {to} passed: {report}");
        }
    }
}
