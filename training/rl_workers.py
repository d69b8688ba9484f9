"""Self-play workers for the RL stage: each holds network copies and plays games on
request, the RL games against the pool and the value data's games (AlphaGo's recipe,
training/selfplay.py, with the current RL network playing them out). The driver
(tools/selfplay_rl.py) makes them Ray actors, on this machine or across a cluster;
in-process they serve a run without Ray."""

import numpy as np
import torch

from goengine.nn.inference import NetworkEvaluator
from goengine.nn.netfile import NETWORK_CLASSES
from training.cpu_memory import keep_freed_memory
from training.rl_games import play_games


def network_from(spec):
    """A model from (kind, arch, state_dict), what the driver ships to the workers."""
    kind, arch, state = spec
    model = NETWORK_CLASSES[kind](**arch)
    model.load_state_dict(state)
    return model.float().eval()


def spec_of(model):
    """(kind, arch, state_dict) of `model`, to ship to a worker."""
    return model.kind, model.arch, {k: v.detach().clone() for k, v in model.state_dict().items()}


class SelfPlayWorker:
    """Plays `count` games of the current network against an opponent on request, each an
    evaluator as the engine's (bf16 where the CPU computes it natively); keeps the last
    versions it was sent, so an unchanged one is not rebuilt."""

    def __init__(self, threads=1, device='cpu'):
        keep_freed_memory()      # each batch reuses the last one's pages (cpu_memory.py)
        torch.set_num_threads(threads)
        self.device = device
        self.cache = {}
        self.rollout = None

    def _model(self, version, spec):
        if version not in self.cache:
            if len(self.cache) > 4:
                self.cache.clear()
            self.cache[version] = NetworkEvaluator(network_from(spec), threads=0,
                                                   device=self.device)
        return self.cache[version]

    def play(self, current, opponent, count, seed, size=19, komi=7.5, max_moves=None,
             temperature=1.0):
        """current, opponent: (version, spec); a list of SelfPlayGame."""
        return play_games(self._model(*current), self._model(*opponent), count, seed,
                          size=size, komi=komi, max_moves=max_moves, temperature=temperature)

    def value_records(self, current, drawn, seed, temperature=1.0, net_moves=0):
        """The value records (selfplay.finish_records) of the start positions `drawn`,
        played out by the network `current` ((version, spec)) from the rng `seed`."""
        from goengine.programs.loading import load_rollout
        from training import selfplay
        if self.rollout is None:
            self.rollout = load_rollout()
        continuation = selfplay.PolicyContinuation(self._model(*current), self.rollout,
                                                   temperature, net_moves)
        return selfplay.finish_records(drawn, continuation, np.random.default_rng(seed))

    def pid(self):
        import os
        return os.getpid()


_worker = None


def _kept_worker(device):
    """The worker of this process of a pool (the driver's --no-ray), kept between calls."""
    global _worker
    if _worker is None:
        _worker = SelfPlayWorker(1, device)
    return _worker


def play_in_process(current, opponent, count, seed, size, komi, max_moves, temperature,
                    device):
    """SelfPlayWorker.play in a process of a pool."""
    return _kept_worker(device).play(current, opponent, count, seed, size, komi, max_moves,
                                     temperature)


def value_in_process(current, drawn, seed, temperature, net_moves, device):
    """SelfPlayWorker.value_records in a process of a pool."""
    return _kept_worker(device).value_records(current, drawn, seed, temperature, net_moves)
