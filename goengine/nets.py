"""Policy and value networks, their checkpoint files and fast CPU inference.

Architecture follows AlphaGo: Silver et al., "Mastering the game of Go with deep
neural networks and tree search", Nature 529:484 (2016), Methods, section
"Neural network architecture":

* Policy network p_sigma: 48 input planes; hidden layer 1 is a 5x5 convolution
  with k filters, hidden layers 2..12 are 3x3 convolutions with k filters, each
  followed by a rectifier; the final layer is a 1x1 convolution to one plane
  "with a different bias for each position", then softmax. The match version
  used k = 192.
* Value network v_theta: 49 planes (the extra plane is the colour to play);
  layers 1..12 as the policy's, layer 13 a 1x1 convolution to one plane,
  layer 14 fully connected with 256 rectifier units, output one tanh unit.

Deviation: `batch_norm=True` inserts BatchNorm2d after every k-filter
convolution. The paper's plain ReLU stacks did not train from scratch in our
setup; with BN they do. `fold_batch_norm` turns a trained BN model back into the
paper's plain architecture (BN folded into conv weights and biases), which is
also what inference wants: fewer ops, same outputs.

Input planes are the uint8 stacks of `goengine.features`; moves index the
outputs as `row * size + col` (docs/API.md). This module deliberately imports
nothing else from goengine so that networks can be trained and tested without
the compiled board.
"""

import copy
import functools
import os
import re

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# Same values as goengine.features.NUM_POLICY_PLANES / NUM_VALUE_PLANES; repeated
# here so this module does not depend on the (compiled) board package.
POLICY_PLANES = 48
VALUE_PLANES = 49

# AlphaGo match configuration (Methods: k = 192 filters, 13 layers, 19x19).
DEFAULT_FILTERS = 192
DEFAULT_LAYERS = 13
DEFAULT_BOARD_SIZE = 19
VALUE_HIDDEN = 256  # value network layer 14: "256 rectifier units"

# Softmax temperature used for the search priors (Extended Data Table 5:
# beta = 0.67). Callers pass it explicitly; the functions default to 1.0.
SEARCH_TEMPERATURE = 0.67

FORMAT = 'goengine-network'
FORMAT_VERSION = 1


class NetworkLoadError(Exception):
    """A network file could not be loaded; the message names the file and why."""


# --------------------------------------------------------------------------
# Architecture
# --------------------------------------------------------------------------

class ConvBlock(nn.Module):
    """conv -> (BatchNorm) -> ReLU. With BN the conv has no bias (BN has one)."""

    def __init__(self, in_channels, out_channels, kernel_size, batch_norm):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size,
                              padding=kernel_size // 2, bias=not batch_norm)
        self.bn = nn.BatchNorm2d(out_channels) if batch_norm else nn.Identity()
        # He initialisation suits a deep ReLU stack better than torch's default.
        nn.init.kaiming_normal_(self.conv.weight, nonlinearity='relu')
        if self.conv.bias is not None:
            nn.init.zeros_(self.conv.bias)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def make_trunk(planes, filters, blocks, batch_norm):
    """The shared body: one 5x5 block then (blocks - 1) 3x3 blocks, k filters each."""
    layers = [ConvBlock(planes, filters, 5, batch_norm)]
    layers += [ConvBlock(filters, filters, 3, batch_norm) for _ in range(blocks - 1)]
    return nn.Sequential(*layers)


def _check_arch(planes, filters, layers, board_size):
    if planes < 1 or filters < 1 or board_size < 1:
        raise ValueError('planes, filters and board_size must be positive')
    if layers < 2:
        raise ValueError(f'layers must be >= 2 (5x5 conv + 1x1 head), got {layers}')


