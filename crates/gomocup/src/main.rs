//! `pbrain-backup-rules`: a Gomocup brain on standard input and output. The
//! protocol lives in the [`gomocup`] library; this is the command line.

use std::io;
use std::process::ExitCode;

use gomocup::{Brain, BrainConfig, Strategy};

const USAGE: &str = "\
usage: pbrain-backup-rules [--agent SPEC] [--seed N] [--hash MIB] [--quiet]
       pbrain-backup-rules --list | --help | --version

A Gomocup (Piskvork) brain: speaks the brain protocol on standard input and
output; a manager starts it. Options:
  --agent SPEC  who plays: `auto` (default: iterative-deepening alpha-beta
                within the time limits) or an agent spec, e.g. elo:1200,
                alphabeta:depth=4 (see --list)
  --seed N      seed of the random choices (default 0)
  --hash MIB    transposition table of the default player (default 64)
  --quiet       no MESSAGE line about each move
  --list        the agent specs, then exit";

/// What the command line asks for.
#[derive(Debug)]
enum Args {
    /// Run the brain with these settings.
    Run(BrainConfig),
    /// Print this text (`--help`, `--list`, `--version`) and exit.
    Print(String),
}

/// A command line the brain cannot start with (printed with the usage
/// where it helps).
#[derive(Debug, thiserror::Error)]
enum ArgError {
    /// A flag without its value.
    #[error("{0} needs a value\n\n{USAGE}")]
    MissingValue(String),
    /// `--seed` that is not a number.
    #[error("--seed: not a number: {0:?}")]
    Seed(String),
    /// `--hash` that is not a size from 0 to 4096 MiB.
    #[error("--hash: expected MiB from 0 to 4096, got {0:?}")]
    Hash(String),
    /// An argument the brain does not know.
    #[error("unknown argument {0:?}\n\n{USAGE}")]
    Unknown(String),
}

/// The command line's settings, or what to print and exit with.
fn parse_args(args: &[String]) -> Result<Args, ArgError> {
    let mut config = BrainConfig::default();
    let mut i = 0;
    let value = |i: &mut usize, flag: &str| -> Result<String, ArgError> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| ArgError::MissingValue(flag.to_string()))
    };
    while i < args.len() {
        let arg = args[i].as_str();
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg, None),
        };
        let take = |i: &mut usize| inline.clone().map_or_else(|| value(i, flag), Ok);
        match flag {
            "--agent" => {
                let spec = take(&mut i)?;
                config.strategy = if spec == "auto" { Strategy::Auto } else { Strategy::Spec(spec) };
            }
            "--seed" => {
                let v = take(&mut i)?;
                config.seed = v.parse().map_err(|_| ArgError::Seed(v))?;
            }
            "--hash" => {
                let v = take(&mut i)?;
                config.table_mib = v.parse().ok().filter(|&m: &usize| m <= 4096).ok_or(ArgError::Hash(v))?;
            }
            "--quiet" => config.messages = false,
            "--list" => {
                let mut text =
                    String::from("auto\n    iterative-deepening alpha-beta within the time limits (default)\n");
                for (synopsis, what) in gomocup::player::roster().kinds() {
                    text.push_str(&format!("{synopsis}\n    {what}\n"));
                }
                return Ok(Args::Print(text));
            }
            "--help" | "-h" => return Ok(Args::Print(USAGE.to_string())),
            "--version" | "-V" => return Ok(Args::Print(format!("pbrain-backup-rules {}", env!("CARGO_PKG_VERSION")))),
            _ => return Err(ArgError::Unknown(arg.to_string())),
        }
        i += 1;
    }
    Ok(Args::Run(config))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(Args::Run(c)) => c,
        Ok(Args::Print(text)) => {
            println!("{text}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pbrain-backup-rules: {e}");
            return ExitCode::from(2);
        }
    };
    let mut brain = match Brain::new(config) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pbrain-backup-rules: {e}");
            return ExitCode::from(2);
        }
    };
    match gomocup::brain::run(&mut brain, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-backup-rules: {e}");
            ExitCode::FAILURE
        }
    }
}
