//! Plain-text tables with aligned columns.

/// A table: a header row and data rows; numeric-looking cells are right-aligned.
#[derive(Debug, Default)]
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new(header: &[&str]) -> Self {
        Table {
            rows: vec![header.iter().map(|s| s.to_string()).collect()],
        }
    }
    /// Adds a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }
    /// Renders with two spaces between columns and no trailing spaces.
    pub fn render(&self) -> String {
        let cols = self.rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let width: Vec<usize> = (0..cols)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for (i, row) in self.rows.iter().enumerate() {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let pad = width[c] - cell.chars().count();
                let numeric = i > 0 && cell.chars().all(|ch| ch.is_ascii_digit() || ch == '-');
                if numeric {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}
