//! Endgame tablebases: the published longest mates, known positions,
//! consistency with `shakmaty`'s move generation (an independent one),
//! symmetry, KPK against a brute-force forward search, the file format.

use std::sync::{Arc, OnceLock};

use crate::common::{placement, random_fen};

use games_chess::ChessGame;
use games_chess::tablebase::{Dtm, Generator, Material, Table, TablebaseError, Tablebases};
use search_core::backup::Minimax;
use search_core::search::{Limits, Options, Search};
use search_core::{Evaluator, Game, Outcome, Perspective, Player, Status, Turn, WIN_SCORE};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role};

/// KQK, KRK, KPK (with KBK, KNK) and KQKR, generated once for every test.
fn small() -> &'static Tablebases {
    static TB: OnceLock<Tablebases> = OnceLock::new();
    TB.get_or_init(|| {
        let mut g = Generator::new();
        let mut tb = Tablebases::new();
        for m in ["KQK", "KRK", "KPK", "KBK", "KNK", "KQKR"] {
            tb.insert(g.generate(&m.parse().unwrap(), &mut |_| {}).unwrap());
        }
        tb
    })
}

fn table(m: &str) -> Arc<Table> {
    let mut g = Generator::new();
    g.generate(&m.parse().unwrap(), &mut |_| {}).unwrap()
}

fn pos(fen: &str) -> Chess {
    ChessGame::from_fen(fen).unwrap().position().clone()
}

#[test]
fn published_longest_mates_kqk_krk_kqkr_kpk() {
    for (m, moves) in [("KQK", 10), ("KRK", 16), ("KQKR", 35), ("KPK", 28)] {
        let t = small().table(&m.parse().unwrap()).unwrap();
        let s = t.stats();
        assert_eq!(s.longest_mate, moves, "{m}");
        assert_eq!(s.positions, s.wins + s.draws + s.losses);
        // Each side to move's half, from its own point of view: together the
        // whole table; the stronger side never loses with the move here.
        let (w, b) = (s.white_to_move, s.black_to_move);
        assert_eq!(w.positions, w.wins + w.draws + w.losses, "{m}");
        assert_eq!(b.positions, b.wins + b.draws + b.losses, "{m}");
        assert_eq!(
            (w.positions + b.positions, w.wins + b.wins, w.draws + b.draws, w.losses + b.losses),
            (s.positions, s.wins, s.draws, s.losses),
            "{m}"
        );
        assert!(w.wins > 0 && b.losses > 0, "{m}");
        if m != "KQKR" {
            assert_eq!((w.losses, b.wins), (0, 0), "{m}: the lone king cannot win");
        }
    }
}

/// About five seconds in the test profile.
#[test]
fn kbnk_longest_mate_is_33_moves() {
    let t = table("KBNK");
    let s = t.stats();
    assert_eq!(s.longest_mate, 33);
    assert_eq!(s.longest_plies, 66); // the side to move is mated in 33 after its move
    // A capture of a minor piece draws.
    assert_eq!(t.probe(&pos("8/8/8/8/8/2k5/2N5/K6B b - - 0 1")).unwrap(), Dtm::Draw);
    // Bd4 mates in the bishop's corner.
    assert_eq!(t.probe(&pos("7k/4N3/6K1/2B5/8/8/8/8 w - - 0 1")).unwrap(), Dtm::Win(1));
    // And the table follows from its children, by shakmaty's moves.
    let mut tb = Tablebases::new();
    tb.insert(t);
    let mut g = Generator::new();
    for m in ["KBK", "KNK"] {
        tb.insert(g.generate(&m.parse().unwrap(), &mut |_| {}).unwrap());
    }
    let mut rng = search_core::rng::seeded(5);
    let mut checked = 0;
    while checked < 3000 {
        let Some(p) = random_position(&mut rng, "KBNk") else { continue };
        assert_eq!(tb.probe(&p), Some(one_ply(&tb, &p)), "{}", fen(&p));
        checked += 1;
    }
}

