//! The `billaudit` binary: parses arguments, calls the library, renders the
//! report and maps the exit code. Nothing else lives here.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Any panic that escapes is a bug: report it as exit code 2, never a crash dump.
    std::panic::set_hook(Box::new(|info| {
        // A damaged Parquet page: caught and reported as an input error.
        if billaudit::ingest::parquet::panic_is_contained() {
            return;
        }
        let _ = writeln!(
            std::io::stderr(),
            "billaudit: internal error: {info}\nThis is a bug; please report it with the input that caused it."
        );
    }));
    match std::panic::catch_unwind(cli::run) {
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::from(cli::EXIT_INPUT),
    }
}
