"""The GTP layer: protocol details, every command's happy and error paths,
undo, handicap, SGF round trips, analysis streams, a fuzz run and the
gtp_main.py process."""

import os
import random
import shutil
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from sgfmill import sgf

from goengine import BLACK, PASS, WHITE
from goengine.game import coords
from goengine.programs import engine_spec
from goengine.programs.engine_spec import PlayerKind, load_player
from goengine.search.limits import Barred
from goengine.rollout import scoring
from goengine.game.state import GameState
from goengine.gtp.engine import GtpEngine
from goengine.gtp.analyze import format_lz_info
from goengine.gtp.protocol import parse_command, preprocess
from goengine.players.mcts_player import MCTSPlayer
from goengine.game.moves import MoveInfo
from goengine.players.policy_player import PolicyPlayer, SimplePlayer
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.players.decision import Decision
from goengine.players.resign import ResignRule
from goengine.nn import on_planes
from harness.gnugo import GnuGo
from tests.test_ladders_gnugo import GNUGO

REPO = Path(__file__).resolve().parent.parent
GTP_MAIN = REPO / 'gtp_main.py'

# A complete response: '=' or '?', optional id, then either ' text' or a
# newline-started multi-line text, no empty line inside, one empty line after.
RESPONSE = re.compile(r'^[=?](\d*)( [^\n]*|)(\n[^\n]+)*\n\n\Z')

REQUIRED = ['protocol_version', 'name', 'version', 'known_command', 'list_commands', 'quit',
            'boardsize', 'clear_board', 'komi', 'play', 'genmove']
OURS = REQUIRED + ['undo', 'showboard', 'fixed_handicap', 'place_free_handicap',
                   'set_free_handicap', 'final_score', 'final_status_list', 'time_settings',
                   'time_left', 'loadsgf', 'printsgf', 'reg_genmove', 'cputime',
                   'kgs-time_settings', 'kgs-genmove_cleanup', 'kgs-game_over', 'kgs-rules',
                   'lz-analyze', 'lz-genmove_analyze', 'gogui-analyze_commands']


def make_engine(size=9, player=None, score_playouts=8, **kw):
    """An engine on a random player; its scorer plays `score_playouts` light playouts."""
    player = player or SimplePlayer(seed=1, scorer=scoring.Scorer(playouts=score_playouts))
    return GtpEngine(player, GameState(size), log=lambda m: None, **kw)


@pytest.fixture
def e():
    return make_engine()


def ok(engine, line):
    """Run a line that must succeed; return the response text after '= '."""
    response = engine.handle(line)
    assert RESPONSE.match(response), repr(response)
    assert response.startswith('='), f'{line!r} -> {response!r}'
    return response[1:].lstrip('0123456789').strip('\n').removeprefix(' ')


def fail(engine, line, message=None):
    """Run a line that must fail without changing the game; return the message."""
    before = state(engine)
    response = engine.handle(line)
    assert RESPONSE.match(response), repr(response)
    assert response.startswith('?'), f'{line!r} -> {response!r}'
    assert state(engine) == before, line
    text = response[1:].lstrip('0123456789').strip()
    if message is not None:
        assert text == message, f'{line!r}: {text!r}'
    return text


def state(engine):
    g = engine.game
    b = g.board
    return (g.size, g.komi, g.ruleset, tuple(g.moves), tuple(g.setup_black),
            tuple(g.setup_white), b.to_move, b.stones().tobytes(), b.captures(BLACK),
            b.captures(WHITE), b.ko)


def consistent(engine):
    """The live board equals a replay of setup + moves (undo's invariant)."""
    g = engine.game
    replay = g._replay(g.moves)
    return (np.array_equal(replay.stones(), g.board.stones()) and replay.to_move == g.board.to_move
            and g.board.size == g.size)


def play_all(engine, moves):
    for m in moves.split():
        color, vertex = m.split(':') if ':' in m else (None, m)
        ok(engine, f'play {color or "BW"[engine.game.to_move - 1]} {vertex}')


# -- protocol details -----------------------------------------------------

def test_preprocess_and_parse():
    assert preprocess('  name  ') == 'name'
    assert preprocess('\tna\x01me\r') == 'name'
    assert preprocess('boardsize\t9') == 'boardsize 9'
    assert preprocess('# just a comment') is None
    assert preprocess('   \t ') is None
    assert preprocess('\x00\x1b') is None
    cmd = parse_command('42 PLAY b D4 # comment')
    assert (cmd.id, cmd.name, cmd.args) == (42, 'play', ['b', 'D4'])
    assert parse_command('7').name == ''
    assert parse_command('loadsgf /Tmp/Game.SGF').args == ['/Tmp/Game.SGF']   # args keep case


def test_ids_are_echoed(e):
    assert e.handle('17 name') == '=17 goengine\n\n'
    assert e.handle('3 bogus_command') == '?3 unknown command\n\n'
    assert e.handle('0 protocol_version') == '=0 2\n\n'
    assert e.handle('name') == '= goengine\n\n'
    assert e.handle('5') == '?5 missing command\n\n'


def test_empty_and_comment_lines_get_no_response(e):
    for line in ['', '   ', '\t', '# comment', '   # indented comment', '\x01\x02']:
        assert e.handle(line) == ''


def test_comments_tabs_control_characters_case(e):
    assert e.handle('name # what is your name') == '= goengine\n\n'
    assert e.handle('1\tname') == '=1 goengine\n\n'
    assert e.handle('na\x7fme\r') == '= goengine\n\n'
    assert e.handle('NAME') == '= goengine\n\n'
    ok(e, 'Play BLACK d4')
    ok(e, 'play White e5')
    assert e.game.moves == [(BLACK, coords.from_gtp('D4', 9)), (WHITE, coords.from_gtp('E5', 9))]


def test_every_response_is_well_formed(e):
    lines = ['showboard', 'list_commands', 'gogui-analyze_commands', 'printsgf',
             'final_score', 'bogus', 'play b', '9 showboard']
    for line in lines:
        assert RESPONSE.match(e.handle(line))


# -- administrative commands -------------------------------------------

def test_admin_commands(e):
    assert ok(e, 'protocol_version') == '2'
    assert ok(e, 'name') == 'goengine'
    assert ok(e, 'version')
    listed = ok(e, 'list_commands').split('\n')
    for name in OURS:
        assert name in listed
        assert ok(e, f'known_command {name}') == 'true'
    assert ok(e, 'known_command frobnicate') == 'false'
    fail(e, 'known_command', 'syntax error')
    assert not e.quit_requested
    assert e.handle('quit') == '= \n\n'
    assert e.quit_requested


# -- setup commands -------------------------------------------------------

def test_boardsize_and_clear_board(e):
    play_all(e, 'D4 E5')
    ok(e, 'boardsize 13')
    assert e.game.size == 13 and e.game.is_empty()
    ok(e, 'play b m13')
    ok(e, 'clear_board')
    assert e.game.is_empty() and e.game.size == 13
    ok(e, 'boardsize 25')
    ok(e, 'boardsize 2')


@pytest.mark.parametrize('line,message', [
    ('boardsize 0', 'unacceptable size'), ('boardsize 1', 'unacceptable size'),
    ('boardsize 26', 'unacceptable size'), ('boardsize -9', 'unacceptable size'),
    ('boardsize abc', 'syntax error'), ('boardsize', 'syntax error'),
    ('boardsize 9 9', 'syntax error'), ('boardsize 9.5', 'syntax error')])
def test_boardsize_errors(e, line, message):
    play_all(e, 'C3')
    fail(e, line, message)


def test_komi(e):
    ok(e, 'komi 6.5')
    assert e.game.komi == 6.5 and e.game.board.komi == 6.5
    ok(e, 'komi -3')
    ok(e, 'komi 1000')     # must accept even ridiculous komi
    assert e.game.komi == 1000
    for bad in ['komi', 'komi abc', 'komi nan', 'komi inf', 'komi 1 2']:
        fail(e, bad, 'syntax error')


def test_fixed_handicap_placement():
    e = make_engine(19)
    assert ok(e, 'fixed_handicap 2') == 'D4 Q16'
    assert e.game.to_move == WHITE and e.game.moves == []
    expected = {3: 'D4 Q16 D16', 4: 'D4 Q16 D16 Q4', 5: 'D4 Q16 D16 Q4 K10',
                6: 'D4 Q16 D16 Q4 D10 Q10', 7: 'D4 Q16 D16 Q4 D10 Q10 K10',
                8: 'D4 Q16 D16 Q4 D10 Q10 K4 K16', 9: 'D4 Q16 D16 Q4 D10 Q10 K4 K16 K10'}
    for n, vertices in expected.items():
        ok(e, 'clear_board')
        assert set(ok(e, f'fixed_handicap {n}').split()) == set(vertices.split())
    e9 = make_engine(9)
    assert set(ok(e9, 'fixed_handicap 4').split()) == {'C3', 'G7', 'C7', 'G3'}


def test_fixed_handicap_errors():
    e = make_engine(19)
    for bad in ['fixed_handicap 1', 'fixed_handicap 10', 'fixed_handicap 0']:
        fail(e, bad, 'invalid number of stones')
    fail(e, 'fixed_handicap x', 'syntax error')
    fail(e, 'fixed_handicap', 'syntax error')
    play_all(e, 'D4')
    fail(e, 'fixed_handicap 2', 'board not empty')
    e8 = make_engine(8)
    ok(e8, 'fixed_handicap 4')
    ok(e8, 'clear_board')
    fail(e8, 'fixed_handicap 5', 'invalid number of stones')
    fail(make_engine(5), 'fixed_handicap 2', 'invalid number of stones')


