//! `retrogate play` in script mode: moves come one per line on a piped stdin.

use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

/// Runs `cmd` with `input` on a piped stdin.
fn with_stdin(cmd: &mut std::process::Command, input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command refused before it reads stdin may exit before the input is written.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        result => result.unwrap(),
    }
    child.wait_with_output().unwrap()
}

fn lines(n: usize, line: &str) -> String {
    format!("{line}\n").repeat(n)
}

#[test]
fn play_help_explains_the_input() {
    assert_cmd_snapshot!(retrogate().args(["play", "--help"]));
}

#[test]
fn sticks_a_bad_move_then_a_good_one_then_end_of_input() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks"])
        .pass_stdin("5\nthree\n\n2\n"));
}

#[test]
fn sticks_a_perfect_game_beats_the_solver() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks"])
        .pass_stdin("1\n3\n3\n3\n3\n"));
}

#[test]
fn sticks_a_loss_names_the_move_that_threw_the_win_away() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks"])
        .pass_stdin(lines(9, "1")));
}

#[test]
fn sticks_machine_first_leaves_the_human_no_winning_position() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks", "--machine-first"])
        .pass_stdin(lines(9, "1")));
}

#[test]
fn sticks_against_the_circuit_a_refused_move_then_a_loss() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks", "--against", "circuit"])
        .pass_stdin(format!("4\n{}", lines(9, "1"))));
}

#[test]
fn sticks_against_the_circuit_machine_first() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks", "--against", "circuit", "--machine-first"])
        .pass_stdin(lines(9, "1")));
}

/// The machine's moves in the script lines, in order.
fn machine_moves(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split_once("  machine: "))
        .map(|(_, m)| m.split("  [").next().unwrap().to_string())
        .collect()
}

/// The circuit plays the solver's strategy: the same keystrokes give the same machine moves.
#[test]
fn the_circuit_answers_like_the_solver() {
    let games: [(&[&str], String); 4] = [
        (&[], lines(9, "1")),
        (&["--machine-first"], lines(9, "1")),
        (&["--count", "20", "--take", "1,3,4"], lines(12, "1")),
        (
            &["--count", "13", "--last", "wins"],
            "2\n3\n1\n2\n3\n1\n".into(),
        ),
    ];
    for (flags, input) in games {
        let mut moves = Vec::new();
        for against in ["solver", "circuit"] {
            let out = with_stdin(
                retrogate()
                    .args(["play", "sticks", "--against", against])
                    .args(flags),
                &input,
            );
            assert!(out.status.success(), "{against} {flags:?}: {out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            let m = machine_moves(&stdout);
            assert!(!m.is_empty(), "{stdout}");
            moves.push(m);
        }
        assert_eq!(moves[0], moves[1], "{flags:?}");
    }
}

/// The controller with the on-chip solver plays the solver's strategy too: the same keystrokes
/// give the same machine moves as `--against solver`, and the intro says how long the chip took
/// to solve (the solver of the boards, K = 8: (count + 1) * 10 + 1 cycles).
#[test]
fn the_on_chip_solver_answers_like_the_solver() {
    let games: [(&[&str], String, u64); 5] = [
        (&[], lines(9, "1"), 18),
        (&["--machine-first"], lines(9, "1"), 18),
        (&["--count", "13", "--take", "2,3"], "2\n3\n".repeat(5), 13),
        (
            &[
                "--count",
                "21",
                "--take",
                "1,2,5",
                "--last",
                "wins",
                "--machine-first",
            ],
            "1\n2\n5\n".repeat(5),
            21,
        ),
        (
            &["--count", "40", "--take", "3,8", "--last", "wins"],
            "3\n8\n".repeat(8),
            40,
        ),
    ];
    for (flags, input, count) in games {
        let mut moves = Vec::new();
        for against in [
            &["--against", "solver"][..],
            &["--against", "circuit", "--solver", "onchip"],
        ] {
            let out = with_stdin(
                retrogate()
                    .args(["play", "sticks"])
                    .args(against)
                    .args(flags),
                &input,
            );
            assert!(out.status.success(), "{against:?} {flags:?}: {out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            if against.contains(&"onchip") {
                let cycles = (count + 1) * 10 + 1;
                assert!(
                    stdout.contains(&format!("solved on chip in {cycles} cycles")),
                    "{stdout}"
                );
            }
            let m = machine_moves(&stdout);
            assert!(!m.is_empty(), "{stdout}");
            moves.push(m);
        }
        assert_eq!(moves[0], moves[1], "{flags:?}");
    }
}

#[test]
fn sticks_against_the_on_chip_solver_take_two_or_three_last_wins() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "sticks", "--count", "13", "--take", "2,3", "--last", "wins"])
        .args(["--against", "circuit", "--solver", "onchip"])
        .pass_stdin("1\n2\n3\n2\n3\n2\n3\n"));
}

