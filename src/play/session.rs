//! A game between the human and an [`Opponent`], driven one input line at a time.

use super::games::{legal_moves, Playable};
use crate::game::{Ending, Game, Successor};
use crate::solver::{Outcome, Solution};

/// Who makes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The person at the keyboard.
    Human,
    /// The machine (solver or circuit).
    Machine,
}

impl Side {
    /// `you` or `the machine`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Human => "you",
            Side::Machine => "the machine",
        }
    }
    fn other(self) -> Side {
        match self {
            Side::Human => Side::Machine,
            Side::Machine => Side::Human,
        }
    }
}

/// What a session tells the person at the keyboard. Each event is one line of text in script
/// mode ([`Event::script_line`]); the terminal shows them its own way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The game and who moves first.
    Intro(String),
    /// The human is to move: the position drawn and what to type.
    Prompt {
        /// The position.
        board: String,
        /// What may be typed, e.g. `take 1, 2 or 3`.
        hint: String,
    },
    /// A move was made.
    Moved {
        /// Who moved.
        side: Side,
        /// The position before the move.
        board: String,
        /// The move in words.
        text: String,
        /// What the opponent's hardware shows just after the move, if it has any.
        panel: Option<String>,
    },
    /// The human's input is not a legal move; the same prompt follows.
    Rejected {
        /// The position.
        board: String,
        /// What was typed.
        input: String,
        /// Why it is not a move.
        reason: String,
    },
    /// The game is over.
    Over {
        /// The winner.
        winner: Side,
        /// How it ended and who won, in words.
        text: String,
    },
    /// After a loss: the first move that threw the win away (or that there was none).
    Lesson(String),
    /// The game stopped before its end (end of input, `quit`, Ctrl-C).
    Unfinished(String),
    /// The machine could not move (an opponent that failed or answered an illegal move).
    Failed(String),
}

impl Event {
    /// The event as one stable line for script mode (stdin not a terminal); `None` for prompts,
    /// which script mode does not print (each move line starts with the position instead).
    pub fn script_line(&self) -> Option<String> {
        match self {
            Event::Intro(t) | Event::Lesson(t) | Event::Unfinished(t) => Some(t.clone()),
            Event::Prompt { .. } => None,
            Event::Moved {
                side,
                board,
                text,
                panel,
            } => Some(format!(
                "{board}  {}: {text}{}",
                match side {
                    Side::Human => "you",
                    Side::Machine => "machine",
                },
                panel.as_ref().map_or(String::new(), |p| format!("  [{p}]"))
            )),
            Event::Rejected {
                board,
                input,
                reason,
            } => Some(format!("{board}  you: {input}  refused: {reason}")),
            Event::Over { text, .. } => Some(format!("game over: {text}")),
            Event::Failed(t) => Some(format!("error: {t}")),
        }
    }
}

/// The machine's side of the game. A solver-backed opponent answers from the solved game; a
/// circuit-backed one drives its rust-hdl block with the position's code and reads the move
/// off the outputs. The session checks that every reply is a legal move.
pub trait Opponent<G: Game> {
    /// What the machine plays by, for the intro: `the solver's moves`.
    fn describe(&self) -> String;
    /// The machine's move at stored position `i` of `game` (not an ending), or why it cannot
    /// answer.
    fn reply(&mut self, game: &G, i: usize) -> Result<G::Move, String>;
    /// Hears the human's legal move `m` at stored position `i`, which leads to `after`.
    /// `Ok(Some(reason))` refuses it (the same prompt follows); `Err` stops the game. The
    /// solver has nothing to hear; a circuit is driven with the move here.
    fn hear(
        &mut self,
        _game: &G,
        _i: usize,
        _m: &G::Move,
        _after: Successor,
    ) -> Result<Option<String>, String> {
        Ok(None)
    }
    /// What the opponent's hardware shows now (lamps, LEDs), for the move lines.
    fn panel(&self) -> Option<String> {
        None
    }
}

/// Plays the solver's chosen move: the fastest win, or the longest loss.
pub struct SolverOpponent<'s, 'g, G: Game> {
    solution: &'s Solution<'g, G>,
}

impl<'s, 'g, G: Game> SolverOpponent<'s, 'g, G> {
    /// The opponent that plays `solution`'s moves.
    pub fn new(solution: &'s Solution<'g, G>) -> Self {
        Self { solution }
    }
}

