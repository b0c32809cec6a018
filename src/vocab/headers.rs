//! Header names (aliases) of the generic roles, in every language billaudit
//! reads: English, Chinese, German, French, Spanish, Italian, Japanese and
//! Korean.
//!
//! This is the one table the generic CSV profile (`generic-csv`) maps
//! columns with; docs/formats.md points here. The names are written as bills
//! spell them; they are compared after header normalisation (trimmed,
//! full-width folded, lowercased, a currency suffix such as `(¥)` stripped),
//! so `BETRAG`, ` Betrag ` and `Betrag (EUR)` all match `Betrag`.
//!
//! Within a role the first name present in a header wins, so each list runs
//! from the most specific name to the most general. A name belongs to one
//! role only (a test checks it): a column is never both the amount and the
//! unit price. Specific exports (AWS, Azure, the Chinese consoles, ...) have
//! their own column tables in `src/normalise/profiles/` and are detected
//! before these names are tried.

/// What the charge is for, at the line level (`GPU instance A100`).
/// Classified first.
pub(crate) const DESCRIPTION: &[&str] = &[
    // English
    "Description",
    "Item",
    "Line Item",
    "Item Description",
    // Chinese
    "计费项",
    "费用项",
    "计费项目",
    "项目",
    "项目名称",
    "费用名称",
    // German
    "Beschreibung",
    "Bezeichnung",
    "Leistung",
    "Leistungsbeschreibung",
    "Artikel",
    // French
    "Libellé",
    "Libelle",
    "Désignation",
    "Designation",
    // Spanish
    "Descripción",
    "Descripcion",
    "Concepto",
    // Portuguese
    "Descrição",
    "Descricao",
    // Italian
    "Descrizione",
    "Voce",
    // Japanese
    "項目",
    "内容",
    "品名",
    "摘要",
    "品目",
    "明細",
    // Korean (a 세금계산서's columns: 품목, 규격, 수량, 단가, 공급가액, 세액)
    "품목",
    "품명",
    // General names, in any language: after the specific ones.
    "Name",
    "名称",
    "Position",
];

/// Which product or service the charge belongs to (`Elastic Compute
/// Service`). The description when a bill has nothing finer; classified
/// after [`DESCRIPTION`].
pub(crate) const SERVICE: &[&str] = &[
    // English
    "Service",
    "Product",
    "Service Name",
    "Product Name",
    // Chinese
    "产品名称",
    "产品",
    "商品名称",
    "商品",
    "服务名称",
    // German
    "Produkt",
    "Dienst",
    // French
    "Produit",
    // Spanish
    "Producto",
    "Servicio",
    // Japanese
    "サービス名",
    "商品名",
    "サービス",
];

/// The payable amount of the line. Payable names come before list or gross
/// ones (`应付金额` before `金额`).
pub(crate) const AMOUNT: &[&str] = &[
    // Chinese, payable first
    "应付金额",
    "优惠后总价",
    "消费金额",
    // English
    "Amount",
    "Cost",
    // Chinese, general
    "金额",
    // A line's amount with its tax and before it, when a bill gives both
    // (`Net Amount, VAT, Gross Amount`): the gross one is what is paid, and
    // with a tax column ([`TAX`]) the reader takes the tax out of it
    // (`normalise::tax_column`); then the net one (`Net, VAT, Total`: the
    // net, and its tax beside it). After the common names, so that
    // `Amount, VAT, Total` reads `Amount`; before `Total`.
    "Gross Amount",
    "Gross",
    "Amount incl. VAT",
    "Amount incl. tax",
    "Bruttobetrag",
    "Brutto",
    "Montant TTC",
    "Importe con IVA",
    "含税金额",
    "税込金額",
    "Net Amount",
    "Net",
    "Amount excl. VAT",
    "Amount excl. tax",
    "Nettobetrag",
    "Netto",
    "Importe neto",
    "Base imponible",
    "Imponibile",
    "不含税金额",
    "税抜金額",
    "공급가액",
    // English, general
    "Total",
    "Charge",
    "Charges",
    // Chinese
    "费用",
    "费用金额",
    // English
    "Amount Due",
    "Billed Amount",
    "Total Cost",
    // German
    "Betrag",
    "Gesamtbetrag",
    "Gesamtpreis",
    "Kosten",
    // French
    "Montant",
    "Montant total",
    // Before tax (hors taxes), the line's own amount on a French invoice.
    "Montant HT",
    "Prix total",
    "Coût",
    // Spanish
    "Importe",
    "Precio total",
    "Coste",
    "Costo",
    // Portuguese
    "Valor",
    "Valor total",
    // Italian (`Costo` as in Spanish)
    "Importo",
    "Importo totale",
    // Japanese
    "金額",
    "請求金額",
    // Korean
    "금액",
    "利用料金",
    "料金",
];

