"""Games written in Python for the tests: tic-tac-toe (to compare with the
Rust one), a coin-flip chance game, and a few broken games."""

from dataclasses import dataclass
from typing import Tuple

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True)
class PyTicTacToe:
    """Cells 0..8 as in the Rust game (a1 = 0, b1 = 1, ..., c3 = 8);
    0 empty, 1 the first player's mark, 2 the second's."""

    board: Tuple[int, ...] = (0,) * 9

    def winner(self):
        for a, b, c in LINES:
            if self.board[a] and self.board[a] == self.board[b] == self.board[c]:
                return self.board[a] - 1
        return None

    def to_move(self):
        return sum(1 for x in self.board if x) % 2

    def is_terminal(self):
        return self.winner() is not None or all(self.board)

    def returns(self):
        w = self.winner()
        if w is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0)

    def legal_moves(self):
        # The Rust game generates moves in cell order too.
        return [i for i, x in enumerate(self.board) if not x]

    def play(self, move):
        b = list(self.board)
        b[move] = self.to_move() + 1
        return PyTicTacToe(tuple(b))


class UnhashedTicTacToe:
    """The same game with identity hashing only: no table is used."""

    __hash__ = object.__hash__

    def __init__(self, inner=None):
        self.inner = inner or PyTicTacToe()

    def to_move(self):
        return self.inner.to_move()

    def is_terminal(self):
        return self.inner.is_terminal()

    def returns(self):
        return self.inner.returns()

    def legal_moves(self):
        return self.inner.legal_moves()

    def play(self, move):
        return UnhashedTicTacToe(self.inner.play(move))


@dataclass(frozen=True)
class Coin:
    """Nature flips a biased coin (heads with probability p): heads the
    first player wins, tails it loses."""

    p: float = 0.3
    side: str = ""

    def to_move(self):
        return -1 if not self.side else 0

    def is_terminal(self):
        return bool(self.side)

    def returns(self):
        return 1.0 if self.side == "heads" else -1.0

    def legal_moves(self):
        return ["heads", "tails"]

    def chance_outcomes(self):
        return [("heads", self.p), ("tails", 1 - self.p)]

    def play(self, move):
        return Coin(self.p, move)


class Boom(RuntimeError):
    pass


@dataclass(frozen=True)
class Exploding(PyTicTacToe):
    """Tic-tac-toe whose `where` method raises Boom once `after` marks are on
    the board."""

    after: int = 3
    where: str = "legal_moves"

    def _check(self, name):
        if self.where == name and sum(1 for x in self.board if x) >= self.after:
            raise Boom(f"{name} exploded")

    def legal_moves(self):
        self._check("legal_moves")
        return super().legal_moves()

    def play(self, move):
        self._check("play")
        inner = super().play(move)
        return Exploding(inner.board, self.after, self.where)

    def value(self):
        self._check("value")
        return 0.0

    def is_terminal(self):
        self._check("is_terminal")
        return super().is_terminal()
