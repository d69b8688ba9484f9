#!/usr/bin/env python3
"""How much of a 9-dan game's recorded outcome can a value network learn from its positions?

Two measurements behind the value-network notes in docs/TRAINING.md, one
position drawn per game (as tools/eval_value.py does), MSE against +-1 for
the player to move (predicting 0 scores 1.0):

1. Final-ownership reference: the outcome predicted from the game's *final*
   board, which no network sees: its ownership under the trained rollout
   policy (RolloutPolicy.ownership), summed into a margin for the player to
   move (komi to White) and squashed as tanh((margin + b) / k), b and k fitted
   on the training sample. A net that learned to foresee the final ownership
   perfectly would score about this.
2. Frozen-trunk probes: the SL policy's first 12 layers (weights/sl-policy.pt) as a
   fixed feature extractor, with (a) AlphaGo's value head (1x1 conv, FC 256,
   FC tanh; player colour fed to the FC) trained on the outcomes, and (b) a
   1x1 conv ownership head trained on the final ownership, its summed
   margin turned into a value as in 1. If the policy's features carried the
   outcome, these would beat 1.0 after a few epochs.

    .venv/bin/python tools/research/value_signal.py [--train-positions 12000] [--val-positions 2000]

Training positions come from the training split, validation positions from
the held-out file; seeds are fixed, so a rerun gives the same sample.
"""

import argparse
import time


import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK
from goengine.nn import cpu, features, netfile
from goengine.rollout import rollout_weights
from training.dataset import load_split
from goengine.game.sgffile import SgfError, iter_positions

PHASES = ((0.0, 1 / 3, "opening third"), (1 / 3, 2 / 3, "middle third"),
          (2 / 3, 1.01, "last third"))


def sample(store, count, seed, policy, playouts):
    """One random position from each of `count` games won on the board.

    Returns planes (N, 49, 19, 19) uint8, outcome (N,) +-1 for the player to
    move, final ownership (N, 19, 19) from the player to move's view, the
    colour sign (+1 Black to move, -1 White), the game's komi and the
    fraction of the game played.
    """
    rng = np.random.default_rng(seed)
    planes, outcome, owner, color_sign, komi, played = [], [], [], [], [], []
    for i in rng.permutation(len(store)):
        if len(outcome) == count:
            break
        game = store[int(i)]
        if not game.won_on_the_board or len(game.moves) < 30:
            continue
        pick = int(rng.integers(len(game.moves)))
        try:
            for index, (board, color, _) in enumerate(iter_positions(game, copy=False)):
                if index == pick:
                    position, to_move = features.value_planes(board), color
        except SgfError:
            continue
        # iter_positions has played the last move too: `board` is the final board.
        sign = 1.0 if to_move == BLACK else -1.0
        ownership = policy.ownership(board, playouts=playouts, seed=int(i))
        planes.append(position)
        outcome.append(1.0 if to_move == game.winner else -1.0)
        owner.append(ownership.astype(np.float32) * sign)
        color_sign.append(sign)
        komi.append(game.komi)
        played.append(pick / len(game.moves))
    return dict(planes=np.stack(planes), y=torch.tensor(outcome), owner=torch.from_numpy(np.stack(owner)),
                sign=torch.tensor(color_sign), komi=torch.tensor(komi), played=torch.tensor(played))


def margin(owner, data):
    """Area margin for the player to move from (N, 19, 19) ownership in their view
    (komi goes to White)."""
    return owner.sum((1, 2)) - data["komi"] * data["sign"]


def fit_squash(margins, y):
    """(k, b) of tanh((margin + b) / k) with the least MSE on (margins, y), by grid search."""
    grid = [(k, b) for k in (2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128) for b in (-3, -2, -1, 0, 1, 2, 3)]
    return min(grid, key=lambda kb: float(((y - torch.tanh((margins + kb[1]) / kb[0])) ** 2).mean()))


def report(name, pred, data):
    """Print the MSE of `pred` on data, overall and by phase of the game; return the overall."""
    errors = (data["y"] - pred) ** 2
    parts = []
    for lo, hi, label in PHASES:
        chosen = (data["played"] >= lo) & (data["played"] < hi)
        parts.append(f"{label} {float(errors[chosen].mean()):.4f} (n={int(chosen.sum())})")
    print(f"{name}: val mse {float(errors.mean()):.4f}; " + ", ".join(parts), flush=True)
    return float(errors.mean())


