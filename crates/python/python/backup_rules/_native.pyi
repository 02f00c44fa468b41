"""Type stubs of the extension module (re-exported by ``backup_rules``)."""

from typing import Any, Callable, Dict, Hashable, List, Optional, Protocol, Sequence, Tuple, Union

__version__: str
WIN_SCORE: float
"""The value of a won game at the root (less one per ply) with the heuristic evaluators."""
HAS_CHESS: bool
"""True if the package was built with the ``chess`` feature (GPL-3.0-or-later)."""
RULES: str
"""The rule kinds ``search`` accepts, comma-separated."""

Move = Hashable

class Game(Protocol):
    """The protocol a Python game follows to be searched and played.

    ``value``, ``chance_outcomes`` and ``__hash__`` are optional: see
    docs/python.md.
    """

    def legal_moves(self) -> Sequence[Any]: ...
    def play(self, move: Any, /) -> "Game": ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> Union[float, Tuple[float, float]]: ...
    def to_move(self) -> int: ...

class _BuiltIn:
    def legal_moves(self) -> List[Any]:
        """The legal moves (none once the game is over)."""
    def play(self, move: Any, /) -> "_BuiltIn":
        """The position after ``move`` (a move, or a move string): a new object.

        Raises ``ValueError`` (the library's message) for an illegal move or
        a finished game, ``TypeError`` for a value that is not a move."""
    def is_terminal(self) -> bool:
        """True once the game is over."""
    def returns(self) -> Tuple[float, float]:
        """``(first, second)``: ``(1, -1)`` when the first player has won,
        ``(0, 0)`` for a draw or a game still going on."""
    def to_move(self) -> int:
        """The player to move: 0 (first), 1 (second), -1 (chance)."""
    def winner(self) -> Optional[int]:
        """The winner (0 or 1), or ``None`` (a draw, or not over)."""
    def move_to_string(self, move: Any, /) -> str:
        """The move's text in the game's notation."""
    def string_to_move(self, text: str, /) -> Any:
        """The move a move string names in this position."""
    def perft(self, depth: int, /) -> int:
        """Leaf nodes ``depth`` plies below (the game's move generator, counted)."""
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

class TicTacToe(_BuiltIn):
    """Tic-tac-toe. Moves are cells 0..8 (``"a1"`` = 0, ``"b1"`` = 1, ..., ``"c3"`` = 8)."""

    def __init__(self, moves: str = "") -> None:
        """The position after ``moves`` (e.g. ``"b2 a1"``)."""
    def legal_moves(self) -> List[int]: ...
    def play(self, move: Union[int, str], /) -> "TicTacToe": ...

class Connect4(_BuiltIn):
    """Connect-4 on any board with (height + 1) x width <= 64. Moves are
    columns 0..width-1 (``"1"``, ``"2"``... in the notation); ``legal_moves``
    lists them centre first."""

    width: int
    height: int
    def __init__(self, width: int = 7, height: int = 6, moves: str = "") -> None:
        """The position after ``moves``, a string of column digits from 1 (``"4453"``)."""
    def legal_moves(self) -> List[int]: ...
    def play(self, move: Union[int, str], /) -> "Connect4": ...

class Gobang(_BuiltIn):
    """Gobang (freestyle five in a row) on a ``size`` x ``size`` board. Moves
    are points (ints), written ``h8``-style; the legal moves are the empty
    points near the stones."""

    size: int
    def __init__(self, size: int = 15, moves: str = "") -> None: ...
    def legal_moves(self) -> List[int]: ...
    def play(self, move: Union[int, str], /) -> "Gobang": ...

class Tree(_BuiltIn):
    """A game tree written as text, e.g. ``"max(min(3, 12, 8), min(2, 4, 6))"``;
    ``chance(0.25:a, 0.75:b)`` nodes for expectiminimax. Moves are child
    indices (or labels)."""

    def __init__(self, text: str) -> None: ...
    def legal_moves(self) -> List[int]: ...
    def play(self, move: Union[int, str], /) -> "Tree": ...

