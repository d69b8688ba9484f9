"""End-of-game scoring for final_score / final_status_list.

Honest scope: this is a heuristic, not GNU Go's life-and-death reader.
Dead stones are guessed from Monte-Carlo ownership: random playouts (no
filling of one's own true eyes) are run to the end from the current
position, and a chain whose points end up owned by the opponent in most of
them is called dead. That is right for the clearly dead and clearly alive
groups a finished game mostly has; it can misjudge seki (reported alive or
dead, never 'seki') and unsettled fights. The score is then area scoring
(Tromp-Taylor on the board with the dead stones removed) minus komi,
whatever ruleset was announced.
"""

import random

import numpy as np

from goengine import BLACK, EMPTY, PASS, WHITE, Board

DEFAULT_PLAYOUTS = 32


def playout_ownership(board, playouts=DEFAULT_PLAYOUTS, seed=0):
    """Mean ownership per point over random playouts: +1 black, -1 white.

    Array (size, size) indexed [row, col] like Board.stones(). Seeded, so the
    same position always gets the same answer.
    """
    size = board.size
    rng = random.Random(seed)
    total = np.zeros((size, size), dtype=np.float64)
    max_moves = 3 * size * size
    for _ in range(max(1, playouts)):
        b = board.copy()
        b.superko = False   # cheap: simple ko is enough to end a random game
        passes = 0
        for _ in range(max_moves):
            color = b.to_move
            move = _random_move(b, color, rng)
            b.play(move, color)
            passes = passes + 1 if move == PASS else 0
            if passes >= 2:
                break
        total += area_owner(b.stones())
    return total / max(1, playouts)


def _random_move(board, color, rng):
    """A uniformly random legal move that does not fill one of color's true eyes."""
    moves = board.legal_moves(color)
    while moves:
        i = rng.randrange(len(moves))
        move = moves[i]
        if move != PASS and not board.is_eye(move, color):
            return move
        moves[i] = moves[-1]
        moves.pop()
    return PASS


def area_owner(stones):
    """Tromp-Taylor ownership of a stones array: +1 black, -1 white, 0 neither.

    An empty region belongs to a colour when it borders only that colour.
    """
    size = stones.shape[0]
    owner = np.where(stones == BLACK, 1, np.where(stones == WHITE, -1, 0)).astype(np.int8)
    seen = np.zeros_like(stones, dtype=bool)
    for r in range(size):
        for c in range(size):
            if stones[r, c] != EMPTY or seen[r, c]:
                continue
            region, borders, stack = [], set(), [(r, c)]
            seen[r, c] = True
            while stack:
                y, x = stack.pop()
                region.append((y, x))
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < size and 0 <= nx < size:
                        v = stones[ny, nx]
                        if v == EMPTY and not seen[ny, nx]:
                            seen[ny, nx] = True
                            stack.append((ny, nx))
                        elif v != EMPTY:
                            borders.add(int(v))
            if len(borders) == 1:
                value = 1 if BLACK in borders else -1
                for y, x in region:
                    owner[y, x] = value
    return owner


def dead_stones(board, playouts=DEFAULT_PLAYOUTS, seed=0):
    """Points of stones judged dead (see the module docstring), sorted."""
    stones = board.stones()
    size = board.size
    if not stones.any():
        return []
    own = playout_ownership(board, playouts, seed)
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


def final_score(board, dead=None, playouts=DEFAULT_PLAYOUTS):
    """Black's area minus White's minus komi, after removing `dead` stones.

    `dead` defaults to dead_stones(board). > 0 means Black wins.
    """
    if dead is None:
        dead = dead_stones(board, playouts)
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
