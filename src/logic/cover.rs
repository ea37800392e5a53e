//! An exact solver for weighted unate covering problems.
//!
//! Given rows (here: on-set minterms) and weighted columns (here: prime
//! implicants weighted by their literals), find the sets of columns that
//! cover every row with the least total weight, ties broken by the fewest
//! columns. Internally a column costs `weight * UNIT + 1`, which turns that
//! order into a single integer cost.
//!
//! The solver is a depth-first branch and bound run in two passes:
//!
//! 1. **Optimise** finds one cover of least cost. It starts from a greedy
//!    cover and prunes every node that cannot do strictly better.
//! 2. **Enumerate** (only when more than one cover is asked for) lists the
//!    other covers of that cost, pruning every node that cannot do at least
//!    as well.
//!
//! Every node first applies the classic reductions until none applies:
//! essential columns (the only column left for some row) are taken, rows
//! whose columns include another row's columns are dropped (covering the
//! other covers them), and dominated columns are dropped: those whose rows
//! are a subset of another column's that costs no more (Optimise) or strictly
//! less (Enumerate, which must not lose tied optima).
//!
//! The lower bound is Lagrangian: for row prices `u ≥ 0`, every cover costs at
//! least `Σ_r u_r + Σ_c min(0, cost_c − Σ_{r∈c} u_r)`. The prices start from
//! a greedy dual ascent (or the parent node's prices) and are improved by
//! projected subgradient steps; the bound is evaluated in integers at the
//! prices rounded down, so it is always valid. It is then rounded up to a
//! cost an irredundant cover can have (see `Rounding`), which is what closes
//! the search on problems whose columns all weigh the same, such as
//! symmetric functions. The reduced costs `cost_c − Σ_{r∈c} u_r` also fix
//! columns: a column whose reduced cost alone lifts the bound to the cutoff
//! is dropped, and one whose absence would do so is taken. In Optimise, they
//! also guide a greedy cover that often lowers the cutoff early.
//!
//! Each node branches on the row with the fewest columns: the `i`-th child
//! takes that row's `i`-th column and excludes the ones before it, so the
//! children split the covers of the node without overlap and every optimum is
//! listed exactly once. Nothing depends on hashing or timing, so the result
//! is deterministic.

use std::cmp::Reverse;

use super::bitset::BitSet;

/// A covering problem: `columns[c]` lists the rows column `c` covers, and
/// `weights[c]` is its weight. A cover is better when its total weight is
/// lower, or equal with fewer columns.
#[derive(Clone, Debug)]
pub(crate) struct CoverProblem {
    pub(crate) rows: usize,
    pub(crate) columns: Vec<Vec<usize>>,
    pub(crate) weights: Vec<u64>,
}

/// Internally a column costs `weight * UNIT + 1`, so that comparing costs
/// compares (total weight, number of columns) as long as a cover has fewer
/// than `UNIT` columns; a cover worth finding has at most one per row, and
/// the minimiser has at most `1 << 16` rows.
const UNIT: u64 = 1 << 20;

