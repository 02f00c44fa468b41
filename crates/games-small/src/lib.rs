//! Small games for `search-core`: tic-tac-toe, connect-4 and gobang.

#![deny(missing_docs)]
