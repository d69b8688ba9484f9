"""The strength dial: ranks parse, a rank picks the level no stronger than asked, the
engine plays at a level and refuses flags that would change it, and every level has its
measured row in the README."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from goengine.players import strength
from goengine.programs import engine_spec

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize('rank, value', [('1d', 0), ('1k', -1), ('9k', -9), ('30k', -30),
                                         ('9d', 8), (' 12K ', -12)])
def test_rank_values(rank, value):
    assert strength.rank_value(rank) == value


def test_rank_names_invert_rank_values():
    for value in range(-30, 9):
        assert strength.rank_value(strength.rank_name(value)) == value


@pytest.mark.parametrize('rank', ['', 'k', '0k', '31k', '10d', 'abc', '5 k', '1p'])
def test_bad_ranks_are_refused(rank):
    with pytest.raises(ValueError):
        strength.rank_value(rank)


def test_levels_run_weakest_first_with_distinct_ranks():
    values = [strength.rank_value(level.rank) for level in strength.LEVELS]
    assert values == sorted(values) and len(set(values)) == len(values) >= 3


def test_a_rank_plays_the_strongest_level_not_above_it():
    weakest, strongest = strength.LEVELS[0], strength.LEVELS[-1]
    for level in strength.LEVELS:
        assert strength.level_for(level.rank) == (level, None)
    below, note = strength.level_for('30k')
    assert below == weakest and 'below the weakest' in note
    above, note = strength.level_for('9d')
    assert above == strongest and strongest.rank in note
    for value in range(strength.rank_value(weakest.rank), strength.rank_value(strongest.rank)):
        level, _ = strength.level_for(strength.rank_name(value))
        assert strength.rank_value(level.rank) <= value


def run_main(args, stdin='', timeout=120):
    return subprocess.run([sys.executable, str(REPO / 'gtp_main.py'), *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)


def test_the_engine_plays_at_a_level_and_says_which():
    result = run_main(['--strength', '8k'], 'genmove b\nquit\n')
    assert result.returncode == 0, result.stderr
    assert re.match(r'= [A-HJ-T]\d{1,2}\n', result.stdout)
    assert 'playing 9k' in result.stderr
    assert 'temperature 1\n' in result.stderr


def test_a_search_level_plays_its_playouts_in_its_own_mode():
    result = run_main(['--strength', '1d'], 'genmove b\nquit\n')
    assert result.returncode == 0, result.stderr
    assert re.match(r'= [A-HJ-T]\d{1,2}\n', result.stdout)
    strongest = strength.LEVELS[-1]
    assert f'playing {strongest.rank}' in result.stderr
    assert f'the {strongest.search_mode} search, {strongest.playouts} playouts' in result.stderr


@pytest.mark.parametrize('extra, named', [(['--policy-only'], '--policy-only'),
                                          (['--playouts', '10'], '--playouts'),
                                          (['--weights', 'weights/sl.pt'], '--weights'),
                                          (['--network', 'small'], '--network')])
def test_flags_that_would_change_a_level_are_refused(extra, named):
    result = run_main(['--strength', '9k', *extra])
    assert result.returncode == 2 and result.stdout == ''
    assert named in result.stderr and 'Traceback' not in result.stderr


def test_a_bad_rank_is_one_line():
    result = run_main(['--strength', 'strong'])
    assert result.returncode == 2
    assert result.stderr.strip().count('\n') == 0 and 'rank' in result.stderr


def test_list_names_every_level():
    result = run_main(['--strength', 'list'])
    assert result.returncode == 0
    for level in strength.LEVELS:
        assert f'{level.rank}:' in result.stderr


def test_every_level_has_a_row_in_the_readme_and_a_measured_one_in_the_results():
    readme = (REPO / 'README.md').read_text()
    results = (REPO / 'docs' / 'results' / '2026-12.md').read_text()
    for level in strength.LEVELS:
        assert re.search(rf'^\| `--strength {level.rank}` \|', readme, re.M), level.rank
        row = re.search(rf'^\| `--strength {level.rank}` \|(.*)$', results, re.M)
        assert row, f'docs/results/2026-12.md has no row for --strength {level.rank}'
        assert re.search(r'\d+ of \d+', row.group(1)) and '%' in row.group(1), row.group(0)


def test_every_level_sets_the_flags_it_names():
    from goengine.programs import gtp_main
    for level in strength.LEVELS:
        args = gtp_main.build_parser().parse_args(['--strength', level.rank])
        assert gtp_main.apply_strength(args) is None
        assert (args.policy_only, args.temperature, args.playouts) == (
            level.policy_only, level.temperature, level.playouts)
        assert args.network == strength.LEVEL_NETWORK
        if not level.policy_only:
            assert engine_spec.search_config(args).search_mode == level.search_mode
