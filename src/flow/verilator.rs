//! Verilator: lint, build-and-run of a testbench with `--binary`, and the build of a model
//! with a C++ `main` of the caller's ([`build_program`]: the virtual board's harness).
//!
//! `--binary` needs Verilator 5.004 or later (Debian bookworm has 5.006);
//! with an older one [`build_binary`] fails with a message saying so.
//!
//! Verilator runs inside its work folder and is given the files there by relative names.
//! Its build is a GNU make run, which refuses a folder whose path holds a space (and would
//! hand quotes or `$` in it to the shell): when the work folder's path is not plain
//! ([`make_safe`]), the model is built in a temporary folder with a plain path and its
//! executable copied back to `obj_<name>/<name>`, so `verify` works from `my project/`.
//!
//! With the tool cache on, a model comes from it when built before from the same inputs, and
//! a build compiles through `ccache` when it is installed (its objects in the tool cache), so
//! the C++ that builds share, Verilator's run-time library above all, is compiled once.

use std::path::{Path, PathBuf};

use super::iverilog::relative_to;
use super::runner::{self, Options, SimulationLimit, Tool, ToolError, ToolOutput};

/// `verilator --lint-only -Wall --top-module <top>` on `sources`. Any
/// warning makes Verilator exit nonzero, which is a [`ToolError::Failed`]
/// whose tail lists the warnings.
pub fn lint(dir: &Path, sources: &[PathBuf], top: &str) -> Result<ToolOutput, ToolError> {
    let mut args: Vec<std::ffi::OsString> = vec![
        "--lint-only".into(),
        "-Wall".into(),
        "--top-module".into(),
        top.into(),
    ];
    args.extend(sources.iter().map(|s| relative_to(dir, s)));
    runner::run(
        Tool::Verilator,
        dir,
        &args,
        Some(&format!("{top}.lint.log")),
    )
}

/// Build `sources` with `top` as root into the executable `dir/<name>`
/// (`--binary --trace -Wno-fatal`, objects in `dir/obj_<name>`). `--trace`
/// lets the testbench's `$dumpvars` write a VCD; `-Wno-fatal` keeps lint
/// warnings (left in the log) from stopping a simulation, since [`lint`] is
/// the place to insist on a clean design. `defines` are passed as `-D`.
/// When `dir` holds a model built from the same inputs, it is reused (see
/// [`build_model`]).
pub fn build_binary(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<PathBuf, ToolError> {
    build_model(dir, sources, top, defines, name).map(|m| m.exe)
}

/// A simulator built by [`build_model`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The executable.
    pub exe: PathBuf,
    /// True when the model of an earlier run was reused (its inputs are unchanged).
    pub reused: bool,
}

/// Whether GNU make can build in `dir` (an absolute path): no whitespace and none of the
/// characters make or the shell give a meaning (`$ " ' \ ; & | < > ( ) * ? [ ] # ~ = % : !`
/// and the backquote, `{ }`). Letters of any script (`andré`, `задача`) are fine.
pub fn make_safe(dir: &Path) -> bool {
    dir.to_str().is_some_and(|text| {
        text.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-' | '/' | '+' | ','))
    })
}

