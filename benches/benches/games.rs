//! The small games: move generation and copy-make (perft at a small depth),
//! hashing and static evaluation, for tic-tac-toe, connect-4 and gobang.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use games_small::gobang::GobangOptions;
use games_small::{Connect4, Connect4Eval, Gobang, GobangEval, TicTacToe, TicTacToeEval};
use search_core::{Evaluator, Game, perft};
use std::hint::black_box;

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    let ttt = TicTacToe::new();
    group.bench_function(BenchmarkId::new("tictactoe", "d9"), |b| b.iter(|| perft(black_box(&ttt), 9).unwrap()));
    let c4 = Connect4::standard();
    group.bench_function(BenchmarkId::new("connect4_7x6", "d7"), |b| b.iter(|| perft(black_box(&c4), 7).unwrap()));
    let c44 = Connect4::new(4, 4).expect("4×4 fits");
    group.bench_function(BenchmarkId::new("connect4_4x4", "d8"), |b| b.iter(|| perft(black_box(&c44), 8).unwrap()));
    for radius in [1u8, 2] {
        let g = Gobang::with_options(GobangOptions { radius, ..Default::default() }).expect("valid options");
        let g = Gobang::from_moves(g.options(), "h8 i9 g7").expect("legal moves");
        group.bench_function(BenchmarkId::new(format!("gobang_r{radius}"), "d3"), |b| {
            b.iter(|| perft(black_box(&g), 3).unwrap())
        });
    }
    group.finish();
}

fn hash_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("hash");
    let ttt = TicTacToe::from_moves("b2 a1 c3").expect("legal");
    group.bench_function("tictactoe/incremental", |b| b.iter(|| black_box(&ttt).hash_key()));
    group.bench_function("tictactoe/from_scratch", |b| b.iter(|| black_box(&ttt).hash_from_scratch()));
    let c4 = Connect4::from_moves(7, 6, "4453342").expect("legal");
    group.bench_function("connect4/key", |b| b.iter(|| black_box(&c4).hash_key()));
    let gb: Gobang = "h8 i9 g7 j10 f6 k11 e5".parse().expect("legal");
    group.bench_function("gobang/incremental", |b| b.iter(|| black_box(&gb).hash_key()));
    group.bench_function("gobang/from_scratch", |b| b.iter(|| black_box(&gb).hash_from_scratch()));
    group.finish();
}

fn eval_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    let ttt = TicTacToe::from_moves("b2 a1 c3").expect("legal");
    group.bench_function("tictactoe", |b| b.iter(|| TicTacToeEval::default().evaluate(black_box(&ttt))));
    let c4 = Connect4::from_moves(7, 6, "4453342").expect("legal");
    group.bench_function("connect4", |b| b.iter(|| Connect4Eval::default().evaluate(black_box(&c4))));
    let gb: Gobang = "h8 i9 g7 j10 f6 k11 e5 h9 h10 g9".parse().expect("legal");
    group.bench_function("gobang", |b| b.iter(|| GobangEval::default().evaluate(black_box(&gb))));
    group.bench_function("connect4/solver_helpers", |b| {
        b.iter(|| {
            let g = black_box(&c4);
            (g.possible_non_losing_moves(), g.can_win_next(), g.threats_after(g.possible() & g.column_mask(3)))
        })
    });
    group.finish();
}

criterion_group!(benches, perft_benches, hash_benches, eval_benches);
criterion_main!(benches);
