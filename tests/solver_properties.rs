//! The solver against an independent answer: a plain recursive minimax written here, on random
//! subtraction games and random small heap games (outcome, depth and chosen move of every
//! reachable position), and the strategy law: a winning move leads to a lost position.

use proptest::prelude::*;
use retrogate::game::{expr::MoveExpr, ApplyTo, End, Game, HeapsGame, Last, SticksGame, Successor};
use retrogate::solver::{solve, Outcome};
use std::collections::HashMap;

/// (outcome, depth, index of the chosen move among the legal moves in order).
type Minimax = (Outcome, u64, Option<usize>);

/// Plain minimax over an acyclic game given by a successor function. `moves(p)` lists the
/// successors in move order (already de-duplicated) or is empty at the end; `terminal(p)` says
/// who wins there.
fn minimax<P: Clone + Eq + std::hash::Hash>(
    p: &P,
    moves: &dyn Fn(&P) -> Vec<P>,
    terminal_outcome: &dyn Fn(&P) -> Outcome,
    memo: &mut HashMap<P, Minimax>,
) -> Minimax {
    if let Some(v) = memo.get(p) {
        return *v;
    }
    let succ = moves(p);
    let v = if succ.is_empty() {
        (terminal_outcome(p), 0, None)
    } else {
        let vals: Vec<Minimax> = succ
            .iter()
            .map(|q| minimax(q, moves, terminal_outcome, memo))
            .collect();
        let losing: Vec<(usize, u64)> = vals
            .iter()
            .enumerate()
            .filter(|(_, v)| v.0 == Outcome::Loss)
            .map(|(i, v)| (i, v.1))
            .collect();
        if let Some(&min) = losing.iter().map(|(_, d)| d).min() {
            let i = losing.iter().find(|(_, d)| *d == min).unwrap().0;
            (Outcome::Win, min + 1, Some(i))
        } else {
            let max = vals.iter().map(|v| v.1).max().unwrap();
            let i = vals.iter().position(|v| v.1 == max).unwrap();
            (Outcome::Loss, max + 1, Some(i))
        }
    };
    memo.insert(p.clone(), v);
    v
}

fn check_game<G: Game>(
    game: &G,
    moves: &dyn Fn(&G::Position) -> Vec<G::Position>,
    terminal_outcome: &dyn Fn(&G::Position) -> Outcome,
    index: &dyn Fn(&G::Position) -> Option<usize>,
) where
    G::Position: Eq + std::hash::Hash,
{
    let s = solve(game);
    let mut memo = HashMap::new();
    for i in s.reachable() {
        let p = game.position(i);
        let (o, d, m) = minimax(&p, moves, terminal_outcome, &mut memo);
        let v = s.value(i);
        assert_eq!((v.outcome, v.depth), (o, Some(d)), "position {p:?}");
        let chosen = s.best_move(i).map(|(_, succ)| succ);
        let expected = m.map(|k| moves(&p)[k].clone());
        match (chosen, expected) {
            (None, None) => {}
            (Some(Successor::Stored(j)), Some(q)) => {
                assert_eq!(game.position(j), q, "move from {p:?}")
            }
            (Some(Successor::Beyond), Some(q)) => assert!(index(&q).is_none(), "move from {p:?}"),
            (c, e) => panic!("position {p:?}: solver chose {c:?}, minimax {e:?}"),
        }
        if v.outcome == Outcome::Win {
            if let Some((_, succ)) = s.best_move(i) {
                assert_eq!(
                    s.successor_value(succ).outcome,
                    Outcome::Loss,
                    "winning move from {p:?}"
                );
            }
        }
    }
}

