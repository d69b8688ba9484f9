"""A network's heads on input planes already built: for the tools and the trainers, whose
training shards hold planes and no boards. The engine never calls these; it asks
NetworkEvaluator.evaluate with boards.

Each takes an evaluator (torch or ONNX Runtime) and uint8 (or any numeric) planes
(N, planes, s, s); a single position (planes, s, s) gives a single result."""

import numpy as np
import torch

from goengine.nn.nets import score_lead as _score_lead
from goengine.nn.nets import softmax_with_temperature, value_at_komi
from goengine.nn.heads import Head


@torch.inference_mode()
def heads(evaluator, planes, *kinds):
    """The raw outputs `kinds` of the network for `planes`, float32 numpy, one a kind."""
    for kind in kinds:
        if kind not in evaluator.heads:
            raise TypeError(f'this evaluator holds a {evaluator.kind} network, which has no '
                            f'{kind} output')
    planes = np.asarray(planes)
    single = planes.ndim == 3
    outputs = tuple(t.cpu().numpy() for t in
                    evaluator.outputs_for_planes(planes[None] if single else planes, *kinds))
    return tuple(out[0] for out in outputs) if single else outputs


def logits(evaluator, planes):
    """Raw policy logits, float32 (N, s*s)."""
    return heads(evaluator, planes, Head.POLICY)[0]


def value(evaluator, planes):
    """The value head's outcome in [-1, 1] for the player to move, at the komi it was
    trained at, float32 (N,)."""
    return heads(evaluator, planes, Head.VALUE)[0]


def ownership(evaluator, planes):
    """The final owner of every point, +1 the player to move's, float32 (N, s*s)."""
    return heads(evaluator, planes, Head.OWNERSHIP)[0]


def score_logits(evaluator, planes):
    """Logits over the final margin for the player to move at nets.SCORE_KOMI."""
    return heads(evaluator, planes, Head.SCORE)[0]


def policy(evaluator, planes, temperature=1.0, legal_mask=None):
    """Move probabilities softmax(logits / temperature), float32 (N, s*s); with a bool
    legal_mask of the same shape, renormalised over the legal points (a row with none
    comes back all zeros: the caller should pass)."""
    raw = torch.as_tensor(np.atleast_2d(logits(evaluator, planes)))
    if legal_mask is not None:
        mask = torch.from_numpy(np.asarray(legal_mask, dtype=bool).reshape(raw.shape))
        raw = raw.masked_fill(~mask, float('-inf'))
    probs = softmax_with_temperature(raw, temperature)
    if legal_mask is not None:
        probs = torch.nan_to_num(probs, nan=0.0)   # all-illegal rows: 0/0
    out = probs.numpy()
    return out[0] if np.asarray(planes).ndim == 3 else out


def value_at(evaluator, planes, komi, white):
    """A four-headed network's value for the player to move at `komi`, moved there by its
    score head (nets.value_at_komi). white: whether White is to move, one flag or one a
    position. float32 (N,)."""
    values, scores = heads(evaluator, planes, Head.VALUE, Head.SCORE)
    moved = value_at_komi(values, torch.as_tensor(np.atleast_2d(scores)), komi, white)
    out = moved.numpy()
    return out[0] if np.asarray(planes).ndim == 3 else out


def score_lead(evaluator, planes, komi, white):
    """The expected final margin in points for the player to move at `komi`, float64 (N,)."""
    scores = torch.as_tensor(np.atleast_2d(score_logits(evaluator, planes)))
    lead = _score_lead(scores, komi, white).double().numpy()
    return float(lead[0]) if np.asarray(planes).ndim == 3 else lead


def lead_and_ownership(evaluator, planes, komi, white):
    """score_lead and ownership from one call: (float64 (N,), float32 (N, s*s))."""
    owners, scores = heads(evaluator, planes, Head.OWNERSHIP, Head.SCORE)
    leads = _score_lead(torch.as_tensor(np.atleast_2d(scores)), komi, white).double().numpy()
    return (float(leads[0]), owners) if np.asarray(planes).ndim == 3 else (leads, owners)
