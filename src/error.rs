//! Library errors. Every input error names the file and, where known, the
//! line and the field, so a user can open the file at the right place.

use std::fmt;
use std::io;
use std::path::Path;

/// An error that stops one input from being audited (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{0}")]
    Input(Box<InputError>),
    #[error("{0}")]
    Usage(String),
}

/// A bad input, located as precisely as we can.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub path: String,
    pub line: Option<u64>,
    /// Column name (or invoice field) the error is about.
    pub field: Option<String>,
    pub message: String,
    /// The offending source line and a caret under the field, when known.
    pub snippet: Option<String>,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
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
            field: None,
            message: message.into(),
            snippet: None,
        }))
    }

    pub fn at_line(path: &str, line: u64, message: impl Into<String>) -> Self {
        Error::Input(Box::new(InputError {
            path: path.to_string(),
            line: Some(line),
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

    pub fn with_snippet(mut self, snippet: String) -> Self {
        if let Error::Input(e) = &mut self {
            e.snippet = Some(snippet);
        }
        self
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
