#!/usr/bin/env python3
"""One full game against GNU Go on a tight byo-yomi clock, refereed like a server would.

    nice -n 10 .venv/bin/python tools/research/clock_game.py            # 19x19, time_settings 0 5 1

Why: the budget arithmetic has unit tests (tests/test_timecontrol.py), but
only a whole game shows that the engine, the pipe and the machine together
never overrun the clock: slow moves come from places the arithmetic does
not see (network start-up, garbage collection, scoring playouts when the
opponent passes, a busy CPU). So, like kgsGtp or gogui-twogtp, this
controller announces `time_settings`, sends `time_left` before every one of
our moves, measures each move's wall-clock time from sending `genmove` to
reading the answer, and lets our engine lose on time if it overruns.

The default clock is `time_settings 0 5 1`: no main time and Canadian
byo-yomi of one stone per 5 seconds, which is the same as one Japanese
byo-yomi period of 5 s. No main time means every move is a deadline (there
is no cushion to hide an overrun in); 5 s is KGS-blitz speed, yet long
enough that our 1 s safety margin (gtp_main --margin) leaves the engine a
4 s budget to think in. The opponent is not on the clock (only a generous
per-move limit) so that a slow GNU Go move on a busy machine cannot end the
game early: the check is about us.

Every `--rss-every` of our moves the engine's resident memory is sampled;
the report gives the first, last and largest sample and whether it grows.
Exit status 0 when the game had at least --min-moves moves, we never
overran and never lost on time.
"""

import argparse
import datetime
import math
import statistics
import sys
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from harness import match
from harness.match import BLACK, REPO, MoveLimit, Side


class CanadianClock:
    """The controller's clock for GTP `time_settings main period stones`.

    Main time first; then blocks of `stones` moves in `period` seconds. A move
    that takes longer than what is left loses on time (charge returns False).
    """

    def __init__(self, main, period, stones):
        self.main, self.period, self.stones = main, period, stones
        self.state = {}
        self.moves = []   # (colour, elapsed, seconds that were available)

    def _clock(self, color):
        if color not in self.state:
            in_byo = self.main <= 0
            self.state[color] = {'main': float(self.main), 'period': float(self.period),
                                 'stones': self.stones, 'byo': in_byo}
        return self.state[color]

    def setup_commands(self):
        return [f'time_settings {self.main:g} {self.period:g} {self.stones}']

    def before_move(self, color):
        """`time_left` as GTP spec 6.2 has it: whole seconds; stones 0 while in main time."""
        c = self._clock(color)
        letter = 'b' if color == BLACK else 'w'
        if c['byo']:
            return [f'time_left {letter} {math.floor(c["period"])} {c["stones"]}']
        return [f'time_left {letter} {math.floor(c["main"])} 0']

    def available(self, color):
        """Seconds this move may take before the flag falls."""
        c = self._clock(color)
        return c['period'] if c['byo'] else c['main'] + self.period

    def timeout(self, color):
        return self.available(color) + 1.0   # wait a little longer, to measure the overrun

    def charge(self, color, elapsed):
        self.moves.append((color, elapsed, self.available(color)))
        c = self._clock(color)
        if not c['byo']:
            used = min(c['main'], elapsed)
            c['main'] -= used
            elapsed -= used
            if c['main'] > 0:
                return True
            c['byo'] = True
        if elapsed > c['period']:
            return False
        c['period'] -= elapsed
        c['stones'] -= 1
        if c['stones'] <= 0:   # block done: a fresh one
            c['period'], c['stones'] = float(self.period), self.stones
        return True


