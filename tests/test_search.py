"""APV-MCTS: PUCT, virtual loss, backup, tree reuse, and whole searches on
small boards (rollouts only, and tiny networks built here)."""

import math
import time

import numpy as np
import pytest

from goengine import BLACK, PASS, WHITE, Board
from goengine.game import coords
from goengine.search._tree import Tree, utility_of_score
from goengine.search.config import SearchConfig
from goengine.game.state import GameState, fixed_handicap_points
from goengine.game.moves import RESIGN
from goengine.players.decision import genmove, sensible_mask
from goengine.players.policy_player import SimplePlayer
from goengine.players.mcts_player import MCTSPlayer
from goengine.search.search import Search, ThresholdControl
from goengine.search.root import Root
from goengine.players.decision import Decision
from goengine.players.heads import NetworkAnswers
from goengine.players.resign import ResignRule
from goengine.search.limits import SearchLimits


def gtp(*vertices, size=9):
    return [coords.from_gtp(v, size) for v in vertices]


def atari_game():
    """9x9, black to move: the four white stones C5-F5 have one liberty, G5."""
    game = GameState(9, 7.5)
    game.setup(black=gtp('c6', 'd6', 'e6', 'f6', 'b5', 'c4', 'd4', 'e4', 'f4'),
               white=gtp('c5', 'd5', 'e5', 'f5'), to_move=BLACK)
    assert game.board.chain_liberty_points(gtp('c5')[0]) == gtp('g5')
    return game


def best_move(search):
    """The most visited allowed root move (ties: higher Q); PASS when there is none."""
    ranked = search.result().ranked
    return ranked[0] if ranked else PASS


def root_at(search, game, color, **options):
    """search.set_position as genmove calls it outside cleanup: the player's Decision says
    whether the root may pass (not in the first half of the game, unless after a pass)."""
    barred = Barred(Decision.pass_barred(game, color, False, SearchConfig.pass_ban_fraction))
    return search.set_position(game, color, barred=barred, **options)


def fresh_tree(size=5, **overrides):
    tree = Tree(SearchConfig(**overrides))
    tree.reset(Board(size))
    tree.prepare_root(False, False)
    return tree


# -- the formulas ------------------------------------------------------------

def test_puct_picks_what_the_formula_says():
    cfg = SearchConfig(mixing=0.5, c_puct=5.0)
    tree = fresh_tree()
    kids = tree.children()['node']
    hand = {  # node: (prior, n_v, w_v, n_r, w_r)
        kids[0]: (0.30, 10, 6.0, 20, -2.0),
        kids[1]: (0.05, 0, 0.0, 4, 3.0),      # rollouts only: Q = W_r/N_r
        kids[2]: (0.20, 5, 4.0, 0, 0.0),      # value only: Q = W_v/N_v
        kids[3]: (0.25, 2, -1.0, 6, 1.0),
    }
    for i, node in enumerate(kids):
        prior, n_v, w_v, n_r, w_r = hand.get(node, (0.2 / (len(kids) - 4), 0, 0.0, 0, 0.0))
        tree.set_stats(int(node), prior=prior, n_v=n_v, w_v=w_v, n_r=n_r, w_r=w_r)

    def q(n_v, w_v, n_r, w_r):
        if n_v and n_r:
            return (1 - cfg.mixing) * w_v / n_v + cfg.mixing * w_r / n_r
        return w_r / n_r if n_r else (w_v / n_v if n_v else 0.0)

    c = tree.children()
    total = c['n_r'].sum()
    scores = [q(c['n_v'][i], c['w_v'][i], c['n_r'][i], c['w_r'][i])
              + cfg.c_puct * c['prior'][i] * math.sqrt(total) / (1 + c['n_r'][i])
              for i in range(len(c['node']))]
    assert tree.pick_child(tree.root) == c['node'][int(np.argmax(scores))]
    assert np.allclose(c['q'][:4], [q(*hand[k][1:]) for k in kids[:4]], atol=1e-6)


@pytest.mark.parametrize('fpu_from_parent, fpu_reduction, picks_unvisited', [
    (False, 0.0, False),   # an unvisited child counts as a draw: Q 0 < 0.5
    (True, 0.0, True),     # as good as its parent, 0.8 for the mover: worth a try
    (True, 0.5, False),    # its parent's 0.8 less 0.5 < 0.5
])
def test_first_play_urgency_from_the_parent(fpu_from_parent, fpu_reduction, picks_unvisited):
    tree = fresh_tree(c_puct=0.1, mixing=1.0, fpu_from_parent=fpu_from_parent,
                      fpu_reduction=fpu_reduction)
    kids = [int(k) for k in tree.children()['node']]
    visited, unvisited = kids[0], kids[1]
    for node in kids:
        tree.set_stats(node, prior=0.01, n_r=0, w_r=0.0)
    tree.set_stats(visited, prior=0.5, n_r=10, w_r=5.0)          # Q 0.5 for the mover
    tree.set_stats(unvisited, prior=0.02)                      # the best prior of the rest
    tree.set_stats(tree.root, n_r=10, w_r=-8.0)                # root: -0.8 for White, who
    chosen = tree.pick_child(tree.root)                        # moved into it: 0.8 for Black
    assert chosen == (unvisited if picks_unvisited else visited)


def test_the_score_utility_is_monotone_in_the_margin_and_bounded():
    margins = np.linspace(-400, 400, 801)
    u = np.array([utility_of_score(m, 20.0) for m in margins])
    assert (np.diff(u) > 0).all() and np.abs(u).max() < 1 and utility_of_score(0, 20.0) == 0
    assert utility_of_score(20, 20.0) == pytest.approx(0.5)             # half-way at the scale


