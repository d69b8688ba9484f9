# The board's C layer, shared by the features, the rollouts and the search.
#
# A position is a plain C struct so that copying it is a handful of memcpy
# calls and every hot routine can run without the GIL.  Points are indices
# into a (size + 2)^2 array with a one-point border, so neighbours are
# p +- 1 and p +- stride and never need bounds checks.

from libc.stdint cimport uint64_t, int8_t, int16_t, int32_t

cdef enum:
    EMPTY = 0
    BLACK = 1
    WHITE = 2
    BORDER = 3
    MAX_SIZE = 25
    MAX_STRIDE = 27
    MAX_POINTS = 729          # MAX_STRIDE ** 2
    PASS_POINT = 0            # point 0 is always border, so it can mean "pass"
    NO_POINT = 0

ctypedef struct BoardState:
    int size
    int stride
    int num_points            # stride * stride: the used prefix of every array
    int to_move
    int ko                    # point the ko-forbidden colour may not play, or NO_POINT
    int ko_color              # the colour that may not retake at ko
    int move_number           # moves played so far, passes included
    int passes                # consecutive passes at the end of the game
    int last_move             # PASS_POINT after a pass or at the start
    int last_move2
    int num_empty
    int captures[3]           # stones captured by BLACK / WHITE
    uint64_t hash             # Zobrist hash of the stones only (positional superko)
    int8_t color[MAX_POINTS]
    int16_t head[MAX_POINTS]      # chain id (a stone of the chain) for every stone, 0 elsewhere
    int16_t next_stone[MAX_POINTS]  # circular list of a chain's stones
    int16_t libs[MAX_POINTS]      # liberty count, valid at chain heads
    int16_t num_stones[MAX_POINTS]  # chain size, valid at chain heads
    int16_t empty_list[MAX_POINTS]  # the empty points, in no particular order
    int16_t empty_index[MAX_POINTS]  # position of an empty point in empty_list
    int32_t played_at[MAX_POINTS]   # move_number when the stone was placed

cdef void board_clear(BoardState* b, int size) noexcept nogil
cdef void copy_state(BoardState* dst, const BoardState* src) noexcept nogil
cdef bint is_legal(const BoardState* b, int p, int c) noexcept nogil
cdef int play_move(BoardState* b, int p, int c) noexcept nogil
cdef void place_setup_stone(BoardState* b, int p, int c) noexcept nogil
cdef uint64_t hash_after(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_eyeish(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_true_eye(const BoardState* b, int p, int c) noexcept nogil
cdef int libs_after_move(const BoardState* b, int p, int c, int cap,
                         int* captured, int* chain_size) noexcept nogil
cdef bint is_ladder_capture(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_ladder_escape(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_dead_ladder_extension(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_failing_ladder_chase(const BoardState* b, int p, int c) noexcept nogil
cdef bint is_lost_ladder_move(const BoardState* b, int p, int c) noexcept nogil
cdef void area_owner(const BoardState* b, int8_t* owner) noexcept nogil
cdef void area_counts(const BoardState* b, int* black, int* white) noexcept nogil
cdef void add_area_owner(const BoardState* b, double* total) noexcept nogil
cdef bint is_ko_capture(const BoardState* b, int p, int c) noexcept nogil
cdef int play_random_move(BoardState* b, uint64_t* rng) noexcept nogil
cdef int random_playout(BoardState* b, uint64_t* rng, int max_moves) noexcept nogil


cdef inline int point_of(const BoardState* b, int row, int col) noexcept nogil:
    return (row + 1) * b.stride + col + 1


cdef inline bint contains_point(const int* pts, int n, int q) noexcept nogil:
    """Whether q is among the first n entries of pts (a short list of points or chains)."""
    cdef int i
    for i in range(n):
        if pts[i] == q:
            return True
    return False


cdef class Board:
    cdef BoardState st
    cdef uint64_t* seen_hashes     # every position so far, for positional superko
    cdef int seen_len
    cdef int seen_cap
    cdef public double komi
    cdef public bint superko
    cdef list _history

    cdef int _point(self, object move) except -1
    cdef object _move(self, int p)
    cdef int _color(self, object color) except -1
    cdef void _remember_position(self) noexcept
    cdef bint _repeats_position(self, uint64_t h) noexcept
