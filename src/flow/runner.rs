//! Running one external program in a given directory and capturing its output.
//!
//! The library prints nothing: each command line (and each note such as a reused Verilator
//! model) goes to the observer the caller installs with [`set_observer`] (the CLI's
//! `-v/--verbose` prints them on stderr as `+ <line>`). A run may be fed bytes on stdin
//! ([`Options::stdin`]) and is killed at its time limit: [`timeout()`] for a tool, or for a
//! simulation a [`SimulationLimit`] that grows with the number of vectors or cycles it runs.
//! Every run is also appended, with its duration, to the file `RETROGATE_TOOL_LOG` names
//! ([`log_run`]); a tool's version line is run once per process ([`version`]).

use std::ffi::OsStr;
use std::fmt;
use std::io;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::RwLock;
use std::time::{Duration, Instant};

/// What an observer receives: each tool's command line before it runs, as `cd DIR && tool
/// args...` (shell-quoted so it can be pasted), and notes as shell comments (`# reusing ...`).
pub type Observer = Box<dyn Fn(&str) + Send + Sync>;

static OBSERVER: RwLock<Option<Observer>> = RwLock::new(None);

/// Installs `observer` (or none) to receive every command line and note of the tools this
/// process runs (see [`Observer`]); the CLI installs one that prints them for `-v/--verbose`.
pub fn set_observer(observer: Option<Observer>) {
    *OBSERVER
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = observer;
}

/// Hands `line` to the installed observer, if any.
pub fn observe(line: &str) {
    let observer = OBSERVER
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(observer) = observer.as_ref() {
        observer(line);
    }
}

/// The environment variable naming a file that every tool run is appended to, one line each:
/// its seconds, a tab, and its command line (as the observer sees it); a result taken from the
/// tool cache is a line of `0.000` and the cache's note. For finding where a run's time goes
/// (docs/performance.md); the tests pass it through to the binary like the tool cache.
pub const LOG_VARIABLE: &str = "RETROGATE_TOOL_LOG";

/// Appends `seconds` and `line` to the file [`LOG_VARIABLE`] names, if any. One `write` of a
/// whole line to a file opened for appending, so concurrent runs do not interleave; a file that
/// cannot be written is skipped (the log only ever reports).
pub fn log_run(seconds: f64, line: &str) {
    if let Some(path) = std::env::var_os(LOG_VARIABLE).filter(|v| !v.is_empty()) {
        append_run(Path::new(&path), seconds, line);
    }
}

/// [`log_run`]'s line, appended to `log`.
fn append_run(log: &Path, seconds: f64, line: &str) {
    let entry = format!("{seconds:.3}\t{}\n", line.replace(['\n', '\t'], " "));
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        let _ = file.write_all(entry.as_bytes());
    }
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

/// Where `program` is on `PATH`, if it is.
pub fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// How many trailing lines of a failed tool's output go into the error.
const TAIL_LINES: usize = 25;

/// How long one tool run may take before it is killed, unless
/// `RETROGATE_TOOL_TIMEOUT_SECS` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// The environment variable that sets every tool's time limit, simulations included.
pub const TIMEOUT_VARIABLE: &str = "RETROGATE_TOOL_TIMEOUT_SECS";

/// `RETROGATE_TOOL_TIMEOUT_SECS` when set to a positive number of seconds.
fn timeout_override() -> Option<Duration> {
    std::env::var(TIMEOUT_VARIABLE)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&secs| secs > 0)
        .map(Duration::from_secs)
}

/// The time limit for one tool run: `RETROGATE_TOOL_TIMEOUT_SECS` if set to
/// a positive number of seconds, else [`DEFAULT_TIMEOUT`].
pub fn timeout() -> Duration {
    timeout_override().unwrap_or(DEFAULT_TIMEOUT)
}

/// The time limit of a simulation, from its length: [`SimulationLimit::BASE`] plus
/// [`SimulationLimit::PER_STEP`] for each vector or cycle it runs (unless
/// `RETROGATE_TOOL_TIMEOUT_SECS` sets the limit of every tool run). A design that loops (a
/// combinational loop, a testbench that never reaches `$finish`) is stopped there and reported
/// as [`ToolError::SimulationTimedOut`], not after the tools' 600 s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimulationLimit {
    /// Vectors or cycles the simulation runs.
    pub steps: u64,
    /// `"vector"` or `"cycle"`.
    pub unit: &'static str,
}

