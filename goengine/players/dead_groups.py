"""No stone added to a group that is dead beyond doubt.

Once a group is lost, a move that only adds a stone to it gives the opponent one more
prisoner and nothing else; an engine that lost a fight would otherwise go on feeding the
dead group. A chain is dead beyond doubt when every judge the player has, its rollouts'
count and its network's ownership head, gives it to the opponent (the mean over its
stones of the less sure of the two, point by point, beyond SearchConfig.dead_group_doubt).
A move fills it when it touches such a chain of the mover's, touches no other chain of the
mover's, captures nothing and leaves no opponent chain short of liberties (an atari or a
move in a capturing race does something else).
"""

from goengine import EMPTY
from goengine.rollout.scoring import chains, less_sure, neighbours, own_share

# The rollouts' share of the judgment: a group called dead by the head is played out this
# many times before a move is refused (a quarter of the count's, as the check runs before
# every genmove that finds one: docs/DECISIONS.md, 'dead groups').
PLAYOUTS = 100


def dead_chains(board, color, own, doubt):
    """The points of `color`'s chains that `own` (+1 Black) gives to the opponent by more
    than `doubt` on average over their stones."""
    size, stones = board.size, board.stones()
    dead = set()
    for point, chain in chains(board):
        if (stones[point // size, point % size] == color
                and own_share(own, size, chain, stones) <= -doubt):
            dead.update(chain)
    return dead


def fills_dead_group(board, move, color, dead, stones=None):
    """Whether `color` playing `move` only adds a stone to its dead chains (`dead`, their
    points): it touches one, touches no living chain of its own, and captures nothing
    nor leaves an opponent chain with one liberty. stones: board.stones(), if at hand."""
    size = board.size
    stones = board.stones() if stones is None else stones
    touches_dead = False
    for n in neighbours(move, size):
        owner = stones[n // size, n % size]
        if owner == color:
            if n not in dead:
                return False
            touches_dead = True
        elif owner != EMPTY and board.chain_liberties(n) <= 2:
            return False
    return touches_dead


def dead_group_fillers(board, color, maps, doubt):
    """The legal moves of `color` that only add a stone to a chain of its own that every
    ownership map in `maps` (+1 Black; None skipped) gives to the opponent beyond `doubt`."""
    if not any(m is not None for m in maps):
        return []
    dead = dead_chains(board, color, less_sure(maps), doubt)
    if not dead:
        return []
    size, stones = board.size, board.stones()
    around = {n for p in dead for n in neighbours(p, size) if stones[n // size, n % size] == EMPTY}
    return sorted(m for m in around
                  if board.is_legal(m, color) and fills_dead_group(board, m, color, dead, stones))
