"""GameState: one game as the GTP layer sees it.

A Board plus what the Board alone does not keep: the setup (handicap) stones,
the move history, komi and ruleset, so that `undo` can rebuild any earlier
position by replaying from the setup. Rebuilding is cheap next to thinking
and keeps the Board free of undo bookkeeping.

Every method either succeeds or raises and leaves the state unchanged, which
is what GTP requires of failing commands.
"""

from goengine import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.game import coords

MIN_SIZE, MAX_SIZE = 2, 25   # GTP vertices run A..Z without I: at most 25 columns
RULESETS = ('chinese', 'japanese', 'aga', 'new_zealand', 'tromp-taylor')


def handicap_of(black, white):
    """Setup stones count as handicap when they are all Black's."""
    return len(black) if not white else 0


def handicap_compensation(ruleset, handicap):
    """Points White gets for Black's handicap stones on our area count.

    Chinese rules give White one point a stone and AGA rules one a stone
    after the first; Japanese counting leaves the stones out, which on an
    area count comes to one a stone too. New Zealand and Tromp-Taylor
    rules give nothing."""
    if handicap < 2 or ruleset in ('new_zealand', 'tromp-taylor'):
        return 0
    return handicap - 1 if ruleset == 'aga' else handicap


class GameError(ValueError):
    """A request the game refuses; the message is the GTP error text."""


def fixed_handicap_points(count, size):
    """GTP spec 4.1.1 placement: star points on the 3rd line (4th from 13x13).

    At most 9 stones on odd boards from 9x9, 4 on even boards and 7x7, none
    below 7x7. Raises GameError('invalid number of stones') otherwise.
    """
    limit = 0 if size < 7 else 4 if (size == 7 or size % 2 == 0) else 9
    if not 2 <= count <= limit:
        raise GameError('invalid number of stones')
    low = 3 if size >= 13 else 2
    high, mid = size - 1 - low, size // 2
    corners = [(low, low), (high, high), (high, low), (low, high)]  # D4 Q16 D16 Q4
    sides = [(mid, low), (mid, high), (low, mid), (high, mid)]      # D10 Q10 K4 K16
    points = corners[:min(count, 4)]
    if count >= 6:
        points += sides[:2]
    if count >= 8:
        points += sides[2:]
    if count % 2 == 1 and count >= 5:
        points.append((mid, mid))
    return [coords.from_rowcol(r, c, size) for r, c in points]


def free_handicap_points(count, size):
    """Engine-chosen handicap: the fixed points first, then spread-out points.

    Beyond the fixed pattern each stone goes to the empty point farthest from
    every stone already chosen (ties: nearer the centre), avoiding the first
    two lines; deterministic, so regressions are reproducible.
    """
    if not 2 <= count < size * size:
        raise GameError('invalid number of stones')
    limit = 0 if size < 7 else 4 if (size == 7 or size % 2 == 0) else 9
    chosen = fixed_handicap_points(min(count, limit), size) if limit >= 2 else []
    rowcols = [coords.to_rowcol(p, size) for p in chosen]
    edge = 2 if size >= 7 else 0
    candidates = [(r, c) for r in range(size) for c in range(size)
                  if edge <= r < size - edge and edge <= c < size - edge]
    centre = (size - 1) / 2
    while len(rowcols) < count:
        free = [rc for rc in candidates if rc not in rowcols]
        if not free:   # tiny boards: fall back to the whole board
            free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in rowcols]

        def score(rc):
            nearest = min((abs(rc[0] - r) + abs(rc[1] - c) for r, c in rowcols), default=size)
            return (nearest, -abs(rc[0] - centre) - abs(rc[1] - centre))
        rowcols.append(max(free, key=score))
    return [coords.from_rowcol(r, c, size) for r, c in rowcols]


