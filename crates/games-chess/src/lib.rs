//! Chess for `search-core`, on `shakmaty`.

#![deny(missing_docs)]
