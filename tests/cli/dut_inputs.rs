//! `verify --dut` with the files and folders users have: a file name that a tool script would
//! read as commands, SystemVerilog and `` `include``, files that are not designs (empty,
//! several tops, names the bench uses, `/dev/zero`, a FIFO, a folder), a design that loops
//! (no simulation runs forever, no proof is vacuous), and current folders named `my project`,
//! `andré` and `задача`. Every test runs the built binary from a temporary current folder, as
//! a user types the command, and needs the external tools (the module is behind the
//! `external-tools` feature).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use super::retrogate;

fn run_in(dir: &Path, args: &[&str]) -> Output {
    retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every path below `dir` (files and folders), sorted.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                stack.push(path.clone());
            }
            all.push(path);
        }
    }
    all.sort();
    all
}

/// The strategy lookup for `verify sticks`'s default game that loops: `take` is its own
/// inverse, so no value satisfies it (the file).
const LOOP_DUT: &str = "module st (input wire [4:0] sticks, output reg [1:0] take, output wire \
                        winning); assign winning = 1'b0; always @* take = ~take; endmodule\n";

/// A lookup whose loop runs through two processes from a known start, so an event-driven
/// simulator never settles: Icarus stays at time 0 forever.
const SPIN_DUT: &str = "module st (input wire [4:0] sticks, output reg [1:0] take, output wire \
                        winning);\n  assign winning = 1'b0;\n  wire [1:0] inverted = ~take;\n  \
                        initial take = 2'd0;\n  always @* take = inverted;\nendmodule\n";

/// The committed J.R. 01 example, a correct `verify jr01 --dut` file.
fn jr01_student() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/jr01_student.v"))
        .unwrap()
}

/// The file: the formal level must not call the looping lookup proved. It fails,
/// exit 1, naming the loop's signals; so does the netlist equivalence.
#[test]
fn a_combinational_loop_fails_the_proof_levels_naming_the_loop() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("st.v"), LOOP_DUT).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "verify",
            "sticks",
            "--dut",
            "st.v",
            "--level",
            "formal,equivalence",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(!stdout.contains("proved st equal"), "{stdout}");
    let level = |n: u32| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("level {n} ")))
            .unwrap_or_else(|| panic!("no level {n} line in\n{stdout}"))
            .to_owned()
    };
    let formal = level(5);
    assert!(formal.contains(": FAIL ("), "{formal}");
    assert!(
        formal.contains(
            "yosys miter/sat cannot prove st equal to st_reference: combinational loops in \
             module st through take[0]; take[1] (yosys check)"
        ),
        "{formal}"
    );
    let equivalence = level(7);
    assert!(equivalence.contains(": FAIL ("), "{equivalence}");
    assert!(
        equivalence.contains("not proved equal to its RTL: combinational loop"),
        "{equivalence}"
    );
    assert!(equivalence.contains("take[0]"), "{equivalence}");
    assert!(
        stdout.ends_with("verify sticks: 0 of 2 levels pass\n"),
        "{stdout}"
    );
}

