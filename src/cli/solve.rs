//! `retrogate solve`.

use super::args::{GameArgs, HeapsRulesArgs, SolveArgs, SolveFormat};
use super::columns::Columns;
use super::report::Report;
use super::ui::Ui;
use super::CliError;
use crate::game::{expr::MoveExpr, End, HeapsGame, MatchesGame, SolverPath, SticksGame};
use crate::solver::period::{period_search_positions, PERIOD_BYTES_PER_POSITION};
use crate::solver::{
    try_solve_with_progress, OutOfMemory, Outcome, Reachable, Solution, SticksPeriod,
};
use std::io::{BufWriter, Write};

pub fn run(args: SolveArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    match args.game {
        GameArgs::Sticks(a) => {
            let game = a.game()?;
            if args.format == SolveFormat::Summary {
                let period = SticksPeriod::try_find(&game).map_err(|e| {
                    CliError::Usage(format!(
                        "not enough memory to find the period of this game: {e} (the search \
                         keeps {} bytes for each of up to {} positions); lower the largest \
                         --take",
                        PERIOD_BYTES_PER_POSITION,
                        period_search_positions(*game.take().last().expect("non-empty"))
                    ))
                })?;
                if let Some(period) = period {
                    return sticks_summary(&game, &period, out);
                }
            }
            if args.format == SolveFormat::Summary {
                // No period found (see above): only the dense solver can answer.
                game.check_solvable()?;
            } else {
                game.check_solvable_or_summary()?;
            }
            emit(&game, args.format, ui, out)
        }
        GameArgs::Matches(a) => emit(&MatchesGame::new(a.count, &a.take)?, args.format, ui, out),
        GameArgs::Heaps(a) => {
            let (moves, end) = heaps_rules(&a.rules)?;
            let game = HeapsGame::new(
                vec![a.start.clone()],
                moves,
                end,
                a.rules.last.into(),
                a.rules.apply_to.into(),
            )?;
            emit(&game, args.format, ui, out)
        }
    }
}

