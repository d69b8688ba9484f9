"""No stone added to a group dead beyond doubt (goengine.players.dead_groups): the rule's
geometry on built boards, the search's refusal at the root, and the judges against GNU Go's
dead stones in a real game."""

from pathlib import Path

import numpy as np
import pytest

from goengine import BLACK, PASS, WHITE
from goengine.game import coords
from goengine.game.state import GameState
from goengine.players import dead_groups
from goengine.players.mcts_player import MCTSPlayer
from goengine.rollout.scoring import less_sure
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.search.limits import Barred

REPO = Path(__file__).resolve().parent.parent


def gtp(*vertices, size=9):
    return [coords.from_gtp(v, size) for v in vertices]


def board_of(black, white, size=9):
    game = GameState(size, 7.5)
    game.setup(black=gtp(*black, size=size), white=gtp(*white, size=size), to_move=BLACK)
    return game


def ownership(size=9, white=(), value=-1.0, rest=1.0):
    """A map that gives every point to Black (`rest`) but `white`'s, which get `value`."""
    own = np.full((size, size), rest)
    for p in gtp(*white, size=size):
        own[p // size, p % size] = value
    return own


# E5 and E6: a black chain in White's area. White D5, F5, D6, F6, E7 around it.
SURROUNDED = (('e5', 'e6'), ('d5', 'f5', 'd6', 'f6', 'e7'))


def test_a_chain_is_dead_where_the_less_sure_judge_still_gives_it_away():
    board = board_of(*SURROUNDED).board
    sure, unsure = (ownership(white=SURROUNDED[0] + SURROUNDED[1], value=v)
                    for v in (-0.95, -0.6))
    assert dead_groups.dead_chains(board, BLACK, sure, 0.9) == set(gtp('e5', 'e6'))
    assert dead_groups.dead_chains(board, BLACK, unsure, 0.9) == set()
    assert dead_groups.dead_chains(board, WHITE, sure, 0.9) == set()
    assert dead_groups.dead_chains(board, BLACK, less_sure([sure, unsure]), 0.9) == set()
    assert dead_groups.dead_group_fillers(board, BLACK, [sure, None], 0.9) == gtp('e4')
    assert dead_groups.dead_group_fillers(board, BLACK, [sure, unsure], 0.9) == []
    assert dead_groups.dead_group_fillers(board, BLACK, [None], 0.9) == []


def test_a_move_that_also_touches_a_living_chain_captures_or_ataris_is_no_filler():
    dead = set(gtp('e5', 'e6'))
    black, white = SURROUNDED
    beside_living = board_of(black + ('d4',), white).board
    assert not dead_groups.fills_dead_group(beside_living, gtp('e4')[0], BLACK, dead)
    # White E3 with one liberty, E4: the move captures it
    capturing = board_of(black + ('d3', 'f3', 'e2'), white + ('e3',)).board
    assert not dead_groups.fills_dead_group(capturing, gtp('e4')[0], BLACK, dead)
    # White E3 with two liberties, E4 and D3: the move puts it in atari
    atari = board_of(black + ('f3', 'e2'), white + ('e3',)).board
    assert not dead_groups.fills_dead_group(atari, gtp('e4')[0], BLACK, dead)
    plain = board_of(black, white).board
    assert dead_groups.fills_dead_group(plain, gtp('e4')[0], BLACK, dead)
    assert not dead_groups.fills_dead_group(plain, gtp('a1')[0], BLACK, dead)


class Judged(MCTSPlayer):
    """The search whose two judges, the ownership head and the rollouts' count, see `own`."""

    def __init__(self, own, **config):
        super().__init__(config=SearchConfig(mixing=1.0, **config), resign_threshold=0)
        self.own = own
        self.scorer.ownership = lambda board, seed=0, playouts=None: own
        self.answers.network_ownership = lambda game, color: own


def test_refused_moves_are_kept_where_nothing_but_a_pass_would_be_left():
    black, white = SURROUNDED
    game = board_of(black, white)
    search = Judged(None).search
    search.set_position(game, BLACK, barred=Barred(True, frozenset(gtp('e4', 'a1'))))
    children = search.tree.children()
    forbidden = {int(m) for m, f in zip(children['move'], children['forbidden']) if f}
    assert forbidden == set(gtp('e4', 'a1')) | {PASS}
    everything = [int(m) for m in children['move'] if m != PASS]
    search.set_position(game, BLACK, barred=Barred(True, frozenset(everything)))
    children = search.tree.children()
    assert {int(m) for m, f in zip(children['move'], children['forbidden']) if f} == {PASS}


def test_the_search_refuses_the_fillers_at_its_root():
    black, white = SURROUNDED
    game = board_of(black, white)
    player = Judged(ownership(white=('e5', 'e6') + white, value=-1.0))
    assert player.dead_group_fillers(game, BLACK) == gtp('e4')
    player.think(game, BLACK, SearchLimits(playouts=300))
    children = player.search.tree.children()
    refused = children['forbidden'][children['move'] == gtp('e4')[0]]
    assert list(refused) == [True] and children['forbidden'].sum() >= 1
    assert player.search.result().ranked[0] != gtp('e4')[0]
    off = Judged(player.own, dead_group_doubt=2.0)
    assert off.dead_group_fillers(game, BLACK) == []


def test_a_player_without_a_search_never_ranks_a_filler():
    from goengine.players.policy_player import SimplePlayer
    from goengine.rollout.scoring import Scorer
    black, white = SURROUNDED
    game = board_of(black, white)
    own = ownership(white=black + white, value=-1.0)
    player = SimplePlayer(scorer=Scorer())
    player.scorer.ownership = lambda board, seed=0, playouts=None: own
    player.answers.network_ownership = lambda game, color: own
    assert player.dead_group_fillers(game, BLACK) == gtp('e4')
    played = set()
    for seed in range(400):     # one random sensible move of about 70 each time
        player.rng.seed(seed)
        played.update(player.think(game, BLACK, SearchLimits()).ranked)
    assert gtp('e4')[0] not in played and len(played) > 50
