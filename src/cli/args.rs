//! Command-line arguments (clap derive). Doc comments are the help text.

use crate::game::{ApplyTo, GameError, Last, SticksGame};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve small combinatorial games by retrograde analysis, and turn the winning strategy into
/// an iCE40 circuit that plays exactly like the solver.
#[derive(Debug, Parser)]
#[command(name = "retrogate", version, propagate_version = true)]
pub struct Cli {
    /// No progress bars or spinners (they are shown on stderr only when it is a terminal).
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Print each external tool's command line on stderr before running it, shell-quoted so
    /// it can be pasted.
    #[arg(long, short, global = true)]
    pub verbose: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The verbs.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a game: outcome, depth and chosen move of every position.
    #[command(
        after_help = "Examples:\n  retrogate solve sticks\n  retrogate solve sticks --count 20 --format summary\n  retrogate solve matches --format json\n  retrogate solve heaps --start 3,10 --move x+1 --move 'x*4' --end 'sum>=61'"
    )]
    Solve(SolveArgs),
    /// Answer KEGE tasks 19-21 for every S of a range.
    #[command(
        after_help = "Examples:\n  retrogate kege                       # the KEGE write-up: (3, S), +1 or *4, sum>=61, S in 1..57\n  retrogate kege --start S,7 --s 1..68 --move x+1 --move 'x*2' --end 'sum>=77' --format json"
    )]
    Kege(KegeArgs),
    /// Print a design's truth table, derived from its game by the solver.
    #[command(
        after_help = "Examples:\n  retrogate table jr01\n  retrogate table jr01 --format json\n  retrogate table sticks --count 20"
    )]
    Table(TableArgs),
    /// Minimise a design's truth table to sums of products (exact minimum, or greedy where marked).
    #[command(
        after_help = "Examples:\n  retrogate minimize jr01\n  retrogate minimize sticks --count 255 --take 1,3,4"
    )]
    Minimize(MinimizeArgs),
    /// Write a design's Verilog (and, with --sim, its self-checking testbench and vectors).
    #[command(
        after_help = "Examples:\n  retrogate emit jr01 --out hdl --sim sim\n  retrogate emit sticks --out hdl\n  retrogate emit sticks --count 20 --impl rom --think-cycles 0 --out sticks-hdl"
    )]
    Emit(EmitArgs),
    /// Check a design against the solver at every level: rust-hdl, Icarus, Verilator, gate level, formal.
    #[command(
        after_help = "A second run in the same --work folder reuses the Verilator models whose inputs are \
unchanged.

Examples:\n  retrogate verify jr01\n  retrogate verify jr01 --work verify-jr01\n  retrogate verify jr01 --format json\n  retrogate verify bitstream --board icebreaker --design jr01"
    )]
    Verify(VerifyArgs),
    /// Build a board's bitstream: emit Verilog and PCF, then yosys, nextpnr-ice40 and icepack.
    #[command(
        after_help = "A second build of unchanged inputs (the same Verilog, PCF, options and tool versions) \
reuses the folder's previous build and reprints its report; --force rebuilds.

Examples:\n  retrogate build                                  # the stick game on the iCEBreaker\n  retrogate build --board go-board --design jr01\n  retrogate build --board icebreaker --count 20 --program\n  retrogate build --design jr01 --format json"
    )]
    Build(BuildArgs),
    /// Flash an existing bitstream onto a board with iceprog.
    #[command(
        after_help = "Without --bin, the bitstream is the one of the build in --out (default \
build/<board>/<design>).

Examples:\n  retrogate build && retrogate program --dry-run    # prints: iceprog build/icebreaker/sticks/sticks_icebreaker.bin\n  retrogate build --board go-board --design jr01 && retrogate program --board go-board --design jr01 --dry-run\n  retrogate build --design jr01 --out top && retrogate program --bin top/jr01_icebreaker.bin --dry-run"
    )]
    Program(ProgramArgs),
    /// Print the resource and timing report of an existing build, without rebuilding.
    #[command(
        after_help = "Examples:\n  retrogate build && retrogate report --out build/icebreaker/sticks\n  retrogate build --design jr01 && retrogate report --design jr01 --format json"
    )]
    Report(ReportArgs),
    /// Remove what retrogate wrote (build and verify folders), never anything else.
    #[command(
        after_help = "Only the entries listed in a folder's .retrogate-manifest are removed; every other \
file stays and is named.

Examples:\n  retrogate clean                                  # everything retrogate wrote under build/\n  retrogate build --design jr01 && retrogate clean --out build/icebreaker/jr01"
    )]
    Clean(CleanArgs),
    /// Play a game in the terminal against the solver, or set the switches of the J.R. 01 circuit.
    #[command(after_help = PLAY_HELP)]
    Play(PlayArgs),
    /// Draw the sticks_game controller's ports over a game as a waveform (SVG, plus its VCD).
    #[command(
        after_help = "Example:\n  retrogate wave sticks --moves 1,3,2                   # writes wave-sticks.svg and wave-sticks.vcd\n  retrogate wave sticks --moves 1,3 --machine-first --out game.svg"
    )]
    Wave(WaveArgs),
    /// Draw a circuit as an SVG picture: J.R. 01's gates, the stick game's controller, or their
    /// iCE40 LUTs.
    #[command(
        after_help = "Examples:\n  retrogate schematic jr01                                # writes schematic-jr01.svg\n  retrogate schematic jr01 --style luts --out jr01.svg\n  retrogate schematic sticks --count 20 --impl rom"
    )]
    Schematic(SchematicArgs),
    /// List the boards: part, package, clock, and what each design does with each pin.
    #[command(after_help = "Examples:\n  retrogate boards\n  retrogate boards --format json")]
    Boards(BoardsArgs),
    /// The virtual board: its design's real top under Verilator at the board's clock, drawn
    /// live, with keys for its controls.
    #[command(after_help = BOARD_HELP)]
    Board(BoardArgs),
}

const BOARD_HELP: &str = "\
Without --keys, a full-screen view of the board (80 x 24 or larger): each button and switch
has its key beside it (a press holds a button 120 ms, as a finger does; `+` then a key holds it
1.5 s, a long press), `~` power-cycles the board, `?` shows the help, `q`, Esc or Ctrl-C quit.
The status line shows the board's time against the real time.

