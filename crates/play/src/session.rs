//! One game against the engine: its moves, the engine's spec and seed, and
//! the engine's reply (computed off the async executor).

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use search_core::rng::{self, derive_seed};
use search_core::{Agent, Game, Outcome, Player, RngExt, Status, Turn};
use serde::Serialize;
use strength::agents::BoxedAgent;
use strength::spec::AgentSpec;
use tournament::RosterMaker;

use crate::api::lock;
use crate::error::ApiError;
use crate::games::{Board, ExportHeader, UiGame};

/// The engine's answer to a position: its move and what it thought.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reply {
    /// The move played, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position's value for the engine (the side that moved), in the
    /// evaluator's units, if its search finished an iteration.
    pub value: Option<f64>,
    /// The principal variation, from the engine's move on.
    pub pv: Vec<String>,
    /// The moves it could have played with their probabilities (the
    /// distribution it sampled from), most likely first.
    pub distribution: Vec<MoveProbability>,
    /// Nodes searched.
    pub nodes: u64,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Wall-clock time of the choice, in milliseconds.
    pub ms: f64,
    /// The move as the page shows it (SAN in chess).
    pub move_display: String,
    /// The principal variation as the page shows it.
    pub pv_display: Vec<String>,
    /// [`value`](Reply::value) in words: a forced win or loss (`mate in 3`
    /// in chess), pawns in chess (`+0.14`), else the number.
    pub value_display: Option<String>,
    /// The search's score of the move played, for the same side, when the
    /// agent searched it: below [`value`](Reply::value) when a weak setting
    /// drew a worse move than its best.
    pub move_value: Option<f64>,
    /// [`move_value`](Reply::move_value) in words.
    pub move_value_display: Option<String>,
    /// Set when the engine could not choose (its search found no move
    /// within its budget) and a random legal move was played instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A move and its probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveProbability {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The move as the page shows it (SAN in chess).
    pub display: String,
    /// Its probability.
    pub p: f64,
}

/// A 64-bit seed as a JSON string: JavaScript's numbers hold integers
/// exactly only up to 2^53.
fn seed_string<S: serde::Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(seed)
}

/// A session's state as the API shows it (without the session id).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StateView {
    pub(crate) game: &'static str,
    pub(crate) opponent: String,
    pub(crate) spec: String,
    pub(crate) human: &'static str,
    /// The session's seed, as a string of decimal digits.
    #[serde(serialize_with = "seed_string")]
    pub(crate) seed: u64,
    pub(crate) moves: Vec<String>,
    /// The moves as the page's log shows them (SAN in chess).
    pub(crate) moves_display: Vec<String>,
    /// The cells the last move changed (chess: its origin and destination).
    pub(crate) last_cells: Vec<String>,
    /// The cells of the winning line, once a game is won by one.
    pub(crate) winning_line: Vec<String>,
    pub(crate) to_move: &'static str,
    pub(crate) status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) detail: Option<String>,
    pub(crate) legal: Vec<String>,
    pub(crate) board: Board,
    pub(crate) last_move: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) start_fen: Option<String>,
    pub(crate) reply: Option<Reply>,
    /// For an opponent that learns from the human's moves: what it has
    /// learnt from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) memory: Option<MemoryView>,
}

/// What a learning opponent has seen.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct MemoryView {
    /// Earlier games of the series it learnt from (0 in the first game).
    pub(crate) games: u32,
}

/// Whether agents of `spec` learn from their opponent's moves, so that a
/// session keeps one across its moves and hands it on to the next game of
/// a series: `online` and `adaptive`.
pub(crate) fn learns(spec: &str) -> bool {
    spec.parse::<AgentSpec>().is_ok_and(|s| matches!(s.kind(), "online" | "adaptive"))
}

/// A learning opponent kept by a session.
type Kept<G> = Arc<Mutex<BoxedAgent<G>>>;

/// A learning opponent handed from one game to the next of a series.
pub(crate) struct Carried {
    /// Games it has learnt from, the one it comes from included.
    games: u32,
    /// The [`Kept`] agent of the game's type.
    agent: Box<dyn Any + Send>,
    /// The final position when the game it comes from was over (the type
    /// `G`): it still has to see the move that ended it.
    last: Option<Box<dyn Any + Send>>,
}

