//! `retrogate verify bitstream` as users run it: a `--bin` that is not a bitstream is refused
//! before anything is written; with the tools, the J.R. 01 bitstream `build` makes passes
//! (its pins against the RTL top, its LEDs against the solver's table), one built by a user's
//! own flow from a top with one product term changed fails naming the pin, the time and the
//! expected value (and its chip is not proved equal to the RTL top, where ours is), one with
//! an LED's polarity swapped fails the proof naming the pin and the cycle, and every board
//! design's bitstream passes (its chip equal to the RTL top for 30 cycles from power-on at
//! least, and for all cycles where the proof closes on a chip without block RAM; four of the
//! two Alchitry Cu boards' designs only when asked for, see `LEVEL_8_ASKED_FOR` in
//! tests/common/chip_proofs.rs).

use std::path::Path;
use std::process::Output;

use super::retrogate;

#[path = "../common/chip_proofs.rs"]
mod chip_proofs;

fn run_in(dir: &Path, args: &[&str]) -> Output {
    retrogate()
        .current_dir(dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A `--bin` that is missing or not an iCE40 bitstream, and a level other than 8: exit 2, the
/// message names the flag, and nothing is written (no work folder, no build folder).
#[test]
fn a_bad_bin_or_level_is_refused_and_nothing_is_written() {
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("top.asc"), ".comment\n.device 5k\n").unwrap();
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(here.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    for (args, flag) in [
        (
            &[
                "verify",
                "bitstream",
                "--board",
                "icebreaker",
                "--design",
                "jr01",
                "--bin",
                "top.asc",
            ][..],
            "not an iCE40 bitstream",
        ),
        (
            &[
                "verify",
                "bitstream",
                "--design",
                "jr01",
                "--bin",
                "none.bin",
            ][..],
            "cannot read it",
        ),
        (
            &[
                "verify",
                "bitstream",
                "--design",
                "jr01",
                "--level",
                "formal",
            ][..],
            "--level formal",
        ),
        (
            &["verify", "jr01", "--level", "bitstream"][..],
            "verify bitstream",
        ),
        (
            &["verify", "bitstream", "--design", "jr01", "--count", "20"][..],
            "--count",
        ),
    ] {
        let out = run_in(here.path(), args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert_eq!(listing(), ["top.asc"], "{args:?}");
    }
}

#[cfg(feature = "external-tools")]
mod with_tools {
    use super::super::workflow::assert_documented;
    use super::chip_proofs::{has_block_ram, LEVEL_8_ASKED_FOR};
    use super::*;
    use std::process::Command;

    fn tool(dir: &Path, program: &str, args: &[&str]) {
        let out = Command::new(program)
            .current_dir(dir)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        assert!(
            out.status.success(),
            "{program} {args:?}: {}",
            text(&out.stderr)
        );
    }

    /// The user's flow (yosys, nextpnr, icepack) on `top` with our PCF, in `here/<name>`:
    /// the bitstream's path.
    fn user_flow(here: &Path, name: &str, top: &str) -> std::path::PathBuf {
        let flow = here.join(name);
        std::fs::create_dir(&flow).unwrap();
        std::fs::write(flow.join("top.v"), top).unwrap();
        std::fs::copy(
            here.join("build/icebreaker/jr01/jr01_icebreaker.pcf"),
            flow.join("top.pcf"),
        )
        .unwrap();
        tool(
            &flow,
            "yosys",
            &[
                "-q",
                "-p",
                "synth_ice40 -top jr01_icebreaker -json top.json",
                "top.v",
            ],
        );
        tool(
            &flow,
            "nextpnr-ice40",
            &[
                "--up5k",
                "--package",
                "sg48",
                "--pcf",
                "top.pcf",
                "--json",
                "top.json",
                "--asc",
                "top.asc",
                "-q",
            ],
        );
        tool(&flow, "icepack", &["top.asc", "top.bin"]);
        flow.join("top.bin")
    }

    /// The done-when: the J.R. 01 bitstream of the iCEBreaker passes, its JSON counts
    /// level 8's three checks (the simulation, the chip equal to the RTL top for 30 cycles
    /// from power-on, and proved so for all cycles); a bitstream a user built with their own flow (yosys, nextpnr, icepack)
    /// from our PCF and our top with X's product term `b & c` changed to `b & ~c` fails with
    /// exit 1, naming LED5 (answer X), the time and the expected value, with a waveform, and
    /// its chip is not proved equal to the RTL top (its difference lies past the 30 cycles:
    /// the presses are debounced for 16 ms); one whose green LED's polarity is swapped fails
    /// the proof at power-on, naming LEDG_N and cycle 0, with a counterexample waveform.
    #[test]
    fn jr01_on_the_icebreaker_passes_and_a_wrong_strategy_fails() {
        let here = tempfile::tempdir().unwrap();
        let out = run_in(
            here.path(),
            &[
                "verify",
                "bitstream",
                "--board",
                "icebreaker",
                "--design",
                "jr01",
                "--format",
                "json",
            ],
        );
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        let json = assert_documented(&stdout, "verify");
        assert_eq!(json["design"], "bitstream");
        assert_eq!(json["ran"], 3);
        for k in 0..3 {
            assert_eq!(json["levels"][k]["level"], 8);
            assert_eq!(json["levels"][k]["passed"], true, "{stdout}");
        }
        assert_eq!(
            json["levels"][1]["name"],
            "level 8 (chip = RTL top, 30 cycles from power-on)"
        );
        assert_eq!(json["levels"][1]["cycles"], 30);
        assert_eq!(
            json["levels"][2]["name"],
            "level 8 (chip = RTL top for all cycles)"
        );
        let proof = json["levels"][2]["detail"].as_str().unwrap();
        assert!(
            proof.starts_with("6 pins equal on every cycle from power-on"),
            "{proof}"
        );
        let detail = json["levels"][0]["detail"].as_str().unwrap();
        // Power-on and the seven presses of the Gray walk: every position, read off the LEDs.
        assert!(
            detail.contains("8 checkpoints decoded against the solver"),
            "{detail}"
        );
        assert!(detail.contains("(icetime)"), "{detail}");
        assert!(here
            .path()
            .join("build/icebreaker/jr01/jr01_icebreaker.bin")
            .is_file());

        // The user's flow, from our top with one product term changed.
        let built = here.path().join("build/icebreaker/jr01");
        let top = std::fs::read_to_string(built.join("jr01_icebreaker.v")).unwrap();
        let right = "x = (a) | (b & c);";
        assert_eq!(top.matches(right).count(), 2, "both strategies' X");
        user_flow(
            here.path(),
            "mine",
            &top.replace(right, "x = (a) | (b & ~c);"),
        );
        let out = run_in(
            here.path(),
            &[
                "verify",
                "bitstream",
                "--board",
                "icebreaker",
                "--design",
                "jr01",
                "--bin",
                "mine/top.bin",
                "--work",
                "wrong",
            ],
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
        // The walk reaches 011 (A = 0, B = C = 1) third: X is 1 there, the wrong top's is 0.
        let line = stdout
            .lines()
            .find(|l| l.contains("first mismatch"))
            .unwrap_or_else(|| panic!("{stdout}"));
        assert!(
            line.contains("pin LED5 at cycle") && line.contains("expected 1, actual 0"),
            "{line}"
        );
        assert!(line.contains(" s after power-on"), "{line}");
        let vcd = here
            .path()
            .join("wrong/bitstream-icebreaker-jr01/bitstream/bitstream.vcd");
        assert!(vcd.is_file(), "{stdout}");
        assert!(vcd.with_extension("svg").is_file(), "{stdout}");
        // Its chip differs from the RTL top only past the debounce: equal for 30 cycles from
        // power-on, and not proved equal for all cycles.
        assert!(
            stdout.contains("level 8 (chip = RTL top, 30 cycles from power-on): PASS"),
            "{stdout}"
        );
        assert!(
            stdout.contains("level 8 (chip = RTL top for all cycles): PASS (BOUNDED ONLY"),
            "{stdout}"
        );

        // The green LED's polarity swapped: the proof fails at power-on, naming the pin.
        let green = "assign LEDG_N = ~core_answer[0];";
        assert_eq!(top.matches(green).count(), 1);
        user_flow(
            here.path(),
            "green",
            &top.replace(green, "assign LEDG_N = core_answer[0];"),
        );
        let out = run_in(
            here.path(),
            &[
                "verify",
                "bitstream",
                "--board",
                "icebreaker",
                "--design",
                "jr01",
                "--bin",
                "green/top.bin",
                "--work",
                "green-work",
                "--format",
                "json",
            ],
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
        let json = assert_documented(&stdout, "verify");
        let bounded = &json["levels"][1];
        assert_eq!(bounded["passed"], false, "{stdout}");
        assert_eq!(
            bounded["detail"],
            "pin LEDG_N differs at cycle 0 after power-on (yosys miter, ABC bmc3)"
        );
        let vcd = here
            .path()
            .join("green-work/bitstream-icebreaker-jr01/bitstream/equiv/chip_equiv.vcd");
        assert_eq!(bounded["artifacts"]["vcd"], vcd.to_str().unwrap());
        let trace = std::fs::read_to_string(&vcd).unwrap();
        assert!(
            trace.contains("e_all") && trace.contains("a_all"),
            "{trace}"
        );
        let proof = &json["levels"][2];
        assert_eq!(proof["passed"], false, "{stdout}");
        assert!(
            proof["detail"]
                .as_str()
                .unwrap()
                .starts_with("pin LEDG_N differs at cycle 0"),
            "{stdout}"
        );
    }

    /// Every design of the registry on `board` but the [`LEVEL_8_ASKED_FOR`] ones: its
    /// bitstream, read back and simulated through its pins, passes (a design the board clocks
    /// through its PLL with the PLL's model) with at least two checkpoints of what the board
    /// shows decoded against the solver, and its chip equals the RTL top for 30 cycles from
    /// power-on, proved for all cycles or, with block RAM, said to be BOUNDED ONLY.
    fn every_design_on(board: retrogate::board::BoardId) {
        let checked = designs_on(board, |d| !LEVEL_8_ASKED_FOR.contains(&(board, d)));
        assert!(checked >= 2, "{board}: only {checked} designs");
    }

    /// `cargo nextest run --cargo-profile fast-build --features external-tools --run-ignored
    /// ignored-only --test cli the_alchitry_designs_asked_for`.
    #[test]
    #[ignore = "about 8 minutes: run with --run-ignored (see LEVEL_8_ASKED_FOR)"]
    fn the_alchitry_designs_asked_for_pass() {
        for (board, design) in LEVEL_8_ASKED_FOR {
            assert_eq!(designs_on(board, |d| d == design), 1, "{board} {design}");
        }
    }

    /// The designs on `board` that `wanted` accepts, checked as [`every_design_on`] says;
    /// returns how many.
    fn designs_on(board: retrogate::board::BoardId, wanted: impl Fn(&str) -> bool) -> usize {
        let here = tempfile::tempdir().unwrap();
        let mut failed = Vec::new();
        let mut checked = 0;
        for entry in retrogate::circuit::top::BOARD_DESIGNS {
            if (entry.pin_uses)(board.board()).is_none() || !wanted(entry.name) {
                continue;
            }
            let design = entry.name;
            let started = std::time::Instant::now();
            let out = run_in(
                here.path(),
                &[
                    "verify",
                    "bitstream",
                    "--board",
                    board.as_str(),
                    "--design",
                    design,
                    "--format",
                    "json",
                ],
            );
            let stdout = text(&out.stdout);
            let json: serde_json::Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{board} {design}: {e}: {stdout}"));
            let pll = board.board().pll(design).is_some();
            let detail = json["levels"][0]["detail"].as_str().unwrap_or_default();
            eprintln!(
                "{board} {design}: {:.1} s: {detail}",
                started.elapsed().as_secs_f64()
            );
            // A design clocked by the PLL runs the PLL's model, and says so.
            assert_eq!(
                detail.contains("the PLL simulated as its model"),
                pll,
                "{board} {design}: {detail}"
            );
            if !out.status.success() {
                failed.push(format!("{board} {design}: {detail}"));
            }
            // What the board shows is read back against the solver, for every design.
            let decoded = detail
                .split(" checkpoints decoded against the solver")
                .next()
                .and_then(|head| head.rsplit(' ').next())
                .and_then(|n| n.parse::<usize>().ok());
            if decoded.is_none_or(|n| n < 2) {
                failed.push(format!(
                    "{board} {design}: no checkpoints decoded: {detail}"
                ));
            }
            // The chip equals the RTL top for 30 cycles from power-on, and for every cycle on
            // a chip without block RAM; on one with block RAM (the solver's and the heap
            // game's tables) the unbounded proof is not attempted (dprove took 44 s on the
            // iCEBreaker's solver, minutes on the other boards), and the check says so.
            assert_eq!(json["ran"], 3, "{board} {design}: {stdout}");
            for k in [1, 2] {
                let check = &json["levels"][k];
                eprintln!(
                    "  {}: {} in {} s",
                    check["name"], check["detail"], check["seconds"]
                );
                if check["passed"] != true {
                    failed.push(format!(
                        "{board} {design}: {}: {}",
                        check["name"], check["detail"]
                    ));
                }
            }
            let bounded = json["levels"][1]["detail"].as_str().unwrap_or_default();
            if !bounded.ends_with(
                " pins equal on every cycle of 30 from power-on, every input free (yosys \
                 miter, ABC bmc3)",
            ) {
                failed.push(format!("{board} {design}: 30 cycles: {bounded}"));
            }
            // Without block RAM, the proof closes: tests/netlist_equivalence.rs counts on it
            // (tests/common/chip_proofs.rs).
            let unbounded = json["levels"][2]["detail"].as_str().unwrap_or_default();
            let as_expected = if has_block_ram(design) {
                unbounded.starts_with(
                    "BOUNDED ONLY: the unbounded proof is not attempted on a chip with block \
                     RAM (SB_RAM40_4K)",
                )
            } else {
                unbounded.contains(
                    " pins equal on every cycle from power-on, every input free (ABC dprove, \
                     induction depth",
                )
            };
            if !as_expected {
                failed.push(format!("{board} {design}: all cycles: {unbounded}"));
            }
            checked += 1;
        }
        assert!(failed.is_empty(), "{failed:#?}");
        checked
    }

    // One test per board, so the test runner spreads the boards over the cores.

    #[test]
    fn every_icebreaker_design_bitstream_passes() {
        every_design_on(retrogate::board::BoardId::Icebreaker);
    }

    #[test]
    fn every_go_board_design_bitstream_passes() {
        every_design_on(retrogate::board::BoardId::GoBoard);
    }

    #[test]
    fn every_alchitry_cu_design_bitstream_passes() {
        every_design_on(retrogate::board::BoardId::AlchitryCu);
    }

    #[test]
    fn every_alchitry_cu_v2_design_bitstream_passes() {
        every_design_on(retrogate::board::BoardId::AlchitryCuV2);
    }

    #[test]
    fn every_icestick_design_bitstream_passes() {
        every_design_on(retrogate::board::BoardId::Icestick);
    }

    /// Every board has its test above: the match has no catch-all, so a new board does not
    /// compile here until it has one; each test it names is in this file.
    #[test]
    fn every_board_has_its_bitstream_test() {
        use retrogate::board::BoardId;
        for board in BoardId::ALL {
            let test = match board {
                BoardId::Icebreaker => "every_icebreaker_design_bitstream_passes",
                BoardId::GoBoard => "every_go_board_design_bitstream_passes",
                BoardId::AlchitryCu => "every_alchitry_cu_design_bitstream_passes",
                BoardId::AlchitryCuV2 => "every_alchitry_cu_v2_design_bitstream_passes",
                BoardId::Icestick => "every_icestick_design_bitstream_passes",
            };
            assert!(
                include_str!("bitstream.rs").contains(&format!("fn {test}() {{")),
                "{board}: no test `{test}` in this file"
            );
        }
    }
}
