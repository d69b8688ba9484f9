#!/usr/bin/env python3
"""Train the SL policy network p_sigma on the Tygem 9-dan games (AlphaGo Methods).

Start:   nohup .venv/bin/python tools/train_policy.py --run-dir runs/policy &
Resume:  nohup .venv/bin/python tools/train_policy.py --run-dir runs/policy --resume &
Export:  .venv/bin/python tools/train_policy.py --run-dir runs/policy --export weights/sl.pt
SIGTERM/SIGINT write a checkpoint before exiting.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch.nn.functional as F  # noqa: E402

from goengine import nets, training  # noqa: E402
from goengine.sampler import PolicyExamples  # noqa: E402


class PolicyTask(training.Task):
    """Cross-entropy on the move played; top-1 accuracy is the paper's headline number."""
    kind = "policy"
    metrics = ("loss", "top1")
    examples = PolicyExamples()

    def build_model(self, args):
        return nets.PolicyNet(nets.POLICY_PLANES, args.filters, args.layers, 19, batch_norm=True)

    def loss(self, logits, moves):
        loss = F.cross_entropy(logits, moves)
        top1 = (logits.argmax(1) == moves).sum().item()
        return loss, {"loss": loss.item() * len(moves), "top1": float(top1)}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    training.add_arguments(parser, lr=0.05, batch_size=64, positions_per_game=8,
                           run_dir="runs/policy")
    return training.parse_args(parser, argv)


if __name__ == "__main__":
    training.main(PolicyTask(), parse_args())
