//! Output folders retrogate may write into, and writing files there whole or not at all.
//!
//! The rule: retrogate never deletes or overwrites a file it did not write.
//!
//! * An output **folder** (`build --out`, `emit --out/--sim/--constraints`, `verify --work`,
//!   `schematic --work`) is new, empty, or one retrogate wrote before: every entry in it is
//!   listed in its manifest [`MANIFEST`] (one name a line; a listed subfolder is retrogate's
//!   as a whole). Several commands may share a folder (e.g. `emit jr01` and `emit sticks` both
//!   write `hdl/`): each adds its names to the manifest. Anything else is refused
//!   ([`OutputError::Foreign`] names the first foreign entry).
//! * An output **file** (`wave --out`, `schematic --out`) is new or listed in its folder's
//!   manifest; other files in that folder are left alone.
//!
//! Checks ([`check_folder`], [`check_file`]) read only; [`write_files`] writes each file to a
//! temporary sibling and renames it into place once all are written, then records the names
//! in the manifest.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The manifest file retrogate keeps in each folder it writes: the names it wrote there.
pub const MANIFEST: &str = ".retrogate-manifest";

const HEADER: &str =
    "# Files retrogate wrote in this folder (one name a line); retrogate may replace them.\n";

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
        dir.display(), first.display(), dir.join(MANIFEST).display()
    )]
    Foreign {
        /// The flag that named it.
        flag: String,
        /// The folder.
        dir: PathBuf,
        /// The first foreign entry (in name order).
        first: PathBuf,
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

/// The names listed in `dir`'s manifest (empty when there is none).
pub fn manifest(dir: &Path) -> Result<BTreeSet<String>, OutputError> {
    let path = dir.join(MANIFEST);
    match fs::read_to_string(&path) {
        Ok(text) => Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect()),
        Err(e) if missing(&e) => Ok(BTreeSet::new()),
        Err(e) => Err(OutputError::Io {
            action: "read",
            path,
            source: e,
        }),
    }
}

