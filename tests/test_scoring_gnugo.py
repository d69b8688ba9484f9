"""Dead stones and final scores against GNU Go and the recorded results of real counted games."""

from pathlib import Path

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


SEKI_GAME = Path(__file__).parent / "games" / "seki-in-a-finished-game.sgf"


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_a_seki_is_scored_like_gnugo():
    """A game of ours that ended in a seki of 26 stones, which playouts break:
    dead stones, seki stones and the score as GNU Go's reading has them."""
    from goengine import scoring
    from goengine.game import from_record
    from goengine.rollout_weights import DEFAULT_PATH, load
    from goengine.sgffile import parse_game
    board = from_record(parse_game(SEKI_GAME.read_text())).board
    gnugo = scoring_vs_gnugo.GnuGo(GNUGO, ("--chinese-rules",))
    try:
        their_dead, their_seki, their_margin = scoring_vs_gnugo.gnugo_verdict(gnugo, board)
    finally:
        gnugo.close()
    assert len(their_seki) == 26
    for rollout in (None, load(DEFAULT_PATH)):
        dead, seki = scoring.stone_status(board, rollout=rollout)
        assert (set(dead), set(seki)) == (their_dead, their_seki)
        assert scoring.final_score(board, dead) == their_margin
