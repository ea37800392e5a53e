//! Output folders retrogate may write into, and writing files there whole or not at all.
//!
//! The rule: retrogate never writes through, replaces or deletes a file it did not write.
//!
//! * Every folder retrogate writes into keeps a manifest [`MANIFEST`]: the names it wrote there,
//!   one a line. A listed **subfolder** keeps its own manifest, at every depth: the work
//!   folders of `verify` and `schematic` ([`claim`]) and the scratch folder of a build
//!   ([`create_scratch`]) are recorded entry by entry when the command ends ([`finish`]).
//!   Folders retrogate creates are listed in their parent when the parent is retrogate's too
//!   (made in the same call, or carrying a manifest), so `build/` lists `icebreaker/`, which
//!   lists `sticks/`.
//! * An output **folder** (`build --out`, `emit --out/--sim/--constraints`, `verify --work`,
//!   `schematic --work`) is new, empty, or retrogate's: every entry at every depth is listed in
//!   its folder's manifest and is a regular file (with no other name) or a real folder. An
//!   entry that is not listed ([`OutputError::Foreign`]), or a symbolic link, special file or
//!   hard link ([`OutputError::Unsafe`]), refuses the folder before anything is written: links
//!   are never followed, to write or to delete. Several commands may share a folder (e.g.
//!   `emit jr01` and `emit sticks` both write `hdl/`): each adds its names.
//! * An output **file** (`wave --out`, `schematic --out`) is new or listed in its folder's
//!   manifest; other files in that folder are left alone. A name that cannot be one manifest
//!   line (a newline or other control character, not UTF-8, ...) is refused
//!   ([`OutputError::BadName`]), so no name can forge an entry.
//! * A folder being written is locked ([`LOCK`], `flock`, with the writer's process id): a
//!   second run refuses it ([`OutputError::InUse`]) instead of writing into it too; the kernel
//!   drops the lock of a process that dies, and the next run takes the stale file over.
//! * Files are written to a temporary sibling `.NAME.tmp-PID` and renamed into place; a failed
//!   write (a full disk) removes its temporaries, and those a dead process left behind next to a
//!   listed name are retrogate's own (never foreign; removed by the next write or `clean`).
//! * [`clean`] removes exactly what the manifests list, starting at the named folder's own
//!   manifest and going only into listed subfolders: a folder without a manifest (a checkout,
//!   a home folder, `/`) is refused, and a checkout's committed `hdl/` is removed only when it
//!   is named itself.
//!
//! Checks ([`check_folder`], [`check_file`], [`check_scratch`]) read only; [`write_files`]
//! writes each file to a temporary sibling and renames it into place once all are written;
//! [`remove_own_files`] removes files a folder's manifest lists (a run's stale outputs).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The manifest file retrogate keeps in each folder it writes: the names it wrote there.
pub const MANIFEST: &str = ".retrogate-manifest";

/// The lock file of a folder being written: it holds the writer's process id.
pub const LOCK: &str = ".retrogate-lock";

const HEADER: &str =
    "# Files retrogate wrote in this folder (one name a line); retrogate may replace them.\n";

const SCRATCH_HEADER: &str =
    "# A scratch folder of retrogate: its files move into the output folder when done.\n";

/// Why an output path is refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A folder was named, but the path is a file (or the reverse).
    #[error("{flag} {}: {problem}", path.display())]
    WrongKind {
        /// The flag that named it (`--out`, `--work`, ...).
        flag: String,
        /// The path.
        path: PathBuf,
        /// What is wrong and what to give instead.
        problem: String,
    },
    /// The folder (or the file) holds something retrogate did not write.
    #[error(
        "{flag} {}: refusing to write there, because {} was not written by retrogate (it is not \
         listed in {}); retrogate never replaces files it did not write: give a new or empty \
         folder, or move that file away",
        dir.display(), first.display(), parent(first).join(MANIFEST).display()
    )]
    Foreign {
        /// The flag that named it.
        flag: String,
        /// The folder.
        dir: PathBuf,
        /// The first foreign entry (in name order, depth first).
        first: PathBuf,
    },
    /// A link, special file or hard link where retrogate would write or delete.
    #[error(
        "{flag} {}: refusing to write there, because {} {what}; retrogate never writes, replaces \
         or deletes through a link or into a special file: remove it (or move it away), or give \
         a new or empty folder",
        dir.display(), path.display()
    )]
    Unsafe {
        /// The flag that named the folder.
        flag: String,
        /// The folder.
        dir: PathBuf,
        /// The entry.
        path: PathBuf,
        /// What it is: `is a symbolic link`, ...
        what: &'static str,
    },
    /// A file name that cannot be listed in a manifest as one line.
    #[error(
        "{flag} {path:?}: the file name {problem}; retrogate lists each file it writes as one \
         line of its folder's manifest: give a name of printable characters, e.g. {flag} \
         game.svg"
    )]
    BadName {
        /// The flag that named it.
        flag: String,
        /// The path.
        path: PathBuf,
        /// What is wrong with the name.
        problem: &'static str,
    },
    /// Another retrogate process is writing in the folder.
    #[error(
        "{} is in use by {}: another run is writing there; wait for it to finish (or stop it), \
         or give another folder",
        dir.display(),
        pid.map_or("another retrogate process".to_owned(), |p| format!("retrogate process {p}"))
    )]
    InUse {
        /// The folder.
        dir: PathBuf,
        /// The process holding its lock, when it says.
        pid: Option<u32>,
    },
    /// `clean` of a folder that is not retrogate's output.
    #[error("--out {}: {problem}", dir.display())]
    NotOutput {
        /// The folder.
        dir: PathBuf,
        /// Why, and what to give instead.
        problem: String,
    },
    /// Reading or writing failed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
}

impl OutputError {
    /// Whether the error is the user's input (exit 2) rather than a failed write (exit 1).
    pub fn is_usage(&self) -> bool {
        !matches!(self, OutputError::Io { .. })
    }
}

fn io_error<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> OutputError + 'a {
    move |source| OutputError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// `path` made absolute against the current directory (without touching the disk).
pub fn absolute(path: &Path) -> Result<PathBuf, OutputError> {
    std::path::absolute(path).map_err(io_error("resolve", path))
}

/// Whether `e` says the path does not exist (also: a file stands where a folder would be).
fn missing(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `name` as one manifest line, or what is wrong with it: it must be UTF-8, hold no control
/// character (a newline would make two lines), not start with `#` (a comment) or a space, not
/// end with a space (lines are trimmed), and be a plain name.
pub fn listable(name: &OsStr) -> Result<&str, &'static str> {
    let name = name.to_str().ok_or("is not valid UTF-8")?;
    if name.is_empty() || name == "." || name == ".." || name.contains('/') {
        return Err("is not a plain file name");
    }
    if name.chars().any(char::is_control) {
        return Err("holds a newline or another control character");
    }
    if name.starts_with(char::is_whitespace) || name.ends_with(char::is_whitespace) {
        return Err("starts or ends with a space");
    }
    if name.starts_with('#') {
        return Err("starts with #");
    }
    Ok(name)
}

