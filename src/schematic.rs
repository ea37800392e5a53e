//! Schematics as Graphviz DOT text (pure; [`crate::flow::dot`] lays them out):
//! - [`gates_dot`]: sums of products as AND and OR gates (IEC symbols `&` and `≥1`), one AND gate
//!   per product and one edge per literal, a complemented literal drawn as a bubble (negation
//!   circle) at the gate input and labelled with a prime (`C'`);
//! - [`annotate_lut_inits`]: writes each `SB_LUT4`'s truth table (its `LUT_INIT`) into its box
//!   of a yosys `show` netlist.

use crate::logic::Sop;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The DOT node of input `name` (also its label).
fn input_node(name: &str) -> String {
    format!("in_{name}")
}

/// The DOT node of product `p` (from 1) of output `out`.
fn and_node(out: &str, p: usize) -> String {
    format!("{out}_and{p}")
}

/// The DOT node of the OR gate of output `out`.
fn or_node(out: &str) -> String {
    format!("{out}_or")
}

/// The DOT node of output `name`.
fn output_node(name: &str) -> String {
    format!("out_{name}")
}

/// One literal edge from an input to `to`: labelled `A` or `A'`, a bubble at the head when
/// complemented.
fn literal_edge(dot: &mut String, input: &str, complemented: bool, to: &str) {
    let (label, head) = if complemented {
        (format!("{input}'"), "odot")
    } else {
        (input.to_owned(), "normal")
    };
    let _ = writeln!(
        dot,
        "  {} -> {to} [label=\"{label}\", arrowhead={head}];",
        input_node(input)
    );
}

/// The sums of products `outputs` (each named, over `inputs`, most significant first as for
/// [`Sop::render`]) as a gate-level schematic: inputs on the left, one AND gate per product of
/// two or more literals, one OR gate per output of two or more products, outputs on the right.
/// Products are not shared between outputs, so every literal of every product has its edge
/// (the J.R. 01 manual's plug program has one column per product too). Each output's gates sit in a
/// dashed frame labelled with its sum. A constant output is a box `0` or `1`.
pub fn gates_dot(title: &str, inputs: &[&str], outputs: &[(&str, &Sop)]) -> String {
    let mut dot = String::new();
    let _ = writeln!(dot, "digraph gates {{");
    let _ = writeln!(
        dot,
        "  rankdir=LR; ranksep=0.9; nodesep=0.3; labelloc=t; fontname=\"Helvetica\";"
    );
    let _ = writeln!(dot, "  label=\"{}\";", escape(title));
    let _ = writeln!(
        dot,
        "  node [fontname=\"Helvetica\"]; edge [fontname=\"Helvetica\", fontsize=11, arrowsize=0.8];"
    );
    let _ = writeln!(dot, "  {{ rank=source;");
    for name in inputs {
        let _ = writeln!(
            dot,
            "    {} [label=\"{name}\", shape=circle, width=0.45, fixedsize=true];",
            input_node(name)
        );
    }
    let _ = writeln!(dot, "  }}");
    let _ = writeln!(dot, "  {{ rank=sink;");
    for (name, _) in outputs {
        let _ = writeln!(
            dot,
            "    {} [label=\"{name}\", shape=doublecircle, width=0.4, fixedsize=true];",
            output_node(name)
        );
    }
    let _ = writeln!(dot, "  }}");
    for (name, sop) in outputs {
        let out = output_node(name);
        // Each output's gates in a dashed frame labelled with its sum.
        let _ = writeln!(
            dot,
            "  subgraph cluster_{name} {{\n  label=\"{name} = {}\"; style=dashed; color=gray;",
            escape(&sop.render(inputs))
        );
        let sum = if sop.products() >= 2 {
            let or = or_node(name);
            let _ = writeln!(
                dot,
                "  {or} [label=\"≥1\", shape=box, width=0.5, height={:.2}];",
                0.3 * sop.products() as f64
            );
            let _ = writeln!(dot, "  {or} -> {out};");
            Some(or)
        } else {
            None
        };
        if sop.cubes().is_empty() || sop.cubes().iter().any(|c| c.mask == 0) {
            // A constant: 0 (no product) or 1 (the empty product).
            let value = u8::from(!sop.cubes().is_empty());
            let node = format!("{name}_const");
            let _ = writeln!(dot, "  {node} [label=\"{value}\", shape=box];");
            let _ = writeln!(dot, "  {node} -> {out};");
            let _ = writeln!(dot, "  }}");
            continue;
        }
        let target = sum.as_deref().unwrap_or(&out);
        for (p, cube) in sop.cubes().iter().enumerate() {
            let literals: Vec<(&str, bool)> = (0..sop.inputs())
                .rev()
                .filter_map(|var| {
                    let value = cube.literal(var)?;
                    Some((inputs[sop.inputs() - 1 - var], !value))
                })
                .collect();
            if let [(input, complemented)] = literals.as_slice() {
                literal_edge(&mut dot, input, *complemented, target);
                continue;
            }
            let and = and_node(name, p + 1);
            let product = sop.render_products(inputs)[p].clone();
            let _ = writeln!(
                dot,
                "  {and} [label=\"&\", shape=box, width=0.5, height={:.2}, tooltip=\"{}\"];",
                0.3 * literals.len() as f64,
                escape(&product)
            );
            for (input, complemented) in &literals {
                literal_edge(&mut dot, input, *complemented, &and);
            }
            let _ = writeln!(dot, "  {and} -> {target};");
        }
        let _ = writeln!(dot, "  }}");
    }
    let _ = writeln!(dot, "}}");
    dot
}