Between two ticks of its time base (1 ms) a top mostly waits: the model skips such cycles when
16 of them in a row change nothing but the time base's counter, which makes them repeat exactly
until the next tick (--every-cycle evaluates them all; the board shows the same). The chip of
--bin evaluates every cycle.

With --keys FILE --frames DIR the board plays a key file as fast as it simulates and writes
the screen as text to DIR/NNNN-<ms>ms.txt: one line per step, `<ms> <action>` in board time
(ms since power-on), the action a control's key, `<key> hold <ms>`, `reset` (power cycle) or
`frame` (keep the screen then); without `frame` lines every change is kept. The Verilator
model is built in --work (and reused while the top is unchanged). With --bin FILE what runs is
the chip that bitstream configures, read back as `verify --level 8` reads it (the .bin that
`retrogate build` wrote for the same board and design).

Examples:
  echo '1000 frame' > keys.txt && retrogate board --board go-board --keys keys.txt --frames frames";

/// `retrogate board`.
#[derive(Clone, Debug, Args)]
pub struct BoardArgs {
    /// The board.
    #[arg(long, value_enum, default_value_t = BoardArg::Icebreaker)]
    pub board: BoardArg,
    /// The design.
    #[arg(long, value_enum, default_value_t = DesignArg::Sticks)]
    pub design: DesignArg,
    /// The stick game (with --design sticks only).
    #[command(flatten)]
    pub game: BuildSticksArgs,
    /// Run the chip this bitstream configures (read back from the .bin that `retrogate build`
    /// wrote for this board and design) instead of the top's Verilog.
    #[arg(long, value_name = "FILE")]
    pub bin: Option<std::path::PathBuf>,
    /// Play this key file instead of the keyboard (`<ms> <action>` lines; see below).
    #[arg(long, value_name = "FILE", requires = "frames")]
    pub keys: Option<std::path::PathBuf>,
    /// Where the scripted mode writes its frames (new, empty, or retrogate's).
    #[arg(long, value_name = "DIR", requires = "keys")]
    pub frames: Option<std::path::PathBuf>,
    /// Working folder for the Verilator model (new, empty, or retrogate's).
    #[arg(long, value_name = "DIR", default_value = "build/board")]
    pub work: std::path::PathBuf,
    /// Evaluate every clock cycle: no idle skip (slower; what the board shows is the same).
    #[arg(long)]
    pub every_cycle: bool,
}

/// `retrogate boards`.
#[derive(Clone, Debug, Args)]
pub struct BoardsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = BoardsFormat::Text)]
    pub format: BoardsFormat,
}

/// `retrogate boards --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardsFormat {
    /// One block per board: the part, the clock, then each design's pins and roles.
    Text,
    /// `{"boards": [...]}` (keys in docs/json-boards.md).
    Json,
}

const PLAY_HELP: &str = "\
Input: one move per line. sticks: how many to take (`2`); matches: how many to remove or put
back (`1`); heaps: the heap and the move (`1 x+1`, heap 1 gets x+1) or the heaps after the
move (`4,10`); jr01: the switches A B C as three 0/1 digits (`011`). `help` or `?` says how to
play; `quit` leaves.

When stdin is not a terminal, every turn prints one line: the position, then who moved and how.
A refused move prints its reason and the same position comes back. At the end of input the game
is left unfinished (exit 0); Ctrl-C leaves it too (exit 130). After a loss the first move that
threw a win away is named.

Examples:
  retrogate play sticks
  retrogate play sticks --count 20 --machine-first
  printf '1\\n3\\n' | retrogate play sticks       # script mode: one move per line
  retrogate play matches
  retrogate play heaps --start 3,10 --move x+1 --move 'x*4' --end 'sum>=61'
  retrogate play jr01";

/// `retrogate play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game.
    #[command(subcommand)]
    pub game: PlayGame,
}

/// Who moves first.
#[derive(Clone, Debug, Args)]
pub struct TurnArgs {
    /// The machine makes the first move (by default you do).
    #[arg(long)]
    pub machine_first: bool,
}

/// What the machine plays by (`--against`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Against {
    /// The solver's chosen moves.
    Solver,
    /// The sticks_game controller circuit, simulated with rust-hdl cycle by cycle.
    Circuit,
}

/// Where the circuit's moves come from (`--solver`, with `--against circuit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolverKind {
    /// The PC solves the game; its table is built into the sticks_game circuit (ROM/logic).
    Software,
    /// The circuit solves the game itself: the sticks_solver_game controller with the on-chip
    /// solver, configured through its ports (counts up to 255, takes up to 8).
    Onchip,
}

/// The games `play` knows.
#[derive(Debug, Subcommand)]
pub enum PlayGame {
    /// One pile of sticks: type how many to take.
    #[command(
        after_help = "Examples:\n  retrogate play sticks                        # Fort Boyard, you first\n  retrogate play sticks --count 20 --machine-first\n  retrogate play sticks --take 1,3,4 --last wins\n  retrogate play sticks --against circuit        # the sticks_game controller in rust-hdl\n  retrogate play sticks --against circuit --solver onchip --take 2,3 --last wins"
    )]
    Sticks(PlaySticksArgs),
    /// The J.R. 01 seven-matches game: type how many to remove (phase 1) or put back (phase 2).
    #[command(
        after_help = "Examples:\n  retrogate play matches\n  retrogate play matches --machine-first"
    )]
    Matches(PlayMatchesArgs),
    /// KEGE heaps: type `HEAP MOVE` (e.g. `1 x+1`) or the heaps after the move (e.g. `4,10`).
    #[command(
        after_help = "Examples:\n  retrogate play heaps --start 3,10            # type `2 x*4` or `3,40`\n  retrogate play heaps --start 7 --move x+1 --move 'x*2' --end 'any>=30' --machine-first\n  retrogate play heaps --start 3,10 --against circuit --solver onchip   # the heaps_game circuit"
    )]
    Heaps(PlayHeapsArgs),
    /// The J.R. 01 circuit: type A B C (e.g. `011`), see the lamps X Y Z it lights.
    #[command(
        after_help = "Examples:\n  retrogate play jr01\n  printf '000\\n011\\n' | retrogate play jr01"
    )]
    Jr01,
}

