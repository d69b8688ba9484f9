#!/usr/bin/env python3
"""Does the engine save (or kill) a group in a fight it once lost? GNU Go's owl is the judge.

The engine loads a game up to a move, runs a few GTP commands as a game would (a genmove, an
undo, the moves the game went on with, the genmove that is judged), and GNU Go's life and
death reader at level 10 (`owl_attack` on the target, or `owl_defend` with --kill) is asked
about the position after the last answer. Each run starts the engine afresh.

    .venv/bin/python tools/research/fight_check.py tests/tactics/fights/game1-2026-12-04.sgf \\
        --before 117 --commands "genmove b" undo "play b G13" "play w H12" "genmove b" \\
        --target K17 --runs 3 --time-per-move 2

(issue 101's game-1 position: the group at K17 lives only by S17.) Last line: `saved N of M`.
"""

import argparse
import shlex
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.gnugo import GNUGO, GnuGo
from harness.gtp_client import GtpProcess
from harness.match import default_ours


def play_out(engine, sgf, before, commands):
    """The moves on the board after `commands` ((colour, vertex) from loadsgf on), and the
    answer of the last genmove."""
    engine.send(f"loadsgf {sgf} {before}")
    moves, answer = [], None
    for command in commands:
        words = command.split()
        reply = engine.send(command, timeout=600)
        if words[0] == "genmove":
            answer = reply.strip().upper()
            moves.append((words[1], answer))
        elif words[0] == "play":
            moves.append((words[1], words[2].upper()))
        elif words[0] == "undo":
            moves.pop()
    return moves, answer


def judged(sgf, before, moves, target, kill, gnugo):
    """Whether the side the check is for got its way: GNU Go cannot kill the target (or,
    with `kill`, cannot save it) after `moves`."""
    with GnuGo(gnugo, options=("--level", "10")) as oracle:   # level 0 reads too shallow
        oracle.send(f"loadsgf {sgf} {before}")
        for color, vertex in moves:
            if vertex != "RESIGN":
                oracle.send(f"play {color} {vertex}")
        if oracle.send(f"color {target}").strip() == "empty":
            return kill                       # the target was taken off the board
        code = oracle.send(f"{'owl_defend' if kill else 'owl_attack'} {target}").split()[0]
        return code == "0"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sgf", type=Path)
    p.add_argument("--before", type=int, required=True, help="load the game before this move")
    p.add_argument("--commands", nargs="+", required=True,
                   help="GTP commands after loadsgf; the last genmove is judged")
    p.add_argument("--target", required=True, help="a stone of the group at stake")
    p.add_argument("--kill", action="store_true", help="the engine is to kill the target")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--time-per-move", type=float, default=2.0)
    p.add_argument("--engine", default=None,
                   help="the engine's command (default: gtp_main.py as a user starts it)")
    p.add_argument("--gnugo", default=GNUGO)
    args = p.parse_args(argv)
    engine = args.engine or f"{default_ours()} --time-per-move {args.time_per_move}"
    sgf = str(args.sgf.resolve())
    good = 0
    for run in range(1, args.runs + 1):
        with GtpProcess(shlex.split(engine), name="engine") as process:
            moves, answer = play_out(process, sgf, args.before, args.commands)
        ok = judged(sgf, args.before, moves, args.target, args.kill, args.gnugo)
        good += ok
        task = "killed" if args.kill else "saved"
        print(f"run {run}: {answer}: {args.target} {task if ok else 'not ' + task}", flush=True)
    print(f"{'killed' if args.kill else 'saved'} {good} of {args.runs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