class Pig(_BuiltIn):
    """Pig, the dice game, for expectiminimax: race to ``target`` points; on
    a turn roll a ``die``-faced die as often as you like (a 1 loses the
    turn's total and ends the turn) or hold to bank the total; a draw after
    ``max_turns`` turns (which makes the tree finite). Moves are ``1``
    (``"roll"``) and ``0`` (``"hold"``, once the turn has a total); after a
    roll chance is to move (``to_move() == -1``), its outcomes the faces
    ``1..die``, equally likely. Reaching the target wins at once."""

    scores: Tuple[int, int]
    """The banked scores of the first and the second player."""
    turn_total: int
    """The points of the turn so far."""
    turns: int
    """Turns finished so far."""
    target: int
    def __init__(self, target: int = 10, die: int = 6, max_turns: int = 6) -> None:
        """Raises ``ValueError`` for a target outside 1..100, a die outside 2..20, or no turns."""
    def legal_moves(self) -> List[int]: ...
    def play(self, move: Union[int, str], /) -> "Pig": ...

State = Union[TicTacToe, Connect4, Gobang, Tree, Pig, Game]

class SearchResult:
    """The result of :func:`search`."""

    value: Optional[float]
    """The root's value for the player to move (the first player at a chance
    node), or ``None`` if not even one iteration finished."""
    best: Optional[Any]
    """The move chosen."""
    best_moves: List[Any]
    """Every move with the best value."""
    pv: List[Any]
    """The principal variation."""
    scores: Dict[Any, float]
    """``{move: score}`` over the root's moves: exact for full-width rules and
    with ``exact_root=True``, bounds otherwise (alpha-beta)."""
    policy: Dict[Any, float]
    """``{move: probability}``: Rminimax's own policy for ``rminimax``, the
    best moves shared equally for the other rules."""
    nodes: int
    leaves: int
    depth: int
    """The depth of the last completed iteration."""
    complete: bool
    """False if a limit (nodes, time) stopped the search before it answered."""
    seconds: float
    rule: str
    def policy_array(self, size: Optional[int] = None) -> Any:
        """The policy as a numpy array (numpy is an optional dependency:
        ``ImportError`` without it). For integer moves (every built-in game
        but chess) it is indexed by move, of length ``size`` (by default the
        largest move at the root plus one; 0 for moves not there); otherwise
        the probabilities in the order of ``policy`` (``size`` then raises
        ``TypeError``)."""

class MctsResult:
    """The result of :func:`mcts`."""

    best: Optional[Any]
    value: float
    """The root's value in [-1, 1] for the player to move."""
    visits: Dict[Any, int]
    values: Dict[Any, float]
    policy: Dict[Any, float]
    """The soft policy of ``backup="ments"``, the visit shares otherwise."""
    pv: List[Any]
    iterations: int
    nodes: int
    seconds: float
    def policy_array(self, size: Optional[int] = None) -> Any:
        """The policy as a numpy array (numpy is an optional dependency:
        ``ImportError`` without it). For integer moves (every built-in game
        but chess) it is indexed by move, of length ``size`` (by default the
        largest move at the root plus one; 0 for moves not there); otherwise
        the probabilities in the order of ``policy`` (``size`` then raises
        ``TypeError``)."""

