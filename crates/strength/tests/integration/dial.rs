//! The dial's interpolation: continuous, monotone, exact at the rungs,
//! refusing ratings outside the calibrated range, and repairing noisy
//! (non-monotone) rung ratings.

use strength::dial::{Calibration, Dial, DialError, Rung};

fn rung(spec: &str, curve: Option<&str>, theta: Option<f64>, rating: f64) -> Rung {
    Rung {
        spec: spec.into(),
        curve: curve.map(String::from),
        theta,
        rating,
        low: rating - 25.0,
        high: rating + 25.0,
        games: 800,
    }
}

fn calibration() -> Calibration {
    let c2 = "boltzmann:depth=2,cap=100";
    let c4 = "boltzmann:depth=4,cap=100";
    Calibration {
        game: "test".into(),
        rungs: vec![
            rung("random", None, None, 0.0),
            rung("boltzmann:depth=2,cap=100,theta=0.01", Some(c2), Some(0.01), 200.0),
            rung("boltzmann:depth=2,cap=100,theta=0.1", Some(c2), Some(0.1), 600.0),
            // Noise: a lower rating at a higher θ is pooled with its neighbour.
            rung("boltzmann:depth=2,cap=100,theta=0.3", Some(c2), Some(0.3), 580.0),
            rung("alphabeta:depth=2", Some(c2), Some(f64::INFINITY), 800.0),
            rung("boltzmann:depth=4,cap=100,theta=0.01", Some(c4), Some(0.01), 300.0),
            rung("boltzmann:depth=4,cap=100,theta=0.1", Some(c4), Some(0.1), 900.0),
            rung("alphabeta:depth=4", Some(c4), Some(f64::INFINITY), 1200.0),
        ],
        ..Calibration::default()
    }
}

fn theta(dial: &Dial, elo: f64) -> (String, f64) {
    let s = dial.setting(elo).unwrap();
    let t = match s.get("theta") {
        Some(t) => t.parse().unwrap(),
        None if s.kind() == "alphabeta" => f64::INFINITY,
        None => 0.0,
    };
    (s.without_theta(), t)
}

trait WithoutTheta {
    fn without_theta(&self) -> String;
}

impl WithoutTheta for strength::spec::AgentSpec {
    fn without_theta(&self) -> String {
        let mut s = strength::spec::AgentSpec::new(self.kind());
        for (k, v) in self.params() {
            if k != "theta" {
                s = s.with(k, v);
            }
        }
        s.to_string()
    }
}

#[test]
fn interpolation_is_monotone_continuous_and_round_trips() {
    let dial = Dial::new(calibration()).unwrap();
    assert_eq!(dial.range(), (0.0, 1200.0));
    // On the first curve up to its largest finite θ (rated 590 after
    // pooling), then on the deeper one.
    let mut last = (String::new(), 0.0);
    for step in 1..590 {
        let elo = f64::from(step);
        let (curve, t) = theta(&dial, elo);
        assert_eq!(curve, "boltzmann:depth=2,cap=100", "elo {elo}");
        assert!(t > 0.0 && t.is_finite(), "elo {elo}: θ {t}");
        if last.0 == curve {
            assert!(t >= last.1, "θ must not decrease: {elo}");
            // Continuity in strength: one Elo more moves the rating of
            // the chosen θ by one Elo (θ itself may jump across a pooled
            // flat stretch, where every θ rates the same).
            let r0 = dial.rating_of("boltzmann:depth=2,cap=100", last.1).unwrap();
            let r1 = dial.rating_of("boltzmann:depth=2,cap=100", t).unwrap();
            assert!((r1 - r0 - 1.0).abs() < 0.02, "elo {elo}: {r0} -> {r1}");
        }
        // The dial's own inverse gives the rating back.
        let back = dial.rating_of("boltzmann:depth=2,cap=100", t).unwrap();
        assert!((back - elo).abs() < 0.01, "elo {elo}: θ {t} rates {back}");
        last = (curve, t);
    }
    // Above 590 the deeper curve plays, still at a finite θ (not depth 2
    // near-greedy).
    let (curve, t) = theta(&dial, 800.0);
    assert_eq!(curve, "boltzmann:depth=4,cap=100");
    assert!(t > 0.01 && t < 0.1, "{t}");
    let (curve, t) = theta(&dial, 1000.0);
    assert_eq!(curve, "boltzmann:depth=4,cap=100");
    assert!(t > 0.1 && t.is_finite());
    assert_eq!(dial.setting(1200.0).unwrap().to_string(), "alphabeta:depth=4");
    assert_eq!(dial.setting(0.0).unwrap().to_string(), "random");
}

