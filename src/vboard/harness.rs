//! The board top under Verilator, driven through its pins by a small C++ `main` that reads
//! commands on stdin and writes the output pins when they change.
//!
//! Protocol (one line each): `s <input> <0|1>` sets input pin `<input>` (its index among the
//! top's inputs); `r <n>` runs `n` clock cycles (a rising and a falling edge each), printing
//! `o <cycle> <bits>` after every cycle whose output pins changed (and once before the first
//! run), then `d <cycle>`; `q` ends. `<bits>` holds one `0`/`1` per output pin, in order.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::BoardError;
use crate::bench::bitstream::{PortConn, ReadBackChip};
use crate::circuit::top::TopVerilog;
use crate::flow::equiv;
use crate::flow::runner::{self, Tool};
use crate::flow::{icestorm, verilator};
use crate::verilog::{ModulePort, PortDir};

/// The executable name of the harness in its work folder.
pub const HARNESS: &str = "board_harness";

/// The Verilator model of a top with its harness, built.
#[derive(Clone, Debug)]
pub struct Built {
    /// The executable.
    pub exe: PathBuf,
    /// An earlier build of the same inputs was reused (or came from the tool cache).
    pub reused: bool,
    /// Wall-clock time of the build.
    pub elapsed: Duration,
}

/// The C++ `main` driving `top` (whose clock is `clock`) by the protocol above.
pub fn harness_cpp(top: &TopVerilog, clock: &str) -> Result<String, BoardError> {
    let class = format!("V{}", top.module);
    let ports: Vec<&ModulePort> = top.ports.iter().filter(|p| p.name != clock).collect();
    if let Some(p) = ports.iter().find(|p| p.width > 64) {
        return Err(BoardError::Setup(format!(
            "port {} of {} is {} bits wide; the virtual board drives ports of up to 64",
            p.name, top.module, p.width
        )));
    }
    let mut set = String::new();
    let mut k = 0usize;
    for p in ports.iter().filter(|p| p.dir != PortDir::Output) {
        for i in 0..p.width {
            if p.width == 1 {
                set.push_str(&format!("    case {k}: m->{} = v; break;\n", p.name));
            } else {
                set.push_str(&format!(
                    "    case {k}: m->{n} = (m->{n} & ~(1ULL << {i})) | ((uint64_t)v << {i}); break;\n",
                    n = p.name
                ));
            }
            k += 1;
        }
    }
    let outs: Vec<&&ModulePort> = ports.iter().filter(|p| p.dir == PortDir::Output).collect();
    let mut changed = String::new();
    let mut show = String::new();
    for (n, p) in outs.iter().enumerate() {
        changed.push_str(&format!(
            "  if ((uint64_t)m->{name} != prev[{n}]) {{ prev[{n}] = (uint64_t)m->{name}; c = true; }}\n",
            name = p.name
        ));
        for i in 0..p.width {
            show.push_str(&format!(
                "  line[at++] = '0' + (int)(((uint64_t)m->{} >> {i}) & 1);\n",
                p.name
            ));
        }
    }
    let nouts = outs.len().max(1);
    let nbits: usize = outs.iter().map(|p| p.width).sum::<usize>() + 1;
    Ok(format!(
        "// The virtual board's harness (retrogate board): {module} driven through its pins.\n\
         #include \"{class}.h\"\n\
         #include \"verilated.h\"\n\
         #include <cstdint>\n\
         #include <cstdio>\n\
         #include <cstdlib>\n\
         \n\
         static {class}* m;\n\
         static uint64_t prev[{nouts}];\n\
         \n\
         static void set_input(int k, uint64_t v) {{\n  switch (k) {{\n{set}    default: break;\n  }}\n}}\n\
         \n\
         static bool changed() {{\n  bool c = false;\n{changed}  return c;\n}}\n\
         \n\
         static void show(unsigned long long cycle) {{\n  char line[{nbits}];\n  int at = 0;\n{show}  line[at] = 0;\n  printf(\"o %llu %s\\n\", cycle, line);\n}}\n\
         \n\
         int main(int argc, char** argv) {{\n\
         \x20 VerilatedContext* ctx = new VerilatedContext;\n\
         \x20 ctx->commandArgs(argc, argv);\n\
         \x20 m = new {class}{{ctx}};\n\
         \x20 m->{clock} = 0;\n\
         \x20 m->eval();\n\
         \x20 changed();\n\
         \x20 unsigned long long cycle = 0;\n\
         \x20 bool first = true;\n\
         \x20 char cmd[128];\n\
         \x20 while (fgets(cmd, sizeof cmd, stdin)) {{\n\
         \x20   if (cmd[0] == 's') {{\n\
         \x20     int k = 0, v = 0;\n\
         \x20     if (sscanf(cmd + 1, \"%d %d\", &k, &v) == 2) set_input(k, (uint64_t)(v != 0));\n\
         \x20   }} else if (cmd[0] == 'r') {{\n\
         \x20     unsigned long long n = strtoull(cmd + 1, nullptr, 10);\n\
         \x20     m->eval();\n\
         \x20     bool c = changed();\n\
         \x20     if (first || c) show(cycle);\n\
         \x20     first = false;\n\
         \x20     for (unsigned long long i = 0; i < n; ++i) {{\n\
         \x20       m->{clock} = 1;\n\
         \x20       m->eval();\n\
         \x20       m->{clock} = 0;\n\
         \x20       m->eval();\n\
         \x20       ++cycle;\n\
         \x20       if (changed()) show(cycle);\n\
         \x20     }}\n\
         \x20     printf(\"d %llu\\n\", cycle);\n\
         \x20     fflush(stdout);\n\
         \x20   }} else if (cmd[0] == 'q') {{\n\
         \x20     break;\n\
         \x20   }}\n\
         \x20 }}\n\
         \x20 m->final();\n\
         \x20 delete m;\n\
         \x20 delete ctx;\n\
         \x20 return 0;\n\
         }}\n",
        module = top.module,
    ))
}

