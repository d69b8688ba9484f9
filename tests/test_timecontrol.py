"""Time control arithmetic: settings, clock updates and the per-move budget."""

import pytest

from goengine.gtp.timecontrol import (ABSOLUTE, BYOYOMI, CANADIAN, DEFAULT_MOVE_TIME, MIN_BUDGET,
                                  NONE, TimeManager, expected_game_length, main_time_share,
                                  min_moves_left, move_weight)

B, W = 1, 2


def play_out(tm, color, size, plies, overhead=0.0):
    """Spend each move's full budget (plus `overhead`) on a clock without time_left.
    Returns the budgets."""
    budgets = []
    for ply in range(0, plies, 2):
        budget = tm.move_time(color, ply, size).desired
        budgets.append(budget)
        tm.charge(color, budget + overhead)
    return budgets


# -- the weighting ----------------------------------------------------------

def test_middle_game_gets_more_than_opening_and_endgame():
    n = expected_game_length(19)
    opening, middle, endgame = move_weight(0, 19), move_weight(int(0.35 * n), 19), move_weight(n, 19)
    assert middle > 2.5 * opening
    assert middle > 2.5 * endgame


def test_main_time_share_never_exceeds_what_is_left():
    for ply in range(0, 400, 7):
        share = main_time_share(100.0, ply, 19)
        assert 0 < share < 100.0 / min_moves_left(19) * 3
    assert main_time_share(0.0, 10, 19) == 0.0


# -- settings ---------------------------------------------------------------

def test_gtp_time_settings_interpretation():
    tm = TimeManager()
    tm.set_gtp(0, 10, 0)                 # spec 4.2: byo-yomi time, no stones = no limit
    assert tm.settings.kind == NONE and tm.unlimited
    tm.set_gtp(300, 0, 0)
    assert tm.settings.kind == ABSOLUTE and tm.settings.main_time == 300
    tm.set_gtp(300, 30, 5)
    assert (tm.settings.kind, tm.settings.period_time, tm.settings.stones) == (CANADIAN, 30, 5)


def test_kgs_time_settings():
    tm = TimeManager()
    tm.set_kgs('none')
    assert tm.unlimited
    tm.set_kgs('absolute', 600)
    assert tm.settings.kind == ABSOLUTE
    tm.set_kgs('byoyomi', 600, 30, 5)
    assert (tm.settings.kind, tm.settings.period_time, tm.settings.periods) == (BYOYOMI, 30, 5)
    tm.set_kgs('canadian', 600, 300, 25)
    assert (tm.settings.kind, tm.settings.stones) == (CANADIAN, 25)
    tm.set_kgs('byoyomi', 60, 0, 0)      # no usable byo-yomi: absolute
    assert tm.settings.kind == ABSOLUTE


@pytest.mark.parametrize('args', [('bogus',), ('absolute',), ('none', 5), ('byoyomi', 1, 2),
                                  ('canadian', 1, 2, 3, 4), ('absolute', -5),
                                  ('absolute', float('nan'))])
def test_kgs_time_settings_rejects_bad_input(args):
    tm = TimeManager()
    tm.set_kgs('absolute', 100)
    with pytest.raises(ValueError):
        tm.set_kgs(*args)
    assert tm.settings.kind == ABSOLUTE   # unchanged


def test_constructor_validation():
    with pytest.raises(ValueError):
        TimeManager(time_per_move=0)
    with pytest.raises(ValueError):
        TimeManager(margin=-1)


# -- budgets ----------------------------------------------------------------

def test_no_time_limit_uses_fixed_budget():
    assert TimeManager().move_time(B, 0).desired == DEFAULT_MOVE_TIME
    assert TimeManager(time_per_move=2.5).move_time(B, 100).desired == 2.5


def test_time_per_move_caps_a_timed_game():
    tm = TimeManager(time_per_move=1.0)
    tm.set_kgs('absolute', 3600)
    assert tm.move_time(B, 60).desired == 1.0


def test_absolute_time_never_runs_out():
    # Even a game twice the usual length: the share keeps shrinking geometrically.
    for size, main in ((19, 600), (19, 30), (9, 60), (13, 5)):
        tm = TimeManager(margin=0.5)
        tm.set_kgs('absolute', main)
        play_out(tm, B, size, 2 * expected_game_length(size), overhead=0.0)
        assert tm.clock(B).main_left > 0, (size, main)


