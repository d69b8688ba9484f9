"""KataGo's network file, read into a torch module: the teacher that labels training positions.

The teacher is a training-time judge only; the engine never loads it. The file is KataGo's
own model format (`.bin.gz`: whitespace-separated text with `@BIN@` blocks of little-endian
float32), as its reader `cpp/neuralnet/desc.cpp` defines it, up to model version 15
including the nested-bottleneck blocks whose inner blocks are transformer layers
(RMSNorm, grouped-query attention with 2-D RoPE over the 19x19 points, SwiGLU FFNs).
The forward pass follows KataGo's Eigen backend on a full 19x19 board, where the
on-board mask is 1 everywhere, so it drops out.

`TeacherNet(...)(spatial, global_)` takes training/teacher_inputs.py's planes and returns
raw outputs; `answers` turns them into probabilities the way KataGo's evaluator does
(nneval.cpp), from the point of view of the player to move.
"""

import gzip
import importlib.util
import math
import os
from typing import NamedTuple

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

BOARD = 19
MAX_VERSION = 15
TEACHER_FILE = "b10c384h6nbttflrs.bin.gz"   # KataGo's network as the katrain wheel ships it


class TeacherFileError(ValueError):
    """The file is not a KataGo network this reader understands (one line says why)."""


class _Reader:
    """Tokens and float blocks of the model file, in file order."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def token(self) -> str:
        d, n = self.data, len(self.data)
        while self.pos < n and d[self.pos] in b" \t\r\n":
            self.pos += 1
        start = self.pos
        while self.pos < n and d[self.pos] not in b" \t\r\n":
            self.pos += 1
        if start == self.pos:
            raise TeacherFileError("the file ends early")
        return d[start:self.pos].decode("ascii", errors="replace")

    def int(self) -> int:
        word = self.token()
        try:
            return int(word)
        except ValueError:
            raise TeacherFileError(f"expected an integer, found {word[:20]!r}") from None

    def float(self) -> float:
        word = self.token()
        try:
            return float(word)
        except ValueError:
            raise TeacherFileError(f"expected a number, found {word[:20]!r}") from None

    def floats(self, count: int, name: str) -> np.ndarray:
        at = self.data.find(b"@BIN@", self.pos, self.pos + 100)
        if at < 0:
            raise TeacherFileError(f"{name}: no binary block where its weights should be")
        start = at + 5
        end = start + 4 * count
        if end > len(self.data):
            raise TeacherFileError(f"{name}: the file ends inside its weights")
        self.pos = end
        values = np.frombuffer(self.data, dtype="<f4", count=count, offset=start).astype(np.float32)
        if not np.isfinite(values).all():
            raise TeacherFileError(f"{name}: weights that are not finite")
        return values


# ----------------------------------------------------------------------------- layers


def _conv(r: _Reader) -> nn.Conv2d:
    name = r.token()
    ky, kx, cin, cout, dy, dx = (r.int() for _ in range(6))
    if ky % 2 == 0 or kx % 2 == 0 or dy != 1 or dx != 1:
        raise TeacherFileError(f"{name}: a {ky}x{kx} convolution with dilation {dy}x{dx}")
    w = r.floats(ky * kx * cin * cout, name).reshape(ky, kx, cin, cout).transpose(3, 2, 0, 1)
    conv = nn.Conv2d(cin, cout, (ky, kx), padding=(ky // 2, kx // 2), bias=False)
    conv.weight.data = torch.from_numpy(np.ascontiguousarray(w))
    return conv


def _matmul(r: _Reader) -> nn.Linear:
    name = r.token()
    cin, cout = r.int(), r.int()
    w = r.floats(cin * cout, name).reshape(cin, cout).T
    lin = nn.Linear(cin, cout, bias=False)
    lin.weight.data = torch.from_numpy(np.ascontiguousarray(w))
    return lin


def _bias(r: _Reader) -> torch.Tensor:
    name = r.token()
    return torch.from_numpy(r.floats(r.int(), name))


ACTIVATIONS = {
    "ACTIVATION_IDENTITY": nn.Identity,
    "ACTIVATION_RELU": nn.ReLU,
    "ACTIVATION_MISH": nn.Mish,
    "ACTIVATION_SILU": nn.SiLU,
}


def _activation(r: _Reader) -> nn.Module:
    r.token()  # the layer's name
    kind = r.token()
    if kind not in ACTIVATIONS:
        raise TeacherFileError(f"unknown activation {kind}")
    return ACTIVATIONS[kind]()


def _norm_header(r: _Reader):
    """A norm layer's name, channels and epsilon."""
    return r.token(), r.int(), r.float()


