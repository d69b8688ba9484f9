"""The four-headed network (nets.HeadsNet), its examples and its training, at toy scale."""

import gzip
import os
import random

import numpy as np
import pytest
import torch

from goengine import BLACK, PASS, WHITE, Board
from goengine.nn import features, netfile, nets, on_planes, surgery
from goengine.players.decision import genmove
from tests.test_labels import walls_game
from tests.programs import tool
from tests.test_training_tools import random_game
from training import labels as L
from training import sampler
from training.dataset import GameStore, load_split


def test_the_trunk_and_policy_head_start_as_the_policy_network():
    policy = nets.PolicyNet(filters=8, layers=3).eval()
    heads = surgery.init_value_from_policy(nets.HeadsNet(filters=8, layers=3), policy).eval()
    planes = torch.rand(4, nets.VALUE_PLANES, 19, 19).round()
    with torch.no_grad():
        expected = policy(planes[:, :nets.POLICY_PLANES])
        logits, value, ownership, score = heads(planes)
    assert torch.allclose(logits, expected, atol=1e-5)       # the colour plane starts at zero
    assert value.shape == (4,) and ownership.shape == (4, 361)
    assert score.shape == (4, nets.SCORE_BINS)
    assert value.abs().max() <= 1 and ownership.abs().max() <= 1


def test_folding_keeps_every_head():
    heads = nets.HeadsNet(filters=8, layers=3, batch_norm=True)
    heads(torch.rand(16, nets.VALUE_PLANES, 19, 19))           # move the BN statistics
    heads.eval()
    folded = surgery.fold_batch_norm(heads)
    planes = torch.rand(3, nets.VALUE_PLANES, 19, 19)
    with torch.no_grad():
        for a, b in zip(heads(planes), folded(planes)):
            assert torch.allclose(a, b, atol=1e-4)


def test_the_score_head_reads_the_win_at_any_komi():
    """Its bins hold the mover's margin at komi 7: a lower komi is worth more to Black
    and less to White, point for point."""
    logits = torch.full((1, nets.SCORE_BINS), -1e9)
    logits[0, nets.SCORE_RANGE + 1] = 0.0                     # surely +1 at komi 7
    black, white = False, True
    assert nets.SCORE_KOMI == 7.0
    assert nets.win_probability(logits, 6.5, black).item() == pytest.approx(1.0)
    assert nets.win_probability(logits, 8.0, black).item() == pytest.approx(0.5)   # a draw
    assert nets.win_probability(logits, 8.5, black).item() == pytest.approx(0.0)
    assert nets.win_probability(logits, 6.5, white).item() == pytest.approx(1.0)
    assert nets.win_probability(logits, 6.0, white).item() == pytest.approx(0.5)
    assert nets.win_probability(logits, 5.5, white).item() == pytest.approx(0.0)
    assert nets.score_lead(logits, 6.5, black).item() == pytest.approx(1.5)
    assert nets.score_lead(logits, 0.5, white).item() == pytest.approx(-5.5)
    assert nets.score_lead(logits, [6.5, 0.5], [black, white]).tolist() == pytest.approx(
        [1.5, -5.5])


def test_the_value_moves_to_the_games_komi_by_the_score_head():
    """A head sure that White ends 3 points behind on the board (+4 at komi 7): at the
    trained komi (6.5) White wins, at 0.5 White loses, so a value of 0.4 learned at 6.5
    falls by 2 (clipped to -1); at 7.5 nothing changes, and at the trained komi never."""
    logits = torch.full((2, nets.SCORE_BINS), -1e9)
    logits[:, nets.SCORE_RANGE + 4] = 0.0
    values = torch.tensor([0.4, 0.4])
    for komi, wanted in ((0.5, -1.0), (7.5, 0.4), (nets.TRAINED_KOMI, 0.4)):
        moved = nets.value_at_komi(values, logits, torch.tensor([komi, komi]), [True, True])
        assert moved.tolist() == pytest.approx([wanted, wanted])
    spread = torch.zeros((1, nets.SCORE_BINS))                 # unsure: a small, smooth move
    lower = nets.value_at_komi(torch.tensor([0.0]), spread, 0.5, True)
    assert -0.1 < lower.item() < 0.0
    assert nets.value_at_komi(torch.tensor([0.0]), spread, 0.5, False).item() > 0


