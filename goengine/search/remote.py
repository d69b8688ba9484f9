"""Distributed APV-MCTS: the tree stays on this machine, the master; rollouts and network
evaluations go to workers elsewhere (Silver et al. 2016, Methods, "Distributed APV-MCTS").

The master does all the selection, the placeholder priors and every backup. A leaf that
needs a rollout leaves with the virtual loss of its path still charged
(Tree.take_rollout_leaves); a RolloutWorker replays the leaf's moves on the root and plays
the rollout (play_rollouts, in C); the answer is backed up as an in-place rollout would be
(Tree.apply_rollouts). Networks are served the same way through NetworkWorker: the
search's network threads call a RemoteEvaluator as they call a local evaluator.

This module never imports Ray: the caller (goengine.programs.cluster) hands in the `ray`
module and the workers' actor handles. The workers are plain classes that Ray makes
actors of, so that the same code runs in a test without a cluster.

Faults: a batch that fails (its worker died) or does not come back within
`lost_after` seconds has its leaves' virtual losses taken back, uncounted, and a late
answer is ignored, so none is backed up twice; the master logs one line a loss and
keeps sending to the workers it has (a worker Ray restarts is used again once it
answers). With none left it plays rollouts in place until the search stops. The search
stops at its deadline whatever is in flight: finish() drops it.
"""

import itertools
import threading
import time

import numpy as np

from goengine.search._tree import play_rollouts


class RolloutWorker:
    """Plays rollouts for a master: the rollout policy's arrays (RolloutPolicy.arrays,
    None for uniform rollouts) arrive once, at start."""

    def __init__(self, rollout_arrays=None):
        from goengine.rollout._rollout import RolloutPolicy
        self.policy = (RolloutPolicy.uniform() if rollout_arrays is None
                       else RolloutPolicy.from_arrays(**rollout_arrays))

    def play(self, root, moves, offsets, komi, seed):
        """The final scores of one batch of leaves (play_rollouts)."""
        return play_rollouts(self.policy, root, moves, offsets, komi, seed)

    def ping(self):
        """Its process id: it answers once built."""
        import os
        return os.getpid()


class NetworkWorker:
    """Holds a network on its device (the cluster's GPU where it has one) and answers the
    search's network calls (NetworkEvaluator.evaluate) for a master. `precision` and
    `backend` are the master's --precision and --backend, read on the worker's own machine:
    auto picks by that machine's CPU kind, as it does for the master's."""

    def __init__(self, weights, device='auto', threads=None, precision='auto', backend='auto'):
        from goengine.nn import backends, netfile
        from goengine.nn.inference import pick_device
        device = pick_device(device)
        runtime = backends.pick_runtime(precision, backend, device)
        self.evaluator = backends.make_evaluator(netfile.load_network(weights), runtime,
                                                 threads=threads, device=device, weights=weights)

    def describe(self):
        return self.evaluator.describe()

    def evaluate(self, boards, komi, **options):
        return self.evaluator.evaluate(boards, komi, **options)


class RemoteEvaluator:
    """A NetworkWorker seen as the evaluator the network thread calls: describe() as the
    worker said at start, and evaluate, one round trip to the worker. A call that fails
    or takes longer than `lost_after` seconds raises, so that the network thread drops
    those requests and the search goes on; one line a loss."""

    def __init__(self, ray, worker, lost_after=5.0, log=None):
        self.ray, self.worker, self.lost_after = ray, worker, lost_after
        self.log = log or (lambda line: None)
        self.lost = False
        self.info = ray.get(worker.describe.remote(), timeout=60)

    def describe(self):
        return self.info

    def evaluate(self, boards, komi, symmetries=None, **options):
        if isinstance(symmetries, np.random.Generator):   # drawn here: the master's seed
            symmetries = symmetries.integers(8, size=len(boards))
        try:
            answer = self.ray.get(self.worker.evaluate.remote(
                boards, komi, symmetries=symmetries, **options), timeout=self.lost_after)
        except Exception as exc:     # a dead or hung worker (RayActorError, GetTimeoutError)
            if not self.lost:
                self.lost = True
                self.log(f'goengine: network worker on {self.info.device} lost '
                         f'({type(exc).__name__}); its requests dropped')
            raise
        self.lost = False
        return answer


