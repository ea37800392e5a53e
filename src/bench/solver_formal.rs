//! The formal level of the on-chip solver: an unbounded proof, by k-induction, that
//! `sticks_solver` at C = 15, K = 3 fills its table exactly as the software solver does.
//!
//! A generated wrapper ([`formal_wrapper`]) resets the solver, pulses `start` once with a take
//! set, a rule and a count that are free constants (`anyconst`: any non-empty take set within
//! {1,2,3}, either rule, any count 0..=15), feeds free values (`anyseq`) on those inputs at
//! every other cycle (the solve must not look at them again), and holds `query` at a free
//! constant. It asserts, at every cycle:
//! * `busy` stays high from the start until `done`;
//! * `done` is high by the contract's bound, `(count + 1) * (K + 2) + 16` cycles after the edge
//!   that samples `start`;
//! * while `done` is high, the query outputs equal the software solver's entry for that take
//!   set, rule and position (the monitor: a case over every take set, rule and position,
//!   generated from [`expected_table`]) whenever `query <= count`;
//!
//! and, to make the induction's step hold, invariants over the solver's own state (read
//! through probes, [`PROBES`]: yosys reads no hierarchical references, so the wrapper's
//! undriven `f_*` wires are connected to the flattened solver's registers and table words by
//! the script, [`abc::aiger_probed`]):
//! * after reset it is idle; from the start on, exactly one of `busy` and `done` is high, and
//!   the sampled count and rule are the constants';
//! * while solving, the position `n` is at most the count, the phase at most K + 1, and the
//!   cycle counter is `2 + (K + 2) * n + phase` (so the bound follows); at phase 0 the take set
//!   under rotation is the constant's, the accumulators are clear and the read address is
//!   `n - 1`; at the finishing cycle `n` is the count and the cycle `2 + (K + 2) * (count + 1)`;
//!   once done, the read register holds the table word of `query`;
//! * the table entries below the solve's current position (every entry up to the count once
//!   it finishes) equal the monitor's.
//!
//! yosys turns the wrapper and the emitted solver into an AIGER model (the table memory as
//! flip-flops, 16 words); ABC (`yosys-abc`, shipped with Debian's yosys) checks the base case
//! with `bmc3` from the initial state for [`BASE_FRAMES`] cycles and the inductive step with
//! `ind -F` [`INDUCTION_FRAMES`] (every assertion at once): any [`INDUCTION_FRAMES`]
//! consecutive cycles where every assertion holds are followed by one where they hold too.
//! Together: every assertion holds on every cycle of every run, so the table is right for all
//! 14 games, every count and every position, and stays right forever. A step needs K + 3 = 6
//! frames: the state at phase 0 of a position determines the next K + 2 cycles, which write
//! that position's entry. The proof takes a few seconds (about 1 s of ABC's CPU time on the
//! project's machine; yosys-smtbmc with z3 on the same wrapper did not finish its first step
//! within minutes, and ABC's `pdr` without the invariants gave no verdict in 7 minutes).
//!
//! Should the step not close (a changed solver whose state the invariants no longer
//! describe), the level falls back to the bounded model check it used to be (`bmc3` to
//! [`FORMAL_DEPTH`] cycles, past the slowest solve's bound) and its report says it is bounded
//! only. The flattened design is checked for combinational loops first (yosys `check`): the
//! AIGER flow would cut one into a free signal, so a looping solver fails the level unchecked.

use std::path::Path;
use std::time::Instant;

use super::level::Level;
use super::solver::{expected_table, SolverBenchError, SolverLevelReport};
use crate::circuit::sticks_solver::{
    bits_for, cycle_bound, sticks_solver_verilog, SolveRequest, SOLVER_MODULE,
};
use crate::flow::abc::{self, Probe};
use crate::flow::yosys::Model;

