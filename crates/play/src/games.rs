//! The four games as the page and the API show them: a board description,
//! how a click becomes a move, the end-of-game detail, the export format
//! and the position import.

use games_chess::ChessGame;
use games_chess::shakmaty::san::SanPlus;
use games_chess::shakmaty::{Color, Position, Square};
use games_small::{Connect4, Gobang, TicTacToe};
use search_core::{Game, Outcome, Player, Status};
use serde::Serialize;

/// How a click on the board becomes a move in the game's notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Input {
    /// The move is the clicked cell's name: its column label followed by its
    /// row label (`b2`, `h8`).
    Cell,
    /// The move is the clicked column's label (`4`).
    Column,
    /// The move is the origin square then the destination square, plus a
    /// promotion letter when a pawn reaches the last rank (`e2e4`, `e7e8q`).
    FromTo,
}

/// The board of a game state, for display.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Board {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The rows from the top of the board, each `width` cells from the
    /// left: `""` for an empty cell, `"X"` (the first player) or `"O"` for
    /// the small games, a FEN piece letter for chess (`"K"` white king,
    /// `"q"` black queen).
    pub rows: Vec<Vec<String>>,
    /// The column labels, left to right (`a`..`h`, `1`..`7`).
    pub files: Vec<String>,
    /// The row labels, top to bottom (`8`..`1`).
    pub ranks: Vec<String>,
    /// How a click becomes a move.
    pub input: Input,
    /// Chess: the position as a FEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Chess: whether the side to move is in check.
    pub check: bool,
}

/// What the API needs from a game beyond [`Game`].
pub(crate) trait UiGame: Game + Send + Sync + 'static
where
    Self::Move: Send + Sync,
{
    /// The API name (`connect4`).
    const NAME: &'static str;
    /// The start position.
    fn start() -> Self;
    /// The board as the page draws it.
    fn board(&self) -> Board;
    /// The moves the rules allow the side to move (the human's choice, and
    /// the state's `legal`): by default the moves the game generates, which
    /// are all of them except in gobang.
    fn human_moves(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        match self.generate(&mut v) {
            Status::Ongoing => v,
            Status::Over(_) => Vec::new(),
        }
    }
    /// Parses a position (a FEN for chess); `None` if the game has no
    /// position format.
    fn parse_position(_text: &str) -> Option<Result<Self, String>> {
        None
    }
    /// Why the game ended, in words (`checkmate`, `five in a row`), or
    /// `None` while it goes on.
    fn end_detail(&self) -> Option<String> {
        match self.status() {
            Status::Ongoing => None,
            Status::Over(Outcome::Win(_)) => Some(Self::WIN_TEXT.to_string()),
            Status::Over(_) => Some("board full".to_string()),
        }
    }
    /// How a game is won, for [`end_detail`](UiGame::end_detail).
    const WIN_TEXT: &'static str;
    /// The export of a game played from `start`: `(format, text)`.
    fn export(start: &Self, moves: &[Self::Move], header: &ExportHeader<'_>) -> (&'static str, String) {
        let _ = header;
        ("moves", move_line(start, moves))
    }
}

/// What an export says about the players.
#[derive(Debug)]
pub(crate) struct ExportHeader<'a> {
    /// The human's side.
    pub(crate) human: Player,
    /// The engine's spec.
    pub(crate) engine: &'a str,
    /// The result: `Some(outcome)` once over.
    pub(crate) outcome: Option<Outcome>,
}

/// The moves from `start` in the game's notation, space-separated.
pub(crate) fn move_line<G: Game>(start: &G, moves: &[G::Move]) -> String {
    let mut g = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(g.move_string(mv));
        g.play(mv);
    }
    out.join(" ")
}

fn mark(p: Option<Player>) -> String {
    match p {
        Some(Player::First) => "X".into(),
        Some(Player::Second) => "O".into(),
        None => String::new(),
    }
}

fn labels(iter: impl Iterator<Item = String>) -> Vec<String> {
    iter.collect()
}

impl UiGame for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const WIN_TEXT: &'static str = "three in a row";

    fn start() -> Self {
        TicTacToe::default()
    }

    fn board(&self) -> Board {
        let rows = (0..3u8).rev().map(|r| (0..3u8).map(|c| mark(self.at(r * 3 + c))).collect()).collect();
        Board {
            width: 3,
            height: 3,
            rows,
            files: labels(["a", "b", "c"].into_iter().map(String::from)),
            ranks: labels((1..=3).rev().map(|r| r.to_string())),
            input: Input::Cell,
            fen: None,
            check: false,
        }
    }
}

impl UiGame for Connect4 {
    const NAME: &'static str = "connect4";
    const WIN_TEXT: &'static str = "four in a row";

    fn start() -> Self {
        Connect4::standard()
    }

    fn board(&self) -> Board {
        let (w, h) = (self.width(), self.height());
        let rows = (0..h).rev().map(|r| (0..w).map(|c| mark(self.at(c, r))).collect()).collect();
        let files =
            (0..w).map(|c| Connect4::column_char(c as u8).map_or_else(|| c.to_string(), |ch| ch.to_string())).collect();
        Board {
            width: w,
            height: h,
            rows,
            files,
            ranks: labels((1..=h).rev().map(|r| r.to_string())),
            input: Input::Column,
            fen: None,
            check: false,
        }
    }
}

impl UiGame for Gobang {
    const NAME: &'static str = "gobang";
    const WIN_TEXT: &'static str = "five in a row";

    fn start() -> Self {
        Gobang::default()
    }

