//! The words that say how a bill row stands to a commitment (a
//! reservation, a savings plan), as `unused-commitment` reads them. Compared
//! ASCII-case-insensitively with the row's status cell (FOCUS
//! `CommitmentDiscountStatus`, Azure `ChargeType`, AWS `lineItem/LineItemType`).

/// FOCUS `CommitmentDiscountStatus`: the commitment covered this usage.
pub(crate) const USED: &[&str] = &["Used"];
/// FOCUS `Unused`; Azure `UnusedReservation` and `UnusedSavingsPlan`.
pub(crate) const UNUSED: &[&str] = &["Unused", "UnusedReservation", "UnusedSavingsPlan"];
/// Azure `ChargeType = Usage`: used commitment when the row names one.
pub(crate) const USAGE: &[&str] = &["Usage"];
/// AWS `RIFee`: the reservation's fee for the period, with its unused part.
pub(crate) const RESERVATION_FEE: &[&str] = &["RIFee"];
/// AWS `SavingsPlanRecurringFee`: the plan's commitment, with its used part.
pub(crate) const SAVINGS_PLAN_FEE: &[&str] = &["SavingsPlanRecurringFee"];

/// Whether `cell` is one of `words`.
pub(crate) fn is(cell: &str, words: &[&str]) -> bool {
    let cell = cell.trim();
    words.iter().any(|w| w.eq_ignore_ascii_case(cell))
}

/// Units of a plan rented for a period rather than by the hour (a GPU
/// rented by the month), for `plan-costlier-than-on-demand`. Compared with
/// the whole unit, lowercased.
pub(crate) const PLAN_UNITS: &[&str] = &[
    "month", "months", "mo", "mon", "月", "个月", "week", "weeks", "周", "year", "years", "年",
];
/// Words of a description that make a line a plan (`RTX 4090 包月`,
/// `A100 monthly plan`), lowercased substrings.
pub(crate) const PLAN_WORDS: &[&str] = &[
    "包月",
    "包周",
    "包日",
    "包天",
    "包年",
    "monthly",
    "weekly",
    "daily plan",
    "per month",
    "subscription",
    "reserved plan",
];
