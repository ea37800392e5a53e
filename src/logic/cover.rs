//! An exact solver for weighted unate covering problems.
//!
//! Given rows (here: on-set minterms) and columns (here: prime implicants),
//! each column covering some rows at a positive cost, find the sets of columns
//! of least total cost that cover every row.
//!
//! The solver is a depth-first branch and bound run twice:
//!
//! 1. **Optimise** finds the least cost, starting from the cost of a greedy
//!    cover and pruning every node that cannot do strictly better.
//! 2. **Enumerate** lists the covers of exactly that cost, pruning every node
//!    that cannot do at least as well.
//!
//! Every node first applies the classic reductions until none applies:
//! essential columns (the only column left for some row) are taken, rows
//! whose columns include another row's columns are dropped (covering the
//! other covers them), and dominated columns are dropped: those whose rows
//! are a subset of another column's that costs no more (Optimise) or strictly
//! less (Enumerate, which must not lose tied optima).
//!
//! The lower bound is Lagrangian: for row prices `u ≥ 0`, every cover costs at
//! least `Σ u + Σ_c min(0, cost_c − Σ_{r∈c} u_r)`. The prices start from a
//! greedy dual ascent (or the parent node's prices) and are improved by a
//! few subgradient steps; the bound is evaluated in integers at the prices
//! rounded down, so it is always valid. Its reduced costs also fix columns:
//! a column whose reduced cost alone lifts the bound past the pruning level
//! is dropped, and one whose absence would do so is taken.
//!
//! Each node branches on the row with the fewest columns: the `i`-th child
//! takes that row's `i`-th column and excludes the ones before it, so the
//! children split the covers of the node without overlap and every optimum is
//! listed exactly once, in a deterministic order.

use super::bitset::BitSet;
static NODES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A covering problem: `columns[c]` lists the rows column `c` covers, at
/// `costs[c] > 0`.
#[derive(Clone, Debug)]
pub(crate) struct CoverProblem {
    pub(crate) rows: usize,
    pub(crate) columns: Vec<Vec<usize>>,
    pub(crate) costs: Vec<u64>,
}

/// The covers of least total cost, each as ascending column indices, at most
/// `limit` of them, in the (deterministic) order the search finds them.
/// Empty when `limit` is 0 or no cover exists. Asking for fewer covers gives
/// a prefix of the longer list.
pub(crate) fn optimal_covers(problem: &CoverProblem, limit: usize) -> Vec<Vec<usize>> {
    if limit == 0 {
        return Vec::new();
    }
    let Some(greedy) = greedy_cost(problem) else {
        return Vec::new();
    };
    let root = Matrix::from_problem(problem);
    let mut search = Search {
        mode: Mode::Optimise,
        bound: greedy,
        found: Vec::new(),
        limit,
    };
    let t = std::time::Instant::now();
    search.visit(root.clone(), Vec::new(), 0);
    if std::env::var("LOGIC_DEBUG").is_ok() {
        eprintln!(
            "optimise: {} nodes {:?} greedy {} opt {}",
            NODES.swap(0, std::sync::atomic::Ordering::Relaxed),
            t.elapsed(),
            greedy,
            search.bound
        );
    }
    search.mode = Mode::Enumerate;
    let t = std::time::Instant::now();
    search.visit(root, Vec::new(), 0);
    if std::env::var("LOGIC_DEBUG").is_ok() {
        eprintln!(
            "enumerate: {} nodes {:?}",
            NODES.swap(0, std::sync::atomic::Ordering::Relaxed),
            t.elapsed()
        );
    }
    search.found
}

/// The cost of a cover made by repeatedly taking the column with the least
/// cost per newly covered row; `None` when some row has no column.
fn greedy_cost(problem: &CoverProblem) -> Option<u64> {
    let mut covered = vec![false; problem.rows];
    let mut left = problem.rows;
    let mut total = 0;
    while left > 0 {
        // cost_a / new_a < cost_b / new_b as cost_a * new_b < cost_b * new_a.
        let mut pick: Option<(usize, u64, u64)> = None;
        for (c, rows) in problem.columns.iter().enumerate() {
            let new = rows.iter().filter(|&&r| !covered[r]).count() as u64;
            if new == 0 {
                continue;
            }
            let cost = problem.costs[c];
            let better = pick.is_none_or(|(_, best_cost, best_new)| {
                u128::from(cost) * u128::from(best_new) < u128::from(best_cost) * u128::from(new)
            });
            if better {
                pick = Some((c, cost, new));
            }
        }
        let (c, cost, new) = pick?;
        for &r in &problem.columns[c] {
            covered[r] = true;
        }
        left -= new as usize;
        total += cost;
    }
    Some(total)
}

