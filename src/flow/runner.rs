//! Running one external program in a given directory and capturing its output.

use std::ffi::OsStr;
use std::fmt;
use std::io;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether each tool's command line is printed on stderr before it runs (`-v/--verbose`).
static VERBOSE: AtomicBool = AtomicBool::new(false);

/// Print each external tool's command line on stderr before running it (`-v/--verbose`).
pub fn set_verbose(on: bool) {
    VERBOSE.store(on, Ordering::Relaxed);
}

/// Whether `-v/--verbose` is on.
pub fn verbose() -> bool {
    VERBOSE.load(Ordering::Relaxed)
}

/// `word` quoted for a POSIX shell when it needs it (`a b` becomes `'a b'`, `it's` becomes
/// `"it's"`).
pub fn shell_quote(word: &str) -> String {
    shlex::try_quote(word).map_or_else(
        // A NUL byte cannot be passed to a program anyway; show it escaped.
        |_| format!("{word:?}"),
        |q| q.into_owned(),
    )
}

/// `program args...`, each word shell-quoted: a line a user can paste.
pub fn shell_words<I, S>(words: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    words
        .into_iter()
        .map(|w| shell_quote(&w.as_ref().to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cd DIR && program args...`: the command as it runs, inside its work directory.
fn command_line(command: &Command, dir: &Path) -> String {
    let words = shell_words(std::iter::once(command.get_program()).chain(command.get_args()));
    if dir == Path::new(".") {
        words
    } else {
        format!("cd {} && {words}", shell_quote(&dir.display().to_string()))
    }
}

/// How many trailing lines of a failed tool's output go into the error.
const TAIL_LINES: usize = 25;

/// How long one tool run may take before it is killed, unless
/// `RETROGATE_TOOL_TIMEOUT_SECS` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The time limit for one tool run: `RETROGATE_TOOL_TIMEOUT_SECS` if set to
/// a positive number of seconds, else [`DEFAULT_TIMEOUT`].
pub fn timeout() -> Duration {
    std::env::var("RETROGATE_TOOL_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&secs| secs > 0)
        .map_or(DEFAULT_TIMEOUT, Duration::from_secs)
}

/// The external programs this crate runs, with the Debian package that
/// provides each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Synthesis, statistics and equivalence checking.
    Yosys,
    /// Reports where yosys keeps its data files (`cells_sim.v`).
    YosysConfig,
    /// Place and route for iCE40.
    NextpnrIce40,
    /// ASCII bitstream to binary.
    Icepack,
    /// Programs an iCE40 board.
    Iceprog,
    /// Icarus Verilog compiler.
    Iverilog,
    /// Icarus Verilog runtime.
    Vvp,
    /// Verilator linter and simulator builder.
    Verilator,
    /// Graphviz layout (schematics as SVG).
    Dot,
    /// yosys's SMT-based model checker (bounded, k-induction, cover), run with z3.
    YosysSmtbmc,
    /// ABC as yosys ships it: model checking of AIGER files (`bmc3`).
    YosysAbc,
}

impl Tool {
    /// Program name looked up on `PATH`.
    pub fn program(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::YosysConfig => "yosys-config",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack => "icepack",
            Tool::Iceprog => "iceprog",
            Tool::Iverilog => "iverilog",
            Tool::Vvp => "vvp",
            Tool::Verilator => "verilator",
            Tool::Dot => "dot",
            Tool::YosysSmtbmc => "yosys-smtbmc",
            Tool::YosysAbc => "yosys-abc",
        }
    }

    /// The Debian package to `apt-get install` for this tool.
    pub fn package(self) -> &'static str {
        match self {
            Tool::Yosys | Tool::YosysSmtbmc | Tool::YosysAbc => "yosys",
            Tool::YosysConfig => "yosys-dev",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack | Tool::Iceprog => "fpga-icestorm",
            Tool::Iverilog | Tool::Vvp => "iverilog",
            Tool::Verilator => "verilator",
            Tool::Dot => "graphviz",
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.program())
    }
}

/// Errors from running an external tool.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The program is not on `PATH`.
    #[error("`{tool}` was not found on PATH; install it with `apt-get install {package}`")]
    Missing {
        /// Program name.
        tool: &'static str,
        /// Debian package that provides it.
        package: &'static str,
    },
    /// The program ran and reported failure.
    #[error(
        "`{tool}` failed ({status}) in {dir}{}; last lines of its output:\n{tail}",
        log_clause(log)
    )]
    Failed {
        /// Program name (or path of a built simulator).
        tool: String,
        /// Exit code or signal, as text.
        status: String,
        /// Directory it ran in.
        dir: PathBuf,
        /// Where the full stdout and stderr were saved (or `-` if not saved).
        log: String,
        /// The last lines of stderr (or of stdout when stderr was empty).
        tail: String,
    },
    /// The program ran longer than the time limit and was killed.
    #[error(
        "`{tool}` did not finish within {seconds} s in {dir} and was killed; a simulation that \
         never reaches `$finish` or a design too large for the flow are the usual causes \
         (raise the limit with RETROGATE_TOOL_TIMEOUT_SECS)"
    )]
    TimedOut {
        /// Program name.
        tool: String,
        /// The limit that was hit.
        seconds: u64,
        /// Directory it ran in.
        dir: PathBuf,
    },
    /// Starting the program or reading/writing its files failed.
    #[error("{action} failed for `{tool}` in {dir}: {source}")]
    Io {
        /// Program name.
        tool: String,
        /// What was being done (e.g. `writing synth.ys`).
        action: String,
        /// Directory involved.
        dir: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The program succeeded but its output did not say what was expected.
    #[error("could not understand the output of `{tool}`: {detail}; see {log}")]
    UnexpectedOutput {
        /// Program name.
        tool: String,
        /// What was missing or malformed.
        detail: String,
        /// Where the full output was saved.
        log: String,
    },
}

/// `; its log is <log>`, or nothing when the output was not saved (`-`).
fn log_clause(log: &str) -> String {
    if log == "-" {
        String::new()
    } else {
        format!("; its log is {log}")
    }
}

impl ToolError {
    /// Build an [`ToolError::Io`].
    pub fn io(
        tool: impl fmt::Display,
        action: impl Into<String>,
        dir: &Path,
        source: io::Error,
    ) -> Self {
        ToolError::Io {
            tool: tool.to_string(),
            action: action.into(),
            dir: dir.to_path_buf(),
            source,
        }
    }
}

/// Captured output of a finished program.
#[derive(Clone, Debug)]
pub struct ToolOutput {
    /// Program name (or path of a built simulator).
    pub tool: String,
    /// Directory it ran in.
    pub dir: PathBuf,
    /// How it ended.
    pub status: ExitStatus,
    /// Everything it wrote to stdout (lossily decoded as UTF-8).
    pub stdout: String,
    /// Everything it wrote to stderr (lossily decoded as UTF-8).
    pub stderr: String,
    /// Where stdout and stderr were saved, if they were.
    pub log: Option<PathBuf>,
}

impl ToolOutput {
    /// The last lines of stderr, or of stdout when stderr is empty.
    pub fn tail(&self) -> String {
        let text = if self.stderr.trim().is_empty() {
            &self.stdout
        } else {
            &self.stderr
        };
        tail(text, TAIL_LINES)
    }

    /// Turn a nonzero exit into [`ToolError::Failed`].
    pub fn check(self) -> Result<Self, ToolError> {
        if self.status.success() {
            Ok(self)
        } else {
            Err(ToolError::Failed {
                tool: self.tool.clone(),
                status: describe_status(self.status),
                dir: self.dir.clone(),
                log: self.log_name(),
                tail: self.tail(),
            })
        }
    }

    /// The log path as text, or `-` when the output was not saved.
    pub fn log_name(&self) -> String {
        self.log
            .as_ref()
            .map_or_else(|| "-".to_owned(), |p| p.display().to_string())
    }

    /// An [`ToolError::UnexpectedOutput`] about this output.
    pub fn unexpected(&self, detail: impl Into<String>) -> ToolError {
        ToolError::UnexpectedOutput {
            tool: self.tool.clone(),
            detail: detail.into(),
            log: self.log_name(),
        }
    }

    /// `path` when the run wrote it, else an [`ToolError::UnexpectedOutput`] saying that the
    /// tool exited successfully without writing it.
    pub fn expect_file(&self, path: PathBuf) -> Result<PathBuf, ToolError> {
        if path.is_file() {
            Ok(path)
        } else {
            Err(self.unexpected(format!(
                "it exited successfully but {} does not exist",
                path.display()
            )))
        }
    }
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.trim_end().lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn describe_status(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => format!("{status}"),
    }
}

/// Run `tool` with `args` in `dir`, with stdin closed, and return its output
/// whatever its exit status. When `log` is given, stdout and stderr are
/// saved to `dir/<log>`. A run longer than [`timeout()`] is killed and
/// reported as [`ToolError::TimedOut`].
pub fn output<I, S>(
    tool: Tool,
    dir: &Path,
    args: I,
    log: Option<&str>,
) -> Result<ToolOutput, ToolError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(tool.program());
    command.args(args);
    spawn(command, tool.program(), Some(tool), dir, log, timeout())
}

/// Like [`output`], but a nonzero exit is a [`ToolError::Failed`].
pub fn run<I, S>(
    tool: Tool,
    dir: &Path,
    args: I,
    log: Option<&str>,
) -> Result<ToolOutput, ToolError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    output(tool, dir, args, log)?.check()
}

/// Run a program that is not one of the known [`Tool`]s (for example a
/// simulator Verilator just built), returning its output whatever its exit
/// status. A missing program is a [`ToolError::Io`].
pub fn output_program<I, S>(
    program: &Path,
    dir: &Path,
    args: I,
    log: Option<&str>,
) -> Result<ToolOutput, ToolError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(program);
    command.args(args);
    spawn(
        command,
        &program.display().to_string(),
        None,
        dir,
        log,
        timeout(),
    )
}

fn spawn(
    mut command: Command,
    name: &str,
    tool: Option<Tool>,
    dir: &Path,
    log: Option<&str>,
    limit: Duration,
) -> Result<ToolOutput, ToolError> {
    command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !dir.is_dir() {
        return Err(ToolError::io(
            name,
            "entering the work directory",
            dir,
            io::Error::new(
                io::ErrorKind::NotFound,
                "no such directory; create it first",
            ),
        ));
    }
    let line = command_line(&command, dir);
    if verbose() {
        eprintln!("+ {line}");
    }
    let mut child = match (crate::interrupt::spawn(&mut command), tool) {
        (Ok(child), _) => child,
        (Err(err), Some(tool)) if err.kind() == io::ErrorKind::NotFound => {
            return Err(ToolError::Missing {
                tool: tool.program(),
                package: tool.package(),
            });
        }
        (Err(err), _) => return Err(ToolError::io(name, "starting the program", dir, err)),
    };
    // Read both pipes on their own threads so a chatty tool cannot block on
    // a full pipe while this thread waits for it to exit.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buffer = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buffer);
            }
            buffer
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let pid = child.id();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                crate::interrupt::finished(pid);
                break status;
            }
            Ok(None) if started.elapsed() >= limit => {
                // The tool runs in its own process group: stop it and whatever it started.
                crate::interrupt::kill_group(pid, libc::SIGKILL);
                let _ = child.kill();
                let _ = child.wait();
                crate::interrupt::finished(pid);
                return Err(ToolError::TimedOut {
                    tool: name.to_owned(),
                    seconds: limit.as_secs(),
                    dir: dir.to_path_buf(),
                });
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(err) => {
                crate::interrupt::finished(pid);
                return Err(ToolError::io(name, "waiting for the program", dir, err));
            }
        }
    };
    let out = std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    let mut result = ToolOutput {
        tool: name.to_owned(),
        dir: dir.to_path_buf(),
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        log: None,
    };
    if let Some(log) = log {
        let path = dir.join(log);
        let text = format!(
            "$ {line}\n# status: {}\n# ---- stdout ----\n{}\n# ---- stderr ----\n{}\n",
            describe_status(out.status),
            result.stdout,
            result.stderr
        );
        std::fs::write(&path, text)
            .map_err(|err| ToolError::io(name, format!("writing {}", path.display()), dir, err))?;
        result.log = Some(path);
    }
    Ok(result)
}

/// Write `contents` to `dir/name` for `tool`, mapping failure to [`ToolError::Io`].
pub fn write_file(
    tool: Tool,
    dir: &Path,
    name: &str,
    contents: &str,
) -> Result<PathBuf, ToolError> {
    let path = dir.join(name);
    std::fs::write(&path, contents)
        .map_err(|err| ToolError::io(tool, format!("writing {}", path.display()), dir, err))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_message_names_the_package() {
        let err = ToolError::Missing {
            tool: "icepack",
            package: "fpga-icestorm",
        };
        assert_eq!(
            err.to_string(),
            "`icepack` was not found on PATH; install it with `apt-get install fpga-icestorm`"
        );
    }

    #[test]
    fn command_lines_are_shell_quoted() {
        let mut command = Command::new("yosys");
        command.args(["-p", "read_verilog a b.v; synth_ice40", "it's"]);
        assert_eq!(
            command_line(&command, Path::new("/tmp/my build")),
            "cd '/tmp/my build' && yosys -p 'read_verilog a b.v; synth_ice40' \"it's\""
        );
        assert_eq!(shell_words(["iceprog", "top.bin"]), "iceprog top.bin");
    }

    #[test]
    fn tail_keeps_last_lines() {
        assert_eq!(tail("a\nb\nc\n", 2), "b\nc");
        assert_eq!(tail("a", 5), "a");
        assert_eq!(tail("", 5), "");
    }

    #[test]
    fn missing_program_is_reported() {
        let dir = std::env::temp_dir();
        let err = output_program(Path::new("/nonexistent/retrogate-sim"), &dir, ["x"], None)
            .expect_err("no such program");
        assert!(matches!(err, ToolError::Io { .. }), "{err}");
    }

    #[test]
    fn slow_program_is_killed() {
        let dir = std::env::temp_dir();
        let mut command = Command::new("sleep");
        command.arg("5");
        let started = Instant::now();
        let err = spawn(
            command,
            "sleep",
            None,
            &dir,
            None,
            Duration::from_millis(100),
        )
        .expect_err("killed");
        assert!(matches!(err, ToolError::TimedOut { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(4));
    }
}
