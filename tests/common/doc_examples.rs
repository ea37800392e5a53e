//! The documentation's examples, read one way for every test that runs them: README.md and
//! every `docs/*.md` page, each ```console block's `$ ` lines with the output shown under each,
//! and each non-comment line of a ```sh block, with the page and line they come from. Other
//! fenced blocks (plain ```, ```verilog) are shown, never run.
//!
//! An example runs in a fresh empty folder unless the paragraph right above its block says it
//! runs "from the repository root"; such an example runs in a copy of the checkout
//! ([`copy_checkout`]).
//!
//! Included with `#[path]` by tests/cli/examples.rs (every example runs as pasted into `sh`)
//! and tests/doc_examples.rs (console outputs compared, links checked); each uses a part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The checkout's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The pages whose examples run: README.md, then docs/*.md by name. Each as (path relative to
/// the root, text).
pub fn pages() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root().join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// What kind of block an example comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `$ ` line of a ```console block, with the lines shown under it (up to the next `$ `
    /// line or the block's end; trailing blank lines dropped).
    Console { output: Vec<String> },
    /// A line of a ```sh block.
    Sh,
}

/// One documented command.
#[derive(Clone, Debug)]
pub struct Example {
    /// The page, relative to the root (`docs/games.md`).
    pub page: String,
    /// The command's line on the page, from 1.
    pub line: usize,
    /// The command as a reader pastes it into a shell.
    pub command: String,
    pub kind: Kind,
    /// The paragraph above the block says the example runs from the repository root.
    pub from_root: bool,
}

impl Example {
    /// `docs/games.md:42`, for messages.
    pub fn place(&self) -> String {
        format!("{}:{}", self.page, self.line)
    }
}

/// A fenced block: its info string (`console`, `sh`, empty), the line of its opening fence
/// (from 1) and its lines.
pub struct Block<'a> {
    pub info: &'a str,
    pub fence_line: usize,
    pub lines: Vec<&'a str>,
}

/// The fenced blocks of a page, and its lines outside them (with their line numbers, from 1).
pub fn split(text: &str) -> (Vec<Block<'_>>, Vec<(usize, &str)>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim(),
                    fence_line: n,
                    lines: Vec::new(),
                })
            }
            (None, None) => prose.push((n, line)),
            (Some(_), Some("")) => blocks.push(open.take().unwrap()),
            (Some(block), _) => block.lines.push(line),
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    (blocks, prose)
}

/// The paragraph that ends right above line `fence_line` (1-based), joined into one line.
fn paragraph_above(lines: &[&str], fence_line: usize) -> String {
    let mut i = fence_line - 1; // index of the fence
    while i > 0 && lines[i - 1].trim().is_empty() {
        i -= 1;
    }
    let end = i;
    while i > 0 && !lines[i - 1].trim().is_empty() {
        i -= 1;
    }
    lines[i..end].join(" ")
}

/// Every example of one page.
pub fn page_examples(page: &str, text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let (blocks, _) = split(text);
    let mut examples = Vec::new();
    for block in blocks {
        let from_root = paragraph_above(&lines, block.fence_line)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("from the repository root");
        let line_of = |k: usize| block.fence_line + 1 + k;
        match block.info {
            "console" => {
                let starts: Vec<usize> = (0..block.lines.len())
                    .filter(|&k| block.lines[k].starts_with("$ "))
                    .collect();
                assert!(
                    !block.lines.is_empty() && starts.first() == Some(&0),
                    "{page}:{}: a console block starts with a `$ ` line",
                    block.fence_line
                );
                for (m, &start) in starts.iter().enumerate() {
                    let end = starts.get(m + 1).copied().unwrap_or(block.lines.len());
                    let mut output: Vec<String> = block.lines[start + 1..end]
                        .iter()
                        .map(|l| l.to_string())
                        .collect();
                    while output.last().is_some_and(|l| l.trim().is_empty()) {
                        output.pop();
                    }
                    examples.push(Example {
                        page: page.to_string(),
                        line: line_of(start),
                        command: block.lines[start][2..].to_string(),
                        kind: Kind::Console { output },
                        from_root,
                    });
                }
            }
            "sh" => {
                for (k, l) in block.lines.iter().enumerate() {
                    if l.trim().is_empty() || l.trim_start().starts_with('#') {
                        continue;
                    }
                    examples.push(Example {
                        page: page.to_string(),
                        line: line_of(k),
                        command: l.to_string(),
                        kind: Kind::Sh,
                        from_root,
                    });
                }
            }
            _ => {}
        }
    }
    examples
}

/// Every example of every page, in page order.
pub fn examples() -> Vec<Example> {
    pages()
        .iter()
        .flat_map(|(page, text)| page_examples(page, text))
        .collect()
}

/// Copies the checkout into `dest` (which exists): every file and folder of the root but
/// `target/`, `build/` and `.git`, so an example that runs from the repository root finds what
/// a reader's checkout holds, and cannot change the real one.
pub fn copy_checkout(dest: &Path) {
    let mut todo: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        for entry in std::fs::read_dir(root().join(&rel)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if rel.as_os_str().is_empty() && ["target", "build", ".git"].iter().any(|n| name == **n)
            {
                continue;
            }
            let path = rel.join(&name);
            if entry.file_type().unwrap().is_dir() {
                std::fs::create_dir(dest.join(&path)).unwrap();
                todo.push(path);
            } else {
                std::fs::copy(entry.path(), dest.join(&path)).unwrap();
            }
        }
    }
}

/// `PATH` with the built `retrogate` first.
pub fn path_with_retrogate() -> String {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_retrogate")).parent().unwrap();
    format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}
