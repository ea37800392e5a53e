//! The documentation stays true: every ```console example of README.md and docs/*.md whose
//! output does not depend on timings or tool runs prints what the page shows (run through `sh`
//! with the built `retrogate` first on PATH, stdout compared line for line); every relative link
//! of those pages leads to a file of the repository (and a heading, for an anchor); no page
//! cites a source by a name a reader cannot look up; the README stays short; and
//! docs/architecture.md lists src/lib.rs's layers. The examples come from the parser all the
//! documentation tests share (tests/common/doc_examples.rs); tests/cli/examples.rs runs every
//! example, these compared ones included, and checks what it writes.

#[path = "common/doc_examples.rs"]
mod doc_examples;

use doc_examples::{copy_checkout, examples, page_examples, pages, root, split, Kind};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// Examples whose output has timings or runs yosys, nextpnr or simulators: run by
/// tests/cli/examples.rs, shown here, not compared.
const NOT_COMPARED: [&str; 2] = ["retrogate verify", "retrogate build"];

#[test]
fn console_examples_print_what_the_docs_show() {
    let mut compared = Vec::new();
    let mut wrong = Vec::new();
    for example in examples() {
        let Kind::Console { output } = &example.kind else {
            continue;
        };
        let command = &example.command;
        // The virtual board runs Verilator, and says how fast (after writing its key file).
        if NOT_COMPARED.iter().any(|c| command.starts_with(c))
            || command.contains("retrogate board ")
        {
            continue;
        }
        // As a reader runs it: in a fresh folder, or in the checkout when the page says so.
        let here = tempfile::tempdir().unwrap();
        if example.from_root {
            copy_checkout(here.path());
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(command)
            .env_clear()
            .env("PATH", doc_examples::path_with_retrogate())
            .current_dir(here.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let actual = String::from_utf8(out.stdout).unwrap();
        if !out.status.success() {
            wrong.push(format!(
                "{}: `{command}` exits {:?}: {}",
                example.place(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        } else if actual.trim_end() != output.join("\n").trim_end() {
            wrong.push(format!(
                "{}: `{command}` no longer prints what the page shows; it prints:\n{actual}",
                example.place()
            ));
        }
        compared.push(example.place());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // README: solve, play against the circuit; games.md: solve (2), matches, kege;
    // circuits.md: table, minimize; play.md: play sticks, jr01, against the circuit, on chip.
    assert!(
        compared.len() >= 12,
        "only these were compared: {compared:?}"
    );
}

/// The parser on a page written here: console commands with their output, sh lines without
/// comments, other blocks skipped, the repository-root marker read from the paragraph above.
#[test]
fn the_parser_reads_console_and_sh_blocks_with_their_lines() {
    let page = "intro\n\n```console\n$ a 1\nout 1\n\n$ b\n```\n\nText.\nRun from the\n\
                repository root:\n```sh\n# comment\nc --x\n\nd\n```\n```verilog\n$ not run\n```\n";
    let found = page_examples("p.md", page);
    let summary: Vec<(usize, &str, bool)> = found
        .iter()
        .map(|e| (e.line, e.command.as_str(), e.from_root))
        .collect();
    assert_eq!(
        summary,
        [
            (4, "a 1", false),
            (7, "b", false),
            (15, "c --x", true),
            (17, "d", true)
        ]
    );
    assert_eq!(
        found[0].kind,
        Kind::Console {
            output: vec!["out 1".to_string()]
        }
    );
    assert_eq!(found[1].kind, Kind::Console { output: vec![] });
    assert_eq!(found[2].kind, Kind::Sh);
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' | '-' => Some('-'),
            '_' => Some('_'),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a page's headings (a repeated heading gets `-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let (_, prose) = split(text);
    let mut anchors = Vec::new();
    let mut repeats: std::collections::BTreeMap<String, usize> = Default::default();
    for (_, line) in prose {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading.trim());
        let count = repeats.entry(base.clone()).or_default();
        anchors.push(if *count == 0 {
            base
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The link targets of a line outside code (`[text](target)` and `![alt](target)`), code spans
/// left out.
fn link_targets(line: &str) -> Vec<String> {
    let mut outside = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            outside.push_str(part);
        }
    }
    outside
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|t| t.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// Resolves `target` against the folder of `page`, without leaving the repository; `None` when
/// it would.
fn resolve(page: &str, target: &str) -> Option<PathBuf> {
    let mut path = PathBuf::new();
    for c in Path::new(page).parent().unwrap().join(target).components() {
        match c {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !path.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(path)
}

/// Every problem with the links of the pages given as (name, text).
fn broken_links(pages: &[(String, String)]) -> Vec<String> {
    let mut broken = Vec::new();
    for (page, text) in pages {
        let (_, prose) = split(text);
        for (n, line) in prose {
            for target in link_targets(line) {
                if target.starts_with("https://") || target.starts_with("http://") {
                    continue;
                }
                let (file, anchor) = match target.split_once('#') {
                    Some((f, a)) => (f, Some(a)),
                    None => (target.as_str(), None),
                };
                let path = if file.is_empty() {
                    PathBuf::from(page)
                } else {
                    let Some(path) = resolve(page, file) else {
                        broken.push(format!("{page}:{n}: `{target}` leaves the repository"));
                        continue;
                    };
                    if !root().join(&path).exists() {
                        broken.push(format!(
                            "{page}:{n}: `{target}`: no file {}",
                            path.display()
                        ));
                        continue;
                    }
                    path
                };
                if let Some(anchor) = anchor {
                    // A page under test by its text; any other file as it is in the checkout.
                    let target_text = pages
                        .iter()
                        .find(|(p, _)| Path::new(p) == path)
                        .map(|(_, t)| t.clone())
                        .unwrap_or_else(|| {
                            std::fs::read_to_string(root().join(&path)).unwrap_or_default()
                        });
                    if !anchors(&target_text).iter().any(|a| a == anchor) {
                        broken.push(format!(
                            "{page}:{n}: `{target}`: {} has no heading #{anchor}",
                            path.display()
                        ));
                    }
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading_of_the_repository() {
    let pages = pages();
    let broken = broken_links(&pages);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The pages do link: the README to every page of docs/.
    let readme = &pages[0].1;
    for (page, _) in &pages[1..] {
        assert!(
            readme.contains(&format!("]({page})")),
            "README.md does not link {page}"
        );
    }
}

/// The check itself: a missing file, a missing heading and a way out of the repository are
/// each caught; links in code are not links.
#[test]
fn a_broken_link_is_caught() {
    let page = |text: &str| vec![("docs/x.md".to_string(), text.to_string())];
    assert_eq!(
        broken_links(&page(
            "[a](games.md#the-games) `[b](nowhere.md)`\n```\n[c](no.md)\n```\n"
        )),
        Vec::<String>::new()
    );
    let broken = broken_links(&page(
        "# Here\n[a](nowhere.md) [b](games.md#no-such-heading) [c](../../etc) [d](#here) [e](#there)\n",
    ));
    assert_eq!(broken.len(), 4, "{broken:?}");
    assert!(broken[0].contains("no file docs/nowhere.md"), "{broken:?}");
    assert!(
        broken[1].contains("no heading #no-such-heading"),
        "{broken:?}"
    );
    assert!(broken[2].contains("leaves the repository"), "{broken:?}");
    assert!(broken[3].contains("#there"), "{broken:?}");
    assert_eq!(
        slug("Set a game on the board: `--design solver`"),
        "set-a-game-on-the-board---design-solver"
    );
}

/// Citations a reader can look up: no page names a source by a private number ("seed 001")
/// or cites a file outside the repository (the team's private notes folder).
#[test]
fn the_pages_cite_only_public_sources() {
    let mut pages = pages();
    let results = "benches/RESULTS.md";
    pages.push((
        results.to_string(),
        std::fs::read_to_string(root().join(results)).unwrap(),
    ));
    let mut found = Vec::new();
    for (page, text) in &pages {
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for bad in ["seed 00", "seed-00", "seeds'", "shared/"] {
                if lower.contains(bad) {
                    found.push(format!("{page}:{}: `{bad}`: {line}", n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The README is read in five minutes: at most 200 lines, and its first screen holds the name,
/// a picture and the two commands.
#[test]
fn the_readme_is_short_and_starts_with_the_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 200, "README.md has {} lines", lines.len());
    let first_screen = lines[..30.min(lines.len())].join("\n");
    assert!(first_screen.starts_with("# retrogate\n"), "{first_screen}");
    for needed in ["![", "\nmake        #", "\nmake test   #"] {
        assert!(
            first_screen.contains(needed),
            "the README's first 30 lines lack `{needed}`"
        );
    }
}

/// docs/architecture.md names the layers of src/lib.rs, which is authoritative, in its order.
#[test]
fn the_architecture_page_lists_the_layers_of_lib_rs() {
    let modules = |text: &str, prefix: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .filter_map(|rest| {
                let name = rest.strip_prefix("[`").or_else(|| rest.strip_prefix('`'))?;
                Some(name.split('`').next()?.to_string())
            })
            .collect()
    };
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let from_lib = modules(&lib, "//! - ");
    let layers = page
        .split("## The layers")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/architecture.md has a section `## The layers`");
    let from_page = modules(layers, "- ");
    assert!(from_lib.len() >= 10, "lib.rs's layers: {from_lib:?}");
    assert_eq!(
        from_page, from_lib,
        "docs/architecture.md against src/lib.rs"
    );
}
