// STAND-IN: replaced by the real controller on merge.
//
// This file exists so the board tops (src/circuit/top/) and the build flow
// can be written and tested before the real `sticks_game` controller lands.
// It keeps EXACTLY the agreed port contract and constructor shape; its
// insides are deliberately plain. Nothing outside `src/circuit/top/` and its
// tests depends on anything here but the ports and `new`.

//! STAND-IN sticks-game controller (to be replaced by the real one).
//!
//! ```text
//!                     +---------------------+
//!   clock        ---->|                     |----> remaining[W]
//!   reset        ---->|                     |----> human_turn
//!   new_game     ---->|  SticksGame<W, M>   |----> machine_take[M]
//!   machine_first --->|                     |----> game_over
//!   take[M]      ---->|                     |----> human_won
//!   take_valid   ---->|                     |----> illegal
//!                     +---------------------+
//! ```
//!
//! Contract (shared with the real controller): `reset` is synchronous,
//! active high; `new_game` and `take_valid` are one-cycle pulses;
//! `machine_first` is a level sampled when a game starts; `illegal` is a
//! one-cycle pulse. W = bits of the stick count (at most 8), M = bits of the
//! largest take (at most 4).
//!
//! Stand-in behaviour: `reset` or `new_game` starts a game with `count`
//! sticks, the human to move unless `machine_first`. A legal take (in the
//! mask, at most the sticks left) on the human's turn removes the sticks;
//! the machine then waits `think_cycles` cycles and plays the table's move
//! (`table.row(remaining)`, or the smallest legal take where the table has
//! none). Any other `take_valid` during a game pulses `illegal`. The game
//! ends when the player to move cannot move (fewer sticks than the smallest
//! take); like Fort Boyard, **whoever takes the last stick loses**, and a
//! player left with sticks but no legal take loses too.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use crate::circuit::board_io::width_for;
use crate::circuit::sized;
use crate::logic::TruthTable;

/// STAND-IN sticks controller; see the module docs for the port contract.
#[derive(LogicBlock, Default)]
pub struct SticksGame<const W: usize, const M: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (starts a new game).
    pub reset: Signal<In, Bit>,
    /// One-cycle pulse: start a new game.
    pub new_game: Signal<In, Bit>,
    /// Level, sampled at game start: the machine moves first.
    pub machine_first: Signal<In, Bit>,
    /// The human's take.
    pub take: Signal<In, Bits<M>>,
    /// One-cycle pulse: `take` is the human's move.
    pub take_valid: Signal<In, Bit>,
    /// Sticks left.
    pub remaining: Signal<Out, Bits<W>>,
    /// The human is to move.
    pub human_turn: Signal<Out, Bit>,
    /// The machine's last take (0 before its first move).
    pub machine_take: Signal<Out, Bits<M>>,
    /// The game has ended.
    pub game_over: Signal<Out, Bit>,
    /// At game over: the human won.
    pub human_won: Signal<Out, Bit>,
    /// One-cycle pulse: a `take_valid` that was not a legal move.
    pub illegal: Signal<Out, Bit>,
    _params: Params,
    _state: State,
}

#[derive(Clone, Debug, Default)]
struct Params {
    take_mask: u16,
    count: u64,
    think_cycles: u64,
    min_take: u64,
    /// The machine's move for each count of sticks (0 = none).
    moves: Vec<u64>,
}

#[derive(Clone, Debug, Default)]
struct State {
    remaining: u64,
    human_turn: bool,
    thinking: bool,
    think_count: u64,
    machine_take: u64,
    game_over: bool,
    human_won: bool,
    illegal: bool,
    // Pipeline registers, loaded every cycle (see `edge`).
    h_valid: bool,
    h_turn: bool,
    h_legal: bool,
    h_after: u64,
    m_move: u64,
    m_after: u64,
}

