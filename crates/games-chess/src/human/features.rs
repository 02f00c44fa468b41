//! What the model sees of each legal move: its value backed up by a
//! depth-`D` search and a few cheap facts about the move.

use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Game, GameError};
use shakmaty::{Bitboard, Color, Move, Position as _, Role};

use super::book::Book;
use crate::{ChessEval, ChessGame};

/// The names of the per-move features, in order (see [`move_features`]).
pub const FEATURES: [&str; 29] = [
    "gap",
    "log_gap",
    "best",
    "capture",
    "check",
    "knight",
    "bishop",
    "rook",
    "queen",
    "king",
    "castle",
    "promotion",
    "attacked",
    "exchange_loss",
    "escape",
    "advance",
    "threat",
    "recapture",
    "same_piece",
    "second_best",
    "third_best",
    "pawn_attacked",
    "develop",
    "backward",
    "hanging",
    "distance",
    "castling_rights",
    "prior",
    "book",
];

/// How many features a move has.
pub const K: usize = FEATURES.len();

/// The index of the `prior` feature.
pub const PRIOR: usize = K - 2;

/// The index of the `book` feature (the last).
pub const BOOK: usize = K - 1;

/// How many move keys there are ([`move_key`]): from-square × to-square.
pub const KEYS: usize = 64 * 64;

/// A move's key for the prior: its from- and to-squares (the king's for
/// castling) seen from the mover's side (Black's ranks flipped), so that
/// `e2e4` and `e7e5` share a key.
///
/// ```
/// use games_chess::ChessGame;
/// use games_chess::human::move_key;
/// use search_core::Game;
/// let mut g = ChessGame::startpos();
/// let e4 = g.parse_move("e2e4")?;
/// let k = move_key(&g, e4);
/// g.play(e4);
/// assert_eq!(move_key(&g, g.parse_move("e7e5")?), k);
/// # Ok::<(), search_core::GameError>(())
/// ```
pub fn move_key(state: &ChessGame, m: Move) -> usize {
    let flip = if state.position().turn() == Color::White { 0 } else { 56 };
    let from = m.from().map_or(0, |f| f as usize) ^ flip;
    let to = crate::game::destination(m) as usize ^ flip;
    from * 64 + to
}

/// The move prior learned from decisions (each: its moves' keys and the
/// chosen move): for every key, `ln((played + 1)/(legal + 30))`, how often
/// a move of that key was played when it was legal, smoothed towards one
/// in thirty (a typical number of legal moves).
///
/// ```
/// // One decision: keys 0 and 1 legal, key 0 played; key 2 never seen.
/// let prior = games_chess::human::move_prior([(vec![0usize, 1], 0usize)].iter().map(|(k, c)| (k.as_slice(), *c)));
/// // Played when legal > never seen (0, the smoothing's centre) > legal but passed over.
/// assert!(prior[0] > prior[2] && prior[2] == 0.0 && prior[2] > prior[1]);
/// ```
pub fn move_prior<'a>(decisions: impl Iterator<Item = (&'a [usize], usize)>) -> Vec<f64> {
    let mut played = vec![0.0f64; KEYS];
    let mut legal = vec![0.0f64; KEYS];
    for (keys, chosen) in decisions {
        for &k in keys {
            legal[k] += 1.0;
        }
        played[keys[chosen]] += 1.0;
    }
    (0..KEYS).map(|k| ((played[k] + 1.0) / (legal[k] + 30.0)).ln() - (1.0f64 / 30.0).ln()).collect()
}

/// Values are soft-capped at this many centipawns (`c·tanh(v/c)`) before
/// gaps are taken, so that mate scores and won positions do not dominate.
pub const VALUE_CAP: f64 = 1000.0;

/// The largest gap (in pawns) the `gap` features see.
pub const GAP_CAP: f64 = 10.0;

/// A piece's value in pawns (the king: 0, it cannot be exchanged).
pub fn piece_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight | Role::Bishop => 3.0,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// A searcher of move values: alpha-beta (minimax) with the crate's
/// evaluator and exact root scores, so every legal move gets its exact
/// depth-`D` value.
#[derive(Debug)]
pub struct MoveValues {
    search: Search<ChessGame, Minimax, ChessEval>,
    depth: u32,
}