/// A folder's manifest: its comment header and the names it lists.
struct Manifest {
    header: String,
    names: BTreeSet<String>,
    exists: bool,
}

fn read_manifest(dir: &Path) -> Result<Manifest, OutputError> {
    let path = dir.join(MANIFEST);
    match fs::read_to_string(&path) {
        Ok(text) => {
            let header: String = text
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            Ok(Manifest {
                header: if header.is_empty() {
                    HEADER.to_owned()
                } else {
                    header
                },
                names: text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_owned)
                    .collect(),
                exists: true,
            })
        }
        Err(e) if missing(&e) => Ok(Manifest {
            header: HEADER.to_owned(),
            names: BTreeSet::new(),
            exists: false,
        }),
        Err(e) => Err(OutputError::Io {
            action: "read",
            path,
            source: e,
        }),
    }
}

/// The names listed in `dir`'s manifest (empty when there is none).
pub fn manifest(dir: &Path) -> Result<BTreeSet<String>, OutputError> {
    Ok(read_manifest(dir)?.names)
}

/// What an entry is, read without following links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A regular file and how many names it has.
    File {
        links: u64,
    },
    Dir,
    Link,
    /// A FIFO, socket or device.
    Other,
}

impl Kind {
    fn of(meta: &fs::Metadata) -> Kind {
        let t = meta.file_type();
        if t.is_symlink() {
            Kind::Link
        } else if t.is_dir() {
            Kind::Dir
        } else if t.is_file() {
            Kind::File {
                links: meta.nlink(),
            }
        } else {
            Kind::Other
        }
    }

    /// Why retrogate must not write or delete through this entry, if so.
    fn danger(self) -> Option<&'static str> {
        match self {
            Kind::Link => Some("is a symbolic link"),
            Kind::Other => Some("is not a regular file or folder (a FIFO, socket or device)"),
            Kind::File { links } if links > 1 => {
                Some("is a hard link (the same file has other names, elsewhere perhaps)")
            }
            _ => None,
        }
    }
}

struct Entry {
    name: OsString,
    path: PathBuf,
    kind: Kind,
}

impl Entry {
    /// The name as a manifest line, if it can be one.
    fn listable(&self) -> Option<&str> {
        listable(&self.name).ok()
    }
}

/// The entries of `dir` (sorted by name), without the manifest and the lock.
fn entries(dir: &Path) -> Result<Vec<Entry>, OutputError> {
    let mut all = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error("read the folder", dir))? {
        let entry = entry.map_err(io_error("read the folder", dir))?;
        let name = entry.file_name();
        if name == MANIFEST || name == LOCK {
            continue;
        }
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).map_err(io_error("read", &path))?;
        all.push(Entry {
            name,
            path,
            kind: Kind::of(&meta),
        });
    }
    all.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(all)
}

/// `path`'s temporary sibling while it is written: `.NAME.tmp-PID`.
fn temp_sibling(path: &Path) -> PathBuf {
    path.with_file_name(format!(".{}.tmp-{}", file_name(path), std::process::id()))
}

/// `(NAME, PID)` of a temporary file name `.NAME.tmp-PID`.
fn temp_of(name: &str) -> Option<(&str, u32)> {
    let (base, pid) = name.strip_prefix('.')?.rsplit_once(".tmp-")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((base, pid.parse().ok()?))
}

/// Whether process `pid` exists.
fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// For a temporary file retrogate left next to a name it lists (or next to the manifest):
/// whether it may be removed (its process is gone). `None` when `name` is not one.
fn own_temp(name: &str, listed: &BTreeSet<String>) -> Option<bool> {
    let (base, pid) = temp_of(name)?;
    (base == MANIFEST || listed.contains(base)).then(|| pid != std::process::id() && !alive(pid))
}

// ---- Locks ---------------------------------------------------------------------------------

/// A held lock: the open lock file (`flock`ed) and its path. Dropping it removes the file, then
/// closes it (which releases the lock).
#[derive(Debug)]
struct Held {
    dir: PathBuf,
    path: PathBuf,
    _file: fs::File,
}

impl Drop for Held {
    fn drop(&mut self) {
        // Removed while still locked: a run that opens it meanwhile sees a file that is no
        // longer at the path, and tries again.
        let _ = fs::remove_file(&self.path);
    }
}

/// What this process holds: locks, and the folders to record when it is done.
struct Registry {
    locks: Vec<Held>,
    claimed: Vec<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    locks: Vec::new(),
    claimed: Vec::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn open_lock(path: &Path, create: bool) -> io::Result<fs::File> {
    fs::OpenOptions::new()
        .read(true)
        .write(create)
        .create(create)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// The process id a lock file names.
fn lock_pid(file: &mut fs::File) -> Option<u32> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Takes the lock of the folder `dir` (which exists), or says who holds it.
fn acquire(dir: &Path) -> Result<Held, OutputError> {
    let path = dir.join(LOCK);
    let mut busy = None;
    for attempt in 0..20 {
        let mut file = match open_lock(&path, true) {
            Ok(f) => f,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(OutputError::Unsafe {
                    flag: "--out".to_owned(),
                    dir: dir.to_path_buf(),
                    path,
                    what: "is a symbolic link",
                })
            }
            Err(e) => return Err(io_error("create the lock", &path)(e)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                busy = Some(lock_pid(&mut file));
                // A run that only looked at the lock lets go at once: try again briefly.
                if attempt < 3 {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    continue;
                }
                break;
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_error("lock", &path)(e)),
        }
        // The file may have been removed (and another made) between the open and the lock.
        let same = match (file.metadata(), fs::symlink_metadata(&path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            continue;
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.write_all(pid.as_bytes()))
            .map_err(io_error("write the lock", &path))?;
        return Ok(Held {
            dir: dir.to_path_buf(),
            path,
            _file: file,
        });
    }
    Err(OutputError::InUse {
        dir: dir.to_path_buf(),
        pid: busy.flatten(),
    })
}

/// Locks the folder `dir` (which exists) for this process, until [`release`] or [`finish`]:
/// another retrogate process that wants it gets [`OutputError::InUse`]. Taking a lock this
/// process holds already does nothing.
pub fn lock(dir: &Path) -> Result<(), OutputError> {
    let mut r = registry();
    if r.locks.iter().any(|h| h.dir == dir) {
        return Ok(());
    }
    let held = acquire(dir)?;
    r.locks.push(held);
    Ok(())
}

/// Releases this process's lock of `dir` (removing the lock file), if it holds one.
pub fn release(dir: &Path) {
    let held: Vec<Held> = {
        let mut r = registry();
        let (gone, kept) = std::mem::take(&mut r.locks)
            .into_iter()
            .partition(|h| h.dir == dir);
        r.locks = kept;
        gone
    };
    drop(held);
}

/// The process holding `dir`'s lock, when it is another one: `Some(pid)` (`Some(None)` when
/// its lock file does not say).
fn in_use(dir: &Path) -> Option<Option<u32>> {
    if registry().locks.iter().any(|h| h.dir == dir) {
        return None;
    }
    let mut file = open_lock(&dir.join(LOCK), false).ok()?;
    let pid = lock_pid(&mut file);
    match pid {
        Some(p) if p == std::process::id() => return None,
        // A stale lock file: its process is gone.
        Some(p) if !alive(p) => return None,
        _ => {}
    }
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            None
        }
        Err(fs::TryLockError::WouldBlock) => Some(pid),
        Err(fs::TryLockError::Error(_)) => None,
    }
}