impl<const W: usize, const M: usize> SticksGame<W, M> {
    /// STAND-IN constructor with the agreed shape.
    ///
    /// `table`: the machine's move (M bits) for each count of sticks (W
    /// inputs); `take_mask`: bit `k` set = taking `k` is allowed; `count`:
    /// sticks at the start; `think_cycles`: cycles the machine waits before
    /// moving (the stand-in waits at least 2).
    ///
    /// # Panics
    /// If the shapes do not fit (W not 1..=8, M not 1..=4, `count` not below
    /// `2^W`, a take in the mask not below `2^M`, an empty mask or bit 0 set).
    pub fn new(table: &TruthTable, take_mask: u16, count: u64, think_cycles: u32) -> Self {
        assert!((1..=8).contains(&W), "SticksGame: W must be 1..=8");
        assert!((1..=4).contains(&M), "SticksGame: M must be 1..=4");
        assert!(
            count >= 1 && count < 1 << W,
            "SticksGame: count must fit W bits"
        );
        assert!(
            take_mask != 0 && take_mask & 1 == 0 && u32::from(take_mask) >> (1 << M) == 0,
            "SticksGame: take_mask {take_mask:#b} must allow takes 1..2^M"
        );
        let legal = |t: u64, r: u64| t != 0 && t <= r && take_mask >> t & 1 == 1;
        let min_take = u64::from(take_mask.trailing_zeros());
        let moves = (0..1u64 << W)
            .map(|r| {
                let wanted = u32::try_from(r)
                    .ok()
                    .and_then(|code| table.row(code))
                    .map_or(0, u64::from);
                if legal(wanted, r) {
                    wanted
                } else {
                    (1..16).find(|&t| legal(t, r)).unwrap_or(0)
                }
            })
            .collect();
        let mut block = Self {
            _params: Params {
                take_mask,
                count,
                think_cycles: u64::from(think_cycles.max(2)),
                min_take,
                moves,
            },
            ..Self::default()
        };
        block.start_game(false);
        block.connect_all();
        block
    }

    fn start_game(&mut self, machine_first: bool) {
        let p = &self._params;
        let stuck = p.count < p.min_take;
        let s = &mut self._state;
        s.remaining = p.count;
        s.human_turn = !stuck && !machine_first;
        s.thinking = !stuck && machine_first;
        s.think_count = 0;
        s.machine_take = 0;
        s.game_over = stuck;
        s.human_won = stuck && machine_first;
    }

    /// One rising edge. The stand-in is pipelined for 100 MHz: every cycle
    /// it registers the human's take (valid, on-turn, legal, sticks after)
    /// and the machine's move for the current count; the state changes one
    /// cycle later from those registers. A take is therefore applied on the
    /// edge after the one that sees `take_valid`.
    fn edge(&mut self) {
        let p = self._params.clone();
        let w_mask = (1u64 << W) - 1;
        let (take, valid) = (self.take.val().to_u64(), self.take_valid.val());
        let restart = self.reset.val() || self.new_game.val();
        let first = self.machine_first.val();
        let s = self._state.clone();
        // Next pipeline registers, from the values before the edge.
        let legal = take != 0 && take <= s.remaining && p.take_mask >> take & 1 == 1;
        let m_move = p.moves[s.remaining as usize];
        let next_h = (
            valid && !restart,
            s.human_turn && !s.game_over,
            legal,
            s.remaining.wrapping_sub(take) & w_mask,
            m_move,
            s.remaining.wrapping_sub(m_move) & w_mask,
        );
        // The state, from the registers loaded at the previous edge.
        self._state.illegal = false;
        if restart {
            self.start_game(first);
        } else if !s.game_over {
            let apply = s.h_valid && s.h_turn && s.human_turn && s.h_legal;
            let st = &mut self._state;
            if s.h_valid && !apply {
                st.illegal = true;
            }
            if apply {
                st.remaining = s.h_after;
                st.human_turn = false;
                if s.h_after < p.min_take {
                    st.game_over = true;
                    st.human_won = s.h_after != 0;
                } else {
                    st.thinking = true;
                    st.think_count = 0;
                }
            }
            if s.thinking {
                if s.think_count == p.think_cycles - 1 {
                    st.remaining = s.m_after;
                    st.machine_take = s.m_move;
                    st.thinking = false;
                    if s.m_after < p.min_take {
                        st.game_over = true;
                        st.human_won = s.m_after == 0;
                    } else {
                        st.human_turn = true;
                    }
                } else {
                    st.think_count += 1;
                }
            }
        }
        let st = &mut self._state;
        (
            st.h_valid, st.h_turn, st.h_legal, st.h_after, st.m_move, st.m_after,
        ) = next_h;
    }
}

