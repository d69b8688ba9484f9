#!/usr/bin/env python3
"""Build a tactical regression suite from real games, with GNU Go as the oracle.

A problem is a position where something is critical: whoever moves first
decides its fate, and the side to move must settle it its own way. Two kinds:

- strings (the default): a string of 3 or more stones that GNU Go's `attack`
  and `defend` both take or save (without ko); the side to move must capture
  it (an opponent's string) or save it (its own). Positions are drawn at random
  from the held-out month.
- groups (`--groups`, or games named): a dragon (GNU Go's name for stones that
  live or die together) of `--min-stones` or more that GNU Go's life-and-death
  reading, `owl_attack` and `owl_defend`, both kill and save (without ko); the
  side to move must kill it or make it live. Positions are drawn from the
  held-out month (`--groups`) or are every move of `--color` in `--moves` of
  the given games (match records), and from games a problem is kept only where
  the move played was not an answer (where, by GNU Go's reading, the game went
  wrong) unless `--keep-solved`. One problem a group and game.

Each problem's comment in suite.tst ends with the move the game played there: in the
held-out month, how often a 9-dan played an accepted answer (`tools/research/suite_diagnose.py`
counts both).

The accepted answers are every move near the target after which GNU Go's
reading agrees the job is done (the target can no longer be saved, or can no
longer be taken). Problems with more than --max-answers answers are left out:
they test little.

Each problem is a position (the game up to that point), one SGF a line in the output
folder's positions.sgfs; suite.tst lists them in GoGui's regression format, which
gogui-regress runs as written with goengine (its loadsgf reads FILE:N, game N of the
collection) and tools/regress.py runs through gogui-regress (--split for GNU Go):

    loadsgf positions.sgfs:1
    1 reg_genmove b
    #? [C3|D4]

    .venv/bin/python tools/tactics_suite.py --problems 60 --out tests/tactics
    .venv/bin/python tools/tactics_suite.py --out tests/tactics/losses --color w \\
        --moves 40- docs/matches/2026-11.tar/2026-11-25-gnugo10-handicap5-zen4:7 ...   # a match record's game 7
    .venv/bin/python tools/tactics_suite.py --groups --min-stones 6 --problems 150 \\
        --out tests/tactics/groups --resume                        # life and death, held-out games
    .venv/bin/python tools/tactics_suite.py --out tests/tactics/groups --add FOLDER
                                      # the problems of a run made elsewhere, appended

The suite is written again after every problem found, and progress.tsv beside it says how
many positions the run of each --seed has examined: `--resume` goes on from there (the
positions are drawn in the same order), for a run stopped part way. Runs of two seeds may
write one folder at once (a lock file keeps them apart), one problem a game between them:

    .venv/bin/python tools/tactics_suite.py --groups --min-stones 6 --problems 150 \\
        --out tests/tactics/groups --resume --seed 2                # beside the run above
"""

import argparse
import contextlib
import fcntl
import os
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from harness import records

POSITIONS = "positions.sgfs"   # the problems' positions, one SGF a line (tools/regress.py)
from harness.gnugo import GnuGo

from goengine import BLACK, WHITE
from goengine.game import coords, sgffile
from goengine.game.state import GameError, from_record
from goengine.programs.review import move_range
from training.dataset import DATA_DIR, split_files

GNUGO = "/usr/games/gnugo"


class Reading(NamedTuple):
    """One kind of problem: GNU Go's commands that take and save a target, and the
    words for the two tasks."""
    attack: str
    defend: str
    take: str
    save: str


STRINGS = Reading("attack", "defend", "capture", "save")
GROUPS = Reading("owl_attack", "owl_defend", "kill", "live")
READING_OF_TASK = {"capture": STRINGS, "save": STRINGS, "kill": GROUPS, "live": GROUPS}


def reading(gnugo, command):
    """(code, move) of GNU Go's attack/defend: 0 fails, 1 succeeds, 2-3 only through ko."""
    words = gnugo.send(command).split()
    return int(words[0]), (words[1] if len(words) > 1 else None)


def is_critical(gnugo, vertex, kind):
    """Do both `kind.attack` and `kind.defend` succeed on `vertex` without ko?"""
    return (reading(gnugo, f"{kind.attack} {vertex}")[0] == 1
            and reading(gnugo, f"{kind.defend} {vertex}")[0] == 1)


