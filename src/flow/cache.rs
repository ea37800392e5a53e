//! A content-addressed store of expensive tool results, shared between runs.
//!
//! Off unless the environment names a folder in [`CACHE_ENV`] (`RETROGATE_TOOL_CACHE`);
//! `make test` sets it to `target/tool-cache`, so that the many tests that synthesise, place and
//! route, Verilate, read back or prove the same design share one run of the tool (yosys and ABC
//! scripts through [`super::script::output_cached`]); simulations are not kept. A step asks for
//! its [`Key`]: the SHA-256 of the tool's own version line (from the binary found on `PATH` now, so a missing or
//! different tool never hits an entry of another) and every input the step names, by content.
//! When `<cache>/<key>` exists, the step copies its files into the work folder and returns the
//! stored exit status and output instead of running the tool; after a successful run, it stores
//! them. An entry is written whole (a temporary folder, then a rename) and never changed, so
//! concurrent runs see either no entry or a complete one. Only successful runs are stored.
//!
//! The work folder ends up the same as after a real run (the script, the outputs, the log), and
//! `-v` prints `# from the tool cache: ...` in place of the command line.
//!
//! [`folder`] names a folder inside the cache that another tool manages: Verilator's builds
//! keep their C++ objects in `<cache>/ccache` through `ccache` (`super::verilator`).

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use serde::{Deserialize, Serialize};

use super::runner::{self, Tool, ToolError, ToolOutput};

/// The environment variable naming the cache folder.
pub const CACHE_ENV: &str = "RETROGATE_TOOL_CACHE";

/// Where one step's result is (or would be) stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    folder: PathBuf,
    tool: Tool,
}

/// The stored exit status and output of a run.
#[derive(Serialize, Deserialize)]
struct Stored {
    code: i32,
    stdout: String,
    stderr: String,
}

const META: &str = "output.json";

/// The cache folder [`CACHE_ENV`] names, if any.
fn root() -> Option<PathBuf> {
    std::env::var_os(CACHE_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Whether a cache is configured.
pub fn enabled() -> bool {
    root().is_some()
}

/// `<cache>/<name>`, a folder of the cache another tool manages (the C++ compiler cache), or
/// `None` when no cache is configured. Entries are named by their 64-digit key, so a name that
/// is not one never meets an entry.
pub fn folder(name: &str) -> Option<PathBuf> {
    root().map(|r| r.join(name))
}

/// The key of a step of `tool` whose inputs are `parts` (arguments, file contents: whatever
/// decides its result), or `None` when no cache is configured. The tool's version line is
/// part of the key; a tool that cannot be run is the step's error, as it would be uncached.
pub fn key(tool: Tool, dir: &Path, parts: &[&[u8]]) -> Result<Option<Key>, ToolError> {
    let Some(root) = root() else {
        return Ok(None);
    };
    let (versioned, version_flag) = match tool {
        Tool::Yosys | Tool::YosysAbc => (tool, "-V"),
        // yosys-smtbmc has no version flag; it comes with yosys.
        Tool::YosysSmtbmc => (Tool::Yosys, "-V"),
        _ => (tool, "--version"),
    };
    let version = runner::version(versioned, dir, version_flag)?;
    let mut all: Vec<&[u8]> = vec![
        tool.program().as_bytes(),
        version.stdout.as_bytes(),
        version.stderr.as_bytes(),
    ];
    all.extend_from_slice(parts);
    Ok(Some(Key {
        folder: root.join(super::hash_parts(all)),
        tool,
    }))
}

/// The contents of `dir/<name>` for a key, or the step's I/O error.
pub fn read_input(tool: Tool, dir: &Path, name: &Path) -> Result<Vec<u8>, ToolError> {
    let path = dir.join(name);
    std::fs::read(&path)
        .map_err(|e| ToolError::io(tool, format!("reading {}", path.display()), dir, e))
}

/// When the cache holds `key`, copies its `files` into `dir` and returns the stored run (its
/// log, named `log`, copied too); `None` on a miss (or an entry that cannot be read, which is
/// then ignored: the step runs).
pub fn restore(key: &Key, dir: &Path, files: &[&str], log: Option<&str>) -> Option<ToolOutput> {
    let meta = std::fs::read_to_string(key.folder.join(META)).ok()?;
    let stored: Stored = serde_json::from_str(&meta).ok()?;
    for name in files.iter().chain(log.iter()) {
        let to = dir.join(name);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).ok()?;
        }
        // Written whole: a copy beside the target, then a rename.
        let temp = dir.join(format!(".{}.cache-{}", flat(name), std::process::id()));
        if std::fs::copy(key.folder.join(flat(name)), &temp).is_err()
            || std::fs::rename(&temp, &to).is_err()
        {
            let _ = std::fs::remove_file(&temp);
            return None;
        }
    }
    let note = format!(
        "# from the tool cache ({}): {} in {}",
        key.folder.display(),
        key.tool.program(),
        dir.display()
    );
    runner::observe(&note);
    runner::log_run(0.0, &note);
    Some(ToolOutput {
        tool: key.tool.program().to_owned(),
        dir: dir.to_path_buf(),
        status: ExitStatus::from_raw(stored.code << 8),
        stdout: stored.stdout,
        stderr: stored.stderr,
        log: log.map(|l| dir.join(l)),
    })
}

/// Stores a successful `out` and its `files` (in `dir`) under `key`; a failed run, or any
/// error while storing, stores nothing (the cache only ever saves time).
pub fn store(key: &Key, dir: &Path, files: &[&str], out: &ToolOutput) {
    let Some(code) = out.status.code().filter(|c| *c == 0) else {
        return;
    };
    if key.folder.exists() {
        return;
    }
    let Some(root) = key.folder.parent() else {
        return;
    };
    let temp = root.join(format!(
        ".tmp-{}-{}",
        std::process::id(),
        key.folder
            .file_name()
            .map(|f| f.to_string_lossy())
            .unwrap_or_default()
    ));
    let saved = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&temp)?;
        for name in files {
            std::fs::copy(dir.join(name), temp.join(flat(name)))?;
        }
        if let Some(log) = &out.log {
            if let Some(name) = log.file_name() {
                std::fs::copy(log, temp.join(name))?;
            }
        }
        let meta = serde_json::to_string(&Stored {
            code,
            stdout: out.stdout.clone(),
            stderr: out.stderr.clone(),
        })
        .map_err(std::io::Error::other)?;
        std::fs::write(temp.join(META), meta)?;
        std::fs::rename(&temp, &key.folder)
    })();
    if saved.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
}

/// A relative file name as one name inside an entry (`obj_x/x` becomes `obj_x%x`).
fn flat(name: &str) -> String {
    name.replace('%', "%25").replace('/', "%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_names_do_not_collide() {
        assert_eq!(flat("obj_a/a"), "obj_a%a");
        assert_ne!(flat("a%b"), flat("a/b"));
    }
}
