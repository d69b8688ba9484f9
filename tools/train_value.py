#!/usr/bin/env python3
"""Train the value network v_theta on game outcomes of the Tygem 9-dan games (AlphaGo Methods).

Target: +1 if the player to move won, -1 if they lost (games without a winner
are skipped); MSE loss. Only one position per game each epoch by default:
successive positions of a game are nearly identical and share one label, and
AlphaGo found that training on whole games overfits (0.19 train vs 0.37 test MSE).

Start:   nohup .venv/bin/python tools/train_value.py --run-dir runs/value \\
             --init-from-policy runs/policy/checkpoint.pt &
Resume:  nohup .venv/bin/python tools/train_value.py --run-dir runs/value --resume &
Export:  .venv/bin/python tools/train_value.py --run-dir runs/value --export weights/value.pt
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from goengine import nets, training  # noqa: E402
from goengine.dataset import load_split  # noqa: E402
from goengine.sampler import PolicyExamples, ValueExamples, sample_examples  # noqa: E402


def policy_planes_for_statistics(args, positions=1024):
    """Policy planes of training positions, to measure a folded trunk's BN statistics."""
    store = load_split("train", args.data_dir, args.cache_dir, log=lambda message: None)
    rng = np.random.default_rng([args.seed, 7])
    games = (store[int(i)] for i in rng.permutation(len(store))[:positions // 2])
    planes, _ = sample_examples(PolicyExamples(), games, 2, rng)
    return planes[:positions]


def load_policy(path, args):
    """A BN policy net from a policy training checkpoint or a network file.

    A shipped (folded) file gets its BN back with statistics measured on
    training positions (nets.unfold_batch_norm). Copied into the value net
    without that, BN would start at gamma 1, beta 0, and in training mode
    (batch statistics) the trunk would compute something else than the policy.
    """
    try:
        policy = nets.load_network(path, kind="policy")
        if not policy.batch_norm:
            policy = nets.unfold_batch_norm(policy, policy_planes_for_statistics(args))
        return policy
    except nets.NetworkLoadError:
        state = torch.load(path, map_location="cpu", weights_only=True)
        if not isinstance(state, dict) or state.get("kind") != "policy":
            raise SystemExit(f"{path}: neither a policy network nor a policy training checkpoint")
        model = nets.PolicyNet(**state["arch"])
        model.load_state_dict(state["model"])
        return model


class ValueTask(training.Task):
    """MSE on the outcome, plus (move_weight > 0) cross-entropy of a training-only move head.

    Why the move head: one outcome per game is a weak, noisy signal, and value
    nets trained on it alone here stayed at the constant-output MSE of 1.0
    (docs/TRAINING.md). The move played is a dense signal on the same trunk
    that keeps its features those of a Go player; the export drops the head.
    """
    kind = "value"

    def __init__(self, late_fraction=None, move_weight=0.0):
        self.move_weight = move_weight
        with_moves = move_weight > 0
        self.metrics = ("mse", "move_loss", "top1") if with_moves else ("mse",)
        self.examples = ValueExamples(late_fraction or 0.0, with_moves)
        self.val_examples = ValueExamples(with_moves=with_moves)  # always on whole games

    def build_model(self, args):
        model = nets.ValueNet(nets.VALUE_PLANES, args.filters, args.layers, 19, batch_norm=True,
                              move_head=self.move_weight > 0)
        if args.init_from_policy:
            nets.init_value_from_policy(model, load_policy(args.init_from_policy, args))
        return model

    def forward(self, model, x):
        if self.move_weight <= 0:
            return model(x).float()
        if not model.move_head:
            raise SystemExit("this network has no move head (a run from before session 7 or "
                             "a shipped file): pass --move-weight 0")
        values, logits = model.forward_with_moves(x)
        return values.float(), logits.float()

    def loss(self, output, targets):
        if self.move_weight <= 0:
            loss = F.mse_loss(output, targets)
            return loss, {"mse": loss.item() * len(targets)}
        values, logits = output
        outcomes, moves = targets[:, 0], targets[:, 1].long()
        mse = F.mse_loss(values, outcomes)
        played = moves >= 0  # passes have no move output
        move_loss = F.cross_entropy(logits[played], moves[played]) if played.any() else mse * 0
        hits = logits[played].argmax(1) == moves[played]
        top1 = hits.float().mean() if played.any() else mse * 0
        n = len(targets)  # metrics are sums over the batch: means times n
        sums = {"mse": mse.item() * n, "move_loss": move_loss.item() * n, "top1": top1.item() * n}
        return mse + self.move_weight * move_loss, sums


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    training.add_arguments(parser, lr=0.01, batch_size=64, positions_per_game=1,
                           run_dir="runs/value")
    parser.add_argument("--init-from-policy", metavar="CHECKPOINT",
                        help="copy the trunk of a policy training checkpoint (runs/policy/"
                             "checkpoint.pt) or policy network file (weights/sl.pt); needs equal "
                             "--filters/--layers")
    parser.add_argument("--late-fraction", type=float, metavar="F",
                        help="train only on positions after this fraction of each game "
                             "(e.g. 0.7: the last 30%%), where the outcome is mostly decided; "
                             "a curriculum to leave the constant-output plateau. Resume "
                             "with --late-fraction 0 to widen to whole games")
    parser.add_argument("--move-weight", type=float, default=1.0, metavar="W",
                        help="weight of the training-only move head's cross-entropy beside the "
                             "outcome MSE; 0 trains the value head alone (runs before session 7)")
    return training.parse_args(parser, argv)


if __name__ == "__main__":
    args = parse_args()
    training.main(ValueTask(args.late_fraction, args.move_weight), args)