def search(
    state: State,
    rule: str = "alphabeta",
    *,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    time: Optional[float] = None,
    evaluator: str = "heuristic",
    table_mib: Optional[int] = None,
    threads: int = 1,
    exact_root: bool = False,
    seed: int = 0,
) -> SearchResult:
    """Searches ``state`` with a backup rule to the limits given (none: the whole tree).

    ``rule`` is a spec: ``alphabeta``, ``minimax`` (= ``expectiminimax``),
    ``iom[:leaf=literal|geometric]``, ``emm:temperature=T`` or ``emm:error=E``,
    ``rminimax:theta=T[,costs=outcome|utility,win=,draw=,loss=,interior=,range=,offset=]``,
    ``predictive:ps=P[,weights=normalised|unnormalised]``, ``product:temperature=T``,
    ``mn:m=M,n=N,beta=B,delta=D``, ``modelled:theta=T`` or ``modelled:eps=E[,cap=C]``.
    ``evaluator``: ``"heuristic"`` (the game's evaluator; a Python game's
    ``value()``) or ``"outcome"`` (win 1, draw 0, loss -1, 0 at the horizon).
    ``threads`` > 1: Lazy SMP (``alphabeta`` only, built-in games only).
    The GIL is released while a built-in game is searched.

    On the built-in games each thread keeps the searches of its last few
    calls (by rule, evaluator and keywords) and clears one for the next call
    with the same arguments instead of building it again: a fresh table costs
    more than a small search. Results are those of a fresh search.

    Raises ``ValueError`` with the library's message for a bad rule or
    limit, and re-raises any exception a Python game's method raised."""

def path_stats(
    tree: Tree, policy: str, param: Optional[float] = None, *, interior: float = 1.0, offset: float = 0.0
) -> Dict[str, float]:
    """The whole-tree path statistics of a policy on ``tree`` under the
    Rminimax paper's utility costs (every interior arc costs ``interior``,
    the arc into a leaf ``offset - value``, the value for the root's
    player): ``{"entropy": H,
    "expected_cost": E[C], "cost_to_go": V}``, the quantities of the paper's
    Tables II and III. ``policy``: ``"rminimax"`` (θ = ``param``),
    ``"epsilon-greedy"`` (ε = ``param``), ``"boltzmann"`` (θ = ``param``) or
    ``"greedy"`` (no ``param``). ``ValueError`` for a bad policy or
    parameter."""

def mcts(
    state: State,
    iterations: Optional[int] = None,
    *,
    time: Optional[float] = None,
    c: float = 1.4,
    backup: str = "mean",
    tau: Optional[float] = None,
    playouts: str = "random",
    scale: float = 1.0,
    evaluator: str = "heuristic",
    seed: int = 0,
    threads: int = 1,
) -> MctsResult:
    """Monte Carlo tree search: ``iterations`` simulations and/or ``time`` seconds.

    ``backup``: ``"mean"`` (UCT), ``"max"``, or ``"ments"`` (soft backup with
    temperature ``tau``). ``playouts``: ``"random"`` or ``"eval"`` (the
    evaluator's value squashed by ``tanh(v / scale)``). ``threads``: root
    parallelisation."""

class Solved:
    score: int
    """The exact score for the side to move: 0 a draw; a win with the side's
    k-th disc scores ``(cells + 1) // 2 + 1 - k``; a loss the negation. Only
    its sign for ``weak_solve``."""
    nodes: int
    seconds: float

class Connect4Solver:
    """The strong connect-4 solver for one board size (its table is kept between solves)."""

    def __init__(self, width: int = 7, height: int = 6, table_mib: int = 8) -> None: ...
    def solve(self, position: Connect4, /) -> Solved: ...
    def weak_solve(self, position: Connect4, /) -> Solved: ...
    def best_move(self, position: Connect4, /) -> Tuple[int, int]:
        """A perfect move: ``(column, score)``."""
    def reset(self) -> None: ...

class Agent:
    """An agent given by a spec: ``random``, ``alphabeta:depth=D``,
    ``boltzmann:depth=D,theta=T``, ``rminimax:depth=D,theta=T``,
    ``epsilon:depth=D,eps=E``, ``iom:depth=D``, ``mcts:iters=N``,
    ``ments:iters=N,tau=T``, ``elo:X`` (on a game with a committed
    calibration: tic-tac-toe, 7 x 6 connect-4, 15 x 15 gobang, and chess in
    a chess build), ``human:X[,pick=sample|mode]`` (chess builds: the learned
    model of Lichess players rated X)... Its random choices follow from
    ``seed`` and the number of moves it has chosen."""

    spec: str
    def __init__(self, spec: str, seed: int = 0) -> None: ...
    def choose(self, state: State, /) -> Any: ...