/// A loop that keeps Icarus at time 0 never reaches `$finish`: it is stopped at its limit, not
/// after 600 s, and the error says why. The limit is set to 5 s here
/// (`RETROGATE_TOOL_TIMEOUT_SECS`), so the test does not spin for the 20 s and 38 ms its 19
/// vectors get by default (that sum: `simulation_limits_grow_with_the_length` in
/// src/flow/runner.rs).
#[test]
fn a_design_that_never_finishes_simulating_is_stopped_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("st.v"), SPIN_DUT).unwrap();
    let started = Instant::now();
    let out = retrogate()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("RETROGATE_TOOL_TIMEOUT_SECS", "5")
        .current_dir(dir.path())
        .args(["verify", "sticks", "--dut", "st.v", "--level", "icarus"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    // The level's FAIL line gives the reason; the error names the level.
    let icarus = stdout
        .lines()
        .find(|l| l.contains("level 2 (Verilog under Icarus)"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(icarus.contains(": FAIL ("), "{stdout}");
    assert!(
        icarus.contains(
            "no verdict: the simulation (`vvp`) did not finish within 5 s, the limit for 19 \
             vectors, and was killed in "
        ),
        "{stdout}"
    );
    assert!(
        icarus.contains("does the design loop (a combinational loop"),
        "{stdout}"
    );
    assert!(
        stderr.contains("verification failed at: strategy level 2 (Verilog under Icarus)"),
        "{stderr}"
    );
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
}

/// A file named so that a quoted name in a yosys script would end at its `"` and run the rest
/// as commands, and a `--work` folder named the same way: the run verifies the file, and no
/// `pwned` appears anywhere. `-v` shows each tool run inside its work folder with relative
/// names, yosys reading the `--dut` text from stdin.
#[test]
fn a_file_name_is_never_read_as_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x\" ; exec -- touch pwned ; \".v";
    let work = "w\" ; exec -- touch pwned ; \"";
    std::fs::write(dir.path().join(name), jr01_student()).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "-v",
            "verify",
            "jr01",
            "--dut",
            name,
            "--work",
            work,
            "--level",
            "icarus,gate-level,formal,equivalence",
        ],
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.ends_with("verify jr01: 4 of 4 levels pass\n"),
        "{stdout}"
    );
    let pwned: Vec<PathBuf> = tree(dir.path())
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "pwned"))
        .collect();
    assert!(pwned.is_empty(), "{pwned:?}");
    assert!(!Path::new("pwned").exists() && !Path::new("/pwned").exists());
    assert!(
        stderr.contains("yosys -q -f 'verilog -sv' -p 'hierarchy -check; proc; write_json' -\n"),
        "{stderr}"
    );
    for line in stderr.lines().filter(|l| l.contains("&& yosys -s ")) {
        let script = line.rsplit("&& yosys -s ").next().unwrap();
        assert!(
            script
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)),
            "a yosys script by a plain relative name: {line}"
        );
    }
}

/// The committed `sticks_strategy` logic (for `verify sticks`'s default game) as
/// SystemVerilog (`logic` ports, `always_comb`) that takes a macro from `defs.vh`, beside it.
fn systemverilog_strategy(dir: &Path) {
    let emitted = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("hdl/sticks_strategy.v"),
    )
    .unwrap();
    let body: Vec<&str> = emitted
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("take[") || l.starts_with("winning ="))
        .collect();
    assert_eq!(body.len(), 3, "{emitted}");
    let low_zero = "~sticks[1] & ~sticks[0]";
    let body = body.join("\n        ").replace(low_zero, "`LOW_ZERO");
    assert!(body.contains("`LOW_ZERO"), "{body}");
    std::fs::write(
        dir.join("defs.vh"),
        format!("`define LOW_ZERO ({low_zero})\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("mine.sv"),
        format!(
            "module mine (\n    input  logic [4:0] sticks,\n    output logic [1:0] take,\n    \
             output logic       winning\n);\n`include \"defs.vh\"\n    always_comb begin\n        \
             {body}\n    end\nendmodule\n"
        ),
    )
    .unwrap();
}

/// SystemVerilog with an `` `include `` of a file beside it passes every level (Icarus,
/// Verilator, the gate level, the formal proof and the netlist equivalence), given from
/// another folder by a relative path.
#[test]
fn systemverilog_with_an_include_passes_every_level() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    systemverilog_strategy(&src);
    let out = run_in(
        dir.path(),
        &["verify", "sticks", "--dut", "src/mine.sv", "--work", "w"],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    for level in [2, 3, 4, 5, 7] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("level {level} ")))
            .unwrap_or_else(|| panic!("no level {level} line in\n{stdout}"));
        assert!(line.contains(": PASS ("), "{line}");
    }
    assert!(
        stdout.ends_with("verify sticks: 5 of 5 levels pass\n"),
        "{stdout}"
    );
    // Each level read the text with the include in place.
    let read = std::fs::read_to_string(dir.path().join("w/sticks/formal/mine.v")).unwrap();
    assert!(
        read.contains("`line 1 \"defs.vh\" 1\n`define LOW_ZERO"),
        "{read}"
    );
    // A broken header is named by its own file and line.
    std::fs::write(src.join("defs.vh"), "`define LOW_ZERO (~sticks[1] &)\n").unwrap();
    let out = run_in(dir.path(), &["verify", "sticks", "--dut", "src/mine.sv"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--dut src/mine.sv: yosys cannot read it"),
        "{stderr}"
    );
}

