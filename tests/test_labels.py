"""Final-board labels (training/labels.py, tools/label_games.py) on small hand-made games."""

import os

import numpy as np
import pytest

from goengine import BLACK, PASS, WHITE, Board
from goengine.programs.loading import load_rollout
from goengine.rollout.scoring import Scorer
from goengine.game.sgffile import Game
from tests import programs
from training import labels as L
from training.dataset import GameStore

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 9


def point(row, col):
    return row * SIZE + col


def walls_game(result, winner, dead_white=((4, 1),)):
    """Black walls column 4 off, White column 6; column 5 is dame; a lone White
    stone inside Black's side is dead. Black 45 points, White 27: B+11.5 at komi 6.5."""
    black = [point(r, 4) for r in range(SIZE)]
    white = [point(r, 6) for r in range(SIZE)] + [point(r, c) for r, c in dead_white]
    return Game(size=SIZE, komi=6.5, setup_black=black, setup_white=white,
                moves=ENDINGS[result[2:3].upper() or "0"], winner=winner, result=result)


# A counted game ends with two passes; a resigned one (or one lost on time) with a move.
ENDINGS = {"R": [(BLACK, point(0, 0))], "T": [(BLACK, point(0, 0))]}
ENDINGS = {key: ENDINGS.get(key, [(BLACK, PASS), (WHITE, PASS)]) for key in "0123456789RTF"}


@pytest.fixture(scope="module")
def scorer():
    rollout = load_rollout()
    return Scorer(rollout, 400), rollout


def test_a_counted_game_is_labelled_as_the_scorer_counts_it(scorer):
    judge, rollout = scorer
    game = walls_game("B+11.5", BLACK)
    kind, owner, margin, agreeing = L.label_game(game, judge, rollout, 16, 0)
    assert kind == L.COUNTED and agreeing == 0
    board = L.final_board(game)
    assert margin == pytest.approx(judge.final_score(board)) == pytest.approx(11.5)
    s = L.OWNERSHIP_SCALE
    assert owner[4, 1] == s                     # the dead White stone is Black's point
    assert (owner[:, :5] == s).all() and (owner[:, 6:] == -s).all()
    assert (owner[:, 5] == 0).all()             # dame
    assert owner.sum() / s - 6.5 == pytest.approx(margin)


def test_a_record_the_board_contradicts_gets_no_label(scorer):
    judge, rollout = scorer
    kind, owner, margin, _ = L.label_game(walls_game("W+3.5", WHITE), judge, rollout, 16, 0)
    assert kind == L.NONE and owner is None and np.isnan(margin)
    for result, winner in (("W+T", WHITE), ("0", None), ("B+F", BLACK)):
        assert L.label_game(walls_game(result, winner), judge, rollout, 16, 0)[0] == L.NONE


def test_area_owner_leaves_seki_liberties_and_dame_to_nobody():
    board = Board(5, 0.5)
    board.setup_stones(black=[r * 5 + 1 for r in range(5)], white=[r * 5 + 3 for r in range(5)])
    owner = board.area_owner()
    assert (owner[:, 0] == 1).all() and (owner[:, 4] == -1).all() and (owner[:, 2] == 0).all()
    assert (owner[:, 1] == 1).all() and (owner[:, 3] == -1).all()
    assert owner.sum() - 0.5 == board.area_score()


class SplitRollouts:
    """Even seeds end with Black owning everything (B+5), odd ones with White (W+5)."""

    def play_out(self, board, seed):
        sign = 1 if seed % 2 == 0 else -1
        return np.full((board.size, board.size), sign, np.int8), 5.0 * sign


def test_a_resigned_games_soft_map_uses_only_the_agreeing_rollouts():
    board = L.final_board(walls_game("W+R", WHITE))
    kind, owner, agreeing = L.resigned_label(board, WHITE, SplitRollouts(), 64, 0)
    assert kind == L.RESIGNED and agreeing == 32 and (owner == -1).all()
    kind, owner, agreeing = L.resigned_label(board, BLACK, SplitRollouts(), 64, 0)
    assert kind == L.RESIGNED and agreeing == 32 and (owner == 1).all()


def test_a_resigned_game_with_real_rollouts(scorer):
    judge, rollout = scorer
    kind, owner, margin, agreeing = L.label_game(walls_game("B+R", BLACK), judge, rollout, 16, 3)
    assert kind == L.RESIGNED and 1 <= agreeing <= 16 and np.isnan(margin)
    assert owner[0, 0] > 0 and owner[0, 8] < 0


def test_the_tool_labels_resumes_and_reports(tmp_path, capsys):
    games = [walls_game("B+11.5", BLACK), walls_game("W+3.5", WHITE),
             walls_game("B+R", BLACK), walls_game("W+T", WHITE)] * 3
    store_path = str(tmp_path / "toy-train.npz")
    GameStore.from_games(games).save(store_path)
    tool = programs.tool("label_games")
    tool.main(["--store", store_path, "--games", "5", "--rollouts", "64", "--no-progress"])
    path = L.labels_path(store_path)
    assert path == str(tmp_path / "toy-train.labels.npz")
    _, first = L.read_labels(path, GameStore.load(store_path))
    assert (first["kind"] != L.UNLABELLED).sum() == 5
    tool.main(["--store", store_path, "--rollouts", "64", "--no-progress"])
    meta, labels = L.read_labels(path, GameStore.load(store_path))
    done = first["kind"] != L.UNLABELLED
    assert (labels["kind"][done] == first["kind"][done]).all()       # kept, not redone
    assert list(labels["kind"]) == [L.COUNTED, L.NONE, L.RESIGNED, L.NONE] * 3
    assert (labels["winner"] == [BLACK, WHITE, BLACK, WHITE] * 3).all()
    out = capsys.readouterr().out
    assert "counted 3, resigned 3, none 6" in out
    assert "the scorer names the recorded winner in 50.0 %" in out


def test_a_damaged_or_foreign_labels_file_is_one_clear_error(tmp_path):
    store = GameStore.from_games([walls_game("B+11.5", BLACK)] * 2)
    other = GameStore.from_games([walls_game("B+11.5", BLACK)] * 3)
    path = str(tmp_path / "x.labels.npz")
    L.write_labels(path, L.empty_labels(store), {"store": L.store_fingerprint(store)})
    L.read_labels(path, store)
    with pytest.raises(L.LabelError, match="made for other games"):
        L.read_labels(path, other)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) // 2])
    with pytest.raises(L.LabelError, match="x.labels.npz: unreadable or truncated"):
        L.read_labels(path)
    with pytest.raises(L.LabelError, match="unreadable"):
        L.read_labels(str(tmp_path / "missing.labels.npz"))
