//! The self-checking testbench of the emitted `sticks_game` controller (`emit sticks --sim`),
//! and its check file (pure text generation).
//!
//! Unlike the co-simulation testbench ([`super::testbench`]), which writes the outputs for
//! Rust to compare, this one compares by itself, so it runs without retrogate:
//!
//! ```text
//! iverilog -g2012 -o tb.vvp sim/sticks_game_check_tb.v hdl/sticks_game.v
//! vvp -n tb.vvp +check=sim/sticks_game.chk
//! ```
//!
//! The check file holds the reference model's play of two games (the human first, with one
//! illegal move, then the machine first), run-length encoded so that long think times stay
//! small: a first line with the total number of cycles, then one line per run,
//! `<cycles> <stimulus word, hex> <remaining> <human_turn> <machine_take> <game_over>
//! <human_won> <illegal>` (outputs in binary), meaning: drive the stimulus word for that many
//! cycles, and after every rising edge expect those outputs. The testbench prints
//! `PASS <n> cycles` and `$finish`es, or prints `MISMATCH cycle=<k> ...` and stops with `$fatal`
//! (non-zero exit); an unreadable or short check file is an `ERROR` and a `$fatal` too. The
//! file is the plusarg `+check=<path>`, else `sticks_game.chk` in the current directory.

use std::fmt::Write as _;

use super::testbench::{dut_nets, field_widths, stimulus_word, vector_range, DUT_INSTANCE};
use crate::circuit::SticksCircuitError;
use crate::game::SticksGame;
use crate::model::{Inputs, Outputs, SticksGameModel};
use crate::solver::strategy::sticks_table;
use crate::verilog::generated_banner;

/// File name of the self-checking testbench.
pub const CHECK_TESTBENCH_FILE: &str = "sticks_game_check_tb.v";
/// Its module name.
pub const CHECK_TESTBENCH_MODULE: &str = "sticks_game_check_tb";
/// File name of the check file.
pub const CHECK_FILE: &str = "sticks_game.chk";

/// One run: `cycles` cycles of the same stimulus word, each followed by the same outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// How many cycles.
    pub cycles: u64,
    /// The inputs.
    pub inputs: Inputs,
    /// The outputs after each rising edge.
    pub outputs: Outputs,
}

struct Recorder {
    model: SticksGameModel,
    runs: Vec<Run>,
    last: Outputs,
}

impl Recorder {
    fn step(&mut self, inputs: Inputs) -> Outputs {
        let outputs = self.model.step(inputs);
        match self.runs.last_mut() {
            Some(run) if run.inputs == inputs && run.outputs == outputs => run.cycles += 1,
            _ => self.runs.push(Run {
                cycles: 1,
                inputs,
                outputs,
            }),
        }
        self.last = outputs;
        outputs
    }

    /// Idles until the human is to move or the game is over (at most `limit` cycles).
    fn wait(&mut self, limit: u64) {
        let mut n = 0;
        while !self.last.human_turn && !self.last.game_over && n < limit {
            self.step(Inputs::IDLE);
            n += 1;
        }
    }
}

/// The reference model's play that the check file holds (see the module docs).
pub fn check_runs(game: &SticksGame, think_cycles: u32) -> Vec<Run> {
    let mut r = Recorder {
        model: SticksGameModel::new(game, think_cycles),
        runs: Vec::new(),
        last: Outputs::default(),
    };
    let limit = u64::from(think_cycles) + 16;
    let takes: Vec<u32> = game.take().iter().map(|&t| t as u32).collect();
    for (index, machine_first) in [false, true].into_iter().enumerate() {
        if index == 0 {
            r.step(Inputs::reset(machine_first));
        } else {
            r.step(Inputs::new_game(machine_first));
        }
        r.wait(limit);
        let mut tried_illegal = index > 0;
        let mut turn = 0usize;
        while !r.last.game_over && r.last.human_turn {
            if !tried_illegal {
                // Taking nothing is never a move: the controller must refuse it.
                r.step(Inputs::take(0));
                tried_illegal = true;
                continue;
            }
            let remaining = r.last.remaining;
            let legal: Vec<u32> = takes.iter().copied().filter(|&t| t <= remaining).collect();
            let solver = r
                .model
                .solver_move(u64::from(remaining))
                .map(|t| t as u32)
                .filter(|t| legal.contains(t));
            // The human alternates between the solver's move and the smallest one.
            let take = match (turn % 2, solver, legal.first()) {
                (0, Some(t), _) => t,
                (_, _, Some(&t)) => t,
                _ => break,
            };
            turn += 1;
            r.step(Inputs::take(take));
            r.wait(limit);
        }
        for _ in 0..2 {
            r.step(Inputs::IDLE);
        }
    }
    r.runs
}

/// The check file for `runs` (see the module docs); `w`, `m`: sticks and take bits.
pub fn check_file(runs: &[Run], w: usize, m: usize) -> String {
    let widths = field_widths(w, m);
    let total: u64 = runs.iter().map(|r| r.cycles).sum();
    let mut text = format!("{total}\n");
    for run in runs {
        let _ = write!(text, "{} {:x}", run.cycles, stimulus_word(&run.inputs, m));
        for (value, width) in run.outputs.values().iter().zip(widths) {
            let _ = write!(text, " {value:0width$b}");
        }
        text.push('\n');
    }
    text
}

