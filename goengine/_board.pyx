# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Go board: stones, chains with exact liberty counts, captures, ko and
positional superko, ladder reading and area scoring.

Chains are circular linked lists of stones with the liberty count kept at the
chain's head and updated incrementally, so legality, captures and atari tests
are O(1) and only merging walks stones (the smaller chain's).
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t

import numpy as np

cdef uint64_t zobrist[4][MAX_POINTS]

cdef enum:
    LADDER_MAX_NODES = 400    # boards played in one ladder read
    LADDER_MAX_DEPTH = 120    # plies; a ladder across the 25x25 board is shorter


class IllegalMove(ValueError):
    """A move the rules forbid; the board is unchanged after one."""


cdef uint64_t _splitmix64(uint64_t* state) noexcept:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_zobrist() noexcept:
    cdef uint64_t seed = 20160128   # fixed, so hashes are the same in every process
    cdef int c, p
    for c in range(4):
        for p in range(MAX_POINTS):
            zobrist[c][p] = _splitmix64(&seed) if c in (BLACK, WHITE) else 0

_init_zobrist()


# ---------------------------------------------------------------------------
# C layer
# ---------------------------------------------------------------------------

cdef void board_clear(BoardState* b, int size) noexcept nogil:
    cdef int p, row, col, stride = size + 2
    b.size = size
    b.stride = stride
    b.num_points = stride * stride
    b.to_move = BLACK
    b.ko = NO_POINT
    b.ko_color = EMPTY
    b.move_number = 0
    b.passes = 0
    b.last_move = PASS_POINT
    b.last_move2 = PASS_POINT
    b.captures[0] = b.captures[1] = b.captures[2] = 0
    b.hash = 0
    b.num_empty = 0
    for p in range(b.num_points):
        b.color[p] = BORDER
        b.head[p] = 0
        b.next_stone[p] = 0
        b.libs[p] = 0
        b.num_stones[p] = 0
        b.empty_index[p] = -1
        b.played_at[p] = -1000
    for row in range(size):
        for col in range(size):
            p = point_of(b, row, col)
            b.color[p] = EMPTY
            b.empty_index[p] = b.num_empty
            b.empty_list[b.num_empty] = p
            b.num_empty += 1


cdef void copy_state(BoardState* dst, const BoardState* src) noexcept nogil:
    # Copy the scalar header, then only the used prefix of each point array.
    cdef size_t n = src.num_points
    memcpy(dst, src, <char*>&src.color[0] - <char*>src)
    memcpy(dst.color, src.color, n * sizeof(src.color[0]))
    memcpy(dst.head, src.head, n * sizeof(src.head[0]))
    memcpy(dst.next_stone, src.next_stone, n * sizeof(src.next_stone[0]))
    memcpy(dst.libs, src.libs, n * sizeof(src.libs[0]))
    memcpy(dst.num_stones, src.num_stones, n * sizeof(src.num_stones[0]))
    memcpy(dst.empty_list, src.empty_list, src.num_empty * sizeof(src.empty_list[0]))
    memcpy(dst.empty_index, src.empty_index, n * sizeof(src.empty_index[0]))
    memcpy(dst.played_at, src.played_at, n * sizeof(src.played_at[0]))


cdef inline void _take_empty(BoardState* b, int p) noexcept nogil:
    cdef int i = b.empty_index[p]
    cdef int last = b.empty_list[b.num_empty - 1]
    b.empty_list[i] = last
    b.empty_index[last] = i
    b.empty_index[p] = -1
    b.num_empty -= 1


cdef inline void _give_empty(BoardState* b, int p) noexcept nogil:
    b.empty_index[p] = b.num_empty
    b.empty_list[b.num_empty] = p
    b.num_empty += 1


cdef inline void _neighbours(const BoardState* b, int p, int* d) noexcept nogil:
    """The four points next to p (north, west, east, south) into d[0..3]; the border's
    off-board ring makes every one a valid index."""
    d[0] = p - b.stride; d[1] = p - 1; d[2] = p + 1; d[3] = p + b.stride


cdef bint is_legal(const BoardState* b, int p, int c) noexcept nogil:
    """Legal under simple ko; suicide is illegal.  (Superko is the Board's job.)"""
    cdef int n, k, cn, opp = 3 - c
    cdef int d[4]
    if p == PASS_POINT:
        return True
    if b.color[p] != EMPTY:
        return False
    if p == b.ko and c == b.ko_color:
        return False
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        cn = b.color[n]
        if cn == EMPTY:
            return True
        if cn == c:
            if b.libs[b.head[n]] > 1:
                return True
        elif cn == opp:
            if b.libs[b.head[n]] == 1:
                return True
    return False


cdef inline bint _first_neighbour_in_chain(const BoardState* b, int q, int s, int h) noexcept nogil:
    """True when s is the first of q's neighbours that belongs to chain h.

    Lets a walk over a chain's stones count each liberty exactly once
    without a mark array (mark arrays would make the walks thread-unsafe).
    """
    if b.head[q - b.stride] == h:
        return s == q - b.stride
    if b.head[q - 1] == h:
        return s == q - 1
    if b.head[q + 1] == h:
        return s == q + 1
    return s == q + b.stride


cdef inline bint _touches_chain(const BoardState* b, int q, int h) noexcept nogil:
    return (b.head[q - b.stride] == h or b.head[q - 1] == h or
            b.head[q + 1] == h or b.head[q + b.stride] == h)


cdef int _merge(BoardState* b, int h1, int h2) noexcept nogil:
    """Join two chains of one colour; returns the surviving head.

    libs(A + B) = libs(A) + libs(B) - shared, where the shared liberties are
    found by walking the smaller chain, whose stones are relabelled anyway.
    """
    cdef int big = h1, small = h2, s, q, k, shared = 0, t
    cdef int d[4]
    if b.num_stones[h1] < b.num_stones[h2]:
        big = h2
        small = h1
    s = small
    while True:
        _neighbours(b, s, d)
        for k in range(4):
            q = d[k]
            if b.color[q] == EMPTY and _touches_chain(b, q, big) and \
                    _first_neighbour_in_chain(b, q, s, small):
                shared += 1
        s = b.next_stone[s]
        if s == small:
            break
    b.libs[big] = b.libs[big] + b.libs[small] - shared
    b.num_stones[big] += b.num_stones[small]
    s = small
    while True:
        b.head[s] = big
        s = b.next_stone[s]
        if s == small:
            break
    t = b.next_stone[big]
    b.next_stone[big] = b.next_stone[small]
    b.next_stone[small] = t
    return big


cdef inline int _neighbour_chains(const BoardState* b, int p, int colors, int* heads) noexcept nogil:
    """The distinct chains next to p whose colour is in the bit mask
    `colors` (BLACK, WHITE or BLACK | WHITE); returns how many."""
    cdef int k, n, count = 0
    cdef int d[4]
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] != BORDER and (b.color[n] & colors) and not contains_point(heads, count, b.head[n]):
            heads[count] = b.head[n]
            count += 1
    return count


