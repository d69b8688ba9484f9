"""The distributed search on a Ray cluster of this machine: the tree here, rollouts and a
network in worker processes (goengine/search/remote.py, goengine/programs/cluster.py)."""

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from goengine import BLACK
from goengine.game.state import GameState
from goengine.programs.loading import load_rollout
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.search.search import Search

try:
    import ray
except ImportError:
    ray = None
needs_ray = pytest.mark.skipif(ray is None,
                               reason='Ray is not installed (pip install -e .[cluster])')
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope='module')
def local_ray():
    from goengine.programs import cluster
    started = cluster.connect(None)
    yield started
    started.shutdown()


def search_with_remote(local_ray, workers=1, log=print):
    from goengine.programs import cluster
    from goengine.search.remote import RemoteRollouts
    rollout = load_rollout()
    handles = cluster.rollout_workers(local_ray, workers, rollout)
    remote = RemoteRollouts(local_ray, handles, batch=16, lost_after=1.0, log=log)
    search = Search(None, None, rollout, SearchConfig(sim_threads=1), remote_rollouts=remote)
    return search, handles


@needs_ray
def test_visits_are_the_in_place_and_remote_answers_and_no_virtual_loss_is_left(local_ray):
    search, _ = search_with_remote(local_ray)
    search.set_position(GameState(9, 7.5), BLACK)
    remote, deadline = search.remote, time.monotonic() + 30
    while remote.stats['leaves'] <= 100 and time.monotonic() < deadline:
        search.run(SearchLimits(desired=1.0, maximum=1.0))   # seconds more on a busy CPU
    tree = search.tree
    children = tree.children()
    stats = tree.stats()
    assert remote.stats['leaves'] > 100               # the worker did play rollouts
    assert stats['rollouts'] > remote.stats['leaves']  # and so did the local thread
    assert tree.rollouts_in_flight == 0
    # every simulation is one visit of a root child, virtual losses all taken back
    assert int(np.sum(children['n_r'])) == stats['sims'] == search.result().visits
    # the visits a second run adds are its simulations, none counted twice
    before = stats['sims']
    search.run(SearchLimits(playouts=500))
    assert search.tree.stats()['sims'] - before == search.last_sims == 500
    assert int(np.sum(search.tree.children()['n_r'])) == before + 500
    search.close()


def answered_ping(ray, handle, seconds=60):
    """The worker's pid once its actor answers: while Ray restarts it, a ping fails."""
    from ray.exceptions import ActorUnavailableError
    deadline = time.monotonic() + seconds
    while True:
        try:
            return ray.get(handle.ping.remote(), timeout=seconds)
        except ActorUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


@needs_ray
def test_a_worker_killed_mid_search_costs_no_time_and_leaves_the_tree_whole(local_ray):
    lines = []
    search, handles = search_with_remote(local_ray, log=lines.append)
    victim = local_ray.get(handles[0].ping.remote())
    search.set_position(GameState(9, 7.5), BLACK)
    killer = threading.Timer(0.5, os.kill, (victim, signal.SIGKILL))
    killer.start()
    start = time.monotonic()
    search.run(SearchLimits(desired=2.0, maximum=2.0))
    assert time.monotonic() - start < 2.3               # the deadline held
    assert len(lines) == 1 and 'rollout worker 0 lost' in lines[0], lines   # one line a loss
    assert search.tree.rollouts_in_flight == 0
    assert int(np.sum(search.tree.children()['n_r'])) == search.tree.stats()['sims']
    # Ray restarts the worker: a later search uses it again
    assert answered_ping(local_ray, handles[0]) != victim
    deadline = time.monotonic() + 30
    search.run(SearchLimits(desired=1.0, maximum=1.0))
    while search.remote.stats['leaves'] == 0 and time.monotonic() < deadline:
        # on a busy CPU the restarted worker's first batch may outlast lost_after (1 s)
        search.run(SearchLimits(desired=1.0, maximum=1.0))
    assert search.remote.stats['leaves'] > 0
    assert lines[1:] == ['goengine: rollout worker 0 back'], lines
    search.close()


def gtp(args, commands, timeout=240, env=None):
    return subprocess.run([sys.executable, 'gtp_main.py', *args], input=commands, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, env=env)


def tiny_network(tmp_path):
    torch = pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    torch.manual_seed(0)
    weights = tmp_path / 'tiny.pt'
    netfile.save_network(weights, nets.HeadsNet(filters=8, layers=2, board_size=9), half=False)
    return weights


