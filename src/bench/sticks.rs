//! Stick-game strategy circuits on the bench: their [`CombDesign`], the LUT count of each
//! implementation after `synth_ice40`, and the choice of the smaller one.

use std::path::Path;

use serde::Serialize;

use super::design::CombDesign;
use super::BenchError;
use crate::circuit::sticks_strategy::{Impl, STRATEGY_MODULE};
use crate::flow::yosys::synth_ice40;
use crate::game::SticksGame;

/// LUT counts of both implementations and the one chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ImplChoice {
    /// The implementation to use.
    pub chosen: Impl,
    /// Whether `chosen` was forced by the caller rather than picked by size.
    pub forced: bool,
    /// `SB_LUT4` cells of the ROM after `synth_ice40`.
    pub rom_luts: usize,
    /// `SB_LUT4` cells of the minimised logic after `synth_ice40`.
    pub logic_luts: usize,
}

impl ImplChoice {
    /// The LUT count of the chosen implementation.
    pub fn chosen_luts(&self) -> usize {
        match self.chosen {
            Impl::Rom => self.rom_luts,
            Impl::Logic => self.logic_luts,
        }
    }
}

/// `SB_LUT4` count of `game`'s strategy as `implementation` after `yosys synth_ice40`
/// (work directory `dir/luts_<impl>`).
pub fn strategy_luts(
    game: &SticksGame,
    implementation: Impl,
    dir: &Path,
) -> Result<usize, BenchError> {
    let design = CombDesign::from_sticks(game, implementation)?;
    let dir = super::work_dir(&dir.join(format!("luts_{implementation}")))?;
    let source = super::write(&dir, &format!("{STRATEGY_MODULE}.v"), &design.verilog)?;
    Ok(synth_ice40(&dir, &[source], STRATEGY_MODULE)?.stats.lut4)
}

/// Synthesises both implementations of `game`'s strategy and picks the one with fewer LUTs
/// (ties go to the logic), unless `force` names one. Both counts are reported either way.
pub fn choose_impl(
    game: &SticksGame,
    force: Option<Impl>,
    dir: &Path,
) -> Result<ImplChoice, BenchError> {
    let rom_luts = strategy_luts(game, Impl::Rom, dir)?;
    let logic_luts = strategy_luts(game, Impl::Logic, dir)?;
    let chosen = force.unwrap_or(if rom_luts < logic_luts {
        Impl::Rom
    } else {
        Impl::Logic
    });
    Ok(ImplChoice {
        chosen,
        forced: force.is_some(),
        rom_luts,
        logic_luts,
    })
}

/// One row of the LUT table: a game and the LUT count of each implementation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LutRow {
    /// The game's take set.
    pub take: Vec<u64>,
    /// Its count.
    pub count: u64,
    /// Its ending rule.
    pub last: crate::game::Last,
    /// ROM LUTs.
    pub rom_luts: usize,
    /// Logic LUTs.
    pub logic_luts: usize,
}

/// Measures [`choose_impl`] for every game and renders a markdown table (one row per game).
pub fn lut_table(games: &[SticksGame], dir: &Path) -> Result<(Vec<LutRow>, String), BenchError> {
    let mut rows = Vec::new();
    let mut md = String::from(
        "| take set | count | last | W | M | ROM LUTs | logic LUTs | logic cover | smaller |\n\
         |---|---:|---|---:|---:|---:|---:|---|---|\n",
    );
    for (i, game) in games.iter().enumerate() {
        let choice = choose_impl(game, None, &dir.join(format!("game{i}")))?;
        let t = crate::solver::strategy::sticks_table(game)
            .map_err(crate::circuit::SticksCircuitError::from)?;
        let greedy = (0..t.table.outputs())
            .filter(|&k| !crate::circuit::sticks_strategy::cover_output_bit(&t.table, k).1)
            .count();
        let cover = if greedy == 0 {
            "exact".to_owned()
        } else {
            format!("greedy on {greedy} of {} bits", t.table.outputs())
        };
        let take: Vec<String> = game.take().iter().map(u64::to_string).collect();
        let last = crate::game::Game::last(game);
        md.push_str(&format!(
            "| {{{}}} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            take.join(","),
            game.count(),
            last,
            t.sticks_bits,
            t.take_bits,
            choice.rom_luts,
            choice.logic_luts,
            cover,
            choice.chosen
        ));
        rows.push(LutRow {
            take: game.take().to_vec(),
            count: game.count(),
            last,
            rom_luts: choice.rom_luts,
            logic_luts: choice.logic_luts,
        });
    }
    Ok((rows, md))
}

