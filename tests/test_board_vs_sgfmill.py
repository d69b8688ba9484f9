"""Replay real 9-dan games on our board and on sgfmill's, independently, and
demand identical stones and capture counts after every move."""


import pytest

from tests.sgfmill_replay import read_games, replay_and_compare

from tests.conftest import DATA_DIR


def test_sample_games_match_sgfmill(sample_games):
    total = 0
    for size, setup, moves in sample_games:
        compared, differences = replay_and_compare(size, setup, moves)
        assert differences == 0
        total += compared
    assert total > 5000


@pytest.mark.slow
def test_full_month_matches_sgfmill():
    path = DATA_DIR / "tygem-9d-2009-02.sgfs.gz"
    if not path.exists():
        pytest.skip("game records not found")
    games = read_games(path, 10**9)
    assert len(games) > 5000
    for size, setup, moves in games:
        assert replay_and_compare(size, setup, moves)[1] == 0
