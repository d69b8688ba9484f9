"""When a player gives up: the one resign rule, taken by every player."""

from dataclasses import dataclass

from goengine import WHITE


@dataclass(frozen=True)
class ResignRule:
    """Resign when the win rate the player trusts is below `threshold`.

    AlphaGo resigned when max_a Q(s,a) < -0.8, a win rate under 10 % (Silver et
    al. 2016, Extended Data Table 5: resign_q). The guards are ours: no
    resigning in the opening, where a search's first estimates are noise, and
    White giving handicap waits longer and needs far less, since rollouts and
    networks trained on even games see the stones as a lost game at first.
    A count of the board lost beyond doubt after the opponent's pass, or with
    no sensible move left (the player's answer_to_pass), is a win rate of 0
    here. A threshold of 0 never resigns."""
    threshold: float = 0.10
    opening_fraction: float = 1 / 6     # never in the first size*size*this plies
    handicap_fraction: float = 0.5      # White giving handicap: never in the first
                                        # size*size*this plies, and only below the
                                        # threshold divided by (1 + stones)

    def __post_init__(self):
        if not 0.0 <= self.threshold < 1.0:
            raise ValueError(f'the resign threshold is a win rate in [0, 1), got {self.threshold}')

    def should_resign(self, game, color, winrate):
        """Whether `color` should resign `game` now, given its estimated win rate
        (None: no estimate to trust, so no)."""
        threshold, opening = self.threshold, self.opening_fraction
        if color == WHITE and game.handicap:
            threshold /= 1 + game.handicap
            opening = max(opening, self.handicap_fraction)
        if threshold <= 0 or game.move_number < game.size * game.size * opening:
            return False
        return winrate is not None and winrate < threshold