fn check_not_in_use(dir: &Path) -> Result<(), OutputError> {
    match in_use(dir) {
        Some(pid) => Err(OutputError::InUse {
            dir: dir.to_path_buf(),
            pid,
        }),
        None => Ok(()),
    }
}

/// The end of a command: records every entry of the folders it claimed ([`claim`],
/// [`create_scratch`]) in their manifests, at every depth, and releases its locks. The command
/// line calls it when a command ends (also on an error, a panic or a signal).
pub fn finish() -> Result<(), OutputError> {
    finish_where(|_| true)
}

/// [`finish`] for the folders `which` picks only (tests finish their own folders).
fn finish_where(which: impl Fn(&Path) -> bool) -> Result<(), OutputError> {
    let (claimed, locks) = {
        let mut r = registry();
        let (claimed, others) = std::mem::take(&mut r.claimed)
            .into_iter()
            .partition(|d| which(d));
        r.claimed = others;
        let (locks, others) = std::mem::take(&mut r.locks)
            .into_iter()
            .partition(|h: &Held| which(&h.dir));
        r.locks = others;
        (claimed, locks)
    };
    let mut result = Ok(());
    for dir in claimed {
        if fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            if let Err(e) = record_tree(&dir) {
                result = result.and(Err(e));
            }
        }
    }
    drop(locks);
    result
}

/// Lists every entry of `dir` retrogate may call its own (regular files with one name, real
/// folders, with names that fit a line) in its manifest, and so on in each folder below.
fn record_tree(dir: &Path) -> Result<(), OutputError> {
    let old = read_manifest(dir)?;
    let mut names = BTreeSet::new();
    for e in entries(dir)? {
        let Some(name) = e.listable() else {
            continue;
        };
        if temp_of(name).is_some() {
            continue;
        }
        match e.kind {
            Kind::File { links: 1 } => {
                names.insert(name.to_owned());
            }
            Kind::Dir => {
                record_tree(&e.path)?;
                names.insert(name.to_owned());
            }
            _ => {}
        }
    }
    write_manifest_with(dir, &old.header, &names)
}

// ---- Checks --------------------------------------------------------------------------------

/// Checks `dir` (a real folder) and every listed folder below: every entry listed, none a
/// link, special file or hard link, none locked by another process.
fn check_tree(flag: &str, top: &Path, dir: &Path) -> Result<(), OutputError> {
    check_not_in_use(dir)?;
    let listed = manifest(dir)?;
    for e in entries(dir)? {
        let name = e.listable().filter(|n| listed.contains(*n));
        let Some(_) = name else {
            let temp = e.listable().and_then(|n| own_temp(n, &listed));
            if temp.is_some() && e.kind == (Kind::File { links: 1 }) {
                continue;
            }
            return Err(OutputError::Foreign {
                flag: flag.to_owned(),
                dir: top.to_path_buf(),
                first: e.path,
            });
        };
        if let Some(what) = e.kind.danger() {
            return Err(OutputError::Unsafe {
                flag: flag.to_owned(),
                dir: top.to_path_buf(),
                path: e.path,
                what,
            });
        }
        if e.kind == Kind::Dir {
            check_tree(flag, top, &e.path)?;
        }
    }
    Ok(())
}

/// Checks that the folder `dir` (named by `flag`) is new, empty, or retrogate's: every entry
/// at every depth is listed in its folder's manifest and is a regular file or a real folder.
/// Reads only.
pub fn check_folder(flag: &str, dir: &Path) -> Result<(), OutputError> {
    match fs::metadata(dir) {
        Err(e) if missing(&e) => return check_parents(flag, dir),
        Err(e) => return Err(io_error("read", dir)(e)),
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::WrongKind {
                flag: flag.to_owned(),
                path: dir.to_path_buf(),
                problem: "this is a file, not a folder; give a folder (new, empty, or one \
                          retrogate wrote before)"
                    .to_owned(),
            })
        }
        Ok(_) => {}
    }
    check_tree(flag, dir, dir)
}

/// A missing folder is created with its parents later: every existing ancestor must be a folder.
fn check_parents(flag: &str, path: &Path) -> Result<(), OutputError> {
    for ancestor in path.ancestors().skip(1) {
        if let Ok(m) = fs::metadata(ancestor) {
            if m.is_dir() {
                return Ok(());
            }
            return Err(OutputError::WrongKind {
                flag: flag.to_owned(),
                path: path.to_path_buf(),
                problem: format!(
                    "{} is a file, so no folder can be made below it",
                    ancestor.display()
                ),
            });
        }
    }
    Ok(())
}

/// Checks that the file `path` (named by `flag`) has a name that fits a manifest line, is new
/// or listed in its folder's manifest (and then a regular file, not a link), and that its
/// folder is (or can be made) a folder. Reads only.
pub fn check_file(flag: &str, path: &Path) -> Result<(), OutputError> {
    let name = path.file_name().unwrap_or_default();
    if let Err(problem) = listable(name) {
        return Err(OutputError::BadName {
            flag: flag.to_owned(),
            path: path.to_path_buf(),
            problem,
        });
    }
    let dir = parent(path);
    match fs::symlink_metadata(path) {
        Err(e) if missing(&e) => {
            return match fs::metadata(&dir) {
                Ok(m) if m.is_dir() => check_not_in_use(&dir),
                Ok(_) => Err(OutputError::WrongKind {
                    flag: flag.to_owned(),
                    path: path.to_path_buf(),
                    problem: format!("{} is a file, not a folder", dir.display()),
                }),
                Err(_) => check_parents(flag, path),
            }
        }
        Err(e) => return Err(io_error("read", path)(e)),
        Ok(m) if m.is_dir() => {
            return Err(OutputError::WrongKind {
                flag: flag.to_owned(),
                path: path.to_path_buf(),
                problem: "this is a folder; give a file name".to_owned(),
            })
        }
        Ok(m) => {
            if let Some(what) = Kind::of(&m).danger() {
                return Err(OutputError::Unsafe {
                    flag: flag.to_owned(),
                    dir,
                    path: path.to_path_buf(),
                    what,
                });
            }
        }
    }
    check_not_in_use(&dir)?;
    if manifest(&dir)?.contains(&file_name(path)) {
        Ok(())
    } else {
        Err(OutputError::Foreign {
            flag: flag.to_owned(),
            dir,
            first: path.to_path_buf(),
        })
    }
}

