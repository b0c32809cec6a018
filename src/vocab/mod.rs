//! The vocabulary every stage shares: words and names that bills use, each
//! defined once. The CSV reader, the text reader, the SQL back-end and the
//! reports all read these tables; none restates them.
//!
//! This module sits at the bottom of the stage order (rank 0 in
//! docs/architecture.md): it imports no stage, and every stage may import it.

pub(crate) mod category;
pub mod checks;
pub(crate) mod commitment;
pub mod currency;
pub(crate) mod focus;
pub(crate) mod headers;
pub(crate) mod invoice;
pub mod summary;
pub(crate) mod units;
