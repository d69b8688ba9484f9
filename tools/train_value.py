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

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from goengine import nets, training  # noqa: E402
from goengine.sampler import ValueExamples  # noqa: E402


def load_policy(path):
    """A policy net from a policy training checkpoint or from a (non-folded) network file."""
    try:
        return nets.load_network(path, kind="policy")
    except nets.NetworkLoadError:
        state = torch.load(path, map_location="cpu", weights_only=True)
        if not isinstance(state, dict) or state.get("kind") != "policy":
            raise SystemExit(f"{path}: neither a policy network nor a policy training checkpoint")
        model = nets.PolicyNet(**state["arch"])
        model.load_state_dict(state["model"])
        return model


class ValueTask(training.Task):
    kind = "value"
    metrics = ("mse",)

    def __init__(self, late_fraction=None):
        self.examples = ValueExamples(late_fraction or 0.0)
        self.val_examples = ValueExamples()   # validation always on whole games

    def build_model(self, args):
        model = nets.ValueNet(nets.VALUE_PLANES, args.filters, args.layers, 19, batch_norm=True)
        if args.init_from_policy:
            nets.init_value_from_policy(model, load_policy(args.init_from_policy))
        return model

    def loss(self, values, targets):
        loss = F.mse_loss(values, targets)
        return loss, {"mse": loss.item() * len(targets)}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    training.add_arguments(parser, lr=0.01, batch_size=64, positions_per_game=1,
                           run_dir="runs/value")
    parser.add_argument("--init-from-policy", metavar="CHECKPOINT",
                        help="copy the trunk of a policy training checkpoint (runs/policy/"
                             "checkpoint.pt) or BN policy network file; needs equal "
                             "--filters/--layers")
    parser.add_argument("--late-fraction", type=float, metavar="F",
                        help="train only on positions after this fraction of each game "
                             "(e.g. 0.7: the last 30%%), where the outcome is mostly decided; "
                             "a curriculum to leave the constant-output plateau. Resume "
                             "with --late-fraction 0 to widen to whole games")
    return training.parse_args(parser, argv)


if __name__ == "__main__":
    args = parse_args()
    training.main(ValueTask(args.late_fraction), args)