impl std::fmt::Debug for Carried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Carried").field("games", &self.games).field("over", &self.last.is_some()).finish()
    }
}

/// An export of a game.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Export {
    pub(crate) game: &'static str,
    /// `pgn` (chess) or `moves`.
    pub(crate) format: &'static str,
    /// The exported text.
    pub(crate) text: String,
    /// The move line (for chess, UCI moves), which `POST /api/games`
    /// accepts back as `moves`.
    pub(crate) moves: String,
    /// Chess: the start position's FEN, which `POST /api/games` accepts
    /// back as `position`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) position: Option<String>,
}

/// What the engine's search computed, to be applied to the session: the
/// index of its move among the legal moves (in generation order) and the
/// reply.
#[derive(Debug)]
pub(crate) struct EngineOutput {
    pub(crate) ply: usize,
    pub(crate) index: usize,
    pub(crate) reply: Reply,
}

/// A search to run off the executor.
pub(crate) type EngineJob = Box<dyn FnOnce() -> EngineOutput + Send>;

/// A game session, whatever the game.
pub(crate) trait Play: Send {
    /// The state.
    fn view(&self) -> StateView;
    /// Whether the engine is to move in an ongoing game.
    fn engine_to_move(&self) -> bool;
    /// Plays the human's move.
    fn human_move(&mut self, text: &str) -> Result<(), ApiError>;
    /// The engine's search of the current position.
    fn engine_job(&self) -> EngineJob;
    /// Applies the engine's move (if the position did not change since the
    /// job was made).
    fn apply_engine(&mut self, out: EngineOutput) -> Result<(), ApiError>;
    /// Takes back moves to the human's previous turn.
    fn undo(&mut self) -> Result<(), ApiError>;
    /// The export.
    fn export(&self) -> Export;
    /// Hands over the learning opponent (see [`learns`]), if there is one,
    /// to the next game of a series, which must be of the same `game`
    /// against the same `spec` (else 422, and nothing is handed over); the
    /// session goes on with fresh agents.
    fn carry(&mut self, game: &str, spec: &str) -> Result<Option<Carried>, ApiError>;
}

/// How a session starts.
#[derive(Debug)]
pub(crate) struct Setup {
    pub(crate) opponent: String,
    pub(crate) spec: String,
    pub(crate) human: Player,
    pub(crate) seed: u64,
    pub(crate) position: Option<String>,
    pub(crate) moves: Option<String>,
    /// The learning opponent of the previous game of a series.
    pub(crate) carried: Option<Carried>,
}

/// A session of game `G`.
pub(crate) struct Typed<G: UiGame>
where
    G::Move: Send + Sync,
{
    roster: RosterMaker<G>,
    opponent: String,
    spec: String,
    human: Player,
    seed: u64,
    start: G,
    current: G,
    moves: Vec<G::Move>,
    reply: Option<Reply>,
    /// The learning opponent, kept across moves, and the earlier games it
    /// learnt from.
    kept: Option<(Kept<G>, u32)>,
}

fn legal<G: Game>(g: &G) -> Vec<G::Move> {
    let mut v = Vec::new();
    match g.generate(&mut v) {
        Status::Ongoing => v,
        Status::Over(_) => Vec::new(),
    }
}

