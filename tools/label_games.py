#!/usr/bin/env python3
"""Label every game of a game store with its final ownership, margin and result.

Writes the labels file beside the store (training/labels.py says what it
holds): exact ownership for counted games whose final board the scorer counts
for the recorded winner, a soft map from the agreeing rollouts for resigned
games, none where the record and the board disagree. Games are labelled in a
fixed shuffled order, so a file cut short still covers every month; the file
is rewritten every --save-every seconds and a second run resumes where the
first stopped. At the end (or with --report) it prints how often the labels
agree with the recorded results.

  nice -n 19 .venv/bin/python tools/label_games.py --split train
  .venv/bin/python tools/label_games.py --store gpu/pack/tygem-9d-val.npz --processes 16
  .venv/bin/python tools/label_games.py --split val --report
"""

import argparse
import os
import signal
import sys
import time
from multiprocessing import get_context

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from training import labels as L
from training.dataset import DATA_DIR, GameStore, load_split, split_cache_path

_worker = {}


def init_worker(store_path, playouts, rollouts, seed):
    from goengine.programs.loading import load_rollout
    from goengine.rollout.scoring import Scorer
    rollout = load_rollout()
    _worker.update(store=GameStore.load(store_path), scorer=Scorer(rollout, playouts),
                   rollout=rollout, rollouts=rollouts, seed=seed)


def label_chunk(indices):
    w = _worker
    return [(i, *L.label_game(w["store"][i], w["scorer"], w["rollout"], w["rollouts"],
                              w["seed"] + i)) for i in indices]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--store", help="a game store (.npz, as training/dataset.py writes)")
    source.add_argument("--split", choices=("train", "val"),
                        help="the cached store of this split of the data folder (built if missing)")
    parser.add_argument("--data-dir", default=DATA_DIR, help="the game records (for --split)")
    parser.add_argument("--playouts", type=int, default=400,
                        help="the scorer's playouts on a counted final board (default 400)")
    parser.add_argument("--rollouts", type=int, default=64,
                        help="rollouts from a resigned final board (default 64, at most 127)")
    parser.add_argument("--games", type=int, default=None,
                        help="stop once this many games are labelled in all")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--save-every", type=float, default=120.0,
                        help="seconds between rewrites of the labels file (default 120)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", action="store_true",
                        help="only print what an existing labels file holds")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if not 1 <= args.rollouts <= 127:
        parser.error("--rollouts must be in 1..127")

    if args.store:
        if not os.path.isfile(args.store):
            raise SystemExit(f"{args.store}: no such game store")
        store_path = args.store
        store = GameStore.load(store_path)
    else:
        split = args.split or "train"
        store = load_split(split, args.data_dir, log=lambda m: print(m, file=sys.stderr))
        store_path = split_cache_path(split, args.data_dir)
    path = L.labels_path(store_path)
    meta = {"store": L.store_fingerprint(store), "playouts": args.playouts,
            "rollouts": args.rollouts, "seed": args.seed, "source": os.path.basename(store_path)}
    if os.path.exists(path):
        try:
            old_meta, labels = L.read_labels(path, store)
        except L.LabelError as exc:
            raise SystemExit(f"{exc}; delete it to start again") from None
        meta = dict(old_meta, store=meta["store"])
    elif args.report:
        raise SystemExit(f"{path}: no labels yet")
    else:
        labels = L.empty_labels(store)

    if not args.report:
        label_games(store, store_path, path, labels, meta, args)
    for line in L.report(labels, store.a["results"], meta["rollouts"]):
        print(line)


def stop_on_sigterm(signum, frame):
    raise KeyboardInterrupt


def label_games(store, store_path, path, labels, meta, args):
    order = np.random.default_rng(meta["seed"]).permutation(len(store))
    todo = order[labels["kind"][order] == L.UNLABELLED]
    if args.games is not None:
        todo = todo[:max(0, args.games - int((labels["kind"] != L.UNLABELLED).sum()))]
    if not len(todo):
        print(f"{path}: nothing left to label", file=sys.stderr)
        return
    print(f"{path}: {len(todo)} games to label", file=sys.stderr)
    chunks = [todo[i:i + 16] for i in range(0, len(todo), 16)]
    init = (store_path, meta["playouts"], meta["rollouts"], meta["seed"])
    pool = None
    if args.processes > 1:
        pool = get_context("spawn").Pool(args.processes, init_worker, init)
        results = pool.imap(label_chunk, chunks)
    else:
        init_worker(*init)
        results = map(label_chunk, chunks)
    progress = None
    if not args.no_progress:
        from tqdm import tqdm
        progress = tqdm(total=len(todo), unit="game", file=sys.stderr)
    last_save = time.monotonic()
    previous_handler = signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        for chunk in results:
            for i, kind, owner, margin, agreeing in chunk:
                labels["kind"][i], labels["margin"][i] = kind, margin
                labels["winner"][i], labels["agreeing"][i] = store.a["winner"][i], agreeing
                if owner is not None:
                    labels["ownership"][i] = owner
            if progress:
                progress.update(len(chunk))
            if time.monotonic() - last_save > args.save_every:
                L.write_labels(path, labels, meta)
                last_save = time.monotonic()
    except KeyboardInterrupt:
        print("interrupted: saving what is labelled", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
        if pool:
            pool.terminate()
        if progress:
            progress.close()
        L.write_labels(path, labels, meta)


if __name__ == "__main__":
    main()