@pytest.mark.parametrize('side, center', [(1.0, 0.0), (1.0, 25.0), (-1.0, -25.0)])
def test_among_moves_that_win_alike_selection_keeps_more_points(side, center):
    """Two children with the same win rate, visits and prior: win/loss alone cannot tell
    them apart (the first is taken); with a score weight the one whose rollouts end with
    the larger margin wins, whatever the center (the root player's expected score, seen
    from the side that chooses)."""
    for weight, wanted in ((0.0, 0), (0.3, 1)):
        tree = fresh_tree(c_puct=0.1, mixing=1.0, score_utility=weight)
        tree.score_center = center
        kids = [int(k) for k in tree.children()['node']]
        for node in kids:
            tree.set_stats(node, prior=0.01, n_r=0, w_r=0.0)
        for node, score in ((kids[0], 3.0), (kids[1], 30.0)):
            tree.set_stats(node, prior=0.3, n_r=50, w_r=45.0)
            tree.set_scores(node, 50, 50 * score)
        tree.set_stats(tree.root, n_r=100, w_r=-90.0)
        assert tree.pick_child(tree.root, side) == kids[wanted]
        assert np.allclose(tree.children()['q'][:2], 0.9)   # what is reported: win/loss


def test_the_utility_mixes_the_networks_score_with_the_rollouts_by_lambda():
    """Where values carry the score head's estimate, a child's mean score is
    (1 - lambda) its network scores' mean + lambda its rollouts': two children alike in
    win rate and rollout margin are told apart by the network's margin alone."""
    tree = fresh_tree(c_puct=0.1, mixing=0.5, score_utility=0.3)
    kids = [int(k) for k in tree.children()['node']]
    for node in kids:
        tree.set_stats(node, prior=0.01, n_r=0, w_r=0.0)
    for node, network_margin in ((kids[0], 2.0), (kids[1], 20.0)):
        tree.set_stats(node, prior=0.3, n_r=50, w_r=45.0, n_v=40, w_v=36.0)
        tree.set_scores(node, 50, 50 * 5.0, w_ns=40 * network_margin)
    tree.set_stats(tree.root, n_r=100, w_r=-90.0)
    assert tree.pick_child(tree.root) == kids[0]          # rollouts alone: alike, the first
    assert tree.children()['score'][:2] == pytest.approx([5.0, 5.0])
    tree.scores_with_values = True
    assert tree.pick_child(tree.root) == kids[1]
    assert tree.children()['score'][:2] == pytest.approx([3.5, 12.5])


def test_a_value_carries_its_network_score_up_the_tree():
    tree = fresh_tree(expand_threshold=0, mixing=0.5)
    tree.scores_with_values = True
    a = int(tree.children()['node'][0])
    tree.forbid([int(m) for m in tree.children()['move'][1:]])
    leaf = tree.descend_once()
    tree.backup_once(leaf, rollout=1, value=0.5, net_score=6.5)   # white to move at a
    assert (tree.node(a)['n_v'], tree.node(a)['w_ns']) == (1, -6.5)   # a's mover: black
    assert tree.node(tree.root)['w_ns'] == 6.5
    assert tree.children()['score'][0] == pytest.approx(-6.5)      # no rollout score yet


def test_the_networks_answer_brings_its_score_and_needs_one():
    tree = Tree(SearchConfig(mixing=0.5))
    tree.reset(Board(5))
    tree.scores_with_values = True
    tree.prepare_root(True, True)                         # queues the root for the network
    kinds, nodes, gens = tree.take_requests([Board(5)], 0.0)
    assert nodes == [tree.root]
    with pytest.raises(ValueError, match='scores'):
        tree.apply_values(nodes, gens, [0.25], offered=True)
    tree.apply_values(nodes, gens, [0.25], offered=True, scores=[3.0])
    root = tree.node(tree.root)
    assert root['value_done'] and (root['value'], root['net_score']) == (-0.25, -3.0)
    assert (root['n_v'], root['w_ns']) == (1, -3.0)


def tiny_heads_network():
    """A random four-headed network for 9x9, fp32 (its answers exact to compare)."""
    import torch
    from goengine.nn import inference, nets
    torch.manual_seed(0)
    return inference.NetworkEvaluator(nets.HeadsNet(filters=8, layers=3, board_size=9),
                                      use_bf16=False, threads=1)


def valued_root_children(search, game, color, count=3):
    """(record, planes in each of the 8 symmetries) for up to `count` root children that
    hold the network's value: the thread evaluated the position in one of them."""
    from goengine.nn import features
    c = search.tree.children()
    done = [(int(n), int(m)) for n, m in zip(c['node'], c['move'])
            if search.tree.node(int(n))['value_done']]
    assert done
    for node, move in done[:count]:
        board = game.board_for(color)
        board.play(move, color)
        planes = features.input_planes(board, search.networks.policy_eval.planes)
        yield search.tree.node(node), [features.apply_symmetry(planes, k) for k in range(8)]


def test_a_four_headed_network_feeds_the_score_utility():
    """A tiny four-headed network with the score utility on: the values it backs up
    are the value head's read at the game's komi and carry its score head's lead for the
    player to move (komi included; each in one of the 8 symmetries the network thread
    picks at random), and without the utility no lead."""
    net = tiny_heads_network()
    game = atari_game()
    for weight in (0.0, 0.3):
        search = Search(net, net, config=SearchConfig(mixing=0.5, score_utility=weight,
                                                      sim_threads=1, expand_threshold=1))
        try:
            root_at(search, game, BLACK)
            search.run(SearchLimits(playouts=200))
            assert search.tree.scores_with_values == (weight > 0)
            for record, turned in valued_root_children(search, game, BLACK):  # Black's view
                leads = [on_planes.score_lead(net, p, 7.5, True) for p in turned]  # White's
                values = [on_planes.value_at(net, p, 7.5, True) for p in turned]
                assert min(abs(record['value'] + v) for v in values) < 1e-4
                if weight == 0:
                    assert record['net_score'] == 0
                else:
                    assert min(abs(record['net_score'] + lead) for lead in leads) < 1e-3
        finally:
            search.close()