// ---- Writing -------------------------------------------------------------------------------

/// Adds `names` to `dir`'s manifest (written whole: temporary file, then rename).
pub fn record(dir: &Path, names: impl IntoIterator<Item = String>) -> Result<(), OutputError> {
    let mut m = read_manifest(dir)?;
    let before = m.names.len();
    for name in names {
        if let Err(problem) = listable(OsStr::new(&name)) {
            return Err(OutputError::BadName {
                flag: "--out".to_owned(),
                path: dir.join(&name),
                problem,
            });
        }
        m.names.insert(name);
    }
    if m.names.len() == before && m.exists {
        return Ok(());
    }
    write_manifest_with(dir, &m.header, &m.names)
}

/// Removes `name` from `dir`'s manifest, if it lists it.
fn unrecord(dir: &Path, name: &str) -> Result<(), OutputError> {
    let mut m = read_manifest(dir)?;
    if m.names.remove(name) {
        write_manifest_with(dir, &m.header, &m.names)?;
    }
    Ok(())
}

/// Replaces `dir`'s manifest with `names`.
pub fn write_manifest(dir: &Path, names: &BTreeSet<String>) -> Result<(), OutputError> {
    write_manifest_with(dir, HEADER, names)
}

fn write_manifest_with(
    dir: &Path,
    header: &str,
    names: &BTreeSet<String>,
) -> Result<(), OutputError> {
    let mut text = header.to_owned();
    for n in names {
        text.push_str(n);
        text.push('\n');
    }
    let path = dir.join(MANIFEST);
    write_whole(&path, text.as_bytes()).map_err(io_error("write", &path))
}

/// Writes `path` through its temporary sibling; on any error the temporary file is removed.
fn write_whole(path: &Path, contents: &[u8]) -> io::Result<()> {
    let temp = temp_sibling(path);
    let result = write_new(&temp, contents).and_then(|()| fs::rename(&temp, path));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Writes a new file (never through a link: a stale temporary file is replaced).
fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    let _ = fs::remove_file(path);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .open(path)?;
    file.write_all(contents)
}

/// Creates the folder `dir` and its missing parents. Each new folder is listed in its parent
/// when the parent is retrogate's (made here, or carrying a manifest). Returns the new folders,
/// outermost first.
fn create_folder(dir: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let mut absent: Vec<&Path> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && fs::symlink_metadata(a).is_err())
        .collect();
    absent.reverse();
    let mut created: Vec<PathBuf> = Vec::new();
    for folder in absent {
        match fs::create_dir(folder) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && folder.is_dir() => continue,
            Err(e) => return Err(io_error("create the folder", folder)(e)),
        }
        created.push(folder.to_path_buf());
        let up = parent(folder);
        if created.contains(&up) || up.join(MANIFEST).is_file() {
            record(&up, [file_name(folder)])?;
        }
    }
    Ok(created)
}

/// Undoes [`create_folder`]: removes the folders it made (if still empty but for a manifest)
/// and their names from the parents' manifests.
fn remove_created(created: &[PathBuf]) {
    for folder in created.iter().rev() {
        release(folder);
        let _ = fs::remove_file(folder.join(MANIFEST));
        if fs::remove_dir(folder).is_ok() {
            let _ = unrecord(&parent(folder), &file_name(folder));
        }
    }
}

/// Writes each `(path, contents)`: each folder is created if needed and locked, every name is
/// recorded in its folder's manifest, every file is written to a temporary sibling, and all
/// are renamed into place. On an error before the renames nothing new is left behind: the
/// temporary files are removed, the manifests restored, and folders this call created removed.
pub fn write_files(files: &[(PathBuf, String)]) -> Result<(), OutputError> {
    let mut by_dir: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for (path, _) in files {
        by_dir
            .entry(parent(path))
            .or_default()
            .push(file_name(path));
    }
    let mut created: Vec<PathBuf> = Vec::new();
    let mut before: Vec<(PathBuf, Option<Manifest>)> = Vec::new();
    let mut temps: Vec<PathBuf> = Vec::new();
    let result = (|| {
        for (dir, names) in &by_dir {
            created.extend(create_folder(dir)?);
            lock(dir)?;
            // Checked again now that the folder is this process's.
            for name in names {
                check_file("--out", &dir.join(name))?;
            }
            let m = read_manifest(dir)?;
            before.push((dir.clone(), m.exists.then_some(m)));
            // Recorded first: a crash from here on leaves only names the manifest lists.
            record(dir, names.iter().cloned())?;
        }
        for (path, contents) in files {
            let temp = temp_sibling(path);
            temps.push(temp.clone());
            write_new(&temp, contents.as_bytes()).map_err(io_error("write", path))?;
        }
        for ((path, _), temp) in files.iter().zip(&temps) {
            fs::rename(temp, path).map_err(io_error("write", path))?;
        }
        Ok(())
    })();
    if result.is_err() {
        for temp in &temps {
            let _ = fs::remove_file(temp);
        }
        for (dir, old) in &before {
            let _ = match old {
                Some(m) => write_manifest_with(dir, &m.header, &m.names),
                None => fs::remove_file(dir.join(MANIFEST)).map_err(io_error("remove", dir)),
            };
        }
        remove_created(&created);
        return result;
    }
    // Temporary files a dead run left next to these names go.
    for (dir, names) in &by_dir {
        remove_stale_temps(dir, names);
    }
    Ok(())
}

/// Removes from `dir` (retrogate's, locked here) the files `names` that its manifest lists,
/// e.g. the frames of an earlier, longer run that this run did not write again, and takes them
/// off the manifest. A name the manifest does not list, or that is not a regular file with one
/// name, is left alone: only what retrogate wrote goes.
pub fn remove_own_files(dir: &Path, names: &[String]) -> Result<(), OutputError> {
    lock(dir)?;
    let mut m = read_manifest(dir)?;
    let mut removed = false;
    for name in names {
        if !m.names.contains(name) {
            continue;
        }
        let path = dir.join(name);
        match fs::symlink_metadata(&path) {
            Ok(meta) if Kind::of(&meta) == (Kind::File { links: 1 }) => {
                fs::remove_file(&path).map_err(io_error("remove", &path))?;
            }
            Err(e) if missing(&e) => {}
            _ => continue,
        }
        m.names.remove(name);
        removed = true;
    }
    if removed {
        write_manifest_with(dir, &m.header, &m.names)?;
    }
    Ok(())
}