impl<G: Game> Opponent<G> for SolverOpponent<'_, '_, G> {
    fn describe(&self) -> String {
        "the solver's moves".to_string()
    }
    fn reply(&mut self, _: &G, i: usize) -> Result<G::Move, String> {
        self.solution
            .best_move(i)
            .map(|(m, _)| m)
            .ok_or_else(|| "the solver has no move at an ending".to_string())
    }
}

/// The first human move that threw a win away.
#[derive(Clone, Debug)]
struct Blunder {
    at: String,
    text: String,
    better: Option<String>,
}

/// One game between the human and an [`Opponent`], judged with the solver's labels.
pub struct Session<'s, 'g, G: Playable, O: Opponent<G>> {
    solution: &'s Solution<'g, G>,
    opponent: O,
    at: Successor,
    shown: G::Position,
    to_move: Side,
    blunder: Option<Blunder>,
    had_win: bool,
    done: bool,
}

impl<'s, 'g, G: Playable, O: Opponent<G>> Session<'s, 'g, G, O> {
    /// Starts a game from the game's first start position. `title` names the game; with
    /// `machine_first` the machine opens. Returns the session and its first events (the intro,
    /// the machine's opening move if it moves first, and the human's prompt).
    pub fn start(
        solution: &'s Solution<'g, G>,
        opponent: O,
        title: &str,
        machine_first: bool,
    ) -> (Self, Vec<Event>) {
        let game = solution.game();
        let start = game.starts()[0];
        let first = if machine_first {
            Side::Machine
        } else {
            Side::Human
        };
        let mut session = Session {
            solution,
            shown: game.position(start),
            at: Successor::Stored(start),
            to_move: first,
            blunder: None,
            had_win: false,
            done: false,
            opponent,
        };
        let mut events = vec![Event::Intro(format!(
            "{title}; {}; the machine plays {}",
            if machine_first {
                "the machine moves first"
            } else {
                "you move first"
            },
            session.opponent.describe()
        ))];
        session.advance(&mut events);
        (session, events)
    }

    /// True once the game is over (or stopped).
    pub fn is_over(&self) -> bool {
        self.done
    }

