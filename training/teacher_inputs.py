"""The teacher's inputs: KataGo's 22 board planes and 19 global features, from our Board.

KataGo's network (training/teacher_net.py) reads a position through the features of its
input version 7 (`NNInputs::fillRowV7` in KataGo's `cpp/neuralnet/nninputs.cpp`), always
from the side to move's point of view. This module computes them for a 19x19 position
under Chinese rules (area scoring, simple ko, no suicide), which is how goengine scores:

  0 on board          1-2 own / opponent stones     3-5 stones of chains with 1/2/3 liberties
  6 ko ban            9-13 the last five moves      14 stones a ladder captures now
  15-16 the same one and two moves ago              17 moves that start a working ladder
  18-19 own / opponent area: pass-alive (Benson) stones and territory, large empty regions
        bordered by one colour, and every other stone as its own colour
  global: 0-4 which of the last five moves were passes, 5 komi / 20 (own point of view),
          18 the komi's parity wave; the rest are rules that Chinese rules leave at 0.

Planes are indexed [y, x] with y = 0 the top row (GTP row 19), as KataGo lays them out.
Right after a pass KataGo hides the history under Chinese rules (a friendly pass), as
`planes` does; under territory scoring it refuses such a position.
"""

from collections import deque

import numpy as np

from goengine import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove

SIZE = 19
SPATIAL, GLOBAL = 22, 19
LADDER_NODE_BUDGET = 25000           # KataGo's MAX_LADDER_SEARCH_NODE_BUDGET
LADDER_MAX_DEPTH = SIZE * SIZE * 3 // 2 + 1


def _neighbours_table():
    table = []
    for m in range(SIZE * SIZE):
        r, c = divmod(m, SIZE)
        table.append(tuple(n for n, ok in ((m - SIZE, r > 0), (m - 1, c > 0), (m + 1, c < SIZE - 1),
                                           (m + SIZE, r < SIZE - 1)) if ok))
    return tuple(table)


