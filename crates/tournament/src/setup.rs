//! A game as a tournament sees it.

use std::fmt;
use std::sync::Arc;

use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Status};
use strength::agents::{Roster, StandardAgents};
use strength::pairing::{PairOutcome, play_pair};

use crate::TournamentError;

/// Makes a game's roster of agent kinds afresh (each worker thread of a
/// match builds its agents from its own roster).
pub type RosterMaker<G> = Arc<dyn Fn() -> Roster<G> + Send + Sync>;

/// Parses a position given as text (e.g. a FEN) into a game state: `None`
/// when the text is not a position (then it is a move line), else the
/// position or a [`TournamentError::Opening`] saying why it is not valid.
type PositionParser<G> = Arc<dyn Fn(&str) -> Option<Result<G, TournamentError>> + Send + Sync>;

/// The balance test of a drawn opening.
type BalanceTest<G> = Arc<dyn Fn(&G) -> bool + Send + Sync>;

/// A game as a tournament sees it: its name (recorded with results), its
/// start position, its roster of agent kinds, how openings are drawn and
/// judged balanced, and the ply limit after which a game is a draw.
///
/// Openings are text: moves in the game's notation
/// ([`Game::write_move`]/[`Game::parse_move`]) separated by spaces, played
/// from the start; or, where the setup has a
/// [position parser](Setup::with_position_parser), a position of its own
/// notation.
///
/// ```
/// use games_small::{TicTacToe, TicTacToeEval};
/// use tournament::Setup;
///
/// let setup = Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
///     .with_opening_plies(1)
///     .with_max_plies(9);
/// setup.check_spec("boltzmann:depth=9,cap=1,theta=2")?;
/// assert!(setup.check_spec("alphabeta:depth=-1").is_err());
/// # Ok::<(), tournament::TournamentError>(())
/// ```
pub struct Setup<G: Game> {
    name: String,
    start: G,
    roster: RosterMaker<G>,
    opening_plies: usize,
    balance: Option<BalanceTest<G>>,
    max_plies: usize,
    pairs_per_cell: usize,
    position: Option<PositionParser<G>>,
}

impl<G: Game> Clone for Setup<G> {
    fn clone(&self) -> Self {
        Setup {
            name: self.name.clone(),
            start: self.start.clone(),
            roster: self.roster.clone(),
            opening_plies: self.opening_plies,
            balance: self.balance.clone(),
            max_plies: self.max_plies,
            pairs_per_cell: self.pairs_per_cell,
            position: self.position.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Setup<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setup")
            .field("name", &self.name)
            .field("opening_plies", &self.opening_plies)
            .field("balanced", &self.balance.is_some())
            .field("max_plies", &self.max_plies)
            .finish_non_exhaustive()
    }
}

/// Draws in a row that found only openings already in the list, after which
/// [`Setup::random_openings`] accepts a repeat.
const DISTINCT_TRIES: usize = 1000;

impl<G: Game> Setup<G> {
    /// A setup named `name` (recorded with every result: pick one per game
    /// and variant) from `start`, whose agents come from `roster`. Openings
    /// default to none (every pair starts at `start`) and the ply limit to
    /// 1000.
    pub fn new(name: impl Into<String>, start: G, roster: impl Fn() -> Roster<G> + Send + Sync + 'static) -> Self {
        Setup {
            name: name.into(),
            start,
            roster: Arc::new(roster),
            opening_plies: 0,
            balance: None,
            max_plies: 1000,
            pairs_per_cell: 2,
            position: None,
        }
    }

    /// A setup whose roster is the standard agent kinds of `strength`
    /// (`alphabeta`, `boltzmann`, `rminimax`, `random`, ...) searching
    /// with `eval` (1 MiB tables).
    pub fn standard<E>(name: impl Into<String>, start: G, eval: E) -> Self
    where
        G: Send + Sync + 'static,
        G::Move: Send,
        E: Evaluator<G> + Clone + Send + Sync + 'static,
    {
        let agents = StandardAgents::new(eval).with_table_mib(1);
        Self::new(name, start, move || Roster::new().with(agents.clone()))
    }

    /// A setup with the roster made by `roster` instead (e.g. with the
    /// strength dial `elo:X` once the game is calibrated).
    #[must_use]
    pub fn with_roster(mut self, roster: RosterMaker<G>) -> Self {
        self.roster = roster;
        self
    }

    /// Random openings of `plies` uniformly random moves.
    #[must_use]
    pub fn with_opening_plies(mut self, plies: usize) -> Self {
        self.opening_plies = plies;
        self
    }