def test_place_free_handicap(e):
    vertices = ok(e, 'place_free_handicap 12').split()
    assert len(vertices) == len(set(vertices)) == 12
    assert 'pass' not in vertices
    assert e.game.handicap == 12 and e.game.to_move == WHITE
    assert int(e.game.board.stones().astype(bool).sum()) == 12
    fail(e, 'place_free_handicap 2', 'board not empty')
    ok(e, 'clear_board')
    fail(e, 'place_free_handicap 1', 'invalid number of stones')
    fail(e, 'place_free_handicap 81', 'invalid number of stones')
    assert len(ok(e, 'place_free_handicap 80').split()) == 80


def test_set_free_handicap(e):
    ok(e, 'set_free_handicap c3 G7 e5')
    assert e.game.handicap == 3 and e.game.to_move == WHITE
    ok(e, 'play w d4')
    fail(e, 'set_free_handicap a1 a2', 'board not empty')
    ok(e, 'clear_board')
    fail(e, 'set_free_handicap a1', 'bad vertex list')
    fail(e, 'set_free_handicap a1 a1', 'bad vertex list')
    fail(e, 'set_free_handicap a1 pass', 'bad vertex list')
    fail(e, 'set_free_handicap a1 z9', 'syntax error')
    fail(e, 'set_free_handicap', 'syntax error')


def test_kgs_rules(e):
    ok(e, 'kgs-rules japanese')
    assert e.game.ruleset == 'japanese' and not e.game.board.superko
    ok(e, 'kgs-rules chinese')
    assert e.game.board.superko
    fail(e, 'kgs-rules klingon')
    fail(e, 'kgs-rules', 'syntax error')


# -- play, undo, genmove --------------------------------------------------

def test_play_and_errors(e):
    ok(e, 'play b d4')
    ok(e, 'play b e4')           # same colour twice is fine for the protocol
    ok(e, 'play w pass')
    fail(e, 'play w d4', 'illegal move')       # occupied
    for bad in ['play', 'play b', 'play x d4', 'play b z4', 'play b d99', 'play b d0',
                'play b resign', 'play b d4 e5', 'play b i5', 'play b 44']:
        fail(e, bad, 'syntax error')


def test_suicide_and_ko_are_illegal():
    e = make_engine(9)
    play_all(e, 'B:b1 W:pass B:a2 W:pass')
    fail(e, 'play w a1', 'illegal move')    # suicide
    ok(e, 'clear_board')
    play_all(e, 'B:c5 W:d5 B:d4 W:e4 B:d6 W:e6 B:pass W:f5 B:e5')   # black takes d5: a ko
    assert e.game.board.stones()[4, 3] == 0
    fail(e, 'play w d5', 'illegal move')                           # immediate retake


def test_undo_restores_captures_and_history(e):
    play_all(e, 'B:d5 W:e5 B:e4 W:pass B:f5 W:pass')
    before = state(e)
    play_all(e, 'B:e6')                           # captures e5
    assert e.game.board.captures(BLACK) == 1
    ok(e, 'undo')
    assert state(e) == before
    for _ in range(6):
        ok(e, 'undo')
    assert e.game.moves == [] and e.game.to_move == BLACK
    fail(e, 'undo', 'cannot undo')


def test_undo_never_removes_handicap(e):
    ok(e, 'fixed_handicap 2')
    play_all(e, 'W:e5')
    ok(e, 'undo')
    assert e.game.handicap == 2 and e.game.to_move == WHITE
    fail(e, 'undo', 'cannot undo')


def test_handicap_compensation_follows_the_rules(e):
    ok(e, 'komi 0.5')
    ok(e, 'fixed_handicap 3')
    assert e.game.board.komi == 3.5              # Chinese: a point a stone
    assert ok(e, 'final_score') == 'B+77.5'      # 81 - 0.5 - 3
    for rules, komi in [('aga', 2.5), ('tromp-taylor', 0.5), ('new_zealand', 0.5),
                        ('japanese', 3.5), ('chinese', 3.5)]:
        ok(e, f'kgs-rules {rules}')
        assert e.game.board.komi == komi, rules
    play_all(e, 'W:e5 B:c5')
    ok(e, 'undo')
    assert e.game.board.komi == 3.5 and e.game.copy().board.komi == 3.5
    ok(e, 'komi 6.5')
    assert e.game.board.komi == 9.5 and e.game.komi == 6.5
    assert 'komi 6.5' in ok(e, 'showboard')      # the announced komi, not the count's
    ok(e, 'clear_board')
    assert e.game.board.komi == 6.5              # no stones, no compensation


def test_genmove_plays_a_legal_move(e):
    for color in 'bwbwbw':
        vertex = ok(e, f'genmove {color}')
        move = coords.from_gtp(vertex, 9)
        assert e.game.moves[-1] == ({'b': BLACK, 'w': WHITE}[color], move)
    assert len(e.game.moves) == 6
    fail(e, 'genmove', 'syntax error')
    fail(e, 'genmove purple', 'syntax error')


def test_reg_genmove_does_not_play(e):
    before = state(e)
    vertex = ok(e, 'reg_genmove b')
    assert coords.from_gtp(vertex, 9) != PASS
    assert state(e) == before


def test_genmove_passes_when_only_own_eyes_remain():
    e = make_engine(3)
    ok(e, 'set_free_handicap a2 b2 c2 b1 b3')    # empty corners are black eyes
    assert ok(e, 'genmove b') == 'pass'
    assert ok(e, 'genmove w') == 'pass'          # every white move is suicide


def settled_walls():
    """A finished 9x9 board, no dame: Black fills columns A-E and White F-J, each but
    for four one-point eyes; Black's 45 points against White's 36 win by 1.5 at komi 7.5."""
    eyes = {'B2', 'B4', 'B6', 'B8', 'H2', 'H4', 'H6', 'H8'}
    return ' '.join(f'{"B" if col in "ABCDE" else "W"}:{col}{row}'
                    for col in 'ABCDEFGHJ' for row in range(1, 10) if f'{col}{row}' not in eyes)


def test_genmove_answers_a_pass_when_winning_beyond_doubt(e):
    play_all(e, settled_walls() + ' W:pass')
    assert ok(e, 'final_score') == 'B+1.5'
    assert ok(e, 'genmove b') == 'pass'


def test_genmove_plays_on_after_a_pass_on_an_unsettled_board(e):
    """One stone on an empty board wins by area, but nearly every point is in doubt:
    the game is not over, so a pass is not answered with a pass."""
    play_all(e, 'B:e5 W:pass')
    assert ok(e, 'genmove b') != 'pass'
    ok(e, 'undo')
    assert ok(e, 'kgs-genmove_cleanup b') != 'pass'    # cleanup never passes early


def test_showboard(e):
    play_all(e, 'D4 E5')
    text = ok(e, 'showboard')
    assert 'A B C D E F G H J' in text and ' 9 ' in text and ' 1 ' in text
    assert '(O)' in text and 'X' in text
    assert '\n\n' not in e.handle('showboard')[:-2]


# -- scoring --------------------------------------------------------------

def test_final_score_empty_board(e):
    assert ok(e, 'final_score') == 'W+7.5'
    ok(e, 'komi 0')
    assert ok(e, 'final_score') == '0'
    ok(e, 'komi -2.5')
    assert ok(e, 'final_score') == 'B+2.5'


def test_final_status_list_on_a_finished_game():
    # Black owns A-E, White F-J; each has one dead stone in the other's area.
    e = make_engine(9, score_playouts=scoring.DEFAULT_PLAYOUTS)
    walls = ' '.join(f'B:e{i} W:f{i}' for i in range(1, 10))
    play_all(e, walls + ' B:h5 W:b5')
    assert ok(e, 'final_status_list dead').split() == ['B5', 'H5']
    alive = ok(e, 'final_status_list alive').split()
    assert len(alive) == 18 and 'E5' in alive and 'F5' in alive
    assert ok(e, 'final_status_list seki') == ''
    assert ok(e, 'final_score') == 'B+1.5'      # 45 - 36 - 7.5
    fail(e, 'final_status_list', 'syntax error')
    fail(e, 'final_status_list undead', 'syntax error')


# A 9x9 seki on the top edge: Black B9 A8 B8 C8 (eye A9) and White D9 D8 E8 F8
# F9 (eye E9) share the liberty C9; Black owns the right, White the left.
SEKI_BLACK = 'B9 A8 B8 C8 D7 D6 D5 D4 D3 D2 D1 E7 F7 G7 G8 G9'
SEKI_WHITE = 'D9 D8 E8 F8 F9 A7 B7 C7 C6 C5 C4 C3 C2 C1'


def test_final_status_list_reports_a_seki():
    e = make_engine(9, score_playouts=scoring.DEFAULT_PLAYOUTS)
    play_all(e, ' '.join(f'B:{v}' for v in SEKI_BLACK.split()) + ' '
             + ' '.join(f'W:{v}' for v in SEKI_WHITE.split()))
    in_seki = 'A8 B8 C8 D8 E8 F8 B9 D9 F9'.split()
    assert ok(e, 'final_status_list seki').split() == in_seki
    assert ok(e, 'final_status_list dead') == ''
    alive = ok(e, 'final_status_list alive').split()
    assert len(alive) == 30 - len(in_seki) and not set(alive) & set(in_seki)
    # Black 53 points (its seki stones and eye included), White 27, C9 nobody's.
    assert ok(e, 'final_score') == 'B+18.5'


class FixedOwnership:
    """A stand-in rollout policy: Black owns columns A-E, White the rest."""
    def __init__(self):
        self.calls = 0

    def ownership(self, board, playouts, seed):
        self.calls += 1
        own = np.full((board.size, board.size), -1.0)
        own[:, :5] = 1.0
        return own


