"""Training examples from stored games, as a shuffled, resumable stream of minibatches.

Positions of one game are strongly correlated, so the stream never feeds a
minibatch from a single game: each "chunk" takes a few random positions from
each of many games (games in a per-epoch random order across all months),
shuffles the pooled examples and cuts them into minibatches. Everything is
seeded by (seed, epoch, chunk), so a stream position (epoch, chunk, batch)
replays exactly; that is what a training checkpoint stores.
"""

import itertools
import math
import queue
import signal
import time
from multiprocessing import get_context
from typing import NamedTuple

import numpy as np

from goengine import BLACK, PASS
from goengine.nn import features
from goengine.nn.komi import SCORE_KOMI
from goengine.game.sgffile import SgfError, iter_positions

CHUNK_POSITIONS = 4096  # examples pooled and shuffled together (~70 MB of planes)
# With several processes (training/distributed.py) every rank must take the
# same number of steps a chunk, and the ranks' shares of a chunk hold
# different numbers of examples (short games, games without a result): each
# takes this share of the examples its games would give at most, repeating
# some where its share is short.
RANK_FILL = 0.75


class PolicyExamples:
    """Input: 48 policy planes; target: the move played (never a pass: the net has no pass output)."""
    kind = "policy"
    num_planes = features.NUM_POLICY_PLANES
    target_dtype = np.int64
    target_shape = ()

    def eligible(self, game):
        return [i for i, (_, move) in enumerate(game.moves) if move != PASS]

    def make(self, board, color, move, game, symmetry):
        planes = features.apply_symmetry(features.policy_planes(board), symmetry)
        return planes, features.symmetric_move(move, symmetry, game.size)


class ValueExamples:
    """Input: 49 value planes; target: +1 if the player to move won the game, else -1.

    Games without a winner (draw, void, unknown result) give no examples, nor
    do games won on time or by forfeit: their outcome is not in the positions.
    from_fraction > 0 keeps only the positions after that fraction of each
    game's moves: late positions, whose outcome is mostly decided, give a
    value net its first signal (a curriculum; validation stays on all moves).
    with_moves: the target is the pair (outcome, move played), the move as
    row * size + col under the same symmetry, -1 for a pass; it feeds the
    value net's training-only move head.
    """
    kind = "value"
    num_planes = features.NUM_VALUE_PLANES
    target_dtype = np.float32

    def __init__(self, from_fraction=0.0, with_moves=False):
        if not 0.0 <= from_fraction < 1.0:
            raise ValueError(f"from_fraction must be in [0, 1), got {from_fraction}")
        self.from_fraction, self.with_moves = from_fraction, with_moves
        self.target_shape = (2,) if with_moves else ()

    def eligible(self, game):
        if not game.won_on_the_board:
            return []
        return list(range(int(self.from_fraction * len(game.moves)), len(game.moves)))

    def make(self, board, color, move, game, symmetry):
        planes = features.apply_symmetry(features.value_planes(board), symmetry)
        outcome = 1.0 if color == game.winner else -1.0
        if self.with_moves:
            return planes, (outcome, float(features.symmetric_move(move, symmetry, game.size)))
        return planes, outcome


class HeadsExamples:
    """Input: 49 value planes; target: one float vector for the four heads (HeadsNet).

    Every position whose move is not a pass gives an example. Its target holds,
    at the HEADS_* indices: the move played (policy), the outcome for the player
    to move and whether there is one (a game won on the board), whether the
    final ownership is known and the final margin at the score head's komi
    (goengine.nn.komi.SCORE_KOMI) when the game was counted (NaN otherwise),
    then the final owner of every point from the player to move's view (+1
    theirs), all under the position's symmetry. The
    ownership and margin come from the game's FinalLabel (training/labels.py):
    the store must have its labels loaded (GameStore.load_labels).
    """
    kind = "heads"
    num_planes = features.NUM_VALUE_PLANES
    target_dtype = np.float32
    needs_labels = True

    def __init__(self, size=19, final_labels=True):
        """final_labels=False: a store without labels gives the move and the outcome alone
        (no ownership map, no margin)."""
        self.target_shape = (HEADS_OWNERSHIP + size * size,)
        self.needs_labels = final_labels

    def eligible(self, game):
        return [i for i, (_, move) in enumerate(game.moves) if move != PASS]

    def make(self, board, color, move, game, symmetry):
        if game.label is None and self.needs_labels:
            raise ValueError("HeadsExamples needs a store with its labels loaded")
        planes, target, sign = move_and_outcome(board, color, move, game, symmetry,
                                                self.target_shape)
        label = game.label
        if label is None:
            target[HEADS_MARGIN] = np.nan
            return planes, target
        # the final margin at the score head's komi (SCORE_KOMI); NaN stays NaN
        target[HEADS_MARGIN] = sign * (label.margin + game.komi - SCORE_KOMI)
        if label.has_ownership:
            target[HEADS_HAS_OWNERSHIP] = 1.0
            owner = features.apply_symmetry(label.ownership, symmetry)
            target[HEADS_OWNERSHIP:] = sign * owner.reshape(-1)
        return planes, target


