//! ABC as yosys ships it (`yosys-abc`): model checking of a design with immediate `assert` /
//! `assume` statements (`read_verilog -formal`), turned into an AIGER file by yosys.
//!
//! * [`aiger`] writes `dir/<name>.aig`: every assertion a bad-state property, every
//!   assumption a constraint, initial values kept (`write_aiger -zinit`; a register without
//!   one starts at a free value); a design with a combinational loop gets no model but the
//!   loop's signals ([`Model::Vacuous`]).
//! * [`pdr`] runs ABC's property-directed reachability (IC3): an unbounded proof, a
//!   counterexample, or no verdict within its time limit.
//! * [`bmc3`] runs ABC's bounded model check to a number of frames; [`bmcs`] the same check
//!   with ABC's newer `&bmcs` engine and the Glucose SAT solver, faster on deep checks (the
//!   heap solver's 159 frames: 27 to 34 s against bmc3's 61 to 73 s, 2026-12-04).
//! * [`induction`] runs the inductive step of ABC's k-induction (`ind`) on all assertions at
//!   once (`orpos`): with [`bmc3`] to at least as many frames from the initial state (the base
//!   case), an unbounded proof.
//! * [`dsat`] checks a model without registers (ABC's combinational SAT check), which `bmc3`
//!   refuses; [`registers`] reads how many a model has from its AIGER header.
//! * [`dprove`] runs ABC's sequential equivalence check of a miter (`dprove`: register
//!   correspondence, retiming and k-induction, with interpolation and PDR off so that it
//!   ends in a minute at most): every output 0 on every path from the initial state, a counterexample,
//!   or no verdict.
//! * [`aiger_probed`] is [`aiger`] with wrapper wires connected to signals inside the
//!   flattened design ([`Probe`]), so that a wrapper can assert invariants over a design's
//!   internal state (yosys reads no hierarchical references); [`wrapped_aiger`] writes a
//!   design and its generated wrapper first.
//!
//! Verdicts are read strictly from ABC's own words ("Property proved.", "Output N of miter
//! ... was asserted in frame F.", "No output asserted in N frames.", "Networks are
//! equivalent."); anything else is [`Verdict::Undecided`] with the reason, never a pass.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::runner::{write_file, Tool, ToolError};
use super::script::{self, Interpreter};
use super::yosys::{self, Model};

/// Build `dir/<name>.aig` from `sources` (Verilog read with `-sv -formal`) with top module
/// `top`, in the script `<name>.ys` (log `<name>_yosys.log`). A combinational loop in the
/// flattened design (yosys `check`) is [`Model::Vacuous`]: the AIGER flow would cut it into a
/// free signal.
pub fn aiger(dir: &Path, sources: &[PathBuf], top: &str, name: &str) -> Result<Model, ToolError> {
    aiger_probed(dir, sources, top, name, &[])
}

/// The design `module` (its Verilog `design`) and a wrapper `top` around it (its Verilog
/// `wrapper`) written into `dir` as `<module>.v` and `<top>.v`, and the wrapper built into
/// `dir/<top>.aig` as [`aiger_probed`] builds it: the set-up of every formal check of a
/// design inside a generated wrapper.
pub fn wrapped_aiger(
    dir: &Path,
    (module, design): (&str, &str),
    (top, wrapper): (&str, &str),
    probes: &[Probe],
) -> Result<Model, ToolError> {
    let design_file = format!("{module}.v");
    let wrapper_file = format!("{top}.v");
    write_file(Tool::Yosys, dir, &design_file, design)?;
    write_file(Tool::Yosys, dir, &wrapper_file, wrapper)?;
    aiger_probed(
        dir,
        &[PathBuf::from(wrapper_file), PathBuf::from(design_file)],
        top,
        top,
        probes,
    )
}

/// A wire of the wrapper (undriven in its source, marked `(* keep *)`) and the signal of the
/// flattened design it is connected to (yosys `connect -set`), after the memories are turned
/// into flip-flops (a memory word is `<instance>.<memory>[<index>]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The wrapper's wire.
    pub wire: String,
    /// The design's signal, by its flattened name (`dut.n`, `dut.mem[3]`).
    pub signal: String,
}

