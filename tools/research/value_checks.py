#!/usr/bin/env python3
"""Checks on value training that can fail: can the pipeline fit, does a small net generalise,
and what does a trained value net look like inside?

fit:  a small value net (k=32, 6 layers, AdamW) on a fixed set of training
      positions; the training MSE must fall near 0 (planes, labels and loss
      line up). Last line: `fit: train_mse=0.XXXX positions=N`.
late: the same small net from scratch on positions from the last part of
      many training games, scored on such positions from held-out games.
      Last line: `late: train_mse=... val_mse=... positions=N val_positions=M`.
inspect: a value training checkpoint (--checkpoint) on its run's held-out
      positions: output spread and correlation with the outcome, MSE with
      batch norm in eval mode (running statistics) against training mode
      (batch statistics), the share of dead units (never positive) in the
      256-unit layer and in the 1x1 layer's map, and the gradient norm of the
      value head's loss at the head against the trunk.

    .venv/bin/python tools/research/value_checks.py fit                 # 2,048 positions, about a minute
    .venv/bin/python tools/research/value_checks.py late --games 40000  # about 10 minutes with native bf16
    .venv/bin/python tools/research/value_checks.py inspect --checkpoint runs/value64/checkpoint.pt
"""

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import cpu, nets
from training.dataset import load_split
from training.sampler import ValueExamples, sample_examples
from training.trainer import as_input


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


def inspect(args, positions=1024):
    """Print what a trained value net does on its run's held-out positions."""
    import os
    if not args.checkpoint:
        raise SystemExit("inspect needs --checkpoint")
    torch.set_num_threads(args.threads)
    state = torch.load(args.checkpoint, map_location="cpu", weights_only=True)
    if state.get("kind") != "value":
        raise SystemExit(f"{args.checkpoint}: not a value training checkpoint")
    model = nets.ValueNet(**state["arch"])
    model.load_state_dict(state["model"])
    with np.load(os.path.join(os.path.dirname(args.checkpoint), "val-value.npz")) as f:
        planes, targets = f["planes"][:positions], f["targets"][:positions]
    outcomes = targets[:, 0] if targets.ndim == 2 else targets
    x = as_input(planes)
    y = torch.from_numpy(outcomes.astype(np.float32))
    seen = {}
    hooks = [model.fc.register_forward_hook(lambda m, i, o: seen.__setitem__("fc", o)),
             model.head.register_forward_hook(lambda m, i, o: seen.__setitem__("head", o))]
    with torch.no_grad():
        model.eval()
        values = model(x)
        fc_dead = float((seen["fc"] <= 0).all(0).float().mean())
        head_dead = float((seen["head"].flatten(1) <= 0).all(0).float().mean())
        model.train()
        train_mode = model(x)
    for hook in hooks:
        hook.remove()
    model.train()
    model.zero_grad()
    F.mse_loss(model(x[:256]), y[:256]).backward()
    head = [model.head, model.fc, model.out]
    head_norm = sum(float(p.grad.norm() ** 2) for m in head for p in m.parameters()) ** 0.5
    trunk_norm = sum(float(p.grad.norm() ** 2) for p in model.trunk.parameters()) ** 0.5
    corr = float(np.corrcoef(values.numpy(), outcomes)[0, 1])
    print(f"{args.checkpoint}: {state['positions_seen']} positions, {len(outcomes)} held-out")
    print(f"output: mean {float(values.mean()):+.4f} std {float(values.std()):.4f}, "
          f"correlation with the outcome {corr:+.4f}")
    print(f"mse: eval mode (running BN statistics) {F.mse_loss(values, y).item():.4f}, "
          f"training mode (batch statistics) {F.mse_loss(train_mode, y).item():.4f}")
    print(f"dead units: 256-unit layer {100 * fc_dead:.1f} %, 1x1 map points {100 * head_dead:.1f} %")
    print(f"gradient norm of the value loss: head {head_norm:.3e}, trunk {trunk_norm:.3e}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=("fit", "late", "inspect"))
    parser.add_argument("--checkpoint", help="inspect: a value training checkpoint.pt")
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
    if args.check == "inspect":
        return inspect(args)
    fit = args.check == "fit"
    games = args.games or (2400 if fit else 40000)
    per_game = args.per_game or (1 if fit else 4)
    steps = args.steps or (600 if fit else 3000)
    lr = args.lr or (0.002 if fit else 0.001)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    bf16 = cpu.bf16_is_fast()
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