def move_and_outcome(board, color, move, game, symmetry, shape):
    """(value planes, a target vector of `shape` holding the move played and the outcome for
    the player to move, +1 for Black's position and -1 for White's), under `symmetry`."""
    planes = features.apply_symmetry(features.value_planes(board), symmetry)
    target = np.zeros(shape, np.float32)
    target[HEADS_MOVE] = features.symmetric_move(move, symmetry, game.size)
    if game.won_on_the_board:
        target[HEADS_OUTCOME] = 1.0 if color == game.winner else -1.0
        target[HEADS_HAS_OUTCOME] = 1.0
    return planes, target, 1.0 if color == BLACK else -1.0


# Where HeadsExamples puts each target in its vector.
HEADS_MOVE, HEADS_OUTCOME, HEADS_HAS_OUTCOME, HEADS_HAS_OWNERSHIP, HEADS_MARGIN = range(5)
HEADS_OWNERSHIP = 5
# TeacherExamples follow them with the teacher's 361 + 1 move probabilities and its value.
TEACHER_POLICY = HEADS_OWNERSHIP + 19 * 19
TEACHER_VALUE = TEACHER_POLICY + 19 * 19 + 1


class TeacherExamples:
    """HeadsExamples' targets at the positions the teacher labelled (training/teacher_labels.py),
    where its answers replace what the final board says and join the human move and outcome:

    - the ownership: the teacher's map (every labelled position has one);
    - the margin: the teacher's lead, moved to the score head's komi (SCORE_KOMI);
    - at TEACHER_POLICY, its move distribution (top moves, under the position's symmetry; pass last);
    - at TEACHER_VALUE, its value for the player to move, NaN where the teacher was told
      another komi than the game's (the value head knows the games' komi only).

    No final-board labels are needed. Games are known by their store index (Game.index).
    """
    kind = "heads"
    num_planes = features.NUM_VALUE_PLANES
    target_dtype = np.float32
    needs_labels = False

    def __init__(self, labels, size=19):
        if size != 19:
            raise ValueError("the teacher labels 19x19 games only")
        self.labels = labels
        self.target_shape = (TEACHER_VALUE + 1,)
        self.rows = {}
        for row, (game, move) in enumerate(zip(labels["game"].tolist(), labels["move"].tolist())):
            self.rows.setdefault(game, {})[move] = row

    def eligible(self, game):
        rows = self.rows.get(game.index, {})
        return sorted(m for m in rows if m < len(game.moves) and game.moves[m][1] != PASS)

    def make(self, board, color, move, game, symmetry):
        labels, row = self.labels, self.rows[game.index][board.move_number]
        planes, target, sign = move_and_outcome(board, color, move, game, symmetry,
                                                self.target_shape)
        komi = float(labels["komi"][row])
        target[HEADS_MARGIN] = sign * (float(labels["black_lead"][row]) + komi - SCORE_KOMI)
        target[HEADS_HAS_OWNERSHIP] = 1.0
        owner = labels["ownership"][row].astype(np.float32) / 127.0
        target[HEADS_OWNERSHIP:TEACHER_POLICY] = sign * features.apply_symmetry(owner, symmetry).reshape(-1)
        for m, p in zip(labels["policy_moves"][row].tolist(), labels["policy_probs"][row].tolist()):
            if m == PASS:
                target[TEACHER_POLICY + 361] += p
            elif m >= 0:
                target[TEACHER_POLICY + features.symmetric_move(m, symmetry, 19)] += p
        if abs(komi - game.komi) < 1e-3:
            black = float(labels["black_win"][row])
            # Black's win against the rest (the teacher's no-result share, about 0.2 %,
            # counts as Black's loss)
            target[TEACHER_VALUE] = sign * (2.0 * black - 1.0)
        else:
            target[TEACHER_VALUE] = np.nan
        return planes, target


