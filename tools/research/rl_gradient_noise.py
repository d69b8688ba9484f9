#!/usr/bin/env python3
"""How much of the RL step is noise, and what a game's positions are worth to it.

The learner's step is the mean over games of each game's REINFORCE term (training/
rl_learner.py, backward_in_chunks), taken at all of the current player's positions or
at a sample of them (--positions-per-game). Every choice has the same expectation G, so
the better one has the smaller spread between games, tr(Cov) of the per-game
gradients: with all positions listed first (0, the default), r = tr(Cov_k) /
tr(Cov_all) says how many games trained at k positions are worth one trained at all of
them. The gradient noise scale tr(Cov) / |G|^2
(McCandlish et al. 2018, "An Empirical Model of Large-Batch Training") is the number of
games a step needs before its signal outweighs its noise; |G|^2 is estimated without
bias as |mean|^2 - tr(Cov) / n, with a jackknife standard error, and where it is within
two of them of 0 only a least noise scale is read.

The games are the run's own: its current network against its pool's first version, as
an iteration plays them. Each game's gradient goes through the learner's own loss, one
backward pass per game and choice; the learner's seconds a position are reported with
them, so the choices can be compared per second of a whole iteration.

    .venv/bin/python tools/research/rl_gradient_noise.py --run-dir runs/rl --games 64
"""

import argparse
import time

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from training.rl_games import current_moves
from training.rl_learner import Learner, backward_in_chunks, training_positions


def game_gradient(learner, game, rng, per_game):
    """The learner's gradient on one game (a flat float64 vector), taken as its update
    takes it, and the positions used."""
    model = learner.model
    positions = training_positions([game], rng, model.planes, per_game)
    model.train()
    model.zero_grad()
    backward_in_chunks(model, positions, baseline=learner.settings.baseline,
                       temperature=learner.settings.temperature)
    model.eval()
    return torch.cat([p.grad.reshape(-1) for p in model.parameters()
                      if p.grad is not None]).double(), len(positions)   # the policy's own


def spread(gradients):
    """(tr(Cov) of one game's gradient, the unbiased |G|^2 and its jackknife standard
    error, the mean). |G|^2 is the mean of g_i . g_j over pairs of different games, which
    is |mean|^2 - tr(Cov) / n; leaving out one game at a time gives its spread."""
    g = torch.stack(gradients)
    n = len(g)
    mean = g.mean(0)
    trace = float(((g - mean) ** 2).sum() / (n - 1))
    gram = g @ g.T
    rows = gram.sum(1) - gram.diagonal()               # each game's products with the others
    pairs = rows.sum()
    left_out = (pairs - 2 * rows) / ((n - 1) * (n - 2))
    error = float(((n - 1) / n * ((left_out - left_out.mean()) ** 2).sum()).sqrt())
    return trace, float(pairs / (n * (n - 1))), error, mean


def noise_scale(trace, signal, error):
    """The games a step needs for its signal to match its noise, tr(Cov) / |G|^2, or where
    |G|^2 is within two standard errors of 0 the least it can be."""
    if signal > 2 * error:
        return f"{trace / signal:.3g} games"
    return f"above {trace / (max(signal, 0.0) + 2 * error):.3g} games (|G|^2 within 2 s.e. of 0)"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run-dir", required=True)
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--positions", default="0,64,32,8",
                   help="positions a game to compare, 0 for all (default %(default)s)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    learner = Learner(args.run_dir)
    start = time.perf_counter()
    games = learner.games_against_start(args.games, args.seed)
    played = time.perf_counter() - start
    own = np.mean([len(current_moves(g)) for g in games])
    print(f"{args.run_dir}: iteration {learner.iteration}, {args.games} games in "
          f"{played:.0f} s ({played / args.games:.2f} s a game), {own:.0f} positions of the "
          f"current player a game")
    rng = np.random.default_rng(args.seed)
    first_trace = first_mean = None
    for positions in (int(k) for k in args.positions.split(",")):
        start, gradients, used = time.perf_counter(), [], 0
        for game in games:
            g, n = game_gradient(learner, game, rng, positions)
            gradients.append(g)
            used += n
        seconds = (time.perf_counter() - start) / used
        trace, signal, error, mean = spread(gradients)
        if first_mean is None:
            first_trace, first_mean = trace, mean
        cosine = float(mean @ first_mean / (mean.norm() * first_mean.norm()))
        print(f"positions {positions or 'all'}: tr(Cov) {trace:.4g} a game "
              f"(r = {trace / first_trace:.2f} of the first), |G|^2 {signal:.3g} (s.e. "
              f"{error:.2g}), noise scale {noise_scale(trace, signal, error)}, mean's cosine "
              f"with the first {cosine:.3f}; learner {seconds * 1000:.1f} ms a position")


if __name__ == "__main__":
    main()