/// [`aiger`] with each [`Probe`]'s wire driven by its signal (a probe whose names yosys does
/// not know stops the script with an error).
pub fn aiger_probed(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    name: &str,
    probes: &[Probe],
) -> Result<Model, ToolError> {
    script::module(Tool::Yosys, top)?;
    let mut connects = String::new();
    if !probes.is_empty() {
        connects.push_str(&format!("cd {top}\n"));
        for probe in probes {
            for name in [&probe.wire, &probe.signal] {
                if !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c))
                {
                    return Err(ToolError::UnsafeName {
                        tool: Tool::Yosys.program(),
                        name: name.clone(),
                    });
                }
            }
            connects.push_str(&format!("connect -set {} {}\n", probe.wire, probe.signal));
        }
        connects.push_str("cd ..\n");
    }
    let mut text = yosys::read_sources(dir, sources, "-formal ")?;
    text.push_str(&format!(
        "hierarchy -check -top {top}\n\
         proc -norom\n\
         flatten\n\
         {check}\
         prep -top {top}\n\
         memory -nordff\n\
         {connects}\
         opt -fast\n\
         async2sync\n\
         chformal -assume -early\n\
         dffunmap\n\
         setundef -undriven -anyseq\n\
         techmap\n\
         dffunmap\n\
         abc -g AND -fast\n\
         opt_clean\n\
         write_aiger -zinit {name}.aig\n",
        check = yosys::CHECK_COMMANDS,
    ));
    let aig = format!("{name}.aig");
    let out = script::output_cached(
        dir,
        Interpreter::YosysQuiet,
        name,
        &text,
        Some(&format!("{name}_yosys.log")),
        &[&aig],
        |_| true,
    )?;
    if let Some(vacuity) = yosys::loops(&format!("{}\n{}", out.stdout, out.stderr)) {
        return Ok(Model::Vacuous(vacuity));
    }
    out.check()?
        .expect_file(dir.join(format!("{name}.aig")))
        .map(Model::Ready)
}

/// What ABC said about an AIGER model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `pdr`: no assertion fails on any path from the initial state ("Property proved.");
    /// `ind`: the inductive step holds ("Networks are equivalent.").
    Proved,
    /// `bmc3`, `&bmcs`: no assertion fails within `frames` cycles from the initial state.
    HoldsFor {
        /// Frames checked.
        frames: u64,
    },
    /// An assertion fails: the `output`-th bad-state property (in the order yosys wrote the
    /// assertions) in frame `frame` (0 is the initial state).
    Failed {
        /// Index of the failing property.
        output: usize,
        /// The cycle it fails in.
        frame: u64,
    },
    /// No verdict (time limit, resource limit, or output ABC's words do not cover).
    Undecided {
        /// Why, in words.
        reason: String,
    },
}

/// One ABC run: its verdict and its log.
#[derive(Clone, Debug)]
pub struct Run {
    /// The verdict.
    pub verdict: Verdict,
    /// `dir/<name>.log`.
    pub log: PathBuf,
}

/// Run the ABC `commands` on `aig` (read first) in the script `<name>.abc`, leaving
/// `<name>.log` in `dir`, with the verdict `judge` reads from ABC's output. Through the tool
/// cache ([`script::output_cached`], keyed by the script and the model's content): a verdict
/// is stored, a run that gave none (a time limit) is not.
fn check(
    dir: &Path,
    aig: &Path,
    name: &str,
    commands: &str,
    judge: impl Fn(&str) -> Verdict,
) -> Result<Run, ToolError> {
    let aig = script::file(Tool::YosysAbc, dir, aig)?;
    let out = script::output_cached(
        dir,
        Interpreter::Abc,
        name,
        &format!("read_aiger {aig}\n{commands}"),
        None,
        &[],
        |out| !matches!(judge(&out.stdout), Verdict::Undecided { .. }),
    )?
    .check()?;
    Ok(Run {
        verdict: judge(&out.stdout),
        log: dir.join(format!("{name}.log")),
    })
}

/// Run ABC's `pdr` on `aig` with a time limit, in the script `<name>.abc`, leaving
/// `<name>.log` in `dir` ([`PdrEngine::Plain`]).
pub fn pdr(dir: &Path, aig: &Path, limit: Duration, name: &str) -> Result<Run, ToolError> {
    PdrEngine::Plain.run(dir, aig, limit, name)
}

