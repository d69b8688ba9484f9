#!/usr/bin/env python3
"""Train the value network v_theta on game outcomes of the Tygem 9-dan games (AlphaGo Methods).

Target: +1 if the player to move won, -1 if they lost (games without a winner
are skipped); MSE loss. Only one position per game each epoch by default:
successive positions of a game are nearly identical and share one label, and
AlphaGo found that training on whole games overfits (0.19 train vs 0.37 test MSE).

Start:   nohup .venv/bin/python tools/train_value.py --run-dir runs/value \\
             --init-from-policy runs/policy/checkpoint.pt &
Resume:  nohup .venv/bin/python tools/train_value.py --run-dir runs/value --resume &
Export:  .venv/bin/python tools/train_value.py --run-dir runs/value --export weights/value.pt
Self-play records (tools/selfplay.py), with a quarter of each batch from human games:
         .venv/bin/python tools/train_value.py --run-dir runs/value-sp --selfplay data/selfplay \
             --human-fraction 0.25 --init-weights weights/value-k64.pt --filters 64
"""

import argparse

import _checkout  # noqa: F401  (this checkout's packages first)
from training import trainer
from training.tasks import ValueTask


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    trainer.add_arguments(parser, lr=0.01, batch_size=64, positions_per_game=1,
                          run_dir="runs/value")
    trainer.add_policy_start(parser, "the trunk")
    parser.add_argument("--late-fraction", type=float, metavar="F",
                        help="train only on positions after this fraction of each game "
                             "(e.g. 0.7: the last 30%%), where the outcome is mostly decided; "
                             "a curriculum to leave the constant-output plateau. Resume "
                             "with --late-fraction 0 to widen to whole games")
    parser.add_argument("--move-weight", type=float, default=1.0, metavar="W",
                        help="weight of the training-only move head's cross-entropy beside the "
                             "outcome MSE; 0 trains the value head alone (the only choice for a network without one)")
    return trainer.parse_args_with_selfplay(parser, argv)


def main(argv=None):
    args = parse_args(argv)
    trainer.main(ValueTask(args.late_fraction, args.move_weight), args)


if __name__ == "__main__":
    main()
