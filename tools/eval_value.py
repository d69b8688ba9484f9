#!/usr/bin/env python3
"""Mean squared error of a value network on game outcomes, one sampled position per game.

The position of each game is drawn with a fixed seed, the target is +1 if the
player to move won and -1 otherwise (games without a winner are skipped);
predicting 0 everywhere scores 1.0. Defaults to held-out games. The last line
is exactly `mse=0.XXXX positions=N`.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from goengine import nets  # noqa: E402
from goengine.dataset import SPLIT_HELP, split_files  # noqa: E402
from goengine.sampler import ValueExamples, sample_examples  # noqa: E402
from goengine.sgffile import read_games  # noqa: E402

GAMES_PER_PASS = 512  # games whose planes are held in memory at once


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=SPLIT_HELP,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--weights", required=True, help="value network file (save_network)")
    parser.add_argument("--sgf", nargs="+",
                        help="SGF files, .sgfs(.gz) collections or folders "
                             "(default: the held-out validation files)")
    parser.add_argument("--limit", type=int, default=2000, help="number of games (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="chooses the position of each game")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fp32", action="store_true", help="evaluate without bf16 autocast")
    args = parser.parse_args(argv)
    args.sgf = args.sgf or split_files(split="val")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        model = nets.load_network(args.weights, kind="value")
    except nets.NetworkLoadError as exc:
        raise SystemExit(str(exc))
    evaluator = nets.NetworkEvaluator(model, use_bf16=not args.fp32, threads=args.threads)
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
