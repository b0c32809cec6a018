//! The checks: one table of every check billaudit runs, each row holding
//! the check's code, default severity, one-line summary, documentation and,
//! for the share checks, the figures it compares and its threshold.
//!
//! The audit, `billaudit explain`, config validation, every report format
//! and the SQL back-end read this table; a check code is spelled here and
//! nowhere else. `docs/checks.md` is generated from it.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::category::Category;

/// How bad a finding is. `Error` fails the run by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A check's identity. Its code, severity and documentation are its row of
/// [`CHECKS`] ([`Check::info`]); it is serialised as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Check {
    HiddenFeeShare,
    ReplicaShare,
    ReplicaRedundancy,
    SchedulingFeeShare,
    IdleStorage,
    IngressCharged,
    DuplicateLine,
    BillingGranularity,
    LineArithmetic,
    SubtotalMismatch,
    TotalMismatch,
    ParseDoubleCounted,
    UnparsableValue,
    UnparsedLine,
    MissingAmount,
    RaggedRow,
    UnclassifiedItems,
    MixedCurrency,
    HiddenShareIncrease,
    RateAboveReference,
    BillingRounding,
    UnusedCommitment,
    AboveContractedPrice,
    PlanCostlierThanOnDemand,
    AboveListPrice,
}

/// A figure of a bill that a share check compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The hidden fees: the categories that [`Category::is_hidden`].
    Hidden,
    /// What is paid for: the categories [`Category::in_subtotal`].
    Subtotal,
    /// One category's total.
    Total(Category),
}

impl Figure {
    /// The figure's name, as a report and the SQL back-end call it.
    pub fn name(self) -> &'static str {
        match self {
            Figure::Hidden => "hidden",
            Figure::Subtotal => "subtotal",
            Figure::Total(c) => c.as_str(),
        }
    }
}

/// What a share check compares: `sum(parts) / whole` against a threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    pub parts: &'static [Figure],
    pub whole: Figure,
    /// `None`: the check judges the bill only when `whole > 0`. `Some(f)`:
    /// only when `f > 0`, and then it fires when `whole <= 0` too.
    pub needs: Option<Figure>,
    /// The threshold's default, a fraction (`0.05` is 5%).
    pub default: Decimal,
    /// The command-line flag that sets the threshold (`--hidden-threshold`);
    /// billaudit.toml's `[thresholds]` key is the check's code.
    pub flag: &'static str,
    /// `SHARE` or `RATIO`, for the flag's help.
    pub value_name: &'static str,
    /// What the threshold bounds, for the flag's help.
    pub help: &'static str,
}

/// A check's row of the table. The texts are user documentation:
/// `billaudit explain CODE` prints them and `docs/checks.md` is generated
/// from them.
#[derive(Debug, Clone, Copy)]
pub struct CheckInfo {
    pub check: Check,
    /// Stable kebab-case code, e.g. `hidden-fee-share`.
    pub code: &'static str,
    pub default_severity: Severity,
    /// One line: when it fires.
    pub summary: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    /// The figures a share check compares, and its threshold.
    pub compares: Option<Ratio>,
}

