"""goengine's GTP front end: the `goengine` console script, and `python gtp_main.py` in a
checkout (which forwards here); then speak GTP v2 on stdin/stdout.

Only GTP goes to stdout; every log line goes to stderr. Use with a GUI
(Sabaki, GoGui, Lizzie), a match runner (gogui-twogtp) or a server bridge.
"""

import argparse
import sys
from contextlib import nullcontext

from goengine.gtp.timecontrol import DEFAULT_MARGIN, DEFAULT_MOVE_TIME
from goengine.players.resign import ResignRule
from goengine.programs import engine_spec, loading  # light: torch loads only with a network
from goengine.programs.engine_spec import (PlayerKind, add_search_flags, nonnegative_float,
                                           nonnegative_int)
from goengine.programs.interrupt import ctrl_c_exits_at_once


DESCRIPTION = """\
Run goengine as a GTP version 2 engine on stdin/stdout.

Moves come from the APV-MCTS search (goengine.search.search): a policy
network's priors and fast rollouts, with a value network's evaluations mixed in
as in AlphaGo. By default one four-headed network (weights/sl.pt) gives
both, with ownership and score for analysis; --weights names any other network
file. --weights none plays random sensible moves instead (no network needed:
for testing GUIs and the protocol)."""

EPILOG = """\
time: with time settings from the controller (time_settings,
kgs-time_settings, time_left) the engine budgets its clock, spending more in
the middle game and keeping a safety margin, and thinks up to twice its budget
(never past the clock) while the most visited move is not the best valued one;
without them every move gets --time-per-move seconds (default %g).

examples:
  .venv/bin/python gtp_main.py                           # the search (--network auto), 5 s a move
  .venv/bin/python gtp_main.py --weights none --verbose  # random sensible moves, no network
  .venv/bin/python gtp_main.py --time-per-move 2 --ponder
  .venv/bin/python gtp_main.py --network small           # the k=96 network made for the CPU
  .venv/bin/python gtp_main.py --policy-only --temperature 1   # the RL policy, sampled
  .venv/bin/python gtp_main.py --weights weights/sl-policy.pt --lambda 1   # the SL policy, rollouts alone"""


def positive_float(text):
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f'must be > 0, got {text}')
    return value


def probability(text):
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f'must be in [0, 1), got {text}')
    return value


class OneLineParser(argparse.ArgumentParser):
    """A bad flag is one line on stderr, as a GUI's engine log shows it best."""

    def error(self, message):
        log(f'goengine: error: {message}')
        sys.exit(2)


