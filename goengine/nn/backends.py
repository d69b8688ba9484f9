"""How a network runs: the runtime (torch, ONNX Runtime, OpenVINO) and the precision.

A Runtime is the pair, picked once from --precision and --backend (pick_runtime).
On the CPU `auto` takes the CPU's default precision (DEFAULT_CPU_PRECISIONS, first
that can run here) and the runtime measured fastest for it (RUNNERS); on an
accelerator torch in half precision. int8 reads the network's int8 file
(goengine/nn/int8.py); a network without one runs the next precision, under auto,
and is one clear error when int8 was asked for by name. ONNX Runtime and OpenVINO
are optional: a runtime that is not installed is skipped by auto and one clear
error by name.
"""

import importlib.util
import threading
from dataclasses import dataclass

import numpy as np
import torch

from goengine.nn import int8
from goengine.nn.onnx_export import export_onnx
from goengine.nn.devices import (AUTO, BACKENDS, BF16, FP32, INT8, ONNXRUNTIME, OPENVINO,
                                 PRECISIONS, TORCH, available_cores, is_cpu)
from goengine.nn.cpu import AMX, AVX2, AVX2_VNNI, AVX512_BF16, AVX512_VNNI, OLDER, cpu_kind
from goengine.nn.inference import NetworkEvaluator
# The runtimes that compute each precision on the CPU, fastest first as measured
# (docs/DECISIONS.md, 'backend' and 'int8'): auto takes the first one installed.
RUNNERS = {FP32: (ONNXRUNTIME, TORCH, OPENVINO), BF16: (TORCH, OPENVINO),
           INT8: (OPENVINO, ONNXRUNTIME)}
# The precisions auto tries on the CPU, by its kind (goengine.nn.cpu), in order: a
# network without an int8 file runs the next one (docs/DECISIONS.md, 'int8').
DEFAULT_CPU_PRECISIONS = {AMX: (INT8, BF16, FP32), AVX512_BF16: (BF16, FP32),
                          AVX512_VNNI: (FP32,), AVX2_VNNI: (FP32,), AVX2: (FP32,),
                          OLDER: (FP32,)}
PACKAGES = {ONNXRUNTIME: ('onnxruntime', 'onnx'), OPENVINO: ('openvino', 'onnx'),
            TORCH: ('torch',)}


class BackendError(ValueError):
    """A runtime that was asked for and cannot run here (one line saying why)."""


def installed(backend):
    """Whether the packages `backend` needs import (onnx: torch's exporter writes with it)."""
    return all(importlib.util.find_spec(name) is not None for name in PACKAGES[backend])


@dataclass(frozen=True)
class Runtime:
    """What runs a network and in what precision, on a CPU of kind `cpu` ('' on an
    accelerator); `fallback`: what runs a network that has no int8 file (auto only; None:
    that is an error)."""
    backend: str
    precision: str
    fallback: 'Runtime' = None
    cpu: str = ''

    def __str__(self):
        return f'{self.backend} {self.precision}'

    @property
    def kind(self):
        """(CPU kind, precision): what the search's defaults follow (search.config)."""
        return self.cpu, self.precision

    def for_weights(self, weights, log=None):
        """(runtime, int8 bytes or None) for the network file `weights`: this runtime, with
        the file's int8 form where its precision is int8; where that is missing or stale,
        auto's fallback after one line to `log`, and Int8Error without one."""
        if self.precision != INT8:
            return self, None
        try:
            return self, int8.load(weights)
        except int8.Int8Error as exc:
            if self.fallback is None:
                raise
            if log:
                log(f'goengine: {exc}; it runs on {self.fallback}')
            return self.fallback.for_weights(weights, log)


def pick_runtime(precision=AUTO, backend=AUTO, device='cpu', log=None):
    """The Runtime for the --precision and --backend asked for on `device`.

    Raises BackendError, with one line saying why, for a pair that cannot run here: a
    runtime not installed, one that does not compute that precision, ONNX Runtime or
    OpenVINO (or int8) on an accelerator, an unknown name."""
    precision, backend = (precision or AUTO).lower(), (backend or AUTO).lower()
    if precision not in PRECISIONS:
        raise BackendError(f'precision {precision!r}: expected {", ".join(PRECISIONS)}')
    if backend not in BACKENDS:
        raise BackendError(f'backend {backend!r}: expected {", ".join(BACKENDS)}')
    if not is_cpu(device):
        if backend not in (AUTO, TORCH):
            raise BackendError(f'backend {backend} runs on the CPU, not on {device}')
        if precision == INT8:
            raise BackendError(f'precision int8 runs on the CPU, not on {device}')
        return Runtime(TORCH, FP32 if precision == FP32 else BF16)
    if backend != AUTO and not installed(backend):
        raise BackendError(f'backend {backend}: the {" and ".join(PACKAGES[backend])} '
                           f'packages are not installed (make setup installs them)')
    if precision != AUTO:
        return Runtime(_runner(precision, backend, log), precision, cpu=cpu_kind())
    usable = [choice for choice in DEFAULT_CPU_PRECISIONS[cpu_kind()] if _runs(choice, backend)]
    if not usable:
        raise BackendError(f'backend {backend} computes none of '
                           f'{", ".join(DEFAULT_CPU_PRECISIONS[cpu_kind()])} on this CPU')
    runtime = None
    for choice in reversed(usable):   # each one the fallback of the one before it
        runtime = Runtime(_runner(choice, backend, log), choice, runtime, cpu_kind())
    return runtime


