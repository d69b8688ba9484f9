"""End-of-game scoring for final_score / final_status_list.

Honest scope: this is a heuristic, not GNU Go's life-and-death reader.
Dead stones are guessed from Monte-Carlo ownership: playouts are played to
the end from the current position, and a chain whose points end up owned by
the opponent in most of them is called dead. The playouts are those of the
trained rollout policy when the caller has one (RolloutPolicy.ownership:
it answers ataris and captures as players do), else light random moves that
fill no eyeish point of the mover and retake no ko (Board.ownership);
tools/scoring_vs_gnugo.py measures both against GNU Go. That is right for the clearly dead and clearly alive
groups a finished game mostly has; it can misjudge seki (reported alive or
dead, never 'seki') and unsettled fights. The score is then area scoring
(Tromp-Taylor on the board with the dead stones removed) minus komi,
whatever ruleset was announced.
"""

import numpy as np

from goengine import BLACK, EMPTY, WHITE, Board

# Light playouts run in C at thousands per second, so a few hundred make the
# ownership estimate stable from one seed to the next.
DEFAULT_PLAYOUTS = 400


def ownership(board, playouts=DEFAULT_PLAYOUTS, seed=0, rollout=None):
    """Mean final owner of every point over the playouts, float (size, size)
    indexed [row, col] (row 0 at the bottom): +1 Black, -1 White.

    rollout: a goengine._rollout.RolloutPolicy to play the playouts with
    instead of light random moves."""
    if rollout is not None:
        return rollout.ownership(board, playouts, seed)
    return board.ownership(playouts, seed)


def dead_stones(board, playouts=DEFAULT_PLAYOUTS, seed=0, rollout=None):
    """Points of stones judged dead (see the module docstring), sorted.

    rollout: as for ownership()."""
    stones = board.stones()
    size = board.size
    if not stones.any():
        return []
    own = ownership(board, playouts, seed, rollout)
    dead, done = [], set()
    for r in range(size):
        for c in range(size):
            color = stones[r, c]
            point = r * size + c
            if color == EMPTY or point in done:
                continue
            chain = board.chain_stones(point)
            done.update(chain)
            sign = 1 if color == BLACK else -1
            mean = np.mean([own[p // size, p % size] for p in chain]) * sign
            if mean < 0:   # the opponent owns it in most playouts
                dead.extend(chain)
    return sorted(dead)


def final_score(board, dead=None, playouts=DEFAULT_PLAYOUTS, rollout=None):
    """Black's area minus White's minus komi, after removing `dead` stones.

    `dead` defaults to dead_stones(board, playouts, rollout=rollout). > 0
    means Black wins.
    """
    if dead is None:
        dead = dead_stones(board, playouts, rollout=rollout)
    dead = set(dead)
    stones = board.stones()
    size = board.size
    black = [r * size + c for r, c in zip(*np.nonzero(stones == BLACK)) if r * size + c not in dead]
    white = [r * size + c for r, c in zip(*np.nonzero(stones == WHITE)) if r * size + c not in dead]
    cleaned = Board(size, board.komi, superko=False)
    if black or white:
        cleaned.setup_stones(black=[int(p) for p in black], white=[int(p) for p in white])
    return float(cleaned.area_score())


def format_score(score):
    """GTP spec 4.3 result text: 'B+3.5', 'W+0.5' or '0' for a draw."""
    if score > 0:
        return f'B+{score:g}'
    if score < 0:
        return f'W+{-score:g}'
    return '0'


def winner(score):
    """BLACK, WHITE or None (draw)."""
    return BLACK if score > 0 else WHITE if score < 0 else None
