#!/usr/bin/env python3
"""Move-prediction accuracy of a policy network: top-1 and top-5 over every move of some games.

Defaults to held-out games (see the split below), which training never sees.
Passes are not counted (the network has no pass output). The last line is
exactly `top1=0.XXXX top5=0.XXXX positions=N`.
"""

import sys


import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import PASS
from goengine.nn import features, on_planes
from goengine.game.sgffile import SgfError, iter_positions, read_games

from training import evaluation


def main(argv=None):
    args = evaluation.parse_args(__doc__, "policy", 100, argv, lambda parser: parser.add_argument(
        "--batch", type=int, default=256))
    model, evaluator = evaluation.load_evaluator(args, "policy")
    size = model.board_size
    planes = np.zeros((args.batch, model.planes, size, size), np.uint8)
    # a four-headed network reads the value planes (the colour to play included)
    planes_of = features.value_planes if model.planes == features.NUM_VALUE_PLANES \
        else features.policy_planes
    labels, top1, top5, total = [], 0, 0, 0

    def flush():
        nonlocal top1, top5, total
        if labels:
            logits = on_planes.logits(evaluator, planes[:len(labels)])
            best5 = np.argpartition(-logits, 5, axis=1)[:, :5]
            truth = np.array(labels)
            top1 += int((logits.argmax(1) == truth).sum())
            top5 += int((best5 == truth[:, None]).any(1).sum())
            total += len(labels)
            labels.clear()

    errors, games, broken = [], 0, 0
    for game in read_games(args.sgf, errors=errors, limit=args.limit or None):
        if game.size != size:
            continue
        games += 1
        try:
            for board, color, move in iter_positions(game, copy=False):
                if move != PASS:
                    planes_of(board, planes[len(labels)])
                    labels.append(move)
                    if len(labels) == args.batch:
                        flush()
        except SgfError as exc:
            broken += 1
            print(f"stopped replay: {exc}", file=sys.stderr)
    flush()
    print(f"{games} games, {len(errors) + broken} broken records skipped", file=sys.stderr)
    print(f"top1={top1 / max(1, total):.4f} top5={top5 / max(1, total):.4f} positions={total}")


if __name__ == "__main__":
    main()