/// `retrogate play sticks`.
#[derive(Clone, Debug, Args)]
pub struct PlaySticksArgs {
    /// The rules.
    #[command(flatten)]
    pub rules: SticksArgs,
    /// Who moves first.
    #[command(flatten)]
    pub turn: TurnArgs,
    /// What the machine plays by.
    #[arg(long, value_enum, default_value_t = Against::Solver)]
    pub against: Against,
    /// With `--against circuit`: who solves the game the circuit plays, the PC (`software`:
    /// its table built into the circuit) or the circuit itself (`onchip`: the on-chip solver).
    #[arg(long, value_enum, default_value_t = SolverKind::Software)]
    pub solver: SolverKind,
}

/// `retrogate play matches`.
#[derive(Clone, Debug, Args)]
pub struct PlayMatchesArgs {
    /// The rules.
    #[command(flatten)]
    pub rules: MatchesArgs,
    /// Who moves first.
    #[command(flatten)]
    pub turn: TurnArgs,
}

/// `retrogate play heaps`.
#[derive(Clone, Debug, Args)]
pub struct PlayHeapsArgs {
    /// The start and the rules.
    #[command(flatten)]
    pub heaps: HeapsArgs,
    /// Who moves first.
    #[command(flatten)]
    pub turn: TurnArgs,
    /// What the machine plays by: the solver's moves, or (with `--solver onchip`) the
    /// heaps_game controller with its on-chip solver, simulated with rust-hdl cycle by cycle.
    #[arg(long, value_enum, default_value_t = Against::Solver)]
    pub against: Against,
    /// With `--against circuit`: `onchip`, the circuit solves the game itself (two heaps,
    /// x+1..x+4 and x*2..x*4 in that order, --end 'sum>=N' with N up to 127).
    #[arg(long, value_enum, default_value_t = SolverKind::Software)]
    pub solver: SolverKind,
}

/// `retrogate wave`.
#[derive(Clone, Debug, Args)]
pub struct WaveArgs {
    /// The design.
    #[command(subcommand)]
    pub game: WaveGame,
}

/// The designs `wave` draws.
#[derive(Clone, Debug, Subcommand)]
pub enum WaveGame {
    /// The sticks_game controller, playing your moves.
    #[command(
        after_help = "Draws every port of the controller: clock, reset, new_game, machine_first, take,\n\
                      take_valid, remaining, human_turn, machine_take, game_over, human_won, illegal.\n\n\
                      Examples:\n  retrogate wave sticks --moves 1,3,2 --out game.svg    # also writes game.vcd\n  \
                      retrogate wave sticks --moves 1,3,2 --out game.svg --gtkw    # and game.gtkw: gtkwave game.vcd game.gtkw"
    )]
    Sticks(WaveSticksArgs),
}

/// `retrogate wave sticks`.
#[derive(Clone, Debug, Args)]
pub struct WaveSticksArgs {
    /// The rules.
    #[command(flatten)]
    pub rules: SticksArgs,
    /// Who moves first.
    #[command(flatten)]
    pub turn: TurnArgs,
    /// Your moves, comma-separated (each answered by the circuit).
    #[arg(long, value_delimiter = ',', required = true, allow_hyphen_values = true,
          value_parser = number::<u32>("--moves", 1, "--moves 1,3,2"))]
    pub moves: Vec<u32>,
    /// The SVG file to write; the VCD goes next to it with the extension .vcd.
    #[arg(long, value_name = "FILE.svg", default_value = "wave-sticks.svg")]
    pub out: std::path::PathBuf,
    /// Also write a GTKWave save file next to the VCD (extension .gtkw), so that
    /// `gtkwave FILE.vcd FILE.gtkw` opens with the same signals as the SVG.
    #[arg(long)]
    pub gtkw: bool,
}

/// `retrogate schematic`.
#[derive(Clone, Debug, Args)]
pub struct SchematicArgs {
    /// The SVG file to write (default: schematic-<design>.svg in the current directory).
    #[arg(long, value_name = "FILE.svg", global = true)]
    pub out: Option<std::path::PathBuf>,
    /// Working directory for the yosys and dot runs and their logs.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "build/schematic",
        global = true
    )]
    pub work: std::path::PathBuf,
    /// The design.
    #[command(subcommand)]
    pub design: SchematicDesignArgs,
}

/// A design `schematic` draws: the combinational strategy, so no `--think-cycles`.
#[derive(Clone, Debug, Subcommand)]
pub enum SchematicDesignArgs {
    /// The J.R. 01 seven-matches strategy: 3 inputs A B C, 3 outputs X Y Z.
    #[command(
        after_help = "--style gates (the default) draws the sums of products the circuit is built from (the\n\
                      J.R. 01 manual's simplification) as AND (&) and OR (≥1) gates, a complemented input with a\n\
                      bubble; --style luts draws the netlist after yosys synth_ice40, each SB_LUT4 with\n\
                      its truth table (INIT). Graphviz dot lays either out.\n\n\
                      Examples:\n  retrogate schematic jr01                      # the 7 products as AND/OR gates\n  retrogate schematic jr01 --style luts --out jr01-luts.svg"
    )]
    Jr01(SchematicJr01Args),
    /// The stick game's controller `sticks_game` as blocks, or its lookup's LUTs.
    #[command(
        after_help = "--style blocks (the default) draws the controller: its ports, the strategy lookup, the\n\
                      move checks, the think timer, the registers and the next-state logic between them.\n\
                      --style luts draws only the lookup (sticks left in, move and verdict out) after\n\
                      yosys synth_ice40, each SB_LUT4 with its truth table (INIT).\n\n\
                      Examples:\n  retrogate schematic sticks --count 20\n  retrogate schematic sticks --count 20 --style luts --impl rom --out rom.svg"
    )]
    Sticks(SchematicSticksArgs),
}

/// How `schematic jr01` draws the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchematicStyle {
    /// The minimised sum of products the circuit implements, as AND and OR gates (IEC symbols
    /// `&` and `≥1`) with a bubble on each complemented input, as in the J.R. 01 manual's plug program.
    Gates,
    /// The netlist after yosys `synth_ice40`: SB_LUT4 cells, each with its INIT.
    Luts,
}

/// `retrogate schematic jr01`.
#[derive(Clone, Debug, Args)]
pub struct SchematicJr01Args {
    /// What to draw.
    #[arg(long, value_enum, default_value_t = SchematicStyle::Gates)]
    pub style: SchematicStyle,
}

