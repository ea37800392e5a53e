//! The README's console examples are what the binary prints: each ```console block whose output
//! does not depend on timings or tool runs is run through `sh` (the built `retrogate` first on
//! PATH) and its stdout compared with the block, line for line.

use std::path::Path;
use std::process::{Command, Stdio};

/// Examples whose output has timings or runs yosys, nextpnr or simulators: shown, not compared.
const NOT_COMPARED: [&str; 2] = ["retrogate verify", "retrogate build"];

#[test]
fn readme_console_examples_match_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_retrogate")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut compared = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line != "```console" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        // A block holds one or more `$ command` lines, each followed by its output (a blank
        // line may separate one example from the next).
        let starts: Vec<usize> = (0..block.len())
            .filter(|&i| block[i].starts_with("$ "))
            .collect();
        for (n, &start) in starts.iter().enumerate() {
            let command = &block[start][2..];
            if NOT_COMPARED.iter().any(|c| command.starts_with(c)) {
                continue;
            }
            let end = starts.get(n + 1).copied().unwrap_or(block.len());
            let expected = block[start + 1..end].join("\n");
            let out = Command::new("sh")
                .arg("-c")
                .arg(command)
                .env_clear()
                .env("PATH", &path)
                .current_dir(root)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert!(out.status.success(), "`{command}`: {out:?}");
            let actual = String::from_utf8(out.stdout).unwrap();
            assert!(
                actual.trim_end() == expected.trim_end(),
                "README example `{command}` no longer matches; it prints:\n{actual}"
            );
            compared.push(command.to_string());
        }
    }
    // The deterministic examples of the README: solve (3), kege, table, minimize, play (3).
    assert!(
        compared.len() >= 9,
        "only these were compared: {compared:?}"
    );
}