/// `--solver onchip` needs the circuit, and a game the on-chip solver can hold; each refusal
/// names the flag and the fix, and exits 2 before any play.
#[test]
fn the_on_chip_solver_refuses_what_it_cannot_play() {
    let cases: [(&[&str], &str); 4] = [
        (&["--solver", "onchip"], "add --against circuit"),
        (
            &["--solver", "onchip", "--against", "solver"],
            "add --against circuit",
        ),
        (
            &[
                "--solver",
                "onchip",
                "--against",
                "circuit",
                "--count",
                "300",
            ],
            "--count 300",
        ),
        (
            &[
                "--solver",
                "onchip",
                "--against",
                "circuit",
                "--take",
                "1,9",
            ],
            "--take 9",
        ),
    ];
    for (flags, want) in cases {
        let out = with_stdin(retrogate().args(["play", "sticks"]).args(flags), "1\n");
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{flags:?}: {out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(want), "{flags:?}: {stderr}");
    }
}

/// The heap-game controller with its on-chip solver (`heaps_game`, rust-hdl simulation) plays
/// the solver's moves: the same keystrokes give the same machine moves as `--against solver`,
/// on the seed's game (3, S), +1 and *4, sum >= 61 (either side first) and on games of other
/// moves, targets and the other rule; the intro says how long the chip took to solve (positions
/// (T-1)(T-2)/2 times twice the moves, plus 3).
#[test]
fn heaps_the_on_chip_solver_answers_like_the_solver() {
    let games: [(&[&str], String, u64); 4] = [
        (&["--start", "3,10"], lines(30, "1 x+1"), 1770 * 4 + 3),
        (
            &["--start", "3,19", "--machine-first"],
            lines(30, "2 x+1"),
            1770 * 4 + 3,
        ),
        (
            &[
                "--start", "2,5", "--move", "x+1", "--move", "x+2", "--move", "x*2", "--end",
                "sum>=30", "--last", "loses",
            ],
            "1 x+1\n2 x+2\n".repeat(15),
            406 * 6 + 3,
        ),
        (
            &[
                "--start",
                "1,1",
                "--move",
                "x+3",
                "--move",
                "x*3",
                "--end",
                "sum>=100",
                "--machine-first",
            ],
            lines(40, "1 x+3"),
            4851 * 4 + 3,
        ),
    ];
    for (flags, input, cycles) in games {
        let mut moves = Vec::new();
        for against in [
            &["--against", "solver"][..],
            &["--against", "circuit", "--solver", "onchip"],
        ] {
            let out = with_stdin(
                retrogate()
                    .args(["play", "heaps"])
                    .args(against)
                    .args(flags),
                &input,
            );
            assert!(out.status.success(), "{against:?} {flags:?}: {out:?}");
            let stdout = String::from_utf8(out.stdout).unwrap();
            if against.contains(&"onchip") {
                assert!(
                    stdout.contains(&format!("solved on chip in {cycles} cycles")),
                    "{stdout}"
                );
            }
            assert!(stdout.contains("game over"), "{flags:?}: {stdout}");
            let m = machine_moves(&stdout);
            assert!(!m.is_empty(), "{stdout}");
            moves.push(m);
        }
        assert_eq!(moves[0], moves[1], "{flags:?}");
    }
}

/// A heap game outside the circuit's family, or `--solver onchip` without the circuit, is
/// refused naming the flag, exit 2, before any play.
#[test]
fn heaps_the_on_chip_solver_refuses_what_it_cannot_play() {
    let onchip: &[&str] = &["--against", "circuit", "--solver", "onchip"];
    let cases: [(&[&str], &[&str], &str); 7] = [
        (
            &["--solver", "onchip"],
            &["--start", "3,10"],
            "add --against circuit",
        ),
        (
            &["--against", "circuit"],
            &["--start", "3,10"],
            "add --solver onchip",
        ),
        (onchip, &["--start", "3,10,4"], "--start 3,10,4"),
        (
            onchip,
            &["--start", "3,10", "--end", "sum>=200"],
            "--end 'sum>=200'",
        ),
        (
            onchip,
            &["--start", "3,10", "--end", "any>=30"],
            "--end 'any>=30'",
        ),
        (
            onchip,
            &["--start", "3,10", "--move", "x+1", "--move", "x*5"],
            "--move 'x*5'",
        ),
        (
            onchip,
            &["--start", "3,10", "--move", "x*4", "--move", "x+1"],
            "--move 'x+1'",
        ),
    ];
    for (mode, flags, want) in cases {
        let out = with_stdin(
            retrogate().args(["play", "heaps"]).args(mode).args(flags),
            "1 x+1\n",
        );
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{flags:?}: {out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(want), "{flags:?}: {stderr}");
    }
}

