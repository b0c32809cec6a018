//! The run options of a Python call, built as the CLI builds them from its
//! flags (src/cli/args.rs): billaudit.toml (`config=`, or the nearest one
//! above the working directory), `profile=`, then the threshold keywords.

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use billaudit::audit::{CHECKS, Check, Thresholds, parse_fraction};
use billaudit::{Options, Severity};

use crate::errors::{config_error, option_error};

/// What a Python call was given.
pub struct Given {
    pub config: Option<String>,
    pub profile: Option<String>,
    /// `(keyword, value)`: `("hidden_threshold", "3%")`.
    pub thresholds: Vec<(String, String)>,
    pub fail_on: Option<String>,
}

impl Given {
    pub fn options(&self, py: Python<'_>) -> PyResult<Options> {
        let found = match &self.config {
            Some(p) => Some(PathBuf::from(p)),
            None => std::env::current_dir()
                .ok()
                .and_then(|d| billaudit::config::discover(&d)),
        };
        let cfg = match found {
            Some(p) => Some(billaudit::config::load(&p).map_err(|e| config_error(py, &e))?),
            None => None,
        };
        let mut opts = Options::configured(cfg.as_ref(), self.profile.as_deref())
            .map_err(|e| option_error(py, "profile", &e.to_string()))?;
        let mut over = Thresholds::default();
        for (key, value) in &self.thresholds {
            let Some(check) = check_of(key) else {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword argument `{key}` (the thresholds are: {})",
                    keywords().join(", ")
                )));
            };
            let v = parse_fraction(value).map_err(|m| option_error(py, key, &m))?;
            over.set(check, v);
        }
        opts.policy.thresholds.apply(&over);
        if let Some(f) = &self.fail_on {
            opts.policy.fail_on = match f.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                other => {
                    return Err(option_error(
                        py,
                        "fail_on",
                        &format!("`{other}` is not a severity (expected `error` or `warning`)"),
                    ));
                }
            };
        }
        Ok(opts)
    }
}

/// The Python keyword of a threshold flag: `hidden-threshold` ->
/// `hidden_threshold`.
pub fn keyword(flag: &str) -> String {
    flag.trim_start_matches('-').replace('-', "_")
}

/// Every threshold keyword, in the order of the check table.
pub fn keywords() -> Vec<String> {
    CHECKS
        .iter()
        .filter_map(|c| c.compares.map(|r| keyword(r.flag)))
        .collect()
}

fn check_of(key: &str) -> Option<Check> {
    CHECKS
        .iter()
        .find(|c| c.compares.is_some_and(|r| keyword(r.flag) == key))
        .map(|c| c.check)
}
