//! `heaps_answers`: the KEGE exam's three answers (tasks 19, 20 and 21) read from the table the
//! on-chip solver left, for the starts `(k, S)` with `S` from 1 to `target - k - 1`. It walks
//! `S` upwards and reads the word of `(k, S)` through [`HeapsGame`](super::heaps_game::HeapsGame)'s
//! probe port, stopping at each `S` that answers the chosen task; the board shows the first one
//! (the smallest `S`, the answer of tasks 19 and 21) and steps to the next (task 20 asks for all).
//!
//! ```text
//!                      +----------------------+
//!   clock ------------>|  HeapsAnswers<W, D>  |---> probe
//!   find ------------->|                      |---> probe_a[W]
//!   advance ---------->|                      |---> probe_b[W]
//!   question[2] ------>|                      |---> busy
//!   first[W] --------->|                      |---> found
//!   target[W] -------->|                      |---> s[W]
//!   probe_winning ---->|                      |
//!   probe_depth[D] --->|                      |
//!   probe_blunder ---->|                      |
//!                      +----------------------+
//! ```
//!
//! W and D are the controller's sizes. Every output is a register, but in the held finder
//! ([`HeapsAnswers::held`]) `probe_a` is the `first` input.
//!
//! # The tasks
//! Exactly the sets of `retrogate kege --start k,S --s 1..(target-k-1) --move ... --end
//! 'sum>=target'` (`solver::kege`), for the game of the last solve, each read from the one word
//! of `(k, S)`:
//! * `question` 0, **task 19**: some first move of Petya from `(k, S)` reaches a position (below the
//!   target) that Vanya wins with his first move: the word's blunder bit, which the solver sets
//!   while it reads those successors anyway ([`super::heaps_solver`]);
//! * `question` 1, **task 20**: Petya wins `(k, S)` with his second move: won at depth 3;
//! * `question` 2, **task 21**: Vanya wins with his first or second move, not surely with the first:
//!   `(k, S)` lost at depth 4.
//!
//! `question` 3 matches no `S`.
//!
//! # Cycle by cycle
//! * Power-on: idle, `found` = 0, `s` = 0.
//! * `find` at an edge samples `question`, `first` (k) and `target` (they must be the solved
//!   game's) and searches from `S` = 1; `advance` at an edge while idle with `found` searches
//!   from the `S` after `s`; otherwise `advance` is ignored. `busy` is high while it searches, and
//!   so is `probe`: the controller must have no game in progress then.
//! * At each `S` (phase Enter): if `k` is 0 or `k + S >= target` the search ends with `found` = 0,
//!   `s` = 0. Otherwise the probe port shows `(k, S)`, the edge that ends Enter reads it, and
//!   the next cycle (phase Test) tests the word.
//! * A match ends the search with `found` = 1 and `s` = that `S`; otherwise `S` goes up.
//!
//! A search costs at most `2 * (target - k)` edges, counting the one that samples `find`.
//!
//! `update()` (rust-hdl's simulation) and `hdl()` (the Verilog, written by hand) are separate
//! code; the tests check the answers against the software and the Verilog against rust-hdl.

use rust_hdl::prelude::*;

/// The phases of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Phase {
    /// Not searching.
    #[default]
    Idle = 0,
    /// At a new `S`: end, or read its word.
    Enter = 1,
    /// The word of `(k, S)` is there: test it.
    Test = 2,
}

/// The registers, as `update()` models them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct State {
    phase: Phase,
    task: u32,
    k: u32,
    target: u32,
    s: u32,
    found: bool,
}

