//! yosys-smtbmc with z3: bounded model checking, k-induction and cover traces of a design
//! with immediate `assert` / `cover` statements (`read_verilog -formal`).
//!
//! [`smt2`] turns the Verilog into an SMT-LIB model with yosys (`prep`, `async2sync`,
//! `dffunmap`, `write_smt2 -wires`), after yosys `check` finds no combinational loop (else the
//! model is vacuous and not written); [`check`] runs one yosys-smtbmc mode on it and reads its
//! verdict, the failing assertion's source location and step, and the trace it wrote;
//! [`check_with`] can first make yosys-smtbmc show that the assumptions are satisfiable
//! (`--presat`), so a bounded pass is never vacuous. With the tool cache on, a passing run
//! comes from it when the model, the arguments and z3's version are unchanged.

use std::path::{Path, PathBuf};

use super::cache;
use super::runner::{self, Tool, ToolError, ToolOutput};
use super::script::{self, Interpreter};
use super::yosys::{self, Model};

/// The solver yosys-smtbmc runs (Debian package `z3`).
pub const SOLVER: &str = "z3";

/// Build `dir/<name>.smt2` from `sources` (read with `-sv -formal`) with top module `top`.
/// Each `(wire, net)` of `connect` drives a wire of the top from a net below it after
/// flattening (to read a sub-module's register in the top's assertions). Leaves `<name>.ys`
/// and `<name>.log`. A combinational loop in the flattened design (yosys `check`) is
/// [`Model::Vacuous`], naming its signals.
pub fn smt2(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    connect: &[(String, String)],
    name: &str,
) -> Result<Model, ToolError> {
    script::module(Tool::Yosys, top)?;
    let mut text = yosys::read_sources(dir, sources, "-formal ")?;
    // `proc -norom`: a case table stays logic; a ROM would be a memory, whose contents the
    // induction (which has no initial state) would leave free.
    text.push_str(&format!(
        "hierarchy -check -top {top}\nproc -norom\nflatten\n"
    ));
    for (wire, net) in connect {
        text.push_str(&format!("connect -set {wire} {net}\n"));
    }
    text.push_str(yosys::CHECK_COMMANDS);
    text.push_str(&format!(
        "prep -top {top}\nasync2sync\ndffunmap\nwrite_smt2 -wires {name}.smt2\n"
    ));
    let out = script::output(dir, Interpreter::Yosys, name, &text, None)?;
    if let Some(vacuity) = yosys::loops(&format!("{}\n{}", out.stdout, out.stderr)) {
        return Ok(Model::Vacuous(vacuity));
    }
    out.check()?
        .expect_file(dir.join(format!("{name}.smt2")))
        .map(Model::Ready)
}

/// What yosys-smtbmc is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every assertion holds in steps 0..=depth from the initial state.
    Bounded,
    /// k-induction of depth `depth` (no initial state): with [`Mode::Bounded`] an unbounded
    /// proof.
    Induction,
    /// Reach every cover statement within `depth` steps.
    Cover,
}

impl Mode {
    fn flag(self) -> Option<&'static str> {
        match self {
            Mode::Bounded => None,
            Mode::Induction => Some("-i"),
            Mode::Cover => Some("-c"),
        }
    }
}

/// The verdict of one yosys-smtbmc run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Bounded: no assertion fails; induction: the induction step succeeded; cover: every
    /// cover statement was reached (at the given steps).
    Passed {
        /// Cover: the step each cover statement was reached at, in order.
        reached: Vec<usize>,
    },
    /// Bounded with `presat`: no input sequence satisfies the assumptions (and the model's
    /// own constraints) up to `step`, so any assertion would hold vacuously.
    Unsatisfiable {
        /// The step at which the assumptions became unsatisfiable, when reported.
        step: Option<usize>,
    },
    /// An assertion failed (bounded or induction), or a cover was not reached.
    Failed {
        /// The failing assertion's (or unreached cover's) source line, when reported.
        line: Option<usize>,
        /// Its location as yosys-smtbmc printed it (`file.v:12.9-12.40`).
        location: String,
        /// The step of the failure (bounded: the first failing step; induction: the depth).
        step: Option<usize>,
        /// Every failing assertion's location, in the order reported (the first is
        /// `location`).
        all: Vec<String>,
    },
}

/// The outcome of a run: its verdict and the trace it wrote (if any).
#[derive(Clone, Debug)]
pub struct Run {
    /// Passed or failed.
    pub verdict: Verdict,
    /// The VCD trace yosys-smtbmc wrote (a counterexample, or the cover trace).
    pub vcd: Option<PathBuf>,
    /// The log (`<name>.log`).
    pub log: PathBuf,
}