fn take_set() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(1u64..12, 1..5).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn subtraction_games_agree_with_minimax(take in take_set(), count in 1u64..150, wins in any::<bool>()) {
        let last = if wins { Last::Wins } else { Last::Loses };
        let g = SticksGame::new(count, &take, last).unwrap();
        let moves = |n: &u64| take.iter().filter(|&&k| k <= *n).map(|&k| n - k).collect::<Vec<_>>();
        let terminal = |n: &u64| if *n == 0 && last == Last::Loses { Outcome::Win } else { Outcome::Loss };
        check_game(&g, &moves, &terminal, &|n: &u64| Some(*n as usize));
    }

    #[test]
    fn heap_games_agree_with_minimax(
        start in prop::collection::vec(0u64..6, 1..3),
        add in 1i64..4,
        mul in 2i64..4,
        guarded in any::<bool>(),
        threshold in 10u64..40,
        any_heap in any::<bool>(),
        smaller in any::<bool>(),
        wins in any::<bool>(),
    ) {
        let end = if any_heap { End::AnyAtLeast(threshold) } else { End::SumAtLeast(threshold) };
        prop_assume!(!end.holds(&start));
        let texts = [
            format!("x+{add}"),
            format!("x*{mul}"),
            if guarded { "x+x/2 if x%2==0".to_string() } else { "2*x+1".to_string() },
        ];
        let exprs: Vec<MoveExpr> = texts.iter().map(|t| MoveExpr::parse(t).unwrap()).collect();
        let last = if wins { Last::Wins } else { Last::Loses };
        let apply_to = if smaller { ApplyTo::Smaller } else { ApplyTo::Any };
        let g = HeapsGame::new(vec![start.clone()], exprs.clone(), end, last, apply_to).unwrap();
        let moves = |p: &Vec<u64>| -> Vec<Vec<u64>> {
            if end.holds(p) {
                return vec![];
            }
            let mut out: Vec<Vec<u64>> = vec![];
            for h in 0..p.len() {
                if smaller && p.iter().any(|&o| o < p[h]) {
                    continue;
                }
                for e in &exprs {
                    if let Some(r) = e.apply(p[h] as i64).unwrap() {
                        if r >= 0 && r != p[h] as i64 {
                            let mut q = p.clone();
                            q[h] = r as u64;
                            if !out.contains(&q) {
                                out.push(q);
                            }
                        }
                    }
                }
            }
            out
        };
        let terminal = |p: &Vec<u64>| {
            if end.holds(p) && last == Last::Loses { Outcome::Win } else { Outcome::Loss }
        };
        check_game(&g, &moves, &terminal, &|p: &Vec<u64>| g.index(p));
    }
}

/// A game that hides its direction, so the solver takes the queue path.
struct QueueOnly<'g>(&'g HeapsGame);

impl Game for QueueOnly<'_> {
    type Position = Vec<u64>;
    type Move = retrogate::game::heaps::HeapsMove;
    fn len(&self) -> usize {
        self.0.len()
    }
    fn last(&self) -> Last {
        self.0.last()
    }
    fn ending(&self, i: usize) -> Option<retrogate::game::Ending> {
        self.0.ending(i)
    }
    fn for_each_move<F: FnMut(Self::Move, Successor)>(&self, i: usize, f: F) {
        self.0.for_each_move(i, f)
    }
    fn for_each_predecessor<F: FnMut(usize)>(&self, i: usize, f: F) {
        self.0.for_each_predecessor(i, f)
    }
    fn position(&self, i: usize) -> Vec<u64> {
        self.0.position(i)
    }
    fn starts(&self) -> Vec<usize> {
        self.0.starts()
    }
}

/// A random acyclic heap game: 1 to 4 heaps whose moves all grow them (ending at `>=`) or all
/// shrink them (ending at `<=`), guards, `--apply-to smaller` and `--last` at random.
fn acyclic_heap_game() -> impl Strategy<Value = HeapsGame> {
    (
        1usize..5,
        any::<bool>(),
        (1i64..4, 2i64..4, any::<bool>()),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(0u64..40, 4),
        0u64..100,
    )
        .prop_filter_map(
            "the start is already over",
            |(k, grow, (add, mul, guarded), any_heap, smaller, wins, seeds, t)| {
                // Keep the index space small enough for the minimax reference.
                let span = [60u64, 40, 14, 8][k - 1];
                let (texts, end, start): (Vec<String>, End, Vec<u64>) = if grow {
                    let threshold = 4 + t % span;
                    let texts = vec![
                        format!("x+{add}"),
                        format!("x*{mul}"),
                        if guarded {
                            "x+x/2 if x%2==0".into()
                        } else {
                            "2*x+1".into()
                        },
                    ];
                    let end = if any_heap {
                        End::AnyAtLeast(threshold)
                    } else {
                        End::SumAtLeast(threshold * k as u64 / 2)
                    };
                    (
                        texts,
                        end,
                        seeds[..k].iter().map(|s| s % threshold).collect(),
                    )
                } else {
                    let threshold = t % 4;
                    let texts = vec![
                        format!("x-{add}"),
                        format!("x/{mul}"),
                        if guarded {
                            "x-5 if x%3==0".into()
                        } else {
                            "x-x/2-1".into()
                        },
                    ];
                    let end = if any_heap {
                        End::AnyAtMost(threshold)
                    } else {
                        End::SumAtMost(threshold)
                    };
                    (texts, end, seeds[..k].iter().map(|s| s % span).collect())
                };
                if end.holds(&start) {
                    return None;
                }
                let moves = texts.iter().map(|m| MoveExpr::parse(m).unwrap()).collect();
                let last = if wins { Last::Wins } else { Last::Loses };
                let apply_to = if smaller {
                    ApplyTo::Smaller
                } else {
                    ApplyTo::Any
                };
                HeapsGame::new(vec![start], moves, end, last, apply_to).ok()
            },
        )
}

