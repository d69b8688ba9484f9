#!/usr/bin/env python3
"""How far an RL run's policy has moved from the network it started from, and how much of
the policy's mass lies off the sensible moves the self-play games sample from.

Two kinds of positions: held-out 9-dan games (every 25th move) and self-play games of the
run's starting network against itself (every 10th move of the current player's colour),
since the self-play positions (long games, own eyes) are where the RL gradient is taken.

    .venv/bin/python tools/research/rl_drift.py --run-dir runs/rl
"""

import argparse

import numpy as np
import torch
import torch.nn.functional as F

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game import sgffile
from goengine.nn import features
from goengine.nn.inference import NetworkEvaluator
from goengine.players.decision import sensible_mask
from training.dataset import HELD_OUT_FILE
from training.rl_games import current_moves, play_games
from training.rl_learner import Learner


def held_out_positions(games, every=25):
    """Every `every`-th position from the 11th move on (not the last) of the first
    `games` held-out games, in one replay of each."""
    boards = []
    for record in sgffile.read_games([HELD_OUT_FILE], limit=games):
        last = len(record.moves) - 1
        boards.extend(board for index, (board, _, _) in enumerate(sgffile.iter_positions(record))
                      if 10 <= index < last and (index - 10) % every == 0)
    return boards


def self_play_positions(model, games, seed, every=10):
    policy = NetworkEvaluator(model, threads=0)
    boards = []
    for game in play_games(policy, policy, games, seed=seed):
        boards.extend(board for board, _ in current_moves(game)[::every])
    return boards


def compare(current, start, boards):
    """(KL(start || current), start's mass off sensible, current's, top-1 agreement)."""
    x = torch.from_numpy(np.stack([features.input_planes(b, current.planes) for b in boards]))
    off = torch.from_numpy(np.stack([~sensible_mask(b, b.to_move) for b in boards]))
    with torch.no_grad():
        lc, ls = current(x.float())[0].float(), start(x.float())[0].float()
    pc, ps = F.log_softmax(lc, 1), F.log_softmax(ls, 1)
    kl = float((ps.exp() * (ps - pc)).sum(1).mean())
    return (kl, float((ps.exp() * off).sum(1).mean()), float((pc.exp() * off).sum(1).mean()),
            float((lc.argmax(1) == ls.argmax(1)).float().mean()))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run-dir", required=True)
    p.add_argument("--held-out-games", type=int, default=60)
    p.add_argument("--self-play-games", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    learner = Learner(args.run_dir)
    current, start = learner.model.float().eval(), learner.start_network().float().eval()
    print(f"{args.run_dir}: iteration {learner.iteration}")
    for name, boards in (("held-out", held_out_positions(args.held_out_games)),
                         ("self-play", self_play_positions(start, args.self_play_games,
                                                           args.seed))):
        kl, off_start, off_current, agree = compare(current, start, boards)
        print(f"{name}: {len(boards)} positions, KL(start || current) {kl:.4f}, mass off "
              f"the sensible moves {off_start:.4f} (start) {off_current:.4f} (current), "
              f"top-1 agreement {agree:.3f}")


if __name__ == "__main__":
    main()
