"""The network thread: batches the search's requests for both networks.

Simulation threads never wait for a network. They queue positions in the
tree (goengine.search._tree) and carry on with their rollouts; this one thread takes
whatever is queued (up to a batch), computes the input planes, runs the SL
policy and the value network, and hands the answers back to the tree, which
replaces placeholder priors and backs up values. This is AlphaGo's
asynchronous policy and value evaluation (Silver et al. 2016, Methods), with
a CPU thread in place of the GPUs.

A four-headed network answers both in one call; its value is read at the komi the
rollouts count with (dynamic komi included) and at the game's, which the reports use,
through its score head (NetworkEvaluator.search_answers).

A leaf where a ladder is already decided (Board.without_dead_ladders: the mover's chain
in atari that cannot escape, the opponent's chain the mover can ladder) gets its value
from the board with that chain taken off, its priors from the board as it is: networks
trained on strong players' games, where no dead ladder is run out, read such a chain as
alive.

Every position goes through the network in a random one of the 8 board
symmetries (the policy map is turned back afterwards), as AlphaGo did: over
many evaluations this averages out the network's orientation biases.
"""

import atexit
import threading
import time
import weakref

import numpy as np

from goengine import WHITE, Board
from goengine.nn import features
from goengine.search._tree import REQUEST_POLICY, REQUEST_VALUE


_running = weakref.WeakSet()


@atexit.register
def _close_all():
    """Stop network threads before torch is torn down (else it aborts at exit)."""
    for thread in list(_running):
        thread.close()


