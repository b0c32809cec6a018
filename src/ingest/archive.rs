//! ZIP archives: every CSV, text or Parquet entry is a bill of its own. Entry names that
//! would escape the archive (`../`, absolute paths) are refused: nothing is
//! ever written to disk, but a name like that marks a crafted archive.

use std::fs::File;
use std::io::{Read, Seek};

use crate::error::{Error, Result};

use super::{Origin, Source};

/// Entry endings read as bills.
const ENTRY_EXTENSIONS: &[&str] = &[".csv", ".tsv", ".txt", ".csv.gz", ".parquet"];

/// Whether an entry name is safe: relative, no `..` component, no NUL.
pub(crate) fn safe_entry_name(name: &str) -> bool {
    let n = name.replace('\\', "/");
    let absolute = n.starts_with('/') || (n.len() > 1 && n.as_bytes()[1] == b':');
    let escapes = n.split('/').any(|c| c == "..");
    !(absolute || escapes || n.contains('\0'))
}

/// Calls `each(display, reader)` for every bill entry of the archive, in
/// archive order. Errors of one entry are collected, the rest go on.
pub(crate) fn for_each_entry(
    source: &Source,
    mut each: impl FnMut(&str, &mut dyn Read) -> Result<()>,
) -> Vec<Error> {
    let file = match &source.origin {
        Origin::File(p) => match File::open(p) {
            Ok(f) => f,
            Err(e) => return vec![Error::io(p, e)],
        },
        Origin::Stdin => {
            return vec![Error::input(
                &source.display,
                "a ZIP archive cannot be read from standard input; pass the file",
            )];
        }
    };
    entries(&source.display, file, &mut each)
}

/// Like [`for_each_entry`], over an archive already in memory (or any
/// seekable reader).
pub(crate) fn entries<R: Read + Seek>(
    display: &str,
    r: R,
    each: &mut impl FnMut(&str, &mut dyn Read) -> Result<()>,
) -> Vec<Error> {
    let mut zip = match zip::ZipArchive::new(r) {
        Ok(z) => z,
        Err(e) => {
            return vec![Error::input(
                display,
                format!("unreadable ZIP archive: {e}"),
            )];
        }
    };
    let mut errors = Vec::new();
    let mut bills = 0;
    for i in 0..zip.len() {
        let mut entry = match zip.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                errors.push(Error::input(display, format!("ZIP entry {}: {e}", i + 1)));
                continue;
            }
        };
        let name = entry.name().to_string();
        if entry.is_dir() {
            continue;
        }
        let entry_display = format!("{display}!{name}");
        if !safe_entry_name(&name) {
            errors.push(Error::input(
                &entry_display,
                "refused: the entry name points outside the archive (`..` or an absolute path)",
            ));
            continue;
        }
        let lower = name.to_ascii_lowercase();
        let base = lower.rsplit('/').next().unwrap_or_default();
        if base.starts_with('.') || !ENTRY_EXTENSIONS.iter().any(|e| lower.ends_with(e)) {
            continue;
        }
        bills += 1;
        if let Err(e) = each(&entry_display, &mut entry) {
            errors.push(e);
        }
    }
    if bills == 0 && errors.is_empty() {
        errors.push(Error::input(
            display,
            "the ZIP archive holds no bill file (looked for .csv, .tsv, .txt, .csv.gz, .parquet entries)",
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_tricks_are_refused() {
        assert!(safe_entry_name("bills/2024-11.csv"));
        assert!(!safe_entry_name("../evil.csv"));
        assert!(!safe_entry_name("a/../../evil.csv"));
        assert!(!safe_entry_name("/etc/passwd.csv"));
        assert!(!safe_entry_name("..\\evil.csv"));
        assert!(!safe_entry_name("C:/evil.csv"));
    }
}