class PolicyNet(nn.Module):
    """p_sigma: `layers` convolutions in total; forward returns move logits (N, size*size).

    Probabilities are `softmax_with_temperature(logits)`; keeping logits out of
    the module lets training use cross-entropy directly.
    """

    kind = 'policy'

    def __init__(self, planes=POLICY_PLANES, filters=DEFAULT_FILTERS,
                 layers=DEFAULT_LAYERS, board_size=DEFAULT_BOARD_SIZE,
                 batch_norm=False):
        super().__init__()
        _check_arch(planes, filters, layers, board_size)
        self.planes, self.filters, self.layers = planes, filters, layers
        self.board_size, self.batch_norm = board_size, batch_norm
        self.trunk = make_trunk(planes, filters, layers - 1, batch_norm)
        # Final layer: 1x1 conv to one plane without bias, plus one learned bias
        # per board point ("a different bias for each position").
        self.head = nn.Conv2d(filters, 1, 1, bias=False)
        self.point_bias = nn.Parameter(torch.zeros(board_size * board_size))

    @property
    def arch(self):
        """Constructor arguments; stored in checkpoints to rebuild the model."""
        return dict(planes=self.planes, filters=self.filters, layers=self.layers,
                    board_size=self.board_size, batch_norm=self.batch_norm)

    def forward(self, x):
        x = self.head(self.trunk(x))
        return x.flatten(1) + self.point_bias


class ValueNet(nn.Module):
    """v_theta: forward returns values in [-1, 1], shape (N,), from the player to move's view.

    `layers` counts the convolutions including the 1x1 layer (13 in AlphaGo),
    so a ValueNet and a PolicyNet with the same `layers` and `filters` share
    trunk shapes (see `init_value_from_policy`). Two FC layers follow.
    """

    kind = 'value'

    def __init__(self, planes=VALUE_PLANES, filters=DEFAULT_FILTERS,
                 layers=DEFAULT_LAYERS, board_size=DEFAULT_BOARD_SIZE,
                 batch_norm=False, hidden=VALUE_HIDDEN, move_head=False):
        super().__init__()
        _check_arch(planes, filters, layers, board_size)
        self.planes, self.filters, self.layers = planes, filters, layers
        self.board_size, self.batch_norm, self.hidden = board_size, batch_norm, hidden
        self.trunk = make_trunk(planes, filters, layers - 1, batch_norm)
        # Layer 13: 1x1 conv to one plane, then ReLU. With batch_norm it gets a
        # BN of its own: a lone ReLU channel easily dies (every point negative,
        # a constant output, no gradient), which is what happened without it.
        self.head = ConvBlock(filters, 1, 1, batch_norm)
        self.fc = nn.Linear(board_size * board_size, hidden)  # layer 14
        self.out = nn.Linear(hidden, 1)
        # Training only: the policy's layer 13 on the same trunk. Predicting
        # the move played gives the trunk a dense signal per position where
        # the outcome gives one noisy bit per game (multi-task, as AlphaGo
        # Zero's shared trunk). `without_move_head` drops it for shipping.
        self.move_head = move_head
        if move_head:
            self.move_conv = nn.Conv2d(filters, 1, 1, bias=False)
            self.move_bias = nn.Parameter(torch.zeros(board_size * board_size))

    @property
    def arch(self):
        """Constructor arguments; stored in checkpoints to rebuild the model."""
        arch = dict(planes=self.planes, filters=self.filters, layers=self.layers,
                    board_size=self.board_size, batch_norm=self.batch_norm,
                    hidden=self.hidden)
        if self.move_head:  # absent from shipped files, which stay AlphaGo's shape
            arch['move_head'] = True
        return arch

    def _value(self, features):
        # Every hidden layer is "followed by a rectifier", the 1x1 one included.
        x = self.head(features).flatten(1)
        x = F.relu(self.fc(x))
        return torch.tanh(self.out(x)).squeeze(1)

    def forward(self, x):
        return self._value(self.trunk(x))

    def forward_with_moves(self, x):
        """(values (N,), move logits (N, size*size)) from one pass through the trunk."""
        if not self.move_head:
            raise ValueError('this value network has no move head')
        features = self.trunk(x)
        logits = self.move_conv(features).flatten(1) + self.move_bias
        return self._value(features), logits


