"""Measure network inference speed (fp32 vs bf16) and bf16's effect on move choice.

    python tools/bench/bench_nets.py                      # random k=192 policy net
    python tools/bench/bench_nets.py --weights W.pt       # a trained network file
    python tools/bench/bench_nets.py --agreement --weights W.pt --npz planes.npz
    python tools/bench/bench_nets.py --int8 --weights W.pt [--npz planes.npz]

Speed: positions/s through NetworkEvaluator for several batch sizes, fp32 and
bf16 in one run, after a warm-up (the first calls build oneDNN kernels).
Agreement: how often bf16 picks the same top move as fp32 (for value nets, how
far the values move), on planes from a .npz or on random planes.
Int8: a candidate the engine does not use. The policy trunk is quantized to
int8 (torch.ao static quantization on fbgemm, per-channel weights, calibrated
on the planes); it reports int8 against fp32 speed in one run, and their
top-1 agreement.
"""

import argparse
import sys
import time

import numpy as np
import torch

from goengine.nn.inference import NetworkEvaluator, available_cores
from goengine.nn.netfile import NetworkLoadError, load_network
from goengine.nn.nets import PolicyNet, fold_batch_norm


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
        return evaluator.policy(planes)
    return evaluator.value(planes)


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


def bench(model, args):
    results = {}
    for use_bf16 in (False, True):
        evaluator = NetworkEvaluator(model, use_bf16=use_bf16, threads=args.threads,
                                     channels_last=args.channels_last)
        for batch in args.batches:
            planes = random_planes(batch, model, seed=batch)
            results[batch, use_bf16] = positions_per_second(evaluator, planes, args.seconds)
    print(f'\n{"batch":>5} | {"fp32 pos/s":>10} {"ms/batch":>8} | '
          f'{"bf16 pos/s":>10} {"ms/batch":>8} | bf16 speed-up')
    print('-' * 64)
    for batch in args.batches:
        fp32, bf16 = results[batch, False], results[batch, True]
        print(f'{batch:>5} | {fp32:>10.1f} {1000 * batch / fp32:>8.1f} | '
              f'{bf16:>10.1f} {1000 * batch / bf16:>8.1f} | {bf16 / fp32:>6.2f}x')


def load_planes(path, model, limit):
    """Planes from a .npz: the array named 'planes', else the first of the right shape."""
    with np.load(path) as data:
        names = ['planes'] if 'planes' in data.files else data.files
        for name in names:
            array = data[name]
            if array.ndim == 4 and array.shape[1] == model.planes:
                print(f'planes: {path}[{name!r}], {min(limit, len(array))} of {len(array)}')
                return array[:limit]
    sys.exit(f'{path}: no array of shape (N, {model.planes}, s, s)')


def comparison_planes(model, args):
    """The planes two precisions are compared on: --npz, else random ones."""
    if args.npz:
        return load_planes(args.npz, model, args.positions)
    print(f'planes: {args.positions} random positions (real games would be more telling)')
    return random_planes(args.positions, model)


def outputs(evaluator, planes, batch=32):
    return np.concatenate([evaluate(evaluator, planes[i:i + batch])
                           for i in range(0, len(planes), batch)])


def agreement(model, args):
    planes = comparison_planes(model, args)
    fp32 = NetworkEvaluator(model, use_bf16=False, threads=args.threads)
    bf16 = NetworkEvaluator(model, use_bf16=True, threads=args.threads)
    a, b = outputs(fp32, planes), outputs(bf16, planes)
    if model.kind == 'policy':
        same = np.mean(a.argmax(1) == b.argmax(1))
        print(f'top-1 agreement fp32 vs bf16: {100 * same:.2f}% over {len(a)} positions')
        diff = np.abs(a - b).sum(1)
        print(f'total variation distance: mean {diff.mean() / 2:.4f}, max {diff.max() / 2:.4f}')
    else:
        diff = np.abs(a - b)
        print(f'|value fp32 - bf16|: mean {diff.mean():.4f}, max {diff.max():.4f}')
        print(f'same sign: {100 * np.mean(np.sign(a) == np.sign(b)):.2f}%')


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


def int8(model, args):
    if model.kind != 'policy':
        sys.exit('--int8 measures policy networks only')
    planes = comparison_planes(model, args)
    net = quantized_policy(model, planes[::max(1, len(planes) // 256)])
    fp32 = NetworkEvaluator(model, use_bf16=False, threads=args.threads)

    @torch.inference_mode()
    def int8_logits(x):
        return net(torch.from_numpy(x).float()).numpy()

    a, b = outputs(fp32, planes), outputs(int8_logits, planes)
    print(f'top-1 agreement fp32 vs int8: {100 * np.mean(a.argmax(1) == b.argmax(1)):.2f}% '
          f'over {len(a)} positions')
    print(f'\n{"batch":>5} | {"fp32 pos/s":>10} | {"int8 pos/s":>10} | int8 speed-up')
    print('-' * 50)
    for batch in args.batches:
        x = random_planes(batch, model, seed=batch)
        slow = positions_per_second(fp32, x, args.seconds)
        fast = positions_per_second(int8_logits, x, args.seconds)
        print(f'{batch:>5} | {slow:>10.1f} | {fast:>10.1f} | {fast / slow:>6.2f}x')


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
                        help='report fp32-vs-bf16 agreement instead of speed')
    parser.add_argument('--int8', action='store_true',
                        help='time an int8 policy trunk against fp32 and report their agreement')
    parser.add_argument('--npz', help='with --agreement / --int8: .npz holding planes (N, C, s, s)')
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
        int8(model, args)
    else:
        bench(model, args)


if __name__ == '__main__':
    main()