def random_board(size, moves, seed):
    """A board after `moves` random legal moves (no own eye filled), colours alternating."""
    rng = np.random.default_rng(seed)
    board = Board(size, 7.5)
    for _ in range(moves):
        color = board.to_move
        legal = [m for m in board.legal_moves(color) if m != PASS and not board.is_eye(m, color)]
        board.play(int(rng.choice(legal)), color)
    return board


def test_the_evaluator_reads_values_and_leads_at_the_games_komi():
    """evaluate() gives every head from one call, each for its player to move: the value at
    the komi asked (and at the true komi), the lead at that komi, the policy and ownership
    turned back from whatever symmetry the network saw."""
    from goengine.nn.inference import NetworkEvaluator
    torch.manual_seed(1)
    net = NetworkEvaluator(nets.HeadsNet(filters=8, layers=2, board_size=9), use_bf16=False,
                           threads=1)
    boards = [random_board(9, moves, seed=moves) for moves in (3, 8, 13, 20)]
    planes = np.stack([features.input_planes(board, net.planes) for board in boards])
    white = np.array([board.to_move == WHITE for board in boards])
    assert white.any() and not white.all()
    out = net.evaluate(boards, 0.5, true_komi=3.5)
    assert np.allclose(out.policy_logits, on_planes.logits(net, planes), atol=1e-5)
    assert np.allclose(out.value, on_planes.value_at(net, planes, 0.5, white), atol=1e-6)
    assert np.allclose(out.true_value, on_planes.value_at(net, planes, 3.5, white), atol=1e-6)
    assert np.allclose(on_planes.value_at(net, planes, nets.TRAINED_KOMI, white),
                       on_planes.value(net, planes), atol=1e-6)   # the trained komi: as it is
    assert not np.allclose(out.value, on_planes.value(net, planes), atol=1e-4)
    assert np.allclose(out.score_lead, on_planes.score_lead(net, planes, 0.5, white), atol=1e-5)
    assert np.allclose(out.ownership, on_planes.ownership(net, planes), atol=1e-6)
    assert net.evaluate(boards, 0.5).true_value is None           # not asked for
    only = net.evaluate(boards, 0.5, heads=('value',))
    assert only.policy_logits is None and only.ownership is None and only.score_lead is None
    assert np.allclose(only.value, out.value, atol=1e-6)
    turned = net.evaluate(boards, 0.5, symmetries=[1, 4, 6, 7])
    assert np.allclose(turned.value, out.value, atol=0.5)          # another view, same shape
    for row, board, k in zip(turned.policy_logits, boards, (1, 4, 6, 7)):
        seen = features.apply_symmetry(features.input_planes(board, net.planes), k)
        wanted = on_planes.logits(net, seen).reshape(9, 9)
        assert np.allclose(row, features.invert_symmetry(wanted, k).reshape(-1), atol=1e-5)
    both_leads, owners = on_planes.lead_and_ownership(net, planes, 0.5, white)
    assert np.allclose(both_leads, out.score_lead, atol=1e-5)
    one_lead, one_owner = on_planes.lead_and_ownership(net, planes[1], 0.5, False)
    assert one_lead == pytest.approx(out.score_lead[1], abs=1e-5) and one_owner.shape == (81,)


def labelled_walls(result, winner):
    game = walls_game(result, winner)
    ownership = np.where(np.arange(9) < 5, 1.0, np.where(np.arange(9) > 5, -1.0, 0.0))
    game.label = L.FinalLabel(L.COUNTED, np.tile(ownership, (9, 1)).astype(np.float32), 11.5)
    return game