def test_scoring_uses_the_players_rollout_policy():
    judge = FixedOwnership()
    player = SimplePlayer(seed=1, scorer=scoring.Scorer(judge, playouts=8))
    e = make_engine(9, player=player)
    play_all(e, ' '.join(f'B:e{i} W:f{i}' for i in range(1, 10)) + ' B:h5 W:b5')
    assert ok(e, 'final_status_list dead').split() == ['B5', 'H5']
    assert ok(e, 'final_score') == 'B+1.5'       # 45 - 36 - 7.5
    assert judge.calls == 1       # cached for the same position


def test_search_player_scores_with_its_rollout_policy():
    from goengine.programs import loading
    from goengine.rollout import rollout_weights
    from goengine.rollout._rollout import RolloutPolicy
    player = load_player(PlayerKind.SEARCH, None, rollout=loading.load_rollout(
        rollout_weights.DEFAULT_PATH), log=lambda m: None)
    try:
        assert isinstance(player.scorer.rollout, RolloutPolicy)
        assert player.scorer.rollout.weights().any()      # the trained file, not uniform()
    finally:
        player.close()


# -- time -------------------------------------------------------------------

def test_time_commands(e):
    ok(e, 'time_settings 300 30 5')
    assert e.clock.settings.kind == 'canadian'
    ok(e, 'time_left b 120 0')
    assert e.clock.clock(BLACK).main_left == 120
    ok(e, 'time_left white 25 3')
    assert e.clock.clock(WHITE).in_byoyomi
    ok(e, 'kgs-time_settings byoyomi 600 30 5')
    assert e.clock.settings.periods == 5
    ok(e, 'kgs-time_settings none')
    assert e.clock.unlimited
    ok(e, 'kgs-time_settings absolute 60')
    assert float(ok(e, 'cputime')) >= 0
    for bad in ['time_settings', 'time_settings 1 2', 'time_settings -1 0 0',
                'time_settings a b c', 'time_left x 10 0', 'time_left b -1 0',
                'time_left b 10', 'kgs-time_settings', 'kgs-time_settings fischer 1 2',
                'kgs-time_settings byoyomi 1 2', 'kgs-time_settings absolute x']:
        fail(e, bad, 'syntax error')


def test_clear_board_restarts_the_clocks(e):
    ok(e, 'kgs-time_settings absolute 60')
    ok(e, 'time_left b 5 0')
    ok(e, 'clear_board')
    assert e.clock.clock(BLACK).main_left == 60


def test_genmove_charges_our_clock(e):
    ok(e, 'kgs-time_settings absolute 60')
    ok(e, 'genmove b')
    assert e.clock.clock(BLACK).main_left < 60


# -- SGF ----------------------------------------------------------------------

def test_printsgf_loadsgf_roundtrip(e, tmp_path):
    ok(e, 'komi 6.5')
    ok(e, 'fixed_handicap 2')
    play_all(e, 'W:e5 B:d5 W:pass B:f5 W:e4 B:e6 W:a1 B:e3')
    path = tmp_path / 'game.sgf'
    ok(e, f'printsgf {path}')
    saved = state(e)
    ok(e, 'boardsize 13')
    ok(e, f'loadsgf {path}')
    assert state(e) == saved
    assert e.game.handicap == 2
    ok(e, 'undo')                                   # history came back too
    assert len(e.game.moves) == 7


def test_printsgf_to_stdout_parses(e):
    play_all(e, 'D4 E5 pass')
    text = ok(e, 'printsgf')
    game = sgf.Sgf_game.from_string(text)
    assert game.get_size() == 9 and game.get_komi() == 7.5
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert moves == [('b', (3, 3)), ('w', (4, 4)), ('b', None)]


def test_loadsgf_move_number(e, tmp_path):
    path = tmp_path / 'g.sgf'
    path.write_text('(;FF[4]GM[1]SZ[9]KM[5.5];B[ee];W[cc];B[gg];W[cg])')
    ok(e, f'loadsgf {path} 3')
    assert [vertex for _, vertex in e.game.moves] == [coords.from_sgf('ee', 9),
                                                        coords.from_sgf('cc', 9)]
    assert e.game.komi == 5.5 and e.game.to_move == BLACK
    ok(e, f'loadsgf {path} 1')
    assert e.game.moves == [] and e.game.to_move == BLACK
    ok(e, f'loadsgf {path} 100')
    assert len(e.game.moves) == 4
    ok(e, f'loadsgf {path}')
    assert len(e.game.moves) == 4 and e.game.to_move == BLACK


def sgfmill_position(text, move_number=None):
    """The independent reference: sgfmill plays the main line's setup and moves,
    up to the position before move_number; {(row, col): 'b'/'w'}."""
    from sgfmill import boards
    game = sgf.Sgf_game.from_string(text)
    board, played = boards.Board(game.get_size()), 0
    for node in game.get_main_sequence():
        black, white, empty = node.get_setup_stones()
        colour, move = node.get_move()
        if colour is not None and move_number is not None and played + 1 >= move_number:
            break
        board.apply_setup(black, white, empty)
        if colour is not None:
            played += 1
            if move is not None:
                board.play(move[0], move[1], colour)
    return {(r, c): colour for colour, (r, c) in board.list_occupied_points()}


def our_position(engine):
    stones = engine.game.board.stones()
    return {(int(r), int(c)): 'b' if stones[r, c] == BLACK else 'w'
            for r, c in zip(*stones.nonzero())}


def test_loadsgf_takes_every_ff4_setup(e, tmp_path):
    """Setup stones after the root (AB/AW/AE), PL[] and HA[] load as GNU Go and GoGui
    load them; the board matches sgfmill's replay of the same record."""
    records = {
        # a problem: stones and the side to move, no moves
        'problem.sgf': ('(;FF[4]GM[1]SZ[9]AB[cc][dc][ec]AW[cd][dd]PL[W])', None, WHITE),
        # setup in a node of its own before the first move, with AE
        'setup-node.sgf': ('(;FF[4]GM[1]SZ[9];AB[ee][gg]AW[cc][ff];AE[gg];W[dd];B[cf])',
                           None, WHITE),
        # handicap with HA[], White moves first
        'handicap.sgf': ('(;FF[4]GM[1]SZ[9]HA[2]KM[0.5]AB[cc][gg];W[ee];B[ge])', None, WHITE),
        # setup in the middle of the game: stones added and removed after moves
        'mid-game.sgf': ('(;FF[4]GM[1]SZ[9];B[ee];W[cc];AB[gg]AE[cc];W[dg];B[cg]PL[W])',
                         None, WHITE),
        'mid-game-cut.sgf': ('(;FF[4]GM[1]SZ[9];B[ee];W[cc];AB[gg]AE[cc];W[dg];B[cg])', 4, BLACK),
        'before-setup.sgf': ('(;FF[4]GM[1]SZ[9];B[ee];W[cc];AB[gg]AE[cc];W[dg];B[cg])', 2, WHITE),
    }
    for name, (text, move_number, to_move) in records.items():
        path = tmp_path / name
        path.write_text(text)
        ok(e, f'loadsgf {path}' + (f' {move_number}' if move_number else ''))
        assert our_position(e) == sgfmill_position(text, move_number), name
        assert e.game.to_move == to_move, name
    ok(e, f'loadsgf {tmp_path / "handicap.sgf"}')
    assert e.game.handicap == 2 and e.game.komi == 0.5
    ok(e, 'undo')
    ok(e, 'undo')                       # both moves are history; the handicap is the setup
    assert our_position(e) == sgfmill_position(records['handicap.sgf'][0], 1)
    ok(e, f'loadsgf {tmp_path / "mid-game.sgf"}')
    assert len(e.game.moves) == 2       # the moves after the last setup node
    ok(e, 'genmove w')


def test_loadsgf_errors_leave_state_unchanged(e, tmp_path):
    play_all(e, 'D4 E5')
    broken = {
        'garbage.sgf': 'this is not sgf',
        'illegal.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[ee])',
        'huge.sgf': '(;FF[4]GM[1]SZ[30];B[aa])',
        'truncated.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[',
        'empty.sgf': '',
    }
    for name, text in broken.items():
        (tmp_path / name).write_text(text)
        fail(e, f'loadsgf {tmp_path / name}', 'cannot load file')
    fail(e, f'loadsgf {tmp_path / "missing.sgf"}', 'cannot load file')
    fail(e, f'loadsgf {tmp_path}', 'cannot load file')            # a directory
    fail(e, 'loadsgf', 'syntax error')
    fail(e, f'loadsgf {tmp_path / "garbage.sgf"} x', 'syntax error')
    fail(e, f'printsgf {tmp_path / "no" / "such" / "dir.sgf"}')


