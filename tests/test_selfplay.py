"""Self-play value data (training/selfplay.py, training/value_shards.py) at toy scale:
9x9 games and a tiny random policy network for the generator, 19x19 rollout shards for
the trainer. The labels are checked against sgfmill's count of the played-out board."""

import csv
import os
import random
import signal
import subprocess
import sys

import numpy as np
import pytest
import torch
from sgfmill import boards as sgfmill_boards

from goengine import BLACK, WHITE, Board, PASS
from goengine.nn import features, inference, nets
from goengine.programs.loading import load_rollout
from goengine.game.sgffile import Game
from training import selfplay, value_shards
from training.dataset import GameStore

from tests.test_training_tools import (  # noqa: F401
    REPO, data, quick_measurement, run_trainer, train_args)


def random_games(size, count, seed=3, moves=30):
    """Random sensible games on a size x size board, as a GameStore."""
    rng, games = random.Random(seed), []
    for _ in range(count):
        board, played = Board(size, 7.5), []
        for _ in range(rng.randrange(moves)):
            color = board.to_move
            options = [m for m in board.legal_moves() if not board.is_eye(m, color)]
            move = rng.choice(options)
            board.play(move)
            played.append((color, move))
        games.append(Game(size=size, komi=7.5, moves=played, winner=BLACK, result="B+R"))
    return GameStore.from_games(games)


@pytest.fixture(scope="module")
def store9():
    return random_games(9, 12)


@pytest.fixture(scope="module")
def rollout():
    return load_rollout()


def sgfmill_area_score(board, komi):
    """Black's area minus White's minus komi, counted by sgfmill from our stones."""
    other = sgfmill_boards.Board(board.size)
    stones = board.stones()
    for row in range(board.size):
        for col in range(board.size):
            if stones[row, col]:
                other.play(row, col, "b" if stones[row, col] == BLACK else "w")
    return other.area_score() - komi


def test_one_record_a_game_labelled_by_the_scorer(store9, rollout):
    starts = selfplay.StartPositions(store9, komi=7.5, size=9)
    records, evaluated = selfplay.make_records(starts, selfplay.RolloutContinuation(rollout), 40,
                                               np.random.default_rng(1))
    assert evaluated == 0
    assert all(len(records[key]) == 40 for key in value_shards.ARRAYS)
    # ownership agrees with the score, and the outcome with both, for the side to move
    own_total = records["ownership"].reshape(40, -1).sum(axis=1)
    assert np.array_equal(own_total - 7.5, records["score"])
    black_won = records["score"] > 0
    assert np.array_equal(records["outcome"] > 0, black_won == (records["to_move"] == BLACK))
    assert set(np.unique(records["outcome"])) <= {-1.0, 1.0} and len(set(black_won)) == 2
    planes = np.unpackbits(records["planes"], axis=1, count=49 * 81).reshape(40, 49, 9, 9)
    to_move_black = planes[:, features.PLAYER_COLOR].reshape(40, -1).all(axis=1)
    assert np.array_equal(to_move_black, records["to_move"] == BLACK)


def test_the_label_is_the_played_out_game_as_sgfmill_counts_it(store9, rollout):
    """play_out's result against the same rollout replayed move by move and counted by sgfmill."""
    starts = selfplay.StartPositions(store9, komi=7.5, size=9)
    rng = np.random.default_rng(2)
    for seed in range(8):
        board, _ = starts.draw(rng)
        owner, score = rollout.play_out(board, seed)
        _, moves = rollout.rollout_moves(board, seed)
        final = board.copy()
        for move in moves:
            final.play(move)
        assert final.passes >= 2 or len(moves) >= 2 * 81 + 100
        assert score == sgfmill_area_score(final, 7.5)
        assert int(owner.sum()) == score + 7.5


def test_start_positions_need_games_of_their_size(store9):
    with pytest.raises(ValueError, match="no 19x19 games"):
        selfplay.StartPositions(store9, size=19)


def test_start_position_is_move_u_of_a_game_then_one_random_move(store9):
    starts = selfplay.StartPositions(store9, komi=6.5, size=9)
    board, start = starts.draw(np.random.default_rng(4))
    assert board.komi == 6.5
    moves = [board_move for _, board_move in board.history]
    for game_index in range(len(store9)):
        game = store9[game_index]
        if [m for _, m in game.moves[:start]] == moves[:start]:
            break
    else:
        pytest.fail("the start position is no prefix of a stored game")
    assert len(moves) == start + 1 and moves[-1] != PASS


def tiny_policy(size):
    torch.manual_seed(0)
    return inference.NetworkEvaluator(nets.PolicyNet(48, 8, 2, size), use_bf16=False, threads=1)