def without_move_head(model):
    """The value network alone: a copy without its training-only move head."""
    if not getattr(model, 'move_head', False):
        return model
    arch = dict(model.arch)
    del arch['move_head']
    plain = type(model)(**arch)
    state = {k: v for k, v in model.state_dict().items() if not k.startswith('move_')}
    plain.load_state_dict(state)
    return plain.train(model.training)


NETWORK_CLASSES = {'policy': PolicyNet, 'value': ValueNet}


def softmax_with_temperature(logits, temperature=1.0, dim=-1):
    """probs = softmax(logits / temperature).

    temperature < 1 sharpens the distribution, > 1 flattens it. AlphaGo's
    search priors use beta = 0.67 (SEARCH_TEMPERATURE). Works on tensors.
    """
    if temperature <= 0:
        raise ValueError(f'temperature must be > 0, got {temperature}')
    return torch.softmax(logits.float() / temperature, dim=dim)


# --------------------------------------------------------------------------
# Batch-norm folding and transfer
# --------------------------------------------------------------------------

def _folded_conv(block):
    """Weight and bias of a conv that equals conv followed by eval-mode BN."""
    conv, bn = block.conv, block.bn
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    weight = conv.weight * scale.view(-1, 1, 1, 1)
    bias = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
    bias = (bias - bn.running_mean) * scale + bn.bias
    return weight.detach().clone(), bias.detach().clone()


def fold_batch_norm(model):
    """Return an equivalent model with batch_norm=False (in eval mode).

    Uses BN's running statistics, so the result matches `model.eval()`, not
    training-mode BN. The input model is left unchanged; a model without BN
    is returned as an eval-mode copy.
    """
    if not model.batch_norm:
        return copy.deepcopy(model).eval()
    folded = type(model)(**dict(model.arch, batch_norm=False))
    blocks = {name: m for name, m in model.named_modules() if isinstance(m, ConvBlock)}
    state = {k: v for k, v in model.state_dict().items()
             if not any(k.startswith(name + '.') for name in blocks)}
    with torch.no_grad():
        for name, block in blocks.items():
            state[f'{name}.conv.weight'], state[f'{name}.conv.bias'] = _folded_conv(block)
    folded.load_state_dict(state)
    return folded.float().eval()


@torch.no_grad()
def unfold_batch_norm(model, planes, batch=128):
    """A batch_norm=True model computing what the plain `model` computes: the inverse of folding.

    A shipped network has its BN folded away, so training cannot simply go
    on from it. Here each conv's output (bias removed) is measured on
    `planes` (N, C, s, s) of real positions; BN then gets those statistics as
    running mean/var, gamma = their std and beta = bias + mean. Eval mode is
    exact, train mode on batches like `planes` nearly so, and gamma/beta come
    back as the folded run had learned them. Each filter is rescaled to He
    initialisation's norm (BN ignores the scale; it sets the step size).
    """
    plain = fold_batch_norm(model).float()
    named = [(n, m) for n, m in plain.named_modules() if isinstance(m, ConvBlock)]
    sums = [0.0] * len(named)
    squares = [0.0] * len(named)

    def record(i):
        def hook(conv, inputs, output):
            z = output - conv.bias.view(1, -1, 1, 1)
            sums[i] = sums[i] + z.double().sum((0, 2, 3))
            squares[i] = squares[i] + (z.double() ** 2).sum((0, 2, 3))
        return hook

    handles = [b.conv.register_forward_hook(record(i)) for i, (_, b) in enumerate(named)]
    try:
        for start in range(0, len(planes), batch):
            plain(torch.from_numpy(np.asarray(planes[start:start + batch])).float())
    finally:
        for h in handles:
            h.remove()
    count = len(planes) * plain.board_size ** 2
    if count == 0:
        raise ValueError('unfold_batch_norm needs at least one position')

    unfolded = type(plain)(**dict(plain.arch, batch_norm=True))
    state = unfolded.state_dict()
    state.update({k: v for k, v in plain.state_dict().items() if k in state})
    for i, (name, block) in enumerate(named):
        weight, bias = block.conv.weight, block.conv.bias
        mean = (sums[i] / count).float()
        var = (squares[i] / count).float() - mean ** 2
        var = var.clamp(min=0.0)
        norm = weight.flatten(1).norm(dim=1).clamp(min=1e-12)
        scale = (2.0 ** 0.5) / norm  # He init: each filter's norm is sqrt(2)
        eps = unfolded.get_submodule(name).bn.eps
        state[f'{name}.conv.weight'] = weight * scale.view(-1, 1, 1, 1)
        state[f'{name}.bn.running_mean'] = mean * scale
        state[f'{name}.bn.running_var'] = var * scale ** 2
        state[f'{name}.bn.weight'] = torch.sqrt(var * scale ** 2 + eps) / scale
        state[f'{name}.bn.bias'] = bias + mean
    unfolded.load_state_dict(state)
    return unfolded.train()


