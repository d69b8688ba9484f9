"""Time management: how long to think for the next move.

Keeps both players' clocks for the time systems GTP and KGS can announce
(none, absolute, Japanese byo-yomi, Canadian byo-yomi), lets the controller
correct them with `time_left`, and turns them into a per-move budget.

Budget policy, in the spirit of AlphaGo (Silver et al. 2016 spent more of its
main time in the middle game than in the opening or the endgame):

* the remaining main time is spread over the moves we still expect to play,
  each weighted by `move_weight` (a bump centred early in the middle game),
  so a middle-game move gets about three times an opening move's share;
* byo-yomi time can be used every move, so it is added on top: a whole
  period (Japanese) or the block divided by its stones (Canadian);
* a safety margin is always kept back for process start-up, network latency
  and GUI overhead;
* with no time limit the budget is fixed (`--time-per-move`, else
  DEFAULT_MOVE_TIME); with a time limit `--time-per-move` is only a cap.

All times are seconds (floats).
"""

import math
from dataclasses import dataclass

from goengine.search.limits import SearchLimits

NONE, ABSOLUTE, BYOYOMI, CANADIAN = 'none', 'absolute', 'byoyomi', 'canadian'

DEFAULT_MOVE_TIME = 5.0   # per move when there is no time limit and no --time-per-move
DEFAULT_MARGIN = 1.0      # seconds kept back from every deadline (lag buffer)
MIN_BUDGET = 0.0          # 0 means "move at once": players still make one network evaluation


@dataclass
class TimeSettings:
    """One time system. `periods` is Japanese byo-yomi's period count,
    `stones` Canadian byo-yomi's stones per block."""
    kind: str = NONE
    main_time: float = 0.0
    period_time: float = 0.0
    periods: int = 0
    stones: int = 0


@dataclass
class Clock:
    """What one player has left. While in main time `in_byoyomi` is False."""
    main_left: float = 0.0
    period_left: float = 0.0  # current Japanese period, or the Canadian block
    periods_left: int = 0     # Japanese only
    stones_left: int = 0      # Canadian only: stones still to play in the block
    in_byoyomi: bool = False


def expected_game_length(size):
    """Plies a game on this board usually lasts (about 270 on 19x19, 60 on 9x9)."""
    return max(10, int(0.75 * size * size))


