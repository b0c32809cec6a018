//! Bill text made safe to print on a terminal. Every human-readable output
//! uses it: the reports (`report`, which re-exports it) and `reprice`.

/// Bill text made safe to print on a terminal, for every human-readable
/// format (`audit`/`check` human, `lines`, `reprice`, markdown, github):
/// each control character (C0 including tab, CR and LF, DEL, C1) and each
/// bidi embedding, override or isolate mark (U+202A-U+202E, U+2066-U+2069)
/// is written as its Rust escape, `\u{1b}`. An ESC sequence in a
/// description then cannot recolour, clear or rewrite the screen, and a
/// line break in it cannot fake a report line. Borrowed when clean.
pub fn term_text(s: &str) -> std::borrow::Cow<'_, str> {
    escape_controls(s, false)
}

/// A whole human report: escaped as [`term_text`], except the printer's
/// own line feeds. The last guard: fields are escaped with [`term_text`]
/// where they are written, so a line feed inside bill text never gets here.
pub fn term_report(s: String) -> String {
    match escape_controls(&s, true) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(o) => o,
    }
}

fn escape_controls(s: &str, keep_lf: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && !(keep_lf && c == '\n'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}