/// Run yosys-smtbmc in `mode` to `depth` steps on `smt2`, with z3, writing a trace to
/// `<name>.vcd` when there is one and the log to `<name>.log`.
pub fn check(
    dir: &Path,
    smt2: &Path,
    mode: Mode,
    depth: usize,
    name: &str,
) -> Result<Run, ToolError> {
    check_with(dir, smt2, mode, depth, name, false)
}

/// [`check`]; with `presat` (bounded mode), yosys-smtbmc first checks at every step that some
/// input sequence satisfies the assumptions (`--presat`), and a model where none does is
/// [`Verdict::Unsatisfiable`] instead of a vacuous pass.
pub fn check_with(
    dir: &Path,
    smt2: &Path,
    mode: Mode,
    depth: usize,
    name: &str,
    presat: bool,
) -> Result<Run, ToolError> {
    if runner::on_path(SOLVER).is_none() {
        return Err(ToolError::Missing {
            tool: SOLVER,
            package: SOLVER,
        });
    }
    let vcd = format!("{name}.vcd");
    let depth_arg = depth.to_string();
    let smt2_arg = script::file(Tool::YosysSmtbmc, dir, smt2)?;
    // `--unroll`: z3 4.8 takes minutes on the uninterpreted-function form of even a small
    // design, and well under a second unrolled.
    let mut args: Vec<&str> = vec!["-s", SOLVER, "--unroll"];
    args.extend(mode.flag());
    if presat && mode == Mode::Bounded {
        args.push("--presat");
    }
    args.extend(["-t", &depth_arg, "--dump-vcd", &vcd]);
    args.push(&smt2_arg);
    let log = format!("{name}.log");
    // Kept in the tool cache by the model, the arguments and the solver's version: a passing
    // run with its log, and its trace when it wrote one (a cover's).
    let key = if cache::enabled() {
        let solver = runner::output_program(Path::new(SOLVER), dir, ["--version"], None)?;
        let model = cache::read_input(Tool::YosysSmtbmc, dir, Path::new(&smt2_arg))?;
        let joined = args.join("\0");
        cache::key(
            Tool::YosysSmtbmc,
            dir,
            &[
                b"smtbmc",
                joined.as_bytes(),
                solver.stdout.as_bytes(),
                &model,
            ],
        )?
    } else {
        None
    };
    // The trace belongs to the run when the run says it wrote one.
    let trace = [vcd.as_str()];
    let files = |out: &ToolOutput| -> &[&str] {
        if out
            .stdout
            .contains(&format!("Writing trace to VCD file: {vcd}"))
        {
            &trace
        } else {
            &[]
        }
    };
    let restored = key.as_ref().and_then(|k| {
        let out = cache::restore(k, dir, &[], Some(&log))?;
        match files(&out) {
            [] => Some(out),
            with_trace => cache::restore(k, dir, with_trace, Some(&log)),
        }
    });
    let out = match restored {
        Some(out) => out,
        None => {
            let out = runner::output(Tool::YosysSmtbmc, dir, &args, Some(&log))?;
            if let Some(key) = &key {
                cache::store(key, dir, files(&out), &out);
            }
            out
        }
    };
    let verdict = parse(&out, mode)?;
    let vcd = Some(dir.join(&vcd)).filter(|p| p.is_file());
    Ok(Run {
        verdict,
        vcd,
        log: dir.join(log),
    })
}

