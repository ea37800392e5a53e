//! The scripted mode: a key file says what to press when, in board time, and which frames to
//! keep; [`run_script`] plays it on a [`Session`] as fast as the simulation runs and returns the
//! frames as text.
//!
//! The key file: one step a line, `<ms> <action>`, `<ms>` the board time in milliseconds since
//! power-on (never decreasing from line to line); `#` starts a comment, blank lines are
//! skipped. An action is a control's key (the key shown beside it: a button is held
//! [`PRESS_MS`] as a finger holds it, a switch flips), a key then `hold <ms>`
//! (a button held that long: `hold 1500` is a long press), `reset` (a power cycle) or `frame`
//! (keep the screen at that time). A file without a `frame` line keeps a frame at power-on and
//! on every change of what the board shows. The run ends at the last line's time.

use super::view;
use super::{BoardError, ControlKind, Panel, Session, Shown, PRESS_MS};

/// One step of a key file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Board time, ms since power-on.
    pub ms: u64,
    /// The line of the file (from 1).
    pub line: usize,
    /// What happens then.
    pub action: Action,
}

/// What a step does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Press control `control` (an index into [`Panel::controls`]) for `hold_ms`.
    Press {
        /// The control.
        control: usize,
        /// How long a button is held, ms.
        hold_ms: u64,
    },
    /// Power cycle.
    Reset,
    /// Keep a frame.
    Frame,
}

/// A key file, read and checked against a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The steps, in time order.
    pub steps: Vec<Step>,
}

/// A screen kept by the scripted mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Board time, ms since power-on.
    pub ms: u64,
    /// The screen as plain text, one line per row, trailing spaces trimmed.
    pub text: String,
}

impl Script {
    /// Reads a key file (`what` names it in messages, e.g. `--keys game.txt`) against `panel`:
    /// `Err` names the line, what is wrong, and the valid keys.
    pub fn parse(text: &str, what: &str, panel: &Panel) -> Result<Script, String> {
        let mut steps = Vec::new();
        let mut last = 0u64;
        let valid = || {
            format!(
                "the actions are a control's key ({}), `<key> hold <ms>`, `reset` and `frame`",
                panel.keys()
            )
        };
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let words: Vec<&str> = body.split_whitespace().collect();
            let bad = |why: String| format!("{what}: line {line} `{body}`: {why}");
            let ms: u64 = words[0].parse().map_err(|_| {
                bad(format!(
                    "`{}` is not a time; a line is `<ms> <action>`, the board time in \
                     milliseconds then what to do ({})",
                    words[0],
                    valid()
                ))
            })?;
            if ms < last {
                return Err(bad(format!(
                    "{ms} ms comes before the previous line's {last} ms; give the lines in \
                     time order"
                )));
            }
            last = ms;
            let action = match words[1..] {
                [] => return Err(bad(format!("no action after the time; {}", valid()))),
                ["frame"] => Action::Frame,
                ["reset"] => Action::Reset,
                [key] | [key, "hold", _] => {
                    let mut chars = key.chars();
                    let control = match (chars.next(), chars.next()) {
                        (Some(k), None) => panel.control(k),
                        _ => None,
                    }
                    .ok_or_else(|| bad(format!("`{key}` is no key of this board; {}", valid())))?;
                    let hold_ms = match words[2..] {
                        [] => PRESS_MS,
                        [_, hold] => {
                            if panel.controls[control].kind == ControlKind::Switch {
                                return Err(bad(format!(
                                    "`{key}` is a switch ({}): a press flips it, it is not \
                                     held; drop `hold {hold}`",
                                    panel.controls[control].label
                                )));
                            }
                            match hold.parse::<u64>() {
                                Ok(h) if h > 0 => h,
                                _ => {
                                    return Err(bad(format!(
                                        "`{hold}` is not a hold time; give milliseconds, \
                                         e.g. `hold 1500` for a long press"
                                    )))
                                }
                            }
                        }
                        _ => unreachable!("matched above"),
                    };
                    Action::Press { control, hold_ms }
                }
                _ => return Err(bad(format!("one action a line; {}", valid()))),
            };
            steps.push(Step { ms, line, action });
        }
        if steps.is_empty() {
            return Err(format!(
                "{what}: no steps; write one `<ms> <action>` a line ({})",
                valid()
            ));
        }
        Ok(Script { steps })
    }

    /// Whether frames are kept on every change (the file has no `frame` line).
    pub fn every_change(&self) -> bool {
        !self.steps.iter().any(|s| s.action == Action::Frame)
    }
}

