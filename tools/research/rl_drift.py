#!/usr/bin/env python3
"""How far an RL run's policy has moved from the network it started from, how much of the
policy's mass lies off the sensible moves the self-play games sample from, and how far
its 8 orientations disagree: the mean KL from the board as it stands (where the games
sample) to each other symmetry, at the run's temperature, over the sensible moves.

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


def orientation_gap(model, boards, temperature):
    """Mean KL(p as the board stands || p in symmetry k) over k = 1..7 and `boards`, each
    p the softmax of logits / `temperature` over the sensible moves; the evaluator reads
    each symmetry and turns its logits back, in fp32."""
    evaluator = NetworkEvaluator(model, use_bf16=False, threads=0)
    sensible = torch.from_numpy(np.stack([sensible_mask(b, b.to_move) for b in boards]))

    def log_p(k):
        logits = evaluator.evaluate(boards, boards[0].komi,
                                    symmetries=[k] * len(boards)).policy_logits
        return F.log_softmax(torch.from_numpy(logits / temperature)
                             .masked_fill(~sensible, float('-inf')), 1)

    as_it_stands = log_p(0)
    p = as_it_stands.exp()
    gaps = [(p * (as_it_stands - log_p(k))).masked_fill(~sensible, 0.0).sum(1).mean()
            for k in range(1, features.NUM_SYMMETRIES)]
    return float(np.mean(gaps))


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
        t = learner.settings.temperature
        print(f"  orientations at T {t}: KL(as it stands || other symmetry) "
              f"{orientation_gap(start, boards, t):.4f} (start) "
              f"{orientation_gap(current, boards, t):.4f} (current)")


if __name__ == "__main__":
    main()
