//! The registry of experiments, in report order.

mod iom;
mod lecture;
mod reibman;
mod rminimax;

use super::Experiment;

/// Every experiment, in the order of the report.
pub(super) fn all() -> Vec<Box<dyn Experiment>> {
    vec![
        Box::new(rminimax::Table1),
        Box::new(rminimax::EntropyTable { number: 2 }),
        Box::new(rminimax::EntropyTable { number: 3 }),
        Box::new(rminimax::Figure::TicTacToe),
        Box::new(rminimax::Figure::Connect4),
        Box::new(rminimax::Figure::Connect4Ab),
        Box::new(reibman::Fig1),
        Box::new(reibman::Table1),
        Box::new(reibman::Table2),
        Box::new(iom::Fig4Error),
        Box::new(iom::MatchGame::Gobang),
        Box::new(iom::MatchGame::Chess),
        Box::new(iom::TimeChess),
        Box::new(lecture::LectureAlphaBeta),
    ]
}
