"""The points where a big group's fate is played out, for the search to try first.

In a short search the network evaluates a few dozen to a few thousand positions, and a
group whose life decides the game gets no more of them than any quiet move. A chain of
MIN_STONES or more whose ownership the network leaves unsure (its own colour's mean share
over its stones below SearchConfig.unsure_group_level) marks its liberties and the empty
points beside them, where its eyes, the vital point and the capturing race are; the root
gives each such move a prior of at least SearchConfig.unsure_group_floor
(Tree.floor_root_priors), so that the vital point is tried.
"""

from goengine import EMPTY
from goengine.rollout.scoring import chains, neighbours, own_share

MIN_STONES = 6      # the groups whose loss the engine's lost games were made of (issue 101)


def unsure_group_points(board, own, level, min_stones=MIN_STONES):
    """The liberties of every chain of `min_stones` or more that `own` (+1 Black, (size,
    size)) gives its own colour less than `level` of, and the empty points beside them;
    sorted."""
    size, stones = board.size, board.stones()
    points = set()
    for point, chain in chains(board):
        if len(chain) < min_stones:
            continue
        if abs(own_share(own, size, chain, stones)) >= level:
            continue
        liberties = board.chain_liberty_points(point)
        points.update(liberties)
        points.update(n for lib in liberties for n in neighbours(lib, size)
                      if stones[n // size, n % size] == EMPTY)
    return sorted(points)
