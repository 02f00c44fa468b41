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

/// The command line's settings, or what to print and exit with.
fn parse_args(args: &[String]) -> Result<BrainConfig, (String, bool)> {
    let mut config = BrainConfig::default();
    let mut i = 0;
    let value = |i: &mut usize, flag: &str| -> Result<String, (String, bool)> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| (format!("{flag} needs a value\n\n{USAGE}"), false))
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
                config.seed = v.parse().map_err(|_| (format!("--seed: not a number: {v:?}"), false))?;
            }
            "--hash" => {
                let v = take(&mut i)?;
                config.table_mib = v
                    .parse()
                    .ok()
                    .filter(|&m: &usize| m <= 4096)
                    .ok_or_else(|| (format!("--hash: expected MiB from 0 to 4096, got {v:?}"), false))?;
            }
            "--quiet" => config.messages = false,
            "--list" => {
                let mut text =
                    String::from("auto\n    iterative-deepening alpha-beta within the time limits (default)\n");
                for (synopsis, what) in gomocup::player::roster().kinds() {
                    text.push_str(&format!("{synopsis}\n    {what}\n"));
                }
                return Err((text, true));
            }
            "--help" | "-h" => return Err((USAGE.to_string(), true)),
            "--version" | "-V" => return Err((format!("pbrain-backup-rules {}", env!("CARGO_PKG_VERSION")), true)),
            _ => return Err((format!("unknown argument {arg:?}\n\n{USAGE}"), false)),
        }
        i += 1;
    }
    Ok(config)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(c) => c,
        Err((text, true)) => {
            println!("{text}");
            return ExitCode::SUCCESS;
        }
        Err((text, false)) => {
            eprintln!("pbrain-backup-rules: {text}");
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
