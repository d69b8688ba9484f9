"""Debian's Lizzie 0.7.4 with goengine as its engine, under Xvfb, configured as docs/GUIS.md's
Lizzie section says: it starts, accepts goengine's version, asks for analysis and draws it,
and a move clicked on its board is played and analysed afresh. A screenshot is kept in
runs/test-artifacts/lizzie.png. Skipped, saying why, without Java, Xvfb, xdotool,
ImageMagick's import or Lizzie (`make test` installs them as root on a Debian-like system)."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import goengine
from tests.gui.screen import stop, virtual_screen, wait_for

REPO = Path(__file__).resolve().parent.parent
LIZZIE_JAR = Path('/usr/share/java/lizzie.jar')
NEEDED = {'java': shutil.which('java'), 'Xvfb': shutil.which('Xvfb'),
          'xdotool': shutil.which('xdotool'), 'import (ImageMagick)': shutil.which('import'),
          'Lizzie (apt-get install lizzie)': str(LIZZIE_JAR) if LIZZIE_JAR.exists() else None}
MISSING = [name for name, path in NEEDED.items() if path is None]
# Where Lizzie 0.7.4 draws the 19x19 board's centre point on a 1280x900 screen with its
# default window (measured from its screenshot: lines from x 386 to 890, y 191 to 695).
TENGEN = (638, 443)

pytestmark = pytest.mark.skipif(bool(MISSING), reason=f'needs {", ".join(MISSING)}')


def test_lizzie_analyses_with_goengine_out_of_the_box(tmp_path):
    home, log = tmp_path / 'home', tmp_path / 'gtp.log'
    config = home / '.config' / 'leela-zero' / 'lizzie-config.txt'   # Debian's place for it
    config.parent.mkdir(parents=True)
    script = Path(sys.executable).with_name('goengine')     # the README's engine-command
    engine = str(script) if script.exists() else f'{sys.executable} {REPO / "gtp_main.py"}'
    config.write_text(json.dumps({'leelaz': {
        'engine-command': f'{sys.executable} {REPO / "tests" / "gui" / "gtp_tee.py"} {log} '
                          f'-- {engine}',
        'engine-start-location': str(REPO)}}))
    display = f':{70 + os.getpid() % 20}'
    env = dict(os.environ, DISPLAY=display)
    with virtual_screen(display, '1280x900x24'):
        lizzie = subprocess.Popen(['java', f'-Duser.home={home}', '-jar', str(LIZZIE_JAR)],
                                  env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            check_lizzie(log, env)
        finally:
            stop(lizzie)


def check_lizzie(log, env):
    """Lizzie took goengine, analysed, played the click and analysed again; the screen kept."""
    assert wait_for(log, r'^>> =\d+ ' + re.escape(goengine.__version__), 60)
    first = wait_for(log, r'^>> info move [A-T]\d+ visits \d+ winrate', 20)
    assert first is not None, 'no analysis within 20 s of start-up'
    assert wait_for(log, r'^<< \d* ?lz-analyze', 1) is not None
    time.sleep(2.0)
    subprocess.run(['xdotool', 'mousemove', *map(str, TENGEN), 'click', '1'], env=env,
                   check=True, timeout=30)
    played = wait_for(log, r'^<< \d* ?play [Bb] K10$', 20)
    assert played is not None, 'the click on the board played no move'
    assert wait_for(log, r'^>> info move ', 20, after=played[0]) is not None
    time.sleep(1.0)
    artifacts = REPO / 'runs' / 'test-artifacts'
    artifacts.mkdir(parents=True, exist_ok=True)
    subprocess.run(['import', '-window', 'root', str(artifacts / 'lizzie.png')], env=env,
                   check=True, timeout=30)
    assert (artifacts / 'lizzie.png').stat().st_size > 10_000