/// `text` inside a DOT double-quoted string.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A LUT of the netlist that [`annotate_lut_inits`] did not find in the picture.
#[derive(Debug, thiserror::Error)]
#[error("the yosys schematic has no box for the SB_LUT4 cell `{0}` to write its INIT in")]
pub struct MissingLut(pub String);

/// The truth table of a 4-input LUT as written in its box: the INIT value in hex, then its 16
/// bits from output 15 (inputs I3 I2 I1 I0 = 1111) down to output 0, in groups of four.
pub fn lut_init_label(init: u16) -> String {
    let bits = format!("{init:016b}");
    let groups: Vec<&str> = (0..4).map(|i| &bits[4 * i..4 * i + 4]).collect();
    format!("INIT 16'h{init:04X}\\n{}", groups.join(" "))
}

/// Writes each LUT's INIT into its box of a yosys `show -format dot` netlist. `inits` maps each
/// SB_LUT4 cell name (as yosys shows it) to its `LUT_INIT`; every one must have a box.
pub fn annotate_lut_inits(dot: &str, inits: &BTreeMap<String, u16>) -> Result<String, MissingLut> {
    let mut text = dot.to_owned();
    for (cell, init) in inits {
        let label = format!("|{cell}\\nSB_LUT4|");
        if !text.contains(&label) {
            return Err(MissingLut(cell.clone()));
        }
        text = text.replace(
            &label,
            &format!("|{cell}\\nSB_LUT4\\n{}|", lut_init_label(*init)),
        );
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Cube;

    #[test]
    fn a_lut_init_is_written_in_hex_and_bits() {
        assert_eq!(
            lut_init_label(0xFFC0),
            "INIT 16'hFFC0\\n1111 1111 1100 0000"
        );
    }

    #[test]
    fn annotating_names_every_lut_or_fails() {
        let dot = "c1 [ shape=record, label=\"{{<p1> I0}|x_lut\\nSB_LUT4|{<p2> O}}\" ];\n";
        let inits = BTreeMap::from([("x_lut".to_owned(), 0x00F0)]);
        let text = annotate_lut_inits(dot, &inits).unwrap();
        assert!(text.contains("|x_lut\\nSB_LUT4\\nINIT 16'h00F0\\n0000 0000 1111 0000|"));
        let missing = BTreeMap::from([("y_lut".to_owned(), 1)]);
        assert!(annotate_lut_inits(dot, &missing).is_err());
    }

    #[test]
    fn constants_and_single_literals_need_no_gate() {
        // F = C' (one literal: an edge with a bubble straight to the output), G = 0.
        let f = Sop::new(3, vec![Cube::new(0b001, 0b000)]);
        let g = Sop::zero(3);
        let dot = gates_dot("t", &["A", "B", "C"], &[("F", &f), ("G", &g)]);
        assert!(dot.contains("in_C -> out_F [label=\"C'\", arrowhead=odot];"));
        assert!(dot.contains("G_const [label=\"0\", shape=box];"));
        assert!(!dot.contains("&"));
    }
}

/// What [`controller_dot`] needs to know of a `sticks_game` controller.
#[derive(Clone, Debug)]
pub struct ControllerShape<'a> {
    /// Bits of the count (`remaining`, `sticks_left`).
    pub sticks_bits: usize,
    /// Bits of a move (`take`, `machine_take`).
    pub take_bits: usize,
    /// The lookup's implementation, as written in its box (`logic` or `rom`).
    pub lookup: &'a str,
    /// The title.
    pub title: &'a str,
}

