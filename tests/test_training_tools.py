"""Data stream, trainers (checkpoint, exact resume, SIGTERM, export) and eval tools on a tiny
synthetic collection, with k=8, 2-layer networks: seconds, not hours."""

import csv
import gzip
import os
import random
import re
import signal
import time

import numpy as np
import pytest
import torch

from goengine import BLACK, Board
from goengine.game import coords
from goengine.nn import features, netfile
from tests.programs import tool
from training import run_folder, trainer
from training.dataset import GameStore, load_split
from training.sampler import BatchStream, BatchWorkers, PackedPlanes, PolicyExamples, ValueExamples
from training.tasks import PolicyTask, ValueTask
from goengine.game.sgffile import iter_positions, read_games

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def random_game(rng, moves=50):
    """An SGF line of random legal play (no filling own eyes), won by a random colour."""
    board = Board(19, 6.5)
    text = []
    for _ in range(moves):
        color = board.to_move
        options = [m for m in board.legal_moves() if not board.is_eye(m, color)]
        move = rng.choice(options)
        board.play(move)
        text.append(f";{'B' if color == BLACK else 'W'}[{coords.to_sgf(move, 19)}]")
    result = rng.choice(["B+R", "W+3.5", "B+T", "W+R", "0"])
    return f"(;GM[1]FF[4]SZ[19]KM[6.5]RE[{result}]{''.join(text)})"