/// The ways of running ABC's `pdr`; which is fastest depends on the model. Every one keeps the
/// outputs and their frames, so its verdicts read as plain `pdr`'s. Like every `pdr` run, their
/// times rest on the SAT solver's default seed: on the Alchitry Cu's heap-game controller, with
/// seeds 1 and 7, neither plain `pdr` nor `pdr -p` answered in 120 s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdrEngine {
    /// `pdr` as it comes.
    Plain,
    /// `pdr -p`, reusing its proof obligations in the last frame. On the Alchitry Cu's heap-game
    /// controller it proved in 70 s what plain `pdr` proved in 105 s (2026-12-05; `pdr -i`
    /// took 83 s, `-c` 101 s, and `-y`, `-f` and `-m` gave no answer in 125 s).
    ReusingObligations,
    /// `pdr` after ABC's signal correspondence (`&scorr`: the nodes that are equal in every
    /// state reachable from the initial one, proved so by induction, are merged). On the Go
    /// Board's compact heap-game controller this took 16 s where plain `pdr` took 108 s; on the
    /// Alchitry Cu's controller it gave no answer in 300 s (2026-12-05).
    AfterScorr,
}

impl PdrEngine {
    /// Runs this engine on `aig` with a time limit, in the script `<name>.abc`, leaving
    /// `<name>.log` in `dir`.
    pub fn run(
        self,
        dir: &Path,
        aig: &Path,
        limit: Duration,
        name: &str,
    ) -> Result<Run, ToolError> {
        let secs = limit.as_secs().max(1);
        let commands = match self {
            PdrEngine::Plain => format!("fold\nstrash\npdr -T {secs}\n"),
            PdrEngine::ReusingObligations => format!("fold\nstrash\npdr -p -T {secs}\n"),
            PdrEngine::AfterScorr => format!("fold\nstrash\n&get\n&scorr\n&put\npdr -T {secs}\n"),
        };
        check(dir, aig, name, &commands, judge_pdr)
    }

    /// How a report names it.
    pub fn describe(self) -> &'static str {
        match self {
            PdrEngine::Plain => "ABC pdr",
            PdrEngine::ReusingObligations => "ABC pdr -p, proof obligations reused",
            PdrEngine::AfterScorr => "ABC &scorr, then pdr",
        }
    }

    /// The name of its script and log beside `base` (`<base>_pdr`, `<base>_scorr_pdr`).
    pub fn file_name(self, base: &str) -> String {
        match self {
            PdrEngine::Plain | PdrEngine::ReusingObligations => format!("{base}_pdr"),
            PdrEngine::AfterScorr => format!("{base}_scorr_pdr"),
        }
    }
}

/// Run ABC's `bmc3` on `aig` for `frames` cycles, in the script `<name>.abc`, leaving
/// `<name>.log` in `dir`.
pub fn bmc3(dir: &Path, aig: &Path, frames: u64, name: &str) -> Result<Run, ToolError> {
    let commands = format!("fold\nstrash\nbmc3 -F {frames}\n");
    check(dir, aig, name, &commands, |stdout| {
        judge_bmc3(stdout, frames)
    })
}

/// Run ABC's `&bmcs -g` (the bounded model check of ABC's `&` package, with Glucose 3.0) on
/// `aig` for `frames` cycles, in the script `<name>.abc`, leaving `<name>.log` in `dir`. Its
/// verdicts are [`bmc3`]'s; `&bmcs` may check a few more frames than asked for (it unrolls one
/// frame ahead), and the verdict is then [`Verdict::HoldsFor`] the asked-for `frames`.
pub fn bmcs(dir: &Path, aig: &Path, frames: u64, name: &str) -> Result<Run, ToolError> {
    let commands = format!("fold\nstrash\n&get -n\n&bmcs -g -F {frames}\n");
    check(dir, aig, name, &commands, |stdout| {
        judge_bmcs(stdout, frames)
    })
}