class NetworkThread:
    """Serves `tree`'s requests with `policy_eval` / `value_eval`
    (goengine.nn.inference.NetworkEvaluator objects, either may be None)."""

    def __init__(self, tree, policy_eval=None, value_eval=None, batch_size=16, seed=0,
                 ladder_min_stones=5):
        self.tree = tree
        self.ladder_min_stones = ladder_min_stones
        self.policy_eval = policy_eval
        self.value_eval = value_eval
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)
        self.boards = [Board(19) for _ in range(batch_size)]
        self.closed = False
        self.error = None
        self.reset_stats()
        self.thread = threading.Thread(target=self._loop, name='goengine-networks', daemon=True)
        self.thread.start()
        _running.add(self)

    @property
    def shared(self):
        """Whether one four-headed network answers both: its value then comes with
        every policy evaluation (Tree.apply_values, offered), at no cost of its own."""
        return self.policy_eval is not None and self.policy_eval is self.value_eval

    def serves(self, size):
        """(policy, value): which networks can evaluate positions of this board size."""
        return (self.policy_eval is not None and self.policy_eval.board_size == size,
                self.value_eval is not None and self.value_eval.board_size == size)

    def close(self):
        self.closed = True
        self.tree.wake_waiters()
        self.thread.join(timeout=5)

    def reset_stats(self):
        self.stats = dict(policy_evals=0, value_evals=0, ladder_evals=0, batches=0,
                          time_features=0.0,
                          time_policy=0.0, time_value=0.0, time_apply=0.0, time_busy=0.0)

    # -- the loop -----------------------------------------------------------

    def _loop(self):
        while not self.closed:
            kinds, nodes, gens = self.tree.take_requests(self.boards, 0.05)
            if not kinds:
                continue
            start = time.perf_counter()
            self._serve(np.array(kinds), np.array(nodes), np.array(gens))
            self.stats['batches'] += 1
            self.stats['time_busy'] += time.perf_counter() - start

    def _serve(self, kinds, nodes, gens):
        for kind in (REQUEST_POLICY, REQUEST_VALUE):
            chosen = np.flatnonzero(kinds == kind)
            if len(chosen) == 0:
                continue
            try:
                self._evaluate(kind, chosen, nodes, gens)
            except Exception as exc:   # the search goes on with rollouts; Search reports it
                self.tree.drop_requests(kind, nodes[chosen], gens[chosen])
                if self.error is None:
                    self.error = exc

    def _evaluate(self, kind, chosen, nodes, gens):
        """One network call for the requests `chosen` of one kind, each in a random symmetry
        (and one more for the values of the leaves whose ladders are decided)."""
        t0 = time.perf_counter()
        boards = [self.boards[i] for i in chosen]
        resolved = self._resolved(boards)
        if kind == REQUEST_VALUE:
            boards = [r if r is not None else b for b, r in zip(boards, resolved)]
        planes, syms = self._symmetric_planes(kind, boards)
        t1 = time.perf_counter()
        values = true_values = scores = None
        if kind == REQUEST_POLICY and self.shared:
            logits, *answers = self._policy_and_values(planes, boards)
            values, true_values, scores = (None if a is None else
                                           np.array(a, dtype=np.float32).reshape(-1)
                                           for a in answers)
            out = self._in_board_orientation(logits, syms)
            ladders = [i for i, r in enumerate(resolved) if r is not None]
            if ladders:
                fixed = [resolved[i] for i in ladders]
                _, v, tv, sc = self._policy_and_values(
                    self._symmetric_planes(kind, fixed)[0], fixed)
                for array, new in ((values, v), (true_values, tv), (scores, sc)):
                    if array is not None:
                        array[ladders] = np.asarray(new, dtype=np.float32).reshape(-1)
                self.stats['ladder_evals'] += len(ladders)
        elif kind == REQUEST_POLICY:
            out = self._in_board_orientation(self.policy_eval.logits(planes), syms)
        else:
            out = np.asarray(self.value_eval.value(planes), dtype=np.float32).reshape(-1)
            self.stats['ladder_evals'] += sum(r is not None for r in resolved)
        t2 = time.perf_counter()
        if kind == REQUEST_POLICY and values is not None:
            self.tree.apply_evaluations(nodes[chosen], gens[chosen], out, values,
                                        true_values=true_values,
                                        scores=scores if self.tree.scores_with_values else None)
            self.stats['value_evals'] += len(chosen)
        elif kind == REQUEST_POLICY:
            self.tree.apply_priors(nodes[chosen], gens[chosen], out)
        else:
            self.tree.apply_values(nodes[chosen], gens[chosen], out)
        t3 = time.perf_counter()
        name = 'policy' if kind == REQUEST_POLICY else 'value'
        self.stats[f'{name}_evals'] += len(chosen)
        self.stats[f'time_{name}'] += t2 - t1
        self.stats['time_features'] += t1 - t0
        self.stats['time_apply'] += t3 - t2

    def _resolved(self, boards):
        """Board.without_dead_ladders of each board (None where no ladder is decided, and
        for all with ladder_min_stones 0)."""
        if self.ladder_min_stones <= 0:
            return [None] * len(boards)
        return [board.without_dead_ladders(self.ladder_min_stones) for board in boards]

    def _symmetric_planes(self, kind, boards):
        """(planes of `boards` each in a random symmetry, the symmetries)."""
        syms = self.rng.integers(8, size=len(boards))
        planes = np.stack([features.apply_symmetry(self._planes(kind, board), int(k))
                           for board, k in zip(boards, syms)])
        return planes, syms

    def _policy_and_values(self, planes, boards):
        """(logits, values, true values, scores) of the four-headed network; true values
        and scores None without a score head."""
        if self.policy_eval.has_score:
            white = np.array([board.to_move == WHITE for board in boards])
            return self.policy_eval.search_answers(planes, white, self.tree.komi,
                                                   self.tree.true_komi)
        logits, values = self.policy_eval.policy_and_value(planes)
        return logits, values, None, None

    def _planes(self, kind, board):
        """The planes the network of `kind` reads (a four-headed one: the value planes)."""
        evaluator = self.policy_eval if kind == REQUEST_POLICY else self.value_eval
        usual = features.NUM_POLICY_PLANES if kind == REQUEST_POLICY else features.NUM_VALUE_PLANES
        return features.input_planes(board, getattr(evaluator, 'planes', usual))

    @staticmethod
    def _in_board_orientation(logits, syms):
        """Raw logits (n, size*size) turned back from each position's symmetry."""
        logits = np.asarray(logits, dtype=np.float32)
        size = int(round(np.sqrt(logits.shape[-1])))
        maps = logits.reshape(-1, size, size)
        return np.stack([features.invert_symmetry(m, int(k)) for m, k in zip(maps, syms)]
                        ).reshape(len(maps), size * size)
