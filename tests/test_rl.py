"""AlphaGo's RL stage at toy scale: batched self-play, the REINFORCE learner, its pool and
checkpoints (training/rl_*.py), and the Ray driver (tools/selfplay_rl.py)."""

import argparse
import copy
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip('torch')

from goengine import BLACK, PASS, WHITE, Board           # noqa: E402
from goengine.nn import features, netfile, nets          # noqa: E402
from goengine.nn.inference import NetworkEvaluator       # noqa: E402
from harness.openings import load_openings               # noqa: E402
from training.rl_games import current_moves, play_games, replay  # noqa: E402
from training.rl_learner import (Learner, RLSettings, RunError, backward_in_chunks,  # noqa: E402
                                 policy_gradient_loss, policy_gradient_terms, run_history,
                                 training_positions)
from tests.programs import TOOLS, tool                   # noqa: E402

GAMES = Path(__file__).resolve().parent / 'games'   # openings: the test games' first moves

@pytest.fixture
def tiny(tmp_path):
    torch.manual_seed(0)
    path = tmp_path / 'tiny.pt'
    netfile.save_network(path, nets.HeadsNet(filters=8, layers=2, board_size=9), half=False)
    return path


def test_self_play_games_are_legal_finished_and_repeatable(tiny):
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    games = play_games(policy, policy, 4, seed=3, size=9, komi=7.5)
    assert [g.current for g in games] == [BLACK, WHITE, BLACK, WHITE]
    for game in games:
        board = Board(9, 7.5, superko=False)
        for before, move in replay(game):
            assert move == PASS or not before.is_eye(move, before.to_move)
            board.play(move)                 # raises on an illegal move
        assert board.is_game_over() or len(game.moves) >= 2 * 81
        assert game.winner == (BLACK if board.area_score() > 0 else WHITE)
    again = play_games(policy, policy, 4, seed=3, size=9, komi=7.5)
    assert [g.moves for g in again] == [g.moves for g in games]


def policy_of(learner):
    return NetworkEvaluator(learner.model, threads=0)


def own_log_probability(model, game, draws):
    """Mean log p of the current policy's own moves in `game` as an update drawing from
    `draws` (a generator, consumed) takes them: the softmax over the sensible moves, so
    that before and after measure the one objective the step followed, on any CPU."""
    with torch.no_grad():
        loss, _ = policy_gradient_loss(model, [game], draws, baseline=False)
    return -float(loss) * game.outcome_for(game.current)


@pytest.mark.parametrize('won', [True, False])
def test_one_update_moves_the_policy_towards_a_win_and_away_from_a_loss(tiny, tmp_path, won):
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    games = play_games(policy, policy, 8, seed=1, size=9)
    game = next(g for g in games if (g.winner == g.current) == won)
    learner = Learner(tmp_path / 'run', tiny, RLSettings(lr=0.5, baseline=False))
    draws = copy.deepcopy(learner.rng)          # what the update will draw
    before = own_log_probability(learner.model, game, copy.deepcopy(draws))
    learner.update([game])
    after = own_log_probability(learner.model, game, draws)
    assert (after > before) if won else (after < before), (before, after)


def chosen_log_p(model, positions, temperature=1.0):
    """(log p of each move played, under softmax(logits / T) over the sensible moves; the
    value), computed here apart from the learner."""
    with torch.no_grad():
        logits, value = model(torch.from_numpy(positions.planes).float())[:2]
    log_p = torch.log_softmax((logits / temperature).masked_fill(
        ~torch.from_numpy(positions.sensible), float('-inf')), 1)
    return log_p[torch.arange(len(positions)), torch.from_numpy(positions.moves)], value


def test_each_move_is_trained_in_the_orientation_it_was_sampled_in(tiny):
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    games = play_games(policy, policy, 2, seed=6, size=9, max_moves=40)
    positions = training_positions(games, np.random.default_rng(0), policy.model.planes)
    own = [pair for game in games for pair in current_moves(game)]
    assert len(positions) == len(own) > 10
    for i, (board, move) in enumerate(own):     # the board as sample_moves read it
        assert np.array_equal(positions.planes[i],
                              features.input_planes(board, policy.model.planes))
        assert positions.moves[i] == move and positions.sensible[i][move]


