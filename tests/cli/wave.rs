//! `retrogate wave`: the controller's ports over a game, as SVG and VCD.

use super::retrogate;
use retrogate::game::{Last, SticksGame};
use retrogate::solver::solve;

/// The value labels of one row of the waveform, in order.
fn row_values(svg: &roxmltree::Document, signal: &str) -> Vec<u64> {
    let row = svg
        .descendants()
        .find(|n| n.attribute("data-signal") == Some(signal))
        .unwrap_or_else(|| panic!("no row for {signal}"));
    row.descendants()
        .filter(|n| n.attribute("class") == Some("value"))
        .map(|n| {
            let text: String = n
                .children()
                .filter(|c| c.is_text())
                .filter_map(|c| c.text())
                .collect();
            text.trim().parse().unwrap()
        })
        .collect()
}

/// Drops repeats: a waveform shows a held value once.
fn changes(values: Vec<u64>) -> Vec<u64> {
    let mut v = values;
    v.dedup();
    v
}

/// What the ports must show when the human plays `moves` against the solver: the values of
/// `remaining`, `machine_take` and `take` (0 while no move is offered), from reset.
fn expected(game: &SticksGame, moves: &[u64]) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let solution = solve(game);
    let mut left = game.count();
    let (mut remaining, mut machine, mut take) = (vec![0, left], vec![0], vec![0]);
    for &k in moves {
        take.extend([k, 0]);
        left -= k;
        remaining.push(left);
        if let Some((m, _)) = solution.best_move(left as usize) {
            left -= m;
            remaining.push(left);
            machine.push(m);
        }
    }
    (changes(remaining), changes(machine), changes(take))
}