def lead_with_a_chain_to_take():
    """9x9, Black to move and far ahead. A White chain of five (B5-F5) has one liberty,
    G5, beside White's living group in the upper right: Black takes the chain at G5, or
    White connects it out there. Black's other moves fill its own open corners (A1-B2,
    A8-B9, E1-F1-E2). All of them keep the win; only G5 keeps the points."""
    game = GameState(9, 7.5)
    white = gtp('b5', 'c5', 'd5', 'e5', 'f5', 'g6', 'g7', 'g8', 'g9', 'h6', 'j6', 'h7', 'h9', 'j8')
    empty = set(gtp('g5', 'h8', 'j9', 'j7', 'a1', 'b1', 'a2', 'b2', 'a9', 'b9', 'a8', 'b8',
                    'e1', 'f1', 'e2'))
    black = [p for p in range(81) if p not in white and p not in empty]
    game.setup(black=black, white=white, to_move=BLACK)
    return game


def test_a_big_lead_is_kept_by_the_move_that_keeps_more_points():
    """Win/loss alone spreads the visits evenly over moves that all win (the first of
    them is played); with the score utility the search plays G5, and the win rate it
    reports is still the win/loss one."""
    game = lead_with_a_chain_to_take()
    g5 = gtp('g5')[0]
    assert game.board.chain_liberty_points(gtp('b5')[0]) == [g5]
    visits = {}
    for weight in (0.0, 0.5):
        search = Search(config=SearchConfig(mixing=1.0, score_utility=weight, sim_threads=1,
                                            expand_threshold=5))
        try:
            root_at(search, game, BLACK)
            search.run(SearchLimits(playouts=3000))
            c = search.tree.children()
            visits[weight] = dict(zip(c['move'].tolist(), c['n_r'].tolist()))
            scores = dict(zip(c['move'].tolist(), c['score'].tolist()))
            best, winrate = best_move(search), search.result().winrate
        finally:
            search.close()
        assert winrate > 0.95 and (best == g5) == (weight > 0)
    others = [m for m in scores if m not in (g5, PASS)]
    assert len(others) >= 6 and scores[g5] > max(scores[m] for m in others) + 5
    assert max(visits[0.0][m] for m in others) >= visits[0.0][g5]
    assert visits[0.5][g5] > max(visits[0.5][m] for m in others) + 30


def test_the_true_komi_outcome_is_kept_beside_the_shifted_one():
    tree = fresh_tree(expand_threshold=1000, mixing=1.0)
    a = int(tree.children()['node'][0])
    tree.forbid([int(m) for m in tree.children()['move'][1:]])
    tree.komi = tree.true_komi + 10                  # White's rollouts count 10 more points
    for _ in range(3):
        leaf = tree.descend_once()
        tree.backup_once(leaf, rollout=+1, score=4.5, true_score=-5.5)   # white to move at a
    c = tree.children()
    assert c['q'][0] == pytest.approx(-1.0)          # black's view: lost at the shifted komi
    assert c['q_true'][0] == pytest.approx(1.0)      # and won at the true one
    tree.komi = tree.true_komi
    assert tree.children()['q_true'][0] == tree.children()['q'][0]


def test_the_values_at_the_true_komi_are_kept_beside_the_shifted_ones():
    tree = fresh_tree(expand_threshold=1000, mixing=0.5)
    a = int(tree.children()['node'][0])
    tree.forbid([int(m) for m in tree.children()['move'][1:]])
    tree.komi = tree.true_komi + 10                  # White's count is 10 points better
    leaf = tree.descend_once()                       # white to move at a
    tree.backup_once(leaf, rollout=+1, score=4.5, true_score=-5.5, value=0.6, true_value=-0.2)
    assert (tree.node(a)['w_v'], tree.node(a)['w_vt']) == pytest.approx((-0.6, 0.2))
    c = tree.children()                              # black's view
    assert c['q'][0] == pytest.approx(0.5 * -0.6 + 0.5 * -1.0)
    assert c['q_true'][0] == pytest.approx(0.5 * 0.2 + 0.5 * 1.0)


def test_win_rates_are_reported_at_the_true_komi_under_dynamic_komi():
    """White gives two stones on 9x9 with so much dynamic komi that every rollout wins
    for it: the search's own Q says so, while the win rate it reports, resigns on and
    shows in analysis is the true count's, where Black's stones tell."""
    game = GameState(9, 0.5)
    game.place_handicap(fixed_handicap_points(2, 9))
    reported = {}
    for per_stone in (0.0, 50.0):
        search = Search(config=SearchConfig(mixing=1.0, sim_threads=1, expand_threshold=5,
                                            dynamic_komi_per_stone=per_stone))
        try:
            root_at(search, game, WHITE, dynamic_komi=True)
            search.run(SearchLimits(playouts=2000))
            c = search.tree.children()
            visited = c['n_r'] > 0
            infos = search.result().candidates
            reported[per_stone] = (search.result().winrate, search.result().root_winrate, infos[0].winrate)
            resign_estimate = (1 + search.root().best_q()) / 2
            if per_stone:
                assert (c['q'][visited] == 1.0).all()
        finally:
            search.close()
    true_rate = reported[0.0][1]
    assert true_rate < 0.6
    for rate in reported[50.0]:
        assert rate == pytest.approx(true_rate, abs=0.12)
    # the best of the well-visited moves, each at the true komi: not the shifted 1.0
    assert max(reported[50.0]) <= resign_estimate < 0.9