def test_the_baseline_is_the_network_s_own_value_held_constant(tiny, tmp_path):
    learner = Learner(tmp_path / 'run', tiny, RLSettings(positions_per_game=3))
    games = play_games(policy_of(learner), policy_of(learner), 2, seed=2, size=9)
    model = learner.model
    positions = training_positions(games, np.random.default_rng(0), model.planes, 3)
    loss, entropy = policy_gradient_terms(model, positions)
    assert torch.isfinite(loss) and 0 < entropy / len(positions) <= np.log(81) + 1e-6
    chosen, value = chosen_log_p(model, positions)
    advantage = torch.from_numpy(positions.outcomes) - value
    assert float(loss.detach()) == pytest.approx(float(-(advantage * chosen).sum()), rel=1e-5)
    without, _ = policy_gradient_terms(model, positions, baseline=False)
    assert float(without.detach()) == pytest.approx(float(-(torch.from_numpy(positions.outcomes)
                                                    * chosen).sum()), rel=1e-5)
    value_head = {name: p.clone() for name, p in model.named_parameters() if 'value' in name}
    assert value_head
    learner.update(games)              # the step moves the policy, never the value head
    assert all(torch.equal(p, value_head[name])
               for name, p in model.named_parameters() if name in value_head)


def test_a_step_taken_in_chunks_has_the_gradient_of_one_pass(tiny, tmp_path):
    """The learner takes a step's positions a chunk at a time (memory), and the gradient
    it accumulates is the one pass's over all of them."""
    learner = Learner(tmp_path / 'run', tiny)
    games = play_games(policy_of(learner), policy_of(learner), 2, seed=6, size=9, max_moves=40)
    model = learner.model

    def gradient(step):
        model.zero_grad()
        result = step()
        return result, [p.grad.clone() for p in model.parameters() if p.grad is not None]

    (loss, entropy), whole = gradient(lambda: _backward_in_one_pass(model, games))
    positions = training_positions(games, np.random.default_rng(0), model.planes)
    assert len(positions) > 7
    (chunked_loss, chunked_entropy), chunked = gradient(
        lambda: backward_in_chunks(model, positions, chunk=7))
    assert whole and len(whole) == len(chunked)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(whole, chunked))
    assert abs(loss - chunked_loss) < 1e-5 and abs(entropy - chunked_entropy) < 1e-5


def _backward_in_one_pass(model, games):
    loss, entropy = policy_gradient_loss(model, games, np.random.default_rng(0))
    loss.backward()
    return float(loss.detach()), entropy


class OccupiedRaised(torch.nn.Module):
    """`model` with the policy logit of every occupied point raised by 50."""

    def __init__(self, model):
        super().__init__()
        self.model, self.planes = model, model.planes

    def forward(self, x):
        from goengine.nn.features import STONE_EMPTY
        policy, *rest = self.model(x)
        return (policy + 50.0 * (1 - x[:, STONE_EMPTY]).flatten(1), *rest)


def test_the_loss_is_the_log_probability_of_the_sensible_moves_sampled_from(tiny, tmp_path):
    """The games sample over the sensible moves alone, so the logits of occupied points
    cannot change the loss or the entropy."""
    from training.rl_games import SelfPlayGame
    learner = Learner(tmp_path / 'run', tiny)
    game = SelfPlayGame([40, 41, 31, 49, 30, 20, 39, 21], current=WHITE, winner=WHITE, size=9)
    plain = policy_gradient_loss(learner.model, [game], np.random.default_rng(0), baseline=False)
    raised = policy_gradient_loss(OccupiedRaised(learner.model), [game],
                                  np.random.default_rng(0), baseline=False)
    assert torch.allclose(plain[0], raised[0], atol=1e-5) and abs(plain[1] - raised[1]) < 1e-4


