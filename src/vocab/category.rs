//! The categories every line item is sorted into, in the order of the
//! report table, and which of them are hidden fees. The one list: reports,
//! SQL and the checks iterate [`Category::ALL`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where every line item is sorted. The order is the order of the report table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Compute,
    Storage,
    StorageReplica,
    Bandwidth,
    Scheduling,
    Tax,
    Credit,
    Other,
}

impl Category {
    pub const ALL: [Category; 8] = [
        Category::Compute,
        Category::Storage,
        Category::StorageReplica,
        Category::Bandwidth,
        Category::Scheduling,
        Category::Tax,
        Category::Credit,
        Category::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Compute => "compute",
            Category::Storage => "storage",
            Category::StorageReplica => "storage_replica",
            Category::Bandwidth => "bandwidth",
            Category::Scheduling => "scheduling",
            Category::Tax => "tax",
            Category::Credit => "credit",
            Category::Other => "other",
        }
    }

    /// Hidden fees: what the price list does not show.
    pub fn is_hidden(self) -> bool {
        matches!(
            self,
            Category::StorageReplica | Category::Bandwidth | Category::Scheduling
        )
    }

    /// Part of what is paid *for* (the subtotal): everything but tax and credit.
    pub fn in_subtotal(self) -> bool {
        !matches!(self, Category::Tax | Category::Credit)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Category {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase().replace('-', "_");
        Category::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown category `{s}` (expected one of: {})",
                    Category::ALL.map(|c| c.as_str()).join(", ")
                )
            })
    }
}
