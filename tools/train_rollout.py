#!/usr/bin/env python3
"""Train the rollout and tree policies on 9-dan games (training/rollout_training.py says how)
and report their move-prediction accuracy on held-out games.

    nice -n 10 .venv/bin/python tools/train_rollout.py
    .venv/bin/python tools/train_rollout.py --eval-only --weights weights/rollout.weights
"""

import _checkout  # noqa: F401  (this checkout's packages first)
from training.rollout_training import main

if __name__ == "__main__":
    main()
