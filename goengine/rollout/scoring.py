"""End-of-game scoring for final_score / final_status_list.

Honest scope: this is a heuristic, not GNU Go's life-and-death reader.
Dead stones are guessed from Monte-Carlo ownership: playouts are played to
the end from the current position, and a chain whose points end up owned by
the opponent in most of them is called dead, unless it is in seki (below).
The playouts are those of the trained rollout policy when the caller has one
(RolloutPolicy.ownership: it answers ataris and captures as players do), else
light random moves that fill no eyeish point of the mover and retake no ko
(RolloutPolicy.light()); tools/research/scoring_vs_gnugo.py measures both against GNU Go.
That is right for the clearly dead and clearly alive groups a finished game
mostly has.

Playouts break a seki: sooner or later one side fills a shared liberty and
is captured, so a group in seki comes out "dead" in most of them. So a chain
the playouts do not clearly call alive is checked on the board as it
stands, together with the chains of its colour that share an eye with it (two
chains around one eye live or die together): it is in seki if the opponent
can play on none of their liberties except into atari without capturing
anything (a shared liberty) or not at all (their own eye), at least one
liberty is shared, and the opponent's chains on the shared liberties are
held the same way, with no liberty outside the seki, and no chain on either
side can capture a neighbour in atari to get out. Both sides' chains are
then alive and listed as seki, unless the opponent can give up the stones
in atari to kill: a group with no eye of its own that must capture them is
left one eye space, and one of the nakade shapes (three points or fewer,
the square or pyramid four, the bulky or crossed five) is one eye when the
opponent plays its vital point first. Otherwise the check reads one move
deep: an approach move elsewhere is not recognised, and unsettled fights
are still guessed.

The score is then area scoring (Tromp-Taylor on the board with the dead
stones removed, seki stones kept, their shared liberties nobody's) minus the
board's komi, which goengine.game.state sets to the komi plus the ruleset's
handicap compensation.
"""

from typing import NamedTuple

import numpy as np

from goengine import BLACK, EMPTY, WHITE, Board

# Light playouts run in C at thousands per second, so a few hundred make the
# ownership estimate stable from one seed to the next.
DEFAULT_PLAYOUTS = 400

# A chain whose own colour owns it by at least this mean ownership is alive
# without a seki check; playouts leave a seki's chains near 0 or below.
SURELY_ALIVE = 0.5

# A point whose mean owner over the playouts is nearer 0 than this is in doubt:
# the count of a finished game should have none outside its sekis.
DOUBTFUL = 0.5

# A board is settled, and its count is its score, when an ownership map and the
# count it makes disagree on at most this share of the points (7 on 19x19). On the
# last boards of 40 held-out counted games a network's ownership head and its
# count disagreed on 0-8 points where the count was GNU Go's within a point, on
# 12-43 where a group was misjudged (tools/research/scoring_vs_gnugo.py measures the lead
# so read: docs/RESULTS.md, 2026-11-27).
SETTLED_SHARE = 0.02


def ownership(board, playouts=DEFAULT_PLAYOUTS, seed=0, rollout=None):
    """Mean final owner of every point over the playouts, float (size, size)
    indexed [row, col] (row 0 at the bottom): +1 Black, -1 White.

    rollout: a goengine.rollout._rollout.RolloutPolicy to play the playouts with;
    None: light random moves (RolloutPolicy.light())."""
    if rollout is None:
        from goengine.rollout._rollout import RolloutPolicy
        rollout = RolloutPolicy.light()
    return rollout.ownership(board, playouts, seed)


def dead_stones(board, playouts=DEFAULT_PLAYOUTS, seed=0, rollout=None):
    """Points of stones judged dead (see the module docstring), sorted.

    rollout: as for ownership()."""
    return stone_status(board, playouts, seed, rollout)[0]


def stone_status(board, playouts=DEFAULT_PLAYOUTS, seed=0, rollout=None, own=None):
    """(dead, seki): sorted points of the stones judged dead and of those in
    seki; every other stone is alive.

    rollout: as for ownership(); own: that ownership, when the caller has it already."""
    stones = board.stones()
    size = board.size
    if not stones.any():
        return [], []
    if own is None:
        own = ownership(board, playouts, seed, rollout)
    dead, seki = [], set()
    for point, chain in chains(board):
        mean = own_share(own, size, chain, stones)
        if mean >= SURELY_ALIVE:
            continue
        partners = seki_partners(board, point)
        if partners:
            shared = eye_linked(board, point)[1]
            partner_chains = {tuple(board.chain_stones(p)) for p in partners}
            if any(own_share(own, size, other, stones) <= -SURELY_ALIVE
                   or not seki_partners(board, other[0], shared) for other in partner_chains):
                partners = []      # a partner is dead, or can itself be attacked
        if partners:
            seki.update(chain)
            seki.update(partners)
        elif mean < 0:     # the opponent owns it in most playouts
            dead.extend(chain)
    return sorted(dead), sorted(seki - set(dead))


