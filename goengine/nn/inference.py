"""Fast batched inference: what the search and the tools evaluate with.

On the CPU bf16 where it is computed natively (bf16_is_fast), fp32 elsewhere;
on a GPU bf16 (fp16 where it has no bf16); channels_last; batch norm folded
into the convolutions.
"""

import functools
import os
from dataclasses import dataclass

import numpy as np
import torch

from goengine.nn.nets import (fold_batch_norm, score_lead, softmax_with_temperature,
                              value_at_komi)

def available_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@functools.cache
def bf16_is_fast():
    """Whether this CPU does bf16 arithmetic natively (AVX-512 BF16 or AMX).

    Only there does bf16 autocast pay (about 2x for inference on Zen 4).
    Elsewhere oneDNN emulates bf16 and it is far slower than fp32: on two
    AVX2-only Zen 3 cores the k=192 policy ran about 8x slower in bf16
    (docs/TRAINING.md, "Precision"). So the default precision follows the CPU.
    """
    try:
        return bool(torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported())
    except AttributeError:   # an older or newer torch without these probes
        try:
            with open('/proc/cpuinfo') as f:
                flags = f.read().split()
        except OSError:
            return False
        return 'avx512_bf16' in flags or 'amx_bf16' in flags


class DeviceError(ValueError):
    """A device that was asked for and is not there (one line saying so)."""


DEVICE_CHOICES = "auto, cpu, cuda, cuda:N or mps"


def pick_device(name="auto"):
    """The torch device name for `name`: auto picks CUDA, then Apple's MPS, then the CPU.

    Raises DeviceError for a device this machine does not have, so that a
    program can refuse it before it loads anything."""
    name = (name or "auto").strip().lower()
    mps = getattr(torch.backends, "mps", None)
    mps_ok = mps is not None and mps.is_available()
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "mps" if mps_ok else "cpu"
    if name == "cpu":
        return name
    if name == "mps":
        if not mps_ok:
            raise DeviceError("device mps: this torch sees no Apple GPU (MPS)")
        return name
    if name == "cuda" or name.startswith("cuda:"):
        index = name.partition(":")[2]
        if index and not index.isdigit():
            raise DeviceError(f"device {name}: expected cuda:N with N a number")
        if not torch.cuda.is_available():
            raise DeviceError(f"device {name}: this torch sees no CUDA GPU "
                              f"(torch {torch.__version__}, CUDA build: "
                              f"{torch.version.cuda or 'no'})")
        if index and int(index) >= torch.cuda.device_count():
            raise DeviceError(f"device {name}: only {torch.cuda.device_count()} CUDA "
                              f"GPU(s) here")
        return name
    raise DeviceError(f"device {name!r}: expected {DEVICE_CHOICES}")


@dataclass
class Outputs:
    """What one network call says about a batch of positions, each for its player to move
    (KataGo's NNOutput): the heads a network lacks are None. value: the outcome in
    [-1, 1], at the komi asked for where a score head can move it there; score_lead: the
    expected final margin in points at that komi; ownership: +1 the mover's, -1 the
    opponent's, one value a point."""
    policy_logits: np.ndarray = None      # (N, s*s)
    value: np.ndarray = None              # (N,)
    ownership: np.ndarray = None          # (N, s*s)
    score_lead: np.ndarray = None         # (N,)


