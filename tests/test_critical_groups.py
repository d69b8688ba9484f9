"""The points of the big groups the network is unsure of (goengine.players.critical_groups)
and the root's prior floor for them (Tree.floor_root_priors, SearchConfig.unsure_group_floor)."""

import numpy as np
import pytest

from goengine import BLACK, PASS, Board
from goengine.game import coords
from goengine.game.state import GameState
from goengine.players.critical_groups import unsure_group_points
from goengine.players.mcts_player import MCTSPlayer
from goengine.search._tree import Tree
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits


def gtp(*vertices, size=9):
    return [coords.from_gtp(v, size) for v in vertices]


# A black wall of six stones, C3-H3, in the open; a black pair at B8, C8.
WALL = ('c3', 'd3', 'e3', 'f3', 'g3', 'h3')


def position():
    game = GameState(9, 7.5)
    game.setup(black=gtp(*WALL, 'b8', 'c8'), white=gtp('c4', 'd4'), to_move=BLACK)
    return game


def ownership(value, points):
    own = np.ones((9, 9))
    for p in gtp(*points):
        own[p // 9, p % 9] = value
    return own


def test_a_big_chain_left_unsure_marks_its_liberties_and_the_points_beside_them():
    board = position().board
    marked = set(unsure_group_points(board, ownership(0.2, WALL), 0.5))
    liberties = set(board.chain_liberty_points(gtp('c3')[0]))
    assert liberties <= marked and gtp('e5')[0] in marked   # E4 is a liberty, E5 beside it
    assert not marked & set(gtp('b8', 'c8', 'a8', 'b7', 'c4', 'j9'))
    assert unsure_group_points(board, ownership(0.8, WALL), 0.5) == []      # sure: alive
    assert unsure_group_points(board, ownership(-0.8, WALL), 0.5) == []     # sure: dead
    assert unsure_group_points(board, ownership(0.2, WALL), 0.5, min_stones=7) == []


def test_the_floor_raises_the_moves_named_and_the_others_pay_for_it():
    tree = Tree(SearchConfig())
    tree.reset(Board(5))
    tree.prepare_root(False, False)
    before = tree.children()
    raised = gtp('a1', 'e5', size=5)
    tree.floor_root_priors(raised, 0.1)
    after = tree.children()
    for move, old, new in zip(before['move'], before['prior'], after['prior']):
        if move in raised:
            assert new == pytest.approx(max(0.1, old))
        elif move == PASS:
            assert new == old
        else:
            assert new < old
    assert after['prior'].sum() == pytest.approx(before['prior'].sum(), abs=1e-5)


class Unsure(MCTSPlayer):
    """The search with an ownership head that leaves the wall unsure."""

    def network_ownership(self, game, color):
        return ownership(0.2, WALL)


def test_the_search_gives_the_unsure_groups_points_the_floor_only_when_asked():
    game = position()
    marked = unsure_group_points(game.board, ownership(0.2, WALL), 0.5)
    player = Unsure(config=SearchConfig(mixing=1.0, unsure_group_floor=0.05), resign_threshold=0)
    player.think(game, BLACK, SearchLimits(playouts=50))
    children = player.search.tree.children()
    floored = [p for m, p in zip(children['move'], children['prior']) if m in marked]
    assert len(floored) == len(marked) and min(floored) >= 0.05 - 1e-6
    off = Unsure(config=SearchConfig(mixing=1.0), resign_threshold=0)
    assert off.unsure_group_points(game, BLACK, ownership(0.2, WALL)) == []
    off.think(game, BLACK, SearchLimits(playouts=50))
    assert max(p for m, p in zip(off.search.tree.children()['move'],
                                 off.search.tree.children()['prior']) if m in marked) < 0.05
    with pytest.raises(ValueError, match='unsure_group_floor'):
        SearchConfig(unsure_group_floor=1.0)
