//! SIGINT, SIGTERM and SIGHUP while retrogate runs tools: stop the tools, remove the temporary
//! folders, give back what a [`restore_on_signal`] guard holds (the live board's terminal),
//! then call the handler the caller installed (the command line says what happened and exits
//! 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP; this module neither prints nor exits).
//!
//! Every external tool runs in its own process group ([`spawn`]), so a Ctrl-C at the terminal
//! reaches only retrogate, and retrogate kills each running tool's whole group (the tool and
//! anything it started, e.g. the compiler Verilator runs). Temporary folders are registered
//! with [`temp_folder`] while they exist. [`critical`] runs a short step (moving a finished
//! build into place) that a signal must not cut in half: the handler waits for it. Before it
//! exits it also ends the command's output folders ([`crate::output_dir::finish`]: records
//! what it wrote, removes its lock files).
//!
//! [`install`] starts the handler with the caller's [`Interrupted`] callback; commands that run
//! no tools (e.g. `play`, which treats Ctrl-C as leaving the game) do not install it.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::Duration;

struct State {
    /// Process groups (= the tool's pid) of running tools.
    groups: Vec<u32>,
    /// Temporary folders to remove on a signal.
    temp: Vec<PathBuf>,
    /// What to give back on a signal before the caller's handler runs (e.g. the terminal).
    restore: Option<fn()>,
}

static STATE: Mutex<State> = Mutex::new(State {
    groups: Vec::new(),
    temp: Vec::new(),
    restore: None,
});

fn state() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What the handler did when a signal came; passed to the caller's callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The signal (`SIGINT`, `SIGTERM` or `SIGHUP`).
    pub signal: i32,
    /// Running tools it stopped.
    pub stopped: usize,
}

impl Interrupted {
    /// `SIGINT`, `SIGTERM` or `SIGHUP`.
    pub fn name(&self) -> &'static str {
        match self.signal {
            libc::SIGTERM => "SIGTERM",
            libc::SIGHUP => "SIGHUP",
            _ => "SIGINT",
        }
    }

    /// The conventional exit code: 128 + the signal (130 for SIGINT, 143 for SIGTERM, 129 for
    /// SIGHUP).
    pub fn exit_code(&self) -> i32 {
        128 + self.signal
    }
}

/// Installs the SIGINT/SIGTERM/SIGHUP handler (once; later calls do nothing). On a signal it
/// stops every running tool, removes the temporary folders and runs the registered restore
/// ([`restore_on_signal`]), then calls `on_signal` with signals still held off (so no
/// [`critical`] step starts); `on_signal` is expected to end the process.
pub fn install(on_signal: fn(Interrupted)) -> io::Result<()> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            Ok(mut signals) => {
                std::thread::spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        shut_down(signal, on_signal);
                    }
                });
            }
            Err(e) => result = Err(e),
        }
    });
    result
}

/// Stops every running tool, removes the temporary folders and hands over to `on_signal`.
fn shut_down(signal: i32, on_signal: fn(Interrupted)) {
    let state = state();
    for &group in &state.groups {
        kill_group(group, libc::SIGTERM);
    }
    // Give the tools a moment to stop on their own, then make sure.
    let deadline = std::time::Instant::now() + Duration::from_millis(500);
    while state.groups.iter().any(|&g| group_alive(g)) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    for &group in &state.groups {
        kill_group(group, libc::SIGKILL);
    }
    for dir in &state.temp {
        let _ = std::fs::remove_dir_all(dir);
    }
    if let Some(restore) = state.restore {
        restore();
    }
    // Record what the command wrote in the folders it claimed, and remove its lock files.
    let _ = crate::output_dir::finish();
    on_signal(Interrupted {
        signal,
        stopped: state.groups.len(),
    });
}

/// Sends `signal` to the process group `group`.
pub fn kill_group(group: u32, signal: i32) {
    if let Ok(pgid) = i32::try_from(group) {
        if pgid > 0 {
            // SAFETY: kill(2) with a negative pid signals a process group; no memory is shared.
            unsafe {
                libc::kill(-pgid, signal);
            }
        }
    }
}

/// Whether any process of group `group` still exists (zombies included).
fn group_alive(group: u32) -> bool {
    match i32::try_from(group) {
        // SAFETY: signal 0 only checks for existence.
        Ok(pgid) if pgid > 0 => unsafe { libc::kill(-pgid, 0) == 0 },
        _ => false,
    }
}

/// Starts `command` in a process group of its own and registers it, so that a signal stops
/// it. Call [`finished`] with its pid once it has been waited for.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    // Hold the lock while spawning: a signal cannot fall between the start and the
    // registration.
    let mut state = state();
    let child = command.spawn()?;
    state.groups.push(child.id());
    Ok(child)
}

/// The tool `pid` (started by [`spawn`]) was waited for: forget it.
pub fn finished(pid: u32) {
    state().groups.retain(|&g| g != pid);
}

/// A registered temporary folder: removed on a signal while this lives. Dropping it only
/// unregisters the folder (the caller removes or keeps it).
#[derive(Debug)]
pub struct TempFolder {
    path: PathBuf,
}

impl TempFolder {
    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        state().temp.retain(|p| p != &self.path);
    }
}

/// Registers `path` as a temporary folder to remove on a signal.
pub fn temp_folder(path: &Path) -> TempFolder {
    state().temp.push(path.to_path_buf());
    TempFolder {
        path: path.to_path_buf(),
    }
}

/// While the returned guard lives, a signal runs `restore` (e.g. giving the terminal back: raw
/// mode off, the main screen back) after stopping the tools and before the caller's handler.
/// One at a time: a later registration replaces an earlier one.
#[must_use = "the restore is unregistered when the guard is dropped"]
pub fn restore_on_signal(restore: fn()) -> RestoreOnSignal {
    state().restore = Some(restore);
    RestoreOnSignal { _private: () }
}

/// Unregisters the restore of [`restore_on_signal`] when dropped.
#[derive(Debug)]
pub struct RestoreOnSignal {
    _private: (),
}

impl Drop for RestoreOnSignal {
    fn drop(&mut self) {
        state().restore = None;
    }
}

/// Runs `step` with signals held off: the handler waits until it has finished. Keep it short,
/// and do not start tools or register folders inside it.
pub fn critical<R>(step: impl FnOnce() -> R) -> R {
    let _guard = state();
    step()
}
