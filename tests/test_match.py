"""tools/match.py: short games between real engines, engines that crash, hang
or cheat, the score parsing and the Wilson interval arithmetic."""

import gzip
import os
import subprocess
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from goengine import BLACK, WHITE
from goengine.game import coords

from harness import match, records, stats
from tests.programs import tool

REPO = Path(__file__).resolve().parent.parent

OURS = f'{match.default_ours()} --weights none'
GNUGO = shutil.which('gnugo') or ('/usr/games/gnugo' if os.path.exists('/usr/games/gnugo')
                                   else None)
LAST_LINE = re.compile(r'^wins (\d+) losses (\d+) draws (\d+) games (\d+) '
                       r'win_rate [\d.]+% \(95% Wilson [\d.]+%-[\d.]+%\)$')

# A minimal GTP engine that misbehaves at genmove (crash, hang or play A1 every
# time) and scores every game B+99.
FAKE_ENGINE = '''
import sys, time
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == 'genmove':
        if mode == 'crash':
            sys.exit(3)
        if mode == 'hang':
            time.sleep(60)
        print('= A1\\n', flush=True)
    elif words[0] == 'final_score':
        print('= B+99\\n', flush=True)
    elif words[0] == 'quit':
        print('=\\n', flush=True)
        break
    else:
        print('= fake\\n' if words[0] == 'name' else '=\\n', flush=True)
'''


def recorded_game(folder, number):
    """Game `number` of a match record (harness.records), as an sgfmill game."""
    text = records.games(folder)[number - 1]
    assert records.game_number(text) == number
    return sgf.Sgf_game.from_string(text)