impl<const W: usize, const M: usize> Logic for SticksGame<W, M> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.edge();
        }
        let s = &self._state;
        self.remaining.next = s.remaining.into();
        self.human_turn.next = s.human_turn;
        self.machine_take.next = s.machine_take.into();
        self.game_over.next = s.game_over;
        self.human_won.next = s.human_won;
        self.illegal.next = s.illegal;
    }

    fn connect(&mut self) {
        self.remaining.connect();
        self.human_turn.connect();
        self.machine_take.connect();
        self.game_over.connect();
        self.human_won.connect();
        self.illegal.connect();
    }

    fn hdl(&self) -> Verilog {
        let p = &self._params;
        let tw = width_for(p.think_cycles - 1);
        let (wz, mz, tz) = (sized(W, 0), sized(M, 0), sized(tw, 0));
        let min_w = sized(8, p.min_take);
        let mut code = format!(
            "// STAND-IN sticks controller: {count} sticks, takes {mask:#b}, machine waits {think} cycles.\n\
             // Pipelined: the take and the machine's move are registered one cycle before they apply.\n\
             localparam [15:0] TAKE_MASK = 16'b{mask:016b};\n\
             reg thinking;\n\
             reg [{ttop}:0] think_count;\n\
             reg [{mtop}:0] move;\n\
             reg h_valid, h_turn, h_legal;\n\
             reg [{wtop}:0] h_after;\n\
             reg [{mtop}:0] m_move;\n\
             reg [{wtop}:0] m_after;\n\
             wire restart = reset || new_game;\n\
             wire legal = TAKE_MASK[take] && (take != {mz}) && (take <= remaining);\n\
             wire apply = h_valid && h_turn && human_turn && h_legal;\n\
             initial begin\n\
             \x20   remaining = {count_w};\n\
             \x20   human_turn = 1'b{h0};\n\
             \x20   thinking = 1'b0;\n\
             \x20   think_count = {tz};\n\
             \x20   machine_take = {mz};\n\
             \x20   game_over = 1'b{g0};\n\
             \x20   human_won = 1'b0;\n\
             \x20   illegal = 1'b0;\n\
             \x20   h_valid = 1'b0;\n\
             \x20   h_turn = 1'b0;\n\
             \x20   h_legal = 1'b0;\n\
             \x20   h_after = {wz};\n\
             \x20   m_move = {mz};\n\
             \x20   m_after = {wz};\n\
             end\n\
             always @(*) begin\n    case (remaining)\n",
            count = p.count,
            mask = p.take_mask,
            think = p.think_cycles,
            ttop = tw - 1,
            mtop = M - 1,
            wtop = W - 1,
            count_w = sized(W, p.count),
            h0 = u8::from(self._state.human_turn),
            g0 = u8::from(self._state.game_over),
        );
        for (r, &m) in p.moves.iter().enumerate() {
            if m != 0 {
                let _ = writeln!(
                    code,
                    "        {}: move = {};",
                    sized(W, r as u64),
                    sized(M, m)
                );
            }
        }
        let _ = write!(
            code,
            "        default: move = {mz};\n    endcase\nend\n\
             always @(posedge clock) begin\n\
             \x20   h_valid <= take_valid && !restart;\n\
             \x20   h_turn <= human_turn && !game_over;\n\
             \x20   h_legal <= legal;\n\
             \x20   h_after <= remaining - take;\n\
             \x20   m_move <= move;\n\
             \x20   m_after <= remaining - move;\n\
             \x20   illegal <= 1'b0;\n\
             \x20   if (restart) begin\n\
             \x20       remaining <= {count_w};\n\
             \x20       machine_take <= {mz};\n\
             \x20       think_count <= {tz};\n\
             \x20       if ({count8} < {min_w}) begin\n\
             \x20           game_over <= 1'b1;\n\
             \x20           human_won <= machine_first;\n\
             \x20           human_turn <= 1'b0;\n\
             \x20           thinking <= 1'b0;\n\
             \x20       end else begin\n\
             \x20           game_over <= 1'b0;\n\
             \x20           human_won <= 1'b0;\n\
             \x20           human_turn <= !machine_first;\n\
             \x20           thinking <= machine_first;\n\
             \x20       end\n\
             \x20   end else if (!game_over) begin\n\
             \x20       if (h_valid && !apply) illegal <= 1'b1;\n\
             \x20       if (apply) begin\n\
             \x20           remaining <= h_after;\n\
             \x20           human_turn <= 1'b0;\n\
             \x20           if ({{8'd0, h_after}} < {min_w}) begin\n\
             \x20               game_over <= 1'b1;\n\
             \x20               human_won <= (h_after != {wz});\n\
             \x20           end else begin\n\
             \x20               thinking <= 1'b1;\n\
             \x20               think_count <= {tz};\n\
             \x20           end\n\
             \x20       end\n\
             \x20       if (thinking) begin\n\
             \x20           if (think_count == {tlast}) begin\n\
             \x20               remaining <= m_after;\n\
             \x20               machine_take <= m_move;\n\
             \x20               thinking <= 1'b0;\n\
             \x20               if ({{8'd0, m_after}} < {min_w}) begin\n\
             \x20                   game_over <= 1'b1;\n\
             \x20                   human_won <= (m_after == {wz});\n\
             \x20               end else begin\n\
             \x20                   human_turn <= 1'b1;\n\
             \x20               end\n\
             \x20           end else begin\n\
             \x20               think_count <= think_count + {tone};\n\
             \x20           end\n\
             \x20       end\n\
             \x20   end\n\
             end\n",
            tone = sized(tw, 1),
            tlast = sized(tw, p.think_cycles - 1),
            count_w = sized(W, p.count),
            count8 = sized(8, p.count),
        );
        Verilog::Custom(code)
    }
}

