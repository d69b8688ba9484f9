#!/usr/bin/env python3
"""Why does goengine miss a suite's answers: does its policy not offer the accepted move
(a prior problem), or does the search try it and value it lower (a value problem)?

For every test of a tools/tactics_suite.py suite (numbered `reg_genmove C` lines), the
engine is asked `goengine-policy_heatmap C` (the policy's ranking of the legal moves) and
then `lz-genmove_analyze C` (a move at the engine's own time setting, with the root's
visits, win rates and priors streamed). One line a test:

    12 FAIL (valued lower) chose Q4 (visits 1402, win 0.62) best accepted R3: prior rank 7, visits 31, win 0.55

and at the end how the failures split, and (where the suite's comments name the move the
game played, as tools/tactics_suite.py writes them) the problems whose game played an
accepted answer and how many of those the engine solved:
    not offered: no accepted move among the policy's first --top moves
    not searched: offered, but each accepted move got under --min-visits visits
    valued lower: searched, its win rate below the chosen move's

    .venv/bin/python tools/research/suite_diagnose.py tests/tactics/groups/suite.tst \\
        --engine ".venv/bin/python gtp_main.py --time-per-move 2 --resign-threshold 0"
"""

import argparse
import os
import re
import shlex
import sys

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.gtp_client import EngineError, GtpFailure, GtpProcess
from harness.regression import accepts, one_game_file, read_suite

INFO_MOVE = re.compile(r"move (\S+) visits (\d+) winrate (\d+)")
GAME_PLAYED = re.compile(r"the game played (\S+)$")   # tools/tactics_suite.py's comments


def policy_ranking(engine, color):
    """The policy's moves, best first (goengine-policy_heatmap's INFLUENCE order)."""
    text = engine.send(f"goengine-policy_heatmap {color}", 60)
    for line in text.splitlines():
        if line.startswith("INFLUENCE"):
            words = line.split()[1:]
            return [w.upper() for w in words[0::2]]
    return []


def searched(engine, color, timeout):
    """(move played, {move: (visits, win rate)}) from lz-genmove_analyze's last info line."""
    text = engine.send(f"lz-genmove_analyze {color} 50", timeout)
    info_lines = [line for line in text.splitlines() if line.startswith("info")]
    play = [line for line in text.splitlines() if line.startswith("play")]
    move = play[-1].split()[1].upper() if play else "?"
    children = {}
    if info_lines:
        for entry in info_lines[-1].split("info ")[1:]:
            found = INFO_MOVE.search(entry)
            if found:
                children[found.group(1).upper()] = (int(found.group(2)),
                                                    int(found.group(3)) / 10000)
    return move, children


def verdict(accepted, ranking, move, children, top, min_visits):
    """(kind, the accepted move to show) of one test: 'passed', 'not offered' (no accepted
    move among the policy's first `top`), 'not searched' (none with `min_visits` visits)
    or 'valued lower'. ranking: the policy's moves, best first; children: {move: (visits,
    win rate)} of the root."""
    wanted = [m for m in ranking if accepts(accepted, m)]
    most_visited = max(wanted, key=lambda m: children.get(m, (0, 0))[0], default=None)
    if accepts(accepted, move):
        return "passed", move
    if not any(ranking.index(m) < top for m in wanted):
        return "not offered", most_visited
    if all(children.get(m, (0, 0))[0] < min_visits for m in wanted):
        return "not searched", most_visited
    return "valued lower", most_visited


def diagnose(path, engine_command, top, min_visits, timeout, engine_log=None):
    folder = os.path.dirname(os.path.abspath(path))
    argv = [os.path.abspath(a) if not os.path.isabs(a) and os.path.exists(a) else a
            for a in shlex.split(engine_command)]
    engine = GtpProcess(shlex.join(argv), name="engine", cwd=folder, stderr_path=engine_log)
    kinds = {"passed": 0, "not offered": 0, "not searched": 0, "valued lower": 0}
    tests = read_suite(path)
    played = {t.number: GAME_PLAYED.search(t.comment).group(1) for t in tests
              if GAME_PLAYED.search(t.comment)}
    game_solved, both_solved = 0, 0
    try:
        for test in tests:
            for command in test.setup:
                with one_game_file(command, folder) as sent:
                    engine.send(sent, timeout)
            color = test.command.split()[-1]
            try:
                ranking = policy_ranking(engine, color)
                move, children = searched(engine, color, timeout)
            except GtpFailure as exc:   # one test's failure, reported; the others go on
                print(f"{test.number} ERROR {exc}", flush=True)
                continue
            kind, best = verdict(test.accepted, ranking, move, children, top, min_visits)
            visits, win = children.get(move, (0, 0.0))
            line = f"{test.number} {{}} chose {move} (visits {visits}, win {win:.2f})"
            kinds[kind] += 1
            if test.number in played and accepts(test.accepted, played[test.number]):
                game_solved += 1
                both_solved += kind == "passed"
            if best is not None:
                b_visits, b_win = children.get(best, (0, 0.0))
                rank = ranking.index(best) + 1 if best in ranking else "-"
                line += (f" best accepted {best}: prior rank {rank},"
                         f" visits {b_visits}, win {b_win:.2f}")
            print(line.format("PASS" if kind == "passed" else f"FAIL ({kind})"), flush=True)
        engine.send("quit", 10)
    finally:
        engine.close()
    print(" ".join(f"{name}={count}" for name, count in kinds.items()))
    if played:
        print(f"the game played an answer in {game_solved} of {len(played)}; "
              f"the engine solved {both_solved} of those {game_solved}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite")
    parser.add_argument("--engine", required=True, help="a goengine command line")
    parser.add_argument("--top", type=int, default=10,
                        help="an accepted move ranked below this by the policy is 'not offered'")
    parser.add_argument("--min-visits", type=int, default=10,
                        help="an offered move with fewer visits is 'not searched'")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--engine-log", help="a file for the engine's stderr")
    args = parser.parse_args(argv)
    try:
        diagnose(args.suite, args.engine, args.top, args.min_visits, args.timeout,
                 args.engine_log)
    except (OSError, ValueError, EngineError) as exc:
        print(f"suite_diagnose: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
