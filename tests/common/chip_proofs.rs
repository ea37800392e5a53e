//! Which board designs `make test` proves on their chip, shared by the two tests that prove
//! board tops: tests/cli/bitstream.rs runs level 8 (`retrogate verify bitstream`: the
//! bitstream read back and proved equal to the RTL top), and tests/netlist_equivalence.rs
//! proves each top's `synth_ice40` netlist equal to its RTL where level 8 does not already
//! prove more.
//!
//! On a chip without block RAM (J.R. 01, the stick game), level 8 proves the chip read back
//! from the bitstream equal to the RTL top on every pin for every cycle from power-on (ABC
//! `dprove`); tests/cli/bitstream.rs fails when that proof does not close. That chip is the
//! netlist after place and route, so the proof says what the netlist proof says, of the
//! bitstream a user loads. On a chip with block RAM (the solver, the heap game) level 8 is
//! bounded (30 cycles), and the netlist proof, which cuts the RAMs out of both sides, is the
//! unbounded one.

#![allow(dead_code)] // each test binary uses its part

use retrogate::board::BoardId;

/// The board designs whose level 8 runs only when asked for (`--run-ignored`), since with
/// them a clean clone's `make test` took over 30 minutes (1,901 s on CI at 6e12271, 2,133 s
/// at ace99a9). The Cu V2 has the Cu V1's chip (HX8K CB132), clock, PLL settings and designs;
/// only its pins differ, and its Io needs no pull-down emulation. So `make test` checks the
/// Cu designs on one of the two: the Cu V1 runs J.R. 01 and the heap game (its PLL and block
/// RAM), the Cu V2 J.R. 01 and the stick game (between them every kind of pin its Io has:
/// switches, buttons, LEDs, the display). The solver design's level 8 runs on the iCEBreaker,
/// the iCEstick and the Go Board. The pairs here took about 50 s (Cu V1 sticks), 145 s (Cu V1
/// solver), 90 s (Cu V2 solver) and 170 s (Cu V2 heaps) from a cold tool cache.
pub const LEVEL_8_ASKED_FOR: [(BoardId, &str); 4] = [
    (BoardId::AlchitryCu, "sticks"),
    (BoardId::AlchitryCu, "solver"),
    (BoardId::AlchitryCuV2, "solver"),
    (BoardId::AlchitryCuV2, "heaps"),
];

/// Whether `design`'s chip holds block RAM (`SB_RAM40_4K`): its tables.
pub fn has_block_ram(design: &str) -> bool {
    matches!(design, "solver" | "heaps")
}

/// Whether `make test`'s level 8 proves `design` on `board` equal to its RTL top for every
/// cycle: a chip without block RAM whose level 8 is not [`LEVEL_8_ASKED_FOR`].
pub fn chip_proved_for_all_cycles(board: BoardId, design: &str) -> bool {
    !has_block_ram(design) && !LEVEL_8_ASKED_FOR.contains(&(board, design))
}
