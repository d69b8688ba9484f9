#!/usr/bin/env python3
"""goengine's GTP engine from a checkout: `python gtp_main.py [options]`, the same program as
the `goengine` console script (goengine/programs/gtp_main.py)."""

import os
import signal
import sys


def _interrupted_while_loading(signum, frame):
    """Ctrl-C while Python imports the engine: one line and status 130. Raising instead
    (sys.exit, KeyboardInterrupt) inside an import can surface as another module's error."""
    os.write(2, b'goengine: interrupted\n')
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted_while_loading)
from goengine.programs.gtp_main import build_parser, main  # noqa: E402,F401
signal.signal(signal.SIGINT, signal.default_int_handler)  # from here main() says it in one line

if __name__ == '__main__':
    sys.exit(main())
