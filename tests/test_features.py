"""Feature planes against an independent reference built on sgfmill's board:
for every empty point the reference plays the move on a copy and counts
captures and liberties by flood fill."""

import random

import numpy as np
import pytest
from sgfmill import boards

from goengine import BLACK, PASS, WHITE, Board
from goengine.nn import features as F
from tests.sgfmill_replay import COLOR, setup_lists

NAMES = {BLACK: "b", WHITE: "w"}


def chain_and_liberties(ref, row, col):
    """Stones and liberties of the chain at (row, col) on an sgfmill board."""
    colour = ref.get(row, col)
    size = ref.side
    stones, libs, todo = {(row, col)}, set(), [(row, col)]
    while todo:
        r, c = todo.pop()
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < size and 0 <= cc < size:
                here = ref.get(rr, cc)
                if here is None:
                    libs.add((rr, cc))
                elif here == colour and (rr, cc) not in stones:
                    stones.add((rr, cc))
                    todo.append((rr, cc))
    return stones, libs


def reference_move_facts(ref, row, col, colour):
    """(legal, captured, liberties after, chain size) by playing on a copy."""
    trial = ref.copy()
    before = sum(1 for _ in trial.list_occupied_points())
    try:
        trial.play(row, col, colour)
    except ValueError:
        return False, 0, 0, 0
    if trial.get(row, col) is None:      # sgfmill allows suicide; we don't
        return False, 0, 0, 0
    after = sum(1 for _ in trial.list_occupied_points())
    stones, libs = chain_and_liberties(trial, row, col)
    return True, before + 1 - after, len(libs), len(stones)


def positions(sample_games, count, seed=7):
    """(our board, sgfmill board, last-move numbers) at random points of real games."""
    rng = random.Random(seed)
    chosen = []
    for size, setup, moves in sample_games[:count]:
        stop = rng.randrange(20, max(21, len(moves)))
        board = Board(size, superko=False)
        board.setup_stones(*setup_lists(setup, size))
        ref = boards.Board(size)
        for colour, (row, col) in setup.list_occupied_points():
            ref.play(row, col, colour)
        for colour, move in moves[:stop]:
            if move is None:
                board.play(PASS, COLOR[colour])
            else:
                ref.play(move[0], move[1], colour)
                board.play(move[0] * size + move[1], COLOR[colour])
        chosen.append((board, ref))
    return chosen


def test_planes_match_reference(sample_games):
    for board, ref in positions(sample_games, 25):
        size = board.size
        me = board.to_move
        planes = F.policy_planes(board)
        assert planes.shape == (48, size, size) and planes.dtype == np.uint8
        for row in range(size):
            for col in range(size):
                here = ref.get(row, col)
                cell = planes[:, row, col]
                assert cell[F.ONES] == 1 and cell[F.ZEROS] == 0
                if here is not None:
                    own = here == NAMES[me]
                    assert (cell[F.STONE_OWN], cell[F.STONE_OPPONENT], cell[F.STONE_EMPTY]) == \
                        ((1, 0, 0) if own else (0, 1, 0))
                    _, libs = chain_and_liberties(ref, row, col)
                    expected = np.zeros(8, np.uint8)
                    expected[min(len(libs), 8) - 1] = 1
                    assert (cell[F.LIBERTIES:F.LIBERTIES + 8] == expected).all()
                    assert cell[F.TURNS_SINCE:F.TURNS_SINCE + 8].sum() == 1
                    assert cell[F.CAPTURE_SIZE:F.SENSIBLENESS + 1].sum() == 0
                    continue
                assert cell[F.STONE_EMPTY] == 1 and cell[F.LIBERTIES:F.LIBERTIES + 8].sum() == 0
                legal, captured, libs, chain = reference_move_facts(ref, row, col, NAMES[me])
                if not legal or (row * size + col) == board.ko:
                    assert cell[F.CAPTURE_SIZE:F.ZEROS].sum() == 0
                    continue
                capture = np.zeros(8, np.uint8)
                capture[min(captured, 7)] = 1
                assert (cell[F.CAPTURE_SIZE:F.CAPTURE_SIZE + 8] == capture).all()
                after = np.zeros(8, np.uint8)
                after[min(libs, 8) - 1] = 1
                assert (cell[F.LIBERTIES_AFTER:F.LIBERTIES_AFTER + 8] == after).all()
                atari = np.zeros(8, np.uint8)
                if libs == 1:
                    atari[min(chain, 8) - 1] = 1
                assert (cell[F.SELF_ATARI_SIZE:F.SELF_ATARI_SIZE + 8] == atari).all()


