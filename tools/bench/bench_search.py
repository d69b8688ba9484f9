#!/usr/bin/env python3
"""How fast is the search, and where does its time go?

For every thread split asked for (simulation threads x the network's threads,
torch's or ONNX Runtime's) the search runs on one position for a few seconds
and prints:

* simulations/s and rollouts/s;
* network evaluations/s (policy and value) and the mean batch;
* the simulation threads' time split (lock wait, selection+expansion,
  rollout, backup), from timers inside goengine.search._tree;
* the network thread's time split (planes, policy net, value net, handing
  answers back, idle).

Networks are random-initialised at the given size unless weight files are
given (the speed is the same). Run it niced while training uses the cores:

    nice -n 10 .venv/bin/python tools/bench/bench_search.py --seconds 5
    nice -n 10 .venv/bin/python tools/bench/bench_search.py --size 9 --filters 8 --layers 3 --splits 1x1,2x1
    nice -n 10 .venv/bin/python tools/bench/bench_search.py --no-networks --splits 1x1,2x1
    .venv/bin/python tools/bench/bench_search.py --splits 1x1 --max-expand-threshold 40  # fixed n_thr
    .venv/bin/python tools/bench/bench_search.py --weights weights/sl.pt --search-mode zero --splits 1x2
"""

import argparse
import os
import random
import time


import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK, PASS
from goengine.search.config import SearchConfig
from goengine.game.state import GameState
from goengine.players.decision import sensible_mask
from goengine.search.search import Search
from goengine.search.limits import SearchLimits
from goengine.programs import loading
from goengine.search.limits import Barred


def middle_game(size, moves, seed):
    """A position after `moves` random sensible moves (more typical than an empty board)."""
    rng = random.Random(seed)
    game = GameState(size, 7.5)
    color = BLACK
    for _ in range(moves):
        mask = sensible_mask(game.board, color)
        choices = [m for m in range(size * size) if mask[m]]
        game.play(color, rng.choice(choices) if choices else PASS)
        color = 3 - color
    return game, color


def recorded_game(path, moves):
    """The position before move `moves` + 1 of the first game in an SGF file."""
    from goengine.game.state import from_record
    from goengine.game.sgffile import read_games
    game = from_record(next(read_games(path, limit=1)), moves + 1)
    return game, game.to_move


def networks(args, net_threads):
    """(policy evaluator, value evaluator): the files named, as the engine loads them (a
    four-headed network's value comes with its policy call, on the backend the engine
    would pick), else random networks."""
    if args.no_networks:
        return None, None
    import torch
    from goengine.nn import backends, nets
    torch.manual_seed(0)
    runtime = backends.pick_runtime(args.precision, args.backend, args.device)
    # ONNX Runtime and OpenVINO size their thread pools at load; torch's is set per split
    threads = 0 if runtime.backend == backends.TORCH else net_threads

    def evaluator(net):   # a random network has no int8 file: its fallback runs it
        return backends.make_evaluator(net, runtime, threads=threads, device=args.device)
    if args.weights:
        policy = loading.evaluator(args.weights, 'policy', threads, args.device, runtime)
    elif args.heads:
        policy = evaluator(nets.HeadsNet(filters=args.filters, layers=args.layers,
                                         board_size=args.size))
    else:
        policy = evaluator(nets.PolicyNet(filters=args.filters, layers=args.layers,
                                          board_size=args.size))
    if args.mixing >= 1.0:
        value = None     # the shipped engine without value.pt: priors and rollouts only
    elif args.value_weights:
        value = loading.evaluator(args.value_weights, 'value', threads, args.device, runtime)
    elif 'value' in policy.heads:
        value = policy   # one network: its value comes with every policy evaluation
    else:
        value = evaluator(nets.ValueNet(filters=args.filters, layers=args.layers,
                                        board_size=args.size))
    return policy, value


def share(part, whole):
    return f'{100 * part / whole:5.1f}%' if whole > 0 else '   - '


