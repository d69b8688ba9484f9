#!/usr/bin/env python3
"""How much of its lead does our engine give away? GNU Go's estimate_score over a match.

For every game of a tools/match.py record (harness.records: its games.sgfs.gz), our colour comes from the record's
comment (`B ours W opponent` or the reverse); GNU Go (--chinese-rules) estimates the
score before move --from and before move --to, and the line says our lead at each
(points, positive: we are ahead) and the drop between them. Games shorter than --to
moves are left out. The last line is the mean drop with its standard error:

  .venv/bin/python tools/lead_drop.py docs/matches/2026-11.tar/2026-11-25-gnugo10-handicap7-zen3
  mean_drop=12.3 stderr=4.5 games=N
"""

import argparse
import math
import re
import sys

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game.sgffile import SgfError, parse_game
from harness import records
from harness.gnugo import GNUGO, GnuGo
from harness.match import parse_score

SIDES = re.compile(r"\bB (ours|opponent) W (ours|opponent)\b")


def our_colour(text):
    """'B' or 'W' from a match record's comment, or None if it does not say."""
    found = SIDES.search(text)
    if not found:
        return None
    return "B" if found.group(1) == "ours" else "W"


def estimated_lead(gnugo, sgf, move, colour):
    """Our lead in points before `move` of the game `sgf`, by GNU Go's estimate_score."""
    gnugo.load_record(sgf, move)
    score = parse_score(gnugo.send("estimate_score").split()[0])
    return score if colour == "B" else -score


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("folder", help="a tools/match.py output folder")
    parser.add_argument("--from", dest="start", type=int, default=40,
                        help="the move the lead is first read before (default 40)")
    parser.add_argument("--to", dest="end", type=int, default=120,
                        help="the move it is read again before (default 120)")
    parser.add_argument("--gnugo", default=GNUGO, help="GNU Go's path (default %(default)s)")
    args = parser.parse_args(argv)
    if not 1 <= args.start < args.end:
        parser.error("need 1 <= --from < --to")
    try:
        games = records.games(args.folder)
    except OSError as exc:
        raise SystemExit(f"lead_drop: {exc}")
    if not games:
        raise SystemExit(f"{args.folder}: no {records.GAMES}")
    drops = []
    gnugo = GnuGo(args.gnugo, ("--chinese-rules",))
    try:
        for index, text in enumerate(games, 1):
            name = f"game {records.game_number(text) or index}"
            colour = our_colour(text)
            try:
                record = parse_game(text)
            except SgfError as exc:
                print(f"{name}: skipped, {exc}", file=sys.stderr)
                continue
            if colour is None or len(record.moves) < args.end:
                continue
            start = estimated_lead(gnugo, text, args.start, colour)
            end = estimated_lead(gnugo, text, args.end, colour)
            drops.append(start - end)
            print(f"{name}: ours {'Black' if colour == 'B' else 'White'}, lead "
                  f"{start:+.1f} before move {args.start}, {end:+.1f} before move {args.end}, "
                  f"drop {start - end:+.1f}")
    finally:
        gnugo.close()
    n = len(drops)
    mean = sum(drops) / n if n else float("nan")
    spread = math.sqrt(sum((d - mean) ** 2 for d in drops) / (n - 1) / n) if n > 1 else float("nan")
    print(f"mean_drop={mean:.1f} stderr={spread:.1f} games={n}")


if __name__ == "__main__":
    main()