@needs_ray
def test_kata_analyze_runs_on_the_cluster(tmp_path):
    command = [sys.executable, 'gtp_main.py', '--weights', str(tiny_network(tmp_path)),
               '--cluster', 'auto', '--rollout-workers', '1']
    engine = subprocess.Popen(command, cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        engine.stdin.write('boardsize 9\nclear_board\nkata-analyze b 20\n')
        engine.stdin.flush()

        def answer():
            line = ''
            while not line.strip():
                line = engine.stdout.readline()
            return line
        for _ in range(2):
            assert answer().startswith('=')    # boardsize, clear_board
        line = answer()
        if line.strip() == '=':                 # kata-analyze's header line
            line = answer()
        assert line.startswith('info move ') and ' visits ' in line, line
        engine.stdin.write('quit\n')
        engine.stdin.flush()
        assert engine.wait(timeout=60) == 0
    finally:
        engine.kill()


@needs_ray
def test_one_rollout_and_one_network_worker_play_a_legal_game(tmp_path):
    from sgfmill import boards
    weights = tiny_network(tmp_path)
    moves = 24
    script = 'boardsize 9\nclear_board\nkomi 7\n' + ''.join(
        f'genmove {"bw"[i % 2]}\n' for i in range(moves)) + 'quit\n'
    run = gtp(['--weights', str(weights), '--cluster', 'auto', '--rollout-workers', '1',
               '--network-workers', '1', '--time-per-move', '0.4', '--resign-threshold', '0',
               '--verbose'], script)
    assert run.returncode == 0, run.stderr[-2000:]
    assert '1 rollout workers, 1 network workers' in run.stderr
    assert 'remote rollouts: 1 workers' in run.stderr
    answers = [line[2:] for line in run.stdout.split('\n') if line.startswith('=')][3:]
    assert len(answers) == moves + 1                   # and quit's
    board, ko = boards.Board(9), None
    for i, vertex in enumerate(answers[:moves]):
        colour = 'bw'[i % 2]
        if vertex.lower() == 'pass':
            ko = None
            continue
        col, row = 'ABCDEFGHJ'.index(vertex[0]), int(vertex[1:]) - 1
        assert (row, col) != ko, f'move {i + 1} {vertex} retakes the ko'
        ko = board.play(row, col, colour)          # ValueError on an occupied point
        assert board.get(row, col) == colour, f'move {i + 1} {vertex} is suicide'
    evals = [int(line.split(' network evaluations')[0].rsplit(', ', 1)[1])
             for line in run.stderr.split('\n') if ' network evaluations' in line]
    assert sum(evals) > 0


def test_a_network_worker_runs_in_the_precision_the_master_asks_for(tmp_path):
    from goengine.nn import backends
    from goengine.search.remote import NetworkWorker
    weights = str(tiny_network(tmp_path))
    assert NetworkWorker(weights, 'cpu', 1, precision='fp32').describe().precision == 'fp32'
    # auto is read on the worker's machine, as the master reads it on its own
    expected, _ = backends.pick_runtime('auto', 'auto', 'cpu').for_weights(weights)
    described = NetworkWorker(weights, 'cpu', 1).describe()
    assert (described.backend, described.precision) == (expected.backend, expected.precision)


@needs_ray
def test_a_network_worker_that_cannot_start_is_one_clear_error(local_ray, tmp_path):
    from goengine.programs import cluster
    missing = str(tmp_path / 'missing.pt')
    with pytest.raises(cluster.ClusterError) as raised:
        cluster.Workers(local_ray, None, 0, missing, 1, print)
    message = str(raised.value)
    assert message.startswith('a network worker did not start: ') and 'missing.pt' in message
    assert '\n' not in message


def test_an_unreachable_cluster_is_one_line_at_start_up():
    run = gtp(['--cluster', '127.0.0.1:9', '--weights', 'none'], 'quit\n', timeout=60)
    assert run.returncode == 2 and run.stdout == ''
    run = gtp(['--cluster', '127.0.0.1:9'], 'quit\n', timeout=60)
    assert run.returncode == 2
    lines = [line for line in run.stderr.split('\n') if 'error' in line]
    assert lines == ['goengine: error: cannot reach the Ray cluster at 127.0.0.1:9 (nothing '
                     'answers there: start its head with `ray start --head`)'], run.stderr


def test_the_cluster_without_ray_names_the_install_command(tmp_path):
    (tmp_path / 'ray').mkdir()
    (tmp_path / 'ray' / '__init__.py').write_text('raise ImportError("no ray here")\n')
    env = dict(os.environ, PYTHONPATH=f'{tmp_path}{os.pathsep}{ROOT}')
    run = gtp(['--cluster', 'auto'], 'quit\n', timeout=60, env=env)
    assert run.returncode == 2
    assert 'goengine: error: Ray is not installed: pip install -e .[cluster]' in run.stderr
