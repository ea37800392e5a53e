//! `retrogate boards`, run from a temporary folder.

use super::retrogate;

/// The text listing: every board, its clock and each design's pins.
#[test]
fn boards_lists_every_board_with_its_pins() {
    let dir = tempfile::tempdir().unwrap();
    insta_cmd::assert_cmd_snapshot!(retrogate().current_dir(dir.path()).arg("boards"));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "writes nothing"
    );
}

/// The JSON listing matches the board data: five boards, the iCEBreaker's
/// clock, and its sticks take buttons.
#[test]
fn boards_json_has_the_documented_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["boards", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let boards = v["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 5);
    let ib = &boards[0];
    assert_eq!(ib["board"], "icebreaker");
    assert_eq!(ib["device"], "iCE40UP5K");
    assert_eq!(ib["package"], "sg48");
    assert_eq!(ib["clock_pin"], "CLK");
    assert_eq!(ib["clock_hz"], 12_000_000);
    let take2 = ib["sticks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pin"] == "BTN2")
        .unwrap();
    assert_eq!(take2["role"], "take 2");
    assert_eq!(take2["location"], "19");
    assert_eq!(take2["direction"], "input");
    assert_eq!(take2["polarity"], "active high");
    let red = ib["sticks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pin"] == "LEDR_N")
        .unwrap();
    assert_eq!(red["lit_while_held"], true);
    assert_eq!(red["polarity"], "active low");
    // The solver design: the Go Board's fourth switch pages through the set-up.
    let go = &boards[1];
    assert_eq!(go["board"], "go-board");
    let key4 = go["solver"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["pin"] == "i_Switch_4")
        .unwrap();
    assert!(
        key4["role"].as_str().unwrap().contains("next page"),
        "{key4}"
    );
}