@pytest.mark.parametrize("symmetry", range(8))
def test_symmetries_move_the_ownership_with_the_planes(symmetry):
    """Black to move on the walls board: under every symmetry, Black's stones (the
    mover's plane 0) sit on points the target gives the mover, White's wall on the
    opponent's, and White's dead stone on the mover's."""
    game = labelled_walls("B+11.5", BLACK)
    from goengine.game.sgffile import new_board
    board = new_board(game)
    board.to_move = BLACK
    examples = sampler.HeadsExamples(size=9)
    planes, target = examples.make(board, BLACK, 0, game, symmetry)
    owner = target[sampler.HEADS_OWNERSHIP:].reshape(9, 9)
    assert (owner[planes[0] == 1] == 1).all()
    assert sorted(owner[planes[1] == 1]) == [-1] * 9 + [1]
    assert target[sampler.HEADS_MARGIN] == pytest.approx(11)    # 11.5 at komi 6.5: 11 at 7
    assert target[sampler.HEADS_MOVE] == features.symmetric_move(0, symmetry, 9)
    white_planes, white_target = examples.make(board, WHITE, 0, game, symmetry)
    assert (white_target[sampler.HEADS_OWNERSHIP:] == -target[sampler.HEADS_OWNERSHIP:]).all()
    assert white_target[sampler.HEADS_MARGIN] == pytest.approx(-11)
    assert white_target[sampler.HEADS_OUTCOME] == -1 and target[sampler.HEADS_OUTCOME] == 1


def test_examples_without_labels_are_refused():
    game = walls_game("B+11.5", BLACK)
    from goengine.game.sgffile import new_board
    with pytest.raises(ValueError, match="labels"):
        sampler.HeadsExamples(size=9).make(new_board(game), BLACK, 0, game, 0)


@pytest.fixture(scope="module")
def labelled_data(tmp_path_factory):
    """A data folder like the real one, its stores cached and labelled."""
    root = tmp_path_factory.mktemp("heads")
    folder = root / "tygem-9d"
    folder.mkdir()
    rng = random.Random(7)
    for month, count in (("2016-11", 24), ("2016-12", 8)):
        with gzip.open(folder / f"tygem-9d-{month}.sgfs.gz", "wt") as f:
            for _ in range(count):
                f.write(random_game(rng) + "\n")
    cache = root / "cache"
    for split in ("train", "val"):
        load_split(split, str(folder), str(cache), log=lambda m: None)
    return folder, cache


def heads_flags(folder, cache, run, *extra):
    return [f"--run-dir={run}", f"--data-dir={folder}", f"--cache-dir={cache}", "--filters=8",
            "--layers=2", "--batch-size=16", "--positions-per-game=4", "--val-every=32",
            "--val-positions=20", "--workers=0", "--no-progress", *extra]


def test_heads_training_needs_labels_then_packs_trains_resumes_and_exports(
        labelled_data, tmp_path, capsys):
    folder, cache = labelled_data
    train_heads = tool("train_heads")
    with pytest.raises(SystemExit, match="no labels for tygem-9d-val.npz"):
        train_heads.main(heads_flags(folder, cache, tmp_path / "nolabels"))
    for split in ("train", "val"):
        tool("label_games").main(["--store", str(cache / f"tygem-9d-{split}.npz"),
                                  "--rollouts", "16", "--no-progress"])

    pack = tmp_path / "pack"
    tool("gpu_kit").main(["pack", "--slice=0", "--of=2", "--labels", f"--out={pack}",
                          f"--data-dir={folder}", f"--cache-dir={cache}"])
    packed = GameStore.load(str(pack / "tygem-9d-train.npz")).load_labels()
    whole = GameStore.load(str(cache / "tygem-9d-train.npz")).load_labels()
    kinds = whole.labels["kind"][0::2]
    assert len(packed) == int((kinds != L.UNLABELLED).sum()) == 12
    assert packed[1].moves == whole[2].moves
    assert (packed[1].label.ownership == whole[2].label.ownership).all()

    policy = tmp_path / "policy.pt"
    netfile.save_network(str(policy), nets.PolicyNet(filters=8, layers=2))
    run = tmp_path / "run"
    train_heads.main(heads_flags(folder, pack, run, f"--init-from-policy={policy}",
                                 "--max-positions=64", "--optimizer=adamw"))
    train_heads.main(heads_flags(folder, pack, run, "--resume", "--max-positions=96"))
    state = torch.load(run / "checkpoint.pt", weights_only=True)
    assert state["kind"] == "heads" and state["positions_seen"] >= 96
    header = (run / "log.csv").read_text().splitlines()[0]
    for metric in ("val_mse", "val_ownership_loss", "val_ownership_agree", "val_score_loss"):
        assert metric in header
    shipped = tmp_path / "heads.pt"
    train_heads.main(heads_flags(folder, pack, run, f"--export={shipped}"))
    model = netfile.load_network(str(shipped))
    assert model.kind == "heads" and not model.batch_norm
    assert 0 <= model.extra["val_ownership_agree"] <= 1