/// `retrogate schematic sticks`.
#[derive(Clone, Debug, Args)]
pub struct SchematicSticksArgs {
    /// The game.
    #[command(flatten)]
    pub game: SticksArgs,
    /// The lookup's implementation to draw.
    #[arg(long = "impl", value_enum, default_value_t = ImplArg::Logic)]
    pub implementation: ImplArg,
    /// What to draw.
    #[arg(long, value_enum, default_value_t = SticksSchematicStyle::Blocks)]
    pub style: SticksSchematicStyle,
}

/// How `schematic sticks` draws the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SticksSchematicStyle {
    /// The `sticks_game` controller as a block diagram.
    Blocks,
    /// The strategy lookup after yosys `synth_ice40`: SB_LUT4 cells, each with its INIT.
    Luts,
}

/// A hardware design.
#[derive(Clone, Debug, Subcommand)]
pub enum DesignArgs {
    /// The J.R. 01 seven-matches strategy: 3 inputs A B C, 3 outputs X Y Z.
    #[command(
        after_help = "Examples:\n  retrogate emit jr01 --out hdl --sim sim\n  retrogate verify jr01"
    )]
    Jr01,
    /// The stick game: the strategy lookup `sticks_strategy` and the controller `sticks_game`.
    #[command(
        after_help = "Examples:\n  retrogate emit sticks --out hdl\n  retrogate verify sticks"
    )]
    Sticks(SticksDesignArgs),
    /// The on-chip solver `sticks_solver`: take set, count and rule on its inputs, the table
    /// solved on the chip into block RAM and read through its query port.
    #[command(
        after_help = "Examples:\n  retrogate emit solver --max-count 255 --max-take 8 --out hdl\n  retrogate verify solver"
    )]
    Solver(SolverDesignArgs),
    /// The on-chip heap solver `heaps_solver`: the two-heap game of the KEGE exam (moves x+1..x+A
    /// and x*2..x*(M+1) on either heap, the game over at a sum of at least the target), solved on
    /// the chip into block RAM and read through its query port.
    #[command(
        name = "heaps-solver",
        after_help = "Examples:\n  retrogate emit heaps-solver --out hdl\n  retrogate emit heaps-solver --max-target 127 --max-add 1 --max-mul 1 --out hdl --sim sim"
    )]
    HeapsSolver(HeapsSolverDesignArgs),
    /// The heap-game controller `heaps_game`: the KEGE game played against `heaps_solver`,
    /// which it holds (rules and start sampled at `new_game`, the solve on the chip, the
    /// person's moves checked, the machine's moves after a think pause counted in ticks of
    /// the `tick` input).
    #[command(
        name = "heaps-game",
        after_help = "Examples:\n  retrogate emit heaps-game --out hdl\n  retrogate emit heaps-game --max-target 127 --max-add 1 --max-mul 1 --think-cycles 12000000 --out heaps-hdl"
    )]
    HeapsGame(HeapsGameDesignArgs),
}

/// Flags of the heap-game controller: the solver's size and the think pause.
#[derive(Clone, Debug, Args)]
pub struct HeapsGameDesignArgs {
    /// The size of the solver it holds.
    #[command(flatten)]
    pub size: HeapsSolverDesignArgs,
    /// Ticks of `tick` the machine thinks before each move (clock cycles with `tick` tied
    /// high; the default is half a second of the iCEBreaker's 12 MHz).
    #[arg(long, value_name = "N", default_value_t = EMIT_THINK_CYCLES,
          allow_negative_numbers = true,
          value_parser = number::<u32>("--think-cycles", 0, "--think-cycles 6000000"))]
    pub think_cycles: u32,
}

/// Size flags of the on-chip heap solver.
#[derive(Clone, Debug, Args)]
pub struct HeapsSolverDesignArgs {
    /// Largest target the circuit solves (3..=127): `target`, `query_a` and `query_b` get the
    /// bits this needs.
    #[arg(long, default_value_t = 63, allow_negative_numbers = true,
          value_parser = number::<u64>("--max-target", 0, "--max-target 63"))]
    pub max_target: u64,
    /// Largest addition x+A the circuit offers (1..=4): the width of `adds`.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true,
          value_parser = number::<u64>("--max-add", 0, "--max-add 2"))]
    pub max_add: u64,
    /// Number of multiplications x*2..x*(M+1) the circuit offers (1..=3): the width of `muls`.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true,
          value_parser = number::<u64>("--max-mul", 0, "--max-mul 3"))]
    pub max_mul: u64,
}

/// Size flags of the on-chip solver.
#[derive(Clone, Debug, Args)]
pub struct SolverDesignArgs {
    /// Largest count the circuit solves (1..=255): its ports are the bits this needs.
    #[arg(long, default_value_t = 255, allow_negative_numbers = true,
          value_parser = number::<u64>("--max-count", 0, "--max-count 255"))]
    pub max_count: u64,
    /// Largest take the circuit allows (1..=8): the width of `take_set`.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true,
          value_parser = number::<u64>("--max-take", 0, "--max-take 8"))]
    pub max_take: u64,
}

/// Output format of `table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// The J.R. 01 manual's layout: A B C | X Y Z and what each row means.
    Table,
    /// `{"inputs": [...], "outputs": [...], "rows": [...]}`.
    Json,
}

/// `retrogate table`.
#[derive(Clone, Debug, Args)]
pub struct TableArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table, global = true)]
    pub format: TableFormat,
    /// The design.
    #[command(subcommand)]
    pub design: TruthTableArgs,
}

/// `retrogate minimize`.
#[derive(Clone, Debug, Args)]
pub struct MinimizeArgs {
    /// The design.
    #[command(subcommand)]
    pub design: TruthTableArgs,
}

/// A design's truth table (`table`, `minimize`): only the game matters, so the circuit flags
/// (`--impl`, `--think-cycles`) are not accepted here.
#[derive(Clone, Debug, Subcommand)]
pub enum TruthTableArgs {
    /// The J.R. 01 seven-matches strategy: 3 inputs A B C, 3 outputs X Y Z.
    #[command(after_help = "Examples:\n  retrogate table jr01\n  retrogate minimize jr01")]
    Jr01,
    /// The stick game's strategy lookup `sticks_strategy`: sticks -> take, winning.
    #[command(
        after_help = "Examples:\n  retrogate table sticks --count 20\n  retrogate minimize sticks --count 20 --take 1,3,4"
    )]
    Sticks(SticksArgs),
}

