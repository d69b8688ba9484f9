#!/usr/bin/env python3
"""Make self-play value data: one position a game, labelled with that game's result.

AlphaGo's recipe (training/selfplay.py): move U of a random training game, one
uniformly random sensible move, then a continuation player plays both sides to
the end. The position after the random move, its side to move, the outcome
for that side and the final ownership and score go to shard files in --out,
which tools/train_value.py --selfplay reads as they appear. Stop it any time:
the first Ctrl-C or SIGTERM lets the shard being made be finished and written,
a second drops it at once; the same command resumes at the first missing shard. Several generators may fill one folder:
give each its own --seed.

  nice -n 19 .venv/bin/python tools/selfplay.py --out data/selfplay --continuation rollout
  .venv/bin/python tools/selfplay.py --out data/selfplay-sl --continuation policy \\
      --device cuda --games-per-shard 512
"""

import argparse
import os
import signal
import sys
import time

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.programs import loading
from training import selfplay, trainer
from training.dataset import DATA_DIR, REPO_DIR, load_split


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=trainer.HelpFormatter)
    a = parser.add_argument
    a("--out", default="data/selfplay", help="folder the shard files go to")
    a("--continuation", choices=("rollout", "policy"), default="rollout",
      help="who plays both sides from the start position: the pattern rollout policy "
           "(fast, weak) or the policy network of --policy-weights (strong, one batch "
           "over the games of a shard)")
    a("--policy-weights", default=os.path.join(REPO_DIR, "weights", "sl-policy.pt"),
      help="policy network file for --continuation policy")
    a("--temperature", type=float, default=1.0,
      help="the policy network samples moves with probability p^(1/T)")
    a("--net-moves", type=int, default=0,
      help="moves the policy network plays before the rollout policy finishes the game "
           "(0: the network plays to the end)")
    a("--games-per-shard", type=int, default=256,
      help="games a shard holds; with --continuation policy also the network's batch")
    a("--shards", type=int, default=0, help="stop after this many shards of the run (0: never)")
    a("--max-hours", type=float, help="stop after this many hours")
    a("--seed", type=int, default=0, help="shard i is made from (seed, i); one seed a generator")
    a("--komi", type=float, default=7.5, help="komi the games are counted with")
    loading.add_device_flag(parser)
    a("--threads", type=int, default=1, help="torch threads (the CPU network's)")
    a("--data-dir", default=DATA_DIR, help="folder of the training game collections")
    a("--cache-dir", default=os.path.join(REPO_DIR, "data"))
    a("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.games_per_shard < 1:
        parser.error("--games-per-shard must be at least 1")
    if args.temperature <= 0:
        parser.error("--temperature must be positive")
    return args


def build_continuation(args, rollout):
    if args.continuation == "rollout":
        return selfplay.RolloutContinuation(rollout)
    from goengine.nn import netfile
    try:
        evaluator = loading.evaluator(args.policy_weights, "policy", args.threads, args.device)
    except netfile.NetworkLoadError as exc:
        raise SystemExit(f"selfplay: {exc}") from None
    print(f"selfplay: {args.policy_weights} on {args.device}"
          f"{' in half precision' if evaluator.use_bf16 else ''}", file=sys.stderr)
    return selfplay.PolicyContinuation(evaluator, rollout, args.temperature, args.net_moves)


def main(argv=None):
    args = parse_args(argv)
    from goengine.programs.loading import load_rollout
    rollout = load_rollout()
    continuation = build_continuation(args, rollout)
    store = load_split("train", args.data_dir, args.cache_dir, log=lambda m: print(m, file=sys.stderr))
    generator = selfplay.Generator(args.out, selfplay.StartPositions(store, args.komi),
                                   continuation, args.seed, args.games_per_shard)
    stopping = StopRequest()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stopping)
    index = generator.next_index()
    print(f"selfplay: {args.continuation} games into {args.out}, from shard {index}",
          file=sys.stderr)
    tqdm = None if args.no_progress else trainer.optional_tqdm()
    bar = tqdm(total=args.shards * args.games_per_shard or None, unit="game", file=sys.stderr,
               initial=index * args.games_per_shard if args.shards else 0,
               mininterval=1 if sys.stderr.isatty() else 60) if tqdm else None
    started, games, evaluated = time.monotonic(), 0, 0
    try:
        while not args.shards or index < args.shards:
            if args.max_hours and time.monotonic() - started > 3600 * args.max_hours:
                break
            made, nets = generator.make(index)   # written whole or not at all
            index, games, evaluated = index + 1, games + made, evaluated + nets
            report(bar, index, games, evaluated, made, started)
            if stopping.asked:   # checked after the shard: a signal once "from shard N"
                break            # is out finishes shard N, however early it came
    except KeyboardInterrupt:
        pass
    finally:
        if bar:
            bar.close()
    print(f"selfplay: stopped at shard {index} ({games} games this run)", file=sys.stderr)


class StopRequest:
    """A signal handler: the first signal asks to stop after the shard being made,
    the second stops at once (the shard is then dropped: it is written whole or not
    at all)."""

    def __init__(self):
        self.asked = False

    def __call__(self, signum, frame):
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True
        print("selfplay: stopping after this shard (again: at once)", file=sys.stderr, flush=True)


def report(bar, index, games, evaluated, made, started):
    """The rate line: on the progress bar, and as a log line where stderr is not a terminal."""
    elapsed = time.monotonic() - started
    line = (f"shard {index - 1}: {games / elapsed:.1f} games/s "
            f"({3600 * games / elapsed:.0f} an hour), "
            f"{evaluated / elapsed:.0f} network positions/s")
    if bar:
        bar.update(made)
        bar.set_postfix_str(line, refresh=False)
    if not bar or not sys.stderr.isatty():
        print(f"{time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