class RemoteRollouts:
    """The master's rollout dispatcher: while a search runs, one thread takes leaves from
    the tree in batches of `batch`, keeps `per_worker` batches in flight at every worker
    and backs up what comes back.

    ray: the ray module; workers: RolloutWorker actor handles; log: a function of one line.
    """

    def __init__(self, ray, workers, batch=64, per_worker=2, lost_after=2.0, log=None):
        self.ray, self.workers = ray, list(workers)
        self.batch, self.per_worker, self.lost_after = batch, per_worker, lost_after
        self.log = log or (lambda line: None)
        self.down_until = {}          # worker index -> time before which nothing is sent
        self.lost = set()             # workers lost and not answered since
        self.seeds = itertools.count(1)
        self.thread = None
        self.stats = dict(batches=0, leaves=0, dropped=0, lost=0, latency=0.0, cpu=0.0)

    # -- one search ---------------------------------------------------------

    def begin(self, tree, seed=0):
        """Start serving `tree`'s search (after Tree.start)."""
        self.tree, self.seed = tree, seed
        self.stats.update(batches=0, leaves=0, dropped=0, latency=0.0, cpu=0.0)  # this search's
        self.pending = {}   # object ref -> (worker index, nodes, generation, colours, sent)
        self.stopping = threading.Event()
        self.root = self.ray.put(tree.root_state_bytes())
        self.komi = tree.komi
        self.thread = threading.Thread(target=self._loop, name='goengine-remote-rollouts',
                                       daemon=True)
        self.thread.start()

    def finish(self):
        """End of the search (after Tree.stop): nothing more is sent, and every leaf still
        out takes its virtual loss back at once; answers still to come are ignored."""
        if self.thread is None:
            return
        self.stopping.set()
        self.thread.join()
        self.thread = None
        for _, nodes, generation, _, _ in self.pending.values():
            self._drop(nodes, generation)
        self.pending.clear()

    # -- the loop -------------------------------------------------------------

    def _loop(self):
        start = time.thread_time()
        try:
            self._dispatch()
        finally:
            self.stats['cpu'] += time.thread_time() - start   # the master's share, Ray's included

    def _dispatch(self):
        while not self.stopping.is_set():
            now = time.monotonic()
            live = [i for i in range(len(self.workers)) if self.down_until.get(i, 0) <= now]
            if not live and not self.pending:
                self.tree.run(next(self.seeds))   # no worker left: in place until the stop
                return
            sent = self._fill(live)
            if self.pending:
                self._collect(timeout=0 if sent else 0.002)
            elif not sent:
                time.sleep(0.001)             # the tree is stopping or its limit is reached
            self._expire(time.monotonic())

    def _fill(self, live):
        """Send batches until every live worker has per_worker in flight; how many sent."""
        out = {}
        for worker, *_ in self.pending.values():
            out[worker] = out.get(worker, 0) + 1
        sent = 0
        for i in live:
            while out.get(i, 0) < self.per_worker:
                leaves = self.tree.take_rollout_leaves(self.batch)
                nodes, generation, colours, moves, offsets = leaves
                if len(nodes) == 0:
                    return sent
                ref = self.workers[i].play.remote(self.root, moves, offsets, self.komi,
                                                  1_000_003 * self.seed + next(self.seeds))
                self.pending[ref] = (i, nodes, generation, colours, time.monotonic())
                out[i] = out.get(i, 0) + 1
                sent += 1
        return sent

    def _collect(self, timeout):
        ready, _ = self.ray.wait(list(self.pending), num_returns=len(self.pending),
                                 timeout=timeout)
        for ref in ready:
            if ref not in self.pending:
                continue                  # given up with its worker a moment ago
            worker, nodes, generation, colours, sent = self.pending.pop(ref)
            try:
                scores = self.ray.get(ref)
            except Exception as exc:      # the worker died (RayActorError and its kin)
                self._drop(nodes, generation)
                self._lose(worker, type(exc).__name__)
                continue
            self.tree.apply_rollouts(nodes, generation, colours, scores)
            self._answered(worker)
            self.stats['batches'] += 1
            self.stats['leaves'] += len(nodes)
            self.stats['latency'] += time.monotonic() - sent

    def _expire(self, now):
        """Batches out longer than lost_after: their worker counts as lost for now."""
        for ref, (worker, nodes, generation, _, sent) in list(self.pending.items()):
            if now - sent > self.lost_after:
                del self.pending[ref]
                self._drop(nodes, generation)
                self._lose(worker, f'no answer in {self.lost_after:g} s')

    def _drop(self, nodes, generation):
        self.tree.drop_rollouts(nodes, generation)
        self.stats['dropped'] += len(nodes)

    def _lose(self, worker, why):
        """A worker's batches in flight are given up and it is tried again a second later
        (Ray restarts a dead actor); one line when it is first lost, one when it is back."""
        self.down_until[worker] = time.monotonic() + 1.0
        for ref, (w, nodes, generation, _, _) in list(self.pending.items()):
            if w == worker:
                del self.pending[ref]
                self._drop(nodes, generation)
        if worker in self.lost:
            return
        self.lost.add(worker)
        self.stats['lost'] += 1
        self.log(f'goengine: rollout worker {worker} lost ({why}); its leaves dropped, '
                 f'{len(self.workers) - len(self.lost)} of {len(self.workers)} left')

    def _answered(self, worker):
        self.down_until.pop(worker, None)
        if worker in self.lost:
            self.lost.discard(worker)
            self.log(f'goengine: rollout worker {worker} back')

    def rates(self, seconds):
        """A line for --verbose: leaves a second, batches and their mean round trip."""
        s = self.stats
        trip = s['latency'] / s['batches'] * 1000 if s['batches'] else 0.0
        cost = s['cpu'] / s['leaves'] * 1e6 if s['leaves'] else 0.0
        rate = s['leaves'] / max(seconds, 1e-9)
        return (f"remote rollouts: {len(self.workers)} workers, {rate:.0f} leaves/s, "
                f"{s['batches']} batches of {self.batch}, round trip {trip:.1f} ms, "
                f"dispatch {cost:.0f} us CPU a leaf, {s['dropped']} dropped, {s['lost']} losses")

    def close(self):
        self.finish()
        self.workers = []


def rollout_arrays(policy):
    """What a RolloutWorker is built from: the policy's arrays, None for uniform rollouts."""
    arrays = getattr(policy, 'arrays', None)
    return None if arrays is None else dict(arrays)
