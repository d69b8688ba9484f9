"""Training data: the fixed train/validation split and a compact in-memory game store.

Parsing 250k SGF games takes minutes, so `GameStore` keeps a parsed collection
in a few flat numpy arrays (about 3 bytes a move) that load in a second; the
trainers cache it as an .npz file.
"""

import os
from multiprocessing import get_context

import numpy as np

from goengine import BLACK, WHITE
from goengine.game.sgffile import Game, iter_sgf_files, read_games
from training.labels import LabelError, final_label, labels_path, read_labels

REPO_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The shared data folder sits beside the repository (also in CI); GOENGINE_DATA overrides it.
DATA_DIR = os.environ.get("GOENGINE_DATA",
                          os.path.join(os.path.dirname(REPO_DIR), "shared", "data", "tygem-9d"))

# Fixed validation/test split: every game of these files is held out and never
# trained on; all other *.sgfs.gz files in DATA_DIR are training data.
VALIDATION_FILES = ("tygem-9d-2016-12.sgfs.gz",)
HELD_OUT_FILE = os.path.join(DATA_DIR, VALIDATION_FILES[0])   # the oracle checks' default games
SPLIT_HELP = (f"Split: games of {', '.join(VALIDATION_FILES)} are held out for validation/test; "
              f"every other *.sgfs.gz in the data folder is training data.")


def split_files(data_dir=DATA_DIR, split="train"):
    """The .sgfs.gz files of one split ('train' or 'val'), sorted."""
    files = sorted(f for f in os.listdir(data_dir) if f.endswith(".sgfs.gz"))
    if split == "val":
        chosen = [f for f in files if f in VALIDATION_FILES]
    elif split == "train":
        chosen = [f for f in files if f not in VALIDATION_FILES]
    else:
        raise ValueError(f"split must be 'train' or 'val', not {split!r}")
    if not chosen:
        raise FileNotFoundError(f"no {split} files (*.sgfs.gz) in {data_dir}")
    return [os.path.join(data_dir, f) for f in chosen]


class GameStore:
    """Many games as flat arrays; `store[i]` rebuilds game i as a sgffile.Game."""

    def __init__(self, arrays, path=None):
        self.a = arrays
        self.path = path  # the .npz file it was loaded from / saved to, if any
        self.labels = None  # final-board labels (training/labels.py), once load_labels() ran

    def load_labels(self):
        """Read the labels file beside the store's .npz (tools/label_games.py writes it);
        every game then carries its FinalLabel. LabelError if it is missing, damaged or
        made for other games: nothing is used silently."""
        if self.path is None:
            raise LabelError("a store that was never saved has no labels file")
        path = labels_path(self.path)
        if not os.path.exists(path):
            raise LabelError(f"{path}: no labels for {os.path.basename(self.path)}; "
                             f"make them with tools/label_games.py --store {self.path}")
        _, self.labels = read_labels(path, self)
        return self

    def __len__(self):
        return len(self.a["winner"])

    def __getitem__(self, i):
        a = self.a
        lo, hi = a["move_offsets"][i], a["move_offsets"][i + 1]
        slo, shi = a["setup_offsets"][i], a["setup_offsets"][i + 1]
        points, colors = a["setup_points"][slo:shi], a["setup_colors"][slo:shi]
        winner = int(a["winner"][i])
        label = final_label(self.labels, i) if self.labels is not None else None
        return Game(size=int(a["size"][i]), komi=float(a["komi"][i]),
                    setup_black=points[colors == BLACK].tolist(),
                    setup_white=points[colors == WHITE].tolist(),
                    moves=list(zip(a["colors"][lo:hi].tolist(), a["moves"][lo:hi].tolist())),
                    winner=winner or None, result=str(a["results"][i]), name=str(a["names"][i]),
                    label=label, index=int(i))

    @property
    def num_moves(self):
        return len(self.a["moves"])

    @classmethod
    def from_games(cls, games):
        size, komi, winner, results, names = [], [], [], [], []
        moves, colors, move_offsets = [], [], [0]
        setup_points, setup_colors, setup_offsets = [], [], [0]
        for game in games:
            size.append(game.size)
            komi.append(game.komi)
            winner.append(game.winner or 0)
            results.append(game.result)
            names.append(game.name)
            colors.extend(c for c, _ in game.moves)
            moves.extend(m for _, m in game.moves)
            move_offsets.append(len(moves))
            setup_points.extend(game.setup_black + game.setup_white)
            setup_colors.extend([BLACK] * len(game.setup_black) + [WHITE] * len(game.setup_white))
            setup_offsets.append(len(setup_points))
        return cls(dict(
            size=np.array(size, np.int8), komi=np.array(komi, np.float32),
            winner=np.array(winner, np.int8), results=np.array(results, dtype=str),
            names=np.array(names, dtype=str),
            moves=np.array(moves, np.int16), colors=np.array(colors, np.int8),
            move_offsets=np.array(move_offsets, np.int64),
            setup_points=np.array(setup_points, np.int16),
            setup_colors=np.array(setup_colors, np.int8),
            setup_offsets=np.array(setup_offsets, np.int64)))

    @classmethod
    def concatenate(cls, stores):
        """One store holding the games of `stores` in order."""
        a = {}
        for key in ("size", "komi", "winner", "results", "names", "moves", "colors",
                    "setup_points", "setup_colors"):
            a[key] = np.concatenate([s.a[key] for s in stores])
        for key, items in (("move_offsets", "moves"), ("setup_offsets", "setup_points")):
            parts, base = [np.zeros(1, np.int64)], 0
            for s in stores:
                parts.append(s.a[key][1:] + base)
                base += len(s.a[items])
            a[key] = np.concatenate(parts)
        return cls(a)

    def subset(self, indices):
        """A store of the games at `indices` (in that order)."""
        indices = np.asarray(indices, np.int64)
        a = self.a
        out = {key: a[key][indices] for key in ("size", "komi", "winner", "results", "names")}
        for key, items, per_game in (("move_offsets", "moves", ("moves", "colors")),
                                     ("setup_offsets", "setup_points",
                                      ("setup_points", "setup_colors"))):
            lo, hi = a[key][indices], a[key][indices + 1]
            lengths = hi - lo
            out[key] = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
            take = (np.repeat(lo - out[key][:-1], lengths) + np.arange(out[key][-1]))
            for name in per_game:
                out[name] = a[name][take]
        return GameStore(out)

    def save(self, path, compressed=False):
        """Atomic write (tmp file, then rename) so a reader never sees half a file."""
        tmp = f"{path}.tmp{os.getpid()}.npz"
        (np.savez_compressed if compressed else np.savez)(tmp, **self.a)
        os.replace(tmp, path)
        self.path = path

    @classmethod
    def load(cls, path):
        with np.load(path) as f:
            return cls({key: f[key] for key in f.files}, path)


