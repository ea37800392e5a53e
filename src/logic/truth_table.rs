//! Incompletely specified multi-output truth tables.

use serde::Serialize;

use super::cube::Sop;
use super::error::LogicError;
use super::minimise::minimise;

/// An incompletely specified multi-output boolean function.
///
/// The row index is the input code; input variable `j` is bit `j` of the code
/// (bit 0 is the least significant). A row holding `Some(word)` gives the
/// output word (output bit `k` is bit `k` of `word`); `None` is a don't-care
/// row, where every output may take either value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TruthTable {
    inputs: usize,
    outputs: usize,
    rows: Vec<Option<u32>>,
}

impl TruthTable {
    /// The largest number of input variables of a table.
    pub const MAX_INPUTS: usize = 8;
    /// The largest number of output bits of a table.
    pub const MAX_OUTPUTS: usize = 16;

    /// A table of `inputs` variables (1 to 8) and `outputs` bits (1 to 16)
    /// with exactly `1 << inputs` rows, each word below `1 << outputs`.
    pub fn new(inputs: usize, outputs: usize, rows: Vec<Option<u32>>) -> Result<Self, LogicError> {
        if !(1..=Self::MAX_INPUTS).contains(&inputs) {
            return Err(LogicError::InputCount {
                inputs,
                max: Self::MAX_INPUTS,
            });
        }
        if !(1..=Self::MAX_OUTPUTS).contains(&outputs) {
            return Err(LogicError::OutputCount {
                outputs,
                max: Self::MAX_OUTPUTS,
            });
        }
        let expected = 1usize << inputs;
        if rows.len() != expected {
            return Err(LogicError::RowCount {
                inputs,
                expected,
                found: rows.len(),
            });
        }
        for (code, row) in (0u32..).zip(&rows) {
            if let Some(word) = *row {
                if word >> outputs != 0 {
                    return Err(LogicError::WordTooWide {
                        code,
                        word,
                        outputs,
                    });
                }
            }
        }
        Ok(TruthTable {
            inputs,
            outputs,
            rows,
        })
    }

    /// A table whose row for `code` is `f(code)`; checked as by [`TruthTable::new`].
    pub fn from_fn(
        inputs: usize,
        outputs: usize,
        f: impl Fn(u32) -> Option<u32>,
    ) -> Result<Self, LogicError> {
        if !(1..=Self::MAX_INPUTS).contains(&inputs) {
            return Err(LogicError::InputCount {
                inputs,
                max: Self::MAX_INPUTS,
            });
        }
        let rows = (0..1u32 << inputs).map(f).collect();
        TruthTable::new(inputs, outputs, rows)
    }

    /// The number of input variables.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The number of output bits.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// All rows, indexed by input code.
    pub fn rows(&self) -> &[Option<u32>] {
        &self.rows
    }

    /// The row of input `code`; `None` for a don't-care row, and also for a
    /// code beyond the table (which no input of the table can produce).
    pub fn row(&self, code: u32) -> Option<u32> {
        usize::try_from(code)
            .ok()
            .and_then(|index| self.rows.get(index))
            .copied()
            .flatten()
    }

    /// The on-set and the don't-care set of output bit `k`, each in ascending
    /// code order. An output bit beyond the table is constant 0 where cared for.
    pub fn output_bit(&self, k: usize) -> (Vec<u32>, Vec<u32>) {
        let mut on = Vec::new();
        let mut dc = Vec::new();
        for (code, row) in (0u32..).zip(&self.rows) {
            match *row {
                None => dc.push(code),
                Some(word) if k < 32 && word >> k & 1 == 1 => on.push(code),
                Some(_) => {}
            }
        }
        (on, dc)
    }

    /// True when `f(code)` equals the row's word for every cared-for row
    /// (the whole word is compared, so `f` must leave unused high bits 0).
    pub fn is_implemented_by(&self, f: impl Fn(u32) -> u32) -> bool {
        (0u32..)
            .zip(&self.rows)
            .all(|(code, row)| row.is_none_or(|word| f(code) == word))
    }

    /// The first minimum sum of products of each output bit
    /// (index `k` is output bit `k`), as by [`minimise`].
    pub fn minimise(&self) -> Vec<Sop> {
        (0..self.outputs)
            .map(|k| {
                let (on, dc) = self.output_bit(k);
                minimise(self.inputs, &on, &dc)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_sizes() {
        assert_eq!(
            TruthTable::new(0, 1, vec![Some(0)]),
            Err(LogicError::InputCount { inputs: 0, max: 8 })
        );
        assert_eq!(
            TruthTable::new(9, 1, vec![None; 512]),
            Err(LogicError::InputCount { inputs: 9, max: 8 })
        );
        assert_eq!(
            TruthTable::new(2, 0, vec![None; 4]),
            Err(LogicError::OutputCount {
                outputs: 0,
                max: 16
            })
        );
        assert_eq!(
            TruthTable::new(2, 17, vec![None; 4]),
            Err(LogicError::OutputCount {
                outputs: 17,
                max: 16
            })
        );
        assert_eq!(
            TruthTable::new(2, 1, vec![None; 3]),
            Err(LogicError::RowCount {
                inputs: 2,
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            TruthTable::new(2, 2, vec![Some(0), None, Some(4), Some(1)]),
            Err(LogicError::WordTooWide {
                code: 2,
                word: 4,
                outputs: 2
            })
        );
        assert!(TruthTable::new(8, 16, vec![Some(0xffff); 256]).is_ok());
        assert!(TruthTable::from_fn(9, 1, |_| None).is_err());
    }

    #[test]
    fn error_messages_explain_the_fix() {
        let err = TruthTable::new(2, 1, vec![None; 3])
            .unwrap_err()
            .to_string();
        assert!(err.contains("exactly 4 rows"), "{err}");
        assert!(
            err.contains("got 3") || err.contains("3 were given"),
            "{err}"
        );
        let err = TruthTable::new(9, 1, vec![]).unwrap_err().to_string();
        assert!(err.contains("between 1 and 8 input variables"), "{err}");
        let err = TruthTable::new(1, 1, vec![Some(2), None])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("row 0") && err.contains("1 output bits"),
            "{err}"
        );
    }

    #[test]
    fn accessors() {
        let table = TruthTable::new(2, 2, vec![Some(0), None, Some(3), Some(2)]).unwrap();
        assert_eq!(table.inputs(), 2);
        assert_eq!(table.outputs(), 2);
        assert_eq!(table.rows().len(), 4);
        assert_eq!(table.row(2), Some(3));
        assert_eq!(table.row(1), None);
        assert_eq!(table.row(99), None);
        assert_eq!(table.output_bit(0), (vec![2], vec![1]));
        assert_eq!(table.output_bit(1), (vec![2, 3], vec![1]));
        assert_eq!(table.output_bit(5), (vec![], vec![1]));
        assert_eq!(table.output_bit(40), (vec![], vec![1]));
        assert!(table.is_implemented_by(|code| [0, 1, 3, 2][code as usize]));
        assert!(!table.is_implemented_by(|code| [0, 1, 3, 3][code as usize]));
        assert!(!table.is_implemented_by(|code| [4, 1, 3, 2][code as usize]));
    }

    #[test]
    fn serializes_rows() {
        fn is_serialize<T: Serialize>(_: &T) {}
        let table = TruthTable::new(1, 1, vec![Some(1), None]).unwrap();
        is_serialize(&table);
    }
}
