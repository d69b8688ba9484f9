"""A match's record on disk: what tools/match.py and tools/tune.py write into their --out
folder, and what resuming a match, tools/research/lead_drop.py and tools/research/scoring_vs_gnugo.py read.

A record is a folder (on disk, or inside a month's archive of them: docs/matches/2026-11.tar/
NAME) with
* `games.sgfs.gz`: every game's SGF, one game a line, in the order played (the form of the
  game collections in ../shared/data); each game is its own gzip member, appended as it
  ends, so a match stopped mid-way keeps every finished game;
* `results.txt`: one line a game (harness.match.describe), then the match's summary lines;
* `commands.txt`: the engines' command lines, so that a resumed match never counts games
  of other engines with its own.
"""

import gzip
import re
import tarfile
from pathlib import Path

GAMES = 'games.sgfs.gz'
RESULTS = 'results.txt'
COMMANDS = 'commands.txt'


def one_line(sgf_bytes):
    """An SGF record on one line: newlines between nodes and inside values become spaces
    (only comments can hold them, and a collection holds one game a line)."""
    return b' '.join(sgf_bytes.split())


def append_game(folder, sgf_bytes):
    """Add one game's SGF to the folder's collection; its 1-based number there."""
    path = Path(folder) / GAMES
    count = len(games(folder)) if path.exists() else 0
    with gzip.open(path, 'ab') as f:
        f.write(one_line(sgf_bytes) + b'\n')
    return count + 1


def games(folder):
    """The SGF texts (str) of the folder's games, in the order they were played; [] if it
    has none. A damaged collection raises OSError (gzip's own error) naming the file."""
    path = Path(folder) / GAMES
    try:
        if path.exists():
            data = path.read_bytes()
        else:
            data = archived(path)
            if data is None:
                return []
        text = gzip.decompress(data).decode('utf-8')
    except (OSError, EOFError, tarfile.TarError) as exc:
        raise OSError(f'{path}: not a readable gzip collection ({exc})') from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def archived(path):
    """The bytes of `path` when it lies inside a tar archive on its way (a month's archive
    of records), else None."""
    for archive in Path(path).parents:
        if archive.suffix == '.tar' and archive.is_file():
            member = Path(path).relative_to(archive).as_posix()
            with tarfile.open(archive) as tar:
                try:
                    return tar.extractfile(member).read()
                except KeyError:
                    return None
    return None


def game_number(sgf_text):
    """The match's game number from the record's GN[match game N], or None."""
    m = re.search(r'GN\[match game (\d+)\]', sgf_text)
    return int(m.group(1)) if m else None


def commands_differ(out, commands):
    """'' when the match folder `out` was played with `commands` ({side: command line}),
    else a line saying how they differ. The first call writes them to out/commands.txt
    (delete the file to go on regardless)."""
    path = Path(out) / COMMANDS
    text = ''.join(f'{side}: {command}\n' for side, command in commands.items())
    if not path.exists():
        path.write_text(text)
        return ''
    if path.read_text() == text:
        return ''
    return (f'{path} holds other commands than this run\'s: resume with the same flags, or '
            f'use another --out (before: {path.read_text().strip()!r}; now: {text.strip()!r})')


def _earlier_games(results_path, pattern):
    """{game number: the regex match} of the per-game lines of a results.txt that match
    `pattern` (after 'game N: ')."""
    found = {}
    if Path(results_path).exists():
        for line in Path(results_path).read_text().splitlines():
            m = re.match(r'game (\d+): ' + pattern, line)
            if m:
                found[int(m.group(1))] = m
    return found


def earlier_outcomes(results_path):
    """{game number: outcome} of the games already in a results.txt, so a match
    that was stopped and resumed (--out the same folder) counts them all."""
    pattern = r'.*?, winner (ours|opponent|none)'
    return {number: m.group(2) for number, m in _earlier_games(results_path, pattern).items()}


def earlier_agreements(results_path):
    """{game number: whether our count and the scorer's named the same winner} of the
    counted games already in a results.txt, so a resumed match's scoring line counts
    them all, as its last line counts every game."""
    pattern = r'.*; score ours \S+ scorer \S+ (agree|DISAGREE)'
    return {number: m.group(2) == 'agree'
            for number, m in _earlier_games(results_path, pattern).items()}
