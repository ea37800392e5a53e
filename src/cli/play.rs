//! `retrogate play`: the terminal side of the sessions in [`crate::play`]. Reads one line at a
//! time from stdin (on its own thread, so Ctrl-C is seen while waiting), feeds the session and
//! prints its events: as stable lines when stdin is not a terminal (script mode), with prompts
//! and colours when it is.

use super::args::{Against, PlayArgs, PlayGame, SolverKind};
use super::report::Report;
use super::solve::{heaps_rules, out_of_memory};
use super::ui::{Colour, Paint, Ui};
use super::CliError;
use crate::bench::jr01::Jr01Design;
use crate::circuit::CombBlock;
use crate::game::{HeapsGame, MatchesGame};
use crate::play::{
    on_chip_config, CircuitOpponent, Event, HeapsCircuitError, HeapsCircuitOpponent, Jr01Event,
    Jr01Panel, Opponent, Playable, Session, Side, SolverOpponent, LIT, MAX_LINE_BYTES,
};
use crate::solver::{try_solve_with_progress, Solution};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::mpsc::{channel, Receiver};

/// What the input thread reports.
enum Input {
    Line(String),
    Eof,
    /// stdin could not be read (e.g. it is a folder: `play sticks < /`).
    Error(std::io::Error),
    Interrupted,
}

/// Lines from stdin and Ctrl-C, in the order they happen.
fn inputs() -> Receiver<Input> {
    let (tx, rx) = channel();
    let lines = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_line_capped(&mut stdin, MAX_LINE_BYTES + 1, &mut buf) {
                Ok(0) => break,
                Err(e) => {
                    let _ = lines.send(Input::Error(e));
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if lines.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = lines.send(Input::Eof);
    });
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT]) {
        std::thread::spawn(move || {
            for _ in signals.forever() {
                if tx.send(Input::Interrupted).is_err() {
                    return;
                }
            }
        });
    }
    rx
}

