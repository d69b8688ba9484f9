"""Ray for the programs that ask for it (gtp_main --cluster, tools/selfplay_rl.py): the one
place that imports it, joins a cluster by address or starts one on this machine, and says
in one line what is wrong when it cannot. Nothing else in goengine imports Ray."""

import signal
import socket
from goengine.nn.heads import Head

INSTALL = 'pip install -e .[cluster]'


class ClusterError(Exception):
    """Ray is missing or the cluster cannot be reached; the message says what to do."""


def reachable(address, timeout=5.0):
    """Whether something accepts connections at HOST:PORT (Ray itself retries for long)."""
    host, _, port = address.rpartition(':')
    try:
        with socket.create_connection((host or '127.0.0.1', int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


def connect(address=None):
    """The ray module, initialised: `address` None or 'auto' starts a Ray cluster of this
    machine (or joins the one `ray start` made here), HOST:PORT joins that cluster's head.
    Ray's own SIGTERM and SIGINT handlers are put back as they were."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f'Ray is not installed: {INSTALL}') from None
    local = address in (None, '', 'auto', 'local')
    if not local and not reachable(address):
        raise ClusterError(f'cannot reach the Ray cluster at {address} (nothing '
                           'answers there: start its head with `ray start --head`)')
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        ray.init(address=None if local else address, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ClusterError(f'cannot join the Ray cluster at {address}: {exc}') from None
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    return ray


def rollout_workers(ray, count, rollout):
    """`count` RolloutWorker actors (one CPU each, restarted by Ray if their process
    dies), holding `rollout`'s patterns and weights."""
    from goengine.search.remote import RolloutWorker, rollout_arrays
    actor = ray.remote(num_cpus=1, max_restarts=-1)(RolloutWorker)
    # held for the workers' lifetime: Ray rebuilds a restarted actor from it
    if id(rollout) not in _kept:      # the policy is kept too, so that its id is not reused
        _kept[id(rollout)] = (rollout, ray.put(rollout_arrays(rollout)))
    arrays = _kept[id(rollout)][1]
    workers = [actor.remote(arrays) for _ in range(count)]
    ray.get([w.ping.remote() for w in workers])
    return workers


_kept = {}   # id -> (policy, the object ref restarted actors are built from), for life


def network_workers(ray, count, weights, precision='auto', backend='auto'):
    """`count` NetworkWorker actors holding the network file `weights`, run in `precision`
    by `backend` as the worker's machine picks them: each on a GPU of the cluster while it
    has one free for each, else on one CPU."""
    from goengine.search.remote import NetworkWorker
    on_gpu = ray.cluster_resources().get('GPU', 0) >= count
    options = dict(num_gpus=1) if on_gpu else dict(num_cpus=1)
    actor = ray.remote(max_restarts=-1, **options)(NetworkWorker)
    return [actor.remote(weights, 'auto' if on_gpu else 'cpu', None if on_gpu else 1,
                         precision, backend)
            for _ in range(count)]


class Workers:
    """The distributed search's workers as the search takes them: `rollouts` a
    RemoteRollouts (None without rollout workers) and `network_copies`, one
    (policy, value) pair of RemoteEvaluators a network worker."""

    def __init__(self, ray, rollout, rollout_count, weights, network_count, log,
                 precision='auto', backend='auto'):
        from goengine.search.remote import RemoteEvaluator, RemoteRollouts
        self.rollouts = None
        if rollout_count:
            self.rollouts = RemoteRollouts(ray, rollout_workers(ray, rollout_count, rollout),
                                           log=log)
        self.network_copies = []
        if network_count and weights:
            handles = network_workers(ray, network_count, weights, precision, backend)
            try:
                remote = [RemoteEvaluator(ray, w, log=log) for w in handles]
            except Exception as exc:   # the worker's own error (a runtime it lacks, no file)
                raise ClusterError(f'a network worker did not start: {last_line(exc)}') from None
            self.network_copies = [(r, r if r.describe().answers(Head.VALUE) else None)
                                   for r in remote]
        first = [r.describe() for r, _ in self.network_copies[:1]]
        log(f'goengine: cluster of {ray.cluster_resources().get("CPU", 0):g} CPUs and '
            f'{ray.cluster_resources().get("GPU", 0):g} GPUs: {rollout_count} rollout '
            f'workers, {len(self.network_copies)} network workers'
            + ''.join(f' ({d.device}, {d.backend} {d.precision})' for d in first))


def last_line(exc):
    """The last non-empty line of an exception's text: a worker's own error, at the end of
    the traceback Ray wraps it in."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__
