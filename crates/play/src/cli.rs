//! The command lines of `cargo xtask play` and `cargo xtask loadtest`.

use clap::builder::RangedU64ValueParser;

/// Arguments of `cargo xtask play`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Minutes after which an idle game is removed.
    #[arg(long, default_value_t = 30, value_parser = RangedU64ValueParser::<u64>::new().range(1..=7 * 24 * 60))]
    pub ttl_minutes: u64,
    /// The most games held at once.
    #[arg(long, default_value_t = 1000, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_sessions: usize,
    /// The node budget of one engine move (added to search specs as `nodes=`).
    #[arg(long, default_value_t = 2_000_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub max_nodes: u64,
    /// The time budget of one Monte Carlo move (mcts, ments; added to their specs as `ms=`).
    #[arg(long, default_value_t = 2_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..=600_000))]
    pub max_ms: u64,
    /// The master seed of the sessions' engines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl PlayArgs {
    /// The server's settings: these limits and seed, the rest
    /// [`Config::default`](crate::Config::default).
    pub fn config(&self) -> crate::Config {
        crate::Config {
            session_ttl: std::time::Duration::from_secs(self.ttl_minutes * 60),
            max_sessions: self.max_sessions,
            max_nodes: self.max_nodes,
            max_ms: self.max_ms,
            seed: self.seed,
            ..crate::Config::default()
        }
    }

    /// Serves the web app until Ctrl-C ([`crate::run`]).
    ///
    /// # Errors
    ///
    /// A bad address, a port in use, an unreadable calibration.
    pub fn run(self) -> Result<(), Box<dyn std::error::Error>> {
        crate::run(self.config(), &self.host, self.port)
    }
}

/// Arguments of `cargo xtask loadtest`.
#[derive(Debug, Clone, clap::Args)]
pub struct LoadtestArgs {
    /// The CI run: 200 sessions of up to 8 moves (seconds).
    #[arg(long)]
    pub quick: bool,
    /// Concurrent sessions (default 400, or 200 with --quick).
    #[arg(long, value_parser = RangedU64ValueParser::<usize>::new().range(1..=5000))]
    pub sessions: Option<usize>,
    /// The seed of the clients' moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl LoadtestArgs {
    /// The load test's settings: [`Options::quick`](crate::loadtest::Options::quick)
    /// or [`full`](crate::loadtest::Options::full), with this seed and
    /// session count.
    pub fn options(&self) -> crate::loadtest::Options {
        let mut opts = if self.quick { crate::loadtest::Options::quick() } else { crate::loadtest::Options::full() };
        opts.seed = self.seed;
        if let Some(n) = self.sessions {
            opts.sessions = n;
        }
        opts
    }

    /// Runs the load test ([`crate::loadtest::run`]) and prints its report.
    ///
    /// # Errors
    ///
    /// Any server error, panic or unexpected status, or a server that could
    /// not be started.
    pub fn run(self) -> Result<(), Box<dyn std::error::Error>> {
        let report = crate::loadtest::run(self.options())?;
        println!("{report}");
        if report.passed() { Ok(()) } else { Err("the load test failed".into()) }
    }
}
