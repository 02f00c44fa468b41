"""Policies as numpy arrays (numpy is optional: these skip without it, but
the error without numpy is checked either way)."""

import sys

import pytest

import backup_rules as br


def test_without_numpy_policy_array_raises_import_error(monkeypatch):
    r = br.search(br.TicTacToe(), "alphabeta", depth=2)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match="numpy"):
        r.policy_array()


def test_search_policy_array_indexed_by_move():
    np = pytest.importorskip("numpy")
    g = br.Connect4(moves="4444")
    r = br.search(g, "rminimax:theta=0.5,range=1000", depth=2)
    a = r.policy_array()
    assert a.dtype == np.float64
    assert a.shape == (max(r.policy) + 1,)
    for m, p in r.policy.items():
        assert a[m] == p
    assert a.sum() == pytest.approx(1.0)
    wide = r.policy_array(size=g.width + 3)
    assert wide.shape == (g.width + 3,) and wide[g.width :].sum() == 0.0
    with pytest.raises(ValueError):
        r.policy_array(size=1)


def test_mcts_policy_array_and_other_moves():
    np = pytest.importorskip("numpy")
    m = br.mcts(br.TicTacToe(), 500, seed=1)
    a = m.policy_array(size=9)
    assert a.shape == (9,) and a.sum() == pytest.approx(1.0)
    assert np.argmax(a) in m.policy

    # A Python game whose moves are strings: the dict's order, no size.
    from pygames import PyTicTacToe  # noqa: F401  (the tests' own games)

    class Strings:
        def __init__(self, n=0):
            self.n = n

        def legal_moves(self):
            return ["a", "b"]

        def play(self, mv):
            return Strings(self.n + 1)

        def is_terminal(self):
            return self.n == 2

        def returns(self):
            return 0.0

        def to_move(self):
            return self.n % 2

    r = br.search(Strings(), "minimax")
    assert list(r.policy_array()) == list(r.policy.values())
    with pytest.raises(TypeError):
        r.policy_array(size=2)
