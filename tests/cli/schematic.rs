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
    retrogate()
        .env("PATH", path)
        .current_dir(dir)
        .args(["schematic", "jr01"])
        .output()
        .unwrap()
}

/// The picture parses as XML and shows the three SB_LUT4 cells of J.R. 01.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_jr01_shows_three_luts() {
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
    // Graphviz writes the SVG 1.1 doctype.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&svg, options)
        .expect("the schematic is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
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
    for port in ["a", "b", "c", "x", "y", "z"] {
        assert!(labels.contains(&port), "no port {port} in {labels:?}");
    }
}

/// With a tool missing, the command fails, names the package, and writes no picture.
#[cfg(feature = "external-tools")]
#[test]
fn schematic_without_the_tools_fails_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = schematic_in(dir.path(), "/nonexistent");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install yosys"), "{stderr}");
    assert!(!dir.path().join("schematic-jr01.svg").exists());
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
    let out = schematic_in(dir.path(), bin.to_str().unwrap());
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
