use super::*;

fn dt(s: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
}

#[test]
fn formats_seen_in_real_exports() {
    assert_eq!(
        parse_datetime("2025-10-01 08:30:00"),
        Some(dt("2025-10-01 08:30:00"))
    );
    assert_eq!(
        parse_datetime("2020/07/02 08:36"),
        Some(dt("2020-07-02 08:36:00"))
    );
    assert_eq!(
        parse_datetime("2020-08-23 22:00:00 GMT+08:00"),
        Some(dt("2020-08-23 22:00:00"))
    );
    assert_eq!(
        parse_datetime("2023-11-01T00:00:00.000Z"),
        Some(dt("2023-11-01 00:00:00"))
    );
    assert_eq!(
        parse_datetime("2023-11-01T00:00:00Z"),
        Some(dt("2023-11-01 00:00:00"))
    );
    assert_eq!(
        parse_datetime("2024-09-18T22:00:00+08:00"),
        Some(dt("2024-09-18 22:00:00"))
    );
    assert_eq!(parse_datetime("9/2/2023"), Some(dt("2023-09-02 00:00:00")));
    assert_eq!(parse_datetime("2025-10"), Some(dt("2025-10-01 00:00:00")));
    assert_eq!(
        parse_datetime("2025年10月"),
        Some(dt("2025-10-01 00:00:00"))
    );
    assert_eq!(parse_datetime("Oct 2025"), Some(dt("2025-10-01 00:00:00")));
    assert_eq!(
        parse_datetime("2025年10月3日"),
        Some(dt("2025-10-03 00:00:00"))
    );
    assert_eq!(parse_datetime("not a date"), None);
    assert_eq!(parse_datetime("2025-13-01"), None);
}

#[test]
fn the_fast_path_agrees_with_the_formats() {
    for s in [
        "2024-09-18 22:00:00",
        "2024-09-18T22:00:00",
        "2024-09-18 22:00",
        "2024-09-18",
        "2023-11-01T00:00:00.000",
        "2022-08-02 01:11:12.066000",
        "2024-02-29 23:59:59",
    ] {
        let slow = DATETIME_FORMATS
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
            .or_else(|| parse_date(s).map(|d| d.and_time(NaiveTime::MIN)));
        assert_eq!(iso_fast(s), slow, "{s}");
    }
    for s in [
        "2023-02-29",
        "2024-13-01 00:00:00",
        "2024-01-01 25:00:00",
        "2024-01-01 10:00:00 GMT+08:00-2024-01-01 11:00:00",
        "2024-1-01",
        "2024-01-01x",
        "2024-01-01 10:00:00.1234567890",
    ] {
        assert_eq!(iso_fast(s), None, "{s}");
    }
}

#[test]
fn slashed_dates_follow_the_file_order() {
    let (m, d) = (DateOrder::MonthFirst, DateOrder::DayFirst);
    // 02/05/2024: 5 February month-first, 2 May day-first.
    assert_eq!(
        parse_datetime_in("02/05/2024", m),
        Some(dt("2024-02-05 00:00:00"))
    );
    assert_eq!(
        parse_datetime_in("02/05/2024", d),
        Some(dt("2024-05-02 00:00:00"))
    );
    assert_eq!(
        parse_datetime_in("02/05/2024 10:30", d),
        Some(dt("2024-05-02 10:30:00"))
    );
    // Only one order reads these: never lost, whatever the file's order.
    assert_eq!(
        parse_datetime_in("13/05/2024", m),
        Some(dt("2024-05-13 00:00:00"))
    );
    assert_eq!(
        parse_datetime_in("05/13/2024", d),
        Some(dt("2024-05-13 00:00:00"))
    );
    // Other forms do not depend on it.
    assert_eq!(
        parse_datetime_in("2024/05/02", d),
        Some(dt("2024-05-02 00:00:00"))
    );
    assert_eq!(
        parse_datetime_in("2024-05-02", d),
        Some(dt("2024-05-02 00:00:00"))
    );
    assert_eq!(
        parse_range_in("01/02/2024 - 03/02/2024", d),
        Some((dt("2024-02-01 00:00:00"), dt("2024-02-03 00:00:00")))
    );
}

