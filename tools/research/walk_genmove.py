#!/usr/bin/env python3
"""Which modules one genmove walks through, and how often it enters each.

The GTP engine answers `genmove b` on the empty board with the search (sl.pt, a few
playouts); every call on the main thread that enters a goengine file from another file
counts one visit to that file. How many times genmove comes back to the player and the
decision is a measure of how tangled they are (docs/LAYOUT.md):

    .venv/bin/python tools/research/walk_genmove.py --playouts 50
"""

import argparse
import collections
import sys
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.gtp.engine import GtpEngine
from goengine.gtp.timecontrol import TimeManager
from goengine.programs import engine_spec, gtp_main

PACKAGE = str(Path(_checkout.ROOT) / 'goengine')


def walk(engine, command):
    """{file: visits} while the engine answers `command`, in the order first entered."""
    visits = collections.Counter()

    def profile(frame, event, arg):
        if event != 'call':
            return
        callee = frame.f_code.co_filename
        caller = frame.f_back.f_code.co_filename if frame.f_back else ''
        if callee.startswith(PACKAGE) and callee != caller:
            visits[callee[len(PACKAGE) - len('goengine'):]] += 1

    sys.setprofile(profile)
    try:
        engine.handle(command)
    finally:
        sys.setprofile(None)
    return visits


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--playouts', type=int, default=50)
    p.add_argument('--flags', default='--weights weights/sl.pt --precision fp32',
                   help="gtp_main's flags for the engine (default: %(default)s)")
    args = p.parse_args(argv)
    flags = gtp_main.build_parser().parse_args(args.flags.split())
    spec = engine_spec.spec_from_args(flags, lambda line: None)
    player = engine_spec.build_engine(spec, lambda line: None)
    engine = GtpEngine(player=player, clock=TimeManager(playouts=args.playouts),
                       log=lambda line: None)
    try:
        engine.handle('genmove b')   # warm: the first network call compiles
        visits = walk(engine, 'genmove w')
    finally:
        player.close()
    for path, count in visits.items():
        print(f'{count:4d}  {path}')


if __name__ == '__main__':
    main()