/// The words of a move line, without PGN move numbers, comments-free
/// result markers and check signs' absence mattering.
fn line_words(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().filter_map(|w| {
        // `12.e4` or `12...` or `12.`: drop the number.
        let w = match w.find('.') {
            Some(i) if i > 0 && w[..i].bytes().all(|b| b.is_ascii_digit()) => w[i..].trim_start_matches('.'),
            _ => w,
        };
        (!w.is_empty() && !matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*")).then_some(w)
    })
}

/// Parses one move typed by a user: in the game's notation and legal in `g`
/// by the game's rules ([`UiGame::human_moves`]).
fn parse_legal<G: UiGame>(g: &G, text: &str) -> Result<G::Move, String>
where
    G::Move: Send + Sync,
{
    let mv = g.parse_move(text).map_err(|e| e.to_string())?;
    if g.human_moves().contains(&mv) { Ok(mv) } else { Err(format!("{text} is not a legal move here")) }
}

impl<G: UiGame> Typed<G>
where
    G::Move: Send + Sync,
{
    /// A new session; errors are about the position or the move line, or
    /// a series whose previous game was another game or opponent. `built`:
    /// the opponent, built from the spec (kept when it learns).
    pub(crate) fn new(roster: RosterMaker<G>, mut setup: Setup, built: BoxedAgent<G>) -> Result<Self, ApiError> {
        let kept = match setup.carried.take() {
            Some(c) => {
                let agent = c
                    .agent
                    .downcast::<Kept<G>>()
                    .map_err(|_| ApiError::Unprocessable("after: not a game of this kind".into()))?;
                {
                    let mut a = lock(&agent);
                    if let Some(last) = c.last.and_then(|l| l.downcast::<G>().ok()) {
                        a.game_over(&last);
                    }
                    a.reset();
                }
                Some((*agent, c.games))
            }
            None if learns(&setup.spec) => Some((Arc::new(Mutex::new(built)), 0)),
            None => None,
        };
        let start = match setup.position.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            None => G::start(),
            Some(text) => match G::parse_position(text) {
                Some(Ok(g)) => g,
                Some(Err(e)) => return Err(ApiError::Unprocessable(format!("position: {e}"))),
                None => {
                    return Err(ApiError::Unprocessable(format!(
                        "{} has no position format: give a move line as `moves`",
                        G::NAME
                    )));
                }
            },
        };
        if matches!(start.turn(), Turn::Chance) {
            return Err(ApiError::Unprocessable("the position is a chance node".into()));
        }
        let mut s = Typed {
            roster,
            opponent: setup.opponent,
            spec: setup.spec,
            human: setup.human,
            seed: setup.seed,
            current: start.clone(),
            start,
            moves: Vec::new(),
            reply: None,
            kept,
        };
        for word in line_words(setup.moves.as_deref().unwrap_or("")) {
            let mv = parse_legal(&s.current, word).map_err(|e| ApiError::Unprocessable(format!("moves: {e}")))?;
            s.push(mv);
        }
        Ok(s)
    }

    fn push(&mut self, mv: G::Move) {
        self.current.play(mv);
        self.moves.push(mv);
    }

    fn side_to_move(&self) -> Option<Player> {
        self.current.turn().player()
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.current.status() {
            Status::Ongoing => None,
            Status::Over(o) => Some(o),
        }
    }

    fn check_ongoing(&self) -> Result<(), ApiError> {
        match self.outcome() {
            None => Ok(()),
            Some(_) => Err(ApiError::Conflict("the game is over".into())),
        }
    }
}