#[test]
fn evidence_for_the_order() {
    use SlashEvidence::*;
    assert_eq!(
        slash_evidence("13/05/2024"),
        Some(Proves(DateOrder::DayFirst))
    );
    assert_eq!(
        slash_evidence("05/13/2024 10:00"),
        Some(Proves(DateOrder::MonthFirst))
    );
    assert_eq!(slash_evidence("02/05/2024"), Some(Ambiguous));
    assert_eq!(slash_evidence("9/2/2023"), Some(Ambiguous));
    assert_eq!(
        slash_evidence("01/02/2024 - 25/02/2024"),
        Some(Proves(DateOrder::DayFirst))
    );
    assert_eq!(slash_evidence("2024/05/13"), None);
    assert_eq!(slash_evidence("2024-05-13"), None);
    assert_eq!(slash_evidence("13/13/2024"), None);
    assert_eq!(slash_evidence("A100 1/2"), None);
    assert_eq!(DateOrder::parse("DMY"), Some(DateOrder::DayFirst));
    assert_eq!(DateOrder::parse("ymd"), None);
}

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

#[test]
fn order_names_round_trip() {
    use DateOrder::*;
    assert_eq!(DateOrder::parse("mdy"), Some(MonthFirst));
    assert_eq!(DateOrder::parse(" dmy "), Some(DayFirst));
    assert_eq!(DateOrder::parse(""), None);
    assert_eq!(MonthFirst.as_str(), "mdy");
    assert_eq!(DayFirst.as_str(), "dmy");
    assert_eq!(
        MonthFirst.describe(),
        "month-first (mdy: 03/04/2024 is 4 March)"
    );
    assert_eq!(
        DayFirst.describe(),
        "day-first (dmy: 03/04/2024 is 3 April)"
    );
}

#[test]
fn proves_only_from_dates_one_order_reads() {
    assert_eq!(proves("13/05/2024"), Some(DateOrder::DayFirst));
    assert_eq!(proves("05/13/2024"), Some(DateOrder::MonthFirst));
    assert_eq!(proves("02/05/2024"), None);
    assert_eq!(proves("2024-05-13"), None);
}

#[test]
fn evidence_is_read_only_from_whole_fields() {
    use SlashEvidence::*;
    // A date after text counts.
    assert_eq!(
        slash_evidence("on 13/05/2024"),
        Some(Proves(DateOrder::DayFirst))
    );
    // `113/05/2024`: the first field has three digits; `13` inside it is
    // not a day.
    assert_eq!(slash_evidence("113/05/2024"), None);
    // `1/13/05/2024`: four slashed fields are not a date, and `13/05/2024`
    // inside them does not count.
    assert_eq!(slash_evidence("1/13/05/2024"), None);
    // A month field of three digits (`005`) is not a month.
    assert_eq!(slash_evidence("13/005/2024"), None);
    // A year of two digits is not a year.
    assert_eq!(slash_evidence("13/05/24"), None);
    // 12 is a month in either place: 12/05 and 05/12 read either way.
    assert_eq!(slash_evidence("12/05/2024"), Some(Ambiguous));
    assert_eq!(slash_evidence("05/12/2024"), Some(Ambiguous));
    assert_eq!(slash_evidence("12/12/2024"), Some(Ambiguous));
    // Day 31 with month 12 proves day-first; 32 is no day at all.
    assert_eq!(
        slash_evidence("31/12/2024"),
        Some(Proves(DateOrder::DayFirst))
    );
    assert_eq!(
        slash_evidence("12/31/2024"),
        Some(Proves(DateOrder::MonthFirst))
    );
    assert_eq!(slash_evidence("32/12/2024"), None);
    // An impossible first date does not hide a later one that proves.
    assert_eq!(
        slash_evidence("32/12/2024 - 05/13/2024"),
        Some(Proves(DateOrder::MonthFirst))
    );
}