#[test]
fn exact_at_the_rungs_and_pooled_where_noisy() {
    let dial = Dial::new(calibration()).unwrap();
    let (_, t) = theta(&dial, 200.0);
    assert!((t - 0.01).abs() < 1e-6, "{t}");
    // θ = 0.1 and 0.3 rated 600 and 580 pool to 590: both rate 590.
    let a = dial.rating_of("boltzmann:depth=2,cap=100", 0.1).unwrap();
    let b = dial.rating_of("boltzmann:depth=2,cap=100", 0.3).unwrap();
    assert!((a - 590.0).abs() < 1e-9 && (b - 590.0).abs() < 1e-9, "{a} {b}");
}

#[test]
fn out_of_range_and_bad_calibrations_are_errors() {
    let dial = Dial::new(calibration()).unwrap();
    for elo in [-1.0, 1200.5, f64::NAN, f64::INFINITY] {
        assert!(matches!(dial.setting(elo), Err(DialError::OutOfRange { .. })), "{elo}");
    }
    let mut c = calibration();
    c.rungs[2].rating = f64::NAN;
    assert!(Dial::new(c).is_err());
    let mut c = calibration();
    c.rungs.retain(|r| r.curve.is_none());
    assert!(Dial::new(c).is_err());
    assert!(Calibration::from_json("{\"rungs\": 3}").is_err());
    // A calibration survives its JSON, infinite θ included.
    let c = calibration();
    assert_eq!(Calibration::from_json(&c.to_json()).unwrap(), c);
}

/// A partial curve (a deep search's, linked only near the top) starts at
/// its weakest rung: it plays only above the shallower curves' reach,
/// between its own rungs, and rates no θ below its weakest rung (where a
/// line down to random play would be a guess).
#[test]
fn a_partial_curve_starts_at_its_weakest_rung() {
    let c12 = "boltzmann:depth=12,cap=100";
    let mut c = calibration();
    c.rungs.extend([
        rung("boltzmann:depth=12,cap=100,theta=0.1", Some(c12), Some(0.1), 1000.0),
        rung("boltzmann:depth=12,cap=100,theta=1", Some(c12), Some(1.0), 1300.0),
        rung("alphabeta:depth=12", Some(c12), Some(f64::INFINITY), 1400.0),
    ]);
    c.partial_curves = vec![c12.into()];
    let dial = Dial::new(c.clone()).unwrap();
    assert_eq!(dial.range(), (0.0, 1400.0));
    assert_eq!(dial.rating_of(c12, 0.1), Some(1000.0));
    assert_eq!(dial.rating_of(c12, 0.05), None);
    assert_eq!(dial.rating_of(c12, 0.0), None);
    // Depth 4 reaches 900 at a finite θ, and covers up to its top (1200);
    // depth 12 starts at 1000. In between, depth 4 towards its top; from
    // 1000, depth 12 between its rungs, never on a line from random play.
    assert_eq!(theta(&dial, 950.0).0, "boltzmann:depth=4,cap=100");
    let (curve, t) = theta(&dial, 1000.0);
    assert_eq!(curve, "boltzmann:depth=12,cap=100");
    assert!((t - 0.1).abs() < 1e-9, "{t}");
    let (curve, t) = theta(&dial, 1150.0);
    assert_eq!(curve, "boltzmann:depth=12,cap=100");
    assert!(t > 0.1 && t < 1.0, "{t}");
    assert!((dial.rating_of(c12, t).unwrap() - 1150.0).abs() < 0.01);
    assert_eq!(dial.setting(1400.0).unwrap().to_string(), "alphabeta:depth=12");
    // Without the mark, the same curve would start at random play.
    c.partial_curves.clear();
    let dial = Dial::new(c).unwrap();
    assert!(dial.rating_of(c12, 0.05).unwrap() < 1000.0);
}

/// A game's own engine, here a random mover named by its budget: the kind
/// of a curve above the dial's Boltzmann curves that `StandardAgents` does
/// not build.
struct Engines;

