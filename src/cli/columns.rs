//! Plain-text tables with aligned columns (the text layout of `solve`, `kege`, `table`,
//! `minimize`).

use std::io::{self, Write};

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
        let mut columns = Columns::default();
        for row in &self.rows {
            columns.measure(row);
        }
        let mut out = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            columns
                .write(row, i > 0, &mut out)
                .expect("writing to a Vec");
        }
        String::from_utf8(out).expect("cells are text")
    }
}

/// Column widths of a table that is written as it goes: [`Columns::measure`] every row first,
/// then write them; the text is the same as [`Table::render`]'s.
#[derive(Debug, Default)]
pub struct Columns {
    width: Vec<usize>,
    line: String,
}

impl Columns {
    /// Widths that fit this header.
    pub fn new(header: &[&str]) -> Self {
        let mut c = Columns::default();
        c.measure(header);
        c
    }
    /// Widens the columns to fit this row.
    pub fn measure<S: AsRef<str>>(&mut self, row: &[S]) {
        if self.width.len() < row.len() {
            self.width.resize(row.len(), 0);
        }
        for (w, cell) in self.width.iter_mut().zip(row) {
            *w = (*w).max(cell.as_ref().chars().count());
        }
    }
    /// Writes the header row.
    pub fn write_header<W: Write + ?Sized>(
        &mut self,
        header: &[&str],
        out: &mut W,
    ) -> io::Result<()> {
        self.write(header, false, out)
    }
    /// Writes a data row (numeric-looking cells right-aligned).
    pub fn write_row<S: AsRef<str>, W: Write + ?Sized>(
        &mut self,
        row: &[S],
        out: &mut W,
    ) -> io::Result<()> {
        self.write(row, true, out)
    }
    /// Two spaces between columns, no trailing spaces.
    fn write<S: AsRef<str>, W: Write + ?Sized>(
        &mut self,
        row: &[S],
        data: bool,
        out: &mut W,
    ) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        for (c, cell) in row.iter().enumerate() {
            let cell = cell.as_ref();
            if c > 0 {
                line.push_str("  ");
            }
            let pad = self.width[c] - cell.chars().count();
            let numeric = data && cell.chars().all(|ch| ch.is_ascii_digit() || ch == '-');
            if numeric {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.write_all(line.trim_end().as_bytes())?;
        out.write_all(b"\n")
    }
}
