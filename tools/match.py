#!/usr/bin/env python3
"""Play goengine (gtp_main.py) against another GTP engine, GNU Go by default.

    nice -n 10 .venv/bin/python tools/match.py --games 10 --size 9 --time-per-move 2

Why a match runner of our own rather than gogui-twogtp: it needs nothing
but Python, it treats a crash, a hang or an illegal move as a loss for that
engine instead of stopping, and it scores every finished game twice: with
our own rules (Tromp-Taylor area after dead-stone removal, goengine.rollout.scoring)
and with a separate GNU Go process's `final_score` (Chinese rules, so also
area scoring), printing whether the two agree. The separate scorer decides
the result: the engine under test should not referee its own games, and GNU
Go's life-and-death reading is better than our playout heuristic. Our score
decides only when there is no scorer or it fails.

Every game gets fresh engine processes (a crash cannot leak into the next
game), colours alternate (ours is Black in odd-numbered games) unless the
game has a handicap (then the side taking it is Black in every game), and each
game is written as SGF with the engines' stderr logs beside it. Games end on
two passes, a resignation or the move cap (then adjudicated the same way). The last line is `wins W losses L draws D games N win_rate ...`
with a 95% Wilson score interval.

With --openings, each pair of games starts from the first moves of one recorded game,
once with either colour (harness.openings): what makes a match between two greedy
players, which would otherwise repeat one game, e.g.

    .venv/bin/python tools/match.py --games 200 --time-per-move 1 \
        --ours ".venv/bin/python gtp_main.py --policy-only --resign-threshold 0 --weights runs/rl/rl.pt" \
        --opponent ".venv/bin/python gtp_main.py --policy-only --resign-threshold 0 --weights weights/heads-k96.pt" \
        --openings ../shared/data/tygem-9d/tygem-9d-2016-12.sgfs.gz --opening-moves 20

With --sprt ELO0 ELO1 the match stops before --games once Wald's SPRT (harness.sprt, as
tools/tune.py) has decided whether ours is ELO1 or ELO0 Elo stronger than the opponent:
what makes a match against a slow opponent such as GNU Go affordable when one side is
clearly stronger.
"""

import argparse
import datetime
import sys
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.match import (DEFAULT_OPPONENT, REPO, MoveLimit, Side, add_game_arguments,
                           default_ours, describe, play_game, with_time_per_move)
