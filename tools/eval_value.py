#!/usr/bin/env python3
"""Mean squared error of a value network on game outcomes, one sampled position per game.

The position of each game is drawn with a fixed seed, the target is +1 if the
player to move won and -1 otherwise (games without a winner, or won on time
or by forfeit, are skipped);
predicting 0 everywhere scores 1.0. Defaults to held-out games. The last line
is exactly `mse=0.XXXX positions=N`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from goengine.sampler import ValueExamples, sample_examples  # noqa: E402
from goengine.sgffile import read_games  # noqa: E402

import evaluation  # noqa: E402  (tools/evaluation.py, beside this file)

GAMES_PER_PASS = 512  # games whose planes are held in memory at once


def main(argv=None):
    args = evaluation.parse_args(__doc__, "value", 2000, argv, lambda parser: parser.add_argument(
        "--seed", type=int, default=0, help="chooses the position of each game"))
    model, evaluator = evaluation.load_evaluator(args, "value")
    rng = np.random.default_rng(args.seed)
    errors, games, squared, total = [], [], 0.0, 0

    def flush():
        nonlocal squared, total
        planes, targets = sample_examples(ValueExamples(), games, 1, rng, symmetries=False)
        for i in range(0, len(targets), 256):
            values = evaluator.value(planes[i:i + 256])
            squared += float(((values - targets[i:i + 256]) ** 2).sum())
        total += len(targets)
        games.clear()

    for game in read_games(args.sgf, errors=errors, limit=args.limit or None):
        if game.size == model.board_size:
            games.append(game)
            if len(games) == GAMES_PER_PASS:
                flush()
    flush()
    print(f"{len(errors)} broken records skipped", file=sys.stderr)
    print(f"mse={squared / max(1, total):.4f} positions={total}")


if __name__ == "__main__":
    main()
