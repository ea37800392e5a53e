//! The board top under Verilator, driven through its pins by a small C++ `main` that reads
//! commands on stdin and writes the output pins when they change.
//!
//! Protocol (one line each): `s <input> <0|1>` sets input pin `<input>` (its index among the
//! top's inputs); `r <n>` runs `n` clock cycles (a rising and a falling edge each), printing
//! `o <cycle> <bits>` after every cycle whose output pins changed (and once before the first
//! run), then `d <cycle> <evaluated>`; `q` ends. `<bits>` holds one `0`/`1` per output pin, in
//! order; `<evaluated>` counts the cycles the model evaluated since it started.
//!
//! **The idle skip** (the top's harness; not the read-back chip's, whose registers have no
//! names): between two ticks of its time base a board top mostly waits, and Verilator would
//! evaluate the whole design on each of the 12,000 to 100,000 edges. Every top has one time
//! base, the module `<top>_core$time_base` with the ports `clock` and `tick` only, so its
//! counter `count` is read by nothing else, and `tick` is `count == 0` one edge late. The
//! harness runs a window of [`IDLE_WINDOW`] cycles when `count` is at least that large, and
//! compares the model's whole state (every register, memory and port: one object, as the model
//! is built with `--flatten`) before and after it, all but `count`. When nothing else changed
//! and no output pin changed in between, each following window that starts with `count` at
//! least [`IDLE_WINDOW`] sees `tick` low on every edge, as the first did, and so repeats it
//! exactly: the harness lowers `count` by as many whole windows as that holds and counts their
//! cycles, without evaluating them. The next edges, the tick among them, are evaluated again.
//! Inputs change only between runs. `--every-cycle` (the harness's argument) turns it off; a
//! test compares the two runs' output pins cycle by cycle.

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

/// The idle skip's window, in cycles: a multiple of every period shorter than a tick that a
/// top repeats while it waits (the Alchitry Cu V1's pull-down emulation drives and samples its
/// floating inputs every 16 cycles).
pub const IDLE_WINDOW: u64 = 16;

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

/// The member of the Verilator model of `top` (built with `--flatten`) that holds its time
/// base's counter, after checking that the top has the time base the idle skip relies on: the
/// core `core` (module `<top>_core`) with one instance `time_base` of `<top>_core$time_base`,
/// whose ports are `clock` and `tick` only and whose counter is the register `count`.
pub fn time_base_counter(top: &TopVerilog) -> Result<String, BoardError> {
    let m = &top.module;
    let core = format!("{m}_core");
    let base = format!("{core}$time_base");
    let found = |text: &str| top.verilog.matches(text).count() == 1;
    let module_start = format!("\nmodule {base}(clock,tick);\n");
    let body = top
        .verilog
        .split_once(&module_start)
        .and_then(|(_, rest)| rest.split_once("\nendmodule").map(|(body, _)| body));
    let has_count = body.is_some_and(|b| {
        b.lines().any(|l| {
            let l = l.trim();
            l.starts_with("reg [") && l.ends_with("] count;")
        })
    });
    if !(found(&format!("    {core} core("))
        && found(&format!("    {base} time_base("))
        && has_count)
    {
        return Err(BoardError::Setup(format!(
            "the top {m} has no time base `core.time_base` with the ports clock and tick and a \
             register count; the virtual board's idle skip needs it"
        )));
    }
    Ok(format!("{m}__DOT__core__DOT__time_base__DOT__count"))
}