/// `retrogate emit`.
#[derive(Clone, Debug, Args)]
pub struct EmitArgs {
    /// Directory for the Verilog (created if missing).
    #[arg(long, value_name = "DIR", global = true)]
    pub out: Option<std::path::PathBuf>,
    /// Also write the testbench, vector file and reference module into this directory.
    #[arg(long, value_name = "DIR", global = true)]
    pub sim: Option<std::path::PathBuf>,
    /// Also write each board's pin constraints for this design, as DIR/<board>-<design>.pcf.
    #[arg(long, value_name = "DIR", global = true)]
    pub constraints: Option<std::path::PathBuf>,
    /// The design.
    #[command(subcommand)]
    pub design: DesignArgs,
}

/// `verify --level` takes the bench's own [`Level`](crate::bench::Level), by its `cli_name`.
impl ValueEnum for crate::bench::Level {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::bench::Level::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::bench::Level;
        let help = match self {
            Level::RustHdl => "1: rust-hdl's simulation of the block (for sticks: also the controller in rust-hdl)",
            Level::Icarus => "2: the emitted Verilog under Icarus",
            Level::Verilator => "3: the emitted Verilog under Verilator",
            Level::GateLevel => "4: the synth_ice40 netlist under Icarus",
            Level::Formal => "5: a proof against the solver: a yosys SAT proof against the table (strategies), a k-induction proof (the solver)",
            Level::Properties => "6: the controller's properties by k-induction with yosys-smtbmc and z3, or by ABC's pdr for a --dut controller (sticks only)",
            Level::Equivalence => "7: the synth_ice40 netlist proved equal to its RTL (yosys equiv_induct)",
            Level::Bitstream => "8: a board design's bitstream read back (icebox_vlog) and simulated through its pins against the RTL top (verify bitstream only)",
        };
        Some(clap::builder::PossibleValue::new(self.cli_name()).help(help))
    }
}

/// `retrogate verify`.
#[derive(Clone, Debug, Args)]
pub struct VerifyArgs {
    /// Working directory for tool runs, waveforms and logs (new, empty, or retrogate's).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "build/verify",
        global = true
    )]
    pub work: std::path::PathBuf,
    /// Run only these levels (repeat the flag or separate with commas) [default: all].
    #[arg(long = "level", value_enum, value_delimiter = ',', global = true)]
    pub levels: Vec<crate::bench::Level>,
    /// Check your own Verilog instead of retrogate's (jr01: the jr01_strategy port contract;
    /// sticks: the sticks_strategy lookup, or the sticks_game controller when it has a `clock`
    /// port). See the README's "Port contracts".
    #[arg(long, value_name = "FILE.v", global = true)]
    pub dut: Option<std::path::PathBuf>,
    /// The top module of --dut [default: the file's only top-level module].
    #[arg(long, value_name = "NAME", global = true, requires = "dut")]
    pub top: Option<String>,
    /// Measure the bench: make N mutants of the emitted Verilog and report how many it kills.
    #[arg(long, value_name = "N", global = true)]
    pub mutants: Option<usize>,
    /// Accept a bounded check of a --dut controller's properties as a pass when no proof
    /// (ABC's pdr within its time limit, k-induction) closes; without it such a level fails.
    #[arg(long, global = true, requires = "dut")]
    pub allow_bounded: bool,
    /// Seed of --mutants (the same seed picks the same mutants).
    #[arg(long, value_name = "S", global = true, requires = "mutants")]
    pub seed: Option<u64>,
    /// Output format (json: the keys of docs/json.md).
    #[arg(long, value_enum, default_value_t = ResultFormat::Text, global = true)]
    pub format: ResultFormat,
    /// The design.
    #[command(subcommand)]
    pub design: VerifyTargetArgs,
}

/// What `verify` checks: a design, or a board design's bitstream.
#[derive(Clone, Debug, Subcommand)]
pub enum VerifyTargetArgs {
    /// The J.R. 01 seven-matches strategy: 3 inputs A B C, 3 outputs X Y Z.
    #[command(
        after_help = "Examples:\n  retrogate verify jr01\n  retrogate verify jr01 --format json"
    )]
    Jr01,
    /// The stick game: the strategy lookup `sticks_strategy` and the controller `sticks_game`.
    #[command(
        after_help = "Examples:\n  retrogate verify sticks\n  retrogate verify sticks --count 20 --take 1,3,4"
    )]
    Sticks(SticksDesignArgs),
    /// The on-chip solver `sticks_solver`: take set, count and rule on its inputs, the table
    /// solved on the chip into block RAM and read through its query port.
    #[command(after_help = "Examples:\n  retrogate verify solver")]
    Solver(SolverDesignArgs),
    /// The on-chip heap solver `heaps_solver`: the KEGE exam's two-heap game solved on the chip
    /// into block RAM, checked against the software solver (levels 1 to 5 and 7), and the
    /// safety properties of the heap-game controller that plays it (level 6).
    #[command(
        name = "heaps-solver",
        after_help = "Examples:\n  retrogate verify heaps-solver --max-target 20\n  retrogate verify heaps-solver --level icarus"
    )]
    HeapsSolver(HeapsSolverDesignArgs),
    /// A board design's bitstream (level 8): read back with icestorm (iceunpack, icebox_vlog),
    /// simulated through the board's pins against the RTL top at the board's timing, timed by
    /// icetime beside nextpnr.
    #[command(
        after_help = "The bitstream is the one `retrogate build` leaves in build/<board>/<design> (built there when \
missing), or --bin FILE.

Examples:\n  retrogate verify bitstream --board icebreaker --design jr01\n  retrogate verify bitstream --board go-board --design sticks\n  retrogate build --board icebreaker --design jr01 --out mine && retrogate verify bitstream --board icebreaker --design jr01 --bin mine/jr01_icebreaker.bin"
    )]
    Bitstream(BitstreamArgs),
}