def test_loadsgf_komi_sizes_and_reasons(tmp_path):
    """A record without KM keeps the controller's komi (as GNU Go does); a KM that is no
    number is passed over with one line and the moves load; SZ[25] loads as boardsize 25
    does, SZ[26] is refused as boardsize 26 is; every refusal's log line says why."""
    lines = []
    e = GtpEngine(SimplePlayer(seed=1), GameState(9), log=lines.append)
    records = {'nokm.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[cc])',
               'badkm.sgf': '(;FF[4]GM[1]SZ[9]KM[abc];B[ee];W[cc])',
               'sz25.sgf': '(;FF[4]GM[1]SZ[25]KM[6.5];B[mm])',
               'sz26.sgf': '(;FF[4]GM[1]SZ[26];B[mm])',
               'offboard.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[jj])',
               'occupied.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[ee])'}
    for name, text in records.items():
        (tmp_path / name).write_text(text)
    ok(e, 'komi 5.5')
    ok(e, f'loadsgf {tmp_path / "nokm.sgf"}')
    assert e.game.komi == 5.5 and len(e.game.moves) == 2
    ok(e, 'komi 3')
    lines.clear()
    ok(e, f'loadsgf {tmp_path / "badkm.sgf"}')
    assert e.game.komi == 3 and len(e.game.moves) == 2
    assert lines == [f'goengine: loadsgf {tmp_path / "badkm.sgf"}: KM[abc] is not a number: ignored; '
                     'komi stays 3']
    ok(e, f'loadsgf {tmp_path / "sz25.sgf"}')
    assert e.game.size == 25 and e.game.komi == 6.5
    ok(e, 'boardsize 25')
    fail(e, 'boardsize 26', 'unacceptable size')
    reasons = {'sz26.sgf': 'board size 26', 'offboard.sgf': 'off the 9x9 board',
               'occupied.sgf': 'move 2 (W E5) is illegal'}
    for name, reason in reasons.items():
        lines.clear()
        fail(e, f'loadsgf {tmp_path / name}', 'cannot load file')
        assert len(lines) == 1 and reason in lines[0], (name, lines)


def test_version_is_the_projects_and_passes_lizzies_check(e):
    """Lizzie splits `version` at the dots and wants the minor number 15 or more."""
    import goengine
    assert ok(e, 'version') == goengine.__version__
    assert int(goengine.__version__.split('.')[1]) >= 15


def sigint_as_at_a_terminal():
    """The child's SIGINT at its default, as a terminal starts it: a test run in the
    background (bash's `&`) hands its children SIGINT ignored, and Python then never
    raises KeyboardInterrupt."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_never_prints_a_traceback():
    """SIGINT while the networks load, and while GTP is served: one line or none, status
    130, no traceback."""
    import signal
    import time
    for delay in (0.3, 2.0):
        proc = subprocess.Popen([sys.executable, str(GTP_MAIN), '--network', 'small'],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=REPO,
                                preexec_fn=sigint_as_at_a_terminal)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130 and 'Traceback' not in err, (delay, err)



CTRL_C_CHILD = """
import signal, sys, time
from goengine.programs.interrupt import ctrl_c_exits_at_once
from goengine.search.limits import Barred
with ctrl_c_exits_at_once('child: interrupted'):
    try:
        print('loading', flush=True)
        time.sleep(30)
    except BaseException as exc:      # as torch's C++ would turn one into a C++ exception
        print('raised', type(exc).__name__, flush=True)
        sys.exit(5)
try:
    print('loaded', flush=True)      # the parent's SIGINT may come at once
    time.sleep(30)
except KeyboardInterrupt:
    print('KeyboardInterrupt', flush=True)
"""


def test_ctrl_c_while_loading_ends_the_process_without_raising_anything():
    """Inside the block no code sees an exception, the process just ends (status 130, one
    line); after it, Ctrl-C is a KeyboardInterrupt again."""
    import signal
    proc = subprocess.Popen([sys.executable, '-c', CTRL_C_CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=sigint_as_at_a_terminal)
    assert proc.stdout.readline() == 'loading\n'
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out, err) == (130, '', 'child: interrupted\n')
    after = CTRL_C_CHILD.replace("time.sleep(30)\n    except BaseException", "pass\n    except BaseException", 1)
    proc = subprocess.Popen([sys.executable, '-c', after], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=sigint_as_at_a_terminal)
    assert proc.stdout.readline() == 'loading\n' and proc.stdout.readline() == 'loaded\n'
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert (proc.returncode, out) == (0, 'KeyboardInterrupt\n'), err

# -- analysis -------------------------------------------------------------------

LZ_ENTRY = re.compile(r'info move (\S+) visits (\d+) winrate (\d+) prior (\d+) lcb (\d+) '
                      r'order (\d+) pv ((?:\S+ ?)+?)(?= info |$)')


def parse_lz_line(line):
    entries = LZ_ENTRY.findall(line)
    assert entries and line.startswith('info move ')
    for order, (move, visits, winrate, prior, lcb, k, pv) in enumerate(entries):
        assert int(k) == order and pv.split()[0] == move
        assert 0 <= int(winrate) <= 10000 and 0 <= int(prior) <= 10000 and 0 <= int(lcb) <= 10000
    return entries


def test_format_lz_info():
    infos = [MoveInfo(coords.from_gtp('D4', 19), 10, 0.4812, 0.1234, 0.46,
                      [coords.from_gtp('D4', 19), coords.from_gtp('Q16', 19)]),
             MoveInfo(PASS, 1, 1.5, -0.1, 0.0, [])]
    assert format_lz_info(infos, 19) == (
        'info move D4 visits 10 winrate 4812 prior 1234 lcb 4600 order 0 pv D4 Q16 '
        'info move pass visits 1 winrate 10000 prior 0 lcb 0 order 1 pv pass')


def test_lz_analyze_until_interrupted(e):
    e.interrupt.set()                      # input already pending: one report, then stop
    response = e.handle('5 lz-analyze b 10')
    head, *lines, blank, end = response.split('\n')
    assert head == '=5' and blank == '' and end == ''
    assert len(lines) == 1
    parse_lz_line(lines[0])
    assert e.game.moves == []


def test_lz_analyze_streams_every_interval(e):
    chunks = []
    e.write = chunks.append
    threading.Timer(0.35, e.interrupt.set).start()
    response = e.handle('lz-analyze w interval 5 minmoves 2')
    lines = response.split('\n')
    assert lines[0] == '=' and response.endswith('\n\n')
    assert len(lines) - 3 >= 3             # several reports in 0.35 s at 50 ms
    assert ''.join(chunks) == response and len(chunks) > 3   # written as it went


def test_lz_analyze_argument_errors(e):
    for bad in ['lz-analyze b x', 'lz-analyze interval', 'lz-analyze b 10 avoid b d4',
                'lz-analyze b 10 avoid x d4 1', 'lz-analyze b 10 avoid b z99 1',
                'lz-analyze b 10 allow b d4 0', 'lz-analyze 10 20', 'lz-analyze purple',
                'kata-analyze b 10 ownership maybe']:
        fail(e, bad, 'syntax error')


def reported_moves(e, line):
    """The moves of the one report an analysis command gives when input is pending."""
    e.interrupt.set()
    response = e.handle(line)
    return set(re.findall(r'info move (\S+)', response.split('\n')[1]))


def test_lz_analyze_avoid_and_allow_as_leela_zero_and_lizzie_send_them(e):
    """Leela Zero 0.17's forms: avoid bars the listed moves, allow bars all others, for
    the colour named, up to the depth given; several clauses add up."""
    first = sorted(reported_moves(e, 'lz-analyze b 10'))
    assert len(first) == 10
    some, more = ','.join(first[:3]).lower(), first[3].lower()
    avoided = reported_moves(e, f'lz-analyze b 10 avoid b {some} 1 avoid b {more} 1')
    assert len(avoided) == 10 and not avoided & set(first[:4])
    assert reported_moves(e, f'lz-analyze b 10 avoid w {some} 1') == set(first)  # not Black's
    assert reported_moves(e, 'lz-analyze b 10 allow b e5,c3 1') == {'E5', 'C3'}
    assert reported_moves(e, 'kata-analyze b 10 allow b e5 1 ownership false') == {'E5'}


def test_avoid_reaches_the_plies_below_the_root_in_the_search():
    """avoid w c3 2: White may not answer at C3 one ply down, while Black still may play
    C3 at the root; below depth 2 the restriction ends."""
    from goengine.search.search import Search
    search = Search(config=SearchConfig(mixing=1.0, expand_threshold=1, sim_threads=1))
    game = GameState(9, 7.5)
    c3, e5 = coords.from_gtp('C3', 9), coords.from_gtp('E5', 9)
    search.set_position(game, BLACK, barred=Barred(True, plies={(WHITE, c3): 2, (BLACK, e5): 1}))
    search.run(SearchLimits(30.0, playouts=3000))
    root = search.tree.children()
    visits = dict(zip(root['move'].tolist(), root['n_r'].tolist()))
    assert visits[e5] == 0 and visits[c3] > 0
    replies = 0
    for node, n in zip(root['node'].tolist(), root['n_r'].tolist()):
        if n > 1:
            below = search.tree.children(node)
            replies += int(below['n_r'].sum())
            assert dict(zip(below['move'].tolist(), below['n_r'].tolist())).get(c3, 0) == 0
    assert replies > 100
    assert e5 not in [info.move for info in search.result().candidates]
    search.set_position(game, BLACK, barred=Barred(True))      # genmove's: no plies barred
    assert search.tree.barred_at_root(BLACK) == []


def test_kata_analyze_reports_fractions_and_ownership_for_the_side_to_move(e):
    """kata-analyze W 10 ownership true: KataGo's format, and the scorer's ownership from
    White's view with rows from the top, checked against scoring.ownership itself."""
    play_all(e, 'B:e5 W:c3 B:g7')
    threading.Timer(0.3, e.interrupt.set).start()
    response = e.handle('kata-analyze W 10 ownership true')
    lines = [line for line in response.split('\n') if line.startswith('info ')]
    assert response.startswith('=\n') and response.endswith('\n\n') and lines
    info, _, values = lines[-1].partition(' ownership ')
    for entry in re.split(r' (?=info move)', info):
        assert re.fullmatch(r'info move [A-HJ]\d visits \d+ winrate [01]\.\d{6} '
                            r'(scoreLead -?\d+\.\d\d )?prior [01]\.\d{6} '
                            r'lcb [01]\.\d{6} order \d+ pv( [A-HJ]\d| pass)+', entry), entry
    own = [float(v) for v in values.split()]
    assert len(own) == 81 and all(-1 <= v <= 1 for v in own)
    expected = e.scorer.ownership(e.game.board_for(WHITE))   # black +1
    assert own[0] == pytest.approx(-expected[8, 0], abs=1e-4)        # A9, the top-left point
    assert own[4 * 9 + 4] == pytest.approx(-expected[4, 4], abs=1e-4) and own[4 * 9 + 4] < 0
    assert own[6 * 9 + 2] == pytest.approx(-expected[2, 2], abs=1e-4) and own[6 * 9 + 2] > 0
    e.interrupt.clear()
    threading.Timer(0.2, e.interrupt.set).start()
    plain = e.handle('kata-analyze b 10')
    assert 'info move' in plain and 'ownership' not in plain
    for bad in ['kata-analyze b 10 ownership maybe', 'kata-analyze b 10 ownership',
                'kata-analyze b 10 rootInfo maybe', 'kata-analyze b 10 colour true']:
        e.interrupt.clear()
        fail(e, bad, 'syntax error')