@pytest.mark.parametrize("net_moves", [0, 5])
def test_policy_continuation_plays_every_game_to_its_end(store9, rollout, net_moves):
    starts = selfplay.StartPositions(store9, komi=7.5, size=9)
    continuation = selfplay.PolicyContinuation(tiny_policy(9), rollout, temperature=1.0,
                                               net_moves=net_moves)
    records, evaluated = selfplay.make_records(starts, continuation, 6, np.random.default_rng(5))
    assert evaluated >= 6 and (net_moves == 0 or evaluated <= 6 * net_moves)
    own_total = records["ownership"].reshape(6, -1).sum(axis=1)
    assert np.array_equal(own_total - 7.5, records["score"])
    boards = [starts.draw(np.random.default_rng(seed))[0] for seed in range(4)]
    played, _ = continuation.play(boards, np.random.default_rng(7))
    for before, after in zip(boards, played):
        if net_moves:
            assert after.move_number - before.move_number <= net_moves
        else:   # the network plays until neither side has a sensible move
            assert after.passes == 2
            assert not features.policy_planes(after)[features.SENSIBLENESS].any()


def test_a_resumed_run_continues_the_stream(store9, rollout, tmp_path):
    def generator(folder):
        return selfplay.Generator(folder, selfplay.StartPositions(store9, size=9),
                                  selfplay.RolloutContinuation(rollout), seed=9, games_per_shard=5)
    straight = generator(tmp_path / "straight")
    for index in range(3):
        straight.make(index)
    first = generator(tmp_path / "resumed")
    first.make(0)
    first.make(1)
    again = generator(tmp_path / "resumed")
    assert again.next_index() == 2
    again.make(again.next_index())
    for index in range(3):
        _, a = value_shards.read_shard(straight.path(index))
        _, b = value_shards.read_shard(again.path(index))
        assert all(np.array_equal(a[key], b[key]) for key in value_shards.ARRAYS)
    _, zero = value_shards.read_shard(straight.path(0))
    _, one = value_shards.read_shard(straight.path(1))
    assert not np.array_equal(zero["planes"], one["planes"])


