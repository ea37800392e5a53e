use super::retrogate;
use insta_cmd::assert_cmd_snapshot;

#[test]
fn build_help_has_examples() {
    assert_cmd_snapshot!(retrogate().args(["build", "--help"]));
}

#[test]
fn an_unknown_board_is_a_usage_error() {
    assert_cmd_snapshot!(retrogate().args(["build", "--board", "ulx3s"]));
}

#[cfg(feature = "external-tools")]
#[test]
fn build_writes_the_bitstream_and_reports_timing() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("icebreaker");
    let out = retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .args([
            "build",
            "--board",
            "icebreaker",
            "--design",
            "sticks",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("for a 12 MHz clock"), "{stdout}");
    let bin = out_dir.join("sticks_icebreaker.bin");
    assert!(
        std::fs::metadata(&bin).unwrap().len() > 0,
        "{}",
        bin.display()
    );
    assert!(!dir.path().join("icebreaker.partial").exists());
}

#[cfg(feature = "external-tools")]
#[test]
fn build_names_the_debian_package_of_a_missing_tool_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = retrogate()
        .env("PATH", "/nonexistent")
        .args(["build", "--design", "jr01", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("apt-get install yosys"), "{stderr}");
    assert!(!out_dir.exists());
}