/// The entries of `dir` (names, sorted), without the manifest itself.
fn entries(dir: &Path) -> Result<Vec<String>, OutputError> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error("read the folder", dir))? {
        let entry = entry.map_err(io_error("read the folder", dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != MANIFEST {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Checks that the folder `dir` (named by `flag`) is new, empty, or retrogate's: every entry is
/// listed in its manifest. Reads only.
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
    let listed = manifest(dir)?;
    match entries(dir)?.into_iter().find(|n| !listed.contains(n)) {
        Some(first) => Err(OutputError::Foreign {
            flag: flag.to_owned(),
            dir: dir.to_path_buf(),
            first: dir.join(first),
        }),
        None => Ok(()),
    }
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

/// Checks that the file `path` (named by `flag`) is new or listed in its folder's manifest, and
/// that its folder is (or can be made) a folder. Reads only.
pub fn check_file(flag: &str, path: &Path) -> Result<(), OutputError> {
    let dir = parent(path);
    match fs::symlink_metadata(path) {
        Err(e) if missing(&e) => {
            return match fs::metadata(&dir) {
                Ok(m) if m.is_dir() => Ok(()),
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
        Ok(_) => {}
    }
    let name = file_name(path);
    if manifest(&dir)?.contains(&name) {
        Ok(())
    } else {
        Err(OutputError::Foreign {
            flag: flag.to_owned(),
            dir,
            first: path.to_path_buf(),
        })
    }
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

/// Adds `names` to `dir`'s manifest (written whole: temporary file, then rename).
pub fn record(dir: &Path, names: impl IntoIterator<Item = String>) -> Result<(), OutputError> {
    let mut listed = manifest(dir)?;
    let before = listed.len();
    listed.extend(names);
    if listed.len() == before && dir.join(MANIFEST).is_file() {
        return Ok(());
    }
    write_manifest(dir, &listed)
}

/// Replaces `dir`'s manifest with `names`.
pub fn write_manifest(dir: &Path, names: &BTreeSet<String>) -> Result<(), OutputError> {
    let mut text = HEADER.to_owned();
    for n in names {
        text.push_str(n);
        text.push('\n');
    }
    let path = dir.join(MANIFEST);
    let temp = temp_sibling(&path);
    fs::write(&temp, text).map_err(io_error("write", &path))?;
    fs::rename(&temp, &path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        io_error("write", &path)(e)
    })
}

fn temp_sibling(path: &Path) -> PathBuf {
    path.with_file_name(format!(".{}.tmp-{}", file_name(path), std::process::id()))
}

/// Writes each `(path, contents)`: all to temporary siblings first, then renamed into place,
/// then each name is added to its folder's manifest. On an error before the renames nothing new
/// is left behind (folders this call created are removed again).
pub fn write_files(files: &[(PathBuf, String)]) -> Result<(), OutputError> {
    let mut created: Vec<PathBuf> = Vec::new();
    let mut temps: Vec<(PathBuf, &Path)> = Vec::new();
    let result = (|| {
        for (path, contents) in files {
            let dir = parent(path);
            if !dir.exists() {
                // Remember the topmost folder this call creates, to remove it on failure.
                let top = dir
                    .ancestors()
                    .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
                    .last()
                    .map(Path::to_path_buf);
                fs::create_dir_all(&dir).map_err(io_error("create the folder", &dir))?;
                created.extend(top);
            }
            let temp = temp_sibling(path);
            fs::write(&temp, contents).map_err(io_error("write", path))?;
            temps.push((temp, path));
        }
        for (temp, path) in &temps {
            fs::rename(temp, path).map_err(io_error("write", path))?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (temp, _) in &temps {
            let _ = fs::remove_file(temp);
        }
        for dir in created.iter().rev() {
            let _ = fs::remove_dir_all(dir);
        }
        return result;
    }
    let mut by_dir: std::collections::BTreeMap<PathBuf, Vec<String>> = Default::default();
    for (path, _) in files {
        by_dir
            .entry(parent(path))
            .or_default()
            .push(file_name(path));
    }
    for (dir, names) in by_dir {
        record(&dir, names)?;
    }
    Ok(())
}

/// Creates the folder `dir` (checked with [`check_folder`] before) if needed and records
/// `name` (a file or subfolder retrogate is about to write there) in its manifest.
pub fn claim(dir: &Path, name: &str) -> Result<PathBuf, OutputError> {
    fs::create_dir_all(dir).map_err(io_error("create the folder", dir))?;
    record(dir, [name.to_owned()])?;
    Ok(dir.join(name))
}

/// Checks that the scratch folder `dir` (e.g. `<out>.partial`, where a build happens before
/// its files move into the output folder) is new or retrogate's: a scratch folder retrogate
/// made carries a manifest. A foreign one is refused, never deleted.
pub fn check_scratch(flag: &str, dir: &Path) -> Result<(), OutputError> {
    match fs::symlink_metadata(dir) {
        Err(e) if missing(&e) => check_parents(flag, dir),
        Err(e) => Err(io_error("read", dir)(e)),
        Ok(m) if m.is_dir() && dir.join(MANIFEST).is_file() => Ok(()),
        Ok(_) => Err(OutputError::Foreign {
            flag: flag.to_owned(),
            dir: parent(dir),
            first: dir.to_path_buf(),
        }),
    }
}

/// Empties (removes) the scratch folder `dir` if retrogate made it before, and creates it
/// anew with its marker. Call [`check_scratch`] first.
pub fn create_scratch(dir: &Path) -> Result<(), OutputError> {
    check_scratch("--out", dir)?;
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(io_error("remove the old scratch folder", dir))?;
    }
    fs::create_dir_all(dir).map_err(io_error("create the folder", dir))?;
    let path = dir.join(MANIFEST);
    fs::write(
        &path,
        "# A scratch folder of retrogate: its files move into the output folder when done.\n",
    )
    .map_err(io_error("write", &path))
}

/// Moves every file of the scratch folder `scratch` into the output folder `out` (one rename
/// each, replacing retrogate's earlier files of the same names), records them in `out`'s
/// manifest, and removes `scratch`.
pub fn move_into(scratch: &Path, out: &Path) -> Result<(), OutputError> {
    fs::create_dir_all(out).map_err(io_error("create the folder", out))?;
    let names = entries(scratch)?;
    // Record first: a crash between the renames leaves only files the manifest names.
    record(out, names.iter().cloned())?;
    for name in &names {
        let to = out.join(name);
        fs::rename(scratch.join(name), &to).map_err(io_error("move the finished file to", &to))?;
    }
    fs::remove_dir_all(scratch).map_err(io_error("remove the scratch folder", scratch))
}

/// What [`clean`] removed and what it kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleaned {
    /// Removed files and folders (a removed folder stands for everything in it).
    pub removed: Vec<PathBuf>,
    /// Entries retrogate did not write, left in place.
    pub kept: Vec<PathBuf>,
}

/// Removes what retrogate wrote in `dir` and below: every entry a manifest lists (a listed
/// folder as a whole), the manifests themselves, retrogate's scratch folders, and the folders
/// left empty by that. Everything else stays and is listed in [`Cleaned::kept`]; symbolic links
/// that are not listed are never followed.
pub fn clean(dir: &Path) -> Result<Cleaned, OutputError> {
    let mut cleaned = Cleaned::default();
    match fs::symlink_metadata(dir) {
        Err(e) if missing(&e) => return Ok(cleaned),
        Err(e) => return Err(io_error("read", dir)(e)),
        Ok(m) if !m.is_dir() => {
            return Err(OutputError::WrongKind {
                flag: "--out".to_owned(),
                path: dir.to_path_buf(),
                problem: "this is not a folder; give the folder to clean (e.g. build)".to_owned(),
            })
        }
        Ok(_) => {}
    }
    clean_folder(dir, &mut cleaned)?;
    Ok(cleaned)
}

/// Whether `dir` is a scratch folder made by [`create_scratch`].
fn is_scratch(dir: &Path) -> bool {
    fs::read_to_string(dir.join(MANIFEST))
        .is_ok_and(|t| t.starts_with("# A scratch folder of retrogate"))
}

/// Cleans `dir` (a real folder); returns whether `dir` itself was removed.
fn clean_folder(dir: &Path, cleaned: &mut Cleaned) -> Result<bool, OutputError> {
    if is_scratch(dir) {
        fs::remove_dir_all(dir).map_err(io_error("remove", dir))?;
        cleaned.removed.push(dir.to_path_buf());
        return Ok(true);
    }
    let has_manifest = dir.join(MANIFEST).is_file();
    let listed = manifest(dir)?;
    let names = entries(dir)?;
    let had_entries = has_manifest || !names.is_empty();
    let (removed_before, kept_before) = (cleaned.removed.len(), cleaned.kept.len());
    for name in names {
        let path = dir.join(&name);
        let meta = fs::symlink_metadata(&path).map_err(io_error("read", &path))?;
        if listed.contains(&name) {
            if meta.is_dir() {
                fs::remove_dir_all(&path).map_err(io_error("remove", &path))?;
            } else {
                fs::remove_file(&path).map_err(io_error("remove", &path))?;
            }
            cleaned.removed.push(path);
        } else if meta.is_dir() {
            clean_folder(&path, cleaned)?;
        } else {
            cleaned.kept.push(path);
        }
    }
    if has_manifest {
        let path = dir.join(MANIFEST);
        fs::remove_file(&path).map_err(io_error("remove", &path))?;
    }
    // A folder that held only retrogate's things goes too (never `.` or `/`).
    let empty = entries(dir)?.is_empty() && !dir.join(MANIFEST).exists();
    let named = dir.file_name().is_some();
    if had_entries && empty && named && cleaned.kept.len() == kept_before {
        fs::remove_dir(dir).map_err(io_error("remove", dir))?;
        cleaned.removed.truncate(removed_before);
        cleaned.removed.push(dir.to_path_buf());
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        claim(&mixed, "jr01").unwrap();
        fs::create_dir_all(mixed.join("jr01/icarus")).unwrap();
        fs::write(mixed.join("jr01/icarus/x.v"), "x").unwrap();
        fs::write(mixed.join("notes.txt"), "mine").unwrap();
        let partial = build.join("icebreaker/sticks.partial");
        create_scratch(&partial).unwrap();
        fs::write(partial.join("half.json"), "{").unwrap();
        fs::create_dir(build.join("empty")).unwrap();
        let cleaned = clean(&build).unwrap();
        assert_eq!(
            cleaned.kept,
            [mixed.join("notes.txt")],
            "the one foreign file stays"
        );
        assert_eq!(fs::read_to_string(mixed.join("notes.txt")).unwrap(), "mine");
        assert!(!mixed.join("jr01").exists() && !mixed.join(MANIFEST).exists());
        assert!(!build.join("icebreaker").exists(), "{cleaned:?}");
        assert!(cleaned.removed.contains(&build.join("icebreaker")));
        assert!(cleaned.removed.contains(&mixed.join("jr01")));
        assert!(
            build.join("empty").is_dir(),
            "a folder retrogate did not fill stays"
        );
        assert!(build.is_dir());
        assert_eq!(
            clean(&root.path().join("none")).unwrap(),
            Cleaned::default()
        );
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(clean(&file).unwrap_err().is_usage());
    }
}
