"""The built-in games as Python objects."""

import pytest

import backup_rules as br


def test_tictactoe_moves_play_and_immutability():
    t = br.TicTacToe()
    assert t.legal_moves() == list(range(9))
    u = t.play(4)
    assert t.legal_moves() == list(range(9)), "play returns a new state"
    assert 4 not in u.legal_moves()
    assert u.to_move() == 1
    with pytest.raises(AttributeError):
        t.board = None
    assert u == br.TicTacToe("b2")
    assert u == t.play("b2")
    assert len({u, br.TicTacToe("b2"), t}) == 2, "equal states hash equal"


def test_tictactoe_move_strings():
    t = br.TicTacToe()
    assert t.move_to_string(0) == "a1"
    assert t.move_to_string(8) == "c3"
    assert t.string_to_move("b2") == 4
    assert "X" in str(t.play(0))


def test_tictactoe_terminal_and_returns():
    t = br.TicTacToe("a1 a2 b2 b1 c3")
    assert t.is_terminal()
    assert t.returns() == (1.0, -1.0)
    assert t.winner() == 0
    assert t.legal_moves() == []
    with pytest.raises(ValueError, match="over"):
        t.play(5)
    draw = br.TicTacToe("a1 b2 c3 a2 a3 b3 b1 c1 c2")
    assert draw.is_terminal() and draw.returns() == (0.0, 0.0) and draw.winner() is None


def test_errors_carry_the_library_message():
    with pytest.raises(ValueError, match="illegal move"):
        br.TicTacToe("b2").play(4)
    with pytest.raises(ValueError):
        br.TicTacToe("b2 b2")
    with pytest.raises(TypeError):
        br.TicTacToe().play(1.5)
    with pytest.raises(ValueError, match="64"):
        br.Connect4(9, 7)
    with pytest.raises(ValueError):
        br.Tree("max(1,")


def test_perft_known_counts():
    # 549,946 nodes in all (255,168 complete games), 127,872 of them at
    # depth 9; connect-4 perft 6 = 7^6.
    assert sum(br.TicTacToe().perft(d) for d in range(10)) == 549946
    assert br.TicTacToe().perft(9) == 127872
    assert br.Connect4().perft(6) == 117649


def test_connect4_any_size():
    c = br.Connect4(5, 4)
    assert (c.width, c.height) == (5, 4)
    assert sorted(c.legal_moves()) == [0, 1, 2, 3, 4]
    assert c.legal_moves()[0] == 2, "centre first"
    d = c.play(2).play("3")
    assert d.move_to_string(0) == "1"
    assert d == br.Connect4(5, 4, "33")
    full = br.Connect4(7, 6, "111111")
    assert 0 not in full.legal_moves()
    with pytest.raises(ValueError):
        full.play(0)


def test_gobang():
    g = br.Gobang()
    assert g.size == 15
    first = g.legal_moves()[0]
    h = g.play(first)
    assert h.to_move() == 1
    assert h.string_to_move(h.move_to_string(h.legal_moves()[0])) == h.legal_moves()[0]
    assert br.Gobang(9).size == 9


def test_tree_literal():
    t = br.Tree("max(min(3, 12, 8), min(2, 4, 6))")
    assert t.legal_moves() == [0, 1]
    assert t.play(0).play(2).returns() == (8.0, -8.0)
