//! The games the server offers, their rosters of agent kinds (the built-in
//! games' [`registry`], shared with `cargo xtask match`), the opponent
//! presets the page offers, and the budget every search gets.

use games_chess::ChessGame;
use games_small::{Connect4, Gobang, TicTacToe};
use registry::{RegistryError, chess_roster, connect4_roster, gobang_roster, tictactoe_roster};
use search_core::Player;
use serde::Serialize;
use strength::dial::{Calibration, Dial};
use strength::spec::AgentSpec;
use tournament::RosterMaker;

use crate::error::ApiError;
use crate::games::UiGame;
use crate::session::{Play, Setup, Typed};

/// The longest agent spec accepted.
const MAX_SPEC_LEN: usize = 200;

/// The kinds whose searches take a `nodes=N` budget.
const BUDGETED: [&str; 5] = ["alphabeta", "boltzmann", "rminimax", "epsilon", "iom"];

/// The Monte Carlo kinds: they count iterations, not nodes, so they get a
/// time budget (`ms=M`).
const TIMED: [&str; 2] = ["mcts", "ments"];

/// The kinds that search against a model of the opponent. Their full-width
/// search to `depth` has no budget of its own, nor has the prediction of
/// the opponent's replies to `opp_depth`: both depths are capped per game
/// ([`depth_cap`]); with `opp_depth` the iterative deepening to `depth` takes
/// a `nodes=N` budget.
const MODELLED: [&str; 2] = ["aware", "online"];

/// The most empty cells at which a `solver:depth=D,empties=E` opponent
/// starts playing perfectly on this server: the top of connect-4's dial
/// (perfect play from the eighth disc, under a second a move on one core).
/// Earlier, a solve takes seconds to minutes a move (perfect play from the
/// empty board, the plain `solver`, minutes for its first).
const SOLVER_MAX_EMPTIES: u32 = 34;

/// The largest solver table a `solver` opponent may ask for, in MiB.
const SOLVER_MAX_MIB: u64 = 64;

/// The deepest full-width search of a game within `max_nodes`: the largest
/// `D` with `b^D ≤ max_nodes` (at least 1), `b` an effective branching
/// factor of the game's modelled search, measured (with pruning): 3 for
/// tic-tac-toe, 4 for connect-4, 25 for gobang, 30 for chess. With the
/// default 2,000,000 nodes: 13, 10, 4 and 4 plies, each within about a
/// second a move on one core. `None` for an unknown game.
fn depth_cap(game: &str, max_nodes: u64) -> Option<u32> {
    let b: f64 = match game {
        "tictactoe" => 3.0,
        "connect4" => 4.0,
        "gobang" => 25.0,
        "chess" => 30.0,
        _ => return None,
    };
    let nodes = max_nodes.max(1) as f64;
    // A little tolerance, so that an exact power (4^10 ≤ 4^10) counts.
    Some(((nodes.ln() / b.ln()) + 1e-9).floor().max(1.0) as u32)
}

/// One opponent the page's menu offers.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    /// The agent spec.
    pub spec: String,
    /// What it is, in words.
    pub label: String,
}

/// A game as `GET /api/info` describes it.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// The API name (`connect4`).
    pub name: &'static str,
    /// The display name.
    pub title: &'static str,
    /// The dial's range `[low, high]` offered when the game is calibrated:
    /// the calibrated range cut at 0 (no negative Elo is offered; `elo:0`
    /// is then the weakest setting), rounded inwards to whole ratings.
    pub dial: Option<[f64; 2]>,
    /// The scale of the dial's ratings, named for a player (`Elo on
    /// Stockfish's scale`).
    pub scale: Option<String>,
    /// The ratings `human:X` takes (a Lichess rating), where the game has
    /// a human model (chess).
    pub human: Option<[f64; 2]>,
    /// The default opponent.
    pub default: String,
    /// The menu of opponents.
    pub presets: Vec<Preset>,
    /// Every agent kind the server accepts: `(synopsis, description)`.
    pub kinds: Vec<(String, String)>,
}

