"""Train the rollout and tree policies (AlphaGo's Extended Data Table 4) on
9-dan games, and report their move-prediction accuracy on held-out games.

1. Count the symmetry-canonical 3x3, response and 12-point patterns of the
   moves played in --count-games games; keep those seen --min-count times.
2. For every position of --train-games games (--tree-games for the tree
   policy) list the features of every legal move; candidates of a position
   that only have their 3x3 pattern merge into one row per pattern with a
   count, which shrinks the rollout data ~4x.
3. Fit each policy by maximum likelihood of the played move among the legal
   moves (softmax regression: a few epochs of minibatch Adam, a little L2).
4. Save weights/rollout.weights and print the held-out accuracy; the last
   line is `top1=0.XXXX positions=N` for the rollout policy.

The held-out month (tygem-9d-2016-12) is never trained on.

    nice -n 10 .venv/bin/python tools/train_rollout.py
    .venv/bin/python tools/train_rollout.py --eval-only --weights weights/rollout.weights
"""

import argparse
import os
import sys
import time

import numpy as np

from goengine import PASS
from goengine.rollout._patterns import canonical, move_keys, NO_PATTERN
from goengine.rollout._rollout import FEATURE_NAMES, SLOTS
from goengine.rollout import rollout_weights
from goengine.rollout._rollout import RolloutPolicy
from goengine.rollout.rollout_weights import DEFAULT_PATH
from goengine.game.sgffile import iter_positions, read_games, SgfError
from training.dataset import DATA_DIR, VALIDATION_FILES, split_files

ROLLOUT_SLOTS = 6       # pattern, response pattern, response, neighbour, save atari, nakade


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def training_files(data_dir):
    return split_files(data_dir, "train")