def test_self_play_records_train_the_value_head_and_skip_the_others():
    """A self-play record's targets: its outcome, no move, no ownership map, no margin; in a
    batch with human examples the policy's loss and top-1 are the human examples' alone."""
    from training.tasks import HeadsTask
    task = HeadsTask()
    records = task.selfplay_targets(np.array([1.0, -1.0], np.float32))
    assert records[:, sampler.HEADS_MOVE].tolist() == [-1, -1]
    assert records[:, sampler.HEADS_OUTCOME].tolist() == [1, -1]
    assert records[:, sampler.HEADS_HAS_OWNERSHIP].tolist() == [0, 0]
    assert np.isnan(records[:, sampler.HEADS_MARGIN]).all()
    human = np.zeros((2, records.shape[1]), np.float32)
    human[:, sampler.HEADS_MOVE] = [3, 7]
    human[:, sampler.HEADS_MARGIN] = np.nan
    torch.manual_seed(0)
    output = (torch.randn(4, 361), torch.tanh(torch.randn(4)), torch.tanh(torch.randn(4, 361)),
              torch.randn(4, 2 * nets.SCORE_RANGE + 1))
    _, mixed = task.loss(output, torch.from_numpy(np.concatenate([human, records])))
    _, alone = task.loss(tuple(o[:2] for o in output), torch.from_numpy(human))
    mixed, alone = tally(task, mixed, 4), tally(task, alone, 2)
    assert mixed["policy_loss"] == pytest.approx(alone["policy_loss"])
    assert mixed["top1"] == pytest.approx(alone["top1"])
    outcomes = torch.tensor([0.0, 0.0, 1.0, -1.0])
    assert mixed["mse"] == pytest.approx(((output[1][2:] - outcomes[2:]) ** 2).mean().item())
    assert np.isnan(mixed["ownership_loss"]) and np.isnan(mixed["score_loss"])   # no targets


def tally(task, sums, n):
    """The metrics of one batch's sums, as the trainer logs them."""
    from training.tasks import Tally
    metrics = Tally(task.metrics)
    metrics.add(sums, n)
    return metrics.means()


def test_the_four_headed_trainer_reads_self_play_records(labelled_data, tmp_path):
    from goengine.programs.loading import load_rollout
    from tests.test_selfplay import random_games
    from training import selfplay
    folder, cache = labelled_data
    for split in ("train", "val"):
        tool("label_games").main(["--store", str(cache / f"tygem-9d-{split}.npz"),
                                  "--rollouts", "16", "--no-progress"])
    shards = tmp_path / "shards"
    generator = selfplay.Generator(shards, selfplay.StartPositions(random_games(19, 6, moves=40)),
                                   selfplay.RolloutContinuation(load_rollout()), seed=0,
                                   games_per_shard=16)
    generator.make(0)
    run = tmp_path / "run"
    tool("train_heads").main(heads_flags(folder, cache, run, "--max-positions=64",
                                         f"--selfplay={shards}", "--human-fraction=0.5",
                                         "--shard-passes=2"))
    state = torch.load(run / "checkpoint.pt", weights_only=True)
    assert state["positions_seen"] == 64
    # 8 self-play records a batch of 16: two batches a pass of the shard, two passes
    assert state["selfplay_position"]["uses"] == {os.path.basename(generator.path(0)): 2}
    rows = (run / "log.csv").read_text().splitlines()
    header, last = rows[0].split(","), rows[-1].split(",")
    assert float(last[header.index("train_mse")]) > 0
    assert np.isfinite(float(last[header.index("train_policy_loss")]))
    with pytest.raises(SystemExit):
        tool("train_heads").main(heads_flags(folder, cache, tmp_path / "bad",
                                             f"--selfplay={shards}", "--human-fraction=1"))