impl SimulationLimit {
    /// Time every simulation gets, whatever its length (loading the simulator included).
    pub const BASE: Duration = Duration::from_secs(20);
    /// Time each vector or cycle adds: over forty times what a cycle of the controller's
    /// gate-level netlist takes under Icarus (46 µs: 24673 cycles in 1.14 s).
    pub const PER_STEP: Duration = Duration::from_millis(2);

    /// A simulation of `n` test vectors.
    pub fn vectors(n: usize) -> Self {
        SimulationLimit {
            steps: n as u64,
            unit: "vector",
        }
    }

    /// A simulation of `n` clock cycles.
    pub fn cycles(n: usize) -> Self {
        SimulationLimit {
            steps: n as u64,
            unit: "cycle",
        }
    }

    /// The limit: `RETROGATE_TOOL_TIMEOUT_SECS` when set, else `BASE + steps * PER_STEP`.
    pub fn duration(&self) -> Duration {
        timeout_override().unwrap_or_else(|| {
            Self::BASE
                + Self::PER_STEP.saturating_mul(u32::try_from(self.steps).unwrap_or(u32::MAX))
        })
    }

    /// `19 vectors`, `1 cycle`.
    pub fn length(&self) -> String {
        format!(
            "{} {}{}",
            self.steps,
            self.unit,
            if self.steps == 1 { "" } else { "s" }
        )
    }
}

/// How a run gets its input and how long it may take.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Bytes written to the program's stdin (closed when `None`).
    pub stdin: Option<&'a [u8]>,
    /// A simulation's limit (else [`timeout()`]).
    pub simulation: Option<SimulationLimit>,
}

impl Options<'_> {
    /// The run's time limit: the simulation's, else [`timeout()`].
    fn limit(&self) -> Duration {
        self.simulation
            .as_ref()
            .map_or_else(timeout, SimulationLimit::duration)
    }
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
    /// ABC as yosys ships it: model checking of AIGER files (`pdr`, `bmc3`, `&bmcs`, `ind`, `dprove`).
    YosysAbc,
    /// Binary bitstream back to ASCII (icestorm).
    Iceunpack,
    /// ASCII bitstream to Verilog of the configured chip (icestorm).
    IceboxVlog,
    /// Timing analysis of an ASCII bitstream (icestorm).
    Icetime,
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
            Tool::Iceunpack => "iceunpack",
            Tool::IceboxVlog => "icebox_vlog",
            Tool::Icetime => "icetime",
        }
    }

    /// The Debian package to `apt-get install` for this tool.
    pub fn package(self) -> &'static str {
        match self {
            Tool::Yosys | Tool::YosysSmtbmc | Tool::YosysAbc => "yosys",
            Tool::YosysConfig => "yosys-dev",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack | Tool::Iceprog | Tool::Iceunpack | Tool::IceboxVlog | Tool::Icetime => {
                "fpga-icestorm"
            }
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
    /// A simulation ran longer than its [`SimulationLimit`] and was killed.
    #[error(
        "the simulation (`{tool}`) did not finish within {seconds} s, the limit for {length}, \
         and was killed in {dir}: does the design loop (a combinational loop, or a clock that \
         never lets the testbench reach `$finish`)? The limit is {} s plus {} ms a vector or \
         cycle; RETROGATE_TOOL_TIMEOUT_SECS sets another",
        SimulationLimit::BASE.as_secs(),
        SimulationLimit::PER_STEP.as_millis()
    )]
    SimulationTimedOut {
        /// Program name (or path of a built simulator).
        tool: String,
        /// The limit that was hit.
        seconds: u64,
        /// What it was simulating (`19 vectors`, `2400 cycles`).
        length: String,
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
    /// A file or module name that cannot go into a tool script as it is (see
    /// [`super::script`]): retrogate names every file a script holds, so this is a bug.
    #[error(
        "`{tool}`: the name {name:?} cannot go into a tool script (a script names only plain \
         relative files in its work folder and plain module identifiers); this is a bug in \
         retrogate, please report it"
    )]
    UnsafeName {
        /// Program name.
        tool: &'static str,
        /// The name.
        name: String,
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
    output_with(tool, dir, args, log, Options::default())
}

