use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

#[test]
fn seed_002_table() {
    assert_cmd_snapshot!(retrogate().arg("kege"));
}

#[test]
fn seed_002_answers_in_json() {
    let out = retrogate()
        .args(["kege", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = &doc["answers"];
    assert_eq!(a["vanya_wins_after_bad_move"][0], 4);
    assert_eq!(a["petya_wins_in_2"], serde_json::json!([12, 14]));
    assert_eq!(a["vanya_wins_in_2"][0], 13);
    assert_eq!(doc["rows"].as_array().unwrap().len(), 57);
}

#[test]
fn an_s_that_starts_over_the_threshold_is_listed_as_over() {
    assert_cmd_snapshot!(retrogate().args(["kege", "--s", "55..60"]));
}

#[test]
fn kege_help_has_examples() {
    assert_cmd_snapshot!(retrogate().args(["kege", "--help"]));
}

#[test]
fn a_start_without_s_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["kege", "--start", "3,10"]));
}

#[test]
fn an_empty_s_range_is_refused() {
    assert_cmd_snapshot!(retrogate().args(["kege", "--s", "10..1"]));
}
