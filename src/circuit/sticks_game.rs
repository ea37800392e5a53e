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
}

impl<const W: usize, const M: usize> SticksGame<W, M> {
    /// STAND-IN constructor with the agreed shape.
    ///
    /// `table`: the machine's move (M bits) for each count of sticks (W
    /// inputs); `take_mask`: bit `k` set = taking `k` is allowed; `count`:
    /// sticks at the start; `think_cycles`: cycles the machine waits before
    /// moving (at least 1).
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
                think_cycles: u64::from(think_cycles.max(1)),
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
        self._state = State {
            remaining: p.count,
            human_turn: !stuck && !machine_first,
            thinking: !stuck && machine_first,
            think_count: 0,
            machine_take: 0,
            game_over: stuck,
            human_won: stuck && machine_first,
            illegal: false,
        };
    }

    fn legal(&self, take: u64) -> bool {
        take != 0 && take <= self._state.remaining && self._params.take_mask >> take & 1 == 1
    }

    fn edge(&mut self) {
        if self.reset.val() || self.new_game.val() {
            let first = self.machine_first.val();
            self.start_game(first);
            return;
        }
        let p = &self._params;
        let (take, valid) = (self.take.val().to_u64(), self.take_valid.val());
        let legal = self.legal(take);
        let s = &mut self._state;
        s.illegal = false;
        if s.game_over {
            return;
        }
        if s.human_turn {
            if valid && legal {
                s.remaining -= take;
                s.human_turn = false;
                if s.remaining < p.min_take {
                    s.game_over = true;
                    s.human_won = s.remaining != 0;
                } else {
                    s.thinking = true;
                    s.think_count = 0;
                }
            } else if valid {
                s.illegal = true;
            }
        } else if s.thinking {
            s.illegal = valid;
            if s.think_count == p.think_cycles - 1 {
                let m = p.moves[s.remaining as usize];
                s.remaining -= m;
                s.machine_take = m;
                s.thinking = false;
                if s.remaining < p.min_take {
                    s.game_over = true;
                    s.human_won = s.remaining == 0;
                } else {
                    s.human_turn = true;
                }
            } else {
                s.think_count += 1;
            }
        }
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
        let w8 = |v: u64| sized(8, v);
        let mut code = format!(
            "// STAND-IN sticks controller: {count} sticks, takes {mask:#b}, machine waits {think} cycles\n\
             localparam [15:0] TAKE_MASK = 16'b{mask:016b};\n\
             reg thinking;\n\
             reg [{ttop}:0] think_count;\n\
             reg [{mtop}:0] move;\n\
             wire legal = TAKE_MASK[take] && (take != {mzero}) && ({{4'd0, take}} <= {{8'd0, remaining}});\n\
             wire [{wtop}:0] after_human = remaining - take;\n\
             wire [{wtop}:0] after_machine = remaining - move;\n\
             initial begin\n\
             \x20   remaining = {count_w};\n\
             \x20   human_turn = 1'b{h0};\n\
             \x20   thinking = 1'b0;\n\
             \x20   think_count = {tzero};\n\
             \x20   machine_take = {mzero};\n\
             \x20   game_over = 1'b{g0};\n\
             \x20   human_won = 1'b0;\n\
             \x20   illegal = 1'b0;\n\
             end\n\
             always @(*) begin\n    case (remaining)\n",
            count = p.count,
            mask = p.take_mask,
            think = p.think_cycles,
            ttop = tw - 1,
            mtop = M - 1,
            wtop = W - 1,
            mzero = sized(M, 0),
            tzero = sized(tw, 0),
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
            "        default: move = {mzero};\n    endcase\nend\n\
             always @(posedge clock) begin\n\
             \x20   illegal <= 1'b0;\n\
             \x20   if (reset || new_game) begin\n\
             \x20       remaining <= {count_w};\n\
             \x20       machine_take <= {mzero};\n\
             \x20       think_count <= {tzero};\n\
             \x20       if ({count8} < {min8}) begin\n\
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
             \x20   end else if (game_over) begin\n\
             \x20   end else if (human_turn) begin\n\
             \x20       if (take_valid && legal) begin\n\
             \x20           remaining <= after_human;\n\
             \x20           human_turn <= 1'b0;\n\
             \x20           if ({{8'd0, after_human}} < {{8'd0, {min8}}}) begin\n\
             \x20               game_over <= 1'b1;\n\
             \x20               human_won <= (after_human != {wzero});\n\
             \x20           end else begin\n\
             \x20               thinking <= 1'b1;\n\
             \x20               think_count <= {tzero};\n\
             \x20           end\n\
             \x20       end else if (take_valid) begin\n\
             \x20           illegal <= 1'b1;\n\
             \x20       end\n\
             \x20   end else if (thinking) begin\n\
             \x20       illegal <= take_valid;\n\
             \x20       if (think_count == {tlast}) begin\n\
             \x20           remaining <= after_machine;\n\
             \x20           machine_take <= move;\n\
             \x20           thinking <= 1'b0;\n\
             \x20           if ({{8'd0, after_machine}} < {{8'd0, {min8}}}) begin\n\
             \x20               game_over <= 1'b1;\n\
             \x20               human_won <= (after_machine == {wzero});\n\
             \x20           end else begin\n\
             \x20               human_turn <= 1'b1;\n\
             \x20           end\n\
             \x20       end else begin\n\
             \x20           think_count <= think_count + {tone};\n\
             \x20       end\n\
             \x20   end\n\
             end\n",
            mzero = sized(M, 0),
            wzero = sized(W, 0),
            tzero = sized(tw, 0),
            tone = sized(tw, 1),
            tlast = sized(tw, p.think_cycles - 1),
            count_w = sized(W, p.count),
            count8 = w8(p.count),
            min8 = w8(p.min_take),
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

    fn take(s: &mut Stepper<SticksGame<5, 2>>, t: u64) {
        s.block.take.next = t.into();
        s.block.take_valid.next = true;
        s.step();
        s.block.take_valid.next = false;
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
        s.run(2);
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
        // The human takes 3 each turn: 18 15 | 14 11 | 10 7 | 6 3 | 2 -> loses.
        for _ in 0..6 {
            script.push((tk(3), 1));
            script.push((idle.clone(), 5));
        }
        script.push((tk(1), 1)); // illegal after game over? no: ignored
        script.push((vec![0, 1, 1, 0, 0], 1)); // new game, machine first
        script.push((tk(2), 1)); // out of turn: illegal
        script.push((idle.clone(), 6));
        script.push((tk(0), 1)); // illegal take 0
        script.push((tk(2), 1));
        script.push((idle, 8));
        let stimulus = expand(&script);
        let trace = bench.compare(block, &verilog, &stimulus, dir.path());
        assert!(trace.iter().any(|r| r[3] == 1), "a game ended");
        assert!(trace.iter().filter(|r| r[5] == 1).count() >= 2);
    }
}
