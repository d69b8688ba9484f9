"""GoGui's regression suites (.tst), as gogui-regress reads them: numbered commands are
tests, the `#? [A|B]` line after one gives the accepted answers (`[!A]`: anything but A; a
trailing `*` marks a test expected to fail), other lines are sent as they are, and `#`
lines are comments. `loadsgf FILE:N [move]` names game N of a collection (one SGF a line,
as tools/tactics_suite.py writes its positions.sgfs), which goengine reads itself
(sgffile.read_record); other engines get each game as a file of its own (one_game_file,
split_collections). tools/regress.py runs a suite with gogui-regress;
tools/research/suite_diagnose.py asks why its answers are missed."""

import os
import re
import tempfile
from dataclasses import dataclass

from goengine.game.sgffile import read_record

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
        text, _ = read_record(os.path.join(self.folder, f"{match.group(1)}:{match.group(2)}"))
        self.file = tempfile.NamedTemporaryFile("wb", suffix=".sgf", delete=False)
        self.file.write(text)
        self.file.close()
        return f"loadsgf {self.file.name}{match.group(3) or ''}"

    def __exit__(self, *exc):
        if self.file is not None:
            os.unlink(self.file.name)


def split_collections(path, folder):
    """A copy of the suite at `path` in `folder` in which each `loadsgf FILE:N` names a
    file of its own holding game N: the suite for an engine that reads only plain SGF
    files. Returns the copy's path."""
    source = os.path.dirname(os.path.abspath(path))
    lines = []
    with open(path) as f:
        for line in f:
            match = FROM_COLLECTION.match(line.strip())
            if match:
                text, _ = read_record(os.path.join(source, f"{match.group(1)}:{match.group(2)}"))
                name = f"{os.path.splitext(match.group(1))[0]}-{match.group(2)}.sgf"
                with open(os.path.join(folder, name), "wb") as out:
                    out.write(text)
                line = f"loadsgf {name}{match.group(3) or ''}\n"
            lines.append(line)
    copy = os.path.join(folder, os.path.basename(path))
    with open(copy, "w") as f:
        f.writelines(lines)
    return copy