/// The covers of least total cost, each as ascending column indices, at most
/// `limit` of them: first the one the Optimise pass found, then the others in
/// the order the Enumerate pass finds them. Empty when `limit` is 0 or some
/// row has no column. Asking for fewer covers gives a prefix of the longer
/// list.
pub(crate) fn optimal_covers(problem: &CoverProblem, limit: usize) -> Vec<Vec<usize>> {
    if limit == 0 {
        return Vec::new();
    }
    let root = Matrix::from_problem(problem);
    let costs: Vec<i64> = root.costs.iter().map(|&cost| cost as i64).collect();
    let Some((greedy_cost, greedy)) = root.heuristic_cover(&costs) else {
        return Vec::new();
    };
    let mut search = Search {
        mode: Mode::Optimise,
        bound: greedy_cost,
        best: greedy.into_iter().map(|c| root.ids[c]).collect(),
        found: Vec::new(),
        limit: limit - 1,
    };
    search.best.sort_unstable();
    search.visit(root.clone(), Vec::new(), 0);
    if limit > 1 {
        search.mode = Mode::Enumerate;
        search.visit(root, Vec::new(), 0);
    }
    let Search { best, found, .. } = search;
    std::iter::once(best).chain(found).collect()
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
            costs: problem.weights.iter().map(|&w| w * UNIT + 1).collect(),
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
        const GONE: usize = usize::MAX;
        let mut new_col = vec![GONE; self.cols()];
        for (new_c, &c) in cols.iter().enumerate() {
            new_col[c] = new_c;
        }
        let mut col_rows = vec![BitSet::new(rows.len()); cols.len()];
        let mut row_cols = vec![BitSet::new(cols.len()); rows.len()];
        for (new_r, &r) in rows.iter().enumerate() {
            for c in self.row_cols[r].iter() {
                let new_c = new_col[c];
                if new_c != GONE {
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

    /// Takes the columns in `taken` and drops those in `dropped`: keeps the
    /// rows no taken column covers and the other columns.
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

    /// A cover and its cost, built from the columns of negative reduced cost,
    /// completed greedily (least cost per newly covered row, then least
    /// reduced cost, then lowest index) and pruned of redundant columns,
    /// dearest first. Each uncovered row in turn gets a column, so with every
    /// reduced cost positive this is a plain greedy cover. `None` when some
    /// row has no column.
    fn heuristic_cover(&self, reduced: &[i64]) -> Option<(u64, Vec<usize>)> {
        let mut chosen: Vec<usize> = (0..self.cols()).filter(|&c| reduced[c] < 0).collect();
        let mut times = vec![0u32; self.rows()];
        for &c in &chosen {
            for r in self.col_rows[c].iter() {
                times[r] += 1;
            }
        }
        let mut new = vec![0u64; self.cols()];
        for (c, rows) in self.col_rows.iter().enumerate() {
            new[c] = rows.iter().filter(|&r| times[r] == 0).count() as u64;
        }
        while let Some(r) = (0..self.rows()).find(|&r| times[r] == 0) {
            // cost_a / new_a < cost_b / new_b as cost_a * new_b < cost_b * new_a.
            let c = self.row_cols[r].iter().min_by(|&a, &b| {
                (u128::from(self.costs[a]) * u128::from(new[b]))
                    .cmp(&(u128::from(self.costs[b]) * u128::from(new[a])))
                    .then(reduced[a].cmp(&reduced[b]))
                    .then(a.cmp(&b))
            })?;
            for q in self.col_rows[c].iter() {
                if times[q] == 0 {
                    for other in self.row_cols[q].iter() {
                        new[other] -= 1;
                    }
                }
                times[q] += 1;
            }
            chosen.push(c);
        }
        chosen.sort_by_key(|&c| (Reverse(self.costs[c]), c));
        let mut cover = Vec::with_capacity(chosen.len());
        let mut total = 0;
        for c in chosen {
            if self.col_rows[c].iter().all(|r| times[r] > 1) {
                for r in self.col_rows[c].iter() {
                    times[r] -= 1;
                }
            } else {
                total += self.costs[c];
                cover.push(c);
            }
        }
        Some((total, cover))
    }

    /// How to round this matrix's lower bounds up, see [`Rounding`].
    fn rounding(&self) -> Rounding {
        Rounding {
            rows: self.rows() as u64,
            heaviest: self
                .costs
                .iter()
                .map(|&cost| cost / UNIT)
                .max()
                .unwrap_or(0),
        }
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

    /// The Lagrangian bound at `prices` rounded down to integers (which
    /// keeps it exact); writes the rounded prices to `whole` and the reduced
    /// cost of every column to `reduced`.
    fn evaluate(
        &self,
        columns: &Columns,
        prices: &[f64],
        whole: &mut [i64],
        reduced: &mut [i64],
    ) -> i64 {
        for (w, &p) in whole.iter_mut().zip(prices) {
            // Prices are never negative, so truncation rounds down.
            *w = p as i64;
        }
        let mut value: i64 = whole.iter().sum();
        for (c, (rc, &cost)) in reduced.iter_mut().zip(&self.costs).enumerate() {
            *rc = cost as i64
                - columns
                    .rows(c)
                    .iter()
                    .map(|&r| whole[r as usize])
                    .sum::<i64>();
            value += (*rc).min(0);
        }
        value
    }

    /// A lower bound on the cost of covering every row, improving the prices
    /// by at most `iterations` subgradient steps, stopping early once the
    /// bound reaches `target`. Keeps the best prices for the children.
    fn lagrangian(&mut self, target: u64, iterations: usize) -> Bound {
        let mut prices = if self.prices.len() == self.rows() {
            std::mem::take(&mut self.prices)
        } else {
            self.dual_ascent()
        };
        let target = i64::try_from(target).unwrap_or(i64::MAX);
        let mut whole = vec![0i64; self.rows()];
        let mut reduced = vec![0i64; self.cols()];
        let columns = Columns::new(&self.col_rows);
        let mut value = self.evaluate(&columns, &prices, &mut whole, &mut reduced);
        let mut best = value;
        let mut best_reduced = reduced.clone();
        let mut best_prices = prices.clone();
        let mut gradient = vec![0.0f64; self.rows()];
        let mut step_scale = STEP_SCALE;
        let mut stalled = 0;
        for _ in 0..iterations {
            if best >= target {
                break;
            }
            // Subgradient: 1 minus how often each row is covered by the
            // columns of negative reduced cost, projected so that a price
            // at 0 is not pushed below it.
            gradient.fill(1.0);
            for (c, &rc) in reduced.iter().enumerate() {
                if rc < 0 {
                    for &r in columns.rows(c) {
                        gradient[r as usize] -= 1.0;
                    }
                }
            }
            let mut norm = 0.0;
            for (g, &p) in gradient.iter_mut().zip(&prices) {
                if p <= 0.0 && *g < 0.0 {
                    *g = 0.0;
                }
                norm += *g * *g;
            }
            if norm == 0.0 {
                break;
            }
            let step = step_scale * (target - value).max(1) as f64 / norm;
            for (price, g) in prices.iter_mut().zip(&gradient) {
                *price = (*price + step * g).max(0.0);
            }
            value = self.evaluate(&columns, &prices, &mut whole, &mut reduced);
            if value > best {
                best = value;
                best_reduced.copy_from_slice(&reduced);
                best_prices.copy_from_slice(&prices);
                stalled = 0;
            } else {
                stalled += 1;
                if stalled >= STALL_LIMIT {
                    step_scale /= 2.0;
                    stalled = 0;
                    if step_scale < MIN_STEP_SCALE {
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

/// The rows of every column as one flat list, for the subgradient loop.
struct Columns {
    starts: Vec<usize>,
    rows: Vec<u32>,
}

impl Columns {
    fn new(col_rows: &[BitSet]) -> Columns {
        let mut starts = Vec::with_capacity(col_rows.len() + 1);
        let mut rows = Vec::new();
        starts.push(0);
        for set in col_rows {
            rows.extend(set.iter().map(|r| r as u32));
            starts.push(rows.len());
        }
        Columns { starts, rows }
    }

    fn rows(&self, c: usize) -> &[u32] {
        &self.rows[self.starts[c]..self.starts[c + 1]]
    }
}

/// Rounds lower bounds up to costs a cover worth finding can have.
///
/// Such a cover is irredundant (each of its columns covers a row no other
/// does), so it has at most one column per row. If it costs at least
/// `bound`, its total weight `w` satisfies `w * UNIT + rows >= bound`, and it
/// has at least `w / heaviest` columns (and at least one when rows remain).
struct Rounding {
    rows: u64,
    /// The largest column weight.
    heaviest: u64,
}

impl Rounding {
    fn round_up(&self, bound: u64) -> u64 {
        let least_weight = bound.saturating_sub(self.rows).div_ceil(UNIT);
        let fewest_columns = if self.heaviest == 0 {
            0
        } else {
            least_weight.div_ceil(self.heaviest)
        }
        .max(u64::from(self.rows > 0));
        bound.max(least_weight * UNIT + fewest_columns)
    }
}

/// Subgradient step control: the first step scale, the number of steps
/// without improvement after which it halves, and the scale at which to stop.
const STEP_SCALE: f64 = 2.0;
const STALL_LIMIT: usize = 20;
const MIN_STEP_SCALE: f64 = 1e-3;

/// Subgradient steps at the root and at the other nodes (which start from
/// their parent's prices).
const ROOT_ITERATIONS: usize = 1000;
const NODE_ITERATIONS: usize = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Find one cover of least cost (pass 1).
    Optimise,
    /// List the other covers of cost `bound` (pass 2).
    Enumerate,
}

struct Search {
    mode: Mode,
    /// Optimise: the cost of `best`. Enumerate: the least cost.
    bound: u64,
    /// The best cover found so far, as ascending problem column indices.
    best: Vec<usize>,
    /// Enumerate: the covers of least cost found, other than `best`.
    found: Vec<Vec<usize>>,
    /// Enumerate: how many covers to find.
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

    /// Records a cover of cost `cost` (below the cutoff).
    fn record(&mut self, mut cover: Vec<usize>, cost: u64) {
        cover.sort_unstable();
        match self.mode {
            Mode::Optimise => {
                self.bound = cost;
                self.best = cover;
            }
            Mode::Enumerate => {
                if cover != self.best {
                    self.found.push(cover);
                }
            }
        }
    }

    fn visit(&mut self, mut matrix: Matrix, mut chosen: Vec<usize>, mut cost: u64) {
        if self.done() {
            return;
        }
        let iterations = if chosen.is_empty() {
            ROOT_ITERATIONS
        } else {
            NODE_ITERATIONS
        };
        let (least, reduced) = loop {
            matrix = match self.reduce(matrix, &mut chosen, &mut cost) {
                Some(matrix) => matrix,
                None => return,
            };
            if matrix.rows() == 0 {
                self.record(chosen, cost);
                return;
            }
            let bound = matrix.lagrangian(self.cutoff() - cost, iterations);
            let rounding = matrix.rounding();
            // The least cost of covering the remaining rows.
            let least = rounding.round_up(bound.value);
            if least >= self.cutoff() - cost {
                return;
            }
            if self.mode == Mode::Optimise {
                if let Some((extra, cover)) = matrix.heuristic_cover(&bound.reduced) {
                    if cost + extra < self.bound {
                        let ids = cover.iter().map(|&c| matrix.ids[c]);
                        self.record(chosen.iter().copied().chain(ids).collect(), cost + extra);
                        if least >= self.cutoff() - cost {
                            return;
                        }
                    }
                }
            }
            // Reduced-cost fixing: covers with column c cost at least the
            // Lagrangian bound plus its reduced cost, and covers without it
            // at least the bound minus it.
            let target = self.cutoff() - cost;
            let mut taken = BitSet::new(matrix.cols());
            let mut dropped = BitSet::new(matrix.cols());
            for (c, &rc) in bound.reduced.iter().enumerate() {
                let other_side = bound.value.saturating_add(rc.unsigned_abs());
                if rounding.round_up(other_side) >= target {
                    if rc >= 0 {
                        dropped.insert(c);
                    } else {
                        taken.insert(c);
                    }
                }
            }
            if taken.is_empty() && dropped.is_empty() {
                break (least, bound.reduced);
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
            // The most promising column first, to lower the cutoff early.
            Mode::Optimise => columns.sort_by_key(|&c| (reduced[c], matrix.ids[c])),
        }
        let mut excluded = BitSet::new(matrix.cols());
        for &c in &columns {
            if self.done() || least >= self.cutoff().saturating_sub(cost) {
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
            // columns is covered whenever that row is. The rows whose columns
            // include row k's are those in every column of k. Rows go fewest
            // columns first, so a kept row drops the rows it dominates, and
            // of equal rows the first is kept.
            let counts: Vec<usize> = matrix.row_cols.iter().map(BitSet::len).collect();
            let mut order: Vec<usize> = (0..matrix.rows()).collect();
            order.sort_unstable_by_key(|&r| (counts[r], r));
            let mut dominated = BitSet::new(matrix.rows());
            let mut kept_rows: Vec<usize> = Vec::with_capacity(order.len());
            for &r in &order {
                if dominated.contains(r) {
                    continue;
                }
                kept_rows.push(r);
                let mut cols = matrix.row_cols[r].iter();
                if let Some(first) = cols.next() {
                    let mut supersets = matrix.col_rows[first].clone();
                    for c in cols {
                        supersets.intersect_with(&matrix.col_rows[c]);
                    }
                    supersets.remove(r);
                    dominated.union_with(&supersets);
                }
            }

            // Column dominance: a column whose rows are a subset of another
            // column's that costs no more (Optimise) or less (Enumerate) can
            // be replaced by it. The columns covering all of column c's rows
            // are those in every row of c. Columns go most rows first, then
            // cheapest, so a dominating column comes before the columns it
            // dominates; of equal columns the first is kept. Columns covering
            // nothing go too.
            let aggressive = self.mode == Mode::Optimise;
            let counts: Vec<usize> = matrix.col_rows.iter().map(BitSet::len).collect();
            let mut order: Vec<usize> = (0..matrix.cols()).collect();
            order.sort_unstable_by_key(|&c| (Reverse(counts[c]), matrix.costs[c], c));
            let mut kept = vec![false; matrix.cols()];
            let mut kept_cols: Vec<usize> = Vec::with_capacity(order.len());
            for &c in &order {
                let mut rows = matrix.col_rows[c].iter();
                let Some(first) = rows.next() else {
                    continue;
                };
                let mut supersets = matrix.row_cols[first].clone();
                for r in rows {
                    supersets.intersect_with(&matrix.row_cols[r]);
                }
                let is_dominated = supersets.iter().any(|k| {
                    kept[k]
                        && if aggressive {
                            matrix.costs[k] <= matrix.costs[c]
                        } else {
                            matrix.costs[k] < matrix.costs[c]
                        }
                });
                if !is_dominated {
                    kept[c] = true;
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

    fn problem(rows: usize, columns: &[&[usize]], weights: &[u64]) -> CoverProblem {
        CoverProblem {
            rows,
            columns: columns.iter().map(|c| c.to_vec()).collect(),
            weights: weights.to_vec(),
        }
    }

    /// Every best cover (least weight, then fewest columns) by trying all
    /// subsets of columns.
    fn brute_force(problem: &CoverProblem) -> Vec<Vec<usize>> {
        let n = problem.columns.len();
        let mut best = (u64::MAX, usize::MAX);
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
            let cost = (
                chosen.iter().map(|&c| problem.weights[c]).sum::<u64>(),
                chosen.len(),
            );
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
            let weights: Vec<u64> = (0..ncols).map(|_| next() % 4).collect();
            let p = CoverProblem {
                rows,
                columns,
                weights,
            };
            let mut found = optimal_covers(&p, usize::MAX);
            found.sort();
            assert_eq!(found, brute_force(&p), "{p:?}");
        }
    }
}
