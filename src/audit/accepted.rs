//! Accepted findings (`[[accept]]` in billaudit.toml): a finding a team has
//! looked at and agreed to. It is still reported, marked accepted with the
//! reason, but never fails the run.

/// One accepted finding: a check code on the bills a path glob matches,
/// optionally only at one line.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub code: String,
    /// Matched against the bill's path as reports show it; a glob without
    /// `/` also matches the file name alone.
    pub path: glob::Pattern,
    pub line: Option<u64>,
    pub reason: String,
}

impl Accepted {
    pub fn covers(&self, code: &str, path: &str, line: Option<u64>) -> bool {
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

    fn acc(code: &str, glob: &str, line: Option<u64>) -> Accepted {
        Accepted {
            code: code.into(),
            path: glob::Pattern::new(glob).unwrap(),
            line,
            reason: "known".into(),
        }
    }

    #[test]
    fn code_path_and_line() {
        let a = acc("hidden-fee-share", "bills/*.csv", None);
        assert!(a.covers("hidden-fee-share", "bills/oct.csv", None));
        assert!(a.covers("hidden-fee-share", "./bills/oct.csv", Some(3)));
        assert!(!a.covers("replica-share", "bills/oct.csv", None));
        assert!(!a.covers("hidden-fee-share", "other/oct.csv", None));
        let a = acc("line-arithmetic", "oct.csv", Some(4));
        assert!(a.covers("line-arithmetic", "deep/dir/oct.csv", Some(4)));
        assert!(!a.covers("line-arithmetic", "deep/dir/oct.csv", Some(5)));
        assert!(!a.covers("line-arithmetic", "deep/dir/oct.csv", None));
    }
}