#[test]
fn known_positions() {
    let tb = small();
    let cases = [
        ("7k/8/6K1/8/8/8/8/R7 w - - 0 1", Dtm::Win(1)),   // Ra8#
        ("R6k/8/6K1/8/8/8/8/8 b - - 0 1", Dtm::Loss(0)),  // mated
        ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", Dtm::Draw),     // stalemate
        ("k7/1Q6/8/2K5/8/8/8/8 b - - 0 1", Dtm::Draw),    // Kxb7
        ("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1", Dtm::Loss(0)), // the queen is defended: mate
        ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", Dtm::Draw),   // stalemate
        ("k7/8/K7/P7/8/8/8/8 w - - 0 1", Dtm::Draw),      // the rook pawn with the king in the corner
        ("8/8/8/8/8/1k6/8/K1r5 w - - 0 1", Dtm::Loss(0)), // black's rook mates
    ];
    for (fen, expected) in cases {
        assert_eq!(tb.probe(&pos(fen)), Some(expected), "{fen}");
    }
    // The king on the sixth rank in front of its pawn wins whoever moves.
    assert!(matches!(tb.probe(&pos("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1")), Some(Dtm::Win(_))));
    assert!(matches!(tb.probe(&pos("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1")), Some(Dtm::Loss(_))));
    // Outside the tables: more pieces, castling rights, missing material.
    assert_eq!(tb.probe(ChessGame::startpos().position()), None);
    assert_eq!(tb.probe(&pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None);
    assert_eq!(tb.probe(&pos("4k3/8/8/8/8/8/8/NN2K3 w - - 0 1")), None);
}

/// The value every table gives must follow from its children's, found
/// with `shakmaty`'s move generation (the table uses its own): a win is
/// one more than the quickest losing child, a loss one more than the
/// slowest winning child, and mates and stalemates are what they are.
#[test]
fn tables_agree_with_shakmaty_one_ply_down() {
    let tb = small();
    let mut rng = search_core::rng::seeded(7);
    for letters in ["KQk", "KRk", "KPk", "KQkr", "Kkq"] {
        let mut checked = 0;
        while checked < 4000 {
            let Some(p) = random_position(&mut rng, letters) else { continue };
            let v = tb.probe(&p).unwrap_or_else(|| panic!("not covered: {}", fen(&p)));
            assert_eq!(v, one_ply(tb, &p), "{}", fen(&p));
            checked += 1;
        }
    }
}

fn fen(p: &Chess) -> String {
    shakmaty::fen::Fen::from_position(p, EnPassantMode::Legal).to_string()
}

/// The value of `p` from its children's table values.
fn one_ply(tb: &Tablebases, p: &Chess) -> Dtm {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return if p.is_check() { Dtm::Loss(0) } else { Dtm::Draw };
    }
    let (mut win, mut loss, mut draw) = (None::<u32>, 0, false);
    for m in moves {
        let mut c = p.clone();
        c.play_unchecked(m);
        let v = if c.board().occupied().count() == 2 { Dtm::Draw } else { tb.probe(&c).expect("child covered") };
        match v {
            Dtm::Loss(k) => win = Some(win.map_or(k + 1, |w| w.min(k + 1))),
            Dtm::Win(k) => loss = loss.max(k + 1),
            Dtm::Draw => draw = true,
        }
    }
    match win {
        Some(w) => Dtm::Win(w),
        None if draw => Dtm::Draw,
        None => Dtm::Loss(loss),
    }
}

/// A random legal position with these pieces (upper case white), either
/// side to move; `None` if the draw is illegal.
fn random_position(rng: &mut search_core::rng::Rng, letters: &str) -> Option<Chess> {
    ChessGame::from_fen(&random_fen(rng, letters)).ok().map(|g| g.position().clone())
}

