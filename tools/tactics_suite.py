#!/usr/bin/env python3
"""Build the tactical regression suite from held-out games, with GNU Go as the oracle.

A problem is a position from a real game where a string of 3 or more stones is
critical: GNU Go's `attack` and `defend` both succeed on it (without ko), so
whoever moves first decides its fate, and the side to move must capture it (an
opponent string) or save it (its own). The accepted answers are every move
after which GNU Go's reading agrees the job is done (`defend` of the opponent's
string fails, or `attack` of our own fails). Problems with more than
--max-answers answers are left out: they test little.

Each problem is a position SGF (the game up to that point) in the output
folder; suite.tst lists them in GoGui's regression format, which
tools/regress.py runs against any GTP engine:

    loadsgf 001.sgf
    1 reg_genmove b
    #? [C3|D4]

    .venv/bin/python tools/tactics_suite.py --problems 60 --out tests/tactics
"""

import argparse
import os
import tempfile

import numpy as np

from ladder_vs_gnugo import GnuGo

from goengine import BLACK, coords, sgffile
from goengine.game import GameError, from_record
from training.dataset import DATA_DIR, split_files

GNUGO = "/usr/games/gnugo"


def reading(gnugo, command):
    """(code, move) of GNU Go's attack/defend: 0 fails, 1 succeeds, 2-3 only through ko."""
    words = gnugo.send(command).split()
    return int(words[0]), (words[1] if len(words) > 1 else None)


def critical_string(board, color, gnugo):
    """(vertex, owner, stones) of the largest string of >= 3 stones that GNU Go calls
    critical (attack and defend both succeed, no ko), or None."""
    size, stones, seen, best = board.size, board.stones(), set(), None
    for point in range(size * size):
        owner = int(stones[point // size, point % size])
        if not owner or point in seen:
            continue
        chain = board.chain_stones(point)
        seen.update(chain)
        if len(chain) < 3 or board.chain_liberties(point) > 3:
            continue
        vertex = coords.to_gtp(point, size)
        if reading(gnugo, f"attack {vertex}")[0] != 1 or reading(gnugo, f"defend {vertex}")[0] != 1:
            continue
        if best is None or len(chain) > len(best[2]):
            best = (vertex, owner, chain)
    return best


def answers(board, color, vertex, owner, chain, gnugo):
    """Every move for `color` that settles the critical string as `color` wants."""
    size = board.size
    name = "b" if color == BLACK else "w"
    near = set()
    for point in chain:
        row, col = divmod(point, size)
        for r in range(row - 2, row + 3):
            for c in range(col - 2, col + 3):
                if 0 <= r < size and 0 <= c < size:
                    near.add(r * size + c)
    good = []
    for move in sorted(near):
        if not board.is_legal(move, color):
            continue
        gnugo.send(f"play {name} {coords.to_gtp(move, size)}")
        try:
            captured = board_after(board, move, color).color_at(chain[0]) != owner
            if owner != color:     # capture: the opponent can no longer save it
                done = captured or reading(gnugo, f"defend {vertex}")[0] == 0
            else:                  # save: the opponent can no longer take it
                done = not captured and reading(gnugo, f"attack {vertex}")[0] == 0
        finally:
            gnugo.send("undo")
        if done:
            good.append(coords.to_gtp(move, size))
    return good


def board_after(board, move, color):
    after = board.copy()
    after.play(move, color)
    return after


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problems", type=int, default=60)
    parser.add_argument("--out", default="tests/tactics")
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--max-answers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gnugo", default=GNUGO)
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    games = list(sgffile.read_games(split_files(args.data_dir, "val")))
    gnugo = GnuGo(args.gnugo, ("--level", "10"))
    entries = []
    try:
        for index in rng.permutation(len(games)):
            if len(entries) >= args.problems:
                break
            record = games[int(index)]
            if record.size != 19 or len(record.moves) < 80:
                continue
            number = int(rng.integers(40, min(220, len(record.moves))))
            try:
                game = from_record(record, number)
            except GameError:
                continue
            color = record.moves[number - 1][0]
            sgf_bytes = sgffile.game_to_sgf(game)
            with tempfile.NamedTemporaryFile(suffix=".sgf") as tmp:
                tmp.write(sgf_bytes)
                tmp.flush()
                gnugo.send(f"loadsgf {tmp.name}")
            board = game.board_for(color)
            found = critical_string(board, color, gnugo)
            if found is None:
                continue
            vertex, owner, chain = found
            good = answers(board, color, vertex, owner, chain, gnugo)
            if not good or len(good) > args.max_answers:
                continue
            name = f"{len(entries) + 1:03d}.sgf"
            with open(os.path.join(args.out, name), "wb") as f:
                f.write(sgf_bytes)
            task = "capture" if owner != color else "save"
            entries.append((name, color, task, vertex, len(chain), good, record.name, number))
            print(f"{name}: {record.name} before move {number}, "
                  f"{'black' if color == BLACK else 'white'} to {task} {vertex} "
                  f"({len(chain)} stones): {' '.join(good)}", flush=True)
    finally:
        gnugo.close()
    with open(os.path.join(args.out, "suite.tst"), "w") as f:
        f.write("# goengine's tactical suite: made by tools/tactics_suite.py from held-out games\n"
                "# (tygem-9d-2016-12); answers from GNU Go 3.8's attack/defend reading.\n"
                "# Run: .venv/bin/python tools/regress.py tests/tactics/suite.tst\n\n")
        for i, (name, color, task, vertex, count, good, game_name, number) in enumerate(entries, 1):
            f.write(f"# {game_name} before move {number}: {task} {vertex} ({count} stones)\n"
                    f"loadsgf {name}\n"
                    f"{i} reg_genmove {'b' if color == BLACK else 'w'}\n"
                    f"#? [{'|'.join(good)}]\n\n")
    print(f"{len(entries)} problems -> {os.path.join(args.out, 'suite.tst')}")


if __name__ == "__main__":
    main()
