//! `retrogate schematic`.

use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

#[test]
fn schematic_help_has_examples() {
    assert_cmd_snapshot!(retrogate().args(["schematic", "--help"]));
}

#[test]
fn an_out_file_that_is_not_svg_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert_cmd_snapshot!(retrogate().current_dir(dir.path()).args([
        "schematic",
        "jr01",
        "--out",
        "jr01.png"
    ]));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[cfg(feature = "external-tools")]
fn schematic_in(dir: &std::path::Path, path: &str) -> std::process::Output {
    schematic_style_in(dir, path, "gates")
}

#[cfg(feature = "external-tools")]
fn schematic_style_in(dir: &std::path::Path, path: &str, style: &str) -> std::process::Output {
    retrogate()
        .env("PATH", path)
        .current_dir(dir)
        .args(["schematic", "jr01", "--style", style])
        .output()
        .unwrap()
}

/// Graphviz's SVG: well-formed XML with the SVG 1.1 doctype.
#[cfg(feature = "external-tools")]
fn parse_svg(svg: &str) -> roxmltree::Document<'_> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(svg, options)
        .expect("the schematic is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

/// The texts of a Graphviz `<g>` (node or edge; a node's may sit in a tooltip link).
#[cfg(feature = "external-tools")]
fn texts<'a>(g: roxmltree::Node<'a, '_>) -> Vec<&'a str> {
    g.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect()
}

/// A gate-level drawing read back from Graphviz's SVG: each node's label, and each edge
/// (from, to, label, whether it ends in a bubble).
#[cfg(feature = "external-tools")]
struct Gates {
    labels: std::collections::BTreeMap<String, String>,
    edges: Vec<(String, String, String, bool)>,
}

#[cfg(feature = "external-tools")]
impl Gates {
    fn read(svg: &str) -> Gates {
        let doc = parse_svg(svg);
        let title = |g: roxmltree::Node| -> String {
            g.children()
                .find(|n| n.has_tag_name("title"))
                .and_then(|n| n.text())
                .unwrap()
                .to_owned()
        };
        let group = |class: &str| -> Vec<roxmltree::Node> {
            doc.descendants()
                .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
                .collect()
        };
        let labels = group("node")
            .into_iter()
            .map(|g| (title(g), texts(g).join(" ")))
            .collect();
        let edges = group("edge")
            .into_iter()
            .map(|g| {
                let t = title(g);
                let (from, to) = t.split_once("->").unwrap();
                // A bubble (Graphviz arrowhead `odot`) is the only ellipse an edge draws.
                let bubble = g.children().any(|n| n.has_tag_name("ellipse"));
                (from.to_owned(), to.to_owned(), texts(g).join(" "), bubble)
            })
            .collect();
        Gates { labels, edges }
    }

    /// The value of `node` for the inputs `value(name)`, computed from the drawing alone:
    /// an input circle is its input, `&` an AND and `≥1` an OR of the edges into it, an
    /// output the one edge into it; a bubble inverts its edge.
    fn eval(&self, node: &str, value: &dyn Fn(&str) -> bool) -> bool {
        let label = self.labels[node].as_str();
        let mut inputs = self
            .edges
            .iter()
            .filter(|e| e.1 == node)
            .map(|(from, _, _, bubble)| self.eval(from, value) != *bubble);
        match label {
            "&" => inputs.all(|v| v),
            "≥1" => inputs.any(|v| v),
            "0" => false,
            "1" => true,
            _ if node.starts_with("in_") => value(label),
            _ => {
                let v: Vec<bool> = inputs.collect();
                assert_eq!(v.len(), 1, "{node} has {} drivers", v.len());
                v[0]
            }
        }
    }
}

/// The default drawing is the cover the circuit implements, as gates: read back from the SVG
/// it computes the solver's table, and it has one AND gate per product of two or more
/// literals, one OR gate per output of two or more products, and one edge per literal (13),
/// complemented ones with a bubble.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_jr01_draws_the_cover_as_gates() {
    use retrogate::bench::jr01::Jr01Design;
    let dir = tempfile::tempdir().unwrap();
    let out = schematic_in(dir.path(), &std::env::var("PATH").unwrap());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote schematic-jr01.svg\n"
    );
    let svg = std::fs::read_to_string(dir.path().join("schematic-jr01.svg")).unwrap();
    let gates = Gates::read(&svg);
    let d = Jr01Design::build().unwrap();
    let cover = d.chosen();

    // The drawing computes the strategy the solver found, row by row.
    let inputs = ["A", "B", "C"];
    let outputs = ["X", "Y", "Z"];
    for code in 0..8u32 {
        let value = |name: &str| {
            let i = inputs.iter().position(|&n| n == name).unwrap();
            code >> (2 - i) & 1 == 1
        };
        let expected = d.solution.table.row(code).unwrap();
        for (k, name) in outputs.iter().enumerate() {
            let node = format!("out_{name}");
            assert_eq!(gates.labels[&node], *name);
            assert_eq!(
                gates.eval(&node, &value),
                expected >> (2 - k) & 1 == 1,
                "output {name} at ABC = {code:03b}"
            );
        }
    }
    // Gates and literals counted from the cover.
    let count = |label: &str| gates.labels.values().filter(|l| *l == label).count();
    let ands: usize = cover
        .iter()
        .map(|s| s.cubes().iter().filter(|c| c.literals() >= 2).count())
        .sum();
    let ors = cover.iter().filter(|s| s.products() >= 2).count();
    assert_eq!((count("&"), count("≥1")), (ands, ors));
    let literal_edges: Vec<_> = gates
        .edges
        .iter()
        .filter(|e| e.0.starts_with("in_"))
        .collect();
    let literals: usize = cover.iter().map(|s| s.literals()).sum();
    let complemented: usize = cover
        .iter()
        .flat_map(|s| s.cubes())
        .map(|c| (c.mask & !c.bits).count_ones() as usize)
        .sum();
    assert_eq!(literals, 13);
    assert_eq!(literal_edges.len(), literals);
    assert_eq!(literal_edges.iter().filter(|e| e.3).count(), complemented);
    // Each literal is written on its edge: the input's name, primed when complemented.
    for (from, _, label, bubble) in &literal_edges {
        let input = &gates.labels[from];
        assert!(inputs.contains(&input.as_str()), "{input}");
        let expected = if *bubble {
            format!("{input}'")
        } else {
            input.clone()
        };
        assert_eq!(label, &expected);
    }
}

