"""A match's statistics: the 95 % Wilson interval of a win rate, each game's outcome,
the summary line and the scoring line (tools/match.py and tools/tune.py print them)."""

import math

from goengine.rollout import scoring


def wilson_interval(wins, games, z=1.96):
    """Wilson score interval for a win rate (95% for z = 1.96).

    Better than p +- z*sqrt(p(1-p)/n) for the few games a CPU match affords:
    it stays inside [0, 1] and is not empty at 0 or n wins. `wins` may count
    a draw as half a win.
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# -- clocks -------------------------------------------------------------------


def counts_agree(r):
    """Whether our count and the scorer's name the same winner (both counted the game)."""
    return scoring.winner(r.our_score) == scoring.winner(r.scorer_score)


def outcome(r):
    """'ours', 'opponent' or 'none' (a draw): the word after 'winner' in describe()."""
    return r.winner_label() or 'none'


def summary(results, earlier=()):
    """The last line: wins, losses, draws and the win rate with its 95% interval.

    earlier: outcomes ('ours' / 'opponent' / 'none') of games played before.
    """
    outcomes = list(earlier) + [outcome(r) for r in results]
    wins = outcomes.count('ours')
    draws = outcomes.count('none')
    games = len(outcomes)
    losses = games - wins - draws
    low, high = wilson_interval(wins + 0.5 * draws, games)
    rate = (wins + 0.5 * draws) / games if games else 0.0
    return (f'wins {wins} losses {losses} draws {draws} games {games} '
            f'win_rate {100 * rate:.1f}% (95% Wilson {100 * low:.1f}%-{100 * high:.1f}%)')


def agreement(results, earlier=()):
    """The scoring line: in how many counted games our count and the scorer's named
    the same winner. earlier: earlier_agreements' verdicts of games played before."""
    verdicts = list(earlier) + [counts_agree(r) for r in results
                                if r.our_score is not None and r.scorer_score is not None]
    return (f'scoring: ours and the scorer agree on the winner in {sum(verdicts)} of '
            f'{len(verdicts)} scored games')
