"""Games written in Python: the same values as the Rust games, chance
nodes, and exceptions raised by their methods reaching the caller."""

import pytest

import backup_rules as br
from pygames import Boom, Coin, Exploding, PyTicTacToe, UnhashedTicTacToe


def rust_state(py_state):
    """The Rust tic-tac-toe position with the same marks."""
    moves = []
    # Replay in an order that alternates the players: marks of player 1 and
    # 2 interleaved (the order does not change the position).
    firsts = [i for i, x in enumerate(py_state.board) if x == 1]
    seconds = [i for i, x in enumerate(py_state.board) if x == 2]
    g = br.TicTacToe()
    for i in range(len(firsts) + len(seconds)):
        moves.append(firsts[i // 2] if i % 2 == 0 else seconds[i // 2])
    for m in moves:
        g = g.play(m)
    return g


def test_the_full_tree_is_the_rust_one():
    r = br.search(PyTicTacToe(), "minimax", evaluator="outcome")
    assert r.value == 0.0
    assert r.nodes == 549946
    assert r.leaves == 255168
    assert len(r.best_moves) == 9


# Two marks or more: whole-tree searches of a Python game from the empty
# board take seconds each (the 549,946-node test above does one).
POSITIONS = [(0, 4), (4, 0), (0, 4, 8), (0, 1, 4), (4, 0, 8, 2)]


@pytest.mark.parametrize("moves", POSITIONS)
@pytest.mark.parametrize(
    "rule,depth",
    [
        ("minimax", None),
        ("alphabeta", None),
        ("iom", 4),
        ("rminimax:theta=2", None),
        ("predictive:ps=0.5", 4),
        ("product:temperature=1", 4),
        ("emm:temperature=1", 4),
        ("mn:m=2,n=2,beta=0.1,delta=0.1", 4),
        ("modelled:theta=1", None),
    ],
)
def test_every_rule_gives_the_rust_values(moves, rule, depth):
    p = PyTicTacToe()
    for m in moves:
        p = p.play(m)
    g = rust_state(p)
    ours = br.search(p, rule, depth=depth, evaluator="outcome", exact_root=True)
    rust = br.search(g, rule, depth=depth, evaluator="outcome", exact_root=True)
    assert ours.value == pytest.approx(rust.value, abs=1e-12)
    assert ours.scores == pytest.approx(rust.scores, abs=1e-12)
    if rule in ("minimax", "rminimax:theta=2"):
        # Full width in the game's order: the same tree, node for node. (Elsewhere
        # moves are ordered by the table, whose keys differ, and best moves tied
        # within rounding may be split differently.)
        assert ours.nodes == rust.nodes
        assert sorted(ours.best_moves) == sorted(rust.best_moves)


def test_a_game_without_a_hash_is_searched_without_a_table():
    r = br.search(UnhashedTicTacToe(), "alphabeta", evaluator="outcome")
    assert r.value == 0.0


def test_moves_of_the_result_are_the_python_moves():
    p = PyTicTacToe().play(0).play(3).play(1).play(4)
    r = br.search(p, "alphabeta", depth=3)
    assert r.best == 2
    assert all(isinstance(m, int) for m in r.pv)
    assert r.value > 1e5


def test_chance_nodes():
    r = br.search(Coin(0.3), "expectiminimax", evaluator="outcome")
    assert r.value == pytest.approx(0.3 - 0.7)
    # With the heuristic evaluator a win is worth WIN_SCORE (less a ply).
    assert br.search(Coin(0.3), "expectiminimax").value == pytest.approx((0.3 - 0.7) * (br.WIN_SCORE - 1))
    assert r.value == pytest.approx(br.search(br.Tree("chance(0.3:1, 0.7:-1)"), "expectiminimax").value)
    m = br.mcts(Coin(0.3), 4000, seed=3)
    assert m.visits["heads"] + m.visits["tails"] == 4000


@pytest.mark.parametrize("where", ["legal_moves", "play", "is_terminal", "value"])
def test_an_exception_in_a_callback_reaches_the_caller(where):
    g = Exploding(after=3, where=where)
    with pytest.raises(Boom, match=f"{where} exploded"):
        br.search(g, "minimax", depth=5)
    with pytest.raises(Boom):
        br.search(g, "alphabeta", depth=5)
    with pytest.raises(Boom):
        # value() is called by playouts="eval" only.
        br.mcts(g, 500, playouts="eval" if where == "value" else "random")
    with pytest.raises(Boom):
        br.play_match(g, "alphabeta:depth=5", "random", pairs=1)
    # The same object searches fine where it does not explode.
    assert br.search(Exploding(after=9, where=where), "alphabeta", depth=2).best is not None


def test_protocol_errors():
    with pytest.raises(TypeError, match="legal_moves"):
        br.search(object())

    class NoneOnPlay(PyTicTacToe):
        def play(self, move):
            return None

    with pytest.raises(TypeError, match="returned None"):
        br.search(NoneOnPlay(), depth=2)

    class BadPlayer(PyTicTacToe):
        def to_move(self):
            return 7

    with pytest.raises(ValueError, match="to_move"):
        br.search(BadPlayer(), depth=2)
    with pytest.raises(ValueError, match="one thread"):
        br.search(PyTicTacToe(), depth=2, threads=2)


def test_agents_and_matches_play_python_games():
    p = PyTicTacToe().play(0).play(3).play(1).play(4)
    assert br.choose_move(p, "alphabeta:depth=3") == 2
    m = br.play_match(PyTicTacToe(), "alphabeta:depth=9", "random", pairs=4, seed=5)
    assert m.losses == 0 and m.games == 8


def test_the_documented_nim_example():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Nim:
        stones: int = 10
        player: int = 0

        def legal_moves(self):
            return [k for k in (1, 2, 3) if k <= self.stones]

        def play(self, k):
            return Nim(self.stones - k, 1 - self.player)

        def is_terminal(self):
            return self.stones == 0

        def returns(self):
            return 1.0 if self.player == 1 else -1.0

        def to_move(self):
            return self.player

    assert br.search(Nim(10), "minimax").best == 2
    m = br.play_match(Nim(21), "alphabeta:depth=30", "random", pairs=5, seed=1)
    assert m.losses == 0
