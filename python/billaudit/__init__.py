"""billaudit: audit cloud and GPU-rental bills for hidden costs.

The same library code as the ``billaudit`` command, run in-process (no
subprocess)::

    >>> import billaudit
    >>> report = billaudit.audit("fixtures/csv/gpu-pod-en.csv")
    >>> bill = report["bills"][0]
    >>> bill["total"]          # money stays an exact string: 233.52 + 18.23 - 10.00
    '241.75'
    >>> [f["code"] for f in bill["findings"]]    # 20.00 / 233.52 = 8.56% > 5%
    ['hidden-fee-share', 'replica-redundancy']

``audit()`` returns the JSON report of ``billaudit audit --format json``
(docs/json-output.md) as Python objects; ``lines()`` the items of
``billaudit lines --format json``; ``lines_arrow()`` the same as a
``pyarrow.Table``. Money is a string, exactly as written in the report:
``decimal.Decimal(x)`` takes it without loss (docs/python.md).
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any, Iterable, Iterator, Optional, Union

from billaudit import _native
from billaudit._errors import BillauditError, ConfigError, InputError

__all__ = [
    "BillauditError",
    "ConfigError",
    "InputError",
    "THRESHOLD_KEYWORDS",
    "audit",
    "checks",
    "explain",
    "lines",
    "lines_arrow",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The keyword arguments of ``audit()`` that set a threshold, one per share
#: check (``hidden_threshold`` is the CLI's ``--hidden-threshold``).
THRESHOLD_KEYWORDS: tuple[str, ...] = tuple(_native.THRESHOLD_KEYWORDS)


def _paths(path_or_paths: Union[PathLike, Iterable[PathLike]]) -> list[str]:
    if isinstance(path_or_paths, (str, os.PathLike)):
        return [os.fspath(path_or_paths)]
    paths = [os.fspath(p) for p in path_or_paths]
    if not paths:
        raise ValueError("audit() needs at least one path")
    return paths


def _share(key: str, value: object) -> str:
    """A threshold as the CLI reads it: ``"5%"``, ``"0.05"``, ``Decimal``,
    ``int``, or a ``float`` by its shortest repr (``0.05`` is ``"0.05"``)."""
    if isinstance(value, bool):
        raise TypeError(f"{key}: a threshold is a share or a ratio, not a bool")
    if isinstance(value, (str, int, Decimal)):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    raise TypeError(f"{key}: expected a str, int, float or Decimal, got {type(value).__name__}")


def _config(config: Optional[PathLike]) -> Optional[str]:
    return None if config is None else os.fspath(config)


def audit(
    path_or_paths: Union[PathLike, Iterable[PathLike]],
    config: Optional[PathLike] = None,
    *,
    profile: Optional[str] = None,
    fail_on: Optional[str] = None,
    errors: str = "raise",
    **thresholds: Union[str, int, float, Decimal],
) -> dict[str, Any]:
    """Audits bills and returns the JSON report (docs/json-output.md) as a dict.

    Args:
        path_or_paths: a bill, a directory (searched recursively), a glob,
            or a list of them, as on the command line.
        config: a billaudit.toml; by default the nearest one in the working
            directory or its parents, as the CLI reads it.
        profile: read every input with this profile (``billaudit profiles``).
        fail_on: ``"error"`` (default) or ``"warning"``: which findings make
            a bill's ``passed`` false.
        errors: ``"raise"`` (default): an input that cannot be audited
            raises ``InputError`` once every input has been read, with the
            whole report in its ``report`` attribute and every error in
            ``errors``; ``"report"``: return the report, errors in its
            ``"errors"`` list, as the CLI does.
        **thresholds: ``hidden_threshold``, ``replica_threshold``,
            ``redundancy_threshold``, ``scheduling_threshold``: ``"3%"``,
            ``"0.03"``, ``Decimal("0.03")`` (see ``THRESHOLD_KEYWORDS``).

    Returns:
        The report: ``{"passed", "bills": [...], "errors": [...]}``. Money and
        shares are strings, exactly as the JSON report writes them.

    Raises:
        InputError: an input could not be audited (``errors="raise"``).
        ConfigError: a bad billaudit.toml, profile, threshold or fail_on.
    """
    if errors not in ("raise", "report"):
        raise ValueError(f"errors must be 'raise' or 'report', not {errors!r}")
    given = [(k, _share(k, v)) for k, v in thresholds.items()]
    text, failures = _native.audit_json(
        _paths(path_or_paths), _config(config), profile, given, fail_on
    )
    report: dict[str, Any] = json.loads(text)
    if failures and errors == "raise":
        first = failures[0]
        first.errors = list(failures)
        first.report = report
        raise first
    return report


def lines(
    path: Union[PathLike, Iterable[PathLike]],
    config: Optional[PathLike] = None,
    *,
    profile: Optional[str] = None,
) -> Iterator[dict[str, Any]]:
    """Every line item, in file order, as ``billaudit lines --format json``
    writes them: ``path``, ``line``, ``category``, ``amount`` (exact string),
    ``currency`` (or None), ``rule`` and ``description``.

    Each input is read whole (with the GIL released), then its items are
    yielded. An input that cannot be read raises ``InputError`` when the
    iterator reaches it.
    """
    for p in _paths(path):
        yield from _native.lines(p, _config(config), profile)


class _ArrowBatch:
    """The Arrow PyCapsule interface (``__arrow_c_array__``) of one batch."""

    def __init__(self, capsules: Any) -> None:
        self._capsules = capsules

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        capsules, self._capsules = self._capsules, None
        if capsules is None:
            raise RuntimeError("the batch was exported already")
        return capsules


def lines_arrow(
    path: Union[PathLike, Iterable[PathLike]],
    config: Optional[PathLike] = None,
    *,
    profile: Optional[str] = None,
) -> Any:
    """The items of ``lines()`` as a ``pyarrow.Table``, one record batch per
    input, taken over through the Arrow C data interface (no copy).

    Columns: ``path``, ``category``, ``currency``, ``rule``, ``description``
    (string), ``line`` (uint64) and ``amount`` (decimal128(38, s) at the
    largest scale of the file's amounts; exact). ``pl.from_arrow(t)`` and
    ``t.to_pandas()`` take it. Needs pyarrow 14 or later
    (``pip install 'billaudit[arrow]'``).
    """
    try:
        import pyarrow as pa
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "billaudit.lines_arrow() needs pyarrow: pip install 'billaudit[arrow]'"
        ) from e
    tables = [
        pa.Table.from_batches(
            [pa.record_batch(_ArrowBatch(_native.lines_arrow_capsules(p, _config(config), profile)))]
        )
        for p in _paths(path)
    ]
    if len(tables) == 1:
        return tables[0]
    # Files whose amounts have different scales: decimal128 columns widen.
    return pa.concat_tables(tables, promote_options="permissive")


def explain(code: str) -> str:
    """The documentation of a check, as ``billaudit explain CODE`` prints it.

    Raises:
        KeyError: an unknown code (the message lists the codes).
    """
    text = _native.explain(code)
    if text is None:
        codes = ", ".join(c["code"] for c in checks())
        raise KeyError(f"unknown check `{code}`; the checks are: {codes}")
    return text


def checks() -> list[dict[str, Any]]:
    """Every check, in the order of docs/checks.md: ``code``, ``severity``
    (its default), ``summary``, and for a share check ``threshold`` (its
    default, ``"5%"``) and ``keyword`` (of ``audit()``), else None."""
    return list(_native.checks())


try:
    from importlib.metadata import version as _version

    __version__: str = _version("billaudit")
except Exception:  # pragma: no cover - not installed as a distribution
    __version__ = "0.0.0"
