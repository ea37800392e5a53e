//! The self-checking Verilog testbench and its vector file (pure text
//! generation), and parsing of what the testbench prints.
//!
//! Protocol. The testbench reads `<module>.vec` with `$readmemb`, applies
//! each vector in file order (ascending input code), waits 1 ns and compares
//! the outputs with `!==` (so `x`/`z` outputs fail). It prints exactly one
//! verdict:
//!
//! * `PASS <n> vectors` when all `n` vectors matched;
//! * `MISMATCH input=<bits> expected=<bits> actual=<bits>` for the first
//!   mismatch, then `FAIL <k> of <n> vectors checked`;
//! * `ERROR cannot read vectors from <file>` when the vector file is missing
//!   or short.
//!
//! A pass ends with `$finish` (exit status 0); a mismatch or an unreadable
//! vector file ends with `$fatal` (Icarus's `vvp` exits 1, a Verilator binary
//! aborts), so a script running the testbench sees the failure in the exit
//! status too. The vector file is the plusarg `+vectors=<path>` when given
//! (the bench runs each simulator in the level's folder and passes the file's
//! name there: a folder's path with non-ASCII letters never reaches `$fopen`),
//! else `<module>.vec` in the current directory. The
//! waveform goes to the plusarg `+vcd=<path>`, else `<module>_tb.vcd`. Both
//! default file names can be overridden with `-DVECTOR_FILE="..."` and
//! `-DVCD_FILE="..."`.

use std::fmt::Write as _;

use super::design::{binary, CombDesign, Port};
use super::{BenchError, Mismatch};
use crate::verilog::generated_banner;

/// File name of the testbench for `module`.
pub fn testbench_file(module: &str) -> String {
    format!("{module}_tb.v")
}

/// Name of the testbench module for `module`.
pub fn testbench_module(module: &str) -> String {
    format!("{module}_tb")
}

/// File name of the vector file for `module`.
pub fn vector_file(module: &str) -> String {
    format!("{module}.vec")
}

/// File name of the waveform the testbench dumps for `module`.
pub fn vcd_file(module: &str) -> String {
    format!("{module}_tb.vcd")
}

