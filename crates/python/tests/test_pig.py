"""Pig, the built-in chance game: rules, errors, and expectiminimax against a
brute-force expectimax written here over the game's own Python methods."""

import functools

import pytest

import backup_rules as br


def test_rules_and_notation():
    g = br.Pig(target=6, die=6, max_turns=10)
    assert g.legal_moves() == [1], "a turn starts with a roll"
    assert g.to_move() == 0
    r = g.play("roll")
    assert r.to_move() == -1, "chance rolls the die"
    assert r.legal_moves() == [1, 2, 3, 4, 5, 6]
    assert g.legal_moves() == [1], "play returns a new state"
    h = r.play("4")
    assert (h.turn_total, h.scores, h.to_move()) == (4, (0, 0), 0)
    assert sorted(h.legal_moves()) == [0, 1]
    assert h.move_to_string(0) == "hold" and h.string_to_move("roll") == 1
    held = h.play("hold")
    assert (held.scores, held.to_move(), held.turns) == ((4, 0), 1, 1)
    lost = held.play(1).play(1)
    assert (lost.scores, lost.to_move(), lost.turns) == ((4, 0), 0, 2), "a 1 ends the turn"
    won = lost.play(1).play(2)
    assert won.is_terminal() and won.winner() == 0 and won.returns() == (1.0, -1.0)
    assert held == br.Pig(6, 6, 10).play(1).play(4).play(0)
    assert len({held, br.Pig(6, 6, 10).play(1).play(4).play(0), g}) == 2
    assert "Pig" in str(g)


def test_errors():
    for bad in [dict(target=0), dict(target=101), dict(die=1), dict(die=21), dict(max_turns=0)]:
        with pytest.raises(ValueError):
            br.Pig(**bad)
    with pytest.raises(OverflowError):
        br.Pig(target=-1)
    g = br.Pig()
    with pytest.raises(ValueError):
        g.play("hold")  # nothing to hold yet
    with pytest.raises(ValueError):
        g.play("jump")
    with pytest.raises(ValueError):
        g.play(1).play(7)  # a six-faced die
    with pytest.raises(TypeError):
        g.play(1.5)


def expectimax(state):
    """The first player's expected result (win 1, loss -1, draw 0)."""

    @functools.lru_cache(maxsize=None)
    def value(s):
        if s.is_terminal():
            return s.returns()[0]
        children = [value(s.play(m)) for m in s.legal_moves()]
        if s.to_move() == -1:
            return sum(children) / len(children)
        return max(children) if s.to_move() == 0 else min(children)

    return value(state)


@pytest.mark.parametrize("target,die,turns", [(2, 2, 3), (6, 6, 3), (8, 4, 4)])
def test_expectiminimax_equals_brute_force(target, die, turns):
    g = br.Pig(target, die, turns)
    expected = expectimax(g)
    full = br.search(g, "expectiminimax", evaluator="outcome")
    assert full.complete
    assert full.value == pytest.approx(expected, abs=1e-12)
    pruned = br.search(g, "alphabeta", evaluator="outcome")
    assert pruned.value == pytest.approx(expected, abs=1e-9)
    assert pruned.nodes <= full.nodes
    # The roll's score is the expectation over the die's faces.
    rolled = g.play("roll")
    scores = br.search(rolled, "expectiminimax", evaluator="outcome").scores
    assert set(scores) == set(range(1, die + 1))


def test_hand_worked_value():
    # A two-faced die, target 2, three turns: 1/2 - 1/4 + 1/8.
    assert br.search(br.Pig(2, 2, 3), "expectiminimax", evaluator="outcome").value == 0.375


def test_agents_play_pig():
    res = br.play_match(br.Pig(10, 6, 8), "alphabeta:depth=6", "random", pairs=4, seed=1)
    assert res.wins + res.draws + res.losses == 8
