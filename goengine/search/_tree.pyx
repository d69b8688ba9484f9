# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The APV-MCTS tree in C: the node pool, PUCT selection with virtual loss,
backup of the two statistics, expansion, and the queue of positions waiting
for the networks.

Everything that runs once per simulation lives here and runs without the
GIL, so two simulation threads really run in parallel while the network
thread runs torch. Python (goengine/search/search.py) only orchestrates.

One mutex guards the whole tree. A simulation holds it for selection and for
backup (microseconds) and releases it for the rollout (most of its time), so
with two or three threads contention is negligible and the code stays simple.

Node statistics follow AlphaGo (Silver et al. 2016, Methods): every edge
(s, a) keeps a prior P, value-network visits and total N_v, W_v, and rollout
visits and total N_r, W_r. An edge is stored in its child node, so a node's
statistics are those of the move leading to it, from the point of view of
the player who made that move (the player to move at the parent). That way a
parent picks the child with the highest Q + u without sign juggling, and
backup flips the sign at every level.

Beside AlphaGo's statistics each node sums the final area scores (komi
included) of the rollouts below it, N_s and W_s: the search's estimate of
by how much a move wins or loses, which kata-analyze reports as scoreLead.
It never steers the search.
"""

from libc.math cimport atan, sqrt, exp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_REALTIME

import numpy as np

from goengine._board cimport (
    BORDER, Board, BoardState, EMPTY, MAX_POINTS, PASS_POINT, area_counts, board_clear,
    copy_state, is_legal, is_lost_ladder_move, is_true_eye, play_move, point_of,
)
from goengine.rollout._rollout cimport RolloutModel, RolloutPolicy, rollout_play, tree_priors

cdef extern from "<pthread.h>" nogil:
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_mutex_init(pthread_mutex_t*, const void*)
    int pthread_mutex_destroy(pthread_mutex_t*)
    int pthread_mutex_lock(pthread_mutex_t*)
    int pthread_mutex_unlock(pthread_mutex_t*)
    int pthread_cond_init(pthread_cond_t*, const void*)
    int pthread_cond_destroy(pthread_cond_t*)
    int pthread_cond_signal(pthread_cond_t*)
    int pthread_cond_broadcast(pthread_cond_t*)
    int pthread_cond_timedwait(pthread_cond_t*, pthread_mutex_t*, const timespec*)


cdef enum:
    NO_NODE = -1
    # node flags
    VALUE_PENDING = 1     # queued for the value network
    VALUE_DONE = 2        # `value` holds the value network's answer
    PRIORS_PENDING = 4    # children have placeholder priors; the SL policy is queued
    PRIORS_FINAL = 8      # children's priors come from the SL policy (or no policy exists)
    FORBIDDEN = 16        # root child that the real rules forbid (superko) or we refuse
    LOST_LADDER = 32      # a move that runs out a dead ladder or chases a failing one
    ZERO_WAITING = 64     # zero search: a simulation waits for this leaf's evaluation
    # request kinds
    REQ_POLICY = 0
    REQ_VALUE = 1
    # what the network thread hands back (Tree.answer)
    ANSWER_PRIORS = 0         # policy logits for an expanded node
    ANSWER_NO_PRIORS = 1      # the policy request failed: ask again later
    ANSWER_VALUE = 2          # the value asked for
    ANSWER_NO_VALUE = 3       # the value request failed
    ANSWER_OFFERED_VALUE = 4  # a value that came with the priors, unasked

REQUEST_POLICY = REQ_POLICY
REQUEST_VALUE = REQ_VALUE

# zero search: the longest a simulation that found its leaf already on its way waits for
# the network's next answer before it looks again (seconds; a stop is seen within it)
cdef double ZERO_COLLISION_WAIT = 0.002
ZERO_COLLISION_WAIT_SECONDS = ZERO_COLLISION_WAIT


ctypedef struct Node:
    int32_t parent
    int32_t first_child      # NO_NODE until expanded; children are contiguous
    int16_t num_children
    int16_t move             # board point (see _board.pxd); PASS_POINT for pass
    uint8_t flags
    float prior              # P(s, a)
    float value              # value-net result for this node, mover's view (VALUE_DONE),
                             # read at the rollouts' komi (tree.komi)
    float value_true         # the same read at the true komi (the twin under dynamic komi)
    int32_t n_v              # N_v(s, a)
    int32_t n_r              # N_r(s, a), including virtual losses in flight
    float w_v                # W_v(s, a), mover's view
    float w_vt               # its twin at the true komi (w_t's for the values)
    float w_r                # W_r(s, a), mover's view, including virtual losses
    int32_t n_s              # rollouts finished below this node (no virtual losses)
    float w_s                # their final area scores summed, mover's view (points)
    float w_t                # their outcomes (+1/-1/0) at the true komi, mover's view:
                             # w_r's twin where dynamic komi shifts the rollouts' count
    float net_score          # the score head's expected final score for this node, mover's
                             # view, komi (tree.komi) included (VALUE_DONE, with scores)
    float w_ns               # the network scores backed up with the n_v values, summed


ctypedef struct Request:
    int32_t kind
    int32_t node
    uint32_t generation      # tree generation when queued; stale answers are dropped
    BoardState state


ctypedef struct Ring:
    # a FIFO of requests for one network
    Request* slots
    int cap, head, len


ctypedef struct Timing:
    # per-thread profile, merged into the tree under the lock
    double wait              # waiting for the lock (and copying the root)
    double select            # selection, expansion, queueing (lock held)
    double rollout           # the rollout (no lock)
    double backup            # backup (lock held)


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


cdef inline void deadline_in(timespec* deadline, double seconds) noexcept nogil:
    """The absolute CLOCK_REALTIME time `seconds` from now, as pthread_cond_timedwait
    wants it."""
    cdef double until
    clock_gettime(CLOCK_REALTIME, deadline)
    until = deadline.tv_sec + 1e-9 * deadline.tv_nsec + seconds
    deadline.tv_sec = <long>until
    deadline.tv_nsec = <long>((until - deadline.tv_sec) * 1e9)


cdef inline int move_index(const BoardState* b, int p) noexcept nogil:
    """Board point -> the Python move int row * size + col (PASS_POINT -> -1)."""
    if p == PASS_POINT:
        return -1
    return (p // b.stride - 1) * b.size + p % b.stride - 1


cdef inline double score_for(const BoardState* b, double komi, int color) noexcept nogil:
    """The finished position's area score with komi, from `color`'s view (points)."""
    cdef int black, white
    area_counts(b, &black, &white)
    if color == 1:
        return black - white - komi
    return white - black + komi


cdef inline int sign_of(double score) noexcept nogil:
    """+1 for a win, -1 for a loss, 0 for a tie."""
    return 1 if score > 0 else -1 if score < 0 else 0


# ---------------------------------------------------------------------------
# Q and the PUCT score
# ---------------------------------------------------------------------------

cdef inline double score_utility(double margin, double scale) noexcept nogil:
    """KataGo's score utility: (2/pi) atan(margin / scale), in (-1, 1), rising with the
    margin, flat far from 0 so that a huge lead weighs no more than a large one."""
    return 0.6366197723675814 * atan(margin / scale)


def utility_of_score(double margin, double scale):
    """score_utility for Python (tests, analysis)."""
    return score_utility(margin, scale)


cdef inline bint lambda_mix(double w_net, int n_net, double w_roll, int n_roll,
                            double mixing, double* mean) noexcept nogil:
    """AlphaGo's mix of a network mean and a rollout mean, (1 - lambda) W_net/N_net +
    lambda W_roll/N_roll, or whichever mean exists; False where neither does."""
    if n_net > 0 and n_roll > 0:
        mean[0] = (1.0 - mixing) * w_net / n_net + mixing * w_roll / n_roll
    elif n_roll > 0:
        mean[0] = w_roll / n_roll
    elif n_net > 0:
        mean[0] = w_net / n_net
    else:
        return False
    return True


cdef inline double clamp_value(double v) noexcept nogil:
    return -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


cdef inline double node_q(const Node* n, double mixing) noexcept nogil:
    """Q(s,a) = (1 - lambda) W_v/N_v + lambda W_r/N_r, or whichever mean exists (0 if none)."""
    cdef double q = 0.0
    lambda_mix(n.w_v, n.n_v, n.w_r, n.n_r, mixing, &q)
    return q


cdef inline double node_q_true(const Node* n, double mixing) noexcept nogil:
    """Q(s,a) at the true komi: the values read there and the rollouts' outcomes counted
    there (finished rollouts only); node_q where there is neither yet."""
    cdef double q
    if lambda_mix(n.w_vt, n.n_v, n.w_t, n.n_s, mixing, &q):
        return q
    return node_q(n, mixing)


cdef inline bint node_score(const Node* n, double mixing, bint net_scores,
                            double* score) noexcept nogil:
    """The mean final score the score utility weighs (points, mover's view, tree.komi):
    the rollouts' mean, mixed by lambda with the network's where every value carried
    a score (net_scores), as Q mixes the values. False where neither exists yet."""
    return lambda_mix(n.w_ns, n.n_v if net_scores else 0, n.w_s, n.n_s, mixing, score)


cdef class Tree:
    """A search tree in a fixed-size node pool, plus its request queues.

    Built from a goengine.search.config.SearchConfig and a rollout policy
    (goengine.rollout._rollout.RolloutPolicy; None: RolloutPolicy.uniform(), uniformly
    random sensible rollouts and uniform placeholder priors).
    """

    cdef Node* nodes
    cdef readonly int capacity   # the pool's size in nodes (config.max_nodes)
    cdef int used
    cdef readonly int root
    cdef BoardState root_state
    cdef public double komi            # the rollouts count with this (dynamic komi included)
    cdef public double true_komi       # the game's: what win rates are reported at
    cdef uint32_t generation

    # configuration
    cdef double c_puct, mixing, temperature, pass_prior, fpu_reduction, lost_ladder_prior
    cdef double score_weight, score_scale
    cdef public double score_center   # the root player's expected score (points, tree.komi):
                                      # the root's mean score, taken at every descent
    cdef bint fpu_from_parent
    cdef int n_vl, n_thr, max_pending_policy, max_pending_value
    cdef bint use_policy, use_value
    cdef readonly bint zero      # AlphaGo Zero's search: the network at every leaf, no rollouts
    cdef bint zero_asked         # config.search_mode == 'zero': zero wherever a network serves
    cdef public bint values_with_priors   # one four-headed network: a leaf's value comes
                                          # with its expansion's policy call, never alone
    cdef public bint scores_with_values   # every value backed up carries the network's
                                          # expected score too (a score head, the score
                                          # utility on): the utility mixes it in by lambda
    cdef const RolloutModel* rollout_model
    cdef RolloutPolicy rollout   # owns rollout_model (read-only, shared by all threads)

    # one queue per network (REQ_POLICY, REQ_VALUE); a taker takes at most take_cap
    cdef Ring queues[2]
    cdef int take_cap
    cdef int pending_policy, pending_value

    cdef pthread_mutex_t lock
    cdef pthread_cond_t wake
    cdef pthread_cond_t answered   # zero search: broadcast when network answers arrive
    cdef bint stopping
    cdef int64_t sim_limit

    # scratch for expansion (lock held)
    cdef float prior_buf[MAX_POINTS]
    # Analysis restrictions (lz-analyze / kata-analyze avoid and allow): a move of colour c
    # at point p is barred while the ply below the root is < barred_until[c][p]
    cdef uint8_t barred_until[3][MAX_POINTS]
    cdef bint restricted

    # counters for the profile
    cdef readonly int64_t sims_done
    cdef int64_t sims_started, rollouts, expansions, value_backups
    cdef int64_t deferred_expansions, skipped_values, full_events
    cdef int64_t remote_in_flight      # leaves out for rollouts elsewhere (take_rollout_leaves)
    cdef int64_t waiting, collisions   # zero search: leaves awaiting the network; simulations
                                       # that found their leaf already on its way (undone)
    cdef Timing timing

    def __cinit__(self, config, rollout=None):
        self.capacity = int(config.max_nodes)
        self.nodes = <Node*>malloc(self.capacity * sizeof(Node))
        self.max_pending_policy = int(config.max_pending_policy)
        self.max_pending_value = int(config.max_pending_value)
        self.queues[REQ_POLICY].cap = max(1, self.max_pending_policy)
        self.queues[REQ_VALUE].cap = max(1, self.max_pending_value)
        self.take_cap = self.queues[REQ_POLICY].cap + self.queues[REQ_VALUE].cap
        self.queues[REQ_POLICY].slots = <Request*>malloc(self.queues[REQ_POLICY].cap * sizeof(Request))
        self.queues[REQ_VALUE].slots = <Request*>malloc(self.queues[REQ_VALUE].cap * sizeof(Request))
        if self.nodes == NULL or self.queues[0].slots == NULL or self.queues[1].slots == NULL:
            raise MemoryError()
        pthread_mutex_init(&self.lock, NULL)
        pthread_cond_init(&self.wake, NULL)
        pthread_cond_init(&self.answered, NULL)
        self.c_puct = config.c_puct
        self.zero_asked = config.search_mode == 'zero'
        self.zero = False            # set by prepare_root, where the networks are known
        # Zero search backs each leaf's value up as the visit's outcome (n_r, w_r, which
        # carry the virtual loss), so Q is that mean: lambda 1 over those statistics; and
        # where no network serves the board it falls back to rollouts alone, lambda 1 too.
        self.mixing = 1.0 if self.zero_asked else config.mixing
        self.temperature = config.policy_temperature
        self.pass_prior = config.pass_prior
        self.lost_ladder_prior = config.lost_ladder_prior
        self.fpu_from_parent = config.fpu_from_parent
        self.fpu_reduction = config.fpu_reduction
        self.score_weight = config.score_utility
        self.score_scale = config.score_utility_scale
        self.score_center = 0.0
        self.n_vl = config.virtual_loss
        self.n_thr = config.expand_threshold
        self.rollout = rollout if rollout is not None else RolloutPolicy.uniform()
        self.rollout_model = self.rollout.model
        self.komi = self.true_komi = 7.5
        self.sim_limit = -1
        board_clear(&self.root_state, 19)
        self.clear()

    def __dealloc__(self):
        free(self.nodes)
        free(self.queues[0].slots)
        free(self.queues[1].slots)
        pthread_cond_destroy(&self.wake)
        pthread_cond_destroy(&self.answered)
        pthread_mutex_destroy(&self.lock)

    # -- pool -------------------------------------------------------------

    cdef inline void init_node(self, int i, int parent, int move) noexcept nogil:
        cdef Node* n = &self.nodes[i]
        n.parent = parent
        n.first_child = NO_NODE
        n.num_children = 0
        n.move = move
        n.flags = 0
        n.prior = 0
        n.value = 0
        n.value_true = 0
        n.n_v = 0
        n.n_r = 0
        n.w_v = 0
        n.w_vt = 0
        n.w_r = 0
        n.n_s = 0
        n.w_s = 0
        n.w_t = 0
        n.net_score = 0
        n.w_ns = 0

    cdef void new_generation(self) noexcept nogil:
        """The tree was rebuilt: every queued request is stale."""
        self.generation += 1
        self.queues[0].head = self.queues[0].len = 0
        self.queues[1].head = self.queues[1].len = 0
        self.pending_policy = 0
        self.pending_value = 0
        self.waiting = 0
        self.remote_in_flight = 0

    cdef void clear(self) noexcept nogil:
        self.used = 1
        self.root = 0
        self.init_node(0, NO_NODE, PASS_POINT)
        self.new_generation()

    cdef bint compact(self, int new_root) noexcept nogil:
        """Keep only the subtree under `new_root`, copied breadth-first into a fresh pool.

        Siblings stay contiguous; flags of requests that will never be
        answered (pending) are cleared so the nodes ask again when visited.
        """
        cdef Node* fresh = <Node*>malloc(self.capacity * sizeof(Node))
        cdef int32_t* origin = <int32_t*>malloc(self.capacity * sizeof(int32_t))
        cdef int i, j, used = 1, old, first, k
        if fresh == NULL or origin == NULL:
            free(fresh)
            free(origin)
            return False
        fresh[0] = self.nodes[new_root]
        fresh[0].parent = NO_NODE
        origin[0] = new_root
        i = 0
        while i < used:
            old = origin[i]
            fresh[i].flags &= ~(VALUE_PENDING | PRIORS_PENDING | FORBIDDEN | ZERO_WAITING)
            first = self.nodes[old].first_child
            k = self.nodes[old].num_children
            if first != NO_NODE:
                fresh[i].first_child = used
                for j in range(k):
                    fresh[used + j] = self.nodes[first + j]
                    fresh[used + j].parent = i
                    origin[used + j] = first + j
                used += k
            i += 1
        free(self.nodes)
        free(origin)
        self.nodes = fresh
        self.used = used
        self.root = 0
        self.new_generation()
        return True

    # -- expansion --------------------------------------------------------

    cdef bint expand(self, int node, const BoardState* b) noexcept nogil:
        """Give `node` (position b) a child for every legal move that does not fill
        the mover's own true eye, plus pass, with placeholder priors from the tree
        policy. Returns False when the pool is full."""
        cdef int c = b.to_move, row, col, p, k = 0, first = self.used
        cdef double total = 0, scale
        cdef Node* child
        if first + b.num_empty + 1 > self.capacity:
            self.full_events += 1
            return False
        if self.zero:
            for row in range(b.size * b.size):
                self.prior_buf[row] = 1.0      # replaced by the network before any descent
        else:
            tree_priors(self.rollout_model, b, self.prior_buf)
        for row in range(b.size):
            for col in range(b.size):
                p = point_of(b, row, col)
                if b.color[p] != EMPTY or not is_legal(b, p, c) or is_true_eye(b, p, c):
                    continue
                self.init_node(first + k, node, p)
                self.nodes[first + k].prior = self.prior_buf[row * b.size + col]
                if self.lost_ladder_prior < 1.0 and is_lost_ladder_move(b, p, c):
                    self.nodes[first + k].flags |= LOST_LADDER
                total += self.nodes[first + k].prior
                k += 1
        self.init_node(first + k, node, PASS_POINT)
        # Normalise: pass gets pass_prior, the moves share the rest.
        scale = (1.0 - self.pass_prior) / total if total > 0 else 0.0
        for p in range(first, first + k):
            child = &self.nodes[p]
            child.prior = child.prior * scale if total > 0 else (1.0 - self.pass_prior) / k
        self.nodes[first + k].prior = self.pass_prior if k > 0 else 1.0
        self.nodes[node].first_child = first
        self.nodes[node].num_children = k + 1
        self.cut_lost_ladders(node)
        self.nodes[node].flags |= PRIORS_FINAL if not self.use_policy else 0
        self.used = first + k + 1
        self.expansions += 1
        return True

    cdef bint enqueue(self, int kind, int node, const BoardState* b) noexcept nogil:
        cdef Ring* q = &self.queues[kind]
        cdef Request* r
        if q.len == q.cap:
            return False
        r = &q.slots[(q.head + q.len) % q.cap]
        r.kind = kind
        r.node = node
        r.generation = self.generation
        copy_state(&r.state, b)
        q.len += 1
        if kind == REQ_POLICY:
            self.pending_policy += 1
            self.nodes[node].flags |= PRIORS_PENDING
        else:
            self.pending_value += 1
            self.nodes[node].flags |= VALUE_PENDING
        pthread_cond_signal(&self.wake)
        return True

    cdef inline double komi_shift(self, int color) noexcept nogil:
        """What turns `color`'s score at the rollouts' komi into its score at the true one."""
        return (self.komi - self.true_komi) * (1 if color == 1 else -1)

    cdef inline void ask_policy(self, int node, const BoardState* b) noexcept nogil:
        """Queue an expanded node whose priors are still placeholders (if there is room)."""
        if (self.use_policy and not (self.nodes[node].flags & (PRIORS_FINAL | PRIORS_PENDING))
                and self.pending_policy < self.max_pending_policy):
            self.enqueue(REQ_POLICY, node, b)

    # -- selection --------------------------------------------------------

    cdef int select_child(self, int parent, double side, int ply, int color) noexcept nogil:
        """argmax_a Q(s,a) + u(s,a), u = c_puct P(s,a) sqrt(sum_b N_r(s,b)) / (1 + N_r(s,a)).

        At a node nobody has visited the sum is 0 and every u would be 0; we
        use sqrt(1) there so the prior decides the first visit. A child never
        visited has Q 0 (a draw), or with fpu_from_parent the parent's own
        Q seen from the mover, less fpu_reduction: first-play urgency.

        With a score weight, Q gains weight * score_utility(mean score - center) for
        a child with finished rollouts: among moves that win alike, the one that
        keeps more points (KataGo's score utility). `side` is +1 where the root's
        player chooses and -1 where the opponent does: the center is the root
        player's expected score, so the opponent's is its negation.
        """
        cdef Node* c
        cdef int i, best = NO_NODE
        cdef int first = self.nodes[parent].first_child
        cdef int end = first + self.nodes[parent].num_children
        cdef int64_t total = 0
        cdef double sqrt_total, score, q, mean_score, best_score = -1e300
        cdef double unvisited_q = 0.0
        if self.fpu_from_parent:
            unvisited_q = -node_q(&self.nodes[parent], self.mixing) - self.fpu_reduction
        for i in range(first, end):
            total += self.nodes[i].n_r
        sqrt_total = sqrt(<double>total) if total > 0 else 1.0
        for i in range(first, end):
            c = &self.nodes[i]
            if c.flags & FORBIDDEN:
                continue
            if self.restricted and ply < self.barred_until[color][c.move]:
                continue
            q = unvisited_q if c.n_r == 0 and c.n_v == 0 else node_q(c, self.mixing)
            if self.score_weight > 0 and node_score(c, self.mixing, self.scores_with_values,
                                                    &mean_score):
                q += self.score_weight * score_utility(
                    mean_score - side * self.score_center, self.score_scale)
            score = q + self.c_puct * c.prior * sqrt_total / (1 + c.n_r)
            if score > best_score:
                best_score = score
                best = i
        return best

    cdef void center_score(self) noexcept nogil:
        """The score utility's center: the root player's mean score over the root's
        simulations so far (the root's own statistics are its opponent's view), 0
        before any. Taken from the tree, not from a clock, so that a one-thread
        search with a fixed seed stays deterministic."""
        cdef double score
        if node_score(&self.nodes[self.root], self.mixing, self.scores_with_values, &score):
            self.score_center = -score
        else:
            self.score_center = 0.0

    cdef int descend(self, BoardState* b) noexcept nogil:
        """Walk from the root to a leaf, playing the moves on b (a copy of the root)
        and charging a virtual loss to every edge taken. A leaf visited more than
        n_thr times is expanded (while the policy queue has room) and the walk
        takes one more step, into one of its new children. Lock held."""
        cdef int node = self.root, child, ply = 0
        cdef bint expanded = False
        cdef double side = 1.0             # +1 where the root's player chooses
        if self.score_weight > 0:
            self.center_score()
        while True:
            if self.zero and b.passes < 2 and not (self.nodes[node].flags & PRIORS_FINAL):
                if (self.nodes[node].num_children == 0
                        and self.pending_policy < self.max_pending_policy):
                    self.expand(node, b)
                if self.nodes[node].num_children > 0:
                    self.ask_policy(node, b)
                break                         # a leaf: its evaluation is asked or on its way
            if self.nodes[node].num_children == 0:
                if expanded or b.passes >= 2:
                    break                     # one expansion a simulation; game over
                # visits so far, not counting this simulation's virtual loss
                if node != self.root and self.nodes[node].n_r - self.n_vl <= self.n_thr:
                    break
                if self.use_policy and self.pending_policy >= self.max_pending_policy:
                    self.deferred_expansions += 1
                    break                     # the network is behind: stay a leaf
                if not self.expand(node, b):
                    break
                expanded = True
            self.ask_policy(node, b)
            child = self.select_child(node, side, ply, b.to_move)
            side = -side
            ply += 1
            if child == NO_NODE:
                break
            self.nodes[child].n_r += self.n_vl
            self.nodes[child].w_r -= self.n_vl
            play_move(b, self.nodes[child].move, b.to_move)
            node = child
        return node

    # -- backup -----------------------------------------------------------

    cdef void backup_rollout(self, int node, double z) noexcept nogil:
        """Rollout result z from `node`'s mover's view: undo the virtual loss and add
        z on the way up, flipping the sign at every level."""
        while node != NO_NODE:
            if node != self.root:
                self.nodes[node].n_r += 1 - self.n_vl
                self.nodes[node].w_r += self.n_vl + z
            else:
                self.nodes[node].n_r += 1
                self.nodes[node].w_r += z
            z = -z
            node = self.nodes[node].parent

    cdef void undo_virtual_loss(self, int node) noexcept nogil:
        """Take back the virtual loss a simulation charged to the path down to `node`."""
        while node != NO_NODE and node != self.root:
            self.nodes[node].n_r -= self.n_vl
            self.nodes[node].w_r += self.n_vl
            node = self.nodes[node].parent

    cdef void settle_waiter(self, int node) noexcept nogil:
        """Zero search: the simulation waiting on `node` ends, its value backed up as the
        visit's outcome (or, without a value, its virtual loss taken back uncounted)."""
        cdef Node* nd = &self.nodes[node]
        if not (nd.flags & ZERO_WAITING):
            return
        nd.flags &= ~ZERO_WAITING
        self.waiting -= 1
        if nd.flags & VALUE_DONE:
            self.backup_rollout(node, nd.value)
            self.sims_done += 1
        else:
            self.undo_virtual_loss(node)
            self.sims_started -= 1

    cdef void backup_value(self, int node, double v, double v_true, double score) noexcept nogil:
        """Value-net result v (at tree.komi), the same at the true komi, and its expected
        final score (used with scores_with_values only), all from `node`'s mover's view,
        added on the way up."""
        while node != NO_NODE:
            self.nodes[node].n_v += 1
            self.nodes[node].w_v += v
            self.nodes[node].w_vt += v_true
            self.nodes[node].w_ns += score
            v = -v
            v_true = -v_true
            score = -score
            node = self.nodes[node].parent
        self.value_backups += 1

    cdef void backup_score(self, int node, double score, double won) noexcept nogil:
        """A finished rollout's final score and its outcome at the true komi, both from
        `node`'s mover's view, added on the way up."""
        while node != NO_NODE:
            self.nodes[node].n_s += 1
            self.nodes[node].w_s += score
            self.nodes[node].w_t += won
            score = -score
            won = -won
            node = self.nodes[node].parent

    # -- one simulation ---------------------------------------------------

    cdef bint simulate(self, BoardState* b, uint64_t* rng, Timing* t) noexcept nogil:
        """Selection, expansion, value request, rollout, backup. False when told to stop."""
        cdef double t0 = now(), t1, t2, t3
        cdef int leaf, color
        cdef double score
        cdef bint terminal
        copy_state(b, &self.root_state)
        pthread_mutex_lock(&self.lock)
        t1 = now()
        if self.stopping or (self.sim_limit >= 0 and self.sims_started >= self.sim_limit):
            pthread_mutex_unlock(&self.lock)
            return False
        self.sims_started += 1
        leaf = self.descend(b)
        terminal = b.passes >= 2
        color = b.to_move
        if self.zero and not terminal:
            return self.zero_leaf(leaf, t, t0, t1)
        if terminal:
            self.count_terminal(leaf, b)
            pthread_mutex_unlock(&self.lock)
            t.wait += t1 - t0
            t.select += now() - t1
            return True
        self.leaf_value(leaf, b)
        pthread_mutex_unlock(&self.lock)
        t2 = now()
        rollout_play(self.rollout_model, b, rng)
        score = score_for(b, self.komi, color)
        t3 = now()
        pthread_mutex_lock(&self.lock)
        self.count_rollout(leaf, score, color, True)
        t.wait += t1 - t0
        t.select += t2 - t1
        t.rollout += t3 - t2
        t.backup += now() - t3
        pthread_mutex_unlock(&self.lock)
        return True

    cdef void leaf_value(self, int leaf, const BoardState* b) noexcept nogil:
        """The value side of a simulation at a leaf that is not terminal (lock held): the
        value known is backed up, else one is asked for (unless a four-headed network's
        will come with the priors, or the value queue is full)."""
        if not self.use_value:
            return
        if self.nodes[leaf].flags & VALUE_DONE:
            self.backup_value(leaf, self.nodes[leaf].value, self.nodes[leaf].value_true,
                              self.nodes[leaf].net_score)
        elif not (self.nodes[leaf].flags & VALUE_PENDING) and not self.values_with_priors:
            if self.pending_value < self.max_pending_value:
                self.enqueue(REQ_VALUE, leaf, b)
            else:
                self.skipped_values += 1

    cdef void count_terminal(self, int leaf, const BoardState* b) noexcept nogil:
        """A simulation that reached the end of the game (lock held): the exact count
        serves both statistics."""
        cdef double score = score_for(b, self.komi, b.to_move)
        if self.use_value:
            self.backup_value(leaf, -sign_of(score),
                              -sign_of(score + self.komi_shift(b.to_move)), -score)
        self.count_rollout(leaf, score, b.to_move, False)

    cdef void count_rollout(self, int leaf, double score, int color, bint played) noexcept nogil:
        """A simulation's end (lock held): the final score `score` (tree.komi) for `color`,
        the player to move at the leaf, backed up as the rollout's outcome; played: a
        rollout was played (not a terminal leaf's exact count)."""
        self.backup_rollout(leaf, -sign_of(score))
        self.backup_score(leaf, -score, -sign_of(score + self.komi_shift(color)))
        self.sims_done += 1
        if played:
            self.rollouts += 1

    cdef bint zero_leaf(self, int leaf, Timing* t, double t0, double t1) noexcept nogil:
        """The rest of a zero-search simulation (lock held, released here): a leaf with
        a value counts at once; one whose evaluation is asked waits for it (settle_waiter);
        one another simulation already waits on, or that could not be queued, takes its
        virtual loss back uncounted, and the thread waits for the network's next answer:
        until one comes, the same descent would find the same leaf again, and spinning on
        it takes a core from the network (docs/RESULTS.md, the zero search's collisions)."""
        cdef Node* nd = &self.nodes[leaf]
        cdef bint pause = False
        cdef timespec deadline
        if nd.flags & VALUE_DONE and nd.flags & PRIORS_FINAL:
            self.backup_rollout(leaf, nd.value)
            self.backup_value(leaf, nd.value, nd.value_true, nd.net_score)
            self.sims_done += 1
        elif nd.flags & PRIORS_PENDING and not (nd.flags & ZERO_WAITING):
            nd.flags |= ZERO_WAITING
            self.waiting += 1
        else:
            self.undo_virtual_loss(leaf)
            self.sims_started -= 1
            self.collisions += 1
            pause = True
        t.wait += t1 - t0
        t.select += now() - t1
        if pause and not self.stopping:
            deadline_in(&deadline, ZERO_COLLISION_WAIT)
            pthread_cond_timedwait(&self.answered, &self.lock, &deadline)
        pthread_mutex_unlock(&self.lock)
        return True

    # -- rollouts played elsewhere (goengine.search.remote) -------------------

    def root_state_bytes(self):
        """The root position as its C struct's bytes: what a rollout worker of the same
        build (play_rollouts) starts each leaf from."""
        return (<char*>&self.root_state)[:sizeof(BoardState)]

    def take_rollout_leaves(self, int count):
        """The selection half of up to `count` simulations, for rollouts played elsewhere:
        each leaf keeps the virtual loss of its path until apply_rollouts or drop_rollouts.
        A terminal leaf is counted here at once. Returns (nodes, generation, colours, moves,
        offsets): leaf i is reached from the root by the internal points
        moves[offsets[i]:offsets[i + 1]], and `colours[i]` is to move there."""
        if self.zero:
            raise ValueError('the zero search plays no rollouts')
        cdef BoardState* b = <BoardState*>malloc(sizeof(BoardState))
        cdef int32_t[::1] leaves = np.empty(count, dtype=np.int32)
        cdef int8_t[::1] colours = np.empty(count, dtype=np.int8)
        cdef int32_t[::1] offsets = np.zeros(count + 1, dtype=np.int32)
        cdef int32_t[::1] moves = np.empty(count * 64, dtype=np.int32)
        cdef int taken = 0, leaf, node, depth, k, i
        cdef uint32_t generation
        if b == NULL:
            raise MemoryError()
        with nogil:
            pthread_mutex_lock(&self.lock)
            generation = self.generation
            while taken < count:
                if self.stopping or (self.sim_limit >= 0 and self.sims_started >= self.sim_limit):
                    break
                copy_state(b, &self.root_state)
                self.sims_started += 1
                leaf = self.descend(b)
                if b.passes >= 2:
                    self.count_terminal(leaf, b)
                    continue
                self.leaf_value(leaf, b)
                depth = 0
                node = leaf
                while node != self.root and node != NO_NODE:
                    depth += 1
                    node = self.nodes[node].parent
                if offsets[taken] + depth > moves.shape[0]:
                    self.undo_virtual_loss(leaf)
                    self.sims_started -= 1
                    break                         # no room for this path: the next batch
                node = leaf
                for k in range(depth):
                    moves[offsets[taken] + depth - 1 - k] = self.nodes[node].move
                    node = self.nodes[node].parent
                leaves[taken] = leaf
                colours[taken] = b.to_move
                offsets[taken + 1] = offsets[taken] + depth
                self.remote_in_flight += 1
                taken += 1
            pthread_mutex_unlock(&self.lock)
        free(b)
        return (np.asarray(leaves[:taken]).copy(), int(generation),
                np.asarray(colours[:taken]).copy(), np.asarray(moves[:offsets[taken]]).copy(),
                np.asarray(offsets[:taken + 1]).copy())

    def apply_rollouts(self, nodes, uint32_t generation, colours, scores):
        """The final scores (tree.komi, for the player to move at each leaf) of rollouts
        played elsewhere, backed up as in place; a stale generation's are dropped."""
        cdef int i, n = len(nodes)
        cdef const int32_t[::1] node = np.ascontiguousarray(nodes, dtype=np.int32)
        cdef const int8_t[::1] colour = np.ascontiguousarray(colours, dtype=np.int8)
        cdef const double[::1] score = np.ascontiguousarray(scores, dtype=np.float64)
        with nogil:
            pthread_mutex_lock(&self.lock)
            if generation == self.generation:
                for i in range(n):
                    self.count_rollout(node[i], score[i], colour[i], True)
                self.remote_in_flight -= n
            pthread_mutex_unlock(&self.lock)

    def drop_rollouts(self, nodes, uint32_t generation):
        """Rollouts that will not come back (a lost or late worker, the search's end):
        their virtual loss taken back, uncounted."""
        cdef int i, n = len(nodes)
        cdef const int32_t[::1] node = np.ascontiguousarray(nodes, dtype=np.int32)
        with nogil:
            pthread_mutex_lock(&self.lock)
            if generation == self.generation:
                for i in range(n):
                    self.undo_virtual_loss(node[i])
                self.sims_started -= n
                self.remote_in_flight -= n
            pthread_mutex_unlock(&self.lock)

    @property
    def rollouts_in_flight(self):
        """Leaves taken for rollouts elsewhere and not yet applied or dropped."""
        return self.remote_in_flight

    def waiting_leaves(self):
        """Zero search: simulations still waiting for their leaf's evaluation."""
        return self.waiting

    def abandon_waiters(self):
        """Zero search, once no answer will come in time: every waiting simulation
        takes its virtual loss back, uncounted. Returns how many there were."""
        cdef int i, n = 0
        with nogil:
            pthread_mutex_lock(&self.lock)
            for i in range(self.used):
                if self.nodes[i].flags & ZERO_WAITING:
                    self.nodes[i].flags &= ~ZERO_WAITING
                    self.undo_virtual_loss(i)
                    self.sims_started -= 1
                    n += 1
            self.waiting = 0
            pthread_mutex_unlock(&self.lock)
        return n

    def run(self, uint64_t seed):
        """Simulate until stop() or the simulation limit; call from a thread.

        The GIL is released for the whole loop.
        """
        cdef BoardState* b = <BoardState*>malloc(sizeof(BoardState))
        cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef Timing t
        if b == NULL:
            raise MemoryError()
        t.wait = t.select = t.rollout = t.backup = 0
        with nogil:
            while self.simulate(b, &rng, &t):
                pass
            pthread_mutex_lock(&self.lock)
            self.timing.wait += t.wait
            self.timing.select += t.select
            self.timing.rollout += t.rollout
            self.timing.backup += t.backup
            pthread_mutex_unlock(&self.lock)
        free(b)

    def start(self, max_sims=None):
        """Allow simulations again; at most `max_sims` more (None: until stop())."""
        with nogil:
            pthread_mutex_lock(&self.lock)
        self.stopping = False
        self.sim_limit = -1 if max_sims is None else self.sims_started + int(max_sims)
        with nogil:
            pthread_mutex_unlock(&self.lock)

    def stop(self):
        """Ask the simulation threads to finish their current simulation and return."""
        with nogil:
            pthread_mutex_lock(&self.lock)
            self.stopping = True
            pthread_cond_broadcast(&self.wake)
            pthread_mutex_unlock(&self.lock)

    # -- the root -----------------------------------------------------------

    def reset(self, Board board):
        """Forget everything: a fresh root for `board` (with board.to_move to play)."""
        with nogil:
            pthread_mutex_lock(&self.lock)
            self.clear()
            copy_state(&self.root_state, &board.st)
            pthread_mutex_unlock(&self.lock)
        self.komi = self.true_komi = board.komi

    def reuse(self, moves, Board board):
        """Tree reuse: make the node reached by `moves` (Python move ints, from the
        current root) the new root, keeping its subtree and statistics; `board`
        is that position. Returns False (tree unchanged) if the path is not in
        the tree."""
        cdef int node = self.root, child, i, p, found
        if node == NO_NODE:
            return False
        for move in moves:
            p = PASS_POINT if move < 0 else point_of(&self.root_state, move // board.size,
                                                     move % board.size)
            found = NO_NODE
            for i in range(self.nodes[node].num_children):
                child = self.nodes[node].first_child + i
                if self.nodes[child].move == p:
                    found = child
                    break
            if found == NO_NODE:
                return False
            node = found
        with nogil:
            pthread_mutex_lock(&self.lock)
            found = self.compact(node)
            if found:
                copy_state(&self.root_state, &board.st)
            pthread_mutex_unlock(&self.lock)
        self.komi = self.true_komi = board.komi
        return bool(found)

    def prepare_root(self, use_policy, use_value):
        """Expand the root if needed and queue it for the SL policy.
        `use_policy` / `use_value`: whether the networks serve this position.
        Returns False if the root cannot be expanded (pool full)."""
        cdef bint ok = True, policy = use_policy, value = use_value
        with nogil:
            pthread_mutex_lock(&self.lock)
            self.use_policy = policy
            self.zero = self.zero_asked and policy and value and self.values_with_priors
            self.use_value = value and (self.mixing < 1.0 or self.zero)
            if self.nodes[self.root].num_children == 0 and self.root_state.passes < 2:
                ok = self.expand(self.root, &self.root_state)
            if not self.use_policy:
                self.nodes[self.root].flags |= PRIORS_FINAL
            self.ask_policy(self.root, &self.root_state)
            pthread_mutex_unlock(&self.lock)
        return ok

    def restrict(self, barred):
        """Analysis restrictions: `barred` maps (colour, move) (Python ints, -1 pass) to
        the ply below the root up to which that colour may not play it (1: the root's
        move only); empty lifts them all."""
        cdef int p
        with nogil:
            pthread_mutex_lock(&self.lock)
        memset(self.barred_until, 0, sizeof(self.barred_until))
        self.restricted = bool(barred)
        for (color, m), until in barred.items():
            p = PASS_POINT if m < 0 else point_of(&self.root_state, m // self.root_state.size,
                                                  m % self.root_state.size)
            self.barred_until[color][p] = min(255, max(self.barred_until[color][p], until))
        with nogil:
            pthread_mutex_unlock(&self.lock)

    def barred_at_root(self, int color):
        """The moves (Python ints, -1 pass) the restrictions bar `color` from at the root."""
        cdef int i, child
        found = []
        if not self.restricted:
            return found
        for i in range(self.nodes[self.root].num_children):
            child = self.nodes[self.root].first_child + i
            if self.barred_until[color][self.nodes[child].move] > 0:
                m = self.nodes[child].move
                found.append(-1 if m == PASS_POINT else move_index(&self.root_state, m))
        return found

    def forbid(self, moves):
        """Root moves (Python ints, -1 pass) the search must not play; all others allowed."""
        cdef int i, child
        cdef set banned = set()
        for m in moves:
            banned.add(PASS_POINT if m < 0 else
                       point_of(&self.root_state, m // self.root_state.size, m % self.root_state.size))
        with nogil:
            pthread_mutex_lock(&self.lock)
        for i in range(self.nodes[self.root].num_children):
            child = self.nodes[self.root].first_child + i
            if self.nodes[child].move in banned:
                self.nodes[child].flags |= FORBIDDEN
            else:
                self.nodes[child].flags &= ~FORBIDDEN
        with nogil:
            pthread_mutex_unlock(&self.lock)

    @property
    def expand_threshold(self):
        """n_thr: visits a leaf needs before it is expanded (the search adapts it)."""
        return self.n_thr

    @expand_threshold.setter
    def expand_threshold(self, int value):
        self.n_thr = max(0, value)

    @property
    def root_priors_final(self):
        return bool(self.nodes[self.root].flags & PRIORS_FINAL)

    # -- the network thread's side ------------------------------------------

    def take_requests(self, boards, double timeout):
        """Wait up to `timeout` seconds for queued positions and move up to
        len(boards) of them into `boards` (goengine.Board objects, overwritten),
        policy requests first: the SL priors shape the tree, so on a CPU they
        are worth more than one more value sample.
        Returns (kinds, nodes, generations) as lists; empty lists on timeout."""
        cdef int n = 0, i, kind, max_n = min(len(boards), self.take_cap)
        cdef Ring* q
        cdef timespec deadline
        # Straight into the callers' boards under the lock, so that several network
        # threads (one a remote network worker) may take at once.
        cdef BoardState** dest = <BoardState**>malloc(max(max_n, 1) * sizeof(BoardState*))
        cdef int32_t[::1] kind_of = np.empty(max(max_n, 1), dtype=np.int32)
        cdef int32_t[::1] node_of = np.empty(max(max_n, 1), dtype=np.int32)
        cdef uint32_t[::1] gen_of = np.empty(max(max_n, 1), dtype=np.uint32)
        if dest == NULL:
            raise MemoryError()
        for i in range(max_n):
            dest[i] = &(<Board>boards[i]).st
        deadline_in(&deadline, timeout)
        with nogil:
            pthread_mutex_lock(&self.lock)
            if self.queues[0].len == 0 and self.queues[1].len == 0:
                pthread_cond_timedwait(&self.wake, &self.lock, &deadline)
            for kind in range(2):            # REQ_POLICY = 0 first, then REQ_VALUE
                q = &self.queues[kind]
                while q.len > 0 and n < max_n:
                    kind_of[n] = q.slots[q.head].kind
                    node_of[n] = q.slots[q.head].node
                    gen_of[n] = q.slots[q.head].generation
                    copy_state(dest[n], &q.slots[q.head].state)
                    q.head = (q.head + 1) % q.cap
                    q.len -= 1
                    n += 1
            pthread_mutex_unlock(&self.lock)
        free(dest)
        return ([int(kind_of[i]) for i in range(n)], [int(node_of[i]) for i in range(n)],
                [int(gen_of[i]) for i in range(n)])

    def wake_waiters(self):
        """Wake a network thread blocked in take_requests (used when closing)."""
        with nogil:
            pthread_mutex_lock(&self.lock)
            pthread_cond_broadcast(&self.wake)
            pthread_mutex_unlock(&self.lock)

    # -- answers from the network thread -------------------------------------
    # Every answer, and every notice that none will come, passes through answer():
    # one lock, and one test for answers to requests a reset has made stale.

    def apply_values(self, nodes, generations, values, bint offered=False, scores=None,
                     true_values=None):
        """Value-network answers v (player to move at the node) for queued leaves:
        cache them and back them up. Stale answers are dropped.

        offered: values that came with a four-headed network's policy answers, never
        asked for; they serve the nodes that hold no value and have none queued, and
        only where the search uses values at all.
        values are read at tree.komi, true_values at the true komi (None: the same; they
        differ only where dynamic komi shifts the count and a score head can say by how
        much). scores: with scores_with_values, the score head's expected final score for
        the player to move at each node, tree.komi included, in points."""
        if offered and not self.use_value:
            return
        rows = self.value_rows(values, true_values, scores)
        self.answer(ANSWER_OFFERED_VALUE if offered else ANSWER_VALUE, nodes, generations, rows)

    def apply_evaluations(self, nodes, generations, logits, values, true_values=None,
                          scores=None):
        """A four-headed network's answers, priors and values together (apply_priors, then
        apply_values offered) under one lock: no simulation sees the one without the
        other, which keeps a one-thread zero search repeatable."""
        rows = self.value_rows(values, true_values, scores)
        self.answer(ANSWER_PRIORS, nodes, generations, logits, rows)

    def value_rows(self, values, true_values, scores):
        """The rows a value answer carries: (value, value at the true komi, score)."""
        values = np.reshape(np.asarray(values, dtype=np.float32), (-1, 1))
        if self.scores_with_values and scores is None:
            raise ValueError('this tree backs up a score with every value: pass scores')
        return np.hstack([values,
                          values if true_values is None else np.reshape(true_values, (-1, 1)),
                          np.zeros_like(values) if scores is None else np.reshape(scores, (-1, 1))])

    def apply_priors(self, nodes, generations, logits):
        """SL-policy answers: replace the placeholder priors of each node's children
        by softmax(logits / beta) over those children (pass keeps pass_prior).
        logits: (n, size*size) in Python move order. Stale answers are dropped."""
        self.answer(ANSWER_PRIORS, nodes, generations, logits)

    def drop_requests(self, int kind, nodes, generations):
        """Give up on requests the network thread could not serve (an error):
        the nodes are free to ask again and the queue caps are not eaten up."""
        self.answer(ANSWER_NO_PRIORS if kind == REQ_POLICY else ANSWER_NO_VALUE,
                    nodes, generations, np.zeros((len(nodes), 1)))

    cdef answer(self, int what, nodes, generations, answers, offered_values=None):
        """Take one row of `answers` for each node whose request is still current, and
        with it one of `offered_values` where given and the search uses values: both
        under one lock."""
        cdef int i, n = len(nodes)
        cdef bint with_values = offered_values is not None and self.use_value
        cdef int32_t[::1] node = np.ascontiguousarray(nodes, dtype=np.int32)
        cdef uint32_t[::1] gen = np.ascontiguousarray(generations, dtype=np.uint32)
        cdef float[:, ::1] row = np.ascontiguousarray(answers, dtype=np.float32)
        cdef float[:, ::1] value_row = np.ascontiguousarray(
            offered_values if with_values else np.zeros((1, 3)), dtype=np.float32)
        with nogil:
            pthread_mutex_lock(&self.lock)
            for i in range(n):
                if gen[i] == self.generation:
                    self.take_answer(what, node[i], &row[i, 0])
                    if with_values:
                        self.take_answer(ANSWER_OFFERED_VALUE, node[i], &value_row[i, 0])
            pthread_cond_broadcast(&self.answered)
            pthread_mutex_unlock(&self.lock)

    cdef void take_answer(self, int what, int node, const float* answer) noexcept nogil:
        cdef Node* nd = &self.nodes[node]
        if what == ANSWER_PRIORS:
            self.pending_policy -= 1
            self.set_priors(node, answer)
        elif what == ANSWER_NO_PRIORS:
            self.pending_policy -= 1
            nd.flags &= ~PRIORS_PENDING
            self.settle_waiter(node)
        elif what == ANSWER_NO_VALUE:
            self.pending_value -= 1
            nd.flags &= ~VALUE_PENDING
        else:
            if what == ANSWER_VALUE:
                self.pending_value -= 1
            if what == ANSWER_VALUE or not (nd.flags & (VALUE_DONE | VALUE_PENDING)):
                nd.flags = (nd.flags & ~VALUE_PENDING) | VALUE_DONE
                nd.value = clamp_value(-answer[0])
                nd.value_true = clamp_value(-answer[1])
                nd.net_score = -answer[2] if self.scores_with_values else 0.0
                self.backup_value(node, nd.value, nd.value_true, nd.net_score)
            self.settle_waiter(node)

    cdef void set_priors(self, int node, const float* logits) noexcept nogil:
        cdef Node* c
        cdef int i, first = self.nodes[node].first_child, k = self.nodes[node].num_children
        cdef int idx
        cdef double top = -1e300, total = 0, share, x
        cdef const BoardState* b = &self.root_state   # only size and stride are used
        for i in range(first, first + k):
            c = &self.nodes[i]
            if c.move != PASS_POINT and logits[move_index(b, c.move)] > top:
                top = logits[move_index(b, c.move)]
        for i in range(first, first + k):
            c = &self.nodes[i]
            if c.move != PASS_POINT:
                c.prior = exp((logits[move_index(b, c.move)] - top) / self.temperature)
                total += c.prior
        share = 1.0 - self.pass_prior
        for i in range(first, first + k):
            c = &self.nodes[i]
            if c.move == PASS_POINT:
                c.prior = self.pass_prior if total > 0 else 1.0
            else:
                c.prior = c.prior * share / total
        self.cut_lost_ladders(node)
        self.nodes[node].flags = (self.nodes[node].flags & ~PRIORS_PENDING) | PRIORS_FINAL

    cdef void cut_lost_ladders(self, int node) noexcept nogil:
        """A child that runs out a dead ladder or chases a failing one (LOST_LADDER,
        Board.is_lost_ladder_move) gets at most lost_ladder_prior, whatever the policy thought; the other moves share what it
        gave up, in proportion (pass keeps its prior)."""
        cdef Node* c
        cdef int i, first = self.nodes[node].first_child, k = self.nodes[node].num_children
        cdef double freed = 0, rest = 0
        for i in range(first, first + k):
            c = &self.nodes[i]
            if c.flags & LOST_LADDER:
                if c.prior > self.lost_ladder_prior:
                    freed += c.prior - self.lost_ladder_prior
                    c.prior = self.lost_ladder_prior
            elif c.move != PASS_POINT:
                rest += c.prior
        if freed <= 0 or rest <= 0:
            return
        for i in range(first, first + k):
            c = &self.nodes[i]
            if not (c.flags & LOST_LADDER) and c.move != PASS_POINT:
                c.prior += freed * c.prior / rest

    # -- inspection ---------------------------------------------------------

    @property
    def node_count(self):
        return self.used

    @property
    def size(self):
        return self.root_state.size

    def children(self, int node=-1):
        """The children of `node` (default: the root) as a dict of numpy arrays:
        node, move (Python ints, -1 pass), prior, n_v, w_v, n_r, w_r, q, forbidden,
        score (the mean final score the score utility weighs: the finished rollouts',
        mixed with the network's where values carry scores; 0 without one) and q_true
        (Q with the rollouts counted at the true komi: the win rate to report; q itself
        where the rollouts count at the true komi).
        Statistics are from the point of view of the player to move at `node`."""
        cdef int first, k, i
        cdef Node* c
        cdef double mean_score
        cdef bint shifted = self.komi != self.true_komi
        if node < 0:
            node = self.root
        with nogil:
            pthread_mutex_lock(&self.lock)
        first = self.nodes[node].first_child
        k = self.nodes[node].num_children
        out = {name: np.zeros(k, dtype) for name, dtype in (
            ('node', np.int32), ('move', np.int32), ('prior', np.float64), ('n_v', np.int64),
            ('w_v', np.float64), ('n_r', np.int64), ('w_r', np.float64), ('q', np.float64),
            ('forbidden', bool), ('score', np.float64), ('q_true', np.float64))}
        for i in range(k):
            c = &self.nodes[first + i]
            out['node'][i] = first + i
            out['move'][i] = move_index(&self.root_state, c.move)
            out['prior'][i] = c.prior
            out['n_v'][i] = c.n_v
            out['w_v'][i] = c.w_v
            out['n_r'][i] = c.n_r
            out['w_r'][i] = c.w_r
            out['q'][i] = node_q(c, self.mixing)
            out['q_true'][i] = node_q_true(c, self.mixing) if shifted else out['q'][i]
            out['forbidden'][i] = bool(c.flags & FORBIDDEN)
            out['score'][i] = (mean_score if node_score(c, self.mixing, self.scores_with_values,
                                                        &mean_score) else 0.0)
        with nogil:
            pthread_mutex_unlock(&self.lock)
        return out

    def node(self, int node):
        """One node's record as a dict (statistics from its mover's view)."""
        cdef Node* c = &self.nodes[node]
        return dict(parent=c.parent, first_child=c.first_child, num_children=c.num_children,
                    move=move_index(&self.root_state, c.move), prior=c.prior, value=c.value,
                    value_true=c.value_true, w_vt=c.w_vt,
                    n_v=c.n_v, w_v=c.w_v, n_r=c.n_r, w_r=c.w_r, q=node_q(c, self.mixing),
                    n_s=c.n_s, w_s=c.w_s, w_t=c.w_t, net_score=c.net_score, w_ns=c.w_ns,
                    value_done=bool(c.flags & VALUE_DONE),
                    priors_final=bool(c.flags & PRIORS_FINAL))

    def stats(self):
        """Counters and the simulation threads' time split (seconds, summed over threads)."""
        return dict(sims=self.sims_done, rollouts=self.rollouts, expansions=self.expansions,
                    value_backups=self.value_backups, deferred_expansions=self.deferred_expansions,
                    skipped_values=self.skipped_values, pool_full=self.full_events,
                    waiting=self.waiting, collisions=self.collisions,
                    nodes=self.used, capacity=self.capacity,
                    pending_policy=self.pending_policy, pending_value=self.pending_value,
                    time_wait=self.timing.wait, time_select=self.timing.select,
                    time_rollout=self.timing.rollout, time_backup=self.timing.backup)

    def reset_stats(self):
        self.rollouts = self.expansions = self.value_backups = 0
        self.deferred_expansions = self.skipped_values = self.full_events = 0
        self.collisions = 0
        self.sims_done = 0
        self.timing.wait = self.timing.select = self.timing.rollout = self.timing.backup = 0

    # -- hooks for tests: one step at a time, on the caller's thread -----------

    def set_stats(self, int node, prior=None, n_v=None, w_v=None, n_r=None, w_r=None,
                  w_vt=None):
        """Overwrite a node's statistics (hand-made positions in tests); w_vt, the values
        at the true komi, follows w_v unless given."""
        cdef Node* c = &self.nodes[node]
        c.prior = c.prior if prior is None else prior
        c.n_v = c.n_v if n_v is None else n_v
        c.w_vt = w_vt if w_vt is not None else c.w_vt if w_v is None else w_v
        c.w_v = c.w_v if w_v is None else w_v
        c.n_r = c.n_r if n_r is None else n_r
        c.w_r = c.w_r if w_r is None else w_r

    def set_scores(self, int node, int n_s, double w_s, w_ns=None):
        """Overwrite a node's finished rollouts and their summed scores, and the network
        scores summed with its n_v values (tests)."""
        self.nodes[node].n_s = n_s
        self.nodes[node].w_s = w_s
        if w_ns is not None:
            self.nodes[node].w_ns = w_ns

    def pick_child(self, int node, double side=1.0):
        """The child PUCT selects at `node` (no virtual loss, nothing changes); `side`
        as select_child has it (+1: the root's player chooses), restrictions as at the root."""
        return self.select_child(node, side, 0, self.root_state.to_move)

    def descend_once(self):
        """Selection only, as a simulation does it (virtual losses stay charged).
        Returns the leaf node; finish it with backup_once."""
        cdef BoardState* b = <BoardState*>malloc(sizeof(BoardState))
        cdef int leaf
        copy_state(b, &self.root_state)
        leaf = self.descend(b)
        free(b)
        return leaf

    def backup_once(self, int leaf, rollout=None, value=None, score=None, true_score=None,
                    net_score=0.0, true_value=None):
        """Back up a rollout result, a value (with the network's expected score, and the
        value at the true komi if another) and/or a rollout's final score for the player
        to move at `leaf` (true_score: the score at the true komi, if another)."""
        if rollout is not None:
            self.backup_rollout(leaf, -float(rollout))
        if value is not None:
            self.backup_value(leaf, -float(value),
                              -float(value if true_value is None else true_value),
                              -float(net_score))
        if score is not None:
            self.backup_score(leaf, -float(score), -sign_of(score if true_score is None
                                                           else true_score))


def play_rollouts(RolloutPolicy policy, bytes root, moves, offsets, double komi, uint64_t seed):
    """A rollout worker's half (goengine.search.remote): for each leaf, the root's C struct
    (Tree.root_state_bytes, the same build) with the leaf's moves played, one rollout of
    `policy`, and its final score at `komi` for the player to move at the leaf."""
    if len(root) != sizeof(BoardState):
        raise ValueError(f'a root of {len(root)} bytes, this build has {sizeof(BoardState)}')
    cdef const int32_t[::1] path = np.ascontiguousarray(moves, dtype=np.int32)
    cdef const int32_t[::1] start = np.ascontiguousarray(offsets, dtype=np.int32)
    cdef int i, k, colour, n = len(start) - 1
    cdef double[::1] scores = np.empty(max(n, 0), dtype=np.float64)
    cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
    cdef const char* src = root
    cdef BoardState* b = <BoardState*>malloc(sizeof(BoardState))
    cdef BoardState* origin = <BoardState*>malloc(sizeof(BoardState))
    if b == NULL or origin == NULL:
        free(b)
        free(origin)
        raise MemoryError()
    memcpy(origin, src, sizeof(BoardState))
    with nogil:
        for i in range(n):
            copy_state(b, origin)
            for k in range(start[i], start[i + 1]):
                play_move(b, path[k], b.to_move)
            colour = b.to_move
            rollout_play(policy.model, b, &rng)
            scores[i] = score_for(b, komi, colour)
    free(b)
    free(origin)
    return np.asarray(scores)
