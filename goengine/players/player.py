"""The engine interface the GTP layer drives (`Player`), and the two simple players.

The engine's real player is the APV-MCTS search (goengine.players.mcts_player). Beside it:

* `PolicyPlayer` plays the SL policy network's most probable sensible move
  (AlphaGo's p_sigma played greedily, `--policy-only`), or samples one with a
  temperature for a weaker opponent (`--temperature`), with the value
  network, if given, for win rates and resigning;
* `SimplePlayer` plays a random sensible move; it needs no weights and is
  what `--weights none` gives, for testing the protocol.

A sensible move is legal and does not fill one of the mover's own true eyes
(the same rule AlphaGo's rollouts and search use). Moves are ints as in
docs/API.md; PASS = -1 and RESIGN = -2.
"""

import random
import sys

import numpy as np

from goengine import BLACK, PASS
from goengine.game.moves import RESIGN, MoveInfo  # noqa: F401  (the players' answers)
from goengine.players.decision import Decision, opponent_passed
from goengine.players.resign import ResignRule
from goengine.rollout import scoring
from goengine.search.config import SearchConfig


def cut_dead_ladders(board, color, probs, cap):
    """`probs` with every move that extends a chain the ladder still captures
    (Board.extends_dead_ladder) held to at most `cap`, the rest scaled up to the same total:
    the search's rule (SearchConfig.dead_ladder_prior) for a player without a search."""
    probs = np.asarray(probs, dtype=np.float64).copy()
    dead = [m for m in np.flatnonzero(probs > cap) if board.extends_dead_ladder(int(m), color)]
    if not dead:
        return probs.astype(np.float32)
    freed = float((probs[dead] - cap).sum())
    probs[dead] = cap
    alive = np.ones(len(probs), dtype=bool)
    alive[dead] = False
    rest = float(probs[alive].sum())
    if rest > 0:
        probs[alive] += freed * probs[alive] / rest
    return probs.astype(np.float32)


def sensible_mask(board, color):
    """Bool array (size*size,): legal for `color` and not filling its own true eye."""
    mask = np.zeros(board.size * board.size, dtype=bool)
    for move in board.legal_moves(color):
        if move != PASS and not board.is_eye(move, color):
            mask[move] = True
    return mask


class Player:
    """Base class and interface. Subclasses override `policy`/`value`/`genmove`.

    `interrupt` arguments are objects with `wait(timeout) -> bool` that
    returns True once the caller wants the work to stop (a threading.Event
    qualifies); the GTP layer passes its stdin reader so the next command
    stops analysis or pondering.
    """

    name = 'player'
    decision = Decision()          # pass, resign and legality (goengine.players.decision)
    scorer = scoring.Scorer()      # judges dead stones; constructors take the engine's own
    value_eval = None              # the value network's evaluator, where the player has one

    # -- what a searching engine will override ---------------------------

    def genmove(self, game, color, limits, cleanup=False, report=None, interval=1.0):
        """The move `color` should play now: a point, PASS or RESIGN.

        limits: a goengine.search.limits.SearchLimits, the time manager's (seconds
        to aim for, the most while a search is unsure, playouts). cleanup:
        kgs-genmove_cleanup, so do not pass while dead opponent stones can still
        be captured. report: an optional callable taking a list of MoveInfo,
        called about every `interval` seconds while thinking (lz-genmove_analyze).
        """
        mask = sensible_mask(game.board_for(color), color)
        answer = self.answer_to_pass(game, color, mask, cleanup)
        if answer is not None:
            return answer
        if self.should_resign(game, color):
            return RESIGN
        probs = self.policy(game, color)
        if report is not None:
            report(self.candidates(game, color, mask=mask, probs=probs))
        if probs is None:
            probs = mask.astype(np.float32)
        return self.choose(probs, mask)

    def choose(self, probs, mask):
        """The move to play from move probabilities over the sensible moves: the most probable."""
        return int(np.argmax(np.where(mask, probs, -1.0)))

    def analyze(self, game, color, report, interrupt, interval=1.0, barred=None):
        """Report candidates every `interval` seconds until `interrupt` fires.

        barred: {(colour, move): plies} the analysis may not play (lz-analyze's avoid and
        allow; here only the first ply matters). Without a search the candidates never
        change, so they are computed once and repeated (GUIs expect a steady stream).
        """
        mask = sensible_mask(game.board_for(color), color)
        for (who, move), plies in (barred or {}).items():
            if who == color and move >= 0 and plies >= 1:
                mask[move] = False
        infos = self.candidates(game, color, mask=mask)
        report(infos)
        while not interrupt.wait(max(0.01, interval)):
            report(infos)

    def ponder(self, game, interrupt):
        """Think on the opponent's time until `interrupt` fires. Nothing to do without a search."""
        return

    def policy(self, game, color):
        """Move probabilities (size*size,) over sensible moves, or None if unavailable."""
        return None

    def value(self, game, color):
        """Estimated win rate in [0, 1] for `color` to move now, or None."""
        return None

    def ownership(self, game, color):
        """Who ends up owning each point, float (size, size) indexed [row, col], +1 Black,
        -1 White (kata-analyze): a network's ownership head where the player has one,
        else the dead-stone scorer's playouts."""
        own = self.network_ownership(game, color)
        return own if own is not None else self.scorer.ownership(game.board_for(color))

    def network_ownership(self, game, color):
        """ownership() as a four-headed network's ownership head sees it; None without one."""
        return None

    def score_lead(self, game, color):
        """Points `color` (to move) ends ahead by, komi included, by a four-headed network
        (the count of a board its ownership head calls settled, else its score head's
        margin); None without one."""
        return None

    def child_score_leads(self, game, color, moves):
        """score_lead for `color` after each of `moves`; None without a four-headed network."""
        return None

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

    def answer_to_pass(self, game, color, mask, cleanup=False):
        """Decision.answer_to_pass with this player's count: PASS, RESIGN or None (play on)."""
        return self.decision.answer_to_pass(game, color, mask, cleanup,
                                            lambda: self.winner_after_pass(game, color))

    def answer_by_count(self, game, color):
        """Decision.answer_by_count with this player's count of the board."""
        return self.decision.answer_by_count(game, color, self.winner_after_pass(game, color))

    def winner_after_pass(self, game, color):
        """Once the opponent has passed, the winner by our count of the board (dead
        stones removed) where it wins by more than the points in doubt could take
        away, else None; None too while the opponent has not passed. Only such a
        count answers a pass: a referee that counts otherwise must not find us
        passing a lost game. A point that our ownership head leaves in doubt is in
        doubt too."""
        if not opponent_passed(game, color):
            return None
        count = self.scorer.count(game.board, self.network_ownership(game, color))
        return count.winner_beyond_doubt()

    @property
    def resign_threshold(self):
        """The win rate under which this player resigns (0: never)."""
        return self.decision.resign_threshold

    def should_resign(self, game, color):
        """Decision.should_resign on this player's own estimate."""
        return self.decision.should_resign(game, color, self.resign_estimate(game, color))

    def resign_estimate(self, game, color):
        """The win rate the resign rule trusts: the value network's, where there is one."""
        return self.value(game, color)


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
