//! Tool scripts: the one runner for every yosys and yosys-abc script retrogate writes, and the
//! rule for the file and module names a script may hold.
//!
//! [`run`] writes a script into its work folder as `<stem>.ys` (yosys) or `<stem>.abc`
//! (yosys-abc) and runs it there (`yosys [-q] -s <stem>.ys`, `yosys-abc -f <stem>.abc`), the
//! tool's stdout and stderr kept in `<stem>.log` (or the log name given) beside it, so a failed
//! step can be rerun by hand from that folder. [`output_cached`] does the same through the tool
//! cache ([`super::cache`]) for the slow proof steps: its key holds the script and every file
//! of the work folder the script names, by content.
//!
//! No path is ever read as a command. yosys and ABC split their scripts at `;` and
//! whitespace, and a `"` ends a quoted name, so a script holds file names only through
//! [`file()`]: relative to the work folder the tool runs in and made of ASCII letters, digits and
//! `_ . - /` ([`ToolError::UnsafeName`] otherwise). retrogate chooses every such name; a file
//! that lies elsewhere (a netlist built in another folder) is copied in under one ([`local`]).
//! The work folder's own path, the current folder and the user's file names never reach a
//! script, so a `"`, `;`, `$`, a space, a newline or a non-ASCII letter in them (`--work 'my
//! project'`, `--dut 'x" ; exec -- touch pwned ; ".v'`, a folder named `задача`) cannot end a
//! quoted name or start a command. Module names go in only as plain identifiers ([`module`]).
//! yosys-smtbmc takes no script: its file arguments are names of the same kind.

use std::path::{Component, Path};

use super::runner::{self, write_file, Tool, ToolError, ToolOutput};

/// The program that runs a script, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpreter {
    /// `yosys -s <stem>.ys`: the whole log.
    Yosys,
    /// `yosys -q -s <stem>.ys`: warnings and errors only.
    YosysQuiet,
    /// `yosys-abc -f <stem>.abc`.
    Abc,
}

impl Interpreter {
    /// The tool.
    pub fn tool(self) -> Tool {
        match self {
            Interpreter::Yosys | Interpreter::YosysQuiet => Tool::Yosys,
            Interpreter::Abc => Tool::YosysAbc,
        }
    }

    /// The script's file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Interpreter::Yosys | Interpreter::YosysQuiet => "ys",
            Interpreter::Abc => "abc",
        }
    }
}

/// Writes `text` to `dir/<stem>.<ys|abc>` and runs it there with `interpreter`, its output
/// kept in `dir/<log>` (default `<stem>.log`); returns the output whatever the exit status.
pub fn output(
    dir: &Path,
    interpreter: Interpreter,
    stem: &str,
    text: &str,
    log: Option<&str>,
) -> Result<ToolOutput, ToolError> {
    let tool = interpreter.tool();
    check_name(tool, stem)?;
    let script = format!("{stem}.{}", interpreter.extension());
    write_file(tool, dir, &script, text)?;
    let log = log.map_or_else(|| format!("{stem}.log"), str::to_owned);
    let args: Vec<&str> = match interpreter {
        Interpreter::Yosys => vec!["-s", &script],
        Interpreter::YosysQuiet => vec!["-q", "-s", &script],
        Interpreter::Abc => vec!["-f", &script],
    };
    runner::output(tool, dir, args, Some(&log))
}

