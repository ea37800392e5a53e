//! `retrogate board`: the virtual board. The flags, the key file and `--bin` (a readable iCE40
//! bitstream) are checked before anything is written; the Verilator model is built in `--work`
//! (of the top, or with `--bin` of the chip read back from the bitstream, whose device and
//! pins must be the top's); then either the key file is played and its frames written to
//! `--frames` (the scripted mode; frames an earlier run left there and this one did not write
//! again are removed), or the board runs live in the terminal: crossterm's raw mode and
//! alternate screen, ratatui drawing the library's view, the board's clock paced against the
//! wall clock, keys and mouse clicks pressing the controls; the terminal is restored on quit,
//! on Ctrl-C, on an error, on a panic and on SIGTERM or SIGHUP (through the interrupt
//! handler, which also stops the harness).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::BoardArgs;
use super::design::output_folder;
use super::ui::Ui;
use super::CliError;
use crate::board::BoardId;
use crate::output_dir;
use crate::vboard::{self, view, Script, Session, LONG_PRESS_MS, PRESS_MS};

pub fn run(args: BoardArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    let board: BoardId = args.board.into();
    let design = super::build::design_of(board, args.design, &args.game)?;
    let panel = vboard::panel(board, &design).map_err(|e| {
        CliError::Usage(format!(
            "--design {} on --board {board}: {e}; `retrogate boards` lists each board's designs",
            design.name()
        ))
    })?;
    // Everything is checked before anything is written.
    let build_it = format!(
        "`retrogate build --board {board} --design {}` writes it in build/{board}/{}/",
        design.name(),
        design.name()
    );
    if let Some(bin) = &args.bin {
        crate::bench::bitstream::check_bin(bin)
            .map_err(|e| CliError::Usage(format!("{e}; {build_it}")))?;
    }
    let script = match (&args.keys, &args.frames) {
        (Some(keys), Some(frames)) => {
            let text = std::fs::read_to_string(keys).map_err(|e| {
                CliError::Usage(format!(
                    "--keys {}: cannot read it ({e}); give a key file of `<ms> <action>` lines",
                    keys.display()
                ))
            })?;
            let script = Script::parse(&text, &format!("--keys {}", keys.display()), &panel)
                .map_err(CliError::Usage)?;
            let frames = output_folder("--frames", Some(frames))?.expect("given");
            Some((script, frames))
        }
        _ => None,
    };
    if script.is_none() && !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return Err(CliError::Usage(
            "the live board needs a terminal on stdin and stdout; for a record without one, \
             give --keys FILE --frames DIR (see `retrogate board --help`)"
                .into(),
        ));
    }
    let root = output_folder("--work", Some(&args.work))?.expect("given");
    let built = match &args.bin {
        None => {
            let work = output_dir::claim(&root, &format!("{board}-{}", design.name()))?;
            let _spinner = ui.spinner(&format!(
                "building the Verilator model of {} on {board}",
                design.name()
            ));
            vboard::build(board, &design, &work).map_err(|e| CliError::Step(e.to_string()))?
        }
        Some(bin) => {
            let path = output_dir::absolute(bin)?;
            let work = output_dir::claim(&root, &format!("{board}-{}-bin", design.name()))?;
            let _spinner = ui.spinner(&format!(
                "reading back {} and building the Verilator model of its chip",
                bin.display()
            ));
            vboard::build_from_bin(board, &design, &path, &work).map_err(|e| match e {
                vboard::BoardError::NotForTop(what) => CliError::Usage(format!(
                    "--bin {}: {what}; give the .bin of this board and design: {build_it}",
                    bin.display()
                )),
                e => CliError::Step(e.to_string()),
            })?
        }
    };
    let session = Session::start(panel, &built.exe, args.every_cycle)
        .map_err(|e| CliError::Step(e.to_string()))?;
    let model = format!(
        "{}model {} in {:.1} s",
        match &args.bin {
            Some(bin) => format!("the chip read back from {}; ", bin.display()),
            None => String::new(),
        },
        if built.reused { "reused" } else { "built" },
        built.elapsed.as_secs_f64()
    );
    match script {
        Some((script, frames)) => scripted(session, &script, &frames, &model, out),
        None => live(session, &model, args.bin.is_some(), out),
    }
}

