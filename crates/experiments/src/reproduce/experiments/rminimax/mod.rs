//! The Rminimax paper (seed 000: García Díez, Laforge, Saerens, IEEE Trans.
//! SMC-B 43(1), 2013): Tables I–III ([`tables`]) and the game experiments of
//! section III, Figs. 2–4 ([`figures`]; Fig. 4's alpha-beta subtree:
//! [`pruned`]).

pub mod figures;
pub mod pruned;
pub mod tables;

pub use figures::Figure;
pub use tables::{EntropyTable, Table1};
