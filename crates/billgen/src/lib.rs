//! A deterministic generator of realistic FOCUS 1.x cost exports, for
//! benchmarks and for checking the totals at any size.
//!
//! A dev-only crate of the billaudit repository (a dev-dependency, never
//! part of the shipped library or binary).
//! `cargo run --release --example gen_focus -- --rows N --seed S --out F`
//! writes one (see `examples/gen_focus.rs`); tests and benches call
//! [`focus`] directly. The expected totals come from the generator's own
//! intent for each row (which category it draws), never from billaudit:
//! its category names are its own list on purpose, so a test does not
//! check billaudit against itself.
//!
//! Two shapes ([`Shape`]): the FOCUS specification's own (the default:
//! ISO 8601 datetimes `2025-10-01T00:00:00Z` and thousands of distinct
//! descriptions, each naming its SKU), and the shape the generator wrote
//! before issue 18 (`2025-10-01 00:00:00`, eleven descriptions), kept to
//! compare with the figures measured on it.

use std::collections::BTreeMap;
use std::io::Write;

use rust_decimal::Decimal;

/// SplitMix64: small, fast and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Template {
    category: &'static str,
    charge_category: &'static str,
    description: &'static str,
    service_category: &'static str,
    service_name: &'static str,
    unit: &'static str,
    /// Unit price range in 1/10000 of a currency unit.
    price: (i64, i64),
    /// Quantity range (whole units), then a fraction of up to 4 decimals.
    qty: (i64, i64),
    weight: u64,
}

const TEMPLATES: &[Template] = &[
    Template {
        category: "compute",
        charge_category: "Usage",
        description: "RTX 4090 GPU instance hours (on-demand)",
        service_category: "Compute",
        service_name: "GPU Cloud Instances",
        unit: "Hours",
        price: (2_900, 6_900),
        qty: (1, 24),
        weight: 26,
    },
    Template {
        category: "compute",
        charge_category: "Usage",
        description: "A100 80GB GPU instance hours",
        service_category: "Compute",
        service_name: "GPU Cloud Instances",
        unit: "Hours",
        price: (12_900, 18_900),
        qty: (1, 24),
        weight: 16,
    },
    Template {
        category: "compute",
        charge_category: "Usage",
        description: "H800 GPU instance hours, 8x cluster node",
        service_category: "Compute",
        service_name: "GPU Cloud Instances",
        unit: "Hours",
        price: (19_900, 39_900),
        qty: (1, 24),
        weight: 8,
    },
    Template {
        category: "storage",
        charge_category: "Usage",
        description: "Block storage gp3 volume, GB-month",
        service_category: "Storage",
        service_name: "Block Storage",
        unit: "GB-Mo",
        price: (300, 1_000),
        qty: (10, 400),
        weight: 14,
    },
    Template {
        category: "storage_replica",
        charge_category: "Usage",
        description: "Volume snapshot data stored, GB-month",
        service_category: "Storage",
        service_name: "Block Storage",
        unit: "GB-Mo",
        price: (200, 500),
        qty: (10, 300),
        weight: 8,
    },
    Template {
        category: "storage_replica",
        charge_category: "Usage",
        description: "Cross-region replication of object storage",
        service_category: "Storage",
        service_name: "Object Storage",
        unit: "GB",
        price: (100, 200),
        qty: (1, 500),
        weight: 3,
    },
    Template {
        category: "bandwidth",
        charge_category: "Usage",
        description: "Data transfer out to the internet",
        service_category: "Networking",
        service_name: "Data Transfer",
        unit: "GB",
        price: (500, 1_200),
        qty: (1, 200),
        weight: 9,
    },
    Template {
        category: "bandwidth",
        charge_category: "Usage",
        description: "Inter-region data transfer",
        service_category: "Networking",
        service_name: "Data Transfer",
        unit: "GB",
        price: (100, 200),
        qty: (1, 800),
        weight: 4,
    },
    Template {
        category: "scheduling",
        charge_category: "Usage",
        description: "Kubernetes cluster management fee (control plane)",
        service_category: "Compute",
        service_name: "Managed Kubernetes",
        unit: "Hours",
        price: (1_000, 1_000),
        qty: (1, 24),
        weight: 5,
    },
    Template {
        category: "tax",
        charge_category: "Tax",
        description: "Sales tax",
        service_category: "Other",
        service_name: "Tax",
        unit: "Units",
        price: (100, 5_000),
        qty: (1, 1),
        weight: 2,
    },
    Template {
        category: "credit",
        charge_category: "Credit",
        description: "Promotional credit",
        service_category: "Other",
        service_name: "Credits",
        unit: "Units",
        price: (-9_000, -100),
        qty: (1, 1),
        weight: 2,
    },
];