/// The tax charged on the line, in a column of its own (`VAT`, `税额`):
/// a `tax` item beside the line's charge (`normalise::tax_column`).
pub(crate) const TAX: &[&str] = &[
    // English
    "Tax",
    "Tax Amount",
    "VAT",
    "VAT Amount",
    "Sales Tax",
    "GST",
    // Chinese
    "税额",
    "税金",
    "增值税",
    "增值税额",
    // German
    "MwSt",
    "MwSt.",
    "MwSt.-Betrag",
    "USt",
    "USt.",
    "Steuer",
    "Steuerbetrag",
    // French
    "TVA",
    "Montant TVA",
    // Spanish, Italian, Portuguese
    "IVA",
    "Importe IVA",
    "Cuota IVA",
    "Importo IVA",
    "Imposta",
    "Imposto",
    // Dutch
    "BTW",
    "BTW-bedrag",
    // Japanese
    "消費税",
    "消費税額",
    // Korean
    "세액",
    "부가세",
    "부가세액",
];

/// Words of an amount header that say the amount includes the tax
/// (`Gross Amount`, `Bruttobetrag`, `Montant TTC`, `含税金额`), matched in
/// the lowercased header.
pub(crate) const GROSS_MARKERS: &[&str] = &[
    "gross", "brutto", "ttc", "incl", "inkl", "con iva", "含税", "税込",
];

/// A line's amount with its tax, when a net amount stands beside it and
/// no tax column does (`Net, Total`): the tax is the difference
/// (`normalise::tax_column`). Each is also an amount name ([`AMOUNT`]).
pub(crate) const GROSS: &[&str] = &[
    "Gross Amount",
    "Gross",
    "Amount incl. VAT",
    "Amount incl. tax",
    "Bruttobetrag",
    "Brutto",
    "Montant TTC",
    "Importe con IVA",
    "含税金额",
    "税込金額",
    "Total",
];

/// A line's amount before tax (`Net`, `Nettobetrag`, `不含税金额`): beside a
/// [`GROSS`] column and no tax column, the charge. Each is also an amount
/// name ([`AMOUNT`]).
pub(crate) const NET: &[&str] = &[
    "Net Amount",
    "Net",
    "Amount excl. VAT",
    "Amount excl. tax",
    "Nettobetrag",
    "Netto",
    "Importe neto",
    "Base imponible",
    "Imponibile",
    "不含税金额",
    "税抜金額",
    "Montant HT",
    "공급가액",
];

/// How much was used or bought.
pub(crate) const QUANTITY: &[&str] = &[
    // English
    "Quantity",
    "Qty",
    "Usage",
    // Chinese
    "用量",
    "使用量",
    "数量",
    "组件用量",
    // English
    "Hours",
    // German
    "Menge",
    "Anzahl",
    "Verbrauch",
    // French
    "Quantité",
    "Quantite",
    "Qté",
    // Spanish
    "Cantidad",
    // Portuguese
    "Quantidade",
    "Qtd.",
    "Qtd",
    // Italian
    "Quantità",
    "Quantita",
    // Japanese (`数量` and `使用量` are spelled as in Chinese)
    "利用量",
    // Korean
    "수량",
];

