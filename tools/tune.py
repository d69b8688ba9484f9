#!/usr/bin/env python3
"""Is a search change stronger? Fast games of a candidate against the default,
stopped by a sequential probability ratio test (SPRT).

    nice -n 10 .venv/bin/python tools/tune.py --time-per-move 1 \\
        --candidate "--search fpu_from_parent=true --search fpu_reduction=0.1" \\
        --out runs/tune-fpu0.1

Both sides run the same engine command (--engine, our gtp_main.py by default)
with their own extra flags (--candidate, --baseline), in fresh processes every
game, colours alternating (the candidate is Black in odd games); the games
are tools/match.py's, refereed the same way. After each game the test weighs
H1, "the candidate is elo1 Elo stronger", against H0, "it is elo0 stronger"
(0: no better), and stops once one of them is accepted with error rates
alpha and beta, or after --max-games. Fishtest and the chess engines use the
same rule for the same reason: a fixed number of games is either too few to
see a real difference or wastes games on a clear one. A stopped run resumes
in the same --out folder. A change kept at 1 s a move is then confirmed at
5 s a move with tools/match.py.
"""

import argparse
import datetime
import sys
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from harness import match, records, stats
from harness.sprt import Sprt, verdict_line


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--engine', default=None,
                   help='engine command both sides run (default: this python gtp_main.py, '
                        'its default network)')
    p.add_argument('--candidate', default='', help='extra flags of the candidate, e.g. '
                   '"--search c_puct=3"')
    p.add_argument('--baseline', default='', help='extra flags of the baseline (default: none)')
    p.add_argument('--time-per-move', type=float, default=1.0,
                   help='seconds per move for both (default: %(default)s)')
    p.add_argument('--elo0', type=float, default=0.0, help='H0 (default: %(default)s)')
    p.add_argument('--elo1', type=float, default=50.0, help='H1 (default: %(default)s)')
    p.add_argument('--alpha', type=float, default=0.05,
                   help='chance of accepting H1 when H0 holds (default: %(default)s)')
    p.add_argument('--beta', type=float, default=0.05,
                   help='chance of accepting H0 when H1 holds (default: %(default)s)')
    p.add_argument('--max-games', type=int, default=400,
                   help='stop undecided after this many games (default: %(default)s)')
    match.add_game_arguments(p, 'tune')
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as exc:
        print(f'tune: {exc}', file=sys.stderr)
        return 2
    out = Path(args.out or match.REPO / 'runs' / f'tune-{datetime.datetime.now():%Y%m%d-%H%M%S}')
    out.mkdir(parents=True, exist_ok=True)
    engine = args.engine or match.default_ours()
    commands = {name: match.with_time_per_move(f'{engine} {flags}'.strip(), args.time_per_move)
                for name, flags in (('candidate', args.candidate), ('baseline', args.baseline))}
    limit = match.MoveLimit(args.time_per_move + args.grace)
    candidate = match.Side('ours', commands['candidate'], limit)
    baseline = match.Side('opponent', commands['baseline'], limit)
    scorer = None if args.scorer.lower() == 'none' else args.scorer
    max_moves = args.max_moves or 2 * args.size * args.size
    print(f'candidate ("ours"): {commands["candidate"]}\nbaseline ("opponent"): '
          f'{commands["baseline"]}\nscorer: {scorer}\nup to {args.max_games} games '
          f'{args.size}x{args.size} komi {args.komi:g}, cap {max_moves} moves, output {out}',
          flush=True)
    differ = records.commands_differ(out, {**commands, 'scorer': scorer,
                                         'game': f'{args.size}x{args.size} komi {args.komi:g}'})
    if differ:
        print(f'tune: {differ}', file=sys.stderr)
        return 2
    earlier = records.earlier_outcomes(out / 'results.txt')
    outcomes = list(earlier.values())
    if earlier:
        print(f'continuing: {len(earlier)} games already in {out / "results.txt"}', flush=True)
    decision, line = verdict_line(sprt, outcomes)
    results = []
    with open(out / 'results.txt', 'a') as log:
        number = max(earlier, default=0)
        while decision is None and number < args.max_games:
            number += 1
            r = match.play_game(number, candidate, baseline, number % 2 == 1, args.size,
                                args.komi, max_moves, out, scorer, args.startup_timeout)
            results.append(r)
            outcomes.append(stats.outcome(r))
            decision, line = verdict_line(sprt, outcomes)
            for text in (match.describe(r), line):
                print(text, flush=True)
                log.write(text + '\n')
            log.flush()
        for text in (line, stats.summary(results, earlier.values())):
            print(text, flush=True)
            log.write(text + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
