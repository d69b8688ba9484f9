"""goengine: a Go engine in the shape of AlphaGo (Nature 2016)."""

import os

# The project's version, in GTP `version`, SGF AP[] and the package. Its minor number is
# 16 and up because Lizzie reads `version` as Leela Zero's and needs 0.15 or later.
__version__ = "0.16.0"

from goengine._board import Board, IllegalMove

# The folder that holds goengine/ and weights/ (the checkout, or where it is installed).
INSTALL_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

EMPTY, BLACK, WHITE = 0, 1, 2
PASS = -1


def opponent(color):
    return BLACK + WHITE - color


__all__ = ["__version__", "Board", "IllegalMove", "EMPTY", "BLACK", "WHITE", "PASS", "opponent", "INSTALL_DIR"]