def test_virtual_loss_spreads_parallel_selections():
    tree = fresh_tree(expand_threshold=1000, virtual_loss=3)
    leaves = [tree.descend_once() for _ in range(6)]      # six simulations in flight
    assert len(set(leaves)) == 6
    for leaf in leaves:
        assert tree.node(leaf)['n_r'] == 3 and tree.node(leaf)['w_r'] == -3
        tree.backup_once(leaf, rollout=-1)    # the player to move at the leaf lost
    for leaf in leaves:
        assert tree.node(leaf)['n_r'] == 1 and tree.node(leaf)['w_r'] == 1


def test_backup_arithmetic_and_signs():
    tree = fresh_tree(expand_threshold=0, virtual_loss=3, mixing=0.5)
    a = int(tree.children()['node'][0])
    tree.forbid([int(m) for m in tree.children()['move'][1:]])   # only `a` may be chosen
    root = tree.root

    leaf = tree.descend_once()
    assert leaf == a                                 # a stub: no expansion on its first visit
    tree.backup_once(leaf, rollout=+1, score=4.5)    # white (to move at a) wins by 4.5
    assert (tree.node(a)['n_r'], tree.node(a)['w_r']) == (1, -1)   # a's mover is black
    assert (tree.node(root)['n_r'], tree.node(root)['w_r']) == (1, 1)
    assert (tree.node(a)['n_s'], tree.node(a)['w_s']) == (1, -4.5)
    assert (tree.node(root)['n_s'], tree.node(root)['w_s']) == (1, 4.5)
    assert (tree.node(a)['w_t'], tree.node(root)['w_t']) == (-1, 1)   # the same count at the true komi

    b = tree.descend_once()                          # a passed n_thr = 0: expanded, one step more
    assert tree.node(b)['parent'] == a and tree.node(a)['num_children'] > 0
    tree.backup_once(b, rollout=-1, value=0.5)       # black to move at b: loses the rollout, v = 0.5
    assert (tree.node(b)['n_r'], tree.node(b)['w_r']) == (1, 1)      # b's mover is white
    assert (tree.node(b)['n_v'], tree.node(b)['w_v']) == (1, -0.5)
    assert (tree.node(a)['n_r'], tree.node(a)['w_r']) == (2, -2)
    assert (tree.node(a)['n_v'], tree.node(a)['w_v']) == (1, 0.5)
    assert (tree.node(root)['n_r'], tree.node(root)['w_r']) == (2, 2)
    assert (tree.node(root)['n_v'], tree.node(root)['w_v']) == (1, -0.5)
    assert tree.node(a)['q'] == pytest.approx(0.5 * 0.5 + 0.5 * (-2 / 2))
    assert tree.node(a)['n_s'] == 1                  # b's backup carried no score
    tree.backup_once(b, score=-2.5)                  # black to move at b loses by 2.5
    assert (tree.node(b)['n_s'], tree.node(b)['w_s']) == (1, 2.5)
    assert (tree.node(a)['n_s'], tree.node(a)['w_s']) == (2, -7.0)
    assert tree.children()['score'][0] == pytest.approx(-3.5)   # a's mean, black's view


def test_most_visited_move_is_chosen():
    search = Search(config=SearchConfig(expand_threshold=1000))
    game = GameState(5, 0.5)
    root_at(search, game, BLACK)
    c = search.tree.children()
    target = int(c['move'][7])
    for i, node in enumerate(c['node']):
        # the most visited move has neither the best Q nor the best prior
        n = 50 if i == 7 else 10
        search.tree.set_stats(int(node), n_r=n, w_r=0.0 if i == 7 else 0.8 * n,
                              prior=0.01 if i == 7 else 0.2)
    assert best_move(search) == target


# -- whole searches ------------------------------------------------------------

def test_rollouts_alone_find_the_capture():
    # One simulation thread and fixed seeds make the search deterministic. With
    # uniform priors over 82 moves one unlucky first rollout can starve a move
    # for thousands of simulations (Q starts at -1, u grows with sqrt(N)); a
    # trained tree policy's prior on the capture is what prevents that in play.
    for seed in (0, 1):
        search = Search(config=SearchConfig(mixing=1.0, expand_threshold=5, sim_threads=1,
                                            seed=seed))
        root_at(search, atari_game(), BLACK)
        search.run(SearchLimits(30.0, playouts=3000))
        assert best_move(search) == gtp('g5')[0]
        assert search.stats()['rollouts'] == 3000 and search.stats()['value_backups'] == 0
        assert not search.root().unsure()        # the capture is both the most visited and the best


def test_a_one_thread_search_playing_for_points_repeats_itself():
    # The score utility's center is taken from the tree at every descent, not on a
    # clock: with one thread and a seed two searches visit exactly alike, however
    # busy the machine.
    visits = []
    for _ in range(2):
        search = Search(config=SearchConfig(mixing=1.0, expand_threshold=5, sim_threads=1,
                                            score_utility=0.3, seed=3))
        root_at(search, atari_game(), BLACK)
        search.run(SearchLimits(30.0, playouts=2000))
        visits.append(search.tree.children()['n_r'].tolist())
        assert search.tree.score_center != 0.0      # it did move off its start
    assert visits[0] == visits[1]


def test_a_decided_search_stops_early_with_the_same_move():
    # One thread and a seed make the search deterministic, so the early stop
    # sees a prefix of the full search's simulations: it must end on the move
    # the full search plays, and sooner. The check runs every 0.1 s, so the
    # budget must outlast several checks even on an idle machine (20,000
    # simulations take about 1.2 s here; 3,000 took 0.18 s and never stopped).
    budget = 20_000
    for seed in (0, 1):
        searches = []
        for early in (False, True):
            search = Search(config=SearchConfig(mixing=1.0, expand_threshold=5, sim_threads=1,
                                                seed=seed))
            root_at(search, atari_game(), BLACK)
            search.run(SearchLimits(60.0, playouts=budget), stop_when_decided=early)
            searches.append(search)
        full, early = searches
        assert full.last_sims == budget and early.last_sims < budget
        assert best_move(early) == best_move(full) == gtp('g5')[0]


