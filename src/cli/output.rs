//! What every command shares: stdout that tolerates a closed pipe, error
//! lines on stderr, the config, and the progress bar.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use billaudit::Options;
use billaudit::config::{self, Config};
use billaudit::ingest::{Origin, Source};
use billaudit::pipeline::ProgressHook;
use billaudit::report::paint::Paint;

use super::EXIT_INPUT;

/// `billaudit: error: ...` on stderr. Errors quote paths and bill text, so
/// control characters are shown escaped (`\u{1b}`), as in the human report;
/// the message's own line feeds (snippets) are kept.
pub fn error_line(e: &dyn std::fmt::Display) {
    let text = billaudit::report::term_report(e.to_string());
    let _ = writeln!(io::stderr(), "billaudit: error: {text}");
}

/// The config named with `--config`, or the nearest billaudit.toml; a bad
/// config is reported (file:line:column) and is exit code 2.
pub fn load_config(path: Option<&PathBuf>) -> Result<Option<Config>, u8> {
    let found = match path {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| config::discover(&d)),
    };
    let Some(found) = found else {
        return Ok(None);
    };
    match config::load(&found) {
        Ok(c) => Ok(Some(c)),
        Err(e) => {
            error_line(&e);
            Err(EXIT_INPUT)
        }
    }
}

/// billaudit.toml (`--config FILE`, or the nearest) and the options every
/// command that reads bills starts from ([`Options::configured`]: user
/// profiles before built-ins, user rules before built-in rules, the
/// config's policy). A bad config or an unknown `--profile` is exit code 2.
pub fn configured(
    config: Option<&PathBuf>,
    profile: Option<&String>,
) -> Result<(Option<Config>, Options), u8> {
    let cfg = load_config(config)?;
    match Options::configured(cfg.as_ref(), profile.map(String::as_str)) {
        Ok(o) => Ok((cfg, o)),
        Err(e) => {
            error_line(&e);
            Err(EXIT_INPUT)
        }
    }
}

/// Inputs above this size get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 50 * 1024 * 1024;

pub fn progress_hook(paths: &[String]) -> Option<ProgressHook> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let total: u64 = billaudit::ingest::expand_paths(paths)
        .iter()
        .filter_map(|s| match s {
            Ok(Source {
                origin: Origin::File(p),
                ..
            }) => std::fs::metadata(p).ok().map(|m| m.len()),
            _ => None,
        })
        .sum();
    if total < PROGRESS_MIN_BYTES {
        return None;
    }
    let bar = progress_bar(total, ProgressDrawTarget::stderr());
    let rows = Arc::new(AtomicU64::new(0));
    Some(ProgressHook(Arc::new(move |bytes, new_rows| {
        bar.inc(bytes);
        if new_rows > 0 {
            let n = rows.fetch_add(new_rows, Ordering::Relaxed) + new_rows;
            bar.set_message(rows_message(n));
        }
        if bar.position() >= total {
            bar.finish_and_clear();
        }
    })))
}

/// The bar over `total` bytes. The row count is its message, and it is
/// there from the start (`0 rows`): a bar that showed a bare `rows` until
/// the first rows came in read as a count that was missing.
fn progress_bar(total: u64, target: ProgressDrawTarget) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg}, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(rows_message(0));
    bar
}

fn rows_message(n: u64) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}

/// Writes report text to stdout. A closed pipe (`billaudit ... | head`) is
/// not an error and prints nothing: `broken` is set, later writes are
/// dropped, and the command still ends with the exit code of its result
/// (as ripgrep does; docs/decisions.md, "A closed pipe").
pub struct Out {
    pub broken: bool,
}

impl Out {
    pub fn write(&mut self, text: &str) {
        self.write_painted(text, Paint::Plain);
    }

    /// Writes text coloured by [`Paint::Ansi`] (see [`Out::render`]).
    pub fn write_painted(&mut self, text: &str, paint: Paint) {
        self.render(paint, |w| w.write_all(text.as_bytes()));
    }

    /// Runs a renderer ([`billaudit::report::Renderer`]) on stdout, through
    /// anstream for [`Paint::Ansi`], which passes the codes to a terminal
    /// that reads them and translates them for an older Windows console.
    pub fn render(&mut self, paint: Paint, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
        if self.broken {
            return;
        }
        let stdout = io::stdout().lock();
        let result = match paint {
            Paint::Plain => write_flushed(stdout, render),
            Paint::Ansi => write_flushed(anstream::AutoStream::always(stdout), render),
        };
        if let Err(e) = result {
            if e.kind() != io::ErrorKind::BrokenPipe {
                let _ = writeln!(io::stderr(), "billaudit: cannot write the report: {e}");
            }
            self.broken = true;
        }
    }
}

fn write_flushed(
    mut w: impl Write,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    render(&mut w)?;
    w.flush()
}

pub fn print_errors(report: &billaudit::Report) {
    for e in &report.errors {
        error_line(&e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_counts_rows_from_the_start() {
        let bar = progress_bar(100, ProgressDrawTarget::hidden());
        assert_eq!(bar.message(), "0 rows");
        bar.set_message(rows_message(1));
        assert_eq!(bar.message(), "1 row");
        bar.set_message(rows_message(1_234));
        assert_eq!(bar.message(), "1234 rows");
    }
}
