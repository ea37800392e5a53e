//! `retrogate schematic`: the synthesised circuit as a picture. yosys synthesises the design
//! for iCE40 and draws the netlist (`show -format dot`); Graphviz lays it out as SVG.

use super::args::{SchematicArgs, SchematicDesignArgs};
use super::design::{jr01, step};
use super::files::{absolute, require_svg, write_all_or_nothing};
use super::ui::Ui;
use super::CliError;
use crate::designs::JR01_MODULE;
use crate::flow::{dot, yosys};
use crate::output_dir;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The schematic of `module` (Verilog `verilog`) as SVG text, built in `work`.
pub fn schematic_svg(
    module: &str,
    verilog: &str,
    work: &Path,
    ui: &Ui,
) -> Result<String, CliError> {
    std::fs::create_dir_all(work).map_err(|source| CliError::Write {
        path: work.to_path_buf(),
        source,
    })?;
    let source = work.join(format!("{module}.v"));
    std::fs::write(&source, verilog).map_err(|source_err| CliError::Write {
        path: source.clone(),
        source: source_err,
    })?;
    let spinner = ui.spinner("yosys: synth_ice40, show");
    let prefix = format!("{module}_schematic");
    // yosys runs in `work`: name the source relative to it.
    let graph = yosys::show_ice40(
        work,
        &[PathBuf::from(format!("{module}.v"))],
        module,
        &prefix,
    )
    .map_err(step)?;
    spinner.say("dot -Tsvg");
    let svg = dot::svg(work, &graph, &format!("{prefix}.svg")).map_err(step)?;
    std::fs::read_to_string(&svg)
        .map_err(|e| CliError::Step(format!("cannot read {}: {e}", svg.display())))
}

use crate::circuit::sticks_strategy::{sticks_strategy_verilog, Impl};

/// Resolves and checks `--out` (an SVG file, new or retrogate's) and `--work` (a folder, new,
/// empty or retrogate's) before anything is written; returns them absolute, with the design's
/// subfolder of the work folder (and the `--out` path as given, for the message).
fn paths(
    out: Option<PathBuf>,
    default: &str,
    work: &Path,
    sub: &str,
) -> Result<(PathBuf, PathBuf, PathBuf), CliError> {
    let given = out.unwrap_or_else(|| PathBuf::from(default));
    require_svg(&given, "the schematic is SVG", default)?;
    let path = absolute(&given)?;
    output_dir::check_file("--out", &path)?;
    let work = absolute(work)?;
    output_dir::check_folder("--work", &work)?;
    Ok((given, path, work.join(sub)))
}

/// Runs `retrogate schematic`.
pub fn run(args: SchematicArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    match args.design {
        SchematicDesignArgs::Jr01 => {
            let (given, path, work) = paths(args.out, "schematic-jr01.svg", &args.work, "jr01")?;
            let d = jr01()?;
            output_dir::claim(work.parent().expect("a subfolder"), "jr01")?;
            let svg = schematic_svg(JR01_MODULE, &d.design.verilog, &work, ui)?;
            write_all_or_nothing(&[(path, svg)])?;
            writeln!(out, "wrote {}", given.display())?;
        }
        SchematicDesignArgs::Sticks(a) => {
            let (given, path, work) =
                paths(args.out, "schematic-sticks.svg", &args.work, "sticks")?;
            let game = a.game.game()?;
            // A game too large for a strategy circuit is bad input (exit 2), found before any
            // file is written.
            crate::solver::strategy::sticks_table(&game)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let implementation: Impl = a.implementation.into();
            let verilog = sticks_strategy_verilog(&game, implementation).map_err(step)?;
            output_dir::claim(work.parent().expect("a subfolder"), "sticks")?;
            let svg = schematic_svg("sticks_strategy", &verilog, &work, ui)?;
            write_all_or_nothing(&[(path, svg)])?;
            writeln!(out, "wrote {}", given.display())?;
        }
    }
    Ok(())
}
