"""Network inputs: AlphaGo's 48 policy planes and 49 value planes, batches of
them, and the 8 symmetries of the board used for augmentation and search.

The planes themselves are computed in Cython (goengine/nn/_features.pyx).
"""

import numpy as np

from goengine.nn._features import (  # noqa: F401  (re-exported plane indices)
    CAPTURE_SIZE, LADDER_CAPTURE, LADDER_ESCAPE, LIBERTIES, LIBERTIES_AFTER,
    NUM_POLICY_PLANES, NUM_VALUE_PLANES, ONES, PLAYER_COLOR, SELF_ATARI_SIZE,
    SENSIBLENESS, STONE_EMPTY, STONE_OPPONENT, STONE_OWN, TURNS_SINCE, ZEROS,
    policy_planes, value_planes,
)

NUM_SYMMETRIES = 8


def input_planes(board, count, out=None):
    """The planes a network with `count` input planes reads: the 49 value planes (a
    value or four-headed network), else the 48 policy planes."""
    if count == NUM_VALUE_PLANES:
        return value_planes(board, out)
    return policy_planes(board, out)


def _batch(boards, num_planes, fill):
    if not boards:
        raise ValueError("a batch needs at least one board")
    size = boards[0].size
    out = np.zeros((len(boards), num_planes, size, size), dtype=np.uint8)
    for i, board in enumerate(boards):
        fill(board, out[i])
    return out


def policy_planes_batch(boards):
    """(N, 48, size, size) uint8 planes for a list of boards of one size."""
    return _batch(boards, NUM_POLICY_PLANES, policy_planes)


def value_planes_batch(boards):
    """(N, 49, size, size) uint8 planes for a list of boards of one size."""
    return _batch(boards, NUM_VALUE_PLANES, value_planes)


def input_planes_batch(boards, count):
    """input_planes for a list of boards of one size: (N, count, size, size) uint8."""
    if count == NUM_VALUE_PLANES:
        return value_planes_batch(boards)
    return policy_planes_batch(boards)


def apply_symmetry(planes, k):
    """Symmetry k (0..7) of the board on the last two axes: k & 4 transposes,
    then k & 3 quarter turns.  k = 0 is the identity."""
    if not 0 <= k < NUM_SYMMETRIES:
        raise ValueError(f"symmetry must be 0..7, not {k}")
    if k & 4:
        planes = np.swapaxes(planes, -1, -2)
    return np.rot90(planes, k & 3, axes=(-2, -1))


def invert_symmetry(planes, k):
    """Undo apply_symmetry(planes, k) (e.g. on a policy map from the network)."""
    if not 0 <= k < NUM_SYMMETRIES:
        raise ValueError(f"symmetry must be 0..7, not {k}")
    planes = np.rot90(planes, -(k & 3), axes=(-2, -1))
    if k & 4:
        planes = np.swapaxes(planes, -1, -2)
    return planes


def symmetric_move(move, k, size):
    """Where move lands under apply_symmetry(..., k); PASS stays PASS."""
    if move < 0:
        return move
    grid = np.zeros((size, size), dtype=np.uint8)
    grid[move // size, move % size] = 1
    row, col = np.argwhere(apply_symmetry(grid, k))[0]
    return int(row) * size + int(col)
