//! The roles a column can hold (`--columns ROLE=NAME`, a profile's
//! `columns` table).

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Description,
    Amount,
    Quantity,
    Unit,
    UnitPrice,
    /// The unit of the price (`元/万次`), when apart from the usage unit.
    PriceUnit,
    ListAmount,
    Currency,
    Date,
    Start,
    End,
    /// A `start - end` range in one cell.
    Period,
    ResourceId,
    /// The tax charged on the line, in its own column (`tax`, `VAT`,
    /// `税额`): a `tax` item beside the charge (`normalise/tax_column.rs`).
    Tax,
    /// The amount with its tax beside a net one, no tax column (`Net,
    /// Total`): gross - net is a `tax` item (`normalise/tax_column.rs`).
    Gross,
    /// The credit applied to the line, in its own column and inside the
    /// amount (AWS monthly report `Credits` in `TotalCost`): a `credit`
    /// item beside the charge, taken out of it (`normalise/credit_column.rs`).
    Credit,
}

impl Role {
    /// The roles whose cells are figures (amounts, quantities, prices, tax,
    /// gross, credit): a ragged row joins their split pieces as a number,
    /// and a Parquet column read only for them is decoded straight into a
    /// `Decimal`.
    pub const FIGURES: [Role; 7] = [
        Role::Amount,
        Role::Quantity,
        Role::UnitPrice,
        Role::ListAmount,
        Role::Tax,
        Role::Gross,
        Role::Credit,
    ];

    pub const ALL: [Role; 16] = [
        Role::Description,
        Role::Amount,
        Role::Quantity,
        Role::Unit,
        Role::UnitPrice,
        Role::PriceUnit,
        Role::ListAmount,
        Role::Currency,
        Role::Date,
        Role::Start,
        Role::End,
        Role::Period,
        Role::ResourceId,
        Role::Tax,
        Role::Gross,
        Role::Credit,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Description => "description",
            Role::Amount => "amount",
            Role::Quantity => "quantity",
            Role::Unit => "unit",
            Role::UnitPrice => "unit_price",
            Role::PriceUnit => "price_unit",
            Role::ListAmount => "list_amount",
            Role::Currency => "currency",
            Role::Date => "date",
            Role::Start => "start",
            Role::End => "end",
            Role::Period => "period",
            Role::ResourceId => "resource_id",
            Role::Tax => "tax",
            Role::Gross => "gross",
            Role::Credit => "credit",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        let s = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        let s = match s.as_str() {
            "price" | "rate" | "unitprice" => "unit_price",
            "list" | "list_cost" | "listamount" => "list_amount",
            "qty" => "quantity",
            "cost" => "amount",
            "item" => "description",
            "resource" => "resource_id",
            "vat" | "tax_amount" => "tax",
            "gross_amount" => "gross",
            "credits" => "credit",
            other => other,
        };
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}