cdef int _remove_chain(BoardState* b, int h) noexcept nogil:
    """Capture chain h: its points become liberties of the chains around it."""
    cdef int c = b.color[h], s = h, nxt, j, count = 0, num_heads
    cdef int heads[4]
    while True:
        nxt = b.next_stone[s]
        b.color[s] = EMPTY
        b.head[s] = 0
        b.next_stone[s] = 0
        b.hash ^= zobrist[c][s]
        _give_empty(b, s)
        count += 1
        num_heads = _neighbour_chains(b, s, 3 - c, heads)
        for j in range(num_heads):
            b.libs[heads[j]] += 1
        s = nxt
        if s == h:
            break
    return count


cdef void place_setup_stone(BoardState* b, int p, int c) noexcept nogil:
    """Put a stone down without the move machinery (handicap, SGF AB/AW)."""
    cdef int j, hn, num_heads
    cdef int heads[4]
    num_heads = _neighbour_chains(b, p, BLACK | WHITE, heads)
    for j in range(num_heads):
        b.libs[heads[j]] -= 1                 # p was a liberty of each
    b.color[p] = c
    b.head[p] = p
    b.next_stone[p] = p
    b.num_stones[p] = 1
    b.libs[p] = ((b.color[p - b.stride] == EMPTY) + (b.color[p - 1] == EMPTY) +
                 (b.color[p + 1] == EMPTY) + (b.color[p + b.stride] == EMPTY))
    b.hash ^= zobrist[c][p]
    _take_empty(b, p)
    hn = p
    for j in range(num_heads):
        if b.color[heads[j]] == c:
            hn = _merge(b, hn, heads[j])


cdef int play_move(BoardState* b, int p, int c) noexcept nogil:
    """Play a legal move (the caller checked); returns the stones captured."""
    cdef int k, n, hn, captured = 0, last_captured = NO_POINT, opp = 3 - c
    cdef int d[4]
    b.move_number += 1
    b.last_move2 = b.last_move
    b.last_move = p
    b.to_move = opp
    b.ko = NO_POINT
    b.ko_color = EMPTY
    if p == PASS_POINT:
        b.passes += 1
        return 0
    b.passes = 0
    place_setup_stone(b, p, c)
    b.played_at[p] = b.move_number
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] != opp:
            continue
        hn = b.head[n]
        if b.libs[hn] != 0:
            continue
        last_captured = hn            # a one-stone chain is its own head
        captured += _remove_chain(b, hn)
    hn = b.head[p]
    if captured == 1 and b.num_stones[hn] == 1 and b.libs[hn] == 1:
        b.ko = last_captured
        b.ko_color = opp
    b.captures[c] += captured
    return captured


cdef uint64_t hash_after(const BoardState* b, int p, int c) noexcept nogil:
    """The position hash a legal move would produce, without playing it."""
    cdef uint64_t h = b.hash ^ zobrist[c][p]
    cdef int j, s, num_heads
    cdef int heads[4]
    num_heads = _neighbour_chains(b, p, 3 - c, heads)
    for j in range(num_heads):
        if b.libs[heads[j]] == 1:
            s = heads[j]
            while True:
                h ^= zobrist[3 - c][s]
                s = b.next_stone[s]
                if s == heads[j]:
                    break
    return h


cdef bint is_eyeish(const BoardState* b, int p, int c) noexcept nogil:
    """Every neighbour is c or the edge: filling it can only hurt in a playout."""
    cdef int k, cn
    cdef int d[4]
    if b.color[p] != EMPTY:
        return False
    _neighbours(b, p, d)
    for k in range(4):
        cn = b.color[d[k]]
        if cn != c and cn != BORDER:
            return False
    return True


