use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use rust_decimal::Decimal;

use super::usage::stable_hash;
use super::{CheckInfo, Sink};
use crate::model::{LineItem, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "duplicate-line",
    default_severity: Severity::Warning,
    summary: "a row repeats an earlier row in every field that identifies a charge",
    what: "Compares every row with the earlier rows of the bill on the fields that identify a charge: resource id, item (the description, which joins the classification texts), period (start and end), quantity, unit, unit price, currency and amount, and also every other cell of the row except the columns that only number the rows (AWS `identity/LineItemId`, OCI `lineItem/referenceNo`, `交易ID`, `订单号`, `流水号`): a column billaudit does not read, such as AWS `lineItem/Operation`, can make two rows different charges, while a fresh row number does not. The first row is kept; each later row identical in all of them is reported with the line of the first. Rows with a zero amount cost nothing twice and are skipped. Two rows that differ in any of those fields (the same amount for two different resources, days or quantities) are not duplicates. Memory stays bounded: a row is remembered as a 64-bit hash and its line, and at most 131,072 distinct rows are remembered at a time; past that the memory starts afresh, so a repeat more than that many distinct rows after its original can be missed in very large files.",
    why: "A charge billed twice is the plainest overcharge there is, and in an export of thousands of rows nobody sees it by eye. Re-exports, merged files and provider-side retries all produce it.",
    example: "Line 7 `2025-10-03, RTX 4090 GPU pod, pod-7f3a, 20, hours, 0.69, 13.80` repeats line 6 exactly: the 13.80 is charged twice.",
};

/// At most this many distinct rows are remembered at once (about 4 MB).
pub const MAX_REMEMBERED: usize = 1 << 17;

/// The keys are already hashes: use them as they are.
#[derive(Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Rows seen so far in one bill: hash of the identifying fields -> first line.
#[derive(Debug, Default)]
pub struct Seen {
    first: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

fn key(item: &LineItem) -> u64 {
    // A CSV row's fingerprint already covers every cell the fields below
    // are read from, the amount's too; the amount and description tell
    // apart the credits a GCP row lists inside it, which share the row's
    // fingerprint.
    if item.fingerprint != 0 {
        if item.forced.is_some_and(|(_, id)| id == "credit-list") {
            return stable_hash(|h| {
                item.fingerprint.hash(h);
                item.amount.normalize().hash(h);
                item.description.hash(h);
            });
        }
        return item.fingerprint;
    }
    stable_hash(|h| {
        item.resource.hash(h);
        item.description.hash(h);
        item.start.hash(h);
        item.end.hash(h);
        item.quantity.map(|q| q.normalize()).hash(h);
        item.unit.hash(h);
        item.unit_price.map(|p| p.normalize()).hash(h);
        item.currency.hash(h);
        item.amount.normalize().hash(h);
    })
}

impl Seen {
    pub fn add(&mut self, item: &LineItem, sink: &mut Sink<'_>) {
        if item.amount == Decimal::ZERO {
            return;
        }
        let k = key(item);
        if let Some(first) = self.first.get(&k) {
            sink.emit(
                &INFO,
                Some(item.line),
                format!(
                    "repeats line {first} in resource, item, period, quantity and amount: {} {} is charged again",
                    item.description,
                    super::money(item.amount, item.currency.as_deref())
                ),
            );
            return;
        }
        if self.first.len() >= MAX_REMEMBERED {
            self.first.clear();
        }
        self.first
            .insert(k, u32::try_from(item.line).unwrap_or(u32::MAX));
    }
}