def run_match(capsys, out, *args):
    assert tool('match').main(['--out', str(out), '--size', '9', *args]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    return lines, LAST_LINE.match(lines[-1])


def test_two_random_engines_alternate_colours_and_write_sgf(tmp_path, capsys):
    lines, last = run_match(capsys, tmp_path, '--games', '2', '--max-moves', '12',
                            '--ours', OURS, '--opponent', OURS, '--scorer', OURS)
    assert last and last.group(4) == '2', lines[-1]
    games = [line for line in lines if line.startswith('game ')]
    assert games[0].startswith('game 1: B ours W opponent')
    assert games[1].startswith('game 2: B opponent W ours')
    assert all('move cap, adjudicated, 12 moves' in g and 'scorer' in g for g in games)
    assert 'agree on the winner in 2 of 2' in lines[-2]
    for number in (1, 2):
        record = recorded_game(tmp_path, number)
        root = record.get_root()
        assert record.get_size() == 9 and root.get('KM') == 7.5
        assert root.get('PB') == root.get('PW') == 'goengine'
        assert re.match(r'^([BW]\+[\d.]+|0)$', root.get('RE'))
        assert len(record.get_main_sequence()) == 13
    assert (tmp_path / 'results.txt').read_text().strip().splitlines()[-1] == lines[-1]
    # the folder resumes only with the engines it began with
    code = tool('match').main(['--out', str(tmp_path), '--size', '9', '--games', '3',
                               '--max-moves', '12', '--ours', OURS, '--opponent', 'other',
                               '--scorer', OURS])
    assert code == 2 and 'commands.txt holds other commands' in capsys.readouterr().err
    assert len(records.games(tmp_path)) == 2


def test_a_record_reads_alike_on_disk_and_inside_a_months_archive(tmp_path):
    """The shipped archives' records read as the folder the tar holds does, once
    extracted by tar itself; sgfmill parses every game; a record the archive lacks has no
    games, and a damaged archive is one OSError naming the file."""
    import subprocess
    archive = REPO / 'docs' / 'matches' / '2026-11.tar'
    name = '2026-11-25-gnugo10-handicap5-zen4'
    subprocess.run(['tar', '-xf', str(archive), '-C', str(tmp_path), name], check=True)
    inside = records.games(archive / name)
    assert inside == records.games(tmp_path / name) and len(inside) == 30
    assert all(sgf.Sgf_game.from_string(text).get_size() == 19 for text in inside)
    assert records.games(archive / 'no-such-record') == []
    broken = tmp_path / 'broken.tar'
    broken.write_bytes(archive.read_bytes()[:70000])
    with pytest.raises(OSError, match='broken.tar'):
        records.games(broken / name)


@pytest.mark.parametrize('mode, reason, result', [
    ('crash', 'engine crash', 'B+F'),
    ('hang', 'loss on time', 'B+T'),
    ('illegal', 'illegal move', 'B+F'),
])
def test_a_failing_opponent_loses_the_game(tmp_path, capsys, mode, reason, result):
    fake = tmp_path / 'fake_engine.py'
    fake.write_text(FAKE_ENGINE)
    opponent = f'{shlex.quote(sys.executable)} {shlex.quote(str(fake))} {mode}'
    lines, last = run_match(capsys, tmp_path, '--games', '1', '--max-moves', '20', '--ours', OURS,
                            '--opponent', opponent, '--opponent-timeout', '1', '--scorer', 'none')
    assert last and last.group(1) == '1' and last.group(2) == '0', lines
    game = next(line for line in lines if line.startswith('game 1'))
    assert f'{result} ({reason}' in game and 'winner ours' in game
    root = recorded_game(tmp_path, 1).get_root()
    assert root.get('RE') == result


def test_the_scorer_decides_a_scored_game_and_ours_is_recorded(tmp_path, capsys):
    fake = tmp_path / 'fake_engine.py'
    fake.write_text(FAKE_ENGINE)
    referee = f'{shlex.quote(sys.executable)} {shlex.quote(str(fake))} referee'
    lines, last = run_match(capsys, tmp_path, '--games', '1', '--max-moves', '4', '--ours', OURS,
                            '--opponent', OURS, '--scorer', referee)
    game = next(line for line in lines if line.startswith('game 1'))
    # Four moves on an empty 9x9 board: our score is komi for White, the referee's B+99 wins.
    assert game.startswith('game 1: B ours W opponent: B+99 (move cap'), game
    assert 'winner ours' in game and 'score ours W+7.5 scorer B+99 DISAGREE' in game
    root = recorded_game(tmp_path, 1).get_root()
    assert root.get('RE') == 'B+99'


@pytest.mark.skipif(GNUGO is None, reason='GNU Go is not installed (apt-get install gnugo)')
def test_against_gnugo_with_a_tiny_cap(tmp_path, capsys):
    lines, last = run_match(capsys, tmp_path, '--games', '1', '--max-moves', '6', '--ours', OURS,
                            '--opponent', f'{GNUGO} --mode gtp --level 1', '--scorer', 'none')
    assert last and last.group(4) == '1', lines
    record = recorded_game(tmp_path, 1)
    assert record.get_root().get('PW') == 'GNU Go'
    assert len(record.get_main_sequence()) == 7


def test_handicap_games_keep_the_taker_black_and_white_moves_first(tmp_path, capsys):
    lines, last = run_match(capsys, tmp_path, '--games', '2', '--max-moves', '3', '--komi', '0.5',
                            '--handicap', '3', '--ours', OURS, '--opponent', OURS,
                            '--scorer', 'none')
    assert '3 handicap stones to opponent' in lines[3]
    games = [line for line in lines if line.startswith('game ')]
    assert all(g.startswith(f'game {n}: B opponent W ours') for n, g in zip((1, 2), games))
    for number in (1, 2):
        record = recorded_game(tmp_path, number)
        root = record.get_root()
        assert root.get('HA') == 3 and root.get('KM') == 0.5
        assert root.get_setup_stones()[0] == {(2, 2), (6, 6), (6, 2)}  # C3 G7 C7 (GTP 4.1.1)
        assert [node.get_move()[0] for node in record.get_main_sequence()[1:]] == ['w', 'b', 'w']


def test_a_handicap_engine_that_places_nonsense_forfeits(tmp_path, capsys):
    fake = tmp_path / 'fake_engine.py'
    fake.write_text(FAKE_ENGINE)   # answers fixed_handicap with an empty list
    lines, last = run_match(capsys, tmp_path, '--games', '1', '--handicap', '2', '--ours', OURS,
                            '--opponent', f'{shlex.quote(sys.executable)} {shlex.quote(str(fake))} '
                                          'fine', '--scorer', 'none')
    game = next(line for line in lines if line.startswith('game 1'))
    assert game.startswith('game 1: B opponent W ours: W+F (illegal move/refusal, 0 moves)'), game
    assert '0 points for 2 stones' in game


@pytest.mark.skipif(GNUGO is None, reason='GNU Go is not installed (apt-get install gnugo)')
def test_the_scorer_counts_the_handicap_stones(tmp_path, capsys):
    # Three black stones against two moves: GNU Go counts Black ahead only if it was told
    # about the handicap (without it the board is one stone each and komi wins for White).
    # Our own count of so open a board is stones only, less the 3 points of compensation;
    # on a finished game the two counts agree (tests/test_scoring_gnugo.py).
    lines, last = run_match(capsys, tmp_path, '--games', '1', '--max-moves', '2', '--komi', '0.5',
                            '--handicap', '3', '--ours', OURS, '--opponent', OURS,
                            '--scorer', f'{GNUGO} --mode gtp --chinese-rules')
    game = next(line for line in lines if line.startswith('game 1'))
    assert re.search(r'score ours [BW]\+[\d.]+ scorer B\+[\d.]+', game), game


def test_parse_score():
    assert match.parse_score('B+3.5') == 3.5
    assert match.parse_score('W+12') == -12
    assert match.parse_score('0') == 0
    assert match.parse_score('W+R') is None
    assert match.parse_score('') is None


def test_time_per_move_is_added_once_and_only_for_gtp_main():
    assert match.with_time_per_move('gtp_main.py', 2) == 'gtp_main.py --time-per-move 2'
    assert match.with_time_per_move('gtp_main.py --time-per-move 3', 2).count('--time') == 1
    assert match.with_time_per_move('gnugo --mode gtp', 2) == 'gnugo --mode gtp'


def test_wilson_interval_known_values():
    # Worked by hand from Wilson's closed form with z = 1.96.
    low, high = stats.wilson_interval(7, 10)
    assert low == pytest.approx(0.3968, abs=1e-4) and high == pytest.approx(0.8922, abs=1e-4)
    low, high = stats.wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = stats.wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)