def _store_of_file(path):
    """Worker: (store, skipped records) for one SGF file."""
    errors = []

    def replayable(games):
        for game in games:
            if game.later_setup:   # the store keeps setup before the first move only
                errors.append((game.name, "setup stones after the first move"))
            else:
                yield game
    store = GameStore.from_games(replayable(read_games(path, errors=errors)))
    return store, errors


def build_store(paths, processes=2, log=print):
    """Parse every game under `paths` (files/folders) into one GameStore, skipping broken ones."""
    files = [f for p in paths for f in iter_sgf_files(os.fspath(p))]
    stores, skipped = [], 0
    pool = get_context("spawn").Pool(processes) if processes > 1 and len(files) > 1 else None
    try:
        results = pool.imap(_store_of_file, files) if pool else map(_store_of_file, files)
        for path, (store, errors) in zip(files, results):
            stores.append(store)
            skipped += len(errors)
            for name, message in errors[:3]:
                log(f"skipped {name}: {message}")
            log(f"{os.path.basename(path)}: {len(store)} games, {len(errors)} broken records skipped")
    finally:
        if pool:
            pool.close()
    store = GameStore.concatenate(stores)
    log(f"total: {len(store)} games, {store.num_moves} moves, {skipped} broken records skipped")
    return store


def split_cache_path(split, data_dir=DATA_DIR, cache_dir=os.path.join(REPO_DIR, "data")):
    return os.path.join(cache_dir, f"{os.path.basename(os.path.normpath(data_dir))}-{split}.npz")


def load_split(split, data_dir=DATA_DIR, cache_dir=os.path.join(REPO_DIR, "data"), log=print):
    """The GameStore of one split, built from SGF on first use and cached as .npz.

    Delete the cache file (or run tools/make_shards.py --force) after the data changed.
    """
    cache = split_cache_path(split, data_dir, cache_dir)
    if os.path.exists(cache):
        store = GameStore.load(cache)
        if "results" in store.a:
            return store
        log(f"{cache} has no game results (value training needs them): rebuilding")
    log(f"building {cache} from {data_dir} (once; a few minutes for the full collection)")
    store = build_store(split_files(data_dir, split), log=log)
    os.makedirs(cache_dir, exist_ok=True)
    store.save(cache)
    return store
