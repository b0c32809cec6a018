//! Colour in the human report: a few words of billaudit's own (severities,
//! PASSED/FAILED, ABOVE THRESHOLD, expectation outcomes) are given a
//! [`Tone`], and [`Styled::finish`] turns the text into what the terminal
//! gets. With [`Paint::Plain`] that is the text escaped by
//! [`term_report`], byte for byte what the report was
//! before colour existed; with [`Paint::Ansi`] the toned words are wrapped
//! in ANSI SGR codes. The escaping runs on every piece of text first, so the
//! only escape sequences in the output are the ones added here: an ESC in
//! bill text is still shown as `\u{1b}`. Whether to paint is decided by the
//! binary (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`, a terminal); machine
//! formats are never painted.

use std::fmt;
use std::ops::Range;

use anstyle::{AnsiColor, Style};

use super::term_report;
use crate::model::Severity;

/// Whether the human report is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paint {
    /// No escape codes (pipes, files, `--color never`, machine formats).
    #[default]
    Plain,
    /// ANSI colour codes around the toned words.
    Ansi,
}

/// What a word means, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// `error`, FAILED, ABOVE THRESHOLD, MISMATCH, BROKEN: red.
    Bad,
    /// `warning`, a missing expectation: yellow.
    Caution,
    /// `note`, `blessed`: cyan.
    Note,
    /// PASSED, within threshold, `ok`: green.
    Good,
}

impl Tone {
    pub fn of(severity: Severity) -> Tone {
        match severity {
            Severity::Error => Tone::Bad,
            Severity::Warning => Tone::Caution,
        }
    }

    fn style(self) -> Style {
        let colour = match self {
            Tone::Bad => AnsiColor::Red,
            Tone::Caution => AnsiColor::Yellow,
            Tone::Note => AnsiColor::Cyan,
            Tone::Good => AnsiColor::Green,
        };
        let style = Style::new().fg_color(Some(colour.into()));
        match self {
            Tone::Bad => style.bold(),
            _ => style,
        }
    }
}

/// Report text with some ranges toned. `write!`/`writeln!` append plain
/// text; [`Styled::tone`] appends a toned word.
#[derive(Debug, Default)]
pub struct Styled {
    text: String,
    spans: Vec<(Range<usize>, Tone)>,
}

impl Styled {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends plain text.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Appends `word` in `tone`.
    pub fn tone(&mut self, tone: Tone, word: &str) {
        let start = self.text.len();
        self.text.push_str(word);
        self.spans.push((start..self.text.len(), tone));
    }

    /// The plain text, unescaped (for tests and measuring).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text for the terminal: escaped as [`term_report`] piece by
    /// piece (the escape is per character, so the pieces together are the
    /// whole escaped), and with [`Paint::Ansi`] each toned piece wrapped in
    /// its colour and a reset.
    pub fn finish(self, paint: Paint) -> String {
        if paint == Paint::Plain || self.spans.is_empty() {
            return term_report(self.text);
        }
        let mut out = String::with_capacity(self.text.len() + self.spans.len() * 12);
        let mut at = 0;
        for (range, tone) in &self.spans {
            out.push_str(&term_report(self.text[at..range.start].to_string()));
            let style = tone.style();
            out.push_str(&format!(
                "{style}{}{style:#}",
                term_report(self.text[range.clone()].to_string())
            ));
            at = range.end;
        }
        out.push_str(&term_report(self.text[at..].to_string()));
        out
    }
}

impl fmt::Write for Styled {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.push_str(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    fn sample() -> Styled {
        let mut s = Styled::new();
        let _ = write!(s, "bill \x1b[2J: ");
        s.tone(Tone::Bad, "FAILED");
        let _ = writeln!(s, " end");
        s
    }

    #[test]
    fn plain_is_the_escaped_text_and_nothing_else() {
        assert_eq!(
            sample().finish(Paint::Plain),
            "bill \\u{1b}[2J: FAILED end\n"
        );
    }

    #[test]
    fn ansi_wraps_only_the_toned_word_and_still_escapes_bill_text() {
        // Red is SGR 31, bold is 1; the reset is SGR 0.
        assert_eq!(
            sample().finish(Paint::Ansi),
            "bill \\u{1b}[2J: \x1b[1m\x1b[31mFAILED\x1b[0m end\n"
        );
    }
}
