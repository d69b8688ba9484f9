#!/usr/bin/env python3
"""AlphaGo's RL stage: self-play against a pool of earlier versions, REINFORCE, on Ray.

Self-play workers are Ray actors (training/rl_workers.py), on this machine by default
(`ray.init()` starts a local cluster, nothing to set up) or on a cluster (`--address
HOST:PORT`, the head's address from `ray start --head`). Each iteration sends the current
weights and an opponent drawn from the pool, collects --games finished games and takes
one policy-gradient step (training/rl_learner.py); the run folder resumes after a kill,
and Ctrl-C or SIGTERM ends it with a checkpoint. Every --keep-every iterations the network
also goes to RUN_DIR/networks/, as it would ship, for tools/rl_judge.py. A worker that
dies loses only the games it had not finished: they are played again on another worker,
none is counted twice.

With --value-data DIR the same workers also make the value network's data, AlphaGo's
recipe with the current RL network playing the games out (training/selfplay.py,
RLValueData): one shard of --value-games games an iteration, each game one position
labelled with its result, which tools/train_value.py --selfplay DIR trains on.

    .venv/bin/python tools/selfplay_rl.py --run-dir runs/rl --init-weights weights/heads-k96.pt \\
        --games 128 --workers 2 --iterations 1000
    .venv/bin/python tools/selfplay_rl.py --run-dir runs/rl --games 128 --workers 2 \\
        --value-data data/selfplay-rl --iterations 1000
    .venv/bin/python tools/selfplay_rl.py --run-dir runs/rl --export weights/rl.pt
    .venv/bin/python tools/selfplay_rl.py --run-dir runs/rl --address 10.0.0.1:6379 --workers 32
"""

import argparse
import os
import signal
import sys
import time

import _checkout  # noqa: F401  (this checkout's packages first)
from training.rl_learner import Learner, RLSettings, RunError
from training.rl_workers import SelfPlayWorker, spec_of


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--run-dir", required=True)
    p.add_argument("--init-weights", default="weights/heads-k96.pt",
                   help="the four-headed network a new run starts from (default: %(default)s)")
    p.add_argument("--iterations", type=int, default=1, help="iterations to run now")
    # The run's settings: a new run takes these defaults, a resumed one keeps its own
    # unless one is given here.
    p.add_argument("--games", type=int,
                   help=f"games per iteration (n; new runs {RLSettings.games_per_iteration})")
    p.add_argument("--lr", type=float, help=f"the SGD step (new runs {RLSettings.lr})")
    p.add_argument("--pool-every", type=int,
                   help=f"iterations between pool versions (new runs {RLSettings.pool_every})")
    p.add_argument("--positions-per-game", type=int,
                   help="the current player's moves trained per game (0: all; new runs "
                        f"{RLSettings.positions_per_game})")
    p.add_argument("--no-baseline", action="store_true", help="z alone, no value baseline")
    p.add_argument("--temperature", type=float,
                   help="T both players sample at, the gradient that of softmax(logits / T) "
                        f"(new runs {RLSettings.temperature}); the step is lr / T^2 in that "
                        "distribution")
    p.add_argument("--workers", type=int, default=2, help="self-play actors")
    p.add_argument("--address", default=None, help="a Ray cluster's HOST:PORT (default: local)")
    p.add_argument("--no-ray", action="store_true",
                   help="no Ray: the workers are processes of this machine (a GPU machine "
                        "without Ray, or to measure what Ray costs)")
    p.add_argument("--device", default="cpu",
                   help="where the workers run the networks (cuda: one worker, big batches)")
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--max-moves", type=int, default=None)
    p.add_argument("--chunk", type=int, default=0,
                   help="games a worker plays per request (default: games / workers)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--value-data", metavar="DIR",
                   help="also make value data: every iteration one shard of --value-games "
                        "games (AlphaGo's recipe, the current network playing them out) in DIR, "
                        "which tools/train_value.py --selfplay reads")
    p.add_argument("--value-games", type=int, default=128,
                   help="value games an iteration with --value-data (default %(default)s)")
    p.add_argument("--data-dir", default=None,
                   help="the training game collections the value games start from "
                        "(default: training/dataset.py's)")
    p.add_argument("--export", metavar="FILE", help="write the current network (fp16) and stop")
    p.add_argument("--keep-every", type=int, default=50, metavar="N",
                   help="every N iterations also write the network as --export does, to "
                        "RUN_DIR/networks/ITERATION.pt, for tools/rl_judge.py (0: never; "
                        "default %(default)s)")
    p.add_argument("--no-progress", action="store_true")
    return p


