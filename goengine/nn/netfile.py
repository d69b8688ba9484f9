"""Network files: one format for the policy and the value network.

A file is a dict saved with torch.save and read with weights_only=True: the
format tag and version, the network's kind ('policy' or 'value'), its
architecture (the constructor's arguments), its weights (fp16 for shipped
files) and `extra` metadata such as positions trained and the validation
score. Anything wrong with a file raises NetworkLoadError with one line that
names the file and the reason.
"""

import os
import re

import numpy as np
import torch

from goengine.nn.nets import NETWORK_CLASSES
from goengine.nn.surgery import fold_batch_norm

FORMAT = 'goengine-network'
FORMAT_VERSION = 1


class NetworkLoadError(Exception):
    """A network file could not be loaded; the message names the file and why."""


def _plain(value, where='extra'):
    """Convert `extra` to types torch.load(weights_only=True) accepts, or raise TypeError.

    Checked at save time so a checkpoint can never be written that then fails
    to load.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, (list, tuple)):
        return [_plain(v, where) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v, f'{where}[{k!r}]') for k, v in value.items()}
    raise TypeError(f'{where}: cannot store {type(value).__name__} in a network file')


def save_network(path, model, extra=None, half=True):
    """Write `model` with its architecture so `load_network(path)` needs nothing else.

    half=True stores floating-point weights as fp16: half the size, and finer
    than the bf16 the search computes in. Batch-norm running statistics stay
    fp32 so folding stays exact. `extra` is free-form metadata (accuracy,
    positions seen...) of plain Python types (tuples come back as lists). The
    file is written atomically: a reader never sees a half-written checkpoint.
    """
    state = {}
    for name, tensor in model.state_dict().items():
        tensor = tensor.detach().cpu()
        is_bn_stat = name.endswith(('running_mean', 'running_var'))
        if half and tensor.is_floating_point() and not is_bn_stat:
            tensor = tensor.half()
        state[name] = tensor.clone()
    checkpoint = {
        'format': FORMAT,
        'version': FORMAT_VERSION,
        'kind': model.kind,
        'arch': model.arch,
        'state_dict': state,
        'extra': _plain(extra or {}),
    }
    path = os.fspath(path)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    tmp = f'{path}.tmp{os.getpid()}'
    try:
        torch.save(checkpoint, tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _reason(exc):
    """One short line saying why torch failed (its messages run to paragraphs)."""
    text = re.sub(r'\x1b\[[0-9;]*m', '', str(exc))  # strip terminal colour codes
    refused = re.search(r'WeightsUnpickler error:\s*(.+)', text)
    if refused:  # weights_only loading met something that is not plain data
        text = 'refused by safe loading: ' + refused.group(1).split('. ')[0]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(':'):  # a heading: the detail follows
        lines = [lines[0] + ' ' + lines[1]]
    text = lines[0] if lines else 'no details'
    text = text if len(text) <= 160 else text[:157] + '...'
    return f'{type(exc).__name__}: {text}'


def read_checkpoint(path):
    """Load and validate a network file's dict (header, arch, state_dict, extra).

    Raises NetworkLoadError for anything that is not a readable goengine
    network of a supported version.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise NetworkLoadError(f'{path}: no such file')
    if not os.path.isfile(path):
        raise NetworkLoadError(f'{path}: not a regular file')
    try:
        # weights_only: a network file must never be able to run code.
        checkpoint = torch.load(path, map_location='cpu', weights_only=True)
    except Exception as exc:  # torch raises many types for bad files
        raise NetworkLoadError(f'{path}: cannot read network file; it is truncated, corrupt '
                               f'or holds unsafe objects ({_reason(exc)})') from None
    if not isinstance(checkpoint, dict) or checkpoint.get('format') != FORMAT:
        raise NetworkLoadError(f'{path}: not a goengine network file')
    version = checkpoint.get('version')
    if version != FORMAT_VERSION:
        raise NetworkLoadError(f'{path}: unsupported network file version {version!r} '
                               f'(this goengine reads version {FORMAT_VERSION})')
    for key, kind in (('kind', str), ('arch', dict), ('state_dict', dict)):
        if not isinstance(checkpoint.get(key), kind):
            raise NetworkLoadError(f'{path}: network file is missing a valid {key!r} entry')
    if checkpoint['kind'] not in NETWORK_CLASSES:
        raise NetworkLoadError(f'{path}: unknown network kind {checkpoint["kind"]!r}')
    return checkpoint


def load_network(path, kind=None, fold=False, head=None):
    """Rebuild the network stored at `path`: fp32, eval mode, on the CPU.

    kind: 'policy' or 'value' to insist on one (NetworkLoadError otherwise).
    head: insist on a network of this kind or a four-headed one with this head.
    fold: fold batch norm into the convolutions (what inference wants).
    The file's `extra` metadata is attached as `model.extra`.
    """
    checkpoint = read_checkpoint(path)
    if kind is not None and checkpoint['kind'] != kind:
        raise NetworkLoadError(f'{path}: contains a {checkpoint["kind"]} network, '
                               f'expected a {kind} network')
    cls = NETWORK_CLASSES[checkpoint['kind']]
    if head is not None and checkpoint['kind'] != head and head not in getattr(cls, 'heads', ()):
        raise NetworkLoadError(f'{path}: contains a {checkpoint["kind"]} network, '
                               f'which has no {head} head')
    try:
        model = cls(**checkpoint['arch'])
        model.load_state_dict(checkpoint['state_dict'])
    except (TypeError, ValueError, RuntimeError) as exc:
        raise NetworkLoadError(f'{path}: weights do not match the stored architecture '
                               f'{checkpoint["arch"]} ({_reason(exc)})') from None
    model = model.float().eval()
    if fold:
        model = fold_batch_norm(model)
    model.extra = checkpoint.get('extra') or {}
    return model
