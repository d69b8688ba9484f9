"""Dead stones and final scores against GNU Go and the recorded results of real counted games."""

from pathlib import Path

import pytest

from tests.programs import tool

from tests.test_ladders_gnugo import GNUGO, HELD_OUT
from goengine.players.decision import genmove

scoring_vs_gnugo = tool("scoring_vs_gnugo")


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_rollout_policy_judges_dead_stones_like_gnugo():
    if not HELD_OUT.exists():
        pytest.skip("game records not found")
    differences = []
    t = scoring_vs_gnugo.compare(str(HELD_OUT), 20, playouts=200, seed=7, gnugo_path=GNUGO,
                                 differences=differences)
    assert t["games"] == 20 and t["stones"] > 4000
    rollout, light = t["rollout"], t["light"]
    for name in ("light", "rollout"):    # each board not scored as GNU Go did is listed
        mine = [d for d in differences if d.judge == name]
        assert sum(bool(d.dead_ours or d.dead_theirs) for d in mine) == 20 - t[name]["exact"]
        assert sum(len(d.seki_ours) for d in mine) == t[name]["seki"] - t[name]["seki_both"]
    assert rollout["stones"] / t["stones"] >= 0.99
    assert rollout["stones"] >= light["stones"]
    assert rollout["winner"] >= 18          # the recorded winner, counted by territory


GAMES = Path(__file__).parent / "games"


def final_board_and_verdict(name):
    """The final board of tests/games/<name> and GNU Go's (dead, seki, margin) on it."""
    from goengine.game.sgffile import parse_game
    from goengine.game.state import from_record
    board = from_record(parse_game((GAMES / name).read_text())).board
    gnugo = scoring_vs_gnugo.GnuGo(GNUGO, ("--chinese-rules",))
    try:
        return board, scoring_vs_gnugo.gnugo_verdict(gnugo, board)
    finally:
        gnugo.close()


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
@pytest.mark.parametrize("name, seki_stones", [
    ("seki-in-a-finished-game.sgf", 26),      # a seki that playouts break
    ("seki-broken-by-a-capture.sgf", 0),      # no seki: White captures T17 and lives
    ("handicap-7-passed-while-lost.sgf", 26),  # White's two chains around one eye, G2
])
def test_seki_is_scored_like_gnugo(name, seki_stones):
    """Final positions of our games: dead stones, seki stones and the score as
    GNU Go's reading has them."""
    from goengine.rollout import scoring
    from goengine.rollout.rollout_weights import DEFAULT_PATH, load
    board, (their_dead, their_seki, their_margin) = final_board_and_verdict(name)
    assert len(their_seki) == seki_stones
    for rollout in (None, load(DEFAULT_PATH)):
        dead, seki = scoring.stone_status(board, rollout=rollout)
        assert (set(dead), set(seki)) == (their_dead, their_seki)
        assert scoring.final_score(board, dead) == their_margin


HANDICAP_GAME = GAMES / "handicap-3-counted.sgf"


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_a_handicap_game_is_counted_like_gnugo_under_chinese_rules():
    """GNU Go (--chinese-rules) gives White a point for each handicap stone;
    so do we: the engine's final_score on a 3-stone game of ours equals GNU Go's."""
    from goengine.game import coords
    from goengine.game.state import from_record
    from goengine.gtp.engine import GtpEngine
    from goengine.players.policy_player import SimplePlayer
    from goengine.game.sgffile import parse_game
    game = from_record(parse_game(HANDICAP_GAME.read_text()))
    assert game.handicap == 3 and game.komi == 0.5
    engine = GtpEngine(SimplePlayer(seed=1), game, log=lambda m: None)
    ours = engine.handle("final_score").strip().lstrip("= ")
    gnugo = scoring_vs_gnugo.GnuGo(GNUGO, ("--chinese-rules",))
    try:       # as tools/match.py sets up its referee (GNU Go's loadsgf adds nothing)
        gnugo.send("boardsize 19")
        gnugo.send("komi 0.5")
        gnugo.send("fixed_handicap 3")
        for color, move in game.moves:
            gnugo.send(f"play {'bw'[color - 1]} {coords.to_gtp(move, 19)}")
        theirs = gnugo.send("final_score")
    finally:
        gnugo.close()
    assert ours == theirs == "W+14.5"