class NormAct(nn.Module):
    """A batch norm (folded to scale and bias) and its activation."""

    def __init__(self, r: _Reader, act_reader=_activation):
        super().__init__()
        name, channels, eps = _norm_header(r)
        has_scale, has_bias = r.int(), r.int()
        mean = r.floats(channels, name)
        var = r.floats(channels, name)
        scale = r.floats(channels, name) if has_scale else np.ones(channels, np.float32)
        bias = r.floats(channels, name) if has_bias else np.zeros(channels, np.float32)
        merged = scale / np.sqrt(var + eps)
        self.register_buffer("scale", torch.from_numpy(merged.reshape(1, -1, 1, 1).astype(np.float32)))
        self.register_buffer("shift", torch.from_numpy((bias - merged * mean).reshape(1, -1, 1, 1).astype(np.float32)))
        self.act = act_reader(r)
        self.channels = channels

    def forward(self, x):
        return self.act(x * self.scale + self.shift)


class RMSNormAct(nn.Module):
    """The trunk tip's RMSNorm (per point over channels, or over the whole board) and activation."""

    def __init__(self, r: _Reader):
        super().__init__()
        name, channels, self.eps = _norm_header(r)
        self.spatial = bool(r.int())
        if r.int() != 0:
            raise TeacherFileError(f"{name}: grouped RMSNorm")
        self.register_buffer("gamma", torch.from_numpy(r.floats(channels, name)).reshape(1, -1, 1, 1))
        self.register_buffer("beta", torch.from_numpy(r.floats(channels, name)).reshape(1, -1, 1, 1))
        self.act = _activation(r)
        self.channels = channels

    def forward(self, x):
        dims = (1, 2, 3) if self.spatial else (1,)
        x = x * torch.rsqrt(x.pow(2).mean(dim=dims, keepdim=True) + self.eps)
        return self.act(x * self.gamma + self.beta)


class ResBlock(nn.Module):
    def __init__(self, r: _Reader):
        super().__init__()
        r.token()
        self.norm1 = NormAct(r)
        self.conv1 = _conv(r)
        self.norm2 = NormAct(r)
        self.conv2 = _conv(r)

    def forward(self, x):
        return x + self.conv2(self.norm2(self.conv1(self.norm1(x))))


def global_pool(x):
    """KataGo's pooling: the mean, the mean scaled by board width, and the max."""
    mean = x.mean(dim=(2, 3))
    width = math.sqrt(x.shape[2] * x.shape[3])
    return torch.cat([mean, mean * (width - 14.0) * 0.1, x.amax(dim=(2, 3))], dim=1)


def value_pool(x):
    """The value head's pooling: the mean, scaled by board width and by its square."""
    mean = x.mean(dim=(2, 3))
    d = math.sqrt(x.shape[2] * x.shape[3]) - 14.0
    return torch.cat([mean, mean * d * 0.1, mean * (d * d * 0.01 - 0.1)], dim=1)


class GPoolBlock(nn.Module):
    def __init__(self, r: _Reader):
        super().__init__()
        r.token()
        self.norm1 = NormAct(r)
        self.conv1 = _conv(r)
        self.gpool_conv = _conv(r)
        self.gpool_norm = NormAct(r)
        self.gpool_to_bias = _matmul(r)
        self.norm2 = NormAct(r)
        self.conv2 = _conv(r)

    def forward(self, x):
        a = self.norm1(x)
        g = self.gpool_to_bias(global_pool(self.gpool_norm(self.gpool_conv(a))))
        h = self.conv1(a) + g[:, :, None, None]
        return x + self.conv2(self.norm2(h))


class NestedBottleneck(nn.Module):
    def __init__(self, r: _Reader, version: int):
        super().__init__()
        name = r.token()
        count = r.int()
        self.norm1 = NormAct(r)
        self.conv1 = _conv(r)
        self.blocks = nn.Sequential(*_block_stack(r, version, count, name))
        self.norm2 = NormAct(r)
        self.conv2 = _conv(r)

    def forward(self, x):
        return x + self.conv2(self.norm2(self.blocks(self.conv1(self.norm1(x)))))


class _PointRMSNorm(nn.Module):
    def __init__(self, r: _Reader):
        super().__init__()
        name, channels, self.eps = _norm_header(r)
        self.register_buffer("weight", torch.from_numpy(r.floats(channels, name)))

    def forward(self, x):  # x: (N, L, C)
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


