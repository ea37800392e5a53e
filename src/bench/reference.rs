//! The reference module the formal level proves the design against.
//!
//! Method (sound for incompletely specified tables): the reference
//! `<module>_reference` has the design's ports and a `case` over the
//! concatenated inputs with one arm per cared-for row, assigning the table's
//! word. When the table has don't-care rows, the reference also instantiates
//! the design itself (`ref_design`) and its `default` arm outputs the
//! design's own outputs, so on don't-care rows gold and gate agree by
//! construction and on cared-for rows gold is exactly the table. A proof
//! that `design == reference` for all inputs is therefore a proof that the
//! design meets the table on every cared-for row, and nothing more. (The
//! alternative, `x` in the reference plus `miter -ignore_gold_x`, needs
//! `sat -enable_undef` and relies on `x` surviving yosys's optimisations.)
//! Without don't-cares the `default` arm is unreachable and outputs 0.

use std::fmt::Write as _;

use super::design::CombDesign;
use super::BenchError;
use crate::verilog::generated_banner;

/// Name of the reference module for `module`.
pub fn reference_module(module: &str) -> String {
    format!("{module}_reference")
}

/// File name of the reference module for `module`.
pub fn reference_file(module: &str) -> String {
    format!("{}.v", reference_module(module))
}

/// The Verilog of the reference module (see the module docs).
pub fn reference(design: &CombDesign) -> Result<String, BenchError> {
    design.validate()?;
    let module = &design.module;
    let name = reference_module(module);
    let (iw, ow) = (design.input_width(), design.output_width());
    let ports = design.inputs.iter().chain(&design.outputs);
    let port_list = ports
        .clone()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let mut v = format!(
        "{banner}\n// Reference for {module}: its truth table as a case statement, for the formal\n\
         // equivalence level. Don't-care rows {dc}.\n`default_nettype none\n\n\
         module {name}({port_list});\n",
        banner = generated_banner(),
        dc = if design.has_dont_cares() {
            format!("output whatever {module} outputs (instance ref_design)")
        } else {
            "do not occur".to_owned()
        },
    );
    for port in &design.inputs {
        let _ = writeln!(v, "    input wire {}{};", port.range(), port.name);
    }
    for port in &design.outputs {
        let _ = writeln!(v, "    output reg {}{};", port.range(), port.name);
    }
    let outputs = format!(
        "{{{}}}",
        design
            .outputs
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let default = if design.has_dont_cares() {
        for port in &design.outputs {
            let _ = writeln!(v, "    wire {}ref_design_{};", port.range(), port.name);
        }
        let connections = design
            .inputs
            .iter()
            .map(|p| format!("        .{n}({n})", n = p.name))
            .chain(
                design
                    .outputs
                    .iter()
                    .map(|p| format!("        .{n}(ref_design_{n})", n = p.name)),
            )
            .collect::<Vec<_>>()
            .join(",\n");
        let _ = writeln!(v, "\n    {module} ref_design (\n{connections}\n    );");
        format!(
            "{{{}}}",
            design
                .outputs
                .iter()
                .map(|p| format!("ref_design_{}", p.name))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!("{ow}'d0")
    };
    let inputs = format!(
        "{{{}}}",
        design
            .inputs
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = write!(v, "\n    always @(*) begin\n        case ({inputs})\n");
    for (code, word) in design.cared_rows() {
        let _ = writeln!(v, "            {iw}'d{code}: {outputs} = {ow}'d{word};");
    }
    let _ = write!(
        v,
        "            default: {outputs} = {default};\n        endcase\n    end\nendmodule\n\n`default_nettype wire\n"
    );
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::design::tests::jr01_design;

    #[test]
    fn fully_specified_reference_has_no_instance() {
        let v = reference(&jr01_design()).expect("reference");
        assert!(
            v.contains("module jr01_strategy_reference(a, b, c, x, y, z);"),
            "{v}"
        );
        assert!(v.contains("            3'd7: {x, y, z} = 3'd4;\n"), "{v}");
        assert!(v.contains("default: {x, y, z} = 3'd0;"), "{v}");
        assert!(!v.contains("ref_design"), "{v}");
    }

    #[test]
    fn dont_cares_defer_to_the_design() {
        let mut design = jr01_design();
        design.table = crate::logic::TruthTable::new(
            3,
            3,
            vec![
                Some(1),
                None,
                Some(3),
                Some(4),
                Some(6),
                Some(6),
                Some(7),
                Some(4),
            ],
        )
        .expect("table");
        let v = reference(&design).expect("reference");
        assert!(!v.contains("3'd1:"), "{v}");
        assert!(v.contains("jr01_strategy ref_design ("), "{v}");
        assert!(
            v.contains("default: {x, y, z} = {ref_design_x, ref_design_y, ref_design_z};"),
            "{v}"
        );
    }
}