/// `--style luts`: the three SB_LUT4 cells of J.R. 01, each with its INIT written in its box.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_jr01_luts_shows_three_luts_with_their_init() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["schematic", "jr01", "--style", "luts"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.path().join("schematic-jr01.svg")).unwrap();
    let doc = parse_svg(&svg);
    let labels: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(
        labels.iter().filter(|&&t| t == "SB_LUT4").count(),
        3,
        "{labels:?}"
    );
    let inits: Vec<&str> = labels
        .iter()
        .copied()
        .filter(|t| t.starts_with("INIT 16'h"))
        .collect();
    assert_eq!(inits.len(), 3, "{labels:?}");
    for port in ["a", "b", "c", "x", "y", "z"] {
        assert!(labels.contains(&port), "no port {port} in {labels:?}");
    }
}

/// With a tool missing, the command fails, names the package, and writes no picture: the
/// gates need Graphviz only, the LUTs yosys first.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_without_the_tools_fails_and_writes_nothing() {
    for (style, package) in [("luts", "yosys"), ("gates", "graphviz")] {
        let dir = tempfile::tempdir().unwrap();
        let out = schematic_style_in(dir.path(), "/nonexistent", style);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("apt-get install {package}")),
            "{style}: {stderr}"
        );
        assert!(!dir.path().join("schematic-jr01.svg").exists());
    }
}

/// yosys present but Graphviz missing: the dot step names its package.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_without_dot_names_graphviz() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // yosys and the ABC it runs, not dot.
    for program in ["yosys", "yosys-abc", "berkeley-abc"] {
        if let Some(path) = which(program) {
            std::os::unix::fs::symlink(&path, bin.join(program)).unwrap();
        }
    }
    let out = schematic_style_in(dir.path(), bin.to_str().unwrap(), "luts");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install graphviz"), "{stderr}");
    assert!(!dir.path().join("schematic-jr01.svg").exists());
}

#[cfg(feature = "external-tools")]
fn which(program: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Every variable of a VCD, as `scope.scope.name`, with its width.
#[cfg(feature = "external-tools")]
fn vcd_vars(vcd: &str) -> std::collections::BTreeMap<String, u32> {
    fn walk(
        items: &[vcd::ScopeItem],
        prefix: &str,
        out: &mut std::collections::BTreeMap<String, u32>,
    ) {
        for item in items {
            match item {
                vcd::ScopeItem::Scope(s) => {
                    walk(&s.children, &format!("{prefix}{}.", s.identifier), out)
                }
                vcd::ScopeItem::Var(v) => {
                    out.insert(format!("{prefix}{}", v.reference), v.size);
                }
            }
        }
    }
    let header = vcd::Parser::new(vcd.as_bytes()).parse_header().unwrap();
    let mut out = std::collections::BTreeMap::new();
    walk(&header.items, "", &mut out);
    out
}

/// `schematic sticks` draws the controller: every port of the simulated circuit's trace is a
/// port of the drawing, every sub-block of its `core` a box, and every edge end a signal of
/// the circuit (or one of the few drawn pieces of logic).
#[cfg(feature = "external-tools")]
#[test]
fn schematic_sticks_draws_the_controller_the_trace_shows() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["schematic", "sticks", "--count", "20"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = retrogate()
        .current_dir(dir.path())
        .args(["wave", "sticks", "--count", "20", "--moves", "1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let vars = vcd_vars(&std::fs::read_to_string(dir.path().join("wave-sticks.vcd")).unwrap());
    let svg = std::fs::read_to_string(dir.path().join("schematic-sticks.svg")).unwrap();
    let doc = parse_svg(&svg);
    let titles = |class: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
            .filter_map(|g| g.children().find(|n| n.has_tag_name("title")))
            .filter_map(|t| t.text().map(str::to_owned))
            .collect()
    };
    let nodes = titles("node");
    let drawn_logic = ["next_state", "made_mux", "game_over_nor", "tick_high"];
    for edge in titles("edge") {
        let (from, to) = edge.split_once("->").unwrap();
        for end in [from, to] {
            let signal = if let Some(port) = end.strip_prefix("in_").or(end.strip_prefix("out_")) {
                format!("uut.{port}")
            } else if let Some((block, port)) = end.split_once(':') {
                format!("uut.core.{block}.{port}")
            } else {
                assert!(drawn_logic.contains(&end), "{end} in {edge}");
                continue;
            };
            assert!(
                vars.contains_key(&signal),
                "{edge}: no {signal} in the trace"
            );
        }
    }
    // Every port and every sub-block of the circuit is drawn.
    for path in vars.keys() {
        let parts: Vec<&str> = path.split('.').collect();
        match parts.as_slice() {
            ["uut", port] => assert!(
                nodes.contains(&format!("in_{port}")) || nodes.contains(&format!("out_{port}")),
                "port {port} not drawn: {nodes:?}"
            ),
            ["uut", "core", block, _] => {
                assert!(nodes.iter().any(|n| n == block), "block {block} not drawn")
            }
            _ => {}
        }
    }
}