/// The heap game's moves, written from its rules (not its index).
fn heap_moves(g: &HeapsGame) -> impl Fn(&Vec<u64>) -> Vec<Vec<u64>> + '_ {
    let end = g.end();
    let smaller = g.rules().apply_to == ApplyTo::Smaller;
    move |p: &Vec<u64>| -> Vec<Vec<u64>> {
        if end.holds(p) {
            return vec![];
        }
        let mut out: Vec<Vec<u64>> = vec![];
        for h in 0..p.len() {
            if smaller && p.iter().any(|&o| o < p[h]) {
                continue;
            }
            for e in g.moves() {
                if let Some(r) = e.apply(p[h] as i64).unwrap() {
                    if r >= 0 && r != p[h] as i64 {
                        let mut q = p.clone();
                        q[h] = r as u64;
                        if !out.contains(&q) {
                            out.push(q);
                        }
                    }
                }
            }
        }
        out
    }
}

/// Who wins where the heap game has no moves.
fn heap_terminal(g: &HeapsGame) -> impl Fn(&Vec<u64>) -> Outcome {
    let (end, last) = (g.end(), g.last());
    move |p: &Vec<u64>| {
        if end.holds(p) && last == Last::Loses {
            Outcome::Win
        } else {
            Outcome::Loss
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The one-sweep path (acyclic games) and the queue path give the same value and chosen
    /// move everywhere, and both agree with minimax on every reachable position.
    #[test]
    fn one_sweep_and_queue_agree_on_acyclic_heap_games(g in acyclic_heap_game()) {
        prop_assert!(g.direction().is_some(), "{:?} is acyclic", g.rules());
        let q = QueueOnly(&g);
        let (a, b) = (solve(&g), solve(&q));
        for i in 0..g.len() {
            prop_assert_eq!(a.value(i), b.value(i), "{:?} at {:?}", g.rules(), g.position(i));
            prop_assert_eq!(a.best_move(i), b.best_move(i), "{:?} at {:?}", g.rules(), g.position(i));
        }
        prop_assert_eq!(a.reachable().iter().collect::<Vec<_>>(), b.reachable().iter().collect::<Vec<_>>());
        let (moves, terminal) = (heap_moves(&g), heap_terminal(&g));
        check_game(&g, &moves, &terminal, &|p: &Vec<u64>| g.index(p));
        check_game(&q, &moves, &terminal, &|p: &Vec<u64>| g.index(p));
    }
}

#[test]
fn the_direction_comes_from_the_moves_themselves() {
    let game = |moves: &[&str], end: &str, start: &[u64]| {
        HeapsGame::new(
            vec![start.to_vec()],
            moves.iter().map(|m| MoveExpr::parse(m).unwrap()).collect(),
            end.parse().unwrap(),
            Last::Wins,
            ApplyTo::Any,
        )
        .unwrap()
    };
    use retrogate::game::Direction;
    assert_eq!(
        game(&["x+1", "x*2"], "sum>=30", &[1, 1]).direction(),
        Some(Direction::Up)
    );
    assert_eq!(
        game(&["x-1", "x/2"], "sum<=3", &[9, 9]).direction(),
        Some(Direction::Down)
    );
    // x-2 undoes x+1 twice: a cycle, so the queue path (and its draws).
    assert_eq!(game(&["x+1", "x-2"], "sum>=30", &[3, 4]).direction(), None);
    // A guard that rules out the shrinking move on every reachable size keeps the game acyclic.
    assert_eq!(
        game(&["x+2", "x-1 if x%2==1"], "sum>=30", &[2, 4]).direction(),
        Some(Direction::Up)
    );
    let cycling = game(&["x-2", "x+2 if x<6"], "sum<=0", &[3]);
    assert_eq!(cycling.direction(), None);
    let s = solve(&cycling);
    assert!((0..cycling.len()).any(|i| s.value(i).outcome == Outcome::Draw));
}
