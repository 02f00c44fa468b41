"""Shared fixtures: the optional shared test data (Pons' connect-4 sets).

The data is looked for where the Rust tests look (the `test-data` crate):
the folder named by BACKUP_RULES_SHARED when it is set (an empty value means
"no shared data"), otherwise `shared/` beside the workspace's folder. A test
that needs it skips, and says why, when it is absent.
"""

import os
import pathlib

import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[3]


def shared_dir():
    value = os.environ.get("BACKUP_RULES_SHARED")
    if value is None:
        folder = WORKSPACE.parent / "shared"
    elif value == "":
        return None
    else:
        folder = pathlib.Path(value)
    return folder if folder.is_dir() else None


@pytest.fixture
def pons_set():
    """Reads one of Pons' benchmark sets as (moves, score) pairs, or skips."""

    def read(name):
        folder = shared_dir()
        path = folder / "connect4" / name if folder else None
        if path is None or not path.is_file():
            pytest.skip(f"shared test data connect4/{name} is absent (BACKUP_RULES_SHARED or shared/ beside the workspace)")
        rows = []
        for line in path.read_text().splitlines():
            if line.strip():
                moves, score = line.split()
                rows.append((moves, int(score)))
        return rows

    return read
