//! The connect-4 solver on the first 50 positions of Pons' end-easy and
//! middle-easy sets (in the shared test data, see the `test-data` crate; skipped when absent): time per set,
//! with a fresh table for each run (allocated outside the timing).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use games_small::connect4::Connect4;
use games_small::solver::Solver;

const POSITIONS: usize = 50;
const TABLE_MIB: usize = 2;

/// The first positions of a set, or `None` if the set is absent.
fn positions(name: &str) -> Option<Vec<Connect4>> {
    let text = test_data::read(&format!("connect4/{name}"), "its benchmark")?;
    let lines = text.lines().filter_map(|l| l.split_whitespace().next()).take(POSITIONS);
    Some(lines.map(|moves| Connect4::from_moves(7, 6, moves).expect("a legal position")).collect())
}

fn bench_solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4-solver");
    for set in ["end-easy", "middle-easy"] {
        let Some(positions) = positions(set) else { continue };
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("{set}/first-{POSITIONS}"), |b| {
            b.iter_batched_ref(
                || Solver::with_table_mib(7, 6, TABLE_MIB).expect("7×6 fits"),
                |solver| positions.iter().map(|p| solver.solve(p).expect("unfinished").score).sum::<i32>(),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_solver);
criterion_main!(benches);
