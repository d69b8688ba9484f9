"""The network thread: batches the search's requests for both networks.

Simulation threads never wait for a network. They queue positions in the
tree (goengine.search._tree) and carry on with their rollouts; this one thread takes
whatever is queued (up to a batch), computes the input planes, runs the SL
policy and the value network, and hands the answers back to the tree, which
replaces placeholder priors and backs up values. This is AlphaGo's
asynchronous policy and value evaluation (Silver et al. 2016, Methods), with
a CPU thread in place of the GPUs.

A four-headed network answers both in one call; its value is read at the komi the
rollouts count with (dynamic komi included) and at the game's, which the reports use.
Every position goes through the network in a random one of the 8 board symmetries, as
AlphaGo did, and a leaf whose ladder is already decided has its value read with that
ladder resolved: both inside the one network call (NetworkEvaluator.evaluate).
"""

import atexit
import threading
import time
import weakref

import numpy as np

from goengine import Board
from goengine.search._tree import REQUEST_POLICY, REQUEST_VALUE
from goengine.nn.heads import Head


_running = weakref.WeakSet()


@atexit.register
def _close_all():
    """Stop network threads before torch is torn down (else it aborts at exit)."""
    for thread in list(_running):
        thread.close()


class NetworkThread:
    """Serves `tree`'s requests with `policy_eval` / `value_eval` (evaluators with
    NetworkEvaluator's evaluate and describe, local or remote; either may be None)."""

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
        return (self.policy_eval is not None and self.policy_eval.describe().serves(size),
                self.value_eval is not None and self.value_eval.describe().serves(size))

    def close(self):
        self.closed = True
        self.tree.wake_waiters()
        self.thread.join(timeout=5)

    def reset_stats(self):
        self.stats = dict(policy_evals=0, value_evals=0, ladder_evals=0, batches=0,
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
        """One network call for the requests `chosen` of one kind."""
        t1 = time.perf_counter()
        boards = [self.boards[i] for i in chosen]
        both = kind == REQUEST_POLICY and self.shared
        evaluator = self.policy_eval if kind == REQUEST_POLICY else self.value_eval
        head = Head.POLICY if kind == REQUEST_POLICY else Head.VALUE
        heads = None if both else (head,)
        out = evaluator.evaluate(boards, self.tree.komi, symmetries=self.rng,
                                 true_komi=self.tree.true_komi, heads=heads,
                                 ladders=self.ladder_min_stones)
        t2 = time.perf_counter()
        if both:
            scores = out.score_lead if self.tree.scores_with_values else None
            self.tree.apply_evaluations(nodes[chosen], gens[chosen], out.policy_logits,
                                        _float32(out.value), true_values=_float32(out.true_value),
                                        scores=_float32(scores))
            self.stats['value_evals'] += len(chosen)
        elif kind == REQUEST_POLICY:
            self.tree.apply_priors(nodes[chosen], gens[chosen], out.policy_logits)
        else:
            self.tree.apply_values(nodes[chosen], gens[chosen], _float32(out.value))
        t3 = time.perf_counter()
        self.stats[f'{head}_evals'] += len(chosen)
        self.stats['ladder_evals'] += out.reread
        self.stats[f'time_{head}'] += t2 - t1
        self.stats['time_apply'] += t3 - t2


def _float32(values):
    """A flat float32 array of `values` (None stays None), as the tree takes them."""
    return None if values is None else np.asarray(values, dtype=np.float32).reshape(-1)