def _rope_angles(freqs: np.ndarray) -> np.ndarray:
    """Angles (heads, pairs, points) of 2-D RoPE with per-head learned (fx, fy) frequencies."""
    ys, xs = np.meshgrid(np.arange(BOARD), np.arange(BOARD), indexing="ij")
    xs, ys = xs.reshape(-1).astype(np.float32), ys.reshape(-1).astype(np.float32)
    return freqs[..., 0:1] * xs + freqs[..., 1:2] * ys


def _fixed_rope_angles(pairs: int, head_dim: int, theta: float) -> np.ndarray:
    """Angles (1, pairs, points): the first half of the pairs turn with y, the second with x."""
    ys, xs = np.meshgrid(np.arange(BOARD), np.arange(BOARD), indexing="ij")
    xs, ys = xs.reshape(-1).astype(np.float32), ys.reshape(-1).astype(np.float32)
    half = head_dim // 2
    per_dim = pairs // 2
    angles = np.zeros((pairs, BOARD * BOARD), np.float32)
    for p in range(pairs):
        q = p if p < per_dim else p - per_dim
        freq = 1.0 / theta ** (2 * q / half)
        angles[p] = (ys if p < per_dim else xs) * freq
    return angles[None]


class Attention(nn.Module):
    """Pre-norm grouped-query self-attention over the 361 points, with RoPE on q and k."""

    def __init__(self, r: _Reader):
        super().__init__()
        name = r.token()
        self.heads, self.kv_heads, self.q_dim, self.v_dim = (r.int() for _ in range(4))
        use_rope, learnable = bool(r.int()), bool(r.int())
        self.norm = _PointRMSNorm(r)
        self.q, self.k, self.v, self.out = _matmul(r), _matmul(r), _matmul(r), _matmul(r)
        angles = None
        if use_rope and learnable:
            r.token()
            kv, pairs, two = r.int(), r.int(), r.int()
            if kv != self.kv_heads or pairs != self.q_dim // 2 or two != 2:
                raise TeacherFileError(f"{name}: RoPE frequencies of shape {kv}x{pairs}x{two}")
            angles = _rope_angles(r.floats(kv * pairs * 2, name).reshape(kv, pairs, 2))
        elif use_rope:
            r.token()
            angles = _fixed_rope_angles(self.q_dim // 2, self.q_dim, r.float())
        self.rope = angles is not None
        if self.rope:
            self.register_buffer("cos", torch.from_numpy(np.cos(angles)).float())
            self.register_buffer("sin", torch.from_numpy(np.sin(angles)).float())

    def _rotate(self, t, heads):
        # t: (N, heads, L, dim); pairs are channels (2p, 2p+1)
        if not self.rope:
            return t
        group = heads // self.cos.shape[0]
        cos = self.cos.repeat_interleave(group, dim=0).transpose(1, 2)[None]  # (1, heads, L, pairs)
        sin = self.sin.repeat_interleave(group, dim=0).transpose(1, 2)[None]
        even, odd = t[..., 0::2], t[..., 1::2]
        return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)

    def forward(self, x):  # (N, L, C)
        n, length, _ = x.shape
        h = self.norm(x)
        q = self.q(h).view(n, length, self.heads, self.q_dim).transpose(1, 2)
        k = self.k(h).view(n, length, self.kv_heads, self.q_dim).transpose(1, 2)
        v = self.v(h).view(n, length, self.kv_heads, self.v_dim).transpose(1, 2)
        q, k = self._rotate(q, self.heads), self._rotate(k, self.kv_heads)
        group = self.heads // self.kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        a = F.scaled_dot_product_attention(q, k, v)
        return x + self.out(a.transpose(1, 2).reshape(n, length, self.heads * self.v_dim))


class FeedForward(nn.Module):
    """Pre-norm SwiGLU: silu(W1 x) * (Wg x), then W2."""

    def __init__(self, r: _Reader):
        super().__init__()
        name = r.token()
        r.int(), r.int()
        if not r.int():
            raise TeacherFileError(f"{name}: an FFN without SwiGLU")
        self.norm = _PointRMSNorm(r)
        self.w1, self.gate, self.w2 = _matmul(r), _matmul(r), _matmul(r)

    def forward(self, x):
        h = self.norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.gate(h))


class Transformer(nn.Module):
    """A run of attention and FFN blocks, on the board as a sequence of points."""

    def __init__(self, layers):
        super().__init__()
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        n, c, hh, ww = x.shape
        seq = x.flatten(2).transpose(1, 2)
        return self.layers(seq).transpose(1, 2).reshape(n, c, hh, ww)


