"""tools/tune.py: the SPRT's arithmetic (harness/sprt.py), and whole runs at toy scale
(engines that always win or always lose, a stopped run resumed, a real 9x9 game between
two searches that differ in one --search setting)."""

import math
import shlex
import sys

import pytest

from harness import records, sprt
from harness.match import default_ours
from tests.programs import tool
from tests.test_match import FAKE_ENGINE

tune = tool("tune")


def test_expected_score_is_logistic_elo():
    assert sprt.expected_score(0) == 0.5
    assert sprt.expected_score(400) == pytest.approx(10 / 11)
    assert sprt.expected_score(-400) == pytest.approx(1 / 11)


def test_sprt_bounds_and_llr_by_hand():
    test = sprt.Sprt(elo0=0, elo1=50, alpha=0.05, beta=0.05)
    assert test.upper == pytest.approx(math.log(19)) and test.lower == pytest.approx(-math.log(19))
    s1 = 1 / (1 + 10 ** (-50 / 400))
    assert test.llr(3, 6) == pytest.approx(3 * math.log(s1 / 0.5) + 6 * math.log((1 - s1) / 0.5))
    assert test.llr(1, 1, 2) == pytest.approx(test.llr(2, 2))      # a draw is half of each
    assert test.llr(0, 0) == 0 and test.verdict(0, 0) is None
    assert test.verdict(100, 60) == 'H1' and test.verdict(60, 100) == 'H0'
    assert test.verdict(50, 50) is None                             # between the hypotheses
    with pytest.raises(ValueError):
        sprt.Sprt(elo0=10, elo1=10)


def fake_engine(tmp_path):
    path = tmp_path / 'fake_engine.py'
    path.write_text(FAKE_ENGINE)
    return f'{shlex.quote(sys.executable)} {shlex.quote(str(path))}'


def run_tune(capsys, out, *args):
    assert tune.main(['--out', str(out), '--size', '9', '--scorer', 'none', *args]) == 0
    return capsys.readouterr().out.strip().splitlines()


def games(lines):
    return [line for line in lines if line.startswith('game ')]


def test_a_candidate_that_always_wins_is_accepted_once_the_llr_says_so(tmp_path, capsys):
    """The baseline crashes at its first genmove; with elo1 400 each win adds
    ln((10/11) / 0.5) = 0.598 and ln(19) = 2.944 is passed at the fifth."""
    lines = run_tune(capsys, tmp_path, '--engine', fake_engine(tmp_path),
                     '--candidate', 'play', '--baseline', 'crash', '--elo1', '400')
    assert len(games(lines)) == 5
    assert games(lines)[0].startswith('game 1: B ours W opponent')
    assert games(lines)[1].startswith('game 2: B opponent W ours')
    assert all('winner ours' in g for g in games(lines))
    assert lines[-2].startswith('sprt: H1 accepted') and '5-0-0' in lines[-2]
    assert lines[-1].startswith('wins 5 losses 0 draws 0 games 5')


def test_a_candidate_that_always_loses_is_rejected_and_a_run_resumes(tmp_path, capsys):
    engine = fake_engine(tmp_path)
    lines = run_tune(capsys, tmp_path, '--engine', engine, '--candidate', 'crash',
                     '--baseline', 'play', '--elo1', '400', '--max-games', '1')
    assert len(games(lines)) == 1 and 'no decision after 1 games' in lines[-2]
    lines = run_tune(capsys, tmp_path, '--engine', engine, '--candidate', 'crash',
                     '--baseline', 'play', '--elo1', '400')
    assert 'continuing: 1 games already' in '\n'.join(lines)
    assert [g.split(':')[0] for g in games(lines)] == ['game 2']    # ln(1/11 / 0.5) = -1.705
    assert lines[-2].startswith('sprt: H0 accepted') and '0-2-0' in lines[-2]
    lines = run_tune(capsys, tmp_path, '--engine', engine, '--candidate', 'crash',
                     '--baseline', 'play', '--elo1', '400')
    assert games(lines) == [] and lines[-2].startswith('sprt: H0 accepted')


def test_a_run_resumes_only_with_the_engines_it_began_with(tmp_path, capsys):
    """Games of other engines never join a run's count: another candidate, baseline or
    komi in the same folder is refused in one line, and nothing is played."""
    engine = fake_engine(tmp_path)
    flags = ['--engine', engine, '--candidate', 'crash', '--baseline', 'play', '--elo1', '400',
             '--max-games', '1']
    run_tune(capsys, tmp_path, *flags)
    assert 'candidate: ' in (tmp_path / 'commands.txt').read_text()
    for changed in (['--candidate', 'play'], ['--baseline', 'crash'], ['--komi', '6.5']):
        code = tune.main(['--out', str(tmp_path), '--size', '9', '--scorer', 'none', *flags,
                          *changed])
        captured = capsys.readouterr()
        assert code == 2 and captured.out.count('game ') == 0, changed
        assert 'commands.txt holds other commands' in captured.err
    results = (tmp_path / 'results.txt').read_text()
    assert results.count('game 1:') == 1 and 'game 2' not in results


def test_a_real_game_between_two_search_settings(tmp_path, capsys):
    """Toy scale, but the real thing: gtp_main.py with a tiny network searching 30
    playouts a move, the candidate with first-play urgency from the parent."""
    pytest.importorskip('torch')
    from goengine.nn import netfile, nets
    weights = tmp_path / 'tiny.pt'
    netfile.save_network(weights, nets.PolicyNet(filters=4, layers=2, board_size=9))
    engine = f'{default_ours()} --weights {shlex.quote(str(weights))} --threads 1 --playouts 30'
    lines = run_tune(capsys, tmp_path, '--engine', engine, '--candidate',
                     '--search fpu_from_parent=true --search fpu_reduction=0.1',
                     '--max-games', '1', '--max-moves', '16', '--time-per-move', '2')
    assert '--search fpu_from_parent=true' in lines[0] and '--time-per-move 2' in lines[0]
    assert '--search' not in lines[1]
    assert len(games(lines)) == 1 and 'move cap, adjudicated, 16 moves' in games(lines)[0]
    assert len(records.games(tmp_path)) == 1
    assert 'no decision after 1 games' in lines[-2]


def test_bad_hypotheses_are_refused(tmp_path, capsys):
    assert tune.main(['--out', str(tmp_path), '--elo0', '5', '--elo1', '5']) == 2
    assert 'elo1 must be greater' in capsys.readouterr().err
