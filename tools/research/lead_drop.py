#!/usr/bin/env python3
"""How much of its lead does our engine give away? GNU Go's estimate_score over a match.

For every game of a tools/match.py record (harness.records: its games.sgfs.gz), our colour comes from the record's
comment (`B ours W opponent` or the reverse); GNU Go (--chinese-rules) estimates the
score before move --from and before move --to, and the line says our lead at each
(points, positive: we are ahead) and the drop between them. Games shorter than --to
moves are left out. The last line is the mean drop with its standard error:

  .venv/bin/python tools/research/lead_drop.py docs/matches/2026-11.tar/2026-11-25-gnugo10-handicap7-zen3
  mean_drop=12.3 stderr=4.5 games=N

With --at M1 M2 ... the lead is read before each of those moves instead, in every game
that reaches it, and a line a move says who led there (where a game is lost: in the
opening or later):

  .venv/bin/python tools/research/lead_drop.py FOLDER --at 20 50 100
  before move 20: mean_lead=-1.2 stderr=0.8 ahead=14 of 40
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
    parser.add_argument("--at", type=int, nargs="+", metavar="MOVE",
                        help="read the lead before each of these moves (no drop)")
    parser.add_argument("--gnugo", default=GNUGO, help="GNU Go's path (default %(default)s)")
    args = parser.parse_args(argv)
    if not 1 <= args.start < args.end:
        parser.error("need 1 <= --from < --to")
    if args.at and min(args.at) < 1:
        parser.error("--at takes moves from 1")
    try:
        games = records.games(args.folder)
    except OSError as exc:
        raise SystemExit(f"lead_drop: {exc}")
    if not games:
        raise SystemExit(f"{args.folder}: no {records.GAMES}")
    gnugo = GnuGo(args.gnugo, ("--chinese-rules",))
    try:
        if args.at:
            leads_at(gnugo, games, sorted(set(args.at)))
        else:
            drop(gnugo, games, args.start, args.end)
    finally:
        gnugo.close()


def our_games(games):
    """(name, colour, text, number of moves) of each game whose record says our colour."""
    for index, text in enumerate(games, 1):
        name = f"game {records.game_number(text) or index}"
        colour = our_colour(text)
        try:
            record = parse_game(text)
        except SgfError as exc:
            print(f"{name}: skipped, {exc}", file=sys.stderr)
            continue
        if colour is not None:
            yield name, colour, text, len(record.moves)


def mean_and_stderr(values):
    n = len(values)
    mean = sum(values) / n if n else float("nan")
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else float("nan")
    return mean, spread


def drop(gnugo, games, start_move, end_move):
    """Our lead before start_move and end_move of each game that long, and the mean drop."""
    drops = []
    for name, colour, text, length in our_games(games):
        if length < end_move:
            continue
        start = estimated_lead(gnugo, text, start_move, colour)
        end = estimated_lead(gnugo, text, end_move, colour)
        drops.append(start - end)
        print(f"{name}: ours {'Black' if colour == 'B' else 'White'}, lead "
              f"{start:+.1f} before move {start_move}, {end:+.1f} before move {end_move}, "
              f"drop {start - end:+.1f}")
    mean, spread = mean_and_stderr(drops)
    print(f"mean_drop={mean:.1f} stderr={spread:.1f} games={len(drops)}")


def leads_at(gnugo, games, moves):
    """Our lead before each of `moves` in every game that reaches it, and a line a move:
    the mean lead and in how many games we were ahead."""
    leads = {move: [] for move in moves}
    for name, colour, text, length in our_games(games):
        read = [(move, estimated_lead(gnugo, text, move, colour)) for move in moves
                if move <= length]
        for move, lead in read:
            leads[move].append(lead)
        shown = ", ".join(f"{lead:+.1f} before move {move}" for move, lead in read)
        print(f"{name}: ours {'Black' if colour == 'B' else 'White'}, lead {shown or '-'}")
    for move in moves:
        mean, spread = mean_and_stderr(leads[move])
        ahead = sum(1 for lead in leads[move] if lead > 0)
        print(f"before move {move}: mean_lead={mean:.1f} stderr={spread:.1f} "
              f"ahead={ahead} of {len(leads[move])}")


if __name__ == "__main__":
    main()
