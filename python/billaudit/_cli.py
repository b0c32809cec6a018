"""The wheel's ``billaudit`` command: the same command line as the Rust
binary, run in-process by the extension module."""

from __future__ import annotations

import signal
import sys

from billaudit import _native


def main() -> None:
    """Runs ``billaudit`` with ``sys.argv`` and exits with its exit code
    (0 clean, 1 findings at or above --fail-on, 2 usage or input error)."""
    # Ctrl-C ends the command at once, as it ends the binary; Python's own
    # handler would wait for the Rust code to return.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.cli_main(["billaudit", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
