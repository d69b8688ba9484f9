"""Training on two processes with torch.distributed (gloo on the CPU), at toy scale:
the averaged step equals one process's step on the whole minibatch, and a run made by
torchrun resumes in a single process."""

import os
import subprocess
import sys
import types

import numpy as np
import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from goengine.nn import nets
from training import distributed, trainer
from training.tasks import PolicyTask

from tests.test_training_tools import REPO, data, train_args  # noqa: F401

BATCH = 8


def global_batch():
    rng = np.random.default_rng(0)
    planes = rng.integers(0, 2, size=(BATCH, 48, 19, 19), dtype=np.uint8)
    moves = rng.integers(361, size=BATCH)
    return planes, moves


def model_and_optimizer():
    torch.manual_seed(0)
    model = nets.PolicyNet(48, 8, 2, 19, batch_norm=False)   # no BN: the step is exact
    return model, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)


def one_step(model, optimizer, planes, moves):
    """The trainer's own step (Trainer.step) on the CPU in fp32."""
    owner = types.SimpleNamespace(device="cpu", device_type="cpu", bf16=False, task=PolicyTask())
    trainer.Trainer.step(owner, model, optimizer, planes, moves)


def _rank_main(rank, world, port, out):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world), LOCAL_RANK=str(rank))
    torch.set_num_threads(1)
    ranks = distributed.start("cpu")
    model, optimizer = model_and_optimizer()
    wrapped = ranks.wrap(model, "cpu")
    planes, moves = global_batch()
    share = ranks.share(BATCH)
    mine = slice(rank * share, (rank + 1) * share)
    one_step(wrapped, optimizer, planes[mine], moves[mine])
    stop = ranks.any(rank == 1)   # a stop asked by one rank reaches all
    if ranks.main:
        torch.save({"state": model.state_dict(), "stop": stop}, out)
    del wrapped   # before its process group goes (distributed.stop)
    distributed.stop(ranks)


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_take_the_step_one_process_takes_on_the_whole_batch(tmp_path):
    out = tmp_path / "rank0.pt"
    mp.spawn(_rank_main, args=(2, free_port(), str(out)), nprocs=2, join=True)
    together = torch.load(out, weights_only=True)
    model, optimizer = model_and_optimizer()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    one_step(model, optimizer, *global_batch())
    assert together["stop"] is True
    for name, value in model.state_dict().items():
        assert not torch.equal(value, before[name])   # the step moved every weight
        assert torch.allclose(together["state"][name], value, atol=1e-6), name


def test_ranks_split_every_chunk_and_take_the_same_number_of_steps(data):  # noqa: F811
    from training.dataset import load_split
    from training.sampler import BatchStream, PolicyExamples
    store = load_split("train", data, f"{data}-cache", log=lambda m: None)
    streams = [BatchStream(store, PolicyExamples(), 4, positions_per_game=4, seed=3,
                           chunk_positions=64, rank=r, world=2) for r in range(2)]
    games = [set(s.chunk_games(0, 0)[s.rank::2].tolist()) for s in streams]
    assert games[0] and games[1] and not games[0] & games[1]
    counts = [len(list(s.chunk_batches(0, 0))) for s in streams]
    assert counts[0] == counts[1] > 0


def test_a_torchrun_run_resumes_in_one_process(data, tmp_path):  # noqa: F811
    torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
    if not os.path.exists(torchrun):
        pytest.skip("torchrun is not installed beside this Python")
    args = train_args(data, tmp_path, "policy", "--max-positions=64", "--threads=1",
                      "--device=cpu")
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{REPO}/tools", OMP_NUM_THREADS="1")
    result = subprocess.run([torchrun, "--nproc_per_node=2", "--master_port", str(free_port()),
                             os.path.join(REPO, "tools", "train_policy.py"), *args],
                            capture_output=True, text=True, timeout=300, env=env, cwd=REPO)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "2 processes, 8 positions of each minibatch apiece" in result.stderr
    state = torch.load(tmp_path / "policy" / "checkpoint.pt", weights_only=True)
    assert state["positions_seen"] == 64 and state["stream"]["world"] == 2
    from tests.test_training_tools import run_trainer
    run_trainer("train_policy", train_args(data, tmp_path, "policy", "--resume",
                                           "--max-positions=96"))
    resumed = torch.load(tmp_path / "policy" / "checkpoint.pt", weights_only=True)
    assert resumed["positions_seen"] == 96 and "world" not in resumed["stream"]
    epoch, chunk, _ = state["stream_position"]
    assert tuple(resumed["stream_position"][:2]) >= (epoch, chunk + 1)
    with open(tmp_path / "policy" / "train.log") as f:
        assert "the data stream changes" in f.read()


def test_two_processes_share_the_self_play_shards(data, tmp_path):  # noqa: F811
    from goengine.programs.loading import load_rollout
    from training import selfplay
    from tests.test_selfplay import random_games
    torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
    if not os.path.exists(torchrun):
        pytest.skip("torchrun is not installed beside this Python")
    folder = tmp_path / "shards"
    generator = selfplay.Generator(folder, selfplay.StartPositions(random_games(19, 4)),
                                   selfplay.RolloutContinuation(load_rollout()), games_per_shard=12)
    generator.make(0)
    generator.make(1)
    args = train_args(data, tmp_path, "value", "--max-positions=32", "--batch-size=8",
                      "--positions-per-game=1", "--threads=1", "--device=cpu",
                      f"--selfplay={folder}", "--human-fraction=0.25")
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{REPO}/tools", OMP_NUM_THREADS="1")
    result = subprocess.run([torchrun, "--nproc_per_node=2", "--master_port", str(free_port()),
                             os.path.join(REPO, "tools", "train_value.py"), *args],
                            capture_output=True, text=True, timeout=300, env=env, cwd=REPO)
    assert result.returncode == 0, result.stderr[-3000:]
    state = torch.load(tmp_path / "value" / "checkpoint.pt", weights_only=True)
    # 6 self-play records a step (3 a rank, each rank every other record of a shard of 12):
    # two steps a shard, four steps in all
    assert state["positions_seen"] == 32
    assert state["selfplay_position"]["uses"] == {"rollout-seed0-000000.npz": 1,
                                                  "rollout-seed0-000001.npz": 1}
