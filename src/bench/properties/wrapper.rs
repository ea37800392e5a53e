//! The formal wrapper of a `sticks_game` controller: the controller under test, a monitor
//! that tracks the state the controller must be in, the solver's tables, and the properties
//! as immediate assertions (or one cover goal). Pure text generation; [`super`] runs it.
//!
//! The wrapper's inputs are the controller's inputs, left free, so yosys-smtbmc considers
//! every input sequence. Everything the properties compare against comes from the solver
//! ([`SticksPeriod`]): the move it chooses at each position, which positions are terminal, and
//! whether the player to move at a terminal position won. The controller's own ROM or logic is
//! never read.

use std::fmt::Write as _;

use crate::game::SticksGame;
use crate::solver::strategy::bits_for;
use crate::solver::{Outcome, SticksPeriod};

/// Module name of the generated wrapper.
pub const WRAPPER_MODULE: &str = "sticks_game_properties";

/// Instance name of the controller in the wrapper (flattened names start with it).
pub const DUT_INSTANCE: &str = "dut";

/// A property the wrapper asserts; each `assert` line of the wrapper belongs to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `remaining` never exceeds the count.
    CountBound,
    /// `remaining` changes only by a legal take of the player to move, or to the count at a
    /// new game.
    LegalChanges,
    /// The machine's take is the solver's chosen move at the position it moved from.
    SolverMove,
    /// `game_over` holds exactly at terminal positions.
    GameOverTerminal,
    /// `human_won` is exactly the game's rule applied to the position where the game ended.
    HumanWonRule,
    /// An illegal or out-of-turn move changes nothing and raises `illegal` for one cycle.
    IllegalInput,
    /// The machine moves within think + 1 cycles of the human's move (a liveness bound).
    MachineAnswers,
    /// Every output equals the monitor's (the strengthening invariant).
    Monitor,
    /// Relations between the controller's internal registers and the monitor (only for the
    /// emitted controller, whose internal names are known).
    Internal,
}

impl Property {
    /// A short description for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Property::CountBound => "remaining never exceeds the count",
            Property::LegalChanges => {
                "remaining changes only by a legal take of the player to move, or to the count at \
                 a new game"
            }
            Property::SolverMove => "the machine's take is the solver's move",
            Property::GameOverTerminal => "game_over exactly at terminal positions",
            Property::HumanWonRule => "human_won exactly by the game's rule",
            Property::IllegalInput => {
                "an illegal or out-of-turn move changes nothing and raises illegal for one cycle"
            }
            Property::MachineAnswers => "the machine moves within think+1 cycles",
            Property::Monitor => "every output equals the monitor's expected state",
            Property::Internal => "internal registers agree with the monitor",
        }
    }

    /// The properties of the issue (the monitor and internal relations strengthen them).
    pub const PORT: [Property; 7] = [
        Property::CountBound,
        Property::LegalChanges,
        Property::SolverMove,
        Property::GameOverTerminal,
        Property::HumanWonRule,
        Property::IllegalInput,
        Property::MachineAnswers,
    ];
}

/// A cover goal: a game that ends with this winner, started by this player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoverGoal {
    /// The human wins (else the machine).
    pub human_wins: bool,
    /// The machine moved first.
    pub machine_first: bool,
}

impl CoverGoal {
    /// The four goals, in a fixed order.
    pub const ALL: [CoverGoal; 4] = [
        CoverGoal {
            human_wins: true,
            machine_first: false,
        },
        CoverGoal {
            human_wins: false,
            machine_first: false,
        },
        CoverGoal {
            human_wins: true,
            machine_first: true,
        },
        CoverGoal {
            human_wins: false,
            machine_first: true,
        },
    ];

    /// `human-wins-human-first` and so on (file names).
    pub fn name(self) -> String {
        format!(
            "{}-wins-{}-first",
            if self.human_wins { "human" } else { "machine" },
            if self.machine_first {
                "machine"
            } else {
                "human"
            }
        )
    }
}

/// What the wrapper checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Assert every property.
    Prove,
    /// Cover one goal (no assertions).
    Cover(CoverGoal),
}

