//! Value parsers that several tasks' flags share (the `--threads` one is
//! [`threads::parse_threads`](crate::threads::parse_threads)).

use clap::builder::RangedU64ValueParser;

/// The value parser of a table size in MiB: `1..=max`.
pub fn table_mib(max: usize) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=max as u64)
}
