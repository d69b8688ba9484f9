#!/usr/bin/env python3
"""Parse the game collections once into compact .npz game stores (one per split).

The trainers do this themselves on first use; run it ahead of time to see the
counts of games and broken records, or with --force after the data changed.
"""

import argparse
import os


import _checkout  # noqa: F401  (this checkout's packages first)
from training.dataset import DATA_DIR, REPO_DIR, SPLIT_HELP, load_split, split_cache_path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=SPLIT_HELP,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--cache-dir", default=os.path.join(REPO_DIR, "data"))
    parser.add_argument("--force", action="store_true", help="rebuild existing stores")
    args = parser.parse_args(argv)
    for split in ("val", "train"):
        path = split_cache_path(split, args.data_dir, args.cache_dir)
        if args.force and os.path.exists(path):
            os.remove(path)
        store = load_split(split, args.data_dir, args.cache_dir)
        print(f"{split}: {len(store)} games, {store.num_moves} moves -> {path}")


if __name__ == "__main__":
    main()
