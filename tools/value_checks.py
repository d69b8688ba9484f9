#!/usr/bin/env python3
"""Two checks on value training that can fail: can the pipeline fit, and does a small net generalise?

fit:  a small value net (k=32, 6 layers, AdamW) on a fixed set of training
      positions; the training MSE must fall near 0 (planes, labels and loss
      line up). Last line: `fit: train_mse=0.XXXX positions=N`.
late: the same small net from scratch on positions from the last part of
      many training games, scored on such positions from held-out games.
      Last line: `late: train_mse=... val_mse=... positions=N val_positions=M`.

    .venv/bin/python tools/value_checks.py fit                 # 2,048 positions, about a minute
    .venv/bin/python tools/value_checks.py late --games 40000  # about 10 minutes with native bf16
"""

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

from goengine import inference, nets
from training.dataset import load_split
from training.sampler import ValueExamples, sample_examples


def as_input(planes):
    return torch.from_numpy(planes).float().contiguous(memory_format=torch.channels_last)


@torch.no_grad()
def mse(model, planes, targets, bf16, batch=512):
    model.eval()
    outputs = []
    for i in range(0, len(targets), batch):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            outputs.append(model(as_input(planes[i:i + batch])).float())
    model.train()
    return F.mse_loss(torch.cat(outputs), torch.from_numpy(targets)).item()


def train(model, planes, targets, steps, lr, bf16, rng, report, batch=256):
    """AdamW steps on random minibatches of (planes, targets); report(step) ten times."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    for step in range(1, steps + 1):
        pick = rng.integers(len(targets), size=batch)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            output = model(as_input(planes[pick])).float()
        loss = F.mse_loss(output, torch.from_numpy(targets[pick]))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % max(1, steps // 10) == 0:
            report(step)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=("fit", "late"))
    parser.add_argument("--games", type=int, help="training games (fit: 2,400, of which the "
                        "first 2,048 positions are kept; late: 40,000)")
    parser.add_argument("--per-game", type=int, help="positions a game (fit: 1; late: 4)")
    parser.add_argument("--from-fraction", type=float, default=0.67,
                        help="late: positions after this fraction of each game")
    parser.add_argument("--steps", type=int, help="AdamW steps of 256 (fit: 600; late: 3,000)")
    parser.add_argument("--lr", type=float, help="fit: 0.002; late: 0.001")
    parser.add_argument("--filters", type=int, default=32)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    fit = args.check == "fit"
    games = args.games or (2400 if fit else 40000)
    per_game = args.per_game or (1 if fit else 4)
    steps = args.steps or (600 if fit else 3000)
    lr = args.lr or (0.002 if fit else 0.001)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    bf16 = inference.bf16_is_fast()
    rng = np.random.default_rng(args.seed)

    start = time.monotonic()
    maker = ValueExamples(from_fraction=0.0 if fit else args.from_fraction)
    train_store = load_split("train", log=lambda message: None)
    picked = rng.permutation(len(train_store))[:games]
    planes, targets = sample_examples(maker, (train_store[int(i)] for i in picked), per_game, rng)
    if fit:   # some games have no outcome to learn (time, forfeit, no result)
        planes, targets = planes[:2048], targets[:2048]
    val_store = load_split("val", log=lambda message: None)
    held_out = rng.permutation(len(val_store))[:2000]
    val_planes, val_targets = sample_examples(maker, (val_store[int(i)] for i in held_out), 1, rng,
                                              symmetries=False)
    print(f"{len(targets)} training and {len(val_targets)} held-out positions "
          f"({time.monotonic() - start:.0f} s); bf16 {'on' if bf16 else 'off'}", flush=True)

    model = nets.ValueNet(nets.VALUE_PLANES, args.filters, args.layers, 19, batch_norm=True)
    model = model.to(memory_format=torch.channels_last).train()
    fixed = slice(0, min(2048, len(targets)))

    def report(step):
        train_mse = mse(model, planes[fixed], targets[fixed], bf16)
        val_mse = mse(model, val_planes, val_targets, bf16)
        print(f"step {step}: train_mse={train_mse:.4f} val_mse={val_mse:.4f}", flush=True)

    train(model, planes, targets, steps, lr, bf16, rng, report)
    train_mse = mse(model, planes[fixed], targets[fixed], bf16)
    if fit:
        print(f"fit: train_mse={train_mse:.4f} positions={fixed.stop}")
    else:
        val_mse = mse(model, val_planes, val_targets, bf16)
        print(f"late: train_mse={train_mse:.4f} val_mse={val_mse:.4f} positions={len(targets)} "
              f"val_positions={len(val_targets)}")


if __name__ == "__main__":
    main()
