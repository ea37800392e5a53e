//! `retrogate board`: the virtual board. A scripted game on the Go Board is checked against
//! `retrogate play sticks --against solver` (the solver's moves, read from its output), every
//! board and design runs a short script, and the live full-screen view runs in tmux.

use std::path::Path;

use crate::retrogate;

/// `retrogate board` with the tools on PATH, in `dir`.
fn board(dir: &Path) -> std::process::Command {
    let mut c = retrogate();
    c.arg("board")
        .current_dir(dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    c
}

/// Runs `cmd`, a scripted `board` (`what` names it in messages), says how long it took, and
/// checks it succeeded; its standard output.
#[cfg(feature = "external-tools")]
fn scripted_ok(cmd: &mut std::process::Command, what: &str) -> String {
    let started = std::time::Instant::now();
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!("{what}: {:.1} s: {stdout}", started.elapsed().as_secs_f64());
    assert!(
        out.status.success(),
        "{what}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The frames a scripted run wrote, in order, as (file name, text).
#[cfg(feature = "external-tools")]
fn frames(dir: &Path) -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("ms.txt"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(dir.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The number a 7-segment digit drawn as text shows (`None`: blank or not a digit), from its
/// three rows of three characters: ` _ `, `|_|`, `|_|`.
#[cfg(feature = "external-tools")]
fn seven_segment(rows: [&[char]; 3]) -> Option<u32> {
    let at = |r: usize, c: usize, ch: char| rows[r].get(c) == Some(&ch);
    let segments = [
        at(0, 1, '_'), // A
        at(1, 2, '|'), // B
        at(2, 2, '|'), // C
        at(2, 1, '_'), // D
        at(2, 0, '|'), // E
        at(1, 0, '|'), // F
        at(1, 1, '_'), // G
    ];
    // The usual shapes of 0-9 (A..G).
    let digits: [[bool; 7]; 10] = [
        [true, true, true, true, true, true, false],
        [false, true, true, false, false, false, false],
        [true, true, false, true, true, false, true],
        [true, true, true, true, false, false, true],
        [false, true, true, false, false, true, true],
        [true, false, true, true, false, true, true],
        [true, false, true, true, true, true, true],
        [true, true, true, false, false, false, false],
        [true, true, true, true, true, true, true],
        [true, true, true, true, false, true, true],
    ];
    digits.iter().position(|d| *d == segments).map(|d| d as u32)
}

/// The Go Board's count (its two digits) and the lit LEDs among LED1-LED4, read from a frame.
#[cfg(feature = "external-tools")]
fn go_board(frame: &str) -> (Option<u32>, Vec<u32>) {
    let lines: Vec<Vec<char>> = frame.lines().map(|l| l.chars().collect()).collect();
    let label = lines
        .iter()
        .position(|l| {
            l.iter()
                .collect::<String>()
                .contains("left digit, right digit")
        })
        .unwrap_or_else(|| panic!("no digits in the frame:\n{frame}"));
    // The digits start after the frame's border and a space; each is 4 wide, then a space.
    let digit = |i: usize| {
        let row = |r: usize| -> Vec<char> {
            lines[label + 1 + r]
                .iter()
                .skip(2 + 5 * i)
                .take(3)
                .copied()
                .collect()
        };
        let (a, b, c) = (row(0), row(1), row(2));
        seven_segment([&a, &b, &c])
    };
    let count = match (digit(0), digit(1)) {
        (Some(t), Some(o)) => Some(10 * t + o),
        (None, Some(o)) => Some(o),
        _ => None,
    };
    let lit = (1..=4)
        .filter(|n| frame.contains(&format!("● LED{n} ")))
        .collect();
    (count, lit)
}

/// The moves of `play sticks --against solver` for the human's `takes`: after each, the
/// machine's take and the count it leaves.
#[cfg(feature = "external-tools")]
fn solver_answers(takes: &[u32]) -> Vec<(u32, u32)> {
    use std::io::Write;
    let mut child = retrogate()
        .args(["play", "sticks", "--against", "solver"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = takes.iter().map(|t| format!("{t}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // `17 |||...  machine: take 1 -> 16`
    text.lines()
        .filter_map(|l| l.split_once("machine: take ").map(|(_, r)| r))
        .map(|r| {
            let (take, left) = r.split_once(" -> ").unwrap();
            let left: String = left.chars().take_while(char::is_ascii_digit).collect();
            (take.parse().unwrap(), left.parse().unwrap())
        })
        .collect()
}

/// Done when: a scripted game on the virtual Go Board shows the count going down and the
/// machine's answers, the same moves `play sticks --against solver` makes.
#[cfg(feature = "external-tools")]
#[test]
fn a_scripted_go_board_game_makes_the_solvers_moves() {
    let dir = tempfile::tempdir().unwrap();
    let takes = [1u32, 3, 2, 1];
    // Each take pressed, then a frame after the machine's 0.5 s think time.
    let mut keys = String::from("# take, then look after the machine's move\n0 frame\n");
    for (n, t) in takes.iter().enumerate() {
        let at = 100 + 1000 * n as u64;
        keys.push_str(&format!("{at} {t}\n{} frame\n", at + 900));
    }
    std::fs::write(dir.path().join("keys.txt"), keys).unwrap();
    let out = board(dir.path())
        .args(["--board", "go-board", "--design", "sticks"])
        .args(["--keys", "keys.txt", "--frames", "frames"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("5 frames in"), "{stdout}");
    let frames = frames(&dir.path().join("frames"));
    let shown: Vec<(Option<u32>, Vec<u32>)> = frames.iter().map(|(_, f)| go_board(f)).collect();
    let answers = solver_answers(&takes);
    assert_eq!(answers.len(), takes.len(), "{answers:?}");
    // Power-on: 18 sticks, your turn (LED4), no machine take yet.
    assert_eq!(shown[0], (Some(18), vec![4]), "{}", frames[0].1);
    let mut count = 18;
    for (n, (&take, &(machine, left))) in takes.iter().zip(&answers).enumerate() {
        count -= take + machine;
        assert_eq!(count, left, "the solver's count after move {n}");
        // LED k lit: the machine took k; LED4: your turn again.
        assert_eq!(
            shown[n + 1],
            (Some(left), vec![machine, 4]),
            "after taking {take} the solver answers {machine}, leaving {left}:\n{}",
            frames[n + 1].1
        );
    }
}

/// The idle skip is exact: the Go Board's stick game and its on-chip solver (block RAM in the
/// model's state) played through the harness with and without it, the same presses at the same
/// cycles (a game's moves, a long press, presses during the machine's think time), give the
/// same output pins at every cycle they change; the skipping run evaluated under 2% of the
/// cycles.
#[cfg(feature = "external-tools")]
#[test]
fn the_idle_skip_changes_no_output_pin_on_any_cycle() {
    use retrogate::board::BoardId;
    use retrogate::vboard::harness::Harness;
    let here = tempfile::tempdir().unwrap();
    for name in ["sticks", "solver"] {
        let design = design(name);
        let panel = retrogate::vboard::panel(BoardId::GoBoard, &design).unwrap();
        let dir = here.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        let built = retrogate::vboard::build(BoardId::GoBoard, &design, &dir).unwrap();
        let ms = u64::from(panel.hz) / 1000;
        const END: u64 = 7000;
        // (press at ms, control by key, held ms): SW1..SW4 are keys 1..4. On the solver's
        // set-up pages: SW4 held (next page), SW2 (19 sticks), SW4 held, SW1 (the last stick
        // wins), SW4 held (solve and play), then takes, one during the machine's think time
        // and one too short for the debouncer; on the stick game the first long press starts a
        // game with the machine first.
        let presses: [(u64, char, u64); 9] = [
            (100, '4', 1500),
            (1700, '2', 120),
            (2000, '4', 1500),
            (3600, '1', 120),
            (3800, '4', 1500),
            (5500, '1', 120),
            (5700, '3', 37),
            (6300, '2', 120),
            (6305, '3', 3),
        ];
        let mut runs = Vec::new();
        for every_cycle in [false, true] {
            let mut h = Harness::start(&built.exe, &panel.idle, every_cycle).unwrap();
            let mut changes: Vec<(u64, Vec<u8>)> = Vec::new();
            let mut events: Vec<(u64, usize, bool)> = Vec::new();
            for (at, key, hold) in presses {
                let c = panel.control(key).unwrap();
                let control = &panel.controls[c];
                events.push((at * ms, control.input, !control.idle));
                events.push(((at + hold) * ms, control.input, control.idle));
            }
            events.sort();
            for (at, input, level) in events {
                h.run(at - h.cycle, &mut |c, bits| {
                    changes.push((c, bits.to_vec()))
                })
                .unwrap();
                h.set(input, level).unwrap();
            }
            h.run(END * ms - h.cycle, &mut |c, bits| {
                changes.push((c, bits.to_vec()))
            })
            .unwrap();
            assert_eq!(h.cycle, END * ms);
            runs.push((changes, h.evaluated));
        }
        let (skipping, every) = (&runs[0], &runs[1]);
        assert!(
            skipping.0.len() >= 10,
            "{name}: only {} changes",
            skipping.0.len()
        );
        assert_eq!(
            skipping.0, every.0,
            "{name}: the idle skip changed an output"
        );
        assert_eq!(
            every.1,
            END * ms,
            "{name}: --every-cycle evaluates every cycle"
        );
        assert!(
            skipping.1 * 50 < END * ms,
            "{name}: {} of {} cycles evaluated",
            skipping.1,
            END * ms
        );
    }
}

/// Bad input: a key the board has no control for is refused with the line, the valid keys and
/// exit 2, and nothing is written (no frames, no work folder).
#[test]
fn a_bad_key_file_names_the_line_and_the_keys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.txt"), "0 frame\n100 9\n").unwrap();
    let out = board(dir.path())
        .args([
            "--board", "go-board", "--keys", "keys.txt", "--frames", "frames",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--keys keys.txt: line 2 `100 9`: `9` is no key of this board")
            && stderr.contains("(1 2 3 4)"),
        "{stderr}"
    );
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["keys.txt"]);
    // Out of order, and a hold on a switch-less board's unknown word.
    for (keys, says) in [
        ("500 frame\n100 1\n", "line 2 `100 1`: 100 ms comes before"),
        ("0 1 hold x\n", "`x` is not a hold time"),
        ("soon 1\n", "`soon` is not a time"),
        ("# nothing\n", "no steps"),
    ] {
        std::fs::write(dir.path().join("keys.txt"), keys).unwrap();
        let out = board(dir.path())
            .args([
                "--board", "go-board", "--keys", "keys.txt", "--frames", "frames",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{keys}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{keys}: {stderr}");
    }
    // Without a terminal and without a key file: refused, naming the scripted mode.
    let out = board(dir.path())
        .args(["--board", "go-board"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--keys FILE --frames DIR"));
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["keys.txt"]);
}

/// The design of a `--design` name, as the library has it.
#[cfg(feature = "external-tools")]
fn design(name: &str) -> retrogate::circuit::top::Design {
    retrogate::circuit::top::Design::named(name)
        .unwrap_or_else(|| panic!("design `{name}` of BOARD_DESIGNS: add it to Design::every"))
}

/// What a frame shows of the board's lights and digits: without its status line (the board
/// time), the switches' positions and the held buttons' marks.
#[cfg(feature = "external-tools")]
fn board_part(frame: &str) -> String {
    frame
        .lines()
        .filter(|l| !l.starts_with("board time"))
        .map(|l| {
            l.replace(['▮', '▯'], " ")
                .replace('<', "[")
                .replace('>', "]")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every design of the registry on `board` plays a short script: a press of key 1 (else the
/// first button the design uses, else a flip of its first switch) at 50 ms, and another at
/// 300 ms, a frame kept at every change; the run exits 0, every frame shows the board, the
/// design and every control's key, and the press changes what the board's lights and digits
/// show. The same script with `--every-cycle` (no idle skip) writes the same frames, while the
/// first run skipped idle cycles.
#[cfg(feature = "external-tools")]
fn every_design_on(board_id: retrogate::board::BoardId) {
    use retrogate::vboard::ControlKind;
    let here = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for entry in retrogate::circuit::top::BOARD_DESIGNS {
        if (entry.pin_uses)(board_id.board()).is_none() {
            continue;
        }
        let name = entry.name;
        let panel = retrogate::vboard::panel(board_id, &design(name)).unwrap();
        // Key 1 where the design uses it, else the first button it uses, else its first switch.
        let used = |kind: ControlKind| {
            panel
                .controls
                .iter()
                .find(move |c| c.kind == kind && c.role.is_some())
        };
        let control = panel
            .controls
            .iter()
            .find(|c| c.key == '1' && c.role.is_some())
            .or_else(|| used(ControlKind::Button))
            .or_else(|| used(ControlKind::Switch))
            .unwrap_or_else(|| panic!("{board_id} {name}: no control with a use"));
        let keys = format!("50 {0}\n300 {0}\n", control.key);
        let file = format!("keys-{name}.txt");
        std::fs::write(here.path().join(&file), keys).unwrap();
        let mut runs = Vec::new();
        for every_cycle in [false, true] {
            let frames_dir = format!("frames-{name}-{every_cycle}");
            let mut cmd = board(here.path());
            cmd.args(["--board", board_id.as_str(), "--design", name])
                .args(["--keys", &file, "--frames", &frames_dir]);
            if every_cycle {
                cmd.arg("--every-cycle");
            }
            let stdout = scripted_ok(&mut cmd, &format!("{board_id} {name}"));
            let said = if every_cycle {
                "; every cycle evaluated;"
            } else {
                "% of its cycles evaluated, the others skipped as idle;"
            };
            assert!(stdout.contains(said), "{board_id} {name}: {stdout}");
            runs.push(frames(&here.path().join(&frames_dir)));
        }
        assert_eq!(
            runs[0], runs[1],
            "{board_id} {name}: the idle skip changed what the board shows"
        );
        let frames = &runs[0];
        assert!(frames.len() >= 3, "{board_id} {name}: {frames:?}");
        for (file, text) in frames {
            assert!(
                text.contains(board_id.board().name) && text.contains(name),
                "{board_id} {name} {file}:\n{text}"
            );
            for c in &panel.controls {
                assert!(
                    text.contains(&format!("[{}]", c.key))
                        || text.contains(&format!("<{}>", c.key))
                        || (c.kind == ControlKind::Switch && text.contains(&c.key.to_string())),
                    "{board_id} {name} {file}: no key {}:\n{text}",
                    c.key
                );
            }
        }
        assert_ne!(
            board_part(&frames[0].1),
            board_part(&frames[frames.len() - 1].1),
            "{board_id} {name}: pressing {} ({}) changed nothing",
            control.key,
            control.label
        );
        checked += 1;
    }
    assert!(checked >= 2, "{board_id}: only {checked} designs");
}

// One test per board, so the test runner spreads the boards over the cores.

#[cfg(feature = "external-tools")]
#[test]
fn every_icebreaker_design_runs_on_the_virtual_board() {
    every_design_on(retrogate::board::BoardId::Icebreaker);
}

#[cfg(feature = "external-tools")]
#[test]
fn every_go_board_design_runs_on_the_virtual_board() {
    every_design_on(retrogate::board::BoardId::GoBoard);
}

#[cfg(feature = "external-tools")]
#[test]
fn every_alchitry_cu_design_runs_on_the_virtual_board() {
    every_design_on(retrogate::board::BoardId::AlchitryCu);
}

#[cfg(feature = "external-tools")]
#[test]
fn every_alchitry_cu_v2_design_runs_on_the_virtual_board() {
    every_design_on(retrogate::board::BoardId::AlchitryCuV2);
}

#[cfg(feature = "external-tools")]
#[test]
fn every_icestick_design_runs_on_the_virtual_board() {
    every_design_on(retrogate::board::BoardId::Icestick);
}

/// Every board has its test above: the match has no catch-all, so a new board does not compile
/// here until it has one; each test it names is in this file.
#[test]
fn every_board_has_its_virtual_board_test() {
    use retrogate::board::BoardId;
    for board_id in BoardId::ALL {
        let test = match board_id {
            BoardId::Icebreaker => "every_icebreaker_design_runs_on_the_virtual_board",
            BoardId::GoBoard => "every_go_board_design_runs_on_the_virtual_board",
            BoardId::AlchitryCu => "every_alchitry_cu_design_runs_on_the_virtual_board",
            BoardId::AlchitryCuV2 => "every_alchitry_cu_v2_design_runs_on_the_virtual_board",
            BoardId::Icestick => "every_icestick_design_runs_on_the_virtual_board",
        };
        assert!(
            include_str!("board.rs").contains(&format!("fn {test}() {{")),
            "{board_id}: no test `{test}` in this file"
        );
    }
}

/// A tmux server of this test's own (its own socket), killed when dropped.
#[cfg(feature = "external-tools")]
struct Tmux {
    socket: String,
}

#[cfg(feature = "external-tools")]
impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = std::process::Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "board"])
    }

    /// Waits (up to `secs`) until the screen satisfies `ok`; the last screen.
    fn wait(&self, secs: u64, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "waited {secs} s for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }
}

#[cfg(feature = "external-tools")]
impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

/// The live full-screen view in tmux, 80 x 24, as a user types: the Go Board at power-on
/// (18 sticks, your turn), key 1 takes one and the machine answers as the solver does (16 left),
/// a window too small gets the message saying the size it needs and the board comes back when
/// it is large enough again, and Ctrl-C (sent right behind another resize) quits, restoring
/// the screen (the shell's lines and the summary are back).
#[cfg(feature = "external-tools")]
#[test]
fn the_live_board_runs_in_tmux() {
    let here = tempfile::tempdir().unwrap();
    let tmux = Tmux {
        socket: format!("retrogate-board-test-{}", std::process::id()),
    };
    let mut env = format!(
        "PATH='{}'",
        std::env::var("PATH").unwrap_or_default().replace('\'', "")
    );
    for (k, v) in crate::tool_cache() {
        env.push_str(&format!(" {k}='{}'", v.to_string_lossy()));
    }
    let command = format!(
        "cd '{}' && echo shell before && env -i TERM=xterm-256color {env} '{}' board --board \
         go-board; echo EXIT=$?; sleep 600",
        here.path().display(),
        env!("CARGO_BIN_EXE_retrogate")
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "board",
        "-x",
        "80",
        "-y",
        "24",
        &command,
    ]);
    let screen = tmux.wait(600, "the board", |s| {
        s.contains("Nandland Go Board") && go_board(s).0 == Some(18)
    });
    assert_eq!(go_board(&screen), (Some(18), vec![4]), "{screen}");
    assert!(screen.contains("[1] SW1 take 1"), "{screen}");
    tmux.run(&["send-keys", "-t", "board", "1"]);
    // Take 1: 17 left; the machine (the solver's move from 17 is 1) leaves 16.
    let answers = solver_answers(&[1]);
    let screen = tmux.wait(120, "the machine's answer", |s| {
        s.contains("Nandland Go Board") && go_board(s).0 == Some(answers[0].1)
    });
    assert_eq!(
        go_board(&screen),
        (Some(answers[0].1), vec![answers[0].0, 4]),
        "{screen}"
    );
    assert!(screen.contains("real"), "{screen}");
    tmux.run(&["resize-window", "-t", "board", "-x", "60", "-y", "20"]);
    tmux.wait(30, "the too-small message", |s| {
        s.contains("This terminal is 60 x 20") && s.contains("needs at least 80 x 24")
    });
    tmux.run(&["resize-window", "-t", "board", "-x", "80", "-y", "24"]);
    tmux.wait(30, "the board again", |s| s.contains("Nandland Go Board"));
    // Ctrl-C right behind a resize, before the board has redrawn: crossterm's default event
    // source lost this key every time (edge-triggered epoll, one event per poll); the
    // `use-dev-tty` source polls level-triggered and sees both.
    tmux.run(&["resize-window", "-t", "board", "-x", "82", "-y", "25"]);
    tmux.run(&["send-keys", "-t", "board", "C-c"]);
    let screen = tmux.wait(30, "the shell", |s| s.contains("EXIT=0"));
    assert!(
        screen.contains("shell before")
            && screen.contains("board go-board: ")
            && !screen.contains("Nandland Go Board"),
        "{screen}"
    );
}

/// The names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `--bin` that is missing or not a bitstream is refused before anything is written (exit 2),
/// naming `--bin` and the command that builds the right one.
#[test]
fn a_bad_bin_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.txt"), "0 frame\n").unwrap();
    std::fs::write(
        dir.path().join("top.asc"),
        ".comment not a bin\n.device 1k\n",
    )
    .unwrap();
    for (bin, says) in [
        ("missing.bin", "cannot read it"),
        ("top.asc", "not an iCE40 bitstream"),
    ] {
        let out = board(dir.path())
            .args(["--board", "go-board", "--design", "jr01", "--bin", bin])
            .args(["--keys", "keys.txt", "--frames", "frames"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bin}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("--bin {bin}: "))
                && stderr.contains(says)
                && stderr.contains("`retrogate build --board go-board --design jr01`"),
            "{bin}: {stderr}"
        );
        assert_eq!(names_in(dir.path()), ["keys.txt", "top.asc"], "{bin}");
    }
}

/// Done when: `--bin` runs the chip read back from the bitstream `retrogate build` wrote, and
/// the same key file gives the same frames as the top's Verilog (a press that changes what the
/// board shows); a bitstream of another board's top is refused (exit 2, naming `--bin`), and
/// nothing is written to `--frames`.
#[cfg(feature = "external-tools")]
#[test]
fn the_bitstream_read_back_shows_what_the_top_shows() {
    let here = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(here.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .args([
            "build", "--board", "go-board", "--design", "jr01", "--out", "gb",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin = names_in(&here.path().join("gb"))
        .into_iter()
        .find(|n| n.ends_with(".bin"))
        .expect("build wrote a .bin");
    let bin = format!("gb/{bin}");
    std::fs::write(here.path().join("keys.txt"), "0 frame\n50 1\n300 frame\n").unwrap();
    let mut shown = Vec::new();
    for (frames_dir, with_bin) in [("rtl", false), ("chip", true)] {
        let mut cmd = board(here.path());
        cmd.args(["--board", "go-board", "--design", "jr01"])
            .args(["--keys", "keys.txt", "--frames", frames_dir]);
        if with_bin {
            cmd.args(["--bin", &bin]);
        }
        let stdout = scripted_ok(&mut cmd, frames_dir);
        assert_eq!(
            stdout.contains(&format!("the chip read back from {bin}")),
            with_bin,
            "{stdout}"
        );
        shown.push(frames(&here.path().join(frames_dir)));
    }
    assert_eq!(shown[0].len(), 2, "{:?}", shown[0]);
    assert_ne!(board_part(&shown[0][0].1), board_part(&shown[0][1].1));
    assert_eq!(shown[0], shown[1], "the read-back chip shows otherwise");
    // The Go Board's bitstream is no Icestick top's.
    let out = board(here.path())
        .args(["--board", "icestick", "--design", "jr01", "--bin", &bin])
        .args(["--keys", "keys.txt", "--frames", "wrong"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("--bin {bin}: "))
            && stderr.contains("`retrogate build --board icestick --design jr01`"),
        "{stderr}"
    );
    assert!(!here.path().join("wrong").exists());
}

/// `--frames DIR` holding the frames of an earlier, longer run (retrogate's): the new run's
/// frames replace them, none of the old ones is left mixed in, and the manifest lists only the
/// new ones; a file retrogate did not write there makes the folder refused, and stays.
#[cfg(feature = "external-tools")]
#[test]
fn an_earlier_runs_frames_are_replaced() {
    let here = tempfile::tempdir().unwrap();
    let run = |keys: &str| {
        std::fs::write(here.path().join("keys.txt"), keys).unwrap();
        board(here.path())
            .args(["--board", "go-board", "--design", "sticks"])
            .args(["--keys", "keys.txt", "--frames", "frames"])
            .output()
            .unwrap()
    };
    let out = run("0 frame\n20 frame\n40 frame\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        names_in(&here.path().join("frames")),
        [
            ".retrogate-manifest",
            "0001-0ms.txt",
            "0002-20ms.txt",
            "0003-40ms.txt"
        ]
    );
    let out = run("0 frame\n30 frame\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        names_in(&here.path().join("frames")),
        [".retrogate-manifest", "0001-0ms.txt", "0002-30ms.txt"]
    );
    let manifest = std::fs::read_to_string(here.path().join("frames/.retrogate-manifest")).unwrap();
    let listed: Vec<&str> = manifest.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(listed, ["0001-0ms.txt", "0002-30ms.txt"], "{manifest}");
    // A user's file there: refused, nothing removed.
    std::fs::write(here.path().join("frames/0009-90ms.txt"), "mine").unwrap();
    let out = run("0 frame\n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        names_in(&here.path().join("frames")),
        [
            ".retrogate-manifest",
            "0001-0ms.txt",
            "0002-30ms.txt",
            "0009-90ms.txt"
        ]
    );
}

/// The pid of the first process whose parent is `parent` (from /proc), if any.
#[cfg(feature = "external-tools")]
fn child_of(parent: u32) -> Option<u32> {
    std::fs::read_dir("/proc").ok()?.find_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid ...`: the fields after the command's closing parenthesis.
        let rest = &stat[stat.rfind(')')? + 2..];
        let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == parent).then_some(pid)
    })
}

/// Whether process `pid` is running (not gone, not a zombie).
#[cfg(feature = "external-tools")]
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rfind(')')
            .and_then(|i| stat[i + 2..].split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// SIGTERM to a live board (as `kill` or a shutdown sends it): the terminal is given back
/// (the main screen with the shell's lines, not the board), the exit code is 143, and the
/// Verilator harness the board ran is gone too.
#[cfg(feature = "external-tools")]
#[test]
fn sigterm_restores_the_terminal_and_stops_the_harness() {
    let here = tempfile::tempdir().unwrap();
    let tmux = Tmux {
        socket: format!("retrogate-board-term-{}", std::process::id()),
    };
    let mut env = format!(
        "PATH='{}'",
        std::env::var("PATH").unwrap_or_default().replace('\'', "")
    );
    for (k, v) in crate::tool_cache() {
        env.push_str(&format!(" {k}='{}'", v.to_string_lossy()));
    }
    let command = format!(
        "cd '{}' && echo shell before && env -i TERM=xterm-256color {env} '{}' board --board \
         go-board --design jr01; echo EXIT=$?; sleep 600",
        here.path().display(),
        env!("CARGO_BIN_EXE_retrogate")
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "board",
        "-x",
        "80",
        "-y",
        "24",
        &command,
    ]);
    tmux.wait(600, "the board", |s| s.contains("Nandland Go Board"));
    assert_eq!(
        tmux.run(&["display", "-p", "-t", "board", "#{alternate_on}"])
            .trim(),
        "1"
    );
    let shell: u32 = tmux
        .run(&["display", "-p", "-t", "board", "#{pane_pid}"])
        .trim()
        .parse()
        .unwrap();
    let board_pid = child_of(shell).expect("retrogate runs");
    let harness = child_of(board_pid).expect("the harness runs");
    assert!(running(harness));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &board_pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let screen = tmux.wait(30, "the shell", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=143"), "{screen}");
    assert!(
        screen.contains("shell before") && !screen.contains("Nandland Go Board"),
        "{screen}"
    );
    assert_eq!(
        tmux.run(&["display", "-p", "-t", "board", "#{alternate_on}"])
            .trim(),
        "0"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running(harness) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(!running(harness), "the harness {harness} still runs");
}
