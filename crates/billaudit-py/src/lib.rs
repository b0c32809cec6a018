//! `billaudit._native`: the Python module of the wheel (pyo3). It runs the
//! same library code as the `billaudit` binary, in-process: `audit` renders
//! the JSON report of `billaudit audit --format json`, `lines` gives the items
//! of `billaudit lines --format json`, and `cli_main` is the whole command
//! line (the wheel's `billaudit` command). The Python side
//! (`python/billaudit/__init__.py`) turns these into the documented API
//! (docs/python.md).
//!
//! Nothing here panics into Python: every entry point runs inside
//! [`contained`], which turns a panic into `billaudit.BillauditError`. Bills
//! are read with the GIL released ([`Python::detach`]).

mod arrow;
mod errors;
mod options;

// The binary's command line, the same source file (src/cli): the wheel's
// `billaudit` command is this module's `run_from`. Some of its items are
// used only by src/main.rs.
#[allow(dead_code)]
#[path = "../../../src/cli/mod.rs"]
mod cli;

use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use billaudit::LineItem;
use billaudit::report::{self, Context, Format};

use errors::{from_error, internal};
use options::Given;

/// Runs `f`, turning a panic into `billaudit.BillauditError` ("internal
/// error ... this is a bug").
fn contained<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(internal(&what))
        }
    }
}

/// The wheel's `billaudit` command: `argv` as `sys.argv` gives it (the
/// first is the program name). Returns the exit code (0, 1 or 2).
#[pyfunction]
fn cli_main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    cli::set_panic_hook();
    py.detach(|| catch_unwind(|| cli::run_from(argv)).unwrap_or(cli::EXIT_INPUT))
}

/// The JSON report (docs/json-output.md) of `paths`, as text, and the input
/// errors of the run as `billaudit.InputError` instances.
#[pyfunction]
#[pyo3(signature = (paths, config=None, profile=None, thresholds=Vec::new(), fail_on=None))]
fn audit_json(
    py: Python<'_>,
    paths: Vec<String>,
    config: Option<String>,
    profile: Option<String>,
    thresholds: Vec<(String, String)>,
    fail_on: Option<String>,
) -> PyResult<(String, Vec<Py<PyAny>>)> {
    contained(|| {
        let given = Given {
            config,
            profile,
            thresholds,
            fail_on,
        };
        let opts = given.options(py)?;
        let (text, report) = py.detach(|| {
            let report = billaudit::pipeline::audit_paths(&paths, &opts);
            let ctx = Context {
                fail_on: opts.policy.fail_on,
                check: false,
                paint: report::paint::Paint::Plain,
                require_expectations: false,
            };
            (report::render(&report, Format::Json, &ctx), report)
        });
        let errors = report
            .errors
            .iter()
            .map(|e| from_error(py, e).map(|err| err.into_value(py).into_any()))
            .collect::<PyResult<Vec<_>>>()?;
        Ok((text, errors))
    })
}

/// Every line item of one input (a file, or `-` for standard input), in file
/// order, as `billaudit lines --format json` writes them. An input that
/// cannot be read raises `billaudit.InputError`.
#[pyfunction]
#[pyo3(signature = (path, config=None, profile=None))]
fn lines<'py>(
    py: Python<'py>,
    path: String,
    config: Option<String>,
    profile: Option<String>,
) -> PyResult<Bound<'py, PyList>> {
    contained(|| {
        let items = read_items(py, path, config, profile)?;
        let out = PyList::empty(py);
        for (path, item) in &items {
            let d = PyDict::new(py);
            d.set_item("path", path.as_str())?;
            d.set_item("line", item.line)?;
            d.set_item("category", item.category.as_str())?;
            d.set_item("amount", item.amount.to_string())?;
            d.set_item("currency", item.currency.as_deref())?;
            d.set_item("rule", &*item.rule)?;
            d.set_item("description", item.description.as_str())?;
            out.append(d)?;
        }
        Ok(out)
    })
}

/// The items of [`lines`] as one Arrow record batch, exported through the
/// Arrow C data interface: `(schema capsule, array capsule)`, which
/// `pyarrow.RecordBatch._import_from_c_capsule` takes without a copy.
#[pyfunction]
#[pyo3(signature = (path, config=None, profile=None))]
fn lines_arrow_capsules<'py>(
    py: Python<'py>,
    path: String,
    config: Option<String>,
    profile: Option<String>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    contained(|| {
        let items = read_items(py, path, config, profile)?;
        let batch = py.detach(|| arrow::batch(&items));
        arrow::capsules(py, batch)
    })
}

/// Reads one input's items with the GIL released, in file order.
fn read_items(
    py: Python<'_>,
    path: String,
    config: Option<String>,
    profile: Option<String>,
) -> PyResult<Vec<(String, LineItem)>> {
    let given = Given {
        config,
        profile,
        thresholds: Vec::new(),
        fail_on: None,
    };
    let mut opts = given.options(py)?;
    let items: Arc<Mutex<Vec<(String, LineItem)>>> = Arc::default();
    let sink = items.clone();
    opts.item_hook = Some(billaudit::pipeline::ItemHook(Arc::new(move |p, item| {
        if let Ok(mut v) = sink.lock() {
            v.push((p.to_string(), item.clone()));
        }
    })));
    let result = py.detach(|| {
        billaudit::ingest::expand_paths(std::slice::from_ref(&path))
            .into_iter()
            .try_for_each(|s| {
                s.and_then(|s| billaudit::pipeline::audit_source(&s, &opts).map(drop))
            })
    });
    if let Err(e) = result {
        return Err(from_error(py, &e)?);
    }
    drop(opts);
    let items = match Arc::try_unwrap(items) {
        Ok(m) => m.into_inner().unwrap_or_default(),
        Err(shared) => shared.lock().map(|v| v.clone()).unwrap_or_default(),
    };
    Ok(items)
}

/// The text of `billaudit explain CODE`; `None` for an unknown code.
#[pyfunction]
fn explain(code: &str) -> Option<String> {
    billaudit::audit::check_info(code).map(|info| {
        format!(
            "{}: {}\n\n{}",
            info.code,
            info.summary,
            billaudit::audit::explain_text(info).replace("**", "")
        )
    })
}

/// Every check, in the order of docs/checks.md: code, default severity,
/// summary, and for a share check its threshold's default and keyword.
#[pyfunction]
fn checks(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for info in billaudit::audit::CHECKS {
        let d = PyDict::new(py);
        d.set_item("code", info.code)?;
        d.set_item("severity", info.default_severity.as_str())?;
        d.set_item("summary", info.summary)?;
        match info.compares {
            Some(r) => {
                d.set_item("threshold", billaudit::audit::default_text(&r))?;
                d.set_item("keyword", options::keyword(r.flag))?;
            }
            None => {
                d.set_item("threshold", py.None())?;
                d.set_item("keyword", py.None())?;
            }
        }
        out.append(d)?;
    }
    Ok(out)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    m.add_function(wrap_pyfunction!(audit_json, m)?)?;
    m.add_function(wrap_pyfunction!(lines, m)?)?;
    m.add_function(wrap_pyfunction!(lines_arrow_capsules, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(checks, m)?)?;
    m.add("THRESHOLD_KEYWORDS", options::keywords())?;
    Ok(())
}