class GameState:
    """A Board with setup stones, move history, komi and ruleset.

    `listeners` are the clock hooks: callables `fn(event, game)` run after
    every change, event one of 'clear', 'setup', 'play', 'undo', 'load'.
    """

    def __init__(self, size=19, komi=7.5, ruleset='chinese'):
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameError('unacceptable size')
        self.size = size
        self._komi = float(komi)
        self._ruleset = ruleset
        self.setup_black, self.setup_white = [], []
        self.first_to_move = BLACK
        self.moves = []               # [(color, move)], move may be PASS
        self.listeners = []
        self.board = self._fresh_board()

    # -- properties -----------------------------------------------------

    @property
    def komi(self):
        return self._komi

    @komi.setter
    def komi(self, value):
        self._komi = float(value)
        self.board.komi = self.scoring_komi

    @property
    def scoring_komi(self):
        """What the board counts for White: komi plus handicap compensation
        (the search, rollouts and final_score all score with the board's komi)."""
        return self._komi + handicap_compensation(self._ruleset, self.handicap)

    @property
    def ruleset(self):
        return self._ruleset

    @ruleset.setter
    def ruleset(self, name):
        """Japanese rules have no superko; the others we know use positional superko.

        Scoring is always area scoring (see goengine.rollout.scoring), with the
        ruleset's handicap compensation.
        """
        if name not in RULESETS:
            raise GameError(f'unknown ruleset {name}')
        self._ruleset = name
        self.board.superko = self.superko
        self.board.komi = self.scoring_komi

    @property
    def superko(self):
        return self._ruleset != 'japanese'

    @property
    def to_move(self):
        return self.board.to_move

    @property
    def move_number(self):
        """Moves played since the setup (passes included)."""
        return len(self.moves)

    @property
    def last_move(self):
        return self.moves[-1] if self.moves else None

    @property
    def handicap(self):
        return handicap_of(self.setup_black, self.setup_white)

    def is_empty(self):
        return not (self.moves or self.setup_black or self.setup_white)

    def is_over(self):
        """Two consecutive passes."""
        return len(self.moves) >= 2 and self.moves[-1][1] == PASS and self.moves[-2][1] == PASS

    # -- changes ----------------------------------------------------------

    def clear(self, size=None):
        """Empty board (optionally of a new size), no history; komi and rules kept."""
        if size is not None:
            if not MIN_SIZE <= size <= MAX_SIZE:
                raise GameError('unacceptable size')
            self.size = size
        self.setup_black, self.setup_white = [], []
        self.first_to_move = BLACK
        self.moves = []
        self.board = self._fresh_board()
        self._notify('clear')

    def setup(self, black=(), white=(), to_move=None):
        """Place setup stones on an empty board, e.g. handicap (white then moves).

        Raises GameError('board not empty') or GameError('bad vertex list').
        """
        black, white = list(black), list(white)
        if not self.is_empty():
            raise GameError('board not empty')
        points = black + white
        if (PASS in points or len(set(points)) != len(points)
                or any(not 0 <= p < self.size * self.size for p in points)):
            raise GameError('bad vertex list')
        if to_move is None:
            to_move = WHITE if black and not white else BLACK
        board = self._fresh_board(black, white, to_move)
        self.setup_black, self.setup_white, self.first_to_move = black, white, to_move
        self.board = board
        self._notify('setup')

    def place_handicap(self, points):
        """set_free_handicap / fixed_handicap: 2..size*size-1 distinct points."""
        points = list(points)
        if not self.is_empty():
            raise GameError('board not empty')
        if not 2 <= len(points) < self.size * self.size:
            raise GameError('bad vertex list')
        self.setup(black=points)

    def play(self, color, move):
        """Play `move` (or PASS) for `color`; raises IllegalMove, state unchanged."""
        if color not in (BLACK, WHITE):
            raise GameError(f'bad color {color!r}')
        self.board.play(move, color)
        self.moves.append((color, move))
        self._notify('play')

    def undo(self):
        """Take back the last move (never the setup). Raises GameError('cannot undo')."""
        if not self.moves:
            raise GameError('cannot undo')
        self.board = self._replay(self.moves[:-1])
        self.moves.pop()
        self._notify('undo')

    def replace(self, other):
        """Become `other` (used by loadsgf so a failed load changes nothing)."""
        listeners = self.listeners
        self.__dict__.update(other.__dict__)
        self.listeners = listeners
        self._notify('load')

    def copy(self):
        """An independent copy (no listeners): for searches running beside the game."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.setup_black, new.setup_white = list(self.setup_black), list(self.setup_white)
        new.moves = list(self.moves)
        new.listeners = []
        new.board = self.board.copy()
        return new

    def board_for(self, color):
        """A copy of the board with `color` to move (GTP lets either colour move)."""
        board = self.board.copy()
        board.to_move = color
        return board

    # -- helpers ----------------------------------------------------------

    def _fresh_board(self, black=(), white=(), to_move=BLACK):
        komi = self._komi + handicap_compensation(self._ruleset, handicap_of(black, white))
        board = Board(self.size, komi, superko=self.superko)
        if black or white:
            board.setup_stones(black=list(black), white=list(white))
        board.to_move = to_move
        return board

    def _replay(self, moves):
        board = self._fresh_board(self.setup_black, self.setup_white, self.first_to_move)
        for color, move in moves:
            board.play(move, color)
        return board

    def _notify(self, event):
        for listener in list(self.listeners):
            listener(event, self)

    def __repr__(self):
        last = self.last_move
        last = coords.to_gtp(last[1], self.size) if last else '-'
        return (f'<GameState {self.size}x{self.size} komi {self._komi} {self._ruleset} '
                f'moves {len(self.moves)} last {last} to_move {"BW"[self.to_move - 1]}>')


def from_record(record, move_number=None, ruleset='chinese', default_komi=None):
    """A GameState from a goengine.game.sgffile.Game, replayed up to the position
    before `move_number` (1-based, GTP loadsgf semantics); None means all moves.

    default_komi: the komi of a record that gives none (or none that can be read):
    a controller's loadsgf keeps its own komi there, as GNU Go does; None: 0.
    Setup stones after the first move (record.later_setup) cannot be history:
    the position at the last such node becomes the game's setup, and the
    moves after it are replayed on it. The side to move is the record's next
    move's, else its PL[], else the colour after the last move.
    Raises GameError, saying why, when the record cannot be replayed.
    """
    komi = record.komi
    if not getattr(record, 'komi_given', True) and default_komi is not None:
        komi = default_komi
    if not MIN_SIZE <= record.size <= MAX_SIZE:
        raise GameError(f'cannot load file: board size {record.size} (goengine plays '
                        f'{MIN_SIZE} to {MAX_SIZE}, as boardsize takes them)')
    game = GameState(record.size, komi, ruleset)
    count = len(record.moves) if move_number is None else min(len(record.moves), max(0, move_number - 1))
    moves = record.moves[:count]
    to_move = record.moves[count][0] if count < len(record.moves) else None
    if to_move is None and record.player_to_move and record.player_to_move[0] >= count:
        to_move = record.player_to_move[1]
    if to_move is None and count:
        to_move = BLACK + WHITE - record.moves[count - 1][0]
    setups = [event for event in record.later_setup if event[0] <= count]
    black, white = record.setup_black, record.setup_white
    try:
        if setups:
            black, white = _position_at(record, setups)
            moves = moves[setups[-1][0]:]
        first = moves[0][0] if moves else to_move
        if black or white:
            game.setup(black, white, to_move=first)
        elif first is not None:
            game.first_to_move = first
            game.board.to_move = first
    except (IllegalMove, GameError, ValueError) as exc:
        raise GameError(f'cannot load file: setup stones: {exc or "illegal"}') from exc
    offset = count - len(moves)
    for number, (color, move) in enumerate(moves, offset + 1):
        try:
            game.play(color, move)
        except (IllegalMove, GameError, ValueError) as exc:
            vertex = coords.to_gtp(move, game.size)
            who = 'B' if color == BLACK else 'W'
            raise GameError(f'cannot load file: move {number} ({who} {vertex}) is illegal'
                            f'{": " + str(exc) if str(exc) else ""}') from exc
    return game


def _position_at(record, setups):
    """(black, white) stones after the moves and setup nodes up to the last of `setups`."""
    board = Board(record.size, record.komi, superko=False)
    board.setup_stones(black=record.setup_black, white=record.setup_white)
    played = 0
    for before, black, white, empty in setups:
        for color, move in record.moves[played:before]:
            board.play(move, color)
        played = before
        stones = board.stones()
        position = {row * record.size + col: int(stones[row, col])
                    for row, col in zip(*stones.nonzero())}
        for p in empty:
            position.pop(p, None)
        position.update({p: BLACK for p in black})
        position.update({p: WHITE for p in white})
        board = Board(record.size, record.komi, superko=False)
        board.setup_stones(black=[p for p, c in position.items() if c == BLACK],
                           white=[p for p, c in position.items() if c == WHITE])
    stones = board.stones()
    black = [row * record.size + col for row, col in zip(*(stones == BLACK).nonzero())]
    white = [row * record.size + col for row, col in zip(*(stones == WHITE).nonzero())]
    return black, white
