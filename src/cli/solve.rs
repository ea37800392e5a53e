//! `retrogate solve`.

use super::args::{GameArgs, HeapsRulesArgs, SolveArgs, SolveFormat};
use super::report::Report;
use super::table::Table;
use super::ui::Ui;
use super::CliError;
use crate::game::{expr::MoveExpr, End, HeapsGame, MatchesGame, SticksGame};
use crate::solver::{solve_with_progress, Outcome, Solution, SticksPeriod};
use serde_json::json;
use std::io::Write;

pub fn run(args: SolveArgs, ui: &Ui, out: &mut dyn Write) -> Result<(), CliError> {
    match args.game {
        GameArgs::Sticks(a) => {
            let game = a.game()?;
            if args.format == SolveFormat::Summary {
                if let Some(period) = SticksPeriod::find(&game) {
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
        solve_with_progress(game, &mut progress)
    };
    match format {
        SolveFormat::Table => table(game, &solution, out),
        SolveFormat::Json => json_out(game, &solution, out),
        SolveFormat::Summary => summary(game, &solution, out),
    }
}

fn depth_text(d: Option<u64>) -> String {
    d.map_or_else(|| "-".to_string(), |d| d.to_string())
}

fn table<G: Report>(game: &G, s: &Solution<G>, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "{}", game.title())?;
    let mut header = game.position_header();
    header.extend(["outcome", "depth", "move"]);
    let mut t = Table::new(&header);
    for i in s.reachable() {
        let p = game.position(i);
        let v = s.value(i);
        let mut row = game.position_cells(&p);
        row.push(v.outcome.to_string());
        row.push(depth_text(v.depth));
        row.push(
            s.best_move(i)
                .map_or_else(|| "-".to_string(), |(m, _)| game.move_text(&p, &m)),
        );
        t.push(row);
    }
    out.write_all(t.render().as_bytes())?;
    Ok(())
}

fn json_out<G: Report>(game: &G, s: &Solution<G>, out: &mut dyn Write) -> Result<(), CliError> {
    let positions: Vec<_> = s
        .reachable()
        .into_iter()
        .map(|i| {
            let p = game.position(i);
            let v = s.value(i);
            json!({
                "position": game.position_json(&p),
                "outcome": v.outcome,
                "depth": v.depth,
                "move": s.best_move(i).map(|(m, _)| game.move_json(&m)),
            })
        })
        .collect();
    let doc = json!({"game": game.describe(), "positions": positions});
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

fn summary<G: Report>(game: &G, s: &Solution<G>, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "{}", game.title())?;
    let reachable = s.reachable();
    let count = |o: Outcome| {
        reachable
            .iter()
            .filter(|&&i| s.value(i).outcome == o)
            .count()
    };
    writeln!(
        out,
        "positions: {} ({} win, {} loss, {} draw)",
        reachable.len(),
        count(Outcome::Win),
        count(Outcome::Loss),
        count(Outcome::Draw)
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
        .filter(|&&i| s.value(i).outcome == Outcome::Loss)
        .take(10)
        .map(|&i| game.position_cells(&game.position(i)).join(" "))
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