/// The four games' rosters and menus.
pub(crate) struct Catalog {
    tictactoe: RosterMaker<TicTacToe>,
    connect4: RosterMaker<Connect4>,
    gobang: RosterMaker<Gobang>,
    chess: RosterMaker<ChessGame>,
    pub(crate) infos: Vec<GameInfo>,
    max_nodes: u64,
    max_ms: u64,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("games", &self.infos.len())
            .field("max_nodes", &self.max_nodes)
            .field("max_ms", &self.max_ms)
            .finish()
    }
}

/// Ratings for the dial's menu: spread over its range, with 800 and 1800
/// when inside it, rounded to 50 (never `-0`).
fn dial_levels(low: f64, high: f64) -> Vec<f64> {
    let mut v: Vec<f64> = [0.1, 0.3, 0.5, 0.7, 0.9]
        .iter()
        .map(|f| ((low + f * (high - low)) / 50.0).round() * 50.0 + 0.0)
        .chain([800.0, 1800.0])
        .filter(|&x| x >= low && x <= high)
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

/// The range of the dial offered to a player: `[low, high]` cut at 0 and
/// rounded inwards to whole ratings (`None` if nothing of it is at or
/// above 0).
fn offered(low: f64, high: f64) -> Option<(f64, f64)> {
    let (low, high) = (low.max(0.0).ceil(), high.floor());
    (low <= high).then_some((low, high))
}

/// The name of a calibration's scale, from its anchor: `Stockfish UCI_Elo`
/// (chess) is Elo on Stockfish's scale, `random = 0` (the small games) Elo
/// with random play at 0.
fn scale_name(anchor: &str) -> String {
    if anchor.contains("Stockfish") {
        "Elo on Stockfish's scale".to_string()
    } else if anchor.trim_start().starts_with("random") {
        "Elo with random play at 0".to_string()
    } else {
        format!("Elo anchored at {anchor}")
    }
}

/// A rating as a label shows it: a whole number, or `below 0`.
fn rating_label(rating: f64) -> String {
    if rating < 0.0 { "below 0".to_string() } else { format!("{rating:.0}") }
}

/// One Boltzmann rung per calibrated curve (the one with the median θ),
/// labelled with its rating.
fn boltzmann_presets(c: &Calibration) -> Vec<Preset> {
    let mut curves: Vec<&str> = c.rungs.iter().filter_map(|r| r.curve.as_deref()).collect();
    curves.dedup();
    curves
        .into_iter()
        .filter(|curve| curve.starts_with("boltzmann"))
        .filter_map(|curve| {
            let rungs: Vec<_> = c
                .rungs
                .iter()
                .filter(|r| r.curve.as_deref() == Some(curve) && r.theta.is_some_and(|t| t.is_finite() && t > 0.0))
                .collect();
            let r = rungs.get(rungs.len() / 2)?;
            Some(Preset {
                spec: r.spec.clone(),
                label: format!("Boltzmann {} (rated {})", r.spec, rating_label(r.rating)),
            })
        })
        .collect()
}

fn info(
    name: &'static str,
    title: &'static str,
    kinds: Vec<(String, String)>,
    depths: &[u32],
    rminimax_depth: u32,
) -> Result<GameInfo, RegistryError> {
    let calibration = Some(registry::game(name)?.calibration()?);
    let dial = match &calibration {
        Some(c) => {
            let (low, high) =
                Dial::new(c.clone()).map_err(|source| RegistryError::Dial { game: name.to_string(), source })?.range();
            offered(low, high)
        }
        None => None,
    };
    let scale = calibration.as_ref().filter(|_| dial.is_some()).map(|c| scale_name(&c.anchor));
    let mut presets = Vec::new();
    if let Some((low, high)) = dial {
        for x in dial_levels(low, high) {
            presets.push(Preset { spec: format!("elo:{x:.0}"), label: format!("strength dial, Elo {x:.0}") });
        }
    }
    for &d in depths {
        presets.push(Preset { spec: format!("alphabeta:depth={d}"), label: format!("alpha-beta, depth {d}") });
    }
    if let Some(c) = &calibration {
        presets.extend(boltzmann_presets(c));
    }
    presets.push(Preset {
        spec: format!("rminimax:depth={rminimax_depth},theta=0.5"),
        label: format!("Rminimax θ = 0.5, depth {rminimax_depth}"),
    });
    // Human-like players, where the game has them (chess).
    let human = kinds.iter().any(|k| k.0.starts_with("human:")).then_some(games_chess::human::RATING_RANGE);
    if human.is_some() {
        for x in [1000, 1500, 2000] {
            presets.push(Preset { spec: format!("human:{x}"), label: format!("human model, Lichess rating {x}") });
        }
    }
    presets.push(Preset { spec: "random".into(), label: "random legal moves".into() });
    // The default: the dial's middle level, else the shallowest alpha-beta.
    let levels = presets.iter().filter(|p| p.spec.starts_with("elo:")).count();
    let default = presets[levels / 2].spec.clone();
    let kinds = kinds.into_iter().filter(|k| !k.0.starts_with("uci")).collect();
    Ok(GameInfo {
        name,
        title,
        dial: dial.map(|(a, b)| [a, b]),
        scale,
        human: human.map(|(a, b)| [a, b]),
        default,
        presets,
        kinds,
    })
}

impl Catalog {
    /// Loads the rosters (and the committed calibrations) of every game;
    /// `max_nodes` and `max_ms` are the budgets of [`budgeted`](Self::budgeted).
    pub(crate) fn load(max_nodes: u64, max_ms: u64) -> Result<Self, RegistryError> {
        let tictactoe = tictactoe_roster()?;
        let connect4 = connect4_roster()?;
        let gobang = gobang_roster()?;
        let chess = chess_roster()?;
        let infos = vec![
            info("tictactoe", "Tic-tac-toe", tictactoe().kinds(), &[1, 2, 9], 9)?,
            info("connect4", "Connect-4", connect4().kinds(), &[2, 4, 6, 8], 6)?,
            info("gobang", "Gobang 15×15", gobang().kinds(), &[2, 3, 4], 2)?,
            info("chess", "Chess", chess().kinds(), &[2, 3, 4, 5], 3)?,
        ];
        Ok(Catalog { tictactoe, connect4, gobang, chess, infos, max_nodes, max_ms })
    }

    /// The spec the engine will run for `text` in `game`, with a budget
    /// whatever its kind: `nodes=` added (or checked) on the searching kinds,
    /// `ms=` on the Monte Carlo ones, the depths of the modelled ones capped
    /// ([`depth_cap`]; and `nodes=` with `opp_depth`); more than one
    /// `threads` refused (the helpers of a parallel search are outside the
    /// budget); `uci:` refused (it would start a program the request
    /// names). `elo:X`, `adaptive` and `human:X` play fixed, calibrated
    /// settings and `random` does not search: they are bounded as they are.
    pub(crate) fn budgeted(&self, game: &str, text: &str) -> Result<String, ApiError> {
        if text.len() > MAX_SPEC_LEN {
            return Err(ApiError::Unprocessable(format!("agent spec longer than {MAX_SPEC_LEN} bytes")));
        }
        let spec: AgentSpec =
            text.parse().map_err(|e: strength::spec::SpecError| ApiError::Unprocessable(e.to_string()))?;
        let kind = spec.kind();
        if kind == "elo" {
            self.check_elo(game, text, spec.argument())?;
        }
        if kind == "uci" {
            return Err(ApiError::Unprocessable(
                "uci: engines are not offered by the web app (the spec would name a program to run)".into(),
            ));
        }
        // Lazy SMP helpers and MCTS root threads are not counted in the
        // budget: one thread a move.
        if (BUDGETED.contains(&kind) || TIMED.contains(&kind)) && spec.get("threads").is_some_and(|t| t.trim() != "1") {
            return Err(ApiError::Unprocessable(format!(
                "agent spec {text:?}: threads: this server's engines search on one thread each"
            )));
        }
        if TIMED.contains(&kind) {
            return capped(spec, text, "ms", self.max_ms, "milliseconds a move");
        }
        if kind == "solver" {
            return self.solver_budget(game, text, spec);
        }
        if MODELLED.contains(&kind) {
            let cap = depth_cap(game, self.max_nodes).ok_or_else(|| unknown_game(game))?;
            let predicting = spec.get("opp_depth").is_some();
            let key = if predicting { "opp_depth" } else { "depth" };
            if let Some(Ok(d)) = spec.get(key).map(|v| v.trim().parse::<u32>())
                && d > cap
            {
                return Err(ApiError::Unprocessable(format!(
                    "agent spec {text:?}: {key}={d} is over this server's limit of {cap} for {game} \
                     (this search has no node budget: its depth is capped)"
                )));
            }
            if !predicting {
                return Ok(spec.to_string());
            }
        } else if !BUDGETED.contains(&kind) {
            return Ok(spec.to_string());
        }
        capped(spec, text, "nodes", self.max_nodes, "nodes a move")
    }

    /// A `solver` spec as it is if its cost is bounded: the endgame form
    /// (`depth=D,empties=E`) with `D` within the game's [`depth_cap`] and
    /// `E` at most [`SOLVER_MAX_EMPTIES`], a table of at most
    /// [`SOLVER_MAX_MIB`]; perfect play throughout (no `empties`) is
    /// refused. A malformed spec is left for the roster to refuse.
    fn solver_budget(&self, game: &str, text: &str, spec: AgentSpec) -> Result<String, ApiError> {
        let number = |key: &str| spec.get(key).and_then(|v| v.trim().parse::<u64>().ok());
        let refuse = |why: String| Err(ApiError::Unprocessable(format!("agent spec {text:?}: {why}")));
        let cap = depth_cap(game, self.max_nodes).ok_or_else(|| unknown_game(game))?;
        if spec.get("empties").is_none() {
            return refuse(format!(
                "perfect play from the start costs minutes a move; this server offers `solver:depth=D,empties=E` \
                 (perfect play once at most E ≤ {SOLVER_MAX_EMPTIES} cells are empty)"
            ));
        }
        if let Some(e) = number("empties")
            && e > u64::from(SOLVER_MAX_EMPTIES)
        {
            return refuse(format!("empties={e} is over this server's limit of {SOLVER_MAX_EMPTIES}"));
        }
        if let Some(d) = number("depth")
            && d > u64::from(cap)
        {
            return refuse(format!("depth={d} is over this server's limit of {cap} for {game}"));
        }
        if let Some(m) = number("mib")
            && m > SOLVER_MAX_MIB
        {
            return refuse(format!("mib={m} is over this server's limit of {SOLVER_MAX_MIB}"));
        }
        Ok(spec.to_string())
    }

    /// Refuses, in words, an `elo:X` outside the range the page offers
    /// (422); a rating that is not a number is left for the dial to refuse.
    fn check_elo(&self, game: &str, text: &str, rating: Option<&str>) -> Result<(), ApiError> {
        let Some(info) = self.infos.iter().find(|i| i.name == game) else { return Err(unknown_game(game)) };
        let Some(elo) = rating.and_then(|r| r.trim().parse::<f64>().ok()) else { return Ok(()) };
        let scale = info.scale.as_deref().unwrap_or("Elo");
        match info.dial {
            None => Err(ApiError::Unprocessable(format!(
                "{}: {} has no calibration, so no strength dial: choose another opponent",
                crate::api::shorten(text),
                info.title
            ))),
            Some([low, high]) if !(low..=high).contains(&elo) => Err(ApiError::Unprocessable(format!(
                "{}: the strength dial of {} goes from {low:.0} to {high:.0} ({scale}); choose a rating in that range",
                crate::api::shorten(text),
                info.title
            ))),
            Some(_) => Ok(()),
        }
    }

    /// A new session of `game` (422 for an unknown game, a bad spec, a bad
    /// position or move line).
    pub(crate) fn create(&self, game: &str, setup: Setup) -> Result<Box<dyn Play>, ApiError> {
        fn make<G: UiGame>(roster: &RosterMaker<G>, setup: Setup) -> Result<Box<dyn Play>, ApiError>
        where
            G::Move: Send + Sync,
        {
            // Building the agent checks the spec (and allocates its table
            // once); a learning opponent is kept.
            let built = roster().build(&setup.spec).map_err(|e| {
                let asked = crate::api::shorten(&setup.opponent);
                ApiError::Unprocessable(format!("agent spec {asked:?}: {}", e.message))
            })?;
            Ok(Box::new(Typed::new(roster.clone(), setup, built)?))
        }
        match game {
            "tictactoe" => make(&self.tictactoe, setup),
            "connect4" => make(&self.connect4, setup),
            "gobang" => make(&self.gobang, setup),
            "chess" => make(&self.chess, setup),
            _ => Err(unknown_game(game)),
        }
    }

    /// The default opponent of `game`.
    pub(crate) fn default_opponent(&self, game: &str) -> Option<String> {
        self.infos.iter().find(|i| i.name == game).map(|i| i.default.clone())
    }
}

/// `spec` with `key=max` added, or as it is if its `key` is at most `max`
/// (422 above; a value that is not a number is left for the agent's
/// builder to refuse).
fn capped(spec: AgentSpec, text: &str, key: &str, max: u64, unit: &str) -> Result<String, ApiError> {
    match spec.get(key).map(|v| v.trim().parse::<u64>()) {
        None => Ok(spec.with(key, max).to_string()),
        Some(Ok(n)) if n > max => Err(ApiError::Unprocessable(format!(
            "agent spec {text:?}: {key}={n} is over this server's budget of {max} {unit}"
        ))),
        Some(_) => Ok(spec.to_string()),
    }
}

fn unknown_game(game: &str) -> ApiError {
    ApiError::Unprocessable(format!(
        "unknown game {:?}: one of tictactoe, connect4, gobang, chess",
        crate::api::shorten(game)
    ))
}

/// Which side a string names.
pub(crate) fn side(text: &str) -> Option<Player> {
    match text {
        "first" => Some(Player::First),
        "second" => Some(Player::Second),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_get_a_node_budget() {
        let r = Catalog::load(1000, 50).unwrap();
        let b = |spec: &str| r.budgeted("connect4", spec);
        assert_eq!(b("alphabeta:depth=3").unwrap(), "alphabeta:depth=3,nodes=1000");
        assert_eq!(b("alphabeta:depth=3,nodes=10").unwrap(), "alphabeta:depth=3,nodes=10");
        assert!(b("alphabeta:depth=3,nodes=10000").is_err());
        assert_eq!(b("random").unwrap(), "random");
        assert!(b("uci:/bin/sh").is_err());
        assert!(b("alphabeta:depth=3,threads=2").is_err());
        assert_eq!(b("alphabeta:ms=50,threads=1").unwrap(), "alphabeta:ms=50,threads=1,nodes=1000");
        assert!(b(",,").is_err());
    }

    #[test]
    fn every_kind_gets_a_budget() {
        let r = Catalog::load(1000, 50).unwrap();
        let b = |game: &str, spec: &str| r.budgeted(game, spec);
        // Monte Carlo: a time budget, one thread.
        assert_eq!(b("connect4", "mcts:iters=100000").unwrap(), "mcts:iters=100000,ms=50");
        assert_eq!(b("connect4", "ments:ms=20,tau=0.1").unwrap(), "ments:ms=20,tau=0.1");
        let e = b("connect4", "mcts:ms=60000").unwrap_err();
        assert!(e.to_string().contains("budget of 50 milliseconds"), "{e}");
        assert!(b("connect4", "mcts:iters=100,threads=4").is_err());
        // Modelled: the depth capped per game (1000 nodes: 4^4 = 256 ≤ 1000 < 4^5,
        // 30^2 = 900 ≤ 1000 < 30^3), and with opp_depth a node budget.
        assert_eq!(b("connect4", "aware:depth=4,theta=0.5").unwrap(), "aware:depth=4,theta=0.5");
        let e = b("connect4", "online:depth=5").unwrap_err();
        assert!(e.to_string().contains("limit of 4 for connect4"), "{e}");
        assert!(b("chess", "aware:depth=3,theta=0.01").is_err());
        assert_eq!(
            b("chess", "aware:depth=8,theta=0.01,opp_depth=2").unwrap(),
            "aware:depth=8,theta=0.01,opp_depth=2,nodes=1000"
        );
        assert!(b("chess", "online:depth=8,opp_depth=3").is_err());
        assert!(b("chess", "online:depth=8,opp_depth=2,nodes=5000").is_err());
        assert!(b("go", "aware:depth=1,theta=1").is_err());
        // The dial, the adaptive opponent: calibrated settings, as they are.
        assert_eq!(b("connect4", "elo:800").unwrap(), "elo:800");
        assert_eq!(b("connect4", "adaptive:target=0.5").unwrap(), "adaptive:target=0.5");
        // The solver: its endgame form within the caps (depth 4 at 1000
        // nodes), never perfect play from the start.
        assert_eq!(b("connect4", "solver:depth=4,empties=30").unwrap(), "solver:depth=4,empties=30");
        for (spec, why) in [
            ("solver", "costs minutes a move"),
            ("solver:mib=8", "costs minutes a move"),
            ("solver:depth=4,empties=40", "limit of 34"),
            ("solver:depth=12,empties=30", "limit of 4 for connect4"),
            ("solver:depth=4,empties=30,mib=4096", "limit of 64"),
        ] {
            let e = b("connect4", spec).unwrap_err();
            assert!(e.to_string().contains(why), "{spec}: {e}");
        }
    }

    #[test]
    fn depth_caps_follow_the_node_budget() {
        let caps: Vec<u32> =
            ["tictactoe", "connect4", "gobang", "chess"].iter().map(|g| depth_cap(g, 2_000_000).unwrap()).collect();
        assert_eq!(caps, [13, 10, 4, 4]);
        assert_eq!(depth_cap("connect4", 1 << 20), Some(10));
        assert_eq!(depth_cap("chess", 1), Some(1));
        assert_eq!(depth_cap("go", 1000), None);
    }

    #[test]
    fn every_preset_builds() {
        let r = Catalog::load(100_000, 100).unwrap();
        for info in &r.infos {
            assert!(info.presets.len() >= 4, "{}", info.name);
            for p in &info.presets {
                let spec = r.budgeted(info.name, &p.spec).unwrap();
                let setup = Setup {
                    opponent: p.spec.clone(),
                    spec,
                    human: Player::First,
                    seed: 1,
                    position: None,
                    moves: None,
                    carried: None,
                };
                r.create(info.name, setup).unwrap();
            }
        }
    }

    #[test]
    fn ratings_are_offered_from_0_on_a_named_scale() {
        assert_eq!(offered(-656.4, 1473.6), Some((0.0, 1473.0)));
        assert_eq!(offered(12.2, 900.0), Some((13.0, 900.0)));
        assert_eq!(offered(-50.0, -10.0), None);
        assert_eq!(scale_name("Stockfish UCI_Elo"), "Elo on Stockfish's scale");
        assert_eq!(scale_name("random = 0"), "Elo with random play at 0");
        assert_eq!(rating_label(-135.2), "below 0");
        assert_eq!(rating_label(402.4), "402");
        // -10 rounds to 0, never -0.
        assert!(dial_levels(-40.0, 60.0).iter().any(|&x| x == 0.0 && x.is_sign_positive()));
        let r = Catalog::load(1000, 50).unwrap();
        for info in &r.infos {
            let [low, high] = info.dial.unwrap();
            assert!(low >= 0.0 && low < high, "{}", info.name);
            assert!(info.scale.is_some());
            for p in &info.presets {
                assert!(!p.label.contains(" -") && !p.label.contains("rated -"), "{}", p.label);
                if let Some(x) = p.spec.strip_prefix("elo:") {
                    assert!(x.parse::<f64>().unwrap() >= 0.0 && !x.starts_with('-'), "{}", p.spec);
                }
            }
            // Outside the offered range: refused in words.
            let e = r.budgeted(info.name, &format!("elo:{}", high + 1.0)).unwrap_err().to_string();
            assert!(e.contains(&format!("goes from {low:.0} to {high:.0}")) && !e.contains("..="), "{e}");
            assert!(r.budgeted(info.name, "elo:-1").is_err());
            assert!(r.budgeted(info.name, &format!("elo:{low}")).is_ok());
        }
        let chess = r.infos.iter().find(|i| i.name == "chess").unwrap();
        assert_eq!(chess.scale.as_deref(), Some("Elo on Stockfish's scale"));
        assert_eq!(chess.human, Some([600.0, 2400.0]));
        assert!(chess.presets.iter().any(|p| p.label == "human model, Lichess rating 1500"));
    }

    #[test]
    fn dial_levels_are_inside_the_range() {
        let v = dial_levels(0.0, 2000.0);
        assert!(v.contains(&800.0) && v.contains(&1800.0) && v.contains(&1000.0));
        assert!(dial_levels(0.0, 700.0).iter().all(|&x| x <= 700.0));
    }
}
