//! The error type of the logic core.

use thiserror::Error;

/// Everything that can go wrong when building truth tables, cubes or sums of
/// products, or when asking for a minimisation with bad arguments.
///
/// Each message says what was wrong and how to fix it.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LogicError {
    /// A truth table was given too few or too many input variables.
    #[error(
        "a truth table needs between 1 and {max} input variables, but {inputs} were given; \
         encode the game state in at most {max} bits or split the function into smaller ones"
    )]
    InputCount {
        /// The number of inputs that was asked for.
        inputs: usize,
        /// The largest number of inputs allowed.
        max: usize,
    },

    /// A truth table was given too few or too many output bits.
    #[error(
        "a truth table needs between 1 and {max} output bits, but {outputs} were given; \
         encode the move in at most {max} bits or split the outputs over several tables"
    )]
    OutputCount {
        /// The number of outputs that was asked for.
        outputs: usize,
        /// The largest number of outputs allowed.
        max: usize,
    },

    /// The row vector of a truth table does not have one row per input code.
    #[error(
        "a truth table with {inputs} inputs needs exactly {expected} rows (one per input code \
         0..{expected}), but {found} were given; add don't-care rows (None) for unused codes"
    )]
    RowCount {
        /// The number of inputs of the table.
        inputs: usize,
        /// The number of rows needed, `1 << inputs`.
        expected: usize,
        /// The number of rows given.
        found: usize,
    },

    /// A row's output word has a bit set at or above the number of outputs.
    #[error(
        "row {code} has output word {word:#b}, which does not fit in {outputs} output bits; \
         raise the number of outputs or fix the word"
    )]
    WordTooWide {
        /// The input code of the offending row.
        code: u32,
        /// The output word that is too wide.
        word: u32,
        /// The number of outputs of the table.
        outputs: usize,
    },

    /// A boolean function was given more input variables than this module handles.
    #[error(
        "a boolean function may have at most {max} input variables, but {inputs} were given; \
         split the function into smaller ones"
    )]
    TooManyInputs {
        /// The number of inputs that was asked for.
        inputs: usize,
        /// The largest number of inputs allowed.
        max: usize,
    },

    /// An on-set or don't-care code does not fit in the function's inputs.
    #[error(
        "input code {code} is out of range for a function of {inputs} inputs (codes must be \
         below {limit}); drop the code or raise the number of inputs",
        limit = 1u64 << inputs
    )]
    CodeOutOfRange {
        /// The offending code.
        code: u32,
        /// The number of inputs of the function.
        inputs: usize,
    },
}