/// The unit of the quantity (`hours`, `GB`).
pub(crate) const UNIT: &[&str] = &[
    // English
    "Unit",
    // Chinese
    "单位",
    "用量单位",
    "使用量单位",
    "组件用量单位",
    // English
    "Usage Unit",
    // German
    "Einheit",
    // French
    "Unité",
    "Unite",
    // Spanish
    "Unidad",
    // Portuguese
    "Unidade",
    // Japanese
    "単位",
    // Korean
    "단위",
];

/// The unit a unit price is quoted per (`元/万次`, `per 1K requests`): it may
/// declare a block of units (see `line-arithmetic`).
pub(crate) const PRICE_UNIT: &[&str] = &[
    // English
    "Price Unit",
    "Pricing Unit",
    // Chinese
    "单价单位",
    // German
    "Preiseinheit",
    // French
    "Unité de prix",
    // Spanish
    "Unidad de precio",
    // Japanese
    "単価単位",
];

/// The price of one unit of the quantity.
pub(crate) const UNIT_PRICE: &[&str] = &[
    // English
    "Unit Price",
    // as exports spell identifiers (`unit_price` before the bare `price`,
    // which an enriched export uses for the line's amount)
    "unit_price",
    "Rate",
    "Price",
    // Chinese
    "单价",
    "组件单价",
    // English
    "Unit Cost",
    // GPU rentals quote the hour (`Hours, Price per Hour, Total`)
    "Price per Hour",
    "Price/Hour",
    "Price per hr",
    "Hourly Price",
    "Hourly Rate",
    "Rate per Hour",
    // German
    "Einzelpreis",
    "Preis pro Einheit",
    "Stückpreis",
    // French
    "Prix unitaire",
    // Spanish
    "Precio unitario",
    // Portuguese
    "Preço unitário",
    "Preco unitario",
    "Tarifa",
    // Italian
    "Prezzo unitario",
    // Japanese
    "単価",
    // Korean
    "단가",
];

/// The amount before discounts, when the bill states one.
pub(crate) const LIST_AMOUNT: &[&str] = &[
    // Chinese
    "原价",
    "官网价",
    "组件原价",
    // English
    "List Cost",
    "List Amount",
    "List Price Total",
];

/// The currency of the line (`USD`, `人民币`).
pub(crate) const CURRENCY: &[&str] = &[
    // English
    "Currency",
    // Chinese
    "币种",
    "货币",
    // English
    "Currency Code",
    // German
    "Währung",
    "Waehrung",
    // French
    "Devise",
    // Spanish
    "Moneda",
    "Divisa",
    // Italian
    "Valuta",
    // Japanese
    "通貨",
];

/// The date of the charge (or of its period's start).
pub(crate) const DATE: &[&str] = &[
    // English
    "Date",
    // Chinese
    "日期",
    "账单日期",
    "账期",
    "消费时间",
    // English
    "Billing Period",
    "Usage Date",
    // German
    "Datum",
    "Leistungsdatum",
    // French (`Date` as in English)
    // Spanish
    "Fecha",
    // Italian
    "Data",
    // Japanese
    "日付",
    "利用日",
    "請求日",
    "請求年月",
];

/// When the charged period starts.
pub(crate) const START: &[&str] = &[
    // English
    "Start",
    // Chinese
    "开始时间",
    // English
    "Start Time",
    "Usage Start",
    // Chinese
    "开始使用时间",
    "账单开始时间",
    // German
    "Beginn",
    // French
    "Début",
    // Spanish
    "Inicio",
    // Japanese
    "開始日時",
    "開始日",
    "利用開始日",
];

/// When the charged period ends.
pub(crate) const END: &[&str] = &[
    // English
    "End",
    // Chinese
    "结束时间",
    // English
    "End Time",
    "Usage End",
    // Chinese
    "结束使用时间",
    "账单结束时间",
    // German
    "Ende",
    // French and Spanish
    "Fin",
    // Japanese
    "終了日時",
    "終了日",
    "利用終了日",
];