def test_turns_since_counts_back_from_last_move():
    board = Board(9)
    for move in (0, 10, 20, 30, 40, 50, 60, 70, 80, 8):
        board.play(move)
    planes = F.policy_planes(board)
    turns = planes[F.TURNS_SINCE:F.TURNS_SINCE + 8]
    assert turns[0].reshape(-1)[8] == 1          # the last move: 1 turn ago
    assert turns[1].reshape(-1)[80] == 1
    assert turns[7].reshape(-1)[0] == 1          # 10 moves ago: the ">= 8" plane
    assert turns[7].reshape(-1)[10] == 1          # 9 moves ago
    assert turns[7].reshape(-1)[20] == 1          # 8 moves ago
    assert turns[6].reshape(-1)[30] == 1          # 7 moves ago
    assert turns.sum() == 10


def test_colour_planes_follow_player_to_move():
    board = Board(9)
    board.play(40)                     # black E5, white to move
    planes = F.policy_planes(board)
    assert planes[F.STONE_OPPONENT].reshape(-1)[40] == 1
    value = F.value_planes(board)
    assert value.shape == (49, 9, 9) and value[F.PLAYER_COLOR].sum() == 0
    board.play(0)
    assert F.value_planes(board)[F.PLAYER_COLOR].sum() == 81


def test_sensibleness_excludes_own_true_eyes_only():
    board = Board(9)
    # Black wall around a corner eye at A1 (0); white stones elsewhere.
    board.setup_stones(black=[1, 9, 10], white=[40])
    board.to_move = BLACK
    planes = F.policy_planes(board)
    assert planes[F.SENSIBLENESS].reshape(-1)[0] == 0    # own eye
    assert planes[F.SENSIBLENESS].reshape(-1)[2] == 1
    board.to_move = WHITE
    planes = F.policy_planes(board)
    # For white A1 is a suicide point: illegal, so not sensible.
    assert planes[F.SENSIBLENESS].reshape(-1)[0] == 0
    assert planes[F.LIBERTIES_AFTER:F.LIBERTIES_AFTER + 8, 0, 0].sum() == 0


def test_symmetries_are_a_group_and_moves_follow_planes():
    board = Board(19)
    for move in (72, 288, 60, 300):
        board.play(move)
    planes = F.policy_planes(board)
    seen = set()
    for k in range(8):
        turned = F.apply_symmetry(planes, k)
        assert np.array_equal(F.invert_symmetry(turned, k), planes)
        seen.add(turned.tobytes())
        for move in (0, 72, 360, 200):
            grid = np.zeros((19, 19)); grid.reshape(-1)[move] = 1
            assert F.apply_symmetry(grid, k).reshape(-1)[F.symmetric_move(move, k, 19)] == 1
    assert len(seen) == 8
    assert F.symmetric_move(PASS, 3, 19) == PASS


def test_batch_matches_single():
    boards_ = [Board(19), Board(19)]
    boards_[1].play(72)
    batch = F.policy_planes_batch(boards_)
    assert batch.shape == (2, 48, 19, 19)
    assert np.array_equal(batch[1], F.policy_planes(boards_[1]))
    with pytest.raises(ValueError):
        F.policy_planes_batch([])