/// Files that are not one design are refused with exit 2 before anything is written, the
/// message naming the flag and the fix; a FIFO and `/dev/zero` are not read (no hang).
#[test]
fn files_that_are_not_one_design_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path();
    std::fs::write(here.join("empty.v"), "").unwrap();
    std::fs::write(
        here.join("two.v"),
        "module a (input a, input b, input c, output x, output y, output z);\n\
         assign {x, y, z} = {a, b, c}; endmodule\n\
         module b (input a, input b, input c, output x, output y, output z);\n\
         assign {x, y, z} = {c, b, a}; endmodule\n",
    )
    .unwrap();
    // The user's own testbench, under the name the bench gives its own.
    std::fs::write(
        here.join("clash.v"),
        format!(
            "{}\nmodule jr01_student_tb;\n    reg a, b, c;\n    wire x, y, z;\n    \
             jr01_student dut(.a(a), .b(b), .c(c), .x(x), .y(y), .z(z));\nendmodule\n",
            jr01_student()
        ),
    )
    .unwrap();
    std::fs::create_dir(here.join("folder.v")).unwrap();
    let fifo = here.join("fifo.v");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let before = tree(here);
    for (args, says) in [
        (
            &["empty.v"][..],
            "--dut empty.v: the file is empty; give a Verilog file with the design's module",
        ),
        (
            &["two.v"][..],
            "--dut two.v: it has 2 top-level modules (a, b), so which one is the design is not \
             clear; name it with --top (e.g. --top a)",
        ),
        (
            &["clash.v", "--top", "jr01_student"][..],
            "--dut clash.v: module `jr01_student_tb` has the name of the testbench of \
             `jr01_student` (levels 2 to 4), which the bench adds beside your design; rename \
             that module",
        ),
        (
            &["/dev/zero"][..],
            "--dut /dev/zero: a character device, not a Verilog file; give the path of a \
             regular `.v` or `.sv` file",
        ),
        (
            &["fifo.v"][..],
            "--dut fifo.v: a FIFO (named pipe), not a Verilog file",
        ),
        (
            &["folder.v"][..],
            "--dut folder.v: a folder, not a Verilog file",
        ),
    ] {
        let started = Instant::now();
        let dut = args[0];
        let mut command = vec!["verify", "jr01", "--dut"];
        command.extend(args);
        let out = run_in(here, &command);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{dut}: {stderr}");
        assert!(stderr.contains(says), "{dut}: {stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{dut}: not read"
        );
        assert_eq!(tree(here), before, "{dut}: nothing written");
    }
    // With --top the two-module file is read.
    let out = run_in(
        here,
        &[
            "verify", "jr01", "--dut", "two.v", "--top", "b", "--level", "formal",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("verify jr01 --dut two.v: module b against the solver's table"),
        "{stdout}\n{}",
        text(&out.stderr)
    );
}

/// `verify jr01` from current folders named `my project` and `andré/задача`, with the default
/// `--work` and a relative one below a space: Icarus and Verilator pass (GNU make cannot build
/// Verilator's model below a space, Icarus could not open its vector file below non-ASCII
/// letters). Three Verilator builds: in place below non-ASCII letters, in a temporary folder
/// below a space (none is left behind).
#[test]
fn verify_runs_from_folders_users_have() {
    let root = tempfile::tempdir().unwrap();
    for (here, work) in [
        ("my project", None),
        ("andré/задача", None),
        ("andré/задача", Some("../../my project/w")),
    ] {
        let folder = root.path().join(here);
        std::fs::create_dir_all(&folder).unwrap();
        let mut args = vec!["verify", "jr01", "--level", "icarus,verilator"];
        if let Some(w) = work {
            args.extend(["--work", w]);
        }
        let out = run_in(&folder, &args);
        let stdout = text(&out.stdout);
        assert!(
            out.status.success(),
            "{here} {work:?}: {stdout}\n{}",
            text(&out.stderr)
        );
        for level in [2, 3] {
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with(&format!("level {level} "))
                        && l.contains(": PASS (8 vectors")),
                "{here} {work:?}: level {level}: {stdout}"
            );
        }
        let jr01 = folder.join(work.unwrap_or("build/verify")).join("jr01");
        assert!(
            jr01.join("verilator/obj_jr01_strategy_tb/jr01_strategy_tb")
                .is_file(),
            "{here} {work:?}: the simulator is in the work folder"
        );
        assert!(jr01.join("icarus/jr01_strategy_tb.vcd").is_file());
    }
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("retrogate-verilator-jr01_strategy_tb-")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
