#!/usr/bin/env python3
"""A suite of ladder positions from held-out games, with GNU Go 3.8 as the oracle.

A position qualifies when the player to move has a chain in atari whose one liberty, if
the chain extends there, leaves it two liberties: a ladder's next move. GNU Go reads it
(`defend CHAIN`, `does_defend LIBERTY CHAIN`): dead when nothing saves the chain, working
when the extension itself saves it. Half of each kind are kept, so that both a reader
that calls every ladder dead and one that calls none fail; breakers on the path, ladders
into a ko and captures that save come as the games give them.

The folder gets positions.sgfs (one SGF a line), labels.tsv (position, colour, chain,
liberty, dead or working, chain size, the move the game's 9-dan player made there) and
suite.tst in GoGui's regression format for tools/regress.py: a dead ladder's extension
is the one move not accepted; a working ladder of three stones or more wants its
extension, GNU Go's own move there (level 10, the record loaded with its history) or
the game's move, since a ladder that works need not be the biggest move on the board.
`--suite-only` writes suite.tst again from the folder's positions and labels.

    .venv/bin/python tools/ladder_suite.py --positions 120 --out tests/tactics/ladders
    .venv/bin/python tools/ladder_suite.py --suite-only --out tests/tactics/ladders
    .venv/bin/python tools/regress.py tests/tactics/ladders/suite.tst \\
        --engine ".venv/bin/python gtp_main.py --time-per-move 1 --resign-threshold 0"

`--chases` makes the chaser's half (in tests/tactics/ladder-chases): positions where the
player to move can start a ladder, an atari on an opponent chain of two liberties whose
extension on its last liberty gives it two again. GNU Go reads the atari (`does_attack`):
the chase captures when it says so, and fails when it and the board's ladder reader
(Board.is_ladder_capture) both say not. labels.tsv there gives the chase, the chain, its
size, what else the atari does (captures stones, touches a chain of the mover in atari,
ataris a second chain), GNU Go's move and the game's; the largest chain a position offers
is taken. In suite.tst a failing chase accepts any move but the chase, a capturing one of
three stones or more the chase, GNU Go's move or the game's (a smaller capture need not be
the biggest move; the reader's test in make test covers it: it must not be capped). A
failing chase that GNU Go plays itself is labelled so and left out: its oracle wants it.

    .venv/bin/python tools/ladder_suite.py --chases --positions 120 --out tests/tactics/ladder-chases

The suite asks for a move, so the engine runs with resignation off (a lost position
still has a best move; resigning is the matches' business).
"""

import argparse
import os
import random

import _checkout  # noqa: F401  (this checkout's packages first)
from harness import records
from harness.gnugo import GNUGO, GnuGo

from goengine import BLACK
from goengine.game import coords, sgffile
from goengine.game.state import GameError, from_record
from training.dataset import DATA_DIR, split_files

LABELS = "labels.tsv"
POSITIONS = "positions.sgfs"


def ladder_candidates(board):
    """(chain stone, liberty) for each chain of the player to move in atari whose
    extension would leave it exactly two liberties."""
    color, size, seen = board.to_move, board.size, set()
    for move in range(size * size):
        if board.color_at(move) != color or move in seen:
            continue
        stones = board.chain_stones(move)
        seen.update(stones)
        if board.chain_liberties(move) != 1:
            continue
        (liberty,) = board.chain_liberty_points(move)
        if not board.is_legal(liberty, color):
            continue
        after = board.copy()
        after.play(liberty, color)
        if after.chain_liberties(liberty) == 2:
            yield move, liberty, len(stones)


def oracle(gnugo, board, chain, liberty):
    """'dead', 'working' or None (GNU Go saves the chain only by another move)."""
    gnugo.set_position(board)
    size = board.size
    if gnugo.send(f"defend {coords.to_gtp(chain, size)}").split()[0] == "0":
        return "dead"
    verdict = gnugo.send(f"does_defend {coords.to_gtp(liberty, size)} {coords.to_gtp(chain, size)}")
    return "working" if verdict.split()[0] != "0" else None