@pytest.fixture(scope="module")
def heads_file(tmp_path_factory):
    """A tiny four-headed 9x9 network, folded as shipped files are."""
    torch.manual_seed(3)
    path = tmp_path_factory.mktemp("heads") / "heads9.pt"
    netfile.save_network(str(path), nets.HeadsNet(filters=8, layers=2, board_size=9))
    return str(path)


def test_the_search_takes_its_values_from_the_expansions_own_network_calls(heads_file):
    from goengine.game.state import GameState
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.search.config import SearchConfig
    from goengine.search.limits import SearchLimits
    logged = []
    player = load_player(PlayerKind.SEARCH, heads_file, config=SearchConfig(expand_threshold=2),
                         log=logged.append)
    try:
        assert any("heads policy, value, ownership, score" in line for line in logged)
        networks = player.search.networks
        assert networks.shared and player.search.tree.values_with_priors
        game = GameState(9, 7.5)
        player.verbose = True
        move = genmove(player, game, BLACK, SearchLimits(playouts=400))
        assert game.board.is_legal(move, BLACK)
        line = next(line for line in logged if "simulations in" in line)
        evaluations = int(line.split(" network evaluations")[0].rsplit(" ", 1)[1])
        assert 0 < evaluations <= networks.stats["policy_evals"]   # a batch may land later
        stats = player.search.tree.stats()
        assert stats["expansions"] > 5 and stats["value_backups"] > 0
        assert networks.stats["policy_evals"] > 0
        assert networks.stats["value_evals"] == networks.stats["policy_evals"]
        assert networks.stats["time_value"] == 0.0        # no value call of its own
    finally:
        player.close()


def test_the_policy_player_reads_a_heads_file(heads_file):
    from goengine.game.state import GameState
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.search.limits import SearchLimits
    player = load_player(PlayerKind.POLICY, heads_file, log=lambda m: None)
    game = GameState(9, 7.5)
    assert game.board.is_legal(genmove(player, game, BLACK, SearchLimits(0)), BLACK)
    assert 0.0 <= player.win_rate(game, BLACK) <= 1.0


def test_kata_analyze_ownership_comes_from_the_ownership_head(heads_file):
    """The head speaks for the player to move; kata-analyze's map is for the side to move
    too, so for White the head's map goes through Black's view and back unchanged."""
    from goengine.game.state import GameState
    from goengine.nn import features
    from goengine.programs.engine_spec import PlayerKind, load_player
    player = load_player(PlayerKind.POLICY, heads_file, log=lambda m: None)
    game = GameState(9, 7.5)
    game.play(BLACK, 40)
    board = game.board_for(WHITE)
    head = on_planes.ownership(player.policy_eval, features.value_planes(board)).reshape(9, 9)
    assert np.allclose(player.ownership(game, WHITE), -head, atol=1e-6)   # Black's view
    assert not np.allclose(player.ownership(game, WHITE), player.scorer.ownership(board))


def test_the_trunk_and_value_head_start_as_a_value_network():
    value = nets.ValueNet(filters=8, layers=3).eval()
    heads = surgery.init_heads_from_value(nets.HeadsNet(filters=8, layers=3), value).eval()
    planes = torch.rand(4, nets.VALUE_PLANES, 19, 19).round()
    with torch.no_grad():
        assert torch.allclose(heads(planes)[1], value(planes), atol=1e-6)
    with pytest.raises(ValueError, match="shapes differ"):
        surgery.init_heads_from_value(nets.HeadsNet(filters=16, layers=3), value)


