#!/usr/bin/env python3
"""The strength dial's table: each level's match against GNU Go 3.8 turned into a rank.

A level's rank is GNU Go's (9 kyu at level 10: docs/DECISIONS.md, 'strength dial'), plus
the handicap stones of its match (one rank a stone, the KGS and EGF convention: given to
GNU Go they count up, taken from it down), plus what its win rate says beyond an even
share: one rank is the gap at which the stronger player wins 68 % of even games (EGF's
rating system near 10 kyu), so a win rate p is logit(p) / logit(0.68) ranks. The win rate
comes with its 95 % Wilson interval, and so does the rank.

    .venv/bin/python tools/strength_table.py 12k=docs/matches/2026-12.tar/2026-12-01-strength-12k ...

prints one README row a level (match folders of tools/match.py: commands.txt and
results.txt).
"""

import argparse
import math
import os
import re

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.players.strength import rank_name, rank_value
from harness.stats import wilson_interval

GNUGO_RANK = rank_value("9k")
RANK_ODDS = math.log(0.68 / 0.32)


def match_record(folders):
    """(handicap stones for us: + given to GNU Go, - taken from it; wins; games) of a match
    played in one or more folders (comma-separated), all at one handicap."""
    handicaps, wins, games = set(), 0, 0
    for folder in folders.split(","):
        with open(os.path.join(folder, "commands.txt")) as f:
            found = re.search(r"^handicap: (\d+) to (ours|opponent)", f.read(), re.M)
        handicaps.add(0 if not found else
                      int(found.group(1)) * (1 if found.group(2) == "opponent" else -1))
        with open(os.path.join(folder, "results.txt")) as f:
            outcomes = re.findall(r"^game \d+: .*winner (ours|opponent)", f.read(), re.M)
        wins, games = wins + outcomes.count("ours"), games + len(outcomes)
    if len(handicaps) != 1:
        raise SystemExit(f"strength_table: {folders}: matches at different handicaps")
    return handicaps.pop(), wins, games


def ranks_above_even(wins, games, z=1.96):
    """The win rate's rank shift: point estimate (half a game added each way, so that 0
    and all won stay finite) and the 95 % interval's ends."""
    low, high = wilson_interval(wins, games, z)
    point = (wins + 0.5) / (games + 1)
    clip = lambda p: min(max(p, 0.5 / (games + 1)), 1 - 0.5 / (games + 1))   # noqa: E731
    return [math.log(clip(p) / (1 - clip(p))) / RANK_ODDS for p in (point, low, high)]


def condition(stones):
    """What a level gives GNU Go: 'gives N stones', 'takes N stones' or 'even'."""
    return "even" if stones == 0 else f"{'gives' if stones > 0 else 'takes'} {abs(stones)} stones"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("levels", nargs="+", metavar="LEVEL=FOLDER[,FOLDER]")
    args = p.parse_args(argv)
    print("| level | against GNU Go 3.8 level 10 | won | 95 % Wilson | rank (95 %) |")
    print("| --- | --- | --- | --- | --- |")
    for item in args.levels:
        level, folder = item.split("=", 1)
        stones, wins, games = match_record(folder)
        low, high = wilson_interval(wins, games)
        point, lower, upper = (GNUGO_RANK + stones + shift
                               for shift in ranks_above_even(wins, games))
        print(f"| `--strength {level}` | {condition(stones)} | {wins} of {games} | "
              f"{100 * low:.1f}-{100 * high:.1f} % | {rank_name(point)} "
              f"({rank_name(lower)}-{rank_name(upper)}) |")


if __name__ == "__main__":
    main()
