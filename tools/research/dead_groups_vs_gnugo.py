#!/usr/bin/env python3
"""The dead-group rule (goengine/players/dead_groups.py) against GNU Go and the players' moves.

At positions of real games (the held-out month, or match records), the engine's player
names the chains of the side to move that its two judges call dead beyond doubt and the
moves that would only add a stone to them (Player.dead_group_fillers, as genmove asks).
Where it names any, GNU Go's `final_status_list dead` (level 10, Chinese rules) says
whether those stones are dead, and the move the game played is looked up among the
refused ones: a strong player who adds a stone to a dead group means something by it.

    .venv/bin/python tools/research/dead_groups_vs_gnugo.py --games 200          # held-out 9-dan games
    .venv/bin/python tools/research/dead_groups_vs_gnugo.py --games 50 --sgf runs/matches/NAME

Last line: `positions P, with a dead group D, GNU Go agrees A, played a refused move R`.
"""

import argparse
import random
import sys
import time

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game import coords, sgffile
from goengine.game.state import GameError, from_record
from goengine.programs import engine_spec, loading
from goengine.rollout.scoring import neighbours
from harness import records
from harness.gnugo import GNUGO, GnuGo
from training.dataset import HELD_OUT_FILE


def games_of(path):
    """The records in `path`: an .sgfs(.gz) collection, an .sgf file or a match record."""
    if path.endswith((".sgfs", ".sgfs.gz", ".sgf")):
        return list(sgffile.read_games([path]))
    return [sgffile.parse_game(text, f"{path} game {i}")
            for i, text in enumerate(records.games(path), 1)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sgf", default=HELD_OUT_FILE, help="games (default: the held-out month)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--positions", type=int, default=3, help="positions a game, at random "
                   "from move 100 to the end")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gnugo", default=GNUGO)
    loading.add_network_flags(p)
    loading.add_device_flag(p)
    loading.add_backend_flag(p)
    engine_spec.add_search_flags(p)
    args = p.parse_args(argv)
    args.value_weights = None
    spec = engine_spec.spec_from_args(args, lambda line: print(line, file=sys.stderr),
                                      engine_spec.PlayerKind.SEARCH)
    if spec is None:
        return 2
    player = engine_spec.build_engine(spec, lambda line: print(line, file=sys.stderr),
                                      player_log=lambda line: None)
    rng = random.Random(args.seed)
    games = [g for g in games_of(args.sgf) if g.size == 19 and len(g.moves) > 110]
    rng.shuffle(games)
    seen = dead = agreed = refused_played = 0
    start = time.time()
    with GnuGo(args.gnugo, ("--level", "10", "--chinese-rules")) as gnugo:
        for record in games[:args.games]:
            for number in sorted(rng.sample(range(100, len(record.moves) + 1), args.positions)):
                try:
                    game = from_record(record, number)
                except GameError:
                    continue
                color, played = record.moves[number - 1]
                seen += 1
                head = player.answers.network_ownership(game, color)
                fillers = player.dead_group_fillers(game, color)
                if not fillers:
                    continue
                dead += 1
                board = game.board_for(color)
                ours = {p for m in fillers for p in board_neighbours_of(board, m, color)}
                gnugo.load_record(sgffile.game_to_sgf(game))
                theirs = {coords.from_gtp(v.lower(), 19)
                          for v in gnugo.send("final_status_list dead").split()}
                agreed += ours <= theirs
                refused_played += played in fillers
                verdict = ("agrees" if ours <= theirs else
                           "calls alive " + " ".join(map(name, sorted(ours - theirs))))
                print(f"{record.name} before move {number}: {len(ours)} of our stones dead; "
                      f"GNU Go {verdict}; "
                      f"refused {' '.join(map(name, fillers))}; played {name(played)}"
                      f"{' (refused)' if played in fillers else ''}", flush=True)
    print(f"{time.time() - start:.0f} s")
    print(f"positions {seen}, with a dead group {dead}, GNU Go agrees {agreed}, "
          f"played a refused move {refused_played}")
    return 0


def name(move):
    return coords.to_gtp(move, 19) if move >= 0 else "pass"


def board_neighbours_of(board, move, color):
    """The stones of `color` beside `move`: the dead chains a filler touches."""
    size, stones = board.size, board.stones()
    found = set()
    for n in neighbours(move, size):
        if stones[n // size, n % size] == color:
            found.update(board.chain_stones(n))
    return found


if __name__ == "__main__":
    raise SystemExit(main())