def test_heads_training_from_a_value_network_file(labelled_data, tmp_path):
    folder, cache = labelled_data
    for split in ("train", "val"):
        if not (cache / f"tygem-9d-{split}.labels.npz").exists():
            tool("label_games").main(["--store", str(cache / f"tygem-9d-{split}.npz"),
                                      "--rollouts", "16", "--no-progress"])
    value = tmp_path / "value.pt"
    netfile.save_network(str(value), nets.ValueNet(filters=8, layers=2))
    run = tmp_path / "from-value"
    tool("train_heads").main(heads_flags(folder, cache, run, f"--init-from-value={value}",
                                         "--max-positions=32"))
    state = torch.load(run / "checkpoint.pt", weights_only=True)
    assert state["kind"] == "heads" and state["arch"]["filters"] == 8 and state["arch"]["batch_norm"]


def head_lead(model, board, komi, white):
    """The score head's expected margin for the player to move on `board` at `komi`,
    computed here from the network's raw output (not through the engine's readers):
    its bins count the margin at komi 7."""
    planes = torch.as_tensor(features.value_planes(board)[None].astype(np.float32))
    with torch.no_grad():
        logits = model(planes)[model.heads.index("score")].float()
    margins = torch.arange(-nets.SCORE_RANGE, nets.SCORE_RANGE + 1, dtype=torch.float64)
    gain = komi - 7.0 if white else 7.0 - komi
    return float((torch.softmax(logits.double(), -1) * margins).sum()) + gain


def test_kata_analyze_score_lead_comes_from_the_score_head(heads_file):
    """Each reported move's scoreLead is the head's margin for the opponent after the move,
    komi added and negated (without one, the rollouts': test_gtp's GNU Go count check)."""
    import re
    import threading
    from goengine.game import coords
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.search.config import SearchConfig
    from tests.test_gtp import make_engine
    model = netfile.load_network(heads_file, head="score").eval()
    player = load_player(PlayerKind.SEARCH, heads_file, config=SearchConfig(sim_threads=1),
                         log=lambda m: None)
    engine = make_engine(player=player)
    try:
        engine.handle("komi 6.5")
        engine.handle("play B E5")
        threading.Timer(0.5, engine.interrupt.set).start()
        response = engine.handle("kata-analyze W 10")
        entries = re.findall(r"info move (\S+) visits \d+ winrate \S+ scoreLead (-?\d+\.\d\d) ",
                             response)
        assert len(entries) >= 3, response
        for vertex, lead in entries:
            move = coords.from_gtp(vertex, 9)
            board = engine.game.board_for(WHITE)
            board.play(move, WHITE)
            expected = -head_lead(model, board, 6.5, False)   # Black to move after White's
            assert float(lead) == pytest.approx(expected, abs=0.01), (vertex, lead)
    finally:
        player.close()


def test_review_scores_come_from_the_score_head(heads_file):
    from goengine.game.state import GameState
    from goengine.programs import review
    from goengine.programs.engine_spec import PlayerKind, load_player
    model = netfile.load_network(heads_file, head="score").eval()
    player = load_player(PlayerKind.POLICY, heads_file, log=lambda m: None)
    game = GameState(9, 7.5)
    game.play(BLACK, 40)
    score, source = review.position_score(player, game, WHITE, None)
    assert source == "the network"
    assert score == pytest.approx(head_lead(model, game.board_for(WHITE), 7.5, True), abs=1e-3)
    assert player.answers.score_lead(game, BLACK) is not None      # either colour may be asked


def test_distillation_learns_from_a_teacher_and_reports_the_human_move(labelled_data, tmp_path):
    """A smaller network trained with --teacher: its log carries the teacher's losses beside
    the human move's; a file that is no four-headed network is refused with one line."""
    folder, cache = labelled_data
    for split in ("train", "val"):   # resumable: nothing to do where the labels exist
        tool("label_games").main(["--store", str(cache / f"tygem-9d-{split}.npz"),
                                  "--rollouts", "16", "--no-progress"])
    torch.manual_seed(5)
    teacher = tmp_path / "teacher.pt"
    netfile.save_network(str(teacher), nets.HeadsNet(filters=8, layers=2))
    policy = tmp_path / "policy.pt"
    netfile.save_network(str(policy), nets.PolicyNet(filters=8, layers=2))
    train_heads = tool("train_heads")
    with pytest.raises(SystemExit, match="--teacher .*contains a policy network"):
        train_heads.main(heads_flags(folder, cache, tmp_path / "bad", f"--teacher={policy}"))
    run = tmp_path / "student"
    train_heads.main([*heads_flags(folder, cache, run, f"--teacher={teacher}",
                                   "--teacher-weight=0.7", "--max-positions=64"), "--filters=4"])
    header, *rows = (run / "log.csv").read_text().splitlines()
    assert "val_teacher_policy_loss" in header and "val_top1" in header and rows
    student = tmp_path / "student.pt"
    train_heads.main([*heads_flags(folder, cache, run, f"--export={student}"), "--filters=4"])
    assert netfile.load_network(str(student)).filters == 4