/// The sub-problem at a search node, with rows and columns renumbered densely.
#[derive(Clone, Debug)]
struct Matrix {
    /// The problem's index of each column, ascending.
    ids: Vec<usize>,
    costs: Vec<u64>,
    /// The rows of each column.
    col_rows: Vec<BitSet>,
    /// The columns of each row.
    row_cols: Vec<BitSet>,
    /// Lagrangian row prices to start from (empty: none yet).
    prices: Vec<f64>,
}

/// A Lagrangian lower bound and the reduced costs of the columns at the
/// prices that gave it.
struct Bound {
    value: u64,
    reduced: Vec<i64>,
}

impl Matrix {
    fn from_problem(problem: &CoverProblem) -> Matrix {
        let mut col_rows = Vec::with_capacity(problem.columns.len());
        let mut row_cols = vec![BitSet::new(problem.columns.len()); problem.rows];
        for (c, rows) in problem.columns.iter().enumerate() {
            let mut set = BitSet::new(problem.rows);
            for &r in rows {
                set.insert(r);
                row_cols[r].insert(c);
            }
            col_rows.push(set);
        }
        Matrix {
            ids: (0..problem.columns.len()).collect(),
            costs: problem.costs.clone(),
            col_rows,
            row_cols,
            prices: Vec::new(),
        }
    }

    fn rows(&self) -> usize {
        self.row_cols.len()
    }

    fn cols(&self) -> usize {
        self.col_rows.len()
    }

    /// The sub-matrix of the given rows and columns (each ascending).
    fn restrict(&self, rows: &[usize], cols: &[usize]) -> Matrix {
        let mut col_rows = vec![BitSet::new(rows.len()); cols.len()];
        let mut row_cols = vec![BitSet::new(cols.len()); rows.len()];
        for (new_r, &r) in rows.iter().enumerate() {
            let old = &self.row_cols[r];
            for (new_c, &c) in cols.iter().enumerate() {
                if old.contains(c) {
                    col_rows[new_c].insert(new_r);
                    row_cols[new_r].insert(new_c);
                }
            }
        }
        let prices = if self.prices.is_empty() {
            Vec::new()
        } else {
            rows.iter().map(|&r| self.prices[r]).collect()
        };
        Matrix {
            ids: cols.iter().map(|&c| self.ids[c]).collect(),
            costs: cols.iter().map(|&c| self.costs[c]).collect(),
            col_rows,
            row_cols,
            prices,
        }
    }

    /// Takes the columns flagged in `taken` and drops those in `dropped`:
    /// keeps the rows no taken column covers and the other columns.
    fn apply(&self, taken: &BitSet, dropped: &BitSet) -> Matrix {
        let mut covered = BitSet::new(self.rows());
        for c in taken.iter() {
            covered.union_with(&self.col_rows[c]);
        }
        let rows: Vec<usize> = (0..self.rows()).filter(|&r| !covered.contains(r)).collect();
        let cols: Vec<usize> = (0..self.cols())
            .filter(|&c| !taken.contains(c) && !dropped.contains(c))
            .collect();
        self.restrict(&rows, &cols)
    }

    /// Greedy dual ascent: each row, fewest columns first, is priced at the
    /// least slack left among its columns. The prices are feasible for the
    /// dual of the covering LP (no column's rows are priced above its cost).
    fn dual_ascent(&self) -> Vec<f64> {
        let mut order: Vec<usize> = (0..self.rows()).collect();
        order.sort_by_key(|&r| (self.row_cols[r].len(), r));
        let mut slack = self.costs.clone();
        let mut prices = vec![0.0; self.rows()];
        for r in order {
            let raise = self.row_cols[r].iter().map(|c| slack[c]).min().unwrap_or(0);
            for c in self.row_cols[r].iter() {
                slack[c] -= raise;
            }
            prices[r] = raise as f64;
        }
        prices
    }

    /// The Lagrangian bound at `prices` (rounded down to integers, which
    /// keeps it exact) and the reduced cost of every column.
    fn evaluate(&self, columns: &[Vec<usize>], prices: &[f64]) -> (i64, Vec<i64>) {
        let whole: Vec<i64> = prices.iter().map(|&p| p.max(0.0).floor() as i64).collect();
        let reduced: Vec<i64> = columns
            .iter()
            .zip(&self.costs)
            .map(|(rows, &cost)| cost as i64 - rows.iter().map(|&r| whole[r]).sum::<i64>())
            .collect();
        let value = whole.iter().sum::<i64>() + reduced.iter().map(|&rc| rc.min(0)).sum::<i64>();
        (value, reduced)
    }

