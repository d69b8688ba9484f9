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

import numpy as np

from goengine.players.player import Player


class SimplePlayer(Player):
    """Random sensible moves, seeded; for protocol testing (`--weights none`)."""

    name = 'simple'

    def __init__(self, seed=0, scorer=None, config=None):
        super().__init__(config, scorer=scorer)
        self.rng = random.Random(seed)

    def ranking(self, probs, mask):
        """One sensible move at random."""
        return [self.rng.choice(np.flatnonzero(mask).tolist())]


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

    def __init__(self, policy_eval, value_eval=None, resign_threshold=None, log=None,
                 temperature=None, seed=None, scorer=None, config=None):
        if temperature is not None and not temperature >= 0:
            raise ValueError(f'temperature must be >= 0, got {temperature}')
        super().__init__(config, policy_eval, value_eval, resign_threshold, scorer, log)
        self.policy_eval = policy_eval
        self.temperature = temperature or None
        self.rng = np.random.default_rng(seed)
        self.fallback = SimplePlayer(scorer=self.scorer, config=self.config)

    def think(self, game, color, limits, cleanup=False, report=None, interval=1.0,
              full=False):
        if not self.answers.fits(self.policy_eval, game.size):
            return self.fallback.think(game, color, limits, cleanup, report, interval, full)
        return super().think(game, color, limits, cleanup, report, interval, full)

    def ranking(self, probs, mask):
        """Greedy, or a sample at the player's temperature first (sensible moves only)."""
        ranked = super().ranking(probs, mask)
        if self.temperature is None:
            return ranked
        weights = np.where(mask, np.asarray(probs, dtype=np.float64), 0.0)
        if weights.max() <= 0:
            return ranked
        weights = (weights / weights.max()) ** (1.0 / self.temperature)
        return [int(self.rng.choice(len(weights), p=weights / weights.sum()))]
