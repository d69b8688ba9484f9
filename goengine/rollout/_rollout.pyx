# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""AlphaGo's fast rollout policy and tree policy (Extended Data Table 4).

Both are linear softmax policies over sparse binary features of each
candidate move: its 3x3 shape, whether it answers the previous move (the
12-point response pattern around it, 8-connected neighbour), saves a chain
from atari, hits the vital point of a small eye space (nakade); the tree
policy adds self-atari, distances to the previous two moves and the
12-point shape around the candidate.

A rollout keeps, for each colour, the 3x3-pattern weight ("gamma") of every
empty point, updated only where a move changed a 3x3 key, plus row sums so a
move is drawn in O(rows + columns).  The previous-move features touch a
dozen points, which get their full weight for one move and are then put
back.  Suicides and own true eyes get weight 0 straight from the 3x3 key.
"""

from libc.math cimport exp, expf
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.stdlib cimport malloc, calloc, free
from libc.stdint cimport uint64_t, uint32_t, int32_t, int16_t, int8_t, uint8_t

import os

import numpy as np

from goengine._board cimport (
    Board, BoardState, EMPTY, BLACK, WHITE, BORDER, PASS_POINT, MAX_POINTS, MAX_STRIDE,
    copy_state, is_dead_ladder_extension, is_legal, libs_after_move,
    area_counts, area_owner,
    add_area_owner, point_of,
    random_playout,
)
from goengine.rollout._patterns cimport (
    PatternBoard, pb_init, pb_play, key3_of, mover_key3, key3_forbidden,
    diamond_code, diamond_points, libs_class, response_key, response_context, no_key,
    DIAMOND_POINTS,
)

# Feature indices.  Pattern features follow F_PATTERNS in the order 3x3,
# response, 12-point; the tables map each pattern key to its index.
cdef enum:
    F_RESPONSE = 0          # matches any known response pattern
    F_SAVE_ATARI = 1
    F_SELF_ATARI = 2        # tree only
    F_NEIGHBOUR = 3         # +0 orthogonal, +1 diagonal to the previous move
    F_NAKADE = 5            # 8: eye-space size 3..6, x touches the edge
    F_DIST1 = 13            # 17: Manhattan distance 1..16, 17+ to the previous move (tree)
    F_DIST2 = 30            # 17: the same to the move before it (tree)
    F_PAT3_UNKNOWN = 47
    F_DIAMOND_UNKNOWN = 48  # tree only
    F_PATTERNS = 49
    NUM_SLOTS = 10          # most features one candidate can have
    MAX_LOCAL = 48
    MAX_SAVES = 16
    MAX_NAKADE = 4

FIXED_FEATURES = F_PATTERNS
SLOTS = NUM_SLOTS
FEATURE_NAMES = {
    F_RESPONSE: "response", F_SAVE_ATARI: "save atari", F_SELF_ATARI: "self-atari",
    F_NEIGHBOUR: "neighbour orthogonal", F_NEIGHBOUR + 1: "neighbour diagonal",
    F_PAT3_UNKNOWN: "unknown 3x3", F_DIAMOND_UNKNOWN: "unknown 12-point",
}
for _i in range(8):
    FEATURE_NAMES[F_NAKADE + _i] = f"nakade {3 + _i % 4}{' edge' if _i >= 4 else ''}"
for _i in range(17):
    FEATURE_NAMES[F_DIST1 + _i] = f"distance to last move {_i + 1}{'+' if _i == 16 else ''}"
    FEATURE_NAMES[F_DIST2 + _i] = f"distance to move before {_i + 1}{'+' if _i == 16 else ''}"

# Orthogonal (0) / diagonal (1) neighbour of the diamond's centre, else -1.
cdef int neighbour_kind[12]
for _i, _kind in enumerate([-1, 1, 0, 1, -1, 0, 0, -1, 1, 0, 1, -1]):
    neighbour_kind[_i] = _kind


# ---------------------------------------------------------------------------
# Pattern tables
# ---------------------------------------------------------------------------

cdef enum:
    ID_BITS = 20                # feature indices below 2^20; keys below 2^44

cdef inline uint64_t _slot(uint64_t key, uint64_t mask) noexcept nogil:
    return ((key ^ (key >> 29)) * <uint64_t>0x9E3779B97F4A7C15 >> 32) & mask


cdef inline int table_find(const PatternTable* t, uint64_t key) noexcept nogil:
    """Feature index of a pattern key, or -1."""
    cdef uint64_t i, entry
    if t.count == 0:
        return -1
    i = _slot(key, t.mask)
    while True:
        entry = t.slots[i]
        if entry == no_key():
            return -1
        if entry >> ID_BITS == key:
            return <int>(entry & ((1 << ID_BITS) - 1))
        i = (i + 1) & t.mask


cdef int table_build(PatternTable* t, keys, ids) except -1:
    cdef uint64_t[:] k = np.ascontiguousarray(keys, dtype=np.uint64)
    cdef int32_t[:] v = np.ascontiguousarray(ids, dtype=np.int32)
    cdef Py_ssize_t n = k.shape[0], j
    cdef uint64_t size = 16, i
    while size < <uint64_t>(n + n // 2):
        size *= 2
    t.slots = <uint64_t*>malloc(size * sizeof(uint64_t))
    if t.slots == NULL:
        raise MemoryError()
    for i in range(size):
        t.slots[i] = no_key()
    t.mask = size - 1
    t.count = <int>n
    for j in range(n):
        if k[j] >> (64 - ID_BITS) or v[j] < 0 or v[j] >> ID_BITS:
            raise ValueError("pattern key or feature index out of range")
        i = _slot(k[j], t.mask)
        while t.slots[i] != no_key() and t.slots[i] >> ID_BITS != k[j]:
            i = (i + 1) & t.mask
        t.slots[i] = (k[j] << ID_BITS) | <uint64_t>v[j]
    return 0


cdef void table_free(PatternTable* t) noexcept:
    free(t.slots)
    t.slots = NULL
    t.count = 0


# ---------------------------------------------------------------------------
# Features of a candidate move
# ---------------------------------------------------------------------------

ctypedef struct Context:
    # What the previous moves make special for the player to move.
    int c
    int prev                    # the previous move's stone, or PASS_POINT
    int prev2                   # the move before it, or PASS_POINT
    int points[DIAMOND_POINTS]  # the diamond around prev (PASS_POINT off the board)
    const int32_t* answers      # response feature of each of them, or NULL
    int num_saves
    int saves[MAX_SAVES]
    int num_nakade
    int nakade_point[MAX_NAKADE]
    int nakade_id[MAX_NAKADE]


cdef inline int _add_unique(int* pts, int n, int cap, int p) noexcept nogil:
    cdef int i
    if n >= cap:
        return n
    for i in range(n):
        if pts[i] == p:
            return n
    pts[n] = p
    return n + 1


cdef int _a_liberty(const BoardState* b, int h) noexcept nogil:
    cdef int s = h, k
    cdef int d[4]
    while True:
        d[0] = s - b.stride; d[1] = s - 1; d[2] = s + 1; d[3] = s + b.stride
        for k in range(4):
            if b.color[d[k]] == EMPTY:
                return d[k]
        s = b.next_stone[s]
        if s == h:
            return PASS_POINT


cdef void _find_saves(Context* ctx, const BoardState* b, int h) noexcept nogil:
    """Moves that rescue c's chain h (in atari): extend to 2+ liberties, or
    capture a neighbouring chain that is itself in atari."""
    cdef int c = ctx.c, lib, s, k, n, captured, size
    cdef int d[4]
    lib = _a_liberty(b, h)
    if lib != PASS_POINT and is_legal(b, lib, c) and \
            libs_after_move(b, lib, c, 2, &captured, &size) >= 2:
        ctx.num_saves = _add_unique(ctx.saves, ctx.num_saves, MAX_SAVES, lib)
    s = h
    while True:
        d[0] = s - b.stride; d[1] = s - 1; d[2] = s + 1; d[3] = s + b.stride
        for k in range(4):
            n = d[k]
            if b.color[n] == 3 - c and b.libs[b.head[n]] == 1:
                lib = _a_liberty(b, b.head[n])
                if lib != PASS_POINT and is_legal(b, lib, c):
                    ctx.num_saves = _add_unique(ctx.saves, ctx.num_saves, MAX_SAVES, lib)
        s = b.next_stone[s]
        if s == h:
            break


cdef void _find_nakade(Context* ctx, const BoardState* b, int e, int* region) noexcept nogil:
    """If e lies in an empty region of 3-6 points walled in by one colour,
    note its vital point: the one point with the most neighbours inside.
    region (7 ints) returns the points flooded, so the caller can skip
    another start in the same region."""
    cdef int n = 1, i, j, k, q, walls = 0, edge = 0, best = -1, best_count = 0, count, ties = 0
    cdef int d[4]
    for i in range(1, 7):
        region[i] = PASS_POINT
    region[0] = e
    i = 0
    while i < n:
        q = region[i]
        d[0] = q - b.stride; d[1] = q - 1; d[2] = q + 1; d[3] = q + b.stride
        for k in range(4):
            if b.color[d[k]] == EMPTY:
                for j in range(n):
                    if region[j] == d[k]:
                        break
                else:
                    if n == 7:
                        return              # too big for a nakade
                    region[n] = d[k]
                    n += 1
            elif b.color[d[k]] == BORDER:
                edge = 1
            else:
                walls |= b.color[d[k]]
                if walls == BLACK | WHITE:
                    return              # walled in by both colours: no eye space
        i += 1
    if n < 3 or n > 6 or (walls != BLACK and walls != WHITE):
        return
    for i in range(n):
        q = region[i]
        count = 0
        for j in range(n):
            if region[j] == q - b.stride or region[j] == q - 1 or \
                    region[j] == q + 1 or region[j] == q + b.stride:
                count += 1
        if count > best_count:
            best, best_count, ties = q, count, 0
        elif count == best_count:
            ties += 1
    if ties or best_count < 2:
        return                              # no single vital point (e.g. straight four)
    for i in range(ctx.num_nakade):
        if ctx.nakade_point[i] == best:
            return
    if ctx.num_nakade < MAX_NAKADE:
        ctx.nakade_point[ctx.num_nakade] = best
        ctx.nakade_id[ctx.num_nakade] = (n - 3) + 4 * edge
        ctx.num_nakade += 1


cdef void context_init(Context* ctx, const RolloutModel* model, const BoardState* b,
                       int c) noexcept nogil:
    cdef int prev = b.last_move, k, n, j
    cdef int d[4]
    cdef int heads[4]
    cdef int region[7]
    cdef int nh = 0
    ctx.c = c
    ctx.prev = PASS_POINT
    ctx.prev2 = b.last_move2
    ctx.num_saves = 0
    ctx.num_nakade = 0
    if prev == PASS_POINT or (b.color[prev] != BLACK and b.color[prev] != WHITE):
        return
    ctx.prev = prev
    diamond_points(b, prev, ctx.points)
    ctx.answers = NULL
    if model.contexts.count:
        j = table_find(&model.contexts, response_context(
            response_key(diamond_code(b, prev, c), libs_class(b, prev), 0)))
        if j >= 0:
            ctx.answers = &model.answers[j * DIAMOND_POINTS]
    for j in range(7):      # no region flooded yet (all seven are read below)
        region[j] = PASS_POINT
    d[0] = prev - b.stride; d[1] = prev - 1; d[2] = prev + 1; d[3] = prev + b.stride
    for k in range(4):
        n = d[k]
        if b.color[n] == c and b.libs[b.head[n]] == 1:
            j = nh
            nh = _add_unique(heads, nh, 4, b.head[n])
            if nh > j:
                _find_saves(ctx, b, b.head[n])
        elif b.color[n] == EMPTY:
            for j in range(7):
                if region[j] == n:
                    break
            else:
                _find_nakade(ctx, b, n, region)


cdef inline int _distance_feature(const BoardState* b, int p, int q) noexcept nogil:
    cdef int dr = p // b.stride - q // b.stride
    cdef int dc = p % b.stride - q % b.stride
    cdef int dist = (dr if dr > 0 else -dr) + (dc if dc > 0 else -dc)
    return (dist if dist < 17 else 17) - 1


cdef int move_features(const RolloutModel* model, const BoardState* b, const Context* ctx,
                       int p, uint32_t key3, bint tree, int* slots) noexcept nogil:
    """Feature indices of the legal move p for ctx.c (key3: p's absolute 3x3 key)."""
    cdef int f = table_find(&model.pat3, mover_key3(key3, ctx.c))
    slots[0] = f if f >= 0 else F_PAT3_UNKNOWN
    return 1 + other_features(model, b, ctx, p, tree, slots + 1)


cdef int other_features(const RolloutModel* model, const BoardState* b, const Context* ctx,
                        int p, bint tree, int* slots) noexcept nogil:
    """move_features without the 3x3 pattern, which a rollout already knows."""
    cdef int n = 0, i, j, f, captured, size, c = ctx.c
    if ctx.prev != PASS_POINT:
        j = 0
        while j < DIAMOND_POINTS and ctx.points[j] != p:
            j += 1
        if j < DIAMOND_POINTS:
            if ctx.answers != NULL and ctx.answers[j] >= 0:
                slots[n] = ctx.answers[j]
                slots[n + 1] = F_RESPONSE
                n += 2
            if neighbour_kind[j] >= 0:
                slots[n] = F_NEIGHBOUR + neighbour_kind[j]
                n += 1
    for i in range(ctx.num_saves):
        if ctx.saves[i] == p:
            slots[n] = F_SAVE_ATARI
            n += 1
            break
    for i in range(ctx.num_nakade):
        if ctx.nakade_point[i] == p:
            slots[n] = F_NAKADE + ctx.nakade_id[i]
            n += 1
            break
    if tree:
        if libs_after_move(b, p, c, 2, &captured, &size) == 1:
            slots[n] = F_SELF_ATARI
            n += 1
        if ctx.prev != PASS_POINT:
            slots[n] = F_DIST1 + _distance_feature(b, p, ctx.prev)
            n += 1
        if ctx.prev2 != PASS_POINT:
            slots[n] = F_DIST2 + _distance_feature(b, p, ctx.prev2)
            n += 1
        f = table_find(&model.diamond, diamond_code(b, p, c))
        slots[n] = f if f >= 0 else F_DIAMOND_UNKNOWN
        n += 1
    return n


cdef inline int _move_index(const BoardState* b, int p) noexcept nogil:
    return (p // b.stride - 1) * b.size + p % b.stride - 1


# ---------------------------------------------------------------------------
# Whole-position distributions (from scratch)
# ---------------------------------------------------------------------------

cdef void tree_priors(const RolloutModel* model, const BoardState* b,
                      float* priors) noexcept nogil:
    """Tree-policy softmax over the legal points (0 elsewhere)."""
    cdef Context ctx
    cdef int slots[NUM_SLOTS]
    cdef int i, k, n, p, c = b.to_move, area = b.size * b.size
    cdef double s, best = -1e300, total = 0.0
    cdef double score[MAX_POINTS]
    cdef int points[MAX_POINTS]
    cdef int count = 0
    for i in range(area):
        priors[i] = 0.0
    context_init(&ctx, model, b, c)
    for i in range(b.num_empty):
        p = b.empty_list[i]
        if not is_legal(b, p, c):
            continue
        n = move_features(model, b, &ctx, p, key3_of(b, p), True, slots)
        s = 0.0
        for k in range(n):
            s += model.tree_weights[slots[k]]
        points[count] = p
        score[count] = s
        count += 1
        if s > best:
            best = s
    for i in range(count):
        score[i] = exp(score[i] - best)
        total += score[i]
    for i in range(count):
        priors[_move_index(b, points[i])] = <float>(score[i] / total)


cdef void rollout_priors(const RolloutModel* model, const BoardState* b,
                         float* priors) noexcept nogil:
    """The distribution a rollout draws its next move from (0 on illegal
    points and own true eyes; all 0 when it would pass)."""
    cdef Context ctx
    cdef int slots[NUM_SLOTS]
    cdef int i, k, n, p, c = b.to_move, area = b.size * b.size
    cdef uint32_t key
    cdef double g, total = 0.0
    for i in range(area):
        priors[i] = 0.0
    context_init(&ctx, model, b, c)
    for i in range(b.num_empty):
        p = b.empty_list[i]
        key = key3_of(b, p)
        if key3_forbidden(mover_key3(key, c)) or not is_legal(b, p, c):
            continue
        n = move_features(model, b, &ctx, p, key, False, slots)
        g = 1.0
        for k in range(n):
            g *= model.rollout_gammas[slots[k]]
        priors[_move_index(b, p)] = <float>g
        total += g
    if total > 0:
        for i in range(area):
            priors[i] = <float>(priors[i] / total)


# ---------------------------------------------------------------------------
# Rollouts
# ---------------------------------------------------------------------------

ctypedef struct Sampler:
    PatternBoard pb
    const RolloutModel* model
    float weight[3][MAX_POINTS]         # [colour to move][point]: 3x3 gamma, 0 if not playable
    double row_sum[3][MAX_STRIDE]       # kept up to date by _set_weight
    uint8_t row_of[MAX_POINTS]
    int saved_color                     # the one-move local weights, to put back
    int num_saved
    int saved_point[MAX_LOCAL]
    float saved_weight[MAX_LOCAL]
    bint ladders                        # never extend a chain the ladder still captures


cdef inline uint64_t _next_random(uint64_t* state) noexcept nogil:
    cdef uint64_t x = state[0]          # xorshift64*
    if x == 0:
        x = <uint64_t>0x9E3779B97F4A7C15
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * <uint64_t>0x2545F4914F6CDD1D


cdef inline double _uniform(uint64_t* state) noexcept nogil:
    return (_next_random(state) >> 11) * (1.0 / 9007199254740992.0)


cdef inline float _base_weight(Sampler* s, int p, int c) noexcept nogil:
    cdef uint32_t key
    cdef int f
    if s.pb.b.color[p] != EMPTY:
        return 0.0
    key = mover_key3(s.pb.key3[p], c)
    if key3_forbidden(key):
        return 0.0
    f = table_find(&s.model.pat3, key)
    return s.model.rollout_gammas[f if f >= 0 else F_PAT3_UNKNOWN]


cdef void sampler_init(Sampler* s, const RolloutModel* model, BoardState* b) noexcept nogil:
    cdef int p
    s.model = model
    pb_init(&s.pb, b)
    for p in range(b.num_points):
        s.weight[BLACK][p] = 0.0
        s.weight[WHITE][p] = 0.0
    for p in range(MAX_STRIDE):
        s.row_sum[BLACK][p] = 0.0
        s.row_sum[WHITE][p] = 0.0
    for p in range(b.num_points):
        s.row_of[p] = p // b.stride
        if b.color[p] == EMPTY:
            s.weight[BLACK][p] = _base_weight(s, p, BLACK)
            s.weight[WHITE][p] = _base_weight(s, p, WHITE)
            s.row_sum[BLACK][s.row_of[p]] += s.weight[BLACK][p]
            s.row_sum[WHITE][s.row_of[p]] += s.weight[WHITE][p]
    s.num_saved = 0


cdef inline void _set_weight(Sampler* s, int c, int p, float w) noexcept nogil:
    s.row_sum[c][s.row_of[p]] += <double>w - s.weight[c][p]
    s.weight[c][p] = w


cdef void _apply_changes(Sampler* s) noexcept nogil:
    """New 3x3 weights where the last move changed a key or an occupant."""
    cdef int i, q
    for i in range(s.pb.num_changed):
        q = s.pb.changed[i]
        if s.pb.b.color[q] == BORDER:
            continue
        _set_weight(s, BLACK, q, _base_weight(s, q, BLACK))
        _set_weight(s, WHITE, q, _base_weight(s, q, WHITE))


cdef void _restore_local(Sampler* s) noexcept nogil:
    cdef int i
    for i in range(s.num_saved - 1, -1, -1):
        _set_weight(s, s.saved_color, s.saved_point[i], s.saved_weight[i])
    s.num_saved = 0


cdef bint _override(Sampler* s, int c, int p, float w) noexcept nogil:
    """Give p weight w for this move only (False if the undo list is full)."""
    if s.num_saved == MAX_LOCAL:
        return False
    s.saved_color = c
    s.saved_point[s.num_saved] = p
    s.saved_weight[s.num_saved] = s.weight[c][p]
    s.num_saved += 1
    _set_weight(s, c, p, w)
    return True


cdef void _weigh_local(Sampler* s, const Context* ctx, int p) noexcept nogil:
    cdef int slots[NUM_SLOTS]
    cdef int i, n
    cdef float g
    if p == PASS_POINT or s.weight[ctx.c][p] == 0.0:
        return
    for i in range(s.num_saved):
        if s.saved_point[i] == p:
            return
    n = other_features(s.model, s.pb.b, ctx, p, False, slots)
    g = s.weight[ctx.c][p]              # the 3x3 pattern's gamma
    for i in range(n):
        g *= s.model.rollout_gammas[slots[i]]
    _override(s, ctx.c, p, g)


cdef void _apply_local(Sampler* s, const Context* ctx) noexcept nogil:
    """Full feature weights for the points the previous move made special."""
    cdef int j
    if ctx.prev == PASS_POINT:
        return
    for j in range(DIAMOND_POINTS):
        _weigh_local(s, ctx, ctx.points[j])
    for j in range(ctx.num_saves):
        _weigh_local(s, ctx, ctx.saves[j])
    for j in range(ctx.num_nakade):
        _weigh_local(s, ctx, ctx.nakade_point[j])


cdef double _resum(Sampler* s, int c) noexcept nogil:
    """Row sums recomputed exactly (the running ones collect rounding errors)."""
    cdef const BoardState* b = s.pb.b
    cdef int r, p
    cdef double total = 0.0, sum
    for r in range(1, b.size + 1):
        sum = 0.0
        for p in range(r * b.stride + 1, r * b.stride + b.size + 1):
            sum += s.weight[c][p]
        s.row_sum[c][r] = sum
        total += sum
    return total


cdef int _sample(Sampler* s, int c, uint64_t* rng) noexcept nogil:
    """Draw a point in proportion to its weight; PASS_POINT if none is playable."""
    cdef const BoardState* b = s.pb.b
    cdef int r, p, first, last = PASS_POINT
    cdef double total = 0.0, u, sum
    cdef float* w = s.weight[c]
    for r in range(1, b.size + 1):
        total += s.row_sum[c][r]
    if total <= 1e-6:                   # maybe nothing left but rounding dust
        total = _resum(s, c)
        if total <= 0.0:
            return PASS_POINT
    u = _uniform(rng) * total
    for r in range(1, b.size + 1):
        if u < s.row_sum[c][r]:
            first = r * b.stride + 1
            for p in range(first, first + b.size):
                if w[p] > 0.0:
                    last = p
                    u -= w[p]
                    if u < 0.0:
                        return p
            if last != PASS_POINT:
                return last             # rounding left u a hair above the row's sum
            break
        u -= s.row_sum[c][r]
    for p in range(b.num_points - 1, -1, -1):   # rounding again: the last playable point
        if w[p] > 0.0:
            return p
    return PASS_POINT


cdef int _choose_move(Sampler* s, uint64_t* rng) noexcept nogil:
    cdef const BoardState* b = s.pb.b
    cdef int c = b.to_move, p
    cdef Context ctx
    _restore_local(s)
    _apply_changes(s)
    context_init(&ctx, s.model, b, c)
    _apply_local(s, &ctx)
    while True:
        p = _sample(s, c, rng)
        if p != PASS_POINT and p == b.ko and c == b.ko_color:
            if _override(s, c, p, 0.0):     # the ko is forbidden for this move only
                continue
            return PASS_POINT
        # never run out a dead ladder; a failing chase is left to the tree's prior, as
        # reading every atari here is too slow (docs/DECISIONS.md, 'failing ladder chases')
        if s.ladders and p != PASS_POINT and is_dead_ladder_extension(b, p, c) \
                and _override(s, c, p, 0.0):
            continue
        return p


cdef inline int _max_moves(const BoardState* b) noexcept nogil:
    return 2 * b.size * b.size + 100


cdef int _score(const BoardState* b, double komi, int player) noexcept nogil:
    cdef int black, white
    area_counts(b, &black, &white)
    if (black - white - komi > 0) == (player == BLACK):
        return 1
    return -1


cdef int _play_out(const RolloutModel* model, BoardState* b, uint64_t* rng,
                   int16_t* record, int* num_record, bint ladders=True) noexcept nogil:
    """Play b to the end; returns -1 if memory ran out, else the moves played."""
    cdef Sampler* s = <Sampler*>malloc(sizeof(Sampler))
    cdef int moves = 0, p, limit = _max_moves(b)
    if s == NULL:
        return -1
    sampler_init(s, model, b)
    s.ladders = ladders
    while b.passes < 2 and moves < limit:
        p = _choose_move(s, rng)
        if record != NULL:
            record[moves] = <int16_t>p
        pb_play(&s.pb, p, b.to_move)
        moves += 1
    free(s)
    if num_record != NULL:
        num_record[0] = moves
    return moves


cdef void rollout_play(const RolloutModel* model, BoardState* b, uint64_t* rng) noexcept nogil:
    """Play b to the end in place (the caller scores it)."""
    _play_out(model, b, rng, NULL, NULL)


cdef int rollout_result(const RolloutModel* model, BoardState* b, double komi,
                        uint64_t* rng) noexcept nogil:
    """Play b to the end in place; +1 if the player to move at the start wins
    on area with komi (a jigo counts as a loss), else -1."""
    cdef int player = b.to_move
    _play_out(model, b, rng, NULL, NULL)
    return _score(b, komi, player)


# ---------------------------------------------------------------------------
# Python layer
# ---------------------------------------------------------------------------

cdef enum:
    LIGHT_PLAYOUT_MOVES = 1000   # a light playout's length limit


cdef uint64_t _seed(object seed):
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    return (<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)) * <uint64_t>0x9E3779B97F4A7C15 + 1


cdef class RolloutPolicy:
    """The rollout + tree policy model; see docs/API.md.

    Build with load(path) (trained weights), uniform() (no knowledge:
    uniformly random sensible rollouts, uniform tree priors) or
    from_arrays() (what the training tool does).
    """

    def __cinit__(self):
        self.model = <RolloutModel*>calloc(1, sizeof(RolloutModel))
        if self.model == NULL:
            raise MemoryError()
        self.source = ""
        self.arrays = {}

    def __dealloc__(self):
        if self.model != NULL:
            table_free(&self.model.pat3)
            table_free(&self.model.contexts)
            free(self.model.answers)
            table_free(&self.model.diamond)
            free(self.model.rollout_weights)
            free(self.model.rollout_gammas)
            free(self.model.tree_weights)
            free(self.model)

    @staticmethod
    def from_arrays(pat3_keys, response_keys, diamond_keys, rollout_weights=None,
                    tree_weights=None, source="arrays"):
        """A model from canonical pattern keys and weight vectors (zeros if None).

        Feature layout: FIXED_FEATURES fixed features, then one per 3x3 key,
        per response key and per 12-point key, in that order.
        """
        from goengine.rollout._patterns import variants
        cdef RolloutPolicy policy = RolloutPolicy.__new__(RolloutPolicy)
        cdef int i, n
        keys = [np.asarray(k, dtype=np.uint64) for k in (pat3_keys, response_keys, diamond_keys)]
        n = F_PATTERNS + sum(len(k) for k in keys)
        weights = []
        for w in (rollout_weights, tree_weights):
            w = np.zeros(n, np.float32) if w is None else np.asarray(w, dtype=np.float32)
            if w.shape != (n,):
                raise ValueError(f"expected {n} weights, got shape {w.shape}")
            if not np.all(np.isfinite(w)):
                raise ValueError("weights must be finite")
            weights.append(w)
        from goengine.rollout._patterns import response_contexts
        first = F_PATTERNS
        images, index = variants("3x3", keys[0])
        table_build(&policy.model.pat3, images, index + first)
        first += len(keys[0])
        contexts, answers = response_contexts(keys[1])
        table_build(&policy.model.contexts, contexts, np.arange(len(contexts)))
        answers = np.where(answers >= 0, answers + first, -1).astype(np.int32).ravel()
        policy.model.answers = <int32_t*>malloc(max(1, len(answers)) * sizeof(int32_t))
        if policy.model.answers == NULL:
            raise MemoryError()
        for i in range(len(answers)):
            policy.model.answers[i] = answers[i]
        first += len(keys[1])
        images, index = variants("diamond", keys[2])
        table_build(&policy.model.diamond, images, index + first)
        policy.model.num_features = n
        policy.model.rollout_weights = <float*>malloc(n * sizeof(float))
        policy.model.rollout_gammas = <float*>malloc(n * sizeof(float))
        policy.model.tree_weights = <float*>malloc(n * sizeof(float))
        if policy.model.rollout_weights == NULL or policy.model.rollout_gammas == NULL or \
                policy.model.tree_weights == NULL:
            raise MemoryError()
        for i in range(n):
            policy.model.rollout_weights[i] = weights[0][i]
            policy.model.rollout_gammas[i] = expf(min(weights[0][i], 60.0))
            policy.model.tree_weights[i] = weights[1][i]
        policy.source = source
        policy.arrays = {"pat3_keys": keys[0], "response_keys": keys[1],
                         "diamond_keys": keys[2], "rollout_weights": weights[0],
                         "tree_weights": weights[1]}
        return policy

    @staticmethod
    def uniform():
        return RolloutPolicy.from_arrays([], [], [], source="uniform")

    @staticmethod
    def light():
        """Uniform rollouts whose ownership() plays light playouts instead (uniformly
        random moves that fill no eyeish point of the mover and retake no ko, at most
        LIGHT_PLAYOUT_MOVES): the dead-stone estimate of a player without rollout weights."""
        cdef RolloutPolicy policy = RolloutPolicy.uniform()
        policy.light_playouts = True
        policy.source = "light"
        return policy

    @property
    def num_features(self):
        return self.model.num_features


    def weights(self, tree=False):
        return self.arrays["tree_weights" if tree else "rollout_weights"]

    def __repr__(self):
        return (f"<RolloutPolicy {self.source}: {len(self.arrays['pat3_keys'])} 3x3, "
                f"{len(self.arrays['response_keys'])} response, "
                f"{len(self.arrays['diamond_keys'])} 12-point patterns>")

    # -- rollouts -----------------------------------------------------------

    def rollout(self, Board board, seed=None):
        """Play a copy of board to the end; +1 if the player to move wins, else -1."""
        cdef BoardState st
        cdef uint64_t rng = _seed(seed)
        cdef double komi = board.komi
        cdef int result
        copy_state(&st, &board.st)
        with nogil:
            result = rollout_result(self.model, &st, komi, &rng)
        return result

    def rollouts(self, Board board, int n, seed=None):
        """Run n rollouts from board in one call without the GIL; returns the
        number won by the player to move."""
        cdef BoardState* st = <BoardState*>malloc(sizeof(BoardState))
        cdef uint64_t rng = _seed(seed)
        cdef double komi = board.komi
        cdef int i, wins = 0
        if st == NULL:
            raise MemoryError()
        with nogil:
            for i in range(n):
                copy_state(st, &board.st)
                if rollout_result(self.model, st, komi, &rng) > 0:
                    wins += 1
        free(st)
        return wins

    def rollout_moves(self, Board board, seed=None):
        """(result, moves) of one rollout: the moves are ints (PASS = -1)."""
        cdef BoardState st
        cdef uint64_t rng = _seed(seed)
        cdef int i, n = 0, player = board.st.to_move, p
        cdef int16_t* record
        copy_state(&st, &board.st)
        record = <int16_t*>malloc(_max_moves(&st) * sizeof(int16_t))
        if record == NULL:
            raise MemoryError()
        with nogil:
            _play_out(self.model, &st, &rng, record, &n)
        moves = []
        for i in range(n):
            p = record[i]
            moves.append(-1 if p == PASS_POINT else _move_index(&st, p))
        free(record)
        return _score(&st, board.komi, player), moves

    def play_out(self, Board board, seed=None):
        """(owner, score) of one rollout from a copy of board, played to its
        end (two passes): owner is the final Tromp-Taylor owner of every point,
        an int8 (size, size) array indexed [row, col], +1 black, -1 white, 0
        neither; score is black area - white area - board.komi.  A rollout
        passes only when nothing but its own true eyes is left, so the final
        board holds no dead stones and its area count is the game's result:
        the label of a self-play game (training/selfplay.py)."""
        cdef BoardState st
        cdef uint64_t rng = _seed(seed)
        cdef int8_t owner[MAX_POINTS]
        cdef int black, white, row, col, p, n = board.st.size
        copy_state(&st, &board.st)
        with nogil:
            _play_out(self.model, &st, &rng, NULL, NULL)
            area_owner(&st, owner)
        out = np.zeros((n, n), dtype=np.int8)
        cdef int8_t[:, :] view = out
        black = white = 0
        for row in range(n):
            for col in range(n):
                p = point_of(&st, row, col)
                if owner[p] == BLACK:
                    view[row, col] = 1
                    black += 1
                elif owner[p] == WHITE:
                    view[row, col] = -1
                    white += 1
        return out, black - white - board.komi

    def ownership(self, Board board, int playouts=400, seed=0, bint ladders=False):
        """Mean final owner of every point over rollouts of this policy from
        board, played on even after two passes: +1 black, -1 white; a
        (size, size) float array indexed [row, col]: the dead-stone estimate of
        goengine.rollout.scoring.

        The trained policy answers ataris and captures as players do, where
        light playouts (RolloutPolicy.light()) let groups live or die at random.
        ladders: play as the search's rollouts do, never running out a dead ladder."""
        cdef BoardState* st = <BoardState*>malloc(sizeof(BoardState))
        cdef uint64_t rng = _seed(seed)
        cdef int i, n = board.st.size
        if st == NULL:
            raise MemoryError()
        total = np.zeros(n * n, dtype=np.float64)
        cdef double[:] view = total
        with nogil:
            for i in range(playouts):
                copy_state(st, &board.st)
                st.passes = 0
                if self.light_playouts:
                    random_playout(st, &rng, LIGHT_PLAYOUT_MOVES)
                else:
                    _play_out(self.model, st, &rng, NULL, NULL, ladders)   # dead stones:
                    # judged without the ladder rule (a finished board has no ladder to run)
                add_area_owner(st, &view[0])
        free(st)
        return total.reshape(n, n) / max(1, playouts)

    def _sampler_weights(self, Board board, int moves, seed=None):
        """(the rollout sampler's normalised weights for the player to move,
        after it played `moves` moves from board; those moves).  The weights
        are kept incrementally, so they must equal rollout_priors of the
        position reached: a test hook."""
        cdef BoardState st
        cdef uint64_t rng = _seed(seed)
        cdef Sampler* s = <Sampler*>malloc(sizeof(Sampler))
        cdef int i, p, c
        cdef Context ctx
        if s == NULL:
            raise MemoryError()
        copy_state(&st, &board.st)
        sampler_init(s, self.model, &st)
        played = []
        for i in range(moves):
            if st.passes >= 2:
                break
            p = _choose_move(s, &rng)
            played.append(-1 if p == PASS_POINT else _move_index(&st, p))
            pb_play(&s.pb, p, st.to_move)
        c = st.to_move
        _restore_local(s)
        _apply_changes(s)
        context_init(&ctx, self.model, &st, c)
        _apply_local(s, &ctx)
        out = np.zeros(st.size * st.size, dtype=np.float64)
        for i in range(st.num_empty):
            p = st.empty_list[i]
            if not (p == st.ko and c == st.ko_color):
                out[_move_index(&st, p)] = s.weight[c][p]
        free(s)
        total = out.sum()
        return (out / total if total > 0 else out), played

    def _selection_share(self, Board board, int n, seed=None):
        """Share of rollout time spent choosing moves (refreshing changed
        weights, last-move features, sampling); the rest plays them (board and
        3x3 keys).  Timed around each move: a bench hook."""
        cdef BoardState st
        cdef uint64_t rng = _seed(seed)
        cdef Sampler* s = <Sampler*>malloc(sizeof(Sampler))
        cdef timespec t0, t1, t2
        cdef double choose = 0.0, play = 0.0
        cdef int i, p, moves
        if s == NULL:
            raise MemoryError()
        with nogil:
            for i in range(n):
                copy_state(&st, &board.st)
                sampler_init(s, self.model, &st)
                moves = 0
                while st.passes < 2 and moves < _max_moves(&st):
                    clock_gettime(CLOCK_MONOTONIC, &t0)
                    p = _choose_move(s, &rng)
                    clock_gettime(CLOCK_MONOTONIC, &t1)
                    pb_play(&s.pb, p, st.to_move)
                    clock_gettime(CLOCK_MONOTONIC, &t2)
                    choose += (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec)
                    play += (t2.tv_sec - t1.tv_sec) + 1e-9 * (t2.tv_nsec - t1.tv_nsec)
                    moves += 1
        free(s)
        return choose / (choose + play)

    # -- priors ------------------------------------------------------------

    def tree_priors(self, Board board):
        """Tree-policy probabilities over size*size moves (0 where illegal)."""
        out = np.zeros(board.st.size * board.st.size, dtype=np.float32)
        cdef float[:] view = out
        with nogil:
            tree_priors(self.model, &board.st, &view[0])
        return out

    def rollout_priors(self, Board board):
        """The rollout policy's move distribution (0 on illegal points and own
        true eyes; all zeros when a rollout would pass)."""
        out = np.zeros(board.st.size * board.st.size, dtype=np.float32)
        cdef float[:] view = out
        with nogil:
            rollout_priors(self.model, &board.st, &view[0])
        return out

    # -- training ------------------------------------------------------------

    def candidate_features(self, Board board, bint tree=False):
        """(moves, features) for every legal move of the player to move:
        features is an int32 (n, SLOTS) array of feature indices, -1 padded."""
        cdef const BoardState* b = &board.st
        cdef Context ctx
        cdef int i, k, n, p, count = 0, c = b.to_move
        cdef int slots[NUM_SLOTS]
        moves = np.empty(b.num_empty, dtype=np.int32)
        feats = np.full((b.num_empty, NUM_SLOTS), -1, dtype=np.int32)
        cdef int[:] mv = moves
        cdef int[:, :] fv = feats
        context_init(&ctx, self.model, b, c)
        for i in range(b.num_empty):
            p = b.empty_list[i]
            if not is_legal(b, p, c):
                continue
            n = move_features(self.model, b, &ctx, p, key3_of(b, p), tree, slots)
            mv[count] = _move_index(b, p)
            for k in range(n):
                fv[count, k] = slots[k]
            count += 1
        return moves[:count], feats[:count]