/// Writes the top, the iCE40 cell models it needs and the harness into `dir` and builds the
/// harness with Verilator (reused when its inputs are unchanged, or from the tool cache).
pub fn build(dir: &Path, top: &TopVerilog, clock: &str) -> Result<Built, BoardError> {
    let start = Instant::now();
    let rtl = runner::write_file(Tool::Verilator, dir, "board_top.v", &top.verilog)?;
    let rtl = equiv::pins_as_inputs(dir, &[rtl], "board_pins")?;
    let cells = equiv::cell_models(dir, &rtl, "board_cells.v", equiv::BlockRam::Simulated)?;
    let cpp = runner::write_file(
        Tool::Verilator,
        dir,
        "board_harness.cpp",
        &harness_cpp(top, clock)?,
    )?;
    let mut sources = vec![cells];
    sources.extend(rtl);
    sources.push(cpp);
    let model = verilator::build_program(dir, &sources, &top.module, &[], HARNESS)?;
    Ok(Built {
        exe: model.exe,
        reused: model.reused,
        elapsed: start.elapsed(),
    })
}

/// A module named and ported as `top` (whose clock is `clock`) that is the read-back chip: the
/// chip's clock and each of its ports in `conns` (from
/// [`crate::bench::bitstream::read_back_chip`]) wired to the top's pins; a chip input the top
/// lacks is held at 0, and an output pin of the top the chip does not drive is 0.
pub(crate) fn chip_wrapper(top: &TopVerilog, clock: &str, conns: &[PortConn]) -> String {
    let pins: Vec<String> = top.pin_names();
    let mut decls = Vec::new();
    for p in &top.ports {
        let dir = match p.dir {
            PortDir::Output => "output",
            PortDir::Input | PortDir::Inout => "input",
        };
        let range = if p.width > 1 {
            format!(" [{}:0]", p.width - 1)
        } else {
            String::new()
        };
        decls.push(format!("    {dir} wire{range} {}", p.name));
    }
    let mut unused = Vec::new();
    let mut driven = std::collections::BTreeSet::new();
    let mut instance = vec![format!(".{clock}({clock})")];
    for (name, range, output) in conns {
        let mut bit = |i: Option<usize>| -> String {
            let pin = match i {
                Some(i) => format!("{name}[{i}]"),
                None => name.clone(),
            };
            if pins.contains(&pin) {
                if *output {
                    driven.insert(pin.clone());
                }
                pin
            } else if *output {
                let wire = format!("nc_{}", crate::bench::bitstream::wire_name(&pin));
                unused.push(format!("  wire {wire};\n"));
                wire
            } else {
                "1'b0".to_owned()
            }
        };
        let value = crate::bench::bitstream::port_value(*range, &mut bit);
        instance.push(format!(".{}({value})", icestorm::escaped(name)));
    }
    let mut zeros = String::new();
    for p in top.ports.iter().filter(|p| p.dir == PortDir::Output) {
        for pin in p.bit_names() {
            if !driven.contains(&pin) {
                zeros.push_str(&format!("  assign {pin} = 1'b0;\n"));
            }
        }
    }
    format!(
        "// The virtual board's chip (retrogate board --bin): the bitstream read back, with the\n\
         // ports of {module}.\n\
         module {module} (\n{decls}\n);\n{unused}{zeros}  chip chip (\n    {instance}\n  );\nendmodule\n",
        module = top.module,
        decls = decls.join(",\n"),
        unused = unused.concat(),
        instance = instance.join(",\n    "),
    )
}

