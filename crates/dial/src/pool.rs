//! The worker pool of `match`, `calibrate` and `rate`, and the rule that
//! bounds it when an external engine moves on a clock.
//!
//! Results do not depend on the number of workers, except through such an
//! engine: given a move time, it searches as far as its share of a core
//! allows. With more workers than cores each engine gets less than a core,
//! and Stockfish's `UCI_LimitStrength` levels play measurably weaker (see
//! docs/strength.md, *Engines on a clock*). Mixed into a resumed run, such
//! games would skew it silently, so the pool refuses them.

use strength::spec::AgentSpec;

use registry::uci::moves_on_a_clock;

/// Sizes rayon's global pool for a run whose agents are `specs`: `threads`
/// workers, or rayon's default (one per core) when `None`. Refuses zero
/// workers, and more workers than cores when one of `specs` moves on a
/// clock.
pub(crate) fn start_workers(threads: Option<usize>, specs: &[String]) -> Result<(), String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = threads.unwrap_or_else(rayon::current_num_threads);
    check_workers(workers, cores, specs)?;
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Whether `workers` workers on `cores` cores may play `specs`: at least
/// one, and no more than `cores` when an agent moves on a clock.
fn check_workers(workers: usize, cores: usize, specs: &[String]) -> Result<(), String> {
    if workers == 0 {
        return Err("--threads must be at least 1".into());
    }
    let on_a_clock = specs.iter().find(|s| s.parse::<AgentSpec>().is_ok_and(|spec| moves_on_a_clock(&spec)));
    match on_a_clock {
        Some(spec) if workers > cores => Err(format!(
            "--threads {workers} on {cores} cores: `{spec}` moves on a clock, and with more workers than cores \
             each engine gets less than a core and plays weaker than it does alone (docs/strength.md, \
             *Engines on a clock*); use --threads {cores} or fewer, or limit the engine by nodes= or depth="
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::check_workers;

    fn specs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn zero_workers_is_an_error() {
        let err = check_workers(0, 2, &specs(&["random"])).unwrap_err();
        assert!(err.contains("at least 1"), "{err}");
    }

    #[test]
    fn an_engine_on_a_clock_gets_no_more_workers_than_cores() {
        let sf = "uci:/usr/games/stockfish,UCI_LimitStrength=true,UCI_Elo=1500,movetime=50";
        let err = check_workers(6, 2, &specs(&["elo:1500", sf])).unwrap_err();
        assert!(err.contains("--threads 6 on 2 cores") && err.contains(sf) && err.contains("--threads 2"), "{err}");
        // A `uci:` spec without a limit moves on the default move time.
        assert!(check_workers(3, 2, &specs(&["uci:/engine"])).is_err());
        for ok in [2, 1] {
            assert_eq!(check_workers(ok, 2, &specs(&["elo:1500", sf])), Ok(()));
        }
    }

    #[test]
    fn engines_limited_by_nodes_or_depth_and_our_agents_take_any_number() {
        let list = specs(&["uci:/engine,nodes=20000", "uci:/engine,depth=8", "alphabeta:depth=3", "elo:1500"]);
        assert_eq!(check_workers(16, 2, &list), Ok(()));
    }
}
