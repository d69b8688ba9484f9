#!/usr/bin/env python3
"""goengine's GTP engine from a checkout: `python gtp_main.py [options]`, the same program as
the `goengine` console script (goengine/programs/gtp_main.py)."""

import signal
import sys

signal.signal(signal.SIGINT, lambda *_: sys.exit(130))   # Ctrl-C while Python loads: quiet
from goengine.programs.gtp_main import build_parser, main, search_config  # noqa: E402,F401
signal.signal(signal.SIGINT, signal.default_int_handler)  # from here main() says it in one line

if __name__ == '__main__':
    sys.exit(main())