def game_examples(maker, game, picks, symmetries):
    """Examples at move indices `picks` (sorted) of one game; a replay error ends the game early."""
    out = []
    wanted = dict(zip(picks, symmetries))
    try:
        for index, (board, color, move) in enumerate(iter_positions(game, copy=False)):
            if index in wanted:
                out.append(maker.make(board, color, move, game, wanted[index]))
                if len(out) == len(wanted):
                    break
    except SgfError:
        pass
    return out


def sample_examples(maker, games, per_game, rng, symmetries=True):
    """(planes, targets) arrays with up to `per_game` random positions of each game."""
    planes, targets, size = [], [], 19
    for game in games:
        size = game.size
        eligible = maker.eligible(game)
        if not eligible:
            continue
        picks = np.sort(rng.choice(eligible, min(per_game, len(eligible)), replace=False))
        syms = rng.integers(8, size=len(picks)) if symmetries else np.zeros(len(picks), int)
        for p, t in game_examples(maker, game, picks.tolist(), syms.tolist()):
            planes.append(p)
            targets.append(t)
    if not planes:
        return (np.zeros((0, maker.num_planes, size, size), np.uint8),
                np.zeros((0,) + maker.target_shape, maker.target_dtype))
    return np.stack(planes).astype(np.uint8, copy=False), np.array(targets, maker.target_dtype)


def fixed_sample(maker, store, count, seed=0):
    """A fixed held-out sample: `count` examples from distinct games (cycling if too few).

    No symmetry: validation measures the network on positions as they were played.
    """
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(store))
    per_game = max(1, math.ceil(count / max(1, len(store))))
    planes, targets = sample_examples(maker, (store[int(i)] for i in order[:count]),
                                      per_game, rng, symmetries=False)
    return planes[:count], targets[:count]


