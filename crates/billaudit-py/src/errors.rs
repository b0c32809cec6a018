//! Library errors as the Python exceptions of `billaudit._errors`
//! (`InputError`, `ConfigError`, both `BillauditError`), with the file, line,
//! column and field as attributes.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use billaudit::Error;
use billaudit::config::ConfigError;

/// Where an error is, as the exception's keyword arguments.
#[derive(Default)]
struct At<'a> {
    path: Option<&'a str>,
    line: Option<u64>,
    column: Option<u64>,
    field: Option<&'a str>,
    message: Option<&'a str>,
    snippet: Option<&'a str>,
}

fn build(py: Python<'_>, class: &str, text: &str, at: At<'_>) -> PyResult<PyErr> {
    let module = py.import("billaudit._errors")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("path", at.path)?;
    kwargs.set_item("line", at.line)?;
    kwargs.set_item("column", at.column)?;
    kwargs.set_item("field", at.field)?;
    kwargs.set_item("message", at.message.unwrap_or(text))?;
    kwargs.set_item("snippet", at.snippet)?;
    let value = module.getattr(class)?.call((text,), Some(&kwargs))?;
    Ok(PyErr::from_value(value))
}

/// An input that could not be audited: `InputError`.
pub fn from_error(py: Python<'_>, e: &Error) -> PyResult<PyErr> {
    let text = e.to_string();
    let io_message;
    let at = match e {
        Error::Io { path, source } => {
            io_message = source.to_string();
            At {
                path: Some(path),
                message: Some(&io_message),
                ..At::default()
            }
        }
        Error::Input(i) => At {
            path: Some(&i.path),
            line: i.line,
            column: i.column,
            field: i.field.as_deref(),
            message: Some(&i.message),
            snippet: i.snippet.as_deref(),
        },
        Error::Usage(_) => At::default(),
    };
    build(py, "InputError", &text, at)
}

/// A bad billaudit.toml: `ConfigError`, located at its line and column.
pub fn config_error(py: Python<'_>, e: &ConfigError) -> PyErr {
    let text = e.to_string();
    let at = At {
        path: Some(&e.path),
        line: e.line.map(|l| l as u64),
        column: e.column.map(|c| c as u64),
        message: Some(&e.message),
        snippet: e.snippet.as_deref(),
        ..At::default()
    };
    build(py, "ConfigError", &text, at).unwrap_or_else(|err| err)
}

/// A bad option of the call (`profile=`, a threshold, `fail_on=`):
/// `ConfigError` whose field is the keyword.
pub fn option_error(py: Python<'_>, field: &str, message: &str) -> PyErr {
    let text = format!("{field}: {message}");
    let at = At {
        field: Some(field),
        message: Some(message),
        ..At::default()
    };
    build(py, "ConfigError", &text, at).unwrap_or_else(|err| err)
}

/// A panic caught at the module's edge: `BillauditError`, never a crash.
pub fn internal(what: &str) -> PyErr {
    Python::attach(|py| {
        let text = format!(
            "internal error: {what}\nThis is a bug; please report it with the input that caused it."
        );
        build(py, "BillauditError", &text, At::default()).unwrap_or_else(|err| err)
    })
}