def test_the_distillation_loss_mixes_the_human_move_and_the_teacher():
    from training.tasks import HeadsTask
    torch.manual_seed(0)
    n, points = 6, 361
    policy, teacher_policy = torch.randn(n, points), torch.randn(n, points)
    value, teacher_value = torch.rand(n) * 2 - 1, torch.rand(n) * 2 - 1
    ownership, score = torch.zeros(n, points), torch.zeros(n, nets.SCORE_BINS)
    targets = torch.zeros(n, sampler.HEADS_OWNERSHIP + points)
    targets[:, sampler.HEADS_MOVE] = torch.arange(n)
    targets[:, sampler.HEADS_HAS_OUTCOME] = 1
    targets[:, sampler.HEADS_OUTCOME] = torch.tensor([1., -1, 1, -1, 1, -1])
    targets[:, sampler.HEADS_MARGIN] = float("nan")
    plain = HeadsTask(value_weight=0.5)
    outputs = (policy, value, ownership, score)
    base, base_sums = plain.loss(outputs, targets)
    soft = -(torch.softmax(teacher_policy, 1) * torch.log_softmax(policy, 1)).sum(1).mean()
    teacher_mse = ((value - teacher_value) ** 2).mean()
    base_means = tally(plain, base_sums, n)
    human, mse = base_means["policy_loss"], base_means["mse"]
    for w in (0.0, 0.3, 1.0):
        task = HeadsTask(value_weight=0.5, teacher=nets.HeadsNet(filters=2, layers=2),
                         teacher_weight=w)
        loss, sums = task.loss(outputs + (teacher_policy, teacher_value), targets)
        expected = base + (1 - w) * human + w * soft - human + 0.5 * (
            (1 - w) * mse + w * teacher_mse - mse)
        means = tally(task, sums, n)
        assert loss.item() == pytest.approx(expected.item(), rel=1e-5)
        assert means["policy_loss"] == pytest.approx(human)
        assert means["teacher_policy_loss"] == pytest.approx(soft.item(), rel=1e-5)


def test_a_pass_is_answered_only_where_the_ownership_head_doubts_no_point(tmp_path):
    """Black walls off columns 0-3, White 4-8, and Black has passed: the playouts count
    White's win beyond doubt, so White answers the pass. A head that leaves every point
    in doubt (its ownership output held at 0) stops that pass; the doubt is the less
    sure of the two judges point by point, seki apart."""
    from goengine.game.sgffile import Game
    from goengine.game.state import from_record
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.programs.loading import load_rollout
    from goengine.rollout.scoring import Scorer
    size = 9
    record = Game(size=size, komi=6.5, setup_black=[r * size + 3 for r in range(size)],
                  setup_white=[r * size + 4 for r in range(size)], moves=[(BLACK, PASS)],
                  winner=WHITE, result="W+15.5")
    game = from_record(record)
    assert game.to_move == WHITE
    scorer = Scorer(load_rollout())
    count = scorer.count(game.board)
    assert count.margin == -15.5 and count.winner_beyond_doubt() == WHITE
    own = scorer.ownership(game.board)
    assert scorer.count(game.board, own).doubtful == count.doubtful
    assert scorer.count(game.board, np.zeros((size, size))).doubtful == size * size
    torch.manual_seed(0)
    doubting = nets.HeadsNet(filters=8, layers=2, board_size=size)
    with torch.no_grad():
        doubting.ownership_conv.weight.zero_()
        doubting.ownership_conv.bias.zero_()
    sure = nets.HeadsNet(filters=8, layers=2, board_size=size)
    with torch.no_grad():   # sure of every point (doubt asks only how sure)
        sure.ownership_conv.weight.zero_()
        sure.ownership_conv.bias.fill_(-5.0)
    for name, net, passes in (("doubting", doubting, False), ("sure", sure, True)):
        path = tmp_path / f"{name}.pt"
        netfile.save_network(str(path), net)
        player = load_player(PlayerKind.SEARCH, str(path), log=lambda m: None)
        try:
            head = player.answers.network_ownership(game, WHITE)
            assert head.shape == (size, size)
            assert (player.count_winner(game, WHITE) == WHITE) == passes, name
        finally:
            player.close()