/// `verify bitstream`: the board and design (as `build` takes them) and the bitstream.
#[derive(Clone, Debug, Args)]
pub struct BitstreamArgs {
    /// The board.
    #[arg(long, value_enum, default_value_t = BoardArg::Icebreaker)]
    pub board: BoardArg,
    /// The design.
    #[arg(long, value_enum, default_value_t = DesignArg::Sticks)]
    pub design: DesignArg,
    /// The stick game (with --design sticks only).
    #[command(flatten)]
    pub game: BuildSticksArgs,
    /// The bitstream to check [default: the one in build/<board>/<design>, built when missing].
    #[arg(long, value_name = "FILE")]
    pub bin: Option<std::path::PathBuf>,
}

/// Output format of `solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// One row per position: position, outcome, depth, move.
    Table,
    /// `{"game": {...}, "positions": [...]}`.
    Json,
    /// Counts of each outcome, the start's value, the period (sticks), the first losing positions.
    Summary,
}

/// Output format of `kege`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KegeFormat {
    /// Rows and the answers with their task numbers.
    Table,
    /// `{"rows": [...], "answers": {...}}`.
    Json,
}

/// Who wins when the game ends (`--last`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LastArg {
    /// Whoever makes the last move wins.
    Wins,
    /// Whoever makes the last move loses.
    Loses,
}

impl From<LastArg> for Last {
    fn from(l: LastArg) -> Last {
        match l {
            LastArg::Wins => Last::Wins,
            LastArg::Loses => Last::Loses,
        }
    }
}

/// Which heap a move may change (`--apply-to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ApplyToArg {
    /// Any heap.
    Any,
    /// Only the smaller heap (either one when equal).
    Smaller,
}

impl From<ApplyToArg> for ApplyTo {
    fn from(a: ApplyToArg) -> ApplyTo {
        match a {
            ApplyToArg::Any => ApplyTo::Any,
            ApplyToArg::Smaller => ApplyTo::Smaller,
        }
    }
}

/// `retrogate solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolveFormat::Table, global = true)]
    pub format: SolveFormat,
    /// The game.
    #[command(subcommand)]
    pub game: GameArgs,
}

/// A game and its parameters.
#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// One pile; a move takes an amount in --take (Fort Boyard by default).
    #[command(
        after_help = "Examples:\n  retrogate solve sticks\n  retrogate solve sticks --count 20 --take 1,2,3 --last loses --format summary"
    )]
    Sticks(SticksArgs),
    /// The J.R. 01 seven-matches game in two phases.
    #[command(
        after_help = "Examples:\n  retrogate solve matches\n  retrogate solve matches --count 11 --take 1,3,4 --format json"
    )]
    Matches(MatchesArgs),
    /// KEGE heap games: moves are expressions in x, the end is a threshold.
    #[command(
        after_help = "Examples:\n  retrogate solve heaps --start 3,10 --move x+1 --move 'x*4' --end 'sum>=61'\n  retrogate solve heaps --start 5 --move x+1 --move 'x+x/2 if x%2==0' --end 'any>=12' --format summary"
    )]
    Heaps(HeapsArgs),
}

/// Stick-game flags.
#[derive(Clone, Debug, Args)]
pub struct SticksArgs {
    /// Sticks at the start.
    #[arg(long, default_value_t = 18, allow_negative_numbers = true,
          value_parser = number::<u64>("--count", 0, "--count 18"))]
    pub count: u64,
    /// Amounts a move may take, comma-separated.
    // One list, given once: `::std::vec::Vec` keeps clap from taking the flag as repeatable.
    #[arg(long, default_value = "1,2,3", allow_hyphen_values = true,
          value_parser = amounts("--take", "--take 1,2,3"))]
    pub take: ::std::vec::Vec<u64>,
    /// Whether taking the last stick wins or loses.
    #[arg(long, value_enum, default_value_t = LastArg::Loses)]
    pub last: LastArg,
}

impl SticksArgs {
    /// The game these flags describe.
    pub fn game(&self) -> Result<SticksGame, GameError> {
        SticksGame::new(self.count, &self.take, self.last.into())
    }
}

/// Matches-game flags.
#[derive(Clone, Debug, Args)]
pub struct MatchesArgs {
    /// Matches on the table at the start.
    #[arg(long, default_value_t = 7, allow_negative_numbers = true,
          value_parser = number::<u64>("--count", 0, "--count 7"))]
    pub count: u64,
    /// Amounts a move removes (phase 1) or puts back (phase 2), comma-separated.
    #[arg(long, default_value = "1,2", allow_hyphen_values = true,
          value_parser = amounts("--take", "--take 1,2"))]
    pub take: ::std::vec::Vec<u64>,
}

/// Heap-game rules shared by `solve heaps` and `kege`.
#[derive(Clone, Debug, Args)]
pub struct HeapsRulesArgs {
    /// A move, as an expression in x with an optional guard: x+1, x*4, x+x/2 if x%2==0.
    /// Repeat the flag for each move; `/` is floor division. Quote a move for the shell:
    /// --move 'x*4'.
    #[arg(long = "move", value_name = "EXPR", allow_hyphen_values = true, default_values_t = ["x+1".to_string(), "x*4".to_string()])]
    pub moves: Vec<String>,
    /// When the game ends: sum>=N, any>=N, sum<=N or any<=N (quote it in a shell: --end 'sum>=61').
    #[arg(long, default_value = "sum>=61")]
    pub end: String,
    /// Whether the last move wins or loses.
    #[arg(long, value_enum, default_value_t = LastArg::Wins)]
    pub last: LastArg,
    /// Which heap a move may change.
    #[arg(long, value_enum, default_value_t = ApplyToArg::Any)]
    pub apply_to: ApplyToArg,
}

/// Heap-game flags.
#[derive(Clone, Debug, Args)]
pub struct HeapsArgs {
    /// Heap sizes at the start, comma-separated (1 to 4 heaps).
    #[arg(long, value_delimiter = ',', required = true, allow_hyphen_values = true,
          value_parser = number::<u64>("--start", 0, "--start 3,10"))]
    pub start: Vec<u64>,
    /// The rules.
    #[command(flatten)]
    pub rules: HeapsRulesArgs,
}

/// `retrogate kege`.
#[derive(Clone, Debug, Args)]
pub struct KegeArgs {
    /// Heap sizes at the start with S marking the unknown heap.
    #[arg(long, default_value = "3,S")]
    pub start: String,
    /// The values of S, inclusive: FIRST..LAST.
    #[arg(long = "s", value_name = "FIRST..LAST", default_value = "1..57")]
    pub s_range: String,
    /// The rules.
    #[command(flatten)]
    pub rules: HeapsRulesArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = KegeFormat::Table)]
    pub format: KegeFormat,
}

