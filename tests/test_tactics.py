"""The tactical suite (tests/tactics) and its runner (tools/regress.py): a fast sample.

The full comparison (goengine at 3 s a move against GNU Go level 10 on all 60
problems) is a measurement, run by hand: see docs/RESULTS.md."""

import shutil
import subprocess
from pathlib import Path

import pytest

from goengine import BLACK, WHITE
from goengine.game import coords, sgffile
from goengine.game.state import from_record
from harness import regression
from harness.gnugo import GnuGo
from harness.match import default_ours
from tests.programs import tool

regress = tool("regress")
tactics_suite = tool("tactics_suite")
READING_OF_TASK = tactics_suite.READING_OF_TASK
dragon_statuses, reading = tactics_suite.dragon_statuses, tactics_suite.reading

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / 'tests' / 'tactics' / 'suite.tst'
LOSSES = REPO / 'tests' / 'tactics' / 'losses' / 'suite.tst'    # groups our lost games lost
LOSS_PROBLEMS = 4
LOSSES_K96 = REPO / 'tests' / 'tactics' / 'losses-k96' / 'suite.tst'   # the k=96 engine's
LOSS_K96_PROBLEMS = 7
GROUPS = REPO / 'tests' / 'tactics' / 'groups' / 'suite.tst'   # life and death, held-out games
GROUP_PROBLEMS = 151    # tools/tactics_suite.py --groups --problems 150 (two makers: one more)
GNUGO = shutil.which('gnugo') or '/usr/games/gnugo'
needs_gnugo = pytest.mark.skipif(not Path(GNUGO).exists(), reason='GNU Go is not installed')


def test_the_runner_reads_gogui_regression_files(tmp_path):
    suite = tmp_path / 'x.tst'
    suite.write_text('# a comment\nboardsize 9\nclear_board\n1 reg_genmove b\n#? [C3|d4]\n'
                     'play b c3\n2 genmove w\n#? [!PASS]*\n3 name\n')
    tests = regression.read_suite(suite)
    assert [(t.number, t.command, t.accepted, t.expect_failure, t.setup) for t in tests] == [
        (1, 'reg_genmove b', ['C3', 'D4'], False, ['boardsize 9', 'clear_board']),
        (2, 'genmove w', ['!PASS'], True, ['play b c3'])]      # test 3 has no #?: not a test
    assert regression.accepts(['C3', 'D4'], 'd4') and not regression.accepts(['C3', 'D4'], 'E5')
    assert regression.accepts(['!PASS'], 'E5') and not regression.accepts(['!PASS'], 'pass')
    bad = tmp_path / 'bad.tst'
    bad.write_text('#? [C3]\n')
    with pytest.raises(ValueError, match="without a numbered command"):
        regression.read_suite(bad)


@pytest.mark.parametrize('suite, problems', [(SUITE, 60), (LOSSES, LOSS_PROBLEMS),
                                             (LOSSES_K96, LOSS_K96_PROBLEMS),
                                             (GROUPS, GROUP_PROBLEMS)])
def test_every_problem_loads_and_its_answers_are_legal(suite, problems):
    tests = regression.read_suite(suite)
    assert len(tests) == problems
    for test in tests:
        (load,) = test.setup
        with regression.one_game_file(load, suite.parent) as command:
            record = sgffile.parse_game(Path(command.split()[1]).read_bytes())
        game = from_record(record)
        color = BLACK if test.command.endswith(' b') else WHITE
        board = game.board_for(color)
        for answer in test.accepted:
            assert board.is_legal(coords.from_gtp(answer.lower(), 19), color), (test.number, answer)


@needs_gnugo
@pytest.mark.parametrize('suite, every', [(SUITE, 12), (LOSSES, 1), (LOSSES_K96, 2),
                                          (GROUPS, 6)])
