"""Where a network runs: torch (any device), or ONNX Runtime on the CPU.

A CPU without native bf16 (AVX2-only parts) runs the networks in fp32, and
there ONNX Runtime's kernels beat torch's; where the CPU computes bf16 natively
torch's bf16 is the faster one, so `auto` keeps torch there and on every
accelerator (docs/DECISIONS.md, 'backend'). ONNX Runtime is optional: without it `auto` is torch, and asking
for it by name is one clear error.
"""

import importlib.util
import io
import warnings

import numpy as np
import torch

from goengine.nn.devices import available_cores, is_cpu
from goengine.nn.inference import NetworkEvaluator, bf16_is_fast

AUTO, TORCH, ONNXRUNTIME = 'auto', 'torch', 'onnxruntime'
BACKENDS = (AUTO, TORCH, ONNXRUNTIME)


class BackendError(ValueError):
    """A backend that was asked for and cannot run here (one line saying why)."""


def onnxruntime_installed():
    """Whether ONNX Runtime and the onnx package (torch's exporter needs it) import."""
    return all(importlib.util.find_spec(name) is not None for name in ('onnxruntime', 'onnx'))


def pick_backend(name, device, use_bf16=None, log=None):
    """The backend that runs the networks on `device` for the name asked for.

    auto: ONNX Runtime on a CPU that would run fp32 (no native bf16, or
    use_bf16=False) where it is installed, else torch with a one-line notice
    to `log`; torch on a CPU with native bf16 and on every accelerator.
    Raises BackendError for ONNX Runtime on an accelerator or where it is missing."""
    name = (name or AUTO).lower()
    if name not in BACKENDS:
        raise BackendError(f'backend {name!r}: expected {", ".join(BACKENDS)}')
    on_cpu = is_cpu(device)
    if name == AUTO:
        fp32 = use_bf16 is False or (use_bf16 is None and not bf16_is_fast())
        if not (on_cpu and fp32):
            return TORCH
        if onnxruntime_installed():
            return ONNXRUNTIME
        if log:
            log('goengine: onnxruntime is not installed: the networks run on torch, '
                'slower on this CPU (make setup installs it)')
        return TORCH
    if name == ONNXRUNTIME:
        if not on_cpu:
            raise BackendError(f'backend onnxruntime runs on the CPU, not on {device}')
        if not onnxruntime_installed():
            raise BackendError('backend onnxruntime: the onnxruntime and onnx packages are '
                               'not installed (make setup installs them)')
    return name


def make_evaluator(model, backend=TORCH, threads=None, device='cpu', use_bf16=None):
    """A NetworkEvaluator of `model` on the backend pick_backend named."""
    if backend == ONNXRUNTIME:
        return OnnxRuntimeEvaluator(model, threads=threads)
    return NetworkEvaluator(model, use_bf16=use_bf16, threads=threads, device=device)


def export_onnx(model):
    """`model` (eval mode, batch norm folded) as ONNX bytes, fp32, with a free batch size:
    input 'planes', one output named after each head."""
    heads = tuple(getattr(model, 'heads', (model.kind,)))
    example = torch.zeros(1, model.planes, model.board_size, model.board_size)
    onnx_bytes = io.BytesIO()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter('ignore')   # the exporter's notices about its successor
        torch.onnx.export(model.float(), (example,), onnx_bytes, dynamo=False,
                          input_names=['planes'], output_names=list(heads),
                          dynamic_axes={'planes': {0: 'batch'},
                                        **{head: {0: 'batch'} for head in heads}},
                          opset_version=17)
    return onnx_bytes.getvalue()


class OnnxRuntimeEvaluator(NetworkEvaluator):
    """NetworkEvaluator's answers computed by ONNX Runtime on the CPU, in fp32.

    The network (batch norm folded) is exported once, at load (or `onnx_bytes`
    given, e.g. a quantized export of it); the outputs are torch's to within float
    rounding. `threads`: ONNX Runtime's intra-op threads (None: every core), so the
    search's one network thread leaves the other cores to the simulations as with
    torch."""

    backend = ONNXRUNTIME

    def __init__(self, model, threads=None, onnx_bytes=None):
        import onnxruntime
        super().__init__(model, use_bf16=False, threads=0, channels_last=False, device='cpu')
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or available_cores()
        options.inter_op_num_threads = 1
        options.log_severity_level = 3   # errors only: no notices on the engine's stderr
        self.session = onnxruntime.InferenceSession(onnx_bytes or export_onnx(self.model),
                                                    options,
                                                    providers=['CPUExecutionProvider'])

    def _forward(self, x, *kinds):
        planes = np.ascontiguousarray(x.numpy(), dtype=np.float32)
        outputs = self.session.run(list(kinds), {'planes': planes})
        return tuple(torch.from_numpy(out) for out in outputs)
