"""Bad input raises billaudit's exceptions, located; nothing crashes."""

from __future__ import annotations

import pytest

import billaudit
from conftest import cli_json


def test_the_exceptions_are_one_family() -> None:
    assert issubclass(billaudit.InputError, billaudit.BillauditError)
    assert issubclass(billaudit.ConfigError, billaudit.BillauditError)
    assert issubclass(billaudit.BillauditError, Exception)


def test_a_nul_byte_is_an_input_error_at_its_line_and_column(tmp_path) -> None:
    bad = tmp_path / "bad.csv"
    # Line 3, the NUL is the 5th character of `Disk\0,2.00`.
    bad.write_bytes(b"Description,Amount\nGPU,1.00\nDisk\x00,2.00\n")
    with pytest.raises(billaudit.InputError) as e:
        billaudit.audit(bad)
    err = e.value
    assert (err.path, err.file, err.line, err.column) == (str(bad), str(bad), 3, 5)
    assert err.field is None
    assert "NUL byte" in err.message
    assert str(err).startswith(f"{bad}:3:5: ")
    assert err.snippet is not None and "^" in err.snippet
    # The run's report comes with the exception, with the error in it as the CLI has it.
    assert err.report == cli_json("audit", str(bad))
    assert err.report["errors"][0]["line"] == 3


def test_other_inputs_of_the_run_are_in_the_report(tmp_path) -> None:
    good = "fixtures/csv/gpu-pod-en.csv"
    missing = str(tmp_path / "nowhere.csv")
    with pytest.raises(billaudit.InputError) as e:
        billaudit.audit([good, missing])
    assert e.value.path == missing
    assert [b["path"] for b in e.value.report["bills"]] == [good]
    assert e.value.errors == [e.value]
    report = billaudit.audit([good, missing], errors="report")
    assert report == cli_json("audit", good, missing)
    assert report["errors"][0]["path"] == missing


def test_lines_raise_input_error(tmp_path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"Description,Amount\nGPU,1.00\nDisk\x00,2.00\n")
    with pytest.raises(billaudit.InputError) as e:
        list(billaudit.lines(bad))
    assert (e.value.path, e.value.line) == (str(bad), 3)


def test_a_bad_config_is_a_config_error_at_its_line_and_column(tmp_path) -> None:
    cfg = tmp_path / "billaudit.toml"
    cfg.write_text('[thresholds]\nhidden-fee-share = "lots"\n', encoding="utf-8")
    with pytest.raises(billaudit.ConfigError) as e:
        billaudit.audit("fixtures/csv/gpu-pod-en.csv", cfg)
    # `"lots"` starts at the 20th character of line 2.
    assert (e.value.path, e.value.line, e.value.column) == (str(cfg), 2, 20)
    assert "not a share" in e.value.message


def test_bad_keywords_name_their_field() -> None:
    bill = "fixtures/csv/gpu-pod-en.csv"
    with pytest.raises(billaudit.ConfigError) as e:
        billaudit.audit(bill, hidden_threshold="lots")
    assert e.value.field == "hidden_threshold"
    with pytest.raises(billaudit.ConfigError) as e:
        billaudit.audit(bill, profile="no-such-profile")
    assert e.value.field == "profile"
    with pytest.raises(billaudit.ConfigError) as e:
        billaudit.audit(bill, fail_on="sometimes")
    assert e.value.field == "fail_on"
    with pytest.raises(TypeError, match="hidden_threshold"):
        billaudit.audit(bill, hidden_treshold="5%")
    with pytest.raises(TypeError):
        billaudit.audit(bill, hidden_threshold=True)
    with pytest.raises(ValueError):
        billaudit.audit(bill, errors="ignore")
    with pytest.raises(ValueError):
        billaudit.audit([])


def test_explain_of_an_unknown_code_lists_the_codes() -> None:
    with pytest.raises(KeyError, match="hidden-fee-share"):
        billaudit.explain("no-such-check")
