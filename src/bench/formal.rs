//! Level 5: a yosys SAT proof that the emitted module equals its table.
//!
//! The design is proved equivalent to the generated reference module (see
//! [`mod@super::reference`] for how don't-cares are handled) with
//! `miter -equiv -flatten -make_assert -make_outputs` and
//! `sat -prove-asserts -show-inputs -show-outputs`. When the proof fails, SAT
//! returns *some* counterexample; to report the *first* (lowest) failing
//! input like the simulation levels do, the input bits are then pinned from
//! the most significant down, one extra SAT call per bit whose value is not
//! already known to be 0 (at most one call per input bit).
//!
//! A proof needs a model with behaviour: the design is checked for combinational loops (yosys
//! `check`) and the miter must be satisfiable (`sat` without `-prove` finds an input) before
//! "proved" is said; a design with a loop fails the level with the loop's signals named
//! (see [`yosys::prove_equivalent`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use super::design::{binary, CombDesign};
use super::reference::{reference, reference_file, reference_module};
use super::{BenchError, Level, LevelReport, Mismatch};
use crate::flow::yosys::{self, Equivalence, FixedBit};

/// Level 5 (work directory `dir/formal`).
pub fn formal_level(design: &CombDesign, dir: &Path) -> Result<LevelReport, BenchError> {
    design.validate()?;
    let start = Instant::now();
    let dir = super::work_dir(&dir.join(Level::Formal.folder().expect("a folder")))?;
    let design_path = super::write(&dir, &format!("{}.v", design.module), &design.verilog)?;
    let reference_path = super::write(&dir, &reference_file(&design.module), &reference(design)?)?;
    let sources = [design_path, reference_path];
    let gold = reference_module(&design.module);
    let prove = |fixed: &[FixedBit], step: &str| {
        yosys::prove_equivalent(&dir, &sources, &gold, &design.module, fixed, step)
    };
    let n = design.cared_count();
    let model = match prove(&[], "equiv")? {
        Equivalence::Equivalent => {
            return Ok(LevelReport {
                level: Level::Formal,
                vectors: n,
                passed: true,
                elapsed: start.elapsed(),
                detail: format!(
                    "yosys miter/sat proved {} equal to {gold} on all {n} cared-for inputs",
                    design.module
                ),
                mismatch: None,
            });
        }
        Equivalence::Counterexample(model) => model,
        // Every proof over a model with no behaviour succeeds: not a pass.
        Equivalence::Vacuous(why) => {
            return Ok(LevelReport {
                level: Level::Formal,
                vectors: 0,
                passed: false,
                elapsed: start.elapsed(),
                detail: format!(
                    "yosys miter/sat cannot prove {} equal to {gold}: {why}",
                    design.module
                ),
                mismatch: None,
            });
        }
    };
    let mut best = decode(design, &model)?;
    let mut fixed: Vec<FixedBit> = Vec::new();
    let mut calls = 1;
    for bit in (0..design.input_width()).rev() {
        let signal = input_bit_signal(design, bit);
        if best.0 >> bit & 1 == 1 {
            let mut trial = fixed.clone();
            trial.push(FixedBit {
                signal: signal.clone(),
                value: false,
            });
            calls += 1;
            if let Equivalence::Counterexample(model) = prove(&trial, &format!("equiv_bit{bit}"))? {
                best = decode(design, &model)?;
            }
        }
        let value = best.0 >> bit & 1 == 1;
        fixed.push(FixedBit { signal, value });
    }
    let (input, actual) = best;
    let expected = design
        .table
        .row(input)
        .ok_or_else(|| BenchError::NoVerdict {
            level: Level::Formal,
            problem: format!(
                "the counterexample input {} is a don't-care row, which the reference should make \
             impossible",
                binary(input, design.input_width())
            ),
            log: dir.join("equiv.log").display().to_string(),
        })?;
    let position = design
        .cared_rows()
        .position(|(code, _)| code == input)
        .map_or(0, |i| i + 1);
    Ok(LevelReport {
        level: Level::Formal,
        vectors: position,
        passed: false,
        elapsed: start.elapsed(),
        detail: format!(
            "yosys miter/sat found {} differs from {gold}; lowest counterexample after {calls} sat runs",
            design.module
        ),
        mismatch: Some(Mismatch {
            input,
            input_width: design.input_width(),
            expected,
            actual,
            vcd: None,
        }),
    })
}

/// The yosys signal expression for bit `bit` of the input code, as seen in
/// the miter (`in_<port>` or `in_<port>[k]`).
fn input_bit_signal(design: &CombDesign, bit: usize) -> String {
    let mut low = 0;
    for port in design.inputs.iter().rev() {
        if bit < low + port.width {
            return if port.width == 1 {
                format!("in_{}", port.name)
            } else {
                format!("in_{}[{}]", port.name, bit - low)
            };
        }
        low += port.width;
    }
    // `bit` is always below the input width; keep a harmless fallback.
    format!("in_{}", design.inputs[0].name)
}

/// The input code and the design's (gate's) output bits of a counterexample.
fn decode(
    design: &CombDesign,
    model: &BTreeMap<String, String>,
) -> Result<(u32, String), BenchError> {
    let value = |prefix: &str, name: &str, width: usize| -> Result<String, BenchError> {
        let key = format!("{prefix}{name}");
        let bits = model.get(&key).ok_or_else(|| BenchError::NoVerdict {
            level: Level::Formal,
            problem: format!("the counterexample does not show `{key}`"),
            log: "equiv.log".to_owned(),
        })?;
        Ok(format!("{bits:0>width$}"))
    };
    let mut input = String::new();
    for port in &design.inputs {
        input.push_str(&value("in_", &port.name, port.width)?);
    }
    let mut actual = String::new();
    for port in &design.outputs {
        actual.push_str(&value("gate_", &port.name, port.width)?);
    }
    let code = u32::from_str_radix(&input, 2).map_err(|_| BenchError::NoVerdict {
        level: Level::Formal,
        problem: format!("counterexample input `{input}` is not binary"),
        log: "equiv.log".to_owned(),
    })?;
    Ok((code, actual))
}

#[cfg(all(test, feature = "external-tools"))]
mod tests {
    use super::*;
    use crate::circuit::sticks_strategy::Impl;
    use crate::flow::testing::work_dir;
    use crate::game::{Last, SticksGame};

    /// The emitted lookup, with `winning` fed back through itself: every SAT query over it is
    /// unsatisfiable, so a proof would say "equal" of any table. The level fails, naming the
    /// loop, and says nothing is proved.
    #[test]
    fn a_combinational_loop_is_no_proof() {
        let game = SticksGame::new(6, &[1, 2, 3], Last::Loses).unwrap();
        let mut design = CombDesign::from_sticks(&game, Impl::Logic).unwrap();
        let (good, looped) = ("winning = ", "winning = winning & ");
        assert!(design.verilog.contains(good), "{}", design.verilog);
        // `winning` read before the block assigns it: the block's own output.
        design.verilog = design.verilog.replacen(good, looped, 1);
        let dir = work_dir("formal-loop");
        let report = formal_level(&design, dir.path()).unwrap();
        assert!(!report.passed, "{report}");
        assert!(report.mismatch.is_none());
        assert!(
            report.detail.starts_with(
                "yosys miter/sat cannot prove sticks_strategy equal to sticks_strategy_reference: \
                 combinational loop"
            ),
            "{report}"
        );
        assert!(report.detail.contains("winning"), "{report}");
        assert!(
            !report.detail.contains("proved sticks_strategy"),
            "{report}"
        );
    }
}
