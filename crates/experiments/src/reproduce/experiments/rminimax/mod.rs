//! The Rminimax paper (seed 000: García Díez, Laforge, Saerens, IEEE Trans.
//! SMC-B 43(1), 2013): Tables I–III ([`tables`]) and the game experiments of
//! section III, Figs. 2–4 ([`figures`]; Fig. 4's alpha-beta subtree:
//! [`pruned`]).

mod figures;
mod pruned;
mod tables;

#[cfg(test)]
mod tests;

pub(crate) use figures::Figure;
pub(crate) use tables::{EntropyTable, Table1};