/// Every check, in the order of the docs (and of [`Check`]'s variants).
pub const CHECKS: &[CheckInfo] = &[
    CheckInfo {
        check: Check::HiddenFeeShare,
        code: "hidden-fee-share",
        default_severity: Severity::Error,
        summary: "hidden fees (storage_replica + bandwidth + scheduling) above 5% of the subtotal",
        what: "Adds the three hidden-fee categories (storage_replica, bandwidth and scheduling) and divides them by the subtotal (every category except tax and credit). Fires when that share is above the threshold, 5% by default; exactly 5.00% passes. Set the threshold with `--hidden-threshold 5%` (or `0.05`).",
        why: "Hidden fees are what the price list does not show: replicas, traffic and scheduling fees billed beside the compute, which can grow to a large part of the total. A good bill keeps them at or under 5% of what you pay for.",
        example: "compute 900.00, storage 20.00, bandwidth 60.00, scheduling 20.00: hidden 80.00 of a subtotal of 1000.00 is 8.00%, above 5.00%.",
        compares: Some(Ratio {
            parts: &[Figure::Hidden],
            whole: Figure::Subtotal,
            needs: None,
            default: Decimal::from_parts(5, 0, 0, false, 2),
            flag: "hidden-threshold",
            value_name: "SHARE",
            help: "hidden / subtotal above this fails",
        }),
    },
    CheckInfo {
        check: Check::ReplicaShare,
        code: "replica-share",
        default_severity: Severity::Error,
        summary: "storage replicas (snapshots, backups, redundant copies) above 30% of the subtotal",
        what: "Divides the storage_replica total by the subtotal. Fires when the share is above the threshold, 30% by default. Set it with `--replica-threshold 30%`.",
        why: "Snapshots and backups that nobody prunes, and geo-redundant copies chosen by default, grow silently until they rival the compute they protect.",
        example: "storage_replica 350.00 of a subtotal of 1000.00 is 35.00%, above 30.00%.",
        compares: Some(Ratio {
            parts: &[Figure::Total(Category::StorageReplica)],
            whole: Figure::Subtotal,
            needs: None,
            default: Decimal::from_parts(30, 0, 0, false, 2),
            flag: "replica-threshold",
            value_name: "SHARE",
            help: "storage_replica / subtotal above this fails",
        }),
    },
    CheckInfo {
        check: Check::ReplicaRedundancy,
        code: "replica-redundancy",
        default_severity: Severity::Warning,
        summary: "(storage + storage_replica) / storage above 1.2x",
        what: "Compares what all copies of the data cost with what the primary storage costs: (storage + storage_replica) / storage. Fires above the threshold, 1.2x by default, and when replicas are billed with no primary storage at all. Set it with `--redundancy-threshold 1.2`.",
        why: "Erasure coding keeps redundancy near 1.2x the raw size; the industry average is 2.0x. A bill far above 1.2x pays for full copies where cheaper redundancy would do.",
        example: "storage 100.00 and storage_replica 100.00: redundancy 2.00x, above 1.2x.",
        compares: Some(Ratio {
            parts: &[
                Figure::Total(Category::Storage),
                Figure::Total(Category::StorageReplica),
            ],
            whole: Figure::Total(Category::Storage),
            needs: Some(Figure::Total(Category::StorageReplica)),
            default: Decimal::from_parts(12, 0, 0, false, 1),
            flag: "redundancy-threshold",
            value_name: "RATIO",
            help: "(storage + storage_replica) / storage above this",
        }),
    },
    CheckInfo {
        check: Check::SchedulingFeeShare,
        code: "scheduling-fee-share",
        default_severity: Severity::Warning,
        summary: "scheduling / cluster-management fees above 8% of compute",
        what: "Divides the scheduling total (cluster-management, control-plane, platform and orchestration fees) by the compute total. Fires above the threshold, 8% by default, and when scheduling is billed with no compute. Set it with `--scheduling-threshold 8%`.",
        why: "Cluster-management fees of 8-15% on top of compute are common and rarely on the price list. Above 8% they are worth negotiating or avoiding.",
        example: "compute 1000.00 and scheduling 120.00: 12.00% of compute, above 8.00%.",
        compares: Some(Ratio {
            parts: &[Figure::Total(Category::Scheduling)],
            whole: Figure::Total(Category::Compute),
            needs: Some(Figure::Total(Category::Scheduling)),
            default: Decimal::from_parts(8, 0, 0, false, 2),
            flag: "scheduling-threshold",
            value_name: "SHARE",
            help: "scheduling / compute above this",
        }),
    },
    CheckInfo {
        check: Check::IdleStorage,
        code: "idle-storage",
        default_severity: Severity::Warning,
        summary: "storage or replica charges fall on days with no compute charge",
        what: "Needs dated rows and at least one compute charge in the bill. For every `storage` and `storage_replica` row with a positive amount, takes the days it covers (its date, or every day from start to end) and compares them with the days that have a compute charge. When the bill has a resource id column and the storage row's resource also has compute rows (a pod's container disk, an instance's system disk), it is compared with that resource's own compute days; otherwise (a separate volume or snapshot, or a bill without resource ids) with the days on which anything in the bill computed. Rows are grouped by resource and item (description), and one finding per group gives the idle days and the amount on them; a row spanning several days is shared out evenly over its days, so that amount is an estimate (`about`). A group whose rows carry one date each, at most one per month, is billed monthly and dated when posted (a `GB-month` line on the 15th): its row is compared by month, and is idle only when nothing computed in that month. Memory is bounded: at most 10,000 storage groups, 50,000 storage rows and 100,000 (resource, compute day) pairs are kept per bill; rows beyond that are not compared, and the finding says so. Once a compute row of a resource has been dropped, no resource's own compute days are known whole, so every storage row is compared with the days on which anything in the bill computed (kept whole): a day with compute is never called idle.",
        why: "Storage that keeps billing after the GPU stops is the most common surprise on GPU-rental bills: RunPod container and network volumes, Vast.ai disks, AutoDL data disks and Lambda filesystems all charge while the instance is off. A day of storage with no compute is money spent on nothing running.",
        example: "`pod-7f3a` computes on 2025-10-01 only, but its container disk is billed on 2025-10-02 and 2025-10-03: storage for `pod-7f3a` billed on 2 days with no compute of its own, 5.00 USD.",
        compares: None,
    },
    CheckInfo {
        check: Check::IngressCharged,
        code: "ingress-charged",
        default_severity: Severity::Warning,
        summary: "a bandwidth line for inbound traffic has a non-zero amount",
        what: "Looks at every `bandwidth` line whose texts (description, classification columns, unit) say the traffic is inbound: `ingress`, `inbound`, AWS `-In-Bytes` and `DataTransfer-In`, `data transfer in`, and `入方向`, `入流量`, `流入`, `入网`, `入云`, and a GPU marketplace's `upload` charge. `下行` (downlink) alone is not taken as inbound: Huawei, Alibaba and Tencent consoles use it for traffic leaving the cloud towards users (Huawei's EIP `下行流量`/`downflow` is the billed outbound direction); a row counts as inbound only when it also names the direction into the cloud (`下行(入云)`). A line that also says outbound (`egress`, `outbound`, `出方向`, `流出`, `download`) is ambiguous and skipped. Fires when the amount is above zero; free inbound rows (amount 0) are not findings.",
        why: "Most providers do not charge for data coming in, so inbound traffic is the fee nobody budgets for: uploading a data set or pulling checkpoints across a peering link is billed per GB in both directions. The advice for GPU renters is to confirm that the bandwidth price covers both directions before moving data.",
        example: "Azure `Virtual Network / Virtual Network Peering / Intra-Region Ingress`, 120 GB, 1.20: inbound traffic charged.",
        compares: None,
    },
    CheckInfo {
        check: Check::DuplicateLine,
        code: "duplicate-line",
        default_severity: Severity::Warning,
        summary: "a row repeats an earlier row in every field that identifies a charge",
        what: "Compares every row with the earlier rows of the bill on the fields that identify a charge: resource id, item (the description, which joins the classification texts), period (start and end), quantity, unit, unit price, currency and amount, and also every other cell of the row except the columns that only number the rows (AWS `identity/LineItemId`, CUR 2.0 `identity_line_item_id`, OCI `lineItem/referenceNo`, `交易ID`, `订单号`, `流水号`): a column billaudit does not read, such as AWS `lineItem/Operation`, can make two rows different charges, while a fresh row number does not. The first row is kept; each later row identical in all of them is reported with the line of the first. Rows with a zero amount cost nothing twice and are skipped. Two rows that differ in any of those fields (the same amount for two different resources, days or quantities) are not duplicates. Memory stays bounded: a row is remembered as a 64-bit hash and its line, and at most 131,072 distinct rows are remembered at a time; past that the memory starts afresh, so a repeat more than that many distinct rows after its original can be missed in very large files.",
        why: "A charge billed twice is the plainest overcharge there is, and in an export of thousands of rows nobody sees it by eye. Re-exports, merged files and provider-side retries all produce it.",
        example: "Line 7 `2025-10-03, RTX 4090 GPU pod, pod-7f3a, 20, hours, 0.69, 13.80` repeats line 6 exactly: the 13.80 is charged twice.",
        compares: None,
    },
    CheckInfo {
        check: Check::BillingGranularity,
        code: "billing-granularity",
        default_severity: Severity::Warning,
        summary: "the bill's compute quantities show hourly or daily round-up",
        what: "A bill-level pattern, found once per bill. Looks at the compute lines whose quantity is in hours or days (`hours`, `h`, `小时`, `GPU-hour`, `卡时`, `days`, `天`) and that state both a start and an end time. Fires when none of them has a fractional quantity and at least one bills more whole units than the time between its start and end, by less than one unit and more than a minute (e.g. 3 hours for 2 h 10 min; an end written inclusively as `23:59:59` is not round-up). The finding counts those lines and estimates what per-second billing would have cost: the elapsed time x what each rounded line paid per unit (amount / quantity, so discounts are kept), against what they were billed. Lines billing a whole unit or more above their elapsed time (several GPUs on one line, or a minimum charge) are not counted either way. Any line with a fractional quantity means the provider bills finer than the hour, and the check stays quiet. Not the same as the per-line `billing-rounding` of the config file: that one flags single lines whose billed hours exceed the elapsed time by more than the granularity implied; this one says that the whole bill rounds up, and what that costs in sum.",
        why: "Hourly or daily round-up is a hidden fee in the granularity: a job of 2 h 10 min pays 3 hours, and short, frequent runs (tuning, evaluation, notebooks) can pay a third more than the time used. Platforms bill per millisecond, per second, per minute, per hour or per day; knowing which one a bill uses is part of comparing prices.",
        example: "Three GPU lines billed 3, 5 and 1 hours for 2 h 10 min, 4 h 5 min and 20 min of elapsed time at 2.00/hour: billed 18.00, per-second billing about 13.17.",
        compares: None,
    },
    CheckInfo {
        check: Check::LineArithmetic,
        code: "line-arithmetic",
        default_severity: Severity::Error,
        summary: "quantity x unit price differs from the amount",
        what: "For every line that states both a quantity and a unit price, multiplies them and compares the product with the amount. When the bill also has a list (pre-discount) amount, the product is compared with that instead, so discounts are not errors; a payable amount above the list amount is `above-list-price`'s finding, and its product is not compared. Fires when they differ by more than the rounding the bill itself shows: half a unit of the compared amount's last written decimal (0.005 for `12.30`), plus what rounding a quantity or price written with decimals can move the product (cloud exports round quantities like `0.0000142949` and prices like `0.011199923`; whole quantities are taken as exact). A product off by exactly a power of ten is a block price only when the line declares that block, and only a ratio equal to the declared block is excused (in either direction: single units x a price per block, or blocks x a price per unit). Declared blocks are recognised in the unit or price-unit column when it starts with a count of 10, 100, 1000, ... (`1K`, `10K`, `1M`, `1K requests`, `1000 Hours`, `100 GB/Month`, `10,000 units`, `1 Million`); in the unit, price unit or description after `per` or `每`, or straight after `/` (`per 1M requests`, `per 1,000`, `/10k`, `per million`, `per thousand`; not `Data disk / 100 GB`); and as a Chinese multiplier before a count word `次`, `个`, `条`, `请求` or `token` (`万次`, `千次`, `百万次`, `元/万次`, `每千次`). `1 Hour`, `1 GB` and `1/Day` declare no block; a tenfold or hundredfold difference on a plain unit (`hour`) is an error.",
        why: "A line whose arithmetic does not add up is either a billing error or a fee folded into the price. Either way somebody should look at it.",
        example: "`GPU hours, 20, 1.80, 37.00`: 20 x 1.80 = 36.00, but the line charges 37.00 (off by 1.00).",
        compares: None,
    },
    CheckInfo {
        check: Check::SubtotalMismatch,
        code: "subtotal-mismatch",
        default_severity: Severity::Error,
        summary: "the subtotal the bill states differs from the sum of its item lines",
        what: "When a bill states its own subtotal (a `Subtotal`/`小计` row of a CSV, the `Subtotal`/`小计` line of a text invoice), compares it with the sum of the item lines: every category except tax and credit. Many invoices print their discounts and credit notes as positions among the items (a Japanese `割引` position, a German `Gutschrift` position), and their subtotal is after those: a stated subtotal that equals the items plus the credits agrees too. Fires when it equals neither and differs by more than half a unit of the stated subtotal's last decimal (0.005 for `120.00`).",
        why: "A subtotal that its own lines do not add up to means an item is missing from the detail, or a charge was added to the subtotal only. It is the first figure to question, before tax and credits blur the picture.",
        example: "the items add up to 120.00 but the invoice states `Subtotal 125.00` (5.00 more than its lines).",
        compares: None,
    },
    CheckInfo {
        check: Check::TotalMismatch,
        code: "total-mismatch",
        default_severity: Severity::Error,
        summary: "the total the bill states differs from subtotal + tax + credits",
        what: "When a bill states its own total (a `Total`/`Balance due`/`合计`/`价税合计` row of a CSV, the `Total`/`Amount due`/`应付金额` line of a text invoice), compares it with the sum of all line items: the subtotal plus taxes plus credits (a CSV's `Tax`/`税额` and `Discount` summary rows are such items). When a bill states several totals, the last one is compared. Fires when they differ by more than half a unit of the stated total's last decimal (0.005 for `1230.00`). A stated subtotal is checked by `subtotal-mismatch`.",
        why: "A stated total that the lines don't add up to means a charge is missing from the detail, or was added to the total only. Both deserve a question to the provider.",
        example: "lines add up to 1,180.00 but the bill states `Total 1,230.00` (50.00 more than its lines).",
        compares: None,
    },
    CheckInfo {
        check: Check::ParseDoubleCounted,
        code: "parse-double-counted",
        default_severity: Severity::Error,
        summary: "a text invoice's items add up to a multiple of a stated total, or to several stated totals together: lines were read twice",
        what: "Compares the items of a text invoice (the sum of the item lines, and that sum with tax and credits) with every subtotal and total the invoice states, on every line, not only the last one. When no stated figure agrees with the items, but the items add up to a whole multiple of one of them (2x to 10x), or to the sum of two or more stated totals (not subtotals: per-section subtotals add up to the items by design), fires on the line of that stated figure. Agreement is within half a unit of the stated figure's last decimal, times the multiple. Silent when any stated figure agrees with the items (an invoice with per-section subtotals and a grand total that matches is fine), and on CSV exports.",
        why: "An invoice whose layout the reader does not know can restate a charge: a service line followed by an indented usage line with the same amount, a summary page and a detail page listing the same services. Each restatement is then counted as another charge, and every figure of the audit (the shares, the hidden fees) is wrong. `total-mismatch` says the totals differ; this check says why: the parse, not the vendor, is wrong, and the audit of this invoice must not be trusted until it is read correctly.",
        example: "the items add up to 3,091.00 and the invoice states `Total 1,545.50`: exactly 2 times the stated total, so each charge was probably read twice.",
        compares: None,
    },
    CheckInfo {
        check: Check::UnparsableValue,
        code: "unparsable-value",
        default_severity: Severity::Error,
        summary: "a money or quantity value could not be read; its row is kept out of the totals",
        what: "Fires for every cell in the amount, quantity, unit-price or list-amount column that is neither a number nor a placeholder (`-`, `--`, `NULL`, `N/A`, empty), and for cells that are not valid text in the file's encoding. The row is counted in `skipped_rows` and kept out of every total. The finding names the line and the column.",
        why: "Reading an unreadable value as zero silently drops money from the bill. A total you cannot trust is worse than no total.",
        example: "line 14, column `Amount`: `12,5O` is not a number (a letter O where a zero should be).",
        compares: None,
    },
    CheckInfo {
        check: Check::UnparsedLine,
        code: "unparsed-line",
        default_severity: Severity::Warning,
        summary: "a line of a text invoice was not understood; it is kept out of the totals",
        what: "Every non-blank line of a text invoice is read as a header field, a column heading, a rule line (`-----`), an item or a summary line (subtotal, tax, credit, total). A line that is none of these is reported with its line number, the column where reading stopped and its text, and counted in `skipped_rows`. It is not added to any total.",
        why: "Nothing is skipped in silence: a line the parser did not understand may be a charge (a wrapped description, an amount in an unusual form). If it was, the stated totals will not match either, and this finding says where to look.",
        example: "line 9, column 1: not an item, summary or header line: `Egress to internet (see attachment)`.",
        compares: None,
    },
    CheckInfo {
        check: Check::MissingAmount,
        code: "missing-amount",
        default_severity: Severity::Warning,
        summary: "a row has no amount (an empty cell or a placeholder); it is counted as skipped",
        what: "Fires for a data row whose amount cell is empty or a placeholder (`-`, `--`, `NULL`, `N/A`). The row is counted in `skipped_rows` and not added to any total. Rows that are entirely empty are counted as blank, without a finding. A tax or discount summary row (`VAT`, `Discount`) without a figure is no charge that lost its amount: it is a `summary` skip that the report names in a note, without this finding.",
        why: "A charge line without an amount is either a note or a charge the export lost. Counting it keeps every row accounted for.",
        example: "line 7: column `Cost` is empty; the row is kept out of the totals.",
        compares: None,
    },
    CheckInfo {
        check: Check::RaggedRow,
        code: "ragged-row",
        default_severity: Severity::Warning,
        summary: "a CSV row has more cells than its header; the reading taken (joined cells, or cells by position) is named",
        what: "Fires for a data row with more non-empty cells than the header has columns (empty cells after the last column, a trailing delimiter, are not counted). The usual cause is a delimiter inside a cell the export did not quote: a thousands separator (`A100 rental,1,234.50` under `Description,Amount`) or a comma in a description. billaudit tries every way of joining neighbouring cells back into one: into a money or quantity column only when the joined text is a grouped number (`1,234.50`; with decimal commas, `12,50`), into a text column (description, service, SKU) or a column no role reads with any text. A reading is taken when its row then reads without an unparsable value: the grouped-number readings first when they give the same amount, else the text readings when they all give the same amount. The finding names the cells joined and the value read. When no joining reads, or the readings disagree on the amount, the row is read by position (the cells past the header are not read) and the finding says so: check that row's amount. Rows of one shape (the same number of cells, read the same way) are one finding, on the first such row's line, with the exact number of rows and the first ten lines (`30 rows have this shape, read the same way: lines 2, 3, ... and 20 more`); rows of different shapes are findings of their own, under the per-code cap. Not in SQL: a table has no rows of the wrong width.",
        why: "A row whose cells slid one column to the right is read with the wrong amount and no error: `1,234.50` read as 1, with `234.50` dropped, makes a 1,234.50 charge cost 1. A spreadsheet that formats amounts with thousands separators and saves as CSV without quoting does exactly that, on every amount of 1,000 and more.",
        example: "line 2: 3 cells under a header of 2 columns: `1` and `234.50` read as one `Amount`, 1,234.50 (a thousands separator the export did not quote).",
        compares: None,
    },
    CheckInfo {
        check: Check::UnclassifiedItems,
        code: "unclassified-items",
        default_severity: Severity::Warning,
        summary: "items fell into `other` because no rule matched them",
        what: "Counts the line items that no classification rule matched, with their amount and the first line. Items that a rule deliberately puts in `other` (support plans, licences, early-delete penalties, and known kinds of managed service such as databases, analytics and monitoring, by their FOCUS service category) are not counted: an unclassified item is one billaudit does not know. Run `billaudit lines --unclassified` to list them.",
        why: "An unclassified item may be a hidden fee under a name the rules don't know. The hidden share is only as good as the classification behind it.",
        example: "3 items (42.10 USD) matched no rule; the first is at line 12: `Quantum flux capacitor`.",
        compares: None,
    },
    CheckInfo {
        check: Check::MixedCurrency,
        code: "mixed-currency",
        default_severity: Severity::Warning,
        summary: "one file holds charges in several currencies",
        what: "Fires on each bill of a file whose rows carry more than one currency. The file is split into one bill per currency, and each bill's figures use only its own rows; amounts are never converted.",
        why: "Adding USD to CNY gives a meaningless total. A file with several currencies usually mixes accounts or regions that should be audited separately.",
        example: "rows in USD and CNY: two bills, each with a `mixed-currency` warning naming both currencies.",
        compares: None,
    },
    CheckInfo {
        check: Check::HiddenShareIncrease,
        code: "hidden-share-increase",
        default_severity: Severity::Error,
        summary: "the hidden share grew by more than 1 percentage point since the baseline report",
        what: "With `--baseline report.json`, finds each bill (same path and currency) in the earlier JSON report and compares the hidden shares. Fires when the share grew by more than `--max-increase` percentage points (default 1). The report also lists the findings that are new since the baseline and those that vanished.",
        why: "A hidden share that creeps up month after month is how a bill gets expensive without anyone deciding it. Comparing with last month's report catches the trend early, even while the share is still under 5%.",
        example: "the baseline had a hidden share of 3.10%, this month's bill 4.60%: +1.50 points, above the 1-point limit.",
        compares: None,
    },
    CheckInfo {
        check: Check::RateAboveReference,
        code: "rate-above-reference",
        default_severity: Severity::Warning,
        summary: "a line's unit price is above its price-book entry",
        what: "For every line that matches a `[[price]]` entry of billaudit.toml (a case-insensitive substring of the description or classification texts, optionally a unit and a currency), takes the unit price (the unit price column, or amount / quantity) and compares it with the entry's `max`. Fires when it is above. The first matching entry is used. A line without a currency is compared as if it were in the entry's currency; a line in another currency is skipped. Off when the config has no price book.",
        why: "A GPU-hour billed above the market price is a hidden cost even when every line adds up. Market prices move; keep the book's `source` and date current (`examples/price-book.toml`).",
        example: "price book: `RTX 4090` at most 2.00 CNY per hour. `RTX 4090 GPU, 10 hours, 2.50, 25.00`: 2.50 CNY is 0.50 above 2.00 CNY, an overcharge of 5.00 CNY on 10 hours.",
        compares: None,
    },
    CheckInfo {
        check: Check::BillingRounding,
        code: "billing-rounding",
        default_severity: Severity::Warning,
        summary: "hours billed exceed the elapsed start-end time by more than the bill's own rounding",
        what: "For every line with a start and an end time and a quantity in hours (unit `h`, `hour(s)`, `hr(s)`, `GPU-hour`, `小时`, `卡时`), computes the elapsed hours. The granularity the bill implies is the half-unit of the quantity as written: `21` tolerates 0.5 h, `20.08` tolerates 0.005 h, `20.0833` tolerates 0.00005 h, so per-second billing passes. Fires when the quantity exceeds the elapsed time by more than that and equals the elapsed time rounded up to a whole hour or a whole day (so a line for 8 GPUs, 8 x the elapsed hours, is not mistaken for rounding). The overcharge is the amount x excess / quantity, at the amount's precision.",
        why: "Billing by the started hour or day quietly turns 20 h 05 min into 21 h. Over many short jobs the rounding can add 5-50% to a GPU bill; per-second billing is common and a fair comparison.",
        example: "`A100 pod, start 2025-10-01 00:00, end 2025-10-01 20:05, 21 hours, 1.89, 39.69`: 20.0833 h elapsed, billed 21 h, 0.9167 h rounded up, an overcharge of 1.73.",
        compares: None,
    },
    CheckInfo {
        check: Check::UnusedCommitment,
        code: "unused-commitment",
        default_severity: Severity::Warning,
        summary: "a commitment (reservation, savings plan) left more than 10% of its cost unused; above 25% an error",
        what: "Adds up, per commitment id, the commitment's cost in the bill and the part of it nobody used, and fires when the unused share is above 10% (a warning) or above 25% (an error); exactly 10.00% passes. FOCUS: the unused money is the `EffectiveCost` of the rows with `CommitmentDiscountStatus = Unused`, the commitment's cost the `EffectiveCost` of its `Used` and `Unused` rows together, grouped by `CommitmentDiscountId`. AWS CUR: on each `RIFee` row, `reservation/UnusedRecurringFee` + `reservation/UnusedAmortizedUpfrontFeeForBillingPeriod` of `lineItem/UnblendedCost` + `reservation/AmortizedUpfrontFeeForBillingPeriod`, by `reservation/ReservationARN`; on each `SavingsPlanRecurringFee` row, `savingsPlan/TotalCommitmentToDate` - `savingsPlan/UsedCommitment` of `savingsPlan/TotalCommitmentToDate`, by `savingsPlan/SavingsPlanARN`. Azure (amortised cost export): the cost of the `ChargeType = UnusedReservation` and `UnusedSavingsPlan` rows, of the cost of those and of the `Usage` rows with the same `ReservationId` (or `benefitId`). Only the amortised view is used, never the purchase: FOCUS `ChargeCategory = Purchase` rows and their `BilledCost` (the money billed for the commitment up front or monthly) are not added, so the money is counted once, and none of these figures changes the bill's totals, which stay the billed amounts. One finding per commitment, on its first row, with the unused amount, the cost and the share; when more than one commitment fires, one more finding on the whole bill gives the sums. Set the levels in billaudit.toml: `[thresholds] unused-commitment = \"10%\"` and `unused-commitment-error = \"25%\"`; a severity other than `warning` set in `[severity]` holds for both levels.",
        why: "A reserved GPU or a savings plan is paid every hour whether or not anything runs on it. The unused part is money paid for nothing, and it appears on no fee line: the bill only says it in the commitment columns. It is one of the largest hidden costs of committed cloud and GPU spend.",
        example: "FOCUS 1.2: reservation `ri-a100` covers 730 hours at 1.00 USD an hour; its `Used` rows cost 500.00 (EffectiveCost) and its `Unused` row 230.00: 230.00 USD of 730.00 USD unused (31.51%), above 25%: an error.",
        compares: None,
    },
    CheckInfo {
        check: Check::AboveContractedPrice,
        code: "above-contracted-price",
        default_severity: Severity::Error,
        summary: "a line is billed above the cost its contract states (FOCUS ContractedCost)",
        what: "For every line that states a contracted cost (FOCUS `ContractedCost`, or `ContractedUnitPrice` x `PricingQuantity` when that is empty or zero), compares the billed amount with it. Fires when the amount is above the contracted cost by more than half a unit of the amount's last decimal (0.005 for `300.00`), the rounding `line-arithmetic` allows. Not compared: lines without a positive contracted cost (exports write `0` where no contract price applies), negative amounts (credits), lines whose `EffectiveCost` is at or below the contracted cost (the negotiated price was given, in a discount row of its own as AWS writes them), and lines whose quantity x list unit price disagrees with their list cost (`line-arithmetic` reports them; a contracted cost computed from the same quantity cannot be trusted). One finding per line with both figures and the excess; when more than one line fires, one more finding on the whole bill gives their count and the sum of the excess.",
        why: "A negotiated rate that the bill does not apply is an overcharge no fee rule sees: every line adds up, only at the wrong price. FOCUS carries what the contract says beside what was billed, so the bill itself proves it.",
        example: "`GPU on-demand hours, 100 Hours, BilledCost 300.00, ContractedCost 270.00`: billed 300.00 USD where the contract says 270.00 USD, 30.00 USD above.",
        compares: None,
    },
    CheckInfo {
        check: Check::PlanCostlierThanOnDemand,
        code: "plan-costlier-than-on-demand",
        default_severity: Severity::Warning,
        summary: "a GPU rented by the month (or week, year, daily plan) cost more than its used hours on demand",
        what: "Per GPU model named by the bill's compute lines (`RTX 4090`, `A100`, ...): the plan lines are those whose unit is a month, week or year (`month`, `mo`, `月`, `个月`, `week`, `周`, `year`, `年`) or whose description says plan (`包月`, `包周`, `包日`, `包天`, `包年`, `monthly`, `weekly`, `daily plan`, `per month`, `subscription`, `reserved plan`); the other lines of that model with a quantity in a time unit (hours, days, minutes) give the hours used, and whatever they were billed is added to the plan's cost. The on-demand price is the first `[[price]]` entry of billaudit.toml whose pattern is in the first plan line's description and whose unit is an hour (or unset), in the bill's currency; when billaudit.toml has no `[[price]]` at all, the built-in price book's (`src/reprice/prices.toml`, as `reprice` uses it): the median of its hourly on-demand offers for the model in the bill's currency (of an even number, the higher middle one; the bill's currency must be known). A declared book is then the only source: a model it lacks is not compared. `rate-above-reference` never uses the built-in book. Fires when the plan (+ the usage charges) cost more than hours used x that price, by more than half a unit of the plan amount's last decimal, on the first plan line, with the effective price per used hour and the difference. Silent without an on-demand price for the model, or when the bill shows no usage lines for the plan's GPU (the hours used are unknown).",
        why: "A monthly GPU looks cheap per hour only when it runs most of the month. Rented by the month and used a few hundred hours, it can cost three times the on-demand price for the same hours; the bill shows the plan and the hours, never the comparison.",
        example: "price book (or, without billaudit.toml, the built-in median of 1.70, 2.00 and 9): `RTX 4090` at 2.00 CNY per hour on demand. `RTX 4090 包月, 1 月, 1260.00` and `RTX 4090 运行时长, 200 小时, 0.00`: the plan cost 1260.00 CNY for 200 hours used = 6.30 CNY/hour; on demand those hours cost 400.00 CNY: the plan cost 860.00 CNY more.",
        compares: None,
    },
    CheckInfo {
        check: Check::AboveListPrice,
        code: "above-list-price",
        default_severity: Severity::Error,
        summary: "a line is billed above its own list (pre-discount) amount",
        what: "For every line that states a list amount (FOCUS `ListCost`, a `List`, `原价` or `官网价` column), compares the billed amount with it. Fires when the amount is above the list amount by more than half a unit of the amount's last decimal (0.005 for `8.50`); for a refund (a negative list amount) when the credit is larger than listed. One finding per line with both figures and the excess; when more than one line fires, one more finding on the whole bill gives their count and the sum of the excess. Until issue 31 this was part of `line-arithmetic` (same lines, same message); `line-arithmetic` still does not compare quantity x unit price on such a line. A FOCUS line without `ListCost` but with `ListUnitPrice` is compared by `line-arithmetic` (quantity x list unit price against the amount).",
        why: "A discount is what a list price is for; a line billed above its own list price is a surcharge no fee line names, and the bill itself proves it.",
        example: "`Data disk 100 GB, 100 x 0.08, list 8.00, billed 8.50`: the amount 8.50 is above the list amount 8.00 (by 0.50).",
        compares: None,
    },
];

