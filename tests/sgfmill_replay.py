"""An independent reference for the board: sgfmill reads the records and plays
them on its own board; replay_and_compare counts every point or capture count
where goengine's board differs after any move."""

import gzip

from sgfmill import boards, sgf, sgf_moves

from goengine import BLACK, PASS, WHITE, Board

COLOR = {"b": BLACK, "w": WHITE}
CELL = {None: 0, "b": BLACK, "w": WHITE}


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


def setup_lists(setup, size):
    black, white = [], []
    for colour, (row, col) in setup.list_occupied_points():
        (black if colour == "b" else white).append(row * size + col)
    return black, white


def replay_and_compare(size, setup, moves):
    """Returns (moves compared, differing points and capture counts)."""
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
        captured[colour] += before + 1 - sum(1 for _ in reference.list_occupied_points())
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