/// [`output`] through the tool cache, when one is configured ([`super::cache`]): the key is the
/// interpreter, the script's text and the name and content of every file of `dir` the script
/// names (every file a script reads is named in it, relative to `dir`: [`file()`]), `outputs`
/// excepted. On a hit the script, `outputs` and the log are restored and the stored output
/// returned without running the tool; after a run that exits 0 and that `keep` accepts (a proof
/// that gave a verdict, not one stopped by its time limit), they are stored.
pub fn output_cached(
    dir: &Path,
    interpreter: Interpreter,
    stem: &str,
    text: &str,
    log: Option<&str>,
    outputs: &[&str],
    keep: impl Fn(&ToolOutput) -> bool,
) -> Result<ToolOutput, ToolError> {
    let tool = interpreter.tool();
    check_name(tool, stem)?;
    let script = format!("{stem}.{}", interpreter.extension());
    let mut named = std::collections::BTreeSet::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ';' || c == '"') {
        if is_safe_name(word)
            && word != script
            && !outputs.contains(&word)
            && dir.join(word).is_file()
        {
            named.insert(word);
        }
    }
    let mode = format!("{interpreter:?}");
    let mut parts: Vec<Vec<u8>> = vec![
        b"script".to_vec(),
        mode.into_bytes(),
        text.as_bytes().to_vec(),
    ];
    for name in named {
        parts.push(name.as_bytes().to_vec());
        parts.push(super::cache::read_input(tool, dir, Path::new(name))?);
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let key = super::cache::key(tool, dir, &parts)?;
    let log_name = log.map_or_else(|| format!("{stem}.log"), str::to_owned);
    let mut files = vec![script.as_str()];
    files.extend_from_slice(outputs);
    if let Some(out) = key
        .as_ref()
        .and_then(|k| super::cache::restore(k, dir, &files, Some(&log_name)))
    {
        return Ok(out);
    }
    let out = output(dir, interpreter, stem, text, Some(&log_name))?;
    if let Some(key) = &key {
        if keep(&out) {
            super::cache::store(key, dir, &files, &out);
        }
    }
    Ok(out)
}

/// [`output`], a nonzero exit being a [`ToolError::Failed`].
pub fn run(
    dir: &Path,
    interpreter: Interpreter,
    stem: &str,
    text: &str,
    log: Option<&str>,
) -> Result<ToolOutput, ToolError> {
    output(dir, interpreter, stem, text, log)?.check()
}

/// Whether `name` may stand in a tool script or argument as a file name: a relative path of
/// ASCII letters, digits and `_ . - /`, not starting with `-` (an option) or `/`, with no `..`
/// component.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['-', '/'])
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
        && Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

fn check_name(tool: Tool, name: &str) -> Result<(), ToolError> {
    if is_safe_name(name) {
        Ok(())
    } else {
        Err(ToolError::UnsafeName {
            tool: tool.program(),
            name: name.to_owned(),
        })
    }
}

/// `path` as a script run in `dir` names it: relative to `dir` (a relative `path` is taken
/// as relative to `dir` already), checked with [`is_safe_name`]. A path outside `dir`, or one
/// whose name is not safe, is a [`ToolError::UnsafeName`]: copy such a file in with [`local`].
pub fn file(tool: Tool, dir: &Path, path: &Path) -> Result<String, ToolError> {
    let relative = if path.is_absolute() {
        path.strip_prefix(dir).ok()
    } else {
        Some(path)
    };
    let name = relative.and_then(Path::to_str).unwrap_or_default();
    if is_safe_name(name) {
        Ok(name.to_owned())
    } else {
        Err(ToolError::UnsafeName {
            tool: tool.program(),
            name: path.display().to_string(),
        })
    }
}

/// `path` as [`file()`] names it when it can; otherwise the file is copied into `dir` as
/// `copy_name` (a safe name) and that name is returned.
pub fn local(tool: Tool, dir: &Path, path: &Path, copy_name: &str) -> Result<String, ToolError> {
    if let Ok(name) = file(tool, dir, path) {
        return Ok(name);
    }
    check_name(tool, copy_name)?;
    let target = dir.join(copy_name);
    std::fs::copy(path, &target).map_err(|err| {
        ToolError::io(
            tool,
            format!("copying {} to {}", path.display(), target.display()),
            dir,
            err,
        )
    })?;
    Ok(copy_name.to_owned())
}