def test_wilson_interval_properties():
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    for games in (1, 5, 37):
        for wins in range(games + 1):
            low, high = stats.wilson_interval(wins, games)
            assert 0 <= low <= wins / games <= high <= 1
            mirror = stats.wilson_interval(games - wins, games)
            assert (low, high) == pytest.approx((1 - mirror[1], 1 - mirror[0]))
    # More games, narrower interval at the same win rate.
    few, many = stats.wilson_interval(6, 10), stats.wilson_interval(60, 100)
    assert few[1] - few[0] > many[1] - many[0]


def test_summary_counts_ours_from_either_colour():
    r1 = match.GameResult(1, 'ours', 'opponent', match.BLACK, 'score', 'B+2.5', 100)
    r2 = match.GameResult(2, 'opponent', 'ours', match.BLACK, 'resign', 'B+R', 80)
    r3 = match.GameResult(3, 'ours', 'opponent', None, 'score', '0', 90)
    assert stats.summary([r1, r2, r3]).startswith('wins 1 losses 1 draws 1 games 3 win_rate 50.0%')


# -- tools/research/clock_game.py ------------------------------------------------------------

def test_canadian_clock_main_time_then_blocks():
    clock_game = tool("clock_game")
    clock = clock_game.CanadianClock(10, 6, 2)
    assert clock.setup_commands() == ['time_settings 10 6 2']
    assert clock.before_move(match.BLACK) == ['time_left b 10 0']
    assert clock.available(match.BLACK) == 16
    assert clock.charge(match.BLACK, 12)            # main time gone, 2 s into the first block
    assert clock.before_move(match.BLACK) == ['time_left b 4 1']
    assert clock.charge(match.BLACK, 1.5)           # block done: a fresh one
    assert clock.before_move(match.BLACK) == ['time_left b 6 2']
    assert clock.before_move(match.WHITE) == ['time_left w 10 0']   # clocks are per colour
    assert not clock.charge(match.BLACK, 6.5)       # the flag falls
    assert [round(e, 1) for _, e, _ in clock.moves] == [12, 1.5, 6.5]


