"""Board speed figures: light playouts, feature planes, copy + play.

    python tools/bench/bench_board.py [--playouts 20000] [--sgf FILE]

Prints figures only; timings vary run to run, so compare within one run.
"""

import argparse
import gzip
import time

import numpy as np
from sgfmill import sgf, sgf_moves

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import Board
from goengine.nn import features
from training.dataset import HELD_OUT_FILE

DEFAULT_SGF = HELD_OUT_FILE


def midgame_board(path, move_number=150):
    """The position after `move_number` moves of the first long game in path."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            game = sgf.Sgf_game.from_string(line)
            _, moves = sgf_moves.get_setup_and_moves(game)
            if len(moves) > move_number and game.get_size() == 19:
                board = Board(19)
                for colour, move in moves[:move_number]:
                    board.play(-1 if move is None else move[0] * 19 + move[1])
                return board
    raise SystemExit(f"no game longer than {move_number} moves in {path}")


def best_of(runs, fn):
    return min(fn() for _ in range(runs))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--sgf", default=str(DEFAULT_SGF), help="games to take a midgame position from")
    args = parser.parse_args()

    empty = Board(19)
    empty.random_playouts(200)
    start = time.perf_counter()
    moves, black_wins = empty.random_playouts(args.playouts, seed=12345)
    elapsed = time.perf_counter() - start
    print(f"light playouts, empty 19x19, 1 thread: {args.playouts / elapsed:,.0f} playouts/s "
          f"({moves / args.playouts:.0f} moves each, {elapsed / moves * 1e9:.0f} ns/move, "
          f"black wins {black_wins / args.playouts:.1%} at komi {empty.komi})")

    board = midgame_board(args.sgf)
    out = np.zeros((features.NUM_POLICY_PLANES, 19, 19), dtype=np.uint8)
    repeat = 20000

    def planes():
        start = time.perf_counter()
        for _ in range(repeat):
            features.policy_planes(board, out)
        return (time.perf_counter() - start) / repeat

    print(f"48 feature planes, midgame position (move 150): {best_of(3, planes) * 1e6:.1f} us")

    move = board.legal_moves()[len(board.legal_moves()) // 2]
    print(f"copy + play in C (search/rollout path): "
          f"{best_of(3, lambda: board.time_copy_and_play(move)) * 1e9:.0f} ns")

    def python_copy_play():
        start = time.perf_counter()
        for _ in range(repeat):
            board.copy().play(move)
        return (time.perf_counter() - start) / repeat

    print(f"Board.copy() + Board.play() from Python: {best_of(3, python_copy_play) * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
