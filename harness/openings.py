"""Openings a match starts its games from: the first moves of recorded games.

Two engines that play greedily (the raw policy at temperature 0) play the same game
every time they meet with the same colours; starting each pair of games from a
different opening of real games gives the match as many positions as it has games,
and each opening is played once with either colour, so that neither engine is
favoured by the openings drawn.
"""

from goengine import PASS
from goengine.game import sgffile
from goengine.game.state import GameError, from_record


def load_openings(path, moves, size=19, count=None):
    """The first `moves` moves, [(color, move)], of the even games in `path` (a file or
    folder sgffile reads) that have that many legal moves on this board size without a
    pass or a setup stone, in file order; `count` of them at most.

    Raises ValueError when `path` holds none such."""
    if moves < 1:
        raise ValueError(f'an opening needs at least one move, got {moves}')
    openings = []
    for game in sgffile.read_games(path):
        if count is not None and len(openings) >= count:
            break
        opening = game.moves[:moves]
        if (game.size != size or game.setup_black or game.setup_white
                or any(s[0] < moves for s in game.later_setup)
                or len(opening) < moves or any(m == PASS for _, m in opening)):
            continue
        try:
            from_record(game, moves + 1)    # our rules replay it (superko included)
        except GameError:
            continue
        openings.append(opening)
    if not openings:
        raise ValueError(f'{path}: no even {size}x{size} game of {moves} moves or more')
    return openings


def opening_for(number, openings):
    """Game `number`'s opening (numbers from 1): games 2k-1 and 2k share opening k,
    and colours alternate between them; the openings repeat past the last."""
    return openings[(number - 1) // 2 % len(openings)]
