#!/usr/bin/env python3
"""Train the SL policy network p_sigma on the Tygem 9-dan games (AlphaGo Methods).

Start:   nohup .venv/bin/python tools/train_policy.py --run-dir runs/policy &
Resume:  nohup .venv/bin/python tools/train_policy.py --run-dir runs/policy --resume &
Export:  .venv/bin/python tools/train_policy.py --run-dir runs/policy --export weights/sl-policy.pt
SIGTERM/SIGINT write a checkpoint before exiting.
"""

import argparse

import _checkout  # noqa: F401  (this checkout's packages first)
from training import trainer
from training.tasks import PolicyTask


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    trainer.add_arguments(parser, lr=0.05, batch_size=64, positions_per_game=8,
                          run_dir="runs/policy")
    return trainer.parse_args(parser, argv)


def main(argv=None):
    trainer.main(PolicyTask(), parse_args(argv))


if __name__ == "__main__":
    main()