const HEADER: &str = "\"AvailabilityZone\",\"BilledCost\",\"BillingAccountId\",\"BillingAccountName\",\"BillingCurrency\",\"BillingPeriodEnd\",\"BillingPeriodStart\",\"ChargeCategory\",\"ChargeClass\",\"ChargeDescription\",\"ChargeFrequency\",\"ChargePeriodEnd\",\"ChargePeriodStart\",\"CommitmentDiscountCategory\",\"CommitmentDiscountId\",\"CommitmentDiscountName\",\"CommitmentDiscountStatus\",\"CommitmentDiscountType\",\"ConsumedQuantity\",\"ConsumedUnit\",\"ContractedCost\",\"ContractedUnitPrice\",\"EffectiveCost\",\"InvoiceIssuerName\",\"ListCost\",\"ListUnitPrice\",\"PricingCategory\",\"PricingQuantity\",\"PricingUnit\",\"ProviderName\",\"PublisherName\",\"RegionId\",\"RegionName\",\"ResourceId\",\"ResourceName\",\"ResourceType\",\"ServiceCategory\",\"Id\",\"ServiceName\",\"SkuId\",\"SkuPriceId\",\"SubAccountId\",\"SubAccountName\",\"Tags\"";

/// How the rows are written. Both shapes have the same 44 columns and the
/// same amounts; only dates and descriptions differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shape {
    /// As the FOCUS specification writes an export: datetimes in ISO 8601
    /// with `T` and `Z` (`2025-10-01T00:00:00Z`), and each usage row's
    /// description naming its SKU (`A100 80GB GPU instance hours, SKU0042`):
    /// about 2,700 distinct descriptions.
    #[default]
    Spec,
    /// The generator's shape before issue 18: `2025-10-01 00:00:00`, and
    /// one description per template (11). Same rows for the same seed as
    /// before.
    Legacy,
}

impl Shape {
    /// `spec` or `legacy`.
    pub fn parse(s: &str) -> Option<Shape> {
        match s {
            "spec" => Some(Shape::Spec),
            "legacy" => Some(Shape::Legacy),
            _ => None,
        }
    }
}

/// What a generated file must audit to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub rows: u64,
    pub seed: u64,
    /// Rows whose PricingQuantity x ListUnitPrice differs from ListCost.
    pub arithmetic_mismatches: u64,
    pub total: Decimal,
    /// Exact BilledCost per billaudit category.
    pub totals: BTreeMap<&'static str, Decimal>,
}

impl Expected {
    /// The `<out>.expected.json` document.
    pub fn to_json(&self) -> String {
        let cats = [
            "compute",
            "storage",
            "storage_replica",
            "bandwidth",
            "scheduling",
            "tax",
            "credit",
            "other",
        ];
        let mut json = format!(
            "{{\n  \"rows\": {},\n  \"seed\": {},\n  \"arithmetic_mismatches\": {},\n  \"total\": \"{}\",\n  \"totals\": {{",
            self.rows, self.seed, self.arithmetic_mismatches, self.total
        );
        for (k, c) in cats.iter().enumerate() {
            let v = self.totals.get(c).copied().unwrap_or(Decimal::ZERO);
            json.push_str(&format!(
                "\n    \"{c}\": \"{v}\"{}",
                if k + 1 < cats.len() { "," } else { "" }
            ));
        }
        json.push_str("\n  }\n}\n");
        json
    }
}

/// Writes a FOCUS CSV of `rows` rows drawn from `seed` to `w`, in the
/// FOCUS specification's shape ([`Shape::Spec`]).
pub fn focus(rows: u64, seed: u64, w: &mut impl Write) -> std::io::Result<Expected> {
    focus_shaped(rows, seed, Shape::Spec, w)
}