/// [`build_binary`], saying whether the model was reused. The SHA-256 of the inputs (the
/// Verilator version line, the arguments and every source's contents) is kept in
/// `dir/<name>.inputs` next to the model; a later call with the same inputs and the executable
/// still there skips Verilator and the C++ compiler.
pub fn build_model(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<Model, ToolError> {
    let mode = [
        "--binary",
        "--trace",
        "-Wno-fatal",
        "--timescale",
        "1ns/1ps",
    ];
    build_with(dir, sources, top, defines, name, &mode, b"--binary")
}

/// The Verilator options of [`build_program`]: a C++ model built for speed (Verilator's `-O3`,
/// X values resolved to the fastest constant, no assertions), its fast code compiled with
/// `fast_code` (`-O3`, or `-O1` for [`ProgramBuild::quick_compile`]) and its slow (start-up)
/// code with `-O0` (Verilator's make default is `-Os` for both).
fn program_options(fast_code: &'static str) -> [&'static str; 14] {
    [
        "--cc",
        "--exe",
        "--build",
        "-O3",
        "--x-assign",
        "fast",
        "--x-initial",
        "fast",
        "--noassert",
        "-Wno-fatal",
        "-MAKEFLAGS",
        fast_code,
        "-MAKEFLAGS",
        "OPT_SLOW=-O0",
    ]
}

/// Builds the Verilog `sources` with `top` as root and a C++ `main` of the caller's (one of
/// `sources`, a `.cpp` file driving the model `V<top>`) into the executable
/// `dir/obj_<name>/<name>`, with [`program_options`] and the Verilog `defines`. Reused, cached
/// and built outside a folder GNU make refuses as [`build_model`] does.
pub fn build_program(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<Model, ToolError> {
    build_program_with(dir, sources, top, defines, name, ProgramBuild::default())
}

/// What [`build_program_with`] builds differently from [`build_program`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ProgramBuild {
    /// VCD tracing (`--trace`: the `main` sees `VM_TRACE` set).
    pub trace: bool,
    /// The fast code compiled with `-O1` in place of `-O3`, for a model whose C++ takes long to
    /// compile and runs no slower for it: a chip read back from an Alchitry Cu bitstream beside
    /// its RTL top compiled in 31 s instead of 41 s and simulated its 30.45 million cycles in
    /// 67 s at both levels (2026-12-03).
    pub quick_compile: bool,
    /// Every module inlined into the model's root (`--flatten`), so the root object holds the
    /// design's whole state (the virtual board's idle skip compares it).
    pub flatten: bool,
}

/// [`build_program`] as `build` says.
pub fn build_program_with(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
    build: ProgramBuild,
) -> Result<Model, ToolError> {
    let fast_code = if build.quick_compile {
        "OPT_FAST=-O1"
    } else {
        "OPT_FAST=-O3"
    };
    let mut options: Vec<&str> = program_options(fast_code).to_vec();
    if build.trace {
        options.push("--trace");
    }
    if build.flatten {
        options.push("--flatten");
    }
    build_with(dir, sources, top, defines, name, &options, b"--exe")
}

/// [`build_model`] and [`build_program`]: Verilator with `mode` (the options before the top),
/// cached under the key `kind`.
fn build_with(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
    mode: &[&str],
    kind: &[u8],
) -> Result<Model, ToolError> {
    let mdir = format!("obj_{name}");
    let mut args: Vec<String> = mode.iter().map(|&a| a.to_owned()).collect();
    args.extend([
        "--top-module".to_owned(),
        top.to_owned(),
        "--Mdir".to_owned(),
        mdir.clone(),
        "-o".to_owned(),
        name.to_owned(),
    ]);
    args.extend(defines.iter().map(|d| format!("-D{d}")));
    let names: Vec<String> = sources
        .iter()
        .map(|s| relative_to(dir, s).to_string_lossy().into_owned())
        .collect();
    args.extend(names.iter().cloned());
    let exe = dir.join(&mdir).join(name);
    let stamp = dir.join(format!("{name}.inputs"));
    let inputs = inputs_hash(dir, &args, sources)?;
    if exe.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == inputs) {
        runner::observe(&format!(
            "# reusing {} (its Verilator inputs are unchanged)",
            exe.display()
        ));
        return Ok(Model { exe, reused: true });
    }
    // A stale stamp must not survive a failed build.
    let _ = std::fs::remove_file(&stamp);
    let log = format!("{name}.verilator.log");
    let exe_name = format!("{mdir}/{name}");
    let key = super::cache::key(Tool::Verilator, dir, &[kind, inputs.as_bytes()])?;
    if let Some(out) = key
        .as_ref()
        .and_then(|k| super::cache::restore(k, dir, &[&exe_name], Some(&log)))
    {
        let exe = out.expect_file(exe)?;
        runner::write_file(
            Tool::Verilator,
            dir,
            &format!("{name}.inputs"),
            &format!("{inputs}\n"),
        )?;
        return Ok(Model { exe, reused: false });
    }
    let absolute = std::path::absolute(dir)
        .map_err(|e| ToolError::io(Tool::Verilator, "resolving the work folder", dir, e))?;
    // The compiler cache changes how the objects are made, not what they are: it is not an
    // input of the model.
    let mut run_args = args;
    run_args.extend(object_cache_flags());
    let out = if make_safe(&absolute) {
        runner::output(Tool::Verilator, dir, &run_args, Some(&log))?
    } else {
        build_elsewhere(dir, sources, &names, &run_args, &mdir, name, &log)?
    };
    if !out.status.success() && out.stderr.contains("Invalid option: --binary") {
        return Err(
            out.unexpected("this Verilator has no `--binary`; install Verilator 5.004 or later")
        );
    }
    let out = out.check()?;
    if let Some(key) = &key {
        super::cache::store(key, dir, &[&exe_name], &out);
    }
    let exe = out.expect_file(exe)?;
    runner::write_file(
        Tool::Verilator,
        dir,
        &format!("{name}.inputs"),
        &format!("{inputs}\n"),
    )?;
    Ok(Model { exe, reused: false })
}

