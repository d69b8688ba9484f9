"""Check the ladder planes against GNU Go's own ladder reader.

For random positions of held-out games, every chain with two liberties is
asked of GNU Go (`ladder_attack`: can the opponent capture it in a ladder,
without a ko?)
and of our board (is either liberty a successful ladder capture for the
opponent?).  Every chain in atari whose extension gives it exactly two
liberties is compared the same way after the extension (our ladder-escape
answer must be the negation of GNU Go's attack).

    python tools/research/ladder_vs_gnugo.py [--positions 300] [--sgf FILE]

Last line: `agreement=0.XXXX strings=N`.
"""

import argparse
import random

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import opponent
from goengine.game import coords
from goengine.game.sgffile import iter_positions, read_games
from harness.gnugo import COLOR_NAME, GNUGO, GnuGo
from training.dataset import HELD_OUT_FILE



def chains(board):
    """One stone of every chain on the board."""
    seen, heads = set(), []
    for move in range(board.size * board.size):
        if board.color_at(move) and move not in seen:
            stones = board.chain_stones(move)
            seen.update(stones)
            heads.append(move)
    return heads


def compare_position(board, gnugo, mismatches):
    """(agreements, strings compared) for one position."""
    agree = total = 0
    size = board.size
    gnugo.set_position(board)
    for stone in chains(board):
        owner = board.color_at(stone)
        libs = board.chain_liberty_points(stone)
        if len(libs) == 2:
            ours = any(board.is_ladder_capture(lib, opponent(owner)) for lib in libs)
            theirs = gnugo.ladder_capturable(stone, size)
        elif len(libs) == 1:
            extended = board.copy()
            extended.superko = False
            if not extended.is_legal(libs[0], owner):
                continue
            extended.play(libs[0], owner)
            if extended.chain_liberties(stone) != 2:
                continue
            ours = not board.is_ladder_escape(libs[0], owner)
            gnugo.send(f"play {COLOR_NAME[owner]} {coords.to_gtp(libs[0], size)}")
            theirs = gnugo.ladder_capturable(stone, size)
            gnugo.send("undo")
        else:
            continue
        total += 1
        if ours == theirs:
            agree += 1
        else:
            mismatches.append((board.copy(), stone, ours, theirs))
    return agree, total


def sample_positions(sgf_path, count, seed):
    rng = random.Random(seed)
    positions = []
    for game in read_games(sgf_path, limit=count):
        if len(game.moves) < 30:
            continue
        stop = rng.randrange(20, len(game.moves))
        for number, (board, _, _) in enumerate(iter_positions(game, copy=False)):
            if number == stop:
                positions.append(board.copy())
                break
    return positions


def compare(sgf_path, count, seed=1, gnugo_path=GNUGO):
    gnugo = GnuGo(gnugo_path)
    mismatches = []
    agree = total = 0
    try:
        for board in sample_positions(sgf_path, count, seed):
            a, t = compare_position(board, gnugo, mismatches)
            agree += a
            total += t
    finally:
        gnugo.close()
    return agree, total, mismatches


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--sgf", default=HELD_OUT_FILE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=3, help="print this many disagreements")
    args = parser.parse_args()
    agree, total, mismatches = compare(args.sgf, args.positions, args.seed)
    for board, stone, ours, theirs in mismatches[:args.show]:
        print(board)
        print(f"chain at {coords.to_gtp(stone, board.size)}: ours capturable={ours}, "
              f"GNU Go capturable={theirs}\n")
    print(f"agreement={agree / max(total, 1):.4f} strings={total}")


if __name__ == "__main__":
    main()
