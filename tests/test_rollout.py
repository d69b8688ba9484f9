"""Rollout and tree policies: pattern keys, incremental updates, rollouts,
the weights file, running without the GIL, priors."""

import os
import random
import struct
import threading
import time
import zlib

import numpy as np
import pytest

from goengine import BLACK, PASS, WHITE, Board
from goengine.rollout._rollout import FEATURE_NAMES
from goengine.rollout._patterns import (NO_PATTERN, PatternKeys, canonical, flip_colors, forbidden,
                                move_keys, symmetries)
from goengine.nn.features import symmetric_move
from goengine.rollout._rollout import RolloutPolicy
from goengine.rollout.rollout_weights import (DEFAULT_PATH, MAGIC, RolloutLoadError, load, save,
                                      read_weights, write_weights)
from goengine.game.sgffile import iter_positions, read_games

from tests.conftest import SAMPLE_MONTH


@pytest.fixture(scope="module")
def games():
    if not SAMPLE_MONTH.exists():
        pytest.skip(f"game records not found at {SAMPLE_MONTH}")
    return [g for g in read_games(str(SAMPLE_MONTH), limit=12) if g.size == 19]


@pytest.fixture(scope="module")
def policy():
    """The shipped weights (the uniform policy if they are not there yet)."""
    try:
        return load(DEFAULT_PATH)
    except RolloutLoadError:
        return RolloutPolicy.uniform()


def random_policy(seed=0):
    """Random weights over patterns from one real-looking game, so every
    feature path (known and unknown patterns) is used."""
    rng = np.random.default_rng(seed)
    board = Board(9)
    keys3, keys12, keysr = set(), set(), set()
    for move in (40, 30, 31, 22, 49, 39, 41, 32, 50):
        for m in board.legal_moves():
            k3, k12, kr = move_keys(board, m)
            keys3.add(k3)
            keys12.add(k12)
            if kr != NO_PATTERN:
                keysr.add(kr)
        board.play(move)
    arrays = [np.unique(canonical(kind, np.array(sorted(keys), dtype=np.uint64)))
              for kind, keys in (("3x3", keys3), ("response", keysr), ("diamond", keys12))]
    n = RolloutPolicy.uniform().num_features + sum(len(a) for a in arrays)
    return RolloutPolicy.from_arrays(*arrays, rng.normal(0, 1, n), rng.normal(0, 1, n))


def position_after(game, number):
    for board, _, _ in iter_positions(game):
        if board.move_number == number:
            return board
    raise AssertionError("game too short")


def random_play(size, seed, moves):
    rng = random.Random(seed)
    board = Board(size, superko=False)
    for _ in range(moves):
        legal = board.legal_moves()
        board.play(rng.choice(legal) if legal else PASS)
    return board


# -- pattern keys --------------------------------------------------------------

def test_symmetries_form_one_canonical_class():
    board = random_play(9, 1, 30)
    for move in board.legal_moves():
        for kind, key in zip(("3x3", "diamond", "response"), move_keys(board, move)):
            if key == NO_PATTERN:
                continue
            images = symmetries(kind, key)
            assert images[0] == key
            assert len(set(canonical(kind, np.array(images, dtype=np.uint64)))) == 1


@pytest.mark.parametrize("k", range(8))
def test_pattern_keys_invariant_under_board_symmetry(games, k):
    game = games[0]
    size = game.size
    board = position_after(game, 80)
    turned = Board(size, superko=False)
    for color, move in board.history:
        turned.play(symmetric_move(move, k, size), color)
    assert turned.to_move == board.to_move
    checked = 0
    for move in board.legal_moves():
        for kind, key, key_k in zip(("3x3", "diamond", "response"), move_keys(board, move),
                                    move_keys(turned, symmetric_move(move, k, size))):
            assert (key == NO_PATTERN) == (key_k == NO_PATTERN)
            if key != NO_PATTERN:
                a, b = canonical(kind, np.array([key, key_k], dtype=np.uint64))
                assert a == b, (kind, move)
                checked += 1
    assert checked > 2 * len(board.legal_moves())


