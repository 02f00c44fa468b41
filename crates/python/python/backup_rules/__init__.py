"""Game-tree search with pluggable backup rules, from Rust.

The built-in games (``TicTacToe``, ``Connect4``, ``Gobang``, ``Tree``, ``Pig``, and
``backup_rules.chess.Chess`` where the package was built with chess) and any
Python class that follows the game protocol (see ``docs/python.md``) can be
searched by every backup rule (``search``), by Monte Carlo tree search
(``mcts``), played by agents given as spec strings (``Agent``,
``choose_move``) and matched with Elo and its interval (``play_match``).
"""

from ._native import (
    HAS_CHESS,
    RULES,
    WIN_SCORE,
    Agent,
    Connect4,
    Connect4Solver,
    FitResult,
    Gobang,
    MatchResult,
    MctsResult,
    Pig,
    SearchResult,
    Solved,
    TicTacToe,
    Tree,
    __version__,
    choose_move,
    dial_range,
    dial_setting,
    fit_player,
    mcts,
    path_stats,
    play_match,
    search,
)

__all__ = [
    "HAS_CHESS",
    "RULES",
    "WIN_SCORE",
    "Agent",
    "Connect4",
    "Connect4Solver",
    "FitResult",
    "Gobang",
    "MatchResult",
    "MctsResult",
    "Pig",
    "SearchResult",
    "Solved",
    "TicTacToe",
    "Tree",
    "__version__",
    "choose_move",
    "dial_range",
    "dial_setting",
    "fit_player",
    "mcts",
    "path_stats",
    "play_match",
    "search",
]
