#!/usr/bin/env python3
"""goengine's GTP engine from a checkout: `python gtp_main.py [options]`, the same program as
the `goengine` console script (goengine/programs/gtp_main.py)."""

import sys

from goengine.programs.gtp_main import build_parser, main, search_config  # noqa: F401

if __name__ == '__main__':
    sys.exit(main())