FALSE_SEKI = GAMES / "false-seki-killed-by-a-throw-in.sgf"
CORNER = "T5 T4 T3 S3 R3 S2 R2 Q2 Q1".split()     # White's nine around Black's S1 T1


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_a_false_seki_is_dead_as_gnugo_says():
    """A 5-stone game of ours against GNU Go (docs/matches/2026-11.tar/2026-11-25-gnugo10-handicap5-zen4,
    game 20): White's nine stones T5-Q1 have no eye and share their last liberties R1 and
    T2 with Black's S1 T1. Neither side can play there without going into atari, which
    looks like a seki, but Black throws in at R1, White must take the three, and Black's
    stone on the vital point S1 of the three-point space leaves White two liberties it
    cannot fill (sgfmill's board plays it out). GNU Go 3.8 calls the nine dead and counts
    B+17.5; so do we."""
    from sgfmill import sgf, sgf_moves
    from goengine.game import coords
    from goengine.game.state import from_record
    from goengine.gtp.engine import GtpEngine
    from goengine.players.policy_player import SimplePlayer
    from goengine.rollout import scoring
    from goengine.rollout.rollout_weights import DEFAULT_PATH, load
    from goengine.game.sgffile import parse_game

    final, plays = sgf_moves.get_setup_and_moves(
        sgf.Sgf_game.from_bytes(FALSE_SEKI.read_bytes()))
    for colour, move in plays:
        if move:
            final.play(*move, colour)
    rowcol = lambda v: coords.to_rowcol(coords.from_gtp(v.lower(), 19), 19)   # noqa: E731
    corner = [rowcol(v) for v in CORNER]
    for colour, other in (("b", "w"), ("w", "b")):       # looks like a seki
        for liberty, last in (("R1", "T2"), ("T2", "R1")):
            b = final.copy()
            b.play(*rowcol(liberty), colour)
            b.play(*rowcol(last), other)
            assert b.get(*rowcol(liberty)) is None, (colour, liberty)     # captured
    b = final.copy()
    b.play(*rowcol("R1"), "b")                          # the throw-in
    b.play(*rowcol("T2"), "w")                          # White must take the three
    assert all(b.get(*rowcol(v)) is None for v in ("R1", "S1", "T1"))
    b.play(*rowcol("S1"), "b")                          # the vital point
    for inside, capture in (("R1", "T1"), ("T1", "R1")):
        after = b.copy()
        after.play(*rowcol(inside), "w")
        after.play(*rowcol(capture), "b")
        assert all(after.get(*p) is None for p in corner), inside      # White is taken

    game = from_record(parse_game(FALSE_SEKI.read_text()))
    gnugo = scoring_vs_gnugo.GnuGo(GNUGO, ("--chinese-rules",))
    try:
        their_dead, their_seki, their_margin = scoring_vs_gnugo.gnugo_verdict(gnugo, game.board)
    finally:
        gnugo.close()
    nine = {coords.from_gtp(v.lower(), 19) for v in CORNER}
    assert nine <= their_dead and not their_seki and their_margin == 17.5
    for rollout in (None, load(DEFAULT_PATH)):
        dead, seki = scoring.stone_status(game.board, rollout=rollout)
        assert (set(dead), seki) == (their_dead, [])
    engine = GtpEngine(SimplePlayer(seed=1), game, log=lambda m: None)
    assert engine.handle("final_score").strip().lstrip("= ") == "B+17.5"


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
@pytest.mark.parametrize("name", ["seki-in-a-finished-game.sgf", "handicap-3-counted.sgf"])
def test_a_finished_game_is_counted_beyond_doubt_for_gnu_gos_winner(name):
    """On finished boards, sekis included, no point outside a seki is in doubt: the
    count names GNU Go's winner beyond doubt, so the winner may answer a pass."""
    from goengine import BLACK, WHITE
    from goengine.programs.loading import load_rollout
    from goengine.rollout.scoring import Scorer
    board, (_, _, their_margin) = final_board_and_verdict(name)
    count = Scorer(load_rollout()).count(board)
    assert count.winner_beyond_doubt() == (BLACK if their_margin > 0 else WHITE)


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_no_pass_answers_a_pass_on_a_board_gnu_go_counts_against_us():
    """7 stones to GNU Go, game 16 (docs/matches/2026-11.tar/2026-11-25-gnugo10-handicap7-zen3): GNU Go
    passed at move 314 and we, White, passed too; GNU Go's reading has White groups dead
    and Black far ahead. Our search scores a game's end with every stone alive and saw
    a sure win; the count, dead stones removed, must stop the pass."""
    from goengine import PASS, WHITE
    from goengine.game.sgffile import parse_game
    from goengine.game.state import from_record
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.programs.loading import load_rollout
    from goengine.search.limits import SearchLimits
    path = GAMES / "handicap-7-passed-while-lost.sgf"
    record = parse_game(path.read_text())
    game = from_record(record, 315)          # before move 315: GNU Go has just passed
    assert game.last_move == (record.moves[-2][0], PASS) and game.to_move == WHITE
    gnugo = scoring_vs_gnugo.GnuGo(GNUGO, ("--chinese-rules",))
    try:
        gnugo.send(f"loadsgf {path} 315")
        dead = gnugo.send("final_status_list dead").split()
        verdict = gnugo.send("final_score")
    finally:
        gnugo.close()
    assert len(dead) > 20 and verdict.startswith("B+")
    player = load_player(PlayerKind.SEARCH, rollout=load_rollout(), resign_threshold=0)
    try:
        assert player.count_winner(game, WHITE) != WHITE
        assert genmove(player, game.copy(), WHITE, SearchLimits(1.0)) != PASS
    finally:
        player.close()