@pytest.fixture(autouse=True)
def quick_measurement(monkeypatch):
    monkeypatch.setattr(trainer, "MEASURE_SECONDS", 0.0)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A data folder split like the real one: 2016-11 trains, 2016-12 (held out) validates."""
    folder = tmp_path_factory.mktemp("tygem-9d")
    rng = random.Random(5)
    for month, count in (("2016-11", 24), ("2016-12", 8)):
        with gzip.open(folder / f"tygem-9d-{month}.sgfs.gz", "wt") as f:
            f.write("(;GM[1]SZ[19];B[zz])\n")  # one broken record, skipped
            for _ in range(count):
                f.write(random_game(rng) + "\n")
    return folder


def train_args(data, tmp_path, run, *extra):
    return [f"--run-dir={tmp_path / run}", f"--data-dir={data}", f"--cache-dir={data}-cache",
            "--filters=8", "--layers=2", "--batch-size=16", "--positions-per-game=4",
            "--val-every=32", "--val-positions=20", "--workers=0", "--no-progress", *extra]


def run_trainer(name, argv):
    tool(name).main(argv)


def test_split_and_store_cache(data, tmp_path):
    store = load_split("train", str(data), str(tmp_path), log=lambda m: None)
    assert len(store) == 24 and os.path.exists(store.path)
    assert len(load_split("val", str(data), str(tmp_path), log=lambda m: None)) == 8


def test_stream_resumes_exactly_and_mixes_games(data):
    store = GameStore.from_games(read_games(data / "tygem-9d-2016-11.sgfs.gz"))
    stream = BatchStream(store, PolicyExamples(), batch_size=8, positions_per_game=2,
                         chunk_positions=16)
    straight = [b for _, b in zip(range(12), stream.batches())]
    resumed = [b for _, b in zip(range(7), stream.batches(straight[4][2]))]
    for a, b in zip(straight[5:], resumed):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]
    assert straight[-1][2][0] >= 1  # crossed into the next epoch


def test_labels_follow_symmetry(data):
    store = GameStore.from_games(read_games(data / "tygem-9d-2016-11.sgfs.gz"))
    planes, moves = BatchStream(store, PolicyExamples(), 16).chunk(0, 0)
    rows, cols = np.divmod(moves, 19)
    assert (planes[np.arange(len(moves)), features.STONE_EMPTY, rows, cols] == 1).all()


def test_value_targets_are_for_the_player_to_move(data):
    maker = ValueExamples()
    games = [g for g in read_games(data / "tygem-9d-2016-11.sgfs.gz") if g.winner][:3]
    for game in games:
        for board, color, move in iter_positions(game):
            planes, target = maker.make(board, color, move, game, 0)
            assert target == (1.0 if color == game.winner else -1.0)
            assert planes[features.NUM_VALUE_PLANES - 1].all() == (color == BLACK)
    assert not maker.eligible(next(g for g in read_games(data) if g.winner is None))
    on_time = next(g for g in read_games(data) if g.result.upper().startswith(("B+T", "W+T")))
    assert on_time.winner and not maker.eligible(on_time)


def test_value_examples_with_moves_carry_the_move_under_symmetry(data):
    game = next(g for g in read_games(data / "tygem-9d-2016-11.sgfs.gz") if g.won_on_the_board)
    maker = ValueExamples(with_moves=True)
    for symmetry in (0, 5):
        for board, color, move in iter_positions(game):
            planes, (outcome, target) = maker.make(board, color, move, game, symmetry)
            assert outcome == (1.0 if color == game.winner else -1.0)
            assert target == features.symmetric_move(move, symmetry, 19)
            row, col = divmod(int(target), 19)
            assert planes[features.STONE_EMPTY, row, col] == 1
    store = GameStore.from_games(read_games(data / "tygem-9d-2016-11.sgfs.gz"))
    planes, targets = BatchStream(store, maker, 16).chunk(0, 0)
    assert targets.shape == (len(planes), 2) and set(targets[:, 0]) <= {-1.0, 1.0}


def test_late_value_examples_come_from_the_end_of_each_game(data):
    game = next(g for g in read_games(data / "tygem-9d-2016-11.sgfs.gz") if g.won_on_the_board)
    n = len(game.moves)
    assert ValueExamples().eligible(game) == list(range(n))
    late = ValueExamples(0.7).eligible(game)
    assert late == list(range(int(0.7 * n), n)) and 0 < len(late) < n
    with pytest.raises(ValueError):
        ValueExamples(1.0)


def test_worker_process_gives_the_same_stream(data, tmp_path):
    store = load_split("train", str(data), str(tmp_path), log=lambda m: None)
    kwargs = dict(batch_size=8, positions_per_game=2, seed=3, chunk_positions=16)
    start = (0, 1, 1)  # mid-chunk, as a resumed run starts
    stream = BatchStream(store, PolicyExamples(), **kwargs)
    assert stream.chunks_per_epoch == 3
    expected = [b for _, b in zip(range(14), stream.batches(start))]
    assert expected[-1][2][0] >= 2  # two epoch boundaries crossed
    for count in (1, 2, 3):
        workers = BatchWorkers(store, PolicyExamples(), kwargs, start, count, prefetch=4)
        try:
            got = [b for _, b in zip(range(14), workers)]
        finally:
            workers.close()
        for a, b in zip(expected, got):
            assert isinstance(b[0], PackedPlanes) and b[0].bits.nbytes <= a[0].nbytes / 8 + len(a[1])
            assert np.array_equal(a[0], b[0].unpack())
            assert np.array_equal(a[1], b[1]) and a[2] == b[2]


def test_a_resumed_run_takes_a_new_batch_size_from_the_next_chunk(data, tmp_path):
    # As a CPU run goes on on a GPU with larger batches (docs/GPU.md).
    run_trainer("train_value", train_args(data, tmp_path, "value", "--max-positions=32"))
    before = torch.load(tmp_path / "value" / "checkpoint.pt", weights_only=True)
    argv = train_args(data, tmp_path, "value", "--max-positions=96", "--resume")
    run_trainer("train_value", [a if a != "--batch-size=16" else "--batch-size=32" for a in argv])
    after = torch.load(tmp_path / "value" / "checkpoint.pt", weights_only=True)
    assert before["stream"]["batch_size"] == 16 and after["stream"]["batch_size"] == 32
    assert after["positions_seen"] == 96      # 32, then two batches of 32
    epoch, chunk, _ = before["stream_position"]
    assert tuple(after["stream_position"][:2]) >= (epoch, chunk + 1)
    assert "the data stream changes" in (tmp_path / "value" / "train.log").read_text()


def test_packed_planes_reach_the_network_as_the_planes_do(data):
    store = load_split("train", str(data), f"{data}-cache", log=lambda m: None)
    for maker in (PolicyExamples(), ValueExamples()):
        planes = next(BatchStream(store, maker, batch_size=5, seed=2).batches())[0]
        packed = PackedPlanes.pack(planes)
        assert planes.any() and np.array_equal(packed.unpack(), planes)
        assert torch.equal(trainer.as_input(packed), trainer.as_input(planes))
    with pytest.raises(ValueError, match="0/1"):
        PackedPlanes.pack(planes * 2)


def test_policy_training_resumes_exactly_exports_and_evaluates(data, tmp_path, capsys):
    run_trainer("train_policy", train_args(data, tmp_path, "straight", "--max-positions=64"))
    run_trainer("train_policy", train_args(data, tmp_path, "split", "--max-positions=32"))
    with pytest.raises(SystemExit, match="--resume"):
        run_trainer("train_policy", train_args(data, tmp_path, "split", "--max-positions=64"))
    run_trainer("train_policy", train_args(data, tmp_path, "split", "--max-positions=64", "--resume"))
    a = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=True)
    assert a["positions_seen"] == b["positions_seen"] == 64
    for key in a["model"]:
        assert torch.equal(a["model"][key], b["model"][key]), key

    run_dir = tmp_path / "split"
    resumed = tool("train_policy").parse_args([f"--run-dir={run_dir}", "--resume", "--lr=0.01"])
    assert (resumed.filters, resumed.batch_size, resumed.data_dir, resumed.lr) == (8, 16, str(data), 0.01)
    with open(run_dir / "log.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["positions_seen"]) for r in rows] == [32, 64]
    assert {"train_loss", "train_top1", "val_loss", "val_top1", "lr", "wallclock"} <= set(rows[0])
    assert (run_dir / "plot.png").stat().st_size > 1000
    assert "training step" in (run_dir / "train.log").read_text()

    weights = tmp_path / "sl.pt"
    run_trainer("train_policy", train_args(data, tmp_path, "split", f"--export={weights}"))
    model = netfile.load_network(weights, kind="policy")
    assert not model.batch_norm and model.extra["positions_seen"] == 64
    assert 0 <= model.extra["val_top1"] <= 1

    capsys.readouterr()
    tool("eval_policy").main([f"--weights={weights}", f"--sgf={data / 'tygem-9d-2016-12.sgfs.gz'}",
                              "--limit=3"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("top1=0.") and " top5=" in last and last.endswith("positions=150")


def test_cosine_schedule_anneals_to_the_floor_over_the_budget(data, tmp_path):
    run_dir = tmp_path / "cosine"
    run_trainer("train_policy", train_args(data, tmp_path, "cosine", "--max-positions=64",
                                           "--lr=0.1", "--lr-schedule=cosine", "--lr-floor=0.1"))
    with open(run_dir / "log.csv") as f:
        rates = [float(r["lr"]) for r in csv.DictReader(f)]
    # logged after the step that reaches 32 and 64 positions: half way, then the end
    assert rates == pytest.approx([0.1 * (0.1 + 0.9 * 0.5), 0.1 * 0.1])
    with pytest.raises(SystemExit, match="budget"):
        run_trainer("train_policy", train_args(data, tmp_path, "unbounded", "--lr-schedule=cosine"))


def test_policy_training_starts_from_a_shipped_network(data, tmp_path):
    run_trainer("train_policy", train_args(data, tmp_path, "first", "--max-positions=32"))
    shipped = tmp_path / "shipped.pt"
    run_trainer("train_policy", train_args(data, tmp_path, "first", f"--export={shipped}"))
    start = netfile.load_network(shipped)

    run = trainer.Trainer(PolicyTask(), tool("train_policy").parse_args(
        train_args(data, tmp_path, "second", f"--init-weights={shipped}", "--seed=2")))
    run.build()
    run.start_from_weights(load_split("train", str(data), f"{data}-cache"))
    assert run.positions_seen == 32  # the curve continues where the file's run stopped
    x = torch.from_numpy(features.policy_planes(Board(19, 6.5))[None]).float()
    with torch.no_grad():
        assert torch.allclose(run.model.eval()(x), start(x), atol=1e-3)

    wrong = train_args(data, tmp_path, "third", f"--init-weights={shipped}", "--max-positions=16")
    with pytest.raises(SystemExit, match="architecture"):
        run_trainer("train_policy", [a for a in wrong if a != "--layers=2"] + ["--layers=3"])
    with pytest.raises(SystemExit, match="no such file"):
        run_trainer("train_policy", train_args(data, tmp_path, "fourth",
                                               f"--init-weights={tmp_path / 'none.pt'}"))


def test_value_training_from_policy_and_eval(data, tmp_path, capsys):
    run_trainer("train_policy", train_args(data, tmp_path, "policy", "--max-positions=16"))
    run_trainer("train_value", train_args(
        data, tmp_path, "value", "--max-positions=32", "--positions-per-game=1", "--batch-size=8",
        f"--init-from-policy={tmp_path / 'policy' / 'checkpoint.pt'}"))
    with open(tmp_path / "value" / "log.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and {"train_mse", "val_mse", "train_top1", "val_move_loss"} <= set(rows[-1])
    weights = tmp_path / "value.pt"
    run_trainer("train_value", train_args(data, tmp_path, "value", f"--export={weights}"))
    shipped = netfile.load_network(weights, kind="value")
    assert "move_head" not in shipped.arch and not shipped.batch_norm  # AlphaGo's shape
    capsys.readouterr()
    tool("eval_value").main([f"--weights={weights}", f"--sgf={data}", "--limit=0"])
    lines = capsys.readouterr().out.strip().splitlines()
    games = sum(1 for g in read_games(data) if g.won_on_the_board)
    assert lines[-1].startswith("mse=") and lines[-1].endswith(f"positions={games}")
    phases = [re.search(r": mse=[\d.]+ positions=(\d+)$", line) for line in lines[-4:-1]]
    assert all(phases) and sum(int(m.group(1)) for m in phases) == games
    other = tmp_path / "value-other.pt"
    torch.manual_seed(3)
    netfile.save_network(other, nets_value_like(shipped))
    tool("eval_value").main([f"--weights={weights}", f"--sgf={data}", "--limit=0",
                             f"--against={other}"])
    lines = capsys.readouterr().out.strip().splitlines()
    ours = float(re.fullmatch(r"mse=([\d.]+) positions=\d+", lines[-1]).group(1))
    found = re.fullmatch(r"against .*: mse=([\d.]+); --weights minus it: ([-+][\d.]+) "
                         r"\(standard error ([\d.]+)\)", lines[-2])
    assert found and float(found.group(3)) > 0
    assert float(found.group(2)) == pytest.approx(ours - float(found.group(1)), abs=2e-4)
    tool("calibration").main([f"--weights={weights}", f"--sgf={data}", "--limit=0"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(rf"ece=[\d.]+ positions={games}", lines[-1])
    rows = [re.match(r" *\d+- *\d+ % +(\d+) ", line) for line in lines[1:-1]]
    assert all(rows) and sum(int(m.group(1)) for m in rows) == games


def nets_value_like(model):
    """A fresh value network of the same shape (other weights)."""
    from goengine.nn import nets
    return nets.ValueNet(**model.arch)


def test_calibration_table_groups_by_predicted_win_rate():
    table = tool("calibration").calibration_table
    predicted = [0.05, 0.15, 0.12, 0.95, 0.99, 1.0, 0.55]
    won = [0, 1, 0, 1, 1, 0, 1]
    rows, ece = table(predicted, won)
    assert [(low, n) for low, _, n, _, _ in rows] == [(0.0, 1), (0.1, 2), (0.5, 1), (0.9, 3)]
    assert rows[1][3] == pytest.approx(0.135) and rows[1][4] == pytest.approx(0.5)
    assert rows[3][3] == pytest.approx(0.98) and rows[3][4] == pytest.approx(2 / 3)
    expected = (0.05 + 2 * abs(0.135 - 0.5) + 0.45 + 3 * abs(0.98 - 2 / 3)) / 7
    assert ece == pytest.approx(expected)
    assert table([0.3] * 10, [1, 0, 0, 1, 0, 0, 1, 0, 0, 0])[1] == pytest.approx(0.0)


def test_sigterm_writes_checkpoint_and_stops(data, tmp_path, monkeypatch):
    step = trainer.Trainer.step

    def step_then_signal(self, *args):
        if self.positions_seen == 32:  # a real SIGTERM, delivered mid-training
            os.kill(os.getpid(), signal.SIGTERM)
        return step(self, *args)

    monkeypatch.setattr(trainer.Trainer, "step", step_then_signal)
    run_trainer("train_policy", train_args(data, tmp_path, "term", "--max-hours=1"))
    state = torch.load(tmp_path / "term" / "checkpoint.pt", weights_only=True)
    assert state["positions_seen"] == 48
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_value_trunk_from_a_shipped_policy_predicts_its_moves_in_training_mode(data, tmp_path):
    """A folded policy file gets its BN back before the value net copies it: in training
    mode (batch statistics) the move head then computes the policy's logits."""
    run_trainer("train_policy", train_args(data, tmp_path, "policy", "--max-positions=64"))
    shipped = tmp_path / "sl.pt"
    run_trainer("train_policy", train_args(data, tmp_path, "policy", f"--export={shipped}"))
    policy = netfile.load_network(shipped, kind="policy").eval()
    args = tool("train_value").parse_args(train_args(
        data, tmp_path, "value", f"--init-from-policy={shipped}"))
    value_net = ValueTask(move_weight=1.0).build_model(args).train()
    store = load_split("train", str(data), f"{data}-cache", log=lambda m: None)
    planes, _ = BatchStream(store, PolicyExamples(), 64).chunk(0, 0)
    x = torch.from_numpy(planes[:64]).float()
    x49 = torch.cat([x, torch.zeros(len(x), 1, 19, 19)], 1)
    with torch.no_grad():
        want = policy(x)
        _, got = value_net.forward_with_moves(x49)
    spread = (want - want.mean(1, keepdim=True)).std().item()
    error = ((got - got.mean(1, keepdim=True)) - (want - want.mean(1, keepdim=True))).std().item()
    # Measured: error 0.003 against a spread of 0.09; copied without unfolding, 0.17.
    assert error < 0.1 * spread, (error, spread)