/// The machine's moves for a subtraction game as the controller's table:
/// `W` inputs (sticks left), `M` outputs (the take); the solver's best move
/// where the player to move can win, a don't-care elsewhere.
pub fn strategy_table(game: &crate::game::SticksGame, w: usize, m: usize) -> TruthTable {
    use crate::solver::Outcome;
    let solution = crate::solver::solve(game);
    let rows = (0..1usize << w)
        .map(|n| {
            if n > game.count() as usize || solution.value(n).outcome != Outcome::Win {
                return None;
            }
            solution.best_move(n).map(|(take, _)| take as u32)
        })
        .collect();
    TruthTable::new(w, m, rows).expect("takes fit M bits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::sim::Stepper;
    use crate::game::{Last, SticksGame as Rules};

    pub(crate) fn fort_boyard(think: u32) -> SticksGame<5, 2> {
        let rules = Rules::fort_boyard();
        SticksGame::new(&strategy_table(&rules, 5, 2), 0b1110, 18, think)
    }

    /// A one-cycle take, then the cycle in which the stand-in applies it.
    fn take(s: &mut Stepper<SticksGame<5, 2>>, t: u64) {
        s.block.take.next = t.into();
        s.block.take_valid.next = true;
        s.step();
        s.block.take_valid.next = false;
        s.step();
    }

    /// The table follows the solver: from 18 sticks (misère, take 1..3) the
    /// winning move leaves 4k + 1.
    #[test]
    fn strategy_table_is_fort_boyard() {
        let t = strategy_table(&Rules::fort_boyard(), 5, 2);
        assert_eq!(t.row(18), Some(1));
        assert_eq!(t.row(4), Some(3));
        assert_eq!(t.row(5), None, "losing position: don't care");
        assert_eq!(t.row(1), None);
        assert_eq!(t.row(25), None, "beyond the start");
        let normal = Rules::new(20, &[1, 2, 3], Last::Wins).unwrap();
        assert_eq!(strategy_table(&normal, 5, 2).row(20), None);
    }

    /// A whole game: the human takes, the machine answers after thinking,
    /// an illegal take pulses `illegal`, and the machine wins from 18.
    #[test]
    fn stand_in_plays_fort_boyard() {
        let mut s = Stepper::new(fort_boyard(3), |b| &mut b.clock);
        s.block.reset.next = true;
        s.step();
        s.block.reset.next = false;
        s.settle();
        assert_eq!(s.block.remaining.val(), 18);
        assert!(s.block.human_turn.val());
        take(&mut s, 2);
        assert_eq!(s.block.remaining.val(), 16);
        assert!(!s.block.human_turn.val());
        take(&mut s, 1);
        assert!(s.block.illegal.val(), "out of turn");
        s.step();
        assert!(s.block.human_turn.val(), "machine moved after 3 cycles");
        assert_eq!(s.block.remaining.val(), 13);
        assert_eq!(s.block.machine_take.val(), 3);
        take(&mut s, 0);
        assert!(s.block.illegal.val());
        s.step();
        assert!(!s.block.illegal.val(), "one-cycle pulse");
        while !s.block.game_over.val() {
            if s.block.human_turn.val() {
                take(&mut s, 1);
            } else {
                s.step();
            }
        }
        assert_eq!(s.block.remaining.val(), 0);
        assert!(!s.block.human_won.val(), "the human took the last stick");
        s.block.machine_first.next = true;
        s.block.new_game.next = true;
        s.step();
        s.block.new_game.next = false;
        s.settle();
        assert!(!s.block.game_over.val() && !s.block.human_turn.val());
        s.run(3);
        assert_eq!(s.block.remaining.val(), 17);
    }

    #[cfg(feature = "external-tools")]
    #[test]
    fn stand_in_verilog_matches_rust_hdl() {
        use crate::circuit::sim::trace::{expand, port, TraceBench};
        let dir = crate::flow::testing::work_dir("sticks-game-trace");
        let block = fort_boyard(3);
        let verilog = crate::verilog::emit(&block, "sticks_game").unwrap();
        let mut bench = TraceBench {
            module: "sticks_game".into(),
            clock_name: "clock".into(),
            clock: |b: &mut SticksGame<5, 2>| &mut b.clock,
            inputs: vec![
                port("reset", 1),
                port("new_game", 1),
                port("machine_first", 1),
                port("take", 2),
                port("take_valid", 1),
            ],
            outputs: vec![
                port("remaining", 5),
                port("human_turn", 1),
                port("machine_take", 2),
                port("game_over", 1),
                port("human_won", 1),
                port("illegal", 1),
            ],
            apply: |b, r| {
                b.reset.next = r[0] != 0;
                b.new_game.next = r[1] != 0;
                b.machine_first.next = r[2] != 0;
                b.take.next = r[3].into();
                b.take_valid.next = r[4] != 0;
            },
            sample: |b| {
                vec![
                    b.remaining.val().to_u64(),
                    u64::from(b.human_turn.val()),
                    b.machine_take.val().to_u64(),
                    u64::from(b.game_over.val()),
                    u64::from(b.human_won.val()),
                    u64::from(b.illegal.val()),
                ]
            },
            switches: vec![],
        };
        let idle = vec![0, 0, 0, 0, 0];
        let tk = |t: u64| vec![0, 0, 0, t, 1];
        let mut script = vec![(vec![1, 0, 0, 0, 0], 2), (idle.clone(), 1)];
        // 18 -3-> 15 -m-> 13 -3-> 10 -m-> 9 -3-> 6 -m-> 5 -3-> 2 -m-> 1 -1-> 0:
        // the human takes the last stick and loses.
        for _ in 0..4 {
            script.push((tk(3), 1));
            script.push((idle.clone(), 5));
        }
        script.push((tk(1), 1));
        script.push((idle.clone(), 3));
        script.push((tk(1), 1)); // after game over: ignored
        script.push((vec![0, 1, 1, 0, 0], 1)); // new game, machine first
        script.push((tk(2), 1)); // out of turn: illegal
        script.push((idle.clone(), 6));
        script.push((tk(0), 1)); // illegal take 0
        script.push((idle.clone(), 1));
        script.push((tk(2), 1));
        script.push((idle, 8));
        let stimulus = expand(&script);
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        assert!(
            trace.iter().any(|r| r[3] == 1 && r[4] == 0 && r[0] == 0),
            "the human took the last stick and lost"
        );
        assert_eq!(
            trace.last().unwrap()[0],
            13,
            "machine 18 -> 17, human -2 -> 15, machine -> 13"
        );
        assert!(trace.iter().filter(|r| r[5] == 1).count() >= 2);
    }
}
