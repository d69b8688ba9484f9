# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Local shape keys (3x3 and 12-point diamond) and their symmetries.

A PatternBoard keeps the 3x3 key of every point up to date as stones come
and go: a point's key only changes when one of its eight neighbours changes
colour or falls into / out of atari, so after a move we diff the few chains
the move touched and XOR the changed 3-bit fields into the neighbours' keys.

Diamond keys (12 points with 1/2/3+ liberty classes) are cheap to compute
from scratch and are only needed around the previous move in a rollout, or
once per position for the tree priors, so they are not kept incrementally.
"""

from libc.stdint cimport uint8_t, int16_t, uint32_t, uint64_t

import numpy as np

from goengine._board cimport (
    Board, BoardState, EMPTY, BLACK, WHITE, BORDER, PASS_POINT,
    contains_point, copy_state, is_legal, play_move, point_of,
)

# Neighbour i of the 3x3 key, as (drow, dcol), going round the centre.
OFFSETS3 = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
DIAMOND = [(-2, 0), (-1, -1), (-1, 0), (-1, 1), (0, -2), (0, -1),
           (0, 1), (0, 2), (1, -1), (1, 0), (1, 1), (2, 0)]

cdef int perm3[8][8]            # perm3[s][i]: where field i goes under symmetry s
cdef int perm12[8][12]
cdef int diamond_at[5][5]       # diamond_at[dr + 2][dc + 2] -> index or -1


def transform(dr, dc, s):
    """Symmetry s (0..7) of an offset: optional transpose, then row/column flips."""
    if s & 4:
        dr, dc = dc, dr
    if s & 1:
        dr = -dr
    if s & 2:
        dc = -dc
    return dr, dc


cdef void _init_tables():
    cdef int s, i
    for s in range(8):
        for i in range(8):
            perm3[s][i] = OFFSETS3.index(transform(*OFFSETS3[i], s))
        for i in range(12):
            perm12[s][i] = DIAMOND.index(transform(*DIAMOND[i], s))
    for i in range(25):
        diamond_at[i // 5][i % 5] = -1
    for i in range(12):
        diamond_at[DIAMOND[i][0] + 2][DIAMOND[i][1] + 2] = i

_init_tables()


# ---------------------------------------------------------------------------
# 3x3 keys
# ---------------------------------------------------------------------------

cdef uint8_t point_state(const BoardState* b, int q) noexcept nogil:
    """What a 3x3 key records about a point: colour, plus atari for stones."""
    cdef int c = b.color[q]
    if (c == BLACK or c == WHITE) and b.libs[b.head[q]] == 1:
        return c | ATARI_BIT
    return c


cdef inline void _offsets3(int stride, int* off) noexcept nogil:
    off[0] = -stride - 1; off[1] = -stride; off[2] = -stride + 1; off[3] = 1
    off[4] = stride + 1; off[5] = stride; off[6] = stride - 1; off[7] = -1


cdef uint32_t key3_of(const BoardState* b, int p) noexcept nogil:
    """The 3x3 key of p computed from scratch (absolute colours)."""
    cdef int i
    cdef int off[8]
    cdef uint32_t key = 0
    _offsets3(b.stride, off)
    for i in range(8):
        key |= <uint32_t>point_state(b, p + off[i]) << (3 * i)
    return key


cdef uint32_t flip_colors3(uint32_t key) noexcept nogil:
    """Swap black and white in every field (EMPTY and BORDER stay)."""
    cdef uint32_t m = (key ^ (key >> 1)) & 0x249249   # fields whose colour is 1 or 2
    return key ^ (m | (m << 1))


cdef bint key3_forbidden(uint32_t key) noexcept nogil:
    """For black to move (see mover_key3): is the centre suicide or black's own
    true eye?  Both depend only on the 3x3 neighbourhood with atari bits, so
    the rollout can exclude such points straight from the key."""
    cdef int i, f, col, bad = 0
    cdef bint legal = False, eyeish = True, edge = False
    if (key & 0o70) == 0 or (key & 0o7000) == 0 or (key & 0o700000) == 0 or \
            (key & 0o70000000) == 0:
        return False                            # an empty neighbour: the common case
    for i in range(1, 8, 2):                    # orthogonal neighbours
        f = (key >> (3 * i)) & 7
        col = f & 3
        if col == EMPTY or (col == BLACK and not (f & ATARI_BIT)) or \
                (col == WHITE and (f & ATARI_BIT)):
            legal = True
        if col != BLACK and col != BORDER:
            eyeish = False
    if not legal:
        return True
    if not eyeish:
        return False
    for i in range(0, 8, 2):                    # diagonals
        col = (key >> (3 * i)) & 3
        if col == BORDER:
            edge = True
        elif col == WHITE:
            bad += 1
    return bad == 0 if edge else bad < 2


cdef uint32_t sym_key3(uint32_t key, int s) noexcept nogil:
    cdef uint32_t out = 0
    cdef int i
    for i in range(8):
        out |= ((key >> (3 * i)) & 7) << (3 * perm3[s][i])
    return out


# ---------------------------------------------------------------------------
# The incremental keys
# ---------------------------------------------------------------------------

cdef inline void _mark(PatternBoard* pb, int q) noexcept nogil:
    if not pb.is_changed[q]:
        pb.is_changed[q] = 1
        pb.changed[pb.num_changed] = q
        pb.num_changed += 1


cdef inline void _set_state(PatternBoard* pb, int q, uint8_t s) noexcept nogil:
    """Record q's new state and XOR the difference into its neighbours' keys."""
    cdef uint32_t d = pb.state[q] ^ s
    cdef int i, t
    if d == 0:
        return
    pb.state[q] = s
    for i in range(8):
        t = q - pb.offset3[i]           # q is neighbour i of t
        pb.key3[t] ^= d << (3 * i)
        _mark(pb, t)
    _mark(pb, q)


cdef void _refresh_chain(PatternBoard* pb, int h, bint always) noexcept nogil:
    """Bring the states of chain h's stones up to date.  All stones of a
    chain share one state, so unless told otherwise the head decides."""
    cdef const BoardState* b = pb.b
    cdef uint8_t s = point_state(b, h)
    cdef int q = h
    if not always and pb.state[h] == s:
        return
    while True:
        _set_state(pb, q, s)
        q = b.next_stone[q]
        if q == h:
            break


cdef void pb_init(PatternBoard* pb, BoardState* b) noexcept nogil:
    """Compute every key of b from scratch; pb then follows b through pb_play."""
    cdef int p, row, col
    pb.b = b
    _offsets3(b.stride, pb.offset3)
    for p in range(b.num_points):
        pb.state[p] = point_state(b, p)
        pb.key3[p] = 0
        pb.is_changed[p] = 0
    for row in range(b.size):
        for col in range(b.size):
            p = point_of(b, row, col)
            pb.key3[p] = key3_of(b, p)
    pb.num_changed = 0
    pb.num_captured = 0


cdef int pb_play(PatternBoard* pb, int p, int c) noexcept nogil:
    """play_move (the caller checked legality) plus the key updates.

    Afterwards pb.changed lists the points whose key or occupancy changed
    and pb.captured the stones taken.  Returns the number captured.
    """
    cdef BoardState* b = pb.b
    cdef int i, j, k, n, h, q, nf = 0, no = 0, ne = 0, captures, opp = 3 - c
    cdef int d[4]
    cdef int friends[4]
    cdef uint8_t friend_state[4]
    cdef int opponents[4]
    cdef int prey[4]
    for i in range(pb.num_changed):
        pb.is_changed[pb.changed[i]] = 0
    pb.num_changed = 0
    pb.num_captured = 0
    if p == PASS_POINT:
        return play_move(b, p, c)

    # Before the move: the chains it will touch, and the stones it will take
    # (play_move clears their chain links, so list them now).
    d[0] = p - b.stride; d[1] = p - 1; d[2] = p + 1; d[3] = p + b.stride
    for k in range(4):
        n = d[k]
        if b.color[n] != c and b.color[n] != opp:
            continue
        h = b.head[n]
        if b.color[n] == c:
            if not contains_point(friends, nf, h):
                friends[nf] = h
                friend_state[nf] = pb.state[h]
                nf += 1
        elif b.libs[h] > 1:
            if not contains_point(opponents, no, h):
                opponents[no] = h
                no += 1
        elif not contains_point(prey, ne, h):
            prey[ne] = h
            ne += 1
            q = h
            while True:
                pb.captured[pb.num_captured] = q
                pb.num_captured += 1
                q = b.next_stone[q]
                if q == h:
                    break

    captures = play_move(b, p, c)

    _set_state(pb, p, point_state(b, p))
    for i in range(pb.num_captured):
        _set_state(pb, pb.captured[i], EMPTY)
    for j in range(nf):
        if friend_state[j] != pb.state[p]:
            _refresh_chain(pb, b.head[p], True)   # merged chains may differ
            break
    for j in range(no):
        _refresh_chain(pb, opponents[j], False)
    # Capturing gives liberties to the mover's chains around the prey.
    for i in range(pb.num_captured):
        q = pb.captured[i]
        d[0] = q - b.stride; d[1] = q - 1; d[2] = q + 1; d[3] = q + b.stride
        for k in range(4):
            if b.color[d[k]] == c:
                _refresh_chain(pb, b.head[d[k]], False)
    return captures


# ---------------------------------------------------------------------------
# Diamond (12-point) codes
# ---------------------------------------------------------------------------

cdef int libs_class(const BoardState* b, int q) noexcept nogil:
    """0, 1, 2 for a chain with 1, 2, 3+ liberties."""
    cdef int libs = b.libs[b.head[q]]
    return 0 if libs <= 1 else 1 if libs == 2 else 2


cdef int diamond_index(const BoardState* b, int centre, int p) noexcept nogil:
    """p's index in the diamond around centre, or -1 if it is not in it."""
    cdef int dr = p // b.stride - centre // b.stride
    cdef int dc = p % b.stride - centre % b.stride
    if dr < -2 or dr > 2 or dc < -2 or dc > 2:
        return -1
    return diamond_at[dr + 2][dc + 2]


