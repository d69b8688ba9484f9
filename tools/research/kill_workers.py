"""Kills one rollout worker of every distributed-search game, at a random moment, beside
a running match: the fault test of docs/CLUSTER.md. Each engine started with --cluster
makes a Ray cluster of its own, named here by its raylet's pid; once a cluster's workers
have run for a random 10-60 seconds, one of them gets SIGKILL (Ray starts it again) and
the next game's cluster is awaited. Every kill is one line on stdout.

    .venv/bin/python tools/tune.py --candidate "--cluster auto --rollout-workers 1" \\
        --max-games 20 --out runs/tune-cluster-kill &
    .venv/bin/python tools/research/kill_workers.py --games 20
"""

import argparse
import os
import random
import signal
import subprocess
import time


def rollout_workers():
    """{pid: raylet pid} of the RolloutWorker processes on this machine: the worker's
    parent is the raylet of the engine's own Ray cluster."""
    out = subprocess.run(['pgrep', '-f', 'ray::RolloutWorker'], capture_output=True, text=True)
    found = {}
    for pid in (int(p) for p in out.stdout.split()):
        try:
            with open(f'/proc/{pid}/status') as f:
                found[pid] = next(line.split()[1] for line in f if line.startswith('PPid:'))
        except (OSError, StopIteration):
            continue
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--games', type=int, default=20, help='games (engine clusters) to kill a worker of')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    done = set()
    while len(done) < args.games:
        workers = {pid: r for pid, r in rollout_workers().items() if r not in done}
        if not workers:
            time.sleep(1)
            continue
        raylet = next(iter(workers.values()))
        delay = rng.uniform(10, 60)
        time.sleep(delay)
        alive = [pid for pid, r in rollout_workers().items() if r == raylet]
        done.add(raylet)
        game = f'game {len(done)} (raylet {raylet})'
        if not alive:
            print(f'{game}: ended before its kill at {delay:.0f} s', flush=True)
            continue
        os.kill(alive[0], signal.SIGKILL)
        print(f'{game}: rollout worker {alive[0]} killed {delay:.0f} s in', flush=True)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
