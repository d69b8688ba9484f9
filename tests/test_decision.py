"""goengine.players.decision: the one place where a ranking becomes the move we play."""

import numpy as np

from goengine import BLACK, PASS, WHITE
from goengine.game import coords
from goengine.game.moves import RESIGN
from goengine.game.state import GameState
from goengine.players.decision import Decision, legal_or_pass, opponent_passed, self_atari
from goengine.players.resign import ResignRule


def v(text, size=9):
    return coords.from_gtp(text, size)


def game_after(moves, size=9, komi=7.5):
    game = GameState(size, komi)
    for color, move in moves:
        game.play(color, move)
    return game


def test_no_sensible_move_is_a_pass_unless_the_count_loses_beyond_doubt():
    """A player with nothing sensible to play resigns a game its count loses beyond
    doubt (as it would answer the opponent's pass), whether or not the opponent passed;
    else, in cleanup, in the opening or where it never resigns, it passes."""
    late = game_after([(c, v(m)) for c, m in zip([BLACK, WHITE] * 8, 'a1 j9 a2 j8 a3 j7 a4 '
                                                'j6 a5 j5 a6 j4 a7 j3 a8 j2'.split())])
    none = np.zeros(81, dtype=bool)
    resigning = Decision(ResignRule(0.10))
    assert resigning.answer_to_pass(late, BLACK, none, False, WHITE) == RESIGN
    assert resigning.answer_to_pass(late, BLACK, none, False, None) == PASS
    assert resigning.answer_to_pass(late, BLACK, none, False, BLACK) == PASS
    assert resigning.answer_to_pass(late, BLACK, none, True, WHITE) == PASS
    assert resigning.answer_to_pass(GameState(9, 7.5), BLACK, none, False,
                                    WHITE) == PASS          # the opening
    assert Decision().answer_to_pass(late, BLACK, none, False, WHITE) == PASS


def test_the_count_is_asked_only_after_the_opponent_passed():
    game = game_after([(BLACK, v('e5'))])
    some = np.ones(81, dtype=bool)
    assert not Decision.needs_count(game, WHITE, False)
    assert Decision(ResignRule(0.10)).answer_to_pass(game, WHITE, some, False, None) is None
    assert Decision.needs_count(game_after([(BLACK, v('e5')), (BLACK, PASS)]), WHITE, False)


def test_the_count_answers_a_pass_outside_cleanup_only():
    moves = [(c, v(m)) for c, m in zip([BLACK, WHITE] * 8, 'a1 j9 a2 j8 a3 j7 a4 j6 a5 j5 '
                                      'a6 j4 a7 j3 a8 j2'.split())] + [(BLACK, v('b1')),
                                                                       (WHITE, PASS)]
    game = game_after(moves)
    some = np.ones(81, dtype=bool)
    resigning, never = Decision(ResignRule(0.10)), Decision(ResignRule(0.0))
    assert resigning.answer_to_pass(game, BLACK, some, False, BLACK) == PASS
    assert resigning.answer_to_pass(game, BLACK, some, False, WHITE) == RESIGN
    assert never.answer_to_pass(game, BLACK, some, False, WHITE) is None
    assert resigning.answer_to_pass(game, BLACK, some, False, None) is None
    assert not Decision.needs_count(game, BLACK, True)      # cleanup never counts
    assert resigning.answer_to_pass(game, BLACK, some, True, WHITE) is None


def test_the_ranking_gives_the_first_legal_move():
    game = game_after([(BLACK, v('e5'))])
    assert Decision().from_ranking(game, WHITE, [v('e5'), v('d4'), PASS], False) == v('d4')
    assert Decision().from_ranking(game, WHITE, [], False) == PASS


def test_a_pass_that_would_end_the_game_gives_way_to_a_move_that_is_no_self_atari():
    """White's a1 is held by Black's b1 and b2: a2 would leave a1-a2 one liberty."""
    game = game_after([(WHITE, v('a1')), (BLACK, v('b1')), (WHITE, v('j9')), (BLACK, v('b2')),
                       (WHITE, PASS), (BLACK, PASS)])
    assert opponent_passed(game, WHITE) and self_atari(game.board, v('a2'), WHITE)
    ranked = [PASS, v('a2'), v('e5')]
    assert Decision().from_ranking(game, WHITE, ranked, False) == v('e5')
    assert Decision().from_ranking(game, WHITE, ranked, True) == PASS   # cleanup: as ranked
    assert Decision().from_ranking(game, WHITE, [PASS, v('a2')], False) == PASS


def test_self_atari_is_read_from_the_board():
    game = game_after([(BLACK, v('b1')), (WHITE, v('a1'))])
    assert not self_atari(game.board, v('a2'), WHITE)       # a1-a2 keeps a3 and b2
    game = game_after([(BLACK, v('b1')), (WHITE, v('a1')), (BLACK, v('b2'))])
    assert self_atari(game.board, v('a2'), WHITE)           # a1-a2 with a3 alone


def test_the_root_refuses_a_pass_early_in_cleanup_and_never_after_the_opponents_pass():
    refuses = Decision.pass_barred
    early = GameState(9, 7.5)
    assert refuses(early, BLACK, False, 0.5) and refuses(early, BLACK, True, 0.5)
    passed = game_after([(BLACK, v('e5')), (WHITE, PASS)])
    assert not refuses(passed, BLACK, False, 0.5) and refuses(passed, BLACK, True, 0.5)
    own = game_after([(BLACK, v('e5')), (BLACK, PASS)])      # GTP lets a colour move twice
    assert refuses(own, BLACK, False, 0.5)                   # our own pass ends nothing
    late = game_after([(c, m) for c, m in zip([BLACK, WHITE] * 21, range(42))])
    assert late.move_number >= 40 and not refuses(late, BLACK, False, 0.5)
    assert refuses(late, BLACK, False, 0.6)                  # the ban's share of the board


def test_the_resign_rule_needs_an_estimate_and_a_threshold():
    late = game_after([(c, m) for c, m in zip([BLACK, WHITE] * 10, range(20))])
    assert Decision(ResignRule(0.10)).should_resign(late, BLACK, 0.05)
    assert not Decision(ResignRule(0.10)).should_resign(late, BLACK, None)
    assert not Decision(ResignRule(0.0)).should_resign(late, BLACK, 0.0)


def test_an_illegal_move_becomes_a_pass_with_one_line():
    game = game_after([(BLACK, v('e5'))])
    lines = []
    assert legal_or_pass(game.board, WHITE, v('e5'), lines.append) == PASS and len(lines) == 1
    assert legal_or_pass(game.board, WHITE, RESIGN, lines.append) == RESIGN
    assert legal_or_pass(game.board, WHITE, v('d4'), lines.append) == v('d4') and len(lines) == 1