/// A board (`--board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BoardArg {
    /// 1BitSquared iCEBreaker (UP5K) with the snap-off buttons and LEDs.
    Icebreaker,
    /// Nandland Go Board (HX1K).
    GoBoard,
    /// Alchitry Cu (HX8K) with an Io V1 element.
    AlchitryCu,
    /// Alchitry Cu V2 with an Io V2 element (pins from one source only).
    AlchitryCuV2,
    /// Lattice iCEstick (HX1K) with three buttons wired to PMOD J2.
    Icestick,
}

impl From<BoardArg> for crate::board::BoardId {
    fn from(b: BoardArg) -> Self {
        use crate::board::BoardId;
        match b {
            BoardArg::Icebreaker => BoardId::Icebreaker,
            BoardArg::GoBoard => BoardId::GoBoard,
            BoardArg::AlchitryCu => BoardId::AlchitryCu,
            BoardArg::AlchitryCuV2 => BoardId::AlchitryCuV2,
            BoardArg::Icestick => BoardId::Icestick,
        }
    }
}

/// The design a board runs (`--design`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DesignArg {
    /// The stick game, played on the board's buttons and LEDs.
    Sticks,
    /// The J.R. 01 strategy: switches A B C, lamps X Y Z.
    Jr01,
    /// The on-chip solver: set a game on the board, which solves it and plays it.
    Solver,
    /// The KEGE heap game (tasks 19-21): set on the switches or set-up pages, solved on the
    /// chip, played on the buttons, the exam's answers on a page (Alchitry Cu, Cu V2, Go Board).
    Heaps,
}

/// `retrogate build`.
#[derive(Clone, Debug, Args)]
pub struct BuildArgs {
    /// The board.
    #[arg(long, value_enum, default_value_t = BoardArg::Icebreaker)]
    pub board: BoardArg,
    /// The design.
    #[arg(long, value_enum, default_value_t = DesignArg::Sticks)]
    pub design: DesignArg,
    /// The stick game (with --design sticks only).
    #[command(flatten)]
    pub game: BuildSticksArgs,
    /// Output directory, new, empty or retrogate's [default: build/<board>/<design>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Program the board with iceprog after the build.
    #[arg(long)]
    pub program: bool,
    /// nextpnr's placer seed: another placement of the same netlist (a build that misses
    /// timing at its seed is an error).
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true,
          value_parser = seed())]
    pub seed: u64,
    /// Rebuild even when the folder holds a build of the same inputs.
    #[arg(long)]
    pub force: bool,
    /// Output format (json: the keys of docs/json.md).
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

/// Output format of `build`, `report` and `verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// Lines for people.
    Text,
    /// One JSON document with the keys documented in docs/json.md.
    Json,
}

/// The build folder a verb reads (`program`, `report`): `--out DIR`, or the default folder of
/// `--board` and `--design`.
#[derive(Clone, Debug, Args)]
pub struct BuildFolderArgs {
    /// The board [default folder: build/<board>/<design>].
    #[arg(long, value_enum, default_value_t = BoardArg::Icebreaker)]
    pub board: BoardArg,
    /// The design.
    #[arg(long, value_enum, default_value_t = DesignArg::Sticks)]
    pub design: DesignArg,
    /// The build folder [default: build/<board>/<design>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// `retrogate program`.
#[derive(Clone, Debug, Args)]
pub struct ProgramArgs {
    /// Which build.
    #[command(flatten)]
    pub folder: BuildFolderArgs,
    /// Program this bitstream instead of a build folder's.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub bin: Option<std::path::PathBuf>,
    /// Print the iceprog command (shell-quoted) instead of running it.
    #[arg(long)]
    pub dry_run: bool,
}

/// `retrogate report`.
#[derive(Clone, Debug, Args)]
pub struct ReportArgs {
    /// Which build.
    #[command(flatten)]
    pub folder: BuildFolderArgs,
    /// Output format (json: the keys of docs/json.md).
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

/// `retrogate clean`.
#[derive(Clone, Debug, Args)]
pub struct CleanArgs {
    /// The folder to clean: what retrogate wrote in it and in its subfolders goes.
    #[arg(long, value_name = "DIR", default_value = "build")]
    pub out: std::path::PathBuf,
}

/// The stick-game flags of `build` (`--design sticks` only; refused with `--design jr01`).
#[derive(Clone, Debug, Args)]
pub struct BuildSticksArgs {
    /// Sticks at the start [default: 18].
    #[arg(long, allow_negative_numbers = true,
          value_parser = number::<u64>("--count", 0, "--count 18"))]
    pub count: Option<u64>,
    /// Amounts a move may take, comma-separated [default: 1,2,3].
    #[arg(long, allow_hyphen_values = true, value_parser = amounts("--take", "--take 1,2,3"))]
    pub take: Option<::std::vec::Vec<u64>>,
    /// Whether taking the last stick wins or loses [default: loses].
    #[arg(long, value_enum)]
    pub last: Option<LastArg>,
}

impl BuildSticksArgs {
    /// The flags given, as they were typed (`--count`, ...).
    pub fn given(&self) -> Vec<&'static str> {
        let mut given = Vec::new();
        if self.count.is_some() {
            given.push("--count");
        }
        if self.take.is_some() {
            given.push("--take");
        }
        if self.last.is_some() {
            given.push("--last");
        }
        given
    }

    /// The stick game these flags describe, with the defaults of [`SticksArgs`].
    pub fn game(&self) -> Result<SticksGame, GameError> {
        SticksArgs {
            count: self.count.unwrap_or(18),
            take: self.take.clone().unwrap_or_else(|| vec![1, 2, 3]),
            last: self.last.unwrap_or(LastArg::Loses),
        }
        .game()
    }
}

/// The strategy lookup's implementation (`--impl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ImplArg {
    /// A case statement over the stick counts.
    Rom,
    /// Minimised sums of products, one per output bit.
    Logic,
}

