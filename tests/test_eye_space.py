"""Eyes as the scorer's seki check reads them: which eye spaces make one eye at
most with the attacker to play (the nakade shapes, for false sekis), and chains
that share an eye read as one group."""

from pathlib import Path

import pytest

from goengine.game import coords
from goengine.rollout.scoring import eye_linked, one_eye_at_most, seki_partners


def space(*rows):
    """Points of the 'x's in rows drawn top row first, on a 19x19 board's lower edge."""
    size = 19
    return {(len(rows) - 1 - r) * size + c
            for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == 'x'}


@pytest.mark.parametrize('name, shape, dies', [
    ('one', ['x'], True),
    ('two', ['xx'], True),
    ('straight three', ['xxx'], True),
    ('bent three', ['x.', 'xx'], True),
    ('square four', ['xx', 'xx'], True),
    ('pyramid four', ['.x.', 'xxx'], True),
    ('straight four', ['xxxx'], False),
    ('bent four', ['x..', 'xxx'], False),
    ('zigzag four', ['.xx', 'xx.'], False),
    ('bulky five', ['xx.', 'xxx'], True),
    ('crossed five', ['.x.', 'xxx', '.x.'], True),
    ('straight five', ['xxxxx'], False),
    ('T five', ['xxx', '.x.', '.x.'], False),
    ('rectangular six', ['xxx', 'xxx'], False),
])
def test_nakade_shapes(name, shape, dies):
    assert one_eye_at_most(space(*shape), 19) == dies, name


def test_two_chains_around_one_eye_are_one_group():
    """Handicap-7 game 16's last board: White's F2-H3 and the lone G1 share the eye G2
    and the liberty F1 with Black's 20 stones, whose one eye is G5. Neither side can
    play F1 without being taken, so both sides are in seki (GNU Go lists these 26
    stones as seki: tests/test_scoring_gnugo.py), though G1 alone has an eye it
    shares with another chain."""
    from goengine.game.sgffile import parse_game
    from goengine.game.state import from_record
    path = Path(__file__).parent / "games" / "handicap-7-passed-while-lost.sgf"
    board = from_record(parse_game(path.read_text())).board
    at = {v: coords.from_gtp(v.lower(), 19) for v in ("D1", "F1", "G1", "G2", "G5", "F3")}
    white, liberties = eye_linked(board, at["G1"])
    assert white == set(board.chain_stones(at["F3"])) | {at["G1"]} and len(white) == 6
    assert liberties == {at["F1"], at["G2"]}
    black, black_liberties = eye_linked(board, at["D1"])
    assert len(black) == 20 and black_liberties == {at["F1"], at["G5"]}
    assert set(seki_partners(board, at["G1"], black_liberties)) == black
    assert set(seki_partners(board, at["D1"], liberties)) == white
    board.play(at["F1"], board.color_at(at["D1"]))       # Black fills the shared liberty:
    assert seki_partners(board, at["G1"]) == []          # White takes 21 stones at G5
