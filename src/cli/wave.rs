//! `retrogate wave`: plays moves through the simulated `sticks_game` controller with a VCD
//! trace, and draws its ports as an SVG waveform with rust-hdl's `vcd_to_svg`.

use super::args::{WaveArgs, WaveGame, WaveSticksArgs};
use super::files::write_all_or_nothing;
use super::CliError;
use crate::circuit::{sticks_game_sim, Impl, SticksGameSim};
use crate::game::SticksGame;
use crate::model::{Inputs, Outputs};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// Cycles the controller thinks before it answers.
const THINK_CYCLES: u32 = 4;

/// One clock cycle in the trace, in ps.
const CYCLE_PS: u64 = 10_000;

/// The ports drawn, in order.
pub const WAVE_SIGNALS: [&str; 8] = [
    "uut.clock",
    "uut.take",
    "uut.take_valid",
    "uut.remaining",
    "uut.human_turn",
    "uut.machine_take",
    "uut.game_over",
    "uut.illegal",
];

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
    for _ in 0..THINK_CYCLES + 2 {
        let o = sim.step(&Inputs::IDLE);
        *cycles += 1;
        if o.human_turn || o.game_over {
            return Ok(o);
        }
    }
    Err(CliError::Failed("the circuit did not answer".into()))
}

/// Plays `moves` and returns the VCD text and the number of cycles.
pub fn sticks_vcd(
    game: &SticksGame,
    machine_first: bool,
    moves: &[u32],
) -> Result<(String, u64), CliError> {
    let mut sim = sticks_game_sim(game, Impl::Logic, THINK_CYCLES)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let buf = Shared::default();
    sim.trace(Box::new(buf.clone()));
    let mut cycles = 1;
    let mut o = sim.step(&Inputs::reset(machine_first));
    if !o.human_turn && !o.game_over {
        o = wait(sim.as_mut(), &mut cycles)?;
    }
    for (n, &k) in moves.iter().enumerate() {
        if o.game_over {
            return Err(CliError::Usage(format!(
                "move {} (take {k}) comes after the game is over",
                n + 1
            )));
        }
        // Only the low bits of `take` reach the port: refuse moves outside the take set here.
        if !game.take().contains(&u64::from(k)) {
            return Err(CliError::Usage(format!(
                "move {} (take {k}) is not a move of this game",
                n + 1
            )));
        }
        let after = sim.step(&Inputs::take(k));
        cycles += 1;
        if after.illegal {
            return Err(CliError::Usage(format!(
                "move {} (take {k}) is refused at {} sticks",
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

/// Draws `vcd` (of `cycles` cycles) as SVG, through temporary files in `dir`.
pub fn vcd_svg(vcd: &str, cycles: u64, dir: &std::path::Path) -> Result<String, CliError> {
    let id = std::process::id();
    let vcd_tmp = dir.join(format!(".retrogate-wave-{id}.vcd.tmp"));
    let svg_tmp = dir.join(format!(".retrogate-wave-{id}.svg.tmp"));
    let result = (|| {
        std::fs::write(&vcd_tmp, vcd).map_err(|source| CliError::Write {
            path: vcd_tmp.clone(),
            source,
        })?;
        rust_hdl::docs::vcd2svg::vcd_to_svg(
            &vcd_tmp.to_string_lossy(),
            &svg_tmp.to_string_lossy(),
            &WAVE_SIGNALS,
            0,
            cycles * CYCLE_PS,
        )
        .map_err(|e| CliError::Step(format!("vcd_to_svg: {e}")))?;
        std::fs::read_to_string(&svg_tmp).map_err(CliError::Io)
    })();
    let _ = std::fs::remove_file(&vcd_tmp);
    let _ = std::fs::remove_file(&svg_tmp);
    result
}

fn sticks(a: WaveSticksArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = SticksGame::new(a.rules.count, &a.rules.take, a.rules.last.into())?;
    let (vcd, cycles) = sticks_vcd(&game, a.turn.machine_first, &a.moves)?;
    let dir = a
        .out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| CliError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let svg = vcd_svg(&vcd, cycles, dir)?;
    let vcd_path = a.out.with_extension("vcd");
    write_all_or_nothing(&[(a.out.clone(), svg), (vcd_path.clone(), vcd)])?;
    writeln!(
        out,
        "wrote {} and {} ({cycles} cycles)",
        a.out.display(),
        vcd_path.display()
    )?;
    Ok(())
}
