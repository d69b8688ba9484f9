"""Replay real 9-dan games on our board and on sgfmill's, independently, and
demand identical stones and capture counts after every move."""

import pytest
from sgfmill import boards

from goengine import BLACK, PASS, WHITE, Board
from tests.conftest import DATA_DIR, read_games

COLOR = {"b": BLACK, "w": WHITE}
CELL = {None: 0, "b": BLACK, "w": WHITE}


def setup_lists(setup, size):
    black, white = [], []
    for colour, (row, col) in setup.list_occupied_points():
        (black if colour == "b" else white).append(row * size + col)
    return black, white


def replay_and_compare(size, setup, moves):
    """Returns (moves compared, differing points)."""
    reference = boards.Board(size)
    for colour, (row, col) in setup.list_occupied_points():
        reference.play(row, col, colour)
    board = Board(size, superko=False)
    board.setup_stones(*setup_lists(setup, size))
    captured = {"b": 0, "w": 0}
    differences = compared = 0
    for colour, move in moves:
        if move is None:
            board.play(PASS, COLOR[colour])
            continue
        before = sum(1 for _ in reference.list_occupied_points())
        reference.play(move[0], move[1], colour)
        after = sum(1 for _ in reference.list_occupied_points())
        captured[colour] += before + 1 - after
        board.play(move[0] * size + move[1], COLOR[colour])
        compared += 1
        stones = board.stones()
        for row in range(size):
            for col in range(size):
                if stones[row, col] != CELL[reference.get(row, col)]:
                    differences += 1
        if board.captures(BLACK) != captured["b"] or board.captures(WHITE) != captured["w"]:
            differences += 1
    return compared, differences


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
