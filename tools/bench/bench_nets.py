"""Measure network inference speed (fp32 vs bf16) and bf16's effect on move choice.

    python tools/bench/bench_nets.py                      # random k=192 policy net
    python tools/bench/bench_nets.py --weights W.pt       # a trained network file
    python tools/bench/bench_nets.py --agreement --weights W.pt --npz planes.npz
    python tools/bench/bench_nets.py --int8 --weights W.pt [--npz planes.npz]

Speed: positions/s for several batch sizes of every runtime this machine has
(torch fp32 and bf16; ONNX Runtime fp32 and OpenVINO fp32 and bf16 where installed;
the network's int8 file on each int8 runtime) in one run, after a warm-up (the
first calls build their kernels), and which one --precision auto takes.
Agreement: how often each picks torch fp32's top move (for value and four-headed
networks, how far the values move), on planes from a .npz or on random planes.
Int8: ways to make it: a policy network's trunk in int8 (torch.ao static
quantization on fbgemm, per-channel weights, which the engine does not use) and
the engine's int8 form (goengine/nn/int8.py: ONNX Runtime's static quantization,
QDQ, per-channel), all of it or with its ends kept in fp32 (the first
convolution, which reads the binary planes, and the heads), on ONNX Runtime and
OpenVINO; calibrated on 256 of the planes (--calibration: ONNX Runtime's
method). It reports each against fp32 speed in one run, their top-1 agreement
with fp32, how far the value moves, and, where the .npz holds the moves played
('targets'), each one's top-1 against them.
"""

import argparse
import os
import sys
import time

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import backends, int8
from goengine.nn.cpu import cpu_kind
from goengine.nn.inference import NetworkEvaluator, available_cores
from goengine.nn.netfile import NetworkLoadError, load_network
from goengine.nn.nets import PolicyNet
from goengine.nn.surgery import fold_batch_norm
from goengine.nn import on_planes


def build_model(weights):
    if weights is None:
        torch.manual_seed(0)
        print('network: random k=192, 13-layer policy net (AlphaGo size)')
        return PolicyNet()
    model = load_network(weights, fold=True)
    print(f'network: {weights}: {model.kind} {model.arch}')
    return model


def random_planes(n, model, seed=0):
    """Binary planes at 30% density; speed does not depend on content."""
    rng = np.random.default_rng(seed)
    s = model.board_size
    return (rng.random((n, model.planes, s, s)) < 0.3).astype(np.uint8)


def evaluate(evaluator, planes):
    if callable(evaluator):   # a plain function of the planes (--int8)
        return evaluator(planes)
    if evaluator.kind == 'policy':
        return on_planes.policy(evaluator, planes)
    return on_planes.value(evaluator, planes)


def positions_per_second(evaluator, planes, seconds):
    """Throughput from the median call time: robust to other jobs on a shared machine."""
    for _ in range(2):  # warm-up: kernel selection and allocation
        evaluate(evaluator, planes)
    times, start = [], time.perf_counter()
    while len(times) < 3 or time.perf_counter() - start < seconds:
        t = time.perf_counter()
        evaluate(evaluator, planes)
        times.append(time.perf_counter() - t)
    return len(planes) / float(np.median(times))


def configurations(model, args):
    """(name, evaluator) for every way this machine can run the network: torch in fp32
    and bf16, ONNX Runtime in fp32 and OpenVINO in fp32 and bf16 where installed, and
    the network's int8 file (--weights NAME.pt with NAME.int8.onnx beside it) on each
    int8 runtime; one that fails here is one line and left out (runs_here)."""
    configs = [(f'torch {precision}', lambda precision=precision: NetworkEvaluator(
                    model, use_bf16=precision == 'bf16', threads=args.threads,
                    channels_last=args.channels_last))
               for precision in ('fp32', 'bf16')]
    has_int8 = args.weights and os.path.isfile(int8.int8_path(args.weights))
    for backend in (backends.ONNXRUNTIME, backends.OPENVINO):
        if not backends.installed(backend):
            print(f'{backend}: not installed, not measured')
            continue
        precisions = [p for p in (backends.FP32, backends.BF16, backends.INT8)
                      if backend in backends.RUNNERS[p] and (p != backends.INT8 or has_int8)]
        for precision in precisions:
            runtime = backends.Runtime(backend, precision)
            configs.append((str(runtime), lambda runtime=runtime: backends.make_evaluator(
                model, runtime, threads=args.threads, weights=args.weights)))
    return [(name, evaluator) for name, make in configs
            if (evaluator := runs_here(name, make, model)) is not None]