def test_canadian_clock_without_main_time_is_a_deadline_per_move():
    clock_game = tool("clock_game")
    clock = clock_game.CanadianClock(0, 5, 1)
    for _ in range(3):
        assert clock.before_move(match.WHITE) == ['time_left w 5 1']
        assert clock.available(match.WHITE) == 5
        assert clock.charge(match.WHITE, 4.9)
    assert not clock.charge(match.WHITE, 5.1)


def test_clock_game_between_random_engines(tmp_path, capsys):
    clock_game = tool("clock_game")
    code = clock_game.main(['--size', '9', '--ours', OURS, '--opponent', OURS, '--scorer', 'none',
                            '--min-moves', '10', '--max-moves', '30', '--rss-every', '5',
                            '--out', str(tmp_path)])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0, lines
    assert lines[-1].startswith('clock game PASS: 30 moves')
    assert re.search(r'0 over; lost on time: no', lines[-3])
    assert re.match(r'RSS MiB first [\d.]+ last [\d.]+ max [\d.]+', lines[-2])


def test_an_sprt_stops_the_match_once_decided_and_a_resumed_match_stays_stopped(tmp_path, capsys):
    """An opponent that crashes at its first genmove loses every game; with --sprt 0 400
    each win adds ln((10/11) / 0.5) = 0.598, and ln(19) = 2.944 is passed at the fifth
    game, long before --games 20. Resumed in the same folder, it plays none."""
    fake = tmp_path / 'fake_engine.py'
    fake.write_text(FAKE_ENGINE)
    crash = f'{shlex.quote(sys.executable)} {shlex.quote(str(fake))} crash'
    args = ('--games', '20', '--ours', OURS, '--opponent', crash, '--scorer', 'none',
            '--sprt', '0', '400')
    lines, last = run_match(capsys, tmp_path, *args)
    assert last and last.group(1) == '5' and last.group(4) == '5', lines
    assert sum(line.startswith('game ') for line in lines) == 5
    assert any(line.startswith('sprt: H1 accepted: ours is 400 Elo stronger') for line in lines)
    lines, last = run_match(capsys, tmp_path, *args)
    assert not any(line.startswith('game ') for line in lines)
    assert last and last.group(4) == '5', lines
    assert tool('match').main(['--out', str(tmp_path / 'x'), '--sprt', '5', '5']) == 2


def test_a_match_can_continue_in_the_same_folder(tmp_path):
    r1 = match.GameResult(1, 'ours', 'opponent', match.BLACK, 'score', 'B+2.5', 100)
    r2 = match.GameResult(2, 'opponent', 'ours', match.BLACK, 'resign', 'B+R', 80)
    r3 = match.GameResult(3, 'ours', 'opponent', None, 'score', '0', 90)
    path = tmp_path / 'results.txt'
    path.write_text(''.join(match.describe(r) + '\n' for r in (r1, r2, r3))
                    + stats.summary([r1, r2, r3]) + '\n')
    earlier = records.earlier_outcomes(path)
    assert earlier == {1: 'ours', 2: 'opponent', 3: 'none'}
    r4 = match.GameResult(4, 'opponent', 'ours', match.WHITE, 'score', 'W+0.5', 200)
    assert stats.summary([r4], earlier.values()).startswith('wins 2 losses 1 draws 1 games 4')
    assert records.earlier_outcomes(tmp_path / 'missing.txt') == {}


def test_a_continued_match_counts_the_scoring_of_every_game(tmp_path):
    """The scoring line of a resumed match covers the games before it, as the last line does."""
    counted = match.GameResult(1, 'ours', 'opponent', match.BLACK, 'score', 'B+2.5', 250,
                               our_score=2.5, scorer_score=2.5)
    disputed = match.GameResult(2, 'opponent', 'ours', match.WHITE, 'score', 'W+3.5', 260,
                                our_score=1.5, scorer_score=-3.5)
    resigned = match.GameResult(3, 'ours', 'opponent', match.WHITE, 'resign', 'W+R', 180)
    path = tmp_path / 'results.txt'
    path.write_text(''.join(match.describe(r) + '\n' for r in (counted, disputed, resigned)))
    earlier = records.earlier_agreements(path)
    assert earlier == {1: True, 2: False}
    later = match.GameResult(4, 'opponent', 'ours', match.WHITE, 'score', 'W+0.5', 270,
                             our_score=-0.5, scorer_score=-0.5)
    assert stats.agreement([later], earlier.values()) == \
        'scoring: ours and the scorer agree on the winner in 2 of 3 scored games'
    assert stats.agreement([resigned]) == \
        'scoring: ours and the scorer agree on the winner in 0 of 0 scored games'
    assert records.earlier_agreements(tmp_path / 'missing.txt') == {}