def init_value_from_policy(value_net, policy_net):
    """Copy a policy net's trunk (its first layers-1 convs) into a value net, in place.

    Transfer learning for v_theta. The value net has one more input plane
    (colour to play): the shared input channels are copied, the extra ones
    zeroed, so the copied trunk initially ignores them. The two nets may differ
    in batch_norm: a BN policy is folded first; a plain (e.g. exported, folded)
    policy goes into a BN value net with each conv bias carried by BN's
    running mean, so the trunks agree exactly in eval mode. A value net with a
    move head also gets the policy's layer 13 there. Raises ValueError
    when filters or layers differ. Returns value_net.
    """
    if (value_net.filters != policy_net.filters
            or value_net.layers != policy_net.layers
            or value_net.planes < policy_net.planes):
        raise ValueError(f'trunk shapes differ: value {value_net.arch} vs policy {policy_net.arch}')
    if policy_net.batch_norm and not value_net.batch_norm:
        policy_net = fold_batch_norm(policy_net)
    with torch.no_grad():
        for i, (src, dst) in enumerate(zip(policy_net.trunk, value_net.trunk)):
            weight = src.conv.weight
            if i == 0:  # (filters, planes, 5, 5): widen the input channels
                weight = torch.cat([weight, weight.new_zeros(
                    weight.shape[0], value_net.planes - policy_net.planes, *weight.shape[2:])], 1)
            dst.conv.weight.copy_(weight)
            if policy_net.batch_norm:  # both BN
                dst.bn.load_state_dict(src.bn.state_dict())
            elif value_net.batch_norm:  # eval BN(x) = (x - mean) / 1 = x + bias
                dst.bn.reset_parameters()
                dst.bn.running_mean.copy_(-src.conv.bias)
                dst.bn.running_var.fill_(1.0 - dst.bn.eps)
            else:  # both plain
                dst.conv.bias.copy_(src.conv.bias)
        if getattr(value_net, 'move_head', False):  # start predicting moves as the policy does
            value_net.move_conv.weight.copy_(policy_net.head.weight)
            value_net.move_bias.copy_(policy_net.point_bias)
    return value_net


# --------------------------------------------------------------------------
# Checkpoint files
# --------------------------------------------------------------------------

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


def load_network(path, kind=None, fold=False):
    """Rebuild the network stored at `path`: fp32, eval mode, on the CPU.

    kind: 'policy' or 'value' to insist on one (NetworkLoadError otherwise).
    fold: fold batch norm into the convolutions (what inference wants).
    The file's `extra` metadata is attached as `model.extra`.
    """
    checkpoint = read_checkpoint(path)
    if kind is not None and checkpoint['kind'] != kind:
        raise NetworkLoadError(f'{path}: contains a {checkpoint["kind"]} network, '
                               f'expected a {kind} network')
    cls = NETWORK_CLASSES[checkpoint['kind']]
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


