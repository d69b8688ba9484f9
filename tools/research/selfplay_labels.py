#!/usr/bin/env python3
"""How much do self-play outcomes say about their positions? Two measurements.

1. --shards DIR --weights VALUE.pt: the value network against the outcomes of
   the records in the folder (tools/selfplay.py): MSE, the correlation of its
   value with the outcome, for all records and for those started after move
   150. A value network that reads positions as the continuation player plays
   them correlates well; near 0, the outcomes are mostly noise to it.
2. --rollouts K: on fresh start positions (as tools/selfplay.py draws them),
   the correlation of one rollout's outcome (a rollout-continuation label)
   with the mean of K rollouts (what an infinite amount of such labels would
   teach a network). Its square is the share of a label's variance that a
   network can learn.
3. --human-rollouts K: the MSE of the mean of K rollouts against the outcomes
   of held-out human games (one position a game, as tools/eval_value.py draws
   them): what a network that learnt rollout labels perfectly would score.

  .venv/bin/python tools/research/selfplay_labels.py --shards data/selfplay --weights weights/value-k64.pt
  .venv/bin/python tools/research/selfplay_labels.py --rollouts 64 --positions 300
"""

import argparse
import glob
import os
import sys

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from training import value_shards
from goengine.nn import on_planes

LATE = 150  # records that started after this many moves of their game


def correlation(a, b):
    return float(np.corrcoef(a, b)[0, 1]) if len(a) > 2 else float("nan")


def shard_figures(folder, weights, limit, threads):
    from goengine.nn import inference, netfile
    evaluator = inference.NetworkEvaluator(netfile.load_network(weights, kind="value"),
                                           threads=threads)
    values, outcomes, starts = [], [], []
    for path in sorted(glob.glob(os.path.join(folder, "*" + value_shards.SUFFIX)))[:limit]:
        try:
            meta, records = value_shards.read_shard(path)
        except value_shards.ShardError as exc:
            print(f"skipping shard: {exc}", file=sys.stderr)
            continue
        shape = (meta["count"], meta["planes"], meta["size"], meta["size"])
        planes = np.unpackbits(records["planes"], axis=1,
                               count=int(np.prod(shape[1:]))).reshape(shape)
        values.append(np.concatenate([on_planes.value(evaluator, planes[i:i + 256])
                                      for i in range(0, len(planes), 256)]))
        outcomes.append(records["outcome"])
        starts.append(records["start_move"])
    if not values:
        raise SystemExit(f"{folder}: no readable shards")
    v, o, u = map(np.concatenate, (values, outcomes, starts))
    for name, keep in (("all", u >= 0), (f"started after move {LATE}", u > LATE)):
        print(f"{name}: records={keep.sum()} mse={np.mean((v[keep] - o[keep]) ** 2):.4f} "
              f"corr={correlation(v[keep], o[keep]):.3f} mean_outcome={o[keep].mean():+.3f}")


def rollout_figures(rollouts, positions, seed, komi):
    from goengine.programs.loading import load_rollout
    from training import selfplay
    from training.dataset import load_split
    rollout = load_rollout()
    starts = selfplay.StartPositions(load_split("train", log=lambda m: None), komi)
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(positions):
        board, start = starts.draw(rng)
        mean = 2 * rollout.rollouts(board, rollouts, seed=i) / rollouts - 1
        _, score = rollout.play_out(board, seed=positions + i)
        outcome = 1.0 if (score > 0) == (board.to_move == 1) else -1.0
        rows.append((start, mean, outcome))
    u, mean, outcome = np.array(rows).T
    for name, keep in (("all", u >= 0), (f"started after move {LATE}", u > LATE)):
        print(f"{name}: positions={keep.sum()} corr(one rollout, mean of {rollouts})="
              f"{correlation(outcome[keep], mean[keep]):.3f} "
              f"mean |mean of {rollouts}|={np.abs(mean[keep]).mean():.3f}")


def human_figures(rollouts, limit):
    from goengine.programs.loading import load_rollout
    from goengine.game.sgffile import iter_positions, read_games
    from training.dataset import split_files
    from training.sampler import ValueExamples
    rollout, maker, rng = load_rollout(), ValueExamples(), np.random.default_rng(0)
    squared = []
    for game in read_games(split_files(split="val"), limit=limit):
        eligible = maker.eligible(game)
        if not eligible:
            continue
        pick = int(rng.choice(eligible))
        for index, (board, color, _) in enumerate(iter_positions(game, copy=False)):
            if index == pick:
                mean = 2 * rollout.rollouts(board, rollouts, seed=index) / rollouts - 1
                squared.append((mean - (1.0 if color == game.winner else -1.0)) ** 2)
                break
    print(f"held-out human games: positions={len(squared)} mse(mean of {rollouts} rollouts)="
          f"{np.mean(squared):.4f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shards", metavar="DIR", help="a folder of self-play shards")
    parser.add_argument("--weights", help="value network for --shards")
    parser.add_argument("--limit", type=int, default=1000, help="shards read at most")
    parser.add_argument("--rollouts", type=int, metavar="K", help="measurement 2 with K rollouts")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--human-rollouts", type=int, metavar="K", help="measurement 3 with K rollouts")
    parser.add_argument("--games", type=int, default=1000, help="held-out games for --human-rollouts")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    if not (args.shards or args.rollouts or args.human_rollouts):
        parser.error("give --shards DIR --weights FILE, --rollouts K or --human-rollouts K")
    if args.shards:
        if not args.weights:
            parser.error("--shards needs --weights (a value network)")
        shard_figures(args.shards, args.weights, args.limit, args.threads)
    if args.rollouts:
        rollout_figures(args.rollouts, args.positions, args.seed, args.komi)
    if args.human_rollouts:
        human_figures(args.human_rollouts, args.games)   # each game's own komi


if __name__ == "__main__":
    main()
