#!/usr/bin/env python3
"""How fast one trainer process receives minibatches from a feature worker: uint8
planes against bit-packed ones (sampler.PackedPlanes).

On a GPU the trainer's single process takes every batch off the workers' queues
and hands it to the device; with 17 MB uint8 batches that, not the step, set the
pace of the first GPU run (docs/GPU.md). Here a worker process sends the same
real batch over and over, and the receiving process does what the trainer does
with it on the CPU side (queue.get, then the tensor the device copy starts from),
so the figure is the ceiling that receiving puts on positions/s.

    .venv/bin/python tools/bench/bench_batch_transfer.py [--batch 1024] [--batches 200]
"""

import argparse
import time
from multiprocessing import get_context

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from training.dataset import load_split
from training.sampler import BatchStream, PackedPlanes, PolicyExamples


def send(planes, targets, packed, count, out):
    item = (PackedPlanes.pack(planes) if packed else planes, targets, (0, 0, 0))
    for _ in range(count):
        out.put(item)


def received_per_second(planes, targets, packed, count):
    """Positions/s one process receives from one sending process."""
    ctx = get_context("spawn")
    queue = ctx.Queue(8)
    sender = ctx.Process(target=send, args=(planes, targets, packed, count + 2, queue))
    sender.start()
    for _ in range(2):  # the first batches wait for the sender to start
        queue.get()
    start = time.perf_counter()
    for _ in range(count):
        batch, _, _ = queue.get()
        torch.from_numpy(np.ascontiguousarray(batch.bits if packed else batch))
    seconds = time.perf_counter() - start
    sender.join()
    return count * len(targets) / seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--batches", type=int, default=200)
    args = parser.parse_args(argv)
    store = load_split("val", log=lambda message: None)
    planes, targets = next(BatchStream(store, PolicyExamples(), args.batch, seed=1).batches())[:2]
    print(f"batch {args.batch}: {planes.nbytes / 2**20:.1f} MiB as uint8, "
          f"{PackedPlanes.pack(planes).bits.nbytes / 2**20:.2f} MiB packed")
    for packed in (False, True, False, True):
        rate = received_per_second(planes, targets, packed, args.batches)
        print(f"{'packed' if packed else 'uint8 '}: {rate:,.0f} positions/s received")


if __name__ == "__main__":
    main()
