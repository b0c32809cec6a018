//! `idle-storage`'s view of each row, and the rows of a range read on
//! another thread ([`Events`]).
//!
//! The check keeps at most
//! [`MAX_COMPUTE_PAIRS`](super::idle_storage::MAX_COMPUTE_PAIRS),
//! [`MAX_STORAGE_ROWS`](super::idle_storage::MAX_STORAGE_ROWS) and
//! [`MAX_RESOURCES`](super::idle_storage::MAX_RESOURCES); which rows those limits leave out depends on every
//! row before them, so two ranges' states cannot be merged exactly in
//! bounded memory. A worker does the costly part of each row instead (the
//! hashes of its texts, its days) and the bill replays the compact events
//! in file order (docs/decisions.md).

use std::ops::Range;

use rust_decimal::Decimal;
use rustc_hash::FxHashSet;

use super::usage::{hash_text, item_days};
use crate::model::{Category, LineItem};

/// What one row means to `idle-storage`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    /// A compute charge of a resource (its hash) on days `first..=last`.
    Compute {
        resource: Option<u64>,
        first: i32,
        last: i32,
    },
    /// A storage charge: its group (hashes of resource and description),
    /// days, amount, whether it is dated by one day only, and its line.
    Storage {
        key: (Option<u64>, u64),
        first: i32,
        last: i32,
        amount: Decimal,
        point: bool,
        line: u64,
    },
}

/// A storage group's resource id and description, cut for the message.
pub(crate) type Names = (Option<String>, String);

impl Event {
    /// The row's event; `None` for a row the check does not look at.
    pub(crate) fn of(item: &LineItem) -> Option<Event> {
        let kept = matches!(
            item.category,
            Category::Compute | Category::Storage | Category::StorageReplica
        );
        if !kept || item.amount <= Decimal::ZERO {
            return None;
        }
        let (first, last) = item_days(item)?;
        let resource = item.resource.as_deref().map(hash_text);
        Some(match item.category {
            Category::Compute => Event::Compute {
                resource,
                first,
                last,
            },
            _ => Event::Storage {
                key: (resource, hash_text(&item.description)),
                first,
                last,
                amount: item.amount,
                point: item.end.is_none(),
                line: item.line,
            },
        })
    }

    /// The names a storage group keeps of its first row.
    pub(crate) fn names(item: &LineItem) -> Names {
        (
            item.resource.as_deref().map(|r| kept(r).to_string()),
            kept(&item.description).to_string(),
        )
    }
}

/// A resource id is kept for the message up to this many characters.
pub(super) const MAX_NAME: usize = 200;

/// The part of a name a group keeps: its first [`MAX_NAME`] characters.
fn kept(s: &str) -> &str {
    // No more bytes than that, so no more characters: kept whole, without
    // counting them (most ids and descriptions).
    if s.len() <= MAX_NAME {
        return s;
    }
    match s.char_indices().nth(MAX_NAME) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Where a group's names are in [`Events::text`].
type NameRanges = (Option<Range<usize>>, Range<usize>);

/// The events of consecutive rows, read on another thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct Events {
    /// Each event, with the names of its group when it is the group's
    /// first row here (a group is only ever started by such a row: one
    /// left out by a limit leaves out every later row of its group too).
    pub(super) list: Vec<(Event, Option<NameRanges>)>,
    /// The names, one after the other.
    pub(super) text: String,
    /// The groups seen here.
    groups: FxHashSet<(Option<u64>, u64)>,
    /// The last compute event: the same again adds nothing.
    last_compute: Option<Event>,
}

impl Events {
    pub(crate) fn push(&mut self, item: &LineItem) {
        let Some(event) = Event::of(item) else {
            return;
        };
        let names = match &event {
            Event::Compute { .. } => {
                if self.last_compute.as_ref() == Some(&event) {
                    return;
                }
                self.last_compute = Some(event.clone());
                None
            }
            Event::Storage { key, .. } => self.groups.insert(*key).then(|| {
                let mut put = |s: &str| {
                    let from = self.text.len();
                    self.text.push_str(kept(s));
                    from..self.text.len()
                };
                (
                    item.resource.as_deref().map(&mut put),
                    put(&item.description),
                )
            }),
        };
        self.list.push((event, names));
    }

    /// Appends the events of the rows right after these.
    pub(crate) fn merge(&mut self, later: Self) {
        let base = self.text.len();
        self.text.push_str(&later.text);
        let moved = |r: Range<usize>| r.start + base..r.end + base;
        self.list.extend(
            later
                .list
                .into_iter()
                .map(|(e, names)| (e, names.map(|(r, d)| (r.map(moved), moved(d))))),
        );
        self.groups.extend(later.groups);
        if later.last_compute.is_some() {
            self.last_compute = later.last_compute;
        }
    }

    /// Moves every line by `by` (a range counts its lines from its start).
    pub(crate) fn shift_lines(&mut self, by: u64) {
        for (e, _) in &mut self.list {
            if let Event::Storage { line, .. } = e {
                *line += by;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name keeps its first 200 characters, whether counted from the
    /// bytes (ASCII) or not (CJK: three bytes a character).
    #[test]
    fn a_name_keeps_its_first_200_characters() {
        let ascii = "r".repeat(200);
        assert_eq!(kept(&ascii), ascii);
        assert_eq!(kept(&"r".repeat(201)), ascii);
        let cjk = "存".repeat(200);
        assert_eq!(kept(&cjk), cjk);
        assert_eq!(kept(&"存".repeat(250)), cjk);
        assert_eq!(kept(&format!("{}x", "存".repeat(199))).chars().count(), 200);
    }
}