def test_genmove_saves_time_when_the_move_is_clear():
    player = MCTSPlayer(config=SearchConfig(mixing=1.0, expand_threshold=5), resign_threshold=0)
    game = atari_game()
    start = time.monotonic()
    move = genmove(player, game, BLACK, SearchLimits(4.0))
    elapsed = time.monotonic() - start
    player.close()
    assert move == gtp('g5')[0] and elapsed < 3.5, elapsed


def test_tree_reuse_keeps_the_subtree():
    game = GameState(9, 7.5)
    search = Search(config=SearchConfig(mixing=1.0, expand_threshold=3))
    root_at(search, game, BLACK)
    search.run(SearchLimits(3.0, playouts=3000))
    move = best_move(search)
    kept = search.tree.children()
    i = list(kept['move']).index(move)
    child = int(kept['node'][i])
    before = search.tree.node(child)
    grandchildren = search.tree.children(child)
    game.play(BLACK, move)
    assert root_at(search, game, WHITE)
    after = search.tree.node(search.tree.root)
    assert (after['n_r'], after['w_r']) == (before['n_r'], before['w_r'])
    now = search.tree.children()
    assert list(now['move']) == list(grandchildren['move'])
    assert list(now['n_r']) == list(grandchildren['n_r'])
    assert search.tree.node_count < kept['n_r'].sum() * 100   # the rest was dropped
    # Another game (or colour) is a fresh root.
    assert not root_at(search, GameState(9, 7.5), BLACK)
    assert search.result().visits == 0
    assert not root_at(search, game, BLACK)      # same moves, the other colour to move


def test_memory_cap_is_respected():
    search = Search(config=SearchConfig(mixing=1.0, expand_threshold=0, max_nodes=1000))
    root_at(search, GameState(9, 7.5), BLACK)
    search.run(SearchLimits(0.5))
    stats = search.stats()
    assert stats['nodes'] <= 1000 and stats['pool_full'] > 0
    assert search.last_sims > 100     # the search goes on without expanding


def test_search_returns_within_its_budget():
    player = MCTSPlayer(config=SearchConfig(mixing=1.0))
    game = GameState(19, 7.5)
    for budget in (0.2, 0.6):
        start = time.monotonic()
        move = genmove(player, game, BLACK, SearchLimits(budget))
        elapsed = time.monotonic() - start
        assert elapsed < budget + 0.1, elapsed
        assert game.board.is_legal(move, BLACK)
    player.close()


def test_resigns_only_when_hopeless_and_past_the_opening():
    game = GameState(5, 100.5)          # komi no board can beat
    for color, move in zip([BLACK, WHITE] * 3, gtp('a1', 'e5', 'a2', 'e4', 'a3', 'e3', size=5)):
        game.play(color, move)
    player = MCTSPlayer(config=SearchConfig(mixing=1.0))
    assert player.decision.resign_threshold == pytest.approx(0.1)      # Q < -0.8
    assert genmove(player, game, BLACK, SearchLimits(0.3)) == RESIGN
    assert player.search.root().best_q() < -0.8
    quiet = MCTSPlayer(config=SearchConfig(mixing=1.0), resign_threshold=0)
    assert genmove(quiet, game, BLACK, SearchLimits(0.2)) != RESIGN
    early = GameState(5, 100.5)
    assert genmove(player, early, BLACK, SearchLimits(0.2)) != RESIGN      # never in the opening


def test_never_illegal_never_own_eye():
    # Black's living group with two true eyes (A1, C1) and nothing else to do but pass.
    game = GameState(5, 0.5)
    black = [m for m in range(25) if m not in gtp('a1', 'c1', size=5)]
    game.setup(black=black, white=[], to_move=BLACK)
    search = Search(config=SearchConfig(mixing=1.0))
    root_at(search, game, BLACK)
    search.run(SearchLimits(0.2))
    assert best_move(search) == PASS
    # A short game between two searches: every move legal (superko included)
    # and no move fills the mover's own true eye.
    game = GameState(7, 7.5)
    player = MCTSPlayer(config=SearchConfig(mixing=1.0, expand_threshold=2), resign_threshold=0)
    color = BLACK
    for _ in range(40):
        move = genmove(player, game, color, SearchLimits(0.03))
        if move == PASS:
            if game.last_move and game.last_move[1] == PASS:
                break
        else:
            assert game.board.is_legal(move, color)
            assert not game.board.is_eye(move, color)
        game.play(color, move)
        color = 3 - color
    player.close()


# -- with networks (tiny ones, built here) ------------------------------------------

import torch  # noqa: E402  (slow to import: only the tests below need it)

from goengine.nn import on_planes  # noqa: E402
from goengine.search.limits import Barred


def material_value_net(size=9, alpha=0.1):
    """A hand-set 2-layer value network: tanh(alpha * (own stones - opponent stones))."""
    from goengine.nn import inference, nets
    net = nets.ValueNet(filters=2, layers=2, board_size=size, hidden=2)
    n = size * size
    with torch.no_grad():
        conv = net.trunk[0].conv
        conv.weight.zero_()
        conv.bias.zero_()
        conv.weight[0, 0, 2, 2] = 1.0          # own stones (plane 0)
        conv.weight[1, 1, 2, 2] = 1.0          # opponent stones (plane 1)
        net.head.conv.weight[0, :, 0, 0] = torch.tensor([1.0, -1.0])
        net.head.conv.bias.fill_(1.0)          # relu(own - opp + 1): 2, 0 or 1 per point
        net.fc.weight[0].fill_(1.0)
        net.fc.weight[1].fill_(-1.0)
        net.fc.bias[:] = torch.tensor([-float(n), float(n)])
        net.out.weight[0] = torch.tensor([alpha, -alpha])
        net.out.bias.zero_()
    return inference.NetworkEvaluator(net.eval(), use_bf16=False, threads=1)


