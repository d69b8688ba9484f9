"""Ladder planes against GNU Go's ladder reader on real 9-dan positions."""

import os
import shutil

import pytest

from tests.programs import tool

from tests.conftest import DATA_DIR

GNUGO = shutil.which("gnugo") or ("/usr/games/gnugo" if os.path.exists("/usr/games/gnugo") else None)
HELD_OUT = DATA_DIR / "tygem-9d-2016-12.sgfs.gz"


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_ladders_agree_with_gnugo():
    if not HELD_OUT.exists():
        pytest.skip("game records not found")
    agree, total, _ = tool("ladder_vs_gnugo").compare(str(HELD_OUT), 150, seed=3, gnugo_path=GNUGO)
    assert total > 1000
    assert agree / total >= 0.98
