//! The clocked testbench shared by Icarus (RTL and gate level) and Verilator, and its file
//! formats (pure text).
//!
//! Protocol. The testbench reads the stimulus file one line per cycle: a hexadecimal word
//! `{reset, new_game, machine_first, take_valid, take[M-1:0]}`. For each line it drives the
//! inputs while the clock is low, raises the clock 5 ns later, and 1 ns after the edge writes
//! the outputs to the output file as one line of six binary fields separated by spaces:
//! `remaining human_turn machine_take game_over human_won illegal` (`x`/`z` bits survive).
//! The clock falls 4 ns later and the next line follows. At the end it prints
//! `DONE <n> cycles`; a stimulus or output file it cannot open stops it with `$fatal` (non-zero exit). Plusargs: `+vcd` dumps every signal to the VCD file, `+cycles=<n>` stops
//! after `n` cycles. File names default to `sticks_game.stim`, `sticks_game.out` and
//! `sticks_game_tb.vcd` and can be overridden with `-DSTIM_FILE=...`, `-DOUT_FILE=...`,
//! `-DVCD_FILE=...`.

use std::fmt::Write as _;

use crate::model::{Inputs, Outputs};
use crate::verilog::generated_banner;

/// Name of the testbench module.
pub const TESTBENCH_MODULE: &str = "sticks_game_tb";
/// Default stimulus file name.
pub const STIM_FILE: &str = "sticks_game.stim";
/// Default output file name.
pub const OUT_FILE: &str = "sticks_game.out";
/// Default waveform file name.
pub const VCD_FILE: &str = "sticks_game_tb.vcd";

/// The stimulus word of one cycle: `{reset, new_game, machine_first, take_valid, take}` with
/// `take` in the low `m` bits (only those bits are kept).
pub fn stimulus_word(inputs: &Inputs, m: usize) -> u32 {
    let take = inputs.take & ((1 << m) - 1);
    u32::from(inputs.reset) << (m + 3)
        | u32::from(inputs.new_game) << (m + 2)
        | u32::from(inputs.machine_first) << (m + 1)
        | u32::from(inputs.take_valid) << m
        | take
}

/// The stimulus file: one hexadecimal word per cycle ([`stimulus_word`]).
pub fn stimulus_file(inputs: &[Inputs], m: usize) -> String {
    let mut text = String::with_capacity(inputs.len() * 3);
    for i in inputs {
        let _ = writeln!(text, "{:x}", stimulus_word(i, m));
    }
    text
}

/// One line of the output file, parsed: the six fields as binary strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observed {
    /// Every bit is 0 or 1.
    Known(Outputs),
    /// Some bit is `x` or `z`, or the line is malformed: the raw fields.
    Raw([String; 6]),
}

impl Observed {
    /// The value of field `k` (in [`Outputs::NAMES`] order) as text of `width` bits.
    pub fn field(&self, k: usize, width: usize) -> String {
        match self {
            Observed::Known(o) => format!("{:0width$b}", o.values()[k]),
            Observed::Raw(fields) => fields[k].clone(),
        }
    }
}

/// Parses one output line.
pub fn parse_line(line: &str) -> Observed {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let raw = || {
        let mut out: [String; 6] = Default::default();
        for (slot, f) in out
            .iter_mut()
            .zip(fields.iter().chain(std::iter::repeat(&"?")))
        {
            *slot = (*f).to_owned();
        }
        Observed::Raw(out)
    };
    if fields.len() != 6 {
        return raw();
    }
    let mut v = [0u32; 6];
    for (slot, f) in v.iter_mut().zip(&fields) {
        match u32::from_str_radix(f, 2) {
            Ok(x) => *slot = x,
            Err(_) => return raw(),
        }
    }
    let bit = |x: u32| x == 1;
    Observed::Known(Outputs {
        remaining: v[0],
        human_turn: bit(v[1]),
        machine_take: v[2],
        game_over: bit(v[3]),
        human_won: bit(v[4]),
        illegal: bit(v[5]),
    })
}

/// The widths of the output fields, in [`Outputs::NAMES`] order.
pub fn field_widths(w: usize, m: usize) -> [usize; 6] {
    [w, 1, m, 1, 1, 1]
}

/// A Verilog vector range for `n` bits, with its trailing space: `[n-1:0] `, or nothing for one
/// bit.
pub(super) fn vector_range(n: usize) -> String {
    if n == 1 {
        String::new()
    } else {
        format!("[{}:0] ", n - 1)
    }
}

/// The `sticks_game` ports as testbench nets (inputs `reg`, outputs `wire`), for `w` sticks
/// bits and `m` take bits; [`DUT_INSTANCE`] connects them.
pub(super) fn dut_nets(w: usize, m: usize) -> String {
    let (take_range, sticks_range) = (vector_range(m), vector_range(w));
    format!(
        "    reg clock;
    reg reset;
    reg new_game;
    reg machine_first;
    reg {take_range}take;
    reg take_valid;
    wire {sticks_range}remaining;
    wire human_turn;
    wire {take_range}machine_take;
    wire game_over;
    wire human_won;
    wire illegal;
"
    )
}

