#!/usr/bin/env python3
"""An RL run's learning curve: the current network's win rate against its pool, by blocks
of iterations, and whether it is climbing.

Every iteration's games are the current network against a pool version, both sampling
at the run's temperature without search, so the training win rate is the paper's
RL-against-SL curve while the pool holds only the start. It is read from the checkpoint's own log
(training/rl_learner.py keeps every iteration's entry), so the curve survives moving the
run between machines. The trend is the least-squares slope of the per-iteration win
rate, each iteration weighted by its games, with its binomial standard error (the
Cochran-Armitage test for a trend in proportions). A block's mean loss, -(z - v) log p,
fell well below zero in each run that fell apart (docs/DECISIONS.md, 'RL temperature').

    .venv/bin/python tools/research/rl_curve.py --run-dir weights/rl-run --every 10
"""

import argparse
import math
import sys

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.stats import wilson_interval
from training.rl_learner import RunError, run_history


def blocks(history, every):
    """(first, last, games, won, mean entropy, mean loss) over runs of `every` iterations,
    each iteration's means weighted by its games (the early entries do not count their
    positions)."""
    for start in range(0, len(history), every):
        part = history[start:start + every]
        games = sum(e['games'] for e in part)
        entropy = sum(e['entropy'] * e['games'] for e in part) / games
        loss = sum(e['loss'] * e['games'] for e in part) / games
        yield (part[0]['iteration'], part[-1]['iteration'], games,
               sum(e['won'] for e in part), entropy, loss)


def trend(history):
    """The win rate's change per 100 iterations and its standard error, weighted by games."""
    weights = [e['games'] for e in history]
    total = sum(weights)
    x_mean = sum(w * e['iteration'] for w, e in zip(weights, history)) / total
    p_mean = sum(e['won'] for e in history) / total
    sxx = sum(w * (e['iteration'] - x_mean) ** 2 for w, e in zip(weights, history))
    if sxx == 0:
        return 0.0, float('inf')
    sxy = sum(w * (e['iteration'] - x_mean) * (e['win_rate'] - p_mean)
              for w, e in zip(weights, history))
    return 100 * sxy / sxx, 100 * math.sqrt(p_mean * (1 - p_mean) / sxx)


def settings_of(entry):
    """What the entry says of its step: games, and lr and positions where it recorded them."""
    words = [f"{entry['games']} games"]
    if 'lr' in entry:
        words += [f"lr {entry['lr']:g}", f"{entry['positions']} positions"]
    return ', '.join(words)


def report(history, every):
    lines = []
    for first, last, games, won, entropy, loss in blocks(history, every):
        low, high = wilson_interval(won, games)
        lines.append(f"iterations {first:>5}-{last:<5} {won:>5} of {games:<5} "
                     f"{100 * won / games:5.1f} % (Wilson {100 * low:.1f}-{100 * high:.1f}), "
                     f"entropy {entropy:.3f}, loss {loss:+.3f}")
    games = sum(e['games'] for e in history)
    won = sum(e['won'] for e in history)
    low, high = wilson_interval(won, games)
    slope, error = trend(history)
    lines.append(f"all {len(history)} iterations: {won} of {games} "
                 f"({100 * won / games:.1f} %, Wilson {100 * low:.1f}-{100 * high:.1f})")
    lines.append(f"trend: {100 * slope:+.2f} points per 100 iterations "
                 f"(s.e. {100 * error:.2f}, z {slope / error if error else 0:+.2f})")
    lines.append(f"last iteration: {settings_of(history[-1])}")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run-dir", required=True, help="an RL run folder (checkpoint.pt)")
    p.add_argument("--every", type=int, default=10, help="iterations a line")
    args = p.parse_args(argv)
    if args.every < 1:
        p.error("--every must be at least 1")
    try:
        history = run_history(args.run_dir)
    except RunError as exc:
        sys.exit(f"rl_curve: {exc}")
    if not history:
        sys.exit(f"rl_curve: {args.run_dir} has no iterations yet")
    print("\n".join(report(history, args.every)))


if __name__ == "__main__":
    main()
