"""Chess (FEN in, UCI and SAN moves), present where the package was built
with the Rust feature ``chess``.

That build links GPL-3.0-or-later code (shakmaty, through the games-chess
crate), so it is distributed under GPL-3.0-or-later as a whole; the default
build has no chess and is MIT OR Apache-2.0. Build it with::

    pip install ./crates/python --config-settings=build-args="--features chess"
"""

from . import _native

if not _native.HAS_CHESS:
    raise ImportError(
        "backup_rules was built without chess: reinstall with "
        "pip install ./crates/python --config-settings=build-args=\"--features chess\" "
        "(GPL-3.0-or-later, see docs/python.md)"
    )

Chess = _native.Chess

__all__ = ["Chess"]
