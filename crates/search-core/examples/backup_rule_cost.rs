//! Cost per node of each backup rule against full-width minimax, on the
//! same fixed random tree (arc-sum values, so static values are
//! meaningful at every node), searched one ply short of its leaves so that
//! the search's leaves are horizon nodes valued statically.
//!
//! ```text
//! cargo run --release -p search-core --example backup_rule_cost [branching depth repetitions]
//! ```
//!
//! Prints, for each rule, the nodes visited, the best time over the
//! repetitions (rounds over all rules), nanoseconds per node and the
//! ratio to minimax's.

use std::time::{Duration, Instant};

use search_core::backup::{Backup, Emm, Iom, LinearBonus, MAndN, Minimax, Predictive, Product};
use search_core::search::{Limits, Options, Search};
use search_core::tree::{LeafModel, RandomTree, RandomTreeEval};
use search_core::{GameError, ParamError};

/// One timed run: (nodes, wall time).
type Run<'t> = Box<dyn FnMut() -> Result<(u64, Duration), GameError> + 't>;

/// A search of `rule` on `tree`, as a closure returning (nodes, wall time)
/// of one run.
fn runner<'t, R: Backup + 't>(rule: R, options: Options, tree: &'t RandomTree) -> Result<Run<'t>, ParamError> {
    let eval = RandomTreeEval::for_tree(tree);
    let mut search = Search::new(rule, eval, options)?;
    let limits = Limits::depth(u32::from(tree.depth()) - 1);
    Ok(Box::new(move || {
        let start = Instant::now();
        let r = search.run(tree, &limits)?;
        Ok((r.stats.nodes, start.elapsed()))
    }))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u32> = std::env::args().skip(1).map(|a| a.parse()).collect::<Result<_, _>>()?;
    let (b, d, reps) = match args[..] {
        [b, d, r] => (b, d, r),
        [] => (6, 7, 15),
        _ => return Err("usage: backup_rule_cost [branching depth repetitions]".into()),
    };
    let tree = RandomTree::new(2024, u8::try_from(b)?, u8::try_from(d + 1)?, LeafModel::ArcSum { max_arc: 10 })?;
    let full = Options::full_width;
    let mut rules: Vec<(&str, Run<'_>)> = vec![
        ("minimax", runner(Minimax, full(), &tree)?),
        ("iom", runner(Iom::new(), full(), &tree)?),
        ("emm T=5", runner(Emm::with_temperature(5.0)?, full(), &tree)?),
        ("predictive ps=0.5", runner(Predictive::new(0.5)?, full(), &tree)?),
        ("m&n 2,2", runner(MAndN::new(2, 2, LinearBonus::new(1.0, 4.0)?)?, full(), &tree)?),
        ("product T=5", runner(Product::new(5.0)?, full(), &tree)?),
        ("piom (plain alpha-beta)", runner(Iom::new(), Options::plain_alpha_beta(), &tree)?),
        ("alpha-beta (plain)", runner(Minimax, Options::plain_alpha_beta(), &tree)?),
    ];
    // Rounds over every rule, keeping each rule's fastest run: a burst of
    // load on the machine then hits every rule alike.
    let mut rows = vec![(0u64, Duration::MAX); rules.len()];
    for _ in 0..reps {
        for ((_, run), row) in rules.iter_mut().zip(&mut rows) {
            let (n, t) = run()?;
            *row = (n, row.1.min(t));
        }
    }
    let rows: Vec<(&str, (u64, Duration))> = rules.iter().map(|r| r.0).zip(rows).collect();
    let per_node = |(n, t): (u64, Duration)| t.as_secs_f64() * 1e9 / n as f64;
    let base = per_node(rows[0].1);
    println!("tree: branching {b}, searched {d} plies deep (horizon leaves), arc-sum 0..=10; best of {reps} runs");
    println!("{:<26} {:>10} {:>10} {:>9} {:>8}", "rule", "nodes", "ms", "ns/node", "ratio");
    for (name, (n, t)) in rows {
        let ns = per_node((n, t));
        println!("{name:<26} {n:>10} {:>10.2} {ns:>9.2} {:>8.2}", t.as_secs_f64() * 1e3, ns / base);
    }
    Ok(())
}
