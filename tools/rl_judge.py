#!/usr/bin/env python3
"""An RL network against the network its run started from, as the run plays.

The games are the RL stage's own (training/rl_games.py: both policies sampled over the
sensible moves, one batched network call a step, played out and counted by area), so a
checkpoint is judged in minutes: from the empty board, where a user's game begins, and
from the first moves of held-out games, each at T = 1 and greedy (--temperatures: others,
such as a run's own). Greedy from the empty board is two games a symmetry, one with each
colour, whatever --games says: both players are then deterministic. A run writes its network
every 50 iterations to RUN_DIR/networks/ (selfplay_rl.py --keep-every; --export writes
the latest). tools/match.py, which plays through GTP and lets GNU Go count, is the judge
of what ships. A checkpoint chosen among several on the same games is confirmed on fresh
ones: other openings (--skip-openings) and another seed. Greedy, each of the 8 symmetries
the networks can read the board in is a different pair of players, so greedy is judged in
all of them (--symmetries 0 1 2 3 4 5 6 7).

    .venv/bin/python tools/rl_judge.py --weights weights/rl.pt --against weights/heads-k96.pt
    .venv/bin/python tools/rl_judge.py --weights runs/rl/networks/000500.pt --temperatures 0 \
        --symmetries 0 1 2 3 4 5 6 7
    .venv/bin/python tools/selfplay_rl.py --run-dir runs/rl --export runs/rl-now.pt && \\
        .venv/bin/python tools/rl_judge.py --weights runs/rl-now.pt --games 400

One line a way: `from the empty board, T = 1: won W of N (P %, Wilson L-H %)`.
"""

import argparse
import sys
import time

import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import netfile
from goengine.nn.inference import NetworkEvaluator
from harness.openings import load_openings
from harness.stats import wilson_interval
from training.dataset import HELD_OUT_FILE
from training.rl_games import play_games


class Turned:
    """A network that reads every board in one of the 8 symmetries (features.
    apply_symmetry), its policy turned back: greedy, each is a player of its own."""

    def __init__(self, evaluator, symmetry):
        self.evaluator, self.symmetry = evaluator, symmetry

    def evaluate(self, boards, komi):
        return self.evaluator.evaluate(boards, komi, symmetries=[self.symmetry] * len(boards))


def judge(current, start, games, seed, temperature, openings, komi, symmetries=(0,)):
    """(won, played) of `current` against `start` (evaluators) in `games` games for each
    of `symmetries`, both networks reading the board in it."""
    won = played = 0
    for symmetry in symmetries:
        games_played = play_games(Turned(current, symmetry), Turned(start, symmetry), games,
                                  seed, komi=komi, temperature=temperature, openings=openings)
        won += sum(g.winner == g.current for g in games_played)
        played += len(games_played)
    return won, played


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--weights", default="weights/rl.pt", help="the RL network")
    p.add_argument("--against", default="weights/heads-k96.pt",
                   help="the network its run started from")
    p.add_argument("--games", type=int, default=200, help="games a way (even)")
    p.add_argument("--openings", default=HELD_OUT_FILE,
                   help="games whose first moves start the games from openings")
    p.add_argument("--opening-moves", type=int, default=20)
    p.add_argument("--skip-openings", type=int, default=0, metavar="N",
                   help="start from the file's (N+1)-th opening: a fresh set to confirm a "
                        "checkpoint chosen among several on the first ones")
    p.add_argument("--temperatures", type=float, nargs="+", default=[1.0, 0.0], metavar="T",
                   help="the temperatures both play at, each from the empty board and from "
                        "openings (0: greedy; default: 1 0)")
    p.add_argument("--symmetries", type=int, nargs="+", default=[0], metavar="K",
                   choices=range(8),
                   help="the board symmetries (0-7) both networks read the board in, each "
                        "its own set of games: greedy play differs by orientation, so greedy "
                        "is judged over all 8 (default: 0, the board as it stands)")
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: every core)")
    args = p.parse_args(argv)
    if any(t < 0 for t in args.temperatures):
        p.error("a temperature is 0 (greedy) or more")
    if args.skip_openings < 0:
        p.error("--skip-openings is 0 or more")
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        current, start = (NetworkEvaluator(netfile.load_network(path), threads=args.threads)
                          for path in (args.weights, args.against))
        openings = [[move for _, move in moves] for moves in
                    load_openings(args.openings, args.opening_moves,
                                  count=args.skip_openings + args.games // 2)]
        openings = openings[args.skip_openings:]
        if not openings:
            raise ValueError(f"{args.openings}: no opening left after the first "
                             f"{args.skip_openings}")
    except (netfile.NetworkLoadError, OSError, ValueError) as exc:
        print(f"rl_judge: {exc}", file=sys.stderr)
        return 2
    ways = [(f"from {where}, {f'T = {t:g}' if t else 'greedy'}", t, starts,
             2 if t == 0 and not starts else args.games)
            for where, starts in (("the empty board", ()),
                                  (f"{args.opening_moves}-move openings", openings))
            for t in args.temperatures]
    for name, temperature, starts, games in ways:
        began = time.monotonic()
        won, played = judge(current, start, games, args.seed, temperature, starts, args.komi,
                            args.symmetries)
        low, high = wilson_interval(won, played)
        print(f"{name}: won {won} of {played} ({100 * won / played:.1f} %, Wilson "
              f"{100 * low:.1f}-{100 * high:.1f} %; {time.monotonic() - began:.0f} s)",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