def test_kata_analyze_score_lead_matches_gnugos_count():
    """A searching player's kata-analyze gives each move's scoreLead for the side to move;
    on a board with nothing left to play it is the count itself, which GNU Go's
    final_score (area rules) confirms."""
    from tests.test_search import settled_game
    engine = make_engine(player=MCTSPlayer(config=SearchConfig(mixing=1.0, sim_threads=1)))
    engine.game = settled_game(WHITE)
    threading.Timer(0.5, engine.interrupt.set).start()
    response = engine.handle('kata-analyze W 10')
    leads = re.findall(r'winrate [01]\.\d{6} scoreLead (-?\d+\.\d\d) prior', response)
    assert leads and set(leads) == {'-1.50'}, response
    engine.player.close()
    if GNUGO is None:
        pytest.skip('GNU Go is not installed')
    gnugo = GnuGo(GNUGO, ('--chinese-rules',))
    try:
        gnugo.send('komi 7.5')
        gnugo.set_position(settled_game(WHITE).board)
        assert gnugo.send('final_score') == 'B+1.5'
    finally:
        gnugo.close()


def test_lz_genmove_analyze(e):
    e.interrupt.set()
    response = e.handle('lz-genmove_analyze b 10')
    lines = response.split('\n')
    assert lines[0] == '=' and lines[-3].startswith('play ') and lines[-2:] == ['', '']
    parse_lz_line(lines[1])
    move = coords.from_gtp(lines[-3].split()[1], 9)
    assert e.game.moves == [(BLACK, move)]


def test_gogui_analyze_commands(e):
    lines = ok(e, 'gogui-analyze_commands').split('\n')
    assert len(lines) >= 5
    types = {line.split('/')[0] for line in lines}
    assert {'gfx', 'dboard', 'string'} <= types
    for line in lines:
        kind, label, cmd = line.split('/', 2)
        assert kind in ('gfx', 'dboard', 'sboard', 'string', 'plist', 'cboard') and label
        assert ok(e, f'known_command {cmd.split()[0]}') == 'true'
    # GoGui fills in %c with the colour picked in its dialog: both must work.
    coloured = [line.split('/', 2)[2] for line in lines if line.endswith(' %c')]
    assert any(cmd.startswith('goengine-ladder') for cmd in coloured)
    for cmd in coloured:
        if cmd.startswith('goengine-ladder'):
            for colour in ('b', 'w'):
                assert ok(e, cmd.replace('%c', colour)).startswith(('SQUARE', 'TEXT'))


def test_gogui_without_networks(e):
    fail(e, 'goengine-policy_heatmap')
    fail(e, 'goengine-policy_dboard')
    fail(e, 'goengine-value')


def test_gogui_ladder_planes(e):
    play_all(e, 'W:c3 B:b3 B:c2 B:d4 W:a9')              # white c3 can be laddered
    text = ok(e, 'goengine-ladder_captures')
    board = e.game.board
    expected = sorted(coords.to_gtp(m, 9) for m in board.legal_moves(BLACK)
                      if m != PASS and board.is_ladder_capture(m, BLACK))
    assert expected
    square = [line for line in text.split('\n') if line.startswith('SQUARE ')][0]
    assert sorted(square.split()[1:]) == expected
    assert 'TEXT' in ok(e, 'goengine-ladder_escapes w')
    fail(e, 'goengine-ladder_captures x', 'syntax error')


class PonderRecorder(SimplePlayer):
    def __init__(self):
        super().__init__()
        self.pondered = []

    def ponder(self, game, interrupt):
        self.pondered.append(len(game.moves))
        assert interrupt.wait(5)            # returns once the next command is pending


def test_ponder_after_our_move_only():
    player = PonderRecorder()
    e = make_engine(9, player, ponder=True)
    e.interrupt.set()
    ok(e, 'play b e5')
    e.idle()
    assert player.pondered == []            # the opponent's move: nothing to ponder
    ok(e, 'genmove w')
    e.idle()
    assert player.pondered == [2]
    e2 = make_engine(9, PonderRecorder())   # --ponder not given
    ok(e2, 'genmove b')
    e2.idle()
    assert e2.player.pondered == []


# -- the policy network player -------------------------------------------------

class FixedValue:
    """A stand-in value evaluator with a fixed opinion (v in [-1, 1]), answering as
    NetworkEvaluator.evaluate does."""

    def __init__(self, v):
        self.v = v

    def describe(self):
        from goengine.nn.inference import NetworkInfo
        return NetworkInfo('value', ('value',), 49, 9, 'cpu', 'torch')

    def evaluate(self, boards, komi):
        from goengine.nn.inference import Outputs
        return Outputs(value=np.full(len(boards), self.v, np.float32))


@pytest.fixture(scope='module')
def tiny_policy():
    from goengine.nn import inference, nets
    torch = pytest.importorskip('torch')
    torch.manual_seed(0)
    model = nets.PolicyNet(filters=4, layers=2, board_size=9)
    return inference.NetworkEvaluator(model, threads=0)


def test_policy_player_plays_most_probable_sensible_move(tiny_policy):
    player = PolicyPlayer(tiny_policy, log=lambda m: None)
    e = make_engine(9, player)
    probs = player.answers.policy(e.game, BLACK)
    assert probs.shape == (81,) and abs(float(probs.sum()) - 1) < 1e-4
    vertex = ok(e, 'genmove b')
    assert coords.from_gtp(vertex, 9) == int(np.argmax(probs))
    heat = ok(e, 'goengine-policy_heatmap')
    assert heat.startswith('INFLUENCE ') and 'TEXT policy best' in heat
    rows = ok(e, 'goengine-policy_dboard').split('\n')
    assert len(rows) == 9 and all(len(r.split()) == 9 for r in rows)
    assert max(float(x) for r in rows for x in r.split()) == 1.0


def test_policy_player_with_a_temperature_samples_sensible_moves(tiny_policy):
    greedy = PolicyPlayer(tiny_policy, log=lambda m: None)
    e = make_engine(9, greedy)
    ok(e, 'play b E5')
    ok(e, 'play w D5')
    probs = greedy.answers.policy(e.game, BLACK)
    mask = probs > 0
    assert not mask[coords.from_gtp('e5', 9)] and not mask[coords.from_gtp('d5', 9)]
    # A tiny temperature is greedy; T = 1 follows the network's probabilities.
    cold = PolicyPlayer(tiny_policy, log=lambda m: None, temperature=1e-3, seed=1)
    assert cold.ranking(probs, mask) == [int(np.argmax(probs))]
    warm = PolicyPlayer(tiny_policy, log=lambda m: None, temperature=1.0, seed=1)
    draws = 20000
    counts = np.bincount([warm.ranking(probs, mask)[0] for _ in range(draws)], minlength=81)
    assert counts[~mask].sum() == 0
    expected = probs * draws
    assert np.all(np.abs(counts - expected) <= 5 * np.sqrt(expected) + 1)
    # T = 2 flattens: the most probable move is picked less often than at T = 1.
    hot = PolicyPlayer(tiny_policy, log=lambda m: None, temperature=2.0, seed=1)
    top = int(np.argmax(probs))
    assert sum(hot.ranking(probs, mask)[0] == top for _ in range(draws)) < counts[top]
    with pytest.raises(ValueError):
        PolicyPlayer(tiny_policy, log=lambda m: None, temperature=-1)
    e = make_engine(9, warm)                        # through GTP: a legal move, every time
    for _ in range(6):
        coords.from_gtp(ok(e, f'genmove {"bw"[e.game.to_move - 1]}'), 9)


def test_policy_player_on_other_board_sizes_falls_back(tiny_policy):
    notes = []
    e = make_engine(13, PolicyPlayer(tiny_policy, log=notes.append))
    coords.from_gtp(ok(e, 'genmove b'), 13)
    assert notes and '9x9' in notes[0]
    fail(e, 'goengine-policy_heatmap')


def test_resign_only_after_the_opening(tiny_policy):
    player = PolicyPlayer(tiny_policy, FixedValue(-0.9), resign_threshold=0.10,
                          log=lambda m: None)      # win rate 5 %
    e = make_engine(9, player)
    assert ok(e, 'genmove b') != 'resign'          # opening: never
    while e.game.move_number < 14:
        assert ok(e, f'genmove {"bw"[e.game.to_move - 1]}') not in ('resign', 'pass')
    before = state(e)
    assert ok(e, 'genmove b') == 'resign'
    assert state(e) == before                      # resigning plays nothing
    assert 'win rate 5.0%' in ok(e, 'goengine-value')
    player.decision = Decision(ResignRule(0))      # --resign-threshold 0 disables
    assert ok(e, 'genmove b') != 'resign'