def _block_stack(r: _Reader, version: int, count: int, owner: str) -> list:
    blocks, run = [], []
    for _ in range(count):
        kind = r.token()
        if kind in ("transformer_attention_block", "transformer_ffn_block"):
            run.append(Attention(r) if kind == "transformer_attention_block" else FeedForward(r))
            continue
        if run:
            blocks.append(Transformer(run))
            run = []
        if kind == "ordinary_block":
            blocks.append(ResBlock(r))
        elif kind == "gpool_block":
            blocks.append(GPoolBlock(r))
        elif kind == "nested_bottleneck_block":
            blocks.append(NestedBottleneck(r, version))
        else:
            raise TeacherFileError(f"{owner}: unknown block kind {kind}")
    if run:
        blocks.append(Transformer(run))
    return blocks


# ----------------------------------------------------------------------------- the network


class PostProcess(NamedTuple):
    """The file's output scales (model version >= 13)."""

    td_score: float
    score_mean: float
    score_stdev: float
    lead: float
    variance_time: float
    shortterm_value_error: float
    shortterm_score_error: float


class TeacherNet(nn.Module):
    """KataGo's trunk with its policy and value heads, as the file describes them."""

    def __init__(self, data: bytes):
        super().__init__()
        r = _Reader(data)
        self.name = r.token()
        self.version = r.int()
        if not 8 <= self.version <= MAX_VERSION:
            raise TeacherFileError(f"model version {self.version}; this reader knows 8-{MAX_VERSION}")
        self.spatial_inputs, self.global_inputs = r.int(), r.int()
        self.post = PostProcess(*(r.float() for _ in range(7))) if self.version >= 13 else None
        self.pass_alive_under_suicide = False
        if self.version >= 15:
            if r.int() != 0:
                raise TeacherFileError("a network with SGF metadata inputs")
            self.pass_alive_under_suicide = bool(r.int())
            if any(r.int() for _ in range(6)):
                raise TeacherFileError("model options this reader does not know")
        self._read_trunk(r)
        self._read_policy_head(r)
        self._read_value_head(r)

    def _read_trunk(self, r: _Reader):
        r.token()
        blocks, channels = r.int(), r.int()
        for _ in range(4):
            r.int()  # mid, regular, dilated and gpool channels: each block says its own
        norm_kind = 0
        if self.version >= 15:
            norm_kind = r.int()
            if any(r.int() for _ in range(5)):
                raise TeacherFileError("trunk options this reader does not know")
        self.input_conv = _conv(r)
        self.input_global = _matmul(r)
        self.blocks = nn.Sequential(*_block_stack(r, self.version, blocks, "trunk"))
        self.tip = NormAct(r) if norm_kind == 0 else RMSNormAct(r)
        if self.input_conv.in_channels != self.spatial_inputs or self.tip.channels != channels:
            raise TeacherFileError("the trunk's channels do not match the header")

    def _read_policy_head(self, r: _Reader):
        r.token()
        self.p1 = _conv(r)
        self.g1 = _conv(r)
        self.g1_norm = NormAct(r)
        self.g1_to_bias = _matmul(r)
        self.p1_norm = NormAct(r)
        self.p2 = _conv(r)
        self.g1_to_pass = _matmul(r)
        if self.version >= 15:
            self.pass_bias = nn.Parameter(_bias(r), requires_grad=False)
            self.pass_act = _activation(r)
            self.g1_to_pass2 = _matmul(r)

    def _read_value_head(self, r: _Reader):
        r.token()
        self.v1 = _conv(r)
        self.v1_norm = NormAct(r)
        self.v2 = _matmul(r)
        self.v2_bias = nn.Parameter(_bias(r), requires_grad=False)
        self.v2_act = _activation(r)
        self.v3 = _matmul(r)
        self.v3_bias = nn.Parameter(_bias(r), requires_grad=False)
        self.sv3 = _matmul(r)
        self.sv3_bias = nn.Parameter(_bias(r), requires_grad=False)
        self.ownership = _conv(r)

    def forward(self, spatial, global_):
        """Raw outputs: policy logits (N, channels, 362), value logits (N, 3), score values
        (N, k) and ownership logits (N, 19, 19), all for the player to move."""
        x = self.input_conv(spatial) + self.input_global(global_)[:, :, None, None]
        x = self.tip(self.blocks(x))

        g = global_pool(self.g1_norm(self.g1(x)))
        p = self.p2(self.p1_norm(self.p1(x) + self.g1_to_bias(g)[:, :, None, None]))
        if self.version >= 15:
            pass_logit = self.g1_to_pass2(self.pass_act(self.g1_to_pass(g) + self.pass_bias))
        else:
            pass_logit = self.g1_to_pass(g)
        policy = torch.cat([p.flatten(2), pass_logit[:, :, None]], dim=2)

        v = self.v1_norm(self.v1(x))
        h = self.v2_act(self.v2(value_pool(v)) + self.v2_bias)
        value = self.v3(h) + self.v3_bias
        score = self.sv3(h) + self.sv3_bias
        own = self.ownership(v)[:, 0]
        return policy, value, score, own