/// Plays `script` and writes its frames into `dir`.
fn scripted(
    mut session: Session,
    script: &Script,
    dir: &Path,
    model: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (w, h) = view::needed(&session.panel);
    let start = Instant::now();
    let frames = vboard::run_script(&mut session, script, w, h)
        .map_err(|e| CliError::Step(e.to_string()))?;
    let wall = start.elapsed().as_secs_f64();
    let files: Vec<(PathBuf, String)> = frames
        .iter()
        .enumerate()
        .map(|(n, f)| {
            (
                dir.join(format!("{:04}-{}ms.txt", n + 1, f.ms)),
                f.text.clone(),
            )
        })
        .collect();
    output_dir::write_files(&files)?;
    // The frames of an earlier run there that this one did not write again go (only names the
    // folder's manifest lists: retrogate's own).
    let written: Vec<String> = files
        .iter()
        .filter_map(|(p, _)| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    let stale: Vec<String> = output_dir::manifest(dir)?
        .into_iter()
        .filter(|n| is_frame_name(n) && !written.contains(n))
        .collect();
    output_dir::remove_own_files(dir, &stale)?;
    let board_s = session.seconds();
    let evaluated = if session.evaluated() >= session.cycle() {
        "every cycle evaluated".to_owned()
    } else {
        let percent = 100.0 * session.evaluated() as f64 / session.cycle().max(1) as f64;
        format!("{percent:.2}% of its cycles evaluated, the others skipped as idle")
    };
    writeln!(
        out,
        "board {}: {}: {} frames in {} ({board_s:.3} s of board time simulated in {wall:.2} s: \
         {:.2}x real time; {evaluated}; {model})",
        session.panel.board.id,
        session.panel.title,
        frames.len(),
        dir.display(),
        if wall > 0.0 { board_s / wall } else { 0.0 },
    )?;
    Ok(())
}

/// A frame's file name as the scripted mode writes it: `NNNN-<ms>ms.txt`.
fn is_frame_name(name: &str) -> bool {
    let Some((n, ms)) = name.split_once('-') else {
        return false;
    };
    let Some(ms) = ms.strip_suffix("ms.txt") else {
        return false;
    };
    n.len() == 4
        && n.bytes().all(|b| b.is_ascii_digit())
        && !ms.is_empty()
        && ms.bytes().all(|b| b.is_ascii_digit())
}

/// The terminal as the live board leaves it: raw mode off, the main screen and the cursor back,
/// mouse capture off. Restored when dropped (also on an error or a panic) and on a signal (the
/// interrupt handler runs [`restore`] before it exits).
struct Restore {
    _on_signal: crate::interrupt::RestoreOnSignal,
}

impl Restore {
    fn enter() -> Result<Self, CliError> {
        use crossterm::{cursor, event, execute, terminal};
        terminal::enable_raw_mode()?;
        let guard = Restore {
            _on_signal: crate::interrupt::restore_on_signal(restore),
        };
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            event::EnableMouseCapture,
            cursor::Hide
        )?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        Ok(guard)
    }
}

fn restore() {
    use crossterm::{cursor, event, execute, terminal};
    use std::os::fd::FromRawFd;
    // Straight to fd 1, not through `std::io::stdout()`: on a signal this runs on the interrupt
    // handler's thread while the main thread holds stdout's lock.
    // SAFETY: fd 1 is open for the life of the process; `ManuallyDrop` never closes it.
    let mut tty = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
    let _ = execute!(
        &mut *tty,
        event::DisableMouseCapture,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
}

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

/// The live board: the board's clock paced against the wall clock, keys in, the view redrawn.
fn live(
    mut session: Session,
    model: &str,
    chip: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers, MouseEventKind};
    use ratatui::backend::CrosstermBackend;
    use ratatui::Terminal;

    let step = |e: vboard::BoardError| CliError::Step(e.to_string());
    let guard = Restore::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let hz = u64::from(session.panel.hz);
    let mut start = Instant::now();
    let mut offset = 0u64;
    let mut help = false;
    let mut long = false;
    let mut hits: Vec<(ratatui::layout::Rect, usize)> = Vec::new();
    loop {
        // The board catches up with the wall clock, in slices that keep the keys responsive.
        let slice = Instant::now();
        let target = offset + (start.elapsed().as_secs_f64() * hz as f64) as u64;
        while session.cycle() < target && slice.elapsed() < Duration::from_millis(40) {
            let next = (session.cycle() + hz / 200).min(target);
            session.advance_to(next, &mut |_| {}).map_err(step)?;
        }
        let real = start.elapsed().as_secs_f64();
        let board_s = (session.cycle() - offset) as f64 / hz as f64;
        let status = format!(
            "board {:.2} s, real {real:.2} s ({:.2}x){}",
            session.seconds(),
            if real > 0.0 { board_s / real } else { 0.0 },
            if chip { ", read-back chip" } else { "" }
        );
        terminal.draw(|f| {
            let area = f.area();
            view::draw(
                &session.panel,
                session.shown(),
                &status,
                help,
                area,
                f.buffer_mut(),
            );
            hits = view::hit_areas(&session.panel, area);
        })?;
        if !event::poll(Duration::from_millis(10))? {
            continue;
        }
        let press = |session: &mut Session, c: usize, long: bool| {
            session
                .press(c, if long { LONG_PRESS_MS } else { PRESS_MS })
                .map_err(step)
        };
        match event::read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => {
                let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
                match k.code {
                    KeyCode::Char('c') if ctrl => break,
                    KeyCode::Char('q') | KeyCode::Esc => break,
                    KeyCode::Char('?') => help = !help,
                    KeyCode::Char('+') => long = true,
                    KeyCode::Char('~') => {
                        session.power_cycle().map_err(step)?;
                        // The status line's real time restarts with the board.
                        start = Instant::now();
                        offset = session.cycle();
                    }
                    KeyCode::Char(c) => {
                        if let Some(n) = session.panel.control(c) {
                            press(&mut session, n, long)?;
                        }
                        long = false;
                    }
                    _ => {}
                }
            }
            Event::Mouse(m) if matches!(m.kind, MouseEventKind::Down(_)) => {
                if let Some(&(_, n)) = hits.iter().find(|(r, _)| {
                    m.column >= r.x
                        && m.column < r.x + r.width
                        && m.row >= r.y
                        && m.row < r.y + r.height
                }) {
                    press(&mut session, n, false)?;
                }
            }
            _ => {}
        }
    }
    drop(terminal);
    drop(guard);
    writeln!(
        out,
        "board {}: {:.2} s of board time ({model})",
        session.panel.board.id,
        session.seconds()
    )?;
    Ok(())
}