/// Every symmetry of the board (eight without pawns, the left–right mirror
/// with), and the colour swap, give the same value.
#[test]
fn symmetric_positions_have_equal_values() {
    let tb = small();
    let mut rng = search_core::rng::seeded(11);
    for letters in ["KQk", "KQkr", "KPk"] {
        let pawns = letters.contains('P');
        let mut checked = 0;
        while checked < 500 {
            let Some(p) = random_position(&mut rng, letters) else { continue };
            let v = tb.probe(&p).unwrap();
            let text = fen(&p);
            let (placement_part, rest) = text.split_once(' ').unwrap();
            let board = parse_placement(placement_part);
            let transforms: &[usize] = if pawns { &[1] } else { &[1, 2, 3, 4, 5, 6, 7] };
            for &t in transforms {
                let mut b = [['.'; 8]; 8];
                for y in 0..8 {
                    for x in 0..8 {
                        let (mut x2, mut y2) = (x, y);
                        if t & 1 != 0 {
                            x2 = 7 - x2;
                        }
                        if t & 2 != 0 {
                            y2 = 7 - y2;
                        }
                        if t & 4 != 0 {
                            std::mem::swap(&mut x2, &mut y2);
                        }
                        b[y2][x2] = board[y][x];
                    }
                }
                let q = ChessGame::from_fen(&format!("{} {rest}", placement(&b))).unwrap();
                assert_eq!(tb.probe(q.position()), Some(v), "{text} under symmetry {t}");
            }
            // Colours swapped, board mirrored top to bottom.
            let mut b = [['.'; 8]; 8];
            for y in 0..8 {
                for x in 0..8 {
                    let c = board[y][x];
                    b[7 - y][x] = if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
                }
            }
            let stm = if p.turn() == Color::White { "b" } else { "w" };
            let q = ChessGame::from_fen(&format!("{} {stm} - - 0 1", placement(&b))).unwrap();
            assert_eq!(tb.probe(q.position()), Some(v), "{text} with colours swapped");
            checked += 1;
        }
    }
}

fn parse_placement(text: &str) -> [[char; 8]; 8] {
    let mut b = [['.'; 8]; 8];
    for (i, rank) in text.split('/').enumerate() {
        let y = 7 - i;
        let mut x = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                x += d as usize;
            } else {
                b[y][x] = c;
                x += 1;
            }
        }
    }
    b
}

/// KPK for the brute-force check: the game ends when the pawn is lost or
/// turned into a bishop or knight (a draw, scored −1 for white), or when
/// a queen or rook has been made and black, to move, can neither take it
/// nor is stalemated (a white win: king and queen, or rook, against king
/// always win then). Moves come from `shakmaty`.
#[derive(Clone, Debug)]
struct KpkRace(Chess);

const DRAWN: Outcome = Outcome::Payoff(-1.0);

impl Game for KpkRace {
    type Move = Move;
    const HASHED: bool = true;
    fn turn(&self) -> Turn {
        Turn::Player(if self.0.turn() == Color::White { Player::First } else { Player::Second })
    }
    fn generate(&self, moves: &mut Vec<Move>) -> Status {
        let p = &self.0;
        let b = p.board();
        let legal = p.legal_moves();
        if b.pawns().is_empty() {
            let heavy = (b.queens() | b.rooks()) & b.white();
            if heavy.is_empty() {
                return Status::Over(DRAWN);
            }
            // Black to move right after the promotion.
            if legal.is_empty() {
                return Status::Over(if p.is_check() { Outcome::Win(Player::First) } else { DRAWN });
            }
            if legal.iter().any(|m| m.is_capture()) {
                return Status::Over(DRAWN);
            }
            return Status::Over(Outcome::Win(Player::First));
        }
        if legal.is_empty() {
            return Status::Over(DRAWN); // stalemate (no mate with king and pawn)
        }
        moves.extend(legal.iter().filter(|m| !matches!(m.promotion(), Some(Role::Bishop | Role::Knight))).copied());
        if moves.is_empty() {
            return Status::Over(DRAWN);
        }
        Status::Ongoing
    }
    fn play(&mut self, mv: Move) {
        self.0.play_unchecked(mv);
    }
    fn hash_key(&self) -> Option<u64> {
        let h = self.0.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
        Some(h.0)
    }
}

/// Unknown beyond the horizon (0); wins and draws from the outcomes.
#[derive(Debug)]
struct Unknown;
impl Evaluator<KpkRace> for Unknown {
    const PERSPECTIVE: Perspective = Perspective::First;
    fn evaluate(&self, _: &KpkRace) -> f64 {
        0.0
    }
}

