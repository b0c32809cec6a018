//! PDF invoices: the text layer is extracted with poppler's
//! `pdftotext -layout` (which keeps the columns apart with runs of spaces)
//! and audited as a text invoice. See docs/text-invoices.md, "PDF invoices",
//! for why an external program and not a Rust PDF library.
//!
//! The program runs as a subprocess: no shell, the file path passed as one
//! argument (the bytes on standard input when there is no file: stdin, a
//! ZIP entry, bytes handed to the library), a time limit, a bound on
//! the text read back, and its standard error in the error message.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// A PDF starts with these bytes (PDF 1.x and 2.0 headers).
pub(crate) const MAGIC: &[u8] = b"%PDF-";

/// The extractor, looked up on `PATH`; `BILLAUDIT_PDFTOTEXT` names another
/// program (a full path).
pub(crate) const PROGRAM: &str = "pdftotext";
pub(crate) const PROGRAM_ENV: &str = "BILLAUDIT_PDFTOTEXT";

/// The note on every bill read from a PDF: its line numbers are lines of
/// the extracted text, not of anything in the PDF.
pub(crate) const NOTE: &str =
    "read from a PDF: lines refer to the text `pdftotext -layout` extracted";

/// How long the extractor may run on one PDF.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(60);

/// The most text read back from the extractor (a text invoice is pages).
pub(crate) const MAX_TEXT_BYTES: u64 = 4 * 1024 * 1024;

/// The largest PDF read into memory to be piped to the extractor (one that
/// does not come from a file on disk).
pub(crate) const MAX_PDF_BYTES: u64 = 64 * 1024 * 1024;

/// At most this much of the extractor's standard error goes into a message.
const MAX_STDERR_BYTES: u64 = 16 * 1024;

/// How to get the extractor, in every message that misses it.
pub(crate) const INSTALL_HINT: &str = "install poppler-utils (`apt-get install poppler-utils`, `dnf install poppler-utils`, `brew install poppler`), or extract the text yourself with `pdftotext -layout FILE.pdf FILE.txt` and audit the .txt";

/// Whether content starting with `prefix` is a PDF.
pub(crate) fn is_pdf(prefix: &[u8]) -> bool {
    prefix.starts_with(MAGIC)
}

/// Whether the file at `path` starts like a PDF.
pub(crate) fn is_pdf_file(path: &Path) -> bool {
    let mut magic = [0u8; 5];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && is_pdf(&magic)
}

/// Where the PDF is.
pub(crate) enum Input<'a> {
    /// A file on disk, passed to the extractor by its path.
    File(&'a Path),
    /// The PDF's bytes, piped to the extractor's standard input.
    Bytes(Vec<u8>),
}

fn program() -> PathBuf {
    std::env::var_os(PROGRAM_ENV)
        .filter(|p| !p.is_empty())
        .map_or_else(|| PathBuf::from(PROGRAM), PathBuf::from)
}