impl MoveValues {
    /// A searcher to `depth` plies (1 or more) with a `table_mib` MiB table.
    ///
    /// ```
    /// use games_chess::human::MoveValues;
    /// use games_chess::ChessGame;
    /// let mut v = MoveValues::new(1, 1)?;
    /// let (moves, values) = v.values(&ChessGame::startpos())?;
    /// assert_eq!((moves.len(), values.len()), (20, 20));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(depth: u32, table_mib: usize) -> Result<Self, search_core::ParamError> {
        if depth == 0 {
            return Err(search_core::ParamError::new("depth", "must be at least 1"));
        }
        let opts = Options::recommended::<ChessGame, Minimax, ChessEval>(&ChessEval)
            .with_table_mib(table_mib)
            .with_aspiration(None)
            .with_exact_root(true);
        Ok(MoveValues { search: Search::new(Minimax, ChessEval, opts)?, depth })
    }

    /// The depth searched.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The legal moves of `state` (in generation order) and each one's
    /// value in centipawns from the mover's side.
    ///
    /// Errors: the game is over (no legal move).
    pub fn values(&mut self, state: &ChessGame) -> Result<(Vec<Move>, Vec<f64>), GameError> {
        let mut moves = Vec::new();
        state.generate(&mut moves);
        if moves.is_empty() {
            return Err(GameError::GameOver);
        }
        self.search.clear();
        let result = self.search.run(state, &Limits::depth(self.depth))?;
        let values = moves
            .iter()
            .map(|m| {
                result
                    .root_moves
                    .iter()
                    .find(|r| r.mv == *m)
                    .map(|r| r.score)
                    .ok_or_else(|| GameError::illegal(m.to_string(), "the search did not value it"))
            })
            .collect::<Result<Vec<f64>, GameError>>()?;
        Ok((moves, values))
    }
}