# -- tools/research/lead_drop.py ----------------------------------------------------------

@pytest.mark.skipif(not Path('/usr/games/gnugo').exists(), reason='GNU Go is not installed')
def test_lead_drop_reads_our_lead_as_gnu_go_estimates_it(tmp_path, capsys):
    """A match folder with one long game (we are White) and one too short to count: the
    leads printed are GNU Go's own estimates from White's side, and the drop their
    difference; with --at, the lead before each move in the games that reach it."""
    from harness.gnugo import GnuGo
    long_game = Path(__file__).parent / 'games' / 'handicap-7-passed-while-lost.sgf'
    records.append_game(tmp_path, long_game.read_bytes())
    records.append_game(tmp_path, b'(;GM[1]FF[4]SZ[9]KM[7.5]GN[match game 2]'
                                  b'C[game 2: B ours W opponent: W+R]RE[W+R];B[ee];W[cc])')
    tool('lead_drop').main([str(tmp_path), '--from', '30', '--to', '100'])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith('game 16: ours White'), lines
    gnugo = GnuGo('/usr/games/gnugo', ('--chinese-rules',))
    try:
        expected = []
        for move in (30, 100):
            gnugo.send(f'loadsgf {long_game} {move}')
            expected.append(-match.parse_score(gnugo.send('estimate_score').split()[0]))
    finally:
        gnugo.close()
    assert f'lead {expected[0]:+.1f} before move 30, {expected[1]:+.1f} before move 100' in lines[0]
    assert lines[1] == f'mean_drop={expected[0] - expected[1]:.1f} stderr=nan games=1'

    tool('lead_drop').main([str(tmp_path), '--at', '100', '1'])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith('game 16: ours White, lead ') and \
        f'{expected[1]:+.1f} before move 100' in lines[0], lines
    assert lines[1].startswith('game 2: ours Black, lead ') and 'move 100' not in lines[1]
    assert lines[2].startswith('before move 1: ') and lines[2].endswith(' of 2'), lines
    assert lines[3] == (f'before move 100: mean_lead={expected[1]:.1f} stderr=nan '
                        f'ahead={int(expected[1] > 0)} of 1'), lines


OPENING_GAMES = '\n'.join([
    '(;GM[1]FF[4]SZ[9]KM[7];B[cc];W[gg])',                    # too short
    '(;GM[1]FF[4]SZ[9]KM[7]HA[2]AB[cc][gg];W[cg];B[gc];W[ee])',   # handicap
    '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[];B[cc];W[gg])',           # a pass in it
    '(;GM[1]FF[4]SZ[19]KM[7];B[pd];W[dp];B[pp];W[dd])',        # another size
    '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[ee];B[cc])',               # a move on a stone
    '(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg];W[cg])',
    '(;GM[1]FF[4]SZ[9]KM[7];B[cf];W[fc];B[ff])',
]) + '\n'


def test_openings_are_the_first_moves_of_even_games_long_enough(tmp_path):
    from harness.openings import load_openings, opening_for
    path = tmp_path / 'games.sgfs'
    path.write_text(OPENING_GAMES)
    openings = load_openings(str(path), 3, size=9)
    assert [[coords.to_gtp(m, 9) for _, m in o] for o in openings] == [
        ['E5', 'C7', 'G3'], ['C4', 'F7', 'F4']]
    assert [c for c, _ in openings[0]] == [BLACK, WHITE, BLACK]
    assert [opening_for(n, openings) for n in (1, 2, 3, 4, 5)] == [
        openings[0], openings[0], openings[1], openings[1], openings[0]]
    assert load_openings(str(path), 3, size=9, count=1) == openings[:1]
    with pytest.raises(ValueError, match='no even 9x9 game of 5 moves'):
        load_openings(str(path), 5, size=9)