    /// Keeps a random opening only if a depth-`depth` alpha-beta search with
    /// `eval` finds the side to move within `margin` of level (in `eval`'s
    /// units).
    #[must_use]
    pub fn with_balance<E>(mut self, eval: E, depth: u32, margin: f64) -> Self
    where
        E: Evaluator<G> + Clone + Send + Sync + 'static,
    {
        self.balance = Some(Arc::new(move |g: &G| level_within(g, eval.clone(), depth, margin)));
        self
    }

    /// Keeps a random opening only if `test` accepts it.
    #[must_use]
    pub fn with_balance_test(mut self, test: impl Fn(&G) -> bool + Send + Sync + 'static) -> Self {
        self.balance = Some(Arc::new(test));
        self
    }

    /// A game still going after `plies` moves from its opening is scored a
    /// draw (and marked adjudicated).
    #[must_use]
    pub fn with_max_plies(mut self, plies: usize) -> Self {
        self.max_plies = plies;
        self
    }

    /// Pairs of games per cell of a match in the cell store (default 2):
    /// small enough that an interrupted match loses little, large enough
    /// that agents are not rebuilt every game (fast games want more).
    #[must_use]
    pub fn with_pairs_per_cell(mut self, pairs: usize) -> Self {
        self.pairs_per_cell = pairs.max(1);
        self
    }

    /// Openings may also be positions in the game's own notation: `parse`
    /// returns `None` for a text that is not one (a move line, then), else
    /// the position or why it is not valid (e.g. a FEN, told by its `/`).
    /// The error is any error type (or a message: a `String` or a `&str`);
    /// its text becomes the reason of the [`TournamentError::Opening`].
    ///
    /// ```
    /// use games_small::{TicTacToe, TicTacToeEval};
    /// use search_core::GameError;
    /// use tournament::{Setup, TournamentError};
    ///
    /// // `!` starts a position of this game's own notation (here only the start).
    /// let parse = |text: &str| {
    ///     text.strip_prefix('!').map(|rest| match rest {
    ///         "start" => Ok(TicTacToe::default()),
    ///         other => Err(GameError::parse("position", other, 0, "only `start` is known")),
    ///     })
    /// };
    /// let setup = Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
    ///     .with_position_parser(parse);
    /// assert_eq!(setup.parse_opening("!start")?, TicTacToe::default());
    /// assert!(matches!(setup.parse_opening("!middle"), Err(TournamentError::Opening { .. })));
    /// setup.parse_opening("b2")?; // a move line
    /// # Ok::<(), TournamentError>(())
    /// ```
    #[must_use]
    pub fn with_position_parser<E>(
        mut self,
        parse: impl Fn(&str) -> Option<Result<G, E>> + Send + Sync + 'static,
    ) -> Self
    where
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        self.position = Some(Arc::new(move |text: &str| {
            parse(text).map(|parsed| {
                parsed.map_err(|e| TournamentError::Opening { opening: text.to_string(), reason: e.into().to_string() })
            })
        }));
        self
    }

    /// The name given to [`Setup::new`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// A fresh roster of the game's agent kinds.
    pub fn roster(&self) -> Roster<G> {
        (self.roster)()
    }

    /// The roster maker (to share with another setup or a server).
    pub fn roster_maker(&self) -> &RosterMaker<G> {
        &self.roster
    }

    /// The ply limit.
    pub fn max_plies(&self) -> usize {
        self.max_plies
    }

    /// Pairs of games per cell of a match.
    pub fn pairs_per_cell(&self) -> usize {
        self.pairs_per_cell
    }

    /// The plies of a random opening.
    pub fn opening_plies(&self) -> usize {
        self.opening_plies
    }

    /// Checks that `spec` builds an agent (before any game is played).
    pub fn check_spec(&self, spec: &str) -> Result<(), TournamentError> {
        self.roster().build(spec).map(drop).map_err(TournamentError::from)
    }

    /// The [play version](strength::agents::AgentFactory::play_version) of
    /// `spec`'s agents, if their factory states one (`None` also for a spec
    /// that does not parse: [`check_spec`](Self::check_spec) refuses it).
    pub fn play_version(&self, spec: &str) -> Option<String> {
        spec.parse().ok().and_then(|s| self.roster().play_version(&s))
    }

