"""GoGui (../shared/tools/gogui, built from its source) with goengine as its engine, under
Xvfb, as docs/GUIS.md's GoGui section sets it up: goengine plays Black, a white move clicked
on GoGui's board is answered, and the policy heatmap is run from GoGui's Analyze dialog
(F8, the command clicked, Run) and drawn on the board. Asserted on what GoGui itself logged
(-verbose: its GTP stream) and on its screen; the screenshot is kept in
runs/test-artifacts/gogui.png. Skipped, saying why, without Java, Xvfb, xdotool,
ImageMagick or GoGui's jar (`make test` installs the others as root; GOGUI_DIR overrides
where GoGui lies)."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.gui.screen import stop, virtual_screen, wait_for

REPO = Path(__file__).resolve().parent.parent
GOGUI = Path(os.environ.get('GOGUI_DIR', REPO.parent / 'shared' / 'tools' / 'gogui')) / 'lib' / 'gogui.jar'
NEEDED = {'java': shutil.which('java'), 'Xvfb': shutil.which('Xvfb'),
          'xdotool': shutil.which('xdotool'), 'ImageMagick (import, convert)': shutil.which('import'),
          f'GoGui ({GOGUI})': str(GOGUI) if GOGUI.exists() else None}
MISSING = [name for name, path in NEEDED.items() if path is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f'needs {", ".join(MISSING)}')

# GoGui's window at 1280x900 without a window manager (measured from its screenshot): the
# 19x19 grid from x 26 to 602 and y 87 to 663, 32 pixels a line; its Analyze dialog opens
# at the top left, its first command on the line at y 9 and its Run button at (95, 558).
GRID_LEFT, GRID_TOP, STEP = 26, 87, 32
FIRST_COMMAND, RUN_BUTTON = (55, 9), (95, 558)


def point(vertex):
    """The screen pixel of a GTP vertex on GoGui's board."""
    col = 'ABCDEFGHJKLMNOPQRST'.index(vertex[0])
    return GRID_LEFT + STEP * col, GRID_TOP + STEP * (19 - int(vertex[1:]))


def mean_brightness(png, vertex):
    """Mean brightness (0-1) of the square of one point in a screenshot."""
    x, y = point(vertex)
    out = subprocess.run(['convert', str(png), '-crop', f'24x24+{x - 12}+{y - 12}', '+repage',
                          '-colorspace', 'Gray', '-format', '%[fx:mean]', 'info:'],
                         capture_output=True, text=True, check=True, timeout=30)
    return float(out.stdout)


def test_gogui_plays_and_draws_the_policy_heatmap(tmp_path):
    log, gogui_log = tmp_path / 'gtp.log', tmp_path / 'gogui.err'
    script = Path(sys.executable).with_name('goengine')
    engine = str(script) if script.exists() else f'{sys.executable} {REPO / "gtp_main.py"}'
    program = (f'{sys.executable} {REPO / "tests" / "gui" / "gtp_tee.py"} {log} -- '
               f'{engine} --time-per-move 1')
    display = f':{90 + os.getpid() % 20}'
    env = dict(os.environ, DISPLAY=display)
    artifacts = REPO / 'runs' / 'test-artifacts'
    artifacts.mkdir(parents=True, exist_ok=True)
    with virtual_screen(display, '1280x900x24'), open(gogui_log, 'w') as err:
        gogui = subprocess.Popen(['java', f'-Duser.home={tmp_path}', '-jar', str(GOGUI),
                                  '-program', program, '-size', '19', '-computer-black',
                                  '-auto', '-verbose'],
                                 env=env, stdout=subprocess.DEVNULL, stderr=err,
                                 start_new_session=True)
        try:
            check_gogui(log, gogui_log, env, tmp_path, artifacts)
        finally:
            stop(gogui)


def shot(env, path):
    subprocess.run(['import', '-window', 'root', str(path)], env=env, check=True, timeout=30)


def check_gogui(log, gogui_log, env, tmp_path, artifacts):
    """GoGui asked for and drew goengine's moves and its heatmap; its own log says so."""
    first = wait_for(log, r'^>> = ([A-T]\d+)$', 60)
    assert first is not None, 'goengine played no first move within 60 s'
    assert wait_for(log, r'^<< genmove b$', 1) is not None
    reply = next(v for v in ('Q16', 'D4') if v != first[1].split()[-1])   # a free 4-4 point
    clicked = None
    for _ in range(5):      # a loaded machine: GoGui may not take clicks the moment it played
        time.sleep(1.0)
        subprocess.run(['xdotool', 'mousemove', *map(str, point(reply)), 'click', '1'], env=env,
                       check=True, timeout=30)
        clicked = wait_for(log, rf'^<< play [Ww] {reply}$', 5)
        if clicked is not None:
            break
    assert clicked is not None, 'the click on GoGui\'s board played no move'
    assert wait_for(log, r'^>> = [A-T]\d+$', 20, after=clicked[0]) is not None
    time.sleep(1.0)
    shot(env, tmp_path / 'before.png')
    subprocess.run(['xdotool', 'key', 'F8'], env=env, check=True, timeout=30)
    time.sleep(2.0)
    for xy in (FIRST_COMMAND, RUN_BUTTON):
        subprocess.run(['xdotool', 'mousemove', *map(str, xy), 'click', '1'], env=env,
                       check=True, timeout=30)
        time.sleep(1.0)
    answer = wait_for(log, r'^>> = INFLUENCE ([A-T]\d+) 1\.000', 20)
    assert answer is not None, 'the Analyze dialog ran no policy heatmap'
    best = re.search(r'INFLUENCE ([A-T]\d+)', answer[1]).group(1)
    time.sleep(2.0)
    shot(env, artifacts / 'gogui.png')
    gogui_said = gogui_log.read_text()
    assert re.search(r'^>> goengine-policy_heatmap w$', gogui_said, re.M), 'GoGui sent no heatmap'
    assert re.search(rf'^<< = INFLUENCE {best} 1\.000', gogui_said, re.M)
    assert re.search(r'^<< = [A-T]\d+$', gogui_said, re.M)            # it took goengine's move
    # the heatmap's label and shading on the policy's best point, where the board was bare
    change = abs(mean_brightness(artifacts / 'gogui.png', best)
                 - mean_brightness(tmp_path / 'before.png', best))
    assert change > 0.03, f'nothing drawn on {best} (brightness moved {change:.3f})'
