#!/usr/bin/env python3
"""Train the four-headed network (policy, value, ownership, score on one trunk).

The trunk and policy head start from the SL policy (--init-from-policy
weights/sl.pt; its colour plane's weights start at zero); the value, ownership
and score heads learn beside them from the games' outcomes and final-board
labels, which tools/label_games.py writes beside each game store first:

  nice -n 19 .venv/bin/python tools/label_games.py --split train
  .venv/bin/python tools/label_games.py --split val
  nohup .venv/bin/python tools/train_heads.py --run-dir runs/heads \\
      --init-from-policy weights/sl.pt --optimizer adamw --lr 0.0002 --warmup 50000 &
  .venv/bin/python tools/train_heads.py --run-dir runs/heads --export weights/heads.pt
"""

import argparse

from training import trainer
from training.tasks import HeadsTask


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    trainer.add_arguments(parser, lr=0.0002, batch_size=256, positions_per_game=8,
                          run_dir="runs/heads")
    trainer.add_policy_start(parser, "the trunk and the policy head")
    parser.add_argument("--init-from-value", metavar="FILE",
                        help="start the trunk and the value head from a value network file "
                             "(weights/value-k64.pt: its shape, so --filters/--layers follow "
                             "it); the other heads start fresh")
    parser.add_argument("--value-weight", type=float, default=0.25, metavar="W",
                        help="weight of the value head's outcome MSE")
    parser.add_argument("--ownership-weight", type=float, default=1.0, metavar="W",
                        help="weight of the ownership head's cross-entropy (mean over points)")
    parser.add_argument("--score-weight", type=float, default=0.02, metavar="W",
                        help="weight of the score head's cross-entropy over margins")
    args = trainer.parse_args(parser, argv)
    for name in ("value_weight", "ownership_weight", "score_weight"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must not be negative")
    return args


def main(argv=None):
    args = parse_args(argv)
    trainer.main(HeadsTask(args.value_weight, args.ownership_weight, args.score_weight), args)


if __name__ == "__main__":
    main()