    /// Every empty point: the game generates only the candidates near the
    /// stones (the centre on the empty board) for the engines, but its rules
    /// let a stone go on any empty point.
    fn human_moves(&self) -> Vec<Self::Move> {
        if self.status() != Status::Ongoing {
            return Vec::new();
        }
        let n = self.size();
        (0..n).flat_map(|r| (0..n).filter_map(move |c| self.point(c, r))).filter(|&p| self.at(p).is_none()).collect()
    }

    fn board(&self) -> Board {
        let n = self.size();
        let rows =
            (0..n).rev().map(|r| (0..n).map(|c| mark(self.point(c, r).and_then(|p| self.at(p)))).collect()).collect();
        Board {
            width: n,
            height: n,
            rows,
            files: labels((0..n).map(|c| char::from(b'a' + c as u8).to_string())),
            ranks: labels((1..=n).rev().map(|r| r.to_string())),
            input: Input::Cell,
            fen: None,
            check: false,
        }
    }
}

impl UiGame for ChessGame {
    const NAME: &'static str = "chess";
    const WIN_TEXT: &'static str = "checkmate";

    fn start() -> Self {
        ChessGame::startpos()
    }

    fn board(&self) -> Board {
        let board = self.position().board();
        let rows = (0..8u32)
            .rev()
            .map(|r| {
                (0..8u32)
                    .map(|f| board.piece_at(Square::new(r * 8 + f)).map(|p| p.char().to_string()).unwrap_or_default())
                    .collect()
            })
            .collect();
        Board {
            width: 8,
            height: 8,
            rows,
            files: labels((0..8u8).map(|f| char::from(b'a' + f).to_string())),
            ranks: labels((1..=8).rev().map(|r| r.to_string())),
            input: Input::FromTo,
            fen: Some(self.fen()),
            check: self.is_check(),
        }
    }

    fn parse_position(text: &str) -> Option<Result<Self, String>> {
        Some(ChessGame::from_fen(text).map_err(|e| e.to_string()))
    }

    fn end_detail(&self) -> Option<String> {
        let pos = self.position();
        match self.status() {
            Status::Ongoing => None,
            Status::Over(Outcome::Win(_)) => Some("checkmate".into()),
            Status::Over(_) => Some(
                if pos.legal_moves().is_empty() {
                    "stalemate"
                } else if pos.is_insufficient_material() {
                    "insufficient material"
                } else if pos.halfmoves() >= 100 {
                    "fifty-move rule"
                } else {
                    "threefold repetition"
                }
                .into(),
            ),
        }
    }

    fn export(start: &Self, moves: &[Self::Move], header: &ExportHeader<'_>) -> (&'static str, String) {
        ("pgn", pgn(start, moves, header))
    }
}

/// A PGN of a game from `start`: the seven-tag roster (with `SetUp`/`FEN`
/// when the start is not the standard position), then SAN moves.
fn pgn(start: &ChessGame, moves: &[<ChessGame as Game>::Move], header: &ExportHeader<'_>) -> String {
    let result = match header.outcome {
        Some(Outcome::Win(Player::First)) => "1-0",
        Some(Outcome::Win(Player::Second)) => "0-1",
        Some(_) => "1/2-1/2",
        None => "*",
    };
    let (white, black) = match header.human {
        Player::First => ("Human".to_string(), header.engine.to_string()),
        Player::Second => (header.engine.to_string(), "Human".to_string()),
    };
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::new();
    for (tag, value) in [
        ("Event", "Casual game".to_string()),
        ("Site", "backup-rules play".to_string()),
        ("Date", "????.??.??".to_string()),
        ("Round", "-".to_string()),
        ("White", white),
        ("Black", black),
        ("Result", result.to_string()),
    ] {
        out.push_str(&format!("[{tag} \"{}\"]\n", quote(&value)));
    }
    let start_fen = start.fen();
    if start_fen != ChessGame::startpos().fen() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{start_fen}\"]\n"));
    }
    out.push('\n');
    let mut pos = start.position().clone();
    let mut words = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut pos, *mv).to_string());
    }
    words.push(result.to_string());
    // Lines of at most 80 characters, as the PGN standard asks.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_their_sizes() {
        let b = Connect4::start().board();
        assert_eq!((b.width, b.height, b.rows.len(), b.files[3].as_str()), (7, 6, 6, "4"));
        let b = Gobang::start().board();
        assert_eq!((b.width, b.rows.len(), b.files[7].as_str(), b.ranks[0].as_str()), (15, 15, "h", "15"));
        let b = ChessGame::start().board();
        assert_eq!(b.rows[0][4], "k");
        assert_eq!(b.rows[7][4], "K");
        let mut t = TicTacToe::start();
        t.play_str("a1").unwrap();
        assert_eq!(t.board().rows[2][0], "X");
    }

    #[test]
    fn gobang_stones_go_on_any_empty_point() {
        let mut g = Gobang::start();
        assert_eq!(g.human_moves().len(), 225);
        g.play_str("a1").unwrap();
        let moves = g.human_moves();
        assert_eq!(moves.len(), 224);
        assert!(moves.contains(&g.parse_move("o15").unwrap()));
        assert_eq!(Connect4::start().human_moves().len(), 7);
    }

    #[test]
    fn pgn_has_san_and_result() {
        let mut g = ChessGame::startpos();
        let mut moves = Vec::new();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            moves.push(g.play_str(m).unwrap());
        }
        let header =
            ExportHeader { human: Player::First, engine: "random", outcome: Some(Outcome::Win(Player::Second)) };
        let text = pgn(&ChessGame::startpos(), &moves, &header);
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
        assert!(text.contains("[White \"Human\"]"));
        assert!(!text.contains("FEN"));
        assert_eq!(g.end_detail().as_deref(), Some("checkmate"));
    }
}