/// A `start - end` range in one cell.
pub(crate) const PERIOD: &[&str] = &[
    "Period",
    "时间段",
    "计费周期",
    "Zeitraum",
    "Période",
    "Periodo",
];

/// The resource (instance, pod, volume) the charge is for.
pub(crate) const RESOURCE_ID: &[&str] = &[
    "Resource ID",
    "ResourceId",
    "资源ID",
    "实例ID",
    "Instance ID",
    "Pod ID",
    "Pod",
];

/// Columns that name the kind of a line, classified with [`DESCRIPTION`]
/// (Alibaba `产品明细`, Tencent `组件名称`, `Type`) but never its description.
pub(crate) const LINE_KIND: &[&str] = &["产品明细", "组件名称", "子产品名称", "Type", "类型"];

/// Columns that name the category of a service, classified with
/// [`SERVICE`].
pub(crate) const SERVICE_KIND: &[&str] = &["Category", "Service Category"];

/// Money columns that only say how a charge was paid (cash, vouchers,
/// stored value): never the amount, never summed.
pub(crate) const PAYMENT_SPLITS: &[&str] = &[
    "现金支付",
    "代金券抵扣",
    "储值卡支付金额",
    "欠费金额",
    "现金账户支出",
    "代金券支出",
    "赠送账户支出",
    "Cash Paid",
    "Voucher Paid",
    "Credit Paid",
];

/// Every list of header names above, for whoever needs to know whether a
/// cell is a header word at all (encoding detection: a Windows-1252 or
/// Shift_JIS reading that names header words is the file's).
pub(crate) const ALL: &[&[&str]] = &[
    DESCRIPTION,
    SERVICE,
    AMOUNT,
    QUANTITY,
    UNIT,
    PRICE_UNIT,
    UNIT_PRICE,
    LIST_AMOUNT,
    CURRENCY,
    DATE,
    START,
    END,
    PERIOD,
    RESOURCE_ID,
    LINE_KIND,
    SERVICE_KIND,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Lowercased and trimmed, as header normalisation compares them
    /// (vocab imports no stage, so the comparison is restated here).
    fn key(s: &str) -> String {
        s.trim().to_lowercase()
    }

    #[test]
    fn net_and_gross_names_are_amount_names() {
        for n in GROSS.iter().chain(NET) {
            assert!(AMOUNT.contains(n), "`{n}` is no amount name");
        }
    }

    #[test]
    fn no_name_belongs_to_two_roles_or_twice_to_one() {
        let lists: [(&str, &[&str]); 17] = [
            ("DESCRIPTION", DESCRIPTION),
            ("SERVICE", SERVICE),
            ("AMOUNT", AMOUNT),
            ("TAX", TAX),
            ("QUANTITY", QUANTITY),
            ("UNIT", UNIT),
            ("PRICE_UNIT", PRICE_UNIT),
            ("UNIT_PRICE", UNIT_PRICE),
            ("LIST_AMOUNT", LIST_AMOUNT),
            ("CURRENCY", CURRENCY),
            ("DATE", DATE),
            ("START", START),
            ("END", END),
            ("PERIOD", PERIOD),
            ("RESOURCE_ID", RESOURCE_ID),
            ("LINE_KIND", LINE_KIND),
            ("SERVICE_KIND", SERVICE_KIND),
        ];
        let mut seen: Vec<(String, &str)> = Vec::new();
        for (list, names) in lists
            .into_iter()
            .chain([("PAYMENT_SPLITS", PAYMENT_SPLITS)])
        {
            for n in names {
                let k = key(n);
                if let Some((_, other)) = seen.iter().find(|(s, _)| *s == k) {
                    panic!("`{n}` is in {other} and in {list}");
                }
                seen.push((k, list));
            }
        }
    }
}
