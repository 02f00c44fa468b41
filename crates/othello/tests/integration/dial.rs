//! The committed calibration of 6×6 Othello: made from this crate's
//! ladder, accurate on its held-out check, and serving `elo:X`.

use othello::{Othello, dial};
use search_core::Game;
use search_core::rng::seeded;
use strength::dial::Dial;

#[test]
fn the_committed_calibration_is_of_this_ladder() {
    let c = dial::calibration().unwrap();
    assert_eq!(c.game, dial::NAME);
    let s = dial::ladder().schedule();
    let mut rungs: Vec<&str> = s.rungs.iter().map(String::as_str).collect();
    let mut committed: Vec<&str> = c.rungs.iter().map(|r| r.spec.as_str()).collect();
    rungs.sort_unstable();
    committed.sort_unstable();
    assert_eq!(rungs, committed);
    let mut matchups: Vec<(&str, &str)> =
        s.matchups.iter().map(|&(a, b)| (s.rungs[a].as_str(), s.rungs[b].as_str())).collect();
    let mut residuals: Vec<(&str, &str)> = c.residuals.iter().map(|r| (r.a.as_str(), r.b.as_str())).collect();
    matchups.sort_unstable();
    residuals.sort_unstable();
    assert_eq!(matchups, residuals);
    assert_eq!(c.games, 2 * dial::ladder().pairs as u64 * s.matchups.len() as u64);
}

#[test]
fn the_held_out_check_passes() {
    let c = dial::calibration().unwrap();
    assert_eq!(c.held_out.len(), 10);
    let inside = c.held_out.iter().filter(|h| h.inside()).count();
    let mae = c.held_out.iter().map(|h| (h.observed - h.predicted).abs()).sum::<f64>() / 10.0;
    assert!(inside >= 9, "{inside} of 10 inside");
    assert!(mae <= 0.03, "mean absolute error {mae}");
}

#[test]
fn elo_x_plays_across_the_range() {
    let dial_range = Dial::new(dial::calibration().unwrap()).unwrap().range();
    let roster = dial::roster().unwrap();
    for elo in [dial_range.0, 300.0, dial_range.1] {
        let mut agent = roster.build(&format!("elo:{elo}")).unwrap();
        let mv = agent.choose(&Othello::new(), &mut seeded(3)).unwrap();
        assert!(Othello::new().try_play(mv).is_ok());
    }
    let err = roster.build(&format!("elo:{}", dial_range.1 + 100.0)).err().expect("out of range");
    assert!(err.to_string().contains("range"), "{err}");
    assert!(roster.build("adaptive:target=0.5").is_ok());
}
