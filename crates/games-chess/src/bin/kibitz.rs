//! `kibitz`: the library's chess engine, speaking UCI on standard input and
//! output. The protocol lives in [`games_chess::uci`]; this is the wiring.

use std::io;
use std::process::ExitCode;

use games_chess::uci::{Engine, run};

fn main() -> ExitCode {
    let mut engine = Engine::new(io::stdout());
    match run(io::stdin().lock(), &mut engine) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kibitz: cannot read standard input: {e}");
            ExitCode::FAILURE
        }
    }
}
