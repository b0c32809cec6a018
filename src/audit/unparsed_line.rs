//! Raised while reading text invoices (see `normalise::text`); this file holds
//! its documentation.
use super::CheckInfo;
use crate::model::Severity;

pub const INFO: CheckInfo = CheckInfo {
    code: "unparsed-line",
    default_severity: Severity::Warning,
    summary: "a line of a text invoice was not understood; it is kept out of the totals",
    what: "Every non-blank line of a text invoice is read as a header field, a column heading, a rule line (`-----`), an item or a summary line (subtotal, tax, credit, total). A line that is none of these is reported with its line number, the column where reading stopped and its text, and counted in `skipped_rows`. It is not added to any total.",
    why: "Nothing is skipped in silence: a line the parser did not understand may be a charge (a wrapped description, an amount in an unusual form). If it was, the stated totals will not match either, and this finding says where to look.",
    example: "line 9, column 1: not an item, summary or header line: `Egress to internet (see attachment)`.",
};