# --------------------------------------------------------------------------
# Inference for the search
# --------------------------------------------------------------------------

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


class NetworkEvaluator:
    """Batched numpy-in, numpy-out inference for the tree search.

    Holds an eval-mode snapshot of the model (batch norm folded), so later
    training of `model` does not affect it; build a new evaluator to pick up
    new weights. bf16 autocast roughly doubles throughput on CPUs with
    AVX-512 BF16 / AMX, at a small cost in precision (see tools/bench_nets.py
    --agreement), and is many times slower elsewhere: use_bf16=None (the
    default) turns it on only where bf16_is_fast(). `threads` sets torch's
    process-wide intra-op thread count: None uses all cores available to
    this process, 0 leaves it unchanged.

    channels_last (NHWC) memory format: measured on 2 Zen 4 cores, k=192, it
    gave +10..40% in fp32 and +0..30% in bf16 (never slower), so it is on by
    default.

    Inputs are uint8 (or any numeric) planes (N, planes, s, s); a single
    position (planes, s, s) gives a single result (no batch axis).
    """

    def __init__(self, model, use_bf16=None, threads=None, channels_last=True):
        self.model = fold_batch_norm(model)  # an eval-mode copy
        self.kind = model.kind
        self.planes, self.board_size = model.planes, model.board_size
        self.use_bf16 = bf16_is_fast() if use_bf16 is None else use_bf16
        self.channels_last = channels_last
        if channels_last:
            self.model = self.model.to(memory_format=torch.channels_last)
        if threads is None:
            threads = available_cores()
        if threads > 0:
            torch.set_num_threads(threads)

    def _batch(self, planes):
        """numpy (N, C, s, s) or (C, s, s) -> float tensor, and whether it was single."""
        planes = np.asarray(planes)
        single = planes.ndim == 3
        if single:
            planes = planes[None]
        expected = (self.planes, self.board_size, self.board_size)
        if planes.ndim != 4 or planes.shape[1:] != expected:
            raise ValueError(f'expected planes of shape (N, {expected[0]}, {expected[1]}, '
                             f'{expected[2]}) or {expected}, got {planes.shape}')
        x = torch.from_numpy(np.ascontiguousarray(planes)).float()
        if self.channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        return x, single

    def _forward(self, x):
        with torch.autocast('cpu', dtype=torch.bfloat16, enabled=self.use_bf16):
            return self.model(x).float()

    @torch.inference_mode()
    def logits(self, planes):
        """Raw policy logits, float32 (N, s*s) (or (s*s,) for one position)."""
        self._require('policy')
        x, single = self._batch(planes)
        out = self._forward(x).numpy()
        return out[0] if single else out

    @torch.inference_mode()
    def policy(self, planes, temperature=1.0, legal_mask=None):
        """Move probabilities softmax(logits / temperature), float32 (N, s*s).

        legal_mask: optional bool array (N, s*s) (or (s*s,) for one position);
        probabilities are then renormalised over the legal points only. A row
        with no legal point comes back all zeros (the caller should pass).
        """
        self._require('policy')
        x, single = self._batch(planes)
        logits = self._forward(x)
        if legal_mask is not None:
            mask = torch.from_numpy(np.asarray(legal_mask, dtype=bool).reshape(logits.shape))
            logits = logits.masked_fill(~mask, float('-inf'))
        probs = softmax_with_temperature(logits, temperature)
        if legal_mask is not None:
            probs = torch.nan_to_num(probs, nan=0.0)  # all-illegal rows: 0/0
        out = probs.numpy()
        return out[0] if single else out

    @torch.inference_mode()
    def value(self, planes):
        """Values in [-1, 1] for the player to move, float32 (N,) (or a scalar)."""
        self._require('value')
        x, single = self._batch(planes)
        out = self._forward(x).numpy()
        return out[0] if single else out

    def _require(self, kind):
        if self.kind != kind:
            raise TypeError(f'this evaluator holds a {self.kind} network, not a {kind} network')