class RssSampler:
    """Samples our engine's resident memory every `every` of our moves (and shows progress)."""

    def __init__(self, every):
        self.every = every
        self.samples = []   # (our move count, MiB)
        self.our_moves = 0

    def __call__(self, game, color, elapsed, side):
        if side.label != 'ours':
            return
        self.our_moves += 1
        if self.our_moves == 1 or self.our_moves % self.every == 0:
            rss = side.proc.rss_mb()
            if rss is not None:
                self.samples.append((self.our_moves, rss))
                print(f'  move {game.move_number}: our move {self.our_moves} took {elapsed:.3f} s, '
                      f'RSS {rss:.1f} MiB', flush=True)

    def report(self):
        if not self.samples:
            return 'RSS: no samples', False
        values = [mb for _, mb in self.samples]
        first, last, peak = values[0], values[-1], max(values)
        # Growth is judged after a warm-up (caches, allocator pools fill in the first moves).
        settled = values[min(2, len(values) - 1)]
        grows = last - settled > max(10.0, 0.05 * settled)
        trail = ' '.join(f'{n}:{mb:.0f}' for n, mb in self.samples)
        return (f'RSS MiB first {first:.1f} last {last:.1f} max {peak:.1f} '
                f'(after warm-up {settled:.1f} -> {last:.1f}: {"GROWS" if grows else "stable"}); '
                f'samples (our move:MiB) {trail}'), grows


def default_ours():
    """gtp_main with its default network (auto: either shipped one) when the files are
    there, else the random player (--weights none)."""
    from goengine.programs import loading
    there = all((REPO / path).exists() for path in loading.NETWORKS.values())
    return match.default_ours() + ('' if there else ' --weights none')


def build_parser():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--main', type=float, default=0, help='main time, seconds (default 0)')
    p.add_argument('--byoyomi', type=float, default=5, help='byo-yomi block, seconds (default 5)')
    p.add_argument('--stones', type=int, default=1, help='stones per block (default 1)')
    p.add_argument('--size', type=int, default=19)
    p.add_argument('--komi', type=float, default=7.5)
    p.add_argument('--ours', default=None, help='our command line (default: gtp_main.py with '
                                                'its default network if present, else '
                                                '--weights none)')
    p.add_argument('--opponent', default=match.DEFAULT_OPPONENT)
    p.add_argument('--opponent-timeout', type=float, default=120.0)
    p.add_argument('--scorer', default=match.DEFAULT_SCORER, help='"none" to skip')
    p.add_argument('--white', action='store_true', help='our engine plays White (default Black)')
    p.add_argument('--min-moves', type=int, default=200)
    p.add_argument('--max-moves', type=int, default=600)
    p.add_argument('--rss-every', type=int, default=10, help='sample RSS every N of our moves')
    p.add_argument('--out', default=None, help='default: runs/clock-<date-time>')
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    out = Path(args.out or REPO / 'runs' / f'clock-{datetime.datetime.now():%Y%m%d-%H%M%S}')
    out.mkdir(parents=True, exist_ok=True)
    clock = CanadianClock(args.main, args.byoyomi, args.stones)
    ours = Side('ours', args.ours or default_ours(), clock)
    opponent = Side('opponent', args.opponent, MoveLimit(args.opponent_timeout))
    scorer = None if args.scorer.lower() == 'none' else args.scorer
    sampler = RssSampler(args.rss_every)
    print(f'ours: {ours.command}\nopponent: {opponent.command}\n'
          f'clock: {clock.setup_commands()[0]} for ours; {args.size}x{args.size} komi '
          f'{args.komi:g}; output {out}', flush=True)
    r = match.play_game(1, ours, opponent, not args.white, args.size, args.komi, args.max_moves,
                        out, scorer, on_move=sampler)
    print(match.describe(r))

    times = r.our_times or [0.0]
    over = [(e, a) for _, e, a in clock.moves if e > a]
    tightest = min((a for _, _, a in clock.moves), default=0.0)
    our_fault = r.winner_label() == 'opponent' and r.reason in ('time', 'crash', 'illegal')
    print(f'our moves {len(r.our_times)}: wall-clock per move mean {statistics.fmean(times):.3f} s '
          f'p95 {percentile(times, 0.95):.3f} s max {max(times):.3f} s; clock allowed at least '
          f'{tightest:.1f} s per move; {len(over)} over; '
          f'lost on time: {"YES" if r.reason == "time" and our_fault else "no"}')
    rss_line, grows = sampler.report()
    print(rss_line)
    ok = r.moves >= args.min_moves and not over and not our_fault
    print(f'clock game {"PASS" if ok else "FAIL"}: {r.moves} moves (min {args.min_moves}), '
          f'{r.result}, memory {"grows" if grows else "stable"}', flush=True)
    return 0 if ok else 1


def percentile(values, q):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == '__main__':
    sys.exit(main())
