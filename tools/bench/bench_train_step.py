#!/usr/bin/env python3
"""Training-step throughput of the SL policy: NCHW against channels_last (NHWC),
bf16 autocast against fp32.

The k=192 13-layer BN policy, SGD Nesterov, random planes; each layout and
precision is timed twice in one run (timings vary run to run, so compare
the ratio). bf16 pays only on CPUs that compute it natively (AVX-512 BF16,
AMX: cpu.bf16_is_fast), so elsewhere it is timed only with --bf16: emulated,
a k=192 step takes about a minute, and the tool ran past ten minutes on
two AVX2-only Zen 1 cores. Pause any training run first: it shares the cores.

    .venv/bin/python tools/bench/bench_train_step.py [--steps 12] [--compile] [--filters 192,64] [--bf16]
"""

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import cpu, nets


def positions_per_second(channels_last, steps, batch=64, compiled=False, filters=192, bf16=True):
    rng = np.random.default_rng(0)
    planes = (rng.random((batch, nets.POLICY_PLANES, 19, 19)) < 0.2).astype(np.uint8)
    moves = torch.from_numpy(rng.integers(0, 361, batch))
    torch.manual_seed(0)
    model = nets.PolicyNet(filters=filters, batch_norm=True).train()
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    forward = torch.compile(model) if compiled else model
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, nesterov=True,
                                weight_decay=1e-4)

    def step():
        x = torch.from_numpy(planes).float()
        if channels_last:
            x = x.contiguous(memory_format=torch.channels_last)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            logits = forward(x)
        loss = F.cross_entropy(logits.float(), moves)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    for _ in range(3):   # warm-up: the first steps pick kernels (and compile)
        step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return steps * batch / (time.perf_counter() - start)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--filters", default="192",
                        help="comma-separated filter counts k to time, e.g. 192,128,64")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile (NCHW)")
    parser.add_argument("--bf16", action="store_true",
                        help="time bf16 autocast even where the CPU only emulates it")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    native = cpu.bf16_is_fast()
    print(f"bf16 native on this CPU: {native}"
          f"{'' if native or args.bf16 else ' (bf16 not timed; --bf16 times it anyway)'}")
    precisions = (True, False) if native or args.bf16 else (False,)
    for filters in (int(k) for k in args.filters.split(",")):
        for repeat in (1, 2):
            for bf16 in precisions:
                for channels_last in (False, True):
                    rate = positions_per_second(channels_last, args.steps, filters=filters,
                                                bf16=bf16)
                    print(f"k={filters} run {repeat} {'bf16' if bf16 else 'fp32'} "
                          f"{'channels_last' if channels_last else 'NCHW':13s} "
                          f"{rate:6.1f} positions/s", flush=True)
        if args.compile:
            rate = positions_per_second(False, args.steps, compiled=True, filters=filters,
                                        bf16=native)
            print(f"k={filters} compiled NCHW {rate:6.1f} positions/s", flush=True)


if __name__ == "__main__":
    main()
