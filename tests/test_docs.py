"""The commands in README.md and docs/*.md are commands the programs take, as written.

Most of them train, play matches or benchmark for minutes to days, so they are not run
here: each is handed to its own program with argument parsing stopped right after it
succeeds, which catches a renamed or removed flag, a bad value and a missing program, and
every file of the repository it reads (weights, suites) must exist or be written by an
earlier command of the same page. `--device cuda` is checked as `--device cpu` on a machine
whose torch sees no CUDA GPU (there the engine refuses it, as it should). The terminal
examples that start the engine are run for real in tests/test_gtp.py."""

import re
import shlex
from pathlib import Path

import pytest
import torch

from tests.parsing import parse_only
from tests.test_module_docs import in_an_archive

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))

# Arguments that name a file or folder the command writes, not one it reads.
OUTPUT_FLAGS = {"--export", "--out", "--run-dir"}
ENTRY_POINTS = {".venv/bin/goengine-review": ["-m", "goengine.programs.review"]}


def readme_commands(text):
    """Every command line of the README's sh blocks, continuations joined, without
    comments, `nohup` or a trailing `&`."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        block = block.replace("\\\n", " ")
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] == "nohup":
                words = words[1:]
            if words and words[-1] == "&":
                words = words[:-1]
            if words:
                commands.append(words)
    return commands


def program_and_args(words):
    """(program arguments for PARSE_ONLY, the command's own arguments), or None for a
    command that is not one of ours (make)."""
    if words[0] in ENTRY_POINTS:
        return ENTRY_POINTS[words[0]], words[1:]
    if words[0] == ".venv/bin/python":
        if words[1] == "-m":
            return words[1:3], words[3:]
        return words[1:2], words[2:]
    return None


def repository_files(args):
    """(files of the repository the command reads, files it writes); a match record's
    game N (FOLDER:N) is its folder."""
    read, written = [], []
    for i, arg in enumerate(args):
        arg = re.sub(r":\d+$", "", arg)
        if re.match(r"(weights|tests|docs)/", arg):
            (written if i and args[i - 1] in OUTPUT_FLAGS else read).append(arg)
    return read, written


def on_this_machine(args):
    if torch.cuda.is_available():
        return args
    return ["cpu" if a.startswith("cuda") and i and args[i - 1] == "--device" else a
            for i, a in enumerate(args)]


def test_commands_are_found():
    commands = [c for page in PAGES for c in readme_commands(page.read_text())]
    assert sum(program_and_args(c) is not None for c in commands) >= 15
    assert ["make", "test"] in commands
    assert len(PAGES) >= 5


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_commands_parse_and_read_files_that_exist(page, parsers):
    failures, written, parsing = [], set(), []
    for words in readme_commands(page.read_text()):
        found = program_and_args(words)
        if found is None:
            continue
        program, args = found
        reads, writes = repository_files(args)
        missing = [f for f in reads if not (REPO / f).exists() and f not in written
                   and not in_an_archive(f)]
        written.update(writes)
        if missing:
            failures.append((" ".join(words), f"no such file: {missing}"))
        parsing.append((words, parse_only(parsers, program, on_this_machine(args))))
    for words, outcome in parsing:
        status, out, err = outcome.get(timeout=120)
        if status != 0 or ("--help" not in words and out.strip()):
            failures.append((" ".join(words), err.strip()[-300:]))
    assert not failures, "\n".join(f"{c}\n    {why}" for c, why in failures)


@pytest.mark.parametrize("words, reason", [
    ([".venv/bin/python", "tools/eval_policy.py", "--weights", "weights/sl-policy.pt", "--no-such-flag"],
     "unrecognized"),
    ([".venv/bin/python", "tools/eval_policy.py", "--weights", "weights/sl-policy.pt", "--limit", "ten"],
     "invalid"),
    ([".venv/bin/python", "tools/not_a_program.py"], "No such file"),
])
def test_a_wrong_command_fails_the_check(words, reason, parsers):
    status, _, err = parse_only(parsers, *program_and_args(words)).get(timeout=120)
    assert status != 0 and reason in err


def test_files_read_and_written():
    args = ["--weights", "weights/x.pt", "--export", "weights/y.pt", "tests/a.tst"]
    assert repository_files(args) == (["weights/x.pt", "tests/a.tst"], ["weights/y.pt"])
