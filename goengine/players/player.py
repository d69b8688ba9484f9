"""The engine interface the GTP layer drives (`Player`).

A player only thinks (`think`: a SearchResult for the position and limits);
decision.genmove turns that into genmove's answer, for every player alike. What its
networks say is `answers` (players.heads.NetworkAnswers). The engine's real player is
the search (goengine.players.mcts_player); the two players without a search are in
goengine.players.policy_player. Moves are ints as in docs/API.md; PASS = -1 and
RESIGN = -2.
"""

import sys

import numpy as np

from goengine.game.moves import RESIGN, MoveInfo, SearchResult  # noqa: F401  (the answers)
from goengine.players import dead_groups
from goengine.players.decision import Decision, sensible_mask
from goengine.players.heads import NetworkAnswers
from goengine.players.resign import ResignRule
from goengine.rollout import scoring
from goengine.search.config import SearchConfig


class Player:
    """Base class and interface. Subclasses override `think` and give `answers` their
    networks.

    `interrupt` arguments are objects with `wait(timeout) -> bool` that
    returns True once the caller wants the work to stop (a threading.Event
    qualifies); the GTP layer passes its stdin reader so the next command
    stops analysis or pondering.
    """

    name = 'player'
    verbose = False                # --verbose: the decision logs why at each branch

    def __init__(self, config=None, policy_eval=None, value_eval=None, resign_threshold=None,
                 scorer=None, log=None):
        self.config = config or SearchConfig()   # dead_group_doubt, lost_ladder_prior
        if log is not None:
            self.log = log
        self.answers = NetworkAnswers(policy_eval, value_eval, self.log,   # what its
                                      self.config.lost_ladder_prior)       # networks say
        self.decision = Decision(self.resign_rule(resign_threshold))   # pass, resign, legality
        self.scorer = scorer or scoring.Scorer()  # judges dead stones

    def resign_rule(self, threshold):
        """The ResignRule at `threshold` (None: AlphaGo's 10 %), or None where the player
        has no win rate to resign on."""
        if not self.has_win_rate:
            return None
        return ResignRule() if threshold is None else ResignRule(threshold)

    @property
    def has_win_rate(self):
        """Without a search, the win rate is the value network's."""
        return self.value_eval is not None

    @property
    def value_eval(self):
        """The value network's evaluator, where the player has one."""
        return self.answers.value_eval

    def log(self, line):
        print(line, file=sys.stderr, flush=True)

    # -- a move --------------------------------------------------------------

    def think(self, game, color, limits, cleanup=False, report=None, interval=1.0,
              full=False):
        """A SearchResult for `color` to move in `game` within `limits` (genmove's and the
        review's). Without a search: the policy's sensible moves by probability (or the
        player's own order, `ranking`), the value network's win rate; its candidates
        where they are shown (`full`, or a `report`, called once)."""
        mask = sensible_mask(game.board_for(color), color)
        mask[self.dead_group_fillers(game, color)] = False
        probs = self.answers.policy(game, color)
        if probs is None:
            probs = mask.astype(np.float32)
        winrate = self.answers.value(game, color)
        shown = full or report is not None
        result = SearchResult(self.ranking(probs, mask), winrate=winrate,
                              resign_winrate=winrate, root_winrate=winrate,
                              candidates=self.candidates(game, color, mask=mask, probs=probs)
                              if shown else [])
        if report is not None:
            report(result)
        return result

    def dead_group_fillers(self, game, color):
        """The moves that only add a stone to a group of `color`'s that the ownership head
        and the rollouts' count both call dead beyond doubt (players.dead_groups): never
        played. The rollouts are asked only where the head finds such a group; without
        an ownership head there are no such moves."""
        board = game.board_for(color)
        head = self.answers.network_ownership(game, color)
        doubt = self.config.dead_group_doubt
        if head is None or not dead_groups.dead_chains(board, color, head, doubt):
            return []
        playouts = self.scorer.ownership(board, playouts=dead_groups.PLAYOUTS)
        return dead_groups.dead_group_fillers(board, color, [head, playouts], doubt)

    def ranking(self, probs, mask):
        """The sensible moves from most to least probable (ties: the lower point first)."""
        return [int(m) for m in np.argsort(-np.asarray(probs), kind='stable') if mask[m]]

    def count_winner(self, game, color):
        """The winner by our count of the board now (dead stones removed, our ownership
        head's doubtful points in doubt) where it wins beyond doubt, else None: only such
        a count answers a pass (decision.genmove)."""
        count = self.scorer.count(game.board, self.answers.network_ownership(game, color))
        return count.winner_beyond_doubt()

    # -- analysis --------------------------------------------------------------

    def analyze(self, game, color, report, interrupt, interval=1.0, barred=None,
                limits=None, count=10):
        """Report a SearchResult every `interval` seconds until `interrupt` fires, or with
        `limits` (a SearchLimits) until they are reached too; the last SearchResult, with
        the `count` best moves, is returned (the analysis engine's answer).

        barred: {(colour, move): plies} the analysis may not play (lz-analyze's avoid and
        allow; here only the first ply matters). report: None, or called with each
        SearchResult. Without a search the candidates never change, so they are computed
        once and repeated (GUIs expect a steady stream); with limits they are the answer.
        """
        mask = sensible_mask(game.board_for(color), color)
        for (who, move), plies in (barred or {}).items():
            if who == color and move >= 0 and plies >= 1:
                mask[move] = False
        result = SearchResult([], winrate=self.win_rate(game, color),
                              candidates=self.candidates(game, color, count, mask=mask))
        if report is not None:
            report(result)
        while limits is None and not interrupt.wait(max(0.01, interval)):
            if report is not None:
                report(result)
        return result

    def win_rate(self, game, color):
        """The player's own win rate in [0, 1] for `color` to move now (the value
        network's without a search), or None."""
        return self.answers.value(game, color)

    def ownership(self, game, color):
        """Who ends up owning each point, float (size, size) indexed [row, col], +1 Black,
        -1 White (kata-analyze): a network's ownership head where the player has one,
        else the dead-stone scorer's playouts."""
        own = self.answers.network_ownership(game, color)
        return own if own is not None else self.scorer.ownership(game.board_for(color))

    def candidates(self, game, color, count=10, mask=None, probs=None):
        """Top `count` sensible moves by prior as MoveInfo (no search: visits are
        policy-proportional pseudo-visits, lcb equals the win rate).

        `mask` and `probs` may be passed in when the caller already has them.
        """
        if mask is None:
            mask = sensible_mask(game.board_for(color), color)
        if probs is None:
            probs = self.answers.policy(game, color)
        if probs is None:
            probs = mask / max(1, mask.sum())
        order = [int(m) for m in np.argsort(-probs, kind='stable') if mask[m]][:count]
        winrates = self.answers.child_winrates(game, color, order)
        if winrates is None:   # no value network: the root's estimate, or a draw
            root = self.answers.value(game, color)
            winrates = [0.5 if root is None else root] * len(order)
        return [MoveInfo(m, max(1, int(round(100 * probs[m]))), w, float(probs[m]), w, [m])
                for m, w in zip(order, winrates)]

    def clear_tree(self):
        """Forget what was searched (the analysis engine's clear_cache); nothing without
        a search."""

    def ponder(self, game, interrupt):
        """Think on the opponent's time until `interrupt` fires. Nothing to do without a search."""
        return

    def close(self):
        pass
