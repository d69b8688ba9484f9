"""The engine interface the GTP layer drives (`Player`) and the lost-ladder cap every
player without a search applies.

A player thinks (`think`: a SearchResult for the position) and the one decision
(goengine.players.decision) turns that into genmove's answer, for every player alike.
The engine's real player is the APV-MCTS search (goengine.players.mcts_player); the two
players without a search are in goengine.players.policy_player. Moves are ints as in
docs/API.md; PASS = -1 and RESIGN = -2.
"""

import sys
import time

import numpy as np

from goengine.game.moves import RESIGN, MoveInfo, SearchResult  # noqa: F401  (the answers)
from goengine.players import dead_groups
from goengine.players.decision import Decision, opponent_passed, sensible_mask
from goengine.rollout import scoring
from goengine.search.config import SearchConfig


def cut_lost_ladders(board, color, probs, cap):
    """`probs` with every move that runs out a dead ladder or chases a failing one
    (Board.is_lost_ladder_move) held to at most `cap`, the rest scaled up to the same total:
    the search's rule (SearchConfig.lost_ladder_prior) for a player without a search."""
    probs = np.asarray(probs, dtype=np.float64).copy()
    lost = [m for m in np.flatnonzero(probs > 0) if board.is_lost_ladder_move(int(m), color)]
    over = [m for m in lost if probs[m] > cap]
    if not over:
        return probs.astype(np.float32)
    freed = float((probs[over] - cap).sum())
    probs[over] = cap
    alive = np.ones(len(probs), dtype=bool)
    alive[lost] = False               # a lost move under the cap is not raised past it
    rest = float(probs[alive].sum())
    if rest > 0:
        probs[alive] += freed * probs[alive] / rest
    return probs.astype(np.float32)