@pytest.mark.skipif(GNUGO is None, reason="GNU Go is not installed (apt-get install gnugo)")
def test_the_chains_the_playouts_leave_in_doubt_are_set_beside_the_head_and_gnugo():
    """Handicap-7 game 6 (the k=96 engine as White): GNU Go reads White's corner stones
    A2 B3 B4 C2 dead (Black A3 kills, and White to move cannot live); the rollouts leave
    them in doubt, alive by a little, and the ownership head is sure they are dead."""
    from goengine.game import coords
    from goengine.programs import loading
    heads = loading.evaluator(str(GAMES.parent.parent / "weights" / "heads-k96.pt"), "ownership",
                              threads=1)
    doubtful = []
    t = scoring_vs_gnugo.compare(str(GAMES / "dead-corner-the-playouts-misread.sgf"), 1,
                                 playouts=200, seed=7, gnugo_path=GNUGO, heads=heads,
                                 doubtful=doubtful)
    assert t["games"] == 1
    corner = {coords.from_gtp(v, 19) for v in ("A2", "B4", "C2")}   # B3 is B4's chain
    chains = [c for c in doubtful if c.point in corner or c.point == coords.from_gtp("B3", 19)]
    assert sorted(c.stones for c in chains) == [1, 1, 2]
    assert all(c.dead and 0 < c.playouts < 0.5 and c.head <= -0.5 for c in chains)
    assert scoring_vs_gnugo.doubt_report(doubtful)[0].startswith(f"{len(doubtful)} chains")
    right = {name: chains for name, (chains, _) in scoring_vs_gnugo.doubt_scores(doubtful).items()}
    assert right["head where >= 0.5"] >= right["playouts"] + 3