def bench(split, game, color, policy, value, args):
    sim_threads, net_threads = split
    if policy is not None:
        import torch
        torch.set_num_threads(net_threads)
    config = SearchConfig(sim_threads=sim_threads, net_threads=net_threads,
                          mixing=args.mixing, expand_threshold=args.expand_threshold,
                          max_expand_threshold=args.max_expand_threshold, batch_size=args.batch,
                          max_pending_policy=max(SearchConfig.max_pending_policy, args.batch),
                          max_pending_value=max(SearchConfig.max_pending_value, 2 * args.batch),
                          search_mode=args.search_mode)
    search = Search(policy, value, config=config)
    try:
        search.set_position(game, color, barred=Barred(True))   # as genmove early in a game
        search.run(SearchLimits(0.5))                          # warm-up (torch, caches)
        search.tree.reset_stats()
        if search.networks:
            search.networks.reset_stats()
        start, cpu_start = time.perf_counter(), time.process_time()
        search.run(SearchLimits(args.seconds))
        wall = time.perf_counter() - start
        s = search.stats()
        s['cpu'] = time.process_time() - cpu_start
        s['n_thr'] = search.tree.expand_threshold
        s['network_calls'] = search.network_evaluations()
    finally:
        search.close()
    thread_time = s['time_wait'] + s['time_select'] + s['time_rollout'] + s['time_backup']
    print(f'\n== {sim_threads} simulation thread(s), {net_threads} network thread(s), '
          f'{wall:.1f}s ==')
    print(f'simulations/s {s["sims"] / wall:9.0f}    rollouts/s {s["rollouts"] / wall:9.0f}'
          f'    tree nodes {s["nodes"]}    CPU {s["cpu"] / wall:.2f} cores '
          f'(the machine is shared: per CPU-second {s["sims"] / max(1e-9, s["cpu"]):.0f} simulations)')
    print(f'  simulation threads: lock wait {share(s["time_wait"], thread_time)}  '
          f'select+expand {share(s["time_select"], thread_time)}  '
          f'rollout {share(s["time_rollout"], thread_time)}  '
          f'backup {share(s["time_backup"], thread_time)}  '
          f'(per simulation {1e6 * thread_time / max(1, s["sims"]):.0f} us)')
    print(f'  expansions {s["expansions"]}, deferred (policy queue full) '
          f'{s["deferred_expansions"]}, value requests skipped (queue full) '
          f'{s["skipped_values"]}, value backups {s["value_backups"]}, '
          f'n_thr at the end {s["n_thr"]} (adapts from {args.expand_threshold}), '
          f'leaves read with a decided ladder {s.get("ladder_evals", 0)}, '
          f'zero-search collisions {s.get("collisions", 0)}')
    if 'batches' in s:
        evals = s['network_calls']   # a four-headed network's value comes with its policy
        idle = max(0.0, wall - s['time_busy'])
        print(f'network evals/s {evals / wall:7.1f}    policy {s["policy_evals"] / wall:7.1f}'
              f'    value {s["value_evals"] / wall:7.1f}    mean batch '
              f'{evals / max(1, s["batches"]):.1f}')
        print(f'  network thread (planes included): policy net {share(s["time_policy"], wall)}  '
              f'value net {share(s["time_value"], wall)}  '
              f'apply {share(s["time_apply"], wall)}  idle {share(idle, wall)}')
    return s, wall


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--size', type=int, default=19)
    p.add_argument('--moves', type=int, default=40, help='moves before the test position')
    p.add_argument('--sgf', help='take the position from the first game of this SGF file '
                   '(.sgf or .sgfs.gz) instead of from random moves')
    p.add_argument('--seconds', type=float, default=5.0)
    p.add_argument('--splits', default='1x1,2x1,2x2',
                   help='simulation threads x network threads (torch\'s or ONNX '
                   'Runtime\'s), comma separated')
    p.add_argument('--filters', type=int, default=192)
    p.add_argument('--layers', type=int, default=13)
    p.add_argument('--weights')
    p.add_argument('--heads', action='store_true',
                   help='without --weights: one random four-headed network of --filters and '
                   '--layers (its value comes with each policy call, as with the shipped '
                   'networks) instead of a policy and a value network: the speed of a shape '
                   'before it is trained')
    p.add_argument('--value-weights')
    p.add_argument('--no-networks', action='store_true', help='rollouts and tree priors only')
    p.add_argument('--search-mode', choices=('apv', 'zero'), default='apv',
                   help='apv: rollouts and the value mixed (the default); zero: the network '
                        'at every leaf, no rollouts (splits as 1xN: N network threads)')
    p.add_argument('--mixing', type=float, default=0.5,
                   help='lambda; 1 runs without a value network, as the engine does without value.pt')
    p.add_argument('--expand-threshold', type=int, default=40,
                   help='n_thr, and the floor of its adaptation')
    p.add_argument('--max-expand-threshold', type=int, default=SearchConfig.max_expand_threshold,
                   help='ceiling of the adaptive n_thr; equal to --expand-threshold: fixed n_thr')
    p.add_argument('--batch', type=int, default=16,
                   help='most positions a network call (the policy queue grows with it, as '
                   'the engine grows it on a GPU)')
    p.add_argument('--device', default='auto',
                   help='where the networks run, as the engine\'s --device: auto, cpu, cuda, mps')
    loading.add_backend_flag(p)   # --precision and --backend, as the engine's
    args = p.parse_args(argv)
    if not args.no_networks:
        from goengine.nn.inference import DeviceError, pick_device
        try:
            args.device = pick_device(args.device)
        except DeviceError as e:
            p.error(str(e))

    splits = [tuple(int(x) for x in s.split('x')) for s in args.splits.split(',')]
    if args.sgf:
        game, color = recorded_game(args.sgf, args.moves)
    else:
        game, color = middle_game(args.size, args.moves, seed=1)
    print(f'bench_search: {game.size}x{game.size} after {args.moves} '
          f'{"recorded" if args.sgf else "random"} moves, lambda {args.mixing}, '
          f'n_thr {args.expand_threshold}, {os.cpu_count()} CPUs, '
          f'load average {os.getloadavg()[0]:.2f}')
    results = []
    for split in splits:
        try:
            policy, value = networks(args, net_threads=split[1])
        except ValueError as e:   # a runtime that cannot run here, a broken network file
            p.error(str(e))
        if policy is not None:
            shape = args.weights or (f'random {"four-headed " if args.heads else ""}'
                                     f'k={args.filters}, {args.layers} layers')
            described = policy.describe()
            print(f'networks: {shape}, {described.backend} {described.precision} '
                  f'on {args.device}, '
                  f'batch {args.batch}')
        results.append((split, bench(split, game, color, policy, value, args)))
    print('\nsummary:')
    for (sims, nets_), (s, wall) in results:
        evals = s['network_calls']
        print(f'  {sims} sim x {nets_} net: {s["sims"] / wall:8.0f} simulations/s, '
              f'{evals / wall:6.1f} network evals/s, {s["cpu"] / wall:.2f} cores used')


if __name__ == '__main__':
    main()
