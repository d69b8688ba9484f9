#!/usr/bin/env python3
"""Mean squared error of a value network on game outcomes, one sampled position per game.

The position of each game is drawn with a fixed seed, the target is +1 if the
player to move won and -1 otherwise (games without a winner, or won on time
or by forfeit, are skipped);
predicting 0 everywhere scores 1.0. Defaults to held-out games. The MSE is
also given for each third of the game (the outcome of an opening position is
nearly a coin toss, an endgame one mostly decided). The last line is exactly
`mse=0.XXXX positions=N`.

--from-score reads a four-headed network's value from its score head instead: the
probability that the final board margin beats the record's komi (nets.win_probability),
as 2p - 1, which is what the search can use at any komi; --score-temperature T
divides its logits by T first (a calibration to fit on games apart from the held-out ones).
"""

import argparse
import sys

import numpy as np
import torch

from training.sampler import ValueExamples
from goengine import WHITE
from goengine.game.sgffile import read_games
from goengine.nn.nets import win_probability

from training import evaluation
from training.evaluation import sampled_example

BATCH = 256
PHASES = ("opening (first third of the game)", "middle game (second third)",
          "endgame (last third)")


def main(argv=None):
    def add_arguments(parser):
        parser.add_argument("--seed", type=int, default=0, help="chooses the position of each game")
        parser.add_argument("--against", metavar="FILE",
                            help="a second value network on the same positions: its MSE and "
                                 "the paired difference with its standard error")
        parser.add_argument("--from-score", action="store_true",
                            help="--weights' value from its score head at the record's komi "
                                 "(a four-headed network); --against stays its value head")
        parser.add_argument("--score-temperature", type=float, default=1.0, metavar="T",
                            help="with --from-score: the score logits divided by T first (T > 1 "
                                 "softens a head that is too sure of the margin)")
    args = evaluation.parse_args(__doc__, "value", 2000, argv, add_arguments)
    model, evaluator = evaluation.load_evaluator(args, "score" if args.from_score else "value")
    other = None
    if args.against:
        _, other = evaluation.load_evaluator(argparse.Namespace(**dict(
            vars(args), weights=args.against)), "value")
    maker, rng = ValueExamples(), np.random.default_rng(args.seed)
    squared, count = np.zeros(len(PHASES)), np.zeros(len(PHASES), int)
    errors, batch, paired = [], [], []

    def flush():
        planes = np.stack([example[0] for example, _ in batch])
        if args.from_score:
            komi = torch.tensor([k for _, k in batch], dtype=torch.float32)
            logits = torch.as_tensor(evaluator.score_logits(planes)) / args.score_temperature
            values = (2 * win_probability(logits, komi) - 1).numpy()
        else:
            values = evaluator.value(planes)
        others = other.value(planes) if other else values
        for value, theirs, ((_, target, phase, _), _) in zip(values, others, batch):
            squared[phase] += (float(value) - target) ** 2
            count[phase] += 1
            paired.append(((float(value) - target) ** 2, (float(theirs) - target) ** 2))
        batch.clear()

    for game in read_games(args.sgf, errors=errors, limit=args.limit or None):
        example = sampled_example(maker, game, rng) if game.size == model.board_size else None
        if example:
            mover = game.moves[example[3]][0]
            batch.append((example, game.komi if mover == WHITE else -game.komi))
            if len(batch) == BATCH:
                flush()
    if batch:
        flush()
    print(f"{len(errors)} broken records skipped", file=sys.stderr)
    for name, sq, n in zip(PHASES, squared, count):
        print(f"{name}: mse={sq / max(1, n):.4f} positions={n}")
    if other and paired:
        ours, theirs = np.array(paired).T
        difference = ours - theirs
        print(f"against {args.against}: mse={theirs.mean():.4f}; --weights minus it: "
              f"{difference.mean():+.4f} (standard error {difference.std() / np.sqrt(len(difference)):.4f})")
    print(f"mse={squared.sum() / max(1, count.sum()):.4f} positions={count.sum()}")


if __name__ == "__main__":
    main()
