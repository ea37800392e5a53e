//! The move checks of the `sticks_game` controller: [`SticksMoveCheck`] (the human's move
//! against the build-time take set, and the one subtractor for both players' moves) and
//! [`MachineMoveCheck`] (the lookup's move, checked per position as a table).

use rust_hdl::prelude::*;

use crate::circuit::sized;
use crate::solver::strategy::SticksTable;

/// Checks the human's move against the take set and the sticks left, and subtracts the move
/// being made (the human's or the machine's: the one subtractor of the controller).
///
/// `legal` = `take` is in the take set (which never contains 0) and `take <= remaining`;
/// `ends` = `remaining - take <= last_terminal` (the player to move next has no move), computed
/// as `remaining <= take + last_terminal`; `empties` = `remaining - take == 0`, computed as
/// `remaining == take` (both meaningful when `legal`); `after` = `remaining - made`.
/// The machine's move is checked by [`MachineMoveCheck`], a function of the position alone, so
/// neither check waits for the other's operand to be selected.
#[derive(LogicBlock)]
pub struct SticksMoveCheck<const W: usize, const M: usize, const S: usize> {
    /// Sticks left.
    pub remaining: Signal<In, Bits<W>>,
    /// The human's move.
    pub take: Signal<In, Bits<M>>,
    /// The move being made (the human's or the machine's).
    pub made: Signal<In, Bits<M>>,
    /// The human's move may be made.
    pub legal: Signal<Out, Bit>,
    /// Sticks left after `made`.
    pub after: Signal<Out, Bits<W>>,
    /// After the move no move fits: `after <= last_terminal`.
    pub ends: Signal<Out, Bit>,
    /// The move takes the last stick: `after == 0`.
    pub empties: Signal<Out, Bit>,
    /// Bit `k` is set when `k` is in the take set.
    pub take_set: Constant<Bits<S>>,
    _take_set: u64,
    _last_terminal: u64,
}

impl<const W: usize, const M: usize, const S: usize> SticksMoveCheck<W, M, S> {
    /// A check for the moves in `take` (each below `S`, none 0); positions up to
    /// `last_terminal` sticks have no move.
    pub fn new(take: &[u64], last_terminal: u64) -> Self {
        assert_eq!(S, 1 << M, "S is the take-set mask width 2^M");
        let mask = take.iter().fold(0u64, |m, &k| {
            assert!(k > 0 && k < S as u64, "take {k} does not fit {M} bits");
            m | 1 << k
        });
        let mut block = Self {
            remaining: Default::default(),
            take: Default::default(),
            made: Default::default(),
            legal: Default::default(),
            after: Default::default(),
            ends: Default::default(),
            empties: Default::default(),
            take_set: Constant::new(bits::<S>(mask)),
            _take_set: mask,
            _last_terminal: last_terminal,
        };
        block.connect_all();
        block
    }
}

impl<const W: usize, const M: usize, const S: usize> Logic for SticksMoveCheck<W, M, S> {
    fn update(&mut self) {
        let remaining = self.remaining.val().to_u64();
        let take = self.take.val().to_u64();
        self.legal.next = (self._take_set >> take) & 1 == 1 && take <= remaining;
        let mask = (1u64 << W) - 1;
        let made = self.made.val().to_u64();
        self.after.next = bits::<W>(remaining.wrapping_sub(made) & mask);
        self.ends.next = remaining <= take + self._last_terminal;
        self.empties.next = remaining == take;
    }

    fn connect(&mut self) {
        self.legal.connect();
        self.after.connect();
        self.ends.connect();
        self.empties.connect();
    }

