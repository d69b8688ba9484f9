"""The zero search (SearchConfig.search_mode 'zero'): AlphaGo Zero's, with the network at
every leaf and no rollouts. A tiny random four-headed network on 9x9 serves it."""

import time

import pytest

from goengine import BLACK
from goengine.game.state import GameState
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.search._tree import ZERO_COLLISION_WAIT_SECONDS
from goengine.search.search import Search
from goengine.search.limits import Barred

torch = pytest.importorskip('torch')


@pytest.fixture(scope='module')
def heads():
    from goengine.nn import nets
    from goengine.nn.inference import NetworkEvaluator
    torch.manual_seed(3)
    return NetworkEvaluator(nets.HeadsNet(filters=8, layers=2, board_size=9), use_bf16=False,
                            threads=1)


def zero_search(heads, **settings):
    config = SearchConfig(search_mode='zero', sim_threads=1, seed=5, **settings)
    return Search(heads, heads, None, config)


def search_once(search, playouts):
    game = GameState(9, 7.5)
    search.set_position(game, BLACK, barred=Barred(True))
    search.run(SearchLimits(60.0, playouts=playouts))
    return search


def walk(tree, node=-1):
    """Every node below `node` (default the root) with its children's statistics."""
    c = tree.children(node)
    for i in range(len(c['move'])):
        yield c, i
        if c['n_r'][i] > 0:
            yield from walk(tree, int(c['node'][i]))


def test_no_rollout_is_played_and_every_leaf_is_evaluated_once(heads):
    search = zero_search(heads)
    try:
        search_once(search, 300)
        stats = search.stats()
        assert search.tree.zero and stats['rollouts'] == 0
        assert stats['sims'] == 300 and search.last_sims == 300
        # every expansion asked the network once (the root's included), and only those
        assert stats['policy_evals'] == stats['expansions']
        assert stats['ladder_evals'] == 0       # no ladder on a near empty board
    finally:
        search.close()


def test_visits_add_up_with_no_virtual_loss_left(heads):
    search = zero_search(heads, max_pending_policy=8, batch_size=8)
    try:
        search_once(search, 400)
        tree = search.tree
        assert tree.stats()['waiting'] == 0
        root = tree.children()
        # 400 visits: one of them the root's own evaluation where the first simulation
        # found it still on its way (else the root's priors came before any simulation)
        assert int(root['n_r'].sum()) in (399, 400)
        for c, i in walk(tree):
            n_r, n_v = int(c['n_r'][i]), int(c['n_v'][i])
            assert n_r == n_v, (n_r, n_v)       # each visit one value, no virtual loss left
            assert -1.0 <= c['q'][i] <= 1.0
            if n_r > 0:
                below = tree.children(int(c['node'][i]))
                assert int(below['n_r'].sum()) == n_r - 1   # the node's own evaluation
    finally:
        search.close()


def test_a_one_thread_search_with_one_leaf_in_flight_repeats_itself(heads):
    visits = []
    for _ in range(2):
        search = zero_search(heads, max_pending_policy=1, batch_size=1)
        try:
            search_once(search, 200)
            visits.append(search.tree.children()['n_r'].tolist())
        finally:
            search.close()
    assert visits[0] == visits[1] and sum(visits[0]) > 0


class SlowNetwork:
    """The tiny network, each call 20 ms late and counted: a CPU's network, slow against
    the simulations waiting on it."""

    def __init__(self, network):
        self.network, self.calls = network, 0

    def __getattr__(self, name):
        return getattr(self.network, name)

    def evaluate(self, *args, **options):
        self.calls += 1
        time.sleep(0.02)
        return self.network.evaluate(*args, **options)


def test_a_simulation_that_finds_its_leaf_on_its_way_waits_for_the_network(heads):
    """Until an answer comes, a descent that found its leaf in flight would find it again:
    the thread waits for the answer (looking again at most every ZERO_COLLISION_WAIT, 2 ms)
    instead of spinning on the core the network needs (thousands of looks a second)."""
    slow = SlowNetwork(heads)
    search = zero_search(slow, max_pending_policy=4, batch_size=4)
    try:
        started = time.monotonic()
        search_once(search, 60)
        elapsed = time.monotonic() - started
        assert search.stats()['sims'] == 60
        # one look per answer, and one per wait without one (twice that, for slack)
        looks_per_second = 1 / ZERO_COLLISION_WAIT_SECONDS
        assert search.stats()['collisions'] <= slow.calls + 2 * elapsed * looks_per_second
    finally:
        search.close()


def test_without_a_network_for_the_board_it_falls_back_to_rollouts(heads):
    search = zero_search(heads)
    try:
        game = GameState(7, 7.5)                 # the network is for 9x9
        search.set_position(game, BLACK, barred=Barred(True))
        search.run(SearchLimits(60.0, playouts=100))
        assert not search.tree.zero and search.stats()['rollouts'] == 100
    finally:
        search.close()


def test_the_mode_is_checked():
    with pytest.raises(ValueError, match='search_mode'):
        SearchConfig(search_mode='alphazero')
    assert SearchConfig(search_mode='zero').simulation_threads(True) == 1
