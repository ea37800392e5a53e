//! A byte to two seven-segment digits, read from block RAM.

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::seven_segment::DIGIT_SEGMENTS;

/// Code of [`PairRom`]: a dash on each digit (`--`: nothing, or none).
pub const PAIR_DASHES: u64 = 0;
/// Code of [`PairRom`]: `L0` (the last move loses).
pub const PAIR_L0: u64 = 254;
/// Code of [`PairRom`]: `L1` (the last move wins).
pub const PAIR_L1: u64 = 255;

/// Segments (bit 0 = A .. bit 6 = G) of the letter `L` (D, E, F).
const LETTER_L: u8 = 0b011_1000;
/// Segments of a dash (G).
const DASH: u8 = 0b100_0000;

/// The (tens, ones) segments [`PairRom`] shows for `code`: [`PAIR_DASHES`] for 0 (a heap,
/// value or answer of 0 means none), for 1 to 253 the last two decimal digits (the tens dark
/// below 10: 7 shows ` 7`, 105 shows ` 5`), and the glyphs [`PAIR_L0`] and [`PAIR_L1`].
pub fn pair_segments(code: u8) -> (u8, u8) {
    match u64::from(code) {
        PAIR_DASHES => (DASH, DASH),
        PAIR_L0 => (LETTER_L, DIGIT_SEGMENTS[0]),
        PAIR_L1 => (LETTER_L, DIGIT_SEGMENTS[1]),
        _ => {
            let v = usize::from(code % 100);
            let tens = if v >= 10 { DIGIT_SEGMENTS[v / 10] } else { 0 };
            (tens, DIGIT_SEGMENTS[v % 10])
        }
    }
}

/// Two digits' segments for a byte, from a 256-word table in one iCE40 block RAM: no logic
/// cell decodes the digits. The read is registered, as block RAM reads are.
///
/// ```text
///                 +---------+
///   code[8] ----->| PairRom |---> tens[7]   bit 0 = A .. bit 6 = G, 1 = lit
///   clock ------->|         |---> ones[7]
///                 +---------+
/// ```
///
/// The outputs show [`pair_segments`] of the code at the last edge. Before the first edge
/// they are undefined in the Verilog (`x`), as a block RAM's read register is, and dark in
/// rust-hdl: a user masks them in that cycle (the Go Board's heap game does, with its
/// power-on reset).
#[derive(LogicBlock, Default)]
pub struct PairRom {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The byte to show.
    pub code: Signal<In, Bits<8>>,
    /// Segments of the left (tens) digit.
    pub tens: Signal<Out, Bits<7>>,
    /// Segments of the right (ones) digit.
    pub ones: Signal<Out, Bits<7>>,
    _word: (u8, u8),
}

impl PairRom {
    /// The table, `connect_all()` done.
    pub fn new() -> Self {
        let mut block = Self::default();
        block.connect_all();
        block
    }
}

impl Logic for PairRom {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._word = pair_segments(self.code.val().to_u64() as u8);
        }
        self.tens.next = u64::from(self._word.0).into();
        self.ones.next = u64::from(self._word.1).into();
    }

    fn connect(&mut self) {
        self.tens.connect();
        self.ones.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::from(
            "// {tens, ones} segments of every byte, in block RAM.\n\
             reg [13:0] table_rom [0:255];\n\
             // No initial value on the read register: block RAM's has none (yosys would\n\
             // emulate one with a flip-flop steering the RAM's enables).\n\
             reg [13:0] word;\n\
             initial begin\n",
        );
        for code in 0..=255u8 {
            let (tens, ones) = pair_segments(code);
            let _ = writeln!(v, "    table_rom[{code}] = 14'b{tens:07b}{ones:07b};");
        }
        v.push_str(
            "end\n\
             always @(posedge clock) begin\n    word <= table_rom[code];\nend\n\
             always @(*) begin\n    tens = word[13:7];\n    ones = word[6:0];\nend\n",
        );
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::board_io::segments_for;
    use crate::circuit::sim::Stepper;

    /// Every code from 1 to 253 shows its last two digits (the tens dark below 10), read
    /// independently through the digit decoder; 0 shows `--`, 254 `L0` and 255 `L1`.
    #[test]
    fn pair_rom_shows_the_last_two_digits_and_the_glyphs() {
        let mut s = Stepper::new(PairRom::new(), |b| &mut b.clock);
        for code in 0..=255u64 {
            s.block.code.next = code.into();
            s.step();
            let got = (s.block.tens.val().to_u64(), s.block.ones.val().to_u64());
            let want = match code {
                0 => (0x40, 0x40),
                1..=253 => {
                    let v = code % 100;
                    let tens = if v >= 10 { segments_for(v / 10) } else { 0 };
                    (u64::from(tens), u64::from(segments_for(v % 10)))
                }
                254 => (0x38, 0x3F),
                _ => (0x38, 0x06),
            };
            assert_eq!(got, want, "code {code}");
        }
    }

    #[test]
    fn pair_rom_verilog_snapshot() {
        let v = crate::verilog::emit(&PairRom::new(), "pair_rom").unwrap();
        insta::assert_snapshot!(v);
    }

    /// The emitted Verilog under Icarus shows every code's digits after the edge that reads
    /// it, as [`pair_segments`] has them.
    #[cfg(feature = "external-tools")]
    #[test]
    fn pair_rom_verilog_shows_every_code() {
        let dir = crate::flow::testing::work_dir("pair-rom-icarus");
        let verilog = crate::verilog::emit(&PairRom::new(), "pair_rom").unwrap();
        let source = dir.path().join("pair_rom.v");
        std::fs::write(&source, verilog).unwrap();
        let bench = dir.path().join("pair_rom_tb.v");
        std::fs::write(
            &bench,
            "module pair_rom_tb;\n\
             reg clock = 0;\n\
             reg [7:0] code;\n\
             wire [6:0] tens;\n\
             wire [6:0] ones;\n\
             integer c;\n\
             pair_rom uut (.clock(clock), .code(code), .tens(tens), .ones(ones));\n\
             initial begin\n\
                 for (c = 0; c < 256; c = c + 1) begin\n\
                     code = c;\n\
                     #1 clock = 1;\n\
                     #1 clock = 0;\n\
                     $display(\"%0d %0d %0d\", c, tens, ones);\n\
                 end\n\
             end\n\
             endmodule\n",
        )
        .unwrap();
        let out =
            crate::flow::iverilog::simulate(dir.path(), &[source, bench], "pair_rom_tb", &[], "t")
                .unwrap();
        let rows: Vec<Vec<u32>> = out
            .stdout
            .lines()
            .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), 256);
        for row in rows {
            let (tens, ones) = pair_segments(row[0] as u8);
            assert_eq!(
                (row[1], row[2]),
                (u32::from(tens), u32::from(ones)),
                "code {}",
                row[0]
            );
        }
    }

    /// yosys maps the table to one block RAM and no logic cell.
    #[cfg(feature = "external-tools")]
    #[test]
    fn pair_rom_is_one_block_ram() {
        let dir = crate::flow::testing::work_dir("pair-rom-synth");
        let verilog = crate::verilog::emit(&PairRom::new(), "pair_rom").unwrap();
        let source = dir.path().join("pair_rom.v");
        std::fs::write(&source, verilog).unwrap();
        let stats = crate::flow::yosys::synth_ice40(dir.path(), &[source], "pair_rom")
            .unwrap()
            .stats;
        assert_eq!(stats.ram40_4k, 1, "{stats:?}");
        assert_eq!((stats.lut4, stats.dff), (0, 0), "no logic: {stats:?}");
    }
}