def test_value_estimates_in_analysis(tiny_policy):
    player = PolicyPlayer(tiny_policy, FixedValue(0.5), log=lambda m: None)
    e = make_engine(9, player)
    e.interrupt.set()
    line = e.handle('lz-analyze b 10').split('\n')[1]
    # The child positions are worth +0.5 to the opponent, so 25 % to us.
    assert all(int(w) == 2500 for _, _, w, *_ in parse_lz_line(line))


# -- robustness -------------------------------------------------------------------

COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
JUNK = ['', 'x', '-1', '1e9', 'nan', 'resign', 'i5', 'a0', 'z99', '#', '\t', '\x00', '\r',
        '\x1b[A', 'é', '"', '%s', '99999999999999999999']


def random_vertex(rng, size):
    if rng.random() < 0.05:
        return rng.choice(['pass', 'PASS', rng.choice(JUNK)])
    return f'{rng.choice(COLUMNS[:size])}{rng.randint(1, size)}'.lower() if rng.random() < 0.5 \
        else f'{rng.choice(COLUMNS[:size])}{rng.randint(1, size)}'


def random_args(rng, name, size, tmp_path):
    """Mostly well-typed arguments for `name`, so the fuzz reaches deep into handlers."""
    color = lambda: rng.choice(['b', 'w', 'B', 'white', 'black', 'W'])  # noqa: E731
    num = lambda a, b: str(rng.randint(a, b))                          # noqa: E731
    table = {
        'play': lambda: [color(), random_vertex(rng, size)],
        'genmove': lambda: [color()], 'reg_genmove': lambda: [color()],
        'kgs-genmove_cleanup': lambda: [color()],
        'lz-genmove_analyze': lambda: [color(), num(0, 50)],
        'lz-analyze': lambda: rng.choice([[], [color()], [num(0, 50)], [color(), num(0, 50)],
                                          ['interval', num(1, 50)]]),
        'boardsize': lambda: [rng.choice([num(2, 13), num(2, 13), num(2, 13), num(14, 25),
                                          num(-3, 1), num(26, 40)])],
        'komi': lambda: [rng.choice(['6.5', '7.5', '0', '-3.5', num(-100, 100)])],
        'fixed_handicap': lambda: [num(0, 12)], 'place_free_handicap': lambda: [num(0, 30)],
        'set_free_handicap': lambda: [random_vertex(rng, size) for _ in range(rng.randint(0, 6))],
        'final_status_list': lambda: [rng.choice(['alive', 'dead', 'seki', 'DEAD', 'zombie'])],
        'time_settings': lambda: [num(0, 600), num(0, 60), num(0, 25)],
        'time_left': lambda: [color(), num(0, 600), num(0, 25)],
        'kgs-time_settings': lambda: rng.choice([['none'], ['absolute', num(0, 600)],
                                                 ['byoyomi', num(0, 600), num(0, 60), num(0, 5)],
                                                 ['canadian', num(0, 600), num(0, 300), num(0, 25)]]),
        'loadsgf': lambda: rng.choice([[str(tmp_path / 'fuzz.sgf')],
                                       [str(tmp_path / 'fuzz.sgf'), num(0, 5)],
                                       [str(tmp_path / 'broken.sgf')], ['/no/such/file']]),
        'printsgf': lambda: rng.choice([[], [str(tmp_path / 'out.sgf')]]),
        'known_command': lambda: [rng.choice(['play', 'frob', 'lz-analyze', 'PLAY'])],
        'kgs-rules': lambda: [rng.choice(['chinese', 'japanese', 'aga', 'new_zealand', 'x'])],
        'goengine-ladder_captures': lambda: rng.choice([[], [color()]]),
        'goengine-ladder_escapes': lambda: rng.choice([[], [color()]]),
    }
    args = table.get(name, lambda: [])()
    if rng.random() < 0.15 and name not in ('printsgf', 'loadsgf'):   # corrupt (never file names:
        args = list(args)                                             # printsgf would write them)
        if args and rng.random() < 0.5:
            args[rng.randrange(len(args))] = rng.choice(JUNK)
        else:
            args.append(rng.choice(JUNK))
    return args


def random_line(rng, size, tmp_path):
    """One fuzz input line: noise, or a (possibly corrupted) command with an id, comment..."""
    if rng.random() < 0.06:
        return ''.join(chr(rng.randrange(0, 300)) for _ in range(rng.randrange(0, 30)))
    names = list(OURS) + ['goengine-ladder_captures', 'goengine-ladder_escapes', 'goengine-value',
                          'bogus', ''] 
    names.remove('quit')
    r = rng.random()
    name = 'play' if r < 0.4 else 'genmove' if r < 0.5 else 'undo' if r < 0.55 else rng.choice(names)
    parts = [name] + random_args(rng, name, size, tmp_path)
    if rng.random() < 0.1:
        parts[0] = parts[0].upper()
    if rng.random() < 0.3:
        parts.insert(0, str(rng.randrange(0, 10 ** rng.randrange(1, 12))))
    line = rng.choice([' ', '  ', '\t']).join(parts)
    if rng.random() < 0.1:
        line += ' # ' + rng.choice(JUNK)
    if rng.random() < 0.05:
        i = rng.randrange(len(line) + 1)
        line = line[:i] + rng.choice(['\x01', '\x7f', '\r', '\t', '\x1b']) + line[i:]
    return line


def test_fuzz_random_and_malformed_lines(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)           # whatever a command writes lands here
    rng = random.Random(2024)
    e = make_engine(9, score_playouts=2)
    e.interrupt.set()                     # streaming commands report once and stop
    (tmp_path / 'fuzz.sgf').write_text('(;FF[4]GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[dd];W[])')
    (tmp_path / 'broken.sgf').write_text('(;FF[4]GM[1]SZ[9];B[ee];W[ee])')
    answered = succeeded = 0
    for i in range(10_000):
        line = random_line(rng, e.game.size, tmp_path)
        response = e.handle(line)
        if preprocess(line) is None:
            assert response == '', repr(line)
            continue
        answered += 1
        succeeded += response.startswith('=')
        assert response.endswith('\n\n') and response[0] in '=?', (line, response)
        assert '\n\n' not in response[:-2], (line, response)
        cmd = parse_command(line)
        head = response.split('\n', 1)[0]
        prefix = response[0] + ('' if cmd.id is None else str(cmd.id))
        assert head == prefix or head.startswith(prefix + ' '), (line, response)
        assert 'internal error' not in response, (line, response)
        if i % 20 == 0 or cmd.name == 'undo':
            assert consistent(e), line
        if e.game.is_over() or len(e.game.moves) > 150:
            e.handle('clear_board')
    assert answered > 9000 and succeeded > 3000
    assert sorted(os.listdir(tmp_path)) == ['broken.sgf', 'fuzz.sgf', 'out.sgf']


# -- the gtp_main.py process ------------------------------------------------------

def run_main(args, stdin, timeout=60):
    return subprocess.run([sys.executable, str(GTP_MAIN), *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)


def responses(stdout):
    parts = stdout.split('\n\n')
    assert parts[-1] == ''
    return parts[:-1]


def first_move_on_9x9(args):
    """gtp_main with `args` answers boardsize 9, clear_board and genmove b, exiting
    cleanly with a move on the board: the process result."""
    result = run_main(args, 'boardsize 9\nclear_board\ngenmove b\n')
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r'= [A-HJ]\d', responses(result.stdout)[2])
    return result


def help_examples():
    """The command lines under 'examples:' in gtp_main.py --help, comments cut."""
    text = run_main(['--help'], '').stdout
    lines = text.split('examples:', 1)[1].strip().splitlines()
    return [shlex.split(line.split('#')[0])[2:] for line in lines]


def test_every_example_in_the_help_runs_as_written():
    """Each example starts, plays a move on 9x9 in a second and quits cleanly."""
    examples = help_examples()
    assert len(examples) >= 4 and ['--weights', 'none', '--verbose'] in examples
    for args in examples:
        args = args + ['--time-per-move', '1']
        result = run_main(args, 'boardsize 9\nclear_board\ngenmove b\nquit\n', timeout=120)
        assert result.returncode == 0, (args, result.stderr)
        replies = responses(result.stdout)
        assert len(replies) == 4 and all(r.startswith('=') for r in replies), (args, replies)


def test_every_terminal_example_in_the_readme_runs_as_written():
    """The README's 'Playing in a terminal' commands start and answer GTP (--help: prints
    its help)."""
    readme = (REPO / 'README.md').read_text()
    block = readme.split('## Playing in a terminal', 1)[1].split('```sh', 1)[1].split('```', 1)[0]
    commands = [shlex.split(line.split('#')[0]) for line in block.strip().splitlines()]
    assert len(commands) >= 3
    for command in commands:
        assert command[:2] == ['.venv/bin/python', 'gtp_main.py'], command
        result = run_main(command[2:], 'boardsize 9\nclear_board\nname\nquit\n')
        assert result.returncode == 0, (command, result.stderr)
        if '--help' in command:
            assert 'usage: gtp_main.py' in result.stdout
        else:
            assert [r[:1] for r in responses(result.stdout)] == ['='] * 4, (command, result.stdout)


def test_main_with_weights_none_over_stdin():
    script = '\n'.join(['1 name', 'boardsize 9', 'clear_board', 'komi 6.5', '2 genmove b',
                        'play w e5', 'bogus', '# comment', '', '3 showboard', 'final_score',
                        'undo', '4 quit', 'name']) + '\n'
    result = run_main(['--weights', 'none'], script)
    assert result.returncode == 0, result.stderr
    out = responses(result.stdout)
    assert out[0] == '=1 goengine'
    assert out[4].startswith('=2 ')
    assert out[6] == '? unknown command'
    assert out[7].startswith('=3\n')
    assert out[-1] == '=4 '               # quit answers, then nothing more
    assert len(out) == 11