fn scan(stated: Option<DateOrder>, cells: &[&str]) -> DateScan {
    DateScan::decide(stated, cells.iter().copied())
}

#[test]
fn the_order_is_decided_by_evidence_then_majority() {
    use DateOrder::*;
    use OrderBasis::*;
    // Cells: E = reads either way, D = proves day-first, M = month-first.
    let (e, dd, m) = ("02/05/2024", "13/05/2024", "05/13/2024");
    let got = |s: DateScan| (s.order, s.basis, s.scanned);
    // D only (plus E and a non-slashed date): day-first from evidence.
    assert_eq!(
        got(scan(None, &[e, dd, "2024-05-01", dd])),
        (DayFirst, Evidence, (1, 2, 0))
    );
    assert_eq!(got(scan(None, &[m, e])), (MonthFirst, Evidence, (1, 0, 1)));
    assert_eq!(
        got(scan(None, &[e, e, e])),
        (MonthFirst, Assumed, (3, 0, 0))
    );
    assert_eq!(
        got(scan(None, &["2024-05-01", "x"])),
        (MonthFirst, NoSlashedDates, (0, 0, 0))
    );
    // Both orders proven: the majority decides (2 D > 1 M; 1 D < 2 M);
    // a tie is month-first.
    assert_eq!(
        got(scan(None, &[dd, m, dd])),
        (DayFirst, Conflicting, (0, 2, 1))
    );
    assert_eq!(
        got(scan(None, &[dd, m, m, e])),
        (MonthFirst, Conflicting, (1, 1, 2))
    );
    assert_eq!(
        got(scan(None, &[dd, m])),
        (MonthFirst, Conflicting, (0, 1, 1))
    );
    // A stated order wins over any evidence; the counts are still kept.
    assert_eq!(
        got(scan(Some(DayFirst), &[m, m])),
        (DayFirst, Stated, (0, 0, 2))
    );
    // The scan reads cells in its order.
    let s = scan(None, &[dd]);
    assert_eq!(s.datetime("02/05/2024"), Some(dt("2024-05-02 00:00:00")));
    assert_eq!(
        s.range("01/02/2024 - 03/02/2024"),
        Some((dt("2024-02-01 00:00:00"), dt("2024-02-03 00:00:00")))
    );
}

#[test]
fn the_order_note() {
    use DateOrder::*;
    const STATE: &str = "state `date-order` in a [[profile]] of billaudit.toml";
    let (e, dd, m) = ("02/05/2024", "13/05/2024", "05/13/2024");
    // Assumed month-first, nothing later proves either order.
    let assumed = scan(None, &[e, e, e]);
    assert_eq!(
        assumed.note(|_| None).as_deref(),
        Some(format!("dates: every slashed date in the first rows (3) reads either way; month-first (mdy: 03/04/2024 is 4 March) was assumed; {STATE} to decide").as_str())
    );
    // Assumed, and line 9 proves month-first: confirmed, no note.
    assert_eq!(assumed.note(|o| (o == MonthFirst).then_some(9)), None);
    // Assumed, and line 42 proves day-first: the earlier reading may be wrong.
    assert_eq!(
        assumed.note(|o| (o == DayFirst).then_some(42)).as_deref(),
        Some(format!("slashed dates were read month-first (mdy: 03/04/2024 is 4 March) (assumed), but line 42 has a date only dmy reads; dates that read either way may be wrong: {STATE}").as_str())
    );
    // Evidence, nothing against it: no note.
    let evidence = scan(None, &[dd]);
    assert_eq!(evidence.note(|o| (o == DayFirst).then_some(2)), None);
    assert_eq!(
        evidence.note(|o| (o == MonthFirst).then_some(7)).as_deref(),
        Some(format!("slashed dates were read day-first (dmy: 03/04/2024 is 3 April) (from the first rows), but line 7 has a date only mdy reads; dates that read either way may be wrong: {STATE}").as_str())
    );
    // Stated: only a row against it gives a note.
    let stated = scan(Some(DayFirst), &[]);
    assert_eq!(stated.note(|_| None), None);
    assert_eq!(
        stated.note(|o| (o == MonthFirst).then_some(3)).as_deref(),
        Some(format!("slashed dates were read day-first (dmy: 03/04/2024 is 3 April) (the profile's date-order), but line 3 has a date only mdy reads; dates that read either way may be wrong: {STATE}").as_str())
    );
    // Conflicting: always the note on the first rows, whatever later rows prove.
    let conflicting = scan(None, &[dd, m, m, e]);
    let want = format!(
        "dates: the first rows hold slashed dates of both orders (1 only day-first reads, 2 only month-first); month-first (mdy: 03/04/2024 is 4 March) was taken for the 1 that read either way; {STATE} to decide"
    );
    for proof in [None, Some(5)] {
        assert_eq!(conflicting.note(|_| proof).as_deref(), Some(want.as_str()));
        assert_eq!(
            conflicting
                .note(|o| (o == MonthFirst).then_some(5).or(proof))
                .as_deref(),
            Some(want.as_str())
        );
    }
}

