"""Fast batched inference: the one network call, evaluate(boards, komi) -> Outputs.

Every player, the search and the remote network workers ask a network through
evaluate; the symmetries, the dead-ladder re-read and the value at the game's komi are
done here. The tools that read training shards, which hold planes and no boards, go
through goengine.nn.on_planes.

On the CPU bf16 where it is computed natively (bf16_is_fast), fp32 elsewhere;
on a GPU bf16 (fp16 where it has no bf16); channels_last; batch norm folded
into the convolutions.
"""

from dataclasses import dataclass

import numpy as np
import torch

from goengine import WHITE
from goengine.nn import features
from goengine.nn.cpu import bf16_is_fast
from goengine.nn.devices import available_cores
from goengine.nn.heads import Head
from goengine.nn.nets import score_lead, value_at_komi
from goengine.nn.surgery import fold_batch_norm


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


@dataclass(frozen=True)
class NetworkInfo:
    """What a network is, as its evaluator describes it (local or on a remote worker)."""
    kind: str            # 'policy', 'value' or 'heads' (four-headed)
    heads: tuple         # its outputs, in the order the network gives them
    planes: int          # input planes it reads (48 policy, 49 value planes)
    board_size: int      # the only size it evaluates: its per-point biases fix it
    device: str
    backend: str         # what computes it: 'torch', 'onnxruntime' or 'openvino'
    precision: str = ''  # 'fp32', 'bf16', 'fp16' or 'int8'

    def answers(self, head):
        """Whether the network has the head `head` (a heads.Head)."""
        return head in self.heads

    def serves(self, size):
        return self.board_size == size


@dataclass
class Outputs:
    """What one network call says about a batch of positions, each for its player to move
    (KataGo's NNOutput): the heads a network lacks, or the call did not ask for, are None.
    policy_logits and ownership are in the board's orientation whatever symmetry the
    network saw. value: the outcome in [-1, 1], at the komi asked for where a score head
    can move it there; true_value: the same at the true komi asked for (None without a
    score head); score_lead: the expected final margin in points at the komi asked for;
    ownership: +1 the mover's, -1 the opponent's, one value a point. reread: how many
    positions had their value read again with a decided ladder resolved."""
    policy_logits: np.ndarray = None      # (N, s*s)
    value: np.ndarray = None              # (N,)
    true_value: np.ndarray = None         # (N,)
    ownership: np.ndarray = None          # (N, s*s)
    score_lead: np.ndarray = None         # (N,)
    reread: int = 0


