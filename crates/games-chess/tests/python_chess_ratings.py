"""Drives kibitz with python-chess: sets UCI_Elo and HumanElo across the
ranges the engine advertises (min, a middle value, max), plays a move at
each, and fails if python-chess logs any warning (such as "Unexpected engine
output") or refuses a value. Run by tests/uci.rs with the engine's path as
its only argument; prints "ok: ..." on success.
"""

import logging
import sys

import chess
import chess.engine


class Collect(logging.Handler):
    """Keeps every record of WARNING or above."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def main(path):
    collect = Collect()
    logger = logging.getLogger("chess.engine")
    logger.addHandler(collect)
    logger.setLevel(logging.DEBUG)

    board = chess.Board()
    board.push_uci("e2e4")
    played = []
    with chess.engine.SimpleEngine.popen_uci(path, timeout=30) as engine:
        options = engine.options
        for name in ("UCI_Elo", "HumanElo"):
            option = options[name]
            if option.type != "spin" or option.min is None or option.max is None:
                raise SystemExit(f"{name} is not a spin option with a range: {option}")
            if option.min < 0:
                raise SystemExit(f"{name} advertises a negative minimum: {option}")
        elo, human = options["UCI_Elo"], options["HumanElo"]

        # The strength dial: UCI_LimitStrength on, UCI_Elo at min, middle, max.
        engine.configure({"UCI_LimitStrength": True})
        for value in (elo.min, (elo.min + elo.max) // 2, elo.max):
            engine.configure({"UCI_Elo": value})
            engine.ping()
            result = engine.play(board, chess.engine.Limit(time=0.2))
            if result.move not in board.legal_moves:
                raise SystemExit(f"UCI_Elo {value}: illegal move {result.move}")
            played.append(f"UCI_Elo={value}:{result.move.uci()}")
        engine.configure({"UCI_LimitStrength": False})

        # The human model: HumanElo at its lowest rating, middle, max, and
        # a value between 0 (off) and the model's lowest rating, which the
        # engine clamps and says so in the search's output.
        lowest = None
        for value in (human.min + 1, (human.min + human.max) // 2, human.max, human.min):
            engine.configure({"HumanElo": value})
            engine.ping()
            strings = []
            with engine.analysis(board, chess.engine.Limit(depth=1)) as analysis:
                for info in analysis:
                    if "string" in info:
                        strings.append(info["string"])
                best = analysis.wait().move
            if best not in board.legal_moves:
                raise SystemExit(f"HumanElo {value}: illegal move {best}")
            if value == human.min + 1:
                lowest = [s for s in strings if s.startswith(f"HumanElo {value} is outside")]
                if not lowest:
                    raise SystemExit(f"HumanElo {value}: no clamp note in the search's output: {strings}")
            played.append(f"HumanElo={value}:{best.uci()}")

    if collect.records:
        lines = "\n".join(f"{r.levelname}: {r.getMessage()}" for r in collect.records)
        raise SystemExit(f"python-chess logged warnings:\n{lines}")
    print("ok: " + " ".join(played) + f" (note: {lowest[0]})")


if __name__ == "__main__":
    main(sys.argv[1])
