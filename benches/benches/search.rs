//! Minimax and alpha-beta on fixed random trees: nodes per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};

fn trees() -> Vec<(&'static str, RandomTree)> {
    vec![
        ("b4-d8-uniform", RandomTree::new(1, 4, 8, LeafModel::Uniform { min: -100, max: 100 }).unwrap()),
        ("b6-d6-arcsum", RandomTree::new(2, 6, 6, LeafModel::ArcSum { max_arc: 10 }).unwrap()),
    ]
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("random-tree");
    for (name, tree) in trees() {
        let drivers = [
            ("minimax", Options::full_width()),
            ("alphabeta-plain", Options::plain_alpha_beta()),
            ("alphabeta-full", Options::default()),
        ];
        for (driver, options) in drivers {
            // Nodes are counted once, outside the timing, for the throughput.
            let run = || {
                let mut search = Search::new(Minimax, RandomTreeEval::default(), options.clone()).unwrap();
                search.run(&tree, &Limits::full_tree()).unwrap()
            };
            let nodes = run().stats.nodes;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{driver}/{name}"), |b| b.iter(|| run().value));
        }
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
