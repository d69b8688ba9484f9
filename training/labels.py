"""Final-board labels of stored games: who owns each point at the end, and by how much.

A game's outcome is one bit; its final board says far more. For every game of a
GameStore (training/dataset.py) the labels file beside it holds:

- `kind`: COUNTED (the game was counted and the board's own scorer, dead stones
  removed, names the recorded winner: the ownership is exact, +1 / -1 / 0 for
  seki liberties and dame), RESIGNED (a resignation: the ownership is the mean
  final owner over the rollouts from the final board that end with the recorded
  winner, a soft map), NONE (no usable label: the record and the board disagree,
  the game was lost on time or by forfeit, a draw, or no rollout agreed), or
  UNLABELLED (not labelled yet: the labelling tool resumes there).
- `ownership`: int8 (games, size, size) indexed [row, col], Black +OWNERSHIP_SCALE,
  White -OWNERSHIP_SCALE; all 0 unless kind is COUNTED or RESIGNED.
- `margin`: Black's area minus White's minus komi on the counted final board
  (NaN unless COUNTED).
- `winner`: the recorded winner (BLACK, WHITE, 0 none), `agreeing`: how many of
  the rollouts agreed with it (RESIGNED games; 0 otherwise).

tools/label_games.py writes the file; the trainer reads it with `read_labels`,
which refuses a file that does not belong to its store.
"""

import os
from typing import NamedTuple

import numpy as np

from goengine import BLACK, WHITE, IllegalMove
from goengine.game.sgffile import SgfError, iter_positions, new_board
from goengine.rollout.scoring import without_dead
from training import arrayfile

FORMAT = "goengine-game-labels"
FORMAT_VERSION = 1
SUFFIX = ".labels.npz"
OWNERSHIP_SCALE = 127
UNLABELLED, NONE, COUNTED, RESIGNED = -1, 0, 1, 2
KIND_NAMES = {UNLABELLED: "unlabelled", NONE: "none", COUNTED: "counted", RESIGNED: "resigned"}
ARRAYS = ("kind", "ownership", "margin", "winner", "agreeing")


class FinalLabel(NamedTuple):
    """One game's labels as a trainer uses them (GameStore attaches it to each game)."""
    kind: int                 # COUNTED, RESIGNED, NONE or UNLABELLED
    ownership: np.ndarray     # float32 (size, size) in [-1, 1], +1 Black; zeros without one
    margin: float             # Black's area - White's - komi when COUNTED, else NaN

    @property
    def has_ownership(self):
        return self.kind in (COUNTED, RESIGNED)


def final_label(labels, i):
    """The FinalLabel of game i of a labels dict (read_labels)."""
    return FinalLabel(int(labels["kind"][i]),
                      labels["ownership"][i].astype(np.float32) / OWNERSHIP_SCALE,
                      float(labels["margin"][i]))


def subset(labels, indices):
    """The labels of the games at `indices`, in that order (GameStore.subset's twin)."""
    return {key: value[np.asarray(indices, np.int64)] for key, value in labels.items()}


class LabelError(Exception):
    """A labels file that cannot be used: the message names the file and what is wrong."""


def labels_path(store_path):
    """The labels file beside a game store: data/tygem-9d-train.npz -> ...-train.labels.npz."""
    base = store_path[:-len(".npz")] if store_path.endswith(".npz") else store_path
    return base + SUFFIX


def store_fingerprint(store):
    """Numbers that change when the store's games change: count, moves, a checksum."""
    moves = store.a["moves"]
    return {"games": len(store), "moves": int(len(moves)),
            "checksum": int(np.sum(moves.astype(np.int64) * (np.arange(len(moves)) % 9973 + 1))
                            % (2**61 - 1))}


def empty_labels(store):
    n, size = len(store), int(store.a["size"].max()) if len(store) else 19
    return {"kind": np.full(n, UNLABELLED, np.int8),
            "ownership": np.zeros((n, size, size), np.int8),
            "margin": np.full(n, np.nan, np.float32),
            "winner": np.zeros(n, np.int8),
            "agreeing": np.zeros(n, np.int8)}


def write_labels(path, labels, meta):
    """Write atomically (training/arrayfile.py): a reader never sees half a file."""
    arrayfile.write(path, labels, dict(meta, format=FORMAT, version=FORMAT_VERSION),
                    compressed=True)