def spread_games(files, count, skip=0):
    """`count` 19x19 games taken evenly from every file (after the first `skip` of each)."""
    per_file = -(-(count + skip * len(files)) // len(files))
    games = []
    for path in files:
        taken = [g for g in read_games(path, limit=per_file) if g.size == 19][skip:]
        games.extend(taken)
    return games[:count] if len(games) > count else games


def positions(games):
    """(board, move) for every move but passes; the board is live (valid until the next)."""
    for game in games:
        try:
            for board, color, move in iter_positions(game, copy=False):
                if move != PASS:
                    yield board, move
        except SgfError:
            continue


# ---------------------------------------------------------------------------
# 1. Pattern vocabulary
# ---------------------------------------------------------------------------

def count_patterns(games, min_count):
    keys3, keys12, keysr = [], [], []
    for board, move in positions(games):
        k3, k12, kr = move_keys(board, move)
        keys3.append(k3)
        keys12.append(k12)
        if kr != NO_PATTERN:
            keysr.append(kr)
    vocab = {}
    for name, kind, keys in (("pat3_keys", "3x3", keys3), ("response_keys", "response", keysr),
                             ("diamond_keys", "diamond", keys12)):
        unique, counts = np.unique(canonical(kind, np.array(keys, dtype=np.uint64)),
                                   return_counts=True)
        order = np.argsort(-counts, kind="stable")
        kept = unique[order][counts[order] >= min_count]
        log(f"  {kind}: {len(unique)} distinct in {len(keys)} moves, {len(kept)} seen "
            f">= {min_count} times (covering "
            f"{counts[order][counts[order] >= min_count].sum() / max(1, len(keys)):.1%})")
        vocab[name] = kept
    log(f"  from {len(keys3)} positions")
    return vocab


# ---------------------------------------------------------------------------
# 2. Candidate features
# ---------------------------------------------------------------------------

class Dataset:
    """Positions as merged candidate rows: rows (R, K) feature indices (the
    dummy index `none` pads), counts (R,), the rows of position i are
    starts[i]:starts[i+1], and labels[i] is the played move's row."""

    def __init__(self, rows, counts, starts, labels, none):
        self.rows, self.counts, self.starts, self.labels, self.none = \
            rows, counts, starts, labels, none
        self.num_positions = len(labels)
        self.row_position = np.repeat(np.arange(self.num_positions), np.diff(starts))

    def batch(self, first, last):
        """Positions first:last as a Dataset of their own (views, no copies)."""
        r0, r1 = self.starts[first], self.starts[last]
        return Dataset(self.rows[r0:r1], self.counts[r0:r1], self.starts[first:last + 1] - r0,
                       self.labels[first:last] - r0, self.none)


def merge_candidates(feats, label, none):
    """(rows, counts, label row): candidates whose only feature is their 3x3
    pattern (most of the board) merge into one row per pattern."""
    plain = np.all(feats[:, 1:] == none, axis=1)
    patterns, inverse, counts = np.unique(feats[plain, 0], return_inverse=True,
                                          return_counts=True)
    rows = np.full((len(patterns), feats.shape[1]), none, dtype=np.int32)
    rows[:, 0] = patterns
    rows = np.concatenate([rows, feats[~plain]])
    counts = np.concatenate([counts, np.ones(np.count_nonzero(~plain), dtype=np.int64)])
    if plain[label]:
        label_row = inverse.ravel()[np.count_nonzero(plain[:label])]
    else:
        label_row = len(patterns) + np.count_nonzero(~plain[:label])
    return rows, counts, label_row


def extract(policy, games, tree, seed=0):
    """Candidate rows of every position of games, positions in random order
    (so that minibatches are contiguous slices)."""
    slots = SLOTS if tree else ROLLOUT_SLOTS
    none = policy.num_features
    samples = []
    for board, move in positions(games):
        moves, feats = policy.candidate_features(board, tree)
        where = np.flatnonzero(moves == move)
        if len(where) == 0:
            continue                  # a superko-only or otherwise odd record
        feats = feats[:, :slots]
        feats[feats < 0] = none
        samples.append(merge_candidates(feats, where[0], none))
    order = np.random.default_rng(seed).permutation(len(samples))
    samples = [samples[i] for i in order]
    sizes = np.array([len(s[0]) for s in samples], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    labels = starts[:-1] + np.array([s[2] for s in samples], dtype=np.int64)
    rows = np.concatenate([s[0] for s in samples]).astype(np.int32)
    counts = np.concatenate([s[1] for s in samples]).astype(np.float64)
    return Dataset(rows, counts, starts, labels, none)


# ---------------------------------------------------------------------------
# 3. Softmax regression
# ---------------------------------------------------------------------------

def loss_and_grad(w, data):
    """Mean negative log-likelihood of the played moves, and its gradient.
    w[data.none] must be 0."""
    score = w[data.rows].sum(axis=1)
    a = score + np.log(data.counts)
    top = np.maximum.reduceat(a, data.starts[:-1])
    e = np.exp(a - top[data.row_position])
    z = np.add.reduceat(e, data.starts[:-1])
    nll = np.mean(top + np.log(z) - score[data.labels])
    p = e / z[data.row_position]
    k = data.rows.shape[1]
    grad = np.bincount(data.rows.ravel(), weights=np.repeat(p, k), minlength=len(w))
    grad -= np.bincount(data.rows[data.labels].ravel(), minlength=len(w))
    grad /= data.num_positions
    return nll, grad


def fit(data, num_features, epochs, l2, lr, batch):
    """Adam over minibatches of positions, halving the step each epoch."""
    start = time.time()
    w = np.zeros(num_features + 1)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    step = 0
    for epoch in range(epochs):
        losses = []
        for first in range(0, data.num_positions, batch):
            loss, grad = loss_and_grad(w, data.batch(first, min(first + batch,
                                                               data.num_positions)))
            grad += l2 * w
            grad[data.none] = 0.0
            step += 1
            m = 0.9 * m + 0.1 * grad
            v = 0.999 * v + 0.001 * grad * grad
            w -= (lr * 0.5 ** epoch) * (m / (1 - 0.9 ** step)) / \
                (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
            w[data.none] = 0.0
            losses.append(loss)
        log(f"    epoch {epoch + 1}: mean minibatch loss {np.mean(losses):.4f} "
            f"({time.time() - start:.0f} s)")
    return w[:num_features].astype(np.float32)


# ---------------------------------------------------------------------------
# 4. Held-out accuracy
# ---------------------------------------------------------------------------

def evaluate(policy, games):
    """(rollout top-1, tree top-1, positions) on the moves of games."""
    rollout_hits = tree_hits = n = 0
    for board, move in positions(games):
        rollout_hits += int(np.argmax(policy.rollout_priors(board))) == move
        tree_hits += int(np.argmax(policy.tree_priors(board))) == move
        n += 1
    return rollout_hits / max(1, n), tree_hits / max(1, n), n


def holdout_games(data_dir, count):
    return [g for g in read_games(split_files(data_dir, "val"), limit=count) if g.size == 19]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=DATA_DIR, help="folder of tygem-9d-*.sgfs.gz")
    parser.add_argument("--out", default=DEFAULT_PATH)
    parser.add_argument("--count-games", type=int, default=10000,
                        help="games whose played moves build the pattern vocabulary")
    parser.add_argument("--min-count", type=int, default=4,
                        help="keep patterns played at least this often")
    parser.add_argument("--train-games", type=int, default=3000, help="rollout policy games")
    parser.add_argument("--tree-games", type=int, default=800, help="tree policy games")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=0.1, help="Adam step size (first epoch)")
    parser.add_argument("--batch", type=int, default=1024, help="positions per minibatch")
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--eval-games", type=int, default=300, help="held-out games to score")
    parser.add_argument("--eval-only", action="store_true")
    parser.add_argument("--weights", default=DEFAULT_PATH, help="weights for --eval-only")
    args = parser.parse_args(argv)

    if args.eval_only:
        policy = rollout_weights.load(args.weights)
    else:
        files = training_files(args.data)
        log(f"{len(files)} training files (holding out {', '.join(VALIDATION_FILES)})")
        t = time.time()
        count_games = spread_games(files, args.count_games)
        log(f"counting patterns in {len(count_games)} games")
        vocab = count_patterns(count_games, args.min_count)
        del count_games
        log(f"  {time.time() - t:.0f} s")
        vocab_policy = RolloutPolicy.from_arrays(**vocab)
        n = vocab_policy.num_features

        # The training games are a subset of the counting games, so every
        # pattern that earned a weight can be seen during training.
        train_games = spread_games(files, args.train_games)
        t = time.time()
        data = extract(vocab_policy, train_games, tree=False)
        log(f"rollout policy: {data.num_positions} positions, {len(data.rows)} merged "
            f"candidate rows ({time.time() - t:.0f} s); fitting {n} weights")
        rollout_w = fit(data, n, args.epochs, args.l2, args.lr, args.batch)
        del data
        t = time.time()
        data = extract(vocab_policy, train_games[:args.tree_games], tree=True)
        log(f"tree policy: {data.num_positions} positions, {len(data.rows)} candidate rows "
            f"({time.time() - t:.0f} s)")
        tree_w = fit(data, n, args.epochs, args.l2, args.lr, args.batch)
        del data
        policy = RolloutPolicy.from_arrays(**vocab, rollout_weights=rollout_w,
                                           tree_weights=tree_w, source=args.out)
        log("fixed features: rollout / tree weight")
        for index, name in sorted(FEATURE_NAMES.items()):
            log(f"  {name:32s} {rollout_w[index]:+6.2f} {tree_w[index]:+6.2f}")
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        rollout_weights.save(policy, args.out)
        log(f"saved {args.out} ({os.path.getsize(args.out)} bytes): {policy!r}")

    t = time.time()
    rollout_top1, tree_top1, n = evaluate(policy, holdout_games(args.data, args.eval_games))
    log(f"held-out evaluation: {time.time() - t:.0f} s")
    print(f"tree_top1={tree_top1:.4f} positions={n}")
    print(f"top1={rollout_top1:.4f} positions={n}")


if __name__ == "__main__":
    main()