def chains(board):
    """(point, chain) for every chain on the board once, in board order: the chain's
    first stone in that order, and the points of all its stones."""
    done = set()
    for point in map(int, np.flatnonzero(board.stones().reshape(-1) != EMPTY)):
        if point not in done:
            chain = board.chain_stones(point)
            done.update(chain)
            yield point, chain


def own_share(own, size, chain, stones):
    """The chain's mean ownership from its own colour's view: +1 always its own."""
    r, c = divmod(chain[0], size)
    sign = 1 if stones[r, c] == BLACK else -1
    return sign * float(np.mean([own[p // size, p % size] for p in chain]))


def less_sure(maps):
    """Point by point, the ownership nearer 0 of `maps` ((size, size) or flat, +1 Black;
    None skipped): where two judges differ, the less sure one decides."""
    maps = [np.asarray(m, dtype=np.float64) for m in maps if m is not None]
    doubt = maps[0]
    for other in maps[1:]:
        other = other.reshape(doubt.shape)
        doubt = np.where(np.abs(other) < np.abs(doubt), other, doubt)
    return doubt


def neighbours(point, size):
    row, col = divmod(point, size)
    return [r * size + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < size and 0 <= c < size]


def eye_linked(board, point):
    """(stones, liberties) of the chain at `point` and of the chains of its colour
    that share an eye with it, and so on: an empty point whose neighbours are all
    theirs links them. Two chains around one eye live or die together (handicap-7
    game 16's seki: White's five stones and G1 around the eye G2), so the seki
    check reads them as one."""
    color = board.color_at(point)
    stones, liberties, todo = set(), set(), [point]
    while todo:
        start = todo.pop()
        if start in stones:
            continue
        stones.update(board.chain_stones(start))
        for liberty in board.chain_liberty_points(start):
            liberties.add(liberty)
            around = neighbours(liberty, board.size)
            if all(board.color_at(n) == color for n in around):
                todo.extend(around)
    return stones, liberties


def seki_partners(board, point, shared=None):
    """The opponent stones that share liberties with the chain at `point` (and
    the chains eye_linked to it) in a seki, or [] if it is not in one: the
    opponent can play on none of their liberties except into atari without
    capturing anything, and on at least one of them it can; nor is one of
    their chains in atari, nor can one capture a neighbour in atari.

    shared: if given, every liberty but the group's own eyes must be one of
    these (the partner's side of a seki has no way out)."""
    color = board.color_at(point)
    opponent = WHITE if color == BLACK else BLACK
    group, liberties = eye_linked(board, point)
    if any(board.chain_liberties(s) < 2 for s in group):
        return []          # a chain in atari: capturable, whatever surrounds it
    if any(board.color_at(n) == opponent and board.chain_liberties(n) == 1
           for s in group for n in neighbours(s, board.size)):
        return []          # it can capture its way out
    partners = set()
    for liberty in sorted(liberties):
        if not board.is_legal(liberty, opponent):
            if set(neighbours(liberty, board.size)) <= group:
                continue   # its own eye
            return []      # an eye shared with a chain that may be captured first
        if shared is not None and liberty not in shared:
            return []      # a liberty of its own outside the seki
        after = board.copy()
        after.play(liberty, opponent)
        if after.chain_liberties(liberty) != 1 or after.captures(opponent) > board.captures(opponent):
            return []      # a safe approach or a capture: the attacker can go on
        beside = next(n for n in neighbours(liberty, board.size) if n in group)
        if throw_in_kills(after, beside, liberty):
            return []      # a sacrifice there leaves it one eye at most
        partners.update(s for s in after.chain_stones(liberty) if s != liberty)
    return sorted(partners)


def throw_in_kills(after, point, liberty):
    """Whether the opponent's stones just played into atari at `liberty`, once
    the chain at `point` captures them, leave that chain an eye space it cannot
    make two eyes of, and no eye elsewhere: a false seki.

    Two stones inside a group that has no eye of its own, sharing its last two
    liberties, look like a seki, but the owner throws in a third: the group must
    take the three, and a play on the vital point of the three-point space left
    kills it (tests/games/false-seki-killed-by-a-throw-in.sgf). Under area
    scoring the stones given up cost nothing."""
    color = after.color_at(point)
    thrown = set(after.chain_stones(liberty))
    last = after.chain_liberty_points(liberty)[0]
    if not after.is_legal(last, color):
        return False
    taken = after.copy()
    taken.play(last, color)      # the thrown stones' last liberty: they come off
    chain = set(taken.chain_stones(point))
    border = {n for s in thrown for n in neighbours(s, taken.size)} - thrown
    if not border <= chain:
        return False       # the space is not this chain's alone
    if set(taken.chain_liberty_points(point)) - thrown:
        return False       # an eye or a liberty elsewhere
    return one_eye_at_most(thrown, taken.size)


def one_eye_at_most(space, size):
    """Whether an eye space makes at most one eye when the attacker plays
    first: every space of three points or fewer, the square and the pyramid
    four, the bulky and the crossed five (the nakade shapes; a space of six
    or more is taken to live)."""
    n = len(space)
    degrees = [sum(q in space for q in neighbours(p, size)) for p in space]
    links = sum(degrees) // 2
    if n <= 3:
        return True
    if n == 4:
        return max(degrees) == 3 or links == 4          # pyramid, square
    if n == 5:
        return max(degrees) == 4 or links == 5          # crossed, bulky
    return False


def final_score(board, dead=None, playouts=DEFAULT_PLAYOUTS, rollout=None):
    """Black's area minus White's minus komi, after removing `dead` stones.

    `dead` defaults to dead_stones(board, playouts, rollout=rollout). > 0
    means Black wins.
    """
    if dead is None:
        dead = dead_stones(board, playouts, rollout=rollout)
    return float(without_dead(board, dead).area_score())


def without_dead(board, dead):
    """A board of `board`'s size and komi holding its stones but the `dead` ones
    (no history: what area scoring counts)."""
    dead = set(dead)
    stones = board.stones()
    size = board.size
    black = [r * size + c for r, c in zip(*np.nonzero(stones == BLACK)) if r * size + c not in dead]
    white = [r * size + c for r, c in zip(*np.nonzero(stones == WHITE)) if r * size + c not in dead]
    cleaned = Board(size, board.komi, superko=False)
    if black or white:
        cleaned.setup_stones(black=[int(p) for p in black], white=[int(p) for p in white])
    return cleaned


class Count(NamedTuple):
    """A count of the board as it stands: Black's margin (area, dead stones removed,
    minus komi) and the points whose owner the playouts leave in doubt; each of
    those could still turn the margin by two points."""
    margin: float
    doubtful: int

    def winner_beyond_doubt(self):
        """BLACK or WHITE when even every doubtful point going the other way leaves
        the winner the same, else None."""
        if self.margin - 2 * self.doubtful > 0:
            return BLACK
        if self.margin + 2 * self.doubtful < 0:
            return WHITE
        return None


def doubtful_points(board, own, seki):
    """How many points the ownership `own` leaves in doubt (|mean owner| < DOUBTFUL),
    the stones in seki and their liberties apart (nobody's under area scoring)."""
    doubt = (np.abs(own) < DOUBTFUL) & ~seki_area(board, seki)
    return int(doubt.sum())


def seki_area(board, seki):
    """bool (size, size): the stones in seki and their liberties."""
    area = np.zeros((board.size, board.size), dtype=bool)
    for point in seki:
        for p in [point, *board.chain_liberty_points(point)]:
            area[divmod(p, board.size)] = True
    return area


def settled_margin(board, own):
    """Black's margin by count (area, dead stones removed, komi included) with the
    dead stones that the ownership map `own` names (+1 Black, float (size, size)), when
    the board is settled: the points the count gives nobody are dame (each touches
    a stone), and the map is sure of the owner the count gives every point and
    unsure of the dame, save SETTLED_SHARE of the points, the sekis apart. None
    where an open area, an open border or a doubtful group leaves the count saying
    nothing yet about the end."""
    dead, seki = stone_status(board, own=own)
    cleaned = without_dead(board, dead)
    owner = cleaned.area_owner()
    if (owner == 0)[~touches_a_stone(cleaned.stones())].any():
        return None
    sure = np.where(np.abs(own) >= DOUBTFUL, np.sign(own), 0)
    disagree = (owner != sure) & ~seki_area(board, seki)
    if disagree.sum() > max(1, round(SETTLED_SHARE * board.size ** 2)):
        return None
    return float(cleaned.area_score())


def touches_a_stone(stones):
    """bool (size, size): the points with a stone on them or beside them."""
    there = stones != EMPTY
    near = there.copy()
    near[1:] |= there[:-1]
    near[:-1] |= there[1:]
    near[:, 1:] |= there[:, :-1]
    near[:, :-1] |= there[:, 1:]
    return near


class Scorer:
    """The dead-stone judge of a game: whose playouts (`rollout`, a RolloutPolicy;
    None: light random ones) and how many. One object per engine, which the
    player holds and the GTP commands ask (final_score, final_status_list,
    the ownership maps, and whether to answer a pass with a pass)."""

    def __init__(self, rollout=None, playouts=DEFAULT_PLAYOUTS):
        self.rollout, self.playouts = rollout, playouts

    def ownership(self, board, seed=0, playouts=None):
        """The playouts' mean owner of each point (module ownership): the scorer's number
        of playouts, or `playouts`."""
        return ownership(board, playouts or self.playouts, seed, self.rollout)

    def stone_status(self, board):
        """(dead, seki) stone points (module stone_status)."""
        return stone_status(board, self.playouts, rollout=self.rollout)

    def final_score(self, board, dead=None):
        """Black's area minus White's minus komi, dead stones removed (judged here
        unless given)."""
        if dead is None:
            dead = self.stone_status(board)[0]
        return final_score(board, dead)

    def count(self, board, network_ownership=None):
        """The Count of the board as it stands: the final score and its doubt, from one
        set of playouts. network_ownership: a network's map of the final owners (+1
        Black), whose doubtful points are doubtful too (the less sure of the two
        judges, point by point)."""
        own = self.ownership(board)
        dead, seki = stone_status(board, self.playouts, rollout=self.rollout, own=own)
        doubt = less_sure([own, network_ownership])
        return Count(final_score(board, dead), doubtful_points(board, doubt, seki))


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