def test_a_match_from_openings_plays_each_with_either_colour(tmp_path, capsys):
    games = tmp_path / 'games.sgfs'
    games.write_text(OPENING_GAMES)
    out = tmp_path / 'match'
    lines, last = run_match(capsys, out, '--games', '2', '--max-moves', '5',
                            '--openings', str(games), '--opening-moves', '3',
                            '--ours', OURS, '--opponent', OURS, '--scorer', 'none')
    assert last and last.group(4) == '2', lines[-1]
    assert 'openings: the first 3 moves of 1 games' in lines[3]
    outcomes = [line for line in lines if line.startswith('game ')]
    assert outcomes[0].startswith('game 1: B ours W opponent')
    assert outcomes[1].startswith('game 2: B opponent W ours')
    assert all('move cap, adjudicated, 5 moves' in g for g in outcomes), outcomes
    for number in (1, 2):
        moves = [node.get_move() for node in recorded_game(out, number).get_main_sequence()[1:]]
        assert moves[:3] == [('b', (4, 4)), ('w', (6, 2)), ('b', (2, 6))]   # E5 C7 G3
        assert len(moves) == 5


def test_openings_that_cannot_be_read_are_one_error_and_no_match(tmp_path, capsys):
    games = tmp_path / 'games.sgfs'
    games.write_text(OPENING_GAMES)
    out = tmp_path / 'match'
    code = tool('match').main(['--out', str(out), '--size', '9', '--openings', str(games),
                               '--opening-moves', '9', '--ours', OURS, '--opponent', OURS])
    assert code == 2 and 'no even 9x9 game of 9 moves' in capsys.readouterr().err
    code = tool('match').main(['--out', str(out), '--size', '9', '--openings',
                               str(tmp_path / 'missing.sgfs'), '--ours', OURS])
    assert code == 2 and 'missing.sgfs' in capsys.readouterr().err
    assert not out.exists()


TWOGTP = Path(os.environ.get('GOGUI_DIR', REPO.parent / 'shared' / 'tools' / 'gogui')) / 'lib' / 'gogui-twogtp.jar'


def sgf_moves(text):
    """The (colour, point) moves of an SGF game, a pass as ''."""
    return [(c, '' if p == 'tt' else p) for c, p in re.findall(r';\s*([BW])\[([a-t]{0,2})\]', text)]


@pytest.mark.slow
@pytest.mark.skipif(not (GNUGO and shutil.which('java') and TWOGTP.exists()),
                    reason=f'needs GNU Go, java and {TWOGTP}')
def test_gogui_twogtp_and_match_play_and_score_the_same_games(tmp_path, capsys):
    """GoGui's gogui-twogtp, the field's match runner, against tools/match.py: the same two
    games (fresh engines each, GNU Go seeded, random goengine seeded), the same moves,
    winners and GNU Go referee's scores."""
    gnugo = f'{GNUGO} --mode gtp --level 1 --seed 1'
    referee = f'{GNUGO} --mode gtp --chinese-rules'
    theirs = []
    for name, black, white in (('a', OURS, gnugo), ('b', gnugo, OURS)):
        subprocess.run(['java', '-jar', str(TWOGTP), '-black', black, '-white', white,
                        '-referee', referee, '-size', '19', '-komi', '7.5', '-games', '1',
                        '-auto', '-sgffile', str(tmp_path / name)], check=True, timeout=600,
                        capture_output=True)
        row = [line for line in (tmp_path / f'{name}.dat').read_text().splitlines()
               if not line.startswith('#')][0].split('\t')
        theirs.append((row[3], sgf_moves((tmp_path / f'{name}-0.sgf').read_text())))
    tool('match').main(['--games', '2', '--size', '19', '--komi', '7.5', '--ours', OURS,
                        '--opponent', gnugo, '--scorer', referee, '--out', str(tmp_path / 'm')])
    ours = gzip.open(tmp_path / 'm' / 'games.sgfs.gz', 'rt').read().splitlines()
    results = [re.search(r'RE\[([^\]]*)\]', game).group(1) for game in ours]
    assert [(result, sgf_moves(game)) for result, game in zip(results, ours)] == theirs
    assert all('+R' not in result for result in results)     # both scored by the referee