#[test]
fn iso_fast_refuses_near_misses() {
    for s in [
        "2024-05x02",
        "2024x05-02",
        "2024-09-18 22x00",
        "2024-09-18x22:00",
        "2024-09-18 22:00x00",
        "2024-09-18 22:00:00x5",
        "2024-09-18 22:00:",
    ] {
        assert_eq!(iso_fast(s), None, "{s}");
        assert_eq!(parse_datetime(s), None, "{s}");
    }
    // Nine digits of fraction are the most a nanosecond holds.
    assert_eq!(
        iso_fast("2024-09-18 22:00:00.123456789"),
        Some(dt("2024-09-18 22:00:00") + chrono::Duration::nanoseconds(123_456_789))
    );
    assert_eq!(
        iso_fast("2024-09-18 22:00:00.5"),
        Some(dt("2024-09-18 22:00:00") + chrono::Duration::milliseconds(500))
    );
}

#[test]
fn offsets_are_dropped_and_the_wall_clock_kept() {
    // docs/decisions.md: the time written in the file is kept; the offset
    // is read and dropped (22:00 at +08:00 stays 22:00, not 14:00 UTC).
    for s in [
        "2024-09-18T22:00:00+08:00",
        "2024-09-18T22:00:00-05:00",
        "2024-09-18T22:00:00+08",
        "2024-09-18 22:00:00 +0800",
        "2024-09-18 22:00:00 UTC",
        "2024-09-18 22:00:00 GMT",
        "2024-09-18 22:00:00 GMT+08:00",
        "2024-09-18 22:00:00Z",
    ] {
        assert_eq!(parse_datetime(s), Some(dt("2024-09-18 22:00:00")), "{s}");
    }
    // Not offsets: a letter inside, or no time before them.
    assert_eq!(parse_datetime("2024-01-01 10:00:00+08x00"), None);
    assert_eq!(parse_datetime("2024-01-01 10:00:00+0a:00"), None);
    // `-2024` after `05-Oct` is a year, not an offset.
    assert_eq!(
        parse_datetime("05-Oct-2024"),
        Some(dt("2024-10-05 00:00:00"))
    );
    // Seconds after minutes are not an offset either.
    assert_eq!(
        parse_datetime("2020/07/02 08:36:12"),
        Some(dt("2020-07-02 08:36:12"))
    );
    assert_eq!(
        parse_datetime_in("02/05/2024 10:30:00", DateOrder::DayFirst),
        Some(dt("2024-05-02 10:30:00"))
    );
    // Multi-byte text at the end is looked at on character boundaries only.
    assert_eq!(parse_datetime("2024-01-01 10:00 日日"), None);
}