/// A threshold of a check that judges something other than the bill's
/// category totals (so not a [`Ratio`]): a billaudit.toml `[thresholds]`
/// key, its default, and the severity a finding above it has.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub check: Check,
    /// The `[thresholds]` key.
    pub key: &'static str,
    /// The default, a fraction (`0.10` is 10%).
    pub default: Decimal,
    /// The severity above this level (when `[severity]` does not set one).
    pub severity: Severity,
    pub help: &'static str,
}

/// The [`Limit`]s, lowest level of a check first.
pub const LIMITS: &[Limit] = &[
    Limit {
        check: Check::UnusedCommitment,
        key: "unused-commitment",
        default: Decimal::from_parts(10, 0, 0, false, 2),
        severity: Severity::Warning,
        help: "unused / cost of a commitment above this: a warning",
    },
    Limit {
        check: Check::UnusedCommitment,
        key: "unused-commitment-error",
        default: Decimal::from_parts(25, 0, 0, false, 2),
        severity: Severity::Error,
        help: "unused / cost of a commitment above this: an error",
    },
];

impl Check {
    /// Every check, in the order of [`CHECKS`], read from the table (a
    /// new check is its variant and its row).
    pub const ALL: [Check; CHECKS.len()] = {
        let mut all = [Check::HiddenFeeShare; CHECKS.len()];
        let mut i = 0;
        while i < CHECKS.len() {
            all[i] = CHECKS[i].check;
            i += 1;
        }
        all
    };

