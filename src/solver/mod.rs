//! Retrograde analysis of any [`Game`](crate::game::Game), the periodic answer for subtraction
//! games, and the KEGE exam questions.

pub mod kege;
pub mod period;
pub mod reachable;
pub mod retrograde;
pub mod strategy;

pub use kege::{KegeAnswers, KegeReport, KegeRow, KegeStart};
pub use period::{SticksPeriod, SticksValue};
pub use reachable::Reachable;
pub use retrograde::{
    solve, solve_with_progress, try_solve_with_progress, NoProgress, OutOfMemory, Outcome,
    Progress, Solution, Value,
};
