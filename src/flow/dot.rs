//! Graphviz `dot`: lay out a graph (a yosys `show` schematic) as SVG.

use std::path::{Path, PathBuf};

use super::runner::{self, Tool, ToolError};

/// Lay out `graph` (a `.dot` file) as `dir/<svg_name>` with `dot -Tsvg`; the log is
/// `<svg_name>.dot.log`.
pub fn svg(dir: &Path, graph: &Path, svg_name: &str) -> Result<PathBuf, ToolError> {
    let out_path = dir.join(svg_name);
    let log = format!("{svg_name}.dot.log");
    // dot runs in `dir`: hand it absolute paths so relative ones keep their meaning.
    let absolute = |p: &Path| {
        std::path::absolute(p).map_err(|e| ToolError::io(Tool::Dot, "resolving paths", dir, e))
    };
    let (graph_abs, out_abs) = (absolute(graph)?, absolute(&out_path)?);
    let out = runner::run(
        Tool::Dot,
        dir,
        [
            "-Tsvg".as_ref(),
            graph_abs.as_os_str(),
            "-o".as_ref(),
            out_abs.as_os_str(),
        ],
        Some(&log),
    )?;
    out.expect_file(out_path)
}

#[cfg(all(test, feature = "external-tools"))]
mod tests {
    use super::*;

    #[test]
    fn lays_out_a_small_graph() {
        let dir = crate::flow::testing::work_dir("dot");
        let graph = dir.path().join("g.dot");
        std::fs::write(&graph, "digraph g { a -> b; }\n").expect("write");
        let path = svg(dir.path(), &graph, "g.svg").expect("dot -Tsvg");
        let text = std::fs::read_to_string(path).expect("read");
        assert!(text.contains("<svg"), "{text}");
    }
}