/// Run the inductive step of ABC's k-induction (`ind -F <frames>`) on `aig`, every assertion
/// at once (`orpos`: one output, high when any is), in the script `<name>.abc`, leaving
/// `<name>.log` in `dir`. [`Verdict::Proved`] when `frames` consecutive cycles where every
/// assertion holds imply the next one; with [`bmc3`] from the initial state to more than
/// `frames` frames, every assertion holds on every cycle of every path. A failing step is no
/// counterexample (its first state may be unreachable): it is [`Verdict::Undecided`].
pub fn induction(dir: &Path, aig: &Path, frames: u64, name: &str) -> Result<Run, ToolError> {
    let commands = format!("fold\nstrash\norpos\nind -F {frames}\n");
    check(dir, aig, name, &commands, |stdout| {
        judge_induction(stdout, frames)
    })
}

/// Run ABC's sequential equivalence check `dprove -j -p -F <frames>` (without interpolation
/// and PDR, which can run for minutes on a miter they cannot close; `frames` is the depth of
/// its induction) on the miter `aig`, every output
/// of which is high where the two sides differ, in the script `<name>.abc`, leaving
/// `<name>.log` in `dir` (and, when it gives no verdict, ABC's reduced miter `sm01.aig`).
/// [`Verdict::Proved`] when no output is ever high from the initial state.
pub fn dprove(dir: &Path, aig: &Path, frames: u64, name: &str) -> Result<Run, ToolError> {
    let commands = format!("strash\ndprove -j -p -F {frames}\n");
    check(dir, aig, name, &commands, judge_dprove)
}

/// Run ABC's combinational SAT check `dsat` on `aig`, a model without registers (see
/// [`registers`]; `bmc3` refuses those) and with one output, in the script `<name>.abc`,
/// leaving `<name>.log` in `dir`. [`Verdict::Proved`] when no input sets the output
/// ("UNSATISFIABLE"), [`Verdict::Failed`] (output 0, frame 0) when one does ("SATISFIABLE").
pub fn dsat(dir: &Path, aig: &Path, name: &str) -> Result<Run, ToolError> {
    check(dir, aig, name, "strash\ndsat\n", judge_dsat)
}

/// Reads `dsat`'s verdict.
fn judge_dsat(stdout: &str) -> Verdict {
    let said = |word: &str| stdout.lines().any(|l| l.trim_start().starts_with(word));
    if said("UNSATISFIABLE") {
        Verdict::Proved
    } else if said("SATISFIABLE") {
        Verdict::Failed {
            output: 0,
            frame: 0,
        }
    } else {
        Verdict::Undecided {
            reason: format!("dsat gave no verdict: {}", last_words(stdout)),
        }
    }
}

/// The registers of the AIGER file `aig`: `L` of its header `aig M I L O A` (a text line in
/// the binary format too).
pub fn registers(aig: &Path) -> Result<u64, ToolError> {
    use std::io::BufRead;
    let dir = aig.parent().unwrap_or(Path::new("."));
    let failed = |err: std::io::Error| {
        ToolError::io(
            Tool::YosysAbc,
            format!("reading {}", aig.display()),
            dir,
            err,
        )
    };
    let mut header = String::new();
    std::io::BufReader::new(std::fs::File::open(aig).map_err(failed)?)
        .read_line(&mut header)
        .map_err(failed)?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    match fields.as_slice() {
        ["aig" | "aag", _, _, latches, ..] => latches.parse().ok(),
        _ => None,
    }
    .ok_or_else(|| {
        failed(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("no AIGER header: {:?}", header.trim_end()),
        ))
    })
}

/// Reads `dprove`'s verdict.
fn judge_dprove(stdout: &str) -> Verdict {
    if let Some((output, frame)) = asserted(stdout) {
        return Verdict::Failed { output, frame };
    }
    if stdout
        .lines()
        .any(|l| l.trim_start().starts_with("Networks are equivalent."))
    {
        return Verdict::Proved;
    }
    Verdict::Undecided {
        reason: format!("dprove gave no verdict: {}", last_words(stdout)),
    }
}

/// Reads `ind`'s verdict.
fn judge_induction(stdout: &str, frames: u64) -> Verdict {
    if stdout
        .lines()
        .any(|l| l.trim_start().starts_with("Networks are equivalent."))
    {
        return Verdict::Proved;
    }
    Verdict::Undecided {
        reason: format!(
            "the induction (ind -F {frames}) did not close: {}",
            last_words(stdout)
        ),
    }
}