    fn hdl(&self) -> Verilog {
        // Compare and subtract at max(W, M) bits, zero-extending the narrower operand with an
        // explicit sized concatenation; a move that is made is at most `remaining`, so its low
        // W bits are the whole move.
        let mut prelude = String::new();
        let (compare, subtract) = if W > M {
            let ext = |name: &str| format!("{{{}'d0, {name}}}", W - M);
            (
                format!("{} <= remaining", ext("take")),
                format!("remaining - {}", ext("made")),
            )
        } else if W == M {
            (
                "take <= remaining".to_owned(),
                "remaining - made".to_owned(),
            )
        } else {
            // Subtract at M bits and keep the low W (the high bits are 0 for a move that is
            // made); Verilator is told the high bits go unused on purpose.
            prelude = format!(
                "/* verilator lint_off UNUSEDSIGNAL */\n\
                 wire [{m}:0] difference = {{{pad}'d0, remaining}} - made;\n\
                 /* verilator lint_on UNUSEDSIGNAL */\n",
                m = M - 1,
                pad = M - W,
            );
            (
                format!("take <= {{{}'d0, remaining}}", M - W),
                format!("difference[{}:0]", W - 1),
            )
        };
        // `ends` and `empties` at max(W, M) + 1 bits, where neither side can overflow.
        let k = W.max(M) + 1;
        let wide = |name: &str, width: usize| format!("{{{}'d0, {name}}}", k - width);
        let (r, t) = (wide("remaining", W), wide("take", M));
        let last = sized(k, self._last_terminal);
        Verilog::Custom(format!(
            "{prelude}always @(*) begin\n    legal = take_set[take] & ({compare});\n    after = {subtract};\n    \
             ends = {r} <= {t} + {last};\n    empties = {r} == {t};\nend\n"
        ))
    }
}

/// The machine's move checked at every position, as a table: `legal` = the lookup's move at
/// `sticks` is in the take set and at most `sticks`; `ends` = after it no move fits; `empties` =
/// it takes the last stick (both false where it is not legal). It reads only the position (a
/// few LUTs, beside the lookup), so the controller's decision does not wait for the lookup,
/// a select and a compare in a row.
#[derive(LogicBlock, Default)]
pub struct MachineMoveCheck<const W: usize> {
    /// Sticks left.
    pub sticks: Signal<In, Bits<W>>,
    /// The lookup's move is legal here.
    pub legal: Signal<Out, Bit>,
    /// After it no move fits.
    pub ends: Signal<Out, Bit>,
    /// It takes the last stick.
    pub empties: Signal<Out, Bit>,
    /// Per position: bit 2 legal, bit 1 ends, bit 0 empties.
    _rows: Vec<u8>,
}

impl<const W: usize> MachineMoveCheck<W> {
    /// The checks of `table`'s moves (its `filled` words: the lookup's move at every code) for
    /// the moves in `take`; positions up to `last_terminal` have no move.
    pub fn new(table: &SticksTable, take: &[u64], last_terminal: u64) -> Self {
        let rows = (0..1u64 << W)
            .map(|s| {
                let t = u64::from(table.filled[s as usize] >> 1);
                let legal = t > 0 && take.contains(&t) && t <= s;
                let ends = legal && s - t <= last_terminal;
                let empties = legal && s == t;
                u8::from(legal) << 2 | u8::from(ends) << 1 | u8::from(empties)
            })
            .collect();
        let mut block = Self {
            _rows: rows,
            ..Self::default()
        };
        block.connect_all();
        block
    }
}

impl<const W: usize> Logic for MachineMoveCheck<W> {
    fn update(&mut self) {
        let row = self._rows[self.sticks.val().index()];
        self.legal.next = row & 4 != 0;
        self.ends.next = row & 2 != 0;
        self.empties.next = row & 1 != 0;
    }

    fn connect(&mut self) {
        self.legal.connect();
        self.ends.connect();
        self.empties.connect();
    }

    fn hdl(&self) -> Verilog {
        use std::fmt::Write as _;
        let mut code = String::from("always @(*) begin\n    case (sticks)\n");
        for (s, row) in self._rows.iter().enumerate() {
            let _ = writeln!(
                code,
                "        {}: {{legal, ends, empties}} = 3'b{row:03b};",
                sized(W, s as u64)
            );
        }
        code.push_str("        default: {legal, ends, empties} = 3'b000;\n    endcase\nend\n");
        Verilog::Custom(code)
    }
}
