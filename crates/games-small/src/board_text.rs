//! Boards as text, for the games' `Display`: `X` for the first player, `O`
//! for the second, `.` for an empty cell.

use std::fmt;

use search_core::Player;

/// The character of a cell.
pub(crate) fn mark(cell: Option<Player>) -> char {
    match cell {
        Some(Player::First) => 'X',
        Some(Player::Second) => 'O',
        None => '.',
    }
}

/// Writes a `width × height` board, one line per row, the top row first;
/// `at(col, row)` (row 0 at the bottom) is the owner of a cell.
pub(crate) fn write_rows(
    f: &mut fmt::Formatter<'_>,
    width: usize,
    height: usize,
    at: impl Fn(usize, usize) -> Option<Player>,
) -> fmt::Result {
    for row in (0..height).rev() {
        for col in 0..width {
            write!(f, "{}", mark(at(col, row)))?;
        }
        writeln!(f)?;
    }
    Ok(())
}