cdef bint is_true_eye(const BoardState* b, int p, int c) noexcept nogil:
    """Eyeish, and the diagonals don't make it false: in the middle at most
    one diagonal may be the opponent's, on the edge none."""
    cdef int k, cn, bad = 0
    cdef bint edge = False
    cdef int d[4]
    if not is_eyeish(b, p, c):
        return False
    d[0] = p - b.stride - 1; d[1] = p - b.stride + 1
    d[2] = p + b.stride - 1; d[3] = p + b.stride + 1
    for k in range(4):
        cn = b.color[d[k]]
        if cn == BORDER:
            edge = True
        elif cn == 3 - c:
            bad += 1
    if edge:
        return bad == 0
    return bad < 2


cdef inline int _add_point(int* pts, int n, int q) noexcept nogil:
    if contains_point(pts, n, q):
        return n
    pts[n] = q
    return n + 1


cdef inline bint _touches_new_chain(const BoardState* b, int s, int p, int c,
                                    const int* friends, int nf) noexcept nogil:
    """Whether stone s is next to the chain a stone of c at p would make: p itself or one
    of the friendly chains (heads in friends) it joins."""
    cdef int k, q
    cdef int d[4]
    _neighbours(b, s, d)
    for k in range(4):
        q = d[k]
        if q == p or (b.color[q] == c and contains_point(friends, nf, b.head[q])):
            return True
    return False


cdef int libs_after_move(const BoardState* b, int p, int c, int cap,
                         int* captured, int* chain_size) noexcept nogil:
    """Liberties of p's chain if c played the legal move p, counted up to cap.

    Also reports the stones it would capture and the size of the chain it
    would form.  Works from the chain bookkeeping instead of playing the move,
    so the feature planes can ask it for every empty point.
    """
    cdef int k, j, n, hn, s, q, nl = 0, nf = 0, nc = 0, opp = 3 - c
    cdef int d[4]
    cdef int friends[4]
    cdef int prey[4]
    cdef int pts[32]
    if cap > 24:
        cap = 24
    captured[0] = 0
    chain_size[0] = 1
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] == EMPTY:
            nl = _add_point(pts, nl, n)
        elif b.color[n] == c:
            nf = _add_point(friends, nf, b.head[n])
        elif b.color[n] == opp and b.libs[b.head[n]] == 1:
            nc = _add_point(prey, nc, b.head[n])
    for j in range(nf):
        chain_size[0] += b.num_stones[friends[j]]
    for j in range(nc):
        captured[0] += b.num_stones[prey[j]]
    for j in range(nf):
        if b.libs[friends[j]] - 1 >= cap:
            return cap
    # Liberties of the friendly chains other than p itself.
    for j in range(nf):
        hn = friends[j]
        s = hn
        while True:
            _neighbours(b, s, d)
            for k in range(4):
                q = d[k]
                if q != p and b.color[q] == EMPTY:
                    nl = _add_point(pts, nl, q)
                    if nl >= cap:
                        return cap
            s = b.next_stone[s]
            if s == hn:
                break
    # Captured stones next to the new chain become its liberties.
    for j in range(nc):
        s = prey[j]
        while True:
            if _touches_new_chain(b, s, p, c, friends, nf):
                nl = _add_point(pts, nl, s)
                if nl >= cap:
                    return cap
            s = b.next_stone[s]
            if s == prey[j]:
                break
    return nl


# --- Ladders ----------------------------------------------------------------
#
# Reading copies the board at every ply (a few kB of memcpy), which keeps the
# code obviously correct and free of undo bookkeeping.  A node budget bounds
# the work; when it runs out the ladder counts as not working.

cdef int _other_liberty(const BoardState* b, int h, int not_this) noexcept nogil:
    """A liberty of chain h other than not_this (NO_POINT if none)."""
    cdef int s = h, k, q
    cdef int d[4]
    while True:
        _neighbours(b, s, d)
        for k in range(4):
            q = d[k]
            if b.color[q] == EMPTY and q != not_this:
                return q
        s = b.next_stone[s]
        if s == h:
            break
    return NO_POINT


cdef BoardState* _after_move(const BoardState* b, int move, int color) noexcept nogil:
    """A copy of b (malloc'd: the caller frees it) with the legal move played; NULL when
    memory runs out."""
    cdef BoardState* nb = <BoardState*>malloc(sizeof(BoardState))
    if nb != NULL:
        copy_state(nb, b)
        play_move(nb, move, color)
    return nb


cdef inline bint _read_spent(int depth, int* nodes) noexcept nogil:
    """Whether a ladder read has used up its budget. A read that goes deeper than
    LADDER_MAX_DEPTH spends the node budget too, so that the caller can tell a read that
    ended from one that was cut short (nodes > LADDER_MAX_NODES afterwards)."""
    if depth > LADDER_MAX_DEPTH:
        nodes[0] = LADDER_MAX_NODES + 1
    return nodes[0] > LADDER_MAX_NODES


cdef bint _try_defence(const BoardState* b, int target, int move, int depth, int* nodes) noexcept nogil:
    """Defender plays move; True if the target then survives the ladder."""
    cdef BoardState* nb
    cdef int libs, defender = b.color[target]
    cdef bint survives
    if move == NO_POINT or not is_legal(b, move, defender):
        return False
    nb = _after_move(b, move, defender)
    if nb == NULL:
        return True
    nodes[0] += 1
    libs = nb.libs[nb.head[target]]
    if libs >= 3:
        survives = True
    elif libs <= 1:
        survives = False
    else:
        survives = not _attacker_wins(nb, target, depth + 1, nodes)
    free(nb)
    return survives


