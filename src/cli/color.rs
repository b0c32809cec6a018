//! `--color auto|always|never`: whether the human report is coloured.
//!
//! `auto` (the default) colours only when stdout is a terminal, and follows
//! the conventions clap and ripgrep follow: `NO_COLOR` (any non-empty value)
//! turns colour off, `CLICOLOR_FORCE` (non-empty, not `0`) turns it on even
//! on a pipe, `CLICOLOR=0` and `TERM=dumb` turn it off. `always` and `never`
//! ignore the environment. Machine formats are never coloured, whatever the
//! flag: only the human report is given a [`Paint`] other than plain.

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use billaudit::report::paint::Paint;

#[derive(Debug, Args)]
pub struct ColorArgs {
    /// Colour the human report: `auto` on a terminal unless NO_COLOR is set
    /// or CLICOLOR=0 (CLICOLOR_FORCE forces it); machine formats never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

impl ColorArgs {
    /// The paint of a report written to stdout; `human` is false for every
    /// machine format, which is then plain whatever the flag.
    pub fn paint(&self, human: bool) -> Paint {
        let env = |k: &str| std::env::var_os(k);
        if human && wants_colour(self.color, &env, std::io::stdout().is_terminal()) {
            Paint::Ansi
        } else {
            Paint::Plain
        }
    }
}

fn wants_colour(choice: ColorArg, env: &dyn Fn(&str) -> Option<OsString>, terminal: bool) -> bool {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            if set("NO_COLOR").is_some() {
                false
            } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if set("CLICOLOR").is_some_and(|v| v == "0")
                || set("TERM").is_some_and(|v| v == "dumb")
            {
                false
            } else {
                terminal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auto(vars: &[(&str, &str)], terminal: bool) -> bool {
        let env = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        };
        wants_colour(ColorArg::Auto, &env, terminal)
    }

    #[test]
    fn auto_colours_a_terminal_only() {
        assert!(auto(&[], true));
        assert!(!auto(&[], false));
        assert!(!auto(&[("TERM", "dumb")], true));
        assert!(auto(&[("TERM", "xterm-256color")], true));
    }

    #[test]
    fn no_color_and_clicolor_0_turn_it_off_clicolor_force_on() {
        assert!(!auto(&[("NO_COLOR", "1")], true));
        // An empty NO_COLOR is not set (no-color.org).
        assert!(auto(&[("NO_COLOR", "")], true));
        assert!(!auto(&[("CLICOLOR", "0")], true));
        assert!(auto(&[("CLICOLOR", "1")], true));
        assert!(auto(&[("CLICOLOR_FORCE", "1")], false));
        assert!(!auto(&[("CLICOLOR_FORCE", "0")], false));
        assert!(!auto(&[("CLICOLOR_FORCE", "")], false));
        assert!(auto(&[("CLICOLOR_FORCE", "1"), ("CLICOLOR", "0")], false));
        // NO_COLOR wins over CLICOLOR_FORCE.
        assert!(!auto(&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")], true));
    }

    #[test]
    fn always_and_never_ignore_the_environment() {
        let env = |_: &str| Some(OsString::from("1"));
        assert!(wants_colour(ColorArg::Always, &env, false));
        assert!(!wants_colour(ColorArg::Never, &|_| None, true));
    }
}
