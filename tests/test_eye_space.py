"""Which eye spaces make one eye at most with the attacker to play (the nakade
shapes), as the scorer's false-seki check reads them."""

import pytest

from goengine.rollout.scoring import one_eye_at_most


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
