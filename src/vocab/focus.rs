//! FOCUS (FinOps Open Cost and Usage Specification) vocabulary.

/// The allowed values of the FOCUS 1.2 `ServiceCategory` column, as the
/// specification writes them. `docs/categories.md` says where each lands.
pub(crate) const SERVICE_CATEGORIES: &[&str] = &[
    "AI and Machine Learning",
    "Analytics",
    "Business Applications",
    "Compute",
    "Databases",
    "Developer Tools",
    "Multicloud",
    "Identity",
    "Integration",
    "Internet of Things",
    "Management and Governance",
    "Media",
    "Migration",
    "Mobile",
    "Networking",
    "Security",
    "Storage",
    "Web",
    "Other",
];
