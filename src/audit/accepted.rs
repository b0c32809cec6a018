//! Accepted findings (`[[accept]]` in billaudit.toml): a finding a team has
//! looked at and agreed to. It is still reported, marked accepted with the
//! reason, but never fails the run.

use crate::model::Check;

/// One accepted finding: a check code on the bills a path glob matches,
/// optionally only at one line.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub code: Check,
    /// Matched against the bill's path as reports show it; a glob without
    /// `/` also matches the file name alone.
    pub path: glob::Pattern,
    pub line: Option<u64>,
    pub reason: String,
}

impl Accepted {
    pub fn covers(&self, code: Check, path: &str, line: Option<u64>) -> bool {
        if self.code != code {
            return false;
        }
        if self.line.is_some() && self.line != line {
            return false;
        }
        let opts = glob::MatchOptions {
            case_sensitive: true,
            require_literal_separator: false,
            require_literal_leading_dot: false,
        };
        let path = path.strip_prefix("./").unwrap_or(path);
        if self.path.matches_with(path, opts) {
            return true;
        }
        if !self.path.as_str().contains('/') {
            let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
            return self.path.matches_with(name, opts);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(code: Check, glob: &str, line: Option<u64>) -> Accepted {
        Accepted {
            code,
            path: glob::Pattern::new(glob).unwrap(),
            line,
            reason: "known".into(),
        }
    }

    #[test]
    fn code_path_and_line() {
        let a = acc(Check::HiddenFeeShare, "bills/*.csv", None);
        assert!(a.covers(Check::HiddenFeeShare, "bills/oct.csv", None));
        assert!(a.covers(Check::HiddenFeeShare, "./bills/oct.csv", Some(3)));
        assert!(!a.covers(Check::ReplicaShare, "bills/oct.csv", None));
        assert!(!a.covers(Check::HiddenFeeShare, "other/oct.csv", None));
        let a = acc(Check::LineArithmetic, "oct.csv", Some(4));
        assert!(a.covers(Check::LineArithmetic, "deep/dir/oct.csv", Some(4)));
        assert!(!a.covers(Check::LineArithmetic, "deep/dir/oct.csv", Some(5)));
        assert!(!a.covers(Check::LineArithmetic, "deep/dir/oct.csv", None));
    }
}
