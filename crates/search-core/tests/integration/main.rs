//! The integration tests, one module per former test file, in one test
//! binary: the crate and its dependencies are linked (and the generic code
//! monomorphised) once, not once per file.

mod classical;
mod common_rules;
mod emm;
mod iom;
mod m_and_n;
mod model;
mod modelled;
mod oracle;
mod pig;
mod predicting;
mod predictive;
mod product;
mod rminimax;
mod root_window;
mod smp;
mod thought;
mod validation;
