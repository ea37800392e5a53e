//! Netlist equivalence with yosys's `equiv_*` passes, in the manner of eqy: the RTL (gold)
//! and the `synth_ice40` netlist (gate, with the iCE40 cells' own simulation models from
//! yosys's `ice40/cells_sim.v`, not blackboxes) are paired signal by signal by name
//! (`equiv_make`), then proved with `equiv_simple -seq` and `equiv_induct -seq` (the
//! induction step over the paired signals), and `equiv_status` counts what is left; the base
//! case from the initial state, which those passes leave out, is checked by [`base_case`], so
//! a proved netlist equals its RTL on every input sequence from power-on.
//!
//! A pairing of two internal signals that only agree where it matters (a flip-flop's `d`
//! input, which synthesis may change where the enable is low) is not provable on its own and
//! would leave the proof open; such internal names are excluded (`equiv_make -blacklist`) and
//! the proof rerun, a few rounds at most. A name that synthesis left partly undriven on one
//! side (an `x` constant, such as a register bit the netlist never needed) cannot be paired
//! either, and can leave the induction no state to start from (yosys: "Circuit inherently
//! diverges"); then those names are excluded first, alone, before any other. The top's outputs
//! (and a cut RAM's inputs, see below) are never excluded: the proof holds when every output
//! is proved.
//!
//! The pads: an `SB_IO` with `PIN_TYPE` 6'b101001 (the pull-down emulation's, output driven
//! under `OUTPUT_ENABLE`, plain input) is modelled on both sides by [`PAD_MODEL`], which reads
//! the pin as a free input when released and its own drive when driving, and every `inout`
//! port is read as an `input`. yosys's own model drives the pin with `1'bz` when released and
//! reads that back, so what a switch sets never reaches the design and a netlist that reads
//! the wrong pin would still be "proved".
//!
//! The block RAMs: `equiv_make` pairs no memories, so a netlist with `SB_RAM40_4K` (the
//! on-chip solver's table) is proved with the RAM cut out of both sides. The RTL's memories
//! are mapped to `SB_RAM40_4K` by the passes `synth_ice40` maps them with (`opt -nodffe
//! -nosdff`, `memory -nomap`, `memory_libmap` with yosys's `ice40/brams.txt`, `techmap` with
//! `ice40/brams_map.v`), so both sides hold the same RAM under the same instance name; both
//! read [`RAM_MODEL`] for it, which passes what the RAM reads of each input (the write
//! address, data and mask only while writing, the read address only while reading, the
//! enables, clocks and modes) to a blackbox, `retrogate_ram_cut`, and takes the read data
//! from it; `expose -evert` then turns the blackbox's inputs into outputs of the design and
//! its read data into an input. The proof pairs those outputs like the top's own (never
//! excluded) and feeds both sides the same read data. That is sound: two RAMs with the same
//! modes and no initial contents (the model refuses any other, naming why) that see the same
//! enabled writes and reads on every cycle hold the same words and read the same data, so if
//! the two sides agree for every read data, as proved, they agree with their RAMs in place.
//! What it trusts beyond the other proofs is yosys's mapping of the RTL's memory (the gold
//! side is that mapping, not the `$mem` cell), which synthesis runs too; a netlist whose RAM
//! yosys would map differently, or names differently, is not proved (its cut outputs or
//! read data do not pair), never wrongly proved.
//!
//! Both sides are checked for combinational loops (yosys `check`, after flattening) before
//! anything is proved: over a loop every pairing holds vacuously, so a looping design gets no
//! proof but [`NetlistEquivalence::Vacuous`], naming the loop's signals.
//!
//! When the proof is not reached, [`search_counterexample`] looks for a run that tells the two
//! apart: a miter of RTL and netlist (`miter -equiv`), searched by bounded model checking from
//! the initial state (`sat -tempinduct-baseonly`).

use std::path::{Path, PathBuf};

use super::abc::{self, Verdict};
use super::runner::{write_file, Tool, ToolError};
use super::script;
use super::yosys::{self, Vacuity};

/// Rounds of excluding unprovable internal pairings before giving up.
const ROUNDS: usize = 6;

