//! The formal level of the on-chip heap solver: a bounded model check that `heaps_solver` at
//! T = 7, A = 2, M = 3 fills its table exactly as the software solver does, for every game of
//! that size, in every solve's exact cycle count.
//!
//! A generated wrapper ([`formal_wrapper`]) resets the solver and pulses `start` once with a
//! move set, a rule and a target that are free constants (`anyconst`: any subset of the five
//! moves `x+1, x+2, x*2, x*3, x*4`, either rule, any target 0..=7), feeds free values (`anyseq`)
//! on those inputs at every other cycle (the solve must not look at them again), and holds the
//! query at a free constant. It asserts, at every cycle:
//! * from the start on, `busy` is high and `done` low until the cycle the documented count
//!   ([`solve_cycles`]) says, and from then on `done` is high and `busy` low (so every solve
//!   also ends within the contract's bound, [`cycle_bound`], which a unit test checks is larger);
//! * while `done` is high, the query outputs (outcome, depth, heap, move, blunder) equal the software
//!   solver's entry for that game and position whenever the query is a position of the game
//!   (both heaps at least 1, their sum below the target). The monitor is a case over every
//!   game and position, generated from [`expected_heaps_table`].
//!
//! yosys turns the wrapper and the emitted solver into an AIGER model (the table's memory as
//! flip-flops, 32 words); ABC's `&bmcs` with Glucose (`yosys-abc`, shipped with Debian's yosys;
//! [`abc::bmcs`]: 34 s here where `bmc3` took 61 s) checks every
//! assertion from the initial state for [`FORMAL_DEPTH`] cycles: past the end of the slowest
//! solve of this size, with the finished table read for several cycles. So the check is
//! **bounded**: every game's whole solve and the table it leaves are covered, but not the
//! cycles after [`FORMAL_DEPTH`] (the solver then only reads its table, which nothing writes
//! until the next `start`). An unbounded proof would need invariants over the solver's
//! pipeline like the stick solver's k-induction; it is not attempted.

use std::path::Path;
use std::time::Instant;

use super::heaps_solver::{expected_heaps_table, HeapsBenchError};
use super::level::Level;
use super::solver::SolverLevelReport;
use super::solver_formal::judge_bounded;
use crate::circuit::heaps_solver::{
    cycle_bound, heaps_solver_verilog, heaps_widths, positions, query_order, solve_cycles,
    HeapsRequest, HEAPS_SOLVER_MODULE,
};
use crate::circuit::sticks_solver::bits_for;
use crate::flow::abc;
use crate::flow::yosys::Model;

/// Largest target of the checked configuration.
pub const FORMAL_MAX_TARGET: u64 = 7;
/// Largest addition of the checked configuration (`x+1`, `x+2`).
pub const FORMAL_MAX_ADD: u64 = 2;
/// Largest multiplier minus one of the checked configuration (`x*2`, `x*3`, `x*4`).
pub const FORMAL_MAX_MUL: u64 = 3;
/// The level's name in reports: it is a bounded check, not the stick solver's k-induction.
pub const LEVEL_NAME: &str = "formal (bounded model check)";
/// The case name of its report ([`SolverLevelReport::case`]), by which the report is named.
pub const BOUNDED_CASE: &str = "bounded";
/// Module name of the wrapper.
pub const FORMAL_MODULE: &str = "heaps_solver_formal";
/// Cycles the bounded check covers: reset, start, the slowest solve of this size, then
/// [`READ_CYCLES`] cycles reading the finished table.
pub const FORMAL_DEPTH: u64 =
    2 + solve_cycles(FORMAL_MAX_TARGET, FORMAL_MAX_ADD + FORMAL_MAX_MUL) + READ_CYCLES;
/// Cycles after the slowest solve the check still reads the table.
const READ_CYCLES: u64 = 4;

/// Every game of the checked size: each subset of the moves, both rules, each target 0..=7.
fn games() -> Vec<HeapsRequest> {
    let mut out = Vec::new();
    for adds in 0..1u32 << FORMAL_MAX_ADD {
        for muls in 0..1u32 << FORMAL_MAX_MUL {
            for last_wins in [false, true] {
                for target in 0..=FORMAL_MAX_TARGET as u32 {
                    out.push(HeapsRequest {
                        adds,
                        muls,
                        target,
                        last_wins,
                    });
                }
            }
        }
    }
    out
}

