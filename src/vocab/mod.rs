//! The vocabulary every stage shares: words and names that bills use, each
//! defined once. The CSV reader, the text reader, the SQL back-end and the
//! reports all read these tables; none restates them.
//!
//! This module sits at the bottom of the stage order (rank 0 in
//! docs/architecture.md): it imports no stage, and every stage may import it.

pub mod category;
pub mod checks;
pub mod commitment;
pub mod currency;
pub mod focus;
pub mod headers;
pub mod invoice;
pub mod summary;
pub mod units;