/// Every move's features (`moves.len() × K`, row by row), from the moves'
/// values in centipawns (see [`FEATURES`]):
///
/// - `gap`, `log_gap`, `best`: the move's gap below the best move's value
///   (values soft-capped at [`VALUE_CAP`], gap in pawns, at most
///   [`GAP_CAP`]), its `ln(1 + gap)`, and whether it is a best move;
/// - `capture`: the value of the piece taken (pawns); `check`;
/// - `knight` … `king`: the piece moved (a pawn is none of them);
/// - `castle`, `promotion`;
/// - `attacked`: the piece stands attacked on its new square;
/// - `exchange_loss`: what a one-move exchange on the new square loses
///   (the piece's value if undefended, else its value less the cheapest
///   attacker's, at least 0);
/// - `escape`: the piece was attacked where it stood;
/// - `advance`: ranks gained towards the opponent;
/// - `threat`: opponent pieces the moved piece attacks from its new square
///   that are worth more than it or undefended;
/// - `recapture`: a capture on the square the opponent's last move went to;
/// - `same_piece`: the piece the mover's own last move moved;
/// - `second_best`, `third_best`: the move's rank by value (ties share
///   the better rank);
/// - `pawn_attacked`: an opponent pawn attacks the new square;
/// - `develop`: a knight or bishop leaves its first rank;
/// - `backward`: the piece moves towards its own side;
/// - `hanging`: the most valuable of the mover's other pieces left
///   attacked and undefended, or attacked by a cheaper piece, after the
///   move (pawns);
/// - `distance`: how far the piece goes (king steps, over 7);
/// - `castling_rights`: the move gives up castling rights (without
///   castling);
/// - `prior`: the move's entry in `prior` (see [`move_prior`], indexed by
///   [`move_key`]; 0 without one);
/// - `book`: the move's [`Book::feature`] in `book` (0 without one, or when
///   the book does not hold the position).
pub fn move_features(
    state: &ChessGame,
    moves: &[Move],
    values: &[f64],
    prior: Option<&[f64]>,
    book: Option<&Book>,
) -> Vec<f64> {
    let pos = state.position();
    let us = pos.turn();
    let them = !us;
    let capped: Vec<f64> = values.iter().map(|v| VALUE_CAP * (v / VALUE_CAP).tanh()).collect();
    let best = capped.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut distinct = capped.clone();
    distinct.sort_by(|a, b| b.total_cmp(a));
    distinct.dedup();
    let [their_last, our_last] = state.last_destinations();
    let home = if us == Color::White { shakmaty::Rank::First } else { shakmaty::Rank::Eighth };
    let mut out = Vec::with_capacity(moves.len() * K);
    for (m, v) in moves.iter().zip(&capped) {
        let gap = ((best - v) / 100.0).clamp(0.0, GAP_CAP);
        let role = m.promotion().unwrap_or(m.role());
        let mut after = pos.clone();
        after.play_unchecked(*m);
        let board = after.board();
        let occ = board.occupied();
        // Castling moves the king (shakmaty's `to` is the rook's square).
        let dest = crate::game::destination(*m);
        let rank = distinct.iter().position(|d| d == v).unwrap_or(0);
        let pawn_attacked = !(board.attacks_to(dest, them, occ) & board.pawns() & board.by_color(them)).is_empty();
        let attackers = board.attacks_to(dest, them, occ);
        let defenders = board.attacks_to(dest, us, occ);
        let attacked = !attackers.is_empty() && role != Role::King;
        let exchange_loss = if attacked {
            let cheapest =
                attackers.into_iter().filter_map(|s| board.role_at(s)).map(piece_value).fold(f64::INFINITY, f64::min);
            if defenders.is_empty() {
                piece_value(role)
            } else {
                (piece_value(role) - cheapest.min(piece_value(role))).max(0.0)
            }
        } else {
            0.0
        };
        let escape = match m.from() {
            Some(from) if m.role() != Role::King => {
                !pos.board().attacks_to(from, them, pos.board().occupied()).is_empty()
            }
            _ => false,
        };
        let advance = match m.from() {
            Some(from) if !m.is_castle() => {
                let d = f64::from(dest.rank() as u8) - f64::from(from.rank() as u8);
                if us == Color::White { d } else { -d }
            }
            _ => 0.0,
        };
        let threat = if role == Role::King {
            0.0
        } else {
            let targets: Bitboard = board.attacks_from(dest) & board.by_color(them);
            targets
                .into_iter()
                .filter(|&s| {
                    let r = board.role_at(s).unwrap_or(Role::Pawn);
                    r != Role::King && (piece_value(r) > piece_value(role) || board.attacks_to(s, them, occ).is_empty())
                })
                .count() as f64
        };
        let hanging = (board.by_color(us) & !Bitboard::from(dest) & !board.kings())
            .into_iter()
            .filter_map(|s| {
                let attackers = board.attacks_to(s, them, occ);
                let r = board.role_at(s)?;
                let cheapest = attackers
                    .into_iter()
                    .filter_map(|a| board.role_at(a))
                    .map(piece_value)
                    .fold(f64::INFINITY, f64::min);
                let exposed =
                    !attackers.is_empty() && (board.attacks_to(s, us, occ).is_empty() || cheapest < piece_value(r));
                exposed.then(|| piece_value(r))
            })
            .fold(0.0, f64::max);
        let distance = m.from().map_or(0.0, |f| f64::from(f.distance(dest)) / 7.0);
        let rights = |p: &shakmaty::Chess| p.castles().castling_rights() & Bitboard::from(us.backrank());
        let gives_up = !m.is_castle() && rights(&after) != rights(pos);
        let b = |x: bool| if x { 1.0 } else { 0.0 };
        out.extend_from_slice(&[
            gap,
            gap.ln_1p(),
            b(gap <= 1e-9),
            m.capture().map_or(0.0, piece_value),
            b(after.is_check()),
            b(m.role() == Role::Knight),
            b(m.role() == Role::Bishop),
            b(m.role() == Role::Rook),
            b(m.role() == Role::Queen),
            b(m.role() == Role::King),
            b(m.is_castle()),
            b(m.promotion().is_some()),
            b(attacked),
            exchange_loss,
            b(escape),
            advance,
            threat,
            b(m.is_capture() && their_last == Some(dest)),
            b(m.from().is_some() && m.from() == our_last),
            b(rank == 1),
            b(rank == 2),
            b(pawn_attacked && role != Role::King),
            b(matches!(m.role(), Role::Knight | Role::Bishop) && m.from().is_some_and(|f| f.rank() == home)),
            b(advance < 0.0),
            hanging,
            distance,
            b(gives_up),
            prior.and_then(|p| p.get(move_key(state, *m))).copied().unwrap_or(0.0),
            book.map_or(0.0, |bk| bk.feature(state, move_key(state, *m), moves.len(), None)),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features_of(fen: &str, uci: &str) -> Vec<f64> {
        let g = ChessGame::from_fen(fen).unwrap();
        let mut v = MoveValues::new(1, 1).unwrap();
        let (moves, values) = v.values(&g).unwrap();
        let f = move_features(&g, &moves, &values, None, None);
        let i = moves.iter().position(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string() == uci).unwrap();
        f[i * K..(i + 1) * K].to_vec()
    }

    fn get(f: &[f64], name: &str) -> f64 {
        f[FEATURES.iter().position(|n| *n == name).unwrap()]
    }

    #[test]
    fn features_say_what_the_move_does() {
        // The queen takes a defended pawn and stands undefended there.
        let f = features_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5");
        assert_eq!((get(&f, "capture"), get(&f, "queen"), get(&f, "attacked")), (1.0, 1.0, 1.0));
        assert_eq!(get(&f, "exchange_loss"), 9.0); // undefended: all of it
        assert!(get(&f, "gap") > 5.0);
        // Castling short: the king's move, no advance.
        let f = features_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!((get(&f, "castle"), get(&f, "king"), get(&f, "advance")), (1.0, 1.0, 0.0));
        // A knight fork with check: check and a threat to the rook.
        let f = features_of("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7");
        assert_eq!((get(&f, "check"), get(&f, "threat"), get(&f, "knight")), (1.0, 1.0, 1.0));
        assert_eq!(get(&f, "advance"), 2.0);
        // Black's pawn push advances from Black's side.
        let f = features_of("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1", "e7e5");
        assert_eq!(get(&f, "advance"), 2.0);
        // Moving the knight away leaves the bishop on b5 to the pawn on a6:
        // hanging (3); the king's step gives up both castling rights.
        let fen = "4k3/3p4/p7/1B6/8/5N2/8/R3K2R w KQ - 0 1";
        let f = features_of(fen, "f3g5");
        assert_eq!(get(&f, "hanging"), 3.0);
        assert_eq!(get(&f, "castling_rights"), 0.0);
        assert_eq!(get(&features_of(fen, "e1f1"), "castling_rights"), 1.0);
        assert_eq!(get(&features_of(fen, "a1a5"), "distance"), 4.0 / 7.0);
    }
}
