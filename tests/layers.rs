//! The crate's layers hold: `src/lib.rs` lists every module in one order, top to bottom, and
//! no module's code (test modules aside) names a module listed above it. The order is read from
//! the `//! - [`name`]` lines of lib.rs's "Layers" list, so the documentation is the rule.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The modules of lib.rs's layer list, top first.
fn documented_order(lib: &str) -> Vec<String> {
    let mut order = Vec::new();
    let mut in_list = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            break;
        };
        let doc = doc.trim();
        if doc.starts_with("Layers") {
            in_list = true;
            continue;
        }
        if !in_list {
            continue;
        }
        if let Some(rest) = doc.strip_prefix("- ") {
            // `- [`a`], [`b`]: ...`: every module named before the colon.
            let head = rest.split(':').next().unwrap_or("");
            for part in head.split("[`").skip(1) {
                if let Some(name) = part.split('`').next() {
                    order.push(name.to_owned());
                }
            }
        }
    }
    order
}

/// The `pub mod` declarations of lib.rs.
fn declared(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').trim().to_owned())
        .collect()
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The top-level module a file belongs to (`src/bench/plan/mod.rs` -> `bench`).
fn module_of(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_owned();
    (name != "lib" && name != "main").then_some(name)
}

/// The file's code outside test modules and comments, and the files it declares as test
/// modules (`#[cfg(test)] mod x;`). Test modules are found the way rustfmt lays them out: a
/// `#[cfg(...test...)]` line, a `mod` line, and the module's closing brace alone on a line at
/// the same indentation.
fn code_outside_tests(file: &Path, text: &str) -> (String, Vec<PathBuf>) {
    let mut code = String::new();
    let mut test_files = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let is_test_cfg = trimmed.starts_with("#[cfg(") && trimmed.contains("test");
        if is_test_cfg {
            let indent = line.len() - trimmed.len();
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            if let Some(decl) = lines.get(j).map(|l| l.trim_start()) {
                let decl = decl.strip_prefix("pub(crate) ").unwrap_or(decl);
                let decl = decl.strip_prefix("pub ").unwrap_or(decl);
                if let Some(name) = decl.strip_prefix("mod ") {
                    if let Some(name) = name.strip_suffix(';') {
                        let dir = if file
                            .file_name()
                            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
                        {
                            file.parent().unwrap().to_path_buf()
                        } else {
                            file.with_extension("")
                        };
                        test_files.push(dir.join(format!("{name}.rs")));
                        test_files.push(dir.join(name).join("mod.rs"));
                        i = j + 1;
                        continue;
                    }
                    let close = format!("{}}}", " ".repeat(indent));
                    let mut k = j + 1;
                    while k < lines.len() && lines[k] != close {
                        k += 1;
                    }
                    i = k + 1;
                    continue;
                }
            }
        }
        if !trimmed.starts_with("//") {
            code.push_str(line);
            code.push('\n');
        }
        i += 1;
    }
    (code, test_files)
}

/// The `crate::x` names in `code`.
fn crate_uses(code: &str) -> Vec<String> {
    let mut uses = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` inside macros names the crate, too.
        let name: String = code[at + 7..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            uses.push(name);
        }
    }
    uses
}

#[test]
fn lib_rs_lists_every_module_in_its_layers() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut order = documented_order(&lib);
    let mut modules = declared(&lib);
    assert!(!order.is_empty(), "lib.rs has no `Layers` list");
    order.sort();
    modules.sort();
    assert_eq!(
        order, modules,
        "lib.rs's layer list and its `pub mod` lines must name the same modules"
    );
}

#[test]
fn no_module_uses_a_module_above_it() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let order = documented_order(&lib);
    let rank: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut test_files = Vec::new();
    let mut sources = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let (code, tests) = code_outside_tests(file, &text);
        test_files.extend(tests);
        sources.push((file.clone(), code));
    }
    let mut wrong = Vec::new();
    for (file, code) in &sources {
        if test_files.contains(file) {
            continue;
        }
        let Some(module) = module_of(file) else {
            continue;
        };
        let Some(&mine) = rank.get(module.as_str()) else {
            wrong.push(format!(
                "{}: module `{module}` is not in lib.rs's layers",
                file.display()
            ));
            continue;
        };
        for used in crate_uses(code) {
            match rank.get(used.as_str()) {
                Some(&theirs) if theirs < mine => wrong.push(format!(
                    "{}: `{module}` uses `crate::{used}`, which lib.rs lists above it",
                    file.strip_prefix(src()).unwrap().display()
                )),
                _ => {}
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// The checker itself: a use from below is caught, a test module's is not.
#[test]
fn the_checker_sees_uses_and_skips_test_modules() {
    let text = "use crate::game::X;\n// crate::cli in a comment\nfn f() { crate::solver::g(); }\n\
                #[cfg(test)]\nmod tests {\n    use crate::cli::Y;\n}\n\
                #[cfg(all(test, feature = \"x\"))]\nmod more;\n";
    let (code, tests) = code_outside_tests(&src().join("logic/cover.rs"), text);
    assert_eq!(crate_uses(&code), ["game", "solver"]);
    assert_eq!(
        tests,
        [
            src().join("logic/cover/more.rs"),
            src().join("logic/cover/more/mod.rs")
        ]
    );
}