class NetworkEvaluator:
    """Batched numpy-in, numpy-out inference for the tree search.

    Holds an eval-mode snapshot of the model (batch norm folded), so later
    training of `model` does not affect it; build a new evaluator to pick up
    new weights. bf16 autocast roughly doubles throughput on CPUs with
    AVX-512 BF16 / AMX, at a small cost in precision (see tools/bench/bench_nets.py
    --agreement), and is many times slower elsewhere: use_bf16=None (the
    default) turns it on only where bf16_is_fast(). `threads` sets torch's
    process-wide intra-op thread count: None uses all cores available to
    this process, 0 leaves it unchanged.

    channels_last (NHWC) memory format: measured on 2 Zen 4 cores, k=192, it
    gave +10..40% in fp32 and +0..30% in bf16 (never slower), so it is on by
    default.

    `device` is a torch device name (pick_device): the network runs there in
    half precision unless use_bf16=False; inputs cross as uint8 and results
    come back as numpy arrays.

    Inputs are uint8 (or any numeric) planes (N, planes, s, s); a single
    position (planes, s, s) gives a single result (no batch axis).
    """

    backend = "torch"

    def __init__(self, model, use_bf16=None, threads=None, channels_last=True, device="cpu"):
        self.device = torch.device(device)
        self.model = fold_batch_norm(model)  # an eval-mode copy
        self.kind = model.kind
        # What it answers: a policy or value network its one output; a HeadsNet all four.
        self.heads = tuple(getattr(model, 'heads', (model.kind,)))
        self.planes, self.board_size = model.planes, model.board_size
        if self.device.type == "cpu":
            self.use_bf16 = bf16_is_fast() if use_bf16 is None else use_bf16
        else:  # an accelerator computes half precision natively
            self.use_bf16 = True if use_bf16 is None else use_bf16
        self.channels_last = channels_last
        if channels_last:
            self.model = self.model.to(memory_format=torch.channels_last)
        self.model = self.model.to(self.device)
        if threads is None:
            threads = available_cores()
        if threads > 0:
            torch.set_num_threads(threads)

    @property
    def has_value(self):
        return 'value' in self.heads

    @property
    def has_ownership(self):
        return 'ownership' in self.heads

    @property
    def has_score(self):
        return 'score' in self.heads

    def serves(self, size):
        """Whether the network evaluates boards of this size (its per-point biases fix it)."""
        return self.board_size == size

    @torch.inference_mode()
    def evaluate(self, boards, komi):
        """Outputs for goengine Boards (each read for its player to move; its planes built
        here) at `komi`, from one call: every head the network has."""
        from goengine import WHITE
        from goengine.nn import features
        planes = np.stack([features.input_planes(board, self.planes) for board in boards])
        white = np.array([board.to_move == WHITE for board in boards])
        x, _ = self._batch(planes)
        out = dict(zip(self.heads, self._forward(x, *self.heads) if len(self.heads) > 1
                       else (self._forward(x, *self.heads),)))
        result = Outputs()
        if 'policy' in out:
            result.policy_logits = out['policy'].cpu().numpy()
        if 'value' in out:
            value = out['value']
            if 'score' in out:
                value = self._value_at(value, out['score'], komi, white)
            result.value = value.cpu().numpy().reshape(-1)
        if 'ownership' in out:
            result.ownership = out['ownership'].cpu().numpy()
        if 'score' in out:
            result.score_lead = score_lead(out['score'], komi, white).double().cpu().numpy()
        return result

    def _batch(self, planes):
        """numpy (N, C, s, s) or (C, s, s) -> float tensor on the device, and whether it was single."""
        planes = np.asarray(planes)
        single = planes.ndim == 3
        if single:
            planes = planes[None]
        expected = (self.planes, self.board_size, self.board_size)
        if planes.ndim != 4 or planes.shape[1:] != expected:
            raise ValueError(f'expected planes of shape (N, {expected[0]}, {expected[1]}, '
                             f'{expected[2]}) or {expected}, got {planes.shape}')
        x = torch.from_numpy(np.ascontiguousarray(planes))
        if self.device.type != "cpu":  # uint8 crosses the bus: a quarter of the bytes
            x = x.to(self.device, non_blocking=True)
        x = x.float()
        if self.channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        return x, single

    def _forward(self, x, *kinds):
        """The network's `kinds` outputs for the batch x, float32: one tensor for one
        kind, a tuple for several (a four-headed network answers all in one call)."""
        with torch.autocast(self.device.type, dtype=self.half_dtype(), enabled=self.use_bf16):
            out = self.model(x)
        outputs = out if isinstance(out, tuple) else (out,)
        chosen = tuple(outputs[self.heads.index(kind)].float() for kind in kinds)
        return chosen[0] if len(chosen) == 1 else chosen

    def half_dtype(self):
        """bf16; fp16 on Apple's MPS and on a CUDA GPU without bf16 (before Ampere)."""
        if self.device.type == "mps" or (self.device.type == "cuda"
                                         and not torch.cuda.is_bf16_supported()):
            return torch.float16
        return torch.bfloat16

    def logits(self, planes):
        """Raw policy logits, float32 (N, s*s) (or (s*s,) for one position)."""
        return self._outputs('policy', planes)

    @torch.inference_mode()
    def policy(self, planes, temperature=1.0, legal_mask=None):
        """Move probabilities softmax(logits / temperature), float32 (N, s*s).

        legal_mask: optional bool array (N, s*s) (or (s*s,) for one position);
        probabilities are then renormalised over the legal points only. A row
        with no legal point comes back all zeros (the caller should pass).
        """
        self._require('policy')
        x, single = self._batch(planes)
        logits = self._forward(x, 'policy')
        if legal_mask is not None:
            mask = torch.from_numpy(np.asarray(legal_mask, dtype=bool).reshape(logits.shape))
            logits = logits.masked_fill(~mask.to(logits.device), float('-inf'))
        probs = softmax_with_temperature(logits, temperature)
        if legal_mask is not None:
            probs = torch.nan_to_num(probs, nan=0.0)  # all-illegal rows: 0/0
        out = probs.cpu().numpy()
        return out[0] if single else out

    def value(self, planes):
        """Values in [-1, 1] for the player to move, float32 (N,) (or a scalar)."""
        return self._outputs('value', planes)

    def ownership(self, planes):
        """A HeadsNet's final owner of every point, +1 the player to move's, float32 (N, s*s)."""
        return self._outputs('ownership', planes)

    def score_logits(self, planes):
        """A HeadsNet's logits over the final margin for the player to move at
        nets.SCORE_KOMI (nets.SCORE_BINS of them; nets.win_probability and
        nets.score_lead read them at any komi)."""
        return self._outputs('score', planes)

    def score_lead(self, planes, komi, white):
        """A HeadsNet's expected final margin for the player to move at `komi`, in
        points: float64 (N,) (or a scalar). white: whether White is to move, one flag
        (or one per position)."""
        logits = torch.as_tensor(self.score_logits(planes))
        lead = score_lead(logits.reshape(-1, logits.shape[-1]), komi, white)
        lead = lead.double().numpy()
        return lead if logits.dim() > 1 else float(lead[0])

    @torch.inference_mode()
    def lead_and_ownership(self, planes, komi, white):
        """score_lead and ownership from one call, as a reported lead needs both:
        (leads float64 (N,), owners float32 (N, s*s)) (or a scalar and (s*s,))."""
        self._require('score')
        self._require('ownership')
        x, single = self._batch(planes)
        owners, scores = self._forward(x, 'ownership', 'score')
        leads = score_lead(scores, komi, white).double().cpu().numpy()
        owners = owners.cpu().numpy()
        return (float(leads[0]), owners[0]) if single else (leads, owners)

    @torch.inference_mode()
    def policy_and_value(self, planes):
        """A four-headed network's (logits (N, s*s), values (N,)) from one call."""
        self._require('policy')
        self._require('value')
        x, single = self._batch(planes)
        logits, values = (t.cpu().numpy() for t in self._forward(x, 'policy', 'value'))
        return (logits[0], values[0]) if single else (logits, values)

    @torch.inference_mode()
    def value_at(self, planes, komi, white):
        """A four-headed network's value for the player to move at `komi` (the game's):
        the value head knows only the komi it learned (nets.TRAINED_KOMI), its score head
        what another is worth (nets.value_at_komi). white: whether White is to move, one
        flag (or one per position). float32 (N,) (or a scalar)."""
        self._require('score')
        x, single = self._batch(planes)
        values, scores = self._forward(x, 'value', 'score')
        moved = self._value_at(values, scores, komi, white).cpu().numpy()
        return moved[0] if single else moved

    @torch.inference_mode()
    def search_answers(self, planes, white, komi, true_komi):
        """What the search takes from one call of a four-headed network: move logits
        (N, s*s); the value (as value_at) at `komi`, the komi its rollouts count with
        (dynamic komi included), and at `true_komi`, the game's, which it reports; and the
        expected score lead at `komi` for the player to move (score_lead, komi included).
        white: whether White is to move, one flag (or one per position)."""
        self._require('score')
        x, single = self._batch(planes)
        logits, values, scores = self._forward(x, 'policy', 'value', 'score')
        out = (logits, self._value_at(values, scores, komi, white),
               self._value_at(values, scores, true_komi, white),
               score_lead(scores, komi, white))
        out = tuple(t.cpu().numpy() for t in out)
        return tuple(t[0] for t in out) if single else out

    @staticmethod
    def _value_at(values, scores, komi, white):
        return value_at_komi(values, scores, komi, white)

    @torch.inference_mode()
    def _outputs(self, kind, planes):
        """The `kind` network's plain outputs for a batch (or one position)."""
        self._require(kind)
        x, single = self._batch(planes)
        out = self._forward(x, kind).cpu().numpy()
        return out[0] if single else out

    def _require(self, kind):
        if kind not in self.heads:
            raise TypeError(f'this evaluator holds a {self.kind} network, which has no {kind} '
                            f'output')
