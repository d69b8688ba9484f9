"""GoGui's regression suites (.tst), as gogui-regress reads them: numbered commands are
tests, the `#? [A|B]` line after one gives the accepted answers (`[!A]`: anything but A; a
trailing `*` marks a test expected to fail), other lines are sent as they are, and `#`
lines are comments. `loadsgf FILE:N [move]` names game N of a collection (one SGF a line,
as tools/tactics_suite.py writes its positions.sgfs). tools/regress.py runs a suite;
tools/research/suite_diagnose.py asks why its answers are missed."""

import os
import re
import tempfile
from dataclasses import dataclass

NUMBERED = re.compile(r"^(\d+)\s+(\S.*)$")
EXPECTED = re.compile(r"^#\?\s*\[(.*)\](\*?)\s*$")
FROM_COLLECTION = re.compile(r"^loadsgf\s+(\S+?):(\d+)(\s+\d+)?\s*$")


@dataclass
class Test:
    number: int
    command: str
    accepted: list         # alternatives, upper-case; a leading '!' negates
    expect_failure: bool
    setup: list            # the commands sent before this test since the previous one
    comment: str = ""      # the last comment line before it (tools/tactics_suite.py: the task)


def read_suite(path):
    """The tests of a .tst file, each with the plain commands that precede it."""
    tests, pending, last, comment = [], [], None, ""
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            match = EXPECTED.match(line)
            if match:
                if last is None or last.accepted:
                    raise ValueError(f"{path}:{number}: '#?' without a numbered command before it")
                last.accepted = [a.strip().upper() for a in match.group(1).split("|")]
                last.expect_failure = bool(match.group(2))
                continue
            if line.startswith("#"):
                comment = line[1:].strip()
            if not line or line.startswith("#"):
                continue
            numbered = NUMBERED.match(line)
            if numbered:
                last = Test(int(numbered.group(1)), numbered.group(2), [], False, pending,
                            comment)
                tests.append(last)
                pending, comment = [], ""
            else:
                pending.append(line)
    return [t for t in tests if t.accepted]


def accepts(accepted, answer):
    """Whether `answer` matches one of the alternatives (GoGui's [A|B] and [!A])."""
    answer = answer.strip().upper()
    for alternative in accepted:
        if alternative.startswith("!"):
            if answer != alternative[1:]:
                return True
        elif answer == alternative:
            return True
    return False


class one_game_file:
    """`loadsgf FILE:N [move]` as a plain loadsgf of game N written to a file of its own
    (removed afterwards); any other command as it is."""

    def __init__(self, command, folder):
        self.command, self.folder, self.file = command, folder, None

    def __enter__(self):
        match = FROM_COLLECTION.match(self.command)
        if not match:
            return self.command
        with open(os.path.join(self.folder, match.group(1))) as f:
            games = [line for line in f if line.strip()]
        number = int(match.group(2))
        if not 1 <= number <= len(games):
            raise ValueError(f"{match.group(1)} has no game {number}")
        self.file = tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False)
        self.file.write(games[number - 1])
        self.file.close()
        return f"loadsgf {self.file.name}{match.group(3) or ''}"

    def __exit__(self, *exc):
        if self.file is not None:
            os.unlink(self.file.name)
