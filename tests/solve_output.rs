//! `solve` at scale, as a user runs it: output streams (a closed pipe ends it quietly), and a
//! game too large for memory is refused with the bytes it would need, never aborted.

use std::io::Read;
use std::process::{Command, Stdio};

fn retrogate() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_retrogate"));
    c.env_clear();
    c
}

/// `GiB` rounded up, as the limit message prints it.
fn gib(bytes: u128) -> u128 {
    bytes.div_ceil(1 << 30)
}

fn refused(args: &[&str]) -> String {
    let out = retrogate().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// The limit counts the bytes of the path the game takes: 9 a position on the queue path (a
/// game that can cycle), 4 1/8 on the one-sweep path (acyclic games).
#[test]
fn a_game_over_the_limit_is_refused_with_its_own_bytes_per_position() {
    // x+1 and x-1 cycle: sizes 0..=39999 on each heap.
    let p: u128 = 40_000 * 40_000;
    let err = refused(&[
        "solve",
        "heaps",
        "--start",
        "1,1",
        "--move",
        "x+1",
        "--move",
        "x-1",
        "--end",
        "sum>=40000",
    ]);
    assert!(err.contains(&format!("{p} positions")), "{err}");
    assert!(err.contains(&format!("about {} GiB", gib(p * 9))), "{err}");
    // x+1 and x*2 only grow the heaps: sizes 1..=39999.
    let p: u128 = 39_999 * 39_999;
    let err = refused(&[
        "solve",
        "heaps",
        "--start",
        "1,1",
        "--move",
        "x+1",
        "--move",
        "x*2",
        "--end",
        "sum>=40000",
    ]);
    assert!(err.contains(&format!("{p} positions")), "{err}");
    assert!(
        err.contains(&format!("about {} GiB", gib((p * 33).div_ceil(8)))),
        "{err}"
    );
    let err = refused(&[
        "solve",
        "sticks",
        "--count",
        "2000000000",
        "--format",
        "json",
    ]);
    assert!(err.contains("2000000001 positions"), "{err}");
    assert!(
        err.contains(&format!(
            "about {} GiB",
            gib((2_000_000_001u128 * 33).div_ceil(8))
        )),
        "{err}"
    );
}

/// Under an address-space limit, a game inside the position limit that does not fit memory is
/// refused with exit 2, the bytes asked for and how to shrink it; no abort.
#[test]
fn an_allocation_that_fails_is_an_error_not_an_abort() {
    // 20000 sizes a heap, 4e8 positions: the 4-byte values alone need 1.6 GB, more than the
    // 1 GB the shell allows.
    let out = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 1000000 && exec "$0" solve heaps --start 1,1 --move x+1 --move x-1 --end 'sum>=20000' --format summary"#)
        .arg(env!("CARGO_BIN_EXE_retrogate"))
        .env_clear()
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains("cannot allocate 1600000000 bytes"), "{err}");
    assert!(err.contains("lower the --end threshold"), "{err}");
}

/// Output streams: the first bytes of a large JSON document arrive at once, and closing the
/// pipe early ends the process quietly with exit 0.
#[test]
fn a_closed_pipe_ends_a_large_output_quietly() {
    for format in ["json", "table"] {
        let mut child = retrogate()
            .args([
                "solve", "sticks", "--count", "5000000", "--take", "1,3,4", "--format", format,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut head)
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{format}: {:?}", out.status);
        assert!(
            out.stderr.is_empty(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let head = String::from_utf8_lossy(&head);
        assert!(
            head.starts_with(if format == "json" {
                "{\n  \"game\""
            } else {
                "sticks: 5000000 sticks"
            }),
            "{head}"
        );
    }
}

/// The streamed table and JSON list the same positions in the same order as the summary counts.
#[test]
fn table_json_and_summary_agree_on_a_cyclic_game() {
    let args = [
        "solve", "heaps", "--start", "1,1", "--move", "x+1", "--move", "x-2", "--move", "x*2",
        "--end", "sum>=40",
    ];
    let run = |format: &str| {
        let out = retrogate()
            .args(args)
            .args(["--format", format])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let summary = run("summary");
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let table = run("table");
    let positions = json["positions"].as_array().unwrap();
    let count = |o: &str| positions.iter().filter(|p| p["outcome"] == o).count();
    let line = format!(
        "positions: {} ({} win, {} loss, {} draw)",
        positions.len(),
        count("win"),
        count("loss"),
        count("draw")
    );
    assert!(summary.contains(&line), "{summary}\n{line}");
    assert!(count("draw") > 0, "the cyclic game has draws");
    // Title, header, one row a position.
    assert_eq!(table.lines().count(), positions.len() + 2);
    for (row, p) in table.lines().skip(2).zip(positions) {
        let heaps: Vec<String> = p["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        assert!(row.starts_with(&heaps.join(",")), "{row} {p}");
        assert!(row.contains(p["outcome"].as_str().unwrap()), "{row} {p}");
    }
}