/// The screen of `session` as text, `width` x `height`, with the board-time status line.
pub fn frame_text(session: &Session, width: u16, height: u16) -> String {
    let status = format!("board time {:.3} s", session.seconds());
    view::text(&session.panel, session.shown(), &status, width, height)
}

/// Plays `script` on `session` (just started), as fast as the simulation runs, and returns the
/// frames (`width` x `height` each).
pub fn run_script(
    session: &mut Session,
    script: &Script,
    width: u16,
    height: u16,
) -> Result<Vec<Frame>, BoardError> {
    let every = script.every_change();
    let mut frames: Vec<Frame> = Vec::new();
    let mut last: Option<Shown> = None;
    let ms_of = |s: &Session| s.cycle() * 1000 / u64::from(s.panel.hz);
    let keep = |s: &Session, frames: &mut Vec<Frame>, last: &mut Option<Shown>| {
        if last.as_ref() != Some(s.shown()) {
            *last = Some(s.shown().clone());
            frames.push(Frame {
                ms: ms_of(s),
                text: frame_text(s, width, height),
            });
        }
    };
    // Power-on: the first cycle's pins.
    session.advance_to(1, &mut |_| {})?;
    if every {
        keep(session, &mut frames, &mut last);
    }
    for step in &script.steps {
        let cycle = session.cycles_in_ms(step.ms);
        let mut changed: Vec<Frame> = Vec::new();
        session.advance_to(cycle, &mut |s| {
            if every {
                keep(s, &mut changed, &mut last);
            }
        })?;
        frames.append(&mut changed);
        match step.action {
            Action::Frame => frames.push(Frame {
                ms: step.ms,
                text: frame_text(session, width, height),
            }),
            Action::Reset => session.power_cycle()?,
            Action::Press { control, hold_ms } => session.press(control, hold_ms)?,
        }
        if every {
            keep(session, &mut frames, &mut last);
        }
    }
    Ok(frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardId;
    use crate::circuit::top::Design;

    fn go_board() -> Panel {
        crate::vboard::panel(BoardId::GoBoard, &Design::sticks()).unwrap()
    }

    #[test]
    fn a_key_file_reads_times_keys_holds_resets_and_frames() {
        let p = go_board();
        let s = Script::parse(
            "# a game\n0 frame\n100 1\n\n1100 4 hold 1500  # long\n3000 reset\n3000 frame\n",
            "--keys k",
            &p,
        )
        .unwrap();
        let actions: Vec<(u64, usize, Action)> = s
            .steps
            .iter()
            .map(|s| (s.ms, s.line, s.action.clone()))
            .collect();
        assert_eq!(
            actions,
            [
                (0, 2, Action::Frame),
                (
                    100,
                    3,
                    Action::Press {
                        control: 0,
                        hold_ms: PRESS_MS
                    }
                ),
                (
                    1100,
                    5,
                    Action::Press {
                        control: 3,
                        hold_ms: 1500
                    }
                ),
                (3000, 6, Action::Reset),
                (3000, 7, Action::Frame),
            ]
        );
        assert!(!s.every_change());
        assert!(Script::parse("0 1\n", "k", &p).unwrap().every_change());
    }

    #[test]
    fn a_bad_line_is_named_with_the_valid_keys() {
        let p = go_board();
        for (text, says) in [
            ("0 frame\n10 9\n", "--keys k: line 2 `10 9`: `9` is no key of this board; the actions are a control's key (1 2 3 4)"),
            ("10 1\n5 2\n", "line 2 `5 2`: 5 ms comes before the previous line's 10 ms"),
            ("x 1\n", "line 1 `x 1`: `x` is not a time"),
            ("0\n", "line 1 `0`: no action after the time"),
            ("0 1 hold 0\n", "`0` is not a hold time"),
            ("0 1 2\n", "one action a line"),
            ("# empty\n", "--keys k: no steps"),
        ] {
            let e = Script::parse(text, "--keys k", &p).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        let alchitry = crate::vboard::panel(BoardId::AlchitryCu, &Design::Jr01).unwrap();
        let switch = alchitry
            .controls
            .iter()
            .find(|c| c.kind == ControlKind::Switch)
            .unwrap();
        let e = Script::parse(&format!("0 {} hold 100\n", switch.key), "k", &alchitry).unwrap_err();
        assert!(e.contains("is a switch"), "{e}");
    }
}