    /// The check's row of [`CHECKS`].
    pub const fn info(self) -> &'static CheckInfo {
        &CHECKS[self as usize]
    }

    /// The stable kebab-case code, e.g. `hidden-fee-share`.
    pub const fn code(self) -> &'static str {
        self.info().code
    }

    /// The code, as [`Category::as_str`] and [`Severity::as_str`] name theirs.
    pub const fn as_str(self) -> &'static str {
        self.code()
    }

    pub const fn default_severity(self) -> Severity {
        self.info().default_severity
    }

    /// What a share check compares; `None` for the other checks.
    pub const fn compares(self) -> Option<Ratio> {
        self.info().compares
    }

    /// The check with this code.
    pub fn from_code(code: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Every code, in the order of [`CHECKS`].
    pub fn codes() -> Vec<&'static str> {
        Check::ALL.map(Check::code).to_vec()
    }
}

/// The code; width and alignment apply (`{:<20}`), as for a `&str`.
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

/// Compares with a code as written (a test's or a user's text).
impl PartialEq<&str> for Check {
    fn eq(&self, code: &&str) -> bool {
        self.code() == *code
    }
}

impl PartialEq<str> for Check {
    fn eq(&self, code: &str) -> bool {
        self.code() == code
    }
}

impl Serialize for Check {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Check {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let code = String::deserialize(d)?;
        Check::from_code(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown check `{code}` (expected one of: {})",
                Check::codes().join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_order_of_the_variants() {
        for (i, c) in Check::ALL.into_iter().enumerate() {
            assert_eq!(CHECKS[i].check, c);
            assert_eq!(c as usize, i);
        }
        assert_eq!(CHECKS.len(), Check::ALL.len());
    }

    #[test]
    fn codes_are_unique_kebab_case_and_found_again() {
        let mut seen = std::collections::HashSet::new();
        for c in Check::ALL {
            assert!(seen.insert(c.code()), "{} twice", c.code());
            assert!(
                c.code()
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '-')
            );
            assert_eq!(Check::from_code(c.code()), Some(c));
            assert_eq!(c.to_string(), c.code());
            assert_eq!(format!("{c:<25}|"), format!("{:<25}|", c.code()));
        }
        assert_eq!(Check::from_code("no-such-check"), None);
    }

    #[test]
    fn a_check_serialises_as_its_code_and_back() {
        let c = Check::ALL[3];
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, format!("\"{}\"", c.code()));
        assert_eq!(serde_json::from_str::<Check>(&json).unwrap(), c);
        assert!(serde_json::from_str::<Check>("\"no-such-check\"").is_err());
    }
}
