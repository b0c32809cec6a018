//! The export's columns: resolved against its header, and read as the audit
//! reads a cell (trimmed, placeholders empty, text folded).

use std::cell::RefCell;

use super::Dialect;
use super::dynamic::Found;
use crate::normalise::header::normalise_header;

/// Column names resolved against the export's header, when known:
/// `(normalised name, name as the header spells it)`; or, for DuckDB
/// without a header, found by name when the query runs ([`Found`]).
pub(super) struct Cols {
    header: Option<Vec<(String, String)>>,
    found: Option<RefCell<Found>>,
}

impl Cols {
    pub(super) fn new(d: Dialect, header: Option<&[String]>) -> Self {
        Cols {
            found: (header.is_none() && d == Dialect::DuckDb).then(RefCell::default),
            header: header.map(|h| {
                h.iter()
                    .filter(|c| !c.trim().is_empty())
                    .map(|c| {
                        let raw = c.trim_start_matches('\u{feff}').trim().to_string();
                        (normalise_header(c).name, raw)
                    })
                    .collect()
            }),
        }
    }

    /// The column names an alias stands for: the header's spelling when
    /// known (an alias ending in `*` is a prefix), else the alias itself.
    pub(super) fn resolve(&self, alias: &str) -> Vec<String> {
        if let Some(f) = &self.found {
            let mut f = f.borrow_mut();
            return vec![if alias.ends_with('*') {
                f.prefix(alias)
            } else {
                f.first(&[alias], &[true], false)
            }];
        }
        let n = normalise_header(alias).name;
        match &self.header {
            None => {
                if alias.ends_with('*') {
                    Vec::new()
                } else {
                    vec![alias.to_string()]
                }
            }
            Some(h) => match n.strip_suffix('*') {
                Some(prefix) => h
                    .iter()
                    .filter(|(name, _)| name.starts_with(prefix))
                    .map(|(_, raw)| raw.clone())
                    .collect(),
                None => h
                    .iter()
                    .find(|(name, _)| *name == n)
                    .map(|(_, raw)| raw.clone())
                    .into_iter()
                    .collect(),
            },
        }
    }

    /// The first alias the header has.
    pub(super) fn first(&self, aliases: &[&str]) -> Option<String> {
        self.first_of(aliases, &vec![true; aliases.len()], false)
    }

    /// The first alias the header has, which the query cannot do without:
    /// when the columns are found as the query runs, it stops with an
    /// error naming the column if the table has none of them.
    pub(super) fn required(&self, aliases: &[&str]) -> Option<String> {
        self.first_of(aliases, &vec![true; aliases.len()], true)
    }

    /// The first alias the header has, when `take` is true at its
    /// position (else None, or NULL when found as the query runs).
    pub(super) fn first_of(
        &self,
        aliases: &[&str],
        take: &[bool],
        required: bool,
    ) -> Option<String> {
        if aliases.is_empty() {
            return None;
        }
        if let Some(f) = &self.found {
            return Some(f.borrow_mut().first(aliases, take, required));
        }
        aliases
            .iter()
            .zip(take)
            .find_map(|(a, t)| self.resolve(a).into_iter().next().map(|c| (c, *t)))
            .and_then(|(c, t)| t.then_some(c))
    }

    /// The findings query, DuckDB without a header: the rows' line numbers
    /// and every cell but `row_ids` (normalised names), found as the query
    /// runs; `None` when the header is known.
    pub(super) fn row_extras(&self, row_ids: &[&str]) -> Option<(String, String)> {
        let f = self.found.as_ref()?;
        let mut f = f.borrow_mut();
        f.line = true;
        f.row_cells = Some(row_ids.iter().map(|s| s.to_string()).collect());
        Some((
            super::dynamic::LINE.to_string(),
            super::dynamic::ROW_CELLS.to_string(),
        ))
    }

    /// The header's columns as it spells them (none when found as the
    /// query runs).
    pub(super) fn header_columns(&self) -> Vec<(String, String)> {
        self.header.clone().unwrap_or_default()
    }

