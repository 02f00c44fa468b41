//! The registry of experiments, in report order.

pub mod iom;
mod iom_examples;
pub mod lecture;
mod montecarlo;
pub mod nash;
pub mod reibman;
pub mod rminimax;

use super::Experiment;

/// Every experiment, in the order of the report.
pub fn all() -> Vec<Box<dyn Experiment>> {
    vec![
        Box::new(rminimax::Table1),
        Box::new(rminimax::EntropyTable { number: 2 }),
        Box::new(rminimax::EntropyTable { number: 3 }),
        Box::new(rminimax::Figure::TicTacToe),
        Box::new(rminimax::Figure::Connect4),
        Box::new(rminimax::Figure::Connect4Ab),
        Box::new(reibman::Fig1::One),
        Box::new(reibman::Fig1::Two),
        Box::new(reibman::Table1),
        Box::new(reibman::Table2),
        Box::new(iom::Fig4Error),
        Box::new(iom_examples::Example::Fig5Emm),
        Box::new(iom_examples::Example::Fig6),
        Box::new(iom_examples::Example::Fig7),
        Box::new(iom::GobangEvalDuel),
        Box::new(iom::MatchGame::Gobang),
        Box::new(iom::MatchGame::Chess),
        Box::new(iom::EmmTemperature),
        Box::new(iom::TimeChess),
        Box::new(lecture::LectureAlphaBeta),
        Box::new(montecarlo::MonteCarlo),
        Box::new(nash::Nash),
    ]
}