#[test]
fn matches_a_win_after_a_refused_move() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "matches", "--machine-first"])
        .pass_stdin("3\n2\n2\n1\n2\n2\n"));
}

#[test]
fn matches_a_loss_names_the_move_that_threw_the_win_away() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "matches", "--machine-first"])
        .pass_stdin(lines(9, "1")));
}

#[test]
fn matches_end_of_input_mid_game() {
    assert_cmd_snapshot!(retrogate().args(["play", "matches"]).pass_stdin("1\n2"));
}

#[test]
fn heaps_moves_by_heap_and_expression_or_by_result() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "heaps", "--start", "3,10"])
        .pass_stdin("1 x*4\n1 x+2\n12,14\n3,12\n12,12\n1 x*4\n"));
}

#[test]
fn heaps_a_loss_names_the_move_that_threw_the_win_away() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "heaps", "--start", "3,10"])
        .pass_stdin(lines(30, "1 x+1")));
}

#[test]
fn heaps_end_of_input_mid_game() {
    assert_cmd_snapshot!(retrogate()
        .args([
            "play",
            "heaps",
            "--start",
            "1",
            "--move",
            "x+1",
            "--move",
            "x*2",
            "--end",
            "any>=30",
            "--machine-first"
        ])
        .pass_stdin("x+1\n"));
}

#[test]
fn jr01_lamps_with_a_refused_setting() {
    assert_cmd_snapshot!(retrogate()
        .args(["play", "jr01"])
        .pass_stdin("011\n0 1\n1 1 0\n"));
}

/// The lamps the simulated circuit lights, against the J.R. 01 manual's table (written out here, not
/// derived): 000->001, 001->011, 010->011, 011->100, 100->110, 101->110, 110->111, 111->100.
#[test]
fn jr01_lights_the_seed_table_for_all_eight_settings() {
    let seed = ["001", "011", "011", "100", "110", "110", "111", "100"];
    let input: String = (0..8).map(|c| format!("{c:03b}\n")).collect();
    let out = with_stdin(retrogate().args(["play", "jr01"]), &input);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("A B C")).collect();
    assert_eq!(rows.len(), 8, "{stdout}");
    for (code, (row, want)) in rows.iter().zip(seed).enumerate() {
        let abc = format!("{code:03b}");
        let switches: String = row["A B C ".len().."A B C 0 0 0".len()]
            .split(' ')
            .collect();
        assert_eq!(switches, abc, "{row}");
        let (_, after) = row.split_once("->").unwrap();
        let lit: String = after
            .chars()
            .filter_map(|c| match c {
                '●' => Some('1'),
                '○' => Some('0'),
                _ => None,
            })
            .collect();
        assert_eq!(lit, want, "setting {abc}: {row}");
    }
    assert_eq!(
        stdout.lines().last(),
        Some("end of input: J.R. 01 switched off")
    );
}

#[test]
fn a_bad_game_flag_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["play", "sticks", "--take", "0"]));
}

/// Ctrl-C while the game waits for a move: it says the game was left unfinished and exits 130.
#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_game_unfinished() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = retrogate()
        .args(["play", "sticks"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap(); // kept open: the game waits for a move
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut intro = String::new();
    stdout.read_line(&mut intro).unwrap();
    assert!(intro.starts_with("play sticks: 18 sticks"), "{intro}");
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(rest, "interrupted: the game was left unfinished\n");
    assert_eq!(status.code(), Some(130));
}

/// `help` and `?` say how to play (not "is not a number"), and `quit` leaves.
#[test]
fn help_and_question_mark_say_how_to_play() {
    let out = with_stdin(retrogate().args(["play", "sticks"]), "help\n?\nquit\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let help: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("how to play: "))
        .collect();
    assert_eq!(help.len(), 2, "{stdout}");
    assert!(help[0].contains("take 1, 2 or 3"), "{stdout}");
    assert!(!stdout.contains("not a number"), "{stdout}");
    assert!(
        stdout.ends_with("you left the game unfinished\n"),
        "{stdout}"
    );
    let out = with_stdin(retrogate().args(["play", "jr01"]), "?\n011\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("how to play: type the switches A B C"),
        "{stdout}"
    );
}