/// Parses `--move` and `--end`.
pub fn heaps_rules(rules: &HeapsRulesArgs) -> Result<(Vec<MoveExpr>, End), CliError> {
    let moves = rules
        .moves
        .iter()
        .map(|m| MoveExpr::parse(m).map_err(|e| CliError::Usage(format!("--move: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let end = rules.end.parse::<End>().map_err(CliError::Usage)?;
    Ok((moves, end))
}

fn emit<G: Report>(
    game: &G,
    format: SolveFormat,
    ui: &Ui,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let solution = {
        let mut progress = ui.solve_progress(game.len());
        try_solve_with_progress(game, &mut progress).map_err(|e| out_of_memory(game, e))?
    };
    let reachable = solution
        .try_reachable()
        .map_err(|e| out_of_memory(game, e))?;
    let mut out = BufWriter::with_capacity(1 << 16, out);
    match format {
        SolveFormat::Table => table(game, &solution, &reachable, &mut out)?,
        SolveFormat::Json => json_out(game, &solution, &reachable, &mut out)?,
        SolveFormat::Summary => summary(game, &solution, &reachable, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// The solver could not get memory for its arrays: exit 2, with how much it asked for and how
/// to shrink the game.
pub(super) fn out_of_memory<G: Report>(game: &G, e: OutOfMemory) -> CliError {
    let n = game.len() as u128;
    let total = SolverPath::of(game).bytes(n);
    CliError::Usage(format!(
        "not enough memory to solve this game: {e} ({:.1} GiB; the {n} positions need about {total} bytes in all); {}",
        e.bytes as f64 / (1u64 << 30) as f64,
        game.shrink_hint()
    ))
}

fn depth_text(d: Option<u64>) -> String {
    d.map_or_else(|| "-".to_string(), |d| d.to_string())
}

/// The cells of position `i`'s row: position, outcome, depth, move.
fn row_cells<G: Report>(game: &G, s: &Solution<G>, i: usize) -> Vec<String> {
    let p = game.position(i);
    let v = s.value(i);
    let mut row = game.position_cells(&p);
    row.push(v.outcome.to_string());
    row.push(depth_text(v.depth));
    row.push(
        s.best_move(i)
            .map_or_else(|| "-".to_string(), |(m, _)| game.move_text(&p, &m)),
    );
    row
}

/// The table of every reachable position, written as it goes: one pass over the solution
/// measures the columns, a second writes the rows (the same text as
/// [`Table::render`](super::columns::Table::render)).
fn table<G: Report, W: Write>(
    game: &G,
    s: &Solution<G>,
    reachable: &Reachable,
    out: &mut W,
) -> Result<(), CliError> {
    writeln!(out, "{}", game.title())?;
    let mut header = game.position_header();
    header.extend(["outcome", "depth", "move"]);
    let mut columns = Columns::new(&header);
    for i in reachable.iter() {
        columns.measure(&row_cells(game, s, i));
    }
    columns.write_header(&header, out)?;
    for i in reachable.iter() {
        columns.write_row(&row_cells(game, s, i), out)?;
    }
    Ok(())
}

/// The JSON document `{"game": ..., "positions": [...]}`, written position by position as
/// the solution is walked. The text is exactly what `serde_json::to_writer_pretty` makes of the
/// whole document (keys sorted, two-space indent): each position is written into a line buffer
/// by hand, nested values through serde_json with their indent added.
fn json_out<G: Report, W: Write>(
    game: &G,
    s: &Solution<G>,
    reachable: &Reachable,
    out: &mut W,
) -> Result<(), CliError> {
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 10);
    buf.extend_from_slice(b"{\n  \"game\": ");
    pretty_at(&game.describe(), 1, &mut buf);
    buf.extend_from_slice(b",\n  \"positions\": [");
    out.write_all(&buf)?;
    let mut scratch = Vec::new();
    let mut any = false;
    for i in reachable.iter() {
        buf.clear();
        buf.extend_from_slice(if any { b",\n    {" } else { b"\n    {" });
        any = true;
        let p = game.position(i);
        let v = s.value(i);
        buf.extend_from_slice(b"\n      \"depth\": ");
        match v.depth {
            Some(d) => decimal(d, &mut buf),
            None => buf.extend_from_slice(b"null"),
        }
        buf.extend_from_slice(b",\n      \"move\": ");
        match s.best_move(i) {
            Some((m, _)) => value_at(&game.move_json(&m), &mut buf, &mut scratch),
            None => buf.extend_from_slice(b"null"),
        }
        buf.extend_from_slice(b",\n      \"outcome\": \"");
        buf.extend_from_slice(match v.outcome {
            Outcome::Win => b"win".as_slice(),
            Outcome::Loss => b"loss",
            Outcome::Draw => b"draw",
        });
        buf.extend_from_slice(b"\",\n      \"position\": ");
        value_at(&game.position_json(&p), &mut buf, &mut scratch);
        buf.extend_from_slice(b"\n    }");
        out.write_all(&buf)?;
    }
    out.write_all(if any { b"\n  ]\n}\n" } else { b"]\n}\n" })?;
    Ok(())
}

/// A value inside a position (indent level 3): numbers directly, the rest through serde_json.
#[inline]
fn value_at(v: &serde_json::Value, buf: &mut Vec<u8>, scratch: &mut Vec<u8>) {
    match v {
        serde_json::Value::Number(n) if n.as_u64().is_some() => {
            decimal(n.as_u64().expect("checked"), buf)
        }
        _ => {
            scratch.clear();
            pretty_at_into(v, 3, buf, scratch);
        }
    }
}

/// `v` pretty-printed as serde_json prints it nested `level` deep.
fn pretty_at(v: &serde_json::Value, level: usize, buf: &mut Vec<u8>) {
    pretty_at_into(v, level, buf, &mut Vec::new());
}

fn pretty_at_into(v: &serde_json::Value, level: usize, buf: &mut Vec<u8>, scratch: &mut Vec<u8>) {
    serde_json::to_writer_pretty(&mut *scratch, v).expect("writing to a Vec");
    // Strings are escaped, so every newline is the formatter's: indent each by the level.
    for &b in scratch.iter() {
        buf.push(b);
        if b == b'\n' {
            buf.extend(std::iter::repeat_n(b' ', 2 * level));
        }
    }
}

/// `n` in decimal.
#[inline]
fn decimal(mut n: u64, buf: &mut Vec<u8>) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[at..]);
}

fn summary<G: Report, W: Write>(
    game: &G,
    s: &Solution<G>,
    reachable: &Reachable,
    out: &mut W,
) -> Result<(), CliError> {
    writeln!(out, "{}", game.title())?;
    let (mut wins, mut losses, mut draws) = (0usize, 0usize, 0usize);
    for i in reachable.iter() {
        match s.value(i).outcome {
            Outcome::Win => wins += 1,
            Outcome::Loss => losses += 1,
            Outcome::Draw => draws += 1,
        }
    }
    writeln!(
        out,
        "positions: {} ({wins} win, {losses} loss, {draws} draw)",
        reachable.len(),
    )?;
    for start in game.starts() {
        let p = game.position(start);
        let cells = game.position_cells(&p).join(" ");
        let mv = s
            .best_move(start)
            .map_or_else(|| "-".to_string(), |(m, _)| game.move_text(&p, &m));
        writeln!(out, "start {cells}: {}, {mv}", s.value(start))?;
    }
    let losing: Vec<String> = reachable
        .iter()
        .filter(|&i| s.value(i).outcome == Outcome::Loss)
        .take(10)
        .map(|i| game.position_cells(&game.position(i)).join(" "))
        .collect();
    writeln!(out, "first losing positions: {}", losing.join(", "))?;
    Ok(())
}

fn write_period(p: &SticksPeriod, out: &mut dyn Write) -> Result<(), CliError> {
    let pattern: String = p
        .pattern()
        .iter()
        .map(|o| match o {
            Outcome::Win => 'W',
            Outcome::Loss => 'L',
            Outcome::Draw => 'D',
        })
        .collect();
    writeln!(
        out,
        "period: {} after a pre-period of {} (outcomes from {} sticks on: {} repeating)",
        p.period(),
        p.pre_period(),
        p.pre_period(),
        pattern
    )?;
    Ok(())
}

/// Stick-game summary from the period alone: works for any count up to 2^63.
fn sticks_summary(
    game: &SticksGame,
    period: &SticksPeriod,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    writeln!(out, "{}", game.title())?;
    let (wins, losses) = period.outcome_counts(game.count());
    writeln!(
        out,
        "positions: {} ({wins} win, {losses} loss, 0 draw)",
        game.count() as u128 + 1
    )?;
    let v = period.at(game.count());
    let mv = v
        .take
        .map_or_else(|| "-".to_string(), |k| game.move_text(&game.count(), &k));
    writeln!(out, "start {}: {}, {mv}", game.count(), v.value)?;
    write_period(period, out)?;
    // Ten periods hold ten losses if a period holds any.
    let scan_to = game
        .count()
        .min(period.pre_period() + 10 * period.period() + period.take().len() as u64);
    let losing: Vec<String> = (0..=scan_to)
        .filter(|&n| period.at(n).value.outcome == Outcome::Loss)
        .take(10)
        .map(|n| n.to_string())
        .collect();
    writeln!(out, "first losing positions: {}", losing.join(", "))?;
    Ok(())
}