/// Builds the harness of the read-back chip `chip` of `top` in `dir`: the chip in a module
/// named and ported as the top ([`chip_wrapper`]), the iCE40 cell models it needs and the
/// same C++ `main` as [`build`]'s, so the board drives it as it drives the top.
pub(crate) fn build_chip(
    dir: &Path,
    top: &TopVerilog,
    clock: &str,
    chip: &ReadBackChip,
) -> Result<Built, BoardError> {
    let start = Instant::now();
    let wrapper = runner::write_file(
        Tool::Verilator,
        dir,
        "board_chip_top.v",
        &chip_wrapper(top, clock, &chip.conns),
    )?;
    let cells = equiv::cell_models(
        dir,
        std::slice::from_ref(&chip.source),
        "board_cells.v",
        equiv::BlockRam::Simulated,
    )?;
    let cpp = runner::write_file(
        Tool::Verilator,
        dir,
        "board_harness.cpp",
        &harness_cpp(top, clock)?,
    )?;
    let sources = vec![cells, chip.source.clone(), wrapper, cpp];
    let model = verilator::build_program(
        dir,
        &sources,
        &top.module,
        &["NO_ICE40_DEFAULT_ASSIGNMENTS"],
        HARNESS,
    )?;
    Ok(Built {
        exe: model.exe,
        reused: model.reused,
        elapsed: start.elapsed(),
    })
}

/// A running harness.
pub struct Harness {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Clock cycles run since power-on.
    pub cycle: u64,
    line: String,
}

impl Harness {
    /// Starts `exe` with every input at its level in `levels`.
    pub fn start(exe: &Path, levels: &[bool]) -> Result<Self, BoardError> {
        // In a process group of its own, registered: a signal to retrogate stops it too.
        let mut child = crate::interrupt::spawn(
            Command::new(exe)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        )
        .map_err(|e| BoardError::Harness(format!("cannot start {}: {e}", exe.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(BoardError::Harness("the harness has no pipes".into()));
        };
        let mut h = Harness {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            cycle: 0,
            line: String::new(),
        };
        for (k, &level) in levels.iter().enumerate() {
            h.set(k, level)?;
        }
        Ok(h)
    }

    /// Sets input pin `k` to `level` (from the next cycle on).
    pub fn set(&mut self, k: usize, level: bool) -> Result<(), BoardError> {
        writeln!(self.stdin, "s {k} {}", u8::from(level)).map_err(lost)
    }

    /// Runs `n` cycles, calling `changed(cycle, bits)` for each change of the output pins
    /// (`bits`: `b'0'`/`b'1'` per output pin).
    pub fn run(&mut self, n: u64, changed: &mut dyn FnMut(u64, &[u8])) -> Result<(), BoardError> {
        writeln!(self.stdin, "r {n}").map_err(lost)?;
        self.stdin.flush().map_err(lost)?;
        loop {
            self.line.clear();
            let read = self.stdout.read_line(&mut self.line).map_err(lost)?;
            if read == 0 {
                return Err(BoardError::Harness(
                    "the harness stopped before the end of a run".into(),
                ));
            }
            let mut words = self.line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("o"), Some(c), Some(bits)) => {
                    let c = c.parse().unwrap_or(self.cycle);
                    changed(c, bits.as_bytes());
                }
                (Some("d"), Some(c), None) => {
                    self.cycle = c.parse().unwrap_or(self.cycle + n);
                    return Ok(());
                }
                _ => {
                    return Err(BoardError::Harness(format!(
                        "a line the harness should not write: {:?}",
                        self.line.trim_end()
                    )))
                }
            }
        }
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "q");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(200);
        while !matches!(self.child.try_wait(), Ok(Some(_))) {
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        crate::interrupt::finished(self.child.id());
    }
}

fn lost(e: std::io::Error) -> BoardError {
    BoardError::Harness(format!("lost the harness: {e}"))
}