def test_gnu_go_reading_confirms_a_sample_of_answers(suite, every):
    """The oracle again, independently of how the suite was made: after each accepted
    answer GNU Go must find the target settled, a string by its tactical reading, a
    group by its life-and-death (owl) reading (sampled: every `every`-th problem)."""
    gnugo = GnuGo(GNUGO, ('--level', '10'))
    try:
        for test in regression.read_suite(suite)[::every]:
            (load,) = test.setup
            color = test.command.split()[-1]
            comment = test.comment          # '... before move 31: capture J17 (5 stones)'
            task, target = comment.split(':')[-1].split()[:2]
            kind = READING_OF_TASK[task]
            for answer in test.accepted:
                with regression.one_game_file(load, suite.parent) as command:
                    gnugo.send(command)
                gnugo.send(f'play {color} {answer}')
                if gnugo.send(f'color {target}') == 'empty':
                    continue                                   # captured outright
                check = kind.defend if task == kind.take else kind.attack
                assert reading(gnugo, f'{check} {target}')[0] == 0, (test.number, answer)
    finally:
        gnugo.close()


def test_dragon_statuses_reads_every_row_of_gnu_gos_answer():
    class Answers:
        def send(self, command):
            assert command == 'dragon_status'
            return 'D4: alive Q16: critical R17 P17 C3: dead K10: critical PASS J10'
    assert dragon_statuses(Answers()) == [('D4', 'alive'), ('Q16', 'critical'),
                                          ('C3', 'dead'), ('K10', 'critical')]


needs_gogui_regress = pytest.mark.skipif(
    not (shutil.which('java') and regress.REGRESS_JAR.exists()),
    reason=f'gogui-regress needs java and {regress.REGRESS_JAR} (make test installs java)')


@needs_gogui_regress
def test_goengine_runs_through_the_runner(tmp_path):
    sample = tmp_path / 'sample.tst'
    text = SUITE.read_text().split('\n\n')
    sample.write_text('\n\n'.join(text[1:4]) + '\n')         # the first three problems
    shutil.copy(SUITE.parent / 'positions.sgfs', tmp_path / 'positions.sgfs')
    assert 'loadsgf positions.sgfs:1\n' in sample.read_text()
    engine = f'{default_ours()} --weights none --playouts 50'
    lines = []
    passed, failed, total = regress.run(sample, engine, log=lines.append)
    assert total == 3 and passed + len(failed) == 3 and len(lines) == 3
    for line in lines:
        verdict = line.split()[1]
        assert verdict in ('PASS', 'FAIL')
        if verdict == 'FAIL':
            answer = line.split()[2]
            assert answer.lower() in ('pass', 'resign') or 0 <= coords.from_gtp(answer.lower(), 19) < 361


@needs_gogui_regress
def test_an_engine_that_never_answers_is_stopped_with_one_line(tmp_path):
    """gogui-regress waits for ever; the runner stops it, and the engine, at its limit."""
    sample = tmp_path / 'sample.tst'
    sample.write_text('1 genmove b\n#? [D4]\n')
    with pytest.raises(regress.RegressError, match='did not end within 3 s'):
        regress.run(sample, 'sleep 987', log=lambda line: None, seconds_per_test=3)
    assert subprocess.run(['pgrep', '-f', 'sleep 987'], capture_output=True).returncode == 1