def _runs(precision, backend):
    """Whether `backend` (or, for auto, an installed runtime) computes `precision`."""
    runners = RUNNERS[precision] if backend == AUTO else (backend,)
    return any(b in RUNNERS[precision] and installed(b) for b in runners)


def _runner(precision, backend, log):
    """The runtime that computes `precision`: `backend` when one is named, else the
    fastest installed (RUNNERS), with a line to `log` when it is not the fastest."""
    if backend != AUTO:
        if backend not in RUNNERS[precision]:
            runs = ', '.join(p for p in RUNNERS if backend in RUNNERS[p])
            raise BackendError(f'backend {backend} does not run {precision} (it runs {runs})')
        return backend
    fastest = RUNNERS[precision][0]
    for runner in RUNNERS[precision]:
        if installed(runner):
            if runner != fastest and log:
                log(f'goengine: {fastest} is not installed: {precision} runs on {runner}, '
                    f'slower on this CPU (make setup installs it)')
            return runner
    raise BackendError(f'precision {precision}: none of {", ".join(RUNNERS[precision])} '
                       f'is installed (make setup installs them)')


def make_evaluator(model, runtime, threads=None, device='cpu', weights=None, log=None):
    """A NetworkEvaluator of `model` (read from the file `weights`) on `runtime`.

    int8 reads the int8 file made from `weights`; where there is none, or it is stale,
    the runtime's fallback runs it after one line to `log`, or Int8Error is raised
    (Runtime.for_weights)."""
    runtime, onnx_bytes = runtime.for_weights(weights, log)
    if runtime.backend == ONNXRUNTIME:
        return OnnxRuntimeEvaluator(model, threads=threads, onnx_bytes=onnx_bytes,
                                    precision=runtime.precision)
    if runtime.backend == OPENVINO:
        return OpenVinoEvaluator(model, threads=threads, onnx_bytes=onnx_bytes,
                                 precision=runtime.precision)
    return NetworkEvaluator(model, use_bf16=runtime.precision == BF16, threads=threads,
                            device=device)


class OnnxRuntimeEvaluator(NetworkEvaluator):
    """NetworkEvaluator's answers computed by ONNX Runtime on the CPU.

    The network (batch norm folded) is exported once, at load, in fp32; or
    `onnx_bytes` are given, its int8 file (precision int8). In fp32 the outputs are
    torch's to within float rounding. `threads`: ONNX Runtime's intra-op threads (None:
    every core), so the search's one network thread leaves the other cores to the
    simulations as with torch."""

    backend = ONNXRUNTIME

    def __init__(self, model, threads=None, onnx_bytes=None, precision=FP32):
        import onnxruntime
        super().__init__(model, use_bf16=False, threads=0, channels_last=False, device='cpu')
        self.precision = precision
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


class OpenVinoEvaluator(NetworkEvaluator):
    """NetworkEvaluator's answers computed by OpenVINO on the CPU: the fp32 export of the
    model computed in fp32 or bf16, or its int8 file (`onnx_bytes`; OpenVINO runs the
    QDQ pairs in int8, the rest in its default precision for this CPU).

    `threads`: OpenVINO's inference threads (None: every core). One request at a time,
    with the latency hint: the search sends one batch and waits for it. A command that asks
    the network itself (a heatmap, kata-analyze's ownership) may come while the search's
    last batch is still running; the lock makes it wait, where the request would raise
    'Infer Request is busy', and its outputs are copied before the next call reuses them."""

    backend = OPENVINO
    HINTS = {FP32: 'f32', BF16: 'bf16'}   # OpenVINO's INFERENCE_PRECISION_HINT

    def __init__(self, model, threads=None, onnx_bytes=None, precision=FP32):
        import openvino
        super().__init__(model, use_bf16=False, threads=0, channels_last=False, device='cpu')
        self.precision = precision
        core = openvino.Core()
        network = core.read_model(onnx_bytes or export_onnx(self.model), b'')
        settings = {'INFERENCE_NUM_THREADS': threads or available_cores(),
                    'PERFORMANCE_HINT': 'LATENCY', 'NUM_STREAMS': 1}
        if precision in self.HINTS:
            settings['INFERENCE_PRECISION_HINT'] = self.HINTS[precision]
        self.compiled = core.compile_model(network, 'CPU', settings)
        self.request = self.compiled.create_infer_request()
        self.request_lock = threading.Lock()

    def _forward(self, x, *kinds):
        planes = np.ascontiguousarray(x.numpy(), dtype=np.float32)
        with self.request_lock:
            outputs = list(self.request.infer({'planes': planes}).values())   # self.heads' order
            return tuple(torch.from_numpy(np.array(outputs[self.heads.index(kind)]))
                         for kind in kinds)