def start_workers(ray, count):
    actor = ray.remote(num_cpus=1)(SelfPlayWorker)
    return [actor.remote() for _ in range(count)]


def collect(ray, workers, calls, log, what="games"):
    """The results of `calls` (each a function of a worker returning an object ref), in
    order: one call out a worker at a time, every finished one kept; a call whose worker
    died is made again on a fresh actor that takes the dead one's place."""
    from ray.exceptions import RayActorError, WorkerCrashedError
    results, pending, queue = [None] * len(calls), {}, list(range(len(calls)))

    def send(worker):
        if queue:
            index = queue.pop(0)
            pending[calls[index](worker)] = (worker, index)

    for worker in workers:
        send(worker)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        worker, index = pending.pop(done[0])
        try:
            results[index] = ray.get(done[0])
        except (RayActorError, WorkerCrashedError) as exc:
            log(f"selfplay_rl: a worker died ({type(exc).__name__}); its unfinished {what} "
                "are played again elsewhere")
            workers[workers.index(worker)] = worker = start_workers(ray, 1)[0]
            queue.insert(0, index)
        send(worker)
    return results


def chunk_sizes(args):
    chunk = args.chunk or max(1, -(-args.games // args.workers))
    return [min(chunk, args.games - start) for start in range(0, args.games, chunk)]


def game_seed(args, iteration, chunk):
    return hash((args.seed, iteration, chunk)) % 2**32


def collect_games(ray, workers, current, opponent, args, temperature, iteration, log):
    """This iteration's games from the workers, in chunks (the same under the seed as
    --no-ray's)."""
    calls = [lambda worker, i=i, size=size: worker.play.remote(
                 current, opponent, size, game_seed(args, iteration, i), args.size,
                 args.komi, args.max_moves, temperature)
             for i, size in enumerate(chunk_sizes(args))]
    return [game for chunk in collect(ray, workers, calls, log) for game in chunk]


def collect_value_data(ray, workers, current, value_data, iteration, log):
    """This iteration's value shard, its games played out on the workers; (games,
    network positions evaluated)."""
    calls = [lambda worker, drawn=drawn, seed=seed: worker.value_records.remote(
                 current, drawn, seed, value_data.temperature, value_data.net_moves)
             for drawn, seed in value_data.chunks(iteration)]
    return value_data.write(iteration, collect(ray, workers, calls, log, "value games"))


def iteration_networks(learner):
    """(current, opponent) as the workers take them: (version, spec), the opponent drawn
    from the pool; and the opponent's file."""
    from goengine.nn import netfile
    path = learner.draw_opponent()
    current = (("current", learner.iteration), spec_of(learner.model))
    return current, (("pool", path), spec_of(netfile.load_network(path))), path


def iteration_line(entry, path, rate, value_data=None):
    values = (f", {value_data.games} value games" if value_data is not None else "")
    return (f"iteration {entry['iteration']}: {entry['won']} of {entry['games']} won "
            f"against {path.rsplit('/', 1)[-1]}, entropy {entry['entropy']:.3f}, "
            f"loss {entry['loss']:+.3f}, "
            f"{rate:.2f} games/s{values}")


def keep_network(learner, args, log):
    """Every --keep-every iterations the network as it would ship, in RUN_DIR/networks/:
    what the run's checkpoints are judged on while it goes on."""
    if not args.keep_every or learner.iteration % args.keep_every:
        return
    path = os.path.join(args.run_dir, "networks", f"{learner.iteration:06d}.pt")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    learner.export(path)
    log(f"selfplay_rl: iteration {learner.iteration} -> {path}")


def run_without_ray(learner, args, value_data, log):
    """The same iterations with the workers as processes of this machine."""
    import concurrent.futures
    import multiprocessing
    from training.rl_workers import play_in_process, value_in_process
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=context) as pool:
        try:
            for _ in range(args.iterations):
                start = time.monotonic()
                iteration = learner.iteration
                current, opponent, path = iteration_networks(learner)
                futures = [pool.submit(play_in_process, current, opponent, size,
                                       game_seed(args, iteration, i), args.size, args.komi,
                                       args.max_moves, learner.settings.temperature,
                                       args.device)
                           for i, size in enumerate(chunk_sizes(args))]
                values = [] if value_data is None else [
                    pool.submit(value_in_process, current, drawn, seed,
                                value_data.temperature, value_data.net_moves, args.device)
                    for drawn, seed in value_data.chunks(iteration)]
                games = [g for f in futures for g in f.result()]
                if values:
                    value_data.write(iteration, [f.result() for f in values])
                entry = learner.update(games)
                log(iteration_line(entry, path, len(games) / (time.monotonic() - start),
                                   value_data))
                keep_network(learner, args, log)
        except KeyboardInterrupt:
            learner.save()
            log(f"selfplay_rl: stopped at iteration {learner.iteration}, checkpoint written")
            stop_processes(pool)
    return 0


def stop_processes(pool):
    """Ends a process pool's workers now: the games they are playing are lost, as the
    iteration they belong to is (the checkpoint holds the one before). Without it the
    pool's exit would wait for every game the iteration had asked for."""
    terminate = getattr(pool, "terminate_workers", None)      # Python 3.14
    if terminate is not None:
        terminate()
        return
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)
        if process.is_alive():             # stopped (SIGSTOP), or deaf to SIGTERM
            process.kill()
            process.join()


