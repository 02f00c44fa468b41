"""Agents by spec, matches with Elo, the strength dial."""

import math

import pytest

import backup_rules as br


def test_agent_by_spec():
    g = br.TicTacToe("a1 a2 b2 b1")
    assert br.Agent("alphabeta:depth=9").choose(g) == 8
    assert br.choose_move(g, "rminimax:depth=3,theta=1000") == 8
    a = br.Agent("random", seed=3)
    assert all(a.choose(br.TicTacToe()) in range(9) for _ in range(5))
    assert br.Agent(" alphabeta : depth=4 ").spec == "alphabeta:depth=4"


def test_bad_specs_raise_value_error_with_the_library_message():
    with pytest.raises(ValueError, match="unknown agent kind"):
        br.choose_move(br.TicTacToe(), "wizard:depth=3")
    with pytest.raises(ValueError, match="colour"):
        br.choose_move(br.TicTacToe(), "alphabeta:depth=3,colour=red")
    with pytest.raises(ValueError):
        br.Agent("")


def test_match_with_elo_and_interval():
    m = br.play_match(br.TicTacToe(), "alphabeta:depth=9", "random", pairs=20, seed=1, opening_plies=1)
    assert m.games == 40
    assert m.losses == 0
    assert m.wins > 0
    assert m.wins + m.draws + m.losses == m.games
    assert sum(m.pentanomial) == 20
    assert m.elo is not None and m.elo_low < m.elo < m.elo_high
    assert m.elo > 0
    again = br.play_match(br.TicTacToe(), "alphabeta:depth=9", "random", pairs=20, seed=1, opening_plies=1)
    assert (again.wins, again.draws, again.losses) == (m.wins, m.draws, m.losses)
    assert "Elo" in str(m)


def test_the_dial():
    lo, hi = br.dial_range(br.Connect4())
    assert lo < hi
    spec = br.dial_setting(br.TicTacToe(), (sum(br.dial_range(br.TicTacToe()))) / 2)
    assert ":" in spec
    g = br.Connect4(moves="44")
    assert br.choose_move(g, f"elo:{(lo + hi) / 2:.0f}", seed=1) in g.legal_moves()
    with pytest.raises(ValueError):
        br.dial_setting(br.Connect4(), hi + 10000)
    with pytest.raises(ValueError, match="calibration"):
        br.dial_range(br.Connect4(6, 5))
    # Rounded inwards: a rating rounded past an end of the range is refused.
    top, bottom = math.floor(hi), math.ceil(lo)
    m = br.play_match(br.Connect4(), f"elo:{top}", f"elo:{bottom}", pairs=3, seed=2, opening_plies=2)
    assert m.games == 6 and m.wins >= m.losses


def test_the_dials_top_plays_perfect_endgames():
    # The top of the connect-4 dial: alpha-beta, then perfect play once few
    # cells are empty. The first player's three in the bottom row, open at
    # both ends, its move with 36 cells empty: perfect play wins at once.
    g = br.Connect4(moves="445566")
    assert br.choose_move(g, "solver:depth=2,empties=36", seed=1) in (2, 6)
    with pytest.raises(ValueError, match="go together"):
        br.choose_move(g, "solver:depth=2", seed=1)
    _, hi = br.dial_range(br.Connect4())
    assert br.dial_setting(br.Connect4(), hi).startswith("solver:depth=8,empties=")


def test_matches_in_threads():
    import threading

    out = []

    def one():
        out.append(br.play_match(br.TicTacToe(), "alphabeta:depth=2", "random", pairs=5, seed=9).score)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 2 and out[0] == out[1]


def self_play(spec, games, seed):
    """Games of the agent of `spec` against itself on connect-4, as move lists."""
    out = []
    for i in range(games):
        agent = br.Agent(spec, seed=seed + i)
        g = br.Connect4()
        moves = []
        while not g.is_terminal() and len(moves) < 30:
            m = agent.choose(g)
            moves.append(m)
            g = g.play(m)
        out.append(moves)
    return out


def test_fit_finds_the_players_temperature_and_rating():
    curve = "boltzmann:depth=2,cap=100"
    games = self_play(f"{curve},theta=0.03", 8, seed=10)
    f = br.fit_player(br.Connect4(), games, curve=curve)
    assert f.model == "boltzmann"
    assert f.moves >= 100
    assert 0.01 < f.param < 0.1
    assert f.low < f.param < f.high
    assert f.elo is not None and 209 < f.elo < 805
    noisy = br.fit_player(br.Connect4(), self_play("random", 6, seed=20), curve=curve)
    assert noisy.param < f.param
    eps = br.fit_player(br.Connect4(), games, depth=2, cap=100, model="epsilon-greedy")
    assert 0.0 < eps.param < 1.0 and eps.elo is None
    with pytest.raises(ValueError, match="model"):
        br.fit_player(br.Connect4(), games, depth=2, model="psychic")
    with pytest.raises(ValueError, match="illegal"):
        br.fit_player(br.Connect4(), [[0, 0, 0, 0, 0, 0, 0]], depth=2)


def test_fit_progress_same_fit_and_errors():
    curve = "boltzmann:depth=2,cap=100"
    games = self_play(f"{curve},theta=0.03", 5, seed=11)
    plain = br.fit_player(br.Connect4(), games, curve=curve)
    seen = []
    counted = br.fit_player(br.Connect4(), games, curve=curve, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 5) for i in range(1, 6)]
    assert (counted.param, counted.low, counted.high, counted.moves, counted.elo) == (
        plain.param,
        plain.low,
        plain.high,
        plain.moves,
        plain.elo,
    )

    def stop_after_two(done, total):
        if done == 2:
            raise KeyboardInterrupt("enough")

    with pytest.raises(KeyboardInterrupt, match="enough"):
        br.fit_player(br.Connect4(), games, curve=curve, progress=stop_after_two)
    with pytest.raises(TypeError, match="progress"):
        br.fit_player(br.Connect4(), games, curve=curve, progress=3)


def test_match_progress_callback_same_games_and_errors():
    g = br.TicTacToe()
    plain = br.play_match(g, "boltzmann:depth=2,theta=0.5", "random", pairs=4, seed=7, opening_plies=1)
    seen = []
    with_progress = br.play_match(
        g, "boltzmann:depth=2,theta=0.5", "random", pairs=4, seed=7, opening_plies=1,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert with_progress.pentanomial == plain.pentanomial
    assert (with_progress.wins, with_progress.draws, with_progress.losses) == (plain.wins, plain.draws, plain.losses)

    class Stop(Exception):
        pass

    def stop_after_two(done, total):
        if done == 2:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        br.play_match(g, "random", "random", pairs=4, progress=stop_after_two)
    with pytest.raises(TypeError):
        br.play_match(g, "random", "random", pairs=1, progress=3)
    assert br.play_match(g, "random", "random", pairs=1, progress=False).games == 2


def test_match_progress_bar_with_tqdm():
    pytest.importorskip("tqdm")
    assert br.play_match(br.TicTacToe(), "random", "random", pairs=2, progress=True).games == 4
