"""Three backup rules on connect-4, notebook style.

How often does each rule's move keep the position's game-theoretic value,
as the connect-4 solver judges it, and at what cost in nodes? Alpha-beta
(minimax values), Rminimax (randomized: its most probable move) and
predictive play are searched to depths 2 to 4 from the same seeded random
middle-game positions; the solver scores every move of every position.

Run: `python crates/python/examples/compare_rules.py [--positions N] [--out FIG.png]`.
pandas and matplotlib are optional (`pip install pandas matplotlib`):
without them the table is printed as plain text and no figure is drawn.
"""

import argparse
import random

import backup_rules as br

RULES = {
    "alpha-beta": "alphabeta",
    "Rminimax θ=0.02": "rminimax:theta=0.02,range=1000",
    "predictive PS=0.5": "predictive:ps=0.5",
}
DEPTHS = [2, 3, 4]


def random_positions(count, plies, seed):
    """`count` positions after `plies` random moves, still going on."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = br.Connect4()
        for _ in range(plies):
            if g.is_terminal():
                break
            g = g.play(rng.choice(g.legal_moves()))
        if not g.is_terminal():
            out.append(g)
    return out


def move_scores(solver, g):
    """{move: the solver's score of the move for the side to move}."""
    scores = {}
    for m in g.legal_moves():
        child = g.play(m)
        if child.is_terminal():
            scores[m] = 100 if child.winner() is not None else 0
        else:
            scores[m] = -solver.solve(child).score
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="compare_rules.png", help="the figure (PNG)")
    args = ap.parse_args()

    positions = random_positions(args.positions, args.plies, args.seed)
    solver = br.Connect4Solver()
    perfect = [move_scores(solver, g) for g in positions]

    rows = []
    for label, rule in RULES.items():
        for depth in DEPTHS:
            kept = nodes = 0
            for g, scores in zip(positions, perfect):
                r = br.search(g, rule, depth=depth)
                move = max(r.policy, key=r.policy.get)
                kept += scores[move] == max(scores.values())
                nodes += r.nodes
            rows.append(
                {"rule": label, "depth": depth, "perfect moves %": 100 * kept / len(positions), "nodes": nodes / len(positions)}
            )

    try:
        import pandas as pd
    except ImportError:
        print("(pandas is not installed: plain table)")
        for r in rows:
            print(f"{r['rule']:<20} depth {r['depth']}  perfect {r['perfect moves %']:5.1f}%  nodes {r['nodes']:10.0f}")
        return
    table = pd.DataFrame(rows).pivot(index="rule", columns="depth", values=["perfect moves %", "nodes"])
    print(table.round(1).to_string())

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no figure)")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for label in RULES:
        sub = [r for r in rows if r["rule"] == label]
        ax.plot([r["nodes"] for r in sub], [r["perfect moves %"] for r in sub], marker="o", label=label)
        for r in sub:
            ax.annotate(f"d{r['depth']}", (r["nodes"], r["perfect moves %"]), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("nodes per move (log scale)")
    ax.set_ylabel("moves keeping the solver's value (%)")
    ax.set_title(f"connect-4, {len(positions)} random positions after {args.plies} plies")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"figure: {args.out}")


if __name__ == "__main__":
    main()
