use super::*;

fn cells(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn payable_wins_over_overlapping_money_columns() {
    let h = cells(&[
        "产品",
        "计费项",
        "原价",
        "应付金额",
        "现金支付",
        "代金券抵扣",
    ]);
    let m = map_header(&generic(), &h, &Vec::new(), CostBasis::Billed, false)
        .unwrap()
        .unwrap();
    assert_eq!(m.get(Role::Amount), Some(3));
    assert_eq!(m.get(Role::ListAmount), Some(2));
    assert_eq!(m.get(Role::Description), Some(1));
    assert_eq!(m.class_tiers, vec![vec![1], vec![0]]);
}

#[test]
fn currency_suffix_is_remembered() {
    let h = cells(&["产品", "单价(¥)", "使用量", "应付金额(¥)", "现金支付(¥)"]);
    let m = map_header(&generic(), &h, &Vec::new(), CostBasis::Billed, false)
        .unwrap()
        .unwrap();
    assert_eq!(m.get(Role::Amount), Some(3));
    assert_eq!(m.header_currency.as_deref(), Some("CNY"));
}

#[test]
fn a_title_line_is_not_a_header() {
    assert!(
        map_header(
            &generic(),
            &cells(&["Monthly bill for October"]),
            &Vec::new(),
            CostBasis::Billed,
            false
        )
        .is_none()
    );
    assert!(
        map_header(
            &generic(),
            &cells(&["Amount"]),
            &Vec::new(),
            CostBasis::Billed,
            false
        )
        .is_none()
    );
}

#[test]
fn role_names_round_trip() {
    for r in Role::ALL {
        assert_eq!(Role::parse(r.as_str()), Some(r), "{r:?}");
    }
    assert_eq!(Role::UnitPrice.as_str(), "unit_price");
    assert_eq!(Role::parse("Unit Price"), Some(Role::UnitPrice));
    assert_eq!(Role::parse("list-cost"), Some(Role::ListAmount));
    assert_eq!(Role::parse("cost"), Some(Role::Amount));
    assert_eq!(Role::parse("colour"), None);
    let names: Vec<&str> = CostBasis::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names, ["billed", "effective", "list", "contracted"]);
}

fn marker(values: &[&str]) -> Marker {
    Marker {
        column: "kind".into(),
        values: values.iter().map(|v| v.to_string()).collect(),
        category: Category::Tax,
        id: "test",
    }
}

#[test]
fn markers_match_whole_values_suffixes_and_prefixes() {
    let m = marker(&["tax"]);
    assert!(m.matches("TAX"));
    assert!(!m.matches("fee"));
    assert!(!m.matches("taxes"));
    let m = marker(&["*discount"]);
    assert!(m.matches("EdpDiscount"));
    assert!(m.matches("discount"));
    assert!(!m.matches("ab"));
    assert!(!m.matches("discounts"));
    // The suffix starts inside a multi-byte character: no match (and no panic).
    let m = marker(&["*ab"]);
    assert!(!m.matches("日日b"));
    let m = marker(&["退款*"]);
    assert!(m.matches("退款-退订"));
    assert!(!m.matches("退"));
    assert!(!m.matches("款退"));
}

#[test]
fn role_maps() {
    let mut r = RoleMap::default();
    assert!(r.is_empty());
    assert_eq!(r.insert(Role::Amount, 3), None);
    assert_eq!(r.insert(Role::Amount, 4), Some(3));
    assert_eq!(r.insert(Role::Description, 0), None);
    assert_eq!(r.len(), 2);
    assert!(!r.is_empty());
    assert_eq!(r.get(&Role::Amount), Some(&4));
    assert_eq!(r.get(&Role::Unit), None);
    let pairs: Vec<(Role, usize)> = r.iter().map(|(a, b)| (*a, *b)).collect();
    assert_eq!(pairs, vec![(Role::Description, 0), (Role::Amount, 4)]);
    assert_eq!(
        row_id_columns(&cells(&["cost", "record id", "identity/lineitemid"])),
        vec![1, 2]
    );
}

#[test]
fn currency_notes_and_descriptions() {
    let g = generic();
    let map = |h: &[&str]| {
        map_header(&g, &cells(h), &Vec::new(), CostBasis::Billed, false)
            .unwrap()
            .unwrap()
    };
    let m = map(&["Item", "Cost (USD)"]);
    assert_eq!(
        m.currency_note().as_deref(),
        Some("no currency column; assumed USD from the header `Cost (USD)`")
    );
    assert_eq!(m.describe(), "description=Item, amount=Cost (USD)");
    let m = map(&["Item", "Cost"]);
    assert_eq!(
        m.currency_note().as_deref(),
        Some("no currency column and no currency in the headers; the currency is unknown")
    );
    assert_eq!(map(&["Item", "Cost", "Currency"]).currency_note(), None);
}

/// A signed profile: recognised by 2 of `Cost`, `Sig A`, `Sig B`;
/// `Must` (or `Must Alt`) is required.
fn signed() -> Profile {
    let mut p = generic();
    p.name = "test".into();
    p.columns = vec![
        (Role::Description, v(&["Item"])),
        (Role::Amount, v(&["Cost"])),
        (Role::ListAmount, v(&["List"])),
    ];
    p.signature = v(&["Cost", "Sig A", "Sig B"]);
    p.signature_min = 2;
    p.required = vec![v(&["Must", "Must Alt"])];
    p.costs = vec![
        (CostBasis::Effective, "effective".into()),
        (CostBasis::List, "list".into()),
    ];
    p.display = vec!["Must".into(), "Cost".into()];
    p.cost_column = "Cost".into();
    p.class_tiers = vec![v(&["Item", "x_*"])];
    p.tag_prefixes = vec!["x_tag".into()];
    p.markers = vec![marker(&["tax"])];
    p.credit_list = Some("credits".into());
    p.date_formats = vec!["%d.%m.%Y".into()];
    p.date_order = Some(crate::normalise::date::DateOrder::DayFirst);
    p
}

