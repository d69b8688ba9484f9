#!/usr/bin/env python3
"""Run a GoGui regression suite (.tst) with GoGui's own gogui-regress and print our summary.

A .tst file is GTP commands, one a line: numbered commands are tests, and the `#? [A|B]`
line after one gives the accepted answers (`[!A]`: anything but A; a trailing `*` marks
a test expected to fail). gogui-regress (../shared/tools/gogui, GOGUI_DIR overrides) runs
the engine in the suite's folder and judges every answer; this prints one line a test
and the summary line `passed P of N` from its report. Our suites name their positions
`loadsgf positions.sgfs:N`, game N of a collection, which goengine reads itself
(sgffile.read_record); `--split` gives an engine that reads only plain SGF files (GNU Go)
a copy of the suite with each position in a file of its own.

    .venv/bin/python tools/regress.py tests/tactics/groups/suite.tst             # goengine, 3 s a move
    .venv/bin/python tools/regress.py tests/tactics/groups/suite.tst --split \\
        --engine "/usr/games/gnugo --mode gtp --level 10"                         # GNU Go on the same suite

Last line: `passed P of N` (and the failed test numbers before it).
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.match import default_ours
from harness.regression import read_suite, split_collections

DEFAULT_ENGINE = f"{default_ours()} --time-per-move 3"    # its default network, as a user runs it
GOGUI = Path(os.environ.get("GOGUI_DIR", _checkout.ROOT.parent / "shared" / "tools" / "gogui"))
REGRESS_JAR = GOGUI / "lib" / "gogui-regress.jar"
# gogui-regress -long, one line a test: "3 passed", "3 PASSED" (expected to fail),
# "3 failed: Correct 'T12', got 'M1'" (expected to) or "3 FAILED: ..."
RESULT = re.compile(r"^(\d+) (passed|failed)(?:: .*got '(.*)')?", re.I)


class RegressError(Exception):
    """gogui-regress could not run the suite (one line saying why)."""


def run(path, engine_command, log=print, split=False, seconds_per_test=120):
    """(passed, failed test numbers, tests) of the suite at `path` under gogui-regress
    against `engine_command`; each test's line to `log`. gogui-regress waits for an answer
    for ever, so the whole run has `seconds_per_test` a test, then stops with the engine."""
    if not shutil.which("java"):
        raise RegressError("java is not installed (make test installs it)")
    if not REGRESS_JAR.exists():
        raise RegressError(f"no {REGRESS_JAR} (GoGui, ../shared/tools/gogui; GOGUI_DIR)")
    tests = read_suite(path)
    argv = shlex.split(engine_command)
    # the engine runs in the suite's folder: paths given from here are made absolute
    argv = [os.path.abspath(a) if not os.path.isabs(a) and os.path.exists(a) else a
            for a in argv]
    with tempfile.TemporaryDirectory() as scratch:
        suite = split_collections(path, scratch) if split else os.path.abspath(path)
        done = regress(["java", "-jar", str(REGRESS_JAR), "-long", "-output",
                        os.path.join(scratch, "report"), shlex.join(argv), suite],
                       seconds_per_test * len(tests))
        summary = Path(scratch, "report", "summary.dat")
        if not summary.exists():
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:]
            raise RegressError(f"gogui-regress: {last[0] if last else 'no report'}")
        counts = dict(zip(*[line.lstrip("#").split("\t") for line in
                            summary.read_text().splitlines()[:2]]))
    verdicts = {int(m.group(1)): (m.group(2).lower() == "passed", m.group(3))
                for m in map(RESULT.match, done.stdout.splitlines()) if m}
    failed = []
    for test in tests:
        ok, answer = verdicts.get(test.number, (False, "(no verdict)"))
        if not ok:
            failed.append(test.number)
        log(f"{test.number}: PASS" if ok else
            f"{test.number}: FAIL {answer} (accepted {'|'.join(test.accepted)})")
    total = int(counts["Tests"])
    passed = int(counts["PASS"]) + int(counts["pass"])
    if total != len(tests) or passed != len(tests) - len(failed):
        raise RegressError(f"gogui-regress counted {passed} of {total}, its lines "
                           f"{len(tests) - len(failed)} of {len(tests)}")
    return passed, failed, total


def regress(command, seconds):
    """gogui-regress run to its end, or stopped with the engine it started (its own process
    group) after `seconds`: RegressError then."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise RegressError(f"gogui-regress: the suite did not end within {seconds:g} s "
                               "(an engine that does not answer?); stopped") from None
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", help="a .tst file")
    parser.add_argument("--engine", default=DEFAULT_ENGINE,
                        help="the engine's command line "
                             "(default: goengine with its default network at 3 s a move)")
    parser.add_argument("--split", action="store_true",
                        help="give the engine each position in a file of its own (for an "
                             "engine that cannot read game N of a collection: GNU Go)")
    parser.add_argument("--seconds-per-test", type=float, default=120, metavar="S",
                        help="stop the run after S seconds a test (default 120): "
                             "gogui-regress itself waits for an answer for ever")
    args = parser.parse_args(argv)
    try:
        passed, failed, total = run(args.suite, args.engine, split=args.split,
                                    seconds_per_test=args.seconds_per_test)
    except (OSError, ValueError, RegressError) as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return 1
    if failed:
        print("failed: " + " ".join(str(n) for n in failed))
    print(f"passed {passed} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