/// The `sticks_game` instance `dut`, its ports on the nets of [`dut_nets`].
pub(super) const DUT_INSTANCE: &str = "    sticks_game dut (
        .clock(clock),
        .reset(reset),
        .new_game(new_game),
        .machine_first(machine_first),
        .take(take),
        .take_valid(take_valid),
        .remaining(remaining),
        .human_turn(human_turn),
        .machine_take(machine_take),
        .game_over(game_over),
        .human_won(human_won),
        .illegal(illegal)
    );
";

/// The testbench for a `sticks_game` with `w` sticks bits and `m` take bits (see the module
/// docs).
pub fn sequential_testbench(w: usize, m: usize) -> String {
    format!(
        "{banner}
// Cycle-by-cycle testbench for sticks_game (W = {w}, M = {m}): drives one stimulus line per
// clock cycle and writes every output after every rising edge (see retrogate::bench::sequential).
`timescale 1ns/1ps
`default_nettype none

`ifndef STIM_FILE
`define STIM_FILE \"{STIM_FILE}\"
`endif
`ifndef OUT_FILE
`define OUT_FILE \"{OUT_FILE}\"
`endif
`ifndef VCD_FILE
`define VCD_FILE \"{VCD_FILE}\"
`endif

module {TESTBENCH_MODULE};
{dut_nets}    reg [{stim_msb}:0] tb_stim;
    integer tb_in;
    integer tb_out;
    integer tb_cycles;
    integer tb_limit;

{DUT_INSTANCE}
    initial begin
        clock = 1'b0;
        {{reset, new_game, machine_first, take_valid, take}} = {stim_bits}'d0;
        tb_cycles = 0;
        tb_limit = 0;
        if (!$value$plusargs(\"cycles=%d\", tb_limit)) tb_limit = 0;
        if ($test$plusargs(\"vcd\")) begin
            $dumpfile(`VCD_FILE);
            $dumpvars(0, {TESTBENCH_MODULE});
        end
        tb_in = $fopen(`STIM_FILE, \"r\");
        tb_out = $fopen(`OUT_FILE, \"w\");
        if (tb_in == 0 || tb_out == 0) begin
            $display(\"ERROR cannot open %s or %s\", `STIM_FILE, `OUT_FILE);
            $fatal(1, \"cannot open %s or %s\", `STIM_FILE, `OUT_FILE);
        end
        while ((tb_limit == 0 || tb_cycles < tb_limit) && $fscanf(tb_in, \"%h\\n\", tb_stim) == 1) begin
            {{reset, new_game, machine_first, take_valid, take}} = tb_stim;
            #5 clock = 1'b1;
            #1 $fwrite(tb_out, \"%b %b %b %b %b %b\\n\", remaining, human_turn, machine_take,
                       game_over, human_won, illegal);
            #4 clock = 1'b0;
            tb_cycles = tb_cycles + 1;
        end
        $fclose(tb_in);
        $fclose(tb_out);
        $display(\"DONE %0d cycles\", tb_cycles);
        $finish;
    end
endmodule

`default_nettype wire
",
        banner = generated_banner(),
        dut_nets = dut_nets(w, m),
        stim_msb = m + 3,
        stim_bits = m + 4,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stimulus_words_pack_the_inputs() {
        let i = Inputs {
            reset: true,
            new_game: false,
            machine_first: true,
            take: 3,
            take_valid: true,
        };
        assert_eq!(stimulus_word(&i, 2), 0b10_1111); // reset, machine_first, take_valid, take 3
        assert_eq!(stimulus_word(&Inputs::take(7), 2), 0b00_0111); // take_valid, take 3 (7 cut to 2 bits)
        assert_eq!(stimulus_file(&[i, Inputs::IDLE], 2), "2f\n0\n");
    }

    #[test]
    fn output_lines_parse() {
        assert_eq!(
            parse_line("10010 1 00 0 0 1"),
            Observed::Known(Outputs {
                remaining: 18,
                human_turn: true,
                illegal: true,
                ..Outputs::default()
            })
        );
        let raw = parse_line("1001x 1 00 0 0 1");
        assert_eq!(raw.field(0, 5), "1001x");
        assert_eq!(raw.field(5, 1), "1");
        assert!(matches!(parse_line("1 2"), Observed::Raw(_)));
        assert_eq!(
            Observed::Known(Outputs {
                remaining: 3,
                ..Outputs::default()
            })
            .field(0, 5),
            "00011"
        );
    }

    #[test]
    fn testbench_snapshot() {
        insta::assert_snapshot!(sequential_testbench(5, 2));
    }

    #[test]
    fn one_bit_ports_are_scalar() {
        let tb = sequential_testbench(1, 1);
        assert!(tb.contains("    reg take;\n"), "{tb}");
        assert!(tb.contains("    wire remaining;\n"), "{tb}");
        assert!(tb.contains("reg [4:0] tb_stim;"), "{tb}");
    }
}