NEIGHBOURS = _neighbours_table()
# our move index (row 0 at the bottom) -> KataGo's flat index y * 19 + x (y 0 at the top)
TO_TEACHER = np.array([(SIZE - 1 - m // SIZE) * SIZE + m % SIZE for m in range(SIZE * SIZE)])


class Chains:
    """Every chain of a board: its id at each point, its stones and its liberties."""

    def __init__(self, colours):
        self.id = [-1] * (SIZE * SIZE)
        self.stones, self.libs = [], []
        for m in range(SIZE * SIZE):
            if colours[m] == EMPTY or self.id[m] >= 0:
                continue
            k = len(self.stones)
            colour, stack, stones, libs = colours[m], [m], [], set()
            self.id[m] = k
            while stack:
                p = stack.pop()
                stones.append(p)
                for n in NEIGHBOURS[p]:
                    if colours[n] == EMPTY:
                        libs.add(n)
                    elif colours[n] == colour and self.id[n] < 0:
                        self.id[n] = k
                        stack.append(n)
            self.stones.append(stones)
            self.libs.append(libs)

    def liberties(self, m):
        return len(self.libs[self.id[m]])


# ----------------------------------------------------------------------------- ladders


class _LadderBudgetSpent(Exception):
    pass


class _Ladder:
    """KataGo's ladder reader (`Board::searchIsLadderCaptured`) on copies of our Board."""

    def __init__(self):
        self.nodes = 0

    def _capture_moves(self, board, target, defender):
        """Liberties of opponent chains in atari touching the target's chain."""
        attacker = 3 - defender
        found, seen = [], set()
        for s in board.chain_stones(target):
            for n in NEIGHBOURS[s]:
                if board.color_at(n) == attacker and board.chain_liberties(n) == 1:
                    head = min(board.chain_stones(n))
                    if head not in seen:
                        seen.add(head)
                        for lib in board.chain_liberty_points(n):
                            if lib not in found:
                                found.append(lib)
        return found

    @staticmethod
    def _bounds_after(board, m, player):
        """KataGo's getBoundNumLibertiesAfterPlay: (lower, upper) liberties after playing m."""
        empties = caps = cap_stones = conn = max_conn = 0
        for n in NEIGHBOURS[m]:
            c = board.color_at(n)
            if c == EMPTY:
                empties += 1
            elif c == player:
                libs = board.chain_liberties(n) - 1
                conn += libs
                max_conn = max(max_conn, libs)
            elif board.chain_liberties(n) == 1:
                caps += 1
                cap_stones += len(board.chain_stones(n))
        return caps + max(max_conn, empties), empties + cap_stones + conn

    @staticmethod
    def _immediate(board, m):
        return sum(board.color_at(n) == EMPTY for n in NEIGHBOURS[m])

    @staticmethod
    def _connection_x2(board, m, player):
        total = 0
        for n in NEIGHBOURS[m]:
            if board.color_at(n) == player:
                libs = board.chain_liberties(n)
                if libs > 1:
                    total += 2 * libs - 3
        return total

    @staticmethod
    def _ko_capture(board, m, player):
        """KataGo's wouldBeKoCapture: m is surrounded by the opponent and takes one lone stone."""
        if board.color_at(m) != EMPTY:
            return False
        taken = None
        for n in NEIGHBOURS[m]:
            if board.color_at(n) != 3 - player:
                return False
            if board.chain_liberties(n) == 1:
                if taken is not None:
                    return False
                taken = n
        return taken is not None and len(board.chain_stones(taken)) == 1

    def _libs_after(self, board, m, player, cap):
        after = board.copy()
        try:
            after.play(m, player)
        except IllegalMove:
            return 0
        return min(cap, after.chain_liberties(m))

    def captured(self, board, target, defender_first):
        """Whether the chain at `target` is captured by a ladder (KataGo's semantics)."""
        libs = board.chain_liberties(target)
        if libs > 2 or (defender_first and libs > 1):
            return False
        if defender_first:
            board = board.copy()
            board.forget_ko()
        self.nodes = 0
        try:
            return self._search(board, target, board.color_at(target), defender_first, 0)
        except _LadderBudgetSpent:
            return False

    def _search(self, board, target, defender, defender_first, depth):
        if depth >= LADDER_MAX_DEPTH - 1:
            return True
        if self.nodes >= LADDER_NODE_BUDGET:
            raise _LadderBudgetSpent
        is_defender = (depth % 2 == 0) == defender_first
        attacker = 3 - defender
        libs = board.chain_liberties(target)
        if not is_defender and libs <= 1:
            return True
        if not is_defender and libs >= 3:
            return False
        if is_defender and libs >= 2:
            return False
        if is_defender and board.ko != PASS:
            return False
        if is_defender:
            moves = self._capture_moves(board, target, defender)
            moves += [m for m in board.chain_liberty_points(target) if m not in moves]
            lower, upper = self._bounds_after(board, moves[-1], defender)
            if lower >= 3:
                return False
            if len(moves) == 1 and upper <= 1:
                return True
        else:
            moves = board.chain_liberty_points(target)
            l0, l1 = self._immediate(board, moves[0]), self._immediate(board, moves[1])
            if (l0 == 0 and l1 == 0 and self._ko_capture(board, moves[0], attacker)
                    and self._ko_capture(board, moves[1], attacker)
                    and self._libs_after(board, moves[0], defender, 3) <= 2
                    and self._libs_after(board, moves[1], defender, 3) <= 2
                    and not self._capture_moves(board, target, defender)):
                return True
            if moves[1] not in NEIGHBOURS[moves[0]]:
                if l0 >= 3 and l1 >= 3:
                    return False
                if l0 >= 3:
                    moves = moves[:1]
                elif l1 >= 3:
                    moves = moves[1:]
            if len(moves) > 1:
                s0 = 2 * l0 + self._connection_x2(board, moves[0], defender)
                s1 = 2 * l1 + self._connection_x2(board, moves[1], defender)
                if s1 > s0:
                    moves = [moves[1], moves[0]]
        mover = defender if is_defender else attacker
        for move in moves:
            if not board.is_legal(move, mover):
                continue
            after = board.copy()
            after.play(move, mover)
            self.nodes += 1
            result = self._search(after, target, defender, defender_first, depth + 1)
            if is_defender and not result:
                return False
            if not is_defender and result:
                return True
        return is_defender

    def attacker_first(self, board, target, ko_point):
        """KataGo's searchIsLadderCapturedAttackerFirst2Libs: the attacker's first moves that
        capture a two-liberty chain in a ladder (empty if none)."""
        attacker = 3 - board.color_at(target)
        working = []
        for move in board.chain_liberty_points(target):
            if move == ko_point or not board.is_legal(move, attacker):
                continue
            after = board.copy()
            after.play(move, attacker)
            if self.captured(after, target, True):
                working.append(move)
        return working


def ladder_planes(board, mover, captured_plane, working_plane=None, chains=None):
    """Mark stones of chains with 1 or 2 liberties that a ladder captures (and, for the
    opponent's two-liberty chains, the moves that start it) on (19, 19) planes. `chains`:
    the board's Chains where the caller has them already."""
    reader = _Ladder()
    colours = board.stones().reshape(-1)
    chains = chains or Chains(colours)
    ko_point = board.ko
    for k, stones in enumerate(chains.stones):
        libs = len(chains.libs[k])
        if libs not in (1, 2):
            continue
        target = stones[0]
        if libs == 1:
            laddered, working = reader.captured(board, target, True), []
        else:
            working = reader.attacker_first(board, target, ko_point)
            laddered = bool(working)
        if not laddered:
            continue
        for s in stones:
            captured_plane.flat[TO_TEACHER[s]] = 1
        if working_plane is not None and colours[target] == 3 - mover:
            for w in working:
                working_plane.flat[TO_TEACHER[w]] = 1


# ----------------------------------------------------------------------------- area


def _area_for(colours, chains, player, result):
    """KataGo's Board::calculateAreaForPla (Benson's pass-alive chains and territory, plus
    big empty regions), multi-stone suicide illegal."""
    opp = 3 - player
    region = [-1] * (SIZE * SIZE)
    regions = []   # each: [points, vital chain ids, internal spaces (max 2), contains opp]
    for m in range(SIZE * SIZE):
        if colours[m] != EMPTY or region[m] >= 0:
            continue
        k = len(regions)
        vital = {chains.id[n] for n in NEIGHBOURS[m] if colours[n] == player}
        points, internal, has_opp, stack = [], 0, False, [m]
        region[m] = k
        while stack:
            p = stack.pop()
            points.append(p)
            if colours[p] == EMPTY and vital:
                vital = {v for v in vital if any(chains.id[n] == v for n in NEIGHBOURS[p]
                                                  if colours[n] == player)}
            touches = any(colours[n] == player for n in NEIGHBOURS[p])
            if not touches and internal < 2:
                internal += 1
            if colours[p] == opp:
                has_opp = True
            for n in NEIGHBOURS[p]:
                if colours[n] != player and region[n] < 0:
                    region[n] = k
                    stack.append(n)
        regions.append([points, vital, internal, has_opp])

    own = [k for k, stones in enumerate(chains.stones) if colours[stones[0]] == player]
    if not own:
        return
    vital_count = {k: 0 for k in own}
    for _, vital, _, _ in regions:
        for v in vital:
            vital_count[v] += 1
    killed, borders_dead = set(), [False] * len(regions)
    changed = True
    while changed:
        changed = False
        for k in own:
            if k in killed or vital_count[k] >= 2:
                continue
            killed.add(k)
            changed = True
            for s in chains.stones[k]:
                for n in NEIGHBOURS[s]:
                    r = region[n]
                    if r >= 0 and colours[n] != player and not borders_dead[r]:
                        borders_dead[r] = True
                        for v in regions[r][1]:
                            vital_count[v] -= 1
    for k in own:
        if k not in killed:
            for s in chains.stones[k]:
                result[s] = player
    for r, (points, _, internal, has_opp) in enumerate(regions):
        if not borders_dead[r] and (internal <= 1 or not has_opp):
            for p in points:
                result[p] = player
        elif not has_opp:
            for p in points:
                if result[p] == EMPTY:
                    result[p] = player


def area(colours, chains=None):
    """KataGo's calculateArea(nonPassAliveStones, safe and unsafe big territories): the
    owner of each point (our move indices) as its area input planes see it."""
    chains = chains or Chains(colours)
    result = [EMPTY] * (SIZE * SIZE)
    _area_for(colours, chains, BLACK, result)
    _area_for(colours, chains, WHITE, result)
    for m in range(SIZE * SIZE):
        if result[m] == EMPTY:
            result[m] = colours[m]
    return result


# ----------------------------------------------------------------------------- planes


def komi_wave(self_komi):
    """Global feature 18: the komi's parity on an odd board (nninputs.cpp's triangle wave)."""
    floor = np.floor((self_komi - 1.0) / 2.0) * 2.0 + 1.0
    delta = min(max(self_komi - floor, 0.0), 2.0)
    if delta < 0.5:
        return delta
    if delta < 1.5:
        return 1.0 - delta
    return delta - 2.0


RULES = ("chinese", "japanese")   # area scoring; territory scoring with seki taxed (Korean too)


def planes(board: Board, recent_moves, previous_boards, komi, rules="chinese"):
    """(spatial (22, 19, 19), global (19,)) float32 for the side to move of `board`.

    recent_moves: the game's last moves, [(colour, move)], most recent last (up to 5 used);
    previous_boards: [board one move ago, board two moves ago] (None where there is none).
    rules: KataGo's "chinese" (goengine's own scoring) or "japanese" (territory scoring, as
    the Tygem games were played; KataGo leaves the area planes empty before the encore).
    """
    if rules not in RULES:
        raise ValueError(f"rules must be one of {RULES}, not {rules!r}")
    if board.size != SIZE:
        raise ValueError(f"the teacher reads 19x19 boards, not {board.size}x{board.size}")
    if recent_moves and recent_moves[-1][1] == PASS:
        if rules != "chinese":
            raise ValueError("a position right after a pass under territory scoring: not modelled")
        # Chinese rules let a pass be friendly: KataGo then hides the history entirely
        # (nninputs.cpp, shouldSuppressEndGameFromFriendlyPass), and so do we.
        recent_moves, previous_boards = [], []
    me = board.to_move
    opp = 3 - me
    colours = board.stones().reshape(-1)
    chains = Chains(colours)
    spatial = np.zeros((SPATIAL, SIZE, SIZE), np.float32)
    glob = np.zeros(GLOBAL, np.float32)
    flat = spatial.reshape(SPATIAL, -1)
    flat[0] = 1
    for m in range(SIZE * SIZE):
        c = colours[m]
        if c == EMPTY:
            continue
        t = TO_TEACHER[m]
        flat[1 if c == me else 2, t] = 1
        libs = chains.liberties(m)
        if libs <= 3:
            flat[2 + libs, t] = 1
    if board.ko != PASS:
        flat[6, TO_TEACHER[board.ko]] = 1

    # the last five moves, while they alternate ending with the opponent's
    included = 0
    for back, (colour, move) in enumerate(reversed(recent_moves[-5:])):
        if colour != (opp if back % 2 == 0 else me):
            break
        included = back + 1
        if move == PASS:
            glob[back] = 1
        else:
            flat[9 + back, TO_TEACHER[move]] = 1

    ladder_planes(board, me, spatial[14], spatial[17], chains)
    prev1 = previous_boards[0] if included >= 1 and previous_boards else None
    prev2 = previous_boards[1] if included >= 2 and len(previous_boards) > 1 else None
    prev1 = prev1 if prev1 is not None else board
    prev2 = prev2 if prev2 is not None else prev1
    ladder_planes(prev1, me, spatial[15])
    ladder_planes(prev2, me, spatial[16])

    if rules == "chinese":
        owner = area(colours, chains)
        for m in range(SIZE * SIZE):
            if owner[m] == me:
                flat[18, TO_TEACHER[m]] = 1
            elif owner[m] == opp:
                flat[19, TO_TEACHER[m]] = 1

    white_komi = komi
    if rules == "japanese":
        # KataGo "chills" territory scoring: a point to the opponent for every stone played
        white_komi += sum(1 if c == BLACK else -1 for c, m in board.history if m != PASS)
    self_komi = white_komi if me == WHITE else -white_komi
    self_komi = max(-SIZE * SIZE - 20.0, min(SIZE * SIZE + 20.0, self_komi))
    glob[5] = self_komi / 20.0
    if rules == "chinese":
        glob[18] = komi_wave(self_komi)
    else:
        glob[9] = glob[10] = 1.0        # territory scoring, seki taxed
    return spatial, glob


def legal_mask(board: Board):
    """(362,) bool in the teacher's policy order: the legal points of the side to move, then pass."""
    mask = np.zeros(SIZE * SIZE + 1, bool)
    for m in board.legal_moves():
        mask[TO_TEACHER[m]] = True
    mask[-1] = True
    return mask


def board_planes(board: Board, komi, rules="chinese"):
    """planes() for a board that was played from the empty board: its recent moves and the
    boards one and two moves ago are read from its history (without them, where setup stones
    make the history not replay to it)."""
    history = board.history
    replayed, previous = Board(board.size, komi, superko=False), deque(maxlen=2)
    try:
        for colour, move in history:
            previous.appendleft(replayed.copy())
            replayed.play(move, colour)
    except IllegalMove:
        previous.clear()
    if not (replayed.stones() == board.stones()).all():
        previous.clear()
    return planes(board, history[-5:], list(previous), komi, rules)