def test_the_diagnosis_says_why_an_answer_was_missed(tmp_path):
    """suite_diagnose's verdict: not offered (no answer among the policy's first moves),
    not searched (offered, too few visits), valued lower (searched); and the move the game
    played, read from the comment the suite maker writes before each test."""
    verdict = tool('suite_diagnose').verdict
    ranking = ['Q4', 'R3', 'C3', 'D4', 'E5']
    assert verdict(['R3'], ranking, 'R3', {'R3': (900, 0.6)}, 3, 10) == ('passed', 'R3')
    assert verdict(['E5'], ranking, 'Q4', {'Q4': (900, 0.6)}, 3, 10) == ('not offered', 'E5')
    assert verdict(['C3', 'E5'], ranking, 'Q4', {'Q4': (900, 0.6), 'E5': (5, 0.5)}, 3, 10) \
        == ('not searched', 'E5')          # C3 offered, neither searched: the more visited shown
    assert verdict(['C3'], ranking, 'Q4', {'Q4': (900, 0.6), 'C3': (40, 0.5)}, 3, 10) \
        == ('valued lower', 'C3')
    suite = tmp_path / 'suite.tst'
    suite.write_text('# made by hand\n\n# x before move 9: kill C3 (6 stones); the game played Q4\n'
                     'loadsgf positions.sgfs:1\n1 reg_genmove b\n#? [R3]\n\n'
                     'loadsgf positions.sgfs:2\n2 reg_genmove w\n#? [C3]\n')
    first, second = regression.read_suite(suite)
    assert first.comment.endswith('the game played Q4') and second.comment == ''


@needs_gnugo
def test_a_lost_game_gives_the_group_it_lost_as_a_problem(tmp_path):
    """tactics_suite on one move of a lost match game (5 stones, game 7, move 277):
    GNU Go's owl reading finds White's 15 stones at Q14 alive only by T12, and the
    game's K12 was not it, so that is the problem written."""
    game = REPO / 'docs' / 'matches' / '2026-11.tar' / '2026-11-25-gnugo10-handicap5-zen4'
    tactics_suite.main([f'{game}:7', '--moves', '276-277', '--color', 'w', '--out', str(tmp_path)])
    (test,) = regression.read_suite(tmp_path / 'suite.tst')
    assert (test.command, test.accepted) == ('reg_genmove w', ['T12'])
    assert test.comment.endswith(
        'game 7 before move 277: live Q14 (15 stones); the game played K12')
    (text,) = (tmp_path / 'positions.sgfs').read_text().splitlines()
    assert 'loadsgf positions.sgfs:1\n' in (tmp_path / 'suite.tst').read_text()
    record = sgffile.parse_game(text)
    assert len(record.moves) == 276 and record.setup_black          # the position, stones and all


GAME1 = REPO / 'tests' / 'tactics' / 'fights' / 'game1-2026-12-04.sgf'


@needs_gnugo
def test_the_fight_check_judges_the_game_one_group_as_gnu_gos_owl_does():
    """tools/research/fight_check.py's judge: before move 119 of game 1 only S17 saves K17 (GNU Go's
    owl at level 10); after G12, which the engine once played, White kills it."""
    fight_check = tool("fight_check")
    game = [('b', 'G13'), ('w', 'H12')]
    assert fight_check.judged(str(GAME1), 117, game + [('b', 'S17')], 'K17', False, GNUGO)
    assert not fight_check.judged(str(GAME1), 117, game + [('b', 'G12')], 'K17', False, GNUGO)


def test_add_appends_another_runs_problems_from_games_not_in_the_suite_yet(tmp_path):
    """tactics_suite --add: two runs of the maker beside each other become one suite, one
    problem a game, each problem with its own position line."""
    Entry, groups = tactics_suite.Entry, tactics_suite.GROUPS

    def run(folder, problems):
        folder.mkdir()
        entries = [Entry(BLACK, 'kill', 'D4', 6, ['C3'], game, 100 + i, '')
                   for i, game in enumerate(problems)]
        (folder / 'positions.sgfs').write_text(''.join(f'(;SZ[19]C[{g}])\n' for g in problems))
        tactics_suite.write_suite(str(folder), entries, 'held-out games', groups)

    run(tmp_path / 'a', ['g1', 'g2'])
    run(tmp_path / 'b', ['g2', 'g3', 'g4'])
    tactics_suite.main(['--out', str(tmp_path / 'a'), '--add', str(tmp_path / 'b')])
    merged = tactics_suite.read_entries(str(tmp_path / 'a'))
    assert [(e.game_name, e.number) for e in merged] == [('g1', 100), ('g2', 101),
                                                        ('g3', 101), ('g4', 102)]
    lines = (tmp_path / 'a' / 'positions.sgfs').read_text().splitlines()
    assert lines == ['(;SZ[19]C[g1])', '(;SZ[19]C[g2])', '(;SZ[19]C[g3])', '(;SZ[19]C[g4])']
    assert 'from held-out games;' in (tmp_path / 'a' / 'suite.tst').read_text()