/// [`output`] with [`Options`]: bytes on stdin, a simulation's time limit.
pub fn output_with<I, S>(
    tool: Tool,
    dir: &Path,
    args: I,
    log: Option<&str>,
    options: Options<'_>,
) -> Result<ToolOutput, ToolError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(tool.program());
    command.args(args);
    spawn(
        command,
        tool.program(),
        Some(tool),
        dir,
        log,
        &options,
        options.limit(),
    )
}

/// A binary as [`version`] knows it: its path on `PATH`, size and modification time, and the
/// flag it was asked.
type VersionOf = (PathBuf, u64, std::time::SystemTime, String);

/// The version outputs this process has seen ([`version`]).
static VERSIONS: std::sync::Mutex<std::collections::BTreeMap<VersionOf, ToolOutput>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The output of `tool flag` (its version line: `yosys -V`, `verilator --version`), run once per
/// process for each binary: the one found on `PATH` now, known by its path, size and
/// modification time, so a different or replaced binary runs again. The tool cache's keys and
/// the Verilator model hashes ask for it before every step; `verilator --version` (a Perl
/// script) took 20 s of a clean clone's `make test` in 230 runs. A program not on `PATH` is run
/// (and fails) as [`output`] runs it.
pub fn version(tool: Tool, dir: &Path, flag: &str) -> Result<ToolOutput, ToolError> {
    let binary = on_path(tool.program()).and_then(|path| {
        let meta = std::fs::metadata(&path).ok()?;
        Some((path, meta.len(), meta.modified().ok()?, flag.to_owned()))
    });
    let Some(binary) = binary else {
        return output(tool, dir, [flag], None);
    };
    let versions = || {
        VERSIONS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some(known) = versions().get(&binary).cloned() {
        return Ok(ToolOutput {
            dir: dir.to_path_buf(),
            ..known
        });
    }
    let out = output(tool, dir, [flag], None)?;
    versions().insert(binary, out.clone());
    Ok(out)
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
    output_program_with(program, dir, args, log, Options::default())
}

/// [`output_program`] with [`Options`].
pub fn output_program_with<I, S>(
    program: &Path,
    dir: &Path,
    args: I,
    log: Option<&str>,
    options: Options<'_>,
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
        &options,
        options.limit(),
    )
}