/// `Output 3 of miter "x" was asserted in frame 7.` -> (3, 7).
fn asserted(stdout: &str) -> Option<(usize, u64)> {
    stdout.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("Output ")?;
        let (output, rest) = rest.split_once(' ')?;
        let frame = rest.split("was asserted in frame ").nth(1)?.trim_start();
        let frame = frame.split(|c: char| !c.is_ascii_digit()).next()?;
        Some((output.parse().ok()?, frame.parse().ok()?))
    })
}

/// The last non-empty line of ABC's output, for an undecided verdict.
fn last_words(stdout: &str) -> String {
    stdout
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no output")
        .to_owned()
}

/// Reads `pdr`'s verdict.
fn judge_pdr(stdout: &str) -> Verdict {
    if let Some((output, frame)) = asserted(stdout) {
        return Verdict::Failed { output, frame };
    }
    if stdout
        .lines()
        .any(|l| l.trim_start().starts_with("Property proved."))
    {
        return Verdict::Proved;
    }
    Verdict::Undecided {
        reason: format!("pdr gave no verdict: {}", last_words(stdout)),
    }
}

/// Reads `bmc3`'s verdict for `frames` frames.
fn judge_bmc3(stdout: &str, frames: u64) -> Verdict {
    if let Some((output, frame)) = asserted(stdout) {
        return Verdict::Failed { output, frame };
    }
    let expect = format!("No output asserted in {frames} frames");
    if stdout.lines().any(|l| l.trim_start().starts_with(&expect)) {
        return Verdict::HoldsFor { frames };
    }
    Verdict::Undecided {
        reason: format!(
            "bmc3 reached no verdict for {frames} frames: {}",
            last_words(stdout)
        ),
    }
}