def test_value_net_alone_finds_the_capture():
    value = material_value_net()
    on_planes.value(value, np.zeros((49, 9, 9), np.uint8))      # warm up torch
    search = Search(value_eval=value, config=SearchConfig(mixing=0.0, expand_threshold=5))
    try:
        root_at(search, atari_game(), BLACK)
        search.run(SearchLimits(1.0))
        c = search.tree.children()
        # lambda = 0: Q is the value mean alone wherever a value has arrived
        has_v = c['n_v'] > 0
        assert has_v.sum() > 10
        assert np.allclose(c['q'][has_v], c['w_v'][has_v] / c['n_v'][has_v], atol=1e-5)
        assert best_move(search) == gtp('g5')[0]
    finally:
        search.close()


def test_tiny_random_networks_drive_the_search():
    from goengine.nn import inference, nets
    torch.manual_seed(0)
    policy = inference.NetworkEvaluator(nets.PolicyNet(filters=8, layers=3, board_size=9), threads=1)
    value = inference.NetworkEvaluator(nets.ValueNet(filters=8, layers=3, board_size=9), threads=1)
    player = MCTSPlayer(policy, value, config=SearchConfig(expand_threshold=3))
    try:
        game = atari_game()
        move = genmove(player, game, BLACK, SearchLimits(1.0))
        stats = player.search.stats()
        assert player.search.tree.root_priors_final        # the SL priors replaced the placeholders
        assert stats['policy_evals'] > 0 and stats['value_evals'] > 0
        assert stats['value_backups'] > 0
        assert game.board.is_legal(move, BLACK) and not game.board.is_eye(move, BLACK)
        assert player.answers.policy(game, BLACK).shape == (81,)
        assert 0 <= player.win_rate(game, BLACK) <= 1
    finally:
        player.close()


def test_a_failing_network_does_not_stall_the_search():
    class Broken:
        def describe(self):
            from goengine.nn.inference import NetworkInfo
            return NetworkInfo('policy', ('policy',), 48, 9, 'cpu', 'torch')

        def evaluate(self, boards, komi, **options):
            raise RuntimeError('out of memory')

    logged = []
    # playouts: a fixed amount of work, however busy the machine is
    player = MCTSPlayer(Broken(), config=SearchConfig(mixing=1.0, expand_threshold=2,
                                                      max_expand_threshold=2,
                                                      max_pending_policy=2),
                        log=logged.append)
    player.answers = NetworkAnswers()      # no direct network answers from the broken net
    try:
        game = GameState(9, 7.5)
        move = genmove(player, game, BLACK, SearchLimits(30.0, playouts=1000))   # a stalled
        # search would run into the 30 s
        assert game.board.is_legal(move, BLACK)
        assert player.search.last_sims >= 100              # it did not stall
        assert player.search.stats()['expansions'] > 10      # the queue cap was not eaten up
        assert any('RuntimeError: out of memory' in line for line in logged)
    finally:
        player.close()


class StubTree:
    """Just what ThresholdControl reads: the deferral counter, the policy queue, n_thr."""

    def __init__(self, n_thr):
        self.expand_threshold = n_thr
        self.deferred = 0
        self.pending = 0

    def stats(self):
        return dict(deferred_expansions=self.deferred, pending_policy=self.pending)


def test_expand_threshold_follows_the_network():
    cfg = SearchConfig(expand_threshold=40, max_expand_threshold=100, max_pending_policy=16)
    tree = StubTree(40)
    control = ThresholdControl(tree, cfg)
    tree.deferred, tree.pending = 5, 16          # the network is behind: n_thr rises
    control.update()
    assert tree.expand_threshold == 51
    for _ in range(10):
        tree.deferred += 3
        control.update()
    assert tree.expand_threshold == 100          # ... up to the ceiling
    tree.pending = 8                             # no deferrals, but the queue is half full: hold
    control.update()
    assert tree.expand_threshold == 100
    tree.pending = 2                             # the network has room: n_thr falls
    control.update()
    assert tree.expand_threshold == 90
    for _ in range(30):
        control.update()
    assert tree.expand_threshold == 40           # ... never below the paper's 40


def test_tree_exposes_expand_threshold():
    tree = fresh_tree(expand_threshold=7)
    assert tree.expand_threshold == 7
    tree.expand_threshold = 12
    assert tree.expand_threshold == 12


def test_analysis_shows_a_barely_visited_move_at_the_roots_win_rate():
    """A move with 1-2 visits that lost its rollouts is not a 0 % move: below
    report_min_visits, infos() gives the root's win rate (Leela Zero does the same)."""
    config = SearchConfig(mixing=1.0, expand_threshold=1000, report_min_visits=10, seed=3,
                          sim_threads=1)
    search = Search(config=config)
    game = GameState(9, 7.5)
    root_at(search, game, BLACK)
    search.run(SearchLimits(playouts=400))        # at 200 the most visited move had 9-10 visits
    root = search.result().root_winrate
    infos = search.result(100).candidates
    few = [info for info in infos if info.visits < 10]
    many = [info for info in infos if info.visits >= 10]
    assert few and many and 0 < root < 1
    assert all(info.winrate == root for info in few)
    raw = {int(m): (1 + float(q)) / 2 for m, q, n in zip(*(search.tree.children()[k] for k in
                                                         ('move', 'q', 'n_r'))) if n > 0}
    assert any(raw[info.move] != root for info in few)      # their own Q would differ
    assert all(info.winrate == pytest.approx(raw[info.move]) for info in many)
    search.close()


