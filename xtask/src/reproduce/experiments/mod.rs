//! The registry of experiments, in report order.

mod lecture;

use super::Experiment;

/// Every experiment, in the order of the report.
pub(super) fn all() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(lecture::LectureAlphaBeta)]
}
