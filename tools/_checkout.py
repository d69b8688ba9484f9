"""Puts the checkout this tool lives in first on sys.path.

Python puts a script's own folder (tools/) first, so without this `goengine`,
`harness` and `training` would come from wherever `pip install -e .` pointed,
perhaps another checkout, and a match run from a second checkout would start
the first one's engine. Every tool imports this before those packages.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))
