//! A [`ColumnMap`] renumbered onto a record that holds only some of the
//! file's columns (a Parquet row's record holds only the columns a
//! profile reads, issue 27; see docs/decisions.md, "Parquet: a record of
//! only the read columns").

use super::profile::{ColumnMap, RoleMap};

impl ColumnMap {
    /// This map for records holding only the columns `held` (in the
    /// file's order, ascending): every column index becomes the place of
    /// that column in `held`, and the header names follow. Row-id columns
    /// that are not held are left out (a record without them has nothing
    /// to leave out of its fingerprint). `None` when a column the map
    /// reads is not held.
    pub fn projected(&self, held: &[usize]) -> Option<ColumnMap> {
        let at = |c: usize| held.binary_search(&c).ok();
        let mut roles = RoleMap::default();
        for (role, &c) in self.roles.iter() {
            roles.insert(*role, at(c)?);
        }
        let class_tiers = self
            .class_tiers
            .iter()
            .map(|tier| tier.iter().map(|&c| at(c)).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()?;
        let markers = self
            .markers
            .iter()
            .map(|(c, m)| Some((at(*c)?, m.clone())))
            .collect::<Option<Vec<_>>>()?;
        let terms = self
            .terms
            .iter()
            .map(|(t, c)| Some((*t, at(*c)?)))
            .collect::<Option<Vec<_>>>()?;
        let record_type = match &self.record_type {
            Some((c, types)) => Some((at(*c)?, types.clone())),
            None => None,
        };
        let column = |c: Option<usize>| match c {
            Some(c) => at(c).map(Some),
            None => Some(None),
        };
        let pick = |v: &[String]| -> Vec<String> {
            held.iter()
                .map(|&c| v.get(c).cloned().unwrap_or_default())
                .collect()
        };
        Some(ColumnMap {
            date_formats: self.date_formats.clone(),
            date_order: self.date_order,
            roles,
            class_tiers,
            markers,
            header_currency: self.header_currency.clone(),
            header_currency_column: column(self.header_currency_column)?,
            names: pick(&self.names),
            raw: pick(&self.raw),
            credit_list: column(self.credit_list)?,
            row_ids: self.row_ids.iter().filter_map(|&c| at(c)).collect(),
            record_type,
            terms,
            amount_includes_tax: self.amount_includes_tax,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::profile::{ColumnMap, Role};

    #[test]
    fn columns_are_renumbered_onto_the_held_ones() {
        let mut map = ColumnMap::default();
        let names = ["id", "zeta", "desc", "eta", "cost", "cur"];
        map.raw = names.iter().map(|s| s.to_string()).collect();
        map.names = map.raw.clone();
        map.roles.insert(Role::Amount, 4);
        map.roles.insert(Role::Currency, 5);
        map.class_tiers = vec![vec![2]];
        map.row_ids = vec![0, 1];
        map.credit_list = Some(3);
        // Held: id, desc, eta, cost, cur (zeta and the row id zeta is not).
        let p = map
            .projected(&[0, 2, 3, 4, 5])
            .expect("every read column held");
        // cost is the 4th held column (place 3), cur the 5th (4).
        assert_eq!(
            (p.get(Role::Amount), p.get(Role::Currency)),
            (Some(3), Some(4))
        );
        assert_eq!(p.class_tiers, vec![vec![1]]);
        assert_eq!(p.credit_list, Some(2));
        // Row id 1 (zeta) is not held: left out; row id 0 stays at 0.
        assert_eq!(p.row_ids, vec![0]);
        assert_eq!(p.raw, ["id", "desc", "eta", "cost", "cur"]);
        // The description (column 2) is read: without it, no projection.
        assert!(map.projected(&[0, 3, 4, 5]).is_none());
    }
}