/// The answer finder (see the module docs).
#[derive(LogicBlock)]
pub struct HeapsAnswers<const W: usize, const D: usize> {
    /// The clock.
    pub clock: Signal<In, Clock>,
    /// One-cycle pulse: sample the question and the game, search from `S` = 1.
    pub find: Signal<In, Bit>,
    /// One-cycle pulse: search from the `S` after the one found.
    pub advance: Signal<In, Bit>,
    /// 0: task 19, 1: task 20, 2: task 21, 3: none.
    pub question: Signal<In, Bits<2>>,
    /// The first heap `k` of the starts `(k, S)`.
    pub first: Signal<In, Bits<W>>,
    /// The solved game's target.
    pub target: Signal<In, Bits<W>>,
    /// The word read: the player to move wins.
    pub probe_winning: Signal<In, Bit>,
    /// The word read: its depth.
    pub probe_depth: Signal<In, Bits<D>>,
    /// The word read: some move lets the opponent win with their next move.
    pub probe_blunder: Signal<In, Bit>,
    /// Reading the table (high while searching).
    pub probe: Signal<Out, Bit>,
    /// The first heap of the position to read (`k`).
    pub probe_a: Signal<Out, Bits<W>>,
    /// The second heap of the position to read (`S`).
    pub probe_b: Signal<Out, Bits<W>>,
    /// Searching.
    pub busy: Signal<Out, Bit>,
    /// The search ended at an `S` that answers the task.
    pub found: Signal<Out, Bit>,
    /// That `S` (0 when none).
    pub s: Signal<Out, Bits<W>>,
    /// [`HeapsAnswers::held`]: `question`, `first` and `target` read live.
    _held: bool,
    _state: State,
}

impl<const W: usize, const D: usize> HeapsAnswers<W, D> {
    /// The finder, idle, `connect_all()` done.
    ///
    /// # Panics
    /// Unless `D = W + 1`.
    pub fn new() -> Self {
        Self::build(false)
    }

    /// The finder for a parent that holds `question`, `first` and `target` from each `find`
    /// until the search is over (the Go Board's pages): it reads them live instead of keeping
    /// copies, so `probe_a` follows `first` without a register. Same ports; under that
    /// condition, the same behaviour.
    ///
    /// # Panics
    /// As [`Self::new`].
    pub fn held() -> Self {
        Self::build(true)
    }

    fn build(held: bool) -> Self {
        assert_eq!(D, W + 1, "D = W + 1");
        let mut block = Self {
            clock: Default::default(),
            find: Default::default(),
            advance: Default::default(),
            question: Default::default(),
            first: Default::default(),
            target: Default::default(),
            probe_winning: Default::default(),
            probe_depth: Default::default(),
            probe_blunder: Default::default(),
            probe: Default::default(),
            probe_a: Default::default(),
            probe_b: Default::default(),
            busy: Default::default(),
            found: Default::default(),
            s: Default::default(),
            _held: held,
            _state: State::default(),
        };
        block.connect_all();
        block
    }

    /// The registers, with the held finder's live `question`, `first` and `target` in place
    /// of its copies.
    fn registers(&self) -> State {
        let mut s = self._state;
        if self._held {
            s.task = self.question.val().to_u64() as u32;
            s.k = self.first.val().to_u64() as u32;
            s.target = self.target.val().to_u64() as u32;
        }
        s
    }

    /// The registers after the next edge.
    fn next_state(&self) -> State {
        let s = self.registers();
        let mut n = s;
        let w_mask = (1u32 << W) - 1;
        if self.find.val() {
            return State {
                phase: Phase::Enter,
                task: self.question.val().to_u64() as u32,
                k: self.first.val().to_u64() as u32,
                target: self.target.val().to_u64() as u32,
                s: 1,
                found: false,
            };
        }
        match s.phase {
            Phase::Idle => {
                if self.advance.val() && s.found {
                    n.phase = Phase::Enter;
                    n.found = false;
                    n.s = (s.s + 1) & w_mask;
                }
            }
            Phase::Enter => {
                if s.k == 0 || s.k + s.s >= s.target {
                    n.phase = Phase::Idle;
                    n.found = false;
                    n.s = 0;
                } else if s.task == 3 {
                    n.s = (s.s + 1) & w_mask;
                } else {
                    n.phase = Phase::Test;
                }
            }
            Phase::Test => {
                let won = self.probe_winning.val();
                let depth = self.probe_depth.val().to_u64();
                let member = match s.task {
                    0 => self.probe_blunder.val(),
                    1 => won && depth == 3,
                    _ => !won && depth == 4,
                };
                if member {
                    n.phase = Phase::Idle;
                    n.found = true;
                } else {
                    n.phase = Phase::Enter;
                    n.s = (s.s + 1) & w_mask;
                }
            }
        }
        n
    }