/// Reads one line (through its `\n`, or to the end of input) into `buf`, keeping at most its
/// first `cap` bytes: a line of any length costs no more memory than that. Returns the bytes
/// read, 0 at the end of input.
fn read_line_capped(
    input: &mut impl BufRead,
    cap: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let (used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let keep = used.min(cap.saturating_sub(buf.len()));
        buf.extend_from_slice(&available[..keep]);
        input.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

/// How events are shown.
#[derive(Clone, Copy)]
struct View {
    /// stdin is a terminal: show prompts.
    interactive: bool,
    paint: Paint,
}

/// A session the loop can drive: a game or the J.R. 01 panel.
trait Console {
    type Event;
    fn feed(&mut self, line: &str) -> Vec<Self::Event>;
    fn end_of_input(&mut self) -> Vec<Self::Event>;
    fn interrupted(&mut self) -> Vec<Self::Event>;
    fn is_over(&self) -> bool;
    /// Writes one event; returns true when it left a prompt open (no newline yet).
    fn show(e: &Self::Event, view: View, out: &mut dyn Write) -> Result<bool, CliError>;
    /// The error to exit with after this event, if any.
    fn failure(e: &Self::Event) -> Option<CliError>;
}

impl<G: Playable, O: Opponent<G>> Console for Session<'_, '_, G, O> {
    type Event = Event;
    fn feed(&mut self, line: &str) -> Vec<Event> {
        Session::feed(self, line)
    }
    fn end_of_input(&mut self) -> Vec<Event> {
        Session::end_of_input(self)
    }
    fn interrupted(&mut self) -> Vec<Event> {
        Session::interrupted(self)
    }
    fn is_over(&self) -> bool {
        Session::is_over(self)
    }
    fn show(e: &Event, view: View, out: &mut dyn Write) -> Result<bool, CliError> {
        let p = view.paint;
        match e {
            Event::Prompt { board, hint } => {
                if view.interactive {
                    write!(out, "{board}  your move ({hint}): ")?;
                    return Ok(true);
                }
            }
            Event::Failed(_) => {}
            _ => {
                let line = e.script_line().unwrap_or_default();
                let colour = match e {
                    Event::Intro(_) => Some(Colour::Bold),
                    Event::Moved {
                        side: Side::Machine,
                        ..
                    } => Some(Colour::Cyan),
                    Event::Rejected { .. } | Event::Lesson(_) | Event::Unfinished(_) => {
                        Some(Colour::Yellow)
                    }
                    Event::Over {
                        winner: Side::Human,
                        ..
                    } => Some(Colour::Green),
                    Event::Over { .. } => Some(Colour::Red),
                    _ => None,
                };
                let line = colour.map_or(line.clone(), |c| p.paint(c, &line));
                writeln!(out, "{line}")?;
            }
        }
        Ok(false)
    }
    fn failure(e: &Event) -> Option<CliError> {
        match e {
            Event::Failed(why) => Some(CliError::Failed(why.clone())),
            _ => None,
        }
    }
}

impl Console for Jr01Panel<'_> {
    type Event = Jr01Event;
    fn feed(&mut self, line: &str) -> Vec<Jr01Event> {
        Jr01Panel::feed(self, line)
    }
    fn end_of_input(&mut self) -> Vec<Jr01Event> {
        Jr01Panel::end_of_input(self)
    }
    fn interrupted(&mut self) -> Vec<Jr01Event> {
        Jr01Panel::interrupted(self)
    }
    fn is_over(&self) -> bool {
        self.is_off()
    }
    fn show(e: &Jr01Event, view: View, out: &mut dyn Write) -> Result<bool, CliError> {
        let p = view.paint;
        let line = e.script_line();
        let line = match e {
            Jr01Event::Intro(_) => p.paint(Colour::Bold, &line),
            Jr01Event::Lamps { .. } => {
                line.replace(LIT, &p.paint(Colour::Yellow, &LIT.to_string()))
            }
            Jr01Event::Rejected { .. } | Jr01Event::Off(_) => p.paint(Colour::Yellow, &line),
        };
        writeln!(out, "{line}")?;
        if view.interactive && !matches!(e, Jr01Event::Off(_)) {
            write!(out, "A B C: ")?;
            return Ok(true);
        }
        Ok(false)
    }
    fn failure(_: &Jr01Event) -> Option<CliError> {
        None
    }
}

/// Feeds the console from stdin until it is over, printing its events.
fn drive<C: Console>(
    console: &mut C,
    first: Vec<C::Event>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let view = View {
        interactive: std::io::stdin().is_terminal(),
        paint: Paint::stdout(),
    };
    // Listen for lines and Ctrl-C before the first prompt goes out.
    let rx = inputs();
    let mut open = show_all::<C>(&first, view, out)?;
    let mut interrupted = false;
    while !console.is_over() {
        let events = match rx.recv().unwrap_or(Input::Eof) {
            Input::Line(line) => {
                open = false;
                console.feed(&line)
            }
            Input::Eof => console.end_of_input(),
            Input::Error(e) => {
                if open {
                    writeln!(out)?;
                }
                out.flush()?;
                return Err(stdin_error(&e));
            }
            Input::Interrupted => {
                interrupted = true;
                console.interrupted()
            }
        };
        if open {
            // End of input or Ctrl-C at a prompt: finish its line first.
            writeln!(out)?;
        }
        open = show_all::<C>(&events, view, out)?;
        if let Some(e) = events.iter().find_map(C::failure) {
            out.flush()?;
            return Err(e);
        }
    }
    out.flush()?;
    if interrupted {
        return Err(CliError::Interrupted);
    }
    Ok(())
}

/// A read error on stdin: bad input (exit 2), not the end of the game's input.
fn stdin_error(e: &std::io::Error) -> CliError {
    CliError::Usage(format!(
        "cannot read the moves from stdin: {e}; type them at the terminal, or give them one a \
         line on stdin, e.g. printf '1\\n3\\n' | retrogate play sticks"
    ))
}

fn show_all<C: Console>(
    events: &[C::Event],
    view: View,
    out: &mut dyn Write,
) -> Result<bool, CliError> {
    let mut open = false;
    for e in events {
        open = C::show(e, view, out)?;
    }
    out.flush()?;
    Ok(open)
}

/// The solved game; when the solver's arrays do not fit in memory, the same exit-2 error as
/// `solve` gives.
fn solved<'g, G: Report>(game: &'g G, ui: &Ui) -> Result<Solution<'g, G>, CliError> {
    let mut progress = ui.solve_progress(game.len());
    try_solve_with_progress(game, &mut progress).map_err(|e| out_of_memory(game, e))
}

/// Plays `game` against the solver's moves.
fn play_game<G: Playable + Report>(
    game: &G,
    machine_first: bool,
    ui: &Ui,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let solution = solved(game, ui)?;
    play_against(
        &solution,
        SolverOpponent::new(&solution),
        machine_first,
        out,
    )
}

/// Plays the solved game against `opponent` (the solver's moves, or a circuit that answers
/// through rust-hdl); the solution judges the human's moves either way.
fn play_against<G: Playable + Report, O: Opponent<G>>(
    solution: &Solution<'_, G>,
    opponent: O,
    machine_first: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let title = format!("play {}", solution.game().title());
    let (mut session, first) = Session::start(solution, opponent, &title, machine_first);
    drive(&mut session, first, out)
}