cdef bint _defender_loses(const BoardState* b, int target, int depth, int* nodes) noexcept nogil:
    """Target chain in atari, defender to move: is it captured in a ladder?

    The defender may extend on its last liberty or capture an attacking
    chain that is itself in atari next to the target.
    """
    cdef int h = b.head[target], s, k, n, hn, lib
    cdef int d[4]
    if _read_spent(depth, nodes):
        return False
    lib = _other_liberty(b, h, NO_POINT)
    s = h
    while True:
        _neighbours(b, s, d)
        for k in range(4):
            n = d[k]
            if b.color[n] == 3 - b.color[h]:
                hn = b.head[n]
                if b.libs[hn] == 1:
                    if _try_defence(b, target, _other_liberty(b, hn, NO_POINT), depth, nodes):
                        return False
        s = b.next_stone[s]
        if s == h:
            break
    if lib != NO_POINT and _try_defence(b, target, lib, depth, nodes):
        return False
    return True


cdef bint _attacker_wins(const BoardState* b, int target, int depth, int* nodes) noexcept nogil:
    """Target chain has two liberties, attacker to move: can it be laddered?"""
    cdef BoardState* nb
    cdef int h = b.head[target], attacker = 3 - b.color[target], i, lib, prev = NO_POINT
    cdef bint wins = False
    if _read_spent(depth, nodes):
        return False
    nb = <BoardState*>malloc(sizeof(BoardState))
    if nb == NULL:
        return False
    for i in range(2):
        lib = _other_liberty(b, h, prev)
        prev = lib
        if lib == NO_POINT or not is_legal(b, lib, attacker):
            continue
        copy_state(nb, b)
        play_move(nb, lib, attacker)
        nodes[0] += 1
        # An attacking stone left in atari is the defender's to take:
        # _defender_loses tries exactly that.
        if nb.libs[nb.head[target]] == 1 and _defender_loses(nb, target, depth + 1, nodes):
            wins = True
            break
    free(nb)
    return wins


cdef bint _beside_chain_with(const BoardState* b, int p, int color, int libs) noexcept nogil:
    """Whether a chain of `color` with exactly `libs` liberties touches point p."""
    cdef int k, n
    cdef int d[4]
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] == color and b.libs[b.head[n]] == libs:
            return True
    return False


cdef bint is_ladder_capture(const BoardState* b, int p, int c) noexcept nogil:
    """Does c playing p put an opponent chain in atari that cannot escape?"""
    cdef BoardState* nb
    cdef int k, n, hn, nodes = 0, opp = 3 - c
    cdef int d[4]
    cdef bint found = False
    if not is_legal(b, p, c) or not _beside_chain_with(b, p, opp, 2):
        return False
    _neighbours(b, p, d)
    nb = _after_move(b, p, c)
    if nb == NULL:
        return False
    for k in range(4):
        n = d[k]
        if nb.color[n] == opp and b.libs[b.head[n]] == 2 and nb.libs[nb.head[n]] == 1:
            nodes = 0
            if _defender_loses(nb, n, 0, &nodes):
                found = True
                break
    free(nb)
    return found


cdef bint is_ladder_escape(const BoardState* b, int p, int c) noexcept nogil:
    """Does c playing p (the last liberty of c's chain in atari) save it from
    a ladder?"""
    cdef int k, n, nodes
    cdef int d[4]
    if b.color[p] != EMPTY:
        return False
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] == c and b.libs[b.head[n]] == 1:
            nodes = 0
            if _try_defence(b, n, p, 0, &nodes):
                return True
    return False


cdef bint is_dead_ladder_extension(const BoardState* b, int p, int c) noexcept nogil:
    """Does c playing p extend a chain of c in atari (p is its last liberty) that the
    ladder still captures? The extension that runs out a dead ladder: every chain of c
    in atari beside p is read, and none survives (is_ladder_escape is False). A read
    that runs out of its node budget counts as surviving, so only a ladder read to its
    end is called dead."""
    if b.color[p] != EMPTY:
        return False
    return _beside_chain_with(b, p, c, 1) and not is_ladder_escape(b, p, c)


cdef bint is_failing_ladder_chase(const BoardState* b, int p, int c) noexcept nogil:
    """Does c playing p start a ladder that fails? p puts one opponent chain of two
    liberties in atari, its extension on the last liberty gives it two again (a ladder,
    not a plain atari), and the ladder reader, read to its end, lets it escape: the chase
    whose escaping stones leave cutting points behind. Only a plain chase counts: a move
    that captures, that touches a chain of c in atari (it may save it) or that puts a
    second chain in atari does something besides the ladder (the ladder suite's chase half
    decided these, docs/DECISIONS.md 'failing ladder chases')."""
    cdef BoardState* nb
    cdef int k, n, lib, captured, size, target = NO_POINT, nodes = 0, opp = 3 - c
    cdef int d[4]
    cdef bint fails = False
    if not is_legal(b, p, c) or not _beside_chain_with(b, p, opp, 2):
        return False
    if _beside_chain_with(b, p, opp, 1) or _beside_chain_with(b, p, c, 1):
        return False
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] == opp and b.libs[b.head[n]] == 2:
            if target != NO_POINT and b.head[n] != b.head[target]:
                return False                    # a double atari
            target = n
    nb = _after_move(b, p, c)
    if nb == NULL:
        return False
    lib = _other_liberty(nb, nb.head[target], NO_POINT)
    if lib != NO_POINT and is_legal(nb, lib, opp):
        if libs_after_move(nb, lib, opp, 3, &captured, &size) == 2:
            fails = not _defender_loses(nb, target, 0, &nodes) and nodes <= LADDER_MAX_NODES
    free(nb)
    return fails


