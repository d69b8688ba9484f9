"""goengine-review on a real game: the reviewed SGF, the win-rate graph, bad input, Ctrl-C."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from goengine.programs import review
from goengine.search.search import Search

REPO = Path(__file__).resolve().parent.parent
GAME = REPO / 'docs' / 'games' / 'search-vs-gnugo10-game-002.sgf'   # a real game, 188 moves
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def move_nodes(game):
    return [node for node in game.get_main_sequence() if node.get_move()[0] is not None]


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / 'game.sgf'
    shutil.copy(GAME, path)
    return path


def test_review_comments_every_move_and_draws_the_graph(game_file, capsys):
    assert review.main([str(game_file), '--weights', 'none', '--visits', '24', '--quiet']) == 0
    reviewed = game_file.with_name('game-reviewed.sgf')
    original = sgf.Sgf_game.from_bytes(game_file.read_bytes())
    game = sgf.Sgf_game.from_bytes(reviewed.read_bytes())      # sgfmill reads it back
    nodes = move_nodes(game)
    assert [n.get_move() for n in nodes] == [n.get_move() for n in move_nodes(original)]
    assert len(nodes) == 188
    for node in nodes:
        comment = node.get('C')
        assert 'win rate' in comment and 'goengine prefers' in comment, comment
        assert re.search(r'Score estimate before this move: (Black|White) ahead by \d+\.\d points',
                         comment), comment
    marks = sum(any(node.has_property(p) for p in ('BM', 'DO', 'TE', 'IT')) for node in nodes)
    assert marks > 0
    variations = sum(len(node.parent) > 1 for node in nodes)    # the engine's line beside the move
    assert variations > 0
    assert game.get_root().get('RE') == 'W+R'                    # the record's own properties stay
    assert 'Reviewed by goengine: 188 of 188 moves' in game.get_root().get('C')
    png = game_file.with_name('game-winrate.png')
    assert png.read_bytes()[:8] == PNG_MAGIC and png.stat().st_size > 5000
    assert '188 of 188 moves reviewed' in capsys.readouterr().out


def test_marks_follow_the_win_rate_the_move_gave_away():
    def pos(number, color, winrate, best=0):
        return review.Position(number, color, winrate, 100, best, winrate, [best])
    positions = [pos(1, 1, 0.60), pos(2, 2, 0.70), pos(3, 1, 0.25), pos(4, 2, 0.50)]
    # move 1 (B): 0.60 -> 1 - 0.70 = 0.30, lost 0.30; move 2 (W): 0.70 -> 0.75, gained;
    # move 3 (B): 0.25 -> 0.50, gained 0.25
    assert [round(review.mover_loss(positions, i), 2) for i in range(3)] == [0.30, -0.05, -0.25]


def test_bad_input_gets_one_clear_error_and_writes_nothing(tmp_path):
    cases = {'garbage.sgf': 'this is not an sgf file',
             'illegal.sgf': '(;FF[4]GM[1]SZ[9];B[ee];W[ee])',
             'nomoves.sgf': '(;FF[4]GM[1]SZ[9]AB[cc])'}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    for name in [*cases, 'missing.sgf']:
        result = subprocess.run([sys.executable, '-m', 'goengine.programs.review', str(tmp_path / name),
                                 '--weights', 'none', '--visits', '8'],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 1, (name, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith('goengine-review: '), (name, lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(cases)   # nothing written


def test_a_handicap_game_on_a_small_board(tmp_path):
    path = tmp_path / 'handicap.sgf'
    path.write_text('(;FF[4]GM[1]SZ[9]HA[2]KM[0.5]AB[cc][gg];W[ee];B[ce];W[ge];B[eg];W[ec])')
    assert review.main([str(path), '--weights', 'none', '--visits', '16', '--quiet']) == 0
    game = sgf.Sgf_game.from_bytes(path.with_name('handicap-reviewed.sgf').read_bytes())
    nodes = move_nodes(game)
    assert len(nodes) == 5 and nodes[0].get_move()[0] == 'w'
    assert nodes[0].get('C').startswith('White win rate')


def test_ctrl_c_writes_what_is_done(game_file, monkeypatch):
    run = Search.run
    calls = []

    def run_then_interrupt(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 11:
            raise KeyboardInterrupt
        return run(self, *args, **kwargs)

    monkeypatch.setattr(Search, 'run', run_then_interrupt)
    assert review.main([str(game_file), '--weights', 'none', '--visits', '8', '--quiet']) == 0
    game = sgf.Sgf_game.from_bytes(game_file.with_name('game-reviewed.sgf').read_bytes())
    commented = [n for n in move_nodes(game) if n.has_property('C')]
    assert len(commented) == 9     # ten positions analysed: nine moves between them
    assert 'Reviewed by goengine: 9 of 188 moves' in game.get_root().get('C')


def test_a_range_of_moves(game_file, capsys):
    """--moves 100-110 comments exactly those moves, from positions 100 to 111."""
    assert review.main([str(game_file), '--weights', 'none', '--visits', '8', '--quiet',
                        '--moves', '100-110', '--no-graph']) == 0
    game = sgf.Sgf_game.from_bytes(game_file.with_name('game-reviewed.sgf').read_bytes())
    commented = [i + 1 for i, n in enumerate(move_nodes(game)) if n.has_property('C')]
    assert commented == list(range(100, 111))
    assert 'Reviewed by goengine: 11 of 188 moves (100-110)' in game.get_root().get('C')
    assert '11 of 188 moves reviewed' in capsys.readouterr().out


def test_a_range_to_the_end_and_bad_ranges(game_file, capsys):
    assert review.main([str(game_file), '--weights', 'none', '--visits', '8', '--quiet',
                        '--moves', '185-']) == 0
    game = sgf.Sgf_game.from_bytes(game_file.with_name('game-reviewed.sgf').read_bytes())
    assert [i + 1 for i, n in enumerate(move_nodes(game)) if n.has_property('C')] == \
        [185, 186, 187, 188]
    assert game_file.with_name('game-winrate.png').read_bytes()[:8] == PNG_MAGIC
    for path in game_file.parent.glob('game-*'):
        path.unlink()
    assert review.main([str(game_file), '--weights', 'none', '--moves', '189-']) == 2
    assert 'the game has 188 moves' in capsys.readouterr().err
    for bad in ('110-100', '0-5', 'a-b'):
        with pytest.raises(SystemExit) as exit_:
            review.main([str(game_file), '--weights', 'none', '--moves', bad])
        assert exit_.value.code == 2
    assert sorted(p.name for p in game_file.parent.iterdir()) == ['game.sgf']   # nothing written