def test_a_bad_or_truncated_shard_gets_one_clear_error_and_is_skipped(store9, rollout, tmp_path):
    folder = tmp_path / "shards"
    gen = selfplay.Generator(folder, selfplay.StartPositions(store9, size=9),
                             selfplay.RolloutContinuation(rollout), seed=1, games_per_shard=8)
    gen.make(0)
    gen.make(1)
    data = open(gen.path(1), "rb").read()
    with open(gen.path(1), "wb") as f:
        f.write(data[:len(data) // 2])
    with open(folder / "zz-not-a-shard.npz", "wb") as f:
        np.savez(f, planes=np.zeros(3))
    with pytest.raises(value_shards.ShardError, match=r"rollout-seed1-000001.npz: unreadable"):
        value_shards.read_shard(gen.path(1))
    logged = []

    class NothingLeft(Exception):
        pass

    def stop_waiting(seconds):
        raise NothingLeft

    stream = value_shards.ShardStream(str(folder), batch_size=4, log=logged.append,
                                      sleep=stop_waiting)
    seen = []
    with pytest.raises(NothingLeft):   # every good shard used: the stream would wait
        for packed, outcomes, position in stream.batches():
            seen.append((packed.unpack(), outcomes))
    assert len(seen) == 2   # shard 0's 8 records only
    _, good = value_shards.read_shard(gen.path(0))
    assert sorted(np.concatenate([o for _, o in seen])) == sorted(good["outcome"])
    skipped = [line for line in logged if line.startswith("skipping shard")]
    assert len(skipped) == 2 and any("truncated" in line for line in skipped)
    assert any("zz-not-a-shard.npz: not a value shard" in line for line in skipped)


def test_a_shard_smaller_than_a_batch_is_named_once(store9, rollout, tmp_path):
    folder = tmp_path / "shards"
    selfplay.Generator(folder, selfplay.StartPositions(store9, size=9),
                       selfplay.RolloutContinuation(rollout), seed=2, games_per_shard=4).make(0)
    logged = []
    stream = value_shards.ShardStream(str(folder), batch_size=8, passes=3, log=logged.append,
                                      stopping=lambda: len(logged) > 1)
    assert list(stream.batches()) == []
    assert logged[0] == "skipping shard rollout-seed2-000000.npz: 4 records, fewer than the 8 " \
                        "a batch takes (a smaller --batch-size or larger shards use it)"
    assert logged[1].startswith("waiting for new shards")


def test_the_stream_resumes_where_its_checkpoint_says(store9, rollout, tmp_path):
    folder = tmp_path / "shards"
    gen = selfplay.Generator(folder, selfplay.StartPositions(store9, size=9),
                             selfplay.RolloutContinuation(rollout), seed=2, games_per_shard=8)
    for index in range(3):
        gen.make(index)
    stream = value_shards.ShardStream(str(folder), batch_size=4, passes=2)
    batches = stream.batches()
    whole = [next(batches) for _ in range(9)]
    again = value_shards.ShardStream(str(folder), batch_size=4, passes=2).batches(whole[3][2])
    for (packed, outcomes, _), (packed2, outcomes2, _) in zip(whole[4:], again):
        assert np.array_equal(packed.bits, packed2.bits) and np.array_equal(outcomes, outcomes2)
    assert whole[5][2]["uses"] == {name: 1 for name in value_shards.list_shards(folder)}


def test_the_value_trainer_reads_the_shards_as_they_appear(data, rollout, tmp_path):  # noqa: F811
    store = random_games(19, 6, moves=40)
    folder = tmp_path / "shards"
    gen = selfplay.Generator(folder, selfplay.StartPositions(store), selfplay.RolloutContinuation(
        rollout), seed=0, games_per_shard=16)
    gen.make(0)
    gen.make(1)
    run_trainer("train_value", train_args(
        data, tmp_path, "value", "--max-positions=48", "--batch-size=8", "--positions-per-game=1",
        f"--selfplay={folder}", "--human-fraction=0.25", "--shard-passes=2"))
    with open(tmp_path / "value" / "log.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and float(rows[-1]["train_mse"]) > 0
    state = torch.load(tmp_path / "value" / "checkpoint.pt", weights_only=True)
    assert state["positions_seen"] == 48
    # 6 self-play records a batch: two batches a shard, shard 0 again after shard 1
    assert state["selfplay_position"] == {"uses": {os.path.basename(gen.path(0)): 2,
                                                   os.path.basename(gen.path(1)): 1},
                                          "current": None, "batch": 0}


def test_a_signal_stops_a_trainer_that_waits_for_shards(data, rollout, tmp_path, monkeypatch):  # noqa: F811
    """SIGTERM while every shard is used: the trainer checkpoints and stops, as it does in a step."""
    store = random_games(19, 4, moves=30)
    folder = tmp_path / "shards"
    selfplay.Generator(folder, selfplay.StartPositions(store), selfplay.RolloutContinuation(
        rollout), seed=0, games_per_shard=8).make(0)
    waits = []

    def wait(stream):   # the stream polls for new shards: a SIGTERM arrives meanwhile
        waits.append(stream.poll_seconds)
        os.kill(os.getpid(), signal.SIGTERM)
    monkeypatch.setattr(value_shards.ShardStream, "wait", wait)
    run_trainer("train_value", train_args(
        data, tmp_path, "value", "--batch-size=8", "--positions-per-game=1", f"--selfplay={folder}"))
    state = torch.load(tmp_path / "value" / "checkpoint.pt", weights_only=True)
    assert waits and state["positions_seen"] == 8
    assert state["selfplay_position"]["uses"] == {"rollout-seed0-000000.npz": 1}


def test_the_generator_finishes_its_shard_on_the_first_signal(tmp_path):
    """SIGTERM while a shard is made: that shard is written whole, then the tool stops."""
    store_dir = tmp_path / "cache"
    store_dir.mkdir()
    random_games(19, 6, moves=40).save(str(store_dir / "tygem-9d-train.npz"))   # the cache of
    # --data-dir .../tygem-9d's training split
    out = tmp_path / "shards"
    process = subprocess.Popen(
        [sys.executable, os.path.join(REPO, "tools", "selfplay.py"), f"--out={out}",
         "--continuation=rollout", "--games-per-shard=5000", "--no-progress",
         f"--cache-dir={store_dir}", f"--data-dir={tmp_path / 'tygem-9d'}"],
        cwd=REPO, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{REPO}/tools"))
    for line in process.stderr:   # the generator has started its first shard
        if "from shard 0" in line:
            break
    process.send_signal(signal.SIGTERM)
    rest = process.communicate(timeout=120)[1]
    assert process.returncode == 0, rest
    assert "stopping after this shard" in rest and "stopped at shard 1" in rest
    meta, records = value_shards.read_shard(str(out / "rollout-seed0-000000.npz"))
    assert meta["count"] == 5000 == len(records["outcome"])
    assert value_shards.list_shards(out) == ["rollout-seed0-000000.npz"]