def read_labels(path, store=None):
    """(meta, labels) of a labels file; LabelError if it is damaged, of another
    format or version, or (given `store`) made for other games."""
    name = os.path.basename(path)
    meta, labels = arrayfile.read(path, ARRAYS, (FORMAT, "a labels file"), FORMAT_VERSION,
                                  LabelError)
    n = len(labels["kind"])
    if any(len(labels[key]) != n for key in ARRAYS) or labels["ownership"].ndim != 3:
        raise LabelError(f"{name}: arrays of different lengths")
    if not np.isin(labels["kind"], list(KIND_NAMES)).all():
        raise LabelError(f"{name}: an unknown label kind")
    if store is not None and meta.get("store") != store_fingerprint(store):
        raise LabelError(f"{name}: made for other games ({meta.get('store')}, "
                         f"the store has {store_fingerprint(store)})")
    return meta, labels


# ------------------------------------------------------------ labelling one game

def final_board(game):
    """The board after the game's last move (its komi the game's)."""
    board = new_board(game)
    for board, _color, _move in iter_positions(game, copy=False):
        pass        # the generator plays each move after yielding the board before it
    return board


def counted_label(board, winner, scorer):
    """(kind, ownership in [-1, 1], margin) of a counted game's final board."""
    dead, _seki = scorer.stone_status(board)
    owner = without_dead(board, dead).area_owner()
    margin = float(owner.sum()) - board.komi
    agrees = (margin > 0 and winner == BLACK) or (margin < 0 and winner == WHITE)
    return (COUNTED, owner, margin) if agrees else (NONE, None, float("nan"))


def resigned_label(board, winner, rollout, rollouts, seed):
    """(kind, soft ownership, agreeing): the mean final owner over the rollouts from
    the final board that end with the recorded winner."""
    total, agreeing = np.zeros((board.size, board.size)), 0
    for i in range(rollouts):
        owner, score = rollout.play_out(board, seed * 7919 + i)
        if (score > 0) == (winner == BLACK) and score != 0:
            total += owner
            agreeing += 1
    if not agreeing:
        return NONE, None, 0
    return RESIGNED, total / agreeing, agreeing


def is_counted(result):
    """'B+3.5' / 'W+0.5': a margin after the winner's sign."""
    try:
        float(result.strip()[2:])
        return True
    except ValueError:
        return False


def is_resignation(result):
    return result.strip().upper()[2:].startswith("R")


def label_game(game, scorer, rollout, rollouts, seed):
    """(kind, ownership int8 or None, margin, agreeing) of one game."""
    winner = game.winner
    if winner not in (BLACK, WHITE) or not game.moves:
        return NONE, None, float("nan"), 0
    try:
        board = final_board(game)
    except (SgfError, IllegalMove):
        return NONE, None, float("nan"), 0
    if is_counted(game.result):
        kind, owner, margin = counted_label(board, winner, scorer)
        agreeing = 0
    elif is_resignation(game.result):
        kind, owner, agreeing = resigned_label(board, winner, rollout, rollouts, seed)
        margin = float("nan")
    else:
        return NONE, None, float("nan"), 0
    if owner is None:
        return NONE, None, float("nan"), agreeing
    return kind, np.rint(owner * OWNERSHIP_SCALE).astype(np.int8), margin, agreeing


def report(labels, results=None, rollouts=None):
    """Lines that say what the labels hold and how often they agree with the records."""
    kind = labels["kind"]
    done = kind != UNLABELLED
    lines = [f"games {len(kind)}, labelled {int(done.sum())}: "
             + ", ".join(f"{KIND_NAMES[k]} {int((kind == k).sum())}"
                         for k in (COUNTED, RESIGNED, NONE))]
    if results is not None:
        counted = np.array([is_counted(r) for r in results]) & done
        resigned = np.array([is_resignation(r) for r in results]) & done
        if counted.any():
            agree = (kind[counted] == COUNTED).mean()
            recorded = np.array([float(r[2:]) * (1 if r.upper().startswith("B") else -1)
                                 for r in np.asarray(results)[counted & (kind == COUNTED)]])
            ours = labels["margin"][counted & (kind == COUNTED)]
            close = np.mean(np.abs(ours - recorded) <= 2) if len(ours) else float("nan")
            lines.append(f"counted games: {int(counted.sum())}, the scorer names the recorded "
                         f"winner in {100 * agree:.1f} %, its margin within 2 points of the "
                         f"record in {100 * close:.1f} % of those")
        if resigned.any():
            soft = resigned & (kind == RESIGNED)
            share = labels["agreeing"][resigned].mean() / (rollouts or 1)
            lines.append(f"resigned games: {int(resigned.sum())}, a soft map for "
                         f"{100 * soft.sum() / resigned.sum():.1f} %; rollouts agreeing with "
                         f"the winner {100 * share:.1f} % on average")
    return lines
