//! The `billaudit` binary: parses arguments, calls the library, renders the
//! report and maps the exit code. Nothing else lives here.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::set_panic_hook();
    match std::panic::catch_unwind(cli::run) {
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::from(cli::EXIT_INPUT),
    }
}