    /// The Verilog body (ports are declared by rust-hdl); `held` as [`Self::held`].
    fn body(held: bool) -> String {
        let wm = W - 1;
        let (copies, copies_init, sample) = if held {
            (
                format!(
                    "\
// The question and the game: the parent holds them while a search runs.
wire [1:0] task_r = question;
wire [{wm}:0] k = first;
wire [{wm}:0] target_r = target;"
                ),
                String::new(),
                "",
            )
        } else {
            (
                format!(
                    "\
reg [1:0] task_r;
reg [{wm}:0] k;
reg [{wm}:0] target_r;"
                ),
                format!(
                    "
    task_r = 2'd0;
    k = {W}'d0;
    target_r = {W}'d0;"
                ),
                "
        task_r <= question;
        k <= first;
        target_r <= target;",
            )
        };
        format!(
            "\
// The phases: idle, enter an S (its word is read at the edge that ends it), test the word.
localparam [1:0] IDLE = 2'd0;
localparam [1:0] ENTER = 2'd1;
localparam [1:0] TEST = 2'd2;
reg [1:0] phase;
{copies}
reg [{wm}:0] s_r;
reg found_r;
initial begin
    phase = IDLE;{copies_init}
    s_r = {W}'d0;
    found_r = 1'b0;
end
wire [{W}:0] start_sum = {{1'b0, k}} + {{1'b0, s_r}};
wire outside = (k == {W}'d0) | (start_sum >= {{1'b0, target_r}});
wire member = (task_r == 2'd0) ? probe_blunder
    : (task_r == 2'd1) ? (probe_winning & (probe_depth == {D}'d3))
    : (~probe_winning & (probe_depth == {D}'d4));
always @(posedge clock) begin
    if (find) begin
        phase <= ENTER;{sample}
        s_r <= {W}'d1;
        found_r <= 1'b0;
    end else begin
        case (phase)
        IDLE: begin
            if (advance & found_r) begin
                phase <= ENTER;
                found_r <= 1'b0;
                s_r <= s_r + {W}'d1;
            end
        end
        ENTER: begin
            if (outside) begin
                phase <= IDLE;
                found_r <= 1'b0;
                s_r <= {W}'d0;
            end else if (task_r == 2'd3) begin
                s_r <= s_r + {W}'d1;
            end else begin
                phase <= TEST;
            end
        end
        TEST: begin
            if (member) begin
                phase <= IDLE;
                found_r <= 1'b1;
            end else begin
                phase <= ENTER;
                s_r <= s_r + {W}'d1;
            end
        end
        default: phase <= IDLE;
        endcase
    end
end
always @(*) begin
    probe = (phase != IDLE);
    probe_a = k;
    probe_b = s_r;
    busy = (phase != IDLE);
    found = found_r;
    s = s_r;
end
"
        )
    }
}

impl<const W: usize, const D: usize> Default for HeapsAnswers<W, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const D: usize> Logic for HeapsAnswers<W, D> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._state = self.next_state();
        }
        let s = self.registers();
        self.probe.next = s.phase != Phase::Idle;
        self.probe_a.next = bits::<W>(u64::from(s.k));
        self.probe_b.next = bits::<W>(u64::from(s.s));
        self.busy.next = s.phase != Phase::Idle;
        self.found.next = s.found;
        self.s.next = bits::<W>(u64::from(s.s));
    }

    fn connect(&mut self) {
        self.probe.connect();
        self.probe_a.connect();
        self.probe_b.connect();
        self.busy.connect();
        self.found.connect();
        self.s.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(Self::body(self._held))
    }
}

/// The controller and the finder wired as a board wires them: the game solved from the start
/// (0, 0), which is over at once, so the finder may read the table.
#[cfg(test)]
pub(crate) mod exam {
    use super::*;
    use crate::circuit::heaps_game::HeapsGame;
    use crate::circuit::heaps_solver::HeapsRequest;

