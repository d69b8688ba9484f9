# The rollout and tree policies' C API (see docs/API.md), for the search.
#
# RolloutModel is opaque to other modules: build it with RolloutPolicy.load()
# or .uniform() and pass policy.model to the nogil functions below.  The model
# is read-only once built, so any number of threads may share it; each
# thread needs its own rng state (any non-zero uint64).

from libc.stdint cimport uint64_t, int32_t
from goengine._board cimport BoardState

ctypedef struct PatternTable:
    # Open addressing, one word a slot: (pattern key << ID_BITS) | feature index.
    uint64_t* slots
    uint64_t mask
    int count

ctypedef struct RolloutModel:
    PatternTable pat3           # 3x3 keys, black to move (every symmetric image)
    PatternTable contexts       # previous-move diamond + liberties -> row of answers
    int32_t* answers            # [row * 12 + j]: response feature of diamond point j, or -1
    PatternTable diamond        # 12-point non-response keys
    int num_features
    float* rollout_weights      # the rollout policy's linear softmax weights
    float* rollout_gammas       # exp(rollout_weights)
    float* tree_weights         # the tree policy's weights

cdef void rollout_play(const RolloutModel* model, BoardState* b, uint64_t* rng) noexcept nogil
cdef int rollout_result(const RolloutModel* model, BoardState* b, double komi,
                        uint64_t* rng) noexcept nogil
cdef void tree_priors(const RolloutModel* model, const BoardState* b,
                      float* priors) noexcept nogil
cdef void rollout_priors(const RolloutModel* model, const BoardState* b,
                         float* priors) noexcept nogil

cdef class RolloutPolicy:
    cdef RolloutModel* model
    cdef readonly str source
    cdef readonly dict arrays
    cdef readonly bint light_playouts   # ownership() plays light playouts (RolloutPolicy.light())
