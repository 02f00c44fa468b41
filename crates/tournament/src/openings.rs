//! Balanced random openings.

use search_core::rng;
use search_core::{Game, RngExt, Status};

use crate::{Setup, TournamentError};

/// See [`Setup::random_openings`]; `distinct_tries` is the run of repeats
/// after which a repeat is accepted.
pub(crate) fn random<G: Game>(
    setup: &Setup<G>,
    count: usize,
    seed: u64,
    distinct_tries: usize,
) -> Result<Vec<String>, TournamentError> {
    let mut out = Vec::with_capacity(count);
    let mut rng = rng::seeded(seed);
    let mut moves = Vec::new();
    let mut tries = 0usize;
    let mut repeats = 0usize;
    let plies = setup.opening_plies();
    while out.len() < count {
        tries += 1;
        if tries > count * 1000 + 1000 {
            return Err(TournamentError::TooFewOpenings {
                game: setup.name().to_string(),
                found: out.len(),
                wanted: count,
            });
        }
        let mut g = setup.start().clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            moves.clear();
            if g.generate(&mut moves) != Status::Ongoing {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            line.push(g.move_string(mv));
            g.play(mv);
        }
        moves.clear();
        if line.len() < plies || g.generate(&mut moves) != Status::Ongoing || !setup.is_balanced(&g) {
            continue;
        }
        let text = line.join(" ");
        if !out.contains(&text) || repeats >= distinct_tries {
            out.push(text);
            repeats = 0;
        } else {
            repeats += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use games_small::{Connect4, Connect4Eval, TicTacToe, TicTacToeEval};

    use crate::Setup;

    fn tictactoe() -> Setup<TicTacToe> {
        Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default()).with_opening_plies(1)
    }

    #[test]
    fn a_longer_list_starts_with_the_shorter_one() {
        let setup = Setup::standard("connect4", Connect4::standard(), Connect4Eval::default())
            .with_opening_plies(4)
            .with_balance(Connect4Eval::default(), 4, 60.0);
        let short = setup.random_openings(20, 7).unwrap();
        let long = setup.random_openings(40, 7).unwrap();
        assert_eq!(&long[..20], &short[..]);
        for o in &long {
            setup.check_opening(o).unwrap();
            assert_eq!(o.split(' ').count(), 4);
        }
        assert_ne!(setup.random_openings(20, 8).unwrap(), short, "another seed, other openings");
    }

    #[test]
    fn distinct_while_they_last_then_repeats() {
        let nine = tictactoe().random_openings(9, 3).unwrap();
        let mut sorted = nine.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 9);
        assert_eq!(tictactoe().random_openings(12, 3).unwrap().len(), 12);
    }

    #[test]
    fn an_impossible_balance_is_an_error_not_a_hang() {
        let setup = tictactoe().with_balance_test(|_| false);
        let err = setup.random_openings(3, 1).unwrap_err();
        assert!(matches!(err, crate::TournamentError::TooFewOpenings { found: 0, wanted: 3, .. }), "{err}");
    }

    #[test]
    fn openings_from_text_name_the_bad_line() {
        let setup = tictactoe();
        assert_eq!(setup.parse_openings("# two\nb2\n\na1 b2\n").unwrap(), vec!["b2", "a1 b2"]);
        let (line, err) = setup.parse_openings("a1\nb2 b2\n").unwrap_err();
        assert_eq!(line, 2);
        assert!(err.to_string().contains("not legal"), "{err}");
        let (line, err) = setup.parse_openings("a1 b1 a2 b2 a3\n").unwrap_err();
        assert_eq!(line, 1);
        assert!(err.to_string().contains("already over"), "{err}");
    }

    #[test]
    fn pairs_are_reproducible_and_perfect_play_never_loses() {
        let setup = tictactoe().with_max_plies(9);
        let pairs: Vec<(String, u64)> = setup.random_openings(9, 5).unwrap().into_iter().zip(0..).collect();
        let a = setup.play_pairs("alphabeta:depth=9", "boltzmann:depth=9,cap=1,theta=1", &pairs).unwrap();
        let b = setup.play_pairs("alphabeta:depth=9", "boltzmann:depth=9,cap=1,theta=1", &pairs).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|p| p.score() >= 1.0), "{a:?}");
        assert!(setup.play_pairs("nonsense", "random", &pairs).is_err());
    }
}
