"""What eval_policy.py and eval_value.py share: their command line, the network
loading and the one position drawn from each game, so both tools take the same
flags and fail the same way."""

import argparse
import sys

from goengine.nn import netfile
from goengine.programs import loading
from training.dataset import SPLIT_HELP, split_files
from training.sampler import game_examples


def parse_args(doc, kind, default_limit, argv=None, add_arguments=None):
    """The common flags; `add_arguments(parser)` adds a tool's own."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0], epilog=SPLIT_HELP,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--weights", required=True,
                        help=f"{kind} network file, or a four-headed one (save_network)")
    parser.add_argument("--sgf", nargs="+",
                        help="SGF files, .sgfs(.gz) collections or folders "
                             "(default: the held-out validation files)")
    parser.add_argument("--limit", type=int, default=default_limit,
                        help="number of games (0: all)")
    parser.add_argument("--threads", type=int, default=2)
    loading.add_device_flag(parser)
    loading.add_backend_flag(parser)   # --precision and --backend, as the engine's
    parser.add_argument("--fp32", action="store_true", help="the same as --precision fp32")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args(argv)
    args.sgf = args.sgf or split_files(split="val")
    return args


def load_evaluator(args, kind):
    """(model, NetworkEvaluator) for --weights: a `kind` network, or a four-headed one
    (nets.HeadsNet) read through its `kind` head, run as --precision and --backend say
    (the engine's runtime, named on stderr); a bad file or runtime exits with its one-line
    error."""
    from goengine.nn import backends, int8
    precision = "fp32" if args.fp32 else getattr(args, "precision", "auto")
    try:
        model = netfile.load_network(args.weights, head=kind)
        runtime = backends.pick_runtime(precision, getattr(args, "backend", "auto"),
                                        args.device)
        evaluator = backends.make_evaluator(model, runtime, threads=args.threads,
                                            device=args.device, weights=args.weights,
                                            log=lambda line: print(line, file=sys.stderr))
    except (netfile.NetworkLoadError, backends.BackendError, int8.Int8Error) as exc:
        raise SystemExit(str(exc))
    described = evaluator.describe()
    print(f"{args.weights}: {described.backend} {described.precision} on {described.device}",
          file=sys.stderr)
    return model, evaluator


def sampled_example(maker, game, rng):
    """(planes, target, phase 0/1/2, move index) at one random eligible move of `game`, or None."""
    eligible = maker.eligible(game)
    if not eligible:
        return None
    pick = int(rng.choice(eligible))
    examples = game_examples(maker, game, [pick], [0])
    if not examples:   # the record broke before that move
        return None
    planes, target = examples[0]
    return planes, target, min(2, 3 * pick // len(game.moves)), pick