    fn game(&self) -> &'g G {
        self.solution.game()
    }

    fn board(&self) -> String {
        self.game().board(&self.shown)
    }

    /// Feeds one line typed by the human. Blank lines just ask again; `quit` (or `q`) leaves;
    /// `help` (or `?`) says how to play and asks again.
    pub fn feed(&mut self, line: &str) -> Vec<Event> {
        let mut events = Vec::new();
        if self.done {
            return events;
        }
        let input = line.trim();
        let Successor::Stored(i) = self.at else {
            unreachable!("a session at a position beyond the index space is over")
        };
        if input.is_empty() {
            events.push(self.prompt(i));
            return events;
        }
        if matches!(input, "q" | "quit" | "exit") {
            return self.stop("you left the game unfinished");
        }
        if matches!(input, "help" | "?" | "h") {
            events.push(Event::Intro(format!(
                "how to play: type your move and press Enter, one move per line ({}); \
                 `quit` leaves the game, `help` or `?` shows this",
                self.game().hint(i)
            )));
            events.push(self.prompt(i));
            return events;
        }
        let parsed = match super::too_long(input) {
            Some(reason) => Err(reason),
            None => self.game().parse_move(i, input),
        };
        match parsed {
            Err(reason) => {
                events.push(Event::Rejected {
                    board: self.board(),
                    input: super::excerpt(input),
                    reason,
                });
                events.push(self.prompt(i));
            }
            Ok((m, s)) => match self.opponent.hear(self.game(), i, &m, s) {
                Err(e) => {
                    self.done = true;
                    events.push(Event::Failed(e));
                }
                Ok(Some(reason)) => {
                    events.push(Event::Rejected {
                        board: self.board(),
                        input: super::excerpt(input),
                        reason,
                    });
                    events.push(self.prompt(i));
                }
                Ok(None) => {
                    self.judge(i, &m, s);
                    self.play(m, s, &mut events);
                    self.advance(&mut events);
                }
            },
        }
        events
    }

    /// The input ended (end of file) before the game did.
    pub fn end_of_input(&mut self) -> Vec<Event> {
        self.stop("end of input: the game was left unfinished")
    }

    /// The human pressed Ctrl-C.
    pub fn interrupted(&mut self) -> Vec<Event> {
        self.stop("interrupted: the game was left unfinished")
    }

    fn stop(&mut self, why: &str) -> Vec<Event> {
        if self.done {
            return Vec::new();
        }
        self.done = true;
        vec![Event::Unfinished(why.to_string())]
    }

    fn prompt(&self, i: usize) -> Event {
        Event::Prompt {
            board: self.board(),
            hint: self.game().hint(i),
        }
    }

    /// Records the human's first move from a won position into one won for the machine.
    fn judge(&mut self, i: usize, m: &G::Move, s: Successor) {
        let before = self.solution.value(i).outcome;
        if before == Outcome::Win {
            self.had_win = true;
        }
        let after = self.solution.successor_value(s).outcome;
        if before == Outcome::Win && after == Outcome::Win && self.blunder.is_none() {
            let game = self.game();
            self.blunder = Some(Blunder {
                at: game.name(&self.shown),
                text: game.say_move(&self.shown, m),
                better: self
                    .solution
                    .best_move(i)
                    .map(|(b, _)| game.say_move(&self.shown, &b)),
            });
        }
    }

    fn play(&mut self, m: G::Move, s: Successor, events: &mut Vec<Event>) {
        let game = self.game();
        events.push(Event::Moved {
            side: self.to_move,
            board: self.board(),
            text: game.say_move(&self.shown, &m),
            panel: self.opponent.panel(),
        });
        self.shown = game.after(&self.shown, &m);
        self.at = s;
        self.to_move = self.to_move.other();
    }

    /// Plays the machine's moves until the human is to move or the game is over.
    fn advance(&mut self, events: &mut Vec<Event>) {
        loop {
            let i = match self.at {
                Successor::Beyond => return self.finish(Ending::Reached, events),
                Successor::Stored(i) => i,
            };
            if let Some(ending) = self.game().ending(i) {
                return self.finish(ending, events);
            }
            if self.to_move == Side::Human {
                events.push(self.prompt(i));
                return;
            }
            let game = self.game();
            let reply = self.opponent.reply(game, i).and_then(|m| {
                legal_moves(game, i)
                    .into_iter()
                    .find(|(legal, _)| *legal == m)
                    .ok_or_else(|| {
                        format!(
                            "the machine answered {m:?} at {}, which is not a legal move there",
                            self.board()
                        )
                    })
            });
            match reply {
                Ok((m, s)) => self.play(m, s, events),
                Err(e) => {
                    self.done = true;
                    events.push(Event::Failed(e));
                    return;
                }
            }
        }
    }

    fn finish(&mut self, ending: Ending, events: &mut Vec<Event>) {
        self.done = true;
        // The value at the end is for the player to move there.
        let to_move_wins = self.solution.successor_value(self.at).outcome == Outcome::Win;
        let winner = if to_move_wins {
            self.to_move
        } else {
            self.to_move.other()
        };
        let how = match ending {
            Ending::Reached => self
                .game()
                .say_end(&self.shown, self.to_move.other().name()),
            Ending::Stuck => format!(
                "{} cannot move at {}",
                self.to_move.name(),
                self.game().name(&self.shown)
            ),
        };
        let verdict = match winner {
            Side::Human => "you win",
            Side::Machine => "the machine wins",
        };
        events.push(Event::Over {
            winner,
            text: format!("{how}; {verdict}"),
        });
        if winner == Side::Machine {
            events.push(Event::Lesson(match &self.blunder {
                Some(b) => format!(
                    "you threw the win away at {}: {} left the machine a winning position{}",
                    b.at,
                    b.text,
                    b.better
                        .as_ref()
                        .map_or(String::new(), |m| format!(" ({m} would have kept the win)"))
                ),
                None if self.had_win => {
                    "you never moved from a winning position into a winning one for the machine"
                        .to_string()
                }
                None => "you never had a winning position: the solver labels every position you moved from a loss".to_string(),
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{HeapsGame, MatchesGame, SticksGame};
    use crate::solver::solve;

    fn lines(events: &[Event]) -> Vec<String> {
        events.iter().filter_map(Event::script_line).collect()
    }

    #[test]
    fn a_perfect_human_beats_the_solver_at_fort_boyard() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let (mut session, events) = Session::start(&s, SolverOpponent::new(&s), "sticks", false);
        assert!(matches!(events.last(), Some(Event::Prompt { .. })));
        let mut all = lines(&events);
        // Always leave 4k + 1 sticks.
        while !session.is_over() {
            let Successor::Stored(n) = session.at else {
                unreachable!()
            };
            let take = if n % 4 == 1 { 1 } else { (n - 1) % 4 };
            all.extend(lines(&session.feed(&take.to_string())));
        }
        let last = all.last().unwrap();
        assert_eq!(last, "game over: the machine took the last stick; you win");
        assert!(!all.iter().any(|l| l.contains("threw")));
    }

    #[test]
    fn the_first_bad_move_is_named_after_a_loss() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let (mut session, _) = Session::start(&s, SolverOpponent::new(&s), "sticks", false);
        let mut all = Vec::new();
        while !session.is_over() {
            all.extend(lines(&session.feed("1")));
        }
        // 18 -> 17 is right (17 is lost for the machine); after the machine's answer the
        // human's next "take 1" throws the win away.
        assert_eq!(all[0], "18 ||||||||||||||||||  you: take 1 -> 17");
        assert_eq!(all[1], "17 |||||||||||||||||  machine: take 1 -> 16");
        assert_eq!(all[2], "16 ||||||||||||||||  you: take 1 -> 15");
        assert!(all
            .iter()
            .any(|l| l == "game over: you took the last stick; the machine wins"));
        assert_eq!(
            all.last().unwrap(),
            "you threw the win away at 16 sticks: take 1 -> 15 left the machine a winning position (take 3 -> 13 would have kept the win)"
        );
    }

    #[test]
    fn bad_input_is_refused_with_the_same_prompt() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let (mut session, _) = Session::start(&s, SolverOpponent::new(&s), "sticks", false);
        let events = session.feed("7");
        assert_eq!(
            lines(&events),
            ["18 ||||||||||||||||||  you: 7  refused: taking 7 is not a move of this game: take 1, 2 or 3"]
        );
        assert_eq!(
            events.last(),
            Some(&Event::Prompt {
                board: "18 ||||||||||||||||||".into(),
                hint: "take 1, 2 or 3".into()
            })
        );
        assert_eq!(
            lines(&session.end_of_input()),
            ["end of input: the game was left unfinished"]
        );
        assert!(session.is_over());
        assert!(session.feed("1").is_empty());
    }

    #[test]
    fn help_says_how_to_play_and_asks_again() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let (mut session, _) = Session::start(&s, SolverOpponent::new(&s), "sticks", false);
        for typed in ["help", "?"] {
            let events = session.feed(typed);
            let l = lines(&events);
            assert_eq!(l.len(), 1, "{l:?}");
            assert!(l[0].starts_with("how to play:"), "{l:?}");
            assert!(
                l[0].contains("take 1, 2 or 3") && l[0].contains("`quit`"),
                "{l:?}"
            );
            assert!(matches!(events.last(), Some(Event::Prompt { .. })));
        }
        assert!(!session.is_over(), "help is not a move");
        assert_eq!(
            lines(&session.feed("quit")),
            ["you left the game unfinished"]
        );
    }

    #[test]
    fn the_machine_opens_when_asked_and_matches_cross_phases() {
        let g = MatchesGame::jr01();
        let s = solve(&g);
        let (mut session, events) = Session::start(&s, SolverOpponent::new(&s), "matches", true);
        let l = lines(&events);
        assert!(l[0].ends_with("; the machine moves first; the machine plays the solver's moves"));
        assert_eq!(
            l[1],
            "phase 1, removed 0, on the table |||||||  machine: remove 1 -> removed 1"
        );
        let mut all = Vec::new();
        while !session.is_over() {
            all.extend(lines(&session.feed("1")));
        }
        assert!(all.iter().any(|l| l.contains("phase 2 begins")), "{all:?}");
        assert!(
            all.last()
                .unwrap()
                .starts_with("you threw the win away at phase 1"),
            "{all:?}"
        );
    }

    #[test]
    fn a_heap_game_ends_beyond_the_index_space() {
        let g = HeapsGame::kege_seed(&[3, 20]).unwrap();
        let s = solve(&g);
        let (mut session, _) = Session::start(&s, SolverOpponent::new(&s), "heaps", false);
        let l = lines(&session.feed("2 x*4"));
        assert_eq!(
            l,
            [
                "heaps 3,20 (sum 23)  you: heap 2 x*4 -> 3,80",
                "game over: you reached 3,80 (sum>=61 holds); you win"
            ]
        );
    }

    struct Cheat;
    impl Opponent<SticksGame> for Cheat {
        fn describe(&self) -> String {
            "a broken circuit".into()
        }
        fn reply(&mut self, _: &SticksGame, _: usize) -> Result<u64, String> {
            Ok(9)
        }
    }

    #[test]
    fn an_illegal_reply_stops_the_game() {
        let g = SticksGame::fort_boyard();
        let s = solve(&g);
        let (_, events) = Session::start(&s, Cheat, "sticks", true);
        assert_eq!(
            lines(&events).last().unwrap(),
            "error: the machine answered 9 at 18 ||||||||||||||||||, which is not a legal move there"
        );
    }
}