class NetworkEvaluator:
    """Batched inference for one network: Boards in, Outputs out (evaluate).

    Holds an eval-mode snapshot of the model (batch norm folded), so later
    training of `model` does not affect it; build a new evaluator to pick up
    new weights. bf16 autocast is faster on CPUs with AVX-512 BF16 / AMX, at a
    small cost in precision (tools/bench/bench_nets.py --agreement), and far slower
    elsewhere: use_bf16=None (the default) turns it on only where bf16_is_fast()
    (docs/DECISIONS.md, 'precision on the CPU'). `threads` sets torch's
    process-wide intra-op thread count: None uses all cores available to
    this process, 0 leaves it unchanged.

    channels_last (NHWC) memory format is on by default (docs/DECISIONS.md,
    'precision on the CPU').

    `device` is a torch device name (pick_device): the network runs there in
    half precision unless use_bf16=False; inputs cross as uint8 and results
    come back as numpy arrays.
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
        half = 'fp16' if self.half_dtype() is torch.float16 else 'bf16'
        self.precision = half if self.use_bf16 else 'fp32'
        self.channels_last = channels_last
        if channels_last:
            self.model = self.model.to(memory_format=torch.channels_last)
        self.model = self.model.to(self.device)
        if threads is None:
            threads = available_cores()
        if threads > 0:
            torch.set_num_threads(threads)

    def describe(self):
        """The network's NetworkInfo: its heads, planes, board size, device, backend and
        precision."""
        return NetworkInfo(self.kind, self.heads, self.planes, self.board_size,
                           str(self.device), self.backend, self.precision)

    @torch.inference_mode()
    def evaluate(self, boards, komi, symmetries=None, true_komi=None, heads=None, ladders=0):
        """Outputs for goengine Boards, each read for its player to move, at `komi`.

        symmetries: None (the boards as they are), one of the 8 board symmetries a board
        (features.apply_symmetry), or a numpy Generator to draw a random one a board from
        (AlphaGo's search: the network's orientation biases average out). true_komi: a
        second komi to read the value at (the search's rollouts may count with dynamic
        komi; it reports the game's). heads: the outputs wanted (None: every head the
        network has). ladders: with a value wanted, a board where a ladder of chains of
        this many stones is already decided (Board.without_dead_ladders) has its value
        and score read on the board with that chain taken off, its policy and ownership
        on the board as it is: networks trained on strong players' games, where no dead
        ladder is run out, read such a chain as alive; 0: off."""
        boards = list(boards)
        wanted = tuple(h for h in self.heads if heads is None or h in heads)
        resolved = [None] * len(boards)
        if ladders > 0 and Head.VALUE in wanted:
            resolved = [board.without_dead_ladders(ladders) for board in boards]
        reread = sum(r is not None for r in resolved)
        if Head.POLICY not in wanted:   # nothing to read on the board as it is
            boards = [r if r is not None else b for b, r in zip(boards, resolved)]
            resolved = [None] * len(boards)
        syms = _symmetries(symmetries, len(boards))
        result = self._evaluate_once(boards, komi, syms, true_komi, wanted)
        again = [i for i, r in enumerate(resolved) if r is not None]
        if again:
            drawn = isinstance(symmetries, np.random.Generator)
            fixed = self._evaluate_once(
                [resolved[i] for i in again], komi,
                _symmetries(symmetries, len(again)) if drawn else
                None if syms is None else syms[again], true_komi, wanted)
            for name in ('value', 'true_value', 'score_lead'):
                if getattr(result, name) is not None:
                    getattr(result, name)[again] = getattr(fixed, name)
        result.reread = reread
        return result

    def _evaluate_once(self, boards, komi, syms, true_komi, wanted):
        """One forward pass of `boards`, each in its symmetry `syms` (None: as they are),
        for the heads `wanted` (evaluate's other arguments)."""
        planes = np.stack([features.input_planes(board, self.planes) for board in boards])
        if syms is not None:
            planes = np.stack([features.apply_symmetry(p, int(k)) for p, k in zip(planes, syms)])
        white = np.array([board.to_move == WHITE for board in boards])
        x = self._batch(planes)
        asked = wanted + ((Head.SCORE,) if Head.VALUE in wanted and Head.SCORE in self.heads
                          and Head.SCORE not in wanted else ())
        out = dict(zip(asked, self._forward(x, *asked)))
        result = Outputs()
        if Head.POLICY in wanted:
            result.policy_logits = _in_board_orientation(out[Head.POLICY].cpu().numpy(), syms)
        if Head.VALUE in wanted:
            value = out[Head.VALUE]
            if Head.SCORE in out:
                result.true_value = None if true_komi is None else (
                    value_at_komi(value, out[Head.SCORE], true_komi, white).cpu().numpy())
                value = value_at_komi(value, out[Head.SCORE], komi, white)
            result.value = value.cpu().numpy().reshape(-1)
        if Head.OWNERSHIP in wanted:
            result.ownership = _in_board_orientation(out[Head.OWNERSHIP].cpu().numpy(), syms)
        if Head.SCORE in wanted:
            result.score_lead = score_lead(out[Head.SCORE], komi, white).double().cpu().numpy()
        return result

    def outputs_for_planes(self, planes, *kinds):
        """The network's raw `kinds` outputs (float32 tensors) for numpy planes
        (N, C, s, s) already built: the tools' and trainers' way in (nn/on_planes.py),
        where evaluate takes boards."""
        return self._forward(self._batch(planes), *kinds)

    def _batch(self, planes):
        """numpy planes (N, C, s, s) -> a float tensor on the device."""
        planes = np.asarray(planes)
        expected = (self.planes, self.board_size, self.board_size)
        if planes.ndim != 4 or planes.shape[1:] != expected:
            raise ValueError(f'expected planes of shape (N, {expected[0]}, {expected[1]}, '
                             f'{expected[2]}), got {planes.shape}')
        x = torch.from_numpy(np.ascontiguousarray(planes))
        if self.device.type != "cpu":  # uint8 crosses the bus: a quarter of the bytes
            x = x.to(self.device, non_blocking=True)
        x = x.float()
        if self.channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        return x

    def _forward(self, x, *kinds):
        """The network's `kinds` outputs for the batch x, float32, as a tuple (a
        four-headed network answers all in one call)."""
        with torch.autocast(self.device.type, dtype=self.half_dtype(), enabled=self.use_bf16):
            out = self.model(x)
        outputs = out if isinstance(out, tuple) else (out,)
        return tuple(outputs[self.heads.index(kind)].float() for kind in kinds)

    def half_dtype(self):
        """bf16; fp16 on Apple's MPS and on a CUDA GPU without bf16 (before Ampere)."""
        if self.device.type == "mps" or (self.device.type == "cuda"
                                         and not torch.cuda.is_bf16_supported()):
            return torch.float16
        return torch.bfloat16


def _symmetries(symmetries, count):
    """One symmetry a board (an array of ints) from evaluate's `symmetries`, or None."""
    if symmetries is None:
        return None
    if isinstance(symmetries, np.random.Generator):
        return symmetries.integers(features.NUM_SYMMETRIES, size=count)
    syms = np.asarray(symmetries, dtype=np.int64).reshape(-1)
    if len(syms) != count:
        raise ValueError(f'{len(syms)} symmetries for {count} boards')
    return syms


def _in_board_orientation(maps, syms):
    """Maps (n, size*size) turned back from each position's symmetry (None: as they are)."""
    maps = np.asarray(maps, dtype=np.float32)
    if syms is None:
        return maps
    size = int(round(np.sqrt(maps.shape[-1])))
    grids = maps.reshape(-1, size, size)
    return np.stack([features.invert_symmetry(m, int(k)) for m, k in zip(grids, syms)]
                    ).reshape(len(grids), size * size)