/// Internal registers of the controller under test, by their flattened names below the
/// wrapper's `dut` instance, for the relations that close the induction. Only the emitted
/// controller has known names; a user's controller is checked at its ports alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Internals {
    /// The "waiting for the human" flag.
    pub waiting: String,
    /// The "machine thinking" flag.
    pub thinking: String,
    /// The think countdown.
    pub count: String,
}

impl Internals {
    /// The registers of retrogate's emitted `sticks_game` (see
    /// [`crate::circuit::sticks_game`]).
    pub fn emitted() -> Self {
        let core = format!("{DUT_INSTANCE}.core");
        Internals {
            waiting: format!("{core}.waiting_for_human$q"),
            thinking: format!("{core}.thinking$q"),
            count: format!("{core}.timer.count"),
        }
    }

    /// `(probe wire in the wrapper, internal net)` pairs the yosys script connects after
    /// flattening.
    pub fn probes(&self) -> Vec<(String, String)> {
        vec![
            ("probe_waiting".to_owned(), self.waiting.clone()),
            ("probe_thinking".to_owned(), self.thinking.clone()),
            ("probe_count".to_owned(), self.count.clone()),
        ]
    }
}

/// A generated wrapper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper {
    /// The Verilog text (module [`WRAPPER_MODULE`]).
    pub verilog: String,
    /// The property of each `assert` line (1-based line numbers).
    pub lines: Vec<(usize, Property)>,
}

impl Wrapper {
    /// The property asserted on `line`.
    pub fn property_at(&self, line: usize) -> Option<Property> {
        self.lines.iter().find(|(l, _)| *l == line).map(|&(_, p)| p)
    }
}

/// What the wrapper needs to know about the game.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// Sticks at the start.
    pub count: u64,
    /// The take set.
    pub take: Vec<u64>,
    /// W: width of `remaining`.
    pub w: usize,
    /// M: width of `take` and `machine_take`.
    pub m: usize,
    /// The solver's move at 0..=count (0 at terminal positions).
    pub moves: Vec<u64>,
    /// The player to move at 0..=count wins (only read at terminal positions).
    pub mover_wins: Vec<bool>,
    /// Machine cycles of thought.
    pub think: u32,
}

impl GameFacts {
    /// The facts of `game` with the machine thinking `think` cycles, from the solver.
    pub fn of(game: &SticksGame, think: u32) -> Self {
        let period = SticksPeriod::find(game).expect("stick games have a period");
        let count = game.count();
        GameFacts {
            count,
            take: game.take().to_vec(),
            w: bits_for(count),
            m: bits_for(game.max_take()),
            moves: (0..=count)
                .map(|n| period.at(n).take.unwrap_or(0))
                .collect(),
            mover_wins: (0..=count)
                .map(|n| period.at(n).value.outcome == Outcome::Win)
                .collect(),
            think,
        }
    }

    /// No move fits `n` sticks.
    pub fn terminal(&self, n: u64) -> bool {
        !self.take.iter().any(|&k| k <= n)
    }
}

/// Lines of Verilog with the property of each assertion recorded.
struct Text {
    text: String,
    lines: Vec<(usize, Property)>,
}

impl Text {
    fn line(&mut self, s: &str) {
        self.text.push_str(s);
        self.text.push('\n');
    }

    fn assert(&mut self, property: Property, condition: &str) {
        let line = self.text.lines().count() + 1;
        self.lines.push((line, property));
        let _ = writeln!(self.text, "        assert ({condition});");
    }
}

