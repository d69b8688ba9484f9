#!/usr/bin/env python3
"""How well does a four-headed network's ownership head know who owns the board?

On the final board of every counted game of the held-out month whose labels are
exact (tools/label_games.py --split val), the share of the decided points (owned by
one side in the label) whose owner the ownership head names. The last line is
exactly `agreement=0.XXXX points=N games=G`.

  .venv/bin/python tools/eval_ownership.py --weights weights/heads.pt
"""

import argparse
import sys

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK
from goengine.nn import features
from training import labels as final_labels
from training.dataset import load_split
from training.evaluation import load_evaluator
from goengine.programs import loading
from goengine.nn import on_planes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--weights", required=True, help="a four-headed network file")
    parser.add_argument("--limit", type=int, default=500, help="counted games at most (0: all)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--fp32", action="store_true", help="no bf16 autocast")
    loading.add_device_flag(parser)
    args = parser.parse_args(argv)
    _, evaluator = load_evaluator(args, "ownership")
    store = load_split("val", log=lambda message: print(message, file=sys.stderr))
    try:
        store.load_labels()
    except final_labels.LabelError as exc:
        raise SystemExit(str(exc)) from None
    counted = np.flatnonzero(store.labels["kind"] == final_labels.COUNTED)
    if args.limit:
        counted = counted[:args.limit]
    right = total = 0
    for i in counted:
        game = store[int(i)]
        board = final_labels.final_board(game)
        own = on_planes.ownership(evaluator, features.value_planes(board)).reshape(board.size, board.size)
        own = own if board.to_move == BLACK else -own          # the head speaks for the mover
        label = game.label.ownership
        decided = label != 0
        right += int(((own > 0) == (label > 0))[decided].sum())
        total += int(decided.sum())
    print(f"agreement={right / max(1, total):.4f} points={total} games={len(counted)}")


if __name__ == "__main__":
    main()