/// Checks that `name` is a plain Verilog identifier (ASCII letters, digits and `_`, not
/// starting with a digit, not a keyword), the only module names a script holds; else a
/// [`ToolError::UnsafeName`].
pub fn module(tool: Tool, name: &str) -> Result<(), ToolError> {
    if crate::verilog::is_identifier(name) {
        Ok(())
    } else {
        Err(ToolError::UnsafeName {
            tool: tool.program(),
            name: name.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_names_are_safe() {
        for good in [
            "a.v",
            "obj_x/sim",
            "jr01_strategy_tb.vcd",
            "x-1.ys",
            "./a.v",
        ] {
            assert!(is_safe_name(good), "{good}");
        }
        for bad in [
            "",
            "x\" ; exec -- touch pwned ; \".v",
            "a b.v",
            "a;b",
            "$x",
            "/tmp/a.v",
            "-o",
            "../a.v",
            "andré.v",
            "задача.v",
            "a\nb",
            "+/ice40/cells_sim.v",
            "~/a.v",
        ] {
            assert!(!is_safe_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn files_are_named_relative_to_the_work_folder() {
        let dir = Path::new("/tmp/my \"project\"; $(x)/work");
        assert_eq!(
            file(Tool::Yosys, dir, &dir.join("jr01.v")).unwrap(),
            "jr01.v"
        );
        assert_eq!(
            file(Tool::Yosys, dir, Path::new("wrapper.v")).unwrap(),
            "wrapper.v"
        );
        let err = file(Tool::Yosys, dir, Path::new("/elsewhere/netlist.v")).unwrap_err();
        assert!(matches!(err, ToolError::UnsafeName { .. }), "{err}");
        let err = file(Tool::Yosys, dir, &dir.join("x\" ; exec ; \".v")).unwrap_err();
        assert!(
            err.to_string().contains("cannot go into a tool script"),
            "{err}"
        );
    }

    #[test]
    fn a_file_from_elsewhere_is_copied_in() {
        let outside = tempfile::tempdir().unwrap();
        let source = outside.path().join("my netlist.v");
        std::fs::write(&source, "module m; endmodule\n").unwrap();
        let work = tempfile::tempdir().unwrap();
        let name = local(Tool::Yosys, work.path(), &source, "netlist.v").unwrap();
        assert_eq!(name, "netlist.v");
        assert_eq!(
            std::fs::read_to_string(work.path().join(name)).unwrap(),
            "module m; endmodule\n"
        );
        let inside = work.path().join("a.v");
        std::fs::write(&inside, "").unwrap();
        assert_eq!(
            local(Tool::Yosys, work.path(), &inside, "b.v").unwrap(),
            "a.v"
        );
        assert!(!work.path().join("b.v").exists());
    }

    #[test]
    fn module_names_are_plain_identifiers() {
        assert!(module(Tool::Yosys, "sticks_game").is_ok());
        assert!(module(Tool::Yosys, "a;exec").is_err());
        assert!(module(Tool::Yosys, "\\weird").is_err());
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn scripts_run_in_a_folder_whose_path_is_hostile() {
        let root = tempfile::tempdir().unwrap();
        let dir = root
            .path()
            .join("x\" ; exec -- touch pwned ; \" задача andré $HOME");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(
            dir.join("a.v"),
            "module a(input logic x, output logic y); always_comb y = ~x; endmodule\n",
        )
        .unwrap();
        let out = run(
            &dir,
            Interpreter::Yosys,
            "read",
            "read_verilog -sv a.v\nhierarchy -check -top a\nstat\n",
            None,
        )
        .expect("yosys runs in the folder");
        assert!(out.stdout.contains("=== a ==="), "{}", out.stdout);
        assert!(dir.join("read.ys").is_file() && dir.join("read.log").is_file());
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(files.len(), 3, "{files:?}");
        assert!(!root.path().join("pwned").exists() && !Path::new("pwned").exists());
    }
}