    /// The position an opening's text stands for: its moves played from the
    /// start (each must be legal), or a position of the game's own
    /// notation where the setup has a parser and the parser accepts it.
    pub fn parse_opening(&self, text: &str) -> Result<G, TournamentError> {
        let bad = |reason: String| TournamentError::Opening { opening: text.to_string(), reason };
        if let Some(parsed) = self.position.as_ref().and_then(|parse| parse(text.trim())) {
            return parsed;
        }
        let mut g = self.start.clone();
        let mut legal = Vec::new();
        for word in text.split_whitespace() {
            let mv = g.parse_move(word).map_err(|e| bad(e.to_string()))?;
            legal.clear();
            if g.generate(&mut legal) != Status::Ongoing || !legal.contains(&mv) {
                return Err(bad(format!("{word} is not legal there")));
            }
            g.play(mv);
        }
        Ok(g)
    }

    /// Checks an opening: a legal line whose game is not over.
    pub fn check_opening(&self, text: &str) -> Result<(), TournamentError> {
        let g = self.parse_opening(text)?;
        match g.status() {
            Status::Ongoing => Ok(()),
            Status::Over(_) => {
                Err(TournamentError::Opening { opening: text.into(), reason: "the game is already over".into() })
            }
        }
    }

    /// Openings from a file's text: one a line, blank lines and lines
    /// starting with `#` skipped; each checked. An error names the line
    /// (counted from 1).
    pub fn parse_openings(&self, text: &str) -> Result<Vec<String>, (usize, TournamentError)> {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            self.check_opening(line).map_err(|e| (i + 1, e))?;
            out.push(line.to_string());
        }
        Ok(out)
    }

    /// `count` balanced random openings drawn from `seed`, as move lines:
    /// [`Setup::with_opening_plies`] uniformly random moves from the start,
    /// kept when the game goes on and the balance test (if any) accepts the
    /// position. Distinct while they last: a game with few (tic-tac-toe has
    /// nine one-ply openings) repeats them once a thousand draws in a row
    /// found only repeats. The rule does not depend on `count`, so a longer
    /// list starts with the shorter one.
    pub fn random_openings(&self, count: usize, seed: u64) -> Result<Vec<String>, TournamentError> {
        crate::openings::random(self, count, seed, DISTINCT_TRIES)
    }

    pub(crate) fn is_balanced(&self, g: &G) -> bool {
        self.balance.as_ref().is_none_or(|test| test(g))
    }

    /// Plays one pair per `(opening, seed)` between the agents of specs `a`
    /// and `b` (built once, reset before each game): A moves first in the
    /// pair's first game, B in its second.
    pub fn play_pairs(&self, a: &str, b: &str, pairs: &[(String, u64)]) -> Result<Vec<PairOutcome>, TournamentError> {
        let roster = self.roster();
        let mut agent_a = roster.build(a)?;
        let mut agent_b = roster.build(b)?;
        pairs
            .iter()
            .map(|(opening, seed)| {
                let start = self.parse_opening(opening)?;
                play_pair(&start, &mut agent_a, &mut agent_b, *seed, Some(self.max_plies)).map_err(|e| {
                    TournamentError::Game { a: a.into(), b: b.into(), opening: opening.clone(), reason: e.to_string() }
                })
            })
            .collect()
    }
}

/// Whether a depth-`depth` alpha-beta search from `g` finds the side to
/// move within `margin` of level.
fn level_within<G: Game, E: Evaluator<G>>(g: &G, eval: E, depth: u32, margin: f64) -> bool {
    let opts = Options::recommended::<G, Minimax, E>(&eval).with_table_mib(if G::HASHED { 1 } else { 0 });
    let Ok(mut search) = Search::new(Minimax, eval, opts) else { return false };
    search.run(g, &Limits::depth(depth)).ok().and_then(|r| r.value).is_some_and(|v| v.abs() <= margin)
}

#[cfg(test)]
mod tests {
    use games_small::{TicTacToe, TicTacToeEval};

    use super::*;

    /// A parser whose error is a message, as before errors were typed.
    fn by_message(text: &str) -> Option<Result<TicTacToe, String>> {
        text.starts_with('!').then(|| Err(format!("no position {text}")))
    }

    #[test]
    fn a_position_parser_s_error_is_the_opening_s_reason() {
        let setup = Setup::standard("tictactoe", TicTacToe::default(), TicTacToeEval::default())
            .with_position_parser(by_message);
        match setup.parse_opening(" !x ") {
            Err(TournamentError::Opening { opening, reason }) => {
                assert_eq!((opening.as_str(), reason.as_str()), ("!x", "no position !x"));
            }
            other => panic!("{other:?}"),
        }
        assert!(setup.parse_opening("b2").is_ok());
        let by_str = |text: &str| text.starts_with('!').then_some(Err::<TicTacToe, _>("not a position"));
        let setup = setup.with_position_parser(by_str);
        let e = setup.check_opening("!y").unwrap_err();
        assert_eq!(e.to_string(), "opening \"!y\": not a position");
    }
}