cdef void diamond_points(const BoardState* b, int centre, int* points) noexcept nogil:
    """The 12 diamond points around centre in index order (PASS_POINT off the
    board), found through the border instead of row/column arithmetic."""
    cdef int s = b.stride, j, q
    cdef int step[12]
    cdef int rest[12]
    step[:] = [-s, -s, -s, -s, -1, -1, 1, 1, s, s, s, s]   # the way out towards j
    rest[:] = [-s, -1, 0, 1, -1, 0, 0, 1, -1, 0, 1, s]     # and the rest of it
    for j in range(DIAMOND_POINTS):
        q = centre + step[j]
        if b.color[q] == BORDER:
            points[j] = PASS_POINT
            continue
        q += rest[j]
        points[j] = PASS_POINT if b.color[q] == BORDER else q


cdef uint64_t diamond_code(const BoardState* b, int p, int c) noexcept nogil:
    """The 12 points around p, seen by the player to move c."""
    cdef uint64_t code = 0, v
    cdef int j, q, col
    cdef int points[DIAMOND_POINTS]
    diamond_points(b, p, points)
    for j in range(DIAMOND_POINTS):
        q = points[j]
        if q == PASS_POINT:
            v = D_BORDER
        else:
            col = b.color[q]
            if col == EMPTY:
                v = D_EMPTY
            elif col == c:
                v = D_OWN + libs_class(b, q)
            else:
                v = D_OPP + libs_class(b, q)
        code |= v << (3 * j)
    return code