def test_keys_are_seen_by_the_player_to_move():
    board = random_play(9, 2, 25)
    for move in board.legal_moves():
        k3_black, k12_black, _ = move_keys(board, move, BLACK)
        k3_white, k12_white, _ = move_keys(board, move, WHITE)
        assert flip_colors(k3_black) == k3_white
    # a colour-swapped position gives the other player's keys
    swapped = Board(9)
    swapped.setup_stones(black=[m for m in range(81) if board.color_at(m) == WHITE],
                         white=[m for m in range(81) if board.color_at(m) == BLACK])
    for move in board.legal_moves():
        assert move_keys(board, move, BLACK)[:2] == move_keys(swapped, move, WHITE)[:2]


@pytest.mark.parametrize("size,seed", [(5, 0), (7, 1), (9, 2), (13, 3), (19, 4)])
def test_incremental_keys_match_scratch(size, seed):
    rng = random.Random(seed)
    keys = PatternKeys(Board(size))
    captures = 0
    for _ in range(3 * size * size):
        legal = keys.legal_moves()
        move = rng.choice(legal) if legal and rng.random() > 0.02 else PASS
        captures += keys.play(move)
        assert np.array_equal(keys.keys3(), keys.scratch_keys3())
    assert captures > 0


def test_incremental_keys_follow_a_real_game(games):
    game = games[1]
    keys = PatternKeys(Board(game.size))
    for board, color, move in iter_positions(game):
        assert keys.to_move == color
        assert np.array_equal(keys.keys3(), keys.scratch_keys3())
        keys.play(move)


def test_forbidden_is_suicide_or_own_true_eye():
    for seed in range(6):
        board = random_play(7, seed, 60)
        keys = PatternKeys(board)
        k3 = keys.keys3()
        for move in range(49):
            if board.color_at(move) != 0:
                continue
            for color in (BLACK, WHITE):
                key = int(k3[move]) if color == BLACK else flip_colors(int(k3[move]))
                suicide = not board.is_legal(move, color) and move != board.ko
                expected = suicide or board.is_eye(move, color)
                if move == board.ko:
                    continue
                assert forbidden(key) == expected, (seed, move, color)


# -- rollouts ------------------------------------------------------------------

def replay_rollout(board, moves):
    """Replay a rollout's moves on a copy (Board.play checks every one) and
    check it only passed when nothing was left but its own eyes and extensions of
    chains the ladder still captures, and never ran out a dead ladder."""
    board = board.copy()
    board.superko = False                   # rollouts use simple ko
    for move in moves:
        if move == PASS:
            color = board.to_move
            assert all(board.is_eye(m, color) or board.extends_dead_ladder(m, color)
                       for m in board.legal_moves())
        else:
            assert not board.extends_dead_ladder(move, board.to_move)
        board.play(move)
    return board


@pytest.mark.parametrize("which", ["shipped", "random", "uniform"])
def test_rollouts_are_legal_games_scored_by_area(games, policy, which):
    model = {"shipped": policy, "random": random_policy(),
             "uniform": RolloutPolicy.uniform()}[which]
    starts = [Board(9, komi=7.5), Board(19), position_after(games[2], 150)]
    for i, start in enumerate(starts):
        for seed in range(3):
            result, moves = model.rollout_moves(start, seed=seed + 10 * i)
            final = replay_rollout(start, moves)
            assert final.is_game_over() or len(moves) >= 2 * start.size ** 2
            black_wins = final.area_score() > 0
            assert result == (1 if black_wins == (start.to_move == BLACK) else -1)


def test_rollout_is_reproducible_and_leaves_the_board_alone(policy):
    board = Board(19)
    board.play(72)
    before = board.stones().copy()
    assert policy.rollout_moves(board, seed=5) == policy.rollout_moves(board, seed=5)
    assert policy.rollout(board, seed=5) == policy.rollout_moves(board, seed=5)[0]
    assert np.array_equal(board.stones(), before)
    assert 0 <= policy.rollouts(board, 10, seed=1) <= 10


