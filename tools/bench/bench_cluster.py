"""Figures for the distributed search (not pass/fail), on a Ray cluster of this machine or
the one at --address: Ray's round trip per call, the master's own cost per simulation
(selection and backup, no rollout: the most simulations a second one master can feed),
and the search's simulations and network evaluations a second in place and with 1..N
remote rollout workers (docs/CLUSTER.md).

    nice -n 10 .venv/bin/python tools/bench/bench_cluster.py --seconds 10 --workers 0,1,2
"""

import argparse
import time
from dataclasses import replace

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK
from goengine.game.state import GameState
from goengine.programs import cluster, loading
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.search.remote import RemoteEvaluator, RemoteRollouts
from goengine.search.search import Search
from goengine.search._tree import Tree


def round_trips(ray, worker, rollout, calls=200):
    """Milliseconds a call: an empty one, and one batch of 64 leaves at the root."""
    ray.get(worker.ping.remote())
    start = time.perf_counter()
    for _ in range(calls):
        ray.get(worker.ping.remote())
    empty = (time.perf_counter() - start) / calls * 1000
    tree = Tree(SearchConfig(), rollout)
    tree.reset(GameState(19, 7.5).board_for(BLACK))
    tree.start(None)
    nodes, generation, colours, moves, offsets = tree.take_rollout_leaves(64)
    root = tree.root_state_bytes()
    start = time.perf_counter()
    for seed in range(20):
        ray.get(worker.play.remote(root, moves, offsets, 7.5, seed))
    batch = (time.perf_counter() - start) / 20 * 1000
    tree.drop_rollouts(nodes, generation)
    return empty, batch


def master_cost(rollout, seconds=3.0, batch=64):
    """Microseconds of the master's work a simulation: selection with virtual loss,
    then the backup of a made-up score, no rollout; in a tree that grows as it would."""
    tree = Tree(SearchConfig(), rollout)
    tree.reset(GameState(19, 7.5).board_for(BLACK))
    tree.start(None)
    rng = np.random.default_rng(0)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        nodes, generation, colours, _, _ = tree.take_rollout_leaves(batch)
        tree.apply_rollouts(nodes, generation, colours, rng.normal(0, 20, len(nodes)))
        done += len(nodes)
    return (time.perf_counter() - start) / done * 1e6


def search_rates(ray, rollout, weights, workers, seconds, network_workers=0, device='cpu'):
    """(simulations/s, network evaluations/s, rollout leaves/s remote) of one search
    from the empty board: in place (workers 0) or with that many rollout workers, and
    network_workers network copies beside the master's own network on `device`."""
    policy = loading.evaluator(weights, 'policy', threads=1, device=device)
    remote, handles, copies = None, [], []
    config = SearchConfig().for_device(device)
    if workers:
        handles = cluster.rollout_workers(ray, workers, rollout)
        remote = RemoteRollouts(ray, handles)
        config = replace(config, sim_threads=0)
    if network_workers:
        nets = cluster.network_workers(ray, network_workers, weights)
        handles += nets
        copies = [(r, r) for r in (RemoteEvaluator(ray, w) for w in nets)]
    search = Search(policy, policy, rollout, config, remote_rollouts=remote,
                    network_copies=copies)
    search.set_position(GameState(19, 7.5), BLACK)
    search.run(SearchLimits(desired=seconds, maximum=seconds))
    sims, evals = search.last_sims / seconds, search.last_evals / seconds
    leaves = remote.stats['leaves'] / seconds if remote else 0.0
    if remote:
        print('  ' + remote.rates(seconds))
    search.close()
    for handle in handles:
        ray.kill(handle)
    return sims, evals, leaves


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--address', help='a cluster HOST:PORT (default: one of this machine)')
    parser.add_argument('--weights', default='weights/sl.pt')
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--workers', default='0,1,2', help='rollout workers to try, 0: in place')
    parser.add_argument('--network-workers', type=int, default=0,
                        help="network workers beside the master's network (on the "
                             "cluster's GPUs where it has them)")
    parser.add_argument('--device', default='cpu', help="the master's own network")
    args = parser.parse_args(argv)
    rollout = loading.load_rollout()
    ray = cluster.connect(args.address)
    print(f'cluster: {ray.cluster_resources()}')
    worker = cluster.rollout_workers(ray, 1, rollout)[0]
    empty, batch = round_trips(ray, worker, rollout)
    ray.kill(worker)
    print(f'Ray round trip: empty call {empty:.2f} ms, 64 rollouts from the root {batch:.1f} ms')
    print(f'master: {master_cost(rollout):.1f} us a simulation without its rollout')
    for count in (int(w) for w in args.workers.split(',')):
        sims, evals, leaves = search_rates(ray, rollout, args.weights, count, args.seconds,
                                           args.network_workers if count else 0, args.device)
        label = ('in place' if count == 0 else f'{count} remote rollout workers'
                 + (f', {args.network_workers} network workers' if args.network_workers else ''))
        print(f'{label}: {sims:.0f} simulations/s, {evals:.1f} network evaluations/s'
              + (f', {leaves:.0f} remote rollouts/s' if count else ''))
    ray.shutdown()


if __name__ == '__main__':
    main()