    /// T = 63, A = 2, M = 3: the board size. Compact: [`HeapsGame::compact`] and
    /// [`HeapsAnswers::held`], as the Go Board wires them (the driver holds the rules and the
    /// question while they work).
    #[derive(LogicBlock)]
    pub(crate) struct Exam {
        pub clock: Signal<In, Clock>,
        pub new_game: Signal<In, Bit>,
        pub adds: Signal<In, Bits<2>>,
        pub muls: Signal<In, Bits<3>>,
        pub target: Signal<In, Bits<6>>,
        pub last_wins: Signal<In, Bit>,
        pub first: Signal<In, Bits<6>>,
        pub find: Signal<In, Bit>,
        pub advance: Signal<In, Bit>,
        pub question: Signal<In, Bits<2>>,
        pub solving: Signal<Out, Bit>,
        pub busy: Signal<Out, Bit>,
        pub found: Signal<Out, Bit>,
        pub s: Signal<Out, Bits<6>>,
        game: HeapsGame<6, 7, 2, 3, 3, 8>,
        answers: HeapsAnswers<6, 7>,
    }

    impl Exam {
        pub(crate) fn new(compact: bool) -> Self {
            let mut block = Self {
                clock: Default::default(),
                new_game: Default::default(),
                adds: Default::default(),
                muls: Default::default(),
                target: Default::default(),
                last_wins: Default::default(),
                first: Default::default(),
                find: Default::default(),
                advance: Default::default(),
                question: Default::default(),
                solving: Default::default(),
                busy: Default::default(),
                found: Default::default(),
                s: Default::default(),
                game: if compact {
                    HeapsGame::compact(0)
                } else {
                    HeapsGame::new(0)
                },
                answers: if compact {
                    HeapsAnswers::held()
                } else {
                    HeapsAnswers::new()
                },
            };
            block.connect_all();
            block
        }
    }

    impl Logic for Exam {
        #[hdl_gen]
        fn update(&mut self) {
            self.game.clock.next = self.clock.val();
            self.game.tick.next = true;
            self.game.reset.next = false;
            self.game.adds.next = self.adds.val();
            self.game.muls.next = self.muls.val();
            self.game.target.next = self.target.val();
            self.game.last_wins.next = self.last_wins.val();
            self.game.start_a.next = 0.into();
            self.game.start_b.next = 0.into();
            self.game.machine_first.next = false;
            self.game.new_game.next = self.new_game.val();
            self.game.heap.next = false;
            self.game.move_index.next = 0.into();
            self.game.move_valid.next = false;
            self.game.probe.next = self.answers.probe.val();
            self.game.probe_a.next = self.answers.probe_a.val();
            self.game.probe_b.next = self.answers.probe_b.val();
            self.answers.clock.next = self.clock.val();
            self.answers.find.next = self.find.val();
            self.answers.advance.next = self.advance.val();
            self.answers.question.next = self.question.val();
            self.answers.first.next = self.first.val();
            self.answers.target.next = self.target.val();
            self.answers.probe_winning.next = self.game.probe_winning.val();
            self.answers.probe_depth.next = self.game.probe_depth.val();
            self.answers.probe_blunder.next = self.game.probe_blunder.val();
            self.solving.next = self.game.solving.val();
            self.busy.next = self.answers.busy.val();
            self.found.next = self.answers.found.val();
            self.s.next = self.answers.s.val();
        }
    }

    /// One cycle's inputs: new_game, find, advance.
    #[derive(Clone, Copy, Default)]
    pub(crate) struct Pulse {
        pub new_game: bool,
        pub find: bool,
        pub advance: bool,
    }

    /// Drives an [`Exam`] in rust-hdl, recording each cycle's input row.
    pub(crate) struct Driver {
        pub block: Exam,
        pub rows: Vec<Vec<u64>>,
        config: [u64; 6],
    }

    impl Driver {
        pub(crate) fn new(compact: bool) -> Self {
            Driver {
                block: Exam::new(compact),
                rows: Vec::new(),
                config: [0; 6],
            }
        }