def choose_move(state: State, spec: str, seed: int = 0) -> Any:
    """The move the agent of ``spec`` plays in ``state``."""

class MatchResult:
    """A match's result from A's side."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    elo: Optional[float]
    """Elo A - B from the pairs (pentanomial model); ``None`` if undefined."""
    elo_low: Optional[float]
    elo_high: Optional[float]
    """The 95% interval."""
    pentanomial: List[int]
    """Pairs by A's score: 0, 1/2, 1, 3/2, 2."""
    report: str

def play_match(
    start: State,
    a: str,
    b: str,
    *,
    pairs: int = 10,
    seed: int = 0,
    opening_plies: int = 0,
    max_plies: int = 1000,
    progress: Union[bool, None, Callable[[int, int], Any]] = None,
) -> MatchResult:
    """Plays ``pairs`` pairs of games between the agents of specs ``a`` and ``b``:
    each pair from one random opening of ``opening_plies`` moves, each agent
    moving first once; reproducible from ``seed``. The GIL is released.

    ``progress``: ``True`` shows a tqdm bar (``ImportError`` without tqdm);
    a callable is called as ``progress(done, total)`` after each pair (an
    exception it raises stops the match and is raised to the caller); the
    games are the same with or without it."""

def dial_range(state: State, /) -> Tuple[float, float]:
    """The ratings the strength dial of ``state``'s game covers (tic-tac-toe,
    7 x 6 connect-4, 15 x 15 gobang, chess in a chess build)."""

def dial_setting(state: State, elo: float, /) -> str:
    """The agent spec the dial plays at rating ``elo``."""

class Chess(_BuiltIn):
    """Chess from a FEN (the start position by default); present only where
    the package was built with the ``chess`` feature (import it from
    ``backup_rules.chess``). Moves are UCI strings; ``play`` also takes SAN."""

    fen: str
    def __init__(self, fen: Optional[str] = None) -> None: ...
    def legal_moves(self) -> List[str]: ...
    def play(self, move: str, /) -> "Chess": ...
    def san(self, move: str, /) -> str:
        """The move in SAN, with ``+`` or ``#``."""

class FitResult:
    """A player model fitted to moves (see :func:`fit_player`)."""

    model: str
    param: float
    """The maximum-likelihood parameter: θ (boltzmann), ε (epsilon-greedy) or the noise S; may be ``inf``."""
    low: Optional[float]
    high: Optional[float]
    """The 95% profile-likelihood interval; ``None`` is an end open to the domain's edge."""
    slip: Optional[float]
    loglik: float
    aic: float
    moves: int
    uninformative: int
    elo: Optional[float]
    """The dial rating of a fitted Boltzmann player on ``curve``, where given."""
    elo_low: Optional[float]
    elo_high: Optional[float]

def fit_player(
    start: State,
    games: Sequence[Sequence[Any]],
    *,
    curve: Optional[str] = None,
    depth: Optional[int] = None,
    cap: Optional[float] = None,
    model: str = "boltzmann",
    side: str = "both",
    slip: bool = False,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
) -> FitResult:
    """Fits a player model (``"boltzmann"``, ``"epsilon-greedy"``, ``"noise"``)
    to the moves of ``games`` (lists of moves from ``start``), each position
    valued by a depth-``depth`` search with exact root scores (values capped
    at ``cap``). With ``curve`` (a dial curve of the game's calibration,
    e.g. ``"boltzmann:depth=2,cap=100"`` on connect-4), the depth and cap are
    the curve's and a fitted θ is also placed on the dial (``elo``).
    ``side``: ``"first"``, ``"second"`` or ``"both"``. ``progress``: as
    :func:`play_match`'s, counted in games (the fit is the same with it)."""