/// Removes the temporary files of dead processes next to `names` in `dir`.
fn remove_stale_temps(dir: &Path, names: &[String]) {
    let Ok(all) = entries(dir) else { return };
    let names: BTreeSet<String> = names.iter().cloned().collect();
    for e in all {
        if e.kind != (Kind::File { links: 1 }) {
            continue;
        }
        if let Some(name) = e.listable() {
            if own_temp(name, &names) == Some(true) {
                let _ = fs::remove_file(&e.path);
            }
        }
    }
}

/// Claims the subfolder `name` of the work folder `dir` (checked with [`check_folder`] before)
/// for this command: `dir` is created if needed and locked, checked again, and `name` recorded
/// in its manifest; the subfolder is created with a manifest of its own, or (already there)
/// must be retrogate's at every depth. What the command writes below it is recorded in its
/// manifests when the command ends ([`finish`]).
pub fn claim(dir: &Path, name: &str) -> Result<PathBuf, OutputError> {
    create_folder(dir)?;
    lock(dir)?;
    check_tree("--work", dir, dir)?;
    let sub = dir.join(name);
    match fs::symlink_metadata(&sub) {
        Err(e) if missing(&e) => {
            fs::create_dir(&sub).map_err(io_error("create the folder", &sub))?;
            write_manifest(&sub, &BTreeSet::new())?;
        }
        Err(e) => return Err(io_error("read", &sub)(e)),
        Ok(m) => {
            if let Some(what) = Kind::of(&m).danger() {
                return Err(OutputError::Unsafe {
                    flag: "--work".to_owned(),
                    dir: dir.to_path_buf(),
                    path: sub,
                    what,
                });
            }
            if !m.is_dir() {
                return Err(OutputError::Foreign {
                    flag: "--work".to_owned(),
                    dir: dir.to_path_buf(),
                    first: sub,
                });
            }
        }
    }
    record(dir, [name.to_owned()])?;
    registry().claimed.push(sub.clone());
    Ok(sub)
}

/// Checks that the scratch folder `dir` (e.g. `<out>.partial`, where a build happens before
/// its files move into the output folder) is new or retrogate's: a real folder whose every
/// entry its manifest lists, not in use by another run. A foreign one is refused, never
/// deleted.
pub fn check_scratch(flag: &str, dir: &Path) -> Result<(), OutputError> {
    match fs::symlink_metadata(dir) {
        Err(e) if missing(&e) => check_parents(flag, dir),
        Err(e) => Err(io_error("read", dir)(e)),
        Ok(m) if m.is_dir() && dir.join(MANIFEST).is_file() => check_tree(flag, dir, dir),
        Ok(m) => match Kind::of(&m).danger() {
            Some(what) => Err(OutputError::Unsafe {
                flag: flag.to_owned(),
                dir: parent(dir),
                path: dir.to_path_buf(),
                what,
            }),
            None => Err(OutputError::Foreign {
                flag: flag.to_owned(),
                dir: parent(dir),
                first: dir.to_path_buf(),
            }),
        },
    }
}

/// Makes the scratch folder `dir` ready: created if needed, locked for this process, checked
/// again, emptied of what its manifest lists (a file retrogate did not write stops it, and
/// stays), and marked as a scratch folder. What the command writes there is recorded when it
/// ends ([`finish`]), unless [`move_into`] empties it first. Call [`check_scratch`] first.
pub fn create_scratch(dir: &Path) -> Result<(), OutputError> {
    check_scratch("--out", dir)?;
    let created = create_folder(dir)?;
    lock(dir)?;
    if created.is_empty() {
        // Checked again now that the folder is this process's, then emptied.
        check_scratch("--out", dir)?;
        let mut cleaned = Cleaned::default();
        remove_listed(dir, &mut cleaned)?;
        if let Some((path, _)) = cleaned.kept.into_iter().next() {
            return Err(OutputError::Foreign {
                flag: "--out".to_owned(),
                dir: dir.to_path_buf(),
                first: path,
            });
        }
    }
    write_manifest_with(dir, SCRATCH_HEADER, &BTreeSet::new())?;
    registry().claimed.push(dir.to_path_buf());
    Ok(())
}

/// Moves every file of the scratch folder `scratch` into the output folder `out` (one rename
/// each, replacing retrogate's earlier files of the same names), records them in `out`'s
/// manifest, and removes `scratch`.
pub fn move_into(scratch: &Path, out: &Path) -> Result<(), OutputError> {
    create_folder(out)?;
    lock(out)?;
    let names: Vec<String> = entries(scratch)?
        .iter()
        .filter(|e| e.kind == Kind::File { links: 1 })
        .filter_map(|e| e.listable().map(str::to_owned))
        .collect();
    // Record first: a crash between the renames leaves only files the manifest names.
    record(out, names.iter().cloned())?;
    for name in &names {
        let to = out.join(name);
        fs::rename(scratch.join(name), &to).map_err(io_error("move the finished file to", &to))?;
    }
    // Anything left (not a plain file) keeps the folder, to be recorded when the command ends.
    if entries(scratch)?.is_empty() {
        registry().claimed.retain(|c| c != scratch);
        let _ = fs::remove_file(scratch.join(MANIFEST));
        release(scratch);
        if fs::remove_dir(scratch).is_ok() {
            unrecord(&parent(scratch), &file_name(scratch))?;
        }
    }
    Ok(())
}

// ---- Cleaning ------------------------------------------------------------------------------

/// Why [`clean`] left an entry in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// No manifest lists it.
    NotWritten,
    /// A symbolic link: never followed, never removed.
    Link,
    /// A FIFO, socket or device.
    Special,
    /// Another retrogate process is writing in it.
    InUse(Option<u32>),
}

/// What [`clean`] removed and what it kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleaned {
    /// Removed files and folders (a removed folder stands for everything in it).
    pub removed: Vec<PathBuf>,
    /// Entries left in place, and why.
    pub kept: Vec<(PathBuf, Kept)>,
}

