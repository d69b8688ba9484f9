"""The teacher's reader against KataGo itself, and its labels' file format.

tests/games/teacher_katago.json holds what KataGo (v1.17.2, Eigen backend, fp32) answered
to `kata-raw-nn 0 0` under Chinese rules (one position under Japanese rules too) on held-out
positions chosen to have ladders (now, one move ago, working ladder moves), a ko and
pass-alive area among their inputs. Our reader must give the same numbers. Skipped, saying
why, without katrain (the test extras install it; it ships the network)."""

import gzip
import importlib.util
import json
import os
from types import SimpleNamespace

import numpy as np
import pytest

from goengine import BLACK, EMPTY, WHITE, Board
from goengine.game import coords

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "games", "teacher_katago.json")
needs_katrain = pytest.mark.skipif(importlib.util.find_spec("katrain") is None,
                                   reason="needs katrain (pip install katrain): it ships the teacher")


@pytest.fixture(scope="module")
def teacher():
    from training import teacher_net
    return teacher_net.load(teacher_net.default_path())


def replay(moves):
    """(board, recent moves, previous boards) after a GTP move list."""
    board, history, played = Board(19, 6.5, superko=False), [], []
    for colour, vertex in moves:
        history.insert(0, board.copy())
        move = coords.from_gtp(vertex, 19)
        board.play(move, colour)
        played.append((colour, move))
    return board, played, history[:2]


@needs_katrain
def test_the_reader_answers_as_katago_does(teacher):
    import torch
    from training import teacher_inputs, teacher_net
    positions = json.load(open(FIXTURE))["positions"]
    for p in positions:
        board, played, previous = replay(p["moves"])
        rules = p.get("rules", "chinese")
        spatial, glob = teacher_inputs.planes(board, played, previous, p["komi"], rules)
        with torch.no_grad():
            out = teacher(torch.from_numpy(spatial)[None], torch.from_numpy(glob)[None])
        ours = teacher_net.answers(teacher, out, teacher_inputs.legal_mask(board)[None])
        white = board.to_move == WHITE
        theirs = np.clip(np.array(p["policy"]), 0, None)
        where = f"{len(p['moves'])} moves, komi {p['komi']}, {rules} rules"
        assert 0.5 * np.abs(ours.policy[0] - theirs).sum() < 1e-3, where
        assert ours.win[0] == pytest.approx(p["whiteWin"] if white else p["whiteLoss"], abs=1e-4), where
        assert ours.lead[0] * (1 if white else -1) == pytest.approx(p["whiteLead"], abs=0.01), where
        own = np.array(p["whiteOwnership"]) * (1 if white else -1)
        assert np.abs(ours.ownership[0].reshape(-1) - own).max() < 1e-3, where
    assert len({p["komi"] for p in positions}) > 1, "the fixture asks at two komis"
    assert {p.get("rules", "chinese") for p in positions} == {"chinese", "japanese"}


@needs_katrain
def test_the_inputs_the_fixture_was_chosen_for_are_there():
    from training import teacher_inputs
    seen = set()
    for p in json.load(open(FIXTURE))["positions"]:
        board, played, previous = replay(p["moves"])
        spatial, _ = teacher_inputs.planes(board, played, previous, p["komi"])
        for name, plane in (("ladder14", 14), ("ladder17", 17), ("ko", 6)):
            if spatial[plane].any():
                seen.add(name)
        if (spatial[18] + spatial[19]).sum() > (spatial[1] + spatial[2]).sum():
            seen.add("area")
    assert seen == {"ladder14", "ladder17", "ko", "area"}


def test_a_damaged_teacher_file_is_one_clear_error(tmp_path):
    from training import teacher_net
    bad = tmp_path / "bad.bin.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(teacher_net.TeacherFileError, match="not a readable gzip"):
        teacher_net.load(str(bad))
    old = tmp_path / "old.bin.gz"
    with gzip.open(old, "wb") as f:
        f.write(b"somenet\n99\n22\n19\n")
    with pytest.raises(teacher_net.TeacherFileError, match="model version 99"):
        teacher_net.load(str(old))


