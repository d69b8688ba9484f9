"""What every GTP command family shares: the Family base (Minigo's handler families, one
a file), the engine's name and version, and the parsing of colours and vertices."""

from goengine import BLACK, PASS, WHITE, __version__
from goengine.game import coords
from goengine.game.moves import RESIGN
from goengine.gtp.protocol import GtpError

ENGINE_NAME = 'goengine'
ENGINE_VERSION = __version__   # 0.16 and up: Lizzie takes it for an analysis engine


def parse_color(text):
    color = {'b': BLACK, 'black': BLACK, 'w': WHITE, 'white': WHITE}.get(text.lower())
    if color is None:
        raise GtpError('syntax error')
    return color


def parse_vertex(text, size):
    """'D4'/'pass' -> move; GtpError('syntax error') for anything else."""
    try:
        move = coords.from_gtp(text.lower(), size)
    except (ValueError, TypeError, IndexError):
        raise GtpError('syntax error') from None
    if move != PASS and not 0 <= move < size * size:
        raise GtpError('syntax error')
    return move


def move_text(move, size):
    return 'resign' if move == RESIGN else coords.to_gtp(move, size)


# -- handler families -----------------------------------------------------

class Family:
    """A group of related handlers sharing the engine (game, player, clocks)."""

    def __init__(self, engine):
        self.engine = engine

    @property
    def game(self):
        return self.engine.game

    def commands(self):
        for attr in dir(type(self)):
            method = getattr(self, attr)
            name = getattr(method, 'gtp_name', None)
            if name:
                yield name, method