from harness.openings import load_openings, opening_for
from harness.sprt import Sprt, verdict_line
from harness.stats import agreement, outcome, summary
from harness.records import commands_differ, earlier_agreements, earlier_outcomes


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--games', type=int, default=10,
                   help='games in the match; with an --out folder that already has '
                        'results.txt, only the missing games are played and the summary '
                        'counts them all (a match may be stopped and resumed)')
    p.add_argument('--handicap', type=int, default=0,
                   help='handicap stones in fixed placement (GTP fixed_handicap), taken '
                        'by --handicap-taker as Black in every game; give --komi too, '
                        'usually 0.5 (default: 0, even games with alternating colours)')
    p.add_argument('--handicap-taker', choices=('opponent', 'ours'), default='opponent',
                   help='the side that takes the handicap stones (default: %(default)s)')
    p.add_argument('--ours', default=None,
                   help='our engine command line (default: this python gtp_main.py, its '
                        'default network); e.g. "... gtp_main.py --weights none"')
    p.add_argument('--opponent', default=DEFAULT_OPPONENT, help='default: %(default)s')
    p.add_argument('--time-per-move', type=float, default=5.0,
                   help='seconds per move for our engine, passed to gtp_main.py as '
                        '--time-per-move (default 5)')
    p.add_argument('--opponent-timeout', type=float, default=120.0,
                   help='seconds per move before the opponent loses on time')
    p.add_argument('--openings', default=None, metavar='FILE',
                   help='SGF games (a file, .sgfs.gz of one game a line, or a folder): '
                        'games 2k-1 and 2k start from the first --opening-moves moves of '
                        'the k-th even game long enough (default: from the empty board)')
    p.add_argument('--opening-moves', type=int, default=20, metavar='N',
                   help='moves of each opening (default: %(default)s)')
    p.add_argument('--sprt', type=float, nargs=2, default=None, metavar=('ELO0', 'ELO1'),
                   help='stop before --games once an SPRT (alpha = beta = 0.05, as '
                        'tools/tune.py) accepts "ours is ELO1 Elo stronger" or "ELO0"; '
                        'each game then prints its verdict line, e.g. --sprt 0 100')
    add_game_arguments(p, 'match')
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        sprt = Sprt(*args.sprt) if args.sprt else None
    except ValueError as exc:
        print(f'match: --sprt: {exc}', file=sys.stderr)
        return 2
    openings = ()
    if args.openings:
        if args.handicap:
            print('match: --openings are for even games, not with --handicap', file=sys.stderr)
            return 2
        try:
            openings = load_openings(args.openings, args.opening_moves, args.size,
                                     count=(args.games + 1) // 2)
        except (OSError, ValueError) as exc:
            print(f'match: --openings: {exc}', file=sys.stderr)
            return 2
    out = Path(args.out or REPO / 'runs' / f'match-{datetime.datetime.now():%Y%m%d-%H%M%S}')
    out.mkdir(parents=True, exist_ok=True)
    ours_cmd = with_time_per_move(args.ours or default_ours(), args.time_per_move)
    ours = Side('ours', ours_cmd, MoveLimit(args.time_per_move + args.grace))
    opponent = Side('opponent', args.opponent, MoveLimit(args.opponent_timeout))
    scorer = None if args.scorer.lower() == 'none' else args.scorer
    max_moves = args.max_moves or 2 * args.size * args.size
    start_note = (f', {args.handicap} handicap stones to {args.handicap_taker}'
                  if args.handicap else
                  f', openings: the first {args.opening_moves} moves of {len(openings)} '
                  f'games of {args.openings}' if openings else '')
    print(f'ours: {ours_cmd}\nopponent: {args.opponent}\nscorer: {scorer}\n'
          f'{args.games} games {args.size}x{args.size} komi {args.komi:g}{start_note}, '
          f'cap {max_moves} moves, output {out}', flush=True)
    setting = {'ours': ours_cmd, 'opponent': args.opponent, 'scorer': scorer,
               'handicap': f'{args.handicap} to {args.handicap_taker}, komi {args.komi:g}'}
    if openings:
        setting['openings'] = f'{args.openings}, {args.opening_moves} moves'
    differ = commands_differ(out, setting)
    if differ:
        print(f'match: {differ}', file=sys.stderr)
        return 2
    earlier = earlier_outcomes(out / 'results.txt')
    earlier_counts = earlier_agreements(out / 'results.txt')
    first = max(earlier, default=0) + 1
    if earlier:
        print(f'continuing: {len(earlier)} games already in {out / "results.txt"}', flush=True)
    results = []
    outcomes = list(earlier.values())
    decision, sprt_line = verdict_line(sprt, outcomes, 'ours') if sprt else (None, None)
    with open(out / 'results.txt', 'a') as log:
        for number in range(first, args.games + 1):
            if decision:
                break
            ours_black = (args.handicap_taker == 'ours' if args.handicap
                          else number % 2 == 1)
            r = play_game(number, ours, opponent, ours_black, args.size, args.komi,
                          max_moves, out, scorer, args.startup_timeout,
                          handicap=args.handicap,
                          opening=opening_for(number, openings) if openings else ())
            results.append(r)
            lines = [describe(r)]
            if sprt:
                outcomes.append(outcome(r))
                decision, sprt_line = verdict_line(sprt, outcomes, 'ours')
                lines.append(sprt_line)
            for line in lines:
                print(line, flush=True)
                log.write(line + '\n')
            log.flush()   # a match stopped mid-way keeps every finished game for --games resume
        final = [agreement(results, earlier_counts.values()), summary(results, earlier.values())]
        for line in ([sprt_line] if sprt else []) + final:
            print(line, flush=True)
            log.write(line + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
