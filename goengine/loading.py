"""From files to the player gtp_main runs: the one place that assembles it.

Each kind of file has one reader (netfile.load_network for networks,
rollout_weights.load for the rollout policy); this module calls them once
and hands the parts to the player of the kind asked for:

* 'search': the APV-MCTS search (goengine.mcts_player), the engine proper;
* 'policy': the SL policy played greedily (`--policy-only`);
* 'random': random sensible moves, no network (`--weights none`).

Every kind also gets the rollout policy, whose playouts judge dead stones
(final_score, final_status_list).
"""

import os
import sys

KINDS = ('search', 'policy', 'random')


def load_rollout(path=None, log=None):
    """The rollout + tree policy: `path`, else weights/rollout.weights if it
    exists, else uniform random rollouts. Raises RolloutLoadError for a bad file."""
    from goengine import rollout_weights
    from goengine._rollout import RolloutPolicy
    if path is None and os.path.isfile(rollout_weights.DEFAULT_PATH):
        path = rollout_weights.DEFAULT_PATH
    if path is None:
        if log:
            log('goengine: no rollout weights: uniform random rollouts and tree priors')
        return RolloutPolicy.uniform()
    return rollout_weights.load(path)


def value_weights_beside(policy_weights):
    """weights/value.pt next to the policy file, when no value network is named; or None."""
    candidate = os.path.join(os.path.dirname(policy_weights), 'value.pt')
    return candidate if os.path.isfile(candidate) else None


def load_player(kind, weights=None, value_weights=None, rollout=None, threads=None,
                resign_threshold=0.10, config=None, log=None, temperature=None):
    """The player of `kind` (KINDS) with the networks in `weights` / `value_weights`.

    rollout: a RolloutPolicy (load_rollout()); None loads the default.
    threads: torch threads for network inference (the search's default is
    config.net_threads). The search without networks runs on rollouts alone.
    temperature: the policy player's sampling temperature (None: greedy).
    Raises netfile.NetworkLoadError for a missing or corrupt network file.
    """
    if kind not in KINDS:
        raise ValueError(f'player kind must be one of {KINDS}, not {kind!r}')
    from goengine.player import PolicyPlayer, SimplePlayer
    from goengine.search_config import SearchConfig
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    rollout = rollout if rollout is not None else load_rollout(log=log)
    if kind == 'random':
        player = SimplePlayer()
        player.score_rollout = rollout
        return player
    config = config or SearchConfig()
    if kind == 'search' and threads is None:
        threads = config.net_threads
    policy_eval = _evaluator(weights, 'policy', threads)
    value_eval = _evaluator(value_weights, 'value', threads)
    if kind == 'policy':
        if policy_eval is None:
            raise ValueError('the policy player needs policy weights')
        player = PolicyPlayer(policy_eval, value_eval, resign_threshold=resign_threshold, log=log,
                              temperature=temperature)
        player.score_rollout = rollout
        return player
    from goengine.mcts_player import MCTSPlayer
    return MCTSPlayer(policy_eval, value_eval, rollout, config,
                      resign_threshold=resign_threshold, log=log)


def _evaluator(path, kind, threads):
    """A NetworkEvaluator for the network file at `path`, or None without one."""
    if path is None or str(path).lower() == 'none':
        return None
    from goengine import inference, netfile   # torch is slow to import; only when needed
    return inference.NetworkEvaluator(netfile.load_network(path, kind=kind), threads=threads)
