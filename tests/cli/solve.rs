use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

#[test]
fn solve_help_has_examples() {
    assert_cmd_snapshot!(retrogate().args(["solve", "--help"]));
}

#[test]
fn fort_boyard_table() {
    assert_cmd_snapshot!(retrogate().args(["solve", "sticks"]));
}

#[test]
fn fort_boyard_summary() {
    assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--format", "summary"]));
}

#[test]
fn twenty_sticks_summary() {
    assert_cmd_snapshot!(
        retrogate().args(["solve", "sticks", "--count", "20", "--format", "summary"])
    );
}

#[test]
fn a_count_near_two_to_the_63_is_answered_from_the_period() {
    assert_cmd_snapshot!(retrogate().args([
        "solve",
        "sticks",
        "--count",
        "9223372036854775807",
        "--take",
        "1,3,4",
        "--format",
        "summary"
    ]));
}

#[test]
fn matches_json() {
    assert_cmd_snapshot!(retrogate().args(["solve", "matches", "--format", "json"]));
}

#[test]
fn matches_table() {
    assert_cmd_snapshot!(retrogate().args(["solve", "matches"]));
}

#[test]
fn heaps_summary() {
    assert_cmd_snapshot!(retrogate().args([
        "solve", "heaps", "--start", "3,10", "--move", "x+1", "--move", "x*4", "--end", "sum>=61",
        "--format", "summary"
    ]));
}

#[test]
fn heaps_json_with_a_guarded_move() {
    assert_cmd_snapshot!(retrogate().args([
        "solve",
        "heaps",
        "--start",
        "5",
        "--move",
        "x+1",
        "--move",
        "x+x/2 if x%2==0",
        "--end",
        "any>=12",
        "--format",
        "json"
    ]));
}

#[test]
fn json_positions_match_the_table() {
    let out = retrogate()
        .args(["solve", "sticks", "--format", "json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let positions = doc["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 19);
    let losing: Vec<u64> = positions
        .iter()
        .filter(|p| p["outcome"] == "loss")
        .map(|p| p["position"].as_u64().unwrap())
        .collect();
    assert_eq!(losing, vec![1, 5, 9, 13, 17]);
    assert_eq!(positions[0]["move"], serde_json::Value::Null);
    assert_eq!(positions[18]["move"], 1);
}

#[test]
fn an_empty_take_set_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--take", ""]));
}

#[test]
fn a_zero_take_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--take", "0,1"]));
}

#[test]
fn an_unparsable_move_points_at_the_error() {
    assert_cmd_snapshot!(retrogate().args(["solve", "heaps", "--start", "3,10", "--move", "x*(4+"]));
}

#[test]
fn a_division_by_zero_is_refused() {
    assert_cmd_snapshot!(retrogate()
        .args(["solve", "heaps", "--start", "3,10", "--move", "x+1", "--move", "x/(x-5)"]));
}

#[test]
fn an_identity_move_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "heaps", "--start", "3,10", "--move", "x*1"]));
}

#[test]
fn a_start_that_is_already_over_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "heaps", "--start", "3,70"]));
}

#[test]
fn a_game_too_large_for_memory_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "sticks", "--count", "5000000000"]));
}

#[test]
fn an_unbounded_heap_game_is_refused() {
    assert_cmd_snapshot!(
        retrogate().args(["solve", "heaps", "--start", "10", "--move", "x+1", "--end", "sum<=3"])
    );
}

#[test]
fn a_bad_end_condition_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["solve", "heaps", "--start", "3", "--end", "total>=5"]));
}
