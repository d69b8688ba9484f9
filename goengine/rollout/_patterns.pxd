# Local shape keys for the rollout and tree policies.
#
# Keys are exact codes, not lossy hashes: a few bits per surrounding point,
# so they can be rotated, mirrored and colour-swapped by shuffling bits.
#
#   3x3 key       8 neighbours x 3 bits, absolute colours:
#                 colour (EMPTY/BLACK/WHITE/BORDER) | ATARI_BIT for a stone in atari.
#                 Kept for every point incrementally by a PatternBoard.
#   diamond code  the 12 points at Manhattan distance 1-2 x 3 bits, relative to the
#                 player to move: D_EMPTY, D_BORDER, D_OWN + (1, 2, 3+ liberties) - 1,
#                 D_OPP + ... .  The 12-point non-response key of a candidate is its
#                 diamond code; a response key is the diamond code of the previous
#                 move, its liberties and the candidate's place in the diamond.

from libc.stdint cimport uint8_t, int16_t, uint32_t, uint64_t
from goengine._board cimport BoardState, MAX_POINTS

cdef enum:
    NUM_SYMMETRIES = 8
    ATARI_BIT = 4
    DIAMOND_POINTS = 12
    D_EMPTY = 0
    D_BORDER = 1
    D_OWN = 2              # 2, 3, 4: own stone with 1, 2, 3+ liberties
    D_OPP = 5              # 5, 6, 7: opponent stone with 1, 2, 3+ liberties
    RESPONSE_LIBS_SHIFT = 36
    RESPONSE_INDEX_SHIFT = 38

cdef inline uint64_t no_key() noexcept nogil:
    """No pattern here (all ones: no real key uses 64 bits)."""
    return <uint64_t>0xFFFFFFFFFFFFFFFF


ctypedef struct PatternBoard:
    # A board position plus the 3x3 key of every point, updated as stones change.
    BoardState* b
    int offset3[8]                  # point offsets of the 3x3 neighbours, in key order
    uint8_t state[MAX_POINTS]       # point_state() as the keys currently know it
    uint32_t key3[MAX_POINTS]       # absolute-colour 3x3 key of every point
    int num_changed                 # points whose key3 or occupancy the last move changed
    int16_t changed[MAX_POINTS]
    uint8_t is_changed[MAX_POINTS]
    int num_captured                # stones the last move captured
    int16_t captured[MAX_POINTS]


cdef uint8_t point_state(const BoardState* b, int q) noexcept nogil
cdef uint32_t key3_of(const BoardState* b, int p) noexcept nogil
cdef uint32_t flip_colors3(uint32_t key) noexcept nogil
cdef bint key3_forbidden(uint32_t key) noexcept nogil

cdef void pb_init(PatternBoard* pb, BoardState* b) noexcept nogil
cdef int pb_play(PatternBoard* pb, int p, int c) noexcept nogil

cdef int libs_class(const BoardState* b, int q) noexcept nogil
cdef uint64_t diamond_code(const BoardState* b, int p, int c) noexcept nogil
cdef int diamond_index(const BoardState* b, int centre, int p) noexcept nogil
cdef void diamond_points(const BoardState* b, int centre, int* points) noexcept nogil

cdef uint32_t sym_key3(uint32_t key, int s) noexcept nogil
cdef uint64_t sym_diamond(uint64_t code, int s) noexcept nogil
cdef uint64_t sym_response(uint64_t key, int s) noexcept nogil


cdef inline uint32_t mover_key3(uint32_t key, int c) noexcept nogil:
    """The key as if the player to move c were black."""
    return key if c == 1 else flip_colors3(key)


cdef inline uint64_t response_context(uint64_t key) noexcept nogil:
    """A response key without the candidate's index: what the previous move shows."""
    return key & ((<uint64_t>1 << RESPONSE_INDEX_SHIFT) - 1)


cdef inline uint64_t response_key(uint64_t diamond, int centre_libs, int j) noexcept nogil:
    return diamond | (<uint64_t>centre_libs << RESPONSE_LIBS_SHIFT) | \
        (<uint64_t>j << RESPONSE_INDEX_SHIFT)
