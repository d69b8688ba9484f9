#!/usr/bin/env python3
"""Run a GoGui regression suite (.tst) against a GTP engine and count the answers it gets right.

A .tst file is GTP commands, one a line, as gogui-regress reads them:
numbered commands are tests, and the `#? [A|B]` line after one gives the
accepted answers (`[!A]`: anything but A; a trailing `*` marks a test expected
to fail, counted apart). Other lines are sent as they are (loadsgf ...), and
comments (#) are skipped. The engine runs in the .tst file's folder, so
loadsgf paths are relative to it. `loadsgf FILE:N [move]` names game N of a collection
(one SGF a line, as tools/tactics_suite.py writes its positions.sgfs): the game goes to
the engine as a file of its own.

    .venv/bin/python tools/regress.py tests/tactics/suite.tst                   # goengine, 3 s a move
    .venv/bin/python tools/regress.py tests/tactics/suite.tst \\
        --engine "/usr/games/gnugo --mode gtp --level 10"                       # GNU Go on the same suite

Last line: `passed P of N` (and the failed test numbers before it).
"""

import argparse
import os
import shlex
import sys
import time

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.gtp_client import EngineError, GtpFailure, GtpProcess
from harness.match import default_ours
from harness.regression import accepts, one_game_file, read_suite

DEFAULT_ENGINE = f"{default_ours()} --time-per-move 3"    # its default network, as a user runs it


def run(path, engine_command, timeout=120.0, log=print):
    """(passed, failed test numbers) of the suite at `path` against `engine_command`."""
    tests = read_suite(path)
    argv = shlex.split(engine_command)
    # the engine runs in the suite's folder: paths given from here are made absolute
    argv = [os.path.abspath(a) if not os.path.isabs(a) and (os.sep in a or os.path.exists(a))
            and os.path.exists(a) else a for a in argv]
    engine = GtpProcess(shlex.join(argv), name="engine", cwd=os.path.dirname(os.path.abspath(path)))
    passed, failed = 0, []
    try:
        for test in tests:
            for command in test.setup:
                with one_game_file(command, os.path.dirname(os.path.abspath(path))) as sent:
                    engine.send(sent, timeout)
            start = time.monotonic()
            try:
                answer = engine.send(test.command, timeout)
            except GtpFailure as exc:
                answer = f"? {exc}"
            ok = accepts(test.accepted, answer)
            passed += ok
            if not ok:
                failed.append(test.number)
            log(f"{test.number}: {'PASS' if ok else 'FAIL'} {answer} "
                f"(accepted {'|'.join(test.accepted)}; {time.monotonic() - start:.1f} s)")
        try:
            engine.send("quit", 10)
        except EngineError:
            pass
    finally:
        engine.close()
    return passed, failed, len(tests)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", help="a .tst file")
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help="the engine's command line "
                             "(default: goengine with its default network at 3 s a move)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for one answer")
    args = parser.parse_args(argv)
    try:
        passed, failed, total = run(args.suite, args.engine, args.timeout)
    except (OSError, ValueError, EngineError) as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return 1
    if failed:
        print("failed: " + " ".join(str(n) for n in failed))
    print(f"passed {passed} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