#[test]
fn kpk_agrees_with_a_brute_force_forward_search() {
    let tb = small();
    let mut rng = search_core::rng::seeded(3);
    let mut search = Search::new(Minimax, Unknown, Options::default().with_quiescence(false)).unwrap();
    let (mut wins, mut draws, mut sampled) = (0, 0, 0);
    while sampled < 400 {
        let Some(p) = random_position(&mut rng, "KPk") else { continue };
        // Pawns on the fifth rank or beyond: decided within the horizon.
        let pawn = p.board().pawns().first().unwrap();
        if pawn.rank() < shakmaty::Rank::Fifth || p.legal_moves().is_empty() {
            continue;
        }
        sampled += 1;
        let v = tb.probe(&p).unwrap();
        search.clear();
        let r = search.run(&KpkRace(p.clone()), &Limits::depth(13)).unwrap();
        let white = if p.turn() == Color::White { r.value.unwrap() } else { -r.value.unwrap() };
        let white_wins = matches!((p.turn(), v), (Color::White, Dtm::Win(_)) | (Color::Black, Dtm::Loss(_)));
        if white >= WIN_SCORE - 1000.0 {
            assert!(white_wins, "{}: forward search wins, table says {v:?}", fen(&p));
            wins += 1;
        } else if white == -1.0 {
            assert_eq!(v, Dtm::Draw, "{}: forward search draws", fen(&p));
            draws += 1;
        }
    }
    // Most of the sample is decided within the horizon, both ways.
    assert!(wins >= 150 && draws >= 50, "decided: {wins} wins, {draws} draws of {sampled}");
    eprintln!("KPK brute force: {wins} wins and {draws} draws of {sampled} positions agree with the table");
}

#[test]
fn files_round_trip_and_bad_files_are_refused() {
    let t = table("KRK");
    let mut bytes = Vec::new();
    t.write_to(&mut bytes).unwrap();
    assert_eq!(bytes.len(), 80 + t.entries());
    let back = Table::read_from(&mut bytes.as_slice(), "krk").unwrap();
    assert_eq!(back.stats(), t.stats());
    let krk = pos("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
    assert_eq!(back.probe(&krk).unwrap(), t.probe(&krk).unwrap());
    let format_error = |b: &[u8]| matches!(Table::read_from(&mut &b[..], "x"), Err(TablebaseError::Format { .. }));
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert!(format_error(&wrong), "magic");
    assert!(format_error(&bytes[..bytes.len() - 1]), "truncated");
    assert!(format_error(&bytes[..40]), "short header");
    let mut wrong = bytes.clone();
    wrong[100] ^= 1;
    assert!(format_error(&wrong), "checksum");
    let mut wrong = bytes.clone();
    wrong[8..12].copy_from_slice(b"KZK\0");
    assert!(format_error(&wrong), "material");
    // A table refuses positions of other material.
    assert!(matches!(t.probe(&pos("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1")), Err(TablebaseError::WrongMaterial { .. })));
    // A directory of tables.
    let dir = std::env::temp_dir().join(format!("brtb-test-{}", std::process::id()));
    t.save(&dir).unwrap();
    let tb = Tablebases::open(&dir).unwrap();
    assert_eq!(tb.materials(), vec!["KRK".to_string()]);
    std::fs::write(dir.join("bad.brtb"), b"nonsense").unwrap();
    assert!(Tablebases::open(&dir).is_err());
    // Files and directories that cannot be read or written are named.
    let missing = dir.join("missing");
    let named = |r: Result<(), TablebaseError>| match r {
        Err(e @ TablebaseError::File { .. }) => {
            assert!(e.to_string().starts_with(&missing.display().to_string()), "{e}")
        }
        other => panic!("{other:?}"),
    };
    named(Tablebases::open(&missing).map(drop));
    named(Table::load(&missing).map(drop));
    std::fs::write(&missing, b"a file, not a directory").unwrap();
    named(t.save(&missing).map(drop));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn materials_are_parsed_and_checked() {
    for (text, normal) in [("KQK", "KQK"), ("kbnk", "KBNK"), ("KRKQ", "KQKR"), ("KKP", "KPK"), ("KNBK", "KBNK")] {
        assert_eq!(text.parse::<Material>().unwrap().to_string(), normal);
    }
    for bad in ["", "QK", "KQ", "KQQQK", "KXK", "KPKP", "KQKQK"] {
        assert!(matches!(bad.parse::<Material>(), Err(TablebaseError::Material(_))), "{bad}");
    }
}