def test_at_a_temperature_the_games_and_the_gradient_are_those_of_softmax_logits_over_t(
        tiny, tmp_path):
    from training.rl_workers import SelfPlayWorker
    current = current_of(tiny)
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    played = SelfPlayWorker().play(current, current, 2, seed=3, size=9, max_moves=40,
                                   temperature=0.5)
    assert ([g.moves for g in played] ==
            [g.moves for g in play_games(policy, policy, 2, 3, size=9, max_moves=40,
                                         temperature=0.5)])
    learner = Learner(tmp_path / 'run', tiny, RLSettings(temperature=0.5))
    model = learner.model
    positions = training_positions(played, np.random.default_rng(0), model.planes)
    loss, entropy = policy_gradient_terms(model, positions, baseline=False, temperature=0.5)
    chosen, _ = chosen_log_p(model, positions, temperature=0.5)
    assert float(loss.detach()) == pytest.approx(
        float(-(torch.from_numpy(positions.outcomes) * chosen).sum()), rel=1e-5)
    at_one, _ = policy_gradient_terms(model, positions, baseline=False)
    assert float(at_one.detach()) != pytest.approx(float(loss.detach()), rel=1e-3)
    assert learner.update(played)['temperature'] == 0.5
    current, start = policy_of(learner), NetworkEvaluator(learner.start_network(), threads=0)
    studied = learner.games_against_start(2, seed=5)      # what tools/research reads
    assert ([g.moves for g in studied] ==
            [g.moves for g in play_games(current, start, 2, seed=5, size=9, temperature=0.5)])
    with pytest.raises(ValueError, match='temperature above 0'):
        RLSettings(temperature=0)


def test_the_pool_grows_on_schedule_and_its_draw_is_uniform(tiny, tmp_path):
    learner = Learner(tmp_path / 'run', tiny, RLSettings(pool_every=2, lr=0.01))
    games = play_games(policy_of(learner), policy_of(learner), 2, seed=4, size=9, max_moves=30)
    for _ in range(6):
        learner.update(games)
    assert [os.path.basename(p) for p in learner.pool] == ['000000.pt', '000002.pt',
                                                           '000004.pt', '000006.pt']
    rng = np.random.default_rng(7)
    draws = [learner.draw_opponent(rng) for _ in range(4000)]
    counts = [draws.count(p) for p in learner.pool]
    assert all(abs(c - 1000) < 5 * np.sqrt(4000 * 0.25 * 0.75) for c in counts), counts


def test_a_run_resumes_where_it_stopped(tiny, tmp_path):
    run = tmp_path / 'run'
    learner = Learner(run, tiny, RLSettings(pool_every=1, lr=0.05))
    games = play_games(policy_of(learner), policy_of(learner), 2, seed=5, size=9, max_moves=40)
    learner.update(games)
    learner.update(games)
    resumed = Learner(run)
    assert resumed.iteration == 2 and len(resumed.pool) == 3 and resumed.history == learner.history
    for a, b in zip(learner.model.state_dict().values(), resumed.model.state_dict().values()):
        assert torch.equal(a, b)
    assert resumed.settings == learner.settings


def test_the_rl_processes_keep_freed_memory_on_glibc():
    import platform
    from training.cpu_memory import keep_freed_memory
    if platform.libc_ver()[0] != 'glibc':
        pytest.skip('the top pad is a glibc setting')
    assert keep_freed_memory() is True


def test_the_curve_reads_the_run_s_own_log(tiny, tmp_path, capsys):
    run = tmp_path / 'run'
    learner = Learner(run, tiny, RLSettings(lr=0.01))
    games = play_games(policy_of(learner), policy_of(learner), 3, seed=6, size=9, max_moves=30)
    for _ in range(3):
        learner.update(games)
    won = sum(g.winner == g.current for g in games)
    assert tool('rl_curve').main(['--run-dir', str(run), '--every', '2']) is None
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f'iterations     1-2     {2 * won:>5} of 6 ')
    first_two = (learner.history[0]['loss'] + learner.history[1]['loss']) / 2
    assert lines[0].endswith(f', loss {first_two:+.3f}')
    assert lines[1].startswith(f'iterations     3-3     {won:>5} of 3 ')
    assert f'all 3 iterations: {3 * won} of 9' in lines[2]
    assert lines[-1] == f'last iteration: 3 games, lr 0.01, {learner.history[-1]["positions"]} positions'
    assert learner.history[-1]['positions'] > 0


def test_the_curve_s_trend_follows_the_win_rate():
    curve = tool('rl_curve')
    entries = lambda rates: [dict(iteration=i + 1, games=100, won=round(100 * r), win_rate=r)
                             for i, r in enumerate(rates)]
    rising, error = curve.trend(entries([0.4, 0.5, 0.6, 0.7]))
    assert rising == pytest.approx(10.0) and 0 < error < rising     # +0.1 an iteration
    falling, _ = curve.trend(entries([0.7, 0.6, 0.5, 0.4]))
    assert falling == pytest.approx(-10.0)
    flat, _ = curve.trend(entries([0.5, 0.5, 0.5]))
    assert flat == 0