/// A sub-block of the controller as a record box: `name` (its instance name in `core`), the
/// kind under it, its inputs on the left and outputs on the right (each `(port, width)`).
fn block(dot: &mut String, name: &str, kind: &str, ins: &[(&str, usize)], outs: &[(&str, usize)]) {
    let field = |(port, width): &(&str, usize)| {
        if *width > 1 {
            format!("<{port}> {port}[{width}]")
        } else {
            format!("<{port}> {port}")
        }
    };
    let ins: Vec<String> = ins.iter().map(field).collect();
    let outs: Vec<String> = outs.iter().map(field).collect();
    let _ = writeln!(
        dot,
        "    {name} [shape=record, label=\"{{{{{}}}|{name}\\n{kind}|{{{}}}}}\"];",
        ins.join("|"),
        outs.join("|")
    );
}

/// The `sticks_game` controller as a block diagram: its ports (left: inputs, right: outputs),
/// and inside `core` the strategy `lookup`, the two move checks, the think `timer`, the
/// registers (rust-hdl `DFF`s) and the next-state logic that ties them together. Every box
/// field and edge end is named after the signal of the circuit it stands for
/// (`<block>:<port>`, the block's instance name in `core`), so a trace of the circuit names
/// them all.
pub fn controller_dot(shape: &ControllerShape) -> String {
    let (w, m) = (shape.sticks_bits, shape.take_bits);
    let mut dot = String::new();
    let _ = writeln!(dot, "digraph sticks_game {{");
    let _ = writeln!(
        dot,
        "  rankdir=LR; ranksep=0.7; nodesep=0.25; labelloc=t; fontname=\"Helvetica\"; newrank=true;"
    );
    let _ = writeln!(dot, "  label=\"{}\";", escape(shape.title));
    let _ = writeln!(
        dot,
        "  node [fontname=\"Helvetica\", fontsize=11]; edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];"
    );
    use crate::circuit::sticks_game::GAME_PORTS;
    use crate::verilog::PortDir;
    let ports = |dir: PortDir| -> Vec<(&str, usize)> {
        GAME_PORTS
            .iter()
            .filter(|p| p.dir == dir)
            .map(|p| (p.name, p.width.bits(w, m)))
            .collect()
    };
    let ports_in = ports(PortDir::Input);
    let ports_out = ports(PortDir::Output);
    let port_label = |name: &str, width: usize| {
        if width > 1 {
            format!("{name}[{width}]")
        } else {
            name.to_owned()
        }
    };
    let _ = writeln!(dot, "  {{ rank=source;");
    for (name, width) in ports_in {
        let _ = writeln!(
            dot,
            "    in_{name} [label=\"{}\", shape=cds, style=filled, fillcolor=\"#e8f0fe\"];",
            port_label(name, width)
        );
    }
    let _ = writeln!(dot, "  }}");
    let _ = writeln!(dot, "  {{ rank=sink;");
    for (name, width) in ports_out {
        let _ = writeln!(
            dot,
            "    out_{name} [label=\"{}\", shape=cds, style=filled, fillcolor=\"#fef3e8\"];",
            port_label(name, width)
        );
    }
    let _ = writeln!(dot, "  }}");
    let _ = writeln!(
        dot,
        "  subgraph cluster_core {{\n    label=\"sticks_game: core (SticksCore, tick tied high)\"; style=rounded;"
    );
    block(
        &mut dot,
        "lookup",
        &format!("sticks_strategy ({})", shape.lookup),
        &[("sticks", w)],
        &[("take", m), ("winning", 1)],
    );
    block(
        &mut dot,
        "move_check",
        "SticksMoveCheck (human's move, subtractor)",
        &[("remaining", w), ("take", m), ("made", m)],
        &[("legal", 1), ("after", w), ("ends", 1), ("empties", 1)],
    );
    block(
        &mut dot,
        "machine_check",
        "MachineMoveCheck",
        &[("sticks", w)],
        &[("legal", 1), ("ends", 1), ("empties", 1)],
    );
    block(
        &mut dot,
        "timer",
        "ThinkTimer (the machine's pause)",
        &[("load", 1), ("tick", 1)],
        &[("done", 1)],
    );
    let registers: [(&str, usize); 6] = [
        ("sticks_left", w),
        ("last_machine_take", m),
        ("waiting_for_human", 1),
        ("thinking", 1),
        ("won", 1),
        ("refused", 1),
    ];
    for (name, width) in registers {
        block(
            &mut dot,
            name,
            "DFF",
            &[("d", width), ("clock", 1)],
            &[("q", width)],
        );
    }
    let _ = writeln!(
        dot,
        "    next_state [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f4f4\", label=\"next-state logic\\n(new game, human move,\\nmachine move, refusal)\"];"
    );
    let _ = writeln!(
        dot,
        "    made_mux [shape=invtrapezium, label=\"thinking ?\\nlookup.take : take\"];"
    );
    let _ = writeln!(dot, "    game_over_nor [shape=box, label=\"NOR\"];");
    let _ = writeln!(dot, "    tick_high [shape=plaintext, label=\"1\"];");
    let _ = writeln!(dot, "  }}");
    let mut edge = |from: &str, to: &str, style: &str| {
        let _ = writeln!(dot, "  {from} -> {to}{style};");
    };
    // The clock, to every register and the timer's count.
    for (name, _) in registers {
        edge(
            "in_clock",
            &format!("{name}:clock"),
            " [color=gray, style=dashed]",
        );
    }
    // Inputs to the logic that reads them.
    for input in ["reset", "new_game", "machine_first", "take_valid"] {
        edge(&format!("in_{input}"), "next_state", "");
    }
    edge("in_take", "move_check:take", "");
    edge("in_take", "made_mux", "");
    // The position feeds the lookup, both checks and the port.
    for to in [
        "lookup:sticks",
        "machine_check:sticks",
        "move_check:remaining",
        "out_remaining",
    ] {
        edge("sticks_left:q", to, "");
    }
    edge("lookup:take", "made_mux", "");
    edge("thinking:q", "made_mux", " [style=dotted]");
    edge("made_mux", "move_check:made", "");
    for out in ["legal", "after", "ends", "empties"] {
        edge(&format!("move_check:{out}"), "next_state", "");
    }
    for out in ["legal", "ends", "empties"] {
        edge(&format!("machine_check:{out}"), "next_state", "");
    }
    edge("lookup:take", "next_state", "");
    edge("lookup:winning", "next_state", "");
    edge("timer:done", "next_state", "");
    edge("next_state", "timer:load", "");
    edge("tick_high", "timer:tick", "");
    for (name, _) in registers {
        edge("next_state", &format!("{name}:d"), "");
    }
    edge("waiting_for_human:q", "next_state", " [style=dotted]");
    edge("thinking:q", "next_state", " [style=dotted]");
    // Outputs: registers only.
    edge("last_machine_take:q", "out_machine_take", "");
    edge("waiting_for_human:q", "out_human_turn", "");
    edge("waiting_for_human:q", "game_over_nor", "");
    edge("thinking:q", "game_over_nor", "");
    edge("game_over_nor", "out_game_over", "");
    edge("won:q", "out_human_won", "");
    edge("refused:q", "out_illegal", "");
    let _ = writeln!(dot, "}}");
    dot
}
