//! How each game's positions and moves read in text and JSON.

use crate::game::{
    join_commas, matches::MatchesPosition, Game, HeapsGame, MatchesGame, SticksGame,
};
use serde_json::{json, Value as Json};

/// Text and JSON renderings of a game's parameters, positions and moves.
pub trait Report: Game {
    /// The game's parameters as JSON.
    fn describe(&self) -> Json;
    /// One line naming the game.
    fn title(&self) -> String;
    /// Column headers for the position.
    fn position_header(&self) -> Vec<&'static str>;
    /// The position's cells.
    fn position_cells(&self, p: &Self::Position) -> Vec<String>;
    /// The position as JSON.
    fn position_json(&self, p: &Self::Position) -> Json;
    /// The move in words.
    fn move_text(&self, from: &Self::Position, m: &Self::Move) -> String;
    /// The move as JSON.
    fn move_json(&self, m: &Self::Move) -> Json;
    /// How to make the game smaller, for a game too large to solve.
    fn shrink_hint(&self) -> &'static str;
}

impl Report for SticksGame {
    fn describe(&self) -> Json {
        json!({"kind": "sticks", "count": self.count(), "take": self.take(), "last": self.last()})
    }
    fn title(&self) -> String {
        format!(
            "sticks: {} sticks, take {}, whoever takes the last stick {}",
            self.count(),
            join_commas(self.take()),
            self.last()
        )
    }
    fn position_header(&self) -> Vec<&'static str> {
        vec!["sticks"]
    }
    fn position_cells(&self, p: &u64) -> Vec<String> {
        vec![p.to_string()]
    }
    fn position_json(&self, p: &u64) -> Json {
        json!(p)
    }
    fn move_text(&self, _: &u64, m: &u64) -> String {
        format!("take {m}")
    }
    fn move_json(&self, m: &u64) -> Json {
        json!(m)
    }
    fn shrink_hint(&self) -> &'static str {
        "lower --count, or use --format summary, which answers any count up to 2^63 from the period"
    }
}

impl Report for MatchesGame {
    fn describe(&self) -> Json {
        json!({"kind": "matches", "count": self.count(), "take": self.take()})
    }
    fn title(&self) -> String {
        format!(
            "matches (J.R. 01): {} matches, remove then put back {}; whoever brings the total put back to {} wins",
            self.count(),
            join_commas(self.take()),
            self.count()
        )
    }
    fn position_header(&self) -> Vec<&'static str> {
        vec!["phase", "total"]
    }
    fn position_cells(&self, p: &MatchesPosition) -> Vec<String> {
        vec![p.phase.to_string(), p.total.to_string()]
    }
    fn position_json(&self, p: &MatchesPosition) -> Json {
        json!({"phase": p.phase, "total": p.total})
    }
    fn move_text(&self, from: &MatchesPosition, m: &u64) -> String {
        if from.phase == 1 {
            format!("remove {m}")
        } else {
            format!("put back {m}")
        }
    }
    fn move_json(&self, m: &u64) -> Json {
        json!(m)
    }
    fn shrink_hint(&self) -> &'static str {
        "lower --count"
    }
}

impl Report for HeapsGame {
    fn describe(&self) -> Json {
        let r = self.rules();
        json!({
            "kind": "heaps",
            "start": self.start_positions(),
            "moves": r.moves,
            "end": r.end,
            "last": r.last,
            "apply_to": r.apply_to,
        })
    }
    fn title(&self) -> String {
        let r = self.rules();
        let starts: Vec<String> = self
            .start_positions()
            .iter()
            .map(|s| join_commas(s))
            .collect();
        format!(
            "heaps: start {}, moves {}, ends at {}, last move {}{}",
            starts.join(" / "),
            r.moves.join(", "),
            r.end,
            r.last,
            if r.apply_to == crate::game::ApplyTo::Smaller {
                ", only the smaller heap moves"
            } else {
                ""
            }
        )
    }
    fn position_header(&self) -> Vec<&'static str> {
        vec!["heaps"]
    }
    fn position_cells(&self, p: &Vec<u64>) -> Vec<String> {
        vec![join_commas(p)]
    }
    fn position_json(&self, p: &Vec<u64>) -> Json {
        json!(p)
    }
    fn move_text(&self, _: &Vec<u64>, m: &crate::game::heaps::HeapsMove) -> String {
        format!("-> {}", join_commas(&m.result))
    }
    fn move_json(&self, m: &crate::game::heaps::HeapsMove) -> Json {
        json!(m.result)
    }
    fn shrink_hint(&self) -> &'static str {
        "lower the --end threshold, use fewer heaps, or shrink --start"
    }
}