#[test]
fn months_alone() {
    assert_eq!(parse_month("202510"), Some(day("2025-10-01")));
    assert_eq!(parse_month("2025/10"), Some(day("2025-10-01")));
    assert_eq!(parse_month("2025.1"), Some(day("2025-01-01")));
    assert_eq!(parse_month("October 2025"), Some(day("2025-10-01")));
    // Five digits are neither `yyyymm` nor a year.
    assert_eq!(parse_month("20251"), None);
    assert_eq!(parse_month("02025-10"), None);
    // Years outside 1900..=2200 are not billing months.
    assert_eq!(parse_month("1899-12"), None);
    assert_eq!(parse_month("2025-13"), None);
    // `Oct 25` is no month of year 25 (it was read as 0025-10-01): the
    // year range holds for month names too.
    assert_eq!(parse_month("Oct 25"), None);
    assert_eq!(parse_datetime("Oct 25"), None);
    assert_eq!(parse_month("Oct 2201"), None);
    assert_eq!(parse_month("Dec 2200"), Some(day("2200-12-01")));
}

#[test]
fn length_limits() {
    // A cell of 64 bytes is read, 65 is not: `2024-01-01`, spaces, `10:00`
    // (chrono reads any run of spaces where the format has one).
    let at = |n: usize| format!("2024-01-01{}10:00", " ".repeat(n - 15));
    assert_eq!(parse_datetime(&at(64)), Some(dt("2024-01-01 10:00:00")));
    assert_eq!(parse_datetime(&at(65)), None);
    let date_at = |n: usize| format!("Oct{}01, 2024", " ".repeat(n - 11));
    assert_eq!(parse_date(&date_at(64)), Some(day("2024-10-01")));
    assert_eq!(parse_date(&date_at(65)), None);
    // A range cell of 128 bytes is read, 129 is not.
    let range_at = |n: usize| format!("2024-01-01{}-2024-01-02", " ".repeat(n - 21));
    assert_eq!(
        parse_range(&range_at(128)),
        Some((dt("2024-01-01 00:00:00"), dt("2024-01-02 00:00:00")))
    );
    assert_eq!(parse_range(&range_at(129)), None);
}

#[test]
fn a_range_ends_after_it_starts() {
    // Same day both ends is a range; an end before the start is not
    // (and `2025-10-31 - 2025-10-01` has no other split that reads).
    assert_eq!(
        parse_range("2025-10-01 - 2025-10-01"),
        Some((dt("2025-10-01 00:00:00"), dt("2025-10-01 00:00:00")))
    );
    assert_eq!(parse_range("2025-10-31 - 2025-10-01"), None);
    assert_eq!(
        parse_range("2025-10-01 to 2025-10-31"),
        Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
    );
    // ... with ` to ` as with a dash (it was read end before start).
    assert_eq!(parse_range("2025-10-31 to 2025-10-01"), None);
}

#[test]
fn ranges_are_read_whole() {
    assert_eq!(
        parse_range("2020-08-23 22:00:00 GMT+08:00-2020-08-23 23:00:00 GMT+08:00"),
        Some((dt("2020-08-23 22:00:00"), dt("2020-08-23 23:00:00")))
    );
    assert_eq!(
        parse_range("2023-11-01T00:00:00Z/2023-11-02T00:00:00Z"),
        Some((dt("2023-11-01 00:00:00"), dt("2023-11-02 00:00:00")))
    );
    assert_eq!(
        parse_range("2025-10-01 - 2025-10-31"),
        Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
    );
    assert_eq!(
        parse_range("2025-10-01至2025-10-31"),
        Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
    );
    assert_eq!(parse_range("2025-10-01"), None);
}

