"""Kills one rollout worker of every distributed-search game, at a random moment, beside
a running match: the fault test of docs/CLUSTER.md. Each engine started with --cluster
makes a Ray session of its own; once a session's workers have run for a random 10-60
seconds, one of them gets SIGKILL (Ray starts it again) and the next session is awaited.
Every kill is one line on stdout (a session is named by its raylet's pid).

    .venv/bin/python tools/tune.py --candidate "--cluster auto --rollout-workers 1" \\
        --max-games 20 --out runs/tune-cluster-kill &
    .venv/bin/python tools/kill_workers.py --games 20
"""

import argparse
import os
import random
import signal
import subprocess
import time


def rollout_workers():
    """{pid: Ray session} of the RolloutWorker processes on this machine; a session is
    named by the worker's parent, the raylet of the engine's own Ray cluster."""
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
    parser.add_argument('--games', type=int, default=20, help='sessions to kill a worker of')
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    done = set()
    while len(done) < args.games:
        workers = {pid: s for pid, s in rollout_workers().items() if s not in done}
        if not workers:
            time.sleep(1)
            continue
        session = next(iter(workers.values()))
        delay = rng.uniform(10, 60)
        time.sleep(delay)
        alive = [pid for pid, s in rollout_workers().items() if s == session]
        done.add(session)
        if not alive:
            print(f'session {session}: ended before its kill at {delay:.0f} s', flush=True)
            continue
        os.kill(alive[0], signal.SIGKILL)
        print(f'session {session}: rollout worker {alive[0]} killed after {delay:.0f} s',
              flush=True)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
