//! The heap-game controller's safety properties, proved for every input sequence by ABC's
//! property-directed reachability (`pdr`), on the emitted `heaps_game` of the `heaps` board
//! design ([`BOARD_CONTROLLER`]: T = 63, A = 2, M = 3, a think pause of 500 ticks) and on the
//! Go Board's compact one ([`GO_BOARD_CONTROLLER`]); the tests' mutants are checked on small
//! ones ([`SMALL_CONTROLLER`], [`SMALL_COMPACT_CONTROLLER`]).
//!
//! The compact controller reads the rules live and makes its moves with its solver's successor
//! unit: its abstract solver computes that unit's outputs whenever it is not busy (free while
//! it is), and the wrapper assumes what the compact controller's parents guarantee: from the
//! `new_game` (or `reset`) edge until the game is over, the rules and `machine_first` stay as
//! they were at that edge.
//!
//! The controller is proved against the solver's port contract, not against one solver: the
//! emitted file's solver submodule (`heaps_game$solver`) is replaced by an abstract one that
//! samples the rules at `start`, raises `done` whenever it likes (and keeps it until the next
//! `start`), registers the query like the real one's synchronous read, and answers any word at
//! all, except that at a position of the game (both heaps at least 1, their sum below the
//! target) with some move allowed, once `done`, its chosen move is one of the allowed moves
//! (an assumption). The real solver meets that contract: its table equals the software
//! solver's at levels 1 to 5, whose chosen moves are allowed moves. Every other input
//! (`reset`, `new_game`, the rules, the start, the person's moves, `tick`, the probe) is free
//! on every cycle.
//!
//! Asserted at every cycle, at the controller's ports ([`PROPERTIES`]):
//! 1. no illegal move: whenever the heaps change outside a new game, exactly one heap changed,
//!    by one of the allowed moves of the game the controller sampled (the machine's moves and
//!    the person's alike);
//! 2. the game ends exactly at the target: while a game is in progress the heaps sum to less
//!    than the target, and after every move the game is over exactly when they reach it;
//! 3. a game in progress only ends by a move (or a new game);
//! 4. the winner is announced correctly: when a move ends the game, `human_won` is the rule
//!    (`last_wins`) for the person's move and its opposite for the machine's.
//!
//! yosys writes the wrapper, the controller and the abstract solver as AIGER ([`abc::aiger`]),
//! after a check for combinational loops; ABC's `pdr` proves every assertion at once or finds
//! the first failing one, each controller with the run found fastest on it
//! ([`PropsController::engine`]: the Go Board's after ABC's `&scorr`,
//! [`abc::PdrEngine::AfterScorr`]; the Alchitry Cu's reusing its proof obligations,
//! [`abc::PdrEngine::ReusingObligations`]). The test suite also checks that mutants of the
//! controller fail, each on its property: the winner's rule inverted (4), the end compared
//! with `>` (2), the machine playing the person's move index instead of the solver's (1).

use std::path::Path;
use std::time::{Duration, Instant};

use super::heaps_solver::HeapsBenchError;
use super::level::Level;
use super::solver::SolverLevelReport;
use crate::circuit::heaps_game::{
    heaps_game_compact_verilog, heaps_game_verilog, HEAPS_GAME_MODULE,
};
use crate::circuit::heaps_solver::heaps_widths;
use crate::circuit::sticks_solver::bits_for;
use crate::flow::abc;
use crate::flow::yosys::Model;

/// A controller whose properties are proved: its solver's sizes and its think pause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropsController {
    /// Largest target.
    pub max_target: u64,
    /// Largest addition.
    pub max_add: u64,
    /// Multiplications (`x*2` to `x*(M+1)`).
    pub max_mul: u64,
    /// Ticks of the think pause.
    pub think_ticks: u64,
    /// The compact controller ([`HeapsGame::compact`](crate::circuit::heaps_game::HeapsGame::compact)),
    /// proved under its condition: the rules held from `new_game` until the game is over.
    pub compact: bool,
    /// The `pdr` run that proves it fastest.
    pub engine: abc::PdrEngine,
}