def default_path() -> str:
    """The teacher as the test extras install it: katrain's bundled KataGo network."""
    spec = importlib.util.find_spec("katrain")
    if spec is None or not spec.submodule_search_locations:
        raise TeacherFileError("katrain is not installed (make test installs it); or pass --teacher FILE")
    return os.path.join(list(spec.submodule_search_locations)[0], "models", TEACHER_FILE)


def load(path: str) -> TeacherNet:
    """The network in a KataGo `.bin.gz` file, in eval mode, fp32. One clear error if not."""
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise TeacherFileError(f"{path}: not a readable gzip file ({e})") from None
    try:
        net = TeacherNet(data)
    except TeacherFileError as e:
        raise TeacherFileError(f"{path}: {e}") from None
    return net.eval().requires_grad_(False)


class Answers(NamedTuple):
    """What the teacher says of a batch of positions, for the player to move."""

    policy: np.ndarray      # (N, 362) probabilities over the legal moves, pass last
    win: np.ndarray         # (N,) probability that the player to move wins
    no_result: np.ndarray   # (N,)
    score_mean: np.ndarray  # (N,) expected final score difference, player to move's
    lead: np.ndarray        # (N,) points the player to move leads by
    ownership: np.ndarray   # (N, 19, 19) in [-1, 1], +1 the player to move's


def answers(net: TeacherNet, outputs, legal: np.ndarray) -> Answers:
    """KataGo's post-processing (nneval.cpp) of raw outputs; `legal` (N, 362) bool."""
    policy, value, score, own = (t.float() for t in outputs)
    logits = policy[:, 0].masked_fill(~torch.from_numpy(legal), -1e30)
    probs = torch.softmax(logits, dim=1)
    wl = torch.softmax(value, dim=1)
    no_result = wl[:, 2]
    scale = net.post or PostProcess(*([1.0] * 7))
    score_mean = score[:, 0] * scale.score_mean * (1 - no_result)
    lead = score[:, 2] * scale.lead * (1 - no_result) if score.shape[1] > 2 else score_mean
    return Answers(probs.numpy(), wl[:, 0].numpy(), no_result.numpy(), score_mean.numpy(),
                   lead.numpy(), torch.tanh(own).numpy())


def export_onnx(net: TeacherNet, path: str):
    """The network as an ONNX file with a free batch size (for OpenVINO)."""
    spatial = torch.zeros(2, net.spatial_inputs, BOARD, BOARD)
    spatial[:, 0] = 1
    glob = torch.zeros(2, net.global_inputs)
    tmp = f"{path}.tmp{os.getpid()}"
    torch.onnx.export(net, (spatial, glob), tmp, input_names=["spatial", "global"],
                      output_names=["policy", "value", "score", "ownership"],
                      dynamic_axes={"spatial": {0: "n"}, "global": {0: "n"}},
                      opset_version=17, dynamo=False)
    os.replace(tmp, path)


class OpenVinoTeacher:
    """The teacher compiled by OpenVINO: 1.3x torch's bf16 on Zen 4 at batch 32
    (docs/results/2026-12.md, "The teacher"). Called like TeacherNet, on numpy arrays."""

    def __init__(self, net: TeacherNet, onnx_path: str, bf16: bool):
        import openvino as ov
        if not os.path.exists(onnx_path):
            export_onnx(net, onnx_path)
        core = ov.Core()
        self.model = core.compile_model(core.read_model(onnx_path), "CPU",
                                        {"INFERENCE_PRECISION_HINT": "bf16" if bf16 else "f32"})
        self.post, self.name = net.post, net.name

    def __call__(self, spatial, glob):
        result = self.model([np.asarray(spatial), np.asarray(glob)])
        return tuple(torch.from_numpy(result[self.model.output(i)]) for i in range(4))
