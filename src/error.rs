//! Library errors. Every input error names the file and, where known, the
//! line and the field, so a user can open the file at the right place.

use std::fmt;
use std::io;
use std::path::Path;

/// An error that stops one input from being audited (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    /// An input that could not be read (missing, unreadable, cut short).
    Io {
        /// The input, as given.
        path: String,
        #[source]
        /// The operating system's reason.
        source: io::Error,
    },
    #[error("{0}")]
    /// A bad input: a damaged file, a row or field that cannot be read.
    Input(Box<InputError>),
    #[error("{0}")]
    /// An input the options do not fit (split parts whose headers differ).
    Usage(String),
}

/// A bad input, located as precisely as we can.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The input, as given.
    pub path: String,
    /// 1-based line in that input, when known.
    pub line: Option<u64>,
    /// 1-based character column on that line, when known.
    pub column: Option<u64>,
    /// Column name (or invoice field) the error is about.
    pub field: Option<String>,
    /// What is wrong, without the location.
    pub message: String,
    /// The offending source line and a caret under the field, when known.
    pub snippet: Option<String>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": ")?;
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, "\n{s}")?;
        }
        Ok(())
    }
}

impl Error {
    /// The file the error is about, when there is one.
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Io { path, .. } => Some(path),
            Error::Input(e) => Some(&e.path),
            Error::Usage(_) => None,
        }
    }

    /// A copy for reporting (an I/O error keeps its kind and message).
    pub fn clone_shallow(&self) -> Self {
        match self {
            Error::Io { path, source } => Error::Io {
                path: path.clone(),
                source: io::Error::new(source.kind(), source.to_string()),
            },
            Error::Input(e) => Error::Input(e.clone()),
            Error::Usage(m) => Error::Usage(m.clone()),
        }
    }

    pub fn input(path: &str, message: impl Into<String>) -> Self {
        Error::Input(Box::new(InputError {
            path: path.to_string(),
            line: None,
            column: None,
            field: None,
            message: message.into(),
            snippet: None,
        }))
    }

    pub fn at_line(path: &str, line: u64, message: impl Into<String>) -> Self {
        Error::Input(Box::new(InputError {
            path: path.to_string(),
            line: Some(line),
            column: None,
            field: None,
            message: message.into(),
            snippet: None,
        }))
    }

    pub fn io(path: &Path, source: io::Error) -> Self {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// Adds a field name to an input error.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        if let Error::Input(e) = &mut self {
            e.field = Some(field.into());
        }
        self
    }

    /// Adds the 1-based character column to an input error.
    pub fn with_column(mut self, column: u64) -> Self {
        if let Error::Input(e) = &mut self {
            e.column = Some(column);
        }
        self
    }

    pub fn with_snippet(mut self, snippet: String) -> Self {
        if let Error::Input(e) = &mut self {
            e.snippet = Some(snippet);
        }
        self
    }
}

/// The library's result: [`Error`] unless another error type is named.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Widest part of a source line shown in a snippet, in characters.
const SNIPPET_CHARS: usize = 100;

/// Renders a source line with a caret under `width` characters from the
/// 1-based character `column`, rustc-style:
///
/// ```text
///   |
/// 3 | GPU,1.00,Disk\0
///   |              ^ a NUL byte
/// ```
///
/// Long lines are cut around the column; control characters show as `�`
/// so the caret stays aligned. Works on characters, never byte offsets.
pub fn snippet(line: u64, text: &str, column: usize, width: usize, label: &str) -> String {
    use unicode_width::UnicodeWidthChar;
    let chars: Vec<char> = text
        .trim_end_matches(['\r', '\n'])
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    let col = column.saturating_sub(1).min(chars.len());
    let start = col.saturating_sub(SNIPPET_CHARS / 2);
    let end = chars.len().min(start.saturating_add(SNIPPET_CHARS));
    let shown: Vec<char> = chars.get(start..end).unwrap_or_default().to_vec();
    let cw = |c: &char| c.width().unwrap_or(1);
    let pad: usize = shown.iter().take(col - start).map(cw).sum();
    let marks: usize = shown
        .iter()
        .skip(col - start)
        .take(width.max(1))
        .map(cw)
        .sum::<usize>()
        .max(1);
    let num = line.to_string();
    let gutter = " ".repeat(num.len());
    let mut body: String = shown.into_iter().collect();
    if start > 0 {
        body.insert_str(0, "...");
    }
    if end < chars.len() {
        body.push_str("...");
    }
    let lead = if start > 0 { 3 } else { 0 };
    format!(
        "{gutter} |\n{num} | {body}\n{gutter} | {}{} {label}",
        " ".repeat(pad + lead),
        "^".repeat(marks)
    )
}

#[cfg(test)]
mod tests {
    use super::snippet;

    #[test]
    fn caret_under_the_field_even_after_wide_characters() {
        let s = snippet(12, "快照,12..5,USD", 4, 5, "not a number");
        assert_eq!(s, "   |\n12 | 快照,12..5,USD\n   |      ^^^^^ not a number");
    }

    #[test]
    fn long_lines_are_cut_around_the_column_and_columns_past_the_end_are_safe() {
        let line = "x".repeat(500);
        let s = snippet(1, &line, 400, 1, "here");
        assert!(s.contains("..."));
        assert!(s.lines().all(|l| l.chars().count() < 120));
        let s = snippet(1, "ab", 99, 3, "end");
        assert!(s.ends_with("^ end"), "{s}");
        let s = snippet(1, "", 0, 0, "empty");
        assert!(s.ends_with("^ empty"));
    }
}
