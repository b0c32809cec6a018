//! Raised while normalising rows (see `normalise::RowNormaliser`); this file
//! holds its documentation.
use super::CheckInfo;
use crate::model::Severity;

pub const INFO: CheckInfo = CheckInfo {
    code: "unparsable-value",
    default_severity: Severity::Error,
    summary: "a money or quantity value could not be read; its row is kept out of the totals",
    what: "Fires for every cell in the amount, quantity, unit-price or list-amount column that is neither a number nor a placeholder (`-`, `--`, `NULL`, `N/A`, empty), and for cells that are not valid text in the file's encoding. The row is counted in `skipped_rows` and kept out of every total. The finding names the line and the column.",
    why: "Reading an unreadable value as zero silently drops money from the bill. A total you cannot trust is worse than no total.",
    example: "line 14, column `Amount`: `12,5O` is not a number (a letter O where a zero should be).",
};