/// Stick-design flags.
#[derive(Clone, Debug, Args)]
pub struct SticksDesignArgs {
    /// The game.
    #[command(flatten)]
    pub game: SticksArgs,
    /// Force the lookup's implementation [default for emit: the smaller after synthesis; for
    /// verify: both].
    #[arg(long = "impl", value_enum)]
    pub implementation: Option<ImplArg>,
    /// Cycles the machine thinks before answering [default for emit: 6000000, half a second
    /// of the iCEBreaker's 12 MHz; for verify: 2, so that the co-simulated games stay short].
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = number::<u32>("--think-cycles", 0, "--think-cycles 2"))]
    pub think_cycles: Option<u32>,
}

/// `--think-cycles` of `emit` when not given: half a second of the iCEBreaker's 12 MHz.
pub const EMIT_THINK_CYCLES: u32 = 6_000_000;

/// The value parser of a whole-number flag: digits only, from `min` up to what `T` holds. A
/// negative number, a word or an empty value is refused with a message saying what to give,
/// e.g. `invalid value '-1' for '--count <COUNT>': -1 is negative: give a whole number from 0
/// up, e.g. --count 18` (clap names the flag).
pub fn number<T>(
    flag: &'static str,
    min: u64,
    example: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    let n = Number {
        flag,
        min,
        max: None,
        example,
    };
    move |text: &str| n.parse(text)
}

/// `--seed`: a whole number nextpnr-ice40 accepts, 0 to [`crate::build::MAX_SEED`].
pub fn seed() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    let n = Number {
        flag: "--seed",
        min: 0,
        max: Some((
            crate::build::MAX_SEED,
            "nextpnr-ice40 reads its seed as a signed 32-bit number",
        )),
        example: "--seed 2",
    };
    move |text: &str| n.parse(text)
}

/// What a whole-number flag accepts; see [`number`].
#[derive(Clone, Copy)]
struct Number {
    flag: &'static str,
    min: u64,
    /// A bound below the type's, and why.
    max: Option<(u64, &'static str)>,
    example: &'static str,
}

impl Number {
    fn parse<T: TryFrom<u64>>(&self, text: &str) -> Result<T, String> {
        let (example, flag) = (self.example, self.flag);
        // The largest value of `T` (e.g. u32::MAX), or the bound.
        let type_max = (1..=64)
            .rev()
            .map(|bits| u64::MAX >> (64 - bits))
            .find(|&m| T::try_from(m).is_ok())
            .unwrap_or(0);
        let (largest, why) = match self.max {
            Some((m, why)) if m < type_max => (m, Some(why)),
            _ => (type_max, None),
        };
        let too_large = || match why {
            Some(why) => {
                format!("{text} is too large: {flag} goes up to {largest} ({why}); e.g. {example}")
            }
            None => format!("{text} is too large: {flag} goes up to {largest}; e.g. {example}"),
        };
        if text.is_empty() {
            return Err(format!(
                "{flag} is empty: give a whole number, e.g. {example}"
            ));
        }
        if let Some(rest) = text.strip_prefix('-') {
            if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "{text} is negative: give a whole number from {} up, e.g. {example}",
                    self.min
                ));
            }
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{text}` is not a whole number: give digits only, e.g. {example}"
            ));
        }
        let n: u64 = text.parse().map_err(|_| too_large())?;
        if n > largest {
            return Err(too_large());
        }
        if n < self.min {
            return Err(format!(
                "{n} is too small: give a whole number from {} up, e.g. {example}",
                self.min
            ));
        }
        T::try_from(n).map_err(|_| too_large())
    }
}

/// The value parser of a list of amounts given once, comma-separated (`--take 1,2,3`): each a
/// whole number (see [`number`]), each at most once. `--take 1,1,2` is refused rather than
/// merged; a second `--take` is refused by clap (the flag "cannot be used multiple times").
pub fn amounts(
    flag: &'static str,
    example: &'static str,
) -> impl Fn(&str) -> Result<Vec<u64>, String> + Clone + Send + Sync + 'static {
    move |text: &str| parse_amounts(flag, example, text)
}

fn parse_amounts(flag: &str, example: &'static str, text: &str) -> Result<Vec<u64>, String> {
    if text.is_empty() {
        return Err(format!(
            "{flag} is empty: give at least one amount, e.g. {example}"
        ));
    }
    let one = Number {
        flag: "--take",
        min: 0,
        max: None,
        example,
    };
    let mut amounts: Vec<u64> = Vec::new();
    for item in text.split(',') {
        if item.is_empty() {
            return Err(format!(
                "an amount is missing between two commas: give whole numbers separated by \
                 single commas, e.g. {example}"
            ));
        }
        let n: u64 = one.parse(item)?;
        if amounts.contains(&n) {
            return Err(format!(
                "{n} is given twice: give each amount once, e.g. {example}"
            ));
        }
        amounts.push(n);
    }
    Ok(amounts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_name_what_to_give() {
        let count = number::<u64>("--count", 0, "--count 18");
        assert_eq!(count("18"), Ok(18));
        assert_eq!(
            count("-1").unwrap_err(),
            "-1 is negative: give a whole number from 0 up, e.g. --count 18"
        );
        assert!(count("many").unwrap_err().contains("not a whole number"));
        assert!(count("")
            .unwrap_err()
            .contains("--count is empty: give a whole number"));
        assert!(count("18446744073709551616")
            .unwrap_err()
            .contains("goes up to 18446744073709551615"));
        let moves = number::<u32>("--moves", 1, "--moves 1,3,2");
        assert!(moves("0").unwrap_err().contains("from 1 up"));
        assert!(moves("4294967296")
            .unwrap_err()
            .contains("--moves goes up to 4294967295"));
        let seed = seed();
        assert_eq!(seed("2147483647"), Ok(2147483647));
        assert!(seed("2147483648")
            .unwrap_err()
            .contains("--seed goes up to 2147483647 (nextpnr-ice40 reads"));
    }

    #[test]
    fn amounts_are_given_once_each() {
        let take = amounts("--take", "--take 1,2,3");
        assert_eq!(take("3,1"), Ok(vec![3, 1]));
        assert!(take("1,1,2").unwrap_err().contains("1 is given twice"));
        assert!(take("").unwrap_err().contains("at least one"));
        assert!(take("1,-2").unwrap_err().contains("-2 is negative"));
        assert!(take("1,,2")
            .unwrap_err()
            .contains("missing between two commas"));
    }
}
