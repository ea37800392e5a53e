//! `retrogate schematic`: a circuit as a picture. The J.R. 01 gates are drawn from the covers
//! the circuit implements ([`crate::schematic::gates_dot`]); a LUT netlist is synthesised for
//! iCE40 and drawn by yosys (`show -format dot`), each LUT's INIT written in its box. Graphviz
//! lays either out as SVG.

use super::args::{SchematicArgs, SchematicDesignArgs, SchematicStyle, SticksSchematicStyle};
use super::design::{jr01, step};
use super::files::{absolute, require_svg, write_all_or_nothing};
use super::ui::Ui;
use super::CliError;
use crate::bench::jr01::{Jr01Design, JR01_MODULE};
use crate::flow::{dot, yosys};
use crate::game::{join_commas, Game};
use crate::output_dir;
use crate::schematic::{annotate_lut_inits, controller_dot, gates_dot, ControllerShape};
use crate::solver::strategy::Jr01Strategy as Jr01Solution;
use std::io::Write;
use std::path::{Path, PathBuf};

fn create_work(work: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(work).map_err(|source| CliError::Write {
        path: work.to_path_buf(),
        source,
    })
}

fn write_work(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Lays out `graph` (a DOT file in `work`) as `<prefix>.svg` and returns the SVG text.
fn layout(work: &Path, graph: &Path, prefix: &str) -> Result<String, CliError> {
    let svg = dot::svg(work, graph, &format!("{prefix}.svg")).map_err(step)?;
    std::fs::read_to_string(&svg)
        .map_err(|e| CliError::Step(format!("cannot read {}: {e}", svg.display())))
}

/// The LUT schematic of `module` (Verilog `verilog`) as SVG text, built in `work`: the
/// `synth_ice40` netlist, each SB_LUT4 with its INIT.
pub fn schematic_svg(
    module: &str,
    verilog: &str,
    work: &Path,
    ui: &Ui,
) -> Result<String, CliError> {
    create_work(work)?;
    write_work(&work.join(format!("{module}.v")), verilog)?;
    let spinner = ui.spinner("yosys: synth_ice40, show");
    let prefix = format!("{module}_schematic");
    // yosys runs in `work`: name the source relative to it.
    let shown = yosys::show_ice40(
        work,
        &[PathBuf::from(format!("{module}.v"))],
        module,
        &prefix,
    )
    .map_err(step)?;
    let text = std::fs::read_to_string(&shown.dot)
        .map_err(|e| CliError::Step(format!("cannot read {}: {e}", shown.dot.display())))?;
    let annotated = annotate_lut_inits(&text, &shown.lut_inits).map_err(step)?;
    let graph = work.join(format!("{prefix}_init.dot"));
    write_work(&graph, &annotated)?;
    spinner.say("dot -Tsvg");
    layout(work, &graph, &prefix)
}

/// The J.R. 01 strategy's DOT picture as gates: the covers the circuit implements
/// ([`Jr01Design::chosen`]), titled with their sums.
pub fn jr01_gates_dot(d: &Jr01Design) -> String {
    let names = Jr01Solution::INPUTS;
    let chosen = d.chosen();
    let outputs: Vec<(&str, &crate::logic::Sop)> =
        Jr01Solution::OUTPUTS.iter().copied().zip(chosen).collect();
    let sums: Vec<String> = outputs
        .iter()
        .map(|(name, sop)| format!("{name} = {}", sop.render(&names)))
        .collect();
    let literals: usize = chosen.iter().map(|s| s.literals()).sum();
    let products: usize = chosen.iter().map(|s| s.products()).sum();
    gates_dot(
        &format!(
            "{JR01_MODULE}: {} ({products} products, {literals} literals)",
            sums.join(", ")
        ),
        &names,
        &outputs,
    )
}

/// The DOT picture `dot` as SVG text, laid out in `work` as `<prefix>.dot` and `.svg`.
fn dot_svg(dot: &str, prefix: &str, work: &Path, ui: &Ui) -> Result<String, CliError> {
    create_work(work)?;
    let graph = work.join(format!("{prefix}.dot"));
    write_work(&graph, dot)?;
    let _spinner = ui.spinner("dot -Tsvg");
    layout(work, &graph, prefix)
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
        SchematicDesignArgs::Jr01(a) => {
            let (given, path, work) = paths(args.out, "schematic-jr01.svg", &args.work, "jr01")?;
            let d = jr01()?;
            output_dir::claim(work.parent().expect("a subfolder"), "jr01")?;
            let svg = match a.style {
                SchematicStyle::Gates => dot_svg(
                    &jr01_gates_dot(&d),
                    &format!("{JR01_MODULE}_gates"),
                    &work,
                    ui,
                )?,
                SchematicStyle::Luts => schematic_svg(JR01_MODULE, &d.design.verilog, &work, ui)?,
            };
            write_all_or_nothing(&[(path, svg)])?;
            writeln!(out, "wrote {}", given.display())?;
        }
        SchematicDesignArgs::Sticks(a) => {
            let (given, path, work) =
                paths(args.out, "schematic-sticks.svg", &args.work, "sticks")?;
            let game = a.game.game()?;
            // A game too large for a strategy circuit is bad input (exit 2), found before any
            // file is written.
            let table = crate::solver::strategy::sticks_table(&game)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let implementation: Impl = a.implementation.into();
            let verilog = sticks_strategy_verilog(&game, implementation).map_err(step)?;
            output_dir::claim(work.parent().expect("a subfolder"), "sticks")?;
            let svg = match a.style {
                SticksSchematicStyle::Luts => {
                    schematic_svg("sticks_strategy", &verilog, &work, ui)?
                }
                SticksSchematicStyle::Blocks => {
                    let title = format!(
                        "sticks_game: {} sticks, take {{{}}}, last stick {}",
                        game.count(),
                        join_commas(game.take()),
                        game.last()
                    );
                    let dot = controller_dot(&ControllerShape {
                        sticks_bits: table.sticks_bits,
                        take_bits: table.take_bits,
                        lookup: implementation.name(),
                        title: &title,
                    });
                    dot_svg(&dot, "sticks_game_blocks", &work, ui)?
                }
            };
            write_all_or_nothing(&[(path, svg)])?;
            writeln!(out, "wrote {}", given.display())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gate picture's DOT, without Graphviz: one literal edge per literal of the covers the
    /// circuit uses (13, as the J.R. 01 manual counts them), a bubble on each complemented one, one AND
    /// box per product of two or more literals.
    #[test]
    fn jr01_gates_dot_has_an_edge_per_literal_of_the_cover() {
        let d = Jr01Design::build().unwrap();
        let dot = jr01_gates_dot(&d);
        let literal_edges: Vec<&str> = dot
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("in_") && l.contains(" -> "))
            .collect();
        let cover = d.chosen();
        let literals: usize = cover.iter().map(|s| s.literals()).sum();
        let complemented: usize = cover
            .iter()
            .flat_map(|s| s.cubes())
            .map(|c| (c.mask & !c.bits).count_ones() as usize)
            .sum();
        let products: usize = cover
            .iter()
            .map(|s| s.cubes().iter().filter(|c| c.literals() >= 2).count())
            .sum();
        assert_eq!(literal_edges.len(), literals);
        assert_eq!(literals, 13);
        assert_eq!(
            literal_edges
                .iter()
                .filter(|l| l.contains("arrowhead=odot"))
                .count(),
            complemented
        );
        assert_eq!(dot.matches("[label=\"&\"").count(), products);
        assert!(dot.contains("X = A + B·C"), "{dot}");
    }
}