cdef uint64_t sym_diamond(uint64_t code, int s) noexcept nogil:
    cdef uint64_t out = 0
    cdef int j
    for j in range(DIAMOND_POINTS):
        out |= ((code >> (3 * j)) & 7) << (3 * perm12[s][j])
    return out


cdef uint64_t sym_response(uint64_t key, int s) noexcept nogil:
    cdef uint64_t mask = (<uint64_t>1 << RESPONSE_LIBS_SHIFT) - 1
    cdef int j = <int>(key >> RESPONSE_INDEX_SHIFT)
    cdef uint64_t libs = (key >> RESPONSE_LIBS_SHIFT) & 3
    return response_key(sym_diamond(key & mask, s), <int>libs, perm12[s][j])


cdef uint64_t sym_key3_wide(uint64_t key, int s) noexcept nogil:
    return sym_key3(<uint32_t>key, s)


ctypedef uint64_t (*Symmetry)(uint64_t, int) noexcept nogil


cdef uint64_t smallest_image(uint64_t key, Symmetry sym) noexcept nogil:
    """The canonical form of a key: its smallest image under the 8 symmetries."""
    cdef uint64_t best = key, k
    cdef int s
    for s in range(1, 8):
        k = sym(key, s)
        if k < best:
            best = k
    return best


# ---------------------------------------------------------------------------
# Python helpers (tests, training, the weights loader)
# ---------------------------------------------------------------------------

KIND_3X3 = "3x3"
KIND_RESPONSE = "response"
KIND_DIAMOND = "diamond"


cdef Symmetry symmetry_of(str kind) except NULL:
    if kind == KIND_3X3:
        return sym_key3_wide
    if kind == KIND_RESPONSE:
        return sym_response
    if kind == KIND_DIAMOND:
        return sym_diamond
    raise ValueError(f"unknown pattern kind {kind!r}")


def symmetries(str kind, uint64_t key):
    """The 8 images of a key under rotations and reflections."""
    cdef Symmetry sym = symmetry_of(kind)
    return [sym(key, s) for s in range(NUM_SYMMETRIES)]


def canonical(str kind, keys):
    """Symmetry-canonical form (the smallest image) of every key in an array."""
    cdef Symmetry sym = symmetry_of(kind)
    cdef uint64_t[:] k = np.ascontiguousarray(keys, dtype=np.uint64)
    out = np.empty(k.shape[0], dtype=np.uint64)
    cdef uint64_t[:] o = out
    cdef Py_ssize_t i
    with nogil:
        for i in range(k.shape[0]):
            o[i] = smallest_image(k[i], sym)
    return out


