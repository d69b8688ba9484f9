"""goengine: a Go engine in the shape of AlphaGo (Nature 2016)."""

from goengine._board import Board, IllegalMove

EMPTY, BLACK, WHITE = 0, 1, 2
PASS = -1


def opponent(color):
    return BLACK + WHITE - color


__all__ = ["Board", "IllegalMove", "EMPTY", "BLACK", "WHITE", "PASS", "opponent"]