/// Reads `&bmcs`'s verdict for `frames` frames: "No output failed in N frames." with N at
/// least `frames` (frames 0 to N - 1 checked).
fn judge_bmcs(stdout: &str, frames: u64) -> Verdict {
    if let Some((output, frame)) = asserted(stdout) {
        return Verdict::Failed { output, frame };
    }
    let checked = stdout.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("No output failed in ")?;
        let (n, rest) = rest.split_once(' ')?;
        rest.starts_with("frames.")
            .then_some(n.parse::<u64>().ok()?)
    });
    match checked {
        Some(n) if n >= frames => Verdict::HoldsFor { frames },
        _ => Verdict::Undecided {
            reason: format!(
                "&bmcs reached no verdict for {frames} frames: {}",
                last_words(stdout)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dsat`'s two answers, as yosys 0.23's ABC prints them (2026-12-05).
    #[test]
    fn dsat_verdicts_are_read_strictly() {
        assert_eq!(
            judge_dsat("UNSATISFIABLE  Time =     0.01 sec\n"),
            Verdict::Proved
        );
        assert_eq!(
            judge_dsat("SATISFIABLE    Time =     0.01 sec\n"),
            Verdict::Failed {
                output: 0,
                frame: 0
            }
        );
        assert!(matches!(
            judge_dsat("Error: the network is not a miter.\n"),
            Verdict::Undecided { .. }
        ));
    }

    #[test]
    fn registers_come_from_the_aiger_header() {
        let dir = tempfile::tempdir().unwrap();
        let aig = dir.path().join("m.aig");
        std::fs::write(&aig, b"aig 9 2 3 1 4\n\x02\x01").unwrap();
        assert_eq!(registers(&aig).unwrap(), 3);
        std::fs::write(&aig, b"aag 1 1 0 1 0\n2\n2\n").unwrap();
        assert_eq!(registers(&aig).unwrap(), 0);
        std::fs::write(&aig, b"not an aiger file\n").unwrap();
        assert!(registers(&aig).is_err());
    }

    #[test]
    fn dprove_verdicts_are_read_strictly() {
        let proved = "K-step (K= 1,I= 28):  Latches =     0. Nodes =      0. Time =     0.01 sec\n\
                      Networks are equivalent.  Time =     0.02 sec\n";
        assert_eq!(judge_dprove(proved), Verdict::Proved);
        let failed = "Output 3 of miter \"miter\" was asserted in frame 7. Time =     0.01 sec\n\
                      Networks are not equivalent.\n";
        assert_eq!(
            judge_dprove(failed),
            Verdict::Failed {
                output: 3,
                frame: 7
            }
        );
        for other in [
            "BDDs blew up during image computation.  Time =     1.34 sec\n\
             Networks are UNDECIDED.   Time =     1.39 sec\n",
            "",
        ] {
            assert!(
                matches!(judge_dprove(other), Verdict::Undecided { .. }),
                "{other}"
            );
        }
    }

    #[test]
    fn pdr_verdicts_are_read_strictly() {
        let proved = "Invariant F[6] : 147 clauses with 36 flops (out of 37) (cex = 0, ave = 5.88)\n\
                      Verification of invariant with 147 clauses was successful.  Time =     0.00 sec\n\
                      Property proved.  Time =     0.11 sec\n";
        assert_eq!(judge_pdr(proved), Verdict::Proved);
        let failed = "Output 12 of miter \"props\" was asserted in frame 9.  Time =     0.05 sec\n";
        assert_eq!(
            judge_pdr(failed),
            Verdict::Failed {
                output: 12,
                frame: 9
            }
        );
        for other in [
            "",
            "Reached timeout (5 seconds).\n",
            "Property UNDECIDED.\n",
        ] {
            assert!(
                matches!(judge_pdr(other), Verdict::Undecided { .. }),
                "{other:?}"
            );
        }
    }

    #[test]
    fn induction_verdicts_are_read_strictly() {
        let proved =
            "Frame    5 : PI =  581. PO =  175. AIG = 4680. Conf =   3051. Time =     0.61 sec\n\
                      Completed 6 iterations.\n\
                      Networks are equivalent.  Time =     0.73 sec\n";
        assert_eq!(judge_induction(proved, 8), Verdict::Proved);
        for other in [
            "",
            "Networks are UNDECIDED.  Time =     0.15 sec\n",
            "Error: Currently this command works only for single-output miter.\n",
        ] {
            assert!(
                matches!(judge_induction(other, 8), Verdict::Undecided { .. }),
                "{other:?}"
            );
        }
    }

    #[test]
    fn bmc3_verdicts_are_read_strictly() {
        let pass = "No output asserted in 100 frames. Resource limit reached (conf limit 0). Time = 3.46 sec\n";
        assert_eq!(judge_bmc3(pass, 100), Verdict::HoldsFor { frames: 100 });
        assert!(matches!(
            judge_bmc3("No output asserted in 12 frames.\n", 100),
            Verdict::Undecided { .. }
        ));
        let fail = "Output 2 of miter \"x\" was asserted in frame 23. Time = 0.05 sec\n";
        assert_eq!(
            judge_bmc3(fail, 100),
            Verdict::Failed {
                output: 2,
                frame: 23
            }
        );
        assert!(matches!(judge_bmc3("", 100), Verdict::Undecided { .. }));
    }

    /// `&bmcs`'s words, as yosys-abc 0.9 printed them (2026-12-04): a pass may report a frame
    /// more than asked for; a failure pads the frame with spaces.
    #[test]
    fn bmcs_verdicts_are_read_strictly() {
        for (pass, frames) in [
            (
                "No output failed in 159 frames.  Time =    29.78 sec\n",
                159,
            ),
            ("No output failed in 31 frames.  Time =     0.00 sec\n", 30),
        ] {
            assert_eq!(judge_bmcs(pass, frames), Verdict::HoldsFor { frames });
        }
        assert!(matches!(
            judge_bmcs("No output failed in 12 frames.  Time =     0.00 sec\n", 100),
            Verdict::Undecided { .. }
        ));
        let fail =
            "Output 0 was asserted in frame  9 (solved 1 out of 1 outputs).  Time =     0.01 sec\n";
        assert_eq!(
            judge_bmcs(fail, 100),
            Verdict::Failed {
                output: 0,
                frame: 9
            }
        );
        // bmc3's pass is not &bmcs's.
        let bmc3_pass =
            "No output asserted in 100 frames. Resource limit reached (conf limit 0).\n";
        assert!(matches!(
            judge_bmcs(bmc3_pass, 100),
            Verdict::Undecided { .. }
        ));
        assert!(matches!(judge_bmcs("", 100), Verdict::Undecided { .. }));
    }
}