def trunk_features(trunk, planes, batch=64):
    """bf16 outputs of the frozen trunk for uint8 policy planes (computed in bf16 where it is fast)."""
    out = []
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16,
                                                enabled=cpu.bf16_is_fast()):
        for s in range(0, len(planes), batch):
            x = torch.from_numpy(planes[s:s + batch, :features.NUM_POLICY_PLANES].astype(np.float32))
            out.append(trunk(x.to(memory_format=torch.channels_last)).to(torch.bfloat16).contiguous())
    return torch.cat(out)


class ValueHead(nn.Module):
    """AlphaGo's value head on trunk features: 1x1 conv (+BN), FC 256 (+ colour), FC tanh."""

    def __init__(self, filters, points):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(filters, 1, 1), nn.BatchNorm2d(1)
        self.fc, self.out = nn.Linear(points + 1, 256), nn.Linear(256, 1)

    def forward(self, x, sign):
        x = F.relu(self.bn(self.conv(x))).flatten(1)
        x = F.relu(self.fc(torch.cat([x, sign[:, None]], 1)))
        return torch.tanh(self.out(x)).squeeze(1)


def train_head(head, loss_fn, count, epochs, val_fn, label):
    """Adam on minibatches of 128 train examples; prints train loss and val_fn() per epoch."""
    opt = torch.optim.Adam(head.parameters(), lr=1e-3, weight_decay=1e-4)
    for epoch in range(epochs):
        head.train()
        order, total = torch.randperm(count), 0.0
        for s in range(0, count, 128):
            rows = order[s:s + 128]
            loss = loss_fn(rows)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
        head.eval()
        with torch.no_grad():
            print(f"{label} epoch {epoch + 1}: train {total / count:.4f}, val {val_fn():.4f}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train-positions", type=int, default=12000)
    parser.add_argument("--val-positions", type=int, default=2000)
    parser.add_argument("--playouts", type=int, default=24, help="rollouts for each final ownership")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--weights", default="weights/sl-policy.pt", help="policy net whose trunk is probed")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)

    policy = rollout_weights.load()
    start = time.time()
    val = sample(load_split("val"), args.val_positions, 0, policy, args.playouts)
    train = sample(load_split("train"), args.train_positions, 7, policy,
                   args.playouts)
    print(f"{len(train['y'])} training and {len(val['y'])} held-out positions, one per game "
          f"({time.time() - start:.0f} s)", flush=True)
    print(f"constant 0: val mse {float((val['y'] ** 2).mean()):.4f}")

    k, b = fit_squash(margin(train["owner"], train), train["y"])
    report(f"1. final ownership of the game (tanh((margin{b:+d})/{k}))",
           torch.tanh((margin(val["owner"], val) + b) / k), val)

    trunk = netfile.load_network(args.weights, kind="policy").eval().trunk
    trunk = trunk.to(memory_format=torch.channels_last)
    start = time.time()
    train["f"], val["f"] = trunk_features(trunk, train["planes"]), trunk_features(trunk, val["planes"])
    print(f"trunk features in {time.time() - start:.0f} s", flush=True)
    filters, points = train["f"].shape[1], train["f"].shape[2] * train["f"].shape[3]

    value_head = ValueHead(filters, points)
    train_head(value_head,
               lambda rows: F.mse_loss(value_head(train["f"][rows].float(), train["sign"][rows]),
                                       train["y"][rows]),
               len(train["y"]), args.epochs,
               lambda: F.mse_loss(value_head(val["f"].float(), val["sign"]), val["y"]).item(),
               "2a. value head on the frozen trunk")
    with torch.no_grad():
        report("2a. value head", value_head(val["f"].float(), val["sign"]), val)

    owner_head = nn.Conv2d(filters, 1, 1)

    def predicted_owner(f):
        return torch.tanh(owner_head(f.float())).squeeze(1)

    print(f"ownership: predicting 0 scores val {float((val['owner'] ** 2).mean()):.4f}")
    train_head(owner_head,
               lambda rows: F.mse_loss(predicted_owner(train["f"][rows]), train["owner"][rows]),
               len(train["y"]), args.epochs,
               lambda: F.mse_loss(predicted_owner(val["f"]), val["owner"]).item(),
               "2b. ownership head on the frozen trunk (per-point mse)")
    with torch.no_grad():
        k, b = fit_squash(margin(predicted_owner(train["f"]), train), train["y"])
        report(f"2b. value from predicted ownership (tanh((margin{b:+d})/{k}))",
               torch.tanh((margin(predicted_owner(val["f"]), val) + b) / k), val)


if __name__ == "__main__":
    main()
