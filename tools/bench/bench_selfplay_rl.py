"""Figures for the RL stage (not pass/fail): self-play games a second and the learner's
positions a second, on one process, in the precision the CPU computes fastest (bf16 where
it is native) or in fp32 (--fp32), so that the two can be compared in one run.

    nice -n 10 .venv/bin/python tools/bench/bench_selfplay_rl.py --weights weights/heads-k96.pt \
        --games 64 [--threads 1] [--fp32]
"""

import argparse
import time

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import netfile
from goengine.nn.inference import NetworkEvaluator, bf16_is_fast
from training.rl_games import play_games
from training.rl_learner import policy_gradient_loss


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--weights', default='weights/heads-k96.pt')
    parser.add_argument('--games', type=int, default=64, help='games played at once')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--positions-per-game', type=int, default=16)
    parser.add_argument('--fp32', action='store_true', help='no bf16, where the CPU has it')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    bf16 = bf16_is_fast() and not args.fp32
    model = netfile.load_network(args.weights, head='policy')
    policy = NetworkEvaluator(model, use_bf16=bf16, threads=0)

    start = time.perf_counter()
    games = play_games(policy, policy, args.games, seed=args.seed)
    played = time.perf_counter() - start
    moves = sum(len(g.moves) for g in games)
    print(f'{args.weights} {"bf16" if bf16 else "fp32"}, {args.threads} thread(s): '
          f'{args.games} games in {played:.1f} s, {args.games / played:.2f} games/s, '
          f'{moves / args.games:.0f} moves a game, {moves / played:.0f} moves/s')

    model.train()
    start = time.perf_counter()
    with torch.autocast('cpu', dtype=torch.bfloat16, enabled=bf16):
        loss, _ = policy_gradient_loss(model, model, games, np.random.default_rng(0),
                                       args.positions_per_game)
    loss.backward()
    learned = time.perf_counter() - start
    positions = args.games * args.positions_per_game   # every game has more own moves
    print(f'learner: {positions} positions forward and backward in {learned:.1f} s, '
          f'{positions / learned:.0f} positions/s')


if __name__ == '__main__':
    main()
