"""Dead stones and final scores against GNU Go and the recorded results of real counted games."""


import pytest

import scoring_vs_gnugo

from tests.test_ladders_gnugo import GNUGO, HELD_OUT


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_rollout_policy_judges_dead_stones_like_gnugo():
    if not HELD_OUT.exists():
        pytest.skip("game records not found")
    t = scoring_vs_gnugo.compare(str(HELD_OUT), 20, playouts=200, seed=7, gnugo_path=GNUGO)
    assert t["games"] == 20 and t["stones"] > 4000
    rollout, light = t["rollout"], t["light"]
    assert rollout["stones"] / t["stones"] >= 0.99
    assert rollout["stones"] >= light["stones"]
    assert rollout["winner"] >= 18          # the recorded winner, counted by territory