def build_parser():
    p = OneLineParser(description=DESCRIPTION, epilog=EPILOG % DEFAULT_MOVE_TIME,
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    loading.add_network_flags(p)
    nets = p.add_argument_group('networks')
    nets.add_argument('--value-weights', metavar='FILE',
                      help="value network (default: the four-headed network's value head)")
    nets.add_argument('--rollout-weights', metavar='FILE',
                      help='rollout and tree policy (default: weights/rollout.weights)')
    loading.add_device_flag(nets)
    loading.add_backend_flag(nets)

    add_search_flags(p)

    clock = p.add_argument_group('time')
    clock.add_argument('--playouts', '--visits', dest='playouts', type=nonnegative_int,
                       default=None, metavar='N', help='playouts per move (0: time only)')
    clock.add_argument('--time-per-move', type=positive_float, default=None, metavar='SEC',
                       help='seconds a move without time settings '
                            f'(default {DEFAULT_MOVE_TIME:g}), else a cap')
    clock.add_argument('--spend-full-time', action='store_true',
                       help='think the whole time even once the move is decided')
    clock.add_argument('--margin', type=float, default=DEFAULT_MARGIN, metavar='SEC',
                       help='seconds kept back from every deadline (default %(default)s)')
    clock.add_argument('--ponder', action='store_true',
                       help="think on the opponent's time")

    cluster = p.add_argument_group('distributed search (docs/CLUSTER.md; needs Ray: '
                                   'pip install -e .[cluster])')
    cluster.add_argument('--cluster', metavar='ADDRESS',
                         help="auto: a Ray cluster of this machine; HOST:PORT: join that one")
    cluster.add_argument('--rollout-workers', type=nonnegative_int, default=None, metavar='N',
                         help="rollout workers (default: the cluster's CPUs less 2, at least 1)")
    cluster.add_argument('--network-workers', type=nonnegative_int, default=None, metavar='M',
                         help="network workers (default: one a GPU of the cluster)")

    play = p.add_argument_group('play')
    play.add_argument('--policy-only', action='store_true',
                      help="no search: the policy network's move at once (the RL policy, "
                           "weights/rl.pt, unless --weights or --network names one)")
    play.add_argument('--temperature', type=nonnegative_float, default=None, metavar='T',
                      help='with --policy-only: sample from p ** (1/T) (README: Playing '
                           'strength)')
    play.add_argument('--strength', metavar='RANK',
                      help='play at a rank, 13k to 2k, as measured against GNU Go 3.8 '
                           '(README: Playing strength; "list" lists the levels)')
    play.add_argument('--resign-threshold', type=probability, default=None, metavar='P',
                      help='resign below this win rate, never in the opening '
                           f'(default {ResignRule.threshold:g}; 0: never)')
    play.add_argument('--verbose', action='store_true',
                      help='log every command and decision to stderr')
    return p


INTERRUPTED = 'goengine: interrupted'


def log(message):
    print(message, file=sys.stderr, flush=True)


def main(argv=None):
    """The engine: parse the flags, load, speak GTP until quit or end of input. Ctrl-C at
    any point ends it with one line and status 130, never a traceback."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        log(INTERRUPTED)
        return 130


def _main(argv):
    # No KeyboardInterrupt in torch's C++ start-up, its import while --device is parsed included.
    with ctrl_c_exits_at_once(INTERRUPTED):
        args = build_parser().parse_args(argv)
        gtp_out = sys.stdout
        sys.stdout = sys.stderr   # stray prints from libraries must not corrupt GTP
        if args.margin < 0:
            log('goengine: --margin must be >= 0')
            return 2
        if args.strength is not None:
            status = apply_strength(args)
            if status is not None:
                return status
        if args.temperature is not None and not args.policy_only:
            log('goengine: --temperature is for the policy player: add --policy-only')
            return 2

        from goengine.gtp import engine, protocol
        from goengine.gtp.timecontrol import TimeManager
        from goengine.rollout.rollout_weights import RolloutLoadError

        spec = engine_spec.spec_from_args(args, log)
        if spec is None:
            return 2
        if args.verbose:
            log(f'goengine: engine {spec.describe()}')
        try:   # read once, now: a bad file fails at start-up, not mid-game
            rollout = loading.load_rollout(
                loading.resolve(args.rollout_weights) if args.rollout_weights else None, log)
        except RolloutLoadError as exc:
            log(f'goengine: error: cannot load rollout policy: {exc}')
            return 2
    workers = None
    if args.cluster or args.rollout_workers or args.network_workers:
        workers = start_cluster(args, spec, rollout, log)
        if workers is None:
            return 2
    # On a cluster, Ctrl-C stays an exception so that Ray's processes are shut down.
    with ctrl_c_exits_at_once(INTERRUPTED) if workers is None else nullcontext():
        try:
            engine_player = engine_spec.build_engine(spec, log, rollout=rollout, cluster=workers)
        except engine_spec.BuildError as exc:
            log(f'goengine: {exc}')
            return 2
        except Exception as exc:   # NetworkLoadError, or torch failing on a strange file
            log(f'goengine: error: cannot load network: {exc}')
            log('goengine: pass --weights FILE, or --weights none for a random test player')
            return 2
    engine_player.verbose = args.verbose

    clock = TimeManager(time_per_move=args.time_per_move, margin=args.margin,
                        playouts=args.playouts or None)
    gtp_engine = engine.GtpEngine(player=engine_player, clock=clock, verbose=args.verbose,
                                  log=log, ponder=args.ponder)
    return protocol.serve(gtp_engine, in_fd=sys.stdin.fileno(), out=gtp_out)


def apply_strength(args):
    """Set the play flags of the --strength level (players/strength.py) on `args`, which
    must not set them itself; an exit status when the engine is not to run."""
    from goengine.players import strength
    if args.strength.strip().lower() == 'list':
        log(strength.table())
        return 0
    taken = [flag for flag, given in (('--policy-only', args.policy_only),
                                      ('--temperature', args.temperature is not None),
                                      ('--playouts', args.playouts is not None),
                                      ('--weights', args.weights is not None),
                                      ('--search-mode', args.search_mode is not None),
                                      ('--network', args.network not in
                                       (loading.AUTO, strength.LEVEL_NETWORK)))
             if given]
    if taken:
        log(f'goengine: error: --strength sets its own play: drop {", ".join(taken)}')
        return 2
    try:
        level, note = strength.level_for(args.strength)
    except ValueError as exc:
        log(f'goengine: error: --strength: {exc}')
        return 2
    if note:
        log(f'goengine: {note}')
    log(f'goengine: strength {level.describe()}')
    args.network = strength.LEVEL_NETWORK
    args.policy_only = level.policy_only
    args.temperature = level.temperature
    args.playouts = level.playouts
    args.search_mode = level.search_mode
    return None


def start_cluster(args, spec, rollout, log):
    """The distributed search's workers (cluster.Workers) for the engine `spec`, or None
    after one line saying why there are none. Ray is imported here only."""
    from goengine.programs import cluster
    if spec.player is not PlayerKind.SEARCH:
        log('goengine: error: --cluster serves the search: not with --policy-only or '
            '--weights none')
        return None
    try:
        ray = cluster.connect(args.cluster)
        resources = ray.cluster_resources()
        rollouts = (args.rollout_workers if args.rollout_workers is not None
                    else max(1, int(resources.get('CPU', 0)) - 2))
        networks = (args.network_workers if args.network_workers is not None
                    else int(resources.get('GPU', 0)))
        return cluster.Workers(ray, rollout, rollouts, spec.weights, networks, log,
                               precision=args.precision, backend=args.backend)
    except cluster.ClusterError as exc:
        log(f'goengine: error: {exc}')
        return None


def run():
    """The console script's entry point."""
    sys.exit(main())
