# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""AlphaGo's 48 input planes (Extended Data Table 2), straight from the board's
C structures so a whole position takes microseconds, not milliseconds."""

from libc.string cimport memset
from libc.stdint cimport uint8_t

import numpy as np

from goengine._board cimport (
    Board, BoardState, EMPTY, BLACK, WHITE, point_of, is_legal,
    is_true_eye, libs_after_move, is_ladder_capture, is_ladder_escape,
)

# First plane of each feature, in the paper's order.
cdef enum:
    P_STONE_OWN = 0
    P_STONE_OPPONENT = 1
    P_STONE_EMPTY = 2
    P_ONES = 3
    P_TURNS_SINCE = 4          # 8 planes: 1, 2, ..., >= 8 moves ago
    P_LIBERTIES = 12           # 8 planes: 1 .. >= 8
    P_CAPTURE_SIZE = 20        # 8 planes: 0 .. >= 7 stones captured
    P_SELF_ATARI_SIZE = 28     # 8 planes: 1 .. >= 8 own stones left in atari
    P_LIBERTIES_AFTER = 36     # 8 planes: 1 .. >= 8
    P_LADDER_CAPTURE = 44
    P_LADDER_ESCAPE = 45
    P_SENSIBLENESS = 46        # legal and does not fill its own true eye
    P_ZEROS = 47
    P_PLAYER_COLOR = 48        # value network only: ones when black is to move

STONE_OWN = P_STONE_OWN
STONE_OPPONENT = P_STONE_OPPONENT
STONE_EMPTY = P_STONE_EMPTY
ONES = P_ONES
TURNS_SINCE = P_TURNS_SINCE
LIBERTIES = P_LIBERTIES
CAPTURE_SIZE = P_CAPTURE_SIZE
SELF_ATARI_SIZE = P_SELF_ATARI_SIZE
LIBERTIES_AFTER = P_LIBERTIES_AFTER
LADDER_CAPTURE = P_LADDER_CAPTURE
LADDER_ESCAPE = P_LADDER_ESCAPE
SENSIBLENESS = P_SENSIBLENESS
ZEROS = P_ZEROS
PLAYER_COLOR = P_PLAYER_COLOR

NUM_POLICY_PLANES = 48
NUM_VALUE_PLANES = 49


cdef inline int _clamp(int v, int lo, int hi) noexcept nogil:
    return lo if v < lo else hi if v > hi else v


cdef void fill_planes(const BoardState* b, uint8_t* out, bint player_plane) noexcept nogil:
    """Write the planes for the side to move into out (planes x size x size, zeroed)."""
    cdef int n = b.size, area = n * n, row, col, i, p, c = b.to_move, opp = 3 - c
    cdef int cell, libs, captured, chain_size
    for row in range(n):
        for col in range(n):
            i = row * n + col
            p = point_of(b, row, col)
            cell = b.color[p]
            out[P_ONES * area + i] = 1
            if player_plane and c == BLACK:
                out[P_PLAYER_COLOR * area + i] = 1
            if cell != EMPTY:
                out[(P_STONE_OWN if cell == c else P_STONE_OPPONENT) * area + i] = 1
                out[(P_TURNS_SINCE + _clamp(b.move_number - b.played_at[p] + 1, 1, 8) - 1) * area + i] = 1
                out[(P_LIBERTIES + _clamp(b.libs[b.head[p]], 1, 8) - 1) * area + i] = 1
                continue
            out[P_STONE_EMPTY * area + i] = 1
            if not is_legal(b, p, c):
                continue
            libs = libs_after_move(b, p, c, 8, &captured, &chain_size)
            out[(P_CAPTURE_SIZE + _clamp(captured, 0, 7)) * area + i] = 1
            if libs == 1:
                out[(P_SELF_ATARI_SIZE + _clamp(chain_size, 1, 8) - 1) * area + i] = 1
            out[(P_LIBERTIES_AFTER + _clamp(libs, 1, 8) - 1) * area + i] = 1
            if is_ladder_capture(b, p, c):
                out[P_LADDER_CAPTURE * area + i] = 1
            if is_ladder_escape(b, p, c):
                out[P_LADDER_ESCAPE * area + i] = 1
            if not is_true_eye(b, p, c):
                out[P_SENSIBLENESS * area + i] = 1


def _planes(Board board, int count, out):
    cdef int n = board.st.size
    if out is None:
        out = np.zeros((count, n, n), dtype=np.uint8)
    elif out.shape != (count, n, n) or out.dtype != np.uint8:
        raise ValueError(f"out must be a uint8 array of shape {(count, n, n)}")
    else:
        out[...] = 0
    cdef uint8_t[:, :, ::1] view = out
    with nogil:
        fill_planes(&board.st, &view[0, 0, 0], count == 49)
    return out


def policy_planes(Board board, out=None):
    """The policy network's 48 planes, (48, size, size) uint8, for the side to move."""
    return _planes(board, NUM_POLICY_PLANES, out)


def value_planes(Board board, out=None):
    """The value network's 49 planes: the policy's 48 plus the player's colour."""
    return _planes(board, NUM_VALUE_PLANES, out)
