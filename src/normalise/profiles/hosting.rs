//! Hosting clouds' invoice exports: DigitalOcean's invoice CSV and Linode
//! (Akamai)'s invoice items. Sources in docs/formats.md.

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::Role;

/// DigitalOcean's invoice CSV (`GET /v2/customers/my/invoices/{uuid}/csv`,
/// the control panel's "Download CSV"). The amount column is named after
/// the currency and holds `$3.11`; a `Taxes` product row is the tax.
pub(super) const DIGITALOCEAN: Spec = Spec {
    name: "digitalocean",
    summary: "DigitalOcean invoice CSV (`product, group_description, ..., USD`)",
    cost_column: "USD",
    signature: &[
        "group_description",
        "project_name",
        "USD",
        "hours",
        "product",
        "category",
    ],
    signature_min: 3,
    required: &[],
    columns: &[
        (Role::Description, &["description", "group_description"]),
        (Role::Amount, &["USD"]),
        (Role::Quantity, &["hours"]),
        (Role::Start, &["start"]),
        (Role::End, &["end"]),
    ],
    // The description is the resource's name (`web-01 (s-2vcpu-4gb)` on
    // its Droplet row and on its Backups row alike): the product says
    // what the charge is, so the product markers below decide first.
    class_tiers: &[&["product"], &["description", "group_description"]],
    ignored: &[],
    markers: &[
        (
            "product",
            &["taxes", "tax"],
            Category::Tax,
            "digitalocean-product",
        ),
        (
            "product",
            &["droplets", "gpu droplets"],
            Category::Compute,
            "digitalocean-product",
        ),
        (
            "product",
            &[
                "backups",
                "snapshots",
                "droplet backups",
                "volume snapshots",
            ],
            Category::StorageReplica,
            "digitalocean-product",
        ),
        (
            "product",
            &["volumes", "spaces"],
            Category::Storage,
            "digitalocean-product",
        ),
        (
            "product",
            &["bandwidth"],
            Category::Bandwidth,
            "digitalocean-product",
        ),
    ],
    ..Spec::EMPTY
};

/// Linode (Akamai) invoice items (`GET /v4/account/invoices/{id}/items`,
/// flattened to CSV): `amount` is before tax, `tax` its tax, `total` both.
pub(super) const LINODE: Spec = Spec {
    name: "linode",
    summary: "Linode / Akamai invoice items (`label, from, to, ..., tax, total`)",
    cost_column: "amount",
    signature: &[
        "label",
        "from",
        "to",
        "unit_price",
        "tax",
        "total",
        "region",
    ],
    signature_min: 5,
    required: &[],
    columns: &[
        (Role::Description, &["label"]),
        (Role::Amount, &["amount"]),
        (Role::Tax, &["tax"]),
        (Role::Quantity, &["quantity"]),
        (Role::Start, &["from"]),
        (Role::End, &["to"]),
    ],
    class_tiers: &[&["label"], &["type"]],
    // Linode's own words in its labels: a `Linode 8GB` plan is a virtual
    // machine, `Network Transfer` its outbound data.
    markers: &[
        (
            "label",
            &["linode *", "dedicated *", "gpu *", "rtx*"],
            Category::Compute,
            "linode-label",
        ),
        (
            "label",
            &["network transfer*"],
            Category::Bandwidth,
            "linode-label",
        ),
    ],
    // `total` = `amount` + `tax`: the charge before tax and its tax are
    // read, each in its category; `unit_price` is the monthly fee, which
    // `quantity` (hours) times does not give once the monthly cap applies.
    ignored: &["total", "unit_price"],
    ..Spec::EMPTY
};

/// Vultr invoice items (`GET /v2/billing/invoices/{invoice-id}/items`, as
/// CSV). `unit_type` is `hours`, `overage` or `discount`; a discount item
/// is a credit.
pub(super) const VULTR: Spec = Spec {
    name: "vultr",
    summary: "Vultr invoice items (`description, product, start_date, ..., unit_price, total`)",
    cost_column: "total",
    signature: &[
        "start_date",
        "end_date",
        "units",
        "unit_type",
        "unit_price",
        "total",
        "product",
    ],
    signature_min: 5,
    required: &[],
    columns: &[
        (Role::Description, &["description", "product"]),
        (Role::Amount, &["total"]),
        (Role::Quantity, &["units"]),
        (Role::Start, &["start_date"]),
        (Role::End, &["end_date"]),
    ],
    class_tiers: &[&["description"], &["product"]],
    // Hourly prices stop at the plan's monthly price, so `units` x
    // `unit_price` is not the total of a whole month: not read.
    ignored: &["unit_price"],
    markers: &[(
        "unit_type",
        &["discount"],
        Category::Credit,
        "vultr-unit-type",
    )],
    ..Spec::EMPTY
};