def critical_string(board, gnugo, min_stones=3):
    """(vertex, owner, stones) of the largest string of >= min_stones stones and at
    most 3 liberties that GNU Go calls critical, or None."""
    size, stones, seen, best = board.size, board.stones(), set(), None
    for point in range(size * size):
        owner = int(stones[point // size, point % size])
        if not owner or point in seen:
            continue
        chain = board.chain_stones(point)
        seen.update(chain)
        if len(chain) < min_stones or board.chain_liberties(point) > 3:
            continue
        vertex = coords.to_gtp(point, size)
        if not is_critical(gnugo, vertex, STRINGS):
            continue
        if best is None or len(chain) > len(best[2]):
            best = (vertex, owner, chain)
    return best


def critical_dragon(board, gnugo, min_stones=5):
    """(vertex, owner, stones) of the largest dragon of >= min_stones stones that GNU
    Go's `dragon_status` calls critical and its owl reading confirms, or None."""
    size, stones, best = board.size, board.stones(), None
    for vertex, status in dragon_statuses(gnugo):
        if status != "critical":
            continue
        dragon = [coords.from_gtp(v.lower(), size)
                  for v in gnugo.send(f"dragon_stones {vertex}").split()]
        if len(dragon) < min_stones or not is_critical(gnugo, vertex, GROUPS):
            continue
        if best is None or len(dragon) > len(best[2]):
            point = dragon[0]
            best = (vertex, int(stones[point // size, point % size]), dragon)
    return best


def dragon_statuses(gnugo):
    """[(vertex, status)] of every dragon, from `dragon_status` without a vertex,
    whose rows read "D4: alive" or "Q16: critical R17 P17" (attack, defence)."""
    found = []
    for word in gnugo.send("dragon_status").split():
        if word.endswith(":"):
            found.append([word[:-1], None])
        elif found and found[-1][1] is None:
            found[-1][1] = word
    return [tuple(row) for row in found]


def answers(board, color, vertex, owner, target, gnugo, kind):
    """Every move for `color` within two points of the target after which GNU Go's
    `kind` reading says it is settled as `color` wants."""
    size = board.size
    name = "b" if color == BLACK else "w"
    near = set()
    for point in target:
        row, col = divmod(point, size)
        for r in range(row - 2, row + 3):
            for c in range(col - 2, col + 3):
                if 0 <= r < size and 0 <= c < size:
                    near.add(r * size + c)
    good = []
    for move in sorted(near):
        if not board.is_legal(move, color):
            continue
        gnugo.send(f"play {name} {coords.to_gtp(move, size)}")
        try:
            taken = board_after(board, move, color).color_at(target[0]) != owner
            if owner != color:     # take: the opponent can no longer save it
                done = taken or reading(gnugo, f"{kind.defend} {vertex}")[0] == 0
            else:                  # save: the opponent can no longer take it
                done = not taken and reading(gnugo, f"{kind.attack} {vertex}")[0] == 0
        finally:
            gnugo.send("undo")
        if done:
            good.append(coords.to_gtp(move, size))
    return good


def board_after(board, move, color):
    after = board.copy()
    after.play(move, color)
    return after


def problem_at(record, number, gnugo, kind, max_answers, min_stones=None):
    """The problem before move `number` of `record` (1-based), or None: (game, color,
    task, vertex, target stones, answers). min_stones: the smallest target (None: 3 for
    a string, 5 for a group)."""
    try:
        game = from_record(record, number)
    except GameError:
        return None
    color = record.moves[number - 1][0]
    gnugo.load_record(sgffile.game_to_sgf(game))
    board = game.board_for(color)
    if kind is STRINGS:
        found = critical_string(board, gnugo, min_stones or 3)
    else:
        found = critical_dragon(board, gnugo, min_stones or 5)
    if found is None:
        return None
    vertex, owner, target = found
    good = answers(board, color, vertex, owner, target, gnugo, kind)
    if not good or len(good) > max_answers:
        return None
    task = kind.take if owner != color else kind.save
    return game, color, task, vertex, target, good


def held_out_positions(args, rng):
    """(record, move number) at random from the held-out month, forever."""
    games = list(sgffile.read_games(split_files(args.data_dir, "val")))
    for index in rng.permutation(len(games)):
        record = games[int(index)]
        if record.size == 19 and len(record.moves) >= 80:
            yield record, int(rng.integers(40, min(220, len(record.moves))))


def recorded_games(spec):
    """(name, SGF text) of the games `spec` names: an .sgf file, or a match record
    (harness.records: its folder or games.sgfs.gz), all of its games or, with ':N' after
    it, game N alone."""
    path, _, number = spec.rpartition(":") if re.search(r":\d+$", spec) else (spec, "", "")
    path = Path(path)
    if path.suffix == ".sgf":
        return [(f"{path.parent.name}/{path.name}", path.read_text())]
    folder = path.parent if path.name == records.GAMES else path
    found = []
    for index, text in enumerate(records.games(folder), 1):
        n = records.game_number(text) or index
        if not number or n == int(number):
            found.append((f"{folder.name} game {n}", text))
    if not found:
        raise SystemExit(f"tactics_suite: no games in {spec}")
    return found


def game_positions(args):
    """(record, move number) of every move of --color within --moves of each game named."""
    colors = {"b": (BLACK,), "w": (WHITE,), "both": (BLACK, WHITE)}[args.color]
    first, last = args.moves
    for spec in args.games:
        for name, text in recorded_games(spec):
            record = sgffile.parse_game(text, name)
            end = len(record.moves) if last is None else min(last, len(record.moves))
            for number in range(max(first, 1), end + 1):
                if record.moves[number - 1][0] in colors:
                    yield record, number


SUITE = "suite.tst"
HEADER = re.compile(r"^# (.+) before move (\d+): (\w+) (\S+) \((\d+) stones\)(?:; the game played (\S+))?$")


class Entry(NamedTuple):
    """One problem, as suite.tst writes it (its position is the same line of positions.sgfs)."""
    color: int
    task: str
    vertex: str
    count: int
    good: list
    game_name: str
    number: int
    played: str


def write_suite(folder, entries, source, kind):
    with open(os.path.join(folder, SUITE), "w") as f:
        f.write(f"# goengine's tactical suite: made by tools/tactics_suite.py from {source};\n"
                f"# answers from GNU Go 3.8's {kind.attack}/{kind.defend} reading.\n"
                f"# Run: .venv/bin/python tools/regress.py {os.path.join(folder, SUITE)}\n\n")
        for i, e in enumerate(entries, 1):
            note = f"; the game played {e.played}" if e.played else ""
            f.write(f"# {e.game_name} before move {e.number}: {e.task} {e.vertex} "
                    f"({e.count} stones){note}\n"
                    f"loadsgf {POSITIONS}:{i}\n"
                    f"{i} reg_genmove {'b' if e.color == BLACK else 'w'}\n"
                    f"#? [{'|'.join(e.good)}]\n\n")


def read_entries(folder):
    """The problems already in `folder`'s suite (for --resume), in order: each is a header
    comment, a loadsgf line, the numbered reg_genmove and its #? answers."""
    path = os.path.join(folder, SUITE)
    if not os.path.exists(path):
        return []
    entries, header, color = [], None, None
    for line in open(path).read().splitlines():
        if HEADER.match(line):
            header = HEADER.match(line).groups()
        elif " reg_genmove " in line:
            color = BLACK if line.split()[-1] == "b" else WHITE
        elif line.startswith("#? [") and header and color:
            name, number, task, vertex, count, played = header
            entries.append(Entry(color, task, vertex, int(count), line[4:-1].split("|"), name,
                                 int(number), played or ""))
            header = color = None
    return entries


PROGRESS = "progress.tsv"   # a line a seed: the positions its runs have examined


@contextlib.contextmanager
def locked(folder):
    """The suite in `folder` to one maker at a time: two runs (two --seed) may write it."""
    with open(os.path.join(folder, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def read_progress(folder):
    """{seed: positions examined} of the runs that wrote `folder`."""
    path = os.path.join(folder, PROGRESS)
    if not os.path.exists(path):
        return {}
    rows = (line.split("\t") for line in open(path).read().splitlines() if line.strip())
    return {int(seed): int(examined) for seed, examined in rows}


def write_progress(folder, progress):
    with open(os.path.join(folder, PROGRESS), "w") as f:
        f.write("".join(f"{seed}\t{n}\n" for seed, n in sorted(progress.items())))


def read_folder(folder):
    """(entries, position lines) of the suite in `folder`; empty where there is none."""
    entries = read_entries(folder)
    path = os.path.join(folder, POSITIONS)
    lines = open(path).read().splitlines()[:len(entries)] if os.path.exists(path) else []
    return entries, lines


def add_problem(folder, entry, line, key, source, kind, seed, examined):
    """Append one problem to the suite in `folder` as it is on disk now (another run may
    have added to it), unless a problem of the same `key` is there; record how far this
    seed's run has come. Returns the suite's problems."""
    with locked(folder):
        entries, lines = read_folder(folder)
        if key(entry) not in {key(e) for e in entries}:
            entries.append(entry)
            lines.append(line)
        with open(os.path.join(folder, POSITIONS), "w") as f:
            f.write("\n".join(lines) + "\n")
        write_suite(folder, entries, source, kind)
        progress = read_progress(folder)
        progress[seed] = examined
        write_progress(folder, progress)
    return entries


def suite_source(folder):
    """Where a suite's problems came from, as its first comment lines say it."""
    text = open(os.path.join(folder, SUITE)).read()
    return text.split(" from ", 1)[1].split(";\n# answers from ", 1)[0]


def add_problems(folder, other):
    """Append to `folder`'s suite the problems of the suite in `other` whose games `folder`
    has no problem from (one problem a game), positions and all, and its progress."""
    entries, added = read_entries(folder), read_entries(other)
    if not entries or not added:
        raise SystemExit(f"tactics_suite: --add needs problems in both {folder} and {other}")
    kind = READING_OF_TASK[entries[0].task]
    lines = open(os.path.join(folder, POSITIONS)).read().splitlines()[:len(entries)]
    theirs = open(os.path.join(other, POSITIONS)).read().splitlines()
    games = {e.game_name for e in entries}
    for entry, line in zip(added, theirs):
        if entry.game_name not in games and READING_OF_TASK[entry.task] is kind:
            games.add(entry.game_name)
            entries.append(entry)
            lines.append(line)
    with open(os.path.join(folder, POSITIONS), "w") as f:
        f.write("\n".join(lines) + "\n")
    write_suite(folder, entries, suite_source(folder), kind)
    progress = read_progress(folder)
    for seed, examined in read_progress(other).items():
        progress[seed] = max(examined, progress.get(seed, 0))
    write_progress(folder, progress)
    print(f"{len(entries)} problems -> {os.path.join(folder, SUITE)}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", metavar="GAMES",
                        help="games to take group problems from (life and death, GNU Go's owl "
                             "reading): .sgf files or match records (a folder, :N for its game "
                             "N alone); none: problems from the held-out month")
    parser.add_argument("--groups", action="store_true",
                        help="with no games: group problems from the held-out month (default: "
                             "string problems)")
    parser.add_argument("--problems", type=int, default=60)
    parser.add_argument("--out", default="tests/tactics")
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--max-answers", type=int, default=3)
    parser.add_argument("--min-stones", type=int, default=None,
                        help="the smallest target (default: 3 stones for a string, 5 for a group)")
    parser.add_argument("--keep-solved", action="store_true",
                        help="with games: keep problems whose answer the game played")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the problems already in --out, and from the "
                             "positions this --seed's runs examined (progress.tsv)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--color", choices=("b", "w", "both"), default="w",
                        help="with games: the side whose moves are problems (default w)")
    parser.add_argument("--moves", type=move_range, default=(1, None),
                        help="with games: FIRST-LAST or FIRST- (default: every move)")
    parser.add_argument("--gnugo", default=GNUGO)
    parser.add_argument("--add", metavar="FOLDER",
                        help="append the problems of a suite this tool made in another folder "
                             "(another --seed) whose games --out has none of, and stop")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    if args.add:
        return add_problems(args.out, args.add)
    if args.games:
        kind, positions = GROUPS, game_positions(args)
        source = ("positions of match\n# games" if args.keep_solved else
                  "positions of lost\n# games where the move played was not an answer")
    else:
        kind = GROUPS if args.groups else STRINGS
        positions = held_out_positions(args, np.random.default_rng(args.seed))
        source = "held-out games (tygem-9d-2016-12)"
    if not args.resume:
        with locked(args.out):
            for name in (SUITE, POSITIONS, PROGRESS):
                if os.path.exists(os.path.join(args.out, name)):
                    os.remove(os.path.join(args.out, name))
    entries, _ = read_folder(args.out)
    skip = read_progress(args.out).get(args.seed)
    # a folder from before progress.tsv: the positions up to its last problem are done
    last = (entries[-1].game_name, entries[-1].number) if entries and skip is None else None
    key = (lambda e: (e.game_name, e.number)) if args.games else (lambda e: e.game_name)
    settled = {}                  # game name -> stones of its problems' targets
    examined = 0
    gnugo = GnuGo(args.gnugo, ("--level", "10"))
    try:
        for record, number in positions:
            if len(entries) >= args.problems:
                break
            examined += 1
            if skip is not None and examined <= skip:
                continue
            if last is not None:
                last = None if (record.name, number) == last else last
                continue
            problem = problem_at(record, number, gnugo, kind, args.max_answers, args.min_stones)
            if problem is None:
                continue
            game, color, task, vertex, target, good = problem
            played = coords.to_gtp(record.moves[number - 1][1], record.size)
            earlier = settled.setdefault(record.name, set())
            if args.games and not args.keep_solved and played in good:
                continue          # the game found the answer
            if earlier.intersection(target):
                continue          # this group is a problem already
            earlier.update(target)
            entry = Entry(color, task, vertex, len(target), good, record.name, number, played)
            line = records.one_line(sgffile.game_to_sgf(game)).decode()
            entries = add_problem(args.out, entry, line, key, source, kind, args.seed, examined)
            print(f"{POSITIONS}:{len(entries)}: {record.name} before move {number}, "
                  f"{'black' if color == BLACK else 'white'} to {task} {vertex} "
                  f"({len(target)} stones): {' '.join(good)}; played {played}", flush=True)
    finally:
        gnugo.close()
        with locked(args.out):
            progress = read_progress(args.out)
            progress[args.seed] = max(examined, skip or 0)
            write_progress(args.out, progress)
    print(f"{len(entries)} problems -> {os.path.join(args.out, SUITE)}")


if __name__ == "__main__":
    main()
