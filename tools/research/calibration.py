#!/usr/bin/env python3
"""Calibration of win rates on held-out games: do the positions called 70 % win 70 % of the time?

One position of each game (the same ones as eval_value.py with the same --seed)
is given a win rate for the player to move, either by the value network alone
((1 + v) / 2) or, with --engine, by the search as the analysis commands
report it (the most visited move's win rate after --playouts simulations).
The positions are grouped by predicted win rate in tenths; each row gives
how many fell there, their mean predicted win rate and the share of them the
player to move actually won. The last line is exactly
`ece=0.XXXX positions=N`: the expected calibration error, the positions-weighted
mean gap between predicted and won over the rows (0 is perfect).

  .venv/bin/python tools/research/calibration.py --weights weights/value.pt
  .venv/bin/python tools/research/calibration.py --engine --policy weights/sl-policy.pt \\
      --weights weights/value.pt --lambda 0.5 --playouts 800 --limit 300
  .venv/bin/python tools/research/calibration.py --engine --policy weights/sl-policy.pt \\
      --weights none --playouts 800 --limit 300          # rollouts alone
"""

import sys
import time

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from training.evaluation import sampled_example
from goengine.game.state import GameError, from_record
from goengine.game.sgffile import read_games
from goengine.players.decision import Decision
from goengine.search.limits import SearchLimits
from goengine.nn import on_planes
from goengine.search.limits import Barred
from training import evaluation
from training.sampler import ValueExamples

BUCKETS = 10


def calibration_table(predicted, won, buckets=BUCKETS):
    """(rows, ece): rows of (low, high, positions, mean predicted, share won) for each
    win-rate bucket that has positions; ece weights each row's |predicted - won| by its share."""
    predicted, won = np.asarray(predicted, float), np.asarray(won, float)
    index = np.minimum((predicted * buckets).astype(int), buckets - 1)
    rows, ece = [], 0.0
    for b in range(buckets):
        chosen = index == b
        n = int(chosen.sum())
        if n == 0:
            continue
        mean, share = float(predicted[chosen].mean()), float(won[chosen].mean())
        rows.append((b / buckets, (b + 1) / buckets, n, mean, share))
        ece += n / len(predicted) * abs(mean - share)
    return rows, ece


def sampled_positions(args):
    """(game, move index, planes, won) for one position of each game with an outcome."""
    maker, rng = ValueExamples(), np.random.default_rng(args.seed)
    for game in read_games(args.sgf, limit=args.limit or None):
        example = sampled_example(maker, game, rng) if game.size == 19 else None
        if example is not None:
            planes, target, _, pick = example
            yield game, pick, planes, target > 0


def value_net_winrates(args, positions):
    _, evaluator = evaluation.load_evaluator(args, "value")
    predicted, won, batch = [], [], []

    def flush():
        values = on_planes.value(evaluator, np.stack([planes for planes, _ in batch]))
        predicted.extend((1.0 + float(v)) / 2.0 for v in values)
        won.extend(w for _, w in batch)
        batch.clear()

    for _, _, planes, outcome in positions:
        batch.append((planes, outcome))
        if len(batch) == 256:
            flush()
    if batch:
        flush()
    return predicted, won


def engine_winrates(args, positions):
    """The search's reported win rate for the player to move at each position."""
    from goengine.programs import loading
    from goengine.search.search import Search
    from goengine.search.config import SearchConfig
    from goengine.rollout.rollout_weights import load as load_rollout
    try:
        policy = loading._evaluator(args.policy, "policy", 1)
        value = loading._evaluator(args.weights, "value", 1)
    except Exception as exc:
        raise SystemExit(f"cannot load a network: {exc}")
    config = SearchConfig(mixing=args.mixing if value is not None else 1.0, seed=args.seed)
    search = Search(policy, value, load_rollout(), config)
    predicted, won, start = [], [], time.monotonic()
    try:
        for i, (game, move, _, outcome) in enumerate(positions):
            try:
                state = from_record(game, move + 1)
            except GameError:
                continue
            color = game.moves[move][0]
            search.set_position(state, color, barred=Barred(Decision.pass_barred(
                state, color, False, SearchConfig.pass_ban_fraction)))
            search.run(SearchLimits(600, playouts=args.playouts))
            infos = search.result(1).candidates
            if not infos:
                continue
            predicted.append(infos[0].winrate)
            won.append(outcome)
            print(f"\r{i + 1} positions, {time.monotonic() - start:.0f} s", end="",
                  file=sys.stderr, flush=True)
    finally:
        search.close()
        print(file=sys.stderr)
    return predicted, won


def main(argv=None):
    def extra(parser):
        parser.add_argument("--seed", type=int, default=0, help="chooses the position of each game")
        parser.add_argument("--engine", action="store_true",
                            help="the search's reported win rate instead of the value net's")
        parser.add_argument("--policy", default="weights/sl-policy.pt",
                            help="policy network for --engine ('none': tree-policy priors)")
        parser.add_argument("--lambda", dest="mixing", type=float, default=0.5,
                            help="--engine: the leaf's mix (1: rollouts only)")
        parser.add_argument("--playouts", type=int, default=800,
                            help="--engine: simulations a position")

    args = evaluation.parse_args(__doc__, "value", 1000, argv, extra)
    positions = sampled_positions(args)
    if args.engine:
        predicted, won = engine_winrates(args, positions)
    else:
        predicted, won = value_net_winrates(args, positions)
    rows, ece = calibration_table(predicted, won)
    print("predicted   positions   mean predicted   won")
    for low, high, n, mean, share in rows:
        print(f"{100 * low:3.0f}-{100 * high:3.0f} %   {n:9d}   {100 * mean:13.1f} %   {100 * share:5.1f} %")
    print(f"ece={ece:.4f} positions={len(predicted)}")


if __name__ == "__main__":
    main()