def test_the_gradient_s_signal_is_read_without_bias_and_with_its_own_error():
    """Games whose gradients are a known G plus noise: |G|^2 comes out right on average,
    equal to |mean|^2 - tr(Cov) / n, and the jackknife's error is the estimates' spread."""
    noise = tool('rl_gradient_noise')
    generator = torch.Generator().manual_seed(0)
    signal_vector = torch.zeros(40, dtype=torch.float64)
    signal_vector[:4] = 0.5                                                  # |G|^2 = 1
    estimates, errors = [], []
    for _ in range(300):
        games = signal_vector + 0.4 * torch.randn(48, 40, generator=generator, dtype=torch.float64)
        trace, signal, error, mean = noise.spread(list(games))
        assert signal == pytest.approx(float(mean @ mean) - trace / 48)
        estimates.append(signal)
        errors.append(error)
    assert np.mean(estimates) == pytest.approx(1.0, abs=0.02)
    assert np.mean(errors) == pytest.approx(np.std(estimates), rel=0.2)
    assert noise.noise_scale(6.4, 1.0, 0.1) == '6.4 games'
    assert noise.noise_scale(6.4, 0.1, 0.1).startswith('above 21.3 games')


def test_a_resumed_run_keeps_its_settings_unless_told_and_steps_at_them(tiny, tmp_path):
    run, export = tmp_path / 'run', str(tmp_path / 'rl.pt')
    driver = tool('selfplay_rl').main
    assert driver(['--run-dir', str(run), '--init-weights', str(tiny), '--size', '9',
                   '--lr', '0.005', '--positions-per-game', '4', '--export', export]) == 0
    assert driver(['--run-dir', str(run), '--export', export]) == 0      # no flags: kept
    kept = Learner(run)
    assert (kept.settings.lr, kept.settings.positions_per_game) == (0.005, 4)
    assert kept.optimizer.param_groups[0]['lr'] == 0.005
    assert driver(['--run-dir', str(run), '--lr', '0.02', '--export', export]) == 0
    changed = Learner(run)
    assert (changed.settings.lr, changed.settings.positions_per_game) == (0.02, 4)
    assert changed.optimizer.param_groups[0]['lr'] == 0.02
    told = Learner(run, settings=RLSettings(lr=0.03))   # not the lr the saved state holds
    assert told.optimizer.param_groups[0]['lr'] == 0.03
    assert driver(['--run-dir', str(run), '--temperature', '0.5', '--export', export]) == 0
    assert Learner(run).settings.temperature == 0.5
    assert driver(['--run-dir', str(run), '--temperature', '0', '--export', export]) == 2
    assert Learner(run).settings.temperature == 0.5                  # the bad flag changed nothing


def test_the_run_keeps_its_network_every_n_iterations_as_it_would_ship(tiny, tmp_path):
    run, exported = tmp_path / 'run', tmp_path / 'export.pt'
    driver = lambda iterations: tool('selfplay_rl').main(            # noqa: E731
        ['--run-dir', str(run), '--init-weights', str(tiny), '--size', '9', '--games', '2',
         '--workers', '1', '--no-ray', '--no-progress', '--max-moves', '12',
         '--iterations', str(iterations), '--keep-every', '2'])
    assert driver(2) == 0
    Learner(run).export(exported)
    kept = run / 'networks' / '000002.pt'
    first, second = (netfile.load_network(p) for p in (kept, exported))
    assert first.extra == second.extra and first.extra['rl_iteration'] == 2
    assert all(torch.equal(a, b) for a, b in zip(first.state_dict().values(),
                                                 second.state_dict().values()))
    assert driver(1) == 0                                           # iteration 3: none kept
    assert sorted(os.listdir(run / 'networks')) == ['000002.pt']


def stat_fields(pid):
    """/proc/PID/stat's fields after the command's name: state, parent pid, ..."""
    with open(f'/proc/{pid}/stat') as f:
        return f.read().rsplit(')', 1)[1].split()


def alive(pid):
    """Running, not ended (gone, or a zombie)."""
    try:
        return stat_fields(pid)[0] != 'Z'
    except OSError:
        return False


def children_of(pid):
    """The live processes whose parent is `pid`."""
    found = []
    for entry in filter(str.isdigit, os.listdir('/proc')):
        try:
            state, parent = stat_fields(entry)[:2]
        except OSError:
            continue
        if int(parent) == pid and state != 'Z':
            found.append(int(entry))
    return found