impl<G: UiGame> Play for Typed<G>
where
    G::Move: Send + Sync,
{
    fn view(&self) -> StateView {
        let status = match self.outcome() {
            None => "ongoing",
            Some(Outcome::Win(p)) if p == self.human => "human_won",
            Some(Outcome::Win(_)) => "engine_won",
            Some(_) => "draw",
        };
        let mut g = self.start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut moves_display = Vec::with_capacity(self.moves.len());
        let mut last_cells = Vec::new();
        for (k, &mv) in self.moves.iter().enumerate() {
            moves.push(g.move_string(mv));
            moves_display.push(g.shown_move(mv));
            if k + 1 == self.moves.len() {
                last_cells = g.move_cells(mv);
            }
            g.play(mv);
        }
        let legal = self.current.human_moves().into_iter().map(|m| self.current.move_string(m)).collect();
        let start_fen = self.start.board().fen;
        StateView {
            game: G::NAME,
            opponent: self.opponent.clone(),
            spec: self.spec.clone(),
            human: match self.human {
                Player::First => "first",
                Player::Second => "second",
            },
            seed: self.seed,
            last_move: moves.last().cloned(),
            moves,
            moves_display,
            last_cells,
            winning_line: self.current.winning_line(),
            to_move: if self.side_to_move() == Some(self.human) { "human" } else { "engine" },
            status,
            detail: self.current.end_detail(),
            legal,
            board: self.current.board(),
            start_fen,
            reply: self.reply.clone(),
            memory: self.kept.as_ref().map(|k| MemoryView { games: k.1 }),
        }
    }

    fn engine_to_move(&self) -> bool {
        self.outcome().is_none() && self.side_to_move() == Some(self.human.opponent())
    }

    fn human_move(&mut self, text: &str) -> Result<(), ApiError> {
        self.check_ongoing()?;
        if self.side_to_move() != Some(self.human) {
            return Err(ApiError::Conflict("not your turn: the engine is to move".into()));
        }
        let mv = parse_legal(&self.current, text).map_err(ApiError::Conflict)?;
        self.push(mv);
        self.reply = None;
        Ok(())
    }

    fn engine_job(&self) -> EngineJob {
        let state = self.current.clone();
        let source = match &self.kept {
            Some((agent, _)) => Source::Kept(agent.clone()),
            None => Source::Fresh(self.roster.clone(), self.spec.clone()),
        };
        let ply = self.moves.len();
        let seed = derive_seed(self.seed, ply as u64);
        Box::new(move || think(&state, source, seed, ply))
    }

    fn apply_engine(&mut self, out: EngineOutput) -> Result<(), ApiError> {
        if out.ply != self.moves.len() || !self.engine_to_move() {
            return Err(ApiError::Conflict("the position changed during the search".into()));
        }
        let moves = legal(&self.current);
        let mv = *moves.get(out.index).ok_or_else(|| ApiError::Conflict("the engine's move is gone".into()))?;
        self.push(mv);
        self.reply = Some(out.reply);
        Ok(())
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        // The last earlier position with the human to move.
        let mut g = self.start.clone();
        let mut target = None;
        for (k, &mv) in self.moves.iter().enumerate() {
            if g.turn().player() == Some(self.human) {
                target = Some(k);
            }
            g.play(mv);
        }
        let k = target.ok_or_else(|| ApiError::Conflict("nothing to undo".into()))?;
        let mut g = self.start.clone();
        for &mv in &self.moves[..k] {
            g.play(mv);
        }
        self.moves.truncate(k);
        self.current = g;
        self.reply = None;
        Ok(())
    }

    fn export(&self) -> Export {
        let header = ExportHeader { human: self.human, engine: &self.spec, outcome: self.outcome() };
        let (format, text) = G::export(&self.start, &self.moves, &header);
        let moves = crate::games::move_line(&self.start, &self.moves);
        let position = self.start.board().fen;
        Export { game: G::NAME, format, text, moves, position }
    }

    fn carry(&mut self, game: &str, spec: &str) -> Result<Option<Carried>, ApiError> {
        if self.kept.is_some() && (game != G::NAME || spec != self.spec) {
            return Err(ApiError::Unprocessable(format!(
                "after: the previous game was {} against {:?}; a series keeps the game and the opponent",
                G::NAME,
                crate::api::shorten(&self.spec)
            )));
        }
        let Some((agent, games)) = self.kept.take() else { return Ok(None) };
        let last = self.outcome().map(|_| Box::new(self.current.clone()) as Box<dyn Any + Send>);
        Ok(Some(Carried { games: games + 1, agent: Box::new(agent), last }))
    }
}

/// Where the engine's agent comes from.
enum Source<G: Game> {
    /// Built afresh from the spec, so that its reply depends only on the
    /// position, the spec and the seed.
    Fresh(RosterMaker<G>, String),
    /// The session's learning opponent.
    Kept(Kept<G>),
}

/// A move of `state` with its probability.
fn probability<G: UiGame>(state: &G, mv: G::Move, p: f64) -> MoveProbability
where
    G::Move: Send + Sync,
{
    MoveProbability { mv: state.move_string(mv), display: state.shown_move(mv), p }
}

