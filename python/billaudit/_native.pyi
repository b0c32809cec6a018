"""Type stubs of the Rust extension module (crates/billaudit-py)."""

from typing import Any, Optional, Sequence

from billaudit._errors import BillauditError

THRESHOLD_KEYWORDS: list[str]

def cli_main(argv: Sequence[str]) -> int: ...
def audit_json(
    paths: Sequence[str],
    config: Optional[str] = None,
    profile: Optional[str] = None,
    thresholds: Sequence[tuple[str, str]] = (),
    fail_on: Optional[str] = None,
) -> tuple[str, list[BillauditError]]: ...
def lines(
    path: str, config: Optional[str] = None, profile: Optional[str] = None
) -> list[dict[str, Any]]: ...
def lines_arrow_capsules(
    path: str, config: Optional[str] = None, profile: Optional[str] = None
) -> tuple[Any, Any]: ...
def explain(code: str) -> Optional[str]: ...
def checks() -> list[dict[str, Any]]: ...