@pytest.mark.skipif(not os.path.isdir('/proc'), reason='reads the processes from /proc')
def test_sigterm_ends_a_run_at_once_with_its_workers_and_a_checkpoint(tiny, tmp_path):
    """SIGTERM in the middle of an iteration far longer than the test: the driver writes
    its checkpoint and is gone within seconds, its worker processes with it."""
    run = tmp_path / 'run'
    driver = subprocess.Popen(
        [sys.executable, str(TOOLS / 'selfplay_rl.py'), '--run-dir', str(run),
         '--init-weights', str(tiny), '--size', '9', '--games', '100000', '--workers', '2',
         '--no-ray', '--no-progress'],
        stderr=subprocess.PIPE, text=True, cwd=TOOLS.parent)
    workers = []
    try:
        deadline = time.monotonic() + 120
        while len(children_of(driver.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)                       # two workers and the resource tracker
        workers = children_of(driver.pid)
        assert len(workers) >= 3, driver.stderr.read() if driver.poll() is not None else workers
        time.sleep(3)                             # the workers are playing
        driver.send_signal(signal.SIGTERM)
        _, err = driver.communicate(timeout=20)
    finally:
        for pid in [driver.pid] + workers:        # what a failure leaves
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        driver.wait()
    assert driver.returncode == 0 and 'stopped at iteration 0, checkpoint written' in err, err
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(pid) for pid in workers)
    assert Learner(run).iteration == 0


def test_a_corrupt_checkpoint_or_a_missing_start_is_one_clear_error(tiny, tmp_path):
    run = tmp_path / 'run'
    Learner(run, tiny)
    (run / 'checkpoint.pt').write_bytes(b'not a checkpoint')
    with pytest.raises(RunError, match='cannot read the RL checkpoint'):
        Learner(run)
    with pytest.raises(RunError, match='no weights to start from'):
        Learner(tmp_path / 'empty')
    with pytest.raises(RunError, match='no such checkpoint'):
        run_history(tmp_path / 'empty')


try:
    import ray
except ImportError:        # the cluster extra (pip install -e .[cluster]) is not installed
    ray = None
needs_ray = pytest.mark.skipif(ray is None, reason='Ray is not installed (pip install -e .[cluster])')


@pytest.fixture(scope='module')
def local_ray():
    before = signal.getsignal(signal.SIGTERM)     # ray.init installs its own handler
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
    signal.signal(signal.SIGTERM, before)


def args_for(**given):
    defaults = dict(games=4, size=9, komi=7.5, max_moves=60, chunk=1, seed=0)
    return argparse.Namespace(**{**defaults, **given})


@needs_ray
def test_two_ray_workers_play_the_games_the_learner_trains_on(tiny, tmp_path, local_ray):
    from training.rl_workers import spec_of
    learner = Learner(tmp_path / 'run', tiny)
    workers = tool('selfplay_rl').start_workers(ray, 2)
    spec = (('current', 0), spec_of(learner.model))
    games = tool('selfplay_rl').collect_games(ray, workers, spec, spec, args_for(), 1.0, 0,
                                              print)
    assert len(games) == 4 and {w for w in ray.get([w.pid.remote() for w in workers])} != {os.getpid()}
    assert learner.update(games)['games'] == 4


@needs_ray
def test_a_worker_killed_mid_iteration_loses_no_finished_game(tiny, tmp_path, local_ray):
    from training.rl_workers import spec_of
    learner = Learner(tmp_path / 'run', tiny)
    workers = tool('selfplay_rl').start_workers(ray, 2)
    victim = ray.get(workers[0].pid.remote())
    spec = (('current', 0), spec_of(learner.model))
    lines = []
    original_wait = ray.wait
    killed = []

    def wait_and_kill(refs, num_returns=1):
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
        return original_wait(refs, num_returns=num_returns)

    ray.wait = wait_and_kill
    try:
        games = tool('selfplay_rl').collect_games(ray, workers, spec, spec,
                                                  args_for(games=6, max_moves=200), 1.0,
                                                  0, lines.append)
    finally:
        ray.wait = original_wait
    assert len(games) == 6 and killed
    assert any('a worker died' in line for line in lines), lines
    assert learner.update(games)['games'] == 6


