"""The speed table of docs/python.md, measured side by side in one run.

Rows:
- alpha-beta to the same depth on tic-tac-toe (the whole game) and on
  connect-4 (7 x 6, from the empty board, depths 6, 8 and 10): this package
  (the built-in games, the outcome-only evaluator) against OpenSpiel's Python
  alpha_beta_search on OpenSpiel's C++ games with a zero value function, so
  that both value the same leaves (a win 1, a loss -1, anything else 0) and
  must find the same value (checked); the nodes of both are counted, so the
  time per node is compared as well as the time per search. easyAI's Negamax
  (alpha-beta, its own games) where it finishes in seconds (depth <= 6);
- the fixed cost of a call: a search to depth 1;
- MCTS simulations per second with random playouts on connect-4: this
  package against pyspiel.MCTSBot (OpenSpiel's C++ MCTS, one rollout per
  simulation);
- the per-node cost of a game written in Python (the protocol) against the
  same game built in: full-width minimax over the whole tic-tac-toe tree.

Run it on a release build (`pip install ./crates/python`), on an idle
machine: `python crates/python/bench/speed.py [--quick]`. Each time is the
best of `--repeat` runs (default 3). easyAI and open_spiel are optional: a
missing one's rows say so.
"""

import argparse
import os
import sys
import time

import backup_rules as br

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from pygames import PyTicTacToe  # noqa: E402


def best_of(repeat, f):
    """The shortest of `repeat` timings of f() and f()'s last result."""
    best = float("inf")
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - start)
    return best, out


def easyai_row(game_name, depth, repeat):
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.games import ConnectFour, TicTacToe
    except ImportError:
        return None
    cls = TicTacToe if game_name == "tictactoe" else ConnectFour

    def run():
        ai = Negamax(depth)
        game = cls([AI_Player(ai), AI_Player(ai)])
        return ai(game)

    return best_of(repeat, run)[0]