def walls_ownership():
    """The walls board's owners as a sure head sees them (+1 Black): Black's side with
    its dead White stone, nobody on the dame column, White's side."""
    own = np.zeros((9, 9))
    own[:, :5], own[:, 6:] = 1.0, -1.0
    return own


def test_a_settled_board_is_counted_and_an_open_one_is_not():
    """The walls board (test_labels: 45 - 27 - 6.5 = B+11.5, the lone White stone dead):
    a map sure of each side and unsure of the dame settles it. A map doubting Black's
    side (as a group in question would leave it), an empty board and a board whose
    border is still open are not settled: their counts say nothing of the end."""
    from goengine.game.sgffile import new_board
    from goengine.rollout.scoring import settled_margin
    board = new_board(walls_game("B+11.5", BLACK))
    own = walls_ownership()
    assert settled_margin(board, own) == 11.5
    own_black_dead = own.copy()
    own_black_dead[3:6, 0:3] = 0.2          # nine points in doubt: more than 2 % of 81
    assert settled_margin(board, own_black_dead) is None
    own_one_doubt = own.copy()
    own_one_doubt[0, 0] = 0.2               # one point in doubt is allowed
    assert settled_margin(board, own_one_doubt) == 11.5
    assert settled_margin(Board(9, 6.5), np.zeros((9, 9))) is None
    opened = Board(9, 6.5)                   # the walls stop at row 5: an open border
    opened.setup_stones(black=[r * 9 + 4 for r in range(5)], white=[r * 9 + 6 for r in range(5)])
    assert settled_margin(opened, own) is None


def test_the_reported_lead_is_the_count_once_the_ownership_head_settles_the_board(
        tmp_path, monkeypatch):
    """With an ownership head that sees the walls board as walls_ownership (from the
    mover's side, as heads speak), scoreLead and the review's score are the count,
    B+11.5, for whichever colour is asked and after a move; with the head unsure of
    every point the score head's own margin is the lead, as before."""
    from goengine.game.state import from_record
    from goengine.programs import review
    from goengine.programs.engine_spec import PlayerKind, load_player
    torch.manual_seed(0)
    path = tmp_path / "heads.pt"
    netfile.save_network(str(path), nets.HeadsNet(filters=8, layers=2, board_size=9))
    model = netfile.load_network(str(path), head="score").eval()
    player = load_player(PlayerKind.POLICY, str(path), log=lambda m: None)
    game = from_record(walls_game("B+11.5", BLACK))
    black_map = walls_ownership().reshape(-1).astype(np.float32)

    heads_as_they_are = player.policy_eval.evaluate

    def sure_head(boards, komi):              # the heads speak for each board's mover
        out = heads_as_they_are(boards, komi)
        out.ownership = np.stack([black_map if b.to_move == BLACK else -black_map
                                  for b in boards])
        return out

    unsure = player.answers.score_lead(game, WHITE)
    assert unsure == pytest.approx(head_lead(model, game.board_for(WHITE), 6.5, True), abs=0.01)
    monkeypatch.setattr(player.policy_eval, "evaluate", sure_head)
    assert player.answers.score_lead(game, BLACK) == 11.5
    assert player.answers.score_lead(game, WHITE) == -11.5
    assert review.position_score(player, game, WHITE, None) == (-11.5, "the network")
    # Black fills a point of its own area: still B+11.5, read from White's side and negated
    assert player.answers.child_score_leads(game, BLACK, [0]) == [11.5]
