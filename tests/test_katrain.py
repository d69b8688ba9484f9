"""KaTrain 1.20 with goengine-analysis as its custom engine, under Xvfb, configured as the
docs/GUIS.md's KaTrain section says: a 100-move game loaded on its command line is analysed move
by move with ownership, the answers reach KaTrain (its own log says so), and a screenshot
is kept in runs/test-artifacts/katrain.png. Skipped, saying why, without KaTrain (the
test extra), Xvfb or ImageMagick's import (`make test` installs them)."""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goengine.game import coords, sgffile
from tests.gui.screen import stop, virtual_screen

REPO = Path(__file__).resolve().parent.parent
NEEDED = {'katrain (pip install katrain)': importlib.util.find_spec('katrain'),
          'Xvfb': shutil.which('Xvfb'), 'import (ImageMagick)': shutil.which('import')}
MISSING = [name for name, found in NEEDED.items() if found is None]
MOVES = 100

pytestmark = pytest.mark.skipif(bool(MISSING), reason=f'needs {", ".join(MISSING)}')


def hundred_moves(path):
    """The first MOVES moves of a real game of the test games, as an SGF file."""
    game = sgffile.parse_game((REPO / 'tests/games/seki-in-a-finished-game.sgf').read_text())
    moves = ''.join(f';{"B" if colour == 1 else "W"}[{coords.to_sgf(move, 19)}]'
                    for colour, move in game.moves[:MOVES])
    path.write_text(f'(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]{moves})')
    return path


def katrain_config(path, engine_command):
    """KaTrain's own package config with the custom engine and quick analysis."""
    import katrain
    config = json.loads((Path(katrain.__file__).parent / 'config.json').read_text())
    config['engine'].update(altcommand=engine_command, max_visits=20, fast_visits=8,
                            max_time=2.0)
    config['general']['debug_level'] = 1   # KaTrain logs each answer it receives
    path.write_text(json.dumps(config))
    return path


def test_katrain_analyses_a_game_with_goengine(tmp_path):
    log = tmp_path / 'analysis.log'
    engine = (f'{sys.executable} {REPO / "tests" / "gui" / "gtp_tee.py"} {log} -- '
              f'{sys.executable} -m goengine.programs.analysis --network small')
    config = katrain_config(tmp_path / 'config.json', engine)
    game = hundred_moves(tmp_path / 'game.sgf')
    display = f':{50 + os.getpid() % 20}'
    env = dict(os.environ, DISPLAY=display, HOME=str(tmp_path), KIVY_HOME=str(tmp_path / 'kivy'),
               KIVY_NO_ARGS='1', LIBGL_ALWAYS_SOFTWARE='1')
    with virtual_screen(display, '1280x1024x24', '+extension', 'GLX'), \
            open(tmp_path / 'katrain.out', 'w') as out:
        gui = subprocess.Popen([sys.executable, '-m', 'katrain', str(config), str(game)],
                               env=env, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path,
                               start_new_session=True)
        try:
            check_katrain(tmp_path, log, gui, env)
        finally:
            stop(gui)


def check_katrain(tmp_path, log, gui, env):
    """KaTrain received an answer a move, the engine's log holds them with ownership, and
    the screen is kept."""
    deadline = time.monotonic() + 240
    done = set()
    while time.monotonic() < deadline and len(done) < MOVES and gui.poll() is None:
        time.sleep(1.0)
        text = (tmp_path / 'katrain.out').read_text(errors='replace')
        done = set(re.findall(r'\]\[(QUERY:\d+)\]\[done\] KataGo analysis received: '
                              r'(\d+) candidate moves', text))
    text = (tmp_path / 'katrain.out').read_text(errors='replace')
    assert gui.poll() is None, f'KaTrain exited: {text[-2000:]}'
    assert len(done) >= MOVES, f'{len(done)} answers reached KaTrain: {text[-2000:]}'
    answers = [json.loads(line.split('>> ', 1)[1]) for line in log.read_text().splitlines()
               if ' >> {' in line]
    final = [a for a in answers if a.get('isDuringSearch') is False and 'rootInfo' in a]
    assert len(final) >= MOVES
    assert sum(len(a.get('ownership', ())) == 361 for a in final) >= MOVES
    assert not [a for a in answers if 'error' in a]
    time.sleep(2.0)   # the last answers drawn
    artifacts = REPO / 'runs' / 'test-artifacts'
    artifacts.mkdir(parents=True, exist_ok=True)
    subprocess.run(['import', '-window', 'root', str(artifacts / 'katrain.png')], env=env,
                   check=True, timeout=30)
    assert (artifacts / 'katrain.png').stat().st_size > 10_000
