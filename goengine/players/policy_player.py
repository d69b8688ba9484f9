"""The two players without a search: random sensible moves (`--weights none`) and the SL
policy network played alone (`--policy-only`), with the arithmetic of the four heads that
the GoGui and kata-analyze commands ask it for (ownership, score leads, win rates).

* `PolicyPlayer` plays the policy's most probable sensible move (AlphaGo's p_sigma played
  greedily), or samples one with a temperature for a weaker opponent (`--temperature`),
  with the value network, if given, for win rates and resigning;
* `SimplePlayer` plays a random sensible move; it needs no weights and is what
  `--weights none` gives, for testing the protocol.
"""

import random
import sys

import numpy as np

from goengine import BLACK
from goengine.players.decision import Decision
from goengine.players.player import Player, cut_dead_ladders, sensible_mask
from goengine.players.resign import ResignRule
from goengine.rollout import scoring
from goengine.search.config import SearchConfig


class SimplePlayer(Player):
    """Random sensible moves, seeded; for protocol testing (`--weights none`)."""

    name = 'simple'

    def __init__(self, seed=0, scorer=None):
        self.rng = random.Random(seed)
        self.scorer = scorer or self.scorer

    def genmove(self, game, color, limits, cleanup=False, report=None, interval=1.0):
        mask = sensible_mask(game.board_for(color), color)
        answer = self.answer_to_pass(game, color, mask, cleanup)
        if answer is not None:
            return answer
        if report is not None:
            report(self.candidates(game, color, mask=mask))
        return self.rng.choice(np.flatnonzero(mask).tolist())


class PolicyPlayer(Player):
    """Greedy SL policy network (optionally with a value network).

    `policy_eval` / `value_eval` are goengine.nn.inference.NetworkEvaluator objects.
    Boards of another size than the network's are played by a SimplePlayer
    (with a note on stderr), since the network's per-point biases fix its size.

    temperature: None or 0 plays the most probable move; T > 0 samples a move
    with probability proportional to p ** (1 / T), the network's own mistakes
    included, so the player is weaker the higher T (1: the network's move
    distribution as trained on human games).
    """

    name = 'policy'
    dead_ladder_prior = SearchConfig.dead_ladder_prior   # the search's cap, the same rule

    def __init__(self, policy_eval, value_eval=None, resign_threshold=0.10, log=None,
                 temperature=None, seed=None, scorer=None):
        self.scorer = scorer or self.scorer
        if temperature is not None and not temperature >= 0:
            raise ValueError(f'temperature must be >= 0, got {temperature}')
        self.policy_eval = policy_eval
        self.value_eval = value_eval
        self.temperature = temperature or None
        self.rng = np.random.default_rng(seed)
        self.decision = Decision(ResignRule(resign_threshold if value_eval is not None else 0.0))
        self.fallback = SimplePlayer(scorer=self.scorer)
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self._warned_sizes = set()

    def _fits(self, evaluator, size):
        if evaluator is not None and evaluator.serves(size):
            return True
        if evaluator is not None and size not in self._warned_sizes:
            self._warned_sizes.add(size)
            self.log(f'goengine: the network is for {evaluator.board_size}x{evaluator.board_size}; '
                     f'playing random sensible moves on {size}x{size}')
        return False

    def genmove(self, game, color, limits, cleanup=False, report=None, interval=1.0):
        if not self._fits(self.policy_eval, game.size):
            return self.fallback.genmove(game, color, limits, cleanup, report, interval)
        return super().genmove(game, color, limits, cleanup, report, interval)

    def policy(self, game, color):
        if not self._fits(self.policy_eval, game.size):
            return None
        board = game.board_for(color)
        mask = sensible_mask(board, color)
        if not mask.any():
            return np.zeros(board.size * board.size, dtype=np.float32)
        logits = self.policy_eval.evaluate([board], game.scoring_komi).policy_logits[0]
        logits = np.where(mask, logits.astype(np.float64), -np.inf)
        probs = np.exp(logits - logits.max())
        return cut_dead_ladders(board, color, probs / probs.sum(), self.dead_ladder_prior)

    def choose(self, probs, mask):
        """Greedy, or a sample at the player's temperature (sensible moves only)."""
        if self.temperature is None:
            return super().choose(probs, mask)
        weights = np.where(mask, np.asarray(probs, dtype=np.float64), 0.0)
        if weights.max() <= 0:
            return super().choose(probs, mask)
        weights = (weights / weights.max()) ** (1.0 / self.temperature)
        return int(self.rng.choice(len(weights), p=weights / weights.sum()))

    def network_ownership(self, game, color):
        evaluator = self.policy_eval
        if evaluator is None or not evaluator.has_ownership or not self._fits(evaluator,
                                                                              game.size):
            return None
        board = game.board_for(color)
        own = evaluator.evaluate([board], game.scoring_komi).ownership[0]
        sign = 1.0 if color == BLACK else -1.0   # the head speaks for the player to move
        return sign * np.asarray(own, dtype=np.float64).reshape(board.size, board.size)

    def _score_head(self, size):
        """The evaluator holding score and ownership heads for boards of `size`, or None."""
        evaluator = self.policy_eval
        if evaluator is not None and evaluator.has_score and evaluator.has_ownership \
                and self._fits(evaluator, size):
            return evaluator
        return None

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
        evaluator = self._score_head(game.size)
        if evaluator is None:
            return None
        out = evaluator.evaluate(boards, game.scoring_komi)
        heads, owns = out.score_lead, out.ownership
        leads = []
        for board, head, own in zip(boards, heads, owns):
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
        if self.value_eval is None or not self._fits(self.value_eval, game.size):
            return None
        v = float(self.value_eval.evaluate([game.board_for(color)], game.scoring_komi).value[0])
        return (v + 1) / 2

    def child_winrates(self, game, color, moves):
        """One batched value-net call over the positions after each candidate."""
        if not moves or self.value_eval is None or not self._fits(self.value_eval, game.size):
            return super().child_winrates(game, color, moves)
        boards = self._boards_after(game, color, moves)
        v = np.asarray(self.value_eval.evaluate(boards, game.scoring_komi).value,
                       dtype=np.float64)
        return [float((1 - x) / 2) for x in v]   # the child's value is the opponent's
