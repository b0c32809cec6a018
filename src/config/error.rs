//! Config errors: file, line and column, the offending TOML with a caret,
//! and a "did you mean" hint for misspelt keys and codes.

use std::fmt;
use std::ops::Range;

/// An error in billaudit.toml (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: String,
    /// 1-based.
    pub line: Option<usize>,
    /// 1-based, in characters.
    pub column: Option<usize>,
    pub message: String,
    /// The offending line with a caret under the span.
    pub snippet: Option<String>,
}

impl std::error::Error for ConfigError {}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, ":{l}:{c}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, "\n{s}")?;
        }
        Ok(())
    }
}

impl ConfigError {
    /// An error at a byte span of `text`.
    pub fn at(path: &str, text: &str, span: Range<usize>, message: String) -> Self {
        let start = floor_char(text, span.start.min(text.len()));
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_no = text[..start].matches('\n').count() + 1;
        let col = text[line_start..start].chars().count() + 1;
        let src = text[line_start..line_end].trim_end_matches('\r');
        let end = floor_char(text, span.end.clamp(start, line_end));
        let width = text[start..end].chars().count().max(1);
        let gutter = " ".repeat(line_no.to_string().len());
        let snippet = format!(
            "{gutter} |\n{line_no} | {src}\n{gutter} | {}{}",
            " ".repeat(col - 1),
            "^".repeat(width)
        );
        ConfigError {
            path: path.to_string(),
            line: Some(line_no),
            column: Some(col),
            message,
            snippet: Some(snippet),
        }
    }

    /// A TOML syntax or schema error, with a hint for unknown keys.
    pub fn from_toml(path: &str, text: &str, e: &toml::de::Error) -> Self {
        let message = hint(e.message().trim());
        match e.span() {
            Some(span) => ConfigError::at(path, text, span, message),
            None => ConfigError {
                path: path.to_string(),
                line: None,
                column: None,
                message,
                snippet: None,
            },
        }
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Rewrites serde's `unknown field `x`, expected one of `a`, `b`` as
/// `unknown key `x`; did you mean `a`? (expected one of ...)`.
fn hint(message: &str) -> String {
    for (prefix, what) in [("unknown field `", "key"), ("unknown variant `", "value")] {
        let Some(rest) = message.strip_prefix(prefix) else {
            continue;
        };
        let Some((name, tail)) = rest.split_once('`') else {
            continue;
        };
        let candidates: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
        let list = candidates
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let expected = if list.is_empty() {
            String::new()
        } else {
            format!(" (expected one of {list})")
        };
        return format!(
            "unknown {what} `{name}`{}{expected}",
            suggest(name, &candidates)
        );
    }
    message.to_string()
}

/// `; did you mean `x`?` for the closest candidate, or nothing.
pub fn suggest(name: &str, candidates: &[&str]) -> String {
    let best = candidates
        .iter()
        .map(|c| (distance(&name.to_lowercase(), &c.to_lowercase()), *c))
        .min();
    match best {
        Some((d, c)) if d <= (name.chars().count() / 3).max(2) => format!("; did you mean `{c}`?"),
        _ => String::new(),
    }
}

/// Edit distance in characters, a swap of two neighbours counting as one
/// edit (optimal string alignment): `contian` is 2 from `contains`.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_hints() {
        assert_eq!(distance("treshold", "threshold"), 1);
        assert_eq!(distance("contian", "contains"), 2);
        assert_eq!(
            suggest("contian", &["contains", "column"]),
            "; did you mean `contains`?"
        );
        assert_eq!(
            suggest("thresold", &["thresholds", "rule"]),
            "; did you mean `thresholds`?"
        );
        assert_eq!(suggest("zzz", &["thresholds"]), "");
        assert_eq!(
            hint(
                "unknown field `hiden-fee-share`, expected one of `hidden-fee-share`, `replica-share`"
            ),
            "unknown key `hiden-fee-share`; did you mean `hidden-fee-share`? (expected one of `hidden-fee-share`, `replica-share`)"
        );
    }

    #[test]
    fn spans_never_panic() {
        let t = "a = 1\né = 2\n";
        for s in 0..t.len() + 3 {
            for e in 0..t.len() + 3 {
                let _ = ConfigError::at("f", t, s..e, "m".into());
            }
        }
    }
}