def runs_here(name, make, model):
    """The evaluator `make` builds, once one call has run; None, after one line (the
    error's last line, OpenVINO's cause), where it cannot run here. A runtime can build and
    then fail on its first call: OpenVINO's bf16 convolution does where ONEDNN_MAX_CPU_ISA
    holds oneDNN below what the CPU reports."""
    try:
        evaluator = make()
        evaluate(evaluator, random_planes(1, model))
        return evaluator
    except (RuntimeError, ValueError) as exc:
        cause = [line for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
        print(f'{name}: does not run here, not measured ({cause[-1][:160]})')
        return None


def bench(model, args):
    configs = configurations(model, args)
    results = {(batch, name): positions_per_second(evaluator, random_planes(batch, model, batch),
                                                   args.seconds)
               for name, evaluator in configs for batch in args.batches}
    names = [name for name, _ in configs]
    print(f'\npositions/s (x torch fp32); auto picks {backends.pick_runtime()} here '
          f'(CPU kind {cpu_kind()})')
    print(f'{"batch":>5} | ' + ' | '.join(f'{name:>22}' for name in names))
    print('-' * (8 + 25 * len(names)))
    for batch in args.batches:
        base = results[batch, 'torch fp32']
        cells = [f'{results[batch, name]:>12.1f} ({results[batch, name] / base:4.2f}x)'
                 for name in names]
        print(f'{batch:>5} | ' + ' | '.join(f'{cell:>22}' for cell in cells))


def load_planes(path, model, limit):
    """Planes from a .npz: the array named 'planes', else the first of the right shape."""
    try:
        with np.load(path) as data:
            names = ['planes'] if 'planes' in data.files else data.files
            for name in names:
                array = data[name]
                if array.ndim == 4 and array.shape[1] == model.planes:
                    print(f'planes: {path}[{name!r}], {min(limit, len(array))} of {len(array)}')
                    return array[:limit]
    except (OSError, ValueError, EOFError) as exc:
        sys.exit(f'error: {path}: not a readable .npz ({exc})')
    sys.exit(f'error: {path}: no array of shape (N, {model.planes}, s, s)')


def moves_played(path, limit):
    """The move played in each position of a trainer's validation .npz ('targets': the
    move index for a policy set, HEADS_MOVE's column for a four-headed one), or None."""
    from training.sampler import HEADS_MOVE
    with np.load(path) as data:
        if 'targets' not in data.files:
            return None
        targets = data['targets'][:limit]
    return (targets if targets.ndim == 1 else targets[:, HEADS_MOVE]).astype(np.int64)


def comparison_planes(model, args):
    """The planes two precisions are compared on: --npz, else random ones."""
    if args.npz:
        return load_planes(args.npz, model, args.positions)
    print(f'planes: {args.positions} random positions (real games would be more telling)')
    return random_planes(args.positions, model)


def outputs(evaluator, planes, batch=32):
    return np.concatenate([evaluate(evaluator, planes[i:i + batch])
                           for i in range(0, len(planes), batch)])


def top_moves(evaluator, planes):
    """The most probable move of each position (a plain function's logits for --int8)."""
    policy = evaluator if callable(evaluator) else lambda x: on_planes.policy(evaluator, x)
    return outputs(policy, planes).argmax(1)


def agreement(model, args):
    """Each configuration against torch fp32: the same top move, and how far values move."""
    planes = comparison_planes(model, args)
    (_, reference), *others = configurations(model, args)
    a = outputs(reference, planes)
    for name, evaluator in others:
        b = outputs(evaluator, planes)
        if model.kind == 'policy':
            same = np.mean(a.argmax(1) == b.argmax(1))
            diff = np.abs(a - b).sum(1) / 2
            print(f'{name} vs torch fp32: top-1 agreement {100 * same:.2f}% over {len(a)} '
                  f'positions, total variation mean {diff.mean():.4f} max {diff.max():.4f}')
        else:
            diff = np.abs(a - b)
            print(f'{name} vs torch fp32: |value difference| mean {diff.mean():.4f} max '
                  f'{diff.max():.4f}, same sign {100 * np.mean(np.sign(a) == np.sign(b)):.2f}%')
        if not callable(evaluator) and len(evaluator.describe().heads) > 1:
            top_a, top_b = (top_moves(e, planes) for e in (reference, evaluator))
            print(f'{name} vs torch fp32: policy head top-1 agreement '
                  f'{100 * np.mean(top_a == top_b):.2f}%')


def quantized_policy(model, calibration):
    """The policy with its conv+ReLU trunk in int8 (fbgemm); the 1x1 head stays fp32.

    torch.ao's eager-mode quantization is deprecated in recent torch, one
    reason the engine does not build on it; here it only measures."""
    import warnings
    import torch.ao.quantization as tq
    import torch.nn as nn
    warnings.filterwarnings('ignore', module=r'torch\.ao')   # its deprecation notices
    folded = fold_batch_norm(model)

    class Int8Policy(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
            self.trunk = nn.Sequential(*[nn.Sequential(b.conv, nn.ReLU()) for b in folded.trunk])
            self.head, self.point_bias = folded.head, folded.point_bias

        def forward(self, x):
            x = self.dequant(self.trunk(self.quant(x)))
            return self.head(x).flatten(1) + self.point_bias

    torch.backends.quantized.engine = 'fbgemm'
    net = Int8Policy().eval()
    net.qconfig = tq.get_default_qconfig('fbgemm')
    net.head.qconfig = None
    for block in net.trunk:
        tq.fuse_modules(block, ['0', '1'], inplace=True)
    tq.prepare(net, inplace=True)
    with torch.inference_mode():
        for i in range(0, len(calibration), 32):
            net(torch.from_numpy(calibration[i:i + 32]).float())
    return tq.convert(net, inplace=True)


def int8_candidates(model, calibration, threads, method):
    """(name, evaluator) of the network quantized here (int8.quantize, calibrated on
    `calibration` by `method`), whole and with its ends in fp32, on each int8 runtime."""
    candidates = []
    for keep_ends in (False, True):
        onnx_bytes = int8.quantize(model, calibration, '', keep_ends=keep_ends,
                                   method=CALIBRATION_METHODS[method])
        for backend in backends.RUNNERS[backends.INT8]:
            if backends.installed(backend):
                evaluator = (backends.OpenVinoEvaluator if backend == backends.OPENVINO
                             else backends.OnnxRuntimeEvaluator)
                candidates.append((f'{backend} int8' + (', ends fp32' if keep_ends else ''),
                                   evaluator(model, threads, onnx_bytes, backends.INT8)))
    return candidates


# --calibration: ONNX Runtime's ways to set the activations' ranges (q.CalibrationMethod)
CALIBRATION_METHODS = {'minmax': 'MinMax', 'percentile': 'Percentile', 'entropy': 'Entropy'}


def compare_int8(model, args):
    if 'policy' not in getattr(model, 'heads', (model.kind,)):
        sys.exit('--int8 measures networks with a policy (move) output')
    planes = comparison_planes(model, args)
    # whole batches of 32: ONNX Runtime's histogram calibrations need equal batches
    calibration = planes[::max(1, len(planes) // 256)][:256]
    fp32 = NetworkEvaluator(model, use_bf16=False, threads=args.threads)
    candidates = []
    if model.kind == 'policy':
        net = quantized_policy(model, calibration)

        @torch.inference_mode()
        def torch_int8(x):
            return net(torch.from_numpy(x).float()).numpy()
        candidates.append(('torch.ao int8', torch_int8))
    if backends.installed(backends.ONNXRUNTIME):   # it makes the int8 files
        candidates += int8_candidates(model, calibration, args.threads, args.calibration)
    else:
        print('onnxruntime: not installed, no int8 measured')
    reference = top_moves(fp32, planes)
    values = (outputs(lambda x: on_planes.value(fp32, x), planes)
              if fp32.describe().answers('value') else None)
    played = moves_played(args.npz, args.positions) if args.npz else None
    if played is not None:
        print(f'fp32 top-1 against the moves played: {100 * np.mean(reference == played):.2f}%')
    for name, evaluator in candidates:
        top = top_moves(evaluator, planes)
        line = (f'{name} vs fp32: top-1 agreement {100 * np.mean(top == reference):.2f}% '
                f'over {len(planes)} positions')
        if values is not None and not callable(evaluator):
            moved = np.abs(outputs(lambda x: on_planes.value(evaluator, x), planes) - values)
            line += f', |value difference| mean {moved.mean():.4f} max {moved.max():.4f}'
        if played is not None:
            line += f'; top-1 against the moves played {100 * np.mean(top == played):.2f}%'
        print(line)
    print(f'\n{"batch":>5} | {"torch fp32 pos/s":>16} | ' +
          ' | '.join(f'{name + " pos/s":>22}' for name, _ in candidates))
    print('-' * (30 + 25 * len(candidates)))
    for batch in args.batches:
        x = random_planes(batch, model, seed=batch)
        slow = positions_per_second(fp32, x, args.seconds)
        cells = []
        for _, evaluator in candidates:
            fast = positions_per_second(evaluator, x, args.seconds)
            cells.append(f'{fast:>12.1f} ({fast / slow:4.2f}x)')
        print(f'{batch:>5} | {slow:>16.1f} | ' + ' | '.join(f'{c:>22}' for c in cells))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--weights', help='network file (default: random k=192 policy net)')
    parser.add_argument('--batches', type=int, nargs='+', default=[1, 8, 16, 32])
    parser.add_argument('--seconds', type=float, default=2.0,
                        help='timed seconds per configuration (default 2)')
    parser.add_argument('--threads', type=int, default=None,
                        help=f'torch threads (default: all {available_cores()} cores)')
    parser.add_argument('--no-channels-last', dest='channels_last', action='store_false',
                        help='keep NCHW memory format (channels_last is the default)')
    parser.add_argument('--agreement', action='store_true',
                        help='report each backend\'s agreement with torch fp32 instead of speed')
    parser.add_argument('--int8', action='store_true',
                        help='time an int8 policy trunk against fp32 and report their agreement')
    parser.add_argument('--npz', help='with --agreement / --int8: .npz holding planes (N, C, s, s)')
    parser.add_argument('--calibration', choices=sorted(CALIBRATION_METHODS), default='minmax',
                        help='with --int8: how ONNX Runtime sets the activations\' ranges')
    parser.add_argument('--positions', type=int, default=512,
                        help='with --agreement / --int8: positions to compare (default 512)')
    args = parser.parse_args()

    try:
        model = build_model(args.weights)
    except NetworkLoadError as exc:
        sys.exit(f'error: {exc}')
    threads = args.threads or available_cores()
    print(f'torch {torch.__version__}, {threads} threads, '
          f'channels_last={args.channels_last}')
    if args.agreement:
        agreement(model, args)
    elif args.int8:
        compare_int8(model, args)
    else:
        bench(model, args)


if __name__ == '__main__':
    main()