/// The text of the PDF as `pdftotext -layout` lays it out (UTF-8, a form
/// feed after every page). Errors name `display`.
pub(crate) fn extract(display: &str, input: Input<'_>) -> Result<String> {
    let program = program();
    let mut cmd = Command::new(&program);
    cmd.args(["-layout", "-enc", "UTF-8"]);
    let stdin_bytes = match input {
        Input::File(p) => {
            // A relative path starting with `-` would be read as an option.
            let arg = if p.is_relative() && p.as_os_str().to_string_lossy().starts_with('-') {
                Path::new(".").join(p)
            } else {
                p.to_path_buf()
            };
            cmd.arg(arg).stdin(Stdio::null());
            None
        }
        Input::Bytes(b) => {
            cmd.arg("-").stdin(Stdio::piped());
            Some(b)
        }
    };
    // The text to standard output.
    cmd.arg("-").stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| {
        let why = if e.kind() == io::ErrorKind::NotFound {
            format!("`{}` was not found", program.display())
        } else {
            format!("`{}` could not be run: {e}", program.display())
        };
        Error::input(
            display,
            format!(
                "this is a PDF; reading it needs poppler's pdftotext, and {why}: {INSTALL_HINT}"
            ),
        )
    })?;
    let feeder = stdin_bytes.and_then(|bytes| {
        let mut stdin = child.stdin.take()?;
        // The extractor may stop reading (a broken PDF): a write error is
        // then expected, and its exit status tells what went wrong.
        Some(std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        }))
    });
    // Past the bound, stdout is closed: the extractor stops on a broken pipe.
    let out = read_bounded(child.stdout.take(), MAX_TEXT_BYTES + 1, false);
    let err = read_bounded(child.stderr.take(), MAX_STDERR_BYTES, true);
    let status = wait(&mut child, TIMEOUT);
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let text = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr);
    let stderr = stderr.trim();
    let said = if stderr.is_empty() {
        String::new()
    } else {
        format!(
            ": {}",
            stderr.lines().take(5).collect::<Vec<_>>().join("; ")
        )
    };
    if text.len() as u64 > MAX_TEXT_BYTES {
        return Err(Error::input(
            display,
            format!(
                "the text of this PDF is larger than {} MiB: too large to be an invoice",
                MAX_TEXT_BYTES / (1024 * 1024)
            ),
        ));
    }
    match status {
        Waited::TimedOut => {
            return Err(Error::input(
                display,
                format!(
                    "pdftotext did not finish within {} s on this PDF; it was stopped",
                    TIMEOUT.as_secs()
                ),
            ));
        }
        Waited::Failed(e) => {
            return Err(Error::input(
                display,
                format!("pdftotext could not be waited for: {e}"),
            ));
        }
        Waited::Exited(s) if !s.success() => {
            return Err(Error::input(
                display,
                format!(
                    "pdftotext could not read this PDF ({}){said}",
                    match s.code() {
                        Some(c) => format!("exit status {c}"),
                        None => "killed by a signal".into(),
                    }
                ),
            ));
        }
        Waited::Exited(_) => {}
    }
    if text
        .iter()
        .all(|b| b.is_ascii_whitespace() || *b == b'\x0c')
    {
        return Err(Error::input(
            display,
            format!("pdftotext found no text in this PDF (a scanned image needs OCR first){said}"),
        ));
    }
    Ok(String::from_utf8_lossy(&text).into_owned())
}

/// Reads at most `limit` bytes on a thread of its own, then drains the
/// rest (`drain`: the child never blocks on a full pipe) or closes the pipe.
fn read_bounded<R: Read + Send + 'static>(
    r: Option<R>,
    limit: u64,
    drain: bool,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = (&mut r).take(limit).read_to_end(&mut buf);
            if drain {
                let _ = io::copy(&mut r, &mut io::sink());
            }
        }
        buf
    })
}

enum Waited {
    Exited(std::process::ExitStatus),
    TimedOut,
    Failed(io::Error),
}

/// Waits for the child, killing it after `timeout`.
fn wait(child: &mut Child, timeout: Duration) -> Waited {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Waited::Exited(s),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Waited::TimedOut;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Waited::Failed(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_number() {
        assert!(is_pdf(b"%PDF-1.7\n"));
        assert!(is_pdf(b"%PDF-2.0"));
        assert!(!is_pdf(b"%PDF"));
        assert!(!is_pdf(b"Description,Amount\n"));
        assert!(!is_pdf(b" %PDF-1.4"));
    }

    #[test]
    fn waiting_stops_a_child_that_runs_too_long() {
        let Ok(mut child) = Command::new("sleep").arg("5").spawn() else {
            return; // no `sleep` on this system
        };
        let t = Instant::now();
        assert!(matches!(
            wait(&mut child, Duration::from_millis(100)),
            Waited::TimedOut
        ));
        assert!(t.elapsed() < Duration::from_secs(4));
    }
}