def variants(str kind, keys):
    """(image keys, index of the canonical key each came from) for all 8
    symmetries of every key, without duplicates: what a lookup table holds."""
    found = {}
    for i, key in enumerate(np.asarray(keys, dtype=np.uint64).tolist()):
        for image in symmetries(kind, key):
            found.setdefault(image, i)
    images = np.fromiter(found.keys(), dtype=np.uint64, count=len(found))
    index = np.fromiter(found.values(), dtype=np.int32, count=len(found))
    return images, index


def response_contexts(keys):
    """For response keys: (context keys, ids) where context i (a previous-move
    diamond in one orientation) answers candidate j with pattern ids[i, j]
    (-1: none).  Every symmetric image is included, so a lookup needs no
    canonical form: one probe per move serves all 12 candidates."""
    found = {}
    rows = []
    cdef uint64_t image
    for i, key in enumerate(np.asarray(keys, dtype=np.uint64).tolist()):
        for s in range(NUM_SYMMETRIES):
            image = sym_response(key, s)
            context = response_context(image)
            row = found.get(context)
            if row is None:
                row = found[context] = len(rows)
                rows.append([-1] * DIAMOND_POINTS)
            rows[row][image >> RESPONSE_INDEX_SHIFT] = i
    contexts = np.fromiter(found.keys(), dtype=np.uint64, count=len(found))
    return contexts, np.array(rows, dtype=np.int32).reshape(-1, DIAMOND_POINTS)


def flip_colors(uint32_t key):
    return flip_colors3(key)


def forbidden(uint32_t key):
    """Suicide or own true eye for black to move, from a 3x3 key alone."""
    return key3_forbidden(key)


cdef class PatternKeys:
    """A position with incrementally kept 3x3 keys (for tests and tools).

    Plays on its own copy of the board's state with simple ko only.
    """
    cdef BoardState st
    cdef PatternBoard pb

    def __init__(self, Board board):
        copy_state(&self.st, &board.st)
        pb_init(&self.pb, &self.st)

    cdef int _point(self, int move):
        if move == -1:
            return PASS_POINT
        return point_of(&self.st, move // self.st.size, move % self.st.size)

    @property
    def to_move(self):
        return self.st.to_move

    def legal_moves(self):
        cdef int i, p, n = self.st.size
        moves = []
        for i in range(self.st.num_empty):
            p = self.st.empty_list[i]
            if is_legal(&self.st, p, self.st.to_move):
                moves.append((p // self.st.stride - 1) * n + p % self.st.stride - 1)
        return sorted(moves)

    def play(self, int move):
        """Play for the side to move; returns the number of stones captured."""
        cdef int p = self._point(move)
        if not is_legal(&self.st, p, self.st.to_move):
            raise ValueError(f"illegal move {move}")
        return pb_play(&self.pb, p, self.st.to_move)

    def stones(self):
        cdef int n = self.st.size, r, c
        out = np.zeros((n, n), dtype=np.int8)
        for r in range(n):
            for c in range(n):
                out[r, c] = self.st.color[point_of(&self.st, r, c)]
        return out

    def keys3(self):
        """Incrementally kept 3x3 key of every move (row * size + col)."""
        cdef int n = self.st.size, m
        out = np.empty(n * n, dtype=np.uint32)
        for m in range(n * n):
            out[m] = self.pb.key3[self._point(m)]
        return out

    def scratch_keys3(self):
        """The same keys recomputed from scratch."""
        cdef int n = self.st.size, m
        out = np.empty(n * n, dtype=np.uint32)
        for m in range(n * n):
            out[m] = key3_of(&self.st, self._point(m))
        return out


def move_keys(Board board, int move, color=None):
    """(3x3 key, 12-point key, response key or NO_KEY) of a move, all seen by
    the player `color` (default: to move) and not yet made canonical."""
    cdef const BoardState* b = &board.st
    cdef int c = b.to_move if color is None else color
    cdef int p = point_of(b, move // b.size, move % b.size)
    cdef int prev = b.last_move, j
    cdef uint64_t resp = no_key()
    if prev != PASS_POINT and (b.color[prev] == BLACK or b.color[prev] == WHITE):
        j = diamond_index(b, prev, p)
        if j >= 0:
            resp = response_key(diamond_code(b, prev, c), libs_class(b, prev), j)
    return mover_key3(key3_of(b, p), c), diamond_code(b, p, c), resp


NO_PATTERN = 0xFFFFFFFFFFFFFFFF
