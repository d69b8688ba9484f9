"""The tactical suite (tests/tactics) and its runner (tools/regress.py): a fast sample.

The full comparison (goengine at 3 s a move against GNU Go level 10 on all 60
problems) is a measurement, run by hand: see docs/RESULTS.md."""

import shlex
import shutil
import sys
from pathlib import Path

import pytest
import regress
from ladder_vs_gnugo import GnuGo
from tactics_suite import reading

from goengine import BLACK, WHITE, coords, sgffile
from goengine.game import from_record

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / 'tests' / 'tactics' / 'suite.tst'
GNUGO = shutil.which('gnugo') or '/usr/games/gnugo'
needs_gnugo = pytest.mark.skipif(not Path(GNUGO).exists(), reason='GNU Go is not installed')


def test_the_runner_reads_gogui_regression_files(tmp_path):
    suite = tmp_path / 'x.tst'
    suite.write_text('# a comment\nboardsize 9\nclear_board\n1 reg_genmove b\n#? [C3|d4]\n'
                     'play b c3\n2 genmove w\n#? [!PASS]*\n3 name\n')
    tests = regress.read_suite(suite)
    assert [(t.number, t.command, t.accepted, t.expect_failure, t.setup) for t in tests] == [
        (1, 'reg_genmove b', ['C3', 'D4'], False, ['boardsize 9', 'clear_board']),
        (2, 'genmove w', ['!PASS'], True, ['play b c3'])]      # test 3 has no #?: not a test
    assert regress.accepts(['C3', 'D4'], 'd4') and not regress.accepts(['C3', 'D4'], 'E5')
    assert regress.accepts(['!PASS'], 'E5') and not regress.accepts(['!PASS'], 'pass')
    bad = tmp_path / 'bad.tst'
    bad.write_text('#? [C3]\n')
    with pytest.raises(ValueError, match="without a numbered command"):
        regress.read_suite(bad)


def test_every_problem_loads_and_its_answers_are_legal():
    tests = regress.read_suite(SUITE)
    assert len(tests) == 60
    for test in tests:
        (load,) = test.setup
        record = sgffile.parse_game((SUITE.parent / load.split()[1]).read_bytes())
        game = from_record(record)
        color = BLACK if test.command.endswith(' b') else WHITE
        board = game.board_for(color)
        for answer in test.accepted:
            assert board.is_legal(coords.from_gtp(answer.lower(), 19), color), (test.number, answer)


@needs_gnugo
def test_gnu_go_reading_confirms_a_sample_of_answers():
    """The oracle again, independently of how the suite was made: after each accepted
    answer GNU Go must find the target string settled (sampled: 5 problems)."""
    gnugo = GnuGo(GNUGO, ('--level', '10'))
    try:
        for test in regress.read_suite(SUITE)[::12]:
            (load,) = test.setup
            path = SUITE.parent / load.split()[1]
            color = test.command.split()[-1]
            comment = _comment_before(test.number)      # '... capture J17 (5 stones)'
            task, target = comment.split(':')[-1].split()[:2]
            for answer in test.accepted:
                gnugo.send(f'loadsgf {path}')
                gnugo.send(f'play {color} {answer}')
                if gnugo.send(f'color {target}') == 'empty':
                    continue                                   # captured outright
                check = 'defend' if task == 'capture' else 'attack'
                assert reading(gnugo, f'{check} {target}')[0] == 0, (test.number, answer)
    finally:
        gnugo.close()


def _comment_before(number):
    lines = SUITE.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f'{number} reg_genmove'))
    return lines[index - 2]


def test_goengine_runs_through_the_runner(tmp_path):
    sample = tmp_path / 'sample.tst'
    text = SUITE.read_text().split('\n\n')
    sample.write_text('\n\n'.join(text[1:4]) + '\n')         # the first three problems
    for name in ('001.sgf', '002.sgf', '003.sgf'):
        shutil.copy(SUITE.parent / name, tmp_path / name)
    engine = (f'{shlex.quote(sys.executable)} {shlex.quote(str(REPO / "gtp_main.py"))} '
              f'--weights none --playouts 50')
    lines = []
    passed, failed, total = regress.run(sample, engine, log=lines.append)
    assert total == 3 and passed + len(failed) == 3
    for line in lines:
        verdict, answer = line.split()[1:3]
        assert verdict in ('PASS', 'FAIL')
        assert answer.lower() == 'pass' or 0 <= coords.from_gtp(answer.lower(), 19) < 361