cdef bint is_lost_ladder_move(const BoardState* b, int p, int c) noexcept nogil:
    """A ladder move that only loses: the runner's extension of a ladder that still
    captures (is_dead_ladder_extension) or the chaser's atari of one that fails
    (is_failing_ladder_chase). The search and the policy player cap its prior."""
    return is_dead_ladder_extension(b, p, c) or is_failing_ladder_chase(b, p, c)


cdef void area_owner(const BoardState* b, int8_t* owner) noexcept nogil:
    """Tromp-Taylor owner of every point (indexed by point): BLACK or WHITE
    for stones and for empty regions that reach only that colour, else EMPTY."""
    cdef int p, q, k, top, reach, i, start
    cdef int16_t stack[MAX_POINTS]
    cdef int16_t region[MAX_POINTS]
    cdef int8_t visited[MAX_POINTS]
    cdef int d[4]
    memset(visited, 0, b.num_points)
    for p in range(b.num_points):
        owner[p] = EMPTY
        if b.color[p] == BLACK or b.color[p] == WHITE:
            owner[p] = b.color[p]
    for p in range(b.num_points):
        if b.color[p] != EMPTY or visited[p]:
            continue
        reach = 0
        top = 0
        start = 0
        stack[top] = p
        top += 1
        visited[p] = 1
        while top > 0:
            top -= 1
            q = stack[top]
            region[start] = q
            start += 1
            _neighbours(b, q, d)
            for k in range(4):
                if b.color[d[k]] == EMPTY:
                    if not visited[d[k]]:
                        visited[d[k]] = 1
                        stack[top] = d[k]
                        top += 1
                elif b.color[d[k]] != BORDER:
                    reach |= b.color[d[k]]
        if reach == BLACK or reach == WHITE:
            for i in range(start):
                owner[region[i]] = reach


cdef void add_area_owner(const BoardState* b, double* total) noexcept nogil:
    """total[row * size + col] += 1 where Black owns the point, -= 1 where White
    does (area_owner): one playout's share of an ownership estimate."""
    cdef int8_t owner[MAX_POINTS]
    cdef int row, col, p, n = b.size
    area_owner(b, owner)
    for row in range(n):
        for col in range(n):
            p = point_of(b, row, col)
            if owner[p] == BLACK:
                total[row * n + col] += 1
            elif owner[p] == WHITE:
                total[row * n + col] -= 1


cdef void area_counts(const BoardState* b, int* black, int* white) noexcept nogil:
    """Tromp-Taylor area: stones plus empty regions that reach only one colour."""
    cdef int p
    cdef int8_t owner[MAX_POINTS]
    area_owner(b, owner)
    black[0] = 0
    white[0] = 0
    for p in range(b.num_points):
        if owner[p] == BLACK:
            black[0] += 1
        elif owner[p] == WHITE:
            white[0] += 1


# --- Light playouts ---------------------------------------------------------