/// [`focus`] in the given shape.
pub fn focus_shaped(
    rows: u64,
    seed: u64,
    shape: Shape,
    w: &mut impl Write,
) -> std::io::Result<Expected> {
    let mut rng = Rng(seed);
    writeln!(w, "{HEADER}")?;
    let weights: u64 = TEMPLATES.iter().map(|t| t.weight).sum();
    let mut totals: BTreeMap<&str, Decimal> = BTreeMap::new();
    for t in TEMPLATES {
        totals.insert(t.category, Decimal::ZERO);
    }
    let mut total = Decimal::ZERO;
    let mut mismatches: u64 = 0;
    for i in 0..rows {
        let mut pick = rng.below(weights);
        let t = TEMPLATES
            .iter()
            .find(|t| {
                if pick < t.weight {
                    true
                } else {
                    pick -= t.weight;
                    false
                }
            })
            .unwrap_or(&TEMPLATES[0]);
        let span = (t.price.1 - t.price.0 + 1) as u64;
        let price = Decimal::new(t.price.0 + rng.below(span) as i64, 4);
        let qspan = (t.qty.1 - t.qty.0 + 1) as u64;
        let qty = Decimal::new(
            (t.qty.0 + rng.below(qspan) as i64) * 10_000 + rng.below(10_000) as i64,
            4,
        )
        .normalize();
        let qty = if t.category == "tax" || t.category == "credit" {
            Decimal::ONE
        } else {
            qty
        };
        let list_cost = (qty * price).round_dp(10);
        // One row in 250 states a list cost that is not quantity x price: the
        // arithmetic check must count exactly these.
        let off = rng.below(250) == 0;
        if off {
            mismatches += 1;
        }
        // Off by a whole unit: well beyond any rounding of the factors.
        let list_written = if off {
            list_cost + Decimal::ONE
        } else {
            list_cost
        };
        // Billed cost: a discount on some usage rows, up to 10 decimals.
        let discount = Decimal::new(rng.below(4) as i64 * 5, 2);
        let billed = if t.charge_category == "Usage" {
            (list_cost * (Decimal::ONE - discount)).round_dp(10)
        } else {
            list_cost
        };
        *totals.entry(t.category).or_insert(Decimal::ZERO) += billed;
        total += billed;
        let day = 1 + i % 30;
        let hour = i % 24;
        let account = 100_000 + rng.below(20);
        // Drawn in the order the legacy shape drew them.
        let res = rng.below(5000);
        let sku = rng.below(300);
        let h2 = (hour + 1).min(23);
        let (period_end, period_start, charge_end, charge_start, desc);
        match shape {
            Shape::Spec => {
                period_end = "2025-11-01T00:00:00Z".to_string();
                period_start = "2025-10-01T00:00:00Z".to_string();
                charge_end = format!("2025-10-{day:02}T{h2:02}:00:00Z");
                charge_start = format!("2025-10-{day:02}T{hour:02}:00:00Z");
                // A usage row names its SKU, as real exports' descriptions
                // name a rate or a SKU; tax and credit rows do not.
                desc = if t.charge_category == "Usage" {
                    format!("{}, SKU{sku:04}", t.description)
                } else {
                    t.description.to_string()
                };
            }
            Shape::Legacy => {
                period_end = "2025-11-01 00:00:00".to_string();
                period_start = "2025-10-01 00:00:00".to_string();
                charge_end = format!("2025-10-{day:02} {h2:02}:00:00");
                charge_start = format!("2025-10-{day:02} {hour:02}:00:00");
                desc = t.description.to_string();
            }
        }
        writeln!(
            w,
            "\"us-east-1{az}\",{billed},\"{acct}\",\"ML Research\",\"USD\",\"{period_end}\",\"{period_start}\",\"{cc}\",NULL,\"{desc}\",\"Usage-Based\",\"{charge_end}\",\"{charge_start}\",NULL,NULL,NULL,NULL,NULL,{qty},\"{unit}\",{billed},{price},{billed},\"GPU Cloud Inc.\",{list},\"{price}\",\"Standard\",{qty},\"{unit}\",\"GPU Cloud\",\"GPU Cloud Inc.\",\"us-east-1\",\"US East (N. Virginia)\",\"res-{res:06}\",NULL,NULL,\"{scat}\",{i},\"{sname}\",\"SKU{sku:04}\",\"SKU{sku:04}.P1\",\"{acct}\",\"ml-team\",\"{{\"\"team\"\":\"\"ml\"\",\"\"env\"\":\"\"{env}\"\"}}\"",
            az = ["a", "b", "c"][(i % 3) as usize],
            acct = account,
            cc = t.charge_category,
            unit = t.unit,
            list = list_written,
            scat = t.service_category,
            sname = t.service_name,
            env = if i % 5 == 0 { "dev" } else { "prod" },
        )?;
    }
    w.flush()?;
    Ok(Expected {
        rows,
        seed,
        arithmetic_mismatches: mismatches,
        total,
        totals,
    })
}