/// Runs `retrogate play`.
pub fn run(args: PlayArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    match args.game {
        PlayGame::Sticks(a) => {
            let game = a.rules.game()?;
            game.check_solvable()?;
            if a.solver == SolverKind::Onchip {
                if a.against != Against::Circuit {
                    return Err(CliError::Usage(
                        "--solver onchip is the circuit's own solver: add --against circuit".into(),
                    ));
                }
                crate::circuit::sticks_solver_game::check_on_chip(&game)
                    .map_err(|e| CliError::Usage(e.to_string()))?;
                let solution = solved(&game, ui)?;
                let circuit = CircuitOpponent::on_chip(
                    &game,
                    crate::circuit::SIM_THINK_CYCLES,
                    a.turn.machine_first,
                )
                .map_err(CliError::Step)?;
                return play_against(&solution, circuit, a.turn.machine_first, out);
            }
            if a.against == Against::Circuit {
                let solution = solved(&game, ui)?;
                let circuit = CircuitOpponent::new(
                    &game,
                    crate::circuit::SIM_THINK_CYCLES,
                    a.turn.machine_first,
                )
                .map_err(|e| CliError::Usage(format!("--against circuit: {e}")))?;
                return play_against(&solution, circuit, a.turn.machine_first, out);
            }
            play_game(&game, a.turn.machine_first, ui, out)
        }
        PlayGame::Matches(a) => play_game(
            &MatchesGame::new(a.rules.count, &a.rules.take)?,
            a.turn.machine_first,
            ui,
            out,
        ),
        PlayGame::Heaps(a) => {
            let (moves, end) = heaps_rules(&a.heaps.rules)?;
            let game = HeapsGame::new(
                vec![a.heaps.start.clone()],
                moves,
                end,
                a.heaps.rules.last.into(),
                a.heaps.rules.apply_to.into(),
            )?;
            match (a.against, a.solver) {
                (Against::Solver, SolverKind::Software) => {
                    play_game(&game, a.turn.machine_first, ui, out)
                }
                (Against::Solver, SolverKind::Onchip) => Err(CliError::Usage(
                    "--solver onchip is the circuit's own solver: add --against circuit".into(),
                )),
                (Against::Circuit, SolverKind::Software) => Err(CliError::Usage(
                    "--against circuit: the heap game's circuit solves the game itself; add \
                     --solver onchip"
                        .into(),
                )),
                (Against::Circuit, SolverKind::Onchip) => {
                    // Refuse a game outside the circuit's family before solving anything.
                    on_chip_config(&game, a.turn.machine_first)
                        .map_err(|e| CliError::Usage(e.to_string()))?;
                    let solution = solved(&game, ui)?;
                    let circuit = HeapsCircuitOpponent::new(
                        &game,
                        crate::circuit::SIM_THINK_CYCLES,
                        a.turn.machine_first,
                    )
                    .map_err(|e| match e {
                        HeapsCircuitError::Game(e) => CliError::Usage(e.to_string()),
                        e => CliError::Step(e.to_string()),
                    })?;
                    play_against(&solution, circuit, a.turn.machine_first, out)
                }
            }
        }
        PlayGame::Jr01 => {
            let design = Jr01Design::build().map_err(|e| CliError::Step(e.to_string()))?;
            let mut block = design.block().map_err(|e| CliError::Step(e.to_string()))?;
            let (mut panel, first) =
                Jr01Panel::new(move |code| block.eval(code), design.solution.rows.clone());
            drive(&mut panel, first, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read_line_capped, stdin_error};

    #[test]
    fn a_read_error_is_bad_input_naming_stdin() {
        let e = stdin_error(&std::io::Error::from_raw_os_error(libc::EISDIR));
        assert_eq!(e.exit_code(), 2);
        let text = e.to_string();
        assert!(
            text.starts_with("cannot read the moves from stdin: "),
            "{text}"
        );
        assert!(
            text.contains("printf '1\\n3\\n' | retrogate play sticks"),
            "{text}"
        );
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_still_read() {
        let text = format!("{}\n2\nlast", "1".repeat(100_000));
        let mut input = std::io::BufReader::with_capacity(64, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut input, 10, &mut buf).unwrap(), 100_001);
        assert_eq!(buf, b"1111111111");
        buf.clear();
        assert_eq!(read_line_capped(&mut input, 10, &mut buf).unwrap(), 2);
        assert_eq!(buf, b"2\n");
        buf.clear();
        assert_eq!(read_line_capped(&mut input, 10, &mut buf).unwrap(), 4);
        assert_eq!(buf, b"last");
        buf.clear();
        assert_eq!(read_line_capped(&mut input, 10, &mut buf).unwrap(), 0);
    }
}
