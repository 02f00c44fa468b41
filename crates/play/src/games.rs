//! The four games as the page and the API show them: a board description,
//! how a click becomes a move, the end-of-game detail, the export format
//! and the position import.

use games_chess::ChessGame;
use games_chess::shakmaty::san::SanPlus;
use games_chess::shakmaty::{Color, Position, Square};
use games_chess::uci::{Score, mate_or_cp};
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
    /// How many marks in a row win (the line [`winning_line`](UiGame::winning_line)
    /// looks for); 0 for a game not won by a line.
    const IN_A_ROW: usize;
    /// A move as the page shows it to a player: the game's notation, SAN in
    /// chess (`Nf3`, `exd8=Q+`).
    fn shown_move(&self, mv: Self::Move) -> String {
        self.move_string(mv)
    }
    /// The cells a move changes, to mark the last move: by default every
    /// cell whose content differs between the board before and after it
    /// (the cell a disc falls to in connect-4); chess: origin and
    /// destination.
    fn move_cells(&self, mv: Self::Move) -> Vec<String> {
        let mut after = self.clone();
        after.play(mv);
        changed_cells(&self.board(), &after.board())
    }
    /// The cells of the line that won the game (empty while it goes on, for
    /// a draw, and in chess).
    fn winning_line(&self) -> Vec<String> {
        match self.status() {
            Status::Over(Outcome::Win(p)) if Self::IN_A_ROW > 0 => {
                line_of(&self.board(), &mark(Some(p)), Self::IN_A_ROW)
            }
            _ => Vec::new(),
        }
    }
    /// A value (for the side that moved, in the evaluator's units) in words
    /// a player reads: a forced win or loss as such, else the number.
    fn value_text(value: f64) -> String {
        match mate_or_cp(value) {
            Score::Mate(n) if n > 0 => format!("a forced win in {n} move{}", plural(n)),
            Score::Mate(n) if n < 0 => format!("a forced loss in {} move{}", -n, plural(-n)),
            Score::Mate(_) => "lost".to_string(),
            Score::Cp(_) if value.abs() >= 100.0 => format!("{value:+.0}"),
            Score::Cp(_) => format!("{value:+.2}"),
        }
    }
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

fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The names of the cells (file label then rank label) whose contents
/// differ between two boards of the same size.
fn changed_cells(before: &Board, after: &Board) -> Vec<String> {
    let mut out = Vec::new();
    for (r, (a, b)) in before.rows.iter().zip(&after.rows).enumerate() {
        for (c, (x, y)) in a.iter().zip(b).enumerate() {
            if x != y {
                out.push(format!("{}{}", after.files[c], after.ranks[r]));
            }
        }
    }
    out
}

/// Every cell in a run of at least `k` cells holding `mark` (across, down
/// or diagonally), by name.
fn line_of(board: &Board, mark: &str, k: usize) -> Vec<String> {
    let (w, h) = (board.width as isize, board.height as isize);
    let at =
        |r: isize, c: isize| (0..h).contains(&r) && (0..w).contains(&c) && board.rows[r as usize][c as usize] == mark;
    let mut out: Vec<String> = Vec::new();
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..h {
            for c in 0..w {
                // Runs are walked from their first cell only.
                if !at(r, c) || at(r - dr, c - dc) {
                    continue;
                }
                let n = (0..).take_while(|&i| at(r + i * dr, c + i * dc)).count() as isize;
                if n as usize >= k {
                    for i in 0..n {
                        let (rr, cc) = ((r + i * dr) as usize, (c + i * dc) as usize);
                        let name = format!("{}{}", board.files[cc], board.ranks[rr]);
                        if !out.contains(&name) {
                            out.push(name);
                        }
                    }
                }
            }
        }
    }
    out
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
    const IN_A_ROW: usize = 3;

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
    const IN_A_ROW: usize = 4;

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
    const IN_A_ROW: usize = 5;

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
    const IN_A_ROW: usize = 0;

    fn shown_move(&self, mv: Self::Move) -> String {
        SanPlus::from_move(self.position().clone(), mv).to_string()
    }

    /// Origin and destination, from the UCI form (`e1g1` for castling).
    fn move_cells(&self, mv: Self::Move) -> Vec<String> {
        let uci = self.move_string(mv);
        [uci.get(0..2), uci.get(2..4)].into_iter().flatten().map(str::to_string).collect()
    }

    /// Pawns: centipawns shown in pawns (`+0.14`); a forced mate as
    /// `mate in N` (the engine mates) or `mated in N`.
    fn value_text(value: f64) -> String {
        match mate_or_cp(value) {
            Score::Mate(n) if n > 0 => format!("mate in {n}"),
            Score::Mate(n) if n < 0 => format!("mated in {}", -n),
            Score::Mate(_) => "mated".to_string(),
            Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        }
    }

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
    fn the_last_move_and_the_winning_line_are_found() {
        // Connect-4: the disc lands at the bottom of column 4, then above it.
        let mut g = Connect4::start();
        let four = g.parse_move("4").unwrap();
        assert_eq!(g.move_cells(four), ["41"]);
        g.play(four);
        assert_eq!(g.move_cells(four), ["42"]);
        for m in ["3", "4", "3", "4", "3"] {
            g.play_str(m).unwrap();
        }
        assert!(g.winning_line().is_empty(), "no win yet");
        g.play_str("4").unwrap();
        let mut line = g.winning_line();
        line.sort();
        assert_eq!(line, ["41", "42", "43", "44"]);
        // Tic-tac-toe: a diagonal, and no line in a draw.
        let mut t = TicTacToe::start();
        for m in ["a1", "a2", "b2", "a3", "c3"] {
            t.play_str(m).unwrap();
        }
        let mut line = t.winning_line();
        line.sort();
        assert_eq!(line, ["a1", "b2", "c3"]);
        let mut d = TicTacToe::start();
        for m in ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"] {
            d.play_str(m).unwrap();
        }
        assert_eq!(d.status(), Status::Over(Outcome::Draw));
        assert!(d.winning_line().is_empty());
        // Chess: origin and destination, the king's for castling; SAN.
        let mut c = ChessGame::startpos();
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] {
            c.play_str(m).unwrap();
        }
        let castle = c.parse_move("e1g1").unwrap();
        assert_eq!(c.move_cells(castle), ["e1", "g1"]);
        assert_eq!(c.shown_move(castle), "O-O");
        assert_eq!(c.shown_move(c.parse_move("f3g5").unwrap()), "Ng5");
        assert!(c.winning_line().is_empty());
    }

    #[test]
    fn values_read_as_a_player_reads_them() {
        use search_core::WIN_SCORE;
        assert_eq!(ChessGame::value_text(14.0), "+0.14");
        assert_eq!(ChessGame::value_text(-250.0), "-2.50");
        assert_eq!(ChessGame::value_text(WIN_SCORE - 5.0), "mate in 3");
        assert_eq!(ChessGame::value_text(-(WIN_SCORE - 2.0)), "mated in 1");
        assert_eq!(Connect4::value_text(WIN_SCORE - 1.0), "a forced win in 1 move");
        assert_eq!(Connect4::value_text(-(WIN_SCORE - 4.0)), "a forced loss in 2 moves");
        assert_eq!(Connect4::value_text(-17.0), "-17.00");
        assert_eq!(Gobang::value_text(1234.0), "+1234");
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