/// The self-checking testbench for a `sticks_game` with `w` sticks bits and `m` take bits.
pub fn check_testbench(w: usize, m: usize) -> String {
    format!(
        "{banner}
// Self-checking testbench for sticks_game (W = {w}, M = {m}): replays the reference model's
// games from the check file (+check=<path>, else {CHECK_FILE}) and compares every output after
// every rising edge. Prints `PASS <n> cycles`, or `MISMATCH cycle=<k> ...` and stops with
// $fatal (non-zero exit). +vcd dumps a waveform to {CHECK_TESTBENCH_MODULE}.vcd.
`timescale 1ns/1ps
`default_nettype none

`ifndef CHECK_FILE
`define CHECK_FILE \"{CHECK_FILE}\"
`endif

module {CHECK_TESTBENCH_MODULE};
{dut_nets}    reg [{stim_msb}:0] tb_stim;
    reg {sticks_range}e_remaining;
    reg e_human_turn;
    reg {take_range}e_machine_take;
    reg e_game_over;
    reg e_human_won;
    reg e_illegal;
    integer tb_fd;
    integer tb_runs;
    integer tb_k;
    reg [63:0] tb_count;
    reg [63:0] tb_total;
    reg [63:0] tb_cycle;
    string tb_file;

{DUT_INSTANCE}
    initial begin
        clock = 1'b0;
        {{reset, new_game, machine_first, take_valid, take}} = {stim_bits}'d0;
        tb_cycle = 0;
        tb_runs = 0;
        tb_total = 0;
        if ($test$plusargs(\"vcd\")) begin
            $dumpfile(\"{CHECK_TESTBENCH_MODULE}.vcd\");
            $dumpvars(0, {CHECK_TESTBENCH_MODULE});
        end
        if (!$value$plusargs(\"check=%s\", tb_file)) tb_file = `CHECK_FILE;
        tb_fd = $fopen(tb_file, \"r\");
        if (tb_fd == 0 || $fscanf(tb_fd, \"%d\\n\", tb_total) != 1) begin
            $display(\"ERROR cannot read vectors from %0s\", tb_file);
            $fatal(1, \"cannot read %0s\", tb_file);
        end
        while ($fscanf(tb_fd, \"%d %h %b %b %b %b %b %b\\n\", tb_count, tb_stim, e_remaining,
                       e_human_turn, e_machine_take, e_game_over, e_human_won, e_illegal) == 8) begin
            tb_runs = tb_runs + 1;
            for (tb_k = 0; tb_k < tb_count; tb_k = tb_k + 1) begin
                {{reset, new_game, machine_first, take_valid, take}} = tb_stim;
                #5 clock = 1'b1;
                #1;
                if ({{remaining, human_turn, machine_take, game_over, human_won, illegal}} !==
                    {{e_remaining, e_human_turn, e_machine_take, e_game_over, e_human_won, e_illegal}}) begin
                    $display(\"MISMATCH cycle=%0d expected=%b %b %b %b %b %b actual=%b %b %b %b %b %b\",
                             tb_cycle, e_remaining, e_human_turn, e_machine_take, e_game_over,
                             e_human_won, e_illegal, remaining, human_turn, machine_take,
                             game_over, human_won, illegal);
                    $fatal(1, \"sticks_game differs from the reference model at cycle %0d\", tb_cycle);
                end
                #4 clock = 1'b0;
                tb_cycle = tb_cycle + 1;
            end
        end
        $fclose(tb_fd);
        if (tb_runs == 0 || tb_cycle != tb_total) begin
            $display(\"ERROR cannot read vectors from %0s: %0d of %0d cycles\", tb_file, tb_cycle, tb_total);
            $fatal(1, \"short check file %0s\", tb_file);
        end
        $display(\"PASS %0d cycles\", tb_cycle);
        $finish;
    end
endmodule

`default_nettype wire
",
        banner = generated_banner(),
        dut_nets = dut_nets(w, m),
        take_range = vector_range(m),
        sticks_range = vector_range(w),
        stim_msb = m + 3,
        stim_bits = m + 4,
    )
}

/// The files `emit sticks --sim` writes for the controller, as `(file name, contents)`: the
/// self-checking testbench and its check file, for `game` with `think_cycles`.
pub fn sim_files(
    game: &SticksGame,
    think_cycles: u32,
) -> Result<Vec<(String, String)>, SticksCircuitError> {
    let table = sticks_table(game)?;
    let (w, m) = (table.sticks_bits, table.take_bits);
    Ok(vec![
        (CHECK_TESTBENCH_FILE.to_owned(), check_testbench(w, m)),
        (
            CHECK_FILE.to_owned(),
            check_file(&check_runs(game, think_cycles), w, m),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Last;

    /// The runs replay the model: expanding them and stepping a fresh model gives the same
    /// outputs; both games end, the human's illegal move is flagged, and long think times
    /// stay a few lines.
    #[test]
    fn runs_replay_the_model_and_stay_short() {
        let game = SticksGame::new(20, &[1, 3, 4], Last::Loses).unwrap();
        for think in [0, 2, 1_000_000] {
            let runs = check_runs(&game, think);
            let mut model = SticksGameModel::new(&game, think);
            for run in &runs {
                for _ in 0..run.cycles {
                    assert_eq!(model.step(run.inputs), run.outputs);
                }
            }
            assert_eq!(runs.iter().filter(|r| r.outputs.illegal).count(), 1);
            let game_overs = runs
                .windows(2)
                .filter(|w| !w[0].outputs.game_over && w[1].outputs.game_over)
                .count();
            assert_eq!(game_overs, 2, "two games played to the end");
            assert!(runs.len() < 200, "{} runs", runs.len());
        }
        let text = check_file(&check_runs(&game, 2), 5, 3);
        let total: u64 = text.lines().next().unwrap().parse().unwrap();
        let sum: u64 = text
            .lines()
            .skip(1)
            .map(|l| l.split(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, sum);
    }
}