/// The folder of the C++ compiler cache inside the tool cache.
const OBJECT_CACHE: &str = "ccache";

/// Verilator's `make` flags that compile through `ccache`, its objects kept in
/// `<tool cache>/ccache`, when the tool cache is on (`RETROGATE_TOOL_CACHE`, which `make test`
/// sets) and `ccache` is on `PATH`; none otherwise. Each build compiles Verilator's run-time
/// library (`verilated.cpp` and, by the options, its tracing, timing and thread parts) from the
/// same sources with the same flags: about 5 s of a 16 s build of a chip read back, and all but
/// about 2 s of an 11 s `--binary` build of the heap solver's testbench (2026-12-05). Through the compiler cache
/// only the first build of a run compiles them. `CCACHE_NOHASHDIR` lets builds in different
/// work folders share objects (their compile lines name files relative to the build folder).
fn object_cache_flags() -> Vec<String> {
    // Absolute: make runs the compiler inside the build folder.
    let Some(folder) = super::cache::folder(OBJECT_CACHE)
        .and_then(|f| std::path::absolute(f).ok())
        .filter(|f| make_safe(f))
    else {
        return Vec::new();
    };
    if runner::on_path("ccache").is_none() {
        return Vec::new();
    }
    [
        "OBJCACHE=ccache".to_owned(),
        format!("CCACHE_DIR={}", folder.display()),
        "CCACHE_NOHASHDIR=1".to_owned(),
    ]
    .into_iter()
    .flat_map(|flag| ["-MAKEFLAGS".to_owned(), flag])
    .collect()
}

/// Runs the Verilator build of `args` in a fresh temporary folder with a plain path (the
/// `sources` copied in under their `names`), then copies the executable to
/// `dir/<mdir>/<name>` and the log to `dir/<log>`; the temporary folder is removed (also on a
/// signal). The output's folder and log are `dir`'s.
fn build_elsewhere(
    dir: &Path,
    sources: &[PathBuf],
    names: &[String],
    args: &[String],
    mdir: &str,
    name: &str,
    log: &str,
) -> Result<ToolOutput, ToolError> {
    let io = |action: String, e| ToolError::io(Tool::Verilator, action, dir, e);
    let base = [std::env::temp_dir(), PathBuf::from("/tmp")]
        .into_iter()
        .find(|d| d.is_absolute() && make_safe(d) && d.is_dir())
        .ok_or_else(|| {
            io(
                "finding a temporary folder whose path GNU make accepts".to_owned(),
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "set TMPDIR to a folder without spaces or quotes",
                ),
            )
        })?;
    let temp = unique_folder(&base, name)
        .map_err(|e| io(format!("creating a folder in {}", base.display()), e))?;
    let guard = crate::interrupt::temp_folder(&temp);
    let result = (|| {
        for (source, copy) in sources.iter().zip(names) {
            let to = temp.join(Path::new(copy).file_name().unwrap_or_default());
            let from = if source.is_absolute() {
                source.clone()
            } else {
                dir.join(source)
            };
            std::fs::copy(&from, &to)
                .map_err(|e| io(format!("copying {} to {}", from.display(), to.display()), e))?;
        }
        let args: Vec<String> = args
            .iter()
            .map(|a| match names.iter().position(|n| n == a) {
                Some(_) => Path::new(a)
                    .file_name()
                    .map_or_else(|| a.clone(), |f| f.to_string_lossy().into_owned()),
                None => a.clone(),
            })
            .collect();
        let mut out = runner::output(Tool::Verilator, &temp, &args, Some(log))?;
        let built = temp.join(mdir).join(name);
        if out.status.success() && built.is_file() {
            let target = dir.join(mdir);
            std::fs::create_dir_all(&target)
                .map_err(|e| io(format!("creating {}", target.display()), e))?;
            std::fs::copy(&built, target.join(name))
                .map_err(|e| io(format!("copying {}", built.display()), e))?;
        }
        let from = temp.join(log);
        let to = dir.join(log);
        std::fs::copy(&from, &to).map_err(|e| io(format!("copying {}", from.display()), e))?;
        out.dir = dir.to_path_buf();
        out.log = Some(to);
        Ok(out)
    })();
    let _ = std::fs::remove_dir_all(&temp);
    drop(guard);
    result
}

