//! Stage 3: a category for every line item.
//!
//! Rules are tried tier by tier: every rule on the most specific texts
//! (description, SKU, usage type) before any rule on coarse ones (service
//! category). Within a tier the first matching rule wins. A profile marker
//! (FOCUS `ChargeCategory=Tax`, a text invoice's tax line) decides outright.

pub mod rules;
pub mod user;

use rust_decimal::Decimal;

use crate::model::{Category, LineItem};
use crate::normalise::number::fold_char;
use rules::{BUILTIN, Rule, UNCLASSIFIED};

/// A compiled pattern: substring, or whole ASCII word.
#[derive(Debug, Clone)]
struct Pattern {
    text: String,
    word: bool,
}

#[derive(Debug, Clone)]
struct Compiled {
    id: String,
    category: Category,
    non_positive_only: bool,
    patterns: Vec<Pattern>,
}

/// Classifies line items with the built-in rules.
#[derive(Debug, Clone)]
pub struct Classifier {
    rules: Vec<Compiled>,
}

impl Default for Classifier {
    fn default() -> Self {
        Self::new(BUILTIN)
    }
}

/// Lowercases and folds full-width forms, as rule patterns are written.
pub fn fold(text: &str) -> String {
    text.chars()
        .map(fold_char)
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn matches(hay: &str, p: &Pattern) -> bool {
    if !p.word {
        return hay.contains(p.text.as_str());
    }
    let bytes = hay.as_bytes();
    let n = p.text.len();
    hay.match_indices(p.text.as_str()).any(|(i, _)| {
        let before = i == 0 || !is_word_byte(bytes[i - 1]);
        let after = i + n >= bytes.len() || !is_word_byte(bytes[i + n]);
        before && after
    })
}

impl Classifier {
    pub fn new(rules: &[Rule]) -> Self {
        Classifier {
            rules: rules
                .iter()
                .map(|r| Compiled {
                    id: format!("builtin:{}", r.id),
                    category: r.category,
                    non_positive_only: r.non_positive_only,
                    patterns: r
                        .patterns
                        .iter()
                        .map(|p| match p.strip_prefix('=') {
                            Some(w) => Pattern {
                                text: w.to_string(),
                                word: true,
                            },
                            None => Pattern {
                                text: p.to_string(),
                                word: false,
                            },
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// Finds the category and rule for texts in priority tiers.
    pub fn classify_texts(&self, tiers: &[Vec<String>], amount: Decimal) -> (Category, &str) {
        for tier in tiers {
            let folded: Vec<String> = tier.iter().map(|t| fold(t)).collect();
            for rule in &self.rules {
                if rule.non_positive_only && amount > Decimal::ZERO {
                    continue;
                }
                if folded
                    .iter()
                    .any(|t| rule.patterns.iter().any(|p| matches(t, p)))
                {
                    return (rule.category, &rule.id);
                }
            }
        }
        (Category::Other, UNCLASSIFIED)
    }

    /// Sets `item.category` and `item.rule`.
    pub fn classify(&self, item: &mut LineItem) {
        if let Some((category, id)) = item.forced {
            item.category = category;
            item.rule = format!("profile:{id}");
            return;
        }
        let (category, id) = self.classify_texts(&item.class_text, item.amount);
        item.category = category;
        item.rule = id.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Category::*;

    fn one(s: &str) -> Category {
        Classifier::default()
            .classify_texts(&[vec![s.to_string()]], Decimal::ONE)
            .0
    }

    #[test]
    fn credits_are_never_positive_charges() {
        let c = Classifier::default();
        let t = |s: &str| vec![vec![s.to_string()]];
        assert_eq!(
            c.classify_texts(&t("Promotional credit"), Decimal::NEGATIVE_ONE)
                .0,
            Credit
        );
        assert_eq!(
            c.classify_texts(&t("代金券抵扣"), Decimal::NEGATIVE_ONE).0,
            Credit
        );
        assert_eq!(
            c.classify_texts(&t("Credit card processing fee"), Decimal::ONE)
                .0,
            Other
        );
        assert_eq!(
            c.classify_texts(&t("H100 GPU hours (reserved discount)"), Decimal::ONE)
                .0,
            Compute
        );
    }

    #[test]
    fn traps_from_context() {
        assert_eq!(one("Volume snapshot"), StorageReplica);
        assert_eq!(one("Container disk (stopped pod)"), Storage);
        assert_eq!(one("数据盘快照"), StorageReplica);
        assert_eq!(one("Tax for product code AWSDataTransfer"), Tax);
        assert_eq!(
            one("$0.0036 per GB/month prorated for Glacier Early Delete"),
            Other
        );
        assert_eq!(one("USW2-EarlyDelete-ByteHrs"), Other);
        assert_eq!(one("RDS Extended Support"), Other);
        assert_eq!(one("Microsoft Defender for Containers"), Other);
        assert_eq!(one("International support"), Other);
    }

    #[test]
    fn real_strings() {
        for s in [
            "$0.085 per GB - next 40 TB / month data transfer out",
            "$0.010 per GB - regional data transfer - in/out/between EC2 AZs or using elastic IPs or ELB",
            "$0.045 per NAT Gateway Hour",
            "$0.005 per In-use public IPv4 address per hour",
            "USW2-USE1-AWS-Out-Bytes",
            "USE1-DataTransfer-xAZ-Out-Bytes",
            "Network Inter Region Egress from Americas to EMEA",
            "Network Inter Zone Egress",
            "External IP Charge on a Standard VM",
            "Virtual Network Peering - Intra-Region Ingress",
            "Outbound Data Transfer Zone 1",
            "公网流量",
            "带宽-按流量计费",
        ] {
            assert_eq!(one(s), Bandwidth, "{s}");
        }
        for s in [
            "$0.05 per GB-Month of snapshot data stored - US East (Northern Virginia)",
            "EBS:SnapshotUsage",
            "Tiered Block Blob - GRS - Data Stored",
            "Blob Storage - Hot RA-GRS - US East",
            "同城冗余存储",
            "跨区域复制",
        ] {
            assert_eq!(one(s), StorageReplica, "{s}");
        }
        for s in [
            "Amazon EKS cluster usage in US East (Ohio)",
            "Regional Kubernetes Clusters",
            "Zonal Kubernetes Clusters",
            "ACK Pro定价",
            "集群管理费",
            "灵骏节点管理费",
            "Serverless platform fee",
        ] {
            assert_eq!(one(s), Scheduling, "{s}");
        }
        assert_eq!(one("RTX 4090 GPU instance (on-demand)"), Compute);
        assert_eq!(one("GPU卡时"), Compute);
        assert_eq!(one("Persistent volume 500 GB"), Storage);
        assert_eq!(one("系统盘"), Storage);
        assert_eq!(one("Something else entirely"), Other);
    }

    #[test]
    fn words_do_not_match_inside_words() {
        assert_ne!(one("International roaming"), Bandwidth);
        assert_eq!(one("NAT hours"), Bandwidth);
    }

    #[test]
    fn specific_tier_beats_coarse_tier() {
        let c = Classifier::default();
        let tiers = vec![
            vec!["EBS:SnapshotUsage".to_string()],
            vec!["Compute".to_string()],
        ];
        assert_eq!(
            c.classify_texts(&tiers, Decimal::ONE),
            (StorageReplica, "builtin:replica")
        );
        let tiers = vec![vec!["mystery".to_string()], vec!["Storage".to_string()]];
        assert_eq!(c.classify_texts(&tiers, Decimal::ONE).0, Storage);
    }
}