/// Largest count of the checked configuration.
pub const FORMAL_MAX_COUNT: u64 = 15;
/// Largest take of the checked configuration.
pub const FORMAL_MAX_TAKE: u64 = 3;
/// Cycles the fallback bounded check covers: reset, start, then past the bound of the
/// longest solve.
pub const FORMAL_DEPTH: u64 = 2 + (FORMAL_MAX_COUNT + 1) * (FORMAL_MAX_TAKE + 2) + 16 + 2;
/// Most frames the inductive step (`ind -F`) may assume; it needs `K + 3`.
pub const INDUCTION_FRAMES: u64 = FORMAL_MAX_TAKE + 5;
/// Cycles from the initial state the base case (`bmc3`) checks: more than the step assumes.
pub const BASE_FRAMES: u64 = INDUCTION_FRAMES + 1;
/// Module name of the wrapper.
pub const FORMAL_MODULE: &str = "sticks_solver_formal";
/// Words of the table at C = 15.
const WORDS: u64 = FORMAL_MAX_COUNT + 1;

/// The solver's registers the invariants read: (wrapper wire, register of `sticks_solver`,
/// width), the table words `f_mem<i>` = `mem[i]` besides (see [`probes`]).
pub const PROBES: [(&str, &str, Width); 11] = [
    ("f_n", "n", Width::Count),
    ("f_phase", "phase", Width::Fixed(4)),
    ("f_addr", "addr", Width::Count),
    ("f_count", "count_r", Width::Count),
    ("f_pending", "pending", Width::Takes),
    ("f_under", "under", Width::Fixed(1)),
    ("f_last", "last_r", Width::Fixed(1)),
    ("f_finish", "finish_r", Width::Fixed(1)),
    ("f_have_move", "have_move", Width::Fixed(1)),
    ("f_have_loss", "have_loss", Width::Fixed(1)),
    ("f_rdata", "rdata", Width::Word),
];

/// The width of a probed register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// A count or position (`bits_for(C)`).
    Count,
    /// One bit per take (K).
    Takes,
    /// A table word (`1 + bits_for(C) + bits_for(K)`).
    Word,
    /// This many bits.
    Fixed(usize),
}

/// Every probe of the wrapper: [`PROBES`] and the table words, as `dut.<register>`.
pub fn probes() -> Vec<Probe> {
    PROBES
        .iter()
        .map(|(wire, reg, _)| Probe {
            wire: (*wire).to_owned(),
            signal: format!("dut.{reg}"),
        })
        .chain((0..WORDS).map(|i| Probe {
            wire: format!("f_mem{i}"),
            signal: format!("dut.mem[{i}]"),
        }))
        .collect()
}

