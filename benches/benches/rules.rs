//! Every backup rule of `search_core::backup` on the same fixed random trees,
//! full width (and, for the rules that allow it, with alpha-beta): the cost of
//! a rule is its time against minimax on the same nodes.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use search_core::backup::{Backup, Emm, Iom, LinearBonus, MAndN, Minimax, Predictive, Product, Rminimax};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};

/// Two fixed trees: uniform leaves (b = 4, d = 8) and arc sums (b = 6, d = 6).
fn trees() -> [(&'static str, RandomTree); 2] {
    [
        ("b4-d8-uniform", RandomTree::new(1, 4, 8, LeafModel::Uniform { min: -100, max: 100 }).expect("valid tree")),
        ("b6-d6-arcsum", RandomTree::new(2, 6, 6, LeafModel::ArcSum { max_arc: 10 }).expect("valid tree")),
    ]
}

/// Benchmarks `rule` on `tree` with `options`; the throughput is the node
/// count of one search (counted once, outside the timing).
fn bench_rule<R: Backup + Clone>(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    tree_name: &str,
    tree: &RandomTree,
    rule: R,
    options: &Options,
) {
    let eval = RandomTreeEval::for_tree(tree);
    let depth = u32::from(tree.depth());
    let limits = Limits::depth(depth);
    let run = || {
        let mut search = Search::new(rule.clone(), eval, options.clone()).expect("valid options");
        search.run(tree, &limits).expect("the tree has moves").value
    };
    let nodes = Search::new(rule.clone(), eval, options.clone())
        .expect("valid options")
        .run(tree, &limits)
        .expect("the tree has moves")
        .stats
        .nodes;
    c.throughput(Throughput::Elements(nodes));
    c.bench_function(BenchmarkId::new(name, tree_name), |b| b.iter(run));
}

fn rules(c: &mut Criterion) {
    let mut group = c.benchmark_group("rules");
    group.sample_size(20);
    let full = Options::full_width();
    let ab = Options::plain_alpha_beta();
    for (tree_name, tree) in trees() {
        let t = &tree;
        bench_rule(&mut group, "minimax", tree_name, t, Minimax, &full);
        bench_rule(&mut group, "alphabeta", tree_name, t, Minimax, &ab);
        bench_rule(&mut group, "rminimax-theta1", tree_name, t, Rminimax::new(1.0).expect("valid θ"), &full);
        bench_rule(&mut group, "iom", tree_name, t, Iom::new(), &full);
        bench_rule(&mut group, "piom", tree_name, t, Iom::new(), &ab);
        bench_rule(&mut group, "emm-t10", tree_name, t, Emm::with_temperature(10.0).expect("valid temperature"), &full);
        bench_rule(&mut group, "predictive-ps0.9", tree_name, t, Predictive::new(0.9).expect("valid ps"), &full);
        bench_rule(&mut group, "product-t10", tree_name, t, Product::new(10.0).expect("valid temperature"), &full);
        let bonus = LinearBonus::new(1.0, 1.0).expect("valid bonus");
        bench_rule(&mut group, "m-and-n-2-2", tree_name, t, MAndN::new(2, 2, bonus).expect("valid m, n"), &full);
    }
    group.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
