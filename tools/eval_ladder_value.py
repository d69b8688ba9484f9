#!/usr/bin/env python3
"""Does the value read on the board a decided ladder leaves (Board.without_dead_ladders)
predict game outcomes better than the value of the board as it is?

Positions every --step moves of held-out games; those with a decided ladder (chains of at
least --min-stones stones) are kept, and the value head's MSE against the outcome for the
player to move is printed for the board as it is and for the resolved board, paired, with
the share of positions that have such a ladder. The search reads leaf values the second
way (SearchConfig.ladder_min_stones):

    .venv/bin/python tools/eval_ladder_value.py --games 400 --min-stones 3
    raw_mse=0.XXXX resolved_mse=0.XXXX diff=... +- ... positions=N of M
"""

import argparse
import math

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game.sgffile import read_games
from goengine.game.state import GameError, from_record
from goengine.nn import features, on_planes
from goengine.programs import loading
from training.dataset import DATA_DIR, split_files


def outcome_for_mover(record, board):
    """+1 if the player to move at `board` won the game, -1 if they lost; None without a
    winner on the board (no result, or won on time or by forfeit)."""
    if not record.won_on_the_board:
        return None
    return 1.0 if record.winner == board.to_move else -1.0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--weights", default="weights/sl.pt")
    p.add_argument("--data-dir", default=DATA_DIR)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--step", type=int, default=7, help="moves between the positions of a game")
    p.add_argument("--min-stones", type=int, default=3)
    args = p.parse_args(argv)
    evaluator = loading.evaluator(args.weights, "value")
    raw, resolved, targets, seen = [], [], [], 0
    for record in read_games(split_files(args.data_dir, "val"), limit=args.games):
        for number in range(10, len(record.moves), args.step):
            try:
                board = from_record(record, number).board
            except GameError:
                continue
            target = outcome_for_mover(record, board)
            if target is None:
                continue
            seen += 1
            after = board.without_dead_ladders(args.min_stones)
            if after is None:
                continue
            planes = np.stack([features.input_planes(b, evaluator.planes) for b in (board, after)])
            value = np.asarray(on_planes.value(evaluator, planes), dtype=np.float64).reshape(-1)
            raw.append(value[0])
            resolved.append(value[1])
            targets.append(target)
    raw, resolved, targets = map(np.array, (raw, resolved, targets))
    if len(targets) == 0:
        raise SystemExit(f"no decided ladder in {seen} positions")
    e_raw, e_res = (raw - targets) ** 2, (resolved - targets) ** 2
    diff = e_res - e_raw
    se = diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    print(f"raw_mse={e_raw.mean():.4f} resolved_mse={e_res.mean():.4f} "
          f"diff={diff.mean():+.4f} +- {se:.4f} positions={len(targets)} of {seen}")


if __name__ == "__main__":
    main()
