//! Level 8 of a board design: its bitstream read back and simulated through its pins
//! ([`crate::bench::bitstream`]), one check.

use std::path::Path;
use std::time::Instant;

use super::{Check, CheckResult, Run, Section};
use crate::bench::bitstream::{run_bitstream_level, BitstreamSource, BitstreamTarget};
use crate::bench::level::Level;

/// Runs level 8 on `target` in `work/bitstream`.
pub fn run(run: &mut Run<'_>, target: &BitstreamTarget, work: &Path) {
    let source = match &target.source {
        BitstreamSource::Build(dir) => format!("the build in {}", dir.display()),
        BitstreamSource::File(path) => path.display().to_string(),
    };
    run.section(Section::Bitstream {
        design: target.design.name(),
        board: target.board,
        source,
    });
    run.started(&format!(
        "bitstream: {} on {}",
        target.design.name(),
        target.board
    ));
    let dir = work.join(Level::Bitstream.folder().unwrap_or("bitstream"));
    let start = Instant::now();
    let result = match run_bitstream_level(target, &dir) {
        Ok(report) => CheckResult::Bitstream(report),
        Err(e) => CheckResult::NoVerdict {
            head: Level::Bitstream.to_string(),
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    };
    run.record(&Check {
        level: Level::Bitstream,
        target: format!(
            "{}_{}",
            target.design.name(),
            target.board.as_str().replace('-', "_")
        ),
        label: format!("bitstream ({} on {})", target.design.name(), target.board),
        prefix: String::new(),
        dir: Some(dir),
        result,
    });
}