fn spawn(
    mut command: Command,
    name: &str,
    tool: Option<Tool>,
    dir: &Path,
    log: Option<&str>,
    options: &Options<'_>,
    limit: Duration,
) -> Result<ToolOutput, ToolError> {
    command
        .current_dir(dir)
        .stdin(if options.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
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
    observe(&line);
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
    // Feed stdin on its own thread (then close it), and read both pipes on theirs, so a
    // chatty tool cannot block on a full pipe while this thread waits for it to exit.
    let feed = match (child.stdin.take(), options.stdin) {
        (Some(mut pipe), Some(bytes)) => {
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                // A tool that exits without reading all of it is judged by its exit status.
                let _ = pipe.write_all(&bytes);
            }))
        }
        _ => None,
    };
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
                log_run(started.elapsed().as_secs_f64(), &line);
                break status;
            }
            Ok(None) if started.elapsed() >= limit => {
                // The tool runs in its own process group: stop it and whatever it started.
                crate::interrupt::kill_group(pid, libc::SIGKILL);
                let _ = child.kill();
                let _ = child.wait();
                crate::interrupt::finished(pid);
                return Err(match options.simulation {
                    Some(simulation) => ToolError::SimulationTimedOut {
                        tool: name.to_owned(),
                        seconds: limit.as_secs(),
                        length: simulation.length(),
                        dir: dir.to_path_buf(),
                    },
                    None => ToolError::TimedOut {
                        tool: name.to_owned(),
                        seconds: limit.as_secs(),
                        dir: dir.to_path_buf(),
                    },
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
    if let Some(feed) = feed {
        let _ = feed.join();
    }
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
        let options = Options::default();
        let err = spawn(
            command,
            "sleep",
            None,
            &dir,
            None,
            &options,
            Duration::from_millis(100),
        )
        .expect_err("killed");
        assert!(matches!(err, ToolError::TimedOut { .. }), "{err}");
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[test]
    fn a_slow_simulation_names_its_limit_and_length() {
        let dir = std::env::temp_dir();
        let mut command = Command::new("sleep");
        command.arg("5");
        let options = Options {
            simulation: Some(SimulationLimit::vectors(19)),
            ..Options::default()
        };
        let err = spawn(
            command,
            "vvp",
            None,
            &dir,
            None,
            &options,
            Duration::from_millis(100),
        )
        .expect_err("killed");
        let text = err.to_string();
        assert!(
            text.starts_with(
                "the simulation (`vvp`) did not finish within 0 s, the limit for 19 vectors, and \
                 was killed in "
            ),
            "{text}"
        );
        assert!(text.contains("does the design loop"), "{text}");
        assert!(
            text.contains("The limit is 20 s plus 2 ms a vector or cycle"),
            "{text}"
        );
    }

    #[test]
    fn simulation_limits_grow_with_the_length() {
        // Unless the variable is set for the whole run (the CLI tests clear the environment).
        if timeout_override().is_none() {
            assert_eq!(
                SimulationLimit::vectors(8).duration(),
                Duration::from_millis(20_016)
            );
            assert_eq!(
                SimulationLimit::cycles(100_000).duration(),
                Duration::from_secs(220)
            );
        }
        assert_eq!(SimulationLimit::cycles(1).length(), "1 cycle");
        assert_eq!(SimulationLimit::vectors(19).length(), "19 vectors");
    }

    #[test]
    fn stdin_reaches_the_program() {
        let dir = std::env::temp_dir();
        let text = "module a; endmodule\n".repeat(10_000);
        let options = Options {
            stdin: Some(text.as_bytes()),
            ..Options::default()
        };
        let out = output_program_with(Path::new("cat"), &dir, ["-"], None, options)
            .expect("cat")
            .check()
            .expect("cat exits 0");
        assert_eq!(out.stdout, text);
    }

    #[test]
    fn each_run_is_one_line_of_the_log() {
        let temp = tempfile::tempdir().unwrap();
        let log = temp.path().join("tools.tsv");
        append_run(&log, 1.23456, "cd x && yosys -s a.ys");
        append_run(&log, 0.0, "# from the tool cache\n(two lines)\tand a tab");
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "1.235\tcd x && yosys -s a.ys\n0.000\t# from the tool cache (two lines) and a tab\n"
        );
    }

    /// The second ask in a process runs nothing: the observer sees one command line in the
    /// folder, and both answers are the same.
    #[cfg(feature = "external-tools")]
    #[test]
    fn a_version_line_is_run_once_per_binary() {
        use std::sync::{Arc, Mutex};
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().to_path_buf();
        let here = format!("cd {} && yosys -V", shell_quote(&dir.display().to_string()));
        let seen = Arc::new(Mutex::new(0));
        let sink = Arc::clone(&seen);
        set_observer(Some(Box::new(move |line| {
            if line == here {
                *sink.lock().unwrap() += 1;
            }
        })));
        let first = version(Tool::Yosys, &dir, "-V").unwrap();
        let second = version(Tool::Yosys, &dir, "-V").unwrap();
        set_observer(None);
        assert!(first.stdout.starts_with("Yosys "), "{}", first.stdout);
        assert_eq!(first.stdout, second.stdout);
        assert_eq!(*seen.lock().unwrap(), 1);
    }

    #[test]
    fn the_observer_sees_each_command_line() {
        use std::sync::{Arc, Mutex};
        let seen = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = Arc::clone(&seen);
        set_observer(Some(Box::new(move |line| {
            sink.lock().unwrap().push(line.to_owned())
        })));
        let temp = tempfile::Builder::new()
            .prefix("retrogate observer's ")
            .tempdir()
            .unwrap();
        let dir = temp.path().to_path_buf();
        output_program(Path::new("true"), &dir, ["it's"], None).expect("true");
        observe("# a note");
        set_observer(None);
        let seen = seen.lock().unwrap();
        let quoted = format!(
            "cd {} && true \"it's\"",
            shell_quote(&dir.display().to_string())
        );
        assert!(seen.contains(&quoted), "{seen:?}");
        assert!(seen.contains(&"# a note".to_owned()), "{seen:?}");
    }
}