def start_value_data(args, log):
    """The run's RLValueData (None without --value-data), its start positions from the
    training split of the game collections."""
    if not args.value_data:
        return None
    from training import dataset, selfplay
    store = dataset.load_split("train", args.data_dir or dataset.DATA_DIR, log=log)
    starts = selfplay.StartPositions(store, args.komi, args.size)
    return selfplay.RLValueData(args.value_data, starts, args.value_games, args.seed)


def _interrupt(*_):
    """SIGTERM ends a run as Ctrl-C does: with a checkpoint."""
    raise KeyboardInterrupt()


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.keep_every < 0:
        parser.error("--keep-every is 0 (never) or more")
    given = {name: value for name, value in (
        ("games_per_iteration", args.games), ("lr", args.lr), ("pool_every", args.pool_every),
        ("positions_per_game", args.positions_per_game),
        ("baseline", False if args.no_baseline else None),
        ("temperature", args.temperature)) if value is not None}
    log = lambda message: print(message, file=sys.stderr, flush=True)   # noqa: E731
    try:
        learner = Learner(args.run_dir, args.init_weights, seed=args.seed)
        if given:
            learner.change_settings(**given)
    except (RunError, OSError, ValueError) as exc:
        log(f"selfplay_rl: {exc}")
        return 2
    args.games = learner.settings.games_per_iteration      # what the chunks divide
    if args.export:
        learner.export(args.export)
        log(f"selfplay_rl: iteration {learner.iteration} -> {args.export}")
        return 0
    if learner.model.board_size != args.size:
        log(f"selfplay_rl: the run's network plays {learner.model.board_size}x"
            f"{learner.model.board_size}, not --size {args.size}")
        return 2
    try:
        value_data = start_value_data(args, log)
    except (OSError, ValueError) as exc:
        log(f"selfplay_rl: cannot make value data: {exc}")
        return 2
    if args.no_ray:
        before = signal.signal(signal.SIGTERM, _interrupt)
        try:
            return run_without_ray(learner, args, value_data, log)
        finally:
            signal.signal(signal.SIGTERM, before)
    from goengine.programs import cluster
    try:
        ray = cluster.connect(args.address)
    except cluster.ClusterError as exc:
        log(f"selfplay_rl: {exc}" + (" (or --no-ray on one machine)"
                                     if "not installed" in str(exc) else ""))
        return 2
    before = signal.signal(signal.SIGTERM, _interrupt)
    workers = start_workers(ray, args.workers)
    from tqdm import tqdm
    bar = tqdm(total=args.iterations, disable=args.no_progress, unit="it")
    try:
        for _ in range(args.iterations):
            start = time.monotonic()
            current, opponent, path = iteration_networks(learner)
            iteration, current = learner.iteration, ray.put(current)
            games = collect_games(ray, workers, current, ray.put(opponent), args,
                                  learner.settings.temperature, iteration, log)
            if value_data is not None:
                collect_value_data(ray, workers, current, value_data, iteration, log)
            entry = learner.update(games)
            rate = len(games) / (time.monotonic() - start)
            bar.set_postfix(iteration=entry["iteration"], won=f"{entry['win_rate']:.2f}",
                            entropy=f"{entry['entropy']:.2f}", games_s=f"{rate:.2f}")
            bar.update(1)
            log(iteration_line(entry, path, rate, value_data))
            keep_network(learner, args, log)
    except KeyboardInterrupt:
        learner.save()
        log(f"selfplay_rl: stopped at iteration {learner.iteration}, checkpoint written")
    finally:
        bar.close()
        ray.shutdown()
        signal.signal(signal.SIGTERM, before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