def test_gpu_kit_packs_trains_detached_fetches_and_resumes_at_home(data, tmp_path):
    """The GPU run kit end to end at toy scale on the CPU: pack a slice, build, start a
    detached trainer with two feature workers, stop it, fetch a compact checkpoint,
    adopt it here, resume and export."""
    kit = tool("gpu_kit")
    pack, out, run, home = (tmp_path / name for name in ("pack", "out", "run", "home"))
    kit.main(["pack", "--slice=1", "--of=2", f"--out={pack}", f"--data-dir={data}",
              f"--cache-dir={data}-cache"])
    sliced = GameStore.load(pack / f"{data.name}-train.npz")
    whole = load_split("train", str(data), f"{data}-cache", log=lambda m: None)
    assert len(sliced) == 12 and sliced[0].moves == whole[1].moves
    (pack / "later.labels.npz").write_bytes(bytes(2**20))   # as tools/label_games.py adds them
    kit.main(["size", f"--out={pack}", "--max-mib=1000"])
    with pytest.raises(SystemExit, match="larger --of"):
        kit.main(["size", f"--out={pack}", f"--max-mib={kit.tracked_mib() + 1}"])
    (pack / "later.labels.npz").unlink()
    kit.main(["build"])

    flags = [f"--data-dir={data}", f"--cache-dir={pack}", "--filters=8", "--layers=2",
             "--batch-size=16", "--positions-per-game=4", "--val-every=32", "--val-positions=20",
             "--device=cpu", "--workers=2", "--warmup=64"]
    kit.main(["start", f"--run-dir={run}", "--kind=policy", "--", *flags])
    deadline = time.monotonic() + 120
    while not (run / "checkpoint.pt").exists() and "positions_seen=" not in (
            (run / "train.log").read_text() if (run / "train.log").exists() else ""):
        assert kit.trainer_alive(str(run)) and time.monotonic() < deadline, \
            (run / "stdout.log").read_text()
        time.sleep(0.2)
    kit.main(["wait", f"--run-dir={run}", "--minutes=0.01", "--poll=0.1"])
    kit.main(["fetch", f"--run-dir={run}", f"--out={out}", "--stop"])
    assert not kit.trainer_alive(str(run))
    log = (run / "train.log").read_text()
    assert "2 worker processes" in log and "waited for input" in log

    compact = torch.load(out / "checkpoint-compact.pt", weights_only=True)
    weights = [v for k, v in compact["model"].items() if k.endswith("conv.weight")]
    assert weights and all(w.dtype == torch.bfloat16 for w in weights)
    assert all(v.dtype == torch.float32 for k, v in compact["model"].items() if "running_" in k)
    trained = compact["positions_seen"]
    assert trained >= 32 and (out / "log.csv").exists()

    kit.main(["adopt", str(out / "checkpoint-compact.pt"), f"--run-dir={home}"])
    adopted = torch.load(home / "checkpoint.pt", weights_only=True)["args"]
    assert adopted["cache_dir"] == str(pack)   # packed (and labelled) here: read from it
    assert kit.home_cache_dir("gone/pack", str(tmp_path)) == str(tmp_path / "data")
    resume = [f"--run-dir={home}", "--resume", f"--data-dir={data}", f"--cache-dir={data}-cache",
              "--workers=0", "--no-progress", f"--max-positions={trained + 32}"]
    tool("train_policy").main(resume)
    state = torch.load(home / "checkpoint.pt", weights_only=True)
    assert state["positions_seen"] >= trained + 32 and state["args"]["device"] == "cpu"
    shipped = tmp_path / "gpu.pt"
    tool("train_policy").main([f"--run-dir={home}", f"--export={shipped}"])
    assert netfile.load_network(shipped).extra["positions_seen"] == state["positions_seen"]