/// A new folder `<base>/retrogate-verilator-<name>-<pid>-<n>`.
fn unique_folder(base: &Path, name: &str) -> std::io::Result<PathBuf> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!(
            "retrogate-verilator-{name}-{}-{n}",
            std::process::id()
        ));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// SHA-256 of a model's inputs: `verilator --version`, the arguments, each source's contents.
fn inputs_hash(dir: &Path, args: &[String], sources: &[PathBuf]) -> Result<String, ToolError> {
    let version = runner::version(Tool::Verilator, dir, "--version")?
        .check()?
        .stdout;
    let mut parts: Vec<Vec<u8>> = vec![version.into_bytes(), args.join("\0").into_bytes()];
    for source in sources {
        let path = dir.join(source);
        let text = std::fs::read(&path).map_err(|e| {
            ToolError::io(
                Tool::Verilator,
                format!("reading {}", path.display()),
                dir,
                e,
            )
        })?;
        parts.push(text);
    }
    Ok(super::hash_parts(parts.iter().map(Vec::as_slice)))
}

/// Run an executable built by [`build_binary`] in `dir`. A nonzero exit is
/// a [`ToolError::Failed`].
pub fn run(dir: &Path, exe: &Path, name: &str) -> Result<ToolOutput, ToolError> {
    runner::output_program(
        exe,
        dir,
        std::iter::empty::<&str>(),
        Some(&format!("{name}.run.log")),
    )?
    .check()
}

/// Run an executable built by [`build_binary`] in `dir` with `plusargs`, returning its output
/// whatever its exit status (a self-checking testbench stops with `$fatal` on a failed check).
pub fn execute(
    dir: &Path,
    exe: &Path,
    name: &str,
    plusargs: &[String],
) -> Result<ToolOutput, ToolError> {
    runner::output_program(exe, dir, plusargs, Some(&format!("{name}.run.log")))
}

/// [`execute`] within `limit` (a time limit from the simulation's length): a run that does not
/// finish in time is a [`ToolError::SimulationTimedOut`].
pub fn execute_limited(
    dir: &Path,
    exe: &Path,
    name: &str,
    plusargs: &[String],
    limit: SimulationLimit,
) -> Result<ToolOutput, ToolError> {
    let options = Options {
        simulation: Some(limit),
        ..Options::default()
    };
    runner::output_program_with(
        exe,
        dir,
        plusargs,
        Some(&format!("{name}.run.log")),
        options,
    )
}

/// [`build_binary`] then [`run`].
pub fn simulate(
    dir: &Path,
    sources: &[PathBuf],
    top: &str,
    defines: &[&str],
    name: &str,
) -> Result<ToolOutput, ToolError> {
    let exe = build_binary(dir, sources, top, defines, name)?;
    run(dir, &exe, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_builds_only_in_plain_folders() {
        for good in [
            "/tmp/w/jr01/verilator",
            "/home/andré/задача/build",
            "/a/b-c_d.e",
        ] {
            assert!(make_safe(Path::new(good)), "{good}");
        }
        for bad in [
            "/tmp/my project/w",
            "/tmp/x\" ; exec -- touch pwned ; \"",
            "/tmp/$HOME",
            "/tmp/a:b",
            "/tmp/it's",
            "/tmp/a\nb",
        ] {
            assert!(!make_safe(Path::new(bad)), "{bad:?}");
        }
    }
}