#[test]
fn wave_sticks_draws_the_game_the_solver_plays() {
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("game.svg");
    let out = retrogate()
        .args([
            "wave", "sticks", "--count", "20", "--moves", "1,3,2", "--out",
        ])
        .arg(&svg_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for name in [
        "clock",
        "reset",
        "new_game",
        "machine_first",
        "take",
        "take_valid",
        "remaining",
        "human_turn",
        "machine_take",
        "game_over",
        "human_won",
        "illegal",
    ] {
        assert!(
            doc.descendants()
                .any(|n| n.attribute("data-signal") == Some(name)),
            "no row for {name}"
        );
    }
    let game = SticksGame::new(20, &[1, 2, 3], Last::Loses).unwrap();
    let (remaining, machine, take) = expected(&game, &[1, 3, 2]);
    // 20 -1-> 19 -2-> 17 -3-> 14 -1-> 13 -2-> 11 -2-> 9, as the solver plays it.
    assert_eq!(remaining, [0, 20, 19, 17, 14, 13, 11, 9]);
    assert_eq!(row_values(&doc, "remaining"), remaining);
    // The machine's last answer is drawn too.
    assert_eq!(row_values(&doc, "machine_take"), machine);
    assert_eq!(row_values(&doc, "take"), take);

    let vcd = std::fs::read_to_string(dir.path().join("game.vcd")).unwrap();
    assert!(vcd.contains("$var") && vcd.contains("remaining"), "{vcd}");
    // Only the two files and the manifest naming them: no temporaries left behind.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".retrogate-manifest", "game.svg", "game.vcd"]);
}

#[test]
fn wave_sticks_draws_a_whole_game_to_its_end() {
    // 6 sticks, take 1..3, last loses: the human takes 1 (5 left, a losing position for the
    // machine), the machine takes 1, the human takes 3 and leaves the last stick.
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("end.svg");
    let out = retrogate()
        .args(["wave", "sticks", "--count", "6", "--moves", "1,3", "--out"])
        .arg(&svg_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc_text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    let game = SticksGame::new(6, &[1, 2, 3], Last::Loses).unwrap();
    let (remaining, machine, _) = expected(&game, &[1, 3]);
    assert_eq!(row_values(&doc, "remaining"), remaining);
    assert_eq!(row_values(&doc, "machine_take"), machine);
    assert_eq!(*remaining.last().unwrap(), 0);
    // The last stick was the machine's: game_over and human_won end high.
    for bit in ["game_over", "human_won"] {
        let row = doc
            .descendants()
            .find(|n| n.attribute("data-signal") == Some(bit))
            .unwrap();
        let path = row.descendants().find(|n| n.has_tag_name("path")).unwrap();
        let d = path.attribute("d").unwrap();
        // The y of each level in turn (from `M x,y` then each `V y`); the high line is the
        // smaller y, and the row ends there after starting lower or stepping down.
        let mut ys: Vec<f64> = vec![d
            .split(' ')
            .next()
            .and_then(|m| m.split(',').nth(1))
            .unwrap()
            .parse()
            .unwrap()];
        ys.extend(
            d.split(' ')
                .filter_map(|p| p.strip_prefix('V'))
                .map(|y| y.parse::<f64>().unwrap()),
        );
        assert!(
            ys.len() >= 2 && ys[ys.len() - 1] < ys[ys.len() - 2],
            "{bit}: {d}"
        );
    }
}

#[test]
fn wave_sticks_refuses_an_illegal_move() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["wave", "sticks", "--moves", "1,5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("move 2 (take 5) is not a move"), "{stderr}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A move in the take set but larger than what is left is refused by the circuit.
    let out = retrogate()
        .current_dir(dir.path())
        .args(["wave", "sticks", "--count", "2", "--moves", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("move 1 (take 3) is refused"), "{stderr}");
}

#[test]
fn wave_sticks_refuses_an_out_file_that_is_not_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["wave", "sticks", "--moves", "1", "--out", "game.vcd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--out game.vcd") && stderr.contains(".svg"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The ports of the top scope `uut` of a VCD (the controller's ports), as GTKWave names them:
/// `uut.<name>`, with `[width-1:0]` for a bus declared without a range.
fn vcd_ports(vcd: &str) -> Vec<String> {
    let header = vcd::Parser::new(vcd.as_bytes()).parse_header().unwrap();
    let uut = header
        .items
        .iter()
        .find_map(|item| match item {
            vcd::ScopeItem::Scope(s) if s.identifier == "uut" => Some(s),
            _ => None,
        })
        .expect("a scope uut");
    uut.children
        .iter()
        .filter_map(|item| match item {
            vcd::ScopeItem::Var(v) if v.size > 1 => {
                Some(format!("uut.{}[{}:0]", v.reference, v.size - 1))
            }
            vcd::ScopeItem::Var(v) => Some(format!("uut.{}", v.reference)),
            _ => None,
        })
        .collect()
}

#[test]
fn wave_sticks_gtkw_names_every_port_of_the_vcd_and_the_svg_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args([
            "wave",
            "sticks",
            "--moves",
            "1,3",
            "--machine-first",
            "--out",
            "g.svg",
            "--gtkw",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "wrote g.svg, g.vcd and g.gtkw (20 cycles)\n"
    );
    let vcd = std::fs::read_to_string(dir.path().join("g.vcd")).unwrap();
    let ports = vcd_ports(&vcd);
    // The controller's port contract, reset, new_game and machine_first included.
    for port in [
        "uut.reset",
        "uut.new_game",
        "uut.machine_first",
        "uut.take[1:0]",
    ] {
        assert!(ports.iter().any(|p| p == port), "{port} not in {ports:?}");
    }
    let gtkw = std::fs::read_to_string(dir.path().join("g.gtkw")).unwrap();
    let signals: Vec<&str> = gtkw
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(['[', '@', '*', '-']))
        .collect();
    assert_eq!(signals, ports, "{gtkw}");
    // The SVG has a row for each of them.
    let svg = std::fs::read_to_string(dir.path().join("g.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for port in &ports {
        let name = port.trim_start_matches("uut.").split('[').next().unwrap();
        assert!(
            doc.descendants()
                .any(|n| n.attribute("data-signal") == Some(name)),
            "no row for {name}"
        );
    }
    // Without --gtkw no save file.
    let out = retrogate()
        .current_dir(dir.path())
        .args(["wave", "sticks", "--moves", "1", "--out", "h.svg"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(!dir.path().join("h.gtkw").exists());
}
