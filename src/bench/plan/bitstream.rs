//! Level 8 of a board design: its bitstream read back and simulated through its pins
//! ([`crate::bench::bitstream`]), then the read-back chip proved equal to the RTL top
//! ([`crate::bench::bitstream_equiv`]): three checks, the simulation, the bounded check from
//! power-on and the unbounded proof.

use std::path::Path;
use std::time::{Instant, SystemTime};

use super::{Check, CheckResult, Run, Section};
use crate::bench::bitstream::{run_bitstream_level, BitstreamSource, BitstreamTarget};
use crate::bench::bitstream_equiv::{check_chip, ChipCheckKind};
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
    let since = SystemTime::now();
    let result = match run_bitstream_level(target, &dir) {
        Ok(report) => CheckResult::Bitstream(report),
        Err(e) => CheckResult::NoVerdict {
            head: Level::Bitstream.to_string(),
            elapsed: start.elapsed(),
            reason: e.to_string(),
        },
    };
    let name = format!(
        "{}_{}",
        target.design.name(),
        target.board.as_str().replace('-', "_")
    );
    let label = format!("bitstream ({} on {})", target.design.name(), target.board);
    run.record(&Check {
        level: Level::Bitstream,
        target: name.clone(),
        label: label.clone(),
        prefix: String::new(),
        dir: Some(dir.clone()),
        result,
    });

    // The read-back chip against the RTL top, by proof.
    let start = Instant::now();
    let results = match check_chip(target, &dir, since) {
        Ok(checks) => checks.map(CheckResult::ChipEquivalence).to_vec(),
        Err(e) => [ChipCheckKind::Bounded, ChipCheckKind::Unbounded]
            .iter()
            .map(|kind| CheckResult::NoVerdict {
                head: format!(
                    "level {} ({})",
                    Level::Bitstream.number(),
                    match kind {
                        ChipCheckKind::Bounded => "chip = RTL top from power-on",
                        ChipCheckKind::Unbounded => "chip = RTL top for all cycles",
                    }
                ),
                elapsed: start.elapsed(),
                reason: e.to_string(),
            })
            .collect(),
    };
    for result in results {
        run.record(&Check {
            level: Level::Bitstream,
            target: name.clone(),
            label: format!("{label}, proof"),
            prefix: String::new(),
            dir: Some(dir.join("equiv")),
            result,
        });
    }
}