/// The wrapper that drives `sticks_solver` (C = 15, K = 3) and asserts its contract against
/// the monitor table, with the invariants that make it inductive (see the module docs).
pub fn formal_wrapper() -> String {
    let w = bits_for(FORMAL_MAX_COUNT);
    let k = FORMAL_MAX_TAKE as usize;
    let m = bits_for(FORMAL_MAX_TAKE);
    let dw = 1 + w + m;
    let mut cases = String::new();
    for take_set in 1..(1u32 << k) {
        for last_wins in [false, true] {
            let table = expected_table(&SolveRequest {
                take_set,
                count: FORMAL_MAX_COUNT as u32,
                last_wins,
            });
            for (pos, e) in table.iter().enumerate() {
                cases.push_str(&format!(
                    "            {{{k}'d{take_set}, 1'b{rule}, {w}'d{pos}}}: want_at = {{1'b{win}, {w}'d{depth}, {m}'d{take}}};\n",
                    rule = u8::from(last_wins),
                    win = u8::from(e.winning),
                    depth = e.depth,
                    take = e.take,
                ));
            }
        }
    }
    let mut probe_wires = String::new();
    for (wire, _, width) in PROBES {
        let bits = match width {
            Width::Count => w,
            Width::Takes => k,
            Width::Word => dw,
            Width::Fixed(n) => n,
        };
        let range = if bits == 1 {
            String::new()
        } else {
            format!("[{}:0] ", bits - 1)
        };
        probe_wires.push_str(&format!("    (* keep *) wire {range}{wire};\n"));
    }
    let mut words = String::new();
    let mut table_invariants = String::new();
    for i in 0..WORDS {
        probe_wires.push_str(&format!(
            "    (* keep *) wire [{dwm}:0] f_mem{i};\n",
            dwm = dw - 1
        ));
        words.push_str(&format!("    assign f_mem[{i}] = f_mem{i};\n"));
        table_invariants.push_str(&format!(
            "        if ((solving && {w}'d{i} < f_n) || (solved && {w}'d{i} <= count_c))\n            \
             assert(f_mem{i} == want_at(set_c, rule_c, {w}'d{i}));\n"
        ));
    }
    // The cycle counter saturates well past the depth; 8 bits hold FORMAL_DEPTH.
    let k2 = FORMAL_MAX_TAKE + 2;
    format!(
        "\
// Generated by retrogate -- k-induction proof of {SOLVER_MODULE} (C = {c}, K = {k}) against
// the software solver's tables; see retrogate::bench::solver_formal.
module {FORMAL_MODULE}(input clock);
    (* anyconst *) reg [{km}:0] set_c;
    (* anyconst *) reg rule_c;
    (* anyconst *) reg [{wm}:0] count_c;
    (* anyconst *) reg [{wm}:0] query;
    (* anyseq *) reg [{km}:0] other_set;
    (* anyseq *) reg [{wm}:0] other_count;
    (* anyseq *) reg other_rule;
    // Probes: the solver's state, connected to these wires by the yosys script.
{probe_wires}    wire [{dwm}:0] f_mem [0:{last}];
{words}    // The monitor: the software solver's entry for every take set, rule and position.
    function [{dwm}:0] want_at(input [{km}:0] s, input r, input [{wm}:0] p);
        case ({{s, r, p}})
{cases}            default: want_at = {dw}'d0;
        endcase
    endfunction
    reg [7:0] cyc = 8'd0;
    wire reset = cyc == 8'd0;
    wire start = cyc == 8'd1;
    wire busy;
    wire done;
    wire query_winning;
    wire [{wm}:0] query_depth;
    wire [{mm}:0] query_take;
    {SOLVER_MODULE} dut (
        .clock(clock), .reset(reset), .take_set(start ? set_c : other_set),
        .count(start ? count_c : other_count), .last_wins(start ? rule_c : other_rule),
        .start(start), .busy(busy), .done(done), .query(query),
        .query_winning(query_winning), .query_depth(query_depth), .query_take(query_take)
    );
    always @(posedge clock) if (cyc != 8'hff) cyc <= cyc + 8'd1;
    wire [{dwm}:0] want = want_at(set_c, rule_c, query);
    wire [7:0] bound = ({{{pad}'d0, count_c}} + 8'd1) * 8'd{k2} + 8'd16;
    // The contract.
    always @* begin
        assume(set_c != {k}'d0);
        if (cyc >= 8'd2 && !done) assert(busy);
        if (cyc == 8'd1 + bound) assert(done);
        if (cyc >= 8'd1 && done && query <= count_c)
            assert({{query_winning, query_depth, query_take}} == want);
    end
    // The invariants that make the contract inductive.
    wire alive = cyc != 8'd0;
    wire solving = alive && busy && !f_finish;
    wire solved = alive && (f_finish || done);
    wire [7:0] n8 = {{{pad}'d0, f_n}};
    wire [7:0] count8 = {{{pad}'d0, count_c}};
    always @* begin
        if (cyc == 8'd1) assert(!busy && !done && !f_finish);
        if (cyc >= 8'd2) assert(busy != done && f_count == count_c && f_last == rule_c);
        if (alive && !busy) assert(!f_finish);
        if (solving) assert(f_n <= count_c && f_phase <= 4'd{write});
        if (solving) assert(cyc == 8'd2 + 8'd{k2} * n8 + {{4'd0, f_phase}});
        if (solving && f_phase == 4'd0)
            assert(f_pending == set_c && !f_have_move && !f_have_loss
                && f_under == (f_n == {w}'d0) && f_addr == (f_n == {w}'d0 ? {w}'d0 : f_n - {w}'d1));
        if (alive && f_finish)
            assert(f_n == count_c && f_phase == 4'd0 && cyc == 8'd2 + 8'd{k2} * (count8 + 8'd1));
        if (alive && done) assert(cyc >= 8'd3 + 8'd{k2} * (count8 + 8'd1) && f_rdata == f_mem[query]);
{table_invariants}    end
endmodule
",
        c = FORMAL_MAX_COUNT,
        km = k - 1,
        wm = w - 1,
        mm = m - 1,
        dwm = dw - 1,
        pad = 8 - w,
        last = WORDS - 1,
        write = FORMAL_MAX_TAKE + 1,
    )
}

/// Runs the proof in `dir/formal`, on the emitted solver or on `verilog` (a `sticks_solver`
/// of C = 15, K = 3: to check the level catches a broken design).
pub fn run_formal_level(
    dir: &Path,
    verilog: Option<String>,
) -> Result<SolverLevelReport, SolverBenchError> {
    let start = Instant::now();
    let dir = Level::Formal
        .work_dir(dir)
        .map_err(|(path, source)| SolverBenchError::Io { path, source })?;
    let verilog = match verilog {
        Some(v) => v,
        None => sticks_solver_verilog(FORMAL_MAX_COUNT, FORMAL_MAX_TAKE)?,
    };
    let aiger = abc::wrapped_aiger(
        &dir,
        (SOLVER_MODULE, &verilog),
        (FORMAL_MODULE, &formal_wrapper()),
        &probes(),
    )?;
    let scope = format!(
        "C = {FORMAL_MAX_COUNT}, K = {FORMAL_MAX_TAKE}: every take set within {{1,2,3}}, both rules, every count and query"
    );
    let mut report = SolverLevelReport {
        level: Level::Formal,
        case: "formal",
        solves: 0,
        positions: 0,
        max_cycles: 0,
        max_bound: cycle_bound(FORMAL_MAX_COUNT, FORMAL_MAX_TAKE),
        failure: None,
        elapsed: start.elapsed(),
        detail: scope.clone(),
    };
    let aiger = match aiger {
        Model::Ready(aiger) => aiger,
        // A loop would be cut into a free signal: no check over that.
        Model::Vacuous(why) => return Ok(report.not_checked(why, start)),
    };
    let base = abc::bmc3(&dir, &aiger, BASE_FRAMES, &format!("{FORMAL_MODULE}_base"))?;
    let step = match judge_bounded(&base, BASE_FRAMES, "bmc3") {
        Some(failure) => {
            report.failure = Some(failure);
            report.elapsed = start.elapsed();
            return Ok(report);
        }
        None => abc::induction(
            &dir,
            &aiger,
            INDUCTION_FRAMES,
            &format!("{FORMAL_MODULE}_ind"),
        )?,
    };
    match step.verdict {
        abc::Verdict::Proved => {
            report.detail = format!(
                "{scope}; proved for all cycles by k-induction with ABC (yosys-abc): base case bmc3 to depth {BASE_FRAMES}, inductive step ind -F {INDUCTION_FRAMES}, with invariants over the solver's state"
            );
        }
        verdict => {
            // No proof: the bounded check to past the slowest solve, said to be only that.
            let why = match verdict {
                abc::Verdict::Undecided { reason } => reason,
                other => format!("{other:?}"),
            };
            let run = abc::bmc3(&dir, &aiger, FORMAL_DEPTH, &format!("{FORMAL_MODULE}_bmc3"))?;
            report.failure = judge_bounded(&run, FORMAL_DEPTH, "bmc3");
            report.detail = format!(
                "{scope}; BOUNDED ONLY, not proved for all cycles: bounded model check to depth {FORMAL_DEPTH} with ABC bmc3 (yosys-abc); {why} (see {})",
                step.log.display()
            );
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// The level's failure, if any, from a `bmc3` verdict over `frames` cycles: `None` when no
/// assertion (of the contract or of the invariants) failed within them.
pub(crate) fn judge_bounded(run: &abc::Run, frames: u64, engine: &str) -> Option<String> {
    let log = run.log.display();
    match &run.verdict {
        abc::Verdict::HoldsFor { frames: f } if *f == frames => None,
        abc::Verdict::Failed { output, frame } => Some(format!(
            "an assertion fails: assertion {output} of the wrapper in cycle {frame} ({engine}; see {log})"
        )),
        abc::Verdict::Undecided { reason } => Some(format!("{reason}; see {log}")),
        other => Some(format!(
            "{engine} reached no verdict for {frames} cycles ({other:?}); see {log}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_depth_covers_the_slowest_bound() {
        assert!(FORMAL_DEPTH > 1 + cycle_bound(FORMAL_MAX_COUNT, FORMAL_MAX_TAKE));
        // The wrapper's 8-bit cycle counter reaches it.
        const { assert!(FORMAL_DEPTH < 255) };
        // A position takes K + 2 cycles; the step needs one more, the base case more still.
        const { assert!(INDUCTION_FRAMES > FORMAL_MAX_TAKE + 2) };
        const { assert!(BASE_FRAMES > INDUCTION_FRAMES) };
    }

    /// Every probe names a register (or table word) the emitted solver declares, with the
    /// width the wrapper gives its wire.
    #[test]
    fn the_probes_name_the_solvers_registers() {
        let solver = sticks_solver_verilog(FORMAL_MAX_COUNT, FORMAL_MAX_TAKE).unwrap();
        let wrapper = formal_wrapper();
        for (wire, reg, _) in PROBES {
            let decl = solver
                .lines()
                .find(|l| {
                    let l = l.trim();
                    l.starts_with("reg ") && l.ends_with(&format!(" {reg};"))
                })
                .unwrap_or_else(|| panic!("sticks_solver declares no register {reg}"));
            let range = decl.trim()["reg ".len()..].split(' ').next().unwrap();
            let range = if range.starts_with('[') {
                format!("{range} ")
            } else {
                String::new()
            };
            assert!(
                wrapper.contains(&format!("(* keep *) wire {range}{wire};")),
                "{wire} for {decl}"
            );
        }
        assert!(solver.contains("reg [6:0] mem [0:15];"), "{solver}");
        assert_eq!(probes().len(), PROBES.len() + 16);
        assert_eq!(probes()[PROBES.len() + 3].signal, "dut.mem[3]");
    }

    #[test]
    fn the_monitor_holds_every_game_and_position() {
        let w = formal_wrapper();
        // 7 take sets, 2 rules, 16 positions.
        assert_eq!(w.matches("}: want_at = ").count(), 7 * 2 * 16);
        // Fort Boyard at 5 sticks: lost, depth 3, take 1 (see expected_table's test).
        assert!(
            w.contains("{3'd7, 1'b0, 4'd5}: want_at = {1'b0, 4'd3, 2'd1};"),
            "{w}"
        );
        // Every table word below the position (or up to the count once solved) is checked.
        assert_eq!(w.matches("assert(f_mem").count(), 16);
    }

    #[test]
    fn a_bounded_check_passes_only_on_bmc3_holding_to_its_depth() {
        let run = |verdict| abc::Run {
            verdict,
            log: PathBuf::from("log"),
        };
        let judge = |verdict| judge_bounded(&run(verdict), FORMAL_DEPTH, "bmc3");
        assert_eq!(
            judge(abc::Verdict::HoldsFor {
                frames: FORMAL_DEPTH
            }),
            None
        );
        assert!(judge(abc::Verdict::HoldsFor { frames: 12 }).is_some());
        let fail = judge(abc::Verdict::Failed {
            output: 2,
            frame: 23,
        });
        assert!(fail.unwrap().contains("cycle 23"));
        assert!(judge(abc::Verdict::Undecided {
            reason: "pdr gave no verdict".into()
        })
        .is_some());
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn the_emitted_solver_passes_and_a_broken_one_fails() {
        let dir = crate::flow::testing::work_dir("solver_formal");
        let report = run_formal_level(dir.path(), None).unwrap();
        assert!(report.passed(), "{report}");
        // The induction closed: a proof, not the bounded fallback.
        assert!(report.detail.contains("proved for all cycles"), "{report}");
        assert!(!report.detail.contains("BOUNDED ONLY"), "{report}");
        let good = sticks_solver_verilog(FORMAL_MAX_COUNT, FORMAL_MAX_TAKE).unwrap();
        let (from, to) = ("(rd_depth > acc_depth)", "(rd_depth >= acc_depth)");
        assert!(good.contains(from));
        let dir = crate::flow::testing::work_dir("solver_formal_mutant");
        let report = run_formal_level(dir.path(), Some(good.replace(from, to))).unwrap();
        assert!(!report.passed(), "{report}");
    }
}