@needs_katrain
def test_a_truncated_teacher_file_is_one_clear_error(tmp_path):
    from training import teacher_net
    with gzip.open(teacher_net.default_path(), "rb") as f:
        data = f.read()
    cut = tmp_path / "cut.bin.gz"
    with gzip.open(cut, "wb") as f:
        f.write(data[: len(data) // 2])
    with pytest.raises(teacher_net.TeacherFileError, match="cut.bin.gz: .*ends"):
        teacher_net.load(str(cut))


def _board(rows):
    """A board from rows written top (row 19) first: X black, O white."""
    board = Board(19, 7.5, superko=False)
    black, white = [], []
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            move = (18 - i) * 19 + col
            (black if ch == "X" else white if ch == "O" else []).append(move)
    board.setup_stones(black=black, white=white)
    return board


def test_area_marks_a_pass_alive_corner_and_the_eye_of_a_one_eyed_group():
    from training import teacher_inputs
    # Black's corner group has two eyes (B19, D19): pass-alive, its eyes its own.
    # White's group at the top right has one eye (Q19): not pass-alive, but its eye is an
    # empty region bordered by White alone, which KataGo's area input counts as White's.
    board = _board(["X.X.X.........OO.OO",
                    "XXXXX.........OOOOO"])
    owner = teacher_inputs.area(board.stones().reshape(-1))
    top = 18 * 19
    assert owner[top + 1] == owner[top + 3] == BLACK
    assert owner[top + 16] == WHITE and owner[top + 18] == WHITE
    assert owner[9 * 19 + 9] == EMPTY                      # the open board touches both colours
    # A white stone in the eye of a pass-alive group is dead: the stone's point is Black's.
    board = _board(["XO.X.X",
                    "XXXXXX"])
    owner = teacher_inputs.area(board.stones().reshape(-1))
    assert board.color_at(top + 1) == WHITE
    assert owner[top + 1] == owner[top + 2] == owner[top + 4] == BLACK


def test_labels_keep_black_s_view_and_refuse_other_games(tmp_path):
    from training import teacher_labels
    policy = np.zeros((2, 362), np.float32)
    policy[0, 0], policy[0, 361] = 0.75, 0.25      # top-left point (A19) and pass
    policy[1, 20] = 1.0
    answers = SimpleNamespace(policy=policy, win=np.array([0.8, 0.8], np.float32),
                              no_result=np.zeros(2, np.float32), lead=np.array([3.0, 3.0], np.float32),
                              score_mean=np.array([4.0, 4.0], np.float32),
                              ownership=np.ones((2, 19, 19), np.float32))
    records = teacher_labels.to_records(answers, [BLACK, WHITE], [7, 7], [10, 11], [6.5, 7.5])
    assert records["black_win"].astype(float).tolist() == pytest.approx([0.8, 0.2], abs=1e-3)
    assert records["black_lead"].astype(float).tolist() == [3.0, -3.0]
    assert records["ownership"][0, 18, 0] == 127 and records["ownership"][1, 0, 0] == -127
    assert records["policy_moves"][0, :2].tolist() == [18 * 19, -1]        # A19, then pass
    assert records["policy_moves"][0, 2] == teacher_labels.NO_MOVE
    path = str(tmp_path / "labels-00000.npz")
    teacher_labels.write_shard(path, records, "abc", "net")
    assert teacher_labels.read_labels(str(tmp_path), "abc")["move"].tolist() == [10, 11]
    with pytest.raises(teacher_labels.TeacherLabelError, match="other games"):
        teacher_labels.read_labels(str(tmp_path), "def")
    teacher_labels.Progress(str(tmp_path), "abc", {"every": 4}).advance(3, 2)
    with pytest.raises(teacher_labels.TeacherLabelError, match="other games or settings"):
        teacher_labels.Progress(str(tmp_path), "abc", {"every": 2})


def test_the_labeller_takes_every_nth_position_and_the_final_board():
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
    from label_teacher import game_positions
    from goengine.game.sgffile import Game
    moves = [(BLACK if i % 2 == 0 else WHITE, m) for i, m in enumerate([72, 288, 60, 300, 180, 190, 200])]
    game = Game(size=19, komi=6.5, moves=moves)
    taken = list(game_positions(game, 0, 3, True, 1))
    numbers = [n for _, _, _, n in taken]
    assert numbers[-1] == len(moves) and all(b.to_move == (BLACK if n % 2 == 0 else WHITE)
                                             for b, _, _, n in taken)
    assert len({n % 3 for n in numbers[:-1]}) == 1
    board, recent, previous, n = taken[-1]
    assert recent == moves[-5:] and len(previous) == 2
    assert previous[0].color_at(200) == EMPTY and board.color_at(200) == BLACK


def test_the_student_learns_at_the_labelled_positions_with_the_teachers_targets():
    """TeacherExamples: the labelled positions of a game, the teacher's ownership, lead,
    move distribution and value in the target (under the position's symmetry), and the
    HeadsTask loss that mixes them with the human move and the outcome."""
    import torch
    from goengine.game.sgffile import Game
    from goengine.nn import features
    from goengine.nn.komi import SCORE_KOMI
    from training import sampler, teacher_labels
    from training.dataset import GameStore
    from training.tasks import HeadsTask, Tally
    moves = [(BLACK if i % 2 == 0 else WHITE, m) for i, m in enumerate([72, 288, 60, 300, 180, 190])]
    store = GameStore.from_games([Game(size=19, komi=6.5, moves=moves, winner=WHITE, result="W+R")])
    policy = np.zeros((2, 362), np.float32)
    policy[0, teacher_labels.TO_TEACHER[61]], policy[0, 361] = 0.6, 0.4       # B's move 2: 61 or pass
    policy[1, teacher_labels.TO_TEACHER[301]] = 1.0
    answers = SimpleNamespace(policy=policy, win=np.array([0.7, 0.4], np.float32),
                              no_result=np.zeros(2, np.float32), lead=np.array([2.0, -1.0], np.float32),
                              score_mean=np.zeros(2, np.float32),
                              ownership=np.full((2, 19, 19), 0.5, np.float32))
    labels = teacher_labels.to_records(answers, [BLACK, WHITE], [0, 0], [2, 3], [6.5, 7.5])
    maker = sampler.TeacherExamples(labels)
    game = store[0]
    assert maker.eligible(game) == [2, 3]
    planes, targets = sampler.sample_examples(maker, [game], 2, np.random.default_rng(0),
                                              symmetries=False)
    black, white = targets                     # move 2 is Black's, move 3 White's
    assert black[sampler.HEADS_MOVE] == 60 and black[sampler.HEADS_OUTCOME] == -1.0
    assert black[sampler.TEACHER_POLICY + 61] == pytest.approx(0.6, abs=1e-3)
    assert black[sampler.TEACHER_POLICY + 361] == pytest.approx(0.4, abs=1e-3)
    assert black[sampler.TEACHER_VALUE] == pytest.approx(0.4, abs=2e-3)      # 2 x 0.7 - 1
    assert black[sampler.HEADS_MARGIN] == pytest.approx(2.0 + 6.5 - SCORE_KOMI, abs=0.01)
    assert black[sampler.HEADS_OWNERSHIP] == pytest.approx(0.5, abs=0.01)    # the mover's
    assert white[sampler.HEADS_OWNERSHIP] == pytest.approx(0.5, abs=0.01)
    assert np.isnan(white[sampler.TEACHER_VALUE])                            # told komi 7.5
    assert white[sampler.HEADS_MARGIN] == pytest.approx(-(1.0 + 7.5 - SCORE_KOMI), abs=0.01)
    # under a symmetry the teacher's moves turn with the board
    _, turned = sampler.sample_examples(maker, [game], 1, np.random.default_rng(3))
    move = int(turned[0, sampler.HEADS_MOVE])
    sym = [s for s in range(8) if features.symmetric_move(60, s, 19) == move
           or features.symmetric_move(300, s, 19) == move]
    assert sym and turned[0, sampler.TEACHER_POLICY:sampler.TEACHER_POLICY + 361].sum() > 0.5
    task = HeadsTask(teacher_labels="unused", log=lambda *a: None)
    output = (torch.zeros(2, 361), torch.zeros(2), torch.zeros(2, 361),
              torch.zeros(2, 2 * 361 + 1))
    loss, sums = task.loss(output, torch.from_numpy(targets))
    assert torch.isfinite(loss)
    means = Tally(task.metrics)
    means.add(sums, 2)
    assert means.means()["teacher_mse"] == pytest.approx(0.16, abs=0.01)   # one row has a value
    assert means.means()["teacher_policy_loss"] == pytest.approx(np.log(361), abs=1e-3)


def test_a_new_labels_folder_may_start_further_along_the_order(tmp_path):
    from training import teacher_labels
    progress = teacher_labels.Progress(str(tmp_path), "abc", {"every": 4}, first_game=500)
    assert progress["games_done"] == 500
    progress.advance(520, 100)
    again = teacher_labels.Progress(str(tmp_path), "abc", {"every": 4}, first_game=0)
    assert again["games_done"] == 520 and again["positions"] == 100


def test_after_a_pass_the_history_is_hidden_as_katago_hides_it_under_chinese_rules():
    """A friendly pass under Chinese rules: KataGo shows the network no history (checked
    against kata-raw-nn on three positions; docs/results, 2026-12-07), nor do we; under
    territory scoring such a position is refused."""
    from goengine import PASS
    from training import teacher_inputs
    board, played, previous = replay([(BLACK, "Q16"), (WHITE, "D4"), (BLACK, "Q4")])
    board.play(PASS, WHITE)
    played = played + [(WHITE, PASS)]
    spatial, glob = teacher_inputs.planes(board, played, previous, 7.5)
    assert not spatial[9:14].any() and not glob[:5].any()
    hidden, _ = teacher_inputs.planes(board, [], [], 7.5)
    assert (spatial == hidden).all()
    with pytest.raises(ValueError, match="territory scoring"):
        teacher_inputs.planes(board, played, previous, 6.5, "japanese")