/// Removes what retrogate wrote in `dir` and below: every file a manifest lists, the folders
/// the manifests list (entry by entry, through their own manifests), the manifests, temporary
/// files of dead runs, and the folders left empty by that. Everything else stays and is listed
/// in [`Cleaned::kept`]; symbolic links are never followed or removed, and a folder another run
/// is writing is left alone.
///
/// `dir` must be retrogate's: a folder carrying a manifest. A folder without one (a checkout,
/// a home folder), a link, or the file-system root is refused: only listed entries are ever
/// visited, so nothing outside retrogate's output is walked.
pub fn clean(dir: &Path) -> Result<Cleaned, OutputError> {
    let mut cleaned = Cleaned::default();
    match fs::symlink_metadata(dir) {
        Err(e) if missing(&e) => return Ok(cleaned),
        Err(e) => return Err(io_error("read", dir)(e)),
        Ok(m) if m.file_type().is_symlink() => {
            return Err(OutputError::WrongKind {
                flag: "--out".to_owned(),
                path: dir.to_path_buf(),
                problem: "this is a symbolic link, and clean never follows links; give the \
                          folder it points to"
                    .to_owned(),
            })
        }
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::WrongKind {
                flag: "--out".to_owned(),
                path: dir.to_path_buf(),
                problem: "this is not a folder; give the folder to clean (e.g. build)".to_owned(),
            })
        }
        Ok(_) => {}
    }
    let real = fs::canonicalize(dir).map_err(io_error("resolve", dir))?;
    if real.parent().is_none() {
        return Err(OutputError::NotOutput {
            dir: dir.to_path_buf(),
            problem: "refusing to clean the file-system root; give the folder retrogate wrote, \
                      e.g. --out build"
                .to_owned(),
        });
    }
    if !dir.join(MANIFEST).is_file() {
        return Err(OutputError::NotOutput {
            dir: dir.to_path_buf(),
            problem: format!(
                "retrogate did not write this folder (it holds no {MANIFEST}), so clean leaves \
                 it alone: it removes only what retrogate's manifests list, and never searches \
                 a folder for them; give a folder retrogate made, e.g. --out build or --out \
                 build/icebreaker/sticks"
            ),
        });
    }
    if clean_folder(dir, &mut cleaned)? {
        let _ = unrecord(&parent(dir), &file_name(dir));
    }
    Ok(cleaned)
}

/// Cleans `dir` (a real folder); returns whether `dir` itself was removed.
fn clean_folder(dir: &Path, cleaned: &mut Cleaned) -> Result<bool, OutputError> {
    // The folder is locked while it is cleaned (unless this process holds it already).
    let ours = registry().locks.iter().any(|h| h.dir == dir);
    let held = if ours {
        None
    } else {
        let busy = match in_use(dir) {
            Some(pid) => Err(pid),
            None => match acquire(dir) {
                Ok(h) => Ok(h),
                Err(OutputError::InUse { pid, .. }) => Err(pid),
                Err(e) => return Err(e),
            },
        };
        match busy {
            Ok(h) => Some(h),
            Err(pid) => {
                cleaned.kept.push((dir.to_path_buf(), Kept::InUse(pid)));
                return Ok(false);
            }
        }
    };
    let removed_before = cleaned.removed.len();
    let kept_before = cleaned.kept.len();
    let had_manifest = dir.join(MANIFEST).is_file();
    remove_listed(dir, cleaned)?;
    drop(held);
    release(dir);
    // A folder that held only retrogate's things goes too (never `.` or `/`).
    let empty = entries(dir)?.is_empty() && !dir.join(MANIFEST).exists();
    if had_manifest && empty && dir.file_name().is_some() && cleaned.kept.len() == kept_before {
        fs::remove_dir(dir).map_err(io_error("remove", dir))?;
        cleaned.removed.truncate(removed_before);
        cleaned.removed.push(dir.to_path_buf());
        return Ok(true);
    }
    Ok(false)
}

