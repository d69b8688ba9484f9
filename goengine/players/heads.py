"""What a network says about a game, for the players: move probabilities with the move
rules applied, win rates, ownership and score leads (the heads' arithmetic). Both the
policy player and the search's player hold one, so GoGui's and kata-analyze's questions
are answered the same way by either."""

import sys
from dataclasses import replace

import numpy as np

from goengine import BLACK
from goengine.players.decision import sensible_mask
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


class NetworkAnswers:
    """The answers of `policy_eval` / `value_eval` (goengine.nn.inference.NetworkEvaluator
    objects, either may be None) for a game; None where the network has no such head or
    does not serve the board's size (with one note on `log` a size). lost_ladder_prior:
    the search's cap on a move that runs out a lost ladder, the same rule."""

    def __init__(self, policy_eval=None, value_eval=None, log=None,
                 lost_ladder_prior=SearchConfig.lost_ladder_prior):
        self.policy_eval, self.value_eval = policy_eval, value_eval
        self.lost_ladder_prior = lost_ladder_prior
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self._warned_sizes = set()

    def fits(self, evaluator, size):
        """Whether `evaluator` serves boards of `size` (a note the first time it does not)."""
        if evaluator is None:
            return False
        info = evaluator.describe()
        if info.serves(size):
            return True
        if size not in self._warned_sizes:
            self._warned_sizes.add(size)
            self.log(f'goengine: the network is for {info.board_size}x{info.board_size}; '
                     f'playing random sensible moves on {size}x{size}')
        return False

    def policy(self, game, color):
        """Move probabilities over the sensible moves (the dead-ladder cap applied), or None."""
        if not self.fits(self.policy_eval, game.size):
            return None
        board = game.board_for(color)
        mask = sensible_mask(board, color)
        if not mask.any():
            return np.zeros(board.size * board.size, dtype=np.float32)
        logits = self.policy_eval.evaluate([board], game.scoring_komi).policy_logits[0]
        logits = np.where(mask, logits.astype(np.float64), -np.inf)
        probs = np.exp(logits - logits.max())
        return cut_lost_ladders(board, color, probs / probs.sum(), self.lost_ladder_prior)

    def network_ownership(self, game, color):
        """Final owner of each point, (size, size) [row, col], +1 Black; None without an
        ownership head."""
        owners = self._ownerships(game, [game.board_for(color)])
        return None if owners is None else owners[0]

    def child_ownerships(self, game, color, moves):
        """network_ownership after each of `moves` by `color`, from one batched call."""
        if not moves:
            return None
        return self._ownerships(game, self._boards_after(game, color, moves))

    def _ownerships(self, game, boards):
        if not self.fits(self.policy_eval, game.size):
            return None
        own = self.policy_eval.evaluate(boards, game.scoring_komi).ownership
        if own is None:
            return None
        return [(1.0 if board.to_move == BLACK else -1.0)   # the head speaks for the mover
                * np.asarray(o, dtype=np.float64).reshape(board.size, board.size)
                for board, o in zip(boards, own)]

    def score_lead(self, game, color):
        leads = self._leads(game, [game.board_for(color)])
        return None if leads is None else leads[0]

    def child_score_leads(self, game, color, moves):
        """score_lead after each of `moves` from one batched call: the opponent's lead, negated."""
        if not moves:
            return None
        leads = self._leads(game, self._boards_after(game, color, moves))
        return None if leads is None else [-lead for lead in leads]

    def _leads(self, game, boards):
        """The lead of the player to move on each board, in points: the count where the
        ownership head says the board is settled (scoring.settled_margin: exact at the
        end, where the score head's distribution stays blurred), else the score
        head's expected margin at the game's komi. None without those heads."""
        if not self.fits(self.policy_eval, game.size):
            return None
        out = self.policy_eval.evaluate(boards, game.scoring_komi)
        if out.score_lead is None or out.ownership is None:
            return None
        leads = []
        for board, head, own in zip(boards, out.score_lead, out.ownership):
            sign = 1.0 if board.to_move == BLACK else -1.0   # the heads speak for the mover
            margin = scoring.settled_margin(board, sign * own.reshape(board.size, board.size))
            leads.append(float(head) if margin is None else sign * margin)
        return leads

    @staticmethod
    def _boards_after(game, color, moves):
        """The boards after each of `moves` by `color`."""
        boards = []
        for move in moves:
            board = game.board_for(color)
            board.play(move, color)
            boards.append(board)
        return boards

    def value(self, game, color):
        """The value network's win rate in [0, 1] for `color` to move, at the game's komi."""
        if self.value_eval is None or not self.fits(self.value_eval, game.size):
            return None
        v = float(self.value_eval.evaluate([game.board_for(color)], game.scoring_komi).value[0])
        return (v + 1) / 2

    def child_winrates(self, game, color, moves):
        """`color`'s win rate after each of `moves`, one batched call; None without a value."""
        if not moves or self.value_eval is None or not self.fits(self.value_eval, game.size):
            return None
        boards = self._boards_after(game, color, moves)
        v = np.asarray(self.value_eval.evaluate(boards, game.scoring_komi).value,
                       dtype=np.float64)
        return [float((1 - x) / 2) for x in v]   # the child's value is the opponent's


class ChildScoreLeads:
    """The score lead after each move an analysis reports, from the player's score head
    where it has one (kata-analyze's and the analysis engine's scoreLead): each move's
    position is evaluated once, in one batched call for the moves new to a report, and
    remembered for the rest of the analysis."""

    def __init__(self, answers, game, color):
        self.answers, self.game, self.color = answers, game, color
        self.leads = {}
        self.available = True

    def of(self, moves):
        """{move: points the mover ends ahead by after it} for `moves` ({} without a
        score head)."""
        if not self.available:
            return {}
        new = [move for move in moves if move not in self.leads]
        if new:
            leads = self.answers.child_score_leads(self.game, self.color, new)
            if leads is None:
                self.available = False
                return {}
            self.leads.update(zip(new, leads))
        return self.leads

    def apply(self, infos):
        """`infos` (MoveInfo) with score_lead from the head (unchanged without one)."""
        leads = self.of([info.move for info in infos])
        return [replace(info, score_lead=leads[info.move]) if info.move in leads else info
                for info in infos]