def gnugo_move(gnugo, sgf_line, colour):
    """GNU Go's own move in a position, its record loaded whole (the history matters to
    its move choice, so not set_position)."""
    gnugo.load_record(sgf_line)
    return gnugo.send(f"reg_genmove {colour}").strip().upper()


def half_and_half(args, rng, kinds, pick):
    """{kind: [entry]} for the two `kinds`, half of --positions each, one position a game
    (distinct games) from up to 40 of each held-out game's moves after the 20th, at random.
    `pick(gnugo, record, number, game, wanted)` gives the position's entry, its kind first,
    or None; `wanted(kind)` says whether that kind still needs one."""
    want = {kinds[0]: args.positions // 2, kinds[1]: args.positions - args.positions // 2}
    found = {kind: [] for kind in kinds}

    def wanted(kind):
        return kind is not None and len(found[kind]) < want[kind]
    gnugo = GnuGo(args.gnugo, ("--level", "10"))
    try:
        for record in sgffile.read_games(split_files(args.data_dir, "val")):
            if all(len(found[k]) >= want[k] for k in want):
                break
            numbers = list(range(20, len(record.moves)))
            rng.shuffle(numbers)
            for number in numbers[:40]:
                try:
                    game = from_record(record, number)
                except GameError:
                    continue
                entry = pick(gnugo, record, number, game, wanted)
                if entry:
                    found[entry[0]].append(entry)
                    break
    finally:
        gnugo.close()
    return found


def find_ladders(args, rng):
    """Half dead and half working ladders, one position a game, in held-out games."""
    def pick(gnugo, record, number, game, wanted):
        for chain, liberty, stones in ladder_candidates(game.board):
            kind = oracle(gnugo, game.board, chain, liberty)
            if wanted(kind):
                return kind, game, chain, liberty, stones, record.moves[number - 1][1]
        return None
    return half_and_half(args, rng, ("dead", "working"), pick)


def neighbours(move, size):
    row, col = divmod(move, size)
    return [r * size + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < size and 0 <= c < size]


def chase_candidates(board):
    """(chase, chain stone, chain size, what else the chase does) for each atari of the
    player to move that starts a ladder: an opponent chain of two liberties left with one,
    whose extension there gives it two again."""
    color, size, seen = board.to_move, board.size, set()
    for move in range(size * size):
        if board.color_at(move) != 3 - color or move in seen:
            continue
        stones = board.chain_stones(move)
        seen.update(stones)
        if board.chain_liberties(move) != 2:
            continue
        for chase in board.chain_liberty_points(move):
            if not board.is_legal(chase, color):
                continue
            after = board.copy()
            after.play(chase, color)
            if after.color_at(move) != 3 - color or after.chain_liberties(move) != 1:
                continue
            (liberty,) = after.chain_liberty_points(move)
            if not after.is_legal(liberty, 3 - color):
                continue
            extended = after.copy()
            extended.play(liberty, 3 - color)
            if extended.chain_liberties(liberty) == 2:
                yield chase, move, len(stones), also_does(board, chase, move)


def also_does(board, chase, chain):
    """What the atari does besides the ladder: 'captures', 'touches-atari' (a chain of
    the mover in atari beside it), 'double-atari', joined by '+', or '-'."""
    color, size, heads = board.to_move, board.size, set()
    what = []
    around = [q for q in neighbours(chase, size) if board.color_at(q)]
    if any(board.color_at(q) == 3 - color and board.chain_liberties(q) == 1 for q in around):
        what.append("captures")
    if any(board.color_at(q) == color and board.chain_liberties(q) == 1 for q in around):
        what.append("touches-atari")
    for q in around:
        if board.color_at(q) == 3 - color and board.chain_liberties(q) == 2:
            heads.add(min(board.chain_stones(q)))
    if len(heads) > 1:
        what.append("double-atari")
    return "+".join(what) or "-"


def chase_oracle(gnugo, board, chase, chain):
    """'captures', 'fails' or None (GNU Go needs a ko, or it and the reader disagree)."""
    gnugo.set_position(board)
    size = board.size
    verdict = gnugo.send(f"does_attack {coords.to_gtp(chase, size)} "
                         f"{coords.to_gtp(chain, size)}").split()[0]
    if verdict == "1":
        return "captures"
    if verdict == "0" and not board.is_ladder_capture(chase, board.to_move):
        return "fails"
    return None


def find_chases(args, rng):
    """Half failing and half capturing chases, one position a game, in held-out games,
    each with GNU Go's own move (level 10, the record loaded with its history)."""
    def pick(gnugo, record, number, game, wanted):
        chases = sorted(chase_candidates(game.board), key=lambda c: -c[2])
        for chase, chain, stones, also in chases:         # the largest chain first
            kind = chase_oracle(gnugo, game.board, chase, chain)
            if wanted(kind):
                colour = "b" if game.board.to_move == BLACK else "w"
                line = records.one_line(sgffile.game_to_sgf(game)).decode()
                own = coords.from_gtp(gnugo_move(gnugo, line, colour).lower(), game.size)
                return kind, game, chase, chain, stones, also, record.moves[number - 1][1], own
        return None
    return half_and_half(args, rng, ("fails", "captures"), pick)


def write_chases(folder, entries):
    """positions.sgfs, labels.tsv and suite.tst of the chase half (module docstring)."""
    with open(os.path.join(folder, POSITIONS), "w") as sgfs, \
            open(os.path.join(folder, LABELS), "w") as labels, \
            open(os.path.join(folder, "suite.tst"), "w") as suite:
        labels.write("position\tcolour\tchase\tchain\tladder\tstones\talso\tgnugo\tplayed\n")
        suite.write("# goengine's ladder chases: made by tools/ladder_suite.py --chases from "
                    "held-out games\n# (tygem-9d-2016-12); GNU Go 3.8's does_attack and the "
                    "board's reader say which\n# chases capture. Run: .venv/bin/python "
                    f"tools/regress.py {os.path.join(folder, 'suite.tst')} --engine\n# "
                    "\".venv/bin/python gtp_main.py --time-per-move 1 --resign-threshold 0\"\n\n")
        for number, (kind, game, chase, chain, stones, also, played, own) in enumerate(entries, 1):
            size = game.size
            colour = "b" if game.board.to_move == BLACK else "w"
            name = {m: coords.to_gtp(m, size) for m in (chase, chain, played, own)}
            if kind == "fails" and own == chase:
                kind = "fails-gnugo-plays"
            sgfs.write(records.one_line(sgffile.game_to_sgf(game)).decode() + "\n")
            labels.write(f"{number}\t{colour}\t{name[chase]}\t{name[chain]}\t{kind}\t{stones}\t"
                         f"{also}\t{name[own]}\t{name[played]}\n")
            if kind == "fails":
                accepted = f"!{name[chase]}"
            elif kind == "captures" and stones >= 3:
                accepted = "|".join(dict.fromkeys((name[chase], name[own], name[played])))
            else:
                continue
            suite.write(f"# {kind} chase: {name[chase]} ataris the chain at {name[chain]} "
                        f"({stones} stones; also: {also}); GNU Go plays {name[own]}, the game "
                        f"{name[played]}\nloadsgf {POSITIONS}:{number}\n"
                        f"{number} reg_genmove {colour}\n#? [{accepted}]\n\n")


def write_positions(folder, entries):
    """positions.sgfs and labels.tsv, one row a position, numbered from 1."""
    with open(os.path.join(folder, POSITIONS), "w") as sgfs, \
            open(os.path.join(folder, LABELS), "w") as labels:
        labels.write("position\tcolour\tchain\tliberty\tladder\tstones\tplayed\n")
        for number, (kind, game, chain, liberty, stones, played) in enumerate(entries, 1):
            size = game.size
            colour = "b" if game.board.to_move == BLACK else "w"
            sgfs.write(records.one_line(sgffile.game_to_sgf(game)).decode() + "\n")
            labels.write(f"{number}\t{colour}\t{coords.to_gtp(chain, size)}\t"
                         f"{coords.to_gtp(liberty, size)}\t{kind}\t{stones}\t"
                         f"{coords.to_gtp(played, size)}\n")


def write_suite(folder, gnugo_path):
    """suite.tst from the folder's positions and labels (module docstring: what each kind
    of ladder accepts)."""
    with open(os.path.join(folder, POSITIONS)) as sgfs:
        lines = sgfs.read().splitlines()
    with open(os.path.join(folder, LABELS)) as labels:
        rows = [row.rstrip("\n").split("\t") for row in labels][1:]
    gnugo = GnuGo(gnugo_path, ("--level", "10"))
    try:
        with open(os.path.join(folder, "suite.tst"), "w") as suite:
            suite.write("# goengine's ladder suite: made by tools/ladder_suite.py from held-out "
                        "games\n# (tygem-9d-2016-12); GNU Go 3.8's defend/does_defend reading "
                        "says which\n# ladders work. Run: .venv/bin/python tools/regress.py "
                        f"{os.path.join(folder, 'suite.tst')} --engine\n# "
                        "\".venv/bin/python gtp_main.py --time-per-move 1 --resign-threshold 0\"\n\n")
            for number, colour, chain, liberty, kind, stones, played in rows:
                if kind == "working" and int(stones) < 3:
                    continue
                if kind == "dead":
                    accepted, why = f"!{liberty}", ""
                else:
                    own = gnugo_move(gnugo, lines[int(number) - 1], colour)
                    accepted = "|".join(dict.fromkeys((liberty, own, played)))
                    why = f"; GNU Go plays {own}, the game {played}"
                suite.write(f"# {kind} ladder: the chain at {chain} ({stones} stones), its "
                            f"liberty {liberty}{why}\nloadsgf {POSITIONS}:{number}\n"
                            f"{number} reg_genmove {colour}\n#? [{accepted}]\n\n")
    finally:
        gnugo.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=120, help="positions, half of each kind")
    p.add_argument("--out", default=None, help="the suite's folder (default: "
                   "tests/tactics/ladders, with --chases tests/tactics/ladder-chases)")
    p.add_argument("--data-dir", default=DATA_DIR)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gnugo", default=GNUGO)
    p.add_argument("--suite-only", action="store_true",
                   help="write suite.tst again from the folder's positions and labels")
    p.add_argument("--chases", action="store_true",
                   help="the chaser's half: ataris that start a ladder (module docstring)")
    args = p.parse_args(argv)
    args.out = args.out or ("tests/tactics/ladder-chases" if args.chases else "tests/tactics/ladders")
    if args.chases:
        rng = random.Random(args.seed)
        found = find_chases(args, rng)
        os.makedirs(args.out, exist_ok=True)
        write_chases(args.out, sorted(found["fails"] + found["captures"], key=lambda e: rng.random()))
        print(f"{len(found['fails'])} failing and {len(found['captures'])} capturing chases "
              f"-> {args.out}")
        return
    if not args.suite_only:
        rng = random.Random(args.seed)
        found = find_ladders(args, rng)
        os.makedirs(args.out, exist_ok=True)
        write_positions(args.out, sorted(found["dead"] + found["working"],
                                         key=lambda e: rng.random()))
        print(f"{len(found['dead'])} dead and {len(found['working'])} working ladders")
    write_suite(args.out, args.gnugo)
    print(f"suite -> {os.path.join(args.out, 'suite.tst')}")


if __name__ == "__main__":
    main()
