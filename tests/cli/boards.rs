//! `retrogate boards`, run from a temporary folder; its JSON checked against the key table of
//! docs/json-boards.md.

use std::collections::BTreeSet;
use std::path::Path;

use retrogate::board::Board;
use retrogate::circuit::top::BOARD_DESIGNS;

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

/// Every key path of `value` (`a.b`, `a[].b`), each design's key written `<design>`.
fn key_paths(value: &serde_json::Value, prefix: &str, keys: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, child) in map {
                let k = if prefix == "boards[]" && BOARD_DESIGNS.iter().any(|d| d.name == k) {
                    "<design>"
                } else {
                    k.as_str()
                };
                let path = if prefix.is_empty() {
                    k.to_string()
                } else {
                    format!("{prefix}.{k}")
                };
                keys.insert(path.clone());
                key_paths(child, &path, keys);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                key_paths(item, &format!("{prefix}[]"), keys);
            }
        }
        _ => {}
    }
}

/// `boards --format json` prints exactly the keys docs/json-boards.md lists (each design under
/// its own name, in the documented order, on every board it has a layout for), as
/// tests/cli/workflow.rs checks docs/json.md.
#[test]
fn boards_json_matches_docs_json_boards() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-boards.md"))
            .unwrap();
    let documented: BTreeSet<String> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    assert!(documented.len() > 10, "{documented:?}");
    let names: Vec<String> = BOARD_DESIGNS
        .iter()
        .map(|d| format!("`{}`", d.name))
        .collect();
    assert!(
        doc.replace('\n', " ")
            .contains(&format!("in this order: {}.", names.join(", "))),
        "docs/json-boards.md should list the designs {names:?} in order"
    );

    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["boards", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut printed = BTreeSet::new();
    key_paths(&v, "", &mut printed);
    let undocumented: Vec<&String> = printed.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "not in docs/json-boards.md: {undocumented:?}"
    );
    let missing: Vec<&String> = documented.difference(&printed).collect();
    assert!(
        missing.is_empty(),
        "documented but not printed: {missing:?}"
    );
    // Each board's keys in the documented order, a design's only where it has a layout (read
    // off the text: a parsed object forgets its order).
    let text = String::from_utf8(out.stdout).unwrap();
    let boards: Vec<&str> = text.split("\n      \"board\": ").skip(1).collect();
    assert_eq!(boards.len(), Board::all().count());
    for (board, data) in boards.into_iter().zip(Board::all()) {
        let mut keys = vec!["name", "device", "package", "clock_pin", "clock_hz"];
        keys.extend(
            BOARD_DESIGNS
                .iter()
                .filter(|d| (d.pin_uses)(data).is_some())
                .map(|d| d.name),
        );
        let at: Vec<usize> = keys
            .iter()
            .map(|k| {
                board
                    .find(&format!("\n      \"{k}\": "))
                    .unwrap_or_else(|| panic!("no {k}: {board}"))
            })
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "{keys:?} out of order: {board}"
        );
    }
}
