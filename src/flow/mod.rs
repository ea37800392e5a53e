//! The external-tool flow: one module per tool over a shared [`runner`].
//!
//! | module | tool(s) | Debian package |
//! |---|---|---|
//! | [`yosys`] | `yosys` (synthesis, stats, equivalence), `yosys-config` | `yosys` |
//! | [`nextpnr`] | `nextpnr-ice40` | `nextpnr-ice40` |
//! | [`icepack`] | `icepack` | `fpga-icestorm` |
//! | [`icestorm`] | `iceunpack`, `icebox_vlog`, `icetime` (a bitstream read back, its timing) | `fpga-icestorm` |
//! | [`iverilog`] | `iverilog`, `vvp` | `iverilog` |
//! | [`verilator`] | `verilator` (lint, `--binary` build) | `verilator` |
//! | [`smtbmc`] | `yosys-smtbmc` with `z3` (bounded, k-induction, cover) | `yosys`, `z3` |
//! | [`abc`] | `yosys` (AIGER), `yosys-abc` (`pdr`: unbounded proof; `bmc3`, `&bmcs`: bounded; `ind`: k-induction step) | `yosys` |
//! | [`equiv`] | `yosys` (`equiv_make`, `equiv_induct`: netlist against RTL) | `yosys` |
//! | [`dot`] | `dot` (Graphviz: schematics as SVG) | `graphviz` |
//!
//! [`cache`] keeps the results of synthesis, place and route, Verilator builds, `icebox_vlog`
//! read-backs and the proof steps (AIGER models, ABC verdicts, netlist-equivalence rounds:
//! [`script::output_cached`]) by the hash of their inputs when `RETROGATE_TOOL_CACHE` names a
//! folder (`make test` does).
//!
//! Every function takes the directory to work in; nothing is written
//! anywhere else. Each tool runs inside that directory: every yosys and yosys-abc script is
//! written and run by [`script`], and names files only relative to it, with names retrogate
//! chose, so no path (the work folder's, the current folder's, a user's file) is ever read as
//! a command. Each step leaves its script (if any) and a `<step>.log` with the tool's stdout
//! and stderr in that directory, so a failure can be reproduced by hand. Failures come back as
//! a typed [`ToolError`]. Nothing here prints: command lines go to the observer the caller
//! installs ([`runner::set_observer`]).
//!
//! The pipeline that chains yosys, nextpnr-ice40 and icepack into a bitstream (and runs
//! `iceprog`) is [`crate::build`], above this layer; [`hash_parts`] keys the inputs of a step
//! (a Verilator model here, a build there).

pub mod abc;
pub mod cache;
pub mod dot;
pub mod equiv;
pub mod icepack;
pub mod icestorm;
pub mod iverilog;
pub mod nextpnr;
pub mod runner;
pub mod script;
pub mod smtbmc;
pub mod verilator;
pub mod yosys;

pub use runner::{Tool, ToolError, ToolOutput};

/// SHA-256 (hex) of `parts`, each length-prefixed so that no two lists hash alike by accident:
/// the key of a step's inputs (a Verilator model's, a build's in [`crate::build::record`]).
pub fn hash_parts<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::hash_parts;

    #[test]
    fn hashes_differ_by_content_and_by_split() {
        let a = hash_parts([b"ab".as_slice(), b"c"]);
        assert_eq!(a, hash_parts([b"ab".as_slice(), b"c"]));
        assert_ne!(a, hash_parts([b"a".as_slice(), b"bc"]));
        assert_ne!(a, hash_parts([b"ab".as_slice(), b"d"]));
        assert_eq!(a.len(), 64);
    }
}

#[cfg(all(test, feature = "external-tools"))]
pub(crate) mod testing {
    //! Helpers for tests that run tools.

    use std::path::{Path, PathBuf};

    /// A fresh temporary work directory, removed when dropped unless
    /// `RETROGATE_KEEP_WORK` is set (then its path is printed and it stays).
    pub(crate) struct WorkDir {
        path: PathBuf,
        _guard: Option<tempfile::TempDir>,
    }

    impl WorkDir {
        pub(crate) fn path(&self) -> &Path {
            &self.path
        }
    }

    pub(crate) fn work_dir(name: &str) -> WorkDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("retrogate-{name}-"))
            .tempdir()
            .expect("create a temporary work directory");
        if std::env::var_os("RETROGATE_KEEP_WORK").is_some() {
            let path = dir.keep();
            eprintln!("keeping work directory {}", path.display());
            WorkDir { path, _guard: None }
        } else {
            WorkDir {
                path: dir.path().to_path_buf(),
                _guard: Some(dir),
            }
        }
    }
}