def test_absolute_spends_more_in_the_middle_game():
    tm = TimeManager()
    tm.set_kgs('absolute', 1800)
    budgets = play_out(tm, B, 19, 300)
    n = expected_game_length(19)
    middle = budgets[int(0.35 * n) // 2]
    assert middle > 1.5 * budgets[0]
    assert middle > 1.5 * budgets[-1]


def test_japanese_byoyomi_in_main_time_adds_a_period():
    tm = TimeManager(margin=1.0)
    tm.set_kgs('byoyomi', 600, 30, 3)
    budget = tm.move_time(B, 50).desired
    assert budget >= 30 - 1.0
    assert budget <= main_time_share(600, 50, 19) + 30


def test_japanese_byoyomi_in_byoyomi_keeps_the_margin():
    tm = TimeManager(margin=1.0)
    tm.set_kgs('byoyomi', 600, 30, 3)
    tm.time_left(B, 30, 3)                # KGS: in byo-yomi, 3 periods of 30 s left
    assert tm.move_time(B, 200).desired == pytest.approx(29.0)
    tm.time_left(B, 4, 1)
    assert tm.move_time(B, 200).desired == pytest.approx(3.0)


def test_canadian_byoyomi_spreads_the_block():
    tm = TimeManager(margin=1.0)
    tm.set_gtp(0, 300, 25)               # only byo-yomi: 300 s per 25 stones
    assert tm.move_time(B, 0).desired == pytest.approx(12.0)
    tm.time_left(B, 60, 10)
    assert tm.move_time(B, 100).desired == pytest.approx(6.0)
    tm.time_left(B, 5, 1)                # last stone: keep the margin
    assert tm.move_time(B, 100).desired == pytest.approx(4.0)


def test_out_of_time_still_gives_minimum_budget():
    tm = TimeManager()
    tm.set_kgs('absolute', 100)
    tm.time_left(B, 0, 0)
    assert tm.move_time(B, 100).desired == MIN_BUDGET


def test_short_clock_shrinks_the_margin():
    tm = TimeManager(margin=5.0)
    tm.set_kgs('byoyomi', 0, 2, 1)
    assert 0.5 <= tm.move_time(B, 0).desired <= 2.0


# -- clock updates ------------------------------------------------------------

def test_charge_absolute_and_japanese_byoyomi():
    tm = TimeManager()
    tm.set_kgs('absolute', 10)
    tm.charge(B, 4)
    assert tm.clock(B).main_left == pytest.approx(6)
    assert tm.clock(W).main_left == 10       # clocks are per colour

    tm.set_kgs('byoyomi', 10, 5, 3)
    tm.charge(B, 8)
    assert tm.clock(B).main_left == pytest.approx(2) and not tm.clock(B).in_byoyomi
    tm.charge(B, 13)                         # 2 s main, then 11 s: two full periods lost
    c = tm.clock(B)
    assert c.in_byoyomi and c.periods_left == 1 and c.period_left == 5
    tm.charge(B, 4)                          # within the period: nothing lost
    assert tm.clock(B).periods_left == 1


def test_charge_canadian_blocks():
    tm = TimeManager()
    tm.set_kgs('canadian', 0, 30, 2)
    tm.charge(B, 10)
    c = tm.clock(B)
    assert (c.period_left, c.stones_left) == (20, 1)
    tm.charge(B, 10)                         # block complete: a fresh one
    assert (c.period_left, c.stones_left) == (30, 2)


def test_time_left_main_and_byoyomi():
    tm = TimeManager()
    tm.set_gtp(600, 60, 10)
    tm.time_left(W, 123, 0)
    assert tm.clock(W).main_left == 123 and not tm.clock(W).in_byoyomi
    tm.time_left(W, 45, 7)
    c = tm.clock(W)
    assert c.in_byoyomi and (c.period_left, c.stones_left) == (45, 7)
    with pytest.raises(ValueError):
        tm.time_left(W, -1, 0)


def test_new_settings_reset_clocks():
    tm = TimeManager()
    tm.set_kgs('absolute', 100)
    tm.charge(B, 50)
    tm.reset()
    assert tm.clock(B).main_left == 100


def test_limit_lets_an_unsure_search_go_on_but_never_past_the_clock():
    fixed = TimeManager(time_per_move=5)
    assert fixed.move_time(B, 100).maximum == fixed.move_time(B, 100).desired == 5      # no clock: a fixed time
    absolute = TimeManager(margin=1.0)
    absolute.set_gtp(300, 0, 0)
    budget = absolute.move_time(B, 60).desired
    assert absolute.move_time(B, 60).maximum == pytest.approx(2 * budget)
    absolute.time_left(B, 4, 0)                                     # almost out of time
    assert absolute.move_time(B, 60).maximum <= 4 - 1 + 1e-9
    capped = TimeManager(time_per_move=3)
    capped.set_gtp(600, 0, 0)
    assert capped.move_time(B, 60).maximum == 3
    japanese = TimeManager(margin=1.0)
    japanese.set_gtp(0, 30, 1)                                      # byo-yomi only
    japanese.charge(B, 0.1)
    assert japanese.move_time(B, 10).maximum == japanese.move_time(B, 10).desired          # a period is a period
