//! Alpha-beta at fixed depths on connect-4 7 × 6 positions: plain fail-soft
//! alpha-beta in the game's order, and the full engine (iterative deepening,
//! table, PVS, killers, history), with `Connect4Eval`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use games_small::{Connect4, Connect4Eval};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};

/// Fixed positions: the start, an opening and two middle games.
const POSITIONS: [(&str, &str); 4] =
    [("start", ""), ("opening", "4453"), ("middle-a", "4455433326"), ("middle-b", "4455433326617")];

fn connect4_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4-alphabeta");
    group.sample_size(10);
    let drivers = [("plain", Options::plain_alpha_beta()), ("engine", Options::default())];
    for (name, moves) in POSITIONS {
        let board = Connect4::from_moves(7, 6, moves).expect("legal moves");
        for depth in [6u32, 8] {
            for (driver, options) in &drivers {
                let run = || {
                    Search::new(Minimax, Connect4Eval::default(), options.clone())
                        .expect("valid options")
                        .run(&board, &Limits::depth(depth))
                        .expect("the game goes on")
                };
                group.throughput(Throughput::Elements(run().stats.nodes));
                group.bench_function(BenchmarkId::new(format!("{driver}/d{depth}"), name), |b| b.iter(|| run().value));
            }
        }
    }
    group.finish();
}

criterion_group!(benches, connect4_search);
criterion_main!(benches);