/// The offset fast path gives what stripping the offset and trying every
/// format gives (chrono's own parsing of the formats), and it does fire on
/// the FOCUS forms: `Z` and `+HH:MM`/`-HH:MM` after a time.
#[test]
fn the_offset_fast_path_agrees_with_stripping_and_the_formats() {
    let slow = |s: &str| {
        let t = strip_offset(s.trim());
        DATETIME_FORMATS
            .iter()
            .find_map(|f| NaiveDateTime::parse_from_str(t, f).ok())
            .or_else(|| parse_date(t).map(|d| d.and_time(NaiveTime::MIN)))
    };
    let times = [
        "2024-05-20T18:00:00",
        "2024-05-20 18:00:00",
        "2024-05-20T18:00",
        "2024-05-20T18:00:00.123",
        "2024-05-20T18:00:00.5",
        "2024-02-29T23:59:59",
    ];
    for t in times {
        for tail in ["Z", "+08:00", "-05:00", "+00:00"] {
            let s = format!("{t}{tail}");
            let fast = iso_offset_fast(&s);
            assert!(fast.is_some(), "{s}: the fast path must read it");
            assert_eq!(fast, slow(&s), "{s}");
            assert_eq!(parse_datetime(&s), fast, "{s}");
            for order in [DateOrder::DayFirst, DateOrder::MonthFirst] {
                assert_eq!(parse_datetime_in(&s, order), fast, "{s} {order:?}");
            }
        }
    }
    // Near misses and other forms: what the fast path reads, if anything,
    // is what the formats read, and parsing is unchanged.
    for s in [
        "2024-05-20Z",
        "2024-05-20+08:00",
        "2024-05-20T18:00:00ZZ",
        "2024-05-20T18:00:00+0800",
        "2024-05-20T18:00:00+08:0x",
        "2024-05-20T18:00:00 08:00",
        "2024-05-20T18:00:00+8:000",
        "2023-02-29T18:00:00Z",
        "2024-05-20T25:00:00Z",
        "2024-05-20T18:00:00.1234567890Z",
        "2024-05-20T18:00:00 UTCZ",
    ] {
        if let Some(fast) = iso_offset_fast(s) {
            assert_eq!(Some(fast), slow(s), "{s}");
        }
        assert_eq!(parse_datetime(s), slow(s), "{s}");
    }
    assert_eq!(
        parse_datetime("2024-05-20T18:00:00Z"),
        Some(dt("2024-05-20 18:00:00"))
    );
}

/// The memo of dates gives what parsing gives, for the same cell asked
/// again, for cells that share a slot, in either order, for a cell longer
/// than a slot holds, and for a cell that is no date. The dates are the
/// cells' own, written out.
#[test]
fn remembered_dates_are_the_parsed_ones() {
    let d = |y, m, day, h| {
        NaiveDate::from_ymd_opt(y, m, day)
            .unwrap()
            .and_hms_opt(h, 0, 0)
            .unwrap()
    };
    let cases = [
        (
            "2025-10-01T01:00:00Z",
            DateOrder::MonthFirst,
            Some(d(2025, 10, 1, 1)),
        ),
        ("03/04/2024", DateOrder::MonthFirst, Some(d(2024, 3, 4, 0))),
        ("03/04/2024", DateOrder::DayFirst, Some(d(2024, 4, 3, 0))),
        (
            "2025-10-01T01:00:00.000000000000000+00:00",
            DateOrder::MonthFirst,
            Some(d(2025, 10, 1, 1)),
        ),
        ("not a date", DateOrder::MonthFirst, None),
    ];
    for _ in 0..2 {
        for (cell, order, want) in cases {
            assert_eq!(remembered(cell, order), want, "{cell}");
            assert_eq!(
                remembered(cell, order),
                parse_datetime_in(cell, order),
                "{cell}"
            );
        }
    }
    // Enough distinct cells that many share a slot: each still its own.
    for round in 0..2 {
        for h in 0..24 {
            for day in 1..=28 {
                let cell = format!("2025-02-{day:02}T{h:02}:00:00Z");
                let got = remembered(&cell, DateOrder::MonthFirst);
                assert_eq!(got, Some(d(2025, 2, day, h)), "{cell}, round {round}");
            }
        }
    }
}