def min_moves_left(size):
    """Own moves we always keep time for, even deep into the endgame (30 on 19x19)."""
    return max(10, size * size // 12)


def move_weight(ply, size):
    """Relative share of main time for the move at `ply` (0-based, both colours).

    0.5 in the opening and the endgame, rising to 1.5 around a third of the
    way into a typical game, where the fights that decide it usually are.
    """
    x = ply / expected_game_length(size)
    return 0.5 + math.exp(-((x - 0.35) / 0.2) ** 2)


def main_time_share(main_left, ply, size):
    """This move's weighted share of `main_left` over the moves still to play."""
    if main_left <= 0:
        return 0.0
    own_moves = max(min_moves_left(size), (expected_game_length(size) - ply + 1) // 2)
    total = sum(move_weight(ply + 2 * k, size) for k in range(own_moves))
    return main_left * move_weight(ply, size) / total


class TimeManager:
    """Clocks of both colours plus the budget rule (see the module docstring).

    Colours are any hashable keys (the GTP layer uses goengine.BLACK/WHITE).
    """

    def __init__(self, time_per_move=None, margin=DEFAULT_MARGIN, playouts=None):
        if time_per_move is not None and time_per_move <= 0:
            raise ValueError('time_per_move must be > 0')
        if margin < 0:
            raise ValueError('margin must be >= 0')
        if playouts is not None and playouts < 1:
            raise ValueError('playouts must be >= 1 (None: no limit)')
        self.time_per_move = time_per_move
        self.margin = margin
        self.playouts = playouts   # simulations a move at most (--playouts), or None
        self.settings = TimeSettings()
        self.clocks = {}

    # -- settings ---------------------------------------------------------

    def set_gtp(self, main_time, byo_yomi_time, byo_yomi_stones):
        """GTP `time_settings` (spec section 4.2): Canadian byo-yomi.

        byo_yomi_time > 0 with 0 stones means no time limit; byo_yomi_time 0
        means absolute time.
        """
        _check_nonnegative(main_time, byo_yomi_time, byo_yomi_stones)
        if byo_yomi_time > 0 and byo_yomi_stones == 0:
            self.set(TimeSettings(NONE))
        elif byo_yomi_time == 0:
            self.set(TimeSettings(ABSOLUTE, main_time))
        else:
            self.set(TimeSettings(CANADIAN, main_time, byo_yomi_time, 0, int(byo_yomi_stones)))

    def set_kgs(self, kind, *args):
        """KGS `kgs-time_settings none | absolute M | byoyomi M T P | canadian M T S`.

        Raises ValueError on an unknown kind or the wrong number of arguments.
        """
        arity = {NONE: 0, ABSOLUTE: 1, BYOYOMI: 3, CANADIAN: 3}
        if kind not in arity or len(args) != arity[kind]:
            raise ValueError(f'bad kgs-time_settings: {kind} {args}')
        _check_nonnegative(*args)
        if kind == NONE:
            self.set(TimeSettings(NONE))
        elif kind == ABSOLUTE:
            self.set(TimeSettings(ABSOLUTE, args[0]))
        elif kind == BYOYOMI:
            main, period, periods = args
            if period <= 0 or periods < 1:   # no usable byo-yomi: plain absolute time
                self.set(TimeSettings(ABSOLUTE, main))
            else:
                self.set(TimeSettings(BYOYOMI, main, period, int(periods), 0))
        else:
            main, block, stones = args
            if block <= 0 or stones < 1:
                self.set(TimeSettings(ABSOLUTE, main))
            else:
                self.set(TimeSettings(CANADIAN, main, block, 0, int(stones)))

    def set(self, settings):
        self.settings = settings
        self.reset()

    def reset(self):
        """Both clocks back to the full settings (a new game)."""
        self.clocks = {}

    def clock(self, color):
        if color not in self.clocks:
            s = self.settings
            self.clocks[color] = Clock(main_left=s.main_time, period_left=s.period_time,
                                       periods_left=s.periods, stones_left=s.stones,
                                       in_byoyomi=s.main_time <= 0 and s.kind in (BYOYOMI, CANADIAN))
        return self.clocks[color]

    @property
    def unlimited(self):
        return self.settings.kind == NONE

    # -- updates ----------------------------------------------------------

    def time_left(self, color, seconds, stones):
        """GTP/KGS `time_left`: stones == 0 means main time (or absolute).

        In byo-yomi, `seconds` is what is left of the current period/block and
        `stones` is the stones left in the Canadian block or, for Japanese
        byo-yomi (KGS), the periods left.
        """
        _check_nonnegative(seconds, stones)
        c = self.clock(color)
        kind = self.settings.kind
        if stones == 0 or kind in (NONE, ABSOLUTE):
            c.main_left, c.in_byoyomi = float(seconds), False
            if kind in (BYOYOMI, CANADIAN) and seconds == 0:
                self._enter_byoyomi(c)
        elif kind == BYOYOMI:
            c.main_left, c.in_byoyomi = 0.0, True
            c.period_left, c.periods_left = float(seconds), int(stones)
        else:
            c.main_left, c.in_byoyomi = 0.0, True
            c.period_left, c.stones_left = float(seconds), int(stones)

    def charge(self, color, elapsed):
        """Book `elapsed` seconds we spent on one move (when no time_left comes)."""
        c = self.clock(color)
        s = self.settings
        if s.kind == NONE or elapsed <= 0:
            return
        if not c.in_byoyomi:
            spent = min(c.main_left, elapsed)
            c.main_left -= spent
            elapsed -= spent
            if s.kind == ABSOLUTE or c.main_left > 0:
                return
            self._enter_byoyomi(c)
        if s.kind == BYOYOMI:
            # Each period used up in full is lost; a move inside a period resets it.
            lost = int(elapsed // s.period_time)
            c.periods_left = max(0, c.periods_left - lost)
            c.period_left = s.period_time
        else:
            c.period_left = max(0.0, c.period_left - elapsed)
            c.stones_left -= 1
            if c.stones_left <= 0:   # block done: a fresh one starts
                c.period_left, c.stones_left = s.period_time, s.stones

    def _enter_byoyomi(self, c):
        s = self.settings
        c.main_left, c.in_byoyomi = 0.0, True
        c.period_left = s.period_time
        if s.kind == CANADIAN:
            c.stones_left = s.stones

    # -- the budget -------------------------------------------------------

    def move_time(self, color, ply, size=19):
        """The SearchLimits of the move at `ply` (0-based) for `color`.

        desired: the weighted share of main time plus the byo-yomi usable on this
        move, within the clock less the margin and --time-per-move. maximum: twice
        that, within the same bounds; the same as desired without a game clock
        (every move has its fixed time) and in byo-yomi (a period cannot stretch).
        playouts: --playouts, if set."""
        desired = self._desired(color, ply, size)
        maximum = desired
        if not self.unlimited and not self.clock(color).in_byoyomi:
            _, hard = self._byoyomi_and_hard(self.clock(color))
            maximum = min(2.0 * desired, hard - self._margin(hard))
            if self.time_per_move:
                maximum = min(maximum, self.time_per_move)
        return SearchLimits(desired, max(desired, maximum), self.playouts)

    def _desired(self, color, ply, size):
        if self.unlimited:
            return self.time_per_move or DEFAULT_MOVE_TIME
        c = self.clock(color)
        share = 0.0 if c.in_byoyomi else main_time_share(c.main_left, ply, size)
        extra, hard = self._byoyomi_and_hard(c)
        budget = min(share + extra, hard - self._margin(hard))
        if self.time_per_move:
            budget = min(budget, self.time_per_move)
        return max(MIN_BUDGET, budget)

    def _byoyomi_and_hard(self, c):
        """(byo-yomi seconds usable on this move, the most this move can take) for clock c."""
        s = self.settings
        main = 0.0 if c.in_byoyomi else c.main_left
        if s.kind == ABSOLUTE:
            return 0.0, main
        if s.kind == BYOYOMI:
            period = c.period_left if c.in_byoyomi else s.period_time
            if c.in_byoyomi and c.periods_left <= 0:
                period = 0.0   # the controller says we are out of periods
            return period, main + period
        if c.in_byoyomi:
            return c.period_left / max(1, c.stones_left), c.period_left
        return s.period_time / max(1, s.stones), main + s.period_time

    def _margin(self, available):
        """The safety margin, shrunk on very short clocks so a budget remains."""
        return min(self.margin, 0.5 * available)


def _check_nonnegative(*values):
    for v in values:
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
            raise ValueError(f'time values must be finite and >= 0, got {v!r}')
