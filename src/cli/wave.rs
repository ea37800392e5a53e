//! `retrogate wave`: plays moves through the simulated `sticks_game` controller with a VCD
//! trace, and draws its ports as an SVG waveform ([`crate::waveform`]).

use super::args::{WaveArgs, WaveGame, WaveSticksArgs};
use super::files::{absolute, require_svg, write_all_or_nothing};
use super::CliError;
use crate::circuit::sticks_game::GAME_PORT_NAMES;
use crate::circuit::{sticks_game_sim, Impl, SticksGameSim, SIM_CYCLE_PS, SIM_THINK_CYCLES};
use crate::game::{join_commas, Game, SticksGame};
use crate::model::{Inputs, Outputs};
use crate::output_dir;
use crate::waveform::{render_gtkw, render_svg, Picture, Trace, WaveformError};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// The signals drawn, in order: every port of the `sticks_game` controller
/// ([`GAME_PORT_NAMES`]), as the testbench's `uut` instance names them.
pub fn wave_signals() -> Vec<String> {
    GAME_PORT_NAMES.iter().map(|n| format!("uut.{n}")).collect()
}

/// A writer into a shared buffer (the trace outlives the borrow the simulation takes).
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `retrogate wave`.
pub fn run(args: WaveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match args.game {
        WaveGame::Sticks(a) => sticks(a, out),
    }
}

/// Clocks the idle circuit until the human is to move or the game is over.
fn wait(sim: &mut dyn SticksGameSim, cycles: &mut u64) -> Result<Outputs, CliError> {
    let (o, n) = sim
        .wait_for_turn(SIM_THINK_CYCLES + 2)
        .ok_or_else(|| CliError::Failed("the circuit did not answer".into()))?;
    *cycles += u64::from(n);
    Ok(o)
}

/// Plays `moves` and returns the VCD text and the number of cycles.
pub fn sticks_vcd(
    game: &SticksGame,
    machine_first: bool,
    moves: &[u32],
) -> Result<(String, u64), CliError> {
    let mut sim = sticks_game_sim(game, Impl::Logic, SIM_THINK_CYCLES)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let buf = Shared::default();
    sim.trace(Box::new(buf.clone()));
    let mut cycles = 1;
    let mut o = sim.step(&Inputs::reset(machine_first));
    if !o.human_turn && !o.game_over {
        o = wait(sim.as_mut(), &mut cycles)?;
    }
    let given = || {
        let moves: Vec<String> = moves.iter().map(u32::to_string).collect();
        format!("--moves {}", moves.join(","))
    };
    for (n, &k) in moves.iter().enumerate() {
        if o.game_over {
            return Err(CliError::Usage(format!(
                "{}: move {} (take {k}) comes after the game is over; give only the moves \
                 up to the end of the game",
                given(),
                n + 1
            )));
        }
        // Only the low bits of `take` reach the port: refuse moves outside the take set here.
        if !game.take().contains(&u64::from(k)) {
            return Err(CliError::Usage(format!(
                "{}: move {} (take {k}) is not a move of this game; each move takes one of \
                 {} (--take)",
                given(),
                n + 1,
                join_commas(game.take())
            )));
        }
        let after = sim.step(&Inputs::take(k));
        cycles += 1;
        if after.illegal {
            return Err(CliError::Usage(format!(
                "{}: move {} (take {k}) is refused at {} sticks; take at most what is left",
                given(),
                n + 1,
                o.remaining
            )));
        }
        o = after;
        if !o.game_over {
            o = wait(sim.as_mut(), &mut cycles)?;
        }
    }
    for _ in 0..2 {
        sim.step(&Inputs::IDLE);
        cycles += 1;
    }
    sim.finish_trace();
    drop(sim);
    let bytes = buf.0.borrow().clone();
    let vcd = String::from_utf8(bytes).map_err(|e| CliError::Step(e.to_string()))?;
    Ok((vcd, cycles))
}

fn trace(vcd: &str, cycles: u64) -> Result<Trace, CliError> {
    let signals = wave_signals();
    let paths: Vec<&str> = signals.iter().map(String::as_str).collect();
    Trace::from_vcd(vcd, &paths, cycles * SIM_CYCLE_PS).map_err(drawing_failed)
}

fn drawing_failed(e: WaveformError) -> CliError {
    CliError::Failed(format!("drawing the waveform: {e}"))
}

/// Draws `vcd` (of `cycles` cycles) as an SVG waveform of [`wave_signals`].
pub fn vcd_svg(vcd: &str, cycles: u64, title: &str) -> Result<String, CliError> {
    render_svg(
        &trace(vcd, cycles)?,
        &Picture {
            title,
            clock: "clock",
            cycle: SIM_CYCLE_PS,
        },
    )
    .map_err(drawing_failed)
}

/// The GTKWave save file that shows [`wave_signals`] of `vcd`.
pub fn vcd_gtkw(vcd: &str, cycles: u64, title: &str) -> Result<String, CliError> {
    Ok(render_gtkw(&trace(vcd, cycles)?, title))
}

/// The picture's title: the rules and the moves.
fn title(game: &SticksGame, machine_first: bool, moves: &[u32]) -> String {
    let moves: Vec<String> = moves.iter().map(u32::to_string).collect();
    format!(
        "sticks_game: {} sticks, take {{{}}}, last stick {}; {} first; human takes {}",
        game.count(),
        join_commas(game.take()),
        game.last(),
        if machine_first { "machine" } else { "human" },
        moves.join(", ")
    )
}

fn sticks(a: WaveSticksArgs, out: &mut dyn Write) -> Result<(), CliError> {
    require_svg(
        &a.out,
        "the waveform is SVG (the VCD goes next to it)",
        "game.svg",
    )?;
    let game = a.rules.game()?;
    // Both files are checked (new, or retrogate's) before anything is simulated or written.
    let svg_path = absolute(&a.out)?;
    let vcd_path = svg_path.with_extension("vcd");
    let gtkw_path = svg_path.with_extension("gtkw");
    output_dir::check_file("--out", &svg_path)?;
    output_dir::check_file("--out (its .vcd)", &vcd_path)?;
    if a.gtkw {
        output_dir::check_file("--gtkw (the .gtkw next to --out)", &gtkw_path)?;
    }
    let (vcd, cycles) = sticks_vcd(&game, a.turn.machine_first, &a.moves)?;
    let title = title(&game, a.turn.machine_first, &a.moves);
    let svg = vcd_svg(&vcd, cycles, &title)?;
    let mut files = vec![(svg_path, svg)];
    if a.gtkw {
        files.push((gtkw_path, vcd_gtkw(&vcd, cycles, &title)?));
    }
    files.push((vcd_path, vcd));
    write_all_or_nothing(&files)?;
    let vcd_name = a.out.with_extension("vcd");
    let written = if a.gtkw {
        format!(
            "{}, {} and {}",
            a.out.display(),
            vcd_name.display(),
            a.out.with_extension("gtkw").display()
        )
    } else {
        format!("{} and {}", a.out.display(), vcd_name.display())
    };
    writeln!(out, "wrote {written} ({cycles} cycles)")?;
    Ok(())
}