@pytest.mark.parametrize("which", ["shipped", "random"])
def test_sampler_weights_match_priors_from_scratch(games, policy, which):
    """The weights a rollout keeps incrementally, after captures and all,
    are the rollout policy recomputed from scratch on the same position."""
    model = policy if which == "shipped" else random_policy(8)
    for start in (Board(9), Board(19), position_after(games[4], 120)):
        for moves in (0, 1, 7, 60, 150):
            weights, played = model._sampler_weights(start, moves, seed=moves)
            board = start.copy()
            board.superko = False
            for move in played:
                board.play(move)
            expected = model.rollout_priors(board)
            assert np.allclose(weights, expected, rtol=1e-4, atol=1e-7), (moves, which)


def test_two_threads_roll_out_without_the_gil(policy):
    board = Board(19)
    spans, counts = [], []

    def worker(seed):
        t0 = time.perf_counter()
        counts.append((seed, policy.rollouts(board, 30, seed=seed)))
        spans.append((t0, time.perf_counter()))

    threads = [threading.Thread(target=worker, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    ticks = []
    while any(t.is_alive() for t in threads):
        ticks.append(time.perf_counter())     # pure Python: needs the GIL
    for t in threads:
        t.join()
    assert len(spans) == 2
    start = max(a for a, _ in spans)
    end = min(b for _, b in spans)
    # Both threads were inside their C call at once, and Python kept running meanwhile.
    assert end > start
    inside = [t for t in ticks if start < t < end]
    assert len(inside) > 20
    # and sharing the model changed nothing: the same seeds, one at a time
    assert sorted(counts) == [(s, policy.rollouts(board, 30, seed=s)) for s in (1, 2)]


# -- weights file --------------------------------------------------------------

def test_weights_roundtrip(tmp_path, games):
    model = random_policy(3)
    path = tmp_path / "rollout.weights"
    save(model, path)
    loaded = load(path)
    for name, array in model.arrays.items():
        assert np.array_equal(loaded.arrays[name], array), name
    board = position_after(games[0], 60)
    assert np.array_equal(loaded.tree_priors(board), model.tree_priors(board))
    assert np.array_equal(loaded.rollout_priors(board), model.rollout_priors(board))
    assert loaded.rollout_moves(board, 3) == model.rollout_moves(board, 3)


def corrupt(path, data):
    path.write_bytes(data)
    return path


def test_weights_load_errors(tmp_path):
    good = tmp_path / "good.weights"
    save(random_policy(4), good)
    data = good.read_bytes()

    def rehash(body):
        return body + struct.pack("<I", zlib.crc32(body))

    header = len(MAGIC)
    cases = {
        "missing": None,
        "empty": b"",
        "bad magic": b"NOTROLL\0\0\0" + data[len(MAGIC):],
        "truncated": data[:len(data) // 2],
        "checksum": data[:-20] + bytes([data[-20] ^ 1]) + data[-19:],
        "version": rehash(data[:header] + struct.pack("<I", 99) + data[header + 4:-4]),
        "layout": rehash(data[:header + 4] + struct.pack("<I", 7) + data[header + 8:-4]),
    }
    messages = {"missing": "cannot read", "empty": "bad magic", "bad magic": "bad magic",
                "truncated": "truncated", "checksum": "checksum", "version": "version 99",
                "layout": "fixed features"}
    for name, content in cases.items():
        path = tmp_path / f"{name.replace(' ', '_')}.weights"
        if content is not None:
            corrupt(path, content)
        with pytest.raises(RolloutLoadError, match=messages[name]):
            load(path)
    with pytest.raises(RolloutLoadError):
        read_weights(tmp_path / "nowhere" / "x.weights")


def test_write_weights_checks_shapes(tmp_path):
    with pytest.raises(ValueError):
        write_weights(tmp_path / "x", [], [], [], np.zeros(3), np.zeros(3))


def test_shipped_weights_load():
    if not os.path.exists(DEFAULT_PATH):
        pytest.skip("no shipped weights yet")
    policy = load(DEFAULT_PATH)
    assert len(policy.arrays["pat3_keys"]) > 100
    assert len(policy.arrays["response_keys"]) > 100
    assert os.path.getsize(DEFAULT_PATH) < 5_000_000


# -- priors --------------------------------------------------------------------

def prior_positions(games):
    yield Board(19)
    yield Board(9)
    yield random_play(9, 7, 70)
    yield random_play(13, 8, 150)
    for number in (1, 30, 120, 200):
        yield position_after(games[3], number)


def test_tree_priors_cover_exactly_the_legal_moves(games, policy):
    for model in (policy, random_policy(5)):
        for board in prior_positions(games):
            board.superko = False
            priors = model.tree_priors(board)
            legal = np.zeros(board.size ** 2, dtype=bool)
            legal[board.legal_moves()] = True
            assert priors.dtype == np.float32 and priors.shape == (board.size ** 2,)
            assert priors.sum() == pytest.approx(1.0, abs=1e-5)
            assert np.all(priors[~legal] == 0)
            assert np.all(priors[legal] > 0)


def test_rollout_priors_skip_own_eyes(games, policy):
    for model in (policy, random_policy(6)):
        for board in prior_positions(games):
            board.superko = False
            priors = model.rollout_priors(board)
            color = board.to_move
            playable = [m for m in board.legal_moves() if not board.is_eye(m, color)]
            mask = np.zeros(board.size ** 2, dtype=bool)
            mask[playable] = True
            assert np.all(priors[~mask] == 0)
            assert np.all(priors[mask] > 0)
            assert priors.sum() == pytest.approx(1.0 if playable else 0.0, abs=1e-5)


# First-line eye spaces closed by black's last move at B2 (row 1, col 1):
# (black stones besides B2, expected nakade feature).
EYE_SPACES = {
    "straight three": ([9, 11, 3], {"nakade 3 edge"}),
    "straight four": ([9, 11, 12, 4], set()),
    "five": ([9, 12, 20, 4], {"nakade 5 edge"}),                  # A1-D1 + C2: C1 is vital
    "seven": ([9, 12, 13, 14, 20, 6], set()),                     # A1-F1 + C2: too big
}


@pytest.mark.parametrize("shape", EYE_SPACES)
def test_nakade_only_for_small_eye_spaces(shape):
    """Only eye spaces of 3-6 points with one vital point count; a 7-point
    space once overflowed into the tree policy's distance features."""
    black, expected = EYE_SPACES[shape]
    board = Board(9)
    board.setup_stones(black=black)
    board.play(10)                          # B2 closes the wall
    model = random_policy(9)
    for tree in (False, True):
        _, feats = model.candidate_features(board, tree=tree)
        names = {FEATURE_NAMES[f] for f in feats.ravel() if f in FEATURE_NAMES}
        assert {n for n in names if n.startswith("nakade")} == expected
        if not tree:
            assert not {n for n in names if n.startswith(("distance", "self", "unknown 12"))}


def test_candidate_features_list_every_legal_move(games):
    model = random_policy(7)
    board = position_after(games[0], 100)
    board.superko = False
    moves, feats = model.candidate_features(board, tree=True)
    assert sorted(moves.tolist()) == board.legal_moves()
    assert feats.shape[1] >= 4
    assert np.all(feats[:, 0] >= 0) and np.all(feats < model.num_features)


def test_ownership_from_rollouts_sees_a_dead_stone(policy):
    # A wall down column E: A-E black, F-J white; the black stone at H5 is
    # dead. Scoring asks after both passed, so the rollouts must play on.
    # The areas are big and eyeless, so invasions live in some playouts;
    # rollouts that answer ataris as players do are surer than light ones.
    board = Board(9)
    for row in range(9):
        board.play(row * 9 + 4, BLACK)
        board.play(row * 9 + 5, WHITE)
    board.play(4 * 9 + 7, BLACK)
    board.play(PASS, WHITE)
    board.play(PASS, BLACK)
    own = policy.ownership(board, 400, seed=3)
    assert own.shape == (9, 9) and np.all(np.abs(own) <= 1)
    assert own[4, 7] < -0.3                      # H5 ends up White's
    assert np.all(own[:, :5] > 0) and np.all(own[:, 5:] < 0)
    assert np.array_equal(own, policy.ownership(board, 400, seed=3))   # seeded
    if policy.weights().any():                   # trained weights, not uniform()
        light = RolloutPolicy.light().ownership(board, 400, seed=3)
        assert own[4, 7] < light[4, 7]
