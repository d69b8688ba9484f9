"""Figures for the RL stage (not pass/fail): self-play games a second and the learner's
positions a second, on one process, in the precision the CPU computes fastest (bf16 where
it is native) or in fp32 (--fp32), so that the two can be compared in one run; the learner
as Learner.update takes a step, --chunk positions a pass, with the memory it peaked at,
on the C heap the learner sets (training/cpu_memory.py) or on glibc's default
(--default-heap, to compare in a second run).

    nice -n 10 .venv/bin/python tools/bench/bench_selfplay_rl.py --weights weights/heads-k96.pt \
        --games 64 [--threads 1] [--fp32] [--positions-per-game 0] [--chunk 256,2048] \
        [--default-heap]
"""

import argparse
import time

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import netfile
from goengine.nn.cpu import bf16_is_fast
from goengine.nn.inference import NetworkEvaluator
from training.cpu_memory import keep_freed_memory
from training.rl_games import play_games
from training.rl_learner import LEARNER_CHUNK, backward_in_chunks, training_positions


def peak_mib():
    """This process's peak resident memory since the last reset_peak (Linux), MiB."""
    with open('/proc/self/status') as f:
        return next(int(line.split()[1]) for line in f if line.startswith('VmHWM')) / 1024


def reset_peak():
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--weights', default='weights/heads-k96.pt')
    parser.add_argument('--games', type=int, default=64, help='games played at once')
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--positions-per-game', type=int, default=16, help='0: all')
    parser.add_argument('--chunk', default=str(LEARNER_CHUNK),
                        help='positions a forward and backward pass, several to compare')
    parser.add_argument('--fp32', action='store_true', help='no bf16, where the CPU has it')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--default-heap', action='store_true',
                        help="glibc's own heap settings, not the learner's top pad")
    args = parser.parse_args(argv)
    if not args.default_heap:
        keep_freed_memory()
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
    positions = training_positions(games, np.random.default_rng(0), model.planes,
                                   args.positions_per_game)
    for chunk in (int(c) for c in args.chunk.split(',')):
        reset_peak()
        start = time.perf_counter()
        model.zero_grad()
        backward_in_chunks(model, positions, chunk=chunk, bf16=bf16)
        learned = time.perf_counter() - start
        print(f'learner: {len(positions)} positions forward and backward in {learned:.1f} s, '
              f'{len(positions) / learned:.0f} positions/s, {chunk} a pass, peak '
              f'{peak_mib():.0f} MiB')


if __name__ == '__main__':
    main()