fn names(ports: &[Port]) -> String {
    ports
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn concat(ports: &[Port]) -> String {
    format!(
        "{{{}}}",
        ports
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The vector file: one line per cared-for row in ascending input order,
/// `<input bits>_<expected output bits>` in binary, MSB first, after a
/// `//` header.
pub fn vectors(design: &CombDesign) -> Result<String, BenchError> {
    design.validate()?;
    let (iw, ow) = (design.input_width(), design.output_width());
    let mut text = format!(
        "{banner}\n// Vectors for {module}: {n} cared-for rows of its table.\n\
         // Each line: inputs ({inputs}) _ expected outputs ({outputs}), binary, MSB first.\n",
        banner = generated_banner(),
        module = design.module,
        n = design.cared_count(),
        inputs = names(&design.inputs),
        outputs = names(&design.outputs),
    );
    for (code, word) in design.cared_rows() {
        let _ = writeln!(text, "{}_{}", binary(code, iw), binary(word, ow));
    }
    Ok(text)
}

/// The self-checking testbench `<module>_tb` (see the module docs for what
/// it prints).
pub fn testbench(design: &CombDesign) -> Result<String, BenchError> {
    design.validate()?;
    let module = &design.module;
    let tb = testbench_module(module);
    let (iw, ow, n) = (
        design.input_width(),
        design.output_width(),
        design.cared_count(),
    );
    let mut v = String::new();
    let _ = write!(
        v,
        "{banner}
// Self-checking testbench for {module}.
// Applies the {n} cared-for input vectors of {vec} in order and compares
// every output. Prints `PASS <n> vectors`, or at the first mismatch
// `MISMATCH input=<bits> expected=<bits> actual=<bits>` and then
// `FAIL <k> of <n> vectors checked` and stops with $fatal (non-zero exit).
// Vectors: the plusarg +vectors=<path>, else {vec} in the current directory.
// Waveform: the plusarg +vcd=<path>, else {vcd} in the current directory.
`timescale 1ns/1ps
`default_nettype none

`ifndef VECTOR_FILE
`define VECTOR_FILE \"{vec}\"
`endif
`ifndef VCD_FILE
`define VCD_FILE \"{vcd}\"
`endif

module {tb};
    localparam integer VECTORS = {n};
    localparam integer IN_WIDTH = {iw};
    localparam integer OUT_WIDTH = {ow};

    reg [IN_WIDTH+OUT_WIDTH-1:0] tb_vectors [0:VECTORS-1];
    reg [IN_WIDTH-1:0] tb_input;
    reg [OUT_WIDTH-1:0] tb_expected;
    wire [OUT_WIDTH-1:0] tb_actual;
    reg tb_failed;
    integer tb_i;
    integer tb_fd;
    string tb_vector_file;
    string tb_vcd_file;

",
        banner = generated_banner(),
        vec = vector_file(module),
        vcd = vcd_file(module),
    );
    v.push_str("    // Design inputs, driven from tb_input (first port most significant).\n");
    for port in &design.inputs {
        let _ = writeln!(v, "    wire {}{};", port.range(), port.name);
    }
    v.push_str("    // Design outputs, gathered into tb_actual.\n");
    for port in &design.outputs {
        let _ = writeln!(v, "    wire {}{};", port.range(), port.name);
    }
    let _ = writeln!(v, "\n    assign {} = tb_input;", concat(&design.inputs));
    let _ = writeln!(v, "    assign tb_actual = {};\n", concat(&design.outputs));
    let connections = design
        .inputs
        .iter()
        .chain(&design.outputs)
        .map(|p| format!("        .{name}({name})", name = p.name))
        .collect::<Vec<_>>()
        .join(",\n");
    let _ = write!(
        v,
        "    {module} dut (
{connections}
    );

    initial begin
        if (!$value$plusargs(\"vcd=%s\", tb_vcd_file)) tb_vcd_file = `VCD_FILE;
        $dumpfile(tb_vcd_file);
        $dumpvars(0, {tb});
        tb_failed = 1'b0;
        tb_input = {{IN_WIDTH{{1'b0}}}};
        tb_expected = {{OUT_WIDTH{{1'b0}}}};
        if (!$value$plusargs(\"vectors=%s\", tb_vector_file)) tb_vector_file = `VECTOR_FILE;
        tb_fd = $fopen(tb_vector_file, \"r\");
        if (tb_fd == 0) begin
            $display(\"ERROR cannot read vectors from %0s\", tb_vector_file);
            $fatal(1, \"cannot read vectors from %0s\", tb_vector_file);
        end
        $fclose(tb_fd);
        $readmemb(tb_vector_file, tb_vectors);
        if ((^tb_vectors[0] === 1'bx) || (^tb_vectors[VECTORS-1] === 1'bx)) begin
            $display(\"ERROR cannot read vectors from %0s\", tb_vector_file);
            $fatal(1, \"cannot read vectors from %0s\", tb_vector_file);
        end
        for (tb_i = 0; tb_i < VECTORS && !tb_failed; tb_i = tb_i + 1) begin
            {{tb_input, tb_expected}} = tb_vectors[tb_i];
            #1;
            if (tb_actual !== tb_expected) begin
                $display(\"MISMATCH input=%b expected=%b actual=%b\", tb_input, tb_expected, tb_actual);
                $display(\"FAIL %0d of %0d vectors checked\", tb_i + 1, VECTORS);
                tb_failed = 1'b1;
            end
        end
        if (tb_failed) begin
            $dumpflush;
            $fatal(1, \"%0d of %0d vectors checked, the last one failed\", tb_i, VECTORS);
        end
        $display(\"PASS %0d vectors\", VECTORS);
        $finish;
    end
endmodule

`default_nettype wire
"
    );
    Ok(v)
}

/// What a testbench run said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `PASS <n> vectors`.
    Pass(usize),
    /// `MISMATCH ...` (without the waveform path; the caller knows it).
    Mismatch(Mismatch),
}

/// Read the verdict from a testbench's output. Anything other than exactly
/// one well-formed verdict (or a `PASS` with the wrong count) is an error.
pub fn parse_verdict(design: &CombDesign, output: &str) -> Result<Verdict, String> {
    if let Some(line) = output
        .lines()
        .find(|l| l.trim_start().starts_with("ERROR cannot read vectors"))
    {
        return Err(line.trim().to_owned());
    }
    if let Some(line) = output
        .lines()
        .find(|l| l.trim_start().starts_with("MISMATCH "))
    {
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .map(str::to_owned)
                .ok_or_else(|| format!("no `{key}` in `{line}`"))
        };
        let parse = |key: &str| {
            field(key).and_then(|bits| {
                u32::from_str_radix(&bits, 2)
                    .map_err(|_| format!("`{key}{bits}` is not binary in `{line}`"))
            })
        };
        return Ok(Verdict::Mismatch(Mismatch {
            input: parse("input=")?,
            input_width: design.input_width(),
            expected: parse("expected=")?,
            actual: field("actual=")?,
            vcd: None,
        }));
    }
    let expected = design.cared_count();
    match output
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("PASS "))
    {
        Some(rest) => match rest.split_whitespace().next().map(str::parse::<usize>) {
            Some(Ok(n)) if n == expected => Ok(Verdict::Pass(n)),
            _ => Err(format!(
                "`PASS {rest}` does not match the {expected} vectors generated"
            )),
        },
        None => Err("the testbench printed neither PASS nor MISMATCH".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::design::tests::{jr01_design, jr01_rom_design};

    #[test]
    fn jr01_testbench_snapshot() {
        insta::assert_snapshot!(testbench(&jr01_design()).expect("testbench"));
    }

    #[test]
    fn jr01_vectors_snapshot() {
        insta::assert_snapshot!(vectors(&jr01_design()).expect("vectors"));
    }

    #[test]
    fn rom_testbench_uses_vector_ports() {
        let tb = testbench(&jr01_rom_design()).expect("testbench");
        assert!(tb.contains("    wire [2:0] address;\n"), "{tb}");
        assert!(tb.contains("    assign {address} = tb_input;\n"), "{tb}");
        assert!(tb.contains("    assign tb_actual = {data};\n"), "{tb}");
    }

    #[test]
    fn vectors_skip_dont_cares() {
        let mut design = jr01_design();
        design.table = crate::logic::TruthTable::new(
            3,
            3,
            vec![Some(1), None, Some(3), None, None, None, None, Some(4)],
        )
        .expect("table");
        let text = vectors(&design).expect("vectors");
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
        assert_eq!(lines, vec!["000_001", "010_011", "111_100"]);
        assert!(testbench(&design)
            .expect("tb")
            .contains("localparam integer VECTORS = 3;"));
    }

    #[test]
    fn parses_verdicts() {
        let d = jr01_design();
        assert_eq!(
            parse_verdict(&d, "VCD info\nPASS 8 vectors\n"),
            Ok(Verdict::Pass(8))
        );
        assert!(parse_verdict(&d, "PASS 7 vectors\n").is_err());
        assert!(parse_verdict(&d, "").is_err());
        assert!(parse_verdict(&d, "ERROR cannot read vectors from x.vec\n").is_err());
        let Ok(Verdict::Mismatch(m)) = parse_verdict(
            &d,
            "MISMATCH input=011 expected=100 actual=1x0\nFAIL 4 of 8 vectors checked\n",
        ) else {
            panic!("expected a mismatch");
        };
        assert_eq!((m.input, m.expected, m.actual.as_str()), (3, 4, "1x0"));
        assert_eq!(m.actual_word(), None);
        assert_eq!(m.to_string(), "input=011 expected=100 actual=1x0");
    }
}