/// Runs the engine on `state`: takes the agent from `source` and asks it
/// for an explained choice. Never fails and never panics: when the agent
/// cannot choose, a random legal move is played and the reply says so.
fn think<G: UiGame>(state: &G, source: Source<G>, seed: u64, ply: usize) -> EngineOutput
where
    G::Move: Send + Sync,
{
    let moves = legal(state);
    let mut rng = rng::seeded(seed);
    let begin = Instant::now();
    let choice = catch_unwind(AssertUnwindSafe(|| {
        let mut g = state.clone();
        g.mark_search_root();
        match source {
            Source::Fresh(roster, spec) => {
                let mut agent = roster().build(&spec).map_err(|e| e.to_string())?;
                agent.choose_explained(&g, &mut rng).map_err(|e| e.to_string())
            }
            Source::Kept(agent) => lock(&agent).choose_explained(&g, &mut rng).map_err(|e| e.to_string()),
        }
    }));
    let ms = begin.elapsed().as_secs_f64() * 1000.0;
    let choice = match choice {
        Ok(Ok(c)) => moves.iter().position(|&m| m == c.mv).map(|i| (i, c)).ok_or_else(|| "an illegal move".to_string()),
        Ok(Err(e)) => Err(e),
        Err(_) => Err("a panic in the search".to_string()),
    };
    let (index, reply) = match choice {
        Ok((index, c)) => {
            let t = c.thought;
            let mut distribution: Vec<MoveProbability> = t
                .as_ref()
                .map(|t| t.distribution.iter().map(|&(m, p)| probability(state, m, p)).collect())
                .unwrap_or_else(|| vec![probability(state, c.mv, 1.0)]);
            distribution.sort_by(|a, b| b.p.total_cmp(&a.p));
            let (mut pv, mut pv_display) = (Vec::new(), Vec::new());
            let mut g = state.clone();
            for &m in t.as_ref().map_or(&[][..], |t| &t.pv[..]) {
                if !legal(&g).contains(&m) {
                    break;
                }
                pv.push(g.move_string(m));
                pv_display.push(g.shown_move(m));
                g.play(m);
            }
            if pv.first() != Some(&state.move_string(c.mv)) {
                pv = vec![state.move_string(c.mv)];
                pv_display = vec![state.shown_move(c.mv)];
            }
            let value = t.as_ref().and_then(|t| t.value).filter(|v| v.is_finite());
            let move_value = t
                .as_ref()
                .and_then(|t| t.scores.iter().find(|(m, _)| *m == c.mv))
                .map(|&(_, v)| v)
                .filter(|v| v.is_finite());
            let reply = Reply {
                mv: state.move_string(c.mv),
                value,
                pv,
                distribution,
                nodes: t.as_ref().map_or(0, |t| t.stats.nodes),
                depth: t.as_ref().map_or(0, |t| t.stats.depth),
                ms,
                move_display: state.shown_move(c.mv),
                pv_display,
                value_display: value.map(G::value_text),
                move_value,
                move_value_display: move_value.map(G::value_text),
                note: None,
            };
            (index, reply)
        }
        Err(why) => {
            let index = rng.random_range(0..moves.len().max(1));
            let mv = moves.get(index).map(|&m| state.move_string(m)).unwrap_or_default();
            let p = 1.0 / moves.len().max(1) as f64;
            let shown = moves.get(index).map(|&m| state.shown_move(m)).unwrap_or_default();
            let reply = Reply {
                mv: mv.clone(),
                value: None,
                pv: vec![mv],
                distribution: moves.iter().map(|&m| probability(state, m, p)).collect(),
                nodes: 0,
                depth: 0,
                ms,
                move_display: shown.clone(),
                pv_display: vec![shown],
                value_display: None,
                move_value: None,
                move_value_display: None,
                note: Some(format!("the engine gave no move ({why}): a random legal move was played")),
            };
            (index, reply)
        }
    };
    EngineOutput { ply, index, reply }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_drop_pgn_numbers_and_results() {
        let words: Vec<&str> = line_words("1. e4 e5 2.Nf3 2... Nc6 1-0").collect();
        assert_eq!(words, ["e4", "e5", "Nf3", "Nc6"]);
        let words: Vec<&str> = line_words("4 4 3").collect();
        assert_eq!(words, ["4", "4", "3"]);
    }
}
