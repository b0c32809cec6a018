//! Raised by the pipeline when a file splits into bills per currency.
use super::CheckInfo;
use crate::model::Severity;

pub const INFO: CheckInfo = CheckInfo {
    code: "mixed-currency",
    default_severity: Severity::Warning,
    summary: "one file holds charges in several currencies",
    what: "Fires on each bill of a file whose rows carry more than one currency. The file is split into one bill per currency, and each bill's figures use only its own rows; amounts are never converted.",
    why: "Adding USD to CNY gives a meaningless total. A file with several currencies usually mixes accounts or regions that should be audited separately.",
    example: "rows in USD and CNY: two bills, each with a `mixed-currency` warning naming both currencies.",
};
