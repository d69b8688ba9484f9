#!/usr/bin/env python3
"""What our count says each time a game went on after a pass, against who won.

A player answers the opponent's pass by our count of the board (Player.answer_by_count):
a pass where the count says it wins beyond doubt, a resignation where it says it loses
beyond doubt. Here every position of the records in which the last move was a pass and
the game went on is put to the player to move's count (the rollout scorer and the
ownership head of --weights), and its answer is set beside the recorded winner: a "lost"
verdict for the player who won anyway would have been a resignation thrown away. Where
the resign rule never resigns (the opening; White giving handicap before half the
board's plies) the player plays on, so a lost count there is no verdict; so too with a
network that has no value head (sl-policy.pt), whose player never resigns.

    mkdir -p runs/matches && tar -xf docs/matches/2026-11.tar -C runs/matches
    .venv/bin/python tools/research/pass_counts.py runs/matches --weights weights/heads-k96.pt

Last line: `answers=N win_right=A win_wrong=B lose_right=C lose_wrong=D moves_saved=M`
(moves_saved: the moves the games went on after the first right "lost" verdict).
"""

import argparse
import os
import sys

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import PASS, opponent
from goengine.game.sgffile import read_games
from goengine.game.state import from_record
from goengine.programs import loading
from goengine.programs.engine_spec import PlayerKind, load_player


def answers_to_passes(record):
    """The move numbers (1-based, of the move about to be played) right after a pass
    that the game went on from, with the colour to move."""
    for index in range(1, len(record.moves)):
        passer, move = record.moves[index - 1]
        mover = record.moves[index][0]
        if move == PASS and mover != passer:
            yield index + 1, mover


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sgf", nargs="+", help="SGF files or folders")
    parser.add_argument("--weights", default=loading.NETWORKS["large"],
                        help="the network whose ownership head the count takes")
    parser.add_argument("--verbose", action="store_true", help="a line per wrong verdict")
    args = parser.parse_args(argv)
    player = load_player(PlayerKind.POLICY, args.weights, log=lambda message: None)
    tally = dict(answers=0, win_right=0, win_wrong=0, lose_right=0, lose_wrong=0, moves_saved=0)
    games = 0
    for record in read_games([os.fspath(p) for p in args.sgf]):
        if record.winner is None:
            continue
        games += 1
        saved = 0
        for number, color in answers_to_passes(record):
            game = from_record(record, number)
            answer = player.answer_by_count(game, color)
            tally["answers"] += 1
            if answer is None:
                continue     # no verdict: the player plays on
            winner = color if answer == PASS else opponent(color)
            right = winner == record.winner
            key = ("win" if winner == color else "lose") + ("_right" if right else "_wrong")
            tally[key] += 1
            if key == "lose_right" and not saved:
                saved = len(record.moves) - number + 1
            if not right and args.verbose:
                print(f"{record.name} move {number}: count says {key}, "
                      f"recorded {record.result}", file=sys.stderr)
        tally["moves_saved"] += saved
    print(f"{games} games with a winner, weights {args.weights}")
    print(" ".join(f"{k}={v}" for k, v in tally.items()))


if __name__ == "__main__":
    main()
