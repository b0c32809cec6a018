//! The last tier of the built-in rules: known kinds of managed service,
//! tried after every rule of [`super::BUILTIN`]'s other tiers. A word of
//! these only decides when no hidden-fee, storage or compute word did in
//! the same tier (`Database storage` is storage, `Database backup` a
//! replica). Their patterns are the FOCUS 1.2 `ServiceCategory` and
//! `ServiceSubcategory` names; the reasoning per value is in
//! docs/categories.md.

use super::Rule;
use crate::model::Category::*;

/// The managed-service rules, in order; they end [`super::BUILTIN`].
pub(super) const SERVICES: &[Rule] = &[
    Rule {
        id: "service-ai-ml",
        category: Other,
        patterns: &[
            "ai and machine learning",
            "machine learning",
            "generative ai",
            "natural language processing",
            "ai platforms",
        ],
        non_positive_only: false,
        why: "AI and machine-learning services priced per request, token or model (GPU or instance time says so in its SKU and is compute)",
    },
    Rule {
        id: "service-analytics",
        category: Other,
        patterns: &[
            "=analytics",
            "analytics platform",
            "business intelligence",
            "streaming analytics",
            "=search",
        ],
        non_positive_only: false,
        why: "analytics services (ETL jobs, query engines, BI, search) priced as the product, not a fee on top of compute",
    },
    Rule {
        id: "service-business-apps",
        category: Other,
        patterns: &["business applications", "productivity and collaboration"],
        non_positive_only: false,
        why: "business and productivity applications: software, not infrastructure",
    },
    Rule {
        id: "service-databases",
        category: Other,
        patterns: &[
            "databases",
            "=database",
            "data warehouse",
            "=relational",
            "nosql",
            "=caching",
            "=ledger",
            "time series",
        ],
        non_positive_only: false,
        why: "managed databases and data warehouses: requests, throughput, queries and the service itself (instance time, storage, backups and transfer are decided by their SKU words first)",
    },
    Rule {
        id: "service-developer-tools",
        category: Other,
        patterns: &[
            "developer tools",
            "developer platform",
            "source code management",
        ],
        non_positive_only: false,
        why: "developer tools: build minutes, repositories, pipelines",
    },
    Rule {
        id: "service-identity",
        category: Other,
        patterns: &["=identity", "identity and access management"],
        non_positive_only: false,
        why: "identity and key services priced per user, key or request",
    },
    Rule {
        id: "service-integration",
        category: Other,
        patterns: &["=integration", "api management", "=messaging"],
        non_positive_only: false,
        why: "integration services: queues, notifications, API gateways priced per request",
    },
    Rule {
        id: "service-management",
        category: Other,
        patterns: &[
            "management and governance",
            "observability",
            "=monitoring",
            "cost management",
            "=compliance",
            "data governance",
        ],
        non_positive_only: false,
        why: "management, monitoring and governance services: metrics, logs, audit trails (disaster recovery is a replica, support stays a look-alike)",
    },
    Rule {
        id: "service-media",
        category: Other,
        patterns: &[
            "=media",
            "content creation",
            "=gaming",
            "media streaming",
            "mixed reality",
        ],
        non_positive_only: false,
        why: "media services priced per minute or asset processed",
    },
    Rule {
        id: "service-migration",
        category: Other,
        patterns: &["=migration", "data migration", "resource migration"],
        non_positive_only: false,
        why: "migration services: a project cost, not a recurring hidden fee",
    },
    Rule {
        id: "service-mobile",
        category: Other,
        patterns: &["=mobile"],
        non_positive_only: false,
        why: "mobile services (device farms, push, app back-ends)",
    },
    Rule {
        id: "service-multicloud",
        category: Other,
        patterns: &["multicloud", "multi-cloud"],
        non_positive_only: false,
        why: "multicloud management services",
    },
    Rule {
        id: "service-networking",
        category: Other,
        patterns: &[
            "networking",
            "load balancing",
            "network management",
            "network security",
            "network routing",
        ],
        non_positive_only: false,
        why: "network services that are not traffic: load-balancer hours, DNS, firewalls (transfer, NAT, IPs, peering, connectivity and CDN are bandwidth, matched first)",
    },
    Rule {
        id: "service-security",
        category: Other,
        patterns: &[
            "=security",
            "threat detection",
            "=cspm",
            "=siem",
            "secret management",
            "key management",
        ],
        non_positive_only: false,
        why: "security services and add-ons: scanners, firewalls, key stores",
    },
    Rule {
        id: "service-web",
        category: Other,
        patterns: &["=web", "application platforms"],
        non_positive_only: false,
        why: "web hosting platforms priced as the product (their instance hours say so in the SKU and are compute)",
    },
];
