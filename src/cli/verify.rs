//! `retrogate verify`: the flags become a [`Request`], the bench's [`Plan`] runs it, and this
//! module renders the plan's events, as text lines (flushed as each level finishes) or as one
//! JSON document at the end ([`Document`]).

use std::io::Write;

use super::args::{ResultFormat, VerifyArgs, VerifyTargetArgs};
use super::design::output_folder;
use super::files::absolute;
use super::ui::{Spinner, Ui};
use super::CliError;
use crate::bench::bitstream::{BitstreamSource, BitstreamTarget};
use crate::bench::plan::{
    Design, Document, Event, Mode, Plan, PlanError, Request, SticksDesign, DEFAULT_THINK_CYCLES,
};
use crate::board::BoardId;
use crate::output_dir;

/// The request of the flags (the game checked, nothing run or written).
fn request(args: &VerifyArgs) -> Result<Request, CliError> {
    let design = match &args.design {
        VerifyTargetArgs::Jr01 => Design::Jr01,
        VerifyTargetArgs::Sticks(a) => Design::Sticks(SticksDesign {
            game: a.game.game()?,
            implementation: a.implementation.map(Into::into),
            think_cycles: a.think_cycles.unwrap_or(DEFAULT_THINK_CYCLES),
        }),
        VerifyTargetArgs::Solver(a) => Design::Solver {
            max_count: a.max_count,
            max_take: a.max_take,
        },
        VerifyTargetArgs::HeapsSolver(a) => Design::HeapsSolver {
            max_target: a.max_target,
            max_add: a.max_add,
            max_mul: a.max_mul,
        },
        VerifyTargetArgs::Bitstream(a) => {
            let board: BoardId = a.board.into();
            let design = super::build::design_of(board, a.design, &a.game)?;
            let source = match &a.bin {
                Some(path) => BitstreamSource::File(absolute(path)?),
                None => BitstreamSource::Build(absolute(&super::build::default_folder(
                    board,
                    design.name(),
                ))?),
            };
            Design::Bitstream(Box::new(BitstreamTarget {
                board,
                design,
                source,
            }))
        }
    };
    let mode = match (&args.dut, args.mutants) {
        (Some(_), Some(_)) => {
            return Err(CliError::Usage(
                "--mutants mutates retrogate's emitted Verilog; to check your own file give \
                 --dut without --mutants"
                    .into(),
            ))
        }
        (Some(path), None) => Mode::Dut {
            path: path.clone(),
            top: args.top.clone(),
            allow_bounded: args.allow_bounded,
        },
        (None, Some(n)) => Mode::Mutants {
            n,
            seed: args.seed.unwrap_or(1),
        },
        (None, None) => Mode::Own,
    };
    Ok(Request {
        design,
        mode,
        levels: args.levels.clone(),
    })
}

fn plan_error(e: PlanError) -> CliError {
    if e.is_usage() {
        CliError::Usage(e.to_string())
    } else {
        CliError::Step(e.to_string())
    }
}

pub fn run(args: VerifyArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    let request = request(&args)?;
    let root = output_folder("--work", Some(&args.work))?.expect("given");
    let plan = Plan::new(request).map_err(plan_error)?;
    let work = output_dir::claim(&root, &plan.folder())?;
    let verdict = match args.format {
        ResultFormat::Text => {
            let mut view = TextView::new(ui, Some(out));
            let verdict = plan.run(&work, &mut |e| view.show(e));
            view.finish()?;
            verdict
        }
        ResultFormat::Json => {
            let mut view = TextView::new(ui, None);
            let mut document = Document::new(&plan, &work);
            let verdict = plan.run(&work, &mut |e| {
                view.show(e);
                document.observe(e);
            });
            view.finish()?;
            serde_json::to_writer_pretty(&mut *out, &document).map_err(std::io::Error::from)?;
            writeln!(out)?;
            out.flush()?;
            verdict
        }
    };
    match verdict.failure() {
        None => Ok(()),
        Some(why) => Err(CliError::Failed(why)),
    }
}

/// The text lines of the events (to `out` when given), with a spinner on stderr between them.
struct TextView<'a> {
    ui: &'a Ui,
    out: Option<&'a mut dyn Write>,
    spinner: Option<Spinner>,
    /// The first write error: later lines are dropped, and the error is returned at the end.
    error: Option<std::io::Error>,
}

impl<'a> TextView<'a> {
    fn new(ui: &'a Ui, out: Option<&'a mut dyn Write>) -> Self {
        TextView {
            ui,
            out,
            spinner: None,
            error: None,
        }
    }

    fn show(&mut self, event: &Event<'_>) {
        if let Event::Started(label) = event {
            self.spinner = Some(self.ui.spinner(label));
            return;
        }
        let Some(text) = text(event) else { return };
        if matches!(event, Event::Verdict(_)) {
            self.spinner = None;
        }
        let (Some(out), None) = (self.out.as_deref_mut(), &self.error) else {
            return;
        };
        let write = |out: &mut dyn Write| -> std::io::Result<()> {
            writeln!(out, "{text}")?;
            out.flush()
        };
        let result = match &self.spinner {
            Some(spinner) => spinner.suspend(|| write(out)),
            None => write(out),
        };
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    fn finish(self) -> Result<(), CliError> {
        match self.error {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

/// The lines of one event, or `None` for one that prints nothing.
fn text(event: &Event<'_>) -> Option<String> {
    Some(match event {
        Event::Section(s) => s.to_string(),
        Event::Skipped { level, reason } => format!("{level}: skipped: {reason}"),
        Event::Started(_) => return None,
        Event::Reference(r) => r.to_string(),
        Event::Finished(check) => check.to_string(),
        Event::Counterexample(w) => w.to_string(),
        Event::Cover(t) => match (t.step, &t.vcd, &t.svg) {
            (Some(step), Some(vcd), Some(svg)) => format!(
                "cover {}: reached at step {step}: {} {}",
                t.goal.name(),
                vcd.display(),
                svg.display()
            ),
            _ => format!(
                "cover {}: {}",
                t.goal.name(),
                t.note.as_deref().unwrap_or("not reached")
            ),
        },
        Event::Note(n) => (*n).to_owned(),
        Event::Hardware(f) => format!(
            "hardware: {} SB_LUT4 after synth_ice40; {} on {}",
            f.luts,
            f.critical_path_ns
                .map_or("no critical path reported".to_string(), |ns| format!(
                    "critical path {ns:.2} ns"
                )),
            f.target
        ),
        Event::Mutant(m) => m.to_string(),
        Event::Score { name, score } => format!("{name}: {score}"),
        Event::Verdict(v) => v.to_string(),
    })
}