/// The wrapper of the controller module `top` for `facts`; `internals` adds the relations of
/// the emitted controller's registers.
pub fn wrapper(facts: &GameFacts, top: &str, internals: bool, check: Check) -> Wrapper {
    let (w, m) = (facts.w, facts.m);
    let k = w.max(m) + 1;
    let tw = bits_for(u64::from(facts.think));
    let cw = bits_for(u64::from(facts.think) + 1);
    let s = 1usize << m;
    let mask = facts.take.iter().fold(0u64, |acc, &t| acc | 1 << t);
    let mut t = Text {
        text: String::new(),
        lines: Vec::new(),
    };
    let mut header = String::new();
    let _ = writeln!(
        header,
        "// Generated by retrogate {} -- do not edit.\n\
         // Formal wrapper of `{top}`: count {}, take {{{}}}, think {} cycles.\n\
         // Tables from the solver (SticksPeriod), never from the controller's ROM or logic.",
        env!("CARGO_PKG_VERSION"),
        facts.count,
        facts
            .take
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        facts.think
    );
    t.text.push_str(&header);
    t.line("`default_nettype none");
    t.line(&format!(
        "module {WRAPPER_MODULE}(\n    input wire clock,\n    input wire reset,\n    input wire new_game,\n    \
         input wire machine_first,\n    input wire [{}:0] take,\n    input wire take_valid\n);",
        m - 1
    ));
    t.line(&format!(
        "    localparam [{}:0] COUNT = {w}'d{};",
        w - 1,
        facts.count
    ));
    t.line(&format!(
        "    localparam [{}:0] THINK = {tw}'d{};",
        tw - 1,
        facts.think
    ));
    t.line(&format!(
        "    localparam [{}:0] TAKE_SET = {s}'d{mask};",
        s - 1
    ));
    t.line(&format!(
        "    // Kept so that every trace shows them.\n    (* keep *) wire [{}:0] remaining;\n    \
         (* keep *) wire human_turn;\n    (* keep *) wire [{}:0] machine_take;\n    \
         (* keep *) wire game_over;\n    (* keep *) wire human_won;\n    (* keep *) wire illegal;",
        w - 1,
        m - 1
    ));
    t.line(&format!(
        "    {top} {DUT_INSTANCE}(.clock(clock), .reset(reset), .new_game(new_game), \
         .machine_first(machine_first), .take(take), .take_valid(take_valid), \
         .remaining(remaining), .human_turn(human_turn), .machine_take(machine_take), \
         .game_over(game_over), .human_won(human_won), .illegal(illegal));"
    ));
    // Solver tables.
    t.line("    // The solver's chosen move at each position (0 where none).");
    t.line(&format!(
        "    function [{}:0] solver_move(input [{}:0] n);\n        case (n)",
        m - 1,
        w - 1
    ));
    for (n, &mv) in facts.moves.iter().enumerate() {
        if mv != 0 {
            t.line(&format!("            {w}'d{n}: solver_move = {m}'d{mv};"));
        }
    }
    t.line(&format!(
        "            default: solver_move = {m}'d0;\n        endcase\n    endfunction"
    ));
    t.line("    // No move fits: the player to move has lost or won by the game's rule.");
    t.line(&format!(
        "    function terminal(input [{}:0] n);\n        terminal = n < {w}'d{};\n    endfunction",
        w - 1,
        facts
            .take
            .iter()
            .min()
            .copied()
            .unwrap_or(1)
            .min(facts.count + 1)
    ));
    t.line("    // At a terminal position: the player to move there has won.");
    t.line(&format!(
        "    function mover_wins(input [{}:0] n);\n        case (n)",
        w - 1
    ));
    for (n, &wins) in facts.mover_wins.iter().enumerate() {
        if wins && facts.terminal(n as u64) {
            t.line(&format!("            {w}'d{n}: mover_wins = 1'b1;"));
        }
    }
    t.line("            default: mover_wins = 1'b0;\n        endcase\n    endfunction");
    t.line(&format!(
        "    function legal(input [{}:0] n, input [{}:0] k);\n        \
         legal = TAKE_SET[k] && {{{}'d0, k}} <= {{{}'d0, n}};\n    endfunction",
        w - 1,
        m - 1,
        k - m,
        k - w
    ));
    t.line(&format!(
        "    function [{}:0] minus(input [{}:0] n, input [{}:0] k);\n        \
         minus = n - k[{}:0];\n    endfunction",
        w - 1,
        w - 1,
        m - 1,
        w.min(m) - 1
    ));
    // Monitor.
    t.line(
        "    // The monitor: the state the controller must be in (the reference model's rules).",
    );
    t.line("    localparam [1:0] OVER = 2'd0, HUMAN = 2'd1, MACHINE = 2'd2;");
    t.line(&format!(
        "    reg [1:0] m_phase = OVER;\n    reg [{}:0] m_wait = {tw}'d0;\n    reg [{}:0] m_remaining = {w}'d0;\n    \
         reg [{}:0] m_take = {m}'d0;\n    reg m_won = 1'b0;\n    reg m_illegal = 1'b0;",
        tw - 1,
        w - 1,
        m - 1
    ));
    t.line(&format!(
        "    wire [{w1}:0] after_human = minus(m_remaining, take);\n    \
         wire [{m1}:0] machine_move = solver_move(m_remaining);\n    \
         wire [{w1}:0] after_machine = minus(m_remaining, machine_move);",
        w1 = w - 1,
        m1 = m - 1
    ));
    t.line(
        "    always @(posedge clock) begin
        m_illegal <= 1'b0;
        if (reset || new_game) begin
            m_remaining <= COUNT;
            m_take <= 0;
            m_wait <= THINK;
            if (terminal(COUNT)) begin
                m_phase <= OVER;
                m_won <= machine_first;
            end else begin
                m_phase <= machine_first ? MACHINE : HUMAN;
                m_won <= 1'b0;
            end
        end else if (m_phase == HUMAN) begin
            if (take_valid) begin
                if (legal(m_remaining, take)) begin
                    m_remaining <= after_human;
                    m_wait <= THINK;
                    if (terminal(after_human)) begin
                        m_phase <= OVER;
                        m_won <= !mover_wins(after_human);
                    end else begin
                        m_phase <= MACHINE;
                    end
                end else begin
                    m_illegal <= 1'b1;
                end
            end
        end else if (m_phase == MACHINE) begin
            m_illegal <= take_valid;
            if (m_wait != 0) begin
                m_wait <= m_wait - 1'b1;
            end else begin
                m_remaining <= after_machine;
                m_take <= machine_move;
                if (terminal(after_machine)) begin
                    m_phase <= OVER;
                    m_won <= mover_wins(after_machine);
                end else begin
                    m_phase <= HUMAN;
                end
            end
        end else begin
            m_illegal <= take_valid;
        end
    end",
    );
    // The previous cycle, for the port-level properties.
    t.line("    // The previous cycle's inputs and outputs.");
    t.line(&format!(
        "    reg p_valid = 1'b0;\n    reg p_start = 1'b0;\n    reg p_machine_first = 1'b0;\n    \
         reg p_take_valid = 1'b0;\n    reg [{m1}:0] p_take = {m}'d0;\n    reg [{w1}:0] p_remaining = {w}'d0;\n    \
         reg p_human_turn = 1'b0;\n    reg [{m1}:0] p_machine_take = {m}'d0;\n    reg p_game_over = 1'b0;\n    \
         reg p_human_won = 1'b0;\n    reg [{c1}:0] machine_wait = {cw}'d0;\n    \
         reg in_game = 1'b0;\n    reg first_machine = 1'b0;",
        m1 = m - 1,
        w1 = w - 1,
        c1 = cw - 1
    ));
    t.line(&format!(
        "    always @(posedge clock) begin
        p_valid <= 1'b1;
        p_start <= reset || new_game;
        p_machine_first <= machine_first;
        p_take_valid <= take_valid;
        p_take <= take;
        p_remaining <= remaining;
        p_human_turn <= human_turn;
        p_machine_take <= machine_take;
        p_game_over <= game_over;
        p_human_won <= human_won;
        if (reset || new_game || human_turn || game_over)
            machine_wait <= {cw}'d0;
        else if (machine_wait != {{{cw}{{1'b1}}}})
            machine_wait <= machine_wait + 1'b1;
        if (reset || new_game) begin
            in_game <= 1'b1;
            first_machine <= machine_first;
        end
    end"
    ));
    t.line(
        "    wire human_moved = p_human_turn && p_take_valid && legal(p_remaining, p_take);
    wire machine_turn_before = !p_human_turn && !p_game_over;
    wire machine_moved = machine_turn_before && remaining != p_remaining;
    wire to_move_is_machine = p_start ? p_machine_first : p_human_turn;
    wire game_ended = game_over && (p_start || !p_game_over);",
    );
    match check {
        Check::Prove => {
            if internals {
                t.line(&format!(
                    "    // Driven after flattening by the controller's own registers.\n    \
                     (* keep *) wire probe_waiting;\n    (* keep *) wire probe_thinking;\n    \
                     (* keep *) wire [{}:0] probe_count;",
                    tw - 1
                ));
            }
            t.line("    always @(*) begin");
            t.line("        // Every output equals the monitor's.");
            for (port, mon) in [
                ("remaining", "m_remaining"),
                ("human_turn", "m_phase == HUMAN"),
                ("machine_take", "m_take"),
                ("game_over", "m_phase == OVER"),
                ("human_won", "m_won"),
                ("illegal", "m_illegal"),
            ] {
                t.assert(Property::Monitor, &format!("{port} == ({mon})"));
            }
            t.assert(Property::Monitor, "m_phase != 2'd3 && m_wait <= THINK");
            t.assert(
                Property::Monitor,
                "m_phase != HUMAN || (in_game && !terminal(m_remaining))",
            );
            t.assert(
                Property::Monitor,
                "m_phase != MACHINE || (in_game && !terminal(m_remaining))",
            );
            t.assert(
                Property::Monitor,
                "m_phase != MACHINE || machine_wait == THINK - m_wait",
            );
            t.assert(
                Property::Monitor,
                "in_game || (m_phase == OVER && m_remaining == 0 && !m_won && m_take == 0)",
            );
            if internals {
                t.line("        // The controller's registers agree with the monitor.");
                t.assert(Property::Internal, "!(probe_waiting && probe_thinking)");
                t.assert(
                    Property::Internal,
                    "probe_count <= THINK && (!probe_thinking || probe_count == m_wait)",
                );
            }
            t.line("        // The properties, at the ports.");
            t.assert(Property::CountBound, "remaining <= COUNT");
            t.assert(
                Property::LegalChanges,
                "!p_valid || (p_start ? remaining == COUNT : (remaining == p_remaining \
                 || (human_moved && remaining == minus(p_remaining, p_take)) \
                 || (machine_turn_before && legal(p_remaining, machine_take) \
                 && remaining == minus(p_remaining, machine_take))))",
            );
            t.assert(
                Property::SolverMove,
                "!p_valid || p_start || !machine_moved || machine_take == solver_move(p_remaining)",
            );
            t.assert(
                Property::SolverMove,
                "!p_valid || (p_start ? machine_take == 0 : \
                 (machine_moved || machine_take == p_machine_take))",
            );
            t.assert(
                Property::GameOverTerminal,
                "game_over == terminal(remaining)",
            );
            t.assert(
                Property::HumanWonRule,
                "!p_valid || !game_ended || human_won == (to_move_is_machine ? \
                 !mover_wins(remaining) : mover_wins(remaining))",
            );
            t.assert(
                Property::HumanWonRule,
                "!p_valid || game_over || !human_won",
            );
            t.assert(
                Property::HumanWonRule,
                "!p_valid || !game_over || game_ended || human_won == p_human_won",
            );
            t.assert(
                Property::IllegalInput,
                "!p_valid || illegal == (p_take_valid && !p_start && !human_moved)",
            );
            t.assert(
                Property::IllegalInput,
                "!p_valid || !illegal || machine_turn_before || (remaining == p_remaining \
                 && human_turn == p_human_turn && machine_take == p_machine_take \
                 && game_over == p_game_over && human_won == p_human_won)",
            );
            t.assert(
                Property::MachineAnswers,
                "human_turn || game_over || machine_wait <= THINK",
            );
            t.line("    end");
        }
        Check::Cover(goal) => {
            t.line("    always @(*) begin");
            t.line(&format!(
                "        cover (in_game && game_ended && !p_start && human_won == 1'b{} \
                 && first_machine == 1'b{});",
                u8::from(goal.human_wins),
                u8::from(goal.machine_first)
            ));
            t.line("    end");
        }
    }
    t.line("endmodule");
    t.line("`default_nettype wire");
    Wrapper {
        verilog: t.text,
        lines: t.lines,
    }
}