def test_two_runs_write_one_suite_each_problem_once_and_each_seed_s_progress(tmp_path):
    """tactics_suite's add_problem: a problem is appended to the suite as it is on disk (the
    other run may have written since), once a game, and the seed's progress is kept."""
    folder = str(tmp_path)
    Entry, groups = tactics_suite.Entry, tactics_suite.GROUPS
    by_game = lambda e: e.game_name                                    # noqa: E731
    for seed, game, examined in ((1, 'g1', 10), (2, 'g2', 7), (2, 'g1', 9), (1, 'g3', 30)):
        entry = Entry(WHITE, 'live', 'D4', 6, ['C3'], game, examined, '')
        tactics_suite.add_problem(folder, entry, f'(;C[{game} {seed}])', by_game,
                                  'held-out games', groups, seed, examined)
    entries, lines = tactics_suite.read_folder(folder)
    assert [e.game_name for e in entries] == ['g1', 'g2', 'g3']
    assert lines == ['(;C[g1 1])', '(;C[g2 2])', '(;C[g3 1])']
    assert tactics_suite.read_progress(folder) == {1: 30, 2: 9}


def test_the_fight_judge_reads_each_problem_after_its_answer_and_after_a_pass():
    """tools/research/rollout_fights.py: the suite's problems as positions with their group
    and first answer, and the bookkeeping of a verdict: a judge that always says "lives" is
    right exactly after a live problem's answer and after a kill problem's pass."""
    fights = tool('rollout_fights')
    cases = list(fights.problems(GROUPS))
    assert len(cases) == GROUP_PROBLEMS
    board, colour, task, stone, answer = cases[0]       # 'live P6', answer R3, White to move
    assert (colour, task) == (WHITE, 'live')
    assert board.color_at(stone) == WHITE and len(board.chain_stones(stone)) >= 6
    assert (stone, answer) == (coords.from_gtp('P6', 19), coords.from_gtp('R3', 19))
    verdicts, _ = fights.judge(lambda board, stone, i: True, cases[:20])
    for task, when, right in verdicts:
        assert right == ((task, when) in (('live', 'answer'), ('kill', 'pass')))
    assert len(verdicts) == 40
    assert fights.disagreements(verdicts, verdicts) == (0, 0)


@needs_gnugo
@needs_gogui_regress
def test_gnu_go_runs_the_suite_split_into_files(tmp_path):
    """GNU Go reads no game N of a collection: --split gives it each position as a file."""
    sample = tmp_path / 'sample.tst'
    sample.write_text('\n\n'.join(SUITE.read_text().split('\n\n')[1:4]) + '\n')
    shutil.copy(SUITE.parent / 'positions.sgfs', tmp_path / 'positions.sgfs')
    lines = []
    passed, failed, total = regress.run(sample, f'{GNUGO} --mode gtp --level 1',
                                        log=lines.append, split=True)
    assert total == 3 and passed + len(failed) == 3
    assert not any('no verdict' in line for line in lines), lines
    folder = tmp_path / 'copy'
    folder.mkdir()
    copy = Path(regression.split_collections(sample, folder))
    loads = [line.split()[1] for line in copy.read_text().splitlines()
             if line.startswith('loadsgf')]
    games = (tmp_path / 'positions.sgfs').read_text().splitlines()
    assert loads == ['positions-1.sgf', 'positions-2.sgf', 'positions-3.sgf']
    assert [(folder / name).read_text() for name in loads] == [g + '\n' for g in games[:3]]