/// Removes the entries of `dir` its manifest lists (listed folders through [`clean_folder`])
/// and stale temporary files; the manifest then lists what is left of its entries, or goes.
fn remove_listed(dir: &Path, cleaned: &mut Cleaned) -> Result<(), OutputError> {
    let m = read_manifest(dir)?;
    let mut still = BTreeSet::new();
    for e in entries(dir)? {
        let listed = e.listable().filter(|n| m.names.contains(*n));
        let Some(name) = listed else {
            match e.listable().and_then(|n| own_temp(n, &m.names)) {
                Some(true) if e.kind == (Kind::File { links: 1 }) => {
                    fs::remove_file(&e.path).map_err(io_error("remove", &e.path))?;
                    cleaned.removed.push(e.path);
                }
                Some(_) => cleaned.kept.push((e.path, Kept::InUse(None))),
                None => cleaned.kept.push((e.path, Kept::NotWritten)),
            }
            continue;
        };
        match e.kind {
            Kind::File { .. } => {
                // Unlinking one name of a hard-linked file leaves the data under its others.
                fs::remove_file(&e.path).map_err(io_error("remove", &e.path))?;
                cleaned.removed.push(e.path);
            }
            Kind::Dir => {
                if !clean_folder(&e.path, cleaned)? {
                    still.insert(name.to_owned());
                }
            }
            Kind::Link => cleaned.kept.push((e.path, Kept::Link)),
            Kind::Other => cleaned.kept.push((e.path, Kept::Special)),
        }
    }
    if still.is_empty() {
        if m.exists {
            let path = dir.join(MANIFEST);
            fs::remove_file(&path).map_err(io_error("remove", &path))?;
        }
    } else {
        write_manifest_with(dir, &m.header, &still)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// Records and releases what this test claimed and locked under `root` (tests run in
    /// parallel in one process: each finishes its own folders only).
    fn finish_in(root: &Path) {
        finish_where(|d| d.starts_with(root)).unwrap();
    }

    /// A process id no process has (above Linux's largest, 2^22).
    const DEAD: u32 = i32::MAX as u32;

    #[test]
    fn new_empty_and_own_folders_pass_foreign_ones_do_not() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("out");
        check_folder("--out", &dir).unwrap();
        fs::create_dir(&dir).unwrap();
        check_folder("--out", &dir).unwrap();
        write_files(&[(dir.join("a.v"), "a".into())]).unwrap();
        check_folder("--out", &dir).unwrap();
        assert_eq!(manifest(&dir).unwrap(), BTreeSet::from(["a.v".to_owned()]));
        fs::write(dir.join("mine.txt"), "keep").unwrap();
        let err = check_folder("--out", &dir).unwrap_err();
        assert!(matches!(&err, OutputError::Foreign { first, .. } if first.ends_with("mine.txt")));
        assert!(err.to_string().contains("mine.txt"), "{err}");
        assert!(err.is_usage());
        finish_in(root.path());
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        let err = check_folder("--out", &file).unwrap_err();
        assert!(matches!(err, OutputError::WrongKind { .. }), "{err}");
        let err = check_folder("--out", &file.join("sub")).unwrap_err();
        assert!(matches!(err, OutputError::WrongKind { .. }), "{err}");
        let err = check_file("--out", root.path()).unwrap_err();
        assert!(matches!(err, OutputError::WrongKind { .. }), "{err}");
    }

    #[test]
    fn files_are_new_or_listed() {
        let root = tempfile::tempdir().unwrap();
        let svg = root.path().join("w.svg");
        check_file("--out", &svg).unwrap();
        fs::write(root.path().join("other.txt"), "x").unwrap();
        write_files(&[(svg.clone(), "<svg/>".into())]).unwrap();
        check_file("--out", &svg).unwrap();
        let err = check_file("--out", &root.path().join("other.txt")).unwrap_err();
        assert!(matches!(err, OutputError::Foreign { .. }), "{err}");
        assert_eq!(
            fs::read_to_string(root.path().join("other.txt")).unwrap(),
            "x"
        );
        finish_in(root.path());
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        let root = tempfile::tempdir().unwrap();
        let blocker = root.path().join("blocker");
        fs::write(&blocker, "x").unwrap();
        let err = write_files(&[
            (root.path().join("new/a.v"), "a".into()),
            (blocker.join("b.v"), "b".into()),
        ])
        .unwrap_err();
        assert!(matches!(err, OutputError::Io { .. }));
        assert!(!root.path().join("new").exists());
        finish_in(root.path());
        let names: Vec<_> = fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["blocker"]);
    }

    /// A name that would be two manifest lines, a comment, a trimmed line or a lossy line is
    /// refused before anything is written.
    #[test]
    fn names_that_cannot_be_one_line_are_refused() {
        use std::os::unix::ffi::OsStrExt;
        let root = tempfile::tempdir().unwrap();
        fs::write(root.path().join("mine.txt"), "keep").unwrap();
        let bad = [
            OsStr::new("mine.txt\nw.svg"),
            OsStr::new("w\r.svg"),
            OsStr::new(" mine.txt"),
            OsStr::new("#w.svg"),
            OsStr::from_bytes(b"w\xff.svg"),
        ];
        for name in bad {
            let err = check_file("--out", &root.path().join(name)).unwrap_err();
            assert!(
                matches!(err, OutputError::BadName { .. }),
                "{name:?}: {err}"
            );
            assert!(err.to_string().starts_with("--out \""), "{err}");
            assert!(!err.to_string().contains('\n'), "{err}");
        }
        assert!(record(root.path(), ["a\nmine.txt".to_owned()]).is_err());
        assert!(!root.path().join(MANIFEST).exists());
    }

    /// Links anywhere in a folder retrogate owns refuse it (whether they replace a file or a
    /// folder it wrote), and clean keeps them without following them.
    #[test]
    fn links_in_an_owned_folder_are_refused_and_never_followed() {
        let root = tempfile::tempdir().unwrap();
        let elsewhere = root.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        fs::write(elsewhere.join("precious.v"), "mine").unwrap();
        let work = root.path().join("w");
        let sub = claim(&work, "jr01").unwrap();
        fs::create_dir(sub.join("icarus")).unwrap();
        fs::write(sub.join("icarus/tb.v"), "tb").unwrap();
        finish_in(root.path());
        check_folder("--work", &work).unwrap();
        // A file replaced by a link.
        fs::remove_file(sub.join("icarus/tb.v")).unwrap();
        symlink(elsewhere.join("precious.v"), sub.join("icarus/tb.v")).unwrap();
        let err = check_folder("--work", &work).unwrap_err();
        assert!(
            matches!(&err, OutputError::Unsafe { path, what, .. }
                if path.ends_with("icarus/tb.v") && what.contains("symbolic link")),
            "{err}"
        );
        assert!(claim(&work, "jr01").is_err());
        finish_in(root.path());
        // The folder replaced by a link.
        fs::remove_dir_all(sub.join("icarus")).unwrap();
        symlink(&elsewhere, sub.join("icarus")).unwrap();
        let err = check_folder("--work", &work).unwrap_err();
        assert!(
            matches!(&err, OutputError::Unsafe { path, .. } if path.ends_with("icarus")),
            "{err}"
        );
        let cleaned = clean(&work).unwrap();
        assert_eq!(cleaned.kept, [(sub.join("icarus"), Kept::Link)]);
        assert_eq!(
            fs::read_to_string(elsewhere.join("precious.v")).unwrap(),
            "mine"
        );
        assert!(fs::symlink_metadata(sub.join("icarus"))
            .unwrap()
            .file_type()
            .is_symlink());
        finish_in(root.path());
    }

    /// A file the user puts in a work subfolder retrogate claimed, or in a scratch folder, is
    /// foreign: the next claim refuses it, and clean keeps it.
    #[test]
    fn a_users_file_in_a_claimed_or_scratch_folder_is_foreign() {
        let root = tempfile::tempdir().unwrap();
        let work = root.path().join("w");
        let sub = claim(&work, "sticks").unwrap();
        fs::create_dir(sub.join("verilator")).unwrap();
        fs::write(sub.join("verilator/model.cpp"), "x").unwrap();
        finish_in(root.path());
        assert_eq!(
            claim(&work, "sticks").unwrap(),
            sub,
            "its own files: claimed again"
        );
        finish_in(root.path());
        fs::write(sub.join("verilator/notes.txt"), "mine").unwrap();
        let err = claim(&work, "sticks").unwrap_err();
        assert!(
            matches!(&err, OutputError::Foreign { first, .. } if first.ends_with("verilator/notes.txt")),
            "{err}"
        );
        assert!(
            err.to_string().contains("verilator/.retrogate-manifest"),
            "{err}"
        );
        finish_in(root.path());
        let partial = root.path().join("o.partial");
        create_scratch(&partial).unwrap();
        fs::write(partial.join("o.log"), "log").unwrap();
        finish_in(root.path());
        create_scratch(&partial).unwrap();
        assert!(!partial.join("o.log").exists(), "its own files go");
        fs::write(partial.join("o.log"), "log").unwrap();
        finish_in(root.path());
        fs::write(partial.join("mine.txt"), "mine").unwrap();
        let err = create_scratch(&partial).unwrap_err();
        assert!(
            matches!(&err, OutputError::Foreign { first, .. } if first.ends_with("mine.txt")),
            "{err}"
        );
        assert!(partial.join("o.log").is_file() && partial.join("mine.txt").is_file());
        let cleaned = clean(&work).unwrap();
        assert_eq!(
            cleaned.kept,
            [(sub.join("verilator/notes.txt"), Kept::NotWritten)]
        );
        assert!(!sub.join("verilator/model.cpp").exists());
        assert_eq!(
            fs::read_to_string(sub.join("verilator/notes.txt")).unwrap(),
            "mine"
        );
        finish_in(root.path());
    }

    /// Temporary files of a dead run next to a listed name are retrogate's: not foreign, and
    /// removed by the next write; those of a live process stay.
    #[test]
    fn temporary_files_of_a_dead_run_are_own() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("hdl");
        write_files(&[(dir.join("a.v"), "a".into())]).unwrap();
        let dead = dir.join(format!(".a.v.tmp-{DEAD}"));
        let live = dir.join(".a.v.tmp-1");
        let manifest_temp = dir.join(format!(".{MANIFEST}.tmp-{DEAD}"));
        for p in [&dead, &live, &manifest_temp] {
            fs::write(p, "half").unwrap();
        }
        check_folder("--out", &dir).unwrap();
        fs::write(dir.join(format!(".b.v.tmp-{DEAD}")), "x").unwrap();
        assert!(check_folder("--out", &dir).is_err(), "b.v is not listed");
        fs::remove_file(dir.join(format!(".b.v.tmp-{DEAD}"))).unwrap();
        write_files(&[(dir.join("a.v"), "a2".into())]).unwrap();
        assert!(!dead.exists() && !manifest_temp.exists());
        assert!(live.exists(), "process 1 is alive");
        assert_eq!(fs::read_to_string(dir.join("a.v")).unwrap(), "a2");
        finish_in(root.path());
        fs::write(&dead, "half").unwrap();
        let cleaned = clean(&dir).unwrap();
        assert_eq!(cleaned.removed, [dead.clone(), dir.join("a.v")]);
        assert_eq!(cleaned.kept, [(live.clone(), Kept::InUse(None))]);
    }

    /// A folder locked by another process is refused; a lock file its dead writer left is
    /// taken over; the lock file goes when this process is done.
    #[test]
    fn a_locked_folder_is_in_use_and_a_stale_lock_is_taken_over() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("o");
        fs::create_dir(&dir).unwrap();
        // Another process's lock: held on its own open file, naming a live process (init).
        let other = open_lock(&dir.join(LOCK), true).unwrap();
        other.try_lock().unwrap();
        fs::write(dir.join(LOCK), "1\n").unwrap();
        let err = check_folder("--out", &dir).unwrap_err();
        assert!(
            matches!(err, OutputError::InUse { pid: Some(1), .. }),
            "{err}"
        );
        assert!(
            err.to_string().contains("is in use by retrogate process 1"),
            "{err}"
        );
        let err = write_files(&[(dir.join("a.v"), "a".into())]).unwrap_err();
        assert!(matches!(err, OutputError::InUse { .. }), "{err}");
        assert!(!dir.join("a.v").exists());
        drop(other);
        // The lock file stays behind, naming a dead process: taken over.
        fs::write(dir.join(LOCK), format!("{DEAD}\n")).unwrap();
        check_folder("--out", &dir).unwrap();
        write_files(&[(dir.join("a.v"), "a".into())]).unwrap();
        assert_eq!(
            fs::read_to_string(dir.join(LOCK)).unwrap(),
            format!("{}\n", std::process::id())
        );
        finish_in(root.path());
        assert!(!dir.join(LOCK).exists());
    }

    #[test]
    fn clean_refuses_what_is_not_retrogates_output() {
        let root = tempfile::tempdir().unwrap();
        let err = clean(Path::new("/")).unwrap_err();
        assert!(matches!(err, OutputError::NotOutput { .. }), "{err}");
        // A checkout: committed output folders with manifests, the top without one.
        let checkout = root.path().join("checkout");
        fs::create_dir(&checkout).unwrap();
        write_files(&[(checkout.join("hdl/a.v"), "a".into())]).unwrap();
        finish_in(root.path());
        fs::write(checkout.join("Cargo.toml"), "[package]").unwrap();
        let err = clean(&checkout).unwrap_err();
        assert!(
            err.to_string()
                .contains("retrogate did not write this folder"),
            "{err}"
        );
        assert!(checkout.join("hdl/a.v").is_file());
        // With a manifest of its own (a picture written there), only what it lists goes.
        write_files(&[(checkout.join("w.svg"), "<svg/>".into())]).unwrap();
        finish_in(root.path());
        let cleaned = clean(&checkout).unwrap();
        assert_eq!(cleaned.removed, [checkout.join("w.svg")]);
        assert!(
            checkout.join("hdl/a.v").is_file() && checkout.join("hdl").join(MANIFEST).is_file()
        );
        let link = root.path().join("link");
        symlink(&checkout, &link).unwrap();
        assert!(clean(&link).unwrap_err().is_usage());
    }

    #[test]
    fn clean_removes_only_listed_entries_and_empty_folders() {
        let root = tempfile::tempdir().unwrap();
        let build = root.path().join("build");
        let out = build.join("icebreaker/sticks");
        write_files(&[
            (out.join("a.v"), "a".into()),
            (out.join("a.bin"), "b".into()),
        ])
        .unwrap();
        let mixed = build.join("verify");
        let jr01 = claim(&mixed, "jr01").unwrap();
        fs::create_dir_all(jr01.join("icarus")).unwrap();
        fs::write(jr01.join("icarus/x.v"), "x").unwrap();
        let partial = build.join("icebreaker/sticks.partial");
        create_scratch(&partial).unwrap();
        fs::write(partial.join("half.json"), "{").unwrap();
        finish_in(root.path());
        fs::write(mixed.join("notes.txt"), "mine").unwrap();
        fs::create_dir(build.join("empty")).unwrap();
        assert_eq!(
            manifest(&build).unwrap(),
            BTreeSet::from(["icebreaker".to_owned(), "verify".to_owned()])
        );
        let cleaned = clean(&build).unwrap();
        assert_eq!(
            cleaned.kept,
            [
                (build.join("empty"), Kept::NotWritten),
                (mixed.join("notes.txt"), Kept::NotWritten)
            ],
            "the foreign entries stay"
        );
        assert_eq!(fs::read_to_string(mixed.join("notes.txt")).unwrap(), "mine");
        assert!(!mixed.join("jr01").exists() && !mixed.join(MANIFEST).exists());
        assert!(!build.join("icebreaker").exists(), "{cleaned:?}");
        assert!(cleaned.removed.contains(&build.join("icebreaker")));
        assert!(cleaned.removed.contains(&mixed.join("jr01")));
        assert!(build.join("empty").is_dir());
        assert!(build.is_dir());
        assert_eq!(
            manifest(&build).unwrap(),
            BTreeSet::from(["verify".to_owned()])
        );
        assert_eq!(
            clean(&root.path().join("none")).unwrap(),
            Cleaned::default()
        );
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(clean(&file).unwrap_err().is_usage());
    }
}
