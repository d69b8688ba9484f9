"""Playing strength in ranks (`gtp_main.py --strength 9k`): the settings of each level and
the rank its match against GNU Go 3.8 measured.

A level is a fixed amount of thinking, never a time: the policy network alone, sampled at a
temperature, or the search stopped after a number of playouts. So a level plays alike on a
slow CPU and a fast one. Each level's rank is an estimate: GNU Go 3.8 at level 10 is taken
as 9 kyu (docs/DECISIONS.md, 'strength dial'), and handicap stones count one rank each (the
KGS and EGF convention), so a level that wins about half its games giving GNU Go three
stones is about 6 kyu. docs/results/2026-12.md ('The strength dial') gives every level's games and 95 %
interval; docs/matches/2026-12.tar holds them.

A rank between two levels plays the weaker of them, so that within the levels' range the
dial never plays stronger than asked; below the weakest it plays the weakest.
"""

import re
from dataclasses import dataclass

# The network every level was measured with: the policy differs from network to network.
LEVEL_NETWORK = 'large'


@dataclass(frozen=True)
class Level:
    """One measured setting: `rank` as the match estimated it, and the play flags that
    make it (policy-only with a temperature, or the search with a playout cap and the
    search mode it was measured in, so that a change of the default leaves it alone)."""

    rank: str
    policy_only: bool
    temperature: float = None
    playouts: int = None
    search_mode: str = None

    def describe(self):
        if self.policy_only:
            how = ('the policy network alone, greedy' if not self.temperature else
                   f'the policy network alone at temperature {self.temperature:g}')
        else:
            how = f'the {self.search_mode} search, {self.playouts} playouts a move'
        return f'{self.rank}: {how}'


# Weakest first, each rank from its match (docs/results/2026-12.md, 'The strength dial';
# records in docs/matches/2026-12.tar, 2026-12-01-gnugo10-strength-*).
LEVELS = (
    Level('13k', policy_only=True, temperature=1.5),
    Level('9k', policy_only=True, temperature=1.0),
    Level('7k', policy_only=True, temperature=0.9),
    Level('4k', policy_only=True, temperature=0.5),
    Level('2k', policy_only=False, playouts=800, search_mode='apv'),
)

_RANK = re.compile(r'^(\d{1,2})([kd])$')


def rank_value(rank):
    """A rank as a number, higher stronger: 1d is 0, 1k is -1, 9k is -9; 30k ... 9d.
    Raises ValueError for anything else."""
    found = _RANK.match(rank.strip().lower())
    if not found:
        raise ValueError(f'a rank is like 12k or 1d, not {rank!r}')
    number, kind = int(found.group(1)), found.group(2)
    if kind == 'k' and 1 <= number <= 30:
        return -number
    if kind == 'd' and 1 <= number <= 9:
        return number - 1
    raise ValueError(f'a rank runs from 30k to 9d, not {rank!r}')


def rank_name(value):
    """rank_value's inverse, rounding: -9 is '9k', 0 is '1d'."""
    value = round(value)
    return f'{-value}k' if value < 0 else f'{value + 1}d'


def level_for(rank):
    """The strongest level no stronger than `rank` (the weakest where `rank` is below them
    all), and a note when that is not the rank asked. Raises ValueError for a malformed
    rank."""
    asked = rank_value(rank)
    fitting = [level for level in LEVELS if rank_value(level.rank) <= asked]
    level = fitting[-1] if fitting else LEVELS[0]
    note = None
    if rank_value(level.rank) != asked:
        note = (f'no level is measured at {rank}: playing {level.rank}, the strongest below it'
                if fitting else
                f'{rank} is below the weakest level: playing {level.rank}')
    return level, note


def table():
    """Every level, one a line, for `--strength list`."""
    return '\n'.join(level.describe() for level in LEVELS)
