//! Raised while normalising rows; this file holds its documentation.
use super::CheckInfo;
use crate::model::Severity;

pub const INFO: CheckInfo = CheckInfo {
    code: "missing-amount",
    default_severity: Severity::Warning,
    summary: "a row has no amount (an empty cell or a placeholder); it is counted as skipped",
    what: "Fires for a data row whose amount cell is empty or a placeholder (`-`, `--`, `NULL`, `N/A`). The row is counted in `skipped_rows` and not added to any total. Rows that are entirely empty are counted as blank, without a finding.",
    why: "A charge line without an amount is either a note or a charge the export lost. Counting it keeps every row accounted for.",
    example: "line 7: column `Cost` is empty; the row is kept out of the totals.",
};