def test_value_checks_inspect_a_value_run(data, tmp_path, capsys):
    run_trainer("train_value", train_args(data, tmp_path, "value", "--max-positions=32",
                                          "--positions-per-game=1", "--batch-size=8",
                                          "--move-weight=0"))
    tool("value_checks").main(["inspect", f"--checkpoint={tmp_path / 'value' / 'checkpoint.pt'}"])
    out = capsys.readouterr().out
    for expected in ("correlation with the outcome", "eval mode (running BN statistics)",
                     "dead units: 256-unit layer", "gradient norm of the value loss: head"):
        assert expected in out, out
    with pytest.raises(SystemExit, match="not a value training checkpoint"):
        run_trainer("train_policy", train_args(data, tmp_path, "policy", "--max-positions=16"))
        tool("value_checks").main(["inspect", f"--checkpoint={tmp_path / 'policy' / 'checkpoint.pt'}"])


def test_compact_checkpoints_keep_adamw_step_counts_exact():
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.AdamW(model.parameters())
    for _ in range(1001):
        optimizer.zero_grad()
        model(torch.ones(1, 3)).sum().backward()
        optimizer.step()
    state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
    compact = run_folder.compact_state(state)
    per_param = compact["optimizer"]["state"][0]
    assert per_param["exp_avg"].dtype == torch.bfloat16
    assert per_param["step"].item() == 1001            # bf16 would make it 1000
    assert run_folder.full_state(compact)["optimizer"]["state"][0]["step"].item() == 1001