        /// One edge with `pulse`; the outputs after it: solving, busy, found, s.
        pub(crate) fn step(&mut self, pulse: Pulse) -> (bool, bool, bool, u32) {
            let [adds, muls, target, last, first, question] = self.config;
            let row = vec![
                u64::from(pulse.new_game),
                adds,
                muls,
                target,
                last,
                first,
                u64::from(pulse.find),
                u64::from(pulse.advance),
                question,
            ];
            let b = &mut self.block;
            b.clock.next = Clock { clk: false };
            b.new_game.next = pulse.new_game;
            b.adds.next = bits::<2>(adds);
            b.muls.next = bits::<3>(muls);
            b.target.next = bits::<6>(target);
            b.last_wins.next = last != 0;
            b.first.next = bits::<6>(first);
            b.find.next = pulse.find;
            b.advance.next = pulse.advance;
            b.question.next = bits::<2>(question);
            crate::circuit::settle(b);
            b.clock.next = Clock { clk: true };
            crate::circuit::settle(b);
            self.rows.push(row);
            let b = &self.block;
            (
                b.solving.val(),
                b.busy.val(),
                b.found.val(),
                b.s.val().to_u64() as u32,
            )
        }

        /// Solves `rules` (start (0, 0): no game), then lists the S the finder gives for each
        /// question from first heap `k`, stepping with `advance`; and the edges of the
        /// longest search.
        pub(crate) fn answers(&mut self, rules: &HeapsRequest, k: u32) -> ([Vec<u32>; 3], u64) {
            self.config = [
                u64::from(rules.adds),
                u64::from(rules.muls),
                u64::from(rules.target),
                u64::from(rules.last_wins),
                u64::from(k),
                0,
            ];
            let mut o = self.step(Pulse {
                new_game: true,
                ..Pulse::default()
            });
            let mut guard = 0;
            while o.0 {
                o = self.step(Pulse::default());
                guard += 1;
                assert!(guard < 100_000, "{rules}: the solve never ended");
            }
            let mut out: [Vec<u32>; 3] = Default::default();
            let mut longest = 0;
            for (q, list) in out.iter_mut().enumerate() {
                self.config[5] = q as u64;
                let mut pulse = Pulse {
                    find: true,
                    ..Pulse::default()
                };
                loop {
                    let mut o = self.step(pulse);
                    let mut edges = 1;
                    while o.1 {
                        o = self.step(Pulse::default());
                        edges += 1;
                        assert!(edges < 100_000, "{rules}: the search never ended");
                    }
                    longest = longest.max(edges);
                    if !o.2 {
                        assert_eq!(o.3, 0, "{rules}: s is 0 when nothing is found");
                        break;
                    }
                    list.push(o.3);
                    assert!(list.len() < 64, "{rules}: the search does not end");
                    pulse = Pulse {
                        advance: true,
                        ..Pulse::default()
                    };
                }
            }
            (out, longest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::exam::Driver;
    use crate::bench::heaps_solver::kege_answers;
    use crate::bench::sequential::SplitMix64;
    use crate::circuit::heaps_solver::HeapsRequest;

    /// The seed's game: (3, S), +1 and *4, sum >= 61, last move wins.
    pub(super) const SEED: HeapsRequest = HeapsRequest {
        adds: 0b01,
        muls: 0b100,
        target: 61,
        last_wins: true,
    };

    /// The seed's game on the chip gives the seed's answers (task 19: 4; task 20: 12 and 14;
    /// task 21: 13), and every S the software lists, in order; so does the compact pair.
    #[test]
    fn the_seed_game_gives_the_exam_answers() {
        for compact in [false, true] {
            let mut d = Driver::new(compact);
            let (got, longest) = d.answers(&SEED, 3);
            assert_eq!(got, kege_answers(&SEED, 3));
            assert_eq!(got[0].first(), Some(&4));
            assert_eq!(got[1], [12, 14]);
            assert_eq!(got[2].first(), Some(&13));
            // Within the documented bound: 2 (target - k) edges.
            assert!(longest <= 2 * (61 - 3), "{longest}");
        }
    }

    /// Random games (moves, target, rule, k; k past the target gives nothing) on one circuit,
    /// each answered like the software, by the plain pair and by the compact one.
    #[test]
    fn random_games_answer_like_the_software() {
        for compact in [false, true] {
            random_games_answer(compact);
        }
    }

    fn random_games_answer(compact: bool) {
        let mut rng = SplitMix64::new(19_20_21);
        let mut d = Driver::new(compact);
        let mut nonempty = 0;
        for game in 0..16 {
            // Every fourth game a random one (maybe no move, k maybe past the target); the
            // others with a move, a target of 20 or more and a small k, where answers abound.
            let wild = game % 4 == 3;
            let rules = HeapsRequest {
                adds: if wild {
                    rng.next_u64() % 4
                } else {
                    1 + rng.next_u64() % 3
                } as u32,
                muls: (rng.next_u64() % 8) as u32,
                target: if wild {
                    3 + rng.next_u64() % 61
                } else {
                    20 + rng.next_u64() % 44
                } as u32,
                last_wins: rng.next_u64().is_multiple_of(2),
            };
            let k_range = if wild {
                rules.target + 1
            } else {
                rules.target / 3
            };
            let k = u32::from(!wild) + (rng.next_u64() % u64::from(k_range)) as u32;
            let (got, _) = d.answers(&rules, k);
            let want = kege_answers(&rules, k);
            assert_eq!(got, want, "{rules}, k = {k}, compact {compact}");
            nonempty += usize::from(want.iter().any(|l| !l.is_empty()));
        }
        assert!(
            nonempty >= 8,
            "{nonempty} games with answers: too few to compare"
        );
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::exam::{Driver, Exam};
    use super::tests::SEED;
    use super::*;
    use crate::bench::heaps_solver::kege_answers;
    use crate::circuit::heaps_solver::HeapsRequest;
    use crate::circuit::sim::trace::{port, TraceBench};
    use crate::flow::testing::work_dir;

    fn apply(b: &mut Exam, r: &[u64]) {
        b.new_game.next = r[0] != 0;
        b.adds.next = bits::<2>(r[1]);
        b.muls.next = bits::<3>(r[2]);
        b.target.next = bits::<6>(r[3]);
        b.last_wins.next = r[4] != 0;
        b.first.next = bits::<6>(r[5]);
        b.find.next = r[6] != 0;
        b.advance.next = r[7] != 0;
        b.question.next = bits::<2>(r[8]);
    }

    fn sample(b: &Exam) -> Vec<u64> {
        vec![
            u64::from(b.solving.val()),
            u64::from(b.busy.val()),
            u64::from(b.found.val()),
            b.s.val().to_u64(),
        ]
    }

    /// The seed's game and one with the other rule, answered like the software in rust-hdl,
    /// then replayed on the emitted Verilog under Icarus and on its iCE40 netlist: every
    /// output equal at every cycle; for the plain pair and the compact one.
    #[test]
    fn the_emitted_verilog_and_netlist_answer_like_rust_hdl() {
        for compact in [false, true] {
            answer_like_rust_hdl(compact);
        }
    }

    fn answer_like_rust_hdl(compact: bool) {
        let dir = work_dir("heaps-answers-verilog");
        let mut d = Driver::new(compact);
        let loses = HeapsRequest {
            adds: 0b11,
            muls: 0b001,
            target: 40,
            last_wins: false,
        };
        for (rules, k) in [(SEED, 3), (loses, 2)] {
            let (got, _) = d.answers(&rules, k);
            assert_eq!(got, kege_answers(&rules, k), "{rules}, k = {k}");
        }
        let verilog = crate::verilog::emit(&Exam::new(compact), "heaps_exam").expect("Verilog");
        let mut bench = TraceBench {
            module: "heaps_exam".into(),
            clock_name: "clock".into(),
            clock: |b: &mut Exam| &mut b.clock,
            inputs: vec![
                port("new_game", 1),
                port("adds", 2),
                port("muls", 3),
                port("target", 6),
                port("last_wins", 1),
                port("first", 6),
                port("find", 1),
                port("advance", 1),
                port("question", 2),
            ],
            outputs: vec![
                port("solving", 1),
                port("busy", 1),
                port("found", 1),
                port("s", 6),
            ],
            apply,
            sample,
            switches: vec![],
        };
        bench.compare_with_gates(Exam::new(compact), &verilog, &d.rows, dir.path());
    }
}
