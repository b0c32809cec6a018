//! The texts of an integer column's values, made once a value.

/// The texts of an integer column's values (a timestamp's, a date's, a
/// number's), by value, in a small direct-mapped table: a Parquet export's
/// period columns repeat a few hundred distinct timestamps on every row,
/// and a text made once is copied after (`cell::integer` for each value
/// was a tenth of a Parquet audit's decoding).
#[derive(Default)]
pub(super) struct IntTexts {
    keys: Vec<i64>,
    /// A text's length, 0 for an empty slot (no value's text is empty).
    lens: Vec<u8>,
    texts: Vec<[u8; INT_TEXT]>,
}

/// The longest text [`IntTexts`] keeps (a timestamp with nanoseconds is 30).
const INT_TEXT: usize = 32;

/// The slots of an [`IntTexts`].
const INT_SLOTS: usize = 1024;

impl IntTexts {
    /// Appends `v`'s text to `out`, made by `text` (into the scratch `s`)
    /// the first time.
    pub(super) fn put(
        &mut self,
        v: i64,
        out: &mut Vec<u8>,
        s: &mut String,
        text: impl FnOnce(i64, &mut String) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.keys.is_empty() {
            self.keys = vec![0; INT_SLOTS];
            self.lens = vec![0; INT_SLOTS];
            self.texts = vec![[0; INT_TEXT]; INT_SLOTS];
        }
        let at = ((v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % INT_SLOTS;
        let len = usize::from(self.lens[at]);
        if len > 0 && self.keys[at] == v {
            out.extend_from_slice(&self.texts[at][..len]);
            return Ok(());
        }
        s.clear();
        text(v, s)?;
        out.extend_from_slice(s.as_bytes());
        if (1..=INT_TEXT).contains(&s.len()) {
            self.keys[at] = v;
            self.lens[at] = s.len() as u8;
            self.texts[at][..s.len()].copy_from_slice(s.as_bytes());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::parquet::cell::{self, Kind};

    /// The text `cell::integer` gives a timestamp in microseconds; for 7,
    /// a text too long for the table.
    fn text(v: i64) -> String {
        if v == 7 {
            return "x".repeat(INT_TEXT + 8);
        }
        let mut s = String::new();
        let kind = Kind::Timestamp {
            unit: cell::Unit::Micros,
            utc: true,
        };
        cell::integer(kind, v, 64, &mut s).unwrap();
        s
    }

    #[test]
    fn an_integer_column_gives_each_value_its_own_text() {
        let mut memo = IntTexts::default();
        let (mut out, mut s) = (Vec::new(), String::new());
        // Far more values than slots, each several times, so that values
        // share slots; and one value whose text is too long to keep.
        let values: Vec<i64> = (0..3000i64)
            .map(|k| (k % 1500) * 3_600_000_000 + 1_759_276_800_000_000)
            .chain([7, 7, 0, 7])
            .collect();
        let mut want = Vec::new();
        for &v in &values {
            memo.put(v, &mut out, &mut s, |v, s| {
                s.push_str(&text(v));
                Ok(())
            })
            .unwrap();
            want.extend_from_slice(text(v).as_bytes());
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(want).unwrap()
        );
        // An error is given, and nothing is kept for that value.
        let mut out = Vec::new();
        let failed = memo.put(5, &mut out, &mut s, |_, _| Err("no".into()));
        assert!(failed.is_err());
        memo.put(5, &mut out, &mut s, |v, s| {
            s.push_str(&v.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(out, b"5");
    }
}