    /// Whether the columns are found as the query runs (DuckDB, no header).
    pub(super) fn found(&self) -> Option<std::cell::Ref<'_, Found>> {
        self.found.as_ref().map(|f| f.borrow())
    }

    /// Whether `name` holds a list of values (every column of a prefix,
    /// found as the query runs).
    pub(super) fn is_list(&self, name: &str) -> bool {
        self.found
            .as_ref()
            .is_some_and(|f| f.borrow().is_list(name))
    }
}

/// The full-width folding of `classify::fold`, as `translate` arguments.
pub(super) fn fold_maps() -> (String, String) {
    let mut from = String::new();
    let mut to = String::new();
    for u in 0xff01u32..=0xff5e {
        if let (Some(f), Some(t)) = (char::from_u32(u), char::from_u32(u - 0xfee0)) {
            from.push(f);
            to.push(t);
        }
    }
    for (f, t) in [
        ('\u{3000}', ' '),
        ('\u{ffe5}', '¥'),
        ('\u{2212}', '-'),
        ('\u{2012}', '-'),
        ('\u{2013}', '-'),
    ] {
        from.push(f);
        to.push(t);
    }
    (from, to)
}

/// Cell values billaudit reads as empty (`number::is_placeholder`).
pub(super) fn is_placeholder_sql(d: Dialect, t: &str) -> String {
    let exact = ["", "-", "--", "—", "－", "/", "N/A", "n/a", "NA"]
        .iter()
        .map(|v| d.lit(v))
        .collect::<Vec<_>>()
        .join(", ");
    format!("({t} IN ({exact}) OR lower({t}) IN ('null', 'none', 'nan'))")
}

pub(super) fn trimmed(d: Dialect, col: &str) -> String {
    trim_of(d, &d.ident(col))
}

fn trim_of(d: Dialect, e: &str) -> String {
    format!("trim(CAST({e} AS {}))", d.string_type())
}

/// A lowercased, folded text, or NULL for an empty or placeholder cell;
/// for a list of columns (DuckDB), the list of their texts.
pub(super) fn text_expr(d: Dialect, cols: &Cols, col: &str) -> String {
    if cols.is_list(col) {
        return format!(
            "list_transform({}, lambda v: {})",
            d.ident(col),
            text_of(d, "v")
        );
    }
    text_of(d, &d.ident(col))
}

fn text_of(d: Dialect, e: &str) -> String {
    let t = trim_of(d, e);
    let (from, to) = fold_maps();
    // `translate` costs 3x the whole query in DuckDB: only where a
    // full-width or dash character is present.
    let wide = d.regex(
        &t,
        "[\u{ff01}-\u{ff5e}\u{3000}\u{ffe5}\u{2212}\u{2012}\u{2013}]",
    );
    format!(
        "CASE WHEN {} THEN NULL WHEN {wide} THEN lower(translate({t}, {}, {})) ELSE lower({t}) END",
        is_placeholder_sql(d, &t),
        d.lit(&from),
        d.lit(&to)
    )
}

/// The header row of a CSV export (plain or gzip): its first record.
pub fn read_header(path: &std::path::Path) -> crate::error::Result<Vec<String>> {
    let source = crate::ingest::Source::file(path);
    let opened = crate::ingest::open(&source, None)?;
    let delimiter = crate::ingest::csv::sniff_delimiter(&opened.prefix_text);
    let mut rdr = crate::ingest::csv::reader(opened.reader, delimiter);
    let mut rec = ::csv::ByteRecord::new();
    match rdr.read_byte_record(&mut rec) {
        Ok(true) => Ok(rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect()),
        Ok(false) => Err(crate::error::Error::input(
            &source.display,
            "the file is empty: no header to write the query for",
        )),
        Err(e) => Err(crate::error::Error::input(
            &source.display,
            format!("cannot read the header: {e}"),
        )),
    }
}
