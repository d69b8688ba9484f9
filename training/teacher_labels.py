"""The teacher's labels of training positions: what KataGo's network says of each.

A labels folder (outside git; made again when lost) holds shards written by
tools/label_teacher.py, each a training/arrayfile file of one run of positions:

- `game`, `move`: the position is game `game` of the training GameStore (its digest is in
  the header, so labels are never read against other games) before move index `move`
  (`move == len(moves)` is the final board);
- `komi`: the komi the teacher was told (the game's, or another for a share of positions);
- `policy_moves` (K,) int16 and `policy_probs` (K,) float16: the teacher's top K moves,
  our move indices (PASS -1; -2 pads), probabilities summing to at most 1;
- `black_win`, `black_lead`, `black_score`: float16, the win probability, the lead and the
  expected score for Black;
- `ownership` (19, 19) int8 indexed [row, col], +127 Black's, -127 White's.

`progress.json` beside the shards says which games of the run's order are done, so the
labeller resumes where it stopped; `read_labels` gathers every shard of a folder.
"""

import glob
import hashlib
import json
import os

import numpy as np

from goengine import BLACK, PASS
from training import arrayfile
from training.teacher_inputs import SIZE, TO_TEACHER

FORMAT = "goengine-teacher-labels"
FORMAT_VERSION = 1
TOP_MOVES = 16
OWNERSHIP_SCALE = 127
NO_MOVE = -2
ARRAYS = ("game", "move", "komi", "policy_moves", "policy_probs", "black_win", "black_lead",
          "black_score", "ownership")
# the teacher's policy order (KataGo's flat y * 19 + x, then pass) -> our move indices
FROM_TEACHER = np.full(SIZE * SIZE + 1, PASS, np.int16)
FROM_TEACHER[TO_TEACHER] = np.arange(SIZE * SIZE)


class TeacherLabelError(ValueError):
    """A labels shard that is damaged, of another format, or made for other games."""


def store_digest(store) -> str:
    """A short digest of a GameStore's moves: labels belong to exactly these games."""
    h = hashlib.sha256()
    for key in ("move_offsets", "moves"):
        h.update(np.ascontiguousarray(store.a[key]).tobytes())
    return h.hexdigest()[:16]


def to_records(answers, to_move, games, moves, komis):
    """Shard arrays from a batch of teacher.Answers (player to move's view) -> Black's view."""
    sign = np.where(np.asarray(to_move) == BLACK, 1.0, -1.0).astype(np.float32)
    order = np.argsort(-answers.policy, axis=1)[:, :TOP_MOVES]
    probs = np.take_along_axis(answers.policy, order, axis=1)
    top = FROM_TEACHER[order]
    top[probs <= 0] = NO_MOVE
    own = answers.ownership.reshape(len(sign), -1)[:, TO_TEACHER].reshape(-1, SIZE, SIZE)
    return {
        "game": np.asarray(games, np.int32),
        "move": np.asarray(moves, np.int16),
        "komi": np.asarray(komis, np.float16),
        "policy_moves": top.astype(np.int16),
        "policy_probs": probs.astype(np.float16),
        "black_win": np.where(sign > 0, answers.win, 1 - answers.win - answers.no_result).astype(np.float16),
        "black_lead": (sign * answers.lead).astype(np.float16),
        "black_score": (sign * answers.score_mean).astype(np.float16),
        "ownership": np.round(sign[:, None, None] * own * OWNERSHIP_SCALE).astype(np.int8),
    }


def write_shard(path, records, digest, teacher_name):
    header = {"format": FORMAT, "version": FORMAT_VERSION, "store": digest, "teacher": teacher_name,
              "positions": int(len(records["game"]))}
    arrayfile.write(path, records, header, compressed=True)


def read_shard(path, digest=None):
    header, arrays = arrayfile.read(path, ARRAYS, (FORMAT, "a teacher labels shard"),
                                    FORMAT_VERSION, TeacherLabelError)
    if digest is not None and header.get("store") != digest:
        raise TeacherLabelError(f"{os.path.basename(path)}: labels of other games "
                                f"(store {header.get('store')}, not {digest})")
    return header, arrays


def shard_paths(folder):
    return sorted(glob.glob(os.path.join(folder, "labels-*.npz")))


def read_labels(folder, digest=None):
    """Every shard of a folder, concatenated (an empty dict of arrays if there are none)."""
    parts = [read_shard(path, digest)[1] for path in shard_paths(folder)]
    if not parts:
        return {}
    return {key: np.concatenate([p[key] for p in parts]) for key in ARRAYS}


class Progress:
    """Which games of a run's order are labelled: the labeller's resume point."""

    def __init__(self, folder, digest, settings, first_game=0):
        """first_game: where a new folder starts in the run's order of games (the games
        before it were labelled into a folder that is gone); a resumed folder ignores it."""
        self.path = os.path.join(folder, "progress.json")
        self.state = {"store": digest, "settings": settings, "games_done": first_game,
                      "positions": 0, "shards": 0}
        if os.path.exists(self.path):
            try:
                with open(self.path) as f:
                    saved = json.load(f)
            except (OSError, ValueError) as exc:
                raise TeacherLabelError(f"{self.path}: unreadable ({exc})") from None
            if saved.get("store") != digest or saved.get("settings") != settings:
                raise TeacherLabelError(
                    f"{self.path}: a run of other games or settings ({saved.get('settings')}); "
                    f"use another --out folder or the same settings")
            self.state = saved

    def __getitem__(self, key):
        return self.state[key]

    def advance(self, games_done, positions):
        self.state["games_done"] = games_done
        self.state["positions"] += positions
        self.state["shards"] += 1
        tmp = f"{self.path}.tmp{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1)
        os.replace(tmp, self.path)
