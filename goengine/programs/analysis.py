"""goengine-analysis: KataGo's analysis engine protocol, for KaTrain and the other tools
built on it (JSON queries on stdin, JSON answers on stdout, one a line).

    goengine-analysis [--network auto|small|large] [--visits 500]

Its queries, actions and answers are those of KataGo's docs/Analysis_Engine.md, counted
by area (goengine/analysis); what it says besides goes to stderr. The input's end
finishes the queries already read, then the program exits.
"""

import argparse
import os
import sys

from goengine.programs import engine_spec, loading
from goengine.programs.engine_spec import positive_int
from goengine.programs.interrupt import ctrl_c_exits_at_once


def build_parser():
    p = argparse.ArgumentParser(prog='goengine-analysis', description=__doc__.split('\n')[0],
                                epilog=__doc__.split('\n', 3)[3],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--visits', type=positive_int, default=500,
                   help="a query's maxVisits when it names none (KataGo's example config's "
                        "500; default: %(default)s)")
    loading.add_network_flags(p)
    p.add_argument('--value-weights', help='value network (default: the network\'s value head)')
    loading.add_device_flag(p)
    loading.add_backend_flag(p)
    engine_spec.add_search_flags(p)
    return p


def log(line):
    print(line, file=sys.stderr, flush=True)


INTERRUPTED = 'goengine-analysis: interrupted'


def main(argv=None):
    with ctrl_c_exits_at_once(INTERRUPTED):   # torch is imported while --device is parsed
        args = build_parser().parse_args(argv)
    out = sys.stdout
    sys.stdout = sys.stderr   # stray prints from libraries must not corrupt the answers
    from goengine.analysis.engine import AnalysisEngine
    spec = engine_spec.spec_from_args(args, log, engine_spec.PlayerKind.SEARCH)
    if spec is None:
        return 2
    try:
        with ctrl_c_exits_at_once(INTERRUPTED):
            player = engine_spec.build_engine(spec, log)
    except engine_spec.BuildError as exc:
        log(f'goengine-analysis: error: {exc}')
        return 2
    except Exception as exc:   # NetworkLoadError, Int8Error, torch failing on a strange file
        log(f'goengine-analysis: error: cannot load network: {exc}')
        return 2

    def write(text):
        out.write(text)
        out.flush()
    engine = AnalysisEngine(player, write, os.path.basename(spec.weights or 'none'),
                            default_visits=args.visits, log=log)
    log('goengine-analysis: ready')
    try:
        for line in sys.stdin:
            engine.feed(line)
        engine.finish()
    except KeyboardInterrupt:
        log('goengine-analysis: interrupted')
        return 130
    finally:
        player.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