    /// A lower bound on the cost of covering every row, improving the prices
    /// by subgradient steps until the bound reaches `target` or stalls.
    fn lagrangian(&mut self, target: u64, iterations: usize) -> Bound {
        let columns: Vec<Vec<usize>> = self
            .col_rows
            .iter()
            .map(|rows| rows.iter().collect())
            .collect();
        let mut prices = if self.prices.len() == self.rows() {
            std::mem::take(&mut self.prices)
        } else {
            self.dual_ascent()
        };
        let target = i64::try_from(target).unwrap_or(i64::MAX);
        let (mut best, mut best_reduced) = self.evaluate(&columns, &prices);
        let mut best_prices = prices.clone();
        let envf = |k: &str, d: f64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let mut step_scale = envf("LAMBDA0", 1.0);
        let stall_max = envf("STALL", 5.0) as usize;
        let project = envf("PROJECT", 0.0) > 0.0;
        let mut stalled = 0;
        let mut current = (best, best_reduced.clone());
        for _ in 0..iterations {
            if best >= target {
                break;
            }
            // Subgradient: 1 minus how often each row is covered by the
            // columns of negative reduced cost.
            let mut gradient = vec![1.0f64; self.rows()];
            for (rows, &rc) in columns.iter().zip(&current.1) {
                if rc < 0 {
                    for &r in rows {
                        gradient[r] -= 1.0;
                    }
                }
            }
            if project {
                for (g, p) in gradient.iter_mut().zip(&prices) {
                    if *p <= 0.0 && *g < 0.0 {
                        *g = 0.0;
                    }
                }
            }
            let norm: f64 = gradient.iter().map(|g| g * g).sum();
            if norm == 0.0 {
                break;
            }
            let gap = (target - current.0).max(1) as f64;
            let step = step_scale * gap / norm;
            for (price, g) in prices.iter_mut().zip(&gradient) {
                *price = (*price + step * g).max(0.0);
            }
            current = self.evaluate(&columns, &prices);
            if current.0 > best {
                best = current.0;
                best_reduced = current.1.clone();
                best_prices.clone_from(&prices);
                stalled = 0;
            } else {
                stalled += 1;
                if stalled >= stall_max {
                    step_scale /= 2.0;
                    stalled = 0;
                    if step_scale < 1e-3 {
                        break;
                    }
                }
            }
        }
        self.prices = best_prices;
        Bound {
            value: u64::try_from(best).unwrap_or(0),
            reduced: best_reduced,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Find the least cost (pass 1).
    Optimise,
    /// List the covers of cost `bound` (pass 2).
    Enumerate,
}

/// Subgradient steps at the root and at the other nodes (which start from
/// their parent's prices).
const ROOT_ITERATIONS: usize = 300;
const NODE_ITERATIONS: usize = 40;

struct Search {
    mode: Mode,
    /// Optimise: the least cost found so far. Enumerate: the least cost.
    bound: u64,
    /// Enumerate: the covers found.
    found: Vec<Vec<usize>>,
    limit: usize,
}

impl Search {
    fn done(&self) -> bool {
        self.mode == Mode::Enumerate && self.found.len() >= self.limit
    }

    /// The least cost at which a cover is of no use: the best so far
    /// (Optimise) or just above the least cost (Enumerate).
    fn cutoff(&self) -> u64 {
        match self.mode {
            Mode::Optimise => self.bound,
            Mode::Enumerate => self.bound.saturating_add(1),
        }
    }

    fn visit(&mut self, mut matrix: Matrix, mut chosen: Vec<usize>, mut cost: u64) {
        NODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if std::env::var("LOGIC_DEBUG2").is_ok() && chosen.is_empty() {
            eprintln!("root {}x{}", matrix.rows(), matrix.cols());
        }
        if self.done() {
            return;
        }
        let envf = |k: &str, d: usize| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let iterations = if chosen.is_empty() {
            envf("ROOT_IT", ROOT_ITERATIONS)
        } else {
            envf("NODE_IT", NODE_ITERATIONS)
        };
        let bound = loop {
            matrix = match self.reduce(matrix, &mut chosen, &mut cost) {
                Some(matrix) => matrix,
                None => return,
            };
            if matrix.rows() == 0 {
                chosen.sort_unstable();
                match self.mode {
                    Mode::Optimise => self.bound = cost,
                    Mode::Enumerate => self.found.push(chosen),
                }
                return;
            }
            let target = self.cutoff() - cost;
            if std::env::var("DUMP").is_ok() && chosen.is_empty() {
                let mut out = String::new();
                for c in 0..matrix.cols() {
                    out += &format!(
                        "{} {}\n",
                        matrix.costs[c],
                        matrix.col_rows[c]
                            .iter()
                            .map(|r| r.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    );
                }
                std::fs::write(
                    format!("/tmp/core_{:?}_{}.txt", self.mode, matrix.rows()),
                    out,
                )
                .unwrap();
            }
            let bound = matrix.lagrangian(target, iterations);
            if std::env::var("LOGIC_DEBUG2").is_ok() && chosen.len() < 3 {
                eprintln!(
                    "{:?} depth {} core {}x{} lb {} target {}",
                    self.mode,
                    chosen.len(),
                    matrix.rows(),
                    matrix.cols(),
                    bound.value as f64 / (1u64 << 20) as f64,
                    target as f64 / (1u64 << 20) as f64
                );
            }
            if bound.value >= target {
                return;
            }
            // Reduced-cost fixing.
            let slack = (target - bound.value) as i64;
            let mut taken = BitSet::new(matrix.cols());
            let mut dropped = BitSet::new(matrix.cols());
            for (c, &rc) in bound.reduced.iter().enumerate() {
                if rc >= slack {
                    dropped.insert(c);
                } else if -rc >= slack {
                    taken.insert(c);
                }
            }
            if taken.is_empty() && dropped.is_empty() {
                break bound;
            }
            for c in taken.iter() {
                chosen.push(matrix.ids[c]);
                cost += matrix.costs[c];
            }
            matrix = matrix.apply(&taken, &dropped);
        };

        // Branch on the row with the fewest columns.
        let Some(row) = (0..matrix.rows()).min_by_key(|&r| (matrix.row_cols[r].len(), r)) else {
            return;
        };
        let mut columns: Vec<usize> = matrix.row_cols[row].iter().collect();
        match self.mode {
            // The order of the covers listed: cheapest column first.
            Mode::Enumerate => columns.sort_by_key(|&c| (matrix.costs[c], matrix.ids[c])),
            // Most promising column first, to lower the bound early.
            Mode::Optimise => columns.sort_by_key(|&c| (bound.reduced[c], matrix.ids[c])),
        }
        let mut excluded = BitSet::new(matrix.cols());
        for &c in &columns {
            if self.done() || bound.value >= self.cutoff().saturating_sub(cost) {
                return;
            }
            let mut taken = BitSet::new(matrix.cols());
            taken.insert(c);
            let child = matrix.apply(&taken, &excluded);
            let mut next = chosen.clone();
            next.push(matrix.ids[c]);
            self.visit(child, next, cost + matrix.costs[c]);
            // Covers with `c` are done: the next children exclude it.
            excluded.insert(c);
        }
    }

    /// Applies essential columns, row dominance and column dominance until
    /// none applies. `None` when some row is left without a column or the
    /// cost reaches the cutoff.
    fn reduce(
        &self,
        mut matrix: Matrix,
        chosen: &mut Vec<usize>,
        cost: &mut u64,
    ) -> Option<Matrix> {
        loop {
            if *cost >= self.cutoff() {
                return None;
            }
            // Essential columns.
            let mut essential = BitSet::new(matrix.cols());
            for cols in &matrix.row_cols {
                let mut iter = cols.iter();
                match (iter.next(), iter.next()) {
                    (None, _) => return None,
                    (Some(c), None) => essential.insert(c),
                    _ => {}
                }
            }
            if !essential.is_empty() {
                for c in essential.iter() {
                    chosen.push(matrix.ids[c]);
                    *cost += matrix.costs[c];
                }
                matrix = matrix.apply(&essential, &BitSet::new(matrix.cols()));
                continue;
            }

            // Row dominance: a row whose columns include another row's
            // columns is covered whenever that row is.
            let mut order: Vec<usize> = (0..matrix.rows()).collect();
            order.sort_by_key(|&r| (matrix.row_cols[r].len(), r));
            let mut kept_rows: Vec<usize> = Vec::with_capacity(order.len());
            for &r in &order {
                let cols = &matrix.row_cols[r];
                if !kept_rows
                    .iter()
                    .any(|&k| matrix.row_cols[k].is_subset(cols))
                {
                    kept_rows.push(r);
                }
            }

            // Column dominance; columns covering nothing go too. Dominating
            // columns sort first, so checking the kept ones is enough.
            let aggressive = self.mode == Mode::Optimise;
            let mut order: Vec<usize> = (0..matrix.cols())
                .filter(|&c| !matrix.col_rows[c].is_empty())
                .collect();
            order.sort_by_key(|&c| {
                (
                    std::cmp::Reverse(matrix.col_rows[c].len()),
                    matrix.costs[c],
                    c,
                )
            });
            let mut kept_cols: Vec<usize> = Vec::with_capacity(order.len());
            for &c in &order {
                let rows = &matrix.col_rows[c];
                let dominated = kept_cols.iter().any(|&k| {
                    let cheap_enough = if aggressive {
                        matrix.costs[k] <= matrix.costs[c]
                    } else {
                        matrix.costs[k] < matrix.costs[c]
                    };
                    cheap_enough && rows.is_subset(&matrix.col_rows[k])
                });
                if !dominated {
                    kept_cols.push(c);
                }
            }

            if kept_rows.len() == matrix.rows() && kept_cols.len() == matrix.cols() {
                return Some(matrix);
            }
            kept_rows.sort_unstable();
            kept_cols.sort_unstable();
            matrix = matrix.restrict(&kept_rows, &kept_cols);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(rows: usize, columns: &[&[usize]], costs: &[u64]) -> CoverProblem {
        CoverProblem {
            rows,
            columns: columns.iter().map(|c| c.to_vec()).collect(),
            costs: costs.to_vec(),
        }
    }

    /// Every least-cost cover by trying all subsets of columns.
    fn brute_force(problem: &CoverProblem) -> Vec<Vec<usize>> {
        let n = problem.columns.len();
        let mut best = u64::MAX;
        let mut covers = Vec::new();
        for set in 0u32..1 << n {
            let chosen: Vec<usize> = (0..n).filter(|&c| set >> c & 1 == 1).collect();
            let mut covered = vec![false; problem.rows];
            for &c in &chosen {
                for &r in &problem.columns[c] {
                    covered[r] = true;
                }
            }
            if !covered.iter().all(|&x| x) {
                continue;
            }
            let cost: u64 = chosen.iter().map(|&c| problem.costs[c]).sum();
            if cost < best {
                best = cost;
                covers.clear();
            }
            if cost == best {
                covers.push(chosen);
            }
        }
        covers.sort();
        covers
    }

    #[test]
    fn cyclic_core_has_all_ties() {
        // A 6-cycle: rows 0..6, column i covers rows i and i+1.
        let columns: Vec<Vec<usize>> = (0..6).map(|i| vec![i, (i + 1) % 6]).collect();
        let cols: Vec<&[usize]> = columns.iter().map(Vec::as_slice).collect();
        let p = problem(6, &cols, &[1; 6]);
        let mut found = optimal_covers(&p, 100);
        found.sort();
        assert_eq!(found, vec![vec![0, 2, 4], vec![1, 3, 5]]);
        assert_eq!(found, brute_force(&p));
    }

    #[test]
    fn limit_gives_a_prefix() {
        let columns: Vec<Vec<usize>> = (0..8).map(|i| vec![i, (i + 1) % 8]).collect();
        let cols: Vec<&[usize]> = columns.iter().map(Vec::as_slice).collect();
        let p = problem(8, &cols, &[1; 8]);
        let all = optimal_covers(&p, usize::MAX);
        assert_eq!(all.len(), 2);
        assert_eq!(optimal_covers(&p, 1), all[..1].to_vec());
        assert!(optimal_covers(&p, 0).is_empty());
    }

    #[test]
    fn uncoverable_row() {
        let p = problem(2, &[&[0]], &[1]);
        assert!(optimal_covers(&p, 5).is_empty());
    }

    #[test]
    fn matches_brute_force_on_small_problems() {
        // Deterministic pseudo-random problems.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..300 {
            let rows = 1 + (next() % 7) as usize;
            let ncols = 1 + (next() % 10) as usize;
            let columns: Vec<Vec<usize>> = (0..ncols)
                .map(|_| (0..rows).filter(|_| next() % 3 == 0).collect())
                .collect();
            let costs: Vec<u64> = (0..ncols).map(|_| 1 + next() % 3).collect();
            let p = CoverProblem {
                rows,
                columns,
                costs,
            };
            let mut found = optimal_covers(&p, usize::MAX);
            found.sort();
            assert_eq!(found, brute_force(&p), "{p:?}");
        }
    }
}