class Player:
    """Base class and interface. Subclasses override `think` (and `policy`/`value` where
    they have networks).

    `interrupt` arguments are objects with `wait(timeout) -> bool` that
    returns True once the caller wants the work to stop (a threading.Event
    qualifies); the GTP layer passes its stdin reader so the next command
    stops analysis or pondering.
    """

    name = 'player'
    decision = Decision()          # pass, resign and legality (goengine.players.decision)
    scorer = scoring.Scorer()      # judges dead stones; constructors take the engine's own
    value_eval = None              # the value network's evaluator, where the player has one
    answers = None                 # what its networks say (players.heads.NetworkAnswers)
    verbose = False                # --verbose: the decision logs why at each branch
    dead_group_doubt = SearchConfig.dead_group_doubt   # the search's rule, the same for all

    def log(self, line):
        print(line, file=sys.stderr, flush=True)

    # -- a move --------------------------------------------------------------

    def genmove(self, game, color, limits, cleanup=False, report=None, interval=1.0):
        """The move `color` should play now: a point, PASS or RESIGN (Decision.decide).

        limits: a goengine.search.limits.SearchLimits, the time manager's (seconds
        to aim for, the most while a search is unsure, playouts); the time the
        decision spends before thinking counts. cleanup: kgs-genmove_cleanup, so do
        not pass while dead opponent stones can still be captured. report: an optional
        callable taking a SearchResult, called about every `interval` seconds while
        thinking (lz-genmove_analyze).
        """
        start = time.monotonic()
        return self.decision.decide(
            game, color, cleanup, lambda: self.count_winner(game, color),
            lambda: self.think(game, color, limits.after(time.monotonic() - start),
                               cleanup, report, interval),
            log=self.log if self.verbose else None)

    def think(self, game, color, limits, cleanup=False, report=None, interval=1.0,
              full=False):
        """A SearchResult for `color` to move in `game` within `limits` (genmove's and the
        review's). Without a search: the policy's sensible moves by probability (or the
        player's own order, `ranking`), the value network's win rate; its candidates
        where they are shown (`full`, or a `report`, called once)."""
        mask = sensible_mask(game.board_for(color), color)
        mask[self.dead_group_fillers(game, color, self.network_ownership(game, color))] = False
        probs = self.policy(game, color)
        if probs is None:
            probs = mask.astype(np.float32)
        winrate = self.value(game, color)
        shown = full or report is not None
        result = SearchResult(self.ranking(probs, mask), winrate=winrate,
                              resign_winrate=winrate, root_winrate=winrate,
                              candidates=self.candidates(game, color, mask=mask, probs=probs)
                              if shown else [])
        if report is not None:
            report(result)
        return result

    def dead_group_fillers(self, game, color, head):
        """The moves that only add a stone to a group of `color`'s that the ownership head
        (`head`, network_ownership's map) and the rollouts' count both call dead beyond
        doubt (players.dead_groups): never played. The rollouts are asked only where the
        head finds such a group; without an ownership head there are no such moves."""
        board = game.board_for(color)
        if head is None or not dead_groups.dead_chains(board, color, head, self.dead_group_doubt):
            return []
        playouts = self.scorer.ownership(board, playouts=dead_groups.PLAYOUTS)
        return dead_groups.dead_group_fillers(board, color, [head, playouts], self.dead_group_doubt)

    def ranking(self, probs, mask):
        """The sensible moves from most to least probable (ties: the lower point first)."""
        return [int(m) for m in np.argsort(-np.asarray(probs), kind='stable') if mask[m]]

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
        result = SearchResult([], winrate=self.value(game, color),
                              candidates=self.candidates(game, color, count, mask=mask))
        if report is not None:
            report(result)
        while limits is None and not interrupt.wait(max(0.01, interval)):
            if report is not None:
                report(result)
        return result

    def clear_tree(self):
        """Forget what was searched (the analysis engine's clear_cache); nothing without
        a search."""

    def ponder(self, game, interrupt):
        """Think on the opponent's time until `interrupt` fires. Nothing to do without a search."""
        return

    # -- what its networks say ---------------------------------------------

    def policy(self, game, color):
        """Move probabilities (size*size,) over sensible moves, or None if unavailable."""
        return self.answers.policy(game, color) if self.answers else None

    def value(self, game, color):
        """Estimated win rate in [0, 1] for `color` to move now, or None."""
        return self.answers.value(game, color) if self.answers else None

    def ownership(self, game, color):
        """Who ends up owning each point, float (size, size) indexed [row, col], +1 Black,
        -1 White (kata-analyze): a network's ownership head where the player has one,
        else the dead-stone scorer's playouts."""
        own = self.network_ownership(game, color)
        return own if own is not None else self.scorer.ownership(game.board_for(color))

    def network_ownership(self, game, color):
        """ownership() as a four-headed network's ownership head sees it; None without one."""
        return self.answers.network_ownership(game, color) if self.answers else None

    def child_ownerships(self, game, color, moves):
        """network_ownership after each of `moves` by `color`; None without an ownership
        head (the analysis engine's includeMovesOwnership)."""
        return self.answers.child_ownerships(game, color, moves) if self.answers else None

    def score_lead(self, game, color):
        """Points `color` (to move) ends ahead by, komi included, by a four-headed network
        (the count of a board its ownership head calls settled, else its score head's
        margin); None without one."""
        return self.answers.score_lead(game, color) if self.answers else None

    def child_score_leads(self, game, color, moves):
        """score_lead for `color` after each of `moves`; None without a four-headed network."""
        return self.answers.child_score_leads(game, color, moves) if self.answers else None

    def close(self):
        pass

    # -- shared rules ----------------------------------------------------

    def candidates(self, game, color, count=10, mask=None, probs=None):
        """Top `count` sensible moves by prior as MoveInfo (no search: visits are
        policy-proportional pseudo-visits, lcb equals the win rate).

        `mask` and `probs` may be passed in when the caller already has them.
        """
        if mask is None:
            mask = sensible_mask(game.board_for(color), color)
        if probs is None:
            probs = self.policy(game, color)
        if probs is None:
            probs = mask / max(1, mask.sum())
        order = [int(m) for m in np.argsort(-probs, kind='stable') if mask[m]][:count]
        winrates = self.child_winrates(game, color, order)
        return [MoveInfo(m, max(1, int(round(100 * probs[m]))), w, float(probs[m]), w, [m])
                for m, w in zip(order, winrates)]

    def child_winrates(self, game, color, moves):
        """Win rate for `color` after each of `moves`; the root estimate (or 0.5) by default."""
        root = self.value(game, color)
        return [0.5 if root is None else root] * len(moves)

    def winner_after_pass(self, game, color):
        """Once the opponent has passed, the winner by our count of the board (dead
        stones removed) where it wins by more than the points in doubt could take
        away, else None; None too while the opponent has not passed. Only such a
        count answers a pass: a referee that counts otherwise must not find us
        passing a lost game. A point that our ownership head leaves in doubt is in
        doubt too."""
        if not opponent_passed(game, color):
            return None
        return self.count_winner(game, color)

    def count_winner(self, game, color):
        """The winner by our count of the board now (dead stones removed, our ownership
        head's doubtful points in doubt) where it wins beyond doubt, else None."""
        count = self.scorer.count(game.board, self.network_ownership(game, color))
        return count.winner_beyond_doubt()