/// The `SB_IO` model both sides of the proof use (see the module docs). Any other `PIN_TYPE`
/// but the default (whose `D_IN_0` reads `x`) stops the proof at `hierarchy -check` with a
/// module name that says why.
pub const PAD_MODEL: &str = "\
// retrogate: SB_IO as the netlist equivalence proof models it (PIN_TYPE 6'b101001 only):
// the pin is an input the world sets; a driven pad reads back its own drive.
module SB_IO (
    input PACKAGE_PIN,
    input LATCH_INPUT_VALUE,
    input CLOCK_ENABLE,
    input INPUT_CLK,
    input OUTPUT_CLK,
    input OUTPUT_ENABLE,
    input D_OUT_0,
    input D_OUT_1,
    output D_IN_0,
    output D_IN_1
);
    parameter [5:0] PIN_TYPE = 6'b000000;
    parameter [0:0] PULLUP = 1'b0;
    parameter [0:0] NEG_TRIGGER = 1'b0;
    parameter IO_STANDARD = \"SB_LVCMOS\";
    assign D_IN_1 = 1'bx;
    generate if (PIN_TYPE == 6'b101001) begin
        assign D_IN_0 = OUTPUT_ENABLE ? D_OUT_0 : PACKAGE_PIN;
    end else if (PIN_TYPE == 6'b000000) begin
        // The module itself, elaborated with the default before any instance.
        assign D_IN_0 = 1'bx;
    end else begin
        retrogate_equivalence_models_SB_IO_PIN_TYPE_101001_only unsupported ();
    end endgenerate
endmodule
";

/// The instance name of the blackbox [`RAM_MODEL`] cuts each `SB_RAM40_4K` at: its ports
/// (`<ram>.<generate block>.retrogate_cut.<port>`) are the outputs and the input the proof
/// adds to both sides.
pub const RAM_CUT: &str = "retrogate_cut";

/// The file [`RAM_MODEL`] is written to in the proof's folder.
const RAM_MODEL_FILE: &str = "ice40_ram_cut.v";

/// The `SB_RAM40_4K` both sides of the proof use (see the module docs): a cut at a blackbox,
/// for a RAM without initial contents only (any other stops the proof at `hierarchy -check`
/// with a module name that says why). The read data is an input both sides share; the RAM's
/// inputs, each where the RAM reads it, are outputs the proof shows equal.
pub const RAM_MODEL: &str = "\
// retrogate: SB_RAM40_4K as the netlist equivalence proof models it (no initial contents
// only): a cut. What the RAM reads of its inputs (the write address, data and mask only while
// writing, the read address only while reading) goes to the blackbox retrogate_ram_cut, whose
// inputs become outputs of the design and whose read data an input of it.
module SB_RAM40_4K (
    output [15:0] RDATA,
    input RCLK,
    input RCLKE,
    input RE,
    input [10:0] RADDR,
    input WCLK,
    input WCLKE,
    input WE,
    input [10:0] WADDR,
    input [15:0] MASK,
    input [15:0] WDATA
);
    parameter WRITE_MODE = 0;
    parameter READ_MODE = 0;
    parameter INIT_0 = 256'bx;
    parameter INIT_1 = 256'bx;
    parameter INIT_2 = 256'bx;
    parameter INIT_3 = 256'bx;
    parameter INIT_4 = 256'bx;
    parameter INIT_5 = 256'bx;
    parameter INIT_6 = 256'bx;
    parameter INIT_7 = 256'bx;
    parameter INIT_8 = 256'bx;
    parameter INIT_9 = 256'bx;
    parameter INIT_A = 256'bx;
    parameter INIT_B = 256'bx;
    parameter INIT_C = 256'bx;
    parameter INIT_D = 256'bx;
    parameter INIT_E = 256'bx;
    parameter INIT_F = 256'bx;
    parameter INIT_FILE = \"\";
    wire write = WCLKE & WE;
    wire read = RCLKE & RE;
    generate if ({INIT_F, INIT_E, INIT_D, INIT_C, INIT_B, INIT_A, INIT_9, INIT_8, INIT_7, INIT_6,
            INIT_5, INIT_4, INIT_3, INIT_2, INIT_1, INIT_0} === {4096{1'bx}} && INIT_FILE == \"\") begin
        retrogate_ram_cut retrogate_cut (
            .RDATA(RDATA), .RCLK(RCLK), .WCLK(WCLK), .READ(read), .WRITE(write),
            .READ_MODE(READ_MODE[1:0]), .WRITE_MODE(WRITE_MODE[1:0]),
            .RADDR(read ? RADDR : 11'd0), .WADDR(write ? WADDR : 11'd0),
            .WDATA(write ? WDATA : 16'd0), .MASK(write && WRITE_MODE == 0 ? MASK : 16'd0)
        );
    end else begin
        retrogate_equivalence_models_SB_RAM40_4K_without_initial_contents_only unsupported ();
    end endgenerate
endmodule

(* blackbox *)
module retrogate_ram_cut (
    output [15:0] RDATA,
    input RCLK,
    input WCLK,
    input READ,
    input WRITE,
    input [1:0] READ_MODE,
    input [1:0] WRITE_MODE,
    input [10:0] RADDR,
    input [10:0] WADDR,
    input [15:0] WDATA,
    input [15:0] MASK
);
endmodule
";

/// The yosys commands that map the RTL's memories to `SB_RAM40_4K` as `synth_ice40` does
/// (its `coarse` passes that shape a memory's ports, then its `map_ram`), read [`RAM_MODEL`]
/// (`ram`) and cut every RAM (see the module docs).
fn map_rams(top: &str, ram: &str) -> String {
    format!(
        "opt_expr\nopt_clean\nopt -nodffe -nosdff\nmemory_dff\nmemory -nomap\nopt_clean\n\
         memory_libmap -lib +/ice40/brams.txt -lib +/ice40/spram.txt -no-auto-huge\n\
         techmap -map +/ice40/brams_map.v -map +/ice40/spram_map.v\n\
         read_verilog -overwrite -D NO_ICE40_DEFAULT_ASSIGNMENTS {ram}\n\
         hierarchy -check -top {top}\nflatten\n{cut}",
        cut = cut_rams(),
    )
}

/// The yosys command that turns each RAM's cut (see [`RAM_MODEL`]) into ports.
fn cut_rams() -> String {
    "expose -evert t:retrogate_ram_cut\n".to_owned()
}

/// The outcome of [`prove_netlist`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetlistEquivalence {
    /// Every paired signal, every output among them, is proved equal.
    Proved {
        /// How many `$equiv` cells were proved.
        cells: usize,
        /// Internal signals left unpaired.
        excluded: Vec<String>,
    },
    /// Outputs (or, after the last round, internal signals) the proof could not show equal.
    Unproven {
        /// Their names (`remaining [2]`).
        signals: Vec<String>,
    },
    /// No proof was tried: the RTL or the netlist has a combinational loop, over which every
    /// pairing would hold vacuously.
    Vacuous(Vacuity),
}

/// Verilog `sources` as the proof reads them: each file with an `inout` port declaration
/// is copied into `dir` as `<step>_<n>.v` with those ports declared `input` (the pads are
/// modelled by [`PAD_MODEL`], which only reads the pin), and so is each file outside `dir`
/// (unchanged: a script names only files in its folder, see [`script`]); the others are used
/// as they are.
pub fn pins_as_inputs(
    dir: &Path,
    sources: &[PathBuf],
    step: &str,
) -> Result<Vec<PathBuf>, ToolError> {
    let mut read = Vec::with_capacity(sources.len());
    for (n, path) in sources.iter().enumerate() {
        let text = std::fs::read_to_string(path).map_err(|err| {
            ToolError::io(Tool::Yosys, format!("reading {}", path.display()), dir, err)
        })?;
        match inout_as_input(&text) {
            Some(copy) => read.push(write_file(
                Tool::Yosys,
                dir,
                &format!("{step}_{n}.v"),
                &copy,
            )?),
            None if script::file(Tool::Yosys, dir, path).is_err() => {
                read.push(write_file(
                    Tool::Yosys,
                    dir,
                    &format!("{step}_{n}.v"),
                    &text,
                )?);
            }
            None => read.push(path.clone()),
        }
    }
    Ok(read)
}

/// `text` with each `inout` port declaration (a line starting with `inout`) declared
/// `input`, or `None` when it has none.
fn inout_as_input(text: &str) -> Option<String> {
    let mut changed = false;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let body = line.trim_start();
        match body.strip_prefix("inout") {
            Some(rest) if rest.starts_with(char::is_whitespace) => {
                changed = true;
                out.push_str(&line[..line.len() - body.len()]);
                out.push_str("input");
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    changed.then_some(out)
}

/// The yosys commands that load the RTL as module `gold` and the netlist as `gate`, both
/// flattened with the cell models `cells`, each checked for combinational loops after
/// flattening ([`yosys::CHECK_COMMANDS`]: a loop would make every pairing hold vacuously).
/// When the netlist has block RAMs, the RTL's memories are mapped to them and every RAM is cut
/// on both sides ([`RAM_MODEL`], written to the folder). Every file is named relative to
/// `dir` ([`script::file`]); the RTL is read with `-sv`.
fn load_script(
    dir: &Path,
    cells: &Path,
    rtl: &[PathBuf],
    netlist: &Path,
    top: &str,
) -> Result<String, ToolError> {
    script::module(Tool::Yosys, top)?;
    let reads = yosys::read_sources(dir, rtl, "")?;
    let cells = script::file(Tool::Yosys, dir, cells)?;
    let has_rams = has_rams(dir, netlist)?;
    let netlist = script::file(Tool::Yosys, dir, netlist)?;
    let check = yosys::CHECK_COMMANDS;
    let (ram_read, gold_rams, gate_rams) = if has_rams {
        let ram = write_file(Tool::Yosys, dir, RAM_MODEL_FILE, RAM_MODEL)?;
        let ram = script::file(Tool::Yosys, dir, &ram)?;
        (
            format!("read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS {ram}\n"),
            map_rams(top, &ram),
            cut_rams(),
        )
    } else {
        (String::new(), String::new(), String::new())
    };
    Ok(format!(
        "read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS {cells}\n{ram_read}\
         {reads}hierarchy -check -top {top}\nproc -norom\nflatten\n{check}{gold_rams}\
         {SIMPLIFY}rename {top} gold\n\
         design -stash gold\n\
         read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS {cells}\n{ram_read}\
         read_verilog {netlist}\nhierarchy -check -top {top}\nproc\nflatten\n{check}{gate_rams}\
         {SIMPLIFY}rename {top} gate\ndesign -stash gate\n\
         design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n",
    ))
}

/// Loads both sides once ([`load_script`], in `<step>_load.ys`) and writes them as RTLIL
/// (`<step>_loaded.il`), which every round of [`prove_netlist`] and its base case read instead
/// of loading both sides again. Returns the command that reads it, and the load's output
/// (with its check for combinational loops). On the iCEstick's solver top (2026-12-05), the
/// load took 1.7 s of a round's 3.2 s, and a round on the loaded design 1.3 s.
fn load_once(
    dir: &Path,
    cells: &Path,
    rtl: &[PathBuf],
    netlist: &Path,
    top: &str,
    step: &str,
) -> Result<(String, super::runner::ToolOutput), ToolError> {
    let loaded = format!("{step}_loaded.il");
    let script = format!(
        "{load}write_rtlil {loaded}\n",
        load = load_script(dir, cells, rtl, netlist, top)?
    );
    let out = yosys::run_script_cached(dir, &format!("{step}_load"), &script, &[&loaded])?;
    Ok((format!("read_rtlil {loaded}\n"), out))
}

/// The clean-up both sides get once loaded (after the RAMs are mapped and cut): yosys's fast
/// `opt` with don't-care bits kept (`-keepdc`, as eqy's `prep` keeps them), so constant LUT
/// inputs and duplicate cells of the flattened cell models are folded before the induction.
/// On the Alchitry Cu's heaps top, the last round of the proof took 46 s with it and 58 s
/// without (2026-12-04).
const SIMPLIFY: &str = "opt -fast -keepdc\n";

/// Whether `netlist` instantiates block RAM (`SB_RAM40_4K`), which the proof cuts out.
fn has_rams(dir: &Path, netlist: &Path) -> Result<bool, ToolError> {
    std::fs::read_to_string(netlist)
        .map(|text| text.contains("SB_RAM40_4K"))
        .map_err(|err| {
            ToolError::io(
                Tool::Yosys,
                format!("reading {}", netlist.display()),
                dir,
                err,
            )
        })
}

/// A behavioural model of the iCE40 PLL `SB_PLL40_CORE`, for simulation and the netlist
/// equivalence (yosys's `ice40/cells_sim.v` has it only as a blackbox): the output clock is the
/// reference clock itself (one simulated cycle per design cycle; the frequency does not change
/// the logic), and `LOCK` rises after [`PLL_LOCK_CYCLES`](crate::circuit::top::PLL_LOCK_CYCLES)
/// reference clock cycles (3), as the board tops' Rust model has it. Same ports and
/// parameters as the blackbox.
pub const PLL_MODEL: &str = "\
// Behavioural model of SB_PLL40_CORE (retrogate, for simulation): clock passthrough, LOCK
// after 3 reference clock cycles.
module SB_PLL40_CORE (
\tinput   REFERENCECLK,
\toutput  PLLOUTCORE,
\toutput  PLLOUTGLOBAL,
\tinput   EXTFEEDBACK,
\tinput   [7:0] DYNAMICDELAY,
\toutput  LOCK,
\tinput   BYPASS,
\tinput   RESETB,
\tinput   LATCHINPUTVALUE,
\toutput  SDO,
\tinput   SDI,
\tinput   SCLK
);
\tparameter FEEDBACK_PATH = \"SIMPLE\";
\tparameter DELAY_ADJUSTMENT_MODE_FEEDBACK = \"FIXED\";
\tparameter DELAY_ADJUSTMENT_MODE_RELATIVE = \"FIXED\";
\tparameter SHIFTREG_DIV_MODE = 1'b0;
\tparameter FDA_FEEDBACK = 4'b0000;
\tparameter FDA_RELATIVE = 4'b0000;
\tparameter PLLOUT_SELECT = \"GENCLK\";
\tparameter DIVR = 4'b0000;
\tparameter DIVF = 7'b0000000;
\tparameter DIVQ = 3'b000;
\tparameter FILTER_RANGE = 3'b000;
\tparameter ENABLE_ICEGATE = 1'b0;
\tparameter TEST_MODE = 1'b0;
\tparameter EXTERNAL_DIVIDE_FACTOR = 1;
\treg [1:0] cycles = 2'd0;
\tassign PLLOUTCORE = REFERENCECLK;
\tassign PLLOUTGLOBAL = REFERENCECLK;
\tassign LOCK = cycles == 2'd3;
\tassign SDO = 1'b0;
\talways @(posedge REFERENCECLK)
\t\tif (!LOCK) cycles <= cycles + 2'd1;
endmodule
";

/// The iCE40 cells' models that `PLL_MODEL` replaces (yosys's blackboxes).
const MODELLED: &str = "SB_PLL40_CORE";

/// `cells_sim` (the text of yosys's `ice40/cells_sim.v`) with the blackbox of
/// `SB_PLL40_CORE` (and its `(* blackbox *)` attribute) replaced by [`PLL_MODEL`].
pub fn with_pll_model(cells_sim: &str) -> String {
    let mut text = String::with_capacity(cells_sim.len() + PLL_MODEL.len());
    let mut lines = cells_sim.lines().peekable();
    let mut skipping = false;
    while let Some(line) = lines.next() {
        let next_is_pll = lines
            .peek()
            .is_some_and(|l| l.starts_with(&format!("module {MODELLED} ")));
        if line.trim() == "(* blackbox *)" && next_is_pll {
            continue;
        }
        if line.starts_with(&format!("module {MODELLED} ")) {
            skipping = true;
            text.push_str(PLL_MODEL);
            continue;
        }
        if skipping {
            skipping = !line.starts_with("endmodule");
            continue;
        }
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Writes `dir/ice40_cells_sim.v`: yosys's `ice40/cells_sim.v` with [`PLL_MODEL`] in place of
/// the PLL's blackbox, for simulations of whole board tops (which may instantiate `SB_IO`s and
/// a PLL).
pub fn ice40_sim_models(dir: &Path) -> Result<PathBuf, ToolError> {
    let sim = super::yosys::ice40_cells_sim(dir)?;
    let models = std::fs::read_to_string(&sim).map_err(|err| {
        ToolError::io(Tool::Yosys, format!("reading {}", sim.display()), dir, err)
    })?;
    write_file(
        Tool::Yosys,
        dir,
        "ice40_cells_sim.v",
        &with_pll_model(&models),
    )
}

/// What [`cell_models`] gives for the block RAM `SB_RAM40_4K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockRam {
    /// Nothing: the equivalence proof reads [`RAM_MODEL`] on its own and cuts each RAM out.
    Cut,
    /// yosys's simulation model, for a simulation that runs the RAM.
    Simulated,
}

/// Writes `dir/<name>` holding the models of exactly the iCE40 cells `netlists` instantiate
/// (the RTL of a board top may instantiate some itself),
/// taken from yosys's `ice40/cells_sim.v` (its macro prelude and those modules, unchanged),
/// except `SB_IO`, which is [`PAD_MODEL`], and `SB_RAM40_4K`, which is yosys's model or left
/// out ([`BlockRam`]): reading the whole file costs minutes of parsing for cells the netlist
/// never uses.
pub fn cell_models(
    dir: &Path,
    netlists: &[PathBuf],
    name: &str,
    ram: BlockRam,
) -> Result<PathBuf, ToolError> {
    let sim = super::yosys::ice40_cells_sim(dir)?;
    let read = |path: &Path| {
        std::fs::read_to_string(path).map_err(|err| {
            ToolError::io(Tool::Yosys, format!("reading {}", path.display()), dir, err)
        })
    };
    let models = with_pll_model(&read(&sim)?);
    let mut used = std::collections::BTreeSet::new();
    for netlist in netlists {
        used.extend(
            read(netlist)?
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .filter(|w| w.starts_with("SB_"))
                .map(str::to_owned),
        );
    }
    let mut text = String::new();
    let mut in_module = false;
    let mut keep = true;
    for line in models.lines() {
        if !in_module {
            if let Some(rest) = line.strip_prefix("module ") {
                in_module = true;
                let module = rest
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default();
                keep = used.contains(module)
                    && module != "SB_IO"
                    && (module != "SB_RAM40_4K" || ram == BlockRam::Simulated);
            }
        }
        if keep {
            text.push_str(line);
            text.push('\n');
        }
        if in_module && line.starts_with("endmodule") {
            in_module = false;
            keep = false;
        }
    }
    if used.contains("SB_IO") {
        text.push_str(PAD_MODEL);
    }
    write_file(Tool::Yosys, dir, name, &text)
}

/// Prove that `netlist` (with the cell models `cells`) equals the RTL `rtl`, both with top
/// module `top`, whose output ports are `outputs` (a cut RAM's inputs count as outputs too,
/// see [`RAM_MODEL`]). Leaves `<step>_load.ys` and `<step>_loaded.il` (both sides loaded
/// once, [`load_once`]), and `<step>_<round>.ys`, `<step>_<round>.log` per round.
/// `rtl` and `netlist` are read as they are: pass them through [`pins_as_inputs`] first.
pub fn prove_netlist(
    dir: &Path,
    rtl: &[PathBuf],
    netlist: &Path,
    cells: &Path,
    top: &str,
    outputs: &[String],
    step: &str,
) -> Result<NetlistEquivalence, ToolError> {
    let mut excluded: Vec<String> = Vec::new();
    let mut unproven = Vec::new();
    let cut = format!(".{RAM_CUT}.");
    let is_output = |s: &String| {
        let wire = s.split(' ').next().unwrap_or(s);
        outputs.iter().any(|o| o == wire) || wire.contains(&cut)
    };
    let (load, loaded) = load_once(dir, cells, rtl, netlist, top, step)?;
    if let Some(vacuity) = yosys::loops(&loaded.stdout) {
        return Ok(NetlistEquivalence::Vacuous(vacuity));
    }
    for round in 0..ROUNDS {
        let blacklist = format!("{step}_excluded.txt");
        write_file(Tool::Yosys, dir, &blacklist, &lines(&excluded))?;
        let script = format!(
            "{load}equiv_make -blacklist {blacklist} gold gate equiv\nhierarchy -top equiv\n\
             async2sync\nequiv_simple -seq {INDUCTION_DEPTH}\nequiv_induct -seq {INDUCTION_DEPTH}\n\
             equiv_status\n",
        );
        let name = format!("{step}_{round}");
        let out = super::yosys::run_script_cached(dir, &name, &script, &[])?;
        let (total, open) =
            parse_status(&out.stdout).ok_or_else(|| out.unexpected("no `equiv_status` summary"))?;
        if open.is_empty() {
            if !base_case(dir, &load, &blacklist, step)? {
                return Ok(NetlistEquivalence::Unproven {
                    signals: vec![format!(
                        "a paired signal in the first {BASE_CYCLES} cycles from the initial \
                         state"
                    )],
                });
            }
            return Ok(NetlistEquivalence::Proved {
                cells: total,
                excluded,
            });
        }
        unproven = open;
        // When the induction found no state where every pairing holds, the pairings with an
        // `x` side go first, and alone (excluding them when the induction ran would also
        // drop the good bits of their wires, which it may need).
        let undefined: Vec<String> = if out.stdout.contains("Circuit inherently diverges") {
            undefined_pairings(&out.stdout)
                .into_iter()
                .filter(|w| !is_output(w) && !excluded.contains(w))
                .collect()
        } else {
            Vec::new()
        };
        if !undefined.is_empty() {
            excluded.extend(undefined);
            continue;
        }
        let internal: Vec<String> = unproven.iter().filter(|s| !is_output(s)).cloned().collect();
        if internal.is_empty() {
            return Ok(NetlistEquivalence::Unproven { signals: unproven });
        }
        for s in internal {
            let wire = s.split(' ').next().unwrap_or(&s).to_owned();
            if !excluded.contains(&wire) {
                excluded.push(wire);
            }
        }
    }
    Ok(NetlistEquivalence::Unproven { signals: unproven })
}

/// `equiv_induct -seq` depth: the induction assumes the paired signals agree on this many
/// consecutive cycles.
pub const INDUCTION_DEPTH: usize = 5;

/// Cycles from the initial state [`base_case`] checks: more than [`INDUCTION_DEPTH`].
pub const BASE_CYCLES: usize = INDUCTION_DEPTH + 1;

/// The base case the `equiv_*` passes leave out: `equiv_induct` proves only that once every
/// paired signal agrees on [`INDUCTION_DEPTH`] consecutive cycles they agree forever (its own
/// help calls it "a weak definition of equivalence"), and no pass looks at initial values. So
/// the same pairing (the blacklist file `blacklist`) is checked from the initial state, by
/// bounded model checking over [`BASE_CYCLES`] cycles: `zinit` first makes every flip-flop's
/// initial value 0 on both sides (with inverters where it was 1), since `equiv_make` does not
/// keep the RTL's initial values; then `equiv_miter -trigger` builds the miter, written as
/// AIGER ([`BASE_AIGER`]) in `<step>_base.ys`, and ABC's `bmc3` checks that its trigger stays
/// low for [`BASE_CYCLES`] frames (`<step>_base_bmc.abc`; `dsat` for any input when the miter
/// has no flip-flops, where every frame is the same). True when every paired signal
/// agrees on every cycle of it, so that with the induction the proof holds on every input
/// sequence from power-on. (yosys's `sat -seq -prove trigger 0 -set-init-zero` checked the
/// same miter in its place until 2026-12-05, with the same verdicts on every netlist test: it took 17.7 s on the
/// heap solver's netlist at T = 20, where the AIGER and `bmc3` take 2.2 s.)
fn base_case(dir: &Path, load: &str, blacklist: &str, step: &str) -> Result<bool, ToolError> {
    let aig = format!("{step}_base.aig");
    let script = format!(
        "{load}zinit gold gate\nequiv_make -blacklist {blacklist} gold gate equiv\n\
         hierarchy -top equiv\nasync2sync\nequiv_miter -trigger base equiv\n\
         hierarchy -top base\n{BASE_AIGER}write_aiger -zinit {aig}\n",
    );
    let out = yosys::run_script_cached(dir, &format!("{step}_base"), &script, &[&aig])?;
    let aig = out.expect_file(dir.join(&aig))?;
    let name = format!("{step}_base_bmc");
    let run = if abc::registers(&aig)? == 0 {
        abc::dsat(dir, &aig, &name)?
    } else {
        abc::bmc3(dir, &aig, BASE_CYCLES as u64, &name)?
    };
    match run.verdict {
        Verdict::HoldsFor { .. } | Verdict::Proved => Ok(true),
        Verdict::Failed { .. } => Ok(false),
        Verdict::Undecided { reason } => Err(ToolError::UnexpectedOutput {
            tool: Tool::YosysAbc.to_string(),
            detail: format!("no verdict on the base case: {reason}"),
            log: run.log.display().to_string(),
        }),
    }
}

/// The yosys commands that turn the base case's miter `base` into what `sat -seq -prove
/// trigger 0 -set-init-zero` checked (yosys's `satgen`): each `$equiv` cell a buffer of its
/// gold side (`equiv_remove -gold`), the trigger its only output, every `x` constant and
/// initial value 0 (`setundef -init -zero`), and every undriven net free on every cycle
/// (`setundef -undriven -anyseq`); then mapped to an and-inverter graph.
const BASE_AIGER: &str = "equiv_remove -gold\ndelete -port o:* o:trigger %d\ndffunmap\n\
                          setundef -init -zero\nsetundef -undriven -anyseq\ntechmap\n\
                          dffunmap\naigmap\nopt_clean\n";

/// The names `equiv_make` paired although one side has an `x` constant bit, from its log
/// lines `Presumably equivalent wires: <name>_gold (<sig>), <name>_gate (<sig>) -> <name>`.
fn undefined_pairings(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|l| l.trim().strip_prefix("Presumably equivalent wires: "))
        .filter_map(|l| l.rsplit_once(" -> "))
        .filter(|(sides, _)| has_undefined_constant(sides))
        .map(|(_, name)| name.trim().to_owned())
        .collect()
}

/// Whether a yosys signal text holds a constant with an `x` bit (`1'x`, `7'xxxxxxx`, `2'x0`).
fn has_undefined_constant(sig: &str) -> bool {
    sig.split('\'').skip(1).any(|after| {
        after
            .chars()
            .take_while(|c| matches!(c, '0' | '1' | 'x' | 'z'))
            .any(|c| c == 'x')
    })
}

/// Cycles [`search_counterexample`] searches from the initial state.
pub const SEARCH_DEPTH: usize = 32;

/// Looks for a run from the initial state, at most `depth` cycles long, on which an output of
/// the RTL and of the netlist differ: a miter (`miter -equiv -flatten -make_outputs
/// -ignore_gold_x`, where an `x` of the RTL matches anything) searched with `sat
/// -tempinduct -tempinduct-baseonly`. Returns yosys's VCD of the run (`<step>.vcd`: the
/// miter's `in_<input>`, `gold_<output>` and `gate_<output>` per step, `trigger` high where
/// they differ), or `None` when there is no such run that short.
pub fn search_counterexample(
    dir: &Path,
    rtl: &[PathBuf],
    netlist: &Path,
    cells: &Path,
    top: &str,
    depth: usize,
    step: &str,
) -> Result<Option<PathBuf>, ToolError> {
    let vcd = dir.join(format!("{step}.vcd"));
    if vcd.exists() {
        std::fs::remove_file(&vcd).map_err(|err| {
            ToolError::io(Tool::Yosys, format!("removing {}", vcd.display()), dir, err)
        })?;
    }
    let script = format!(
        "{load}miter -equiv -flatten -make_outputs -ignore_gold_x gold gate miter\n\
         hierarchy -top miter\nasync2sync\n\
         sat -tempinduct -tempinduct-baseonly -maxsteps {depth} -prove trigger 0 \
         -set-init-zero -show-ports -dump_vcd {step}.vcd miter\n",
        load = load_script(dir, cells, rtl, netlist, top)?,
    );
    let out = super::yosys::run_script(dir, step, &script)?;
    if out.stdout.contains("model found for base case: FAIL!") && vcd.is_file() {
        Ok(Some(vcd))
    } else if out.stdout.contains("proved base case for") {
        Ok(None)
    } else {
        Err(out.unexpected("no verdict from `sat` on the miter"))
    }
}

fn lines(names: &[String]) -> String {
    names.iter().map(|n| format!("{n}\n")).collect()
}

/// `(cells, unproven signals)` from `equiv_status`: `Found N $equiv cells` and the lines
/// `Unproven $equiv <cell>: \<wire>_gold [bit] \<wire>_gate [bit]`.
fn parse_status(log: &str) -> Option<(usize, Vec<String>)> {
    let section = log.rsplit("Executing EQUIV_STATUS pass").next()?;
    let total = section.lines().find_map(|l| {
        l.trim()
            .strip_prefix("Found ")
            .and_then(|r| r.strip_suffix(" $equiv cells in equiv:"))
            .and_then(|n| n.parse().ok())
    });
    let total = match total {
        Some(n) => n,
        None if section.contains("No $equiv cells found") => 0,
        None => return None,
    };
    let open = section
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Unproven $equiv "))
        .filter_map(|r| r.split_once(": ").map(|(_, sig)| sig))
        .map(|sig| {
            // `\remaining_gold [2] \remaining_gate [2]` or `\x_gold \x_gate`.
            let gold = sig.split(" \\").next().unwrap_or(sig);
            let gold = gold.trim_start_matches('\\');
            match gold.split_once(' ') {
                Some((wire, bit)) => {
                    format!("{} {bit}", wire.strip_suffix("_gold").unwrap_or(wire))
                }
                None => gold.strip_suffix("_gold").unwrap_or(gold).to_owned(),
            }
        })
        .collect();
    Some((total, open))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PLL model takes the blackbox's place (same ports), once, and locks after the
    /// cycles the board tops' Rust model counts.
    #[test]
    fn the_pll_model_replaces_the_blackbox() {
        let cells = "`define X\n(* blackbox *)\nmodule SB_IO (input A);\nendmodule\n\n\
                     (* blackbox *)\nmodule SB_PLL40_CORE (\n\tinput REFERENCECLK\n);\nendmodule\n\
                     module SB_GB (input A);\nendmodule\n";
        let text = with_pll_model(cells);
        assert_eq!(text.matches("module SB_PLL40_CORE").count(), 1);
        assert_eq!(text.matches("(* blackbox *)").count(), 1, "{text}");
        assert!(text.contains(PLL_MODEL));
        assert!(text.contains("module SB_IO (input A);") && text.contains("module SB_GB"));
        let lock = format!(
            "LOCK = cycles == 2'd{}",
            crate::circuit::top::PLL_LOCK_CYCLES
        );
        assert!(PLL_MODEL.contains(&lock));
    }

    #[test]
    fn reads_the_unproven_signals() {
        let log = "x\n5. Executing EQUIV_STATUS pass.\nFound 141 $equiv cells in equiv:\n  \
                   Of those cells 139 are proven and 2 are unproven.\n  \
                   Unproven $equiv $auto$equiv_make.cc:274:find_same_wires$868: \\core.thinking.d_gold \\core.thinking.d_gate\n  \
                   Unproven $equiv $a: \\remaining_gold [2] \\remaining_gate [2]\n";
        let (total, open) = parse_status(log).unwrap();
        assert_eq!(total, 141);
        assert_eq!(open, vec!["core.thinking.d", "remaining [2]"]);
    }

    #[test]
    fn finds_the_pairings_with_an_undefined_side() {
        let log = "Presumably equivalent wires: a.phase_next_gold ($x_gold), a.phase_next_gate \
                   ({ $flatten\\a.$ternary$cells.v:28$326_Y_gate 1'x }) -> a.phase_next\n\
                   Presumably equivalent wires: v_gold (\\v_gold), v_gate ({ 7'xxxxxxx \\q }) -> v\n\
                   Presumably equivalent wires: p_gold (\\p_gold), p_gate (2'10) -> p\n\
                   Presumably equivalent wires: q_gold (\\q_gold), q_gate (\\q_gate [1]) -> q\n";
        assert_eq!(undefined_pairings(log), vec!["a.phase_next", "v"]);
    }

    #[test]
    fn reads_inout_ports_as_inputs() {
        let rtl = "module t (\n    inout wire [2:0] io_dip,\n    output wire x\n);\n  inout [1:0] p;\n  wire inouts;\nendmodule\n";
        let out = inout_as_input(rtl).unwrap();
        assert_eq!(
            out,
            "module t (\n    input wire [2:0] io_dip,\n    output wire x\n);\n  input [1:0] p;\n  wire inouts;\nendmodule\n"
        );
        assert_eq!(inout_as_input("module t (input a);\nendmodule\n"), None);
    }
}