def test_eval_value_measures_the_score_heads_lead_for_each_colour(tmp_path, capsys):
    """A head sure that whoever moves ends +2 at komi 7 (nets.SCORE_KOMI), on games won
    B+3.5 at komi 6.5: for Black to move it reads a lead of 2.5 (1 short of the record),
    for White 1.5 (5 over the record's -3.5)."""
    from goengine.nn import nets
    torch.manual_seed(3)
    net = nets.HeadsNet(filters=8, layers=2, board_size=9)
    with torch.no_grad():
        net.score_out.weight.zero_()
        net.score_out.bias.fill_(-30.0)
        net.score_out.bias[nets.SCORE_RANGE + 2] = 30.0
    weights = tmp_path / "sure.pt"
    netfile.save_network(str(weights), net)
    games = tmp_path / "games"
    games.mkdir()
    moves = "".join(f";{'BW'[i % 2]}[{'abcdefghi'[i % 9]}{'abcdefghi'[i // 9 * 2 % 9]}]"
                    for i in range(24))
    for n in range(12):
        (games / f"{n}.sgf").write_text(f"(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+3.5]{moves})")
    tool("eval_value").main([f"--weights={weights}", f"--sgf={games}", "--limit=0", "--lead",
                             "--fp32"])
    lines = capsys.readouterr().out.strip().splitlines()
    found = {name: re.fullmatch(rf"{name}: bias=([-+][\d.]+) mean_abs_error=([\d.]+) "
                                r"positions=(\d+)", line)
             for name, line in zip(("Black to move", "White to move"), lines[-3:-1])}
    assert all(found.values()), lines
    black, white = (found[name] for name in ("Black to move", "White to move"))
    assert int(black.group(3)) > 0 and int(white.group(3)) > 0
    assert int(black.group(3)) + int(white.group(3)) == 12
    assert float(black.group(1)) == pytest.approx(-1.0, abs=0.01)
    assert float(white.group(1)) == pytest.approx(5.0, abs=0.01)
    assert lines[-1].startswith("lead bias=") and lines[-1].endswith("positions=12")
