//! The words that say how a bill row stands to a commitment (a
//! reservation, a savings plan), as `unused-commitment` reads them. Compared
//! ASCII-case-insensitively with the row's status cell (FOCUS
//! `CommitmentDiscountStatus`, Azure `ChargeType`, AWS `lineItem/LineItemType`).

/// FOCUS `CommitmentDiscountStatus`: the commitment covered this usage.
pub const USED: &[&str] = &["Used"];
/// FOCUS `Unused`; Azure `UnusedReservation` and `UnusedSavingsPlan`.
pub const UNUSED: &[&str] = &["Unused", "UnusedReservation", "UnusedSavingsPlan"];
/// Azure `ChargeType = Usage`: used commitment when the row names one.
pub const USAGE: &[&str] = &["Usage"];
/// AWS `RIFee`: the reservation's fee for the period, with its unused part.
pub const RESERVATION_FEE: &[&str] = &["RIFee"];
/// AWS `SavingsPlanRecurringFee`: the plan's commitment, with its used part.
pub const SAVINGS_PLAN_FEE: &[&str] = &["SavingsPlanRecurringFee"];

/// Whether `cell` is one of `words`.
pub fn is(cell: &str, words: &[&str]) -> bool {
    let cell = cell.trim();
    words.iter().any(|w| w.eq_ignore_ascii_case(cell))
}