def test_the_engine_never_imports_ray():
    """The engine's own path (flags, loading, a genmove, GTP) ends with no Ray module loaded."""
    repo = TOOLS.parent
    code = ("import atexit, runpy, sys\n"
            "atexit.register(lambda: print('RAY' if any(m.split('.')[0] == 'ray' "
            "for m in sys.modules) else 'NO RAY', file=sys.stderr))\n"
            "sys.argv = ['gtp_main.py', '--network', 'small', '--playouts', '20']\n"
            "runpy.run_path('gtp_main.py', run_name='__main__')\n")
    result = subprocess.run([sys.executable, '-c', code], input='boardsize 19\ngenmove b\nquit\n',
                            capture_output=True, text=True, timeout=180, cwd=repo)
    assert result.stdout.count('=') >= 3 and result.stderr.strip().endswith('NO RAY'), result.stderr


@needs_ray
def test_an_unreachable_cluster_is_one_clear_line(tiny, tmp_path, capsys):
    code = tool('selfplay_rl').main(['--run-dir', str(tmp_path / 'run'), '--init-weights',
                                     str(tiny), '--address', '127.0.0.1:1', '--size', '9'])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and 'cannot reach the Ray cluster' in err[0]


# -- the value data of the RL run (AlphaGo's recipe, the current network playing out) ------

def value_job(tmp_path, games=5, chunk=2, seed=0):
    from training import selfplay
    from tests.test_selfplay import random_games
    starts = selfplay.StartPositions(random_games(9, 12), 7.5, size=9)
    return selfplay.RLValueData(tmp_path / 'values', starts, games, seed=seed, chunk=chunk)


def current_of(tiny):
    from training.rl_workers import spec_of
    return (('current', 0), spec_of(netfile.load_network(tiny)))


def shard_of(job, iteration):
    from training import value_shards
    meta, records = value_shards.read_shard(job.path(iteration))
    return records, meta


def test_value_data_chunks_played_out_by_a_worker_make_one_shard_under_the_seed(tiny, tmp_path):
    from training.rl_workers import SelfPlayWorker
    worker, current = SelfPlayWorker(), current_of(tiny)
    job = value_job(tmp_path)
    chunks = job.chunks(3)
    assert [len(drawn) for drawn, _ in chunks] == [2, 2, 1]
    parts = [worker.value_records(current, drawn, seed) for drawn, seed in chunks]
    assert job.write(3, parts)[0] == 5
    records, meta = shard_of(job, 3)
    assert meta['continuation'] == 'rl-policy' and meta['index'] == 3
    assert set(np.unique(records['outcome'])) <= {-1.0, 1.0}
    # the outcome is the count's, for the side to move at the start position
    black_won = records['score'] > 0
    assert np.array_equal(records['outcome'] > 0, black_won == (records['to_move'] == BLACK))
    again = [worker.value_records(current, drawn, seed) for drawn, seed in job.chunks(3)]
    for name in records:
        assert np.array_equal(np.concatenate([p[0][name] for p in again]), records[name])


@needs_ray
def test_ray_workers_make_the_value_shard_the_processes_make(tiny, tmp_path, local_ray):
    from training.rl_workers import value_in_process
    workers = tool('selfplay_rl').start_workers(ray, 2)
    current = current_of(tiny)
    on_ray = value_job(tmp_path / 'ray')
    assert tool('selfplay_rl').collect_value_data(ray, workers, ray.put(current), on_ray, 1,
                                                  print)[0] == 5
    local = value_job(tmp_path / 'local')
    local.write(1, [value_in_process(current, drawn, seed, 1.0, 0, 'cpu')
                    for drawn, seed in local.chunks(1)])
    (ray_records, _), (local_records, _) = shard_of(on_ray, 1), shard_of(local, 1)
    for name in ray_records:
        assert np.array_equal(ray_records[name], local_records[name]), name


def test_games_from_openings_start_there_and_train_only_on_the_policies_own_moves(tiny):
    """play_games' openings: games 2k and 2k+1 share the k-th, one with each colour; the
    policy gradient never takes an opening's move as the current policy's."""
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    openings = [[40, 41, 30], [10, 20, 30, 50]]
    games = play_games(policy, policy, 4, seed=3, size=9, openings=openings)
    for game, opening in zip(games, [openings[0], openings[0], openings[1], openings[1]]):
        assert game.moves[:len(opening)] == opening and game.start == len(opening)
        assert [b.move_number for b, _ in current_moves(game)][0] >= len(opening)
    assert [g.current for g in games] == [BLACK, WHITE, BLACK, WHITE]