def settled_game(to_move):
    """9x9 with nothing left to play: Black owns columns A-E (45 points), White F-J
    (36), every empty point a one-point eye. Black wins by 45 - 36 - 7.5 = 1.5."""
    size, eyes = 9, {'b2', 'b5', 'b8', 'd2', 'd5', 'd8', 'g2', 'g5', 'g8', 'j3', 'j7'}
    black, white = [], []
    for col in 'abcdefghj':
        for row in range(1, size + 1):
            v = f'{col}{row}'
            if v not in eyes:
                (black if col <= 'e' else white).append(coords.from_gtp(v, size))
    game = GameState(size, 7.5)
    game.setup(black=black, white=white, to_move=to_move)
    return game


@pytest.mark.parametrize('color, lead', [(BLACK, 1.5), (WHITE, -1.5)])
def test_score_lead_is_the_rollouts_final_score_for_the_side_to_move(color, lead):
    """On a board with nothing left to play, every rollout ends at the true area
    score, so each move's score lead is exactly that, from the mover's view."""
    search = Search(config=SearchConfig(mixing=1.0, sim_threads=1, seed=2))
    root_at(search, settled_game(color), color)
    search.run(SearchLimits(playouts=300))
    infos = search.result().candidates
    assert infos and sum(info.visits for info in infos) >= 290
    assert all(info.score_lead == pytest.approx(lead) for info in infos)
    assert search.result().score == pytest.approx(lead)
    assert search.result().candidates[0].winrate == (1.0 if lead > 0 else 0.0)
    search.close()


def test_dynamic_komi_falls_linearly_and_only_in_handicap_games():
    config = SearchConfig(dynamic_komi_per_stone=7.0, dynamic_komi_moves=200)
    assert config.dynamic_komi(5, 0) == 35.0
    assert config.dynamic_komi(5, 100) == 17.5
    assert config.dynamic_komi(5, 200) == config.dynamic_komi(5, 250) == 0.0
    assert config.dynamic_komi(0, 0) == config.dynamic_komi(1, 0) == 0.0
    assert SearchConfig().dynamic_komi(9, 0) == 0.0          # off by default
    with pytest.raises(ValueError):
        SearchConfig(dynamic_komi_per_stone=-1)


class FourStoneGame(GameState):
    """settled_game's position counted as if Black had taken four stones."""
    handicap = 4


@pytest.mark.parametrize('to_move, lead', [(WHITE, -1.5), (BLACK, 1.5)])
def test_dynamic_komi_counts_the_rollouts_but_not_the_reports(to_move, lead):
    """Black wins the settled position by 1.5. White giving four stones with one
    point a stone of dynamic komi counts its rollouts 4 points better: they all
    win for White (the search's own Q); the win rate and score reported stay the
    true count's."""
    settled = settled_game(to_move)
    game = FourStoneGame(9, 7.5, ruleset='new_zealand')   # no handicap compensation
    game.setup(black=settled.setup_black, white=settled.setup_white, to_move=to_move)
    assert game.scoring_komi == 7.5 and game.move_number == 0
    config = SearchConfig(mixing=1.0, sim_threads=1, seed=2, dynamic_komi_per_stone=1.0)
    for dynamic_komi, white_wins in ((False, False), (True, True)):
        search = Search(config=config)
        root_at(search, game, to_move, dynamic_komi=dynamic_komi)
        search.run(SearchLimits(playouts=200))
        q = search.tree.children()['q']
        assert ((q + 1) / 2 == (1.0 if white_wins == (to_move == WHITE) else 0.0)).all()
        assert search.result().root_winrate == (0.0 if to_move == WHITE else 1.0)
        assert search.result().score == pytest.approx(lead)
        assert all(info.score_lead == pytest.approx(lead) for info in search.result().candidates)
        search.close()


def test_a_four_headed_networks_values_follow_dynamic_komi():
    """White giving four stones counts with 4 more points: the network's values are
    read at that komi for the search and at the true one for the reports (each in one
    of the 8 symmetries the network thread picks)."""
    net = tiny_heads_network()
    game = FourStoneGame(9, 7.5, ruleset='new_zealand')
    game.setup(black=gtp('c3', 'g3', 'c7', 'g7'), white=[], to_move=WHITE)
    config = SearchConfig(mixing=0.5, sim_threads=1, expand_threshold=1,
                          dynamic_komi_per_stone=1.0)
    search = Search(net, net, config=config)
    try:
        root_at(search, game, WHITE, dynamic_komi=True)
        assert search.tree.komi == pytest.approx(11.5) and search.tree.true_komi == 7.5
        search.run(SearchLimits(playouts=150))
        for record, turned in valued_root_children(search, game, WHITE):   # White's view
            for key, komi in (('value', 11.5), ('value_true', 7.5)):   # Black to move
                values = [on_planes.value_at(net, p, komi, False) for p in turned]
                assert min(abs(record[key] + v) for v in values) < 1e-4
            assert record['value'] != pytest.approx(record['value_true'], abs=1e-4)
    finally:
        search.close()


