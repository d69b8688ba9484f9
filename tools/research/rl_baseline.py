#!/usr/bin/env python3
"""How much the RL learner's value baseline takes out of the policy gradient's noise.

REINFORCE's step is the mean of (z - b) * dlog p over the current policy's moves; the
baseline b changes nothing in expectation, and the noise goes with E[(z - b)^2]. This
plays games of an RL run's current network against its pool's first version (the
network it started from), as the run's iterations do (at its temperature), and reads
at a sample of the current player's positions: z (the outcome for the mover), the
current network's own value head, which the learner subtracts (training/rl_learner.py),
the start network's (frozen: what the learner subtracted before it read its own), the
start's moved to the games' komi through the score head (nets.value_at_komi), and for
each the scale a of a * v that would leave the least E[(z - a v)^2] and the mean
advantage E[z - v]. Each by the move number, since a value reads a decided game better
than an open one.

    .venv/bin/python tools/research/rl_baseline.py --run-dir runs/rl --games 64
"""

import argparse

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import WHITE
from goengine.nn import features, on_planes
from goengine.nn.inference import NetworkEvaluator
from training.rl_games import current_moves
from training.rl_learner import Learner

PHASES = ((0, 50), (50, 150), (150, 250), (250, 10_000))


def readings(games, rng, per_game):
    """(z, move number) at up to `per_game` of each game's current-player positions, as
    arrays, and those positions' boards."""
    rows, boards = [], []
    for game in games:
        own = [board for board, _ in current_moves(game)]
        if len(own) > per_game:
            own = [own[j] for j in sorted(rng.choice(len(own), per_game, replace=False))]
        for board in own:
            rows.append((game.outcome_for(game.current), board.move_number))
            boards.append(board)
    z, moves = np.array(rows, dtype=np.float64).T
    return z, moves, boards


def values(network, boards):
    """`network`'s raw value at `boards` and its value at the games' komi, arrays."""
    planes = np.stack([features.input_planes(b, network.planes) for b in boards])
    white = np.array([b.to_move == WHITE for b in boards])
    raw, at_komi = [], []
    for start in range(0, len(boards), 256):
        chunk = slice(start, start + 256)
        raw.append(on_planes.value(network, planes[chunk]))
        at_komi.append(on_planes.value_at(network, planes[chunk], boards[0].komi, white[chunk]))
    return (np.concatenate(raw).astype(np.float64),
            np.concatenate(at_komi).astype(np.float64))


def line(name, z, v):
    """E[z^2], E[(z - v)^2], the best scale a and E[(z - a v)^2], corr(z, v), and the
    mean advantage E[z - v], below 0 where v reads the games too high (what an off-policy
    step turned against the policy: docs/DECISIONS.md, 'RL orientation')."""
    a = float((z * v).sum() / max((v * v).sum(), 1e-12))
    corr = float(np.corrcoef(z, v)[0, 1]) if v.std() > 0 and z.std() > 0 else float('nan')
    return (f"{name}: {len(z)} positions, E[z^2] {np.mean(z * z):.3f}, "
            f"E[(z - v)^2] {np.mean((z - v) ** 2):.3f}, best a {a:.2f} -> "
            f"E[(z - a v)^2] {np.mean((z - a * v) ** 2):.3f}, corr {corr:.3f}, "
            f"mean |v| {np.mean(np.abs(v)):.3f}, E[z - v] {np.mean(z - v):+.3f}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run-dir", required=True)
    p.add_argument("--games", type=int, default=64)
    p.add_argument("--positions-per-game", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    learner = Learner(args.run_dir)
    games = learner.games_against_start(args.games, args.seed)
    won = sum(g.winner == g.current for g in games)
    print(f"{args.run_dir}: iteration {learner.iteration}, {args.games} games at T "
          f"{learner.settings.temperature}, current won "
          f"{won}, {np.mean([len(g.moves) for g in games]):.0f} moves a game")
    z, moves, boards = readings(games, np.random.default_rng(args.seed), args.positions_per_game)
    raw, at_komi = values(NetworkEvaluator(learner.start_network(), threads=0), boards)
    own, _ = values(NetworkEvaluator(learner.model, threads=0), boards)
    print(line("the current network's own value head (the learner's baseline)", z, own))
    print(line("the start's value head", z, raw))
    print(line(f"the start's value at komi {games[0].komi}", z, at_komi))
    for low, high in PHASES:
        part = (moves >= low) & (moves < high)
        if part.any():
            print(line(f"  moves {low}-{high - 1}, own", z[part], own[part]))
            print(line(f"  moves {low}-{high - 1}, start's", z[part], raw[part]))


if __name__ == "__main__":
    main()