cdef inline uint64_t _next_random(uint64_t* state) noexcept nogil:
    """xorshift64*: tiny, fast and good enough to pick playout moves."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * <uint64_t>0x2545F4914F6CDD1D


cdef bint is_ko_capture(const BoardState* b, int p, int c) noexcept nogil:
    """Would c at p take a single stone and leave a lone stone in atari
    (the ko shape)?  Playouts never make such a capture: with several kos on
    the board random players would otherwise retake them forever."""
    cdef int k, n, atari_stones = 0
    cdef int d[4]
    _neighbours(b, p, d)
    for k in range(4):
        n = d[k]
        if b.color[n] == EMPTY or b.color[n] == c:
            return False
        if b.color[n] == 3 - c and b.libs[b.head[n]] == 1:
            atari_stones += b.num_stones[b.head[n]]
    return atari_stones == 1


cdef int play_random_move(BoardState* b, uint64_t* rng) noexcept nogil:
    """Play a uniformly random legal move that neither fills an eyeish point
    of the mover nor takes a ko, or pass when none is left; returns the
    point played."""
    cdef int c = b.to_move, n = b.num_empty, start, i, p
    if n > 0:
        start = <int>((_next_random(rng) >> 33) % <uint64_t>n)
        for i in range(n):
            p = b.empty_list[(start + i) % n]
            if not is_eyeish(b, p, c) and is_legal(b, p, c) and not is_ko_capture(b, p, c):
                play_move(b, p, c)
                return p
    play_move(b, PASS_POINT, c)
    return PASS_POINT


cdef int random_playout(BoardState* b, uint64_t* rng, int max_moves) noexcept nogil:
    """Play random moves until both sides pass; returns the moves played."""
    cdef int moves = 0
    while b.passes < 2 and moves < max_moves:
        play_random_move(b, rng)
        moves += 1
    return moves


# ---------------------------------------------------------------------------
# Python layer
# ---------------------------------------------------------------------------

_COLOR_NAMES = {EMPTY: "empty", BLACK: "black", WHITE: "white"}


cdef class Board:
    """A Go position with its history, for any size from 2 to 25.

    Moves are ints, row * size + col with row 0 at the bottom, or PASS (-1).
    """

    def __cinit__(self, int size=19, double komi=7.5, bint superko=True):
        if size < 2 or size > MAX_SIZE:
            raise ValueError(f"board size must be between 2 and {MAX_SIZE}, not {size}")
        board_clear(&self.st, size)
        self.komi = komi
        self.superko = superko
        self._history = []
        self.seen_cap = 64
        self.seen_len = 0
        self.seen_hashes = <uint64_t*>malloc(self.seen_cap * sizeof(uint64_t))
        if self.seen_hashes == NULL:
            raise MemoryError()
        self._remember_position()

    def __dealloc__(self):
        free(self.seen_hashes)

    # -- conversions --------------------------------------------------------

    cdef int _point(self, object move) except -1:
        cdef int m, n = self.st.size
        if move is None:
            raise ValueError("a move must be an int, not None")
        m = move
        if m == -1:
            return PASS_POINT
        if m < 0 or m >= n * n:
            raise ValueError(f"move {m} is off the {n}x{n} board")
        return point_of(&self.st, m // n, m % n)

    cdef object _move(self, int p):
        if p == PASS_POINT:
            return -1
        return (p // self.st.stride - 1) * self.st.size + p % self.st.stride - 1

    cdef int _color(self, object color) except -1:
        if color is None:
            return self.st.to_move
        if color != BLACK and color != WHITE:
            raise ValueError(f"colour must be BLACK (1) or WHITE (2), not {color!r}")
        return color

    cdef void _remember_position(self) noexcept:
        cdef uint64_t* grown
        if self.seen_len == self.seen_cap:
            grown = <uint64_t*>realloc(self.seen_hashes, 2 * self.seen_cap * sizeof(uint64_t))
            if grown == NULL:
                return          # superko then misses this position; never crash
            self.seen_hashes = grown
            self.seen_cap *= 2
        self.seen_hashes[self.seen_len] = self.st.hash
        self.seen_len += 1

    cdef bint _repeats_position(self, uint64_t h) noexcept:
        cdef int i
        for i in range(self.seen_len):
            if self.seen_hashes[i] == h:
                return True
        return False

    # -- properties ---------------------------------------------------------

    @property
    def size(self):
        return self.st.size

    @property
    def ko(self):
        """The point the side to move may not retake, or PASS."""
        if self.st.ko != NO_POINT and self.st.ko_color == self.st.to_move:
            return self._move(self.st.ko)
        return -1

    @property
    def to_move(self):
        return self.st.to_move

    @to_move.setter
    def to_move(self, color):
        self.st.to_move = self._color(color)

    @property
    def last_move(self):
        return None if self.st.move_number == 0 else self._move(self.st.last_move)

    @property
    def move_number(self):
        return self.st.move_number

    @property
    def history(self):
        return list(self._history)

    @property
    def passes(self):
        return self.st.passes

    def captures(self, color):
        """Stones captured so far by color."""
        return self.st.captures[self._color(color)]

    @property
    def hash(self):
        return self.st.hash

    # -- moves --------------------------------------------------------------

    def copy(self):
        cdef Board other = Board.__new__(Board, self.st.size, self.komi, self.superko)
        copy_state(&other.st, &self.st)
        if other.seen_cap < self.seen_len:
            free(other.seen_hashes)
            other.seen_hashes = <uint64_t*>malloc(self.seen_cap * sizeof(uint64_t))
            if other.seen_hashes == NULL:
                raise MemoryError()
            other.seen_cap = self.seen_cap
        memcpy(other.seen_hashes, self.seen_hashes, self.seen_len * sizeof(uint64_t))
        other.seen_len = self.seen_len
        other._history = list(self._history)
        return other

    def __reduce__(self):
        """A board pickles whole (its C state, the positions seen for superko, komi and
        history), so that Ray can ship it to a worker process of the same build."""
        return (_unpickled_board, (self.st.size, self.komi, self.superko,
                                   (<char*>&self.st)[:sizeof(BoardState)],
                                   (<char*>self.seen_hashes)[:self.seen_len * sizeof(uint64_t)],
                                   list(self._history)))

    def why_illegal(self, move, color=None):
        """None if legal, else a short reason (for GTP error messages)."""
        cdef int c = self._color(color)
        cdef int p = self._point(move)
        if p == PASS_POINT:
            return None
        if self.st.color[p] != EMPTY:
            return "occupied"
        if p == self.st.ko and c == self.st.ko_color:
            return "ko"
        if not is_legal(&self.st, p, c):
            return "suicide"
        if self.superko and self._repeats_position(hash_after(&self.st, p, c)):
            return "superko"
        return None

    def is_legal(self, move, color=None):
        return self.why_illegal(move, color) is None

    def legal_moves(self, color=None):
        """Every legal point (passing is always legal and is not listed)."""
        cdef int c = self._color(color), i, p
        cdef list moves = []
        for i in range(self.st.num_empty):
            p = self.st.empty_list[i]
            if is_legal(&self.st, p, c) and not (
                    self.superko and self._repeats_position(hash_after(&self.st, p, c))):
                moves.append(self._move(p))
        moves.sort()
        return moves

    def play(self, move, color=None):
        """Play move for color (default: the side to move); returns the
        number of stones captured.  Raises IllegalMove and changes nothing."""
        cdef int c = self._color(color)
        reason = self.why_illegal(move, c)
        if reason is not None:
            raise IllegalMove(f"illegal move ({reason})")
        cdef int captured = play_move(&self.st, self._point(move), c)
        self._history.append((c, int(move)))
        if move != -1:
            self._remember_position()
        return captured

    def setup_stones(self, black=(), white=()):
        """Place setup or handicap stones.  Every point must be empty and no
        chain may end up without liberties; otherwise nothing changes."""
        cdef BoardState saved
        cdef int p, h
        copy_state(&saved, &self.st)
        try:
            for color, points in ((BLACK, black), (WHITE, white)):
                for move in points:
                    p = self._point(move)
                    if p == PASS_POINT or self.st.color[p] != EMPTY:
                        raise IllegalMove(f"setup stone on an occupied or invalid point ({move})")
                    place_setup_stone(&self.st, p, color)
            for p in range(self.st.num_points):
                if (self.st.color[p] == BLACK or self.st.color[p] == WHITE) and \
                        self.st.libs[self.st.head[p]] == 0:
                    raise IllegalMove("setup stones leave a chain without liberties")
        except Exception:
            copy_state(&self.st, &saved)
            raise
        self.st.ko = NO_POINT
        self._remember_position()

    def forget_ko(self):
        """Lift the simple-ko ban: a ladder reader assumes the defender wins every ko it
        starts in (KataGo's input features read ladders that way)."""
        self.st.ko = NO_POINT
        self.st.ko_color = EMPTY

    # -- queries ------------------------------------------------------------

    def color_at(self, move):
        cdef int p = self._point(move)
        if p == PASS_POINT:
            raise ValueError("pass has no colour")
        return self.st.color[p]

    def stones(self):
        """(size, size) int8 array of colours, indexed [row, col]."""
        cdef int n = self.st.size, r, c
        out = np.zeros((n, n), dtype=np.int8)
        cdef signed char[:, :] view = out
        for r in range(n):
            for c in range(n):
                view[r, c] = self.st.color[point_of(&self.st, r, c)]
        return out

    def _chain_head(self, move):
        cdef int p = self._point(move)
        if p == PASS_POINT or (self.st.color[p] != BLACK and self.st.color[p] != WHITE):
            raise ValueError("no stone at that point")
        return self.st.head[p]

    def chain_stones(self, move):
        cdef int h = self._chain_head(move), s
        stones = []
        s = h
        while True:
            stones.append(self._move(s))
            s = self.st.next_stone[s]
            if s == h:
                break
        return sorted(stones)

    def chain_liberties(self, move):
        return self.st.libs[self._chain_head(move)]

    def chain_liberty_points(self, move):
        cdef int h = self._chain_head(move), s, k, q
        libs = set()
        s = h
        while True:
            for q in (s - self.st.stride, s - 1, s + 1, s + self.st.stride):
                if self.st.color[q] == EMPTY:
                    libs.add(self._move(q))
            s = self.st.next_stone[s]
            if s == h:
                break
        return sorted(libs)

    def is_eye(self, move, color):
        return is_true_eye(&self.st, self._point(move), self._color(color))

    def is_ladder_capture(self, move, color=None):
        cdef int p = self._point(move)
        return p != PASS_POINT and is_ladder_capture(&self.st, p, self._color(color))

    def is_ladder_escape(self, move, color=None):
        cdef int p = self._point(move)
        return p != PASS_POINT and is_ladder_escape(&self.st, p, self._color(color))

    def without_dead_ladders(self, int min_stones=3):
        """The position as a ladder that is already decided leaves it, or None when there
        is none: a copy with the chains of `min_stones` or more that the ladder captures
        taken off as captured, the player to move unchanged. Those are the mover's chains
        in atari that no extension nor capture saves (the ladder reader, read to its end),
        and the largest of the opponent's two-liberty chains that the mover can ladder now.
        The network, trained on games where nobody runs out a dead ladder, reads such a
        chain as alive; the search evaluates this board in its place."""
        cdef BoardState* b = &self.st
        cdef int c = b.to_move, p, h, nodes, best = NO_POINT, best_size = 0, count = 0
        cdef int taken[MAX_POINTS]
        cdef Board other
        cdef bint seen[MAX_POINTS]
        memset(seen, 0, sizeof(seen))
        with nogil:
            for p in range(b.num_points):
                if b.color[p] != BLACK and b.color[p] != WHITE:
                    continue
                h = b.head[p]
                if seen[h] or b.num_stones[h] < min_stones:
                    continue
                seen[h] = True
                nodes = 0
                if b.color[h] == c and b.libs[h] == 1:
                    if _defender_loses(b, h, 0, &nodes):
                        taken[count] = h
                        count += 1
                elif b.color[h] == 3 - c and b.libs[h] == 2 and b.num_stones[h] > best_size:
                    if _attacker_wins(b, h, 0, &nodes):
                        best, best_size = h, b.num_stones[h]
        if best != NO_POINT:
            taken[count] = best
            count += 1
        if count == 0:
            return None
        other = self.copy()
        for p in range(count):
            h = other.st.head[taken[p]]
            other.st.captures[3 - other.st.color[h]] += _remove_chain(&other.st, h)
        other.st.ko = NO_POINT
        return other

    def extends_dead_ladder(self, move, color=None):
        """Whether `move` extends a chain of `color` in atari that the ladder still
        captures (is_dead_ladder_extension): the move the search and the rollouts never
        want to play."""
        cdef int p = self._point(move)
        return p != PASS_POINT and is_dead_ladder_extension(&self.st, p, self._color(color))

    def chases_failing_ladder(self, move, color=None):
        """Whether `move` is an atari of `color` that starts a ladder the reader says fails
        (is_failing_ladder_chase)."""
        cdef int p = self._point(move)
        return p != PASS_POINT and is_failing_ladder_chase(&self.st, p, self._color(color))

    def is_lost_ladder_move(self, move, color=None):
        """Whether `move` runs out a dead ladder or chases a failing one
        (is_lost_ladder_move): the moves whose prior the search and the policy player cap."""
        cdef int p = self._point(move)
        return p != PASS_POINT and is_lost_ladder_move(&self.st, p, self._color(color))

    def area_counts(self):
        """(black area, white area) under Tromp-Taylor rules."""
        cdef int black, white
        area_counts(&self.st, &black, &white)
        return black, white

    def area_owner(self):
        """Tromp-Taylor owner of every point, int8 (size, size) indexed [row, col]:
        +1 Black, -1 White, 0 neither (an empty region reaching both colours)."""
        cdef int8_t owner[MAX_POINTS]
        cdef int8_t colour
        cdef int row, col, n = self.st.size
        area_owner(&self.st, owner)
        out = np.zeros((n, n), dtype=np.int8)
        cdef signed char[:, :] view = out
        for row in range(n):
            for col in range(n):
                colour = owner[point_of(&self.st, row, col)]
                view[row, col] = 1 if colour == BLACK else -1 if colour == WHITE else 0
        return out

    def area_score(self):
        """Black area - white area - komi: positive means black wins."""
        black, white = self.area_counts()
        return black - white - self.komi

    def random_playouts(self, int count=1, seed=1, int max_moves=1000):
        """Play `count` light playouts (uniformly random moves that don't fill
        the mover's eyeish points) from this position on scratch copies.

        Returns (moves played in all, black wins): a speed benchmark and a
        crude evaluation.  The board itself is unchanged.
        """
        cdef uint64_t rng = <uint64_t>seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef BoardState* scratch = <BoardState*>malloc(sizeof(BoardState))
        cdef long moves = 0
        cdef int i, black_wins = 0, black, white
        cdef double komi = self.komi
        if scratch == NULL:
            raise MemoryError()
        with nogil:
            for i in range(count):
                copy_state(scratch, &self.st)
                moves += random_playout(scratch, &rng, max_moves)
                area_counts(scratch, &black, &white)
                if black - white - komi > 0:
                    black_wins += 1
        free(scratch)
        return moves, black_wins

    def time_copy_and_play(self, move, int repeat=100000):
        """Seconds per C-level copy of this position plus one legal move:
        what a search or rollout pays per simulation before any thinking."""
        import time
        cdef int p = self._point(move), c = self.st.to_move, i
        if not is_legal(&self.st, p, c):
            raise IllegalMove("time_copy_and_play needs a legal move")
        cdef BoardState* scratch = <BoardState*>malloc(sizeof(BoardState))
        if scratch == NULL:
            raise MemoryError()
        start = time.perf_counter()
        with nogil:
            for i in range(repeat):
                copy_state(scratch, &self.st)
                play_move(scratch, p, c)
        elapsed = time.perf_counter() - start
        free(scratch)
        return elapsed / repeat

    def is_game_over(self):
        return self.st.passes >= 2

    def __str__(self):
        rows = []
        letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:self.st.size]
        for r in range(self.st.size - 1, -1, -1):
            cells = []
            for c in range(self.st.size):
                cells.append(".XO"[self.st.color[point_of(&self.st, r, c)]])
            rows.append(f"{r + 1:2d} " + " ".join(cells))
        rows.append("   " + " ".join(letters))
        return "\n".join(rows)

    def __repr__(self):
        return f"<Board {self.st.size}x{self.st.size} move {self.st.move_number}, " \
               f"{_COLOR_NAMES[self.st.to_move]} to play>"


def _unpickled_board(size, komi, superko, bytes state, bytes seen, history):
    """The board Board.__reduce__ describes; a state of another build is refused."""
    if len(state) != sizeof(BoardState) or len(seen) % sizeof(uint64_t):
        raise ValueError('a pickled board of another build')
    cdef Board board = Board.__new__(Board, size, komi, superko)
    cdef int count = len(seen) // sizeof(uint64_t)
    cdef uint64_t* grown
    if count > board.seen_cap:
        grown = <uint64_t*>realloc(board.seen_hashes, count * sizeof(uint64_t))
        if grown == NULL:
            raise MemoryError()
        board.seen_hashes, board.seen_cap = grown, count
    memcpy(&board.st, <const char*>state, sizeof(BoardState))
    memcpy(board.seen_hashes, <const char*>seen, len(seen))
    board.seen_len = count
    board._history = list(history)
    return board
