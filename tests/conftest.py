"""Shared fixtures: real 9-dan games from ../shared/data, read with sgfmill."""

import os
from pathlib import Path

import pytest

from tests.parsing import parser_pool
from tests.sgfmill_replay import read_games

REPO = Path(__file__).resolve().parent.parent

DATA_DIR = Path(os.environ.get("GOENGINE_DATA", REPO.parent / "shared" / "data" / "tygem-9d"))
SAMPLE_MONTH = DATA_DIR / "tygem-9d-2009-01.sgfs.gz"


@pytest.fixture(scope="session")
def sample_games():
    if not SAMPLE_MONTH.exists():
        pytest.skip(f"game records not found at {SAMPLE_MONTH}")
    return read_games(SAMPLE_MONTH, 60)


@pytest.fixture(scope="session")
def parsers():
    """One pool of parsing processes (tests/parsing.py) for every test that parses our
    programs' command lines."""
    with parser_pool() as pool:
        yield pool