impl strength::agents::AgentFactory<search_core::tree::LiteralTree> for Engines {
    fn build(
        &self,
        spec: &strength::spec::AgentSpec,
    ) -> Result<Option<strength::agents::BoxedAgent<search_core::tree::LiteralTree>>, strength::spec::SpecError> {
        if spec.kind() != "engine" {
            return Ok(None);
        }
        let budget: u64 = spec.reader().require("budget")?;
        Ok(Some(Box::new(Engine(budget))))
    }

    fn kinds(&self) -> Vec<(String, String)> {
        vec![("engine:budget=N".into(), "the game's engine".into())]
    }

    fn play_version(&self, spec: &strength::spec::AgentSpec) -> Option<String> {
        (spec.kind() == "engine").then(|| "engine 1".into())
    }
}

/// The engine: the first legal move.
struct Engine(u64);

impl search_core::Agent<search_core::tree::LiteralTree> for Engine {
    fn name(&self) -> String {
        format!("engine with budget {}", self.0)
    }

    fn choose(
        &mut self,
        state: &search_core::tree::LiteralTree,
        _rng: &mut dyn search_core::RngCore,
    ) -> Result<u32, search_core::GameError> {
        use search_core::Game;
        let mut moves = Vec::new();
        state.generate(&mut moves);
        moves.first().copied().ok_or(search_core::GameError::GameOver)
    }
}

/// The test calibration with the engine's budget curve above depth 4, as
/// chess's dial has its engine's node budgets above the depth-3 curve.
fn with_engine_curve() -> Calibration {
    let mut c = calibration();
    c.rungs.extend([
        rung("engine:budget=100", Some("engine"), Some(100.0), 1000.0),
        rung("engine:budget=1000", Some("engine"), Some(1000.0), 1500.0),
    ]);
    c.partial_curves = vec!["engine".into()];
    c.curve_knobs.insert("engine".into(), "budget".into());
    c
}

#[test]
fn elo_x_plays_a_setting_of_another_factorys_kind_in_a_roster() {
    use search_core::tree::{LiteralEval, LiteralTree};
    use strength::agents::{Roster, StandardAgents};
    let dial = Dial::new(with_engine_curve()).unwrap();
    let standard = StandardAgents::new(LiteralEval).with_dial(dial.clone());
    let roster: Roster<LiteralTree> = Roster::new().with(standard.clone()).with(Engines);
    let above = dial.setting(1400.0).unwrap();
    assert_eq!(above.kind(), "engine");
    assert_eq!(roster.resolve(&"elo:1400".parse().unwrap()).unwrap(), above);
    let agent = roster.build("elo:1400").unwrap();
    assert!(agent.name().starts_with("engine with budget "), "{}", agent.name());
    // Its saved games record the engine's play version.
    assert_eq!(roster.play_version(&"elo:1400".parse().unwrap()).as_deref(), Some("engine 1"));
    assert_eq!(roster.play_version(&"elo:600".parse().unwrap()), None);
    // Below the engine's curve, the standard kinds, as before.
    assert_eq!(
        roster.build("elo:600").unwrap().name(),
        roster.build(&dial.setting(600.0).unwrap().to_string()).unwrap().name()
    );
    // Without the engine's factory the setting is refused in words.
    let alone: Roster<LiteralTree> = Roster::new().with(standard);
    let e = alone.build("elo:1400").err().expect("no factory builds the engine");
    assert!(e.to_string().contains("stands for engine:budget="), "{e}");
    // A rating outside the dial, or no number, is still the dial's error.
    assert!(roster.build("elo:5000").is_err());
    assert!(roster.build("elo:strong").is_err());
}

/// The adaptive agent observes through the Boltzmann curves and builds
/// their settings: against an opponent far stronger than the dial, it
/// aims at the top of the deepest Boltzmann curve, not at the engine's
/// curve above it, which its factory does not build.
#[test]
fn adaptive_plays_up_to_the_top_of_its_boltzmann_curves() {
    use search_core::tree::{LiteralEval, LiteralTree};
    use strength::agents::{AdaptiveAgent, StandardAgents};
    let dial = Dial::new(with_engine_curve()).unwrap();
    let factory = StandardAgents::new(LiteralEval).with_dial(dial.clone());
    // A target score of 0.001 for the opponent: as strong as it can.
    let agent = AdaptiveAgent::<LiteralTree, _>::new(factory, 0.001, None).unwrap();
    assert_eq!(dial.curve_range("engine"), Some((1000.0, 1500.0)));
    assert_eq!(agent.own_elo(), 1200.0);
    assert_eq!(agent.playing().to_string(), "alphabeta:depth=4");
}