/// The controller of the `heaps` board design (`HeapsGame<6, 7, 2, 3, 3, 8>` in
/// `circuit::top::heaps`, the board's 500-tick think pause): the one `verify heaps-solver`
/// proves. ABC's `pdr` proved it in 105 s, `pdr -p` in 70 s (2026-12-05; see
/// [`abc::PdrEngine::ReusingObligations`]).
pub const BOARD_CONTROLLER: PropsController = PropsController {
    max_target: 63,
    max_add: 2,
    max_mul: 3,
    think_ticks: 500,
    compact: false,
    engine: abc::PdrEngine::ReusingObligations,
};

/// The controller of the Go Board's `heaps` design (`HeapsGame<6, 7, 1, 3, 2, 8>`, compact, in
/// `circuit::top::heaps_pages`, its 32-tick think pause): proved by `verify heaps-solver`
/// beside [`BOARD_CONTROLLER`], in 16 s after `&scorr` (plain `pdr`: 108 s; see
/// [`abc::PdrEngine::AfterScorr`]).
pub const GO_BOARD_CONTROLLER: PropsController = PropsController {
    max_target: 63,
    max_add: 1,
    max_mul: 3,
    think_ticks: 32,
    compact: true,
    engine: abc::PdrEngine::AfterScorr,
};

/// A small controller (T = 7, a think pause of 2 ticks), proved in seconds by plain `pdr`: the
/// tests check on it that broken controllers fail, each on its property. (A mutant can break
/// more than one, and which one an engine reports first is the engine's: for the end compared
/// with `>`, `pdr -p` reports a counterexample to property 1, plain `pdr` one to property 2.)
pub const SMALL_CONTROLLER: PropsController = PropsController {
    max_target: 7,
    max_add: 2,
    max_mul: 3,
    think_ticks: 2,
    compact: false,
    engine: abc::PdrEngine::Plain,
};

/// [`SMALL_CONTROLLER`], compact, proved like [`GO_BOARD_CONTROLLER`]: the tests check its
/// mutants.
pub const SMALL_COMPACT_CONTROLLER: PropsController = PropsController {
    compact: true,
    engine: abc::PdrEngine::AfterScorr,
    ..SMALL_CONTROLLER
};

impl PropsController {
    /// W (bits for the target), B (bits for a move index), A and M.
    fn widths(&self) -> (usize, usize, usize, usize) {
        let (_, b) = heaps_widths(self.max_target, self.max_add, self.max_mul);
        (
            bits_for(self.max_target),
            b,
            self.max_add as usize,
            self.max_mul as usize,
        )
    }

    /// Its emitted Verilog.
    pub fn verilog(&self) -> Result<String, HeapsBenchError> {
        let emit = if self.compact {
            heaps_game_compact_verilog
        } else {
            heaps_game_verilog
        };
        Ok(emit(
            self.max_target,
            self.max_add,
            self.max_mul,
            self.think_ticks,
        )?)
    }
}
/// Time ABC's `pdr` is given.
pub const PDR_LIMIT: Duration = Duration::from_secs(300);
/// Module name of the wrapper.
pub const PROPS_MODULE: &str = "heaps_game_properties";
/// The report's case name.
pub const PROPS_CASE: &str = "heaps_game";
/// The level's name in reports.
pub const LEVEL_NAME: &str = "heaps_game properties (ABC pdr)";
/// The properties, in the order of the wrapper's assertions.
pub const PROPERTIES: [&str; 4] = [
    "no illegal move: a changed position is one allowed move away",
    "the game ends exactly at the target",
    "a game in progress ends only by a move or a new game",
    "the winner is announced correctly",
];

/// The solver submodule's name in the emitted controller.
const SOLVER: &str = "heaps_game$solver";

/// The emitted controller `verilog` (of `controller`'s sizes) with its solver replaced by the
/// abstract one (see the module docs); `None` when the file does not hold the solver submodule
/// where expected.
pub fn with_abstract_solver(verilog: &str, controller: &PropsController) -> Option<String> {
    let start = verilog.find(&format!("module {SOLVER}("))?;
    let end_marker = format!("endmodule // {SOLVER}");
    let end = verilog[start..].find(&end_marker)? + start + end_marker.len();
    Some(format!(
        "{}{}{}",
        &verilog[..start],
        abstract_solver(controller),
        &verilog[end..]
    ))
}

