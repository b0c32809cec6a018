"""The exceptions of billaudit. The Rust module raises these classes."""

from __future__ import annotations

from typing import Any, Optional


class BillauditError(Exception):
    """Base class of every billaudit error.

    Raised as itself only for an internal error (a bug in billaudit, caught
    at the module's edge instead of crashing the interpreter).

    Attributes:
        path: the file the error is about, or None.
        line: the 1-based line in that file, or None.
        column: the 1-based character column on that line, or None.
        field: the column name, invoice field or keyword argument, or None.
        message: the error without its location.
        snippet: the offending line with a caret under the field, or None.
    """

    def __init__(
        self,
        text: str,
        *,
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        field: Optional[str] = None,
        message: Optional[str] = None,
        snippet: Optional[str] = None,
    ) -> None:
        super().__init__(text)
        self.path = path
        self.line = line
        self.column = column
        self.field = field
        self.message = message if message is not None else text
        self.snippet = snippet
        #: Every error of the run (``audit()`` over several inputs), this one first.
        self.errors: list[BillauditError] = [self]
        #: ``audit()``: the whole report of the run, inputs that could be
        #: read included, or None.
        self.report: Optional[dict[str, Any]] = None

    @property
    def file(self) -> Optional[str]:
        """The file the error is about (the same as ``path``)."""
        return self.path


class InputError(BillauditError):
    """An input that cannot be audited: unreadable, or a bad row, cell or
    invoice line. ``path``, ``line`` and ``field`` say where."""


class ConfigError(BillauditError):
    """A bad billaudit.toml (``path``, ``line``, ``column``), or a bad option
    of the call (``field`` is the keyword: ``profile``, ``fail_on``,
    ``hidden_threshold``, ...)."""