/// The wrapper that drives `heaps_solver` (T = 7, A = 2, M = 3) and asserts its contract
/// against the monitor table (see the module docs).
pub fn formal_wrapper() -> String {
    let w = bits_for(FORMAL_MAX_TARGET);
    let (_, b) = heaps_widths(FORMAL_MAX_TARGET, FORMAL_MAX_ADD, FORMAL_MAX_MUL);
    let a = FORMAL_MAX_ADD as usize;
    let m = FORMAL_MAX_MUL as usize;
    // The entry: winning, depth (W + 1 bits), heap, move (B bits), blunder.
    let ew = 1 + (w + 1) + 1 + b + 1;
    let cw = bits_for(FORMAL_DEPTH + 1);
    let mut cases = String::new();
    let mut done_at = String::new();
    for g in games() {
        let key = format!(
            "{a}'d{}, {m}'d{}, 1'b{}, {w}'d{}",
            g.adds,
            g.muls,
            u8::from(g.last_wins),
            g.target
        );
        let moves = u64::from(g.adds.count_ones() + g.muls.count_ones());
        if !g.last_wins {
            // Whether the solve's length depends on the rule: no; one line per move set.
            done_at.push_str(&format!(
                "            {{{a}'d{}, {m}'d{}, {w}'d{}}}: done_at = {cw}'d{};\n",
                g.adds,
                g.muls,
                g.target,
                1 + solve_cycles(u64::from(g.target), moves)
            ));
        }
        let table = expected_heaps_table(&g, FORMAL_MAX_ADD);
        for ((qa, qb), e) in query_order(g.target).into_iter().zip(table) {
            cases.push_str(&format!(
                "            {{{key}, {w}'d{qa}, {w}'d{qb}}}: want_at = {{1'b{}, {}'d{}, 1'b{}, {b}'d{}, 1'b{}}};\n",
                u8::from(e.winning),
                w + 1,
                e.depth,
                e.heap,
                e.index,
                u8::from(e.blunder)
            ));
        }
    }
    format!(
        "\
// Generated by retrogate -- bounded model check of {HEAPS_SOLVER_MODULE} (T = {t}, A = {a}, M = {m})
// against the software solver's tables; see retrogate::bench::heaps_formal.
module {FORMAL_MODULE}(input clock);
    (* anyconst *) reg [{am}:0] adds_c;
    (* anyconst *) reg [{mm}:0] muls_c;
    (* anyconst *) reg rule_c;
    (* anyconst *) reg [{wm}:0] target_c;
    (* anyconst *) reg [{wm}:0] query_a;
    (* anyconst *) reg [{wm}:0] query_b;
    (* anyseq *) reg [{am}:0] other_adds;
    (* anyseq *) reg [{mm}:0] other_muls;
    (* anyseq *) reg other_rule;
    (* anyseq *) reg [{wm}:0] other_target;
    // The monitor: the software solver's entry for every game and position.
    function [{ewm}:0] want_at(input [{am}:0] a, input [{mm}:0] m, input r, input [{wm}:0] t,
                               input [{wm}:0] x, input [{wm}:0] y);
        case ({{a, m, r, t, x, y}})
{cases}            default: want_at = {ew}'d0;
        endcase
    endfunction
    // The cycle `done` rises on: 1 + the solve's documented cycle count.
    function [{cwm}:0] done_at(input [{am}:0] a, input [{mm}:0] m, input [{wm}:0] t);
        case ({{a, m, t}})
{done_at}            default: done_at = {cw}'d0;
        endcase
    endfunction
    reg [{cwm}:0] cyc = {cw}'d0;
    wire reset = cyc == {cw}'d0;
    wire start = cyc == {cw}'d1;
    wire busy;
    wire done;
    wire query_winning;
    wire [{w}:0] query_depth;
    wire query_heap;
    wire [{bm}:0] query_move;
    wire query_blunder;
    {HEAPS_SOLVER_MODULE} dut (
        .clock(clock), .reset(reset),
        .adds(start ? adds_c : other_adds), .muls(start ? muls_c : other_muls),
        .target(start ? target_c : other_target), .last_wins(start ? rule_c : other_rule),
        .start(start), .busy(busy), .done(done), .query_a(query_a), .query_b(query_b),
        .query_winning(query_winning), .query_depth(query_depth), .query_heap(query_heap),
        .query_move(query_move), .query_blunder(query_blunder)
    );
    always @(posedge clock) if (cyc != {{{cw}{{1'b1}}}}) cyc <= cyc + {cw}'d1;
    wire [{cwm}:0] finish = done_at(adds_c, muls_c, target_c);
    wire position = query_a != {w}'d0 && query_b != {w}'d0
        && {{1'b0, query_a}} + {{1'b0, query_b}} < {{1'b0, target_c}};
    always @* begin
        if (cyc >= {cw}'d2 && cyc < finish) assert(busy && !done);
        if (cyc >= {cw}'d2 && cyc >= finish) assert(done && !busy);
        if (cyc >= {cw}'d2 && done && position)
            assert({{query_winning, query_depth, query_heap, query_move, query_blunder}}
                == want_at(adds_c, muls_c, rule_c, target_c, query_a, query_b));
    end
endmodule
",
        t = FORMAL_MAX_TARGET,
        am = a - 1,
        mm = m - 1,
        wm = w - 1,
        ewm = ew - 1,
        cwm = cw - 1,
        bm = b - 1,
    )
}

/// Runs the check in `dir/formal`, on the emitted solver or on `verilog` (a `heaps_solver` of
/// T = 7, A = 2, M = 3: to check the level catches a broken design).
pub fn run_heaps_formal_level(
    dir: &Path,
    verilog: Option<String>,
) -> Result<SolverLevelReport, HeapsBenchError> {
    let start = Instant::now();
    let dir = Level::Formal
        .work_dir(dir)
        .map_err(|(path, source)| HeapsBenchError::Io { path, source })?;
    let verilog = match verilog {
        Some(v) => v,
        None => heaps_solver_verilog(FORMAL_MAX_TARGET, FORMAL_MAX_ADD, FORMAL_MAX_MUL)?,
    };
    let aiger = abc::wrapped_aiger(
        &dir,
        (HEAPS_SOLVER_MODULE, &verilog),
        (FORMAL_MODULE, &formal_wrapper()),
        &[],
    )?;
    let games = games();
    let positions: u64 = games.iter().map(|g| positions(u64::from(g.target))).sum();
    let mut report = SolverLevelReport {
        level: Level::Formal,
        case: BOUNDED_CASE,
        solves: games.len(),
        positions,
        max_cycles: solve_cycles(FORMAL_MAX_TARGET, FORMAL_MAX_ADD + FORMAL_MAX_MUL),
        max_bound: cycle_bound(FORMAL_MAX_TARGET, FORMAL_MAX_ADD + FORMAL_MAX_MUL),
        failure: None,
        elapsed: start.elapsed(),
        detail: String::new(),
    };
    let aiger = match aiger {
        Model::Ready(aiger) => aiger,
        // A loop would be cut into a free signal: no check over that.
        Model::Vacuous(why) => return Ok(report.not_checked(why, start)),
    };
    let run = abc::bmcs(&dir, &aiger, FORMAL_DEPTH, &format!("{FORMAL_MODULE}_bmcs"))?;
    report.failure = judge_bounded(&run, FORMAL_DEPTH, "&bmcs");
    report.detail = format!(
        "T = {FORMAL_MAX_TARGET}, A = {FORMAL_MAX_ADD}, M = {FORMAL_MAX_MUL}: every subset of the \
         five moves, both rules, every target and query; BOUNDED: bounded model check to depth \
         {FORMAL_DEPTH} with ABC &bmcs (yosys-abc, Glucose), past the slowest solve (every solve and its \
         table covered, the cycles after the depth not)"
    );
    report.elapsed = start.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_covers_the_slowest_solve_within_its_bound() {
        let slowest = solve_cycles(FORMAL_MAX_TARGET, FORMAL_MAX_ADD + FORMAL_MAX_MUL);
        assert!(FORMAL_DEPTH > 1 + slowest);
        for g in games() {
            let moves = u64::from(g.adds.count_ones() + g.muls.count_ones());
            let target = u64::from(g.target);
            assert!(
                solve_cycles(target, moves) <= cycle_bound(target, moves),
                "{g:?}"
            );
            assert!(solve_cycles(target, moves) <= slowest, "{g:?}");
        }
    }

    #[test]
    fn the_monitor_holds_every_game_and_position() {
        let w = formal_wrapper();
        let games = games();
        // 4 x 8 move sets, 2 rules, 8 targets.
        assert_eq!(games.len(), 512);
        let positions: u64 = games.iter().map(|g| positions(u64::from(g.target))).sum();
        assert_eq!(w.matches("}: want_at = ").count() as u64, positions);
        assert_eq!(w.matches("}: done_at = ").count(), 256);
        // x+1 alone, the last move wins, target 4: from (1, 1) the mover goes to (2, 1) or
        // (1, 2), whose mover then wins at once; so (1, 1) is lost in 2, by the first heap's
        // x+1 (heap 0, move 0), and every move there is a blunder.
        assert!(
            w.contains(
                "{2'd1, 3'd0, 1'b1, 3'd4, 3'd1, 3'd1}: want_at = {1'b0, 4'd2, 1'b0, 3'd0, 1'b1};"
            ),
            "{w}"
        );
    }

    /// The emitted solver passes through the plan, as `verify heaps-solver` runs it
    /// (tests/cli/verify.rs); here a mutant whose winner's ties go to the latest move fails.
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_broken_solver_fails() {
        let good = heaps_solver_verilog(FORMAL_MAX_TARGET, FORMAL_MAX_ADD, FORMAL_MAX_MUL).unwrap();
        let (from, to) = ("(s_depth > acc_depth)", "(s_depth >= acc_depth)");
        assert!(good.contains(from));
        let dir = crate::flow::testing::work_dir("heaps_formal_mutant");
        let report = run_heaps_formal_level(dir.path(), Some(good.replace(from, to))).unwrap();
        assert!(!report.passed(), "{report}");
        assert!(
            report
                .failure
                .as_deref()
                .unwrap()
                .contains("an assertion fails"),
            "{report}"
        );
    }
}
