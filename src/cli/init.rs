//! `billaudit init`: a commented default billaudit.toml.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;

use billaudit::config;

use super::output::error_line;
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Where to write the file.
    #[arg(default_value = "billaudit.toml", value_name = "FILE")]
    path: PathBuf,

    /// Overwrite an existing file.
    #[arg(long)]
    force: bool,
}

pub fn run(i: InitArgs) -> u8 {
    if i.path.exists() && !i.force {
        let _ = writeln!(
            io::stderr(),
            "billaudit: error: {} exists; use --force to overwrite it",
            i.path.display()
        );
        return EXIT_INPUT;
    }
    match std::fs::write(&i.path, config::default_toml()) {
        Ok(()) => {
            let _ = writeln!(
                io::stderr(),
                "wrote {}: every key is documented inside and in docs/config.md",
                i.path.display()
            );
            EXIT_OK
        }
        Err(e) => {
            error_line(&format_args!("{}: {e}", i.path.display()));
            EXIT_INPUT
        }
    }
}