/// The C++ `main` driving `top` (whose clock is `clock`) by the protocol above; with
/// `counter` (from [`time_base_counter`]) it skips idle cycles.
pub fn harness_cpp(
    top: &TopVerilog,
    clock: &str,
    counter: Option<&str>,
) -> Result<String, BoardError> {
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
    let (root_header, idle, run) = idle_skip_cpp(&class, counter);
    Ok(format!(
        "// The virtual board's harness (retrogate board): {module} driven through its pins.\n\
         #include \"{class}.h\"\n\
         #include \"verilated.h\"\n\
         {root_header}\
         #include <cstdint>\n\
         #include <cstdio>\n\
         #include <cstdlib>\n\
         #include <cstring>\n\
         \n\
         static {class}* m;\n\
         static uint64_t prev[{nouts}];\n\
         \n\
         static void set_input(int k, uint64_t v) {{\n  switch (k) {{\n{set}    default: break;\n  }}\n}}\n\
         \n\
         static bool changed() {{\n  bool c = false;\n{changed}  return c;\n}}\n\
         \n\
         static unsigned long long evaluated = 0;\n\
         \n\
         static void step() {{\n  m->{clock} = 1;\n  m->eval();\n  m->{clock} = 0;\n  m->eval();\n  ++evaluated;\n}}\n\
         {idle}\
         \n\
         static void show(unsigned long long cycle) {{\n  char line[{nbits}];\n  int at = 0;\n{show}  line[at] = 0;\n  printf(\"o %llu %s\\n\", cycle, line);\n}}\n\
         \n\
         int main(int argc, char** argv) {{\n\
         \x20 VerilatedContext* ctx = new VerilatedContext;\n\
         \x20 ctx->commandArgs(argc, argv);\n\
         \x20 bool every_cycle = argc > 1 && strcmp(argv[1], \"--every-cycle\") == 0;\n\
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
{run}\
         \x20     printf(\"d %llu %llu\\n\", cycle, evaluated);\n\
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

/// The C++ of the idle skip (see the module doc) for the model `class`, whose time base's
/// counter is the root's member `counter`: its declarations, and the run loop of `r <n>`.
fn idle_skip_cpp(class: &str, counter: Option<&str>) -> (String, String, String) {
    let plain = "\x20     for (unsigned long long i = 0; i < n; ++i) {\n\
                 \x20       step();\n\
                 \x20       ++cycle;\n\
                 \x20       if (changed()) show(cycle);\n\
                 \x20     }\n"
        .to_owned();
    let Some(counter) = counter else {
        return (String::new(), String::new(), plain);
    };
    let indented: String = plain.lines().map(|l| format!("  {l}\n")).collect();
    let root = format!("{class}___024root");
    let header = format!("#include \"{root}.h\"\n");
    let decls = format!(
        "\n\
         // The idle skip (retrogate's src/vboard/harness.rs says why it is exact).\n\
         static const unsigned long long WINDOW = {IDLE_WINDOW};\n\
         static char before[sizeof({root})];\n\
         \n\
         // Whether the model's state is as `before` holds it, all but the time base's counter.\n\
         static bool same_but_counter() {{\n\
         \x20 const char* now = (const char*)m->rootp;\n\
         \x20 const size_t lo = (const char*)&m->rootp->{counter} - now;\n\
         \x20 const size_t hi = lo + sizeof m->rootp->{counter};\n\
         \x20 return memcmp(before, now, lo) == 0 && memcmp(before + hi, now + hi, sizeof before - hi) == 0;\n\
         }}\n"
    );
    let run = format!(
        "\x20     if (every_cycle) {{\n\
         {indented}\
         \x20     }} else {{\n\
         \x20       auto& count = m->rootp->{counter};\n\
         \x20       unsigned long long i = 0;\n\
         \x20       while (i < n) {{\n\
         \x20         // A window: no tick on any of its edges when it starts with count >= WINDOW.\n\
         \x20         bool window = (unsigned long long)count >= WINDOW && n - i >= WINDOW;\n\
         \x20         if (window) memcpy(before, (const void*)m->rootp, sizeof before);\n\
         \x20         bool quiet = true;\n\
         \x20         for (unsigned long long w = 0; w < (window ? WINDOW : 1); ++w) {{\n\
         \x20           step();\n\
         \x20           ++i;\n\
         \x20           ++cycle;\n\
         \x20           if (changed()) {{ show(cycle); quiet = false; }}\n\
         \x20         }}\n\
         \x20         if (window && quiet && same_but_counter()) {{\n\
         \x20           // Whole windows, each starting with count >= WINDOW, within this run.\n\
         \x20           unsigned long long k = (unsigned long long)count / WINDOW;\n\
         \x20           if (k > (n - i) / WINDOW) k = (n - i) / WINDOW;\n\
         \x20           count -= k * WINDOW;\n\
         \x20           i += k * WINDOW;\n\
         \x20           cycle += k * WINDOW;\n\
         \x20         }}\n\
         \x20       }}\n\
         \x20     }}\n"
    );
    (header, decls, run)
}

/// Writes the top, the iCE40 cell models it needs and the harness into `dir` and builds the
/// harness with Verilator (reused when its inputs are unchanged, or from the tool cache),
/// flattened, with the idle skip.
pub fn build(dir: &Path, top: &TopVerilog, clock: &str) -> Result<Built, BoardError> {
    let start = Instant::now();
    let counter = time_base_counter(top)?;
    let rtl = runner::write_file(Tool::Verilator, dir, "board_top.v", &top.verilog)?;
    let rtl = equiv::pins_as_inputs(dir, &[rtl], "board_pins")?;
    let cells = equiv::cell_models(dir, &rtl, "board_cells.v", equiv::BlockRam::Simulated)?;
    let cpp = runner::write_file(
        Tool::Verilator,
        dir,
        "board_harness.cpp",
        &harness_cpp(top, clock, Some(&counter))?,
    )?;
    let mut sources = vec![cells];
    sources.extend(rtl);
    sources.push(cpp);
    let flat = verilator::ProgramBuild {
        flatten: true,
        ..verilator::ProgramBuild::default()
    };
    let model = verilator::build_program_with(dir, &sources, &top.module, &[], HARNESS, flat)?;
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
        &harness_cpp(top, clock, None)?,
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
    /// Of those, the cycles the model evaluated (the others were skipped as idle).
    pub evaluated: u64,
    line: String,
}

impl Harness {
    /// Starts `exe` with every input at its level in `levels`; with `every_cycle` it
    /// evaluates every cycle (no idle skip).
    pub fn start(exe: &Path, levels: &[bool], every_cycle: bool) -> Result<Self, BoardError> {
        // In a process group of its own, registered: a signal to retrogate stops it too.
        let mut child = crate::interrupt::spawn(
            Command::new(exe)
                .args(every_cycle.then_some("--every-cycle"))
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
            evaluated: 0,
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
            match (words.next(), words.next(), words.next(), words.next()) {
                (Some("o"), Some(c), Some(bits), None) => {
                    let c = c.parse().unwrap_or(self.cycle);
                    changed(c, bits.as_bytes());
                }
                (Some("d"), Some(c), Some(e), None) => {
                    self.cycle = c.parse().unwrap_or(self.cycle + n);
                    self.evaluated = e.parse().unwrap_or(self.evaluated);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardId;
    use crate::circuit::top::{top_verilog, Design, Timing};

    /// Every top of every board has the time base the idle skip relies on, found where its
    /// Verilog declares it; a top whose counter is renamed is refused, and its harness is not
    /// built with the skip.
    #[test]
    fn every_top_has_the_time_base_the_idle_skip_needs() {
        let mut tops = 0;
        for board in BoardId::ALL {
            for design in Design::every() {
                if !design.runs_on(board) {
                    continue;
                }
                let b = board.board();
                let top = top_verilog(board, &design, &Timing::for_design(b, &design)).unwrap();
                let counter = time_base_counter(&top).unwrap();
                assert_eq!(
                    counter,
                    format!("{}__DOT__core__DOT__time_base__DOT__count", top.module)
                );
                let cpp = harness_cpp(&top, b.clock.pin, Some(&counter)).unwrap();
                assert!(cpp.contains(&format!("m->rootp->{counter}")), "{cpp}");
                assert!(cpp.contains(&format!("WINDOW = {IDLE_WINDOW};")));
                let plain = harness_cpp(&top, b.clock.pin, None).unwrap();
                assert!(!plain.contains("rootp") && !plain.contains("WINDOW"));
                let mut renamed = top.clone();
                renamed.verilog = top.verilog.replace("] count;", "] counter;");
                assert!(matches!(
                    time_base_counter(&renamed),
                    Err(BoardError::Setup(e)) if e.contains("idle skip")
                ));
                tops += 1;
            }
        }
        assert!(tops >= 17, "{tops}");
    }
}