/// Reads yosys-smtbmc's verdict from its output.
fn parse(out: &ToolOutput, mode: Mode) -> Result<Verdict, ToolError> {
    let text = &out.stdout;
    let status = text
        .lines()
        .rev()
        .find_map(|l| l.split("Status: ").nth(1))
        .map(str::trim)
        .ok_or_else(|| out.unexpected("no `Status:` line from yosys-smtbmc"))?;
    // `##   0:00:01  Reached cover statement at ...`: the message after the time stamp.
    let message = |l: &str| {
        let l = l.trim_start_matches('#').trim_start();
        l.split_once("  ").map_or(l, |(_, m)| m).trim().to_owned()
    };
    let messages: Vec<String> = text.lines().map(message).collect();
    match status {
        "PASSED" => {
            let reached = messages
                .iter()
                .filter_map(|m| m.strip_prefix("Reached cover statement at "))
                .filter_map(|m| m.rsplit(" in step ").next())
                .filter_map(|s| s.trim_end_matches('.').parse().ok())
                .collect();
            Ok(Verdict::Passed { reached })
        }
        "PREUNSAT" => Ok(Verdict::Unsatisfiable {
            step: messages.iter().rev().find_map(|m| {
                m.strip_prefix("Checking assumptions in step")
                    .map(|r| r.trim_start_matches('s').trim())
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok())
            }),
        }),
        "FAILED" => {
            let all: Vec<String> = messages
                .iter()
                .filter_map(|m| {
                    m.strip_prefix("Assert failed in ")
                        .and_then(|r| r.split_once(": "))
                        .map(|(_, loc)| loc.to_owned())
                        .or_else(|| {
                            m.strip_prefix("Unreached cover statement at ")
                                .map(|r| r.trim_end_matches('.').to_owned())
                        })
                })
                .map(|loc| loc.split_whitespace().next().unwrap_or_default().to_owned())
                .collect();
            let location = all.first().cloned().unwrap_or_default();
            let line = line_of(&location);
            let step_of = |prefix: &str| {
                messages.iter().rev().find_map(|m| {
                    m.strip_prefix(prefix)
                        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                        .and_then(|n| n.parse().ok())
                })
            };
            let step = match mode {
                Mode::Bounded => step_of("Checking assertions in step "),
                Mode::Induction => step_of("Trying induction in step "),
                Mode::Cover => None,
            };
            Ok(Verdict::Failed {
                line,
                location,
                step,
                all,
            })
        }
        other => Err(out.unexpected(format!("yosys-smtbmc status `{other}`"))),
    }
}

/// The source line of an assertion location `file.v:179.212-180.39`: yosys 0.23 places an
/// assertion in an `always @*` block from the end of the statement before it to its own end,
/// so the line is the span's end.
pub fn line_of(location: &str) -> Option<usize> {
    location
        .rsplit_once(".v:")
        .map(|(_, span)| span.rsplit('-').next().unwrap_or(span))
        .and_then(|end| end.split('.').next())
        .and_then(|n| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsatisfiable_assumptions_are_no_pass() {
        use std::os::unix::process::ExitStatusExt;
        let out = ToolOutput {
            tool: "yosys-smtbmc".into(),
            dir: PathBuf::from("."),
            status: std::process::ExitStatus::from_raw(256),
            stdout: "##   0:00:00  Solver: z3\n##   0:00:00  Checking assumptions in step 0..\n\
                     ##   0:00:00  Checking assertions in step 0..\n\
                     ##   0:00:00  Checking assumptions in step 1..\n\
                     ##   0:00:00  Assumptions are unsatisfiable!\n\
                     ##   0:00:00  Status: PREUNSAT\n"
                .into(),
            stderr: String::new(),
            log: None,
        };
        assert_eq!(
            parse(&out, Mode::Bounded).unwrap(),
            Verdict::Unsatisfiable { step: Some(1) }
        );
    }

    #[test]
    fn the_line_is_the_end_of_the_span() {
        assert_eq!(line_of("/w/properties.v:179.212-180.39"), Some(180));
        assert_eq!(line_of("p.v:12.9-12.40"), Some(12));
        assert_eq!(line_of("nowhere"), None);
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::flow::testing::work_dir;

    /// Assumptions no input satisfies make every bounded check pass; with `presat` the run
    /// says so instead. A combinational loop gets no model at all, its signals named.
    #[test]
    fn vacuous_models_are_found() {
        let dir = work_dir("smtbmc-vacuous");
        let source = dir.path().join("t.v");
        std::fs::write(
            &source,
            "module t(input clock, input a);\n  always @* begin\n    assume(a);\n    \
             assume(!a);\n    assert(1'b0);\n  end\nendmodule\n",
        )
        .unwrap();
        let Model::Ready(model) = smt2(dir.path(), &[source], "t", &[], "t").unwrap() else {
            panic!("no loop here")
        };
        let plain = check(dir.path(), &model, Mode::Bounded, 2, "plain").unwrap();
        assert_eq!(
            plain.verdict,
            Verdict::Passed { reached: vec![] },
            "vacuous"
        );
        let presat = check_with(dir.path(), &model, Mode::Bounded, 2, "presat", true).unwrap();
        assert_eq!(presat.verdict, Verdict::Unsatisfiable { step: Some(0) });
        let looped = dir.path().join("l.v");
        std::fs::write(
            &looped,
            "module l(input clock, input a, output reg q);\n  wire n = ~q;\n  always @* q = n & a;\n  \
             always @* assert(q == 1'b0);\nendmodule\n",
        )
        .unwrap();
        match smt2(dir.path(), &[looped], "l", &[], "l").unwrap() {
            Model::Vacuous(crate::flow::yosys::Vacuity::Loops { module, loops }) => {
                assert_eq!(module, "l");
                assert!(
                    loops.iter().any(|l| l.contains('q') || l.contains('n')),
                    "{loops:?}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
