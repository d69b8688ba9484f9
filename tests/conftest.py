"""Shared fixtures: real 9-dan games from ../shared/data, read with sgfmill."""

import gzip
import os
from pathlib import Path

import pytest
from sgfmill import sgf, sgf_moves

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("GOENGINE_DATA", REPO.parent / "shared" / "data" / "tygem-9d"))
SAMPLE_MONTH = DATA_DIR / "tygem-9d-2009-01.sgfs.gz"


def read_games(path, limit):
    """The first `limit` parseable games of a collection as (size, setup board, moves)."""
    games = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if len(games) >= limit:
                break
            try:
                game = sgf.Sgf_game.from_string(line)
                setup, moves = sgf_moves.get_setup_and_moves(game)
            except ValueError:
                continue
            games.append((game.get_size(), setup, moves))
    return games


@pytest.fixture(scope="session")
def sample_games():
    if not SAMPLE_MONTH.exists():
        pytest.skip(f"game records not found at {SAMPLE_MONTH}")
    return read_games(SAMPLE_MONTH, 60)