/// The abstract solver of `controller`'s sizes (see the module docs).
fn abstract_solver(controller: &PropsController) -> String {
    let (w, b, a, m) = controller.widths();
    let moves = a + m;
    let (mover_ports, mover) = if controller.compact {
        (
            ",mover_heap,mover_a,mover_b,mover_index,mover_low,mover_high,mover_ends",
            mover_unit(controller),
        )
    } else {
        ("", String::new())
    };
    format!(
        "\
// The solver's port contract, abstracted (retrogate::bench::heaps_game_properties).
module {SOLVER}(clock,reset,adds,muls,target,last_wins,start,busy,done,query_a,query_b,query_winning,query_depth,query_heap,query_move,query_blunder{mover_ports});
    input wire clock;
    input wire reset;
    input wire [{am}:0] adds;
    input wire [{mm}:0] muls;
    input wire [{wm}:0] target;
    input wire last_wins;
    input wire start;
    output reg busy;
    output reg done;
    input wire [{wm}:0] query_a;
    input wire [{wm}:0] query_b;
    output reg query_winning;
    output reg [{w}:0] query_depth;
    output reg query_heap;
    output reg [{bm}:0] query_move;
    output reg query_blunder;
    (* anyseq *) reg finish;
    (* anyseq *) reg any_winning;
    (* anyseq *) reg [{w}:0] any_depth;
    (* anyseq *) reg any_heap;
    (* anyseq *) reg [{bm}:0] any_move;
    (* anyseq *) reg any_blunder;
    reg [{movesm}:0] allowed_r;
    reg [{wm}:0] target_r;
    reg [{wm}:0] a_r;
    reg [{wm}:0] b_r;
    initial begin
        busy = 1'b0;
        done = 1'b0;
        allowed_r = {moves}'d0;
        target_r = {w}'d0;
        a_r = {w}'d0;
        b_r = {w}'d0;
        query_winning = 1'b0;
        query_depth = {w1}'d0;
        query_heap = 1'b0;
        query_move = {b}'d0;
        query_blunder = 1'b0;
    end
    always @(posedge clock) begin
        if (reset) begin
            busy <= 1'b0;
            done <= 1'b0;
        end else if (start) begin
            busy <= 1'b1;
            done <= 1'b0;
            allowed_r <= {{muls, adds}};
            target_r <= target;
        end else if (busy && finish) begin
            busy <= 1'b0;
            done <= 1'b1;
        end
        a_r <= query_a;
        b_r <= query_b;
        query_winning <= any_winning;
        query_depth <= any_depth;
        query_heap <= any_heap;
        query_move <= any_move;
        query_blunder <= any_blunder;
    end
    // The contract: at a position of the game with a move allowed, the chosen move is allowed.
    wire in_game = a_r != {w}'d0 && b_r != {w}'d0
        && {{1'b0, a_r}} + {{1'b0, b_r}} < {{1'b0, target_r}};
    wire [{movesm}:0] chosen = allowed_r >> query_move;
    always @* begin
        if (done && in_game && allowed_r != {moves}'d0)
            assume(query_move < {b}'d{moves} && chosen[0]);
    end{mover}
endmodule // {SOLVER}",
        am = a - 1,
        mm = m - 1,
        wm = w - 1,
        bm = b - 1,
        w1 = w + 1,
        movesm = moves - 1,
    )
}

/// The compact solver's successor unit, lent to the controller: while the solver is busy its
/// outputs are anything at all; otherwise they are the move `mover_index` on the heap
/// `mover_heap` of (`mover_a`, `mover_b`), computed as the real unit computes it, and whether
/// the heaps then sum to at least the live `target`.
fn mover_unit(controller: &PropsController) -> String {
    let (w, b, a, m) = controller.widths();
    let mut cases = String::new();
    for i in 0..a + m {
        let value = if i < a {
            format!("x + {}'d{}", w + 2, i + 1)
        } else {
            format!("x * {}'d{}", w + 2, i - a + 2)
        };
        cases.push_str(&format!("            {b}'d{i}: moved = {value};\n"));
    }
    format!(
        "
    input wire mover_heap;
    input wire [{wm}:0] mover_a;
    input wire [{wm}:0] mover_b;
    input wire [{bm}:0] mover_index;
    output reg [{wm}:0] mover_low;
    output reg [1:0] mover_high;
    output reg mover_ends;
    (* anyseq *) reg [{wm}:0] any_low;
    (* anyseq *) reg [1:0] any_high;
    (* anyseq *) reg any_ends;
    wire [{hm}:0] x = {{2'd0, mover_heap ? mover_b : mover_a}};
    wire [{hm}:0] other = {{2'd0, mover_heap ? mover_a : mover_b}};
    reg [{hm}:0] moved;
    always @* begin
        moved = {h}'d0;
        case (mover_index)
{cases}            default: moved = {h}'d0;
        endcase
        if (busy) begin
            mover_low = any_low;
            mover_high = any_high;
            mover_ends = any_ends;
        end else begin
            mover_low = moved[{wm}:0];
            mover_high = moved[{hm}:{w}];
            mover_ends = {{1'b0, moved}} + {{1'b0, other}} >= {{{pad}'d0, target}};
        end
    end",
        wm = w - 1,
        bm = b - 1,
        h = w + 2,
        hm = w + 1,
        pad = 3,
    )
}

/// The wrapper of `controller`: free inputs into `heaps_game`, and the properties at its ports.
pub fn wrapper(controller: &PropsController) -> String {
    let w = bits_for(controller.max_target);
    let (_, b) = heaps_widths(
        controller.max_target,
        controller.max_add,
        controller.max_mul,
    );
    let h = w + 2;
    // The heaps compared at `x` bits, where x*(M+1) of any h-bit heap fits (no wrap-around),
    // and summed at x + 1.
    let x = h + bits_for(controller.max_mul + 1);
    let a = controller.max_add as usize;
    let m = controller.max_mul as usize;
    let moves = a + m;
    // The compact controller reads the rules live: it is proved for the parents that hold
    // them from the start of a game until it is over (the Go Board's pages).
    let held = if controller.compact {
        "
    always @* begin
        if (!game_over && !starting)
            assume({muls, adds} == allowed && target == target_r && last_wins == last_r
                && machine_first == first_r);
    end"
    } else {
        ""
    };
    let mut ops = Vec::new();
    for i in 0..a {
        ops.push(format!("(al[{i}] && y == x + {x}'d{})", i + 1));
    }
    for i in 0..m {
        ops.push(format!("(al[{}] && y == x * {x}'d{})", a + i, i + 2));
    }
    format!(
        "\
// Generated by retrogate -- the safety properties of {HEAPS_GAME_MODULE} (T = {t}, A = {a}, M = {m}),
// proved by ABC pdr; see retrogate::bench::heaps_game_properties.
module {PROPS_MODULE}(input clock);
    (* anyseq *) reg tick;
    (* anyseq *) reg reset;
    (* anyseq *) reg new_game;
    (* anyseq *) reg [{am}:0] adds;
    (* anyseq *) reg [{mm}:0] muls;
    (* anyseq *) reg [{wm}:0] target;
    (* anyseq *) reg last_wins;
    (* anyseq *) reg [{wm}:0] start_a;
    (* anyseq *) reg [{wm}:0] start_b;
    (* anyseq *) reg machine_first;
    (* anyseq *) reg heap;
    (* anyseq *) reg [{bm}:0] move_index;
    (* anyseq *) reg move_valid;
    (* anyseq *) reg probe;
    (* anyseq *) reg [{wm}:0] probe_a;
    (* anyseq *) reg [{wm}:0] probe_b;
    wire [{hm}:0] heap_a;
    wire [{hm}:0] heap_b;
    wire human_turn;
    wire machine_heap;
    wire [{bm}:0] machine_move;
    wire solving;
    wire game_over;
    wire human_won;
    wire illegal;
    wire probe_winning;
    wire [{w}:0] probe_depth;
    wire probe_blunder;
    {HEAPS_GAME_MODULE} dut (
        .clock(clock), .tick(tick), .reset(reset), .adds(adds), .muls(muls), .target(target),
        .last_wins(last_wins), .start_a(start_a), .start_b(start_b),
        .machine_first(machine_first), .new_game(new_game), .heap(heap),
        .move_index(move_index), .move_valid(move_valid), .probe(probe), .probe_a(probe_a),
        .probe_b(probe_b), .heap_a(heap_a), .heap_b(heap_b), .human_turn(human_turn),
        .machine_heap(machine_heap), .machine_move(machine_move), .solving(solving),
        .game_over(game_over), .human_won(human_won), .illegal(illegal),
        .probe_winning(probe_winning), .probe_depth(probe_depth),
        .probe_blunder(probe_blunder)
    );
    // The game as the controller samples it, and the previous cycle's outputs.
    reg [{movesm}:0] allowed = {moves}'d0;
    reg [{wm}:0] target_r = {w}'d0;
    reg last_r = 1'b0;
    reg first_r = 1'b0;
    reg [{hm}:0] pa = {h}'d0;
    reg [{hm}:0] pb = {h}'d0;
    reg p_human = 1'b0;
    reg p_solving = 1'b0;
    reg p_over = 1'b1;
    reg p_starting = 1'b0;
    wire starting = reset | new_game;
    always @(posedge clock) begin
        if (starting) begin
            allowed <= {{muls, adds}};
            target_r <= target;
            last_r <= last_wins;
            first_r <= machine_first;
        end
        pa <= heap_a;
        pb <= heap_b;
        p_human <= human_turn;
        p_solving <= solving;
        p_over <= game_over;
        p_starting <= starting;
    end
    // y is x after one allowed move.
    function step(input [{movesm}:0] al, input [{xm}:0] x, input [{xm}:0] y);
        step = y != x && ({ops});
    endfunction
    wire [{xm}:0] pa_x = {{{pad}'d0, pa}};
    wire [{xm}:0] pb_x = {{{pad}'d0, pb}};
    wire [{xm}:0] a_x = {{{pad}'d0, heap_a}};
    wire [{xm}:0] b_x = {{{pad}'d0, heap_b}};
    wire [{x}:0] sum = {{1'b0, a_x}} + {{1'b0, b_x}};
    wire [{x}:0] target_x = {{{pad_target}'d0, target_r}};
    wire in_progress = !solving && !game_over;
    wire p_in_progress = !p_over && !p_solving && !p_starting;
    wire moved = p_in_progress && (heap_a != pa || heap_b != pb);
    wire one_step = (b_x == pb_x && step(allowed, pa_x, a_x)) || (a_x == pa_x && step(allowed, pb_x, b_x));
    always @* begin
        if (moved) assert(one_step);
        if (in_progress || moved) assert(in_progress == (sum < target_x));
        if (p_in_progress && !in_progress) assert(moved);
        if (moved && game_over) assert(human_won == (p_human ? last_r : !last_r));
    end{held}
endmodule
",
        t = controller.max_target,
        am = a - 1,
        mm = m - 1,
        wm = w - 1,
        bm = b - 1,
        hm = h - 1,
        movesm = moves - 1,
        xm = x - 1,
        pad = x - h,
        pad_target = x + 1 - w,
        ops = ops.join(" || "),
    )
}

/// Proves the properties in `dir/properties` on the emitted `controller`, or on `verilog` (a
/// `heaps_game` of `controller`'s sizes: to check the level catches a broken controller).
pub fn run_heaps_game_properties(
    dir: &Path,
    controller: &PropsController,
    verilog: Option<String>,
) -> Result<SolverLevelReport, HeapsBenchError> {
    let start = Instant::now();
    let dir = Level::Properties
        .work_dir(dir)
        .map_err(|(path, source)| HeapsBenchError::Io { path, source })?;
    // The compact controller's files in a folder of their own, beside the plain one's.
    let dir = if controller.compact {
        let sub = dir.join("compact");
        std::fs::create_dir_all(&sub).map_err(|source| HeapsBenchError::Io {
            path: sub.clone(),
            source,
        })?;
        sub
    } else {
        dir
    };
    let verilog = match verilog {
        Some(v) => v,
        None => controller.verilog()?,
    };
    let PropsController {
        max_target,
        max_add,
        max_mul,
        think_ticks,
        compact,
        engine,
    } = *controller;
    let mut report = SolverLevelReport {
        level: Level::Properties,
        case: PROPS_CASE,
        solves: 0,
        positions: 0,
        max_cycles: 0,
        max_bound: 0,
        failure: None,
        elapsed: Duration::ZERO,
        detail: format!(
            "{HEAPS_GAME_MODULE} (T = {max_target}, A = {max_add}, M = {max_mul}, think \
             {think_ticks} ticks{}) against the solver's port contract: {}",
            if compact {
                ", compact: the rules held during a game"
            } else {
                ""
            },
            PROPERTIES.join("; ")
        ),
    };
    let Some(abstracted) = with_abstract_solver(&verilog, controller) else {
        return Ok(report.not_checked(
            format!(
                "the Verilog has no `module {SOLVER}(` ... `endmodule // {SOLVER}` to replace \
                 with the abstract solver"
            ),
            start,
        ));
    };
    let aiger = abc::wrapped_aiger(
        &dir,
        (HEAPS_GAME_MODULE, &abstracted),
        (PROPS_MODULE, &wrapper(controller)),
        &[],
    )?;
    let aiger = match aiger {
        Model::Ready(aiger) => aiger,
        // A loop would be cut into a free signal: no check over that.
        Model::Vacuous(why) => return Ok(report.not_checked(why, start)),
    };
    let run = engine.run(&dir, &aiger, PDR_LIMIT, &engine.file_name(PROPS_MODULE))?;
    let engine = engine.describe();
    let log = run.log.display();
    match &run.verdict {
        abc::Verdict::Proved => {
            report.detail.push_str(&format!(
                "; proved for every input sequence ({engine}, yosys-abc)"
            ));
        }
        abc::Verdict::Failed { output, frame } => {
            let name = PROPERTIES.get(*output).copied().unwrap_or("an assertion");
            report.failure = Some(format!(
                "property {} fails ({name}) in cycle {frame} ({engine}; see {log})",
                output + 1
            ));
        }
        abc::Verdict::Undecided { reason } => {
            report.failure = Some(format!("no proof: {reason}; see {log}"));
        }
        other => {
            report.failure = Some(format!("no proof ({other:?}); see {log}"));
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_abstract_solver_replaces_the_emitted_one() {
        let v = BOARD_CONTROLLER.verilog().unwrap();
        let abstracted = with_abstract_solver(&v, &BOARD_CONTROLLER).unwrap();
        assert_eq!(abstracted.matches(&format!("module {SOLVER}(")).count(), 1);
        assert!(abstracted.contains("assume(query_move < 3'd5 && chosen[0]);"));
        // The controller itself is unchanged.
        let controller_end = "endmodule // heaps_game\n";
        let cut = |s: &str| s[..s.find(controller_end).unwrap()].to_owned();
        assert_eq!(cut(&v), cut(&abstracted));
        assert!(with_abstract_solver("module other(); endmodule", &BOARD_CONTROLLER).is_none());
    }

    /// `BOARD_CONTROLLER` is the controller the `heaps` design puts on the boards: its modules
    /// in the Alchitry Cu's top (the controller, its solver and think timer), renamed, are the
    /// emitted controller's, line for line.
    #[test]
    fn the_board_controller_is_the_heaps_designs() {
        use crate::board::BoardId;
        use crate::circuit::top::{top_verilog, Design, Timing};
        let board = BoardId::AlchitryCu;
        let timing = Timing::for_design(board.board(), &Design::Heaps);
        let top = top_verilog(board, &Design::Heaps, &timing).unwrap();
        // Every module named `name` or `name$...`, in order, renamed to `to`.
        let modules = |v: &str, name: &str, to: &str| -> Vec<String> {
            v.split("\nmodule ")
                .skip(1)
                .filter(|m| {
                    m.starts_with(&format!("{name}(")) || m.starts_with(&format!("{name}$"))
                })
                .map(|m| m.split("\nendmodule").next().unwrap().replace(name, to))
                .collect()
        };
        let on_board = modules(
            &top.verilog,
            &format!("{}_core$game", top.module),
            "heaps_game",
        );
        let emitted = modules(
            &BOARD_CONTROLLER.verilog().unwrap(),
            HEAPS_GAME_MODULE,
            "heaps_game",
        );
        assert!(on_board.len() >= 3, "{on_board:?}");
        assert_eq!(on_board, emitted);
    }

    /// `GO_BOARD_CONTROLLER` is the Go Board's: the game modules of its `heaps` top, renamed,
    /// are the emitted compact controller's, line for line.
    #[test]
    fn the_go_board_controller_is_the_heaps_pages_designs() {
        use crate::board::BoardId;
        use crate::circuit::top::{top_verilog, Design, Timing};
        let board = BoardId::GoBoard;
        let timing = Timing::for_design(board.board(), &Design::Heaps);
        let top = top_verilog(board, &Design::Heaps, &timing).unwrap();
        let name = format!("{}_core$game", top.module);
        let modules = |v: &str, name: &str| -> Vec<String> {
            v.split("\nmodule ")
                .skip(1)
                .filter(|m| {
                    m.starts_with(&format!("{name}(")) || m.starts_with(&format!("{name}$"))
                })
                .map(|m| {
                    m.split("\nendmodule")
                        .next()
                        .unwrap()
                        .replace(name, "heaps_game")
                })
                .collect()
        };
        let on_board = modules(&top.verilog, &name);
        let emitted = modules(&GO_BOARD_CONTROLLER.verilog().unwrap(), HEAPS_GAME_MODULE);
        assert!(on_board.len() >= 3, "{on_board:?}");
        assert_eq!(on_board, emitted);
        // The compact solver lends its successor unit to the controller.
        assert!(emitted.iter().any(|m| m.contains("solver$mover_ends")));
    }

    #[test]
    fn the_wrapper_asserts_each_property_once() {
        for (controller, x) in [(BOARD_CONTROLLER, 11), (SMALL_CONTROLLER, 8)] {
            let w = wrapper(&controller);
            assert_eq!(w.matches("assert(").count(), PROPERTIES.len());
            // x+1, x+2, x*2, x*3, x*4 in the fixed order, at x bits: the 8-bit heaps of T = 63
            // (5-bit of T = 7) times 4 do not wrap around.
            let ops = format!(
                "(al[0] && y == x + {x}'d1) || (al[1] && y == x + {x}'d2) || \
                 (al[2] && y == x * {x}'d2) || (al[3] && y == x * {x}'d3) || \
                 (al[4] && y == x * {x}'d4)"
            );
            assert!(w.contains(&ops), "{w}");
        }
    }

    /// Proves `controller` (its report's detail naming `sizes`), then checks each mutant
    /// (`from` replaced by `to` in its Verilog) fails on its property.
    #[cfg(feature = "external-tools")]
    fn proved_and_mutants_fail(
        controller: &PropsController,
        sizes: &str,
        mutants: &[(&str, &str, usize)],
    ) {
        let dir = crate::flow::testing::work_dir("heaps_game_properties");
        let report = run_heaps_game_properties(dir.path(), controller, None).unwrap();
        assert!(report.passed(), "{report}");
        assert!(
            report.detail.contains("proved for every input sequence")
                && report.detail.contains(sizes),
            "{report}"
        );
        let good = controller.verilog().unwrap();
        for (from, to, property) in mutants {
            assert!(good.contains(from), "{from}");
            let dir = crate::flow::testing::work_dir("heaps_game_properties_mutant");
            let report =
                run_heaps_game_properties(dir.path(), controller, Some(good.replace(from, to)))
                    .unwrap();
            assert!(!report.passed(), "{from} -> {to} passed: {report}");
            let failure = report.failure.unwrap();
            assert!(
                failure.contains(&format!("property {property} fails")),
                "{failure}"
            );
        }
    }

    /// The small controller, proved; and broken ones fail, each on its property: the winner's
    /// rule inverted (4), the end compared with `>` (2), the machine playing the person's index
    /// instead of the solver's (1). (The board's controller is proved by `verify heaps-solver`
    /// in the CLI tests, `verify_heaps_solver_runs_every_level_and_proves_its_netlist`.)
    #[cfg(feature = "external-tools")]
    #[test]
    fn the_emitted_controller_is_proved_and_broken_ones_fail() {
        proved_and_mutants_fail(
            &SMALL_CONTROLLER,
            "(T = 7, A = 2, M = 3, think 2 ticks)",
            &[
                ("won_n = ~last_r;", "won_n = last_r;", 4),
                (
                    "wire ends = (total >= target_x);",
                    "wire ends = (total > target_x);",
                    2,
                ),
                (
                    "thinking_r ? solver$query_move : move_index",
                    "thinking_r ? move_index : move_index",
                    1,
                ),
            ],
        );
    }

    /// The compact controller, proved with the rules held during a game; and broken ones fail,
    /// each on its property: the winner's rule inverted (4), the end never seen (2), the
    /// solver's unit fed the second heap as the first (1).
    #[cfg(feature = "external-tools")]
    #[test]
    fn the_compact_controller_is_proved_and_broken_ones_fail() {
        proved_and_mutants_fail(
            &SMALL_COMPACT_CONTROLLER,
            "(T = 7, A = 2, M = 3, think 2 ticks, compact: the rules held during a game)",
            &[
                ("won_n = ~last_r;", "won_n = last_r;", 4),
                ("wire ends = solver$mover_ends;", "wire ends = 1'b0;", 2),
                ("solver$mover_a = a[2:0];", "solver$mover_a = b[2:0];", 1),
            ],
        );
    }
}
