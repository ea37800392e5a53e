//! `retrogate kege`.

use super::args::{KegeArgs, KegeFormat};
use super::columns::Columns;
use super::solve::heaps_rules;
use super::CliError;
use crate::game::join_commas;
use crate::solver::kege::{analyse, parse_s_range, KegeReport};
use crate::solver::KegeStart;
use std::io::Write;

pub fn run(args: KegeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let start: KegeStart = args.start.parse().map_err(CliError::Usage)?;
    let range = parse_s_range(&args.s_range).map_err(CliError::Usage)?;
    let (moves, end) = heaps_rules(&args.rules)?;
    let report = analyse(
        &start,
        range,
        moves,
        end,
        args.rules.last.into(),
        args.rules.apply_to.into(),
    )?;
    match args.format {
        KegeFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        KegeFormat::Table => table(&args, &report, out)?,
    }
    Ok(())
}

fn value_text(outcome: Option<crate::solver::Outcome>, depth: Option<u64>) -> String {
    match (outcome, depth) {
        (Some(o), Some(d)) => format!("{o} {d}"),
        (Some(o), None) => o.to_string(),
        _ => "over".to_string(),
    }
}

fn table(args: &KegeArgs, r: &KegeReport, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(
        out,
        "heaps: start {}, S in {}, moves {}, ends at {}, last move {}",
        args.start,
        args.s_range,
        args.rules.moves.join(", "),
        args.rules.end,
        match args.rules.last {
            super::args::LastArg::Wins => "wins",
            super::args::LastArg::Loses => "loses",
        }
    )?;
    writeln!(
        out,
        "values for the player to move (Petya at the start, Vanya after one move): outcome and moves to the end"
    )?;
    // The rows are written as they are formatted: one pass measures the columns, a second
    // writes them.
    let header = [
        "S",
        "start",
        "Petya",
        "after Petya's first moves (Vanya to move)",
    ];
    let cells = |row: &crate::solver::KegeRow| {
        let moves: Vec<String> = row
            .moves
            .iter()
            .map(|m| {
                format!(
                    "{}: {}",
                    join_commas(&m.position),
                    value_text(Some(m.outcome), m.depth)
                )
            })
            .collect();
        [
            row.s.to_string(),
            join_commas(&row.start),
            value_text(row.outcome, row.depth),
            moves.join(" | "),
        ]
    };
    let mut columns = Columns::new(&header);
    for row in &r.rows {
        columns.measure(&cells(row));
    }
    columns.write_header(&header, out)?;
    for row in &r.rows {
        columns.write_row(&cells(row), out)?;
    }
    writeln!(out)?;
    writeln!(out, "answers (sets of S)")?;
    let a = &r.answers;
    let lines: [(&str, &str, &[u64]); 5] = [
        (
            "19",
            "Vanya wins with his first move after a bad first move of Petya",
            &a.vanya_wins_after_bad_move,
        ),
        (
            "19",
            "Vanya wins with his first move whatever Petya does (other wording)",
            &a.vanya_wins_in_1,
        ),
        (
            "20",
            "Petya cannot win in one move but wins with his second move",
            &a.petya_wins_in_2,
        ),
        (
            "21",
            "Vanya wins with his first or second move, not surely with his first",
            &a.vanya_wins_in_2,
        ),
        ("--", "Petya wins with his first move", &a.petya_wins_in_1),
    ];
    for (task, text, set) in lines {
        let listing = if set.is_empty() {
            "none".to_string()
        } else {
            format!(
                "{}  (min {}, max {}, count {})",
                runs(set),
                set[0],
                set[set.len() - 1],
                set.len()
            )
        };
        writeln!(out, "  task {task}  {text}: {listing}")?;
    }
    Ok(())
}

/// `4..56` for a run, `12, 14` for separate values.
fn runs(set: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < set.len() {
        let mut j = i;
        while j + 1 < set.len() && set[j + 1] == set[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => set[i].to_string(),
            1 => format!("{}, {}", set[i], set[j]),
            _ => format!("{}..{}", set[i], set[j]),
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_are_shown_as_ranges() {
        assert_eq!(super::runs(&[4, 5, 6, 7, 9, 12, 13]), "4..7, 9, 12, 13");
        assert_eq!(super::runs(&[]), "");
    }
}
