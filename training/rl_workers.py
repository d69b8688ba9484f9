"""Self-play workers for the RL stage: each holds network copies and plays games on
request. The driver (tools/selfplay_rl.py) makes them Ray actors, on this machine or
across a cluster; in-process they serve a run without Ray."""

import torch

from goengine.nn.inference import NetworkEvaluator
from goengine.nn.netfile import NETWORK_CLASSES
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
        torch.set_num_threads(threads)
        self.device = device
        self.cache = {}

    def _model(self, version, spec):
        if version not in self.cache:
            if len(self.cache) > 4:
                self.cache.clear()
            self.cache[version] = NetworkEvaluator(network_from(spec), threads=0,
                                                   device=self.device)
        return self.cache[version]

    def play(self, current, opponent, count, seed, size=19, komi=7.5, max_moves=None):
        """current, opponent: (version, spec); a list of SelfPlayGame."""
        return play_games(self._model(*current), self._model(*opponent), count, seed,
                          size=size, komi=komi, max_moves=max_moves)

    def pid(self):
        import os
        return os.getpid()


_worker = None


def play_in_process(current, opponent, count, seed, size, komi, max_moves, device):
    """SelfPlayWorker.play in a process of a pool (the driver's --no-ray): one worker a
    process, kept between calls."""
    global _worker
    if _worker is None:
        _worker = SelfPlayWorker(1, device)
    return _worker.play(current, opponent, count, seed, size, komi, max_moves)
