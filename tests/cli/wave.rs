//! `retrogate wave`: the controller's ports over a game, as SVG and VCD.

use super::retrogate;

#[test]
fn wave_sticks_writes_an_svg_and_its_vcd() {
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("game.svg");
    let out = retrogate()
        .args(["wave", "sticks", "--moves", "1,3,2", "--out"])
        .arg(&svg_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for name in [
        "clock",
        "remaining",
        "human_turn",
        "machine_take",
        "game_over",
    ] {
        assert!(svg.contains(name), "{name} not in the SVG");
    }
    let vcd = std::fs::read_to_string(dir.path().join("game.vcd")).unwrap();
    assert!(vcd.contains("$var") && vcd.contains("remaining"), "{vcd}");
    // Only the two files: no temporaries left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
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
