//! The commitment and contract columns of a row (FOCUS `EffectiveCost`,
//! `ContractedCost`, `CommitmentDiscountStatus`; AWS CUR `reservation/...`
//! and `savingsPlan/...`; Azure `ChargeType`, `ReservationId`), read into a
//! [`Terms`] beside the line item. They are kept apart from the roles
//! (`--columns`): they never decide the amount, and a bill without them
//! reads exactly as before.
//!
//! A profile names them in its table (`Spec::terms`), one column per term,
//! aliases in priority order, as it names its roles.

use rust_decimal::Decimal;

use crate::model::Terms;

/// One commitment or contract column of a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    CommitmentId,
    Status,
    Effective,
    Contracted,
    ContractedUnitPrice,
    UnusedRecurring,
    UnusedUpfront,
    Upfront,
    CommitmentTotal,
    CommitmentUsed,
}

impl Term {
    /// Whether the column holds money (read as an exact decimal).
    pub(crate) fn is_figure(self) -> bool {
        matches!(slot(&mut Terms::default(), self), Slot::Figure(_))
    }
}

/// A cell of a term column, read by the row's normaliser.
pub(crate) enum TermCell<'r> {
    Text(&'r str),
    Figure(Decimal),
}

/// Where a term's value goes in a [`Terms`].
enum Slot<'t> {
    Text(&'t mut Option<String>),
    Figure(&'t mut Option<Decimal>),
}

fn slot(t: &mut Terms, term: Term) -> Slot<'_> {
    match term {
        Term::CommitmentId => Slot::Text(&mut t.commitment_id),
        Term::Status => Slot::Text(&mut t.status),
        Term::Effective => Slot::Figure(&mut t.effective),
        Term::Contracted => Slot::Figure(&mut t.contracted),
        Term::ContractedUnitPrice => Slot::Figure(&mut t.contracted_unit_price),
        Term::UnusedRecurring => Slot::Figure(&mut t.unused_recurring),
        Term::UnusedUpfront => Slot::Figure(&mut t.unused_upfront),
        Term::Upfront => Slot::Figure(&mut t.upfront),
        Term::CommitmentTotal => Slot::Figure(&mut t.commitment_total),
        Term::CommitmentUsed => Slot::Figure(&mut t.commitment_used),
    }
}

/// The terms of a row: `cell(column, is_figure)` reads one cell (`None`
/// for an empty cell or a placeholder, an error for an unreadable figure).
/// `None` when the row has none of them. A term mapped to several columns
/// takes the first filled one. `reuse`, the terms of the row the item was
/// built for before, is filled afresh instead of a new allocation a row.
pub(crate) fn read<'r, E>(
    columns: &[(Term, usize)],
    reuse: Option<Box<Terms>>,
    mut cell: impl FnMut(usize, bool) -> Result<Option<TermCell<'r>>, E>,
) -> Result<Option<Box<Terms>>, E> {
    let mut t = match reuse {
        Some(mut t) => {
            *t = Terms::default();
            t
        }
        None => Box::default(),
    };
    let mut any = false;
    for &(term, col) in columns {
        let filled = match slot(&mut t, term) {
            Slot::Text(s) => s.is_some(),
            Slot::Figure(s) => s.is_some(),
        };
        if filled {
            continue;
        }
        let Some(value) = cell(col, term.is_figure())? else {
            continue;
        };
        match (slot(&mut t, term), value) {
            (Slot::Text(s), TermCell::Text(v)) => *s = Some(v.to_string()),
            (Slot::Figure(s), TermCell::Figure(d)) => *s = Some(d),
            _ => continue,
        }
        any = true;
    }
    Ok(any.then_some(t))
}

/// The columns of `terms` (aliases per term, normalised) found among the
/// header's normalised `names`, every alias present, in alias order: the
/// first non-empty cell of a row wins (an AWS bill with reservations and
/// savings plans has both ARN columns, each filled on its own rows).
pub(crate) fn map(terms: &[(Term, Vec<String>)], names: &[String]) -> Vec<(Term, usize)> {
    terms
        .iter()
        .flat_map(|(t, aliases)| {
            aliases
                .iter()
                .filter_map(|a| names.iter().position(|n| !n.is_empty() && n == a))
                .map(move |i| (*t, i))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_map_by_first_alias_and_cells_fill_their_term() {
        let terms = vec![
            (Term::Effective, vec!["effectivecost".to_string()]),
            (
                Term::CommitmentId,
                vec!["x".to_string(), "commitmentdiscountid".to_string()],
            ),
            (Term::Contracted, vec!["contractedcost".to_string()]),
        ];
        let names: Vec<String> = ["billedcost", "commitmentdiscountid", "effectivecost"]
            .map(String::from)
            .to_vec();
        let cols = map(&terms, &names);
        assert_eq!(cols, [(Term::Effective, 2), (Term::CommitmentId, 1)]);
        // Two id columns: the first filled cell of the row wins.
        let two = vec![(Term::CommitmentId, vec!["a".to_string(), "b".to_string()])];
        let cols2 = map(&two, &["b".to_string(), "a".to_string()]);
        assert_eq!(cols2, [(Term::CommitmentId, 1), (Term::CommitmentId, 0)]);
        let row = [Some("sp-1"), None];
        let t2 = read::<()>(&cols2, None, |i, _| Ok(row[i].map(TermCell::Text)))
            .unwrap()
            .unwrap();
        assert_eq!(t2.commitment_id.as_deref(), Some("sp-1"));
        let cells = ["1.00", "ri-1", "0.25"];
        let t = read::<()>(&cols, None, |i, fig| {
            Ok(Some(if fig {
                TermCell::Figure(cells[i].parse().unwrap())
            } else {
                TermCell::Text(cells[i])
            }))
        })
        .unwrap()
        .unwrap();
        assert_eq!(t.effective, Some(Decimal::new(25, 2)));
        assert_eq!(t.commitment_id.as_deref(), Some("ri-1"));
        assert_eq!(t.contracted, None);
        // A row whose term cells are all empty has no terms.
        assert_eq!(read::<()>(&cols, None, |_, _| Ok(None)).unwrap(), None);
        // The terms of an earlier row are not carried over into the next.
        let old = read::<()>(&cols, None, |i, _| {
            Ok((i == 1).then_some(TermCell::Text("ri-1")))
        })
        .unwrap();
        assert_eq!(read::<()>(&cols, old, |_, _| Ok(None)).unwrap(), None);
        let old = read::<()>(&cols, None, |i, _| {
            Ok((i == 1).then_some(TermCell::Text("ri-1")))
        });
        let fresh = read::<()>(&cols, old.unwrap(), |i, _| {
            Ok((i == 2).then_some(TermCell::Figure(Decimal::ONE)))
        })
        .unwrap()
        .unwrap();
        assert_eq!(fresh.commitment_id, None);
        assert_eq!(fresh.effective, Some(Decimal::ONE));
    }
}
