//! Stage 1: bytes in. Finds the input files, opens them, decides the
//! encoding and whether the content is a CSV export or a text invoice.

pub mod csv;
pub mod decode;
pub mod text;

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use decode::Sniffed;
pub use decode::TextEncoding;

/// How many bytes are read up front to decide encoding, delimiter and kind.
pub const PREFIX_LEN: usize = 64 * 1024;

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    File(PathBuf),
    Stdin,
}

/// One input to audit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Source {
    /// The path as the user will see it in reports.
    pub display: String,
    pub origin: Origin,
}

impl Source {
    pub fn file(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        Source {
            display: path.display().to_string(),
            origin: Origin::File(path),
        }
    }

    pub fn stdin() -> Self {
        Source {
            display: "<stdin>".into(),
            origin: Origin::Stdin,
        }
    }
}

/// File endings that a directory walk picks up as bills.
pub const BILL_EXTENSIONS: &[&str] = &["csv", "tsv", "txt"];

fn is_bill_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if name.starts_with('.') {
        return false;
    }
    BILL_EXTENSIONS
        .iter()
        .any(|ext| name.ends_with(&format!(".{ext}")))
}

/// Expands the command-line paths: files as given, directories walked
/// recursively for bill files (sorted), `-` for stdin. A missing path is an error.
pub fn expand_paths(paths: &[String]) -> Vec<Result<Source>> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Ok(Source::stdin()));
            continue;
        }
        let path = PathBuf::from(p);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                let mut found = Vec::new();
                let mut seen = HashSet::new();
                walk(&path, &mut found, &mut seen, &mut out);
                found.sort();
                out.extend(found.into_iter().map(|f| Ok(Source::file(f))));
            }
            Ok(_) => out.push(Ok(Source::file(path))),
            Err(e) => out.push(Err(Error::io(&path, e))),
        }
    }
    out
}

fn walk(
    dir: &Path,
    found: &mut Vec<PathBuf>,
    seen: &mut HashSet<PathBuf>,
    errors: &mut Vec<Result<Source>>,
) {
    // Symlink loops end here: each real directory is entered once.
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !seen.insert(real) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(Err(Error::io(dir, e)));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        match std::fs::metadata(&p) {
            Ok(m) if m.is_dir() => walk(&p, found, seen, errors),
            Ok(m) if m.is_file() && is_bill_file(&p) => found.push(p),
            Ok(_) => {}
            Err(e) if is_bill_file(&p) => errors.push(Err(Error::io(&p, e))),
            Err(_) => {}
        }
    }
}

/// An opened input: its encoding, a decoded prefix for sniffing, and a
/// reader that yields the whole content as UTF-8 (UTF-8 is passed through).
pub struct Opened {
    pub encoding: TextEncoding,
    /// The first bytes of the content, decoded (lossily), for sniffing.
    pub prefix_text: String,
    pub reader: Box<dyn Read>,
}

/// Opens a source, decides its encoding (or uses `forced`) and refuses
/// binary content with a message that says what it looks like.
pub fn open(source: &Source, forced: Option<TextEncoding>) -> Result<Opened> {
    let mut raw: Box<dyn Read> = match &source.origin {
        Origin::File(p) => Box::new(File::open(p).map_err(|e| Error::io(p, e))?),
        Origin::Stdin => Box::new(io::stdin()),
    };
    let io_err = |e| Error::Io {
        path: source.display.clone(),
        source: e,
    };
    let mut prefix = Vec::with_capacity(PREFIX_LEN);
    (&mut raw)
        .take(PREFIX_LEN as u64)
        .read_to_end(&mut prefix)
        .map_err(io_err)?;
    if prefix.is_empty() {
        return Err(Error::input(&source.display, "the file is empty"));
    }
    let encoding = match forced {
        Some(e) => e,
        None => match decode::sniff(&prefix) {
            Sniffed::Text(e) => e,
            Sniffed::Binary(what) => {
                return Err(Error::input(
                    &source.display,
                    format!("this is {what}, not a bill (CSV export or text invoice)"),
                ));
            }
        },
    };
    let prefix_text = decode::decode_prefix(&prefix, encoding);
    let whole = Cursor::new(prefix).chain(raw);
    Ok(Opened {
        encoding,
        prefix_text,
        reader: decode::utf8_reader(whole, encoding),
    })
}
