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

/// A board without the heap game is refused before anything is written, naming the boards
/// that have it, the Go Board among them.
#[test]
fn heaps_on_a_board_without_it_names_the_boards_that_have_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = retrogate()
        .current_dir(dir.path())
        .args(["build", "--board", "icestick", "--design", "heaps"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("use --board go-board or --board alchitry-cu or --board alchitry-cu-v2"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
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
