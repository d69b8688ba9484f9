"""Wald's sequential probability ratio test (SPRT) on game outcomes: stop a match as
soon as it has decided between two Elo differences (tools/tune.py, tools/match.py --sprt).
Fishtest and the chess engines stop their matches by the same rule: a fixed number of
games is either too few to see a real difference or wastes games on a clear one."""

import math


def expected_score(elo):
    """The score a player `elo` points stronger expects (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


class Sprt:
    """Wald's SPRT on game outcomes, a draw counting half a win and half a loss.

    With s0, s1 the expected scores under H0 and H1, each win adds
    ln(s1/s0) to the log-likelihood ratio and each loss ln((1-s1)/(1-s0));
    H1 is accepted at ln((1-beta)/alpha), H0 at ln(beta/(1-alpha)).
    """

    def __init__(self, elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05):
        if elo1 <= elo0:
            raise ValueError('elo1 must be greater than elo0')
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise ValueError('alpha and beta must be in (0, 0.5)')
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.s0, self.s1 = expected_score(elo0), expected_score(elo1)
        self.upper = math.log((1 - beta) / alpha)
        self.lower = math.log(beta / (1 - alpha))

    def llr(self, wins, losses, draws=0):
        w, l = wins + 0.5 * draws, losses + 0.5 * draws
        return w * math.log(self.s1 / self.s0) + l * math.log((1 - self.s1) / (1 - self.s0))

    def verdict(self, wins, losses, draws=0):
        """'H1' (the candidate is stronger), 'H0' (it is not), or None: play on."""
        llr = self.llr(wins, losses, draws)
        if llr >= self.upper:
            return 'H1'
        if llr <= self.lower:
            return 'H0'
        return None

    def describe(self, wins, losses, draws=0):
        return (f'{wins}-{losses}-{draws} (W-L-D), LLR {self.llr(wins, losses, draws):.3f} '
                f'(bounds {self.lower:.3f}, {self.upper:.3f}; elo0 {self.elo0:g}, '
                f'elo1 {self.elo1:g}, alpha {self.alpha:g}, beta {self.beta:g})')


def tally(outcomes):
    """(wins, losses, draws) of 'ours' (tune's candidate) from match outcomes."""
    outcomes = list(outcomes)
    return outcomes.count('ours'), outcomes.count('opponent'), outcomes.count('none')


def verdict_line(sprt, outcomes, player='the candidate'):
    """(None, 'H0' or 'H1'; the line saying so) for `player`'s outcomes so far."""
    wins, losses, draws = tally(outcomes)
    decision = sprt.verdict(wins, losses, draws)
    if decision:
        held, other = ((sprt.elo1, sprt.elo0) if decision == 'H1' else
                       (sprt.elo0, sprt.elo1))
        what = f'{decision} accepted: {player} is {held:g} Elo stronger, not {other:g}'
    else:
        what = f'no decision after {len(outcomes)} games'
    return decision, f'sprt: {what}; {sprt.describe(wins, losses, draws)}'
