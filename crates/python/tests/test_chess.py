"""Chess, in builds with the `chess` feature (GPL-3.0-or-later)."""

import pytest

import backup_rules as br

if not br.HAS_CHESS:
    pytest.skip("this build has no chess (the Rust feature `chess` is off)", allow_module_level=True)

from backup_rules.chess import Chess  # noqa: E402


def test_chess_moves_fen_and_search():
    c = Chess()
    assert len(c.legal_moves()) == 20
    assert c.perft(3) == 8902
    d = c.play("e2e4").play("e7e5").play("Nf3")
    assert d.fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b")
    assert d.san("b8c6") == "Nc6"
    mate_in_one = Chess("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    r = br.search(mate_in_one, "alphabeta", depth=2)
    assert r.best == "a1a8"
    with pytest.raises(ValueError):
        c.play("e2e5")


def test_human_and_dial_agents_on_chess():
    c = Chess().play("e2e4").play("e7e5")
    legal = set(c.legal_moves())
    for spec in ["human:1500", "human:900,pick=mode", "elo:1200"]:
        assert br.choose_move(c, spec, seed=1) in legal, spec
    # Seeded: the same move again.
    assert br.choose_move(c, "human:1500", seed=4) == br.choose_move(c, "human:1500", seed=4)
    a = br.Agent("human:2000", seed=2)
    assert a.choose(c) in legal
    low, high = br.dial_range(Chess())
    assert low < 1200 < high
    assert br.dial_setting(Chess(), 1200)
    for bad in ["human:100", "human:1500,pick=best", "elo:abc"]:
        with pytest.raises(ValueError):
            br.choose_move(c, bad)