#[test]
fn a_signed_profile_needs_its_signature_and_required_columns() {
    let p = signed();
    let try_map = |h: &[&str], forced: bool| {
        map_header(&p, &cells(h), &Vec::new(), CostBasis::Billed, forced)
    };
    // One signature column of the two needed: not this profile.
    assert!(try_map(&["Item", "Cost", "Must"], false).is_none());
    // Exactly two, and all three: mapped.
    let m = try_map(&["Item", "Cost", "Sig A", "Must"], false)
        .unwrap()
        .unwrap();
    assert_eq!(m.get(Role::Amount), Some(1));
    assert_eq!(m.get(Role::Description), Some(0));
    assert_eq!(m.names, cells(&["item", "cost", "sig a", "must"]));
    assert_eq!(m.date_formats, vec!["%d.%m.%Y".to_string()]);
    assert_eq!(
        m.date_order,
        Some(crate::normalise::date::DateOrder::DayFirst)
    );
    let m = try_map(&["Item", "Cost", "Sig A", "Sig B", "Must Alt"], false)
        .unwrap()
        .unwrap();
    assert_eq!(m.describe(), "description=Item, amount=Cost");
    // Recognised, but `Must` missing: reported by its display name.
    assert_eq!(
        try_map(&["Cost", "Sig A"], false).unwrap().unwrap_err(),
        MissingColumns {
            profile: "test".into(),
            columns: vec!["Must".into()],
        }
    );
    // Recognised by signature columns that map no role: both missing.
    assert_eq!(
        try_map(&["Sig A", "Sig B"], false)
            .unwrap()
            .unwrap_err()
            .columns,
        vec!["Cost".to_string(), "Must".into()]
    );
    // Forced: a title line is passed over ...
    assert!(try_map(&["Monthly bill"], true).is_none());
    // ... a row with a known column but no signature is this profile's,
    // with what it misses.
    assert_eq!(
        try_map(&["Item", "Note"], true)
            .unwrap()
            .unwrap_err()
            .columns,
        vec!["Cost".to_string(), "Must".into()]
    );
    // Forced with every column: mapped without the signature.
    assert!(try_map(&["Item", "Cost", "Must"], true).unwrap().is_ok());
}

#[test]
fn cost_basis_picks_the_amount_column() {
    let p = signed();
    let h = cells(&["Item", "Cost", "Effective", "List", "Sig A", "Must"]);
    let with = |cost| {
        map_header(&p, &h, &Vec::new(), cost, false)
            .unwrap()
            .unwrap()
    };
    let m = with(CostBasis::Billed);
    assert_eq!(
        (
            m.get(Role::Amount),
            m.get(Role::ListAmount),
            m.get(Role::Description)
        ),
        (Some(1), Some(3), Some(0))
    );
    let m = with(CostBasis::Effective);
    assert_eq!(
        (
            m.get(Role::Amount),
            m.get(Role::ListAmount),
            m.get(Role::Description)
        ),
        (Some(2), Some(3), Some(0))
    );
    // `--cost list`: the list column is the amount, not also the list amount.
    let m = with(CostBasis::List);
    assert_eq!(
        (
            m.get(Role::Amount),
            m.get(Role::ListAmount),
            m.get(Role::Description)
        ),
        (Some(3), None, Some(0))
    );
    // A chosen cost column that is absent is a missing column.
    let h = cells(&["Item", "Cost", "Sig A", "Must"]);
    assert_eq!(
        map_header(&p, &h, &Vec::new(), CostBasis::Effective, false)
            .unwrap()
            .unwrap_err()
            .columns,
        vec!["effective".to_string()]
    );
}

#[test]
fn tiers_markers_credits_and_tags() {
    let p = signed();
    let h = cells(&[
        "Item",
        "Cost",
        "Sig A",
        "Must",
        "x_tag:env",
        "x_sku",
        "Kind",
        "Credits",
    ]);
    let m = map_header(&p, &h, &Vec::new(), CostBasis::Billed, false)
        .unwrap()
        .unwrap();
    // `x_*` takes `x_sku` but not the tag column `x_tag:env`.
    assert_eq!(m.class_tiers, vec![vec![0, 5]]);
    assert_eq!(m.markers.len(), 1);
    assert_eq!(m.markers[0].0, 6);
    assert_eq!(m.credit_list, Some(7));
    // A description column outside every tier becomes tier 0.
    let mut p = signed();
    p.class_tiers = vec![v(&["x_*"])];
    let m = map_header(&p, &h, &Vec::new(), CostBasis::Billed, false)
        .unwrap()
        .unwrap();
    assert_eq!(m.class_tiers, vec![vec![0], vec![5]]);
    // A payment split never stands in as the amount.
    let mut g = generic();
    g.ignored = v(&["Cost"]);
    assert!(
        map_header(
            &g,
            &cells(&["Item", "Cost"]),
            &Vec::new(),
            CostBasis::Billed,
            false
        )
        .is_none()
    );
}

#[test]
fn overrides_map_unknown_headers() {
    let h = cells(&["Thing", "Money"]);
    assert!(map_header(&generic(), &h, &Vec::new(), CostBasis::Billed, false).is_none());
    let o = vec![
        (Role::Amount, "Money".to_string()),
        (Role::Description, "thing".into()),
    ];
    let m = map_header(&generic(), &h, &o, CostBasis::Billed, false)
        .unwrap()
        .unwrap();
    assert_eq!(m.get(Role::Amount), Some(1));
    assert_eq!(m.get(Role::Description), Some(0));
}
