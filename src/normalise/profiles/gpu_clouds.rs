//! GPU rental marketplaces' charge exports. Sources in docs/formats.md.

use super::Spec;
use crate::normalise::profile::Role;

/// Vast.ai charges (`vastai search invoices` / `GET /api/v0/invoices`, as
/// CSV): `Instance 123 GPU charge: hours * $/hr`, quantity x rate = amount.
pub(super) const VASTAI: Spec = Spec {
    name: "vastai",
    summary: "Vast.ai charges (`type, description, timestamp, quantity, rate, amount, instance_id`)",
    cost_column: "amount",
    signature: &["instance_id", "rate", "timestamp"],
    signature_min: 2,
    required: &[],
    columns: &[
        (Role::Description, &["description"]),
        (Role::Amount, &["amount"]),
        (Role::Quantity, &["quantity"]),
        (Role::UnitPrice, &["rate"]),
        (Role::ResourceId, &["instance_id"]),
    ],
    class_tiers: &[&["description"], &["type"]],
    ..Spec::EMPTY
};