def openspiel_row(game_name, depth, repeat):
    """OpenSpiel's Python alpha_beta_search with a zero value function at the
    horizon (the same leaf values as our outcome evaluator): the best time of
    `repeat` runs, and its nodes, counted in one more, untimed run through a
    wrapper of its recursive function."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError:
        return None
    game = pyspiel.load_game("tic_tac_toe" if game_name == "tictactoe" else "connect_four")

    def run():
        return minimax.alpha_beta_search(
            game, game.new_initial_state(), value_function=lambda s: 0.0, maximum_depth=depth, maximizing_player_id=0
        )

    t, (value, _) = best_of(repeat, run)
    original = minimax._alpha_beta
    count = [0]

    def counting(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    minimax._alpha_beta = counting
    try:
        run()
    finally:
        minimax._alpha_beta = original
    return t, count[0], value


def ours_row(state, depth, repeat):
    """The best time of `repeat` searches (each a fresh search: the thread
    keeps the search object and clears its table), the first call's time
    (which builds the table), the nodes and the value."""
    run = lambda: br.search(state, "alphabeta", depth=depth, evaluator="outcome")  # noqa: E731
    start = time.perf_counter()
    run()
    first = time.perf_counter() - start
    t, r = best_of(repeat, run)
    return t, first, r.nodes, r.value


def mcts_rows(name, simulations, repeat):
    """Simulations/s of both, with the Rust bench's settings (docs/benchmarks-mcts.md):
    UCT with c = 1 on our [0, 1] scale, OpenSpiel's uct_c = 2 on [-1, 1] (the
    same rule), one random rollout per new leaf, a fresh tree each search."""
    g = br.TicTacToe() if name == "tictactoe" else br.Connect4()
    t, r = best_of(repeat, lambda: br.mcts(g, simulations, c=1.0, seed=1))
    ours = r.iterations / t
    theirs = None
    try:
        import pyspiel

        game = pyspiel.load_game("tic_tac_toe" if name == "tictactoe" else "connect_four")

        def run():
            bot = pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, simulations, 1000, False, 1, False
            )
            return bot.step(game.new_initial_state())

        t2, _ = best_of(repeat, run)
        theirs = simulations / t2
    except ImportError:
        pass
    return ours, theirs


def protocol_row(repeat):
    rust_t, rust = best_of(repeat, lambda: br.search(br.TicTacToe(), "minimax", evaluator="outcome"))
    py_t, py = best_of(max(1, repeat - 1), lambda: br.search(PyTicTacToe(), "minimax", evaluator="outcome"))
    assert rust.nodes == py.nodes == 549946 and rust.value == py.value
    return rust.nodes / rust_t, py.nodes / py_t


def fmt_time(t):
    if t is None:
        return "n/a (not installed)"
    return f"{t * 1000:.3f} ms" if t < 0.01 else f"{t * 1000:.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller depths and counts (a smoke run)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    c4_depths = [4, 6] if args.quick else [6, 8, 10]
    sims = 2000 if args.quick else 20000

    print(f"backup_rules {br.__version__}, Python {sys.version.split()[0]}")
    print()
    print(
        "| alpha-beta, outcome values | this package | its nodes | µs/node | OpenSpiel alpha_beta_search "
        "| its nodes | µs/node | easyAI Negamax | time vs OpenSpiel | per node vs OpenSpiel | time vs easyAI |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = [("tictactoe", br.TicTacToe(), 9)] + [("connect4", br.Connect4(), d) for d in c4_depths]
    for name, state, depth in rows:
        ours, first, nodes, value = ours_row(state, depth, args.repeat)
        osp = openspiel_row(name, depth, args.repeat)
        ea = easyai_row(name, depth, args.repeat) if depth <= 6 or name == "tictactoe" else None
        ours_per = ours / nodes * 1e6
        if osp is None:
            o_time = o_nodes = o_per = ratio = per_ratio = "n/a"
        else:
            t, n, v = osp
            assert v == value, f"{name} depth {depth}: OpenSpiel's value {v}, ours {value}"
            o_time, o_nodes, o_per = fmt_time(t), f"{n:,}", f"{t / n * 1e6:.2f}"
            ratio, per_ratio = f"{t / ours:.0f}x", f"{(t / n) / (ours / nodes):.0f}x"
        ea_ratio = "-" if ea is None else f"{ea / ours:.0f}x"
        print(
            f"| {name} depth {depth} | {fmt_time(ours)} (first call {fmt_time(first)}) | {nodes:,} | {ours_per:.3f} "
            f"| {o_time} | {o_nodes} | {o_per} | {fmt_time(ea) if ea is not None else '-'} | {ratio} | {per_ratio} "
            f"| {ea_ratio} |"
        )
    print()
    print("| fixed cost of a call: search to depth 1 | time |")
    print("| --- | --- |")
    for name, state in [("tictactoe", br.TicTacToe()), ("connect4", br.Connect4())]:
        t, _ = best_of(20, lambda: br.search(state, "alphabeta", depth=1, evaluator="outcome"))
        print(f"| {name} | {t * 1e6:.0f} µs |")
    print()
    print(f"| MCTS, {sims} simulations from the start | this package (simulations/s) | pyspiel.MCTSBot, C++ (simulations/s) | ratio |")
    print("| --- | --- | --- | --- |")
    for name in ["tictactoe", "connect4"]:
        ours, theirs = mcts_rows(name, sims, args.repeat)
        ratio = "-" if theirs is None else f"{ours / theirs:.1f}x"
        print(f"| {name} | {ours:,.0f} | {'n/a' if theirs is None else f'{theirs:,.0f}'} | {ratio} |")
    rust_rate, py_rate = protocol_row(args.repeat)
    print()
    print("| full-width minimax, whole tic-tac-toe tree | nodes/s | µs/node |")
    print("| --- | --- | --- |")
    print(f"| built-in TicTacToe | {rust_rate:,.0f} | {1e6 / rust_rate:.3f} |")
    print(f"| the same game in Python (protocol) | {py_rate:,.0f} | {1e6 / py_rate:.2f} |")
    print(f"| overhead of the Python game | {rust_rate / py_rate:.0f}x | {1e6 / py_rate - 1e6 / rust_rate:.2f} |")


if __name__ == "__main__":
    main()