/// The games of docs/sticks-luts.md: take sets {1,2,3}, {1,3,4}, {2,5,7} with 18, 20, 100
/// and 255 sticks, whoever takes the last stick loses.
pub fn lut_table_games() -> Vec<SticksGame> {
    let mut games = Vec::new();
    for take in [&[1, 2, 3][..], &[1, 3, 4], &[2, 5, 7]] {
        for count in [18, 20, 100, 255] {
            games.push(
                SticksGame::new(count, take, crate::game::Last::Loses).expect("valid stick game"),
            );
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lut_table_games_are_the_documented_ones() {
        let games = lut_table_games();
        assert_eq!(games.len(), 12);
        assert_eq!(games[0], SticksGame::fort_boyard());
    }

    #[test]
    fn from_sticks_ports() {
        let d = CombDesign::from_sticks(&SticksGame::fort_boyard(), Impl::Rom).unwrap();
        assert_eq!(d.module, "sticks_strategy");
        assert_eq!(d.input_width(), 5);
        assert_eq!(d.output_width(), 3);
        assert_eq!(d.cared_count(), 19);
    }
}

#[cfg(all(test, feature = "external-tools"))]
mod tool_tests {
    use super::*;
    use crate::bench::plan::{table, CheckResult};
    use crate::bench::Level;
    use crate::circuit::sticks_strategy::sticks_strategy_driver;
    use crate::flow::testing::work_dir;
    use crate::game::Last;

    #[test]
    fn fort_boyard_fits_four_luts_both_ways() {
        for count in [18, 20] {
            let game = SticksGame::fort_boyard().with_count(count).unwrap();
            let dir = work_dir(&format!("sticks-luts-{count}"));
            let choice = choose_impl(&game, None, dir.path()).expect("synthesis");
            assert!(choice.rom_luts <= 4, "{count}: {choice:?}");
            assert!(choice.logic_luts <= 4, "{count}: {choice:?}");
            assert!(choice.chosen_luts() <= 4);
            if choice.rom_luts == choice.logic_luts {
                assert_eq!(choice.chosen, Impl::Logic, "ties go to the logic");
            }
            let forced = choose_impl(&game, Some(Impl::Rom), dir.path()).expect("synthesis");
            assert_eq!((forced.chosen, forced.forced), (Impl::Rom, true));
        }
    }

    /// The exhaustive strategy check at levels 1 to 5 (the plan's level runner) for several games, both
    /// implementations between them. Fort Boyard's two lookups at these levels are
    /// `retrogate verify sticks`'s, which tests/cli/paths.rs runs as documented.
    #[test]
    fn sticks_strategies_pass_all_levels() {
        let cases = [
            (
                SticksGame::new(100, &[1, 3, 4], Last::Wins).unwrap(),
                Impl::Logic,
            ),
            (
                SticksGame::new(255, &[2, 5, 7], Last::Loses).unwrap(),
                Impl::Rom,
            ),
            (
                SticksGame::new(3, &[1, 6, 15], Last::Loses).unwrap(),
                Impl::Logic,
            ),
        ];
        for (i, (game, implementation)) in cases.iter().enumerate() {
            let dir = work_dir(&format!("sticks-bench-{i}"));
            let design = CombDesign::from_sticks(game, *implementation).expect("design");
            let mut driver = Some(sticks_strategy_driver(game, *implementation).expect("driver"));
            for level in &Level::ALL[..5] {
                let report = match table::run_level(&design, &mut driver, *level, dir.path()) {
                    CheckResult::Table(r) => r,
                    other => panic!("{game:?} {implementation} {level}: {other:?}"),
                };
                assert_eq!(report.level, *level);
                assert!(report.passed, "{game:?} {implementation}: {report}");
                assert_eq!(report.vectors, game.count() as usize + 1, "{report}");
            }
        }
    }

    #[test]
    fn sticks_strategies_pass_verilator_lint() {
        let games = [
            SticksGame::fort_boyard(),
            SticksGame::new(100, &[1, 3, 4], Last::Wins).unwrap(),
            SticksGame::new(255, &[2, 5, 7], Last::Loses).unwrap(),
            SticksGame::new(1, &[1], Last::Loses).unwrap(),
            SticksGame::new(3, &[1, 6, 15], Last::Wins).unwrap(),
        ];
        let dir = work_dir("sticks-lint");
        for (i, game) in games.iter().enumerate() {
            for implementation in Impl::ALL {
                let design = CombDesign::from_sticks(game, implementation).expect("design");
                let sub = dir.path().join(format!("{i}-{implementation}"));
                std::fs::create_dir_all(&sub).expect("mkdir");
                let path = sub.join(format!("{STRATEGY_MODULE}.v"));
                std::fs::write(&path, &design.verilog).expect("write");
                crate::flow::verilator::lint(&sub, &[path], STRATEGY_MODULE)
                    .unwrap_or_else(|e| panic!("{game:?} {implementation}: {e}"));
            }
        }
    }
}
