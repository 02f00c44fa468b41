//! Chess perft through the `Game` trait (`search_core::perft` on
//! `games_chess::ChessGame` with `Rules::PERFT`) against `shakmaty`'s native
//! perft on the same positions and depths. The ratio of the two times is the
//! cost of the adapter (Zobrist key, repetition history, trait calls).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use games_chess::{ChessGame, Rules};
use std::hint::black_box;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// (name, FEN, depth): a shallow and a deep run of each position.
const POSITIONS: [(&str, &str, u32); 4] =
    [("start", START, 4), ("start", START, 5), ("kiwipete", KIWIPETE, 3), ("kiwipete", KIWIPETE, 4)];

fn chess_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_perft");
    group.sample_size(20);
    for (name, fen, depth) in POSITIONS {
        let game = ChessGame::from_fen(fen).expect("valid FEN").with_rules(Rules::PERFT);
        let native = game.position().clone();
        assert_eq!(search_core::perft(&game, depth).unwrap(), shakmaty::perft(&native, depth));
        let id = format!("{name}/d{depth}");
        group.bench_with_input(BenchmarkId::new("game_trait", &id), &game, |b, g| {
            b.iter(|| search_core::perft(black_box(g), depth).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("shakmaty", &id), &native, |b, p| {
            b.iter(|| shakmaty::perft(black_box(p), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, chess_perft);
criterion_main!(benches);