def test_main_eof_ends_cleanly():
    result = run_main(['--weights', 'none'], 'name\nprotocol_version')   # no final newline
    assert result.returncode == 0
    assert responses(result.stdout) == ['= goengine', '= 2']


def test_main_missing_weights(tmp_path):
    result = run_main(['--weights', str(tmp_path / 'nope.pt')], 'name\n')
    assert result.returncode == 2 and result.stdout == ''
    assert 'nope.pt' in result.stderr and 'no such file' in result.stderr


def test_main_corrupt_weights(tmp_path):
    bad = tmp_path / 'bad.pt'
    bad.write_bytes(b'not a network')
    result = run_main(['--weights', str(bad)], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and 'bad.pt' in result.stderr


def test_main_temperature_needs_the_policy_player():
    result = run_main(['--weights', 'none', '--temperature', '1'], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and '--policy-only' in result.stderr
    result = run_main(['--weights', 'none', '--policy-only', '--temperature', '-1'], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and 'must be >= 0' in result.stderr


def test_main_help_explains_flags():
    result = run_main(['--help'], '')
    assert result.returncode == 0
    for flag in ['--weights', '--value-weights', '--rollout-weights', '--threads', '--playouts',
                 '--visits', '--time-per-move', '--ponder', '--resign-threshold', '--verbose',
                 '--lambda']:
        assert flag in result.stdout


def test_main_with_a_policy_network(tmp_path):
    torch = pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    torch.manual_seed(0)
    path = tmp_path / 'tiny.pt'
    netfile.save_network(path, nets.PolicyNet(filters=4, layers=2, board_size=9))
    result = run_main(['--weights', str(path), '--threads', '1'],
                      'boardsize 9\nclear_board\ngenmove b\ngoengine-policy_heatmap\n')
    assert result.returncode == 0, result.stderr
    out = responses(result.stdout)
    assert re.fullmatch(r'= [A-HJ]\d', out[2]) and out[3].startswith('= INFLUENCE ')


def test_main_lambda_needs_a_value_network(tmp_path):
    torch = pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    torch.manual_seed(0)
    policy, value = tmp_path / 'p.pt', tmp_path / 'v.pt'
    netfile.save_network(policy, nets.PolicyNet(filters=4, layers=2, board_size=9))
    result = run_main(['--weights', str(policy), '--lambda', '0.5'], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and 'value network' in result.stderr
    result = run_main(['--weights', str(policy), '--lambda', '1.5'], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and '[0, 1]' in result.stderr
    netfile.save_network(value, nets.ValueNet(filters=4, layers=2, board_size=9, hidden=8))
    first_move_on_9x9(['--weights', str(policy), '--value-weights', str(value), '--lambda', '0',
                       '--threads', '1', '--playouts', '50'])


def test_main_lambda_takes_the_value_of_a_four_headed_file(tmp_path):
    """A four-headed network's value head is a value network: --lambda 0 is accepted."""
    torch = pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    torch.manual_seed(0)
    path = tmp_path / 'heads.pt'
    netfile.save_network(path, nets.HeadsNet(filters=4, layers=2, board_size=9))
    first_move_on_9x9(['--weights', str(path), '--lambda', '0', '--threads', '1',
                       '--playouts', '30'])


def test_network_names_pick_the_shipped_file_by_device(monkeypatch):
    """--network auto: the small network on a CPU without native bf16, the large one on
    an accelerator and on a CPU with it; a --weights file (or 'none') always wins; no
    network at all: the default weights; no flag: auto."""
    from goengine.programs import loading
    small, large = loading.NETWORKS['small'], loading.NETWORKS['large']
    for native_bf16, auto_on_cpu in ((False, small), (True, large)):
        monkeypatch.setattr(loading, 'cpu_has_native_bf16', lambda: native_bf16)
        assert loading.chosen_weights(None, 'auto', 'cpu') == auto_on_cpu
        for device in ('cuda', 'cuda:1', 'mps'):
            assert loading.chosen_weights(None, 'auto', device) == large
        assert loading.chosen_weights(None, 'large', 'cpu') == large
        assert loading.chosen_weights(None, 'small', 'cuda') == small
        assert loading.chosen_weights('my.pt', 'auto', 'cuda') == 'my.pt'
        assert loading.chosen_weights('none', 'small', 'cpu') == 'none'
        assert loading.chosen_weights(None, None, 'cpu') == loading.DEFAULT_WEIGHTS
        import gtp_main
        args = gtp_main.build_parser().parse_args(['--device', 'cpu'])   # as a user starts it
        assert loading.chosen_weights(args.weights, args.network, args.device) == auto_on_cpu
    for path in (small, large):
        assert (REPO / path).is_file(), path


def test_policy_only_plays_the_rl_policy_unless_a_network_is_named():
    """--policy-only with no network named loads the RL policy; a --weights file or a
    --network name wins over it, the search keeps the SL network, and every --strength
    level keeps the network it was measured with."""
    from goengine.players import strength
    from goengine.programs import gtp_main, loading
    rl = loading.POLICY_ONLY_WEIGHTS
    assert (REPO / rl).is_file()

    def chosen(*argv):
        args = gtp_main.build_parser().parse_args(['--device', 'cpu', *argv])
        if args.strength:
            assert gtp_main.apply_strength(args) is None
        return loading.chosen_weights(args.weights, args.network, args.device,
                                      args.policy_only)

    assert chosen('--policy-only') == rl == chosen('--policy-only', '--temperature', '1')
    assert chosen('--policy-only', '--network', 'large') == loading.NETWORKS['large']
    assert chosen('--policy-only', '--network', 'small') == loading.NETWORKS['small']
    assert chosen('--policy-only', '--weights', 'my.pt') == 'my.pt'
    assert chosen() != rl
    for level in strength.LEVELS:
        assert chosen('--strength', level.rank) == loading.NETWORKS[strength.LEVEL_NETWORK]


def test_the_small_network_brings_its_expand_threshold(monkeypatch):
    """The small network searches with n_thr's floor at 3 (as it was measured), the large
    one and a named file with AlphaGo's 40; --search and --expand-threshold win over it."""
    import gtp_main
    from goengine.programs import loading
    monkeypatch.setattr(loading, 'cpu_has_native_bf16', lambda: False)

    def floor(*argv):
        return engine_spec.search_config(gtp_main.build_parser().parse_args(
            ['--device', 'cpu', *argv])).expand_threshold

    assert floor('--network', 'small') == 3 == floor('--network', 'auto') == floor()
    assert floor('--network', 'large') == 40 == floor('--weights', 'my.pt')
    assert floor('--network', 'small', '--search', 'expand_threshold=7') == 7
    assert floor('--network', 'small', '--expand-threshold', '9',
                 '--search', 'expand_threshold=7') == 9
    assert floor('--network', 'small', '--search', 'c_puct=2') == 3
    assert floor('--network', 'large', '--search', 'c_puct=2') == 40
    monkeypatch.setattr(loading, 'cpu_has_native_bf16', lambda: True)
    assert floor('--network', 'auto') == 40 == floor()


def test_main_network_flag_loads_the_shipped_network():
    """--network small loads weights/heads-k96.pt, four heads on one trunk; a name that
    ships no network is one clear error."""
    pytest.importorskip('torch')
    result = run_main(['--network', 'small', '--device', 'cpu', '--precision', 'fp32',   # apv
                       '--playouts', '20', '--verbose'],
                      'boardsize 19\nclear_board\ngenmove b\n', timeout=120)
    assert result.returncode == 0, result.stderr
    assert 'heads-k96.pt: one network, heads policy, value, ownership, score' in result.stderr
    assert 'the apv search, settings expand_threshold=3\n' in result.stderr
    assert re.fullmatch(r'= [A-HJ-T]\d+', responses(result.stdout)[2])
    result = run_main(['--network', 'huge'], 'name\n')
    assert result.returncode == 2 and result.stdout == '' and '--network' in result.stderr


def test_weights_sl_pt_is_the_full_engine():
    """`gtp_main.py --weights weights/sl.pt` loads the value,
    ownership and score heads with the SL policy, and with a fixed seed plays exactly the
    moves of `--network large`, the default on a CPU with native bf16 or a GPU."""
    pytest.importorskip('torch')
    script = 'boardsize 19\nclear_board\ngenmove b\ngenmove w\nplay b Q16\ngenmove w\n'
    fixed = ['--device', 'cpu', '--precision', 'fp32', '--playouts', '60',
             '--search', 'sim_threads=1', '--search', 'seed=3', '--verbose']
    card = run_main(['--weights', 'weights/sl.pt', *fixed], script, timeout=180)
    large = run_main(['--network', 'large', *fixed], script, timeout=180)
    assert card.returncode == 0 == large.returncode, card.stderr
    assert 'sl.pt: one network, heads policy, value, ownership, score' in card.stderr
    assert 'goengine: engine weights/sl.pt on cpu' in card.stderr
    assert card.stdout == large.stdout
    policy_only = run_main(['--weights', 'weights/sl-policy.pt', '--verbose'], 'name\n')
    assert 'no value network' in policy_only.stderr


def test_main_search_constants_come_from_the_command_line(tmp_path):
    """--c-puct and --expand-threshold reach the search; bad values stop before GTP starts."""
    import gtp_main
    from goengine.search.config import SearchConfig
    parser = gtp_main.build_parser()
    # the large network brings no settings of its own (the small one's: elsewhere)
    assert engine_spec.search_config(parser.parse_args(['--network', 'large'])) == SearchConfig()
    config = engine_spec.search_config(parser.parse_args(['--c-puct', '2.5', '--expand-threshold',
                                                       '10', '--lambda', '1']))
    assert (config.c_puct, config.expand_threshold, config.mixing) == (2.5, 10, 1.0)
    assert config.virtual_loss == SearchConfig().virtual_loss
    for flag, text in [('--c-puct', '-1'), ('--c-puct', 'x'), ('--expand-threshold', '-3')]:
        result = run_main(['--weights', 'none', flag, text], 'name\n')
        assert result.returncode == 2 and result.stdout == '' and flag in result.stderr
    pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    policy = tmp_path / 'p.pt'
    netfile.save_network(policy, nets.PolicyNet(filters=4, layers=2, board_size=9))
    first_move_on_9x9(['--weights', str(policy), '--c-puct', '0.5', '--expand-threshold', '0',
                       '--threads', '1', '--playouts', '50'])


def test_the_flags_defaults_are_the_configs_and_threads_take_one_road():
    """The help shows the defaults SearchConfig, MODE_SEARCH, the clock and the resign rule
    hold; --threads reaches the network by the config alone, whose 0 means one beside the
    rollouts and every core for the zero search."""
    import gtp_main
    from goengine.gtp.timecontrol import DEFAULT_MARGIN, DEFAULT_MOVE_TIME
    from goengine.nn.devices import available_cores
    from goengine.players.resign import ResignRule
    from goengine.search.config import MODE_SEARCH, SearchConfig
    parser = gtp_main.build_parser()
    text = ' '.join(parser.format_help().split())
    config = SearchConfig()
    for shown in [f'(default {config.mixing:g})', f'(default {config.c_puct:g}; '
                  f'{MODE_SEARCH["zero"]["c_puct"]:g} for zero)',
                  f'(default {config.expand_threshold}; it adapts)',
                  f'(default {config.search_mode})', f'(default {DEFAULT_MOVE_TIME:g})',
                  f'(default {DEFAULT_MARGIN})', f'(default {ResignRule.threshold:g};']:
        assert shown in text, shown

    def threads(*argv):
        return engine_spec.search_config(parser.parse_args(['--weights', 'none', *argv]))

    assert threads().net_threads == 0 and threads().network_threads() == 1
    assert threads('--search-mode', 'zero').network_threads() == available_cores()
    assert threads('--threads', '3').network_threads() == 3
    assert threads('--threads', '3', '--search-mode', 'zero').network_threads() == 3
    assert threads('--search', 'net_threads=2', '--search-mode', 'zero').network_threads() == 2


def test_main_search_settings_set_any_constant_and_bad_ones_stop_the_engine():
    """--search NAME=VALUE reaches any SearchConfig field; the named flags win over
    it; an unknown name or a bad value stops before GTP starts, saying which."""
    import gtp_main
    from goengine.search.config import SearchConfig
    parser = gtp_main.build_parser()
    config = engine_spec.search_config(parser.parse_args(
        ['--network', 'large', '--search', 'fpu_from_parent=true',
         '--search', 'fpu_reduction=0.25', '--search', 'dynamic_komi_moves=150',
         '--search', 'c_puct=1', '--c-puct', '3']))
    assert (config.fpu_from_parent, config.fpu_reduction, config.dynamic_komi_moves,
            config.c_puct) == (True, 0.25, 150, 3.0)
    assert engine_spec.search_config(parser.parse_args(
        ['--search', 'fpu_from_parent=no'])).fpu_from_parent is False
    # what a --verbose log line shows of the changes reads back as the same config
    assert sorted(config.settings_changed()) == [
        'c_puct=3.0', 'dynamic_komi_moves=150', 'fpu_from_parent=True', 'fpu_reduction=0.25']
    assert SearchConfig().with_settings(config.settings_changed()) == config
    assert SearchConfig().settings_changed() == []
    for setting, named in [('no_such_constant=1', 'no_such_constant'),
                           ('c_puct', 'c_puct'), ('expand_threshold=1.5', 'expand_threshold'),
                           ('fpu_from_parent=maybe', 'fpu_from_parent'),
                           ('mixing=2', 'mixing')]:
        result = run_main(['--weights', 'none', '--search', setting], 'name\n')
        assert result.returncode == 2 and result.stdout == ''
        assert 'goengine: error:' in result.stderr and named in result.stderr


def test_main_policy_only_plays_the_networks_top_sensible_move(tmp_path):
    torch = pytest.importorskip('torch')
    from goengine import Board
    from goengine.nn import features, inference, netfile, nets
    torch.manual_seed(1)
    path = tmp_path / 'tiny.pt'
    netfile.save_network(path, nets.PolicyNet(filters=4, layers=2, board_size=9))
    result = run_main(['--weights', str(path), '--policy-only', '--threads', '1', '--verbose'],
                      'boardsize 9\nclear_board\ngenmove b\n')
    assert result.returncode == 0, result.stderr
    assert 'PolicyPlayer' in result.stderr or 'policy' in result.stderr.lower()
    evaluator = inference.NetworkEvaluator(netfile.load_network(path), use_bf16=False, threads=1)
    probs = on_planes.policy(evaluator, features.policy_planes(Board(9)))
    expected = coords.to_gtp(int(np.argmax(probs)), 9)
    assert responses(result.stdout)[2] == f'= {expected}'


def test_main_next_command_stops_lz_analyze():
    proc = subprocess.Popen([sys.executable, str(GTP_MAIN), '--weights', 'none'],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=REPO)
    try:
        proc.stdin.write('boardsize 9\n7 lz-analyze b 5\n')
        proc.stdin.flush()
        assert proc.stdout.readline() == '= \n' and proc.stdout.readline() == '\n'
        assert proc.stdout.readline() == '=7\n'
        infos = [proc.stdout.readline() for _ in range(3)]     # keeps streaming...
        assert all(line.startswith('info move ') for line in infos)
        proc.stdin.write('8 name\n')                           # ...until the next command
        proc.stdin.flush()
        line = proc.stdout.readline()
        while line.startswith('info move '):
            line = proc.stdout.readline()
        assert line == '\n'                                    # analysis response ends
        assert proc.stdout.readline() == '=8 goengine\n'
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()


# -- a real GUI client library ------------------------------------------------------

SABAKI_DIR = REPO / 'tests' / 'sabaki'


@pytest.mark.skipif(shutil.which('node') is None, reason='node is not installed')
@pytest.mark.skipif(not (SABAKI_DIR / 'node_modules' / '@sabaki' / 'gtp').is_dir(),
                    reason='@sabaki/gtp not installed: run `npm install` in tests/sabaki')
def test_sabaki_gtp_client_drives_the_engine():
    result = subprocess.run(['node', '--test', str(SABAKI_DIR)], capture_output=True, text=True,
                            timeout=120, cwd=REPO, env={**os.environ, 'PYTHON': sys.executable})
    assert result.returncode == 0, result.stdout + result.stderr
    assert '# fail 0' in result.stdout


def test_main_refuses_a_missing_device_before_loading_anything(tmp_path):
    """A device asked for and missing: one clear line, before the (here corrupt) file is read."""
    torch = pytest.importorskip('torch')
    bad = tmp_path / 'bad.pt'
    bad.write_bytes(b'not a network')
    missing = [name for name, there in (('cuda', torch.cuda.is_available()),
                                        ('mps', torch.backends.mps.is_available())) if not there]
    for name in missing + ['tpu']:
        result = run_main(['--weights', str(bad), '--device', name], 'name\n')
        assert result.returncode == 2 and result.stdout == ''
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and f'device {name}' in lines[0].replace("'", ''), result.stderr


def test_main_says_where_the_networks_run(tmp_path):
    torch = pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    torch.manual_seed(0)
    path = tmp_path / 'tiny.pt'
    netfile.save_network(path, nets.PolicyNet(filters=4, layers=2, board_size=9))
    result = first_move_on_9x9(['--weights', str(path), '--device', 'cpu', '--threads', '1',
                                '--playouts', '30'])
    assert re.search(rf'^goengine: {re.escape(str(path))}: (torch|onnxruntime|openvino) '
                     r'(fp32|bf16) on cpu$', result.stderr, re.M)


def test_the_goengine_console_script_is_gtp_main():
    """`goengine`, the installed console script, is the program gtp_main.py forwards to."""
    script = Path(sys.executable).with_name('goengine')
    if not script.exists():
        pytest.skip('goengine is not installed in this environment (make build installs it)')
    result = subprocess.run([str(script), '--weights', 'none'], input='name\nversion\n',
                            capture_output=True, text=True, timeout=60, cwd=REPO)
    direct = run_main(['--weights', 'none'], 'name\nversion\n')
    assert result.returncode == 0 and result.stdout == direct.stdout != ''
    assert 'usage: goengine' in subprocess.run([str(script), '--help'], capture_output=True,
                                               text=True, timeout=60).stdout


def test_setup_installs_what_requirements_txt_lists():
    """requirements.txt is the one dependency list: setup.py's install_requires and extras
    are read from it, and only the goengine package is installed."""
    import importlib.metadata
    requires = importlib.metadata.requires('goengine') or []
    listed = [line.strip() for line in (REPO / 'requirements.txt').read_text().splitlines()
              if line.strip() and not line.startswith('#')]
    assert sorted(r.split(';')[0].strip() for r in requires) == sorted(listed)
    top = (importlib.metadata.distribution('goengine').read_text('top_level.txt') or '').split()
    assert top in ([], ['goengine'])