def test_greedy_games_are_the_policies_most_probable_moves(tiny):
    policy = NetworkEvaluator(netfile.load_network(tiny), threads=0)
    first, second = (play_games(policy, policy, 2, seed=s, size=9, temperature=0.0)
                     for s in (1, 2))
    assert [g.moves for g in first] == [g.moves for g in second]     # no sampling at all
    board = Board(9, 7.5, superko=False)
    logits = policy.evaluate([board], 7.5).policy_logits[0]
    assert first[0].moves[0] == int(np.argmax(logits))


def judge_arguments(tmp_path):
    """rl_judge's arguments for two small networks, two games a way, 10-move openings."""
    paths = [tmp_path / f'{name}.pt' for name in ('rl', 'sl')]
    for path in paths:
        netfile.save_network(path, nets.HeadsNet(filters=4, layers=2, board_size=19), half=False)
    return ['--weights', str(paths[0]), '--against', str(paths[1]), '--games', '2',
            '--openings', str(GAMES), '--opening-moves', '10']


def test_the_judge_plays_four_ways_and_says_each_with_its_interval(tmp_path, capsys):
    torch.manual_seed(0)
    args = judge_arguments(tmp_path)
    rl_judge = tool('rl_judge')
    assert rl_judge.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(':')[0] for line in lines] == [
        'from the empty board, T = 1', 'from the empty board, greedy',
        'from 10-move openings, T = 1', 'from 10-move openings, greedy']
    assert all(re.search(r'won \d of 2 \(\d+\.\d %, Wilson \d+\.\d-\d+\.\d %', line)
               for line in lines)
    assert rl_judge.main(['--weights', str(tmp_path / 'none.pt')]) == 2
    assert rl_judge.main(args + ['--temperatures', '0.5']) == 0
    assert [line.split(':')[0] for line in capsys.readouterr().out.splitlines()] == [
        'from the empty board, T = 0.5', 'from 10-move openings, T = 0.5']


def test_the_judge_s_turned_network_is_the_network_read_in_that_symmetry(tmp_path):
    rl_judge = tool('rl_judge')
    torch.manual_seed(0)
    evaluator = NetworkEvaluator(nets.HeadsNet(filters=4, layers=2, board_size=19), threads=1)
    boards = [Board(19, 7.5) for _ in range(2)]
    boards[0].play(3 * 19 + 15)
    for symmetry in (0, 3, 6):
        turned = rl_judge.Turned(evaluator, symmetry).evaluate(boards, 7.5).policy_logits
        read = evaluator.evaluate(boards, 7.5, symmetries=[symmetry] * 2).policy_logits
        assert np.array_equal(turned, read)
    assert not np.allclose(rl_judge.Turned(evaluator, 3).evaluate(boards, 7.5).policy_logits,
                           evaluator.evaluate(boards, 7.5).policy_logits)


def test_the_judge_plays_a_set_of_games_in_each_symmetry_both_networks_read(monkeypatch):
    rl_judge = tool('rl_judge')
    sets = []

    def play(current, start, games, seed, **_):
        sets.append((current.symmetry, start.symmetry))
        return [argparse.Namespace(winner=BLACK, current=BLACK if i < 3 else WHITE)
                for i in range(games)]

    monkeypatch.setattr(rl_judge, 'play_games', play)
    assert rl_judge.judge('rl', 'sl', 4, 1, 0.0, (), 7.5, symmetries=[0, 3, 6]) == (9, 12)
    assert sets == [(0, 0), (3, 3), (6, 6)]


def test_the_judge_confirms_on_openings_it_has_not_used(tmp_path, capsys, monkeypatch):
    args = judge_arguments(tmp_path)
    rl_judge = tool('rl_judge')
    used = []
    monkeypatch.setattr(rl_judge, 'judge', lambda current, start, games, seed, temperature,
                        openings, komi, symmetries: used.append(openings) or (0, games))
    first = [[m for _, m in o] for o in load_openings(GAMES, 10, count=2)]
    assert rl_judge.main(args + ['--skip-openings', '1']) == 0
    assert used[2] == first[1:] and used[0] == ()
    assert rl_judge.main(args + ['--skip-openings', '100000']) == 2
    assert 'no opening left after the first 100000' in capsys.readouterr().err
