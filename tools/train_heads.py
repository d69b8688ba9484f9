#!/usr/bin/env python3
"""Train the four-headed network (policy, value, ownership, score on one trunk).

The trunk and policy head start from the SL policy (--init-from-policy
weights/sl-policy.pt; its colour plane's weights start at zero); the value, ownership
and score heads learn beside them from the games' outcomes and final-board
labels, which tools/label_games.py writes beside each game store first:

  nice -n 19 .venv/bin/python tools/label_games.py --split train
  .venv/bin/python tools/label_games.py --split val
  nohup .venv/bin/python tools/train_heads.py --run-dir runs/heads \\
      --init-from-policy weights/sl-policy.pt --optimizer adamw --lr 0.0002 --warmup 50000 &
  .venv/bin/python tools/train_heads.py --run-dir runs/heads --export weights/heads.pt

A smaller network for the CPU learns from a larger one as well as from the games
(--teacher weights/sl.pt --filters 96): the teacher's move distribution and
value join the human move and the outcome, weighted by --teacher-weight.
KataGo's network teaches from its labels (docs/TRAINING.md, "The teacher"):

  nohup .venv/bin/python tools/train_heads.py --run-dir runs/student \
      --init-weights weights/sl.pt --teacher-labels data/teacher --optimizer adamw --lr 0.0001 &
"""

import argparse

import _checkout  # noqa: F401  (this checkout's packages first)
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
    parser.add_argument("--teacher", metavar="FILE",
                        help="a four-headed network file to distil: its move distribution "
                             "and value become targets beside the game's (e.g. "
                             "weights/sl.pt for a smaller --filters/--layers)")
    parser.add_argument("--teacher-labels", metavar="DIR",
                        help="train on the positions KataGo's network labelled "
                             "(tools/label_teacher.py --out DIR): its move distribution and "
                             "value beside the human move and the outcome, its ownership and "
                             "lead as those heads' targets")
    parser.add_argument("--teacher-weight", type=float, default=0.5, metavar="W",
                        help="share of the policy and value losses taken against the teacher "
                             "rather than the human move and the outcome")
    args = trainer.parse_args_with_selfplay(parser, argv)
    for name in ("value_weight", "ownership_weight", "score_weight"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must not be negative")
    if not 0 <= args.teacher_weight <= 1:
        parser.error("--teacher-weight must be between 0 and 1")
    if args.teacher and args.teacher_labels:
        parser.error("--teacher and --teacher-labels: one teacher at a time")
    return args


def load_teacher(path):
    """The frozen four-headed network to distil, BN folded; one clear error for a bad file."""
    from goengine.nn import netfile
    try:
        model = netfile.load_network(path, kind="heads", fold=True)
    except netfile.NetworkLoadError as exc:
        raise SystemExit(f"--teacher {exc}") from None
    if model.board_size != 19:
        raise SystemExit(f"--teacher {path}: a {model.board_size}x{model.board_size} network; "
                         f"training is on 19x19")
    return model


def main(argv=None):
    args = parse_args(argv)
    teacher = load_teacher(args.teacher) if args.teacher and not args.export else None
    trainer.main(HeadsTask(args.value_weight, args.ownership_weight, args.score_weight,
                           teacher, args.teacher_weight, args.teacher_labels), args)


if __name__ == "__main__":
    main()
