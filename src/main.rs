//! The `billaudit` binary: parses arguments, calls the library, renders the
//! report and maps the exit code. Nothing else lives here.

mod cli;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

/// `mi_option_purge_delay` in mimalloc's `mi_option_e` (`mimalloc.h`, the
/// same in its v2 and v3): how long freed memory stays committed.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// `mi_option_arena_purge_mult`: the arenas' delay, as a multiple of it.
const MI_OPTION_ARENA_PURGE_MULT: libmimalloc_sys::mi_option_t = 24;

/// Freed memory goes back to the system after this many milliseconds
/// (mimalloc's default is 1,000, 10,000 in its arenas: a Parquet row
/// group's pages, megabytes each, freed on one thread and allocated again
/// on another, then stayed committed, about 45 MB of a 1M-row file's peak
/// RSS; docs/decisions.md, "The allocator returns freed memory").
const PURGE_DELAY_MS: std::ffi::c_long = 10;

fn main() -> ExitCode {
    // A user's own MIMALLOC_PURGE_DELAY wins (mimalloc reads it itself).
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: plain setters of two of mimalloc's options, called before
        // any other thread runs; an option read later sees the value.
        unsafe {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS);
            libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_PURGE_MULT, 1);
        }
    }
    cli::set_panic_hook();
    match std::panic::catch_unwind(cli::run) {
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::from(cli::EXIT_INPUT),
    }
}