def test_white_giving_handicap_resigns_late_and_only_when_far_lower():
    """Networks and rollouts made on even games see handicap stones as a lost game:
    White giving 3 stones keeps playing at 5 % early on, and resigns only past half
    the board's plies and below 10 % / (1 + 3)."""
    decision = Decision(ResignRule(0.10))
    winrate = 0.05
    handicap = GameState(9, 0.5)
    handicap.place_handicap(gtp('c3', 'g7', 'g3', size=9))
    even = GameState(9, 7.5)
    for game in (handicap, even):
        for color, move in zip([WHITE, BLACK] * 10 if game is handicap else [BLACK, WHITE] * 10,
                               gtp(*'a1 j9 a2 j8 a3 j7 a4 j6 a5 j5 a6 j4 a7 j3 a8 j2'.split(),
                                   size=9)):
            game.play(color, move)
    assert even.move_number == handicap.move_number == 16 > 81 / 6
    assert decision.should_resign(even, WHITE, winrate)                # an even game: 5 % < 10 %
    assert not decision.should_resign(handicap, WHITE, winrate)        # move 16 < 81 / 2
    for color, move in zip([WHITE, BLACK] * 20, gtp(*'b1 h9 b2 h8 b3 h7 b4 h6 b5 h5 b6 h4 b7 '
                                                     'h3 b8 h2 c1 g9 c2 g8 c4 g6 c5 g5 c6 '
                                                     'g4'.split(), size=9)):
        handicap.play(color, move)
    assert handicap.move_number > 81 / 2
    assert not decision.should_resign(handicap, WHITE, winrate)        # 5 % > 10 % / 4
    winrate = 0.02
    assert decision.should_resign(handicap, WHITE, winrate)
    assert decision.should_resign(handicap, BLACK, winrate)            # Black taking handicap: as usual


def test_a_pass_on_a_board_counted_lost_beyond_doubt_is_answered_by_resigning():
    """Black walls off columns a-e, White f-j (45 points to 36; at komi 20.5 White wins by
    11.5, and White's area is too narrow to invade), and White has passed: Black's count
    loses beyond doubt, and a search playing on would only fill its own area while White
    passes (the small network's lost games ran 100 moves past White's first pass). Black
    resigns, without searching; it plays on where it never resigns (threshold 0), in
    cleanup, and when the last move was no pass."""
    from goengine.programs.engine_spec import PlayerKind, load_player
    from goengine.programs.loading import load_rollout
    game = GameState(9, 20.5)
    for row in range(1, 10):
        game.play(BLACK, coords.from_gtp(f'e{row}', 9))
        game.play(WHITE, coords.from_gtp(f'f{row}', 9))
    game.play(BLACK, coords.from_gtp('a1', 9))
    no_pass = game.copy()
    game.play(WHITE, PASS)
    assert game.move_number == 20 > 81 / 6
    rollout = load_rollout()
    limits = SearchLimits(1.0, playouts=50)
    resigning = load_player(PlayerKind.SEARCH, rollout=rollout, config=SearchConfig(mixing=1.0))
    never = load_player(PlayerKind.SEARCH, rollout=rollout, config=SearchConfig(mixing=1.0),
                        resign_threshold=0)
    try:
        assert Decision.needs_count(game, BLACK, False)   # the opponent passed
        assert resigning.count_winner(game, BLACK) == WHITE
        count = resigning.decision.answer_by_count
        assert count(game, BLACK, resigning.count_winner(game, BLACK)) == RESIGN
        assert never.decision.answer_by_count(game, BLACK, never.count_winner(game, BLACK)) is None
        assert genmove(resigning, game.copy(), BLACK, limits) == RESIGN
        assert resigning.search.last_sims == 0                  # no search ran
        mask = sensible_mask(game.board, BLACK)
        assert not Decision.needs_count(game, BLACK, True)   # cleanup never counts
        counted = resigning.count_winner(game, BLACK)
        assert resigning.decision.answer_to_pass(game, BLACK, mask, True, counted) is None
        assert not Decision.needs_count(no_pass, BLACK, False)
        # with no sensible move left (say), the same count resigns instead of passing,
        # though White played on (j9, in its own area)
        nothing = np.zeros(81, dtype=bool)
        played_on = no_pass.copy()
        played_on.play(WHITE, coords.from_gtp('j9', 9))
        lost = resigning.count_winner(played_on, BLACK)
        assert resigning.decision.answer_to_pass(played_on, BLACK, nothing, False, lost) == RESIGN
        assert never.decision.answer_to_pass(played_on, BLACK, nothing, False, lost) == PASS
        assert genmove(never, game.copy(), BLACK, limits) not in (RESIGN, PASS)
    finally:
        resigning.close()
        never.close()


def test_an_unsure_search_thinks_past_its_budget_up_to_the_limit(monkeypatch):
    game = GameState(9, 7.5)
    player = MCTSPlayer(config=SearchConfig(mixing=1.0), resign_threshold=0)
    timings, runs = {}, []
    run = Search.run
    monkeypatch.setattr(Search, 'run', lambda self, *a, **k: runs.append(1) or run(self, *a, **k))
    for unsure, limit in ((True, 0.8), (False, 0.8), (True, None)):
        monkeypatch.setattr(Root, 'unsure', lambda self, answer=unsure: answer)
        start = time.monotonic()
        move = genmove(player, game, BLACK, SearchLimits(0.2, limit))
        timings[unsure, limit] = time.monotonic() - start
        assert game.board.is_legal(move, BLACK)
    player.close()
    assert len(runs) == 3     # one start of the search threads a move: Search.run's stop rule
    assert 0.5 <= timings[True, 0.8] <= 0.85, timings            # went on, within the limit
    assert timings[False, 0.8] <= 0.3 and timings[True, None] <= 0.3, timings


def test_a_decided_search_stops_early_unless_told_to_spend_its_time(monkeypatch):
    monkeypatch.setattr(Search, 'decided', lambda self, *args: True)
    monkeypatch.setattr(Root, 'unsure', lambda self: False)
    game = GameState(9, 7.5)
    timings = {}
    for stop in (True, False):
        player = MCTSPlayer(config=SearchConfig(mixing=1.0, stop_when_decided=stop),
                            resign_threshold=0)
        start = time.monotonic()
        genmove(player, game, BLACK, SearchLimits(0.6))
        timings[stop] = time.monotonic() - start
        player.close()
    assert timings[True] < 0.35 and timings[False] >= 0.55, timings