class BatchStream:
    """Endless deterministic minibatches (planes uint8, targets) over a GameStore."""

    def __init__(self, store, maker, batch_size, positions_per_game=8, seed=0,
                 chunk_positions=CHUNK_POSITIONS, rank=0, world=1):
        """batch_size is this process's share of a minibatch; with world > 1 processes,
        rank takes every world-th game of each chunk."""
        self.store, self.maker, self.batch_size = store, maker, batch_size
        self.rank, self.world = rank, world
        self.per_game, self.seed = positions_per_game, seed
        self.games_per_chunk = max(1, math.ceil(chunk_positions / positions_per_game))
        self.chunks_per_epoch = math.ceil(len(store) / self.games_per_chunk)
        self._order = (None, None)

    def order(self, epoch):
        """The games in a fresh random order each epoch (shuffled across all months)."""
        if self._order[0] != epoch:
            self._order = (epoch, np.random.default_rng([self.seed, epoch]).permutation(len(self.store)))
        return self._order[1]

    def chunk_games(self, epoch, chunk):
        """The games of one chunk (all ranks' together)."""
        return self.order(epoch)[chunk * self.games_per_chunk:(chunk + 1) * self.games_per_chunk]

    def chunk(self, epoch, chunk):
        """The shuffled examples of one chunk (this rank's share of them)."""
        key = [self.seed, epoch, chunk, 1] + ([self.rank] if self.world > 1 else [])
        rng = np.random.default_rng(key)
        ids = self.chunk_games(epoch, chunk)[self.rank::self.world]
        planes, targets = sample_examples(self.maker, (self.store[int(i)] for i in ids),
                                          self.per_game, rng)
        shuffle = rng.permutation(len(targets))
        return planes[shuffle], targets[shuffle]

    def batch_count(self, epoch, chunk, examples):
        """Minibatches of one chunk: as many as its examples fill in one process; with
        several, the same number on every rank (RANK_FILL), whatever its share holds."""
        if self.world == 1:
            return examples // self.batch_size
        games = len(self.chunk_games(epoch, chunk)) // self.world
        return max(1, int(RANK_FILL * games * self.per_game) // self.batch_size)

    def chunk_batches(self, epoch, chunk, first_batch=0):
        """Yield (planes, targets, next_position) for the minibatches of one chunk."""
        planes, targets = self.chunk(epoch, chunk)
        count = self.batch_count(epoch, chunk, len(targets))
        if len(targets) < count * self.batch_size:   # a short share: repeat some examples
            if len(targets) == 0:
                raise ValueError(f"rank {self.rank}: no examples in chunk {chunk}")
            take = np.arange(count * self.batch_size) % len(targets)
            planes, targets = planes[take], targets[take]
        for b in range(first_batch, count):
            if b + 1 < count:
                nxt = (epoch, chunk, b + 1)
            elif chunk + 1 < self.chunks_per_epoch:
                nxt = (epoch, chunk + 1, 0)
            else:
                nxt = (epoch + 1, 0, 0)
            s = slice(b * self.batch_size, (b + 1) * self.batch_size)
            yield planes[s], targets[s], nxt

    def global_chunk(self, position):
        """The number of chunks before `position` since the start of the stream."""
        return position[0] * self.chunks_per_epoch + position[1]

    def chunks(self, position, index=0, count=1):
        """(epoch, chunk, first batch) of the chunks from `position` on; with `count`
        workers, worker `index` takes the chunks g (counted from the stream's start)
        with g % count == index."""
        start = self.global_chunk(position)
        for g in itertools.count(start + (index - start) % count, count):
            epoch, chunk = divmod(g, self.chunks_per_epoch)
            yield epoch, chunk, position[2] if g == start else 0

    def batches(self, position=(0, 0, 0)):
        """Yield (planes, targets, next_position); resuming at next_position continues exactly."""
        empty = 0
        for epoch, chunk, first in self.chunks(position):
            empty += 1
            for item in self.chunk_batches(epoch, chunk, first):
                empty = 0
                yield item
            if empty > self.chunks_per_epoch:  # a whole epoch without one batch
                raise ValueError(f"too few positions for one batch of {self.batch_size} per chunk")


def measure_rate(stream):
    """(positions/s of the input pipeline in one process, the planes, the targets) of one chunk."""
    start = time.perf_counter()
    planes, targets = stream.chunk(10**6, 0)  # an epoch training never reaches
    return len(targets) / (time.perf_counter() - start), planes, targets


class PackedPlanes(NamedTuple):
    """A minibatch's feature planes, 8 to a byte (np.packbits).

    Every AlphaGo plane is 0 or 1, so a position is 2,166 bytes instead of
    17,328. Worker processes send batches in this form: on a GPU the
    trainer's one process receiving 17 MB batches through pipes was the
    bottleneck, and the device unpacks them far faster (trainer.as_input).
    """
    bits: np.ndarray  # (batch, ceil(planes * size * size / 8)) uint8
    shape: tuple      # (batch, planes, size, size)

    @classmethod
    def pack(cls, planes):
        if planes.size and planes.max() > 1:
            raise ValueError("only 0/1 planes can be packed into bits")
        return cls(np.packbits(planes.reshape(len(planes), -1), axis=1), planes.shape)

    def unpack(self):
        """The uint8 planes again."""
        per_position = int(np.prod(self.shape[1:]))
        return np.unpackbits(self.bits, axis=1, count=per_position).reshape(self.shape)


def _worker_main(store_path, maker, kwargs, position, index, count, out):
    """Worker `index` of `count`: the chunks g with g % count == index, each followed by None."""
    from training.dataset import GameStore
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the trainer, which stops us
    store = GameStore.load(store_path)
    if getattr(maker, "needs_labels", False):
        store.load_labels()
    stream = BatchStream(store, maker, **kwargs)
    for epoch, chunk, first in stream.chunks(position, index, count):
        for planes, targets, position_after in stream.chunk_batches(epoch, chunk, first):
            out.put((PackedPlanes.pack(planes), targets, position_after))
        out.put(None)


class BatchWorkers:
    """The same stream as BatchStream(...).batches(position), built by `count` processes,
    with the planes as PackedPlanes.

    Feature planes cost about as much CPU as a training step on a CPU, and far
    more than a step on a GPU, so they are made in other processes: each takes
    every count-th chunk, and the minibatches are read back in chunk order, so
    the stream (and a resumed run) is the same for any number of workers.
    """

    def __init__(self, store, maker, kwargs, position, count=1, prefetch=32):
        if store.path is None:
            raise ValueError("batch workers load the game store from its .npz file")
        ctx = get_context("spawn")
        store_path = store.path
        self.count = count
        self.chunk = BatchStream(store, maker, **kwargs).global_chunk(position)
        self.queues = [ctx.Queue(prefetch) for _ in range(count)]
        self.processes = [ctx.Process(target=_worker_main, daemon=True,
                                      args=(store_path, maker, kwargs, position, i, count, q))
                          for i, q in enumerate(self.queues)]
        for process in self.processes:
            process.start()

    def _get(self, index):
        while True:
            try:
                return self.queues[index].get(timeout=5)
            except queue.Empty:
                dead = [p for p in self.processes if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"batch worker died (exit code {dead[0].exitcode})")

    def __iter__(self):
        while True:
            item = self._get(self.chunk % self.count)
            if item is None:
                self.chunk += 1
            else:
                yield item

    def close(self):
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(timeout=10)
